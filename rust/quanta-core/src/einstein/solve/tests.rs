use super::*;
use crate::einstein::Setup;
use crate::game::{Rng, ToMove};
use crate::search::Limits;
use rand::Rng as _;

fn game() -> Einstein {
    Einstein {
        setup: Setup::Random,
        first: 0,
    }
}

fn at(text: &str) -> EinsteinState {
    game().from_notation(text).unwrap()
}

fn with<T>(limits: Limits, f: impl FnOnce(&Context) -> T) -> T {
    let cancel = AtomicBool::new(false);
    f(&Context::new(limits, Some(1), &cancel))
}

fn solved(text: &str) -> Solution {
    with(Limits::default(), |ctx| solve(&game(), &at(text), ctx)).unwrap()
}

/// A plain expectiminimax over the engine's `Game` interface, memoised by notation: the
/// probability that the player to act (or about to roll) wins.
fn plain(g: &Einstein, s: &EinsteinState) -> f64 {
    plain_in(g, s, &mut std::collections::HashMap::new())
}

fn plain_in(
    g: &Einstein,
    s: &EinsteinState,
    seen: &mut std::collections::HashMap<String, f64>,
) -> f64 {
    if let Some(&v) = seen.get(&g.notation(s)) {
        return v;
    }
    let mut actions = Vec::new();
    let value = match g.to_move(s) {
        ToMove::Terminal => match s.phase() {
            Phase::Over(w) if w == s.player() => 1.0,
            _ => 0.0,
        },
        ToMove::Chance => {
            let mut outcomes = Vec::new();
            g.chance_outcomes(s, &mut outcomes);
            outcomes
                .iter()
                .map(|&(a, p)| p * plain_in(g, &g.play(s, a).unwrap(), seen))
                .sum()
        }
        ToMove::Player(p) => {
            g.legal_actions(s, &mut actions);
            actions
                .iter()
                .map(|&a| {
                    // The child's value is for its player (in a finished game, the loser).
                    let t = g.play(s, a).unwrap();
                    let v = plain_in(g, &t, seen);
                    if t.player() == p { v } else { 1.0 - v }
                })
                .fold(0.0, f64::max)
        }
    };
    seen.insert(g.notation(s), value);
    value
}

/// A random position after the setup with `a` stones of player 0 and `b` of player 1 (of
/// random numbers, on random cells off both corners), either side to roll.
fn random_position(rng: &mut Rng, a: usize, b: usize) -> EinsteinState {
    loop {
        let mut board = ['.'; 25];
        let mut cells: Vec<usize> = (1..24).collect();
        let mut numbers: Vec<u8> = (0..6).collect();
        for (count, base) in [(a, b'1'), (b, b'a')] {
            for _ in 0..count {
                let cell = cells.swap_remove(rng.random_range(0..cells.len()));
                let n = numbers.swap_remove(rng.random_range(0..numbers.len()));
                board[cell] = (base + n) as char;
            }
            numbers = (0..6).collect();
        }
        let rows: Vec<String> = board.chunks(5).map(|r| r.iter().collect()).collect();
        let text = format!("{} {} -", rows.join("/"), rng.random_range(0..2));
        if let Ok(s) = game().from_notation(&text) {
            return s;
        }
    }
}

#[test]
fn one_stone_each_a_step_from_its_corner_wins_for_the_roller() {
    for text in [
        "...../.a.../...../...1./..... 0 -",
        "...../.a.../...../....1/..... 0 3",
        ".b.../a..../...../...../...1. 1 -",
    ] {
        let sol = solved(text);
        assert_eq!(sol.value, 1.0, "{text}");
    }
    // Stone 1 on d4 for any roll: the diagonal step d4e5.
    let sol = solved("...../.a.../...../...1./..... 0 -");
    let g = game();
    let s = at("...../.a.../...../...1./..... 0 -");
    assert_eq!(sol.best_moves.len(), 6);
    for (die, action) in sol.best_moves {
        let rolled = g.play(&s, FIRST_ROLL + die as Action - 1).unwrap();
        assert_eq!(g.action_to_string(&rolled, action).unwrap(), "d4e5");
    }
}

#[test]
fn two_steps_from_the_corner_against_one_step_loses_unless_it_captures() {
    // Player 0's stone on c3 needs two steps; player 1's stone on b2 needs one and wins
    // whatever it rolls, so player 0 must win at once: impossible from c3.
    let sol = solved("...../.a.../..1../...../..... 0 -");
    assert_eq!(sol.value, 0.0);
    // With the enemy stone on d4 instead, c3d4 captures it and wins.
    let sol = solved("...../...../..1../...a./..... 0 -");
    assert_eq!(sol.value, 1.0);
}

#[test]
fn finished_games_are_answered_and_setups_refused() {
    let sol = solved("f..../..1.5/.6.3./b..../..... 0 -");
    assert_eq!((sol.value, sol.best_moves.len(), sol.nodes), (0.0, 0, 0));
    let refused = with(Limits::default(), |ctx| {
        solve(&game(), &game().new_state(), ctx)
    });
    assert!(matches!(refused, Err(Error::NotApplicable(_))));
}

#[test]
fn the_solver_agrees_with_a_plain_expectiminimax() {
    let g = game();
    let mut rng = crate::game::row_rng(11, 0);
    for round in 0..60 {
        let (a, b) = [(1, 1), (1, 2), (2, 1), (2, 2)][round % 4];
        let s = random_position(&mut rng, a, b);
        let expected = plain(&g, &s);
        let sol = with(Limits::default(), |ctx| solve(&g, &s, ctx)).unwrap();
        assert!((sol.value - expected).abs() < 1e-12, "{}", g.notation(&s));
        // Each roll: the best move's value is the best of analyze, and equals the plain one.
        let mut mean = 0.0;
        for &(die, action) in &sol.best_moves {
            let rolled = g.play(&s, FIRST_ROLL + die as Action - 1).unwrap();
            let (values, _) = with(Limits::default(), |ctx| analyze(&g, &rolled, ctx)).unwrap();
            let best = values.iter().map(|v| v.1).fold(0.0, f64::max);
            let of_action = values.iter().find(|v| v.0 == action).unwrap().1;
            assert_eq!(of_action, best);
            assert!((best - plain(&g, &rolled)).abs() < 1e-12);
            mean += best / 6.0;
        }
        assert!((mean - sol.value).abs() < 1e-12);
    }
}

#[test]
fn a_full_table_changes_nothing_but_the_time() {
    let g = game();
    let mut rng = crate::game::row_rng(12, 0);
    let cancel = AtomicBool::new(false);
    let ctx = Context::new(Limits::default(), Some(1), &cancel);
    for _ in 0..10 {
        let s = random_position(&mut rng, 2, 2);
        let mut big = Solver::new(&ctx);
        let whole = big.solve(&g, &s).unwrap();
        // A table that holds between a third and seven-eighths of the positions stored.
        let largest = (big.stored() + 1).next_power_of_two() / 2;
        let mut small = Solver::new(&ctx);
        small.memo = Memo::sized(largest, Memo::FIRST_SLOTS, 16);
        let sol = small.solve(&g, &s).unwrap();
        assert_eq!(small.stored(), largest * 7 / 8);
        assert!((sol.value - whole.value).abs() < 1e-12);
        assert!(sol.nodes > whole.nodes);
    }
}

#[test]
fn the_table_stays_within_its_memory_even_while_growing() {
    for memory_mb in [1, 3, 64, 1024] {
        let slots = Memo::capacity(memory_mb);
        assert!(slots.is_power_of_two());
        // At its largest, with the half-size array it grew from.
        let peak = (slots + slots / 2) * std::mem::size_of::<[AtomicU64; 2]>();
        assert!(peak <= memory_mb << 20, "{memory_mb} MB: {peak} bytes");
        assert!(
            2 * peak > memory_mb << 20,
            "{memory_mb} MB: needlessly small"
        );
    }
}

#[test]
fn rounds_and_threads_change_nothing_but_the_time() {
    // A table that starts at 16 slots ends a round at every doubling, growing within its
    // reserved memory or into new arrays; two and three threads share it. Values are
    // exact in every case: the same bits, the same moves.
    let g = game();
    let mut rng = crate::game::row_rng(14, 0);
    for round in 0..12 {
        let s = random_position(&mut rng, 3, 2 + round % 2);
        let plain_solve = with(Limits::default(), |ctx| solve(&g, &s, ctx)).unwrap();
        let plain_values = with(Limits::default(), |ctx| analyze(&g, &s, ctx))
            .unwrap()
            .0;
        for (threads, region_from) in [(1, 16), (2, 16), (3, 16), (2, usize::MAX)] {
            let cancel = AtomicBool::new(false);
            let ctx = Context::new(Limits::default(), Some(threads), &cancel);
            let mut solver = Solver::new(&ctx);
            solver.memo = Memo::sized(Memo::capacity(1024), 16, region_from);
            let sol = solver.solve(&g, &s).unwrap();
            assert_eq!(sol.value, plain_solve.value, "{}", g.notation(&s));
            assert_eq!(sol.best_moves, plain_solve.best_moves);
            let mut solver = Solver::new(&ctx);
            solver.memo = Memo::sized(Memo::capacity(1024), 16, region_from);
            assert_eq!(solver.analyze(&g, &s).unwrap().0, plain_values);
        }
    }
}

#[test]
fn renumbered_sides_share_their_key_and_value() {
    let g = game();
    let mut rng = crate::game::row_rng(15, 0);
    // Stone n of `side` renumbered 7 - n (on the board, not in the fields after it).
    let renumber = |text: &str, side: usize| -> String {
        let (board, rest) = text.split_once(' ').unwrap();
        let board: String = board
            .chars()
            .map(|c| match (side, c) {
                (0, '1'..='6') => (b'7' - (c as u8 - b'0')) as char,
                (1, 'a'..='f') => (b'a' + b'f' - c as u8) as char,
                _ => c,
            })
            .collect();
        format!("{board} {rest}")
    };
    for round in 0..24 {
        let s = random_position(&mut rng, 1 + round % 3, 3 - round % 3);
        let text = g.notation(&s);
        for side in [0, 1] {
            let other = renumber(&text, side);
            let (a, b) = (at(&text), at(&other));
            assert_eq!(Frame::of(&a).key(), Frame::of(&b).key(), "{text} / {other}");
            assert_eq!(
                solved(&text).value,
                solved(&other).value,
                "{text} / {other}"
            );
        }
    }
    // A lone stone's number does not matter; two stones' numbers do, beyond the reversal.
    let key = |text: &str| Frame::of(&at(text)).key();
    assert_eq!(
        key("...../.a.../...../...1./..... 0 -"),
        key("...../.a.../...../...4./..... 0 -")
    );
    assert_ne!(
        key("...../.a.../..1../...2./..... 0 -"),
        key("...../.a.../..1../...3./..... 0 -")
    );
    assert_ne!(
        key("...../.a.../..1../...2./..... 0 -"),
        key("...../.a.../..2../...1./..... 0 -")
    );
}

#[test]
fn mirror_images_and_the_other_side_have_the_same_value() {
    let g = game();
    let mut rng = crate::game::row_rng(13, 0);
    for _ in 0..20 {
        let s = random_position(&mut rng, 3, 2);
        let text = g.notation(&s);
        let (rows, rest) = text.split_once(' ').unwrap();
        let cells: Vec<char> = rows.chars().filter(|&c| c != '/').collect();
        let mirror: Vec<String> = (0..5)
            .map(|r| (0..5).map(|c| cells[c * 5 + r]).collect())
            .collect();
        let mirrored = format!("{} {rest}", mirror.join("/"));
        assert_eq!(solved(&text).value, solved(&mirrored).value, "{text}");
    }
}

#[test]
fn limits_and_cancel_stop_the_search() {
    let g = game();
    let s = at("1.2../4..../...../....c/..b.a 0 -");
    let over = with(
        Limits {
            max_nodes: Some(10),
            ..Limits::default()
        },
        |ctx| solve(&g, &s, ctx),
    );
    assert!(
        matches!(over, Err(Error::SearchLimit { nodes: 11, .. })),
        "{over:?}"
    );
    let cancel = AtomicBool::new(true);
    let ctx = Context::new(Limits::default(), Some(1), &cancel);
    assert!(matches!(solve(&g, &s, &ctx), Err(Error::Interrupted)));
}

#[test]
fn the_bot_takes_a_winning_move_and_beats_random_play() {
    let g = game();
    let mut rng = crate::game::row_rng(1, 0);
    // The heuristic alone: e4e5 wins at once.
    let s = at("1..../...../...../....2/a.... 0 2");
    assert_eq!(
        g.action_to_string(&s, heuristic_move(&g, &s, &mut rng).unwrap())
            .unwrap(),
        "e4e5"
    );
    let cancel = AtomicBool::new(false);
    let limits = Limits {
        timeout: Some(std::time::Duration::from_secs(5)),
        memory_mb: 64,
        ..Limits::default()
    };
    let games = play_against_random(0, 200, 5, Some(1), 2, &limits, &cancel).unwrap();
    let won = games.iter().filter(|p| p.bot_won).count();
    assert!(won > 150, "{won} of 200");
    assert!(games.iter().any(|p| p.solved > 0));
}

#[test]
fn the_race_counts_the_rolls_that_bring_a_stone_home() {
    let g = game();
    // Rolls 1-5 let stone 1 (d4) step home; a 6 moves stone 6 (a3), and then stone a (b1),
    // alone and a step from a1, wins: 5/6, as the solver says (no capture is in reach).
    let text = ".a.../...../6..../...1./..... 0 -";
    let value = evaluate(&g, &at(text)).unwrap();
    assert!((value - 5.0 / 6.0).abs() < 1e-6, "{value}");
    assert!((value - solved(text).value).abs() < 1e-6);
    // After the roll: the best move's value.
    assert_eq!(
        evaluate(&g, &at(".a.../...../6..../...1./..... 0 1")).unwrap(),
        1.0
    );
    assert!(evaluate(&g, &at(".a.../...../6..../...1./..... 0 6")).unwrap() < 1e-6);
    // The same race seen from player 1 (the board turned, the sides swapped).
    let turned = evaluate(&g, &at("...../.a.../....f/...../...1. 1 -")).unwrap();
    assert!((turned - value).abs() < 1e-6, "{turned}");
    assert_eq!(
        evaluate(&g, &at("f..../..1.5/.6.3./b..../..... 0 -")).unwrap(),
        0.0
    );
    assert!(evaluate(&g, &g.new_state()).is_err());
}

#[test]
fn the_strongest_player_wins_at_once_and_repeats_itself_within_a_node_limit() {
    let g = game();
    let cancel = AtomicBool::new(false);
    let nodes = Limits {
        timeout: None,
        max_nodes: Some(3000),
        memory_mb: 64,
    };
    let ctx = Context::new(nodes, Some(1), &cancel);
    let mut rng = crate::game::row_rng(3, 0);
    // Four stones a side, past the solver: stone 1 rolled, and d4e5 wins.
    let s = at("23.../4..../....d/...1c/...ba 0 1");
    let won = best_action(&g, &s, &mut rng, &ctx).unwrap();
    assert_eq!(g.action_to_string(&s, won).unwrap(), "d4e5");
    // Stopped by the node limit, the same seed gives the same move.
    let s = at("123../45.../6...f/...ed/..cba 0 4");
    let moves: Vec<Action> = (0..2)
        .map(|_| {
            let mut rng = crate::game::row_rng(9, 0);
            best_action(&g, &s, &mut rng, &ctx).unwrap()
        })
        .collect();
    assert_eq!(moves[0], moves[1]);
    let mut legal = Vec::new();
    g.legal_actions(&s, &mut legal);
    assert!(legal.contains(&moves[0]));
    // Before the roll there is nothing to choose.
    let rolling = at("123../45.../6...f/...ed/..cba 0 -");
    assert!(matches!(
        best_action(&g, &rolling, &mut rng, &ctx),
        Err(Error::NotApplicable(_))
    ));
}

/// Issue 45: a table's growth asked to stop (the search's time limit passed) stops, and leaves
/// an empty table that works, not one in pieces; one not asked to stop keeps every entry.
#[test]
fn a_growth_stopped_by_the_clock_leaves_an_empty_working_table() {
    for region_from in [1 << 11, 1 << 20] {
        let fill = |memo: &Memo| {
            for key in 1..=700u64 {
                memo.insert(key * 7919, key as f64);
            }
        };
        let mut stopped = Memo::sized(1 << 14, 1 << 10, region_from);
        fill(&stopped);
        assert!(!stopped.grow(2, &mut || true), "region from {region_from}");
        assert_eq!(stopped.len(), 0);
        assert_eq!(stopped.get(7919), None);
        assert!(matches!(stopped.insert(7919, 1.0), Stored::New));
        assert_eq!(stopped.get(7919), Some(1.0));

        let mut grown = Memo::sized(1 << 14, 1 << 10, region_from);
        fill(&grown);
        assert!(grown.grow(2, &mut || false));
        for key in 1..=700u64 {
            assert_eq!(grown.get(key * 7919), Some(key as f64));
        }
        // Grown again within the reserved memory (in place), stopped this time.
        assert!(!grown.grow(2, &mut || true));
        assert_eq!((grown.len(), grown.get(7919)), (0, None));
    }
}
