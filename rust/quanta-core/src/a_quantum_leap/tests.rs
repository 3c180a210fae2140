//! A Quantum Leap's subtle rules (docs/rules/a_quantum_leap.md), one test per rule; the
//! positions are the documentation's examples where it has one.

use super::rules::{Bonuses, Placement, Rule, from_code, score_placement, score_placement_by_code};
use super::*;

fn game(players: usize) -> AQuantumLeap {
    AQuantumLeap {
        players,
        match_play: false,
        packs: 1,
        teams: false,
    }
}

fn moves(g: &AQuantumLeap, s: &AQuantumLeapState) -> Vec<String> {
    let mut out = Vec::new();
    g.legal_actions(s, &mut out);
    out.iter()
        .map(|&a| g.action_to_string(s, a).unwrap())
        .collect()
}

fn play(g: &AQuantumLeap, s: &AQuantumLeapState, texts: &[&str]) -> AQuantumLeapState {
    texts.iter().fold(*s, |s, t| {
        g.play(&s, g.parse_action(&s, t).unwrap()).unwrap()
    })
}

fn lowest(g: &AQuantumLeap, s: &AQuantumLeapState) -> AQuantumLeapState {
    let mut out = Vec::new();
    g.legal_actions(s, &mut out);
    g.play(s, out[0]).unwrap()
}

/// Top cards from `"3S QH 5D / 4H . 9D / ..."`.
fn tops(text: &str) -> [Card; CELLS] {
    let mut out = [NO_CARD; CELLS];
    for (top, c) in out
        .iter_mut()
        .zip(text.split_whitespace().filter(|&c| c != "/"))
    {
        *top = from_code(c).unwrap_or(NO_CARD);
    }
    out
}

fn scored(display: &str, card: &str, cell: &str, pattern: Option<Pattern>) -> Placement {
    let cell = CELL_NAMES.iter().position(|&c| c == cell).unwrap();
    score_placement(
        &tops(display),
        from_code(card).unwrap(),
        cell,
        pattern,
        None,
    )
    .unwrap()
}

fn bonus(pair: u32, run: u32, triple: u32) -> Bonuses {
    Bonuses { pair, run, triple }
}

// The mid-game example of the docs: player 0 to play under `descending`, player 1 passed.
const MID: &str = "QH,5H6H7H6S5S4S,7S8H/AH2H2S,QS,9H/8S,JSJHTHTS,3S4H3H AS,9S,KS|*KH \
                   -/AD,2D,3D,4D,5D,6D,7D,8D,9D,TD,JD,QD,KD|-/AC,2C,3C,4C,5C,6C,7C,8C,9C,TC,JC,\
                   QC,KC descending play:0:0 1 9,11 1/1";

#[test]
fn ace_is_one_and_fourteen_when_placing() {
    let fits = |placed: u8, below: u8| rules_of(legal_rules(Pattern::Free, placed, below));
    let names = |placed, below| fits(placed, below).map(Rule::name).collect::<Vec<_>>();
    assert_eq!(names(1, 13), ["ascending"]); // A on K: 14 = 13 + 1
    assert_eq!(names(13, 1), ["descending"]);
    assert_eq!(names(2, 1), ["ascending", "doubling"]);
    assert_eq!(names(1, 2), ["descending", "halving"]);
    assert_eq!(names(7, 1), ["halving"]); // 7 = 14 / 2
    assert_eq!(names(1, 7), ["doubling"]); // 14 = 2 × 7
    assert_eq!(names(1, 1), ["equal"]);
    assert!(names(12, 1).is_empty() && names(3, 1).is_empty());
}

#[test]
fn quantum_leap_switches_the_pattern_and_scores_its_own_rule() {
    let d = "AS 9H TD / 3H 5C KD / QC 4H JS";
    let p = scored(d, "2D", "a1", Some(Pattern::Ascending));
    assert_eq!((p.points, p.pattern), (1, Pattern::Doubling));
    let p = scored(d, "2D", "a1", Some(Pattern::Doubling));
    assert_eq!((p.points, p.pattern), (2, Pattern::Ascending));
    let d = "2S 9H TD / 3H 5C KD / QC 4H JS";
    assert_eq!(
        scored(d, "AD", "a1", Some(Pattern::Descending)).pattern,
        Pattern::Halving
    );
    assert_eq!(
        scored(d, "AD", "a1", Some(Pattern::Halving)).pattern,
        Pattern::Descending
    );
    // The Ace as 14 is no leap: A on K stays ascending.
    let d = "KS 9H TD / 3H 5C KD / QC 4H JS";
    assert_eq!(
        scored(d, "AD", "a1", Some(Pattern::Ascending)).pattern,
        Pattern::Ascending
    );
}

#[test]
fn opening_and_free_ace_two_placements_name_their_rule() {
    let d = tops("AS 9H TD / 3H 5C KD / QC 4H JS");
    let two = from_code("2D").unwrap();
    assert!(matches!(
        score_placement(&d, two, 0, Some(Pattern::Free), None),
        Err(Error::IllegalMove(m)) if m.contains("needs a rule")
    ));
    let p = score_placement(&d, two, 0, Some(Pattern::Opening), Some(Rule::Doubling)).unwrap();
    assert_eq!((p.points, p.pattern), (2, Pattern::Ascending));
    assert!(score_placement(&d, two, 0, Some(Pattern::Opening), Some(Rule::Equal)).is_err());
}

#[test]
fn twelve_points_for_one_five() {
    // 1 + run 3-4-5 (3) + triple a3-b2-c1 (6) + pair with b3 (2; b2 is in the triple).
    let p = scored(
        "3S QH 5D / 4H 5C 9D / 4D 5S KH",
        "5H",
        "a3",
        Some(Pattern::Ascending),
    );
    assert_eq!((p.points, p.bonuses), (12, bonus(1, 1, 1)));
}

#[test]
fn pairs_leave_out_only_the_members_of_a_triple_the_card_makes() {
    let p = scored(
        "9S 9H 8D / 3H 5C 9C / QC 4H JS",
        "9D",
        "c1",
        Some(Pattern::Ascending),
    );
    assert_eq!((p.points, p.bonuses), (9, bonus(1, 0, 1)));
    let p = scored(
        "2S 9H 8D / 3H 5C 9C / QC 4H JS",
        "9D",
        "c1",
        Some(Pattern::Ascending),
    );
    assert_eq!(p.bonuses, bonus(2, 0, 0));
}

#[test]
fn runs_step_by_one_either_way_through_the_ace() {
    let run = |a1: &str, b1: &str, below: &str, card: &str| {
        let d = format!("{a1} {b1} {below} / 3C 6C 5H / TC 4H JS");
        let cell = 2;
        let t = tops(&d);
        let legal = legal_rules(Pattern::Free, rank(from_code(card).unwrap()), rank(t[cell]));
        let rule = rules_of(legal).next().unwrap();
        score_placement(
            &t,
            from_code(card).unwrap(),
            cell,
            Some(Pattern::Free),
            Some(rule),
        )
        .unwrap()
        .bonuses
        .run
    };
    assert_eq!(run("QS", "KH", "KD", "AD"), 1); // Q-K-A
    assert_eq!(run("KS", "AH", "AD", "2D"), 1); // K-A-2
    assert_eq!(run("2S", "AH", "AD", "KD"), 1); // 2-A-K
    assert_eq!(run("8S", "TH", "TD", "9D"), 0); // 8-10-9
    assert_eq!(run("2S", "AH", "AD", "2D"), 0); // 2-A-2
}

#[test]
fn equal_scores_nothing_not_even_bonuses_and_makes_the_pattern_free() {
    let p = scored(
        "7S 7H 7C / 3H 2C 9C / QC 4H JS",
        "7D",
        "c1",
        Some(Pattern::Ascending),
    );
    assert_eq!(p.rule, Some(Rule::Equal));
    assert_eq!(
        (p.points, p.bonuses, p.pattern),
        (0, bonus(0, 0, 0), Pattern::Free)
    );
}

#[test]
fn the_higgs_scores_bonuses_only() {
    let p = scored("QS KH 7C / 7H . 4D / 2S JH QD", "QH", "b2", None);
    assert_eq!((p.points, p.bonuses, p.rule), (9, bonus(0, 1, 1), None));
    assert_eq!(
        scored("QS KH 7C / 7H . 4D / 2S JH QD", "7D", "b2", None).points,
        4
    );
}

#[test]
fn score_placement_refuses_malformed_arguments_as_invalid_options() {
    let row = |r: &[&str]| {
        r.iter()
            .map(|c| (*c != ".").then(|| c.to_string()))
            .collect()
    };
    let d: Vec<Vec<Option<String>>> = vec![
        row(&["4S", "9H", "TD"]),
        row(&["3H", "2C", "KD"]),
        row(&["QC", "4H", "JS"]),
    ];
    let asc = Some("ascending");
    for (card, pattern, rule) in [
        ("5Z", asc, None),
        ("9H", asc, None),
        ("5D", Some("up"), None),
        ("5D", asc, Some("x")),
    ] {
        assert!(matches!(
            score_placement_by_code(&d, card, 0, pattern, rule, 1),
            Err(Error::InvalidOption(_))
        ));
    }
    assert!(matches!(
        score_placement_by_code(&d[..2], "5D", 0, asc, None, 1),
        Err(Error::InvalidOption(_))
    ));
    assert!(matches!(
        score_placement_by_code(&d, "9D", 0, asc, None, 1),
        Err(Error::IllegalMove(_))
    ));
    assert_eq!(
        score_placement_by_code(&d, "5D", 0, asc, None, 1)
            .unwrap()
            .points,
        1
    );
}

#[test]
fn stage_one_is_dealer_then_clockwise_and_the_higgs_opens_stage_two() {
    // The docs' lowest-action example.
    let g = game(2);
    let mut s = g.new_state();
    while s.phase != Phase::Higgs {
        s = lowest(&g, &s);
    }
    assert_eq!(
        g.notation(&s),
        "AS,AH,2S/2H,.,3S/3H,4S,4H 5S,6S,7S,8S,9S,TS,JS,QS,KS|5H,6H,7H,8H,9H,TH,JH,QH,KH \
         -/AD,2D,3D,4D,5D,6D,7D,8D,9D,TD,JD,QD,KD|-/AC,2C,3C,4C,5C,6C,7C,8C,9C,TC,JC,QC,KC - \
         higgs:0 0 0,0 1/1"
    );
    let s = play(&g, &s, &["higgs 5S"]);
    assert!(g.notation(&s).ends_with("opening play:1:0 0 0,0 1/1"));
    // 5H on the 4S at b3: ascending 1 + the pair with the 5S on b2.
    let s = play(&g, &s, &["5H b3"]);
    assert!(g.notation(&s).ends_with("ascending play:1:1 0 0,3 1/1"));
}

#[test]
fn three_players_leave_one_suit_out_at_random() {
    let g = game(3);
    let s = g.new_state();
    let mut odds = Vec::new();
    g.chance_outcomes(&s, &mut odds);
    assert_eq!(
        odds,
        (LEAVE_BASE..LEAVE_BASE + 4)
            .map(|a| (a, 0.25))
            .collect::<Vec<_>>()
    );
    let s = play(&g, &s, &["leave out H"]);
    assert_eq!(s.stocks[..3], [suit_cards(0), suit_cards(2), suit_cards(3)]);
    assert_eq!(g.from_notation(&g.notation(&s)).unwrap(), s);
}

#[test]
fn the_legal_placements_of_the_mid_game_example() {
    let g = game(2);
    let s = g.from_notation(MID).unwrap();
    let mut ids = Vec::new();
    g.legal_actions(&s, &mut ids);
    assert_eq!(ids, [16, 389, 396]);
    assert_eq!(moves(&g, &s), ["AS a2", "9S c2", "9S b3"]);
    assert_eq!(g.parse_action(&s, "9S b3 descending").unwrap(), 396);
    assert!(g.parse_action(&s, "9S b3 halving").is_err());
    // A on the 2S, descending, is a quantum leap to halving.
    assert_eq!(play(&g, &s, &["AS a2"]).pattern, Some(Pattern::Halving));
}

#[test]
fn observation_hides_covered_cards_and_other_hands_information_state_keeps_the_stacks() {
    let g = game(2);
    let s = g.from_notation(MID).unwrap();
    let tail = "0/13|0/13 descending play:0:0 1 9,11 1/1";
    let tops = "QH,4S,8H/2S,QS,9H/8S,TS,3H 1,6,2/3,1,1/1,4,3";
    assert_eq!(g.observation_string(&s, 1), format!("{tops} #3|*KH {tail}"));
    assert_eq!(
        g.observation_string(&s, 0),
        format!("{tops} AS,9S,KS|*KH {tail}")
    );
    assert_eq!(
        g.information_state_string(&s, 1),
        format!("QH,5H6H7H6S5S4S,7S8H/AH2H2S,QS,9H/8S,JSJHTHTS,3S4H3H #3|*KH {tail}")
    );
}

#[test]
fn fifth_card_of_a_turn_gives_each_opponent_four_points_once() {
    // "Using more than four cards in a turn of play incurs a penalty: four points are awarded
    // to each opponent. Note: when only one player remains with cards in hand this rule no
    // longer applies." Player 1 holds the clubs in hand (the second stock taken up).
    let g = game(2);
    let text = "2S7S8SAD2D3D4D5D6D7D8D9DTDJDQDKD8H,AH9H,3STH/2H3H,4S5H,5SKH/6HQH,6S4H,7HJH \
                AS,9S,TS,JS,QS,KS|AC,2C,3C,4C,5C,6C,7C,8C,9C,TC,JC,QC,KC -/-|-/- ascending \
                play:0:0 0 10,20 1/1";
    let s = g.from_notation(text).unwrap();
    let s = play(&g, &s, &["9S a1", "TS a1", "JS a1", "QS a1"]);
    assert_eq!(s.scores[1], 20, "four cards: no penalty");
    let s = play(&g, &s, &["KS a1"]);
    assert_eq!(s.scores[1], 24, "the fifth card: 4 to the opponent");
    let s = play(&g, &s, &["AS a1"]);
    assert_eq!((s.scores[1], s.placed), (24, 6), "once per turn");
}

#[test]
fn no_penalty_when_the_only_other_cards_are_an_untaken_second_stock() {
    // "when only one player remains with cards in hand this rule no longer applies", and "an
    // unused second stock in a two player game does not count as 'in hand'".
    let g = game(2);
    let text = "2S7S8SAD2D3D4D5D6D7D8D9DTDJDQDKD8H,AH9H,3STH/2H3H,4S5H,5SKH/6HQH,6S4H,7HJH \
                AS,9S,TS,JS,QS,KS|- -/-|-/AC,2C,3C,4C,5C,6C,7C,8C,9C,TC,JC,QC,KC ascending \
                play:0:0 0 10,20 1/1";
    let s = g.from_notation(text).unwrap();
    let s = play(
        &g,
        &s,
        &["9S a1", "TS a1", "JS a1", "QS a1", "KS a1", "AS a1"],
    );
    assert_eq!(
        (s.scores[1], s.placed),
        (20, 6),
        "player 1 has no card in hand"
    );
    assert_eq!(s.seconds[1], suit_cards(3), "the clubs are still aside");
}

#[test]
fn second_stock_is_taken_up_at_the_start_of_the_next_turn_only() {
    let g = game(2);
    let text = "AS7S8STSQHKH8H,AH9H,2STH/5H3H,3S5S,4SKS/7HQS,6S4H,JHJS 9S|2H,6H \
                -/AD,2D,3D,4D,5D,6D,7D,8D,9D,TD,JD,QD,KD|-/AC,2C,3C,4C,5C,6C,7C,8C,9C,TC,JC,QC,\
                KC ascending play:0:0 0 0,0 1/1";
    let s = g.from_notation(text).unwrap();
    let s = play(&g, &s, &["9S a1"]);
    assert_eq!(
        moves(&g, &s),
        ["end"],
        "the hand ran out mid-turn: only end"
    );
    assert_eq!(s.seconds[0], suit_cards(2));
    let s = play(&g, &s, &["end", "6H b2", "end"]);
    assert_eq!((s.player, s.hands[0], s.seconds[0]), (0, suit_cards(2), 0));
}

#[test]
fn every_player_holding_cards_passing_in_succession_ends_the_game() {
    let g = game(2);
    let text = "AS6S8S9STSJSQSKS5H6H9HTHJHQHKHAD2D3D4D5D6D7D8D9DTDJDQDKDAC6C7C8C9C8H,AH2C,2STC/\
                2H3C,3S5C,4SKC/3HQC,5S4C,4HJC 7S|7H -/-|-/- ascending play:0:0 0 5,6 1/1";
    let s = g.from_notation(text).unwrap();
    let s = play(&g, &s, &["pass"]);
    assert_eq!(g.to_move(&s), ToMove::Player(1));
    assert!(
        g.notation(&s).contains(" *7S|7H "),
        "the passer's hand is shown"
    );
    let s = play(&g, &s, &["pass"]);
    assert_eq!(g.to_move(&s), ToMove::Terminal);
    assert!(g.notation(&s).ends_with("ascending end 2 5,6 1/1"));
}

#[test]
fn resample_redraws_only_another_players_drawn_card() {
    let g = game(2);
    let s = play(&g, &g.new_state(), &["draw 7S"]);
    let mut seen = 0u64;
    for seed in 0..400 {
        let r = g.resample(&s, 1, &mut crate::game::row_rng(seed, 0));
        assert_eq!(
            g.information_state_string(&r, 1),
            g.information_state_string(&s, 1)
        );
        assert_eq!(r.stocks[0] | 1 << r.drawn, suit_cards(0));
        seen |= 1 << r.drawn;
        assert_eq!(g.resample(&s, 0, &mut crate::game::row_rng(seed, 0)), s);
    }
    assert_eq!(seen, suit_cards(0));
    let mid = g.from_notation(MID).unwrap();
    assert_eq!(g.resample(&mid, 1, &mut crate::game::row_rng(0, 0)), mid);
}

#[test]
fn notation_refuses_what_cannot_be() {
    let g = game(2);
    for bad in [
        MID.replace(" 1/1", " 1/2"),
        MID.replace("AS,9S,KS", "AS,KS,9S"),
        MID.replace("*KH", "*-"),
        MID.replace("descending", "opening"),
        MID.replace("play:0:0", "play:0:1"),
        MID.replace(" 1 9,11", " 2 9,11"),
        MID.replace("-/AD,2D", "-/2D"),
        MID.replace("QH,5H6H7H6S5S4S", "5H6H7H6S5S4SQH"),
        MID.replace("8S,JSJHTHTS", "8S,JSJHTHT"),
        MID.replace("8S,JSJHTHTS", "8S,,JSJHTHTS"),
        MID.replace("QH,", ","),
        ".,.,./.,.,./.,.,. -|- -/-|-/- - leave 0 0,0 1/1".to_string(),
    ] {
        assert!(
            matches!(g.from_notation(&bad), Err(Error::InvalidNotation(_))),
            "{bad}"
        );
    }
}

/// Two packs: the two copies of a card on the display are told apart by reading order, so a
/// position has one form whichever copy went down first ("The four suits have no significance
/// in the play of game").
#[test]
fn two_copies_of_a_card_have_one_form_whichever_went_down_first() {
    let (seven, eight) = (from_code("7S").unwrap(), from_code("8H").unwrap());
    let empty = AQuantumLeapState::empty(0, [0; MAX_PLAYERS], Phase::Play, 0);
    // c3 first, then a1 (the later copy comes first in reading order), against a1 first.
    let (mut a, mut b) = (empty, empty);
    a.put_copy(seven, 8);
    a.put(eight, 8);
    a.put_copy(seven, 0);
    b.put_copy(seven, 0);
    b.put_copy(seven, 8);
    b.put(eight, 8);
    assert_eq!(a, b);
    assert_eq!(
        (a.stack(0), a.stack(8)),
        (vec![seven], vec![seven + 52, eight])
    );
    // On one stack the lower copy is the first.
    let mut c = empty;
    c.put_copy(seven, 4);
    c.put_copy(seven, 4);
    assert_eq!(c.stack(4), vec![seven, seven + 52]);
}

#[test]
fn partners_share_their_returns_and_the_penalty_skips_the_partner() {
    let g = AQuantumLeap::from_options(&Options::from([
        ("players".to_string(), OptionValue::Int(4)),
        (
            "teams".to_string(),
            OptionValue::Str("partners".to_string()),
        ),
    ]))
    .unwrap();
    let mut s = g.new_state();
    s.scores = [3, 4, 10, 0];
    let mut r = [0.0; 4];
    g.returns(&s, &mut r);
    assert_eq!(r, [7.0, 7.0, 10.0, 10.0]);
    assert_eq!((g.side(1), g.side(2)), (0, 1));
}

#[test]
fn random_games_round_trip_and_keep_within_the_bounds() {
    let variants = (2..=4)
        .flat_map(|players| [(players, false, 1, false), (players, true, 1, false)])
        .chain([
            (3, false, 2, false),
            (4, false, 2, false),
            (4, false, 1, true),
            (4, true, 2, true),
        ]);
    for (players, match_play, packs, teams) in variants {
        {
            let g = AQuantumLeap {
                players,
                match_play,
                packs,
                teams,
            };
            let info = g.info();
            let mut rng = crate::game::row_rng(
                players as u64 + 8 * (packs as u64 - 1) + 16 * teams as u64,
                match_play as u64,
            );
            for _ in 0..20 {
                let mut s = g.new_state();
                let mut decisions = 0;
                while g.to_move(&s) != ToMove::Terminal {
                    assert_eq!(g.from_notation(&g.notation(&s)).unwrap(), s);
                    let a = match g.to_move(&s) {
                        ToMove::Chance => g.sample_chance(&s, &mut rng),
                        _ => {
                            decisions += 1;
                            let mut v = Vec::new();
                            g.legal_actions(&s, &mut v);
                            let a = v[rng.random_range(0..v.len())];
                            let text = g.action_to_string(&s, a).unwrap();
                            assert_eq!(g.parse_action(&s, &text).unwrap(), a);
                            a
                        }
                    };
                    s = g.play(&s, a).unwrap();
                }
                assert_eq!(g.from_notation(&g.notation(&s)).unwrap(), s);
                assert!(decisions <= info.max_game_length);
                let mut r = vec![0.0; players];
                g.returns(&s, &mut r);
                assert!(
                    r.iter()
                        .all(|&x| info.min_return <= x && x <= info.max_return)
                );
            }
        }
    }
}
