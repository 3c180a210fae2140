use super::*;
use crate::einstein_card::{CODES, FULL};
use crate::game::Rng;
use crate::options::{OptionValue, Options};
use crate::search::Limits;
use rand::Rng as _;
use rand::seq::SliceRandom;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

fn game(open: [bool; 2]) -> EinsteinCard {
    let options = Options::from([("open_hands".to_string(), OptionValue::Bools(open.to_vec()))]);
    EinsteinCard::from_options(&options).unwrap()
}

fn open() -> EinsteinCard {
    game([true, true])
}

/// The notation of `rows` with `player` in `phase`, the hands as given (card codes, `-` for
/// none), the played cards as given (in order), every other card in the heaps.
fn notation(rows: &str, player: u8, phase: &str, hands: [&str; 2], played: [&str; 2]) -> String {
    let heap = |p: usize| {
        let mut left = FULL;
        for c in hands[p]
            .chars()
            .chain(played[p].chars())
            .filter(|&c| c != '-')
        {
            left[CODES.iter().position(|&k| k == c).unwrap()] -= 1;
        }
        let text: String = (0..KINDS)
            .flat_map(|k| std::iter::repeat_n(CODES[k], left[k] as usize))
            .collect();
        if text.is_empty() {
            "-".to_string()
        } else {
            text
        }
    };
    format!(
        "{rows} {player} {phase} {}|{} {}|{} {}|{}",
        hands[0],
        hands[1],
        heap(0),
        heap(1),
        played[0],
        played[1]
    )
}

fn at(text: &str) -> EinsteinCardState {
    open().from_notation(text).unwrap_or_else(|e| panic!("{e}"))
}

fn with<T>(limits: Limits, threads: usize, f: impl FnOnce(&Context) -> T) -> T {
    let cancel = AtomicBool::new(false);
    f(&Context::new(limits, Some(threads), &cancel))
}

fn solved(s: &EinsteinCardState, threads: usize) -> Solution {
    with(Limits::default(), threads, |ctx| solve(&open(), s, ctx)).unwrap()
}

fn analyzed(s: &EinsteinCardState, threads: usize) -> Vec<(Action, f64)> {
    with(Limits::default(), threads, |ctx| analyze(&open(), s, ctx))
        .unwrap()
        .0
}

/// A plain expectiminimax over the engine's `Game` interface, memoised by notation: player
/// 0's expected return.
fn plain(g: &EinsteinCard, s: &EinsteinCardState, seen: &mut HashMap<String, f64>) -> f64 {
    if let Some(&v) = seen.get(&g.notation(s)) {
        return v;
    }
    let value = match g.to_move(s) {
        ToMove::Terminal => {
            let mut r = [0.0; 2];
            g.returns(s, &mut r);
            r[0]
        }
        ToMove::Chance => {
            let mut outcomes = Vec::new();
            g.chance_outcomes(s, &mut outcomes);
            outcomes
                .iter()
                .map(|&(a, p)| p * plain(g, &g.play(s, a).unwrap(), seen))
                .sum()
        }
        ToMove::Player(p) => {
            let mut actions = Vec::new();
            g.legal_actions(s, &mut actions);
            let values = actions
                .iter()
                .map(|&a| plain(g, &g.play(s, a).unwrap(), seen));
            if p == 0 {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        }
    };
    seen.insert(g.notation(s), value);
    value
}

/// A random position at which a card is played: `stones` stones a side (random numbers, on
/// random cells off both corners), hands of one or two cards, `heap` cards in each heap at
/// most, the rest played in a random order; either player to play.
fn random_endgame(rng: &mut Rng, stones: usize, heap: usize) -> EinsteinCardState {
    let mut board = ['.'; 25];
    let mut cells: Vec<usize> = (1..24).collect();
    cells.shuffle(rng);
    for (p, base) in [b'1', b'a'].into_iter().enumerate() {
        let mut numbers: Vec<u8> = (0..6).collect();
        numbers.shuffle(rng);
        for (i, &n) in numbers[..stones].iter().enumerate() {
            board[cells[p * stones + i]] = (base + n) as char;
        }
    }
    let rows: Vec<String> = board.chunks(5).map(|r| r.iter().collect()).collect();
    let mut fields = [
        [String::new(), String::new(), String::new()],
        Default::default(),
    ];
    for f in &mut fields {
        let mut cards: Vec<char> = (0..KINDS)
            .flat_map(|k| std::iter::repeat_n(CODES[k], FULL[k] as usize))
            .collect();
        cards.shuffle(rng);
        let hand = rng.random_range(1..=2);
        let kept = hand + rng.random_range(0..=heap);
        let mut held: Vec<char> = cards[..hand].to_vec();
        let mut left: Vec<char> = cards[hand..kept].to_vec();
        for list in [&mut held, &mut left] {
            list.sort_by_key(|&c| CODES.iter().position(|&k| k == c));
        }
        let text = |l: &[char]| {
            if l.is_empty() {
                "-".to_string()
            } else {
                l.iter().collect()
            }
        };
        *f = [text(&held), text(&left), text(&cards[kept..])];
    }
    let text = format!(
        "{} {} play {}|{} {}|{} {}|{}",
        rows.join("/"),
        rng.random_range(0..2),
        fields[0][0],
        fields[1][0],
        fields[0][1],
        fields[1][1],
        fields[0][2],
        fields[1][2]
    );
    at(&text)
}

#[test]
fn a_card_that_reaches_the_corner_wins() {
    // Stone 1 on d4 steps onto e5: +1 for player 0, the lowest winning action played.
    let s = at(&notation(
        "...../.a.../...../...1./.....",
        0,
        "play",
        ["1", "2"],
        ["-", "-"],
    ));
    let sol = solved(&s, 1);
    assert_eq!(sol.value, 1.0);
    assert_eq!(
        open()
            .action_to_string(&s, sol.best_action.unwrap())
            .unwrap(),
        "play 1"
    );
}

#[test]
fn schroedinger_on_the_last_enemy_stone_is_worth_one_half() {
    // Player 0 holds only Schroedinger, player 1 no card: after the roll nobody can play, a
    // draw unless the marked stone was player 1's last (4-6: a win).
    let text = notation(
        "1..../...../..a../...../.....",
        0,
        "schroedinger",
        ["-", "-"],
        ["112233445566LFCDHS", "112233445566LFCDHS"],
    );
    let s = at(&text);
    let values = analyzed(&s, 1);
    let g = open();
    let named: Vec<(String, f64)> = values
        .iter()
        .map(|&(a, v)| (g.action_to_string(&s, a).unwrap(), v))
        .collect();
    assert_eq!(
        named,
        vec![
            ("stone a1".to_string(), -0.5),
            ("stone c3".to_string(), 0.5)
        ]
    );
    let sol = solved(&s, 1);
    assert_eq!(
        (
            sol.value,
            g.action_to_string(&s, sol.best_action.unwrap()).unwrap()
        ),
        (0.5, "stone c3".into())
    );
}

#[test]
fn murphy_light_is_decided_by_the_opponent_for_itself() {
    // Player 0 played Murphy Light; player 1 names the stone. Stone 1 on d4 would win at
    // once; stone 2 on a1 cannot. Player 1 names a1, and the value is player 1's.
    let text = notation(
        "2..../...../..a../...1./.....",
        0,
        "murphy",
        ["-", "-"],
        ["12233445566FCDHS1L", "112233445566LFCDHS"],
    );
    let s = at(&text);
    assert_eq!(open().to_move(&s), ToMove::Player(1));
    let g = open();
    let values = analyzed(&s, 1);
    let named: Vec<(String, f64)> = values
        .iter()
        .map(|&(a, v)| (g.action_to_string(&s, a).unwrap(), v))
        .collect();
    // Naming d4 loses for player 1; naming a1: player 0 steps it, then no card is left: a draw.
    assert_eq!(
        named,
        vec![
            ("stone a1".to_string(), 0.0),
            ("stone d4".to_string(), -1.0)
        ]
    );
    let sol = solved(&s, 1);
    assert_eq!(sol.value, 0.0);
    assert_eq!(
        g.action_to_string(&s, sol.best_action.unwrap()).unwrap(),
        "stone a1"
    );
}

#[test]
fn exact_on_random_endgames_against_a_plain_expectiminimax() {
    let g = open();
    let mut rng = crate::game::row_rng(11, 0);
    for i in 0..60 {
        let s = random_endgame(&mut rng, 1 + i % 3, i % 3);
        let mut seen = HashMap::new();
        let sign = match g.to_move(&s) {
            ToMove::Player(0) => 1.0,
            _ => -1.0,
        };
        let values = analyzed(&s, 1);
        let mut actions = Vec::new();
        g.legal_actions(&s, &mut actions);
        assert_eq!(values.iter().map(|v| v.0).collect::<Vec<_>>(), actions);
        for &(a, v) in &values {
            let expected = sign * plain(&g, &g.play(&s, a).unwrap(), &mut seen);
            assert!(
                (v - expected).abs() < 1e-12,
                "{} {a}: {v} {expected}",
                g.notation(&s)
            );
        }
        let sol = solved(&s, 1);
        let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(sol.value, best);
        let first = values.iter().find(|v| v.1 == best).unwrap().0;
        assert_eq!(sol.best_action, Some(first), "{}", g.notation(&s));
    }
}

#[test]
fn answers_are_the_same_at_any_thread_count() {
    let mut rng = crate::game::row_rng(12, 0);
    for i in 0..12 {
        let s = random_endgame(&mut rng, 2 + i % 2, 2);
        let one = solved(&s, 1);
        for threads in [2, 3] {
            let many = solved(&s, threads);
            assert_eq!(
                (one.value.to_bits(), one.best_action),
                (many.value.to_bits(), many.best_action)
            );
            let a = analyzed(&s, 1);
            let b = analyzed(&s, threads);
            assert_eq!(
                a.iter().map(|(x, v)| (*x, v.to_bits())).collect::<Vec<_>>(),
                b.iter().map(|(x, v)| (*x, v.to_bits())).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn a_tiny_table_changes_nothing_but_the_time() {
    let mut rng = crate::game::row_rng(13, 0);
    for _ in 0..6 {
        let s = random_endgame(&mut rng, 3, 2);
        let big = solved(&s, 1);
        let small = with(
            Limits {
                memory_mb: 1,
                ..Limits::default()
            },
            2,
            |ctx| solve(&open(), &s, ctx),
        )
        .unwrap();
        assert_eq!(
            (big.value, big.best_action),
            (small.value, small.best_action)
        );
    }
}

#[test]
fn limits_stop_the_search_undecided() {
    let mut rng = crate::game::row_rng(14, 0);
    let s = random_endgame(&mut rng, 3, 2);
    for limits in [
        Limits {
            max_nodes: Some(0),
            ..Limits::default()
        },
        Limits {
            timeout: Some(std::time::Duration::ZERO),
            ..Limits::default()
        },
    ] {
        let r = with(limits, 1, |ctx| solve(&open(), &s, ctx));
        assert!(matches!(r, Err(Error::SearchLimit { .. })), "{r:?}");
    }
    let cancel = AtomicBool::new(true);
    let ctx = Context::new(Limits::default(), Some(1), &cancel);
    assert!(matches!(solve(&open(), &s, &ctx), Err(Error::Interrupted)));
}

#[test]
fn hidden_hands_chance_nodes_and_the_deal_are_refused_and_a_finished_game_answered() {
    let text = notation(
        "1..../...../..a../...../.....",
        0,
        "play",
        ["12", "34"],
        ["-", "-"],
    );
    for hidden in [[false, false], [true, false], [false, true]] {
        let g = game(hidden);
        let s = g.from_notation(&text).unwrap();
        let r = with(Limits::default(), 1, |ctx| solve(&g, &s, ctx));
        assert!(
            matches!(&r, Err(Error::NotApplicable(m)) if m.contains(HIDDEN_HANDS)),
            "{r:?}"
        );
        let r = with(Limits::default(), 1, |ctx| analyze(&g, &s, ctx));
        assert!(matches!(&r, Err(Error::NotApplicable(_))));
    }
    let g = open();
    let draw = at(&notation(
        "1..../...../..a../...../.....",
        0,
        "draw",
        ["2", "34"],
        ["1", "-"],
    ));
    let roll = at(&notation(
        "1..../...../..a../...../.....",
        0,
        "heisenberg",
        ["2", "34"],
        ["H", "-"],
    ));
    let deal = g.play(&g.play(&g.new_state(), 81).unwrap(), 81).unwrap();
    for s in [&draw, &roll, &deal, &g.new_state()] {
        let r = with(Limits::default(), 1, |ctx| solve(&g, s, ctx));
        assert!(matches!(&r, Err(Error::NotApplicable(_))), "{r:?}");
    }
    // Player 0's stone on e5: over, player 0 (the notation's player) has won.
    let won = at(&notation(
        "...../...../..a../...../....1",
        0,
        "-",
        ["2", "34"],
        ["1", "-"],
    ));
    let sol = solved(&won, 1);
    assert_eq!((sol.value, sol.best_action), (1.0, None));
    let lost = at(&notation(
        "...../...../..a../...../....1",
        1,
        "-",
        ["2", "34"],
        ["1", "5"],
    ));
    assert_eq!(solved(&lost, 1).value, -1.0);
    assert!(analyzed(&won, 1).is_empty());
}

#[test]
fn keys_tell_apart_the_positions_that_differ_in_play() {
    // Random positions of random games: two with one key agree on all that the rest of the
    // game depends on (the notation but the discard piles, and each player's last card).
    let g = open();
    let mut rng = crate::game::row_rng(15, 0);
    let mut seen: HashMap<[u64; 2], String> = HashMap::new();
    let mut v = Vec::new();
    for _ in 0..300 {
        let mut s = g.new_state();
        while g.to_move(&s) != ToMove::Terminal {
            let essence = format!(
                "{:?} {} {:?} {:?} {:?} {:?}",
                s.board.stones(),
                s.player,
                s.phase,
                s.hands,
                s.heaps,
                (s.last(0), s.last(1))
            );
            let before = seen.entry(key(&s)).or_insert_with(|| essence.clone());
            let still_da_capo =
                (0..2).any(|p| s.hands[p][DA_CAPO as usize] + s.heaps[p][DA_CAPO as usize] > 0);
            if still_da_capo {
                assert_eq!(*before, essence);
            } else {
                // Only the last cards may differ.
                assert_eq!(
                    before.rsplit_once(" (").unwrap().0,
                    essence.rsplit_once(" (").unwrap().0
                );
            }
            let a = match g.to_move(&s) {
                ToMove::Chance => g.sample_chance(&s, &mut rng),
                _ => {
                    g.legal_actions(&s, &mut v);
                    v[rng.random_range(0..v.len())]
                }
            };
            s = g.play(&s, a).unwrap();
        }
    }
}
