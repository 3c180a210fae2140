//! The game flow: deal, turns, draws, passes, round ends, matches, notation and observations.
//! (The scoring of one placement is tested in `scoring.rs`.)

use super::*;
use crate::game::row_rng;
use cards::from_code;
use rand::seq::SliceRandom as _;

fn game(players: i64, excuse: bool, match_play: bool) -> Quincunx {
    Quincunx::from_options(&Options::from([
        ("players".to_string(), OptionValue::Int(players)),
        ("excuse".to_string(), OptionValue::Bool(excuse)),
        ("match".to_string(), OptionValue::Bool(match_play)),
    ]))
    .unwrap()
}

fn set(codes: &[&str]) -> u64 {
    codes.iter().fold(0, |s, c| s | 1 << from_code(c).unwrap())
}

/// The notation of a position: the pile is every card of the deck not written elsewhere.
fn position(g: &Quincunx, grid: &str, hands: &str, tail: &str) -> QuincunxState {
    let used = grid
        .split(['/', ','])
        .chain(hands.split(['|', ',']))
        .filter(|c| *c != "." && *c != "-")
        .fold(0u64, |s, c| s | 1 << from_code(c).unwrap());
    let mut pile = String::new();
    write_cards(g.deck() & !used, &mut pile);
    let text = format!("{grid} {hands} {pile} {tail}");
    g.from_notation(&text)
        .unwrap_or_else(|e| panic!("{e} for {text}"))
}

fn play(g: &Quincunx, s: &QuincunxState, action: &str) -> QuincunxState {
    let a = g.parse_action(s, action).unwrap();
    g.play(s, a).unwrap()
}

/// Deals the lowest card of the pile until the deal is over.
fn deal_lowest(g: &Quincunx, mut s: QuincunxState) -> QuincunxState {
    while s.turn == Turn::Deal {
        s = g
            .play(&s, g.chance_base() + s.pile.trailing_zeros())
            .unwrap();
    }
    s
}

fn random_action(g: &Quincunx, s: &QuincunxState, rng: &mut Rng) -> Action {
    match g.to_move(s) {
        ToMove::Chance => g.sample_chance(s, rng),
        _ => {
            let mut v = Vec::new();
            g.legal_actions(s, &mut v);
            v[rng.random_range(0..v.len())]
        }
    }
}

fn book(players: i64, excuse: bool, match_play: bool) -> Quincunx {
    Quincunx::from_options(&Options::from([
        ("players".to_string(), OptionValue::Int(players)),
        ("excuse".to_string(), OptionValue::Bool(excuse)),
        ("match".to_string(), OptionValue::Bool(match_play)),
        ("setup".to_string(), OptionValue::Str("book".into())),
    ]))
    .unwrap()
}

fn all_games() -> Vec<Quincunx> {
    let mut out = Vec::new();
    for players in 1..=4 {
        for excuse in [false, true] {
            for match_play in [false, true] {
                if !(players == 1 && match_play) {
                    out.push(game(players, excuse, match_play));
                }
                if (2..=3).contains(&players) {
                    out.push(book(players, excuse, match_play));
                }
            }
        }
    }
    out
}

#[test]
fn options_are_checked() {
    let g = |pairs: &[(&str, OptionValue)]| {
        Quincunx::from_options(&Options::from_iter(
            pairs.iter().map(|(k, v)| (k.to_string(), v.clone())),
        ))
    };
    let invalid = |r: Result<Quincunx>, words: &str| match r {
        Err(Error::InvalidOption(m)) => assert!(m.contains(words), "{m}"),
        other => panic!("expected InvalidOption, got {other:?}"),
    };
    invalid(g(&[("players", OptionValue::Int(5))]), "players");
    invalid(g(&[("players", OptionValue::Int(0))]), "players");
    invalid(
        g(&[
            ("players", OptionValue::Int(1)),
            ("match", OptionValue::Bool(true)),
        ]),
        "solitaire",
    );
    for players in [1, 4] {
        invalid(
            g(&[
                ("setup", OptionValue::Str("book".into())),
                ("players", OptionValue::Int(players)),
            ]),
            "2 or 3 players",
        );
    }
    let b = g(&[("setup", OptionValue::Str("book".into()))]).unwrap();
    assert_eq!(
        (b.setup, b.players, b.side(), b.cells()),
        (Setup::Book, 2, 9, 81)
    );
    assert_eq!(b.num_actions(), 37 * 81 + 37);
    assert_eq!(Quincunx::from_options(&b.options()).unwrap(), b);
    invalid(g(&[("setup", OptionValue::Str("wild".into()))]), "wiki");
    invalid(g(&[("excuse", OptionValue::Int(1))]), "excuse");
    let default = g(&[]).unwrap();
    assert_eq!(
        (default.players, default.excuse, default.match_play),
        (2, false, false)
    );
    assert_eq!(Quincunx::from_options(&default.options()).unwrap(), default);
}

#[test]
fn deal_counts_per_player_count() {
    // (players, start cells, hand size): 2p corners + centre and 10, 3p corners and 7,
    // 4p corners + centre and 6, solitaire the 4x4 corners and 8.
    for (players, starts, hand) in [(1, 4, 8), (2, 5, 10), (3, 4, 7), (4, 5, 6)] {
        let g = game(players, false, false);
        let mut s = g.new_state();
        let mut rng = row_rng(1, players as u64);
        let mut dealt = 0;
        while g.to_move(&s) == ToMove::Chance {
            let a = g.sample_chance(&s, &mut rng);
            s = g.play(&s, a).unwrap();
            dealt += 1;
        }
        assert_eq!(dealt, starts + players as u32 * hand);
        let on_grid = s.grid.iter().filter(|&&c| c != NO_CARD).count();
        assert_eq!(on_grid, starts as usize);
        assert!(g.start_cells().iter().all(|&c| s.grid[c] != NO_CARD));
        for p in 0..players as usize {
            assert_eq!(s.hands[p].count_ones(), hand);
        }
        assert_eq!(s.pile.count_ones(), 36 - dealt);
        assert_eq!(s.turn, Turn::Place(0));
    }
}

#[test]
fn deal_fills_start_cells_in_order_then_each_hand_in_full() {
    let g = game(2, false, false);
    let s = deal_lowest(&g, g.new_state());
    // a1 e1 c3 a5 e5 get the first five cards; player 0 (on the dealer's left) the next ten.
    assert_eq!(
        g.notation(&s),
        "AM,.,.,.,AS/.,.,.,.,./.,.,AW,.,./.,.,.,.,./AL,.,.,.,AY \
         AK,2MK,2SY,2WL,3MW,3SK,3LY,4MS,4WL,4YK|5ML,5SW,5YK,6MW,6SY,6LK,7ML,7SK,7WY,8MS \
         8WL,8YK,9MS,9WY,9LK,CM,CS,CW,CL,CY,CK 0,0 0 1/1"
    );
}

#[test]
fn deal_and_draw_actions_are_named_by_the_card() {
    let g = game(2, false, false);
    let s = g.new_state();
    let mut v = Vec::new();
    g.legal_actions(&s, &mut v);
    assert_eq!(v.len(), 36);
    assert_eq!(g.action_to_string(&s, v[0]).unwrap(), "deal AM");
    assert_eq!(
        g.parse_action(&s, "deal 7WY").unwrap(),
        g.chance_base() + 23
    );
    let mut odds = Vec::new();
    g.chance_outcomes(&s, &mut odds);
    assert!(odds.iter().all(|&(_, p)| p == 1.0 / 36.0));
    // A placement: card * 25 + cell.
    let s = deal_lowest(&g, s);
    assert_eq!(g.parse_action(&s, "2MK c1").unwrap(), 6 * 25 + 2);
    assert_eq!(g.action_to_string(&s, 6 * 25 + 2).unwrap(), "2MK c1");
    // The Excuse is no card of a game without it.
    assert!(g.action_to_string(&s, g.chance_base() + 36).is_err());
    assert!(g.action_to_string(&s, 36 * 25).is_err());
}

#[test]
fn placement_scores_and_passes_the_turn() {
    let g = game(2, false, false);
    let s = deal_lowest(&g, g.new_state());
    // 3MW on b1, next to the Ace of Moons on a1: 1 + 3 = 4, Ace matching (Moons): +4.
    let t = play(&g, &s, "3MW b1");
    assert_eq!(t.scores[..2], [4, 0]);
    assert_eq!(t.turn, Turn::Place(1));
    assert_eq!(t.hands[0].count_ones(), 9);
    // 8MS on a2 below the Ace of Moons: 9, Ace matching: +9.
    let u = play(&g, &t, "8MS a2");
    assert_eq!(u.scores[..2], [4, 9]);
}

/// A solitaire grid with one empty cell (c4) between two 4s and below a 3, the rest of the
/// basic deck in hand but `pile`.
fn last_solitaire_cell(pile: &[&str]) -> (Quincunx, QuincunxState) {
    let g = game(1, false, false);
    let grid = "AM,AS,AW,AL/AY,AK,2MK,2SY/2WL,3MW,3SK,3LY/4MS,4WL,.,4YK";
    let rest = BASIC_DECK_CODES[15..]
        .iter()
        .filter(|c| !pile.contains(c))
        .copied()
        .collect::<Vec<_>>()
        .join(",");
    let mut pile_field = String::new();
    write_cards(set(pile), &mut pile_field);
    let text = format!("{grid} {rest} {pile_field} 0 0 1/1");
    (g.clone(), g.from_notation(&text).unwrap())
}

const BASIC_DECK_CODES: [&str; 36] = [
    "AM", "AS", "AW", "AL", "AY", "AK", "2MK", "2SY", "2WL", "3MW", "3SK", "3LY", "4MS", "4WL",
    "4YK", "5ML", "5SW", "5YK", "6MW", "6SY", "6LK", "7ML", "7SK", "7WY", "8MS", "8WL", "8YK",
    "9MS", "9WY", "9LK", "CM", "CS", "CW", "CL", "CY", "CK",
];

#[test]
fn draw_from_empty_pile_does_nothing() {
    // 7ML on c4: 7 + 4 = 11 twice (two draws), 7 + 3 = 10. The pile is empty: no draw, the
    // grid is full, and the round ends with the hand penalty of the twenty cards left:
    // 5 5 5 6 6 6 7 7 8 8 8 9 9 9 and six Crowns = 158.
    let (g, s) = last_solitaire_cell(&[]);
    let t = play(&g, &s, "7ML c4");
    assert_eq!(t.turn, Turn::End);
    assert_eq!(t.scores[0], -158);
    assert!(!g.lost(&t));
    let mut r = [0.0];
    g.returns(&t, &mut r);
    assert_eq!(r, [-158.0]);
}

#[test]
fn draws_beyond_the_pile_are_dropped_and_draws_come_before_the_round_end() {
    // The same placement with one card (the Windfall) in the pile: one of the two draws
    // happens, even though the grid is full, and the drawn Crown costs 10 at the end.
    let (g, s) = last_solitaire_cell(&["CK"]);
    let t = play(&g, &s, "7ML c4");
    assert_eq!(
        t.turn,
        Turn::Draw {
            player: 0,
            pending: 1
        }
    );
    assert!(g.notation(&t).ends_with(" 0+1 1/1"));
    assert_eq!(
        g.action_to_string(&t, g.chance_base() + 35).unwrap(),
        "draw CK"
    );
    let u = play(&g, &t, "draw CK");
    assert_eq!(u.turn, Turn::End);
    assert_eq!(u.scores[0], -158);
}

#[test]
fn several_draws_are_chance_nodes_one_after_the_other() {
    let g = game(2, false, false);
    // b1 between the Crown of Moons (a1) and the Ace of Suns (c1): CW there draws twice
    // (20 and 11) and scores a pair of Crowns (+5).
    let s = position(
        &g,
        "CM,.,AS,.,AW/.,.,.,.,./.,.,AL,.,./.,.,.,.,./AY,.,.,.,AK",
        &format!("2MK,CW|{}", BASIC_DECK_CODES[7..24].join(",")),
        "0,0 0 1/1",
    );
    let t = play(&g, &s, "CW b1");
    assert_eq!(t.scores[0], 5);
    assert_eq!(
        t.turn,
        Turn::Draw {
            player: 0,
            pending: 2
        }
    );
    let mut v = Vec::new();
    g.legal_actions(&t, &mut v);
    assert_eq!(v.len(), t.pile.count_ones() as usize);
    let u = g.play(&t, v[0]).unwrap();
    assert_eq!(
        u.turn,
        Turn::Draw {
            player: 0,
            pending: 1
        }
    );
    let w = g.play(&u, v[1]).unwrap();
    assert_eq!(w.turn, Turn::Place(1));
    assert_eq!(w.hands[0].count_ones(), 3);
}

#[test]
fn pass_on_empty_hand() {
    let g = game(3, false, false);
    // Player 0 holds one card, player 1 none, player 2 the twenty others that fill the grid.
    let s = position(
        &g,
        "AM,.,.,.,AS/.,.,.,.,./.,.,.,.,./.,.,.,.,./AW,.,.,.,AL",
        &format!("2MK|-|{}", BASIC_DECK_CODES[7..27].join(",")),
        "0,0,0 0 1/1",
    );
    let t = play(&g, &s, "2MK c3");
    assert_eq!(t.turn, Turn::Place(2)); // player 1 holds nothing: passed
    let u = play(&g, &t, "2SY c1");
    assert_eq!(u.turn, Turn::Place(2)); // players 0 and 1 pass: player 2 again
}

#[test]
fn solitaire_loss() {
    // One card left, no draw: the hand runs out with the grid not full. 2MK on b1 next to the
    // Ace of Moons: +3 (Ace matching).
    let g = game(1, false, false);
    let s = position(&g, "AM,.,.,AS/.,.,.,./.,.,.,./AW,.,.,AL", "2MK", "0 0 1/1");
    let t = play(&g, &s, "2MK b1");
    assert_eq!(t.turn, Turn::End);
    assert!(g.lost(&t));
    let mut r = [0.0];
    g.returns(&t, &mut r);
    // A loss returns less than any completed game; its turn points stay in the scores.
    assert_eq!(r, [-223.0]);
    assert_eq!(t.scores[0], 3);
    let text = g.notation(&t);
    assert_eq!(text.split(' ').nth(1), Some("-"));
    assert!(text.ends_with(" 3 end 1/1"), "{text}");
    assert_eq!(g.from_notation(&g.notation(&t)).unwrap(), t);
}

#[test]
fn round_end_penalties_and_match_rotation_of_dealer() {
    // 2p match, round 1 of 2: one empty cell (d5). 8MS there: 15 with each 7 beside it (+5,
    // +5) and 14 with the 6 above (+4) = 14. The grid is full: player 0 has nothing left,
    // player 1 loses 8 + 10 for the Mill and the Windfall.
    let g = game(2, false, true);
    let grid = "AM,AS,AW,AL,AY/AK,2MK,2SY,2WL,3MW/3SK,3LY,4MS,4WL,4YK/\
                5ML,5SW,5YK,6MW,6SY/6LK,7ML,7SK,.,7WY";
    let s = position(&g, grid, "8MS|8WL,CK", "10,-3 0 1/2");
    let t = play(&g, &s, "8MS d5");
    assert_eq!(t.scores[..2], [10 + 14, -3 - 18]);
    assert_eq!(t.turn, Turn::Deal);
    assert_eq!(t.round, 1);
    assert_eq!(
        g.notation(&t),
        format!(
            "{} -|- {} 24,-21 deal 2/2",
            [".,.,.,.,."; 5].join("/"),
            BASIC_DECK_CODES.join(",")
        )
    );
    // Round 2: player 0 deals, so player 1 is dealt first and begins.
    let u = deal_lowest(&g, t);
    assert_eq!(u.turn, Turn::Place(1));
    assert_eq!(u.hands[1], set(&BASIC_DECK_CODES[5..15]));
    assert_eq!(u.hands[0], set(&BASIC_DECK_CODES[15..25]));
}

#[test]
fn match_has_one_round_per_dealer_and_totals_carry_on() {
    for players in 2..=4 {
        let g = game(players, false, true);
        let mut rng = row_rng(3, players as u64);
        let mut s = g.new_state();
        let mut starts = Vec::new();
        while s.turn != Turn::End {
            let before = s;
            s = g.play(&s, random_action(&g, &s, &mut rng)).unwrap();
            if before.turn == Turn::Deal && s.turn != Turn::Deal {
                starts.push((s.round, s.turn));
            }
            if s.round > before.round {
                // The new round starts from the old totals, nothing dealt.
                assert_eq!(s.grid, [NO_CARD; MAX_CELLS]);
                assert_eq!(s.pile, g.deck());
            }
        }
        let expected: Vec<(u8, Turn)> = (0..players as u8)
            .map(|r| (r, Turn::Place(r % players as u8)))
            .collect();
        assert_eq!(starts, expected);
    }
}

#[test]
fn perft_small_sanity() {
    let g = game(2, false, false);
    let s = g.new_state();
    assert_eq!(g.perft(&s, 1), 36);
    assert_eq!(g.perft(&s, 3), 36 * 35 * 34);
    // After the deal: ten cards on twenty empty cells.
    let s = deal_lowest(&g, s);
    assert_eq!(g.perft(&s, 1), 10 * 20);
    // Solitaire with the Excuse: 37 cards to deal from.
    let g = game(1, true, false);
    let s = deal_lowest(&g, g.new_state());
    assert_eq!(g.perft(&s, 1), 8 * 12);
}

#[test]
fn random_games_round_trip_their_notation_and_keep_every_card_once() {
    for g in all_games() {
        let mut rng = row_rng(5, g.players as u64);
        for _ in 0..20 {
            let mut s = g.new_state();
            loop {
                assert_eq!(
                    g.from_notation(&g.notation(&s)),
                    Ok(s),
                    "{}",
                    g.notation(&s)
                );
                let on_grid = s.grid.iter().filter(|&&c| c != NO_CARD);
                let mut all = s.pile;
                let mut count = s.pile.count_ones();
                for &c in on_grid {
                    all |= 1 << c;
                    count += 1;
                }
                for h in &s.hands[..g.players] {
                    all |= h;
                    count += h.count_ones();
                }
                assert_eq!((all, count), (g.deck(), g.deck().count_ones()));
                if s.turn == Turn::End {
                    break;
                }
                s = g.play(&s, random_action(&g, &s, &mut rng)).unwrap();
            }
        }
    }
}

#[test]
fn fast_playout_plays_exactly_a_checked_playout_of_the_shuffled_pile() {
    // The same game through `play` (every action checked): each round's pile shuffled once
    // with the generator, its cards coming in that order, and uniform legal placements.
    for g in all_games() {
        for seed in 0..50 {
            let mut fast = g.new_state();
            let mut r = vec![0.0; g.players];
            let plies = g.random_playout(&mut fast, &mut row_rng(seed, 0), &mut r);
            let mut rng = row_rng(seed, 0);
            let mut slow = g.new_state();
            let mut slow_plies = 0;
            let (mut coming, mut round) = (Vec::new(), None);
            while slow.turn != Turn::End {
                let action = if g.to_move(&slow) == ToMove::Chance {
                    if round != Some(slow.round) {
                        coming = cards::cards(slow.pile).collect::<Vec<_>>();
                        coming.shuffle(&mut rng);
                        coming.reverse();
                        round = Some(slow.round);
                    }
                    g.chance_base() + coming.pop().unwrap() as Action
                } else {
                    slow_plies += 1;
                    random_action(&g, &slow, &mut rng)
                };
                slow = g.play(&slow, action).unwrap();
            }
            assert_eq!((fast, plies), (slow, slow_plies));
            let mut slow_r = vec![0.0; g.players];
            g.returns(&slow, &mut slow_r);
            assert_eq!(r, slow_r);
        }
    }
}

#[test]
fn game_i_of_the_playouts_is_deal_i_of_the_solitaire_batches() {
    // The corners, the hand and the order the pile is drawn in are the batch's deal.
    for excuse in [false, true] {
        let g = game(1, excuse, false);
        for row in 0..20 {
            let (pos, order) = solve::deal(3, row, excuse);
            let mut rng = row_rng(3, row);
            let mut s = g.new_state();
            let mut coming: Vec<Card> = cards::cards(s.pile).collect();
            coming.shuffle(&mut rng);
            let mut dealt = coming.iter();
            while s.turn == Turn::Deal {
                s = g
                    .play(&s, g.chance_base() + *dealt.next().unwrap() as Action)
                    .unwrap();
            }
            assert_eq!(s.grid[..16], pos.grid[..]);
            assert_eq!(s.hands[0], pos.hand);
            assert_eq!(dealt.copied().collect::<Vec<_>>(), order);
        }
    }
}

#[test]
fn solitaire_returns_turn_points_minus_hand_penalty_and_a_loss_least() {
    let g = game(1, false, false);
    let mut rng = row_rng(9, 0);
    let (mut won, mut lost) = (0, 0);
    for _ in 0..300 {
        let mut s = g.new_state();
        let mut r = [0.0];
        let plies = g.random_playout(&mut s, &mut rng, &mut r);
        if g.lost(&s) {
            lost += 1;
            assert_eq!(r[0], g.info().min_return);
            assert_eq!(s.hands[0], 0);
            assert!((plies as usize) < 12);
        } else {
            won += 1;
            assert_eq!(r[0], s.scores[0] as f64);
            assert!(r[0] > g.info().min_return && r[0] <= g.info().max_return);
            assert_eq!(plies, 12);
        }
    }
    assert!(won > 0 && lost > 0, "won {won}, lost {lost}");
}

#[test]
fn notation_errors_say_what_is_wrong() {
    let g = game(2, false, false);
    let start = g.notation(&g.new_state());
    let dealt = g.notation(&deal_lowest(&g, g.new_state()));
    let with = |from: &str, to: &str| dealt.replacen(from, to, 1);
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "six fields"),
        (format!("{start} extra"), "six fields"),
        (start.replacen(' ', "  ", 1), "six fields"),
        (with("AM,.,.,.,AS/", ""), "rows"),
        (with("AM,.,.,.,AS", "AM,.,.,AS"), "cells"),
        (with("AM,.,.,.,AS", "AM,.,ZZ,.,AS"), "not a card code"),
        (with("AM,.,.,.,AS", "AM,.,AK,.,AS"), "AK appears twice"),
        (with("AK,", ""), "cards missing"),
        (
            with("AM,.,.,.,AS", "AM,.,X,.,AS"),
            "not in this game's deck",
        ),
        (with("AK,2MK", "2MK,AK"), "card-index order"),
        (with(" 0,0 ", " 0 "), "score"),
        (with(" 0,0 ", " 0,+1 "), "not an integer"),
        (with(" 0,0 ", " 0,2000000 "), "not an integer from"),
        (with(" 0 1/1", " 2 1/1"), "turn"),
        (with(" 0 1/1", " 0+0 1/1"), "turn"),
        (with(" 0 1/1", " 0+5 1/1"), "turn"),
        (with(" 0 1/1", " 0 2/1"), "round"),
        (with(" 0 1/1", " 0 1/2"), "round"),
        (with(" 0 1/1", " deal 1/1"), "deal is complete"),
        (with(" 0 1/1", " end 1/1"), "full grid"),
        (
            start.replacen("-|-", "AM|-", 1).replacen("AM,", "", 1),
            "after the start",
        ),
    ];
    for (text, words) in cases {
        match g.from_notation(&text) {
            Err(Error::InvalidNotation(m)) => assert!(m.contains(words), "{text}: {m}"),
            other => panic!("{text}: expected InvalidNotation, got {other:?}"),
        }
    }
    // Positions that cannot be: the player to place holds nothing; two players who could
    // never fill the grid (20 empty cells, 19 cards in hand); draws the pile cannot give.
    let grid = "AM,.,.,.,AS/.,.,.,.,./.,.,AW,.,./.,.,.,.,./AL,.,.,.,AY";
    let s = position(
        &g,
        grid,
        &format!("{}|-", BASIC_DECK_CODES[5..25].join(",")),
        "0,0 0 1/1",
    );
    let text = g.notation(&s).replace(" 0 1/1", " 1 1/1");
    assert!(
        matches!(g.from_notation(&text), Err(Error::InvalidNotation(m)) if m.contains("no card"))
    );
    let text = g
        .notation(&s)
        .replace(",4YK,5ML,", ",4YK,")
        .replace("|- 8WL", "|- 5ML,8WL");
    assert!(
        matches!(g.from_notation(&text), Err(Error::InvalidNotation(m)) if m.contains("fewer cards")),
        "{text}"
    );
    let (sg, s) = last_solitaire_cell(&["CK"]);
    let text = sg.notation(&s).replace(" 0 1/1", " 0+2 1/1");
    assert!(
        matches!(sg.from_notation(&text), Err(Error::InvalidNotation(m)) if m.contains("pile"))
    );
}

#[test]
fn observation_shows_own_hand_and_only_sizes_of_the_others() {
    let g = game(2, false, false);
    let s = deal_lowest(&g, g.new_state());
    let obs = g.observation_string(&s, 1);
    assert_eq!(
        obs,
        "AM,.,.,.,AS/.,.,.,.,./.,.,AW,.,./.,.,.,.,./AL,.,.,.,AY \
         5ML,5SW,5YK,6MW,6SY,6LK,7ML,7SK,7WY,8MS 10|10 11 0,0 0 1/1"
    );
    let width = g.cells() + 2;
    let mut t = vec![0.0; (CARD_COUNT + 1) * width];
    g.observation_tensor(&s, 1, &mut t);
    let at = |card: usize, col: usize| t[card * width + col];
    assert_eq!(at(0, 0), 1.0); // the Ace of Moons on a1
    assert_eq!((at(15, 25), at(15, 26)), (1.0, 0.0)); // the Forest: in the observer's hand
    assert_eq!((at(5, 25), at(5, 26)), (0.0, 1.0)); // the Ace of Knots: player 0's, unseen
    assert_eq!((at(30, 25), at(30, 26)), (0.0, 1.0)); // the Huntress: in the pile, unseen
    assert_eq!(at(36, 26), 0.0); // no Excuse in this game
    let table = &t[CARD_COUNT * width..];
    // hand sizes, scores, to move (player 0), observer (player 1), pile, draws, deal, round, end
    assert_eq!(
        table[..13],
        [
            10.0, 10.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 11.0, 0.0, 0.0, 0.0, 0.0
        ]
    );
    // Player 0 and player 1 see different things, and the same things whatever player 1 holds.
    assert_ne!(g.observation_string(&s, 0), obs);
}

// ---- the book setup ----

/// A 9×9 board's grid field with `cards` {cell name: code} and `.` elsewhere.
fn board(cards: &[(&str, &str)]) -> String {
    (0..BOOK_SIDE)
        .map(|r| {
            (0..BOOK_SIDE)
                .map(|c| {
                    let name = cell_name(r * BOOK_SIDE + c, BOOK_SIDE);
                    cards
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map_or(".", |(_, code)| code)
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn legal_cells_named(g: &Quincunx, s: &QuincunxState) -> Vec<String> {
    cell_bits(g.legal_cells(s))
        .map(|x| cell_name(x, BOOK_SIDE))
        .collect()
}

#[test]
fn book_deals_one_start_card_on_the_centre_and_hands_of_12_or_8() {
    for (players, hand) in [(2, 12), (3, 8)] {
        let g = book(players, false, false);
        let s = deal_lowest(&g, g.new_state());
        assert_eq!(s.grid[40], from_code("AM").unwrap());
        assert_eq!(g.placed(&s), 1);
        for p in 0..players as usize {
            assert_eq!(s.hands[p].count_ones(), hand);
        }
        assert_eq!(s.pile.count_ones(), 36 - 1 - players as u32 * hand);
        assert_eq!(s.turn, Turn::Place(0));
        // The first card goes edge to edge with the start card: d5, f5, e4, e6.
        assert_eq!(legal_cells_named(&g, &s), ["e4", "d5", "f5", "e6"]);
        assert_eq!(g.perft(&s, 1), 4 * hand as u64);
    }
}

#[test]
fn book_cards_must_touch_and_stay_within_a_5x5_box() {
    let g = book(2, false, false);
    // A row of five from c5 to g5: the columns are fixed at c..g, rows may still grow.
    let grid = board(&[
        ("c5", "2MK"),
        ("d5", "2SY"),
        ("e5", "2WL"),
        ("f5", "3MW"),
        ("g5", "3SK"),
    ]);
    let hands = "AM,AS,AW,AL,AY,AK,3LY,4MS,4WL,4YK|5ML,5SW,5YK,6MW,6SY,6LK,7ML,7SK,7WY,8MS";
    let s = position(&g, &grid, hands, "0,0 0 1/1");
    let expected: Vec<String> = ["c4", "d4", "e4", "f4", "g4", "c6", "d6", "e6", "f6", "g6"]
        .iter()
        .map(|n| n.to_string())
        .collect();
    // b5 and h5 would make the row six long; nothing may go off the row's edges.
    assert_eq!(legal_cells_named(&g, &s), expected);
    assert!(g.parse_action(&s, "AM b5").is_err());
    assert!(
        g.play(&s, from_code("AM").unwrap() as Action * 81 + 4 * 9 + 1)
            .is_err()
    );
}

#[test]
fn book_notation_rejects_loose_or_too_wide_grids() {
    let g = book(2, false, false);
    let hands = "AM,AS,AW,AL,AY,AK,4MS,4WL,4YK,5ML,8YK,9MS|\
                 5SW,5YK,6MW,6SY,6LK,7ML,7SK,7WY,8MS,8WL,9WY,9LK";
    let tail = "0,0 0 1/1";
    let bad_grids = [
        // not connected: e5 and g5 with f5 empty
        (board(&[("e5", "2MK"), ("g5", "2SY")]), "connected"),
        // six columns
        (
            board(&[
                ("a5", "2MK"),
                ("b5", "2SY"),
                ("c5", "2WL"),
                ("d5", "3MW"),
                ("e5", "3SK"),
                ("f5", "3LY"),
            ]),
            "5x5",
        ),
        // the centre empty
        (board(&[("d5", "2MK")]), "centre"),
    ];
    for (grid, why) in bad_grids {
        let used = grid
            .split(['/', ','])
            .chain(hands.split(['|', ',']))
            .filter(|c| *c != ".")
            .fold(0u64, |s, c| s | 1 << from_code(c).unwrap());
        let mut pile = String::new();
        write_cards(g.deck() & !used, &mut pile);
        let text = format!("{grid} {hands} {pile} {tail}");
        match g.from_notation(&text) {
            Err(Error::InvalidNotation(m)) => assert!(m.contains(why), "{m}"),
            other => panic!("{other:?} for {text}"),
        }
    }
}

#[test]
fn book_round_ends_with_25_cards_in_a_5x5_box() {
    for g in [book(2, true, false), book(3, false, true)] {
        let mut rng = row_rng(9, g.players as u64);
        for _ in 0..30 {
            let mut s = g.new_state();
            while s.turn != Turn::End {
                s = g.play(&s, random_action(&g, &s, &mut rng)).unwrap();
                assert!(g.placed(&s) <= 25);
                if let Turn::Place(_) = s.turn {
                    assert!(g.placed(&s) < 25); // the draws of the last placement may follow
                }
            }
            assert_eq!(g.placed(&s), 25);
            let cells: Vec<usize> = (0..81).filter(|&x| s.grid[x] != NO_CARD).collect();
            let rows = cells.iter().map(|x| x / 9);
            let cols = cells.iter().map(|x| x % 9);
            assert_eq!(rows.clone().max().unwrap() - rows.min().unwrap(), 4);
            assert_eq!(cols.clone().max().unwrap() - cols.min().unwrap(), 4);
        }
    }
}
