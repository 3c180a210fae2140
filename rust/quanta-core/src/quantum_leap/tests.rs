//! Unit tests of the Quantum Leap engine: the rules, the deal, notation, and the solver against
//! a plain negamax on small boards.
use super::solve::{Limits, analyze, solve};
use super::*;
use crate::game::{random_step_by_lists, row_rng};
use crate::search::Context;
use std::sync::atomic::AtomicBool;

fn game(side: usize, setup: &str) -> QuantumLeap<u64> {
    let options = Options::from([
        ("size".to_string(), OptionValue::Int(side as i64)),
        ("setup".to_string(), OptionValue::Str(setup.to_string())),
    ]);
    QuantumLeap::from_options(&options).unwrap()
}

fn moves(g: &QuantumLeap<u64>, s: &QuantumLeapState<u64>) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v.iter()
        .map(|&a| g.action_to_string(s, a).unwrap())
        .collect()
}

/// Plain negamax, no tricks: the oracle for the solver.
fn brute(g: &QuantumLeap<u64>, s: &QuantumLeapState<u64>) -> bool {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v.iter().any(|&a| {
        let mut t = *s;
        g.apply(&mut t, a);
        !brute(g, &t)
    })
}

/// A position after a random deal and `plies` random decisions.
fn random_position(g: &QuantumLeap<u64>, seed: u64, plies: usize) -> QuantumLeapState<u64> {
    let mut rng = row_rng(seed, 1);
    let mut s = g.new_state();
    let mut v = Vec::new();
    let mut made = 0;
    while g.to_move(&s) == ToMove::Chance || (g.to_move(&s) != ToMove::Terminal && made < plies) {
        let a = if g.to_move(&s) == ToMove::Chance {
            g.sample_chance(&s, &mut rng)
        } else {
            made += 1;
            g.legal_actions(&s, &mut v);
            v[rng.random_range(0..v.len())]
        };
        g.apply(&mut s, a);
    }
    s
}

#[test]
fn jump_length_is_the_number_of_friendly_neighbours_before_the_move() {
    let g = game(3, "A");
    // b2 has two white neighbours (a1, a2... see the board picture in the docs): jumps 2 cells.
    let s = g.from_notation("ww./.w../b...b/..../b.. w").unwrap();
    for m in moves(&g, &s) {
        let (from, to) = m.split_once('x').unwrap();
        let (f, t) = (g.board.parse(from).unwrap(), g.board.parse(to).unwrap());
        let k = (g.board.neighbours[f] & s.stones[0]).count() as usize;
        assert!(
            (0..6).any(|d| g.board.jump[f][d][k - 1] == t as u8),
            "{m} is not a jump of {k}"
        );
    }
    assert!(!moves(&g, &s).is_empty());
}

#[test]
fn a_lone_stone_cannot_move() {
    let g = game(3, "A");
    let s = g.from_notation("w../..../b...b/..../b.. w").unwrap();
    assert!(moves(&g, &s).is_empty());
    assert_eq!(g.to_move(&s), ToMove::Terminal);
    let mut r = [0.0; 2];
    g.returns(&s, &mut r);
    assert_eq!(r, [-1.0, 1.0], "the player who cannot capture loses");
}

#[test]
fn a_jump_passes_over_anything_and_must_land_on_an_enemy() {
    let g = game(3, "A");
    // a1 and a2 white: each has k = 1 ... a1-a2-a3: a2's neighbours a1, a3(b): k=1.
    // Row a: w w b -> a1 (k=1) jumps 1 east onto a2? own stone: no. a2 (k=1) jumps east onto a3.
    let s = g.from_notation("wwb/..../...../..../... w").unwrap();
    assert_eq!(moves(&g, &s), ["a2xa3"]);
    // Two friendly neighbours: b2 has a1, a2 -> jumps 2, over b3 (black) onto b4.
    let s = g.from_notation("ww./.wbb/...../..../... w").unwrap();
    assert!(moves(&g, &s).contains(&"b2xb4".to_string()));
    assert!(!moves(&g, &s).contains(&"b2xb3".to_string()));
}

#[test]
fn swap_is_any_white_black_pair_or_none() {
    let g = game(2, "A");
    let s = g.from_notation("wb/w.b/wb swap").unwrap();
    let m = moves(&g, &s);
    assert_eq!(m[0], "no swap");
    assert_eq!(m.len(), 1 + 3 * 3);
    let a = g.parse_action(&s, "swap a1 a2").unwrap();
    let t = g.play(&s, a).unwrap();
    assert_eq!(g.notation(&t), "bw/w.b/wb w");
}

#[test]
fn deals_are_uniform_and_complete() {
    for (side, setup) in [(2, "A"), (2, "B"), (3, "A"), (5, "B")] {
        let g = game(side, setup);
        for seed in 0..50 {
            let s = random_position(&g, seed, 0);
            let c = g.cells() as u32;
            let [w, b] = [s.stones[0].count(), s.stones[1].count()];
            if setup == "A" {
                assert_eq!((w, b), ((c - 1) / 2, (c - 1) / 2));
                assert!(
                    (s.stones[0] | s.stones[1]).has(g.board.centre.unwrap()),
                    "the empty cell is never the centre"
                );
                assert_eq!(s.phase, Phase::Swap);
            } else {
                assert_eq!((w, b), ((c - 1) / 2, (c + 1) / 2));
            }
            assert!(s.undealt.is_empty());
        }
    }
}

#[test]
fn notation_round_trips_through_random_games() {
    for (side, setup) in [(2, "A"), (3, "B"), (4, "A"), (5, "A")] {
        let g = game(side, setup);
        for seed in 0..20 {
            let mut rng = row_rng(seed, 2);
            let mut s = g.new_state();
            let mut v = Vec::new();
            loop {
                assert_eq!(
                    g.from_notation(&g.notation(&s)).unwrap(),
                    s,
                    "{}",
                    g.notation(&s)
                );
                if g.to_move(&s) == ToMove::Terminal {
                    break;
                }
                g.legal_actions(&s, &mut v);
                let a = v[rng.random_range(0..v.len())];
                assert_eq!(
                    g.parse_action(&s, &g.action_to_string(&s, a).unwrap())
                        .unwrap(),
                    a
                );
                s = g.play(&s, a).unwrap();
            }
        }
    }
}

#[test]
fn solver_agrees_with_plain_negamax() {
    let cancel = AtomicBool::new(false);
    for (side, setup, plies) in [
        (2, "A", 0),
        (2, "A", 1),
        (2, "B", 0),
        (3, "A", 4),
        (3, "B", 6),
        (4, "B", 20),
    ] {
        let g = game(side, setup);
        for seed in 0..40 {
            let s = random_position(&g, seed, plies);
            if matches!(g.to_move(&s), ToMove::Terminal) {
                continue;
            }
            let sol = solve(&g, &s, &Context::new(Limits::default(), Some(1), &cancel)).unwrap();
            assert_eq!(sol.win, brute(&g, &s), "{}", g.notation(&s));
            if sol.win {
                let t = g.play(&s, sol.best_action.unwrap()).unwrap();
                assert!(!brute(&g, &t), "best action must win in {}", g.notation(&s));
            }
            let (values, _) =
                analyze(&g, &s, &Context::new(Limits::default(), Some(1), &cancel)).unwrap();
            for (a, v) in values {
                let t = g.play(&s, a).unwrap();
                assert_eq!(v, !brute(&g, &t));
            }
        }
    }
}

#[test]
fn solver_stops_at_its_node_limit() {
    let g = game(5, "B");
    let s = random_position(&g, 3, 4);
    let cancel = AtomicBool::new(false);
    let limits = Limits {
        max_nodes: Some(5000),
        ..Limits::default()
    };
    assert!(matches!(
        solve(&g, &s, &Context::new(limits, Some(1), &cancel)),
        Err(Error::SearchLimit { .. })
    ));
}

#[test]
fn solver_agrees_with_plain_negamax_on_scattered_stones() {
    // Sparse boards split into many regions: zero regions, one-colour integer regions and
    // sums of hot regions all occur, so every shortcut of the solver is exercised.
    let cancel = AtomicBool::new(false);
    for side in [4usize, 5] {
        let g = game(side, "A");
        for seed in 0..3000u64 {
            let mut rng = row_rng(seed, side as u64);
            // Two to four clusters of stones around random centres.
            let mut s = QuantumLeapState {
                stones: [0; 2],
                undealt: 0,
                phase: Phase::Swap,
            };
            for _ in 0..rng.random_range(2..5) {
                let centre = rng.random_range(0..g.cells());
                let near = g.board.neighbours[centre] | (1 << centre);
                let area = near.cells().fold(near, |a, c| a | g.board.neighbours[c]);
                for c in area.cells() {
                    if rng.random_range(0..3) == 0 && !(s.stones[0] | s.stones[1]).has(c) {
                        s.stones[rng.random_range(0..2usize)] |= 1 << c;
                    }
                }
            }
            if on_board(s.stones) > 18 {
                continue;
            }
            let to_move = (seed % 2) as u8;
            s.phase = Phase::Move {
                side: to_move,
                over: !g.can_capture(s.stones, to_move),
            };
            if g.to_move(&s) == ToMove::Terminal {
                continue;
            }
            let sol = solve(&g, &s, &Context::new(Limits::default(), Some(1), &cancel)).unwrap();
            assert_eq!(sol.win, brute(&g, &s), "{}", g.notation(&s));
        }
    }
}

#[test]
fn threads_and_table_growth_change_the_time_but_never_the_answer() {
    // Positions big enough for the search to fork near the root. The capture returned is the
    // first winning one in the root's order, whatever the threads; a table that grows (while
    // the threads search on) and one too small to grow give the same answers.
    let g = game(5, "B");
    let cancel = AtomicBool::new(false);
    let small = Limits {
        memory_mb: 1,
        ..Limits::default()
    };
    let mut forked = 0;
    for seed in 0..6 {
        let s = random_position(&g, seed, 25);
        if g.to_move(&s) == ToMove::Terminal {
            continue;
        }
        let one = solve(&g, &s, &Context::new(Limits::default(), Some(1), &cancel)).unwrap();
        for (limits, threads) in [(Limits::default(), Some(2)), (small.clone(), Some(2))] {
            let other = solve(&g, &s, &Context::new(limits, threads, &cancel)).unwrap();
            assert_eq!(
                (one.win, one.best_action),
                (other.win, other.best_action),
                "{}",
                g.notation(&s)
            );
        }
        let (values, _) =
            analyze(&g, &s, &Context::new(Limits::default(), Some(1), &cancel)).unwrap();
        let (values_2, _) =
            analyze(&g, &s, &Context::new(Limits::default(), Some(2), &cancel)).unwrap();
        assert_eq!(values, values_2, "{}", g.notation(&s));
        forked += (one.nodes > 10_000) as usize;
    }
    assert!(forked >= 3, "the positions must be big enough to fork");
}

/// The counts after a capture, kept up to date from the counts before, equal a recount, on
/// every capture of positions from random play on every side (both bitboard widths).
#[test]
fn capture_counts_after_a_capture_equal_a_recount() {
    fn check<B: Bits>(side: usize, seed: u64) -> usize {
        let mut rng = row_rng(seed, side as u64);
        let mut checked = 0;
        for setup in ["A", "B"] {
            let options = Options::from([
                ("size".to_string(), OptionValue::Int(side as i64)),
                ("setup".to_string(), OptionValue::Str(setup.to_string())),
            ]);
            let g = QuantumLeap::<B>::from_options(&options).unwrap();
            for _ in 0..10 {
                let mut s = g.new_state();
                let mut v = Vec::new();
                while g.to_move(&s) != ToMove::Terminal {
                    if g.to_move(&s) == ToMove::Chance {
                        let a = g.sample_chance(&s, &mut rng);
                        g.apply(&mut s, a);
                        continue;
                    }
                    if let Phase::Move { side: mover, .. } = s.phase {
                        let counts = g.capture_counts(s.stones);
                        // Captures listed while counting are those of the rules.
                        let (mut listed, mut counted) = (Vec::new(), Vec::new());
                        g.for_each_capture(s.stones, mover, |f, _, t| listed.push((f, t)));
                        let mut fresh = CaptureCounts::default();
                        g.for_each_capture_counted(s.stones, mover, &mut fresh, |f, t| {
                            counted.push((f, t))
                        });
                        listed.sort_unstable();
                        assert_eq!(listed, counted);
                        g.for_each_capture(s.stones, mover, |from, _, to| {
                            let mut child = s.stones;
                            child[mover as usize] ^= B::cell(from) | B::cell(to);
                            child[1 - mover as usize] ^= B::cell(to);
                            assert_eq!(
                                g.captures_after(&counts, mover, from, to),
                                (
                                    g.count_captures(child, 1 - mover),
                                    g.count_captures(child, mover)
                                )
                            );
                            checked += 1;
                        });
                    }
                    g.legal_actions(&s, &mut v);
                    let a = v[rng.random_range(0..v.len())];
                    g.apply(&mut s, a);
                }
            }
        }
        checked
    }
    let mut checked = 0;
    for side in 2..=5 {
        checked += check::<u64>(side, 11);
    }
    for side in 6..=7 {
        checked += check::<u128>(side, 12);
    }
    assert!(checked > 10_000, "{checked}");
}

/// A capture prevents a reply that was possible before it exactly when the reply is no
/// longer among the opponent's captures after it: every pair of a capture and an opponent's
/// capture, on positions from random play on sides 3 to 6.
#[test]
fn a_capture_prevents_a_reply_exactly_when_the_reply_is_gone_after_it() {
    fn check<B: Bits>(side: usize, seed: u64) -> (usize, usize) {
        let mut rng = row_rng(seed, side as u64);
        let (mut kept, mut prevented) = (0, 0);
        let options = Options::from([("size".to_string(), OptionValue::Int(side as i64))]);
        let g = QuantumLeap::<B>::from_options(&options).unwrap();
        for _ in 0..10 {
            let mut s = g.new_state();
            let mut v = Vec::new();
            while g.to_move(&s) != ToMove::Terminal {
                if let (Phase::Move { side: mover, .. }, ToMove::Player(_)) =
                    (s.phase, g.to_move(&s))
                {
                    let mut replies = Vec::new();
                    g.for_each_capture(s.stones, 1 - mover, |f, _, t| replies.push((f, t)));
                    g.for_each_capture(s.stones, mover, |from, _, to| {
                        let child = after_capture(s.stones, mover, from, to);
                        let mut after = Vec::new();
                        g.for_each_capture(child, 1 - mover, |f, _, t| after.push((f, t)));
                        for &reply in &replies {
                            let gone = !after.contains(&reply);
                            assert_eq!(g.prevents((from, to), reply), gone, "{reply:?}");
                            if gone { prevented += 1 } else { kept += 1 }
                        }
                    });
                }
                if g.to_move(&s) == ToMove::Chance {
                    let a = g.sample_chance(&s, &mut rng);
                    g.apply(&mut s, a);
                    continue;
                }
                g.legal_actions(&s, &mut v);
                let a = v[rng.random_range(0..v.len())];
                g.apply(&mut s, a);
            }
        }
        (kept, prevented)
    }
    let (mut kept, mut prevented) = (0, 0);
    for side in 3..=5 {
        let (k, p) = check::<u64>(side, 21);
        (kept, prevented) = (kept + k, prevented + p);
    }
    let (k, p) = check::<u128>(6, 22);
    (kept, prevented) = (kept + k, prevented + p);
    assert!(
        kept > 10_000 && prevented > 1_000,
        "{kept} kept, {prevented} prevented"
    );
}

/// The playout's step draws a capture by counting ([`QuantumLeap::nth_capture`]): it must play
/// the game the generic step (a move drawn from the list of legal actions) plays from the same
/// generator, on every side, both setups and both bitboard widths.
#[test]
fn random_step_plays_the_games_of_the_generic_step() {
    fn check<B: Bits>(side: usize, seed: u64) {
        for setup in ["A", "B"] {
            let options = Options::from([
                ("size".to_string(), OptionValue::Int(side as i64)),
                ("setup".to_string(), OptionValue::Str(setup.to_string())),
            ]);
            let g = QuantumLeap::<B>::from_options(&options).unwrap();
            let mut actions = Vec::new();
            for row in 0..40 {
                let (mut fast, mut listed) = (g.new_state(), g.new_state());
                let (mut fast_rng, mut listed_rng) = (row_rng(seed, row), row_rng(seed, row));
                loop {
                    let a = g.random_step(&mut fast, &mut fast_rng, &mut actions);
                    let b = random_step_by_lists(&g, &mut listed, &mut listed_rng, &mut actions);
                    assert_eq!(
                        (a, fast),
                        (b, listed),
                        "side {side} setup {setup} game {row}"
                    );
                    if a.is_none() {
                        break;
                    }
                }
            }
        }
    }
    for side in 2..=5 {
        check::<u64>(side, 31);
    }
    check::<u128>(6, 32);
}
