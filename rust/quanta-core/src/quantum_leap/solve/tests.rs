//! Unit tests of the Quantum Leap solver.

use super::fork::Fork;
use super::ordering::{
    Capture, HISTORY_MAX, NO_KILLERS, RECAPTURE_PLIES, REPLIES_KNOWN_WON, capture_order,
    ranked_replies, refutation_weight,
};
use super::search::{Solver, splitmix};
use super::shared::{Halt, Shared};
use super::table::{Known, SharedTable, Table};
use crate::bits::Bits;
use crate::game::Game;
use crate::options::{OptionValue, Options};
use crate::quantum_leap::board::OFF;
use crate::quantum_leap::{BLACK, Phase, QuantumLeap, WHITE, on_board};
use crate::search::table::{Entry, SEQUENCE};
use crate::search::{Limits, in_pool};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};

fn game(side: i64) -> QuantumLeap<u64> {
    let mut options = Options::new();
    options.insert("size".into(), OptionValue::Int(side));
    QuantumLeap::from_options(&options).unwrap()
}

/// Every entry of the table with at least `stones` stones agrees with a fresh search.
fn assert_table_true<B: Bits>(game: &QuantumLeap<B>, table: &Table<B>, stones: u32) {
    let cancel = AtomicBool::new(false);
    let fresh = Shared::new(game, stones, Limits::default(), 1, &cancel);
    for (position, known) in table.entries() {
        if on_board(position) < stones {
            continue;
        }
        for side in [WHITE, BLACK] {
            let s = side as usize;
            let h = fresh.hash(position);
            for (tempo, white_wins) in [
                (known.white_wins_from[s], true),
                (known.black_wins_to[s], false),
            ] {
                if tempo == i16::MAX || tempo == i16::MIN {
                    continue;
                }
                let mut solver = Solver::new(&fresh);
                let win = solver.wins(position, side, h, tempo.into());
                assert!(
                    matches!(win, Ok(w) if w == (white_wins == (side == WHITE))),
                    "a stored value is wrong"
                );
            }
        }
    }
}

#[test]
fn a_search_whose_fork_above_is_decided_stops_and_stores_only_truths() {
    // A search whose work a fork above no longer needs must end with `Stopped`, and the
    // forks inside it must not pass off their cut-short answers as values.
    let game = game(5);
    let cancel = AtomicBool::new(false);
    let mut checked = 0;
    for line in include_str!("../../../../../benches/data/quantum_leap_side5_38.txt").lines() {
        let state = game.from_notation(line).unwrap();
        let Phase::Move { side, .. } = state.phase else {
            unreachable!("the positions have a player to move")
        };
        let shared = in_pool(Some(2), || {
            let shared = Shared::new(&game, 38, Limits::default(), 2, &cancel);
            let decided = Fork {
                found: AtomicUsize::new(0),
                failed: AtomicBool::new(false),
            };
            let mut solver = Solver::new(&shared);
            solver.forks.push((&decided, 1));
            let h = shared.hash(state.stones);
            let outcome = solver.search(state.stones, side, h, 0);
            assert!(matches!(outcome, Err(Halt::Stopped)), "{line}");
            drop(solver);
            shared
        })
        .unwrap();
        assert_table_true(&game, shared.table.latest(), 30);
        for distant in &shared.distant {
            assert_table_true(&game, distant, 26);
        }
        checked += 1;
        if checked == 6 {
            break;
        }
    }
}

#[test]
fn positions_one_capture_from_the_start_are_split_into_classed_regions() {
    // Scattered stones make sums of regions. The start is searched whole, and the
    // positions one capture from it are split: their smaller regions get classed.
    use crate::game::row_rng;
    use rand::Rng;
    let game = game(5);
    let cancel = AtomicBool::new(false);
    let mut classed = 0;
    for seed in 0..300u64 {
        let mut rng = row_rng(seed, 5);
        let mut stones = [0u64; 2];
        for _ in 0..3 {
            let centre = rng.random_range(0..game.board.cells);
            let near = game.board.neighbours[centre] | 1 << centre;
            for c in near.cells() {
                if rng.random_range(0..2) == 0 && !(stones[0] | stones[1]).has(c) {
                    stones[rng.random_range(0..2usize)] |= 1 << c;
                }
            }
        }
        let side = (seed % 2) as u8;
        if !game.can_capture(stones, side) {
            continue;
        }
        let shared = Shared::new(&game, on_board(stones), Limits::default(), 1, &cancel);
        let mut solver = Solver::new(&shared);
        let h = shared.hash(stones);
        assert!(solver.search(stones, side, h, 0).is_ok());
        classed += usize::from(!solver.placed.is_empty());
    }
    assert!(
        classed > 10,
        "only {classed} sums were split into classed regions"
    );
}

#[test]
fn a_recapture_in_the_replies_to_the_root_counts_two_replies_fewer_but_never_none() {
    // One ply below the root: a capture that takes the stone just moved.
    assert_eq!(ranked_replies(5, true, 1), 3);
    assert_eq!(ranked_replies(2, true, 1), 1);
    assert_eq!(ranked_replies(1, true, 1), 1);
    // Not a recapture, or deeper than the replies to the root's captures.
    assert_eq!(ranked_replies(5, false, 1), 5);
    assert_eq!(ranked_replies(5, true, RECAPTURE_PLIES), 5);
    // So a recapture leaving 5 replies goes before a capture leaving 4, with any tie-break.
    let recapture = capture_order(ranked_replies(5, true, 1).into(), 2, 0, 0);
    assert!(recapture < capture_order(4, 0, u32::MAX, u64::MAX));
}

#[test]
fn one_ply_below_the_root_the_search_tries_the_recapture_of_the_stone_just_moved_first() {
    // White's root capture has just landed on b3. Black wins by retaking it (e2xb3) and
    // by b1xc2, which leaves White fewer replies: the search returns the first winning
    // capture it tries, so it names the recapture only when it knows the stone moved.
    let game = game(4);
    let cancel = AtomicBool::new(false);
    let state = game
        .from_notation("..wb/b.w../bww.wb/bb..w.w/bb.bw./wbbw./w..w b")
        .unwrap();
    let cell = |name: &str| game.board.parse(name).unwrap();
    let first_win = |moved_to: usize| {
        let shared = Shared::new(&game, on_board(state.stones), Limits::default(), 1, &cancel);
        let mut solver = Solver::new(&shared);
        solver.ply = 1;
        solver.moved_to = moved_to;
        let h = shared.hash(state.stones);
        solver.search(state.stones, BLACK, h, 0).ok().unwrap()
    };
    assert_eq!(
        first_win(cell("b3")),
        (true, Some((cell("e2"), cell("b3"))))
    );
    assert_eq!(
        first_win(OFF as usize),
        (true, Some((cell("b1"), cell("c2"))))
    );
}

#[test]
fn captures_are_ordered_by_replies_then_killer_then_own_captures_then_history() {
    // Each part outranks everything below it, whatever their values.
    let (most_ours, most_history) = (u32::MAX, u64::MAX);
    assert!(capture_order(1, 2, 0, 0) < capture_order(2, 0, most_ours, most_history));
    assert!(capture_order(3, 0, 0, 0) < capture_order(3, 1, most_ours, most_history));
    assert!(capture_order(3, 1, 5, 0) < capture_order(3, 1, 4, most_history));
    assert!(capture_order(3, 1, 5, 9) < capture_order(3, 1, 5, 8));
    // A child known won for the opponent goes after any reply count.
    assert!(capture_order(400, 2, 0, 0) < capture_order(REPLIES_KNOWN_WON, 0, most_ours, 0));
}

/// A capture named only by its cells, as the killers and the history know it.
fn capture(from: usize, to: usize) -> Capture {
    Capture {
        order: 0,
        hash: 0,
        from,
        to,
    }
}

#[test]
fn the_killers_of_a_ply_are_its_last_two_distinct_refutations_latest_first() {
    let game = game(3);
    let cancel = AtomicBool::new(false);
    let shared = Shared::new(&game, 10, Limits::default(), 1, &cancel);
    let mut solver = Solver::new(&shared);
    solver.ply = 3;
    solver.refuted(&capture(1, 2), 10);
    solver.refuted(&capture(4, 5), 10);
    assert_eq!(solver.killers[3], [(4, 5), (1, 2)]);
    // Refuting again with the first killer keeps the second.
    solver.refuted(&capture(4, 5), 10);
    assert_eq!(solver.killers[3], [(4, 5), (1, 2)]);
    solver.refuted(&capture(1, 2), 10);
    assert_eq!(solver.killers[3], [(1, 2), (4, 5)]);
    solver.refuted(&capture(7, 8), 10);
    assert_eq!(solver.killers[3], [(7, 8), (1, 2)]);
    // Other plies keep their own.
    assert_eq!(solver.killers[0], NO_KILLERS);
}

#[test]
fn a_refutation_with_more_stones_weighs_more_and_a_full_history_is_halved_in_order() {
    let game = game(3);
    let cancel = AtomicBool::new(false);
    let shared = Shared::new(&game, 10, Limits::default(), 1, &cancel);
    let mut solver = Solver::new(&shared);
    let cells = game.board.cells;
    let history = |solver: &Solver<u64>, from: usize, to: usize| solver.history[from * cells + to];
    // One refutation with 12 stones outweighs seven with 3 stones.
    solver.refuted(&capture(1, 2), 12);
    for _ in 0..7 {
        solver.refuted(&capture(4, 5), 3);
    }
    assert!(history(&solver, 1, 2) > history(&solver, 4, 5));
    // Past the most an entry holds, every entry is halved and the order stays.
    solver.history[cells + 2] = HISTORY_MAX;
    solver.refuted(&capture(1, 2), 3);
    assert!(history(&solver, 1, 2) <= HISTORY_MAX);
    assert!(history(&solver, 1, 2) > history(&solver, 4, 5));
    assert_eq!(history(&solver, 4, 5), 7 * refutation_weight(3) / 2);
}

#[test]
fn what_is_known_fits_one_word_and_nothing_is_zero() {
    assert_eq!(Known::NOTHING.word(), 0);
    let known = Known::NOTHING
        .with(WHITE, -3, true)
        .with(BLACK, 7, true)
        .with(WHITE, -9, false);
    assert_eq!(Known::from_word(known.word()), known);
    assert_eq!(known.says(WHITE, -3), Some(true));
    assert_eq!(known.says(WHITE, -4), None);
    assert_eq!(known.says(WHITE, -9), Some(false));
    // Black to move wins with 7 moves of the integer part White's, so with fewer too.
    assert_eq!(known.says(BLACK, 6), Some(true));
    assert_eq!(known.says(BLACK, 8), None);
}

/// Stones on both halves of a wide board, and on a narrow one.
fn wide() -> [u128; 2] {
    [1 | 1 << 70 | 1 << 126, 1 << 3 | 1 << 64 | 1 << 100]
}

#[test]
fn a_slot_keeps_every_stone_of_either_width_and_tells_other_stones_apart() {
    let table = Table::<u128>::new(64);
    let stones = wide();
    assert!(table.store(stones, WHITE, 5, 0, true));
    assert_eq!(table.probe(stones, WHITE, 5, 0), Some(true));
    assert_eq!(table.probe(stones, BLACK, 5, 0), None);
    let other = [stones[0] ^ 1 << 126, stones[1]];
    assert_eq!(table.probe(other, WHITE, 5, 0), None);
    // Black's stones past the 64th cell only.
    let black_high = [stones[0], stones[1] ^ 1 << 100];
    assert_eq!(table.probe(black_high, WHITE, 5, 0), None);
    assert_eq!(table.entries().collect::<Vec<_>>().len(), 1);
    assert_eq!(table.entries().next().unwrap().0, stones);
    // The same slot, other stones: they replace the old.
    assert!(!table.store(other, WHITE, 5 + 64, 0, false));
    assert_eq!(table.probe(stones, WHITE, 5, 0), None);
    assert_eq!(table.probe(other, WHITE, 5, 0), Some(false));

    let narrow = Table::<u64>::new(64);
    let stones = [1 << 63 | 1, 1 << 40];
    narrow.store(stones, BLACK, 9, -2, true);
    assert_eq!(narrow.probe(stones, BLACK, 9, -3), Some(true));
    assert_eq!(narrow.entries().next().unwrap().0, stones);
}

#[test]
fn a_slot_being_written_is_a_miss_and_turns_away_a_second_writer() {
    let table = Table::<u128>::new(64);
    let stones = wide();
    table.store(stones, WHITE, 5, 0, true);
    let sequence = table.slot(5).word(SEQUENCE);
    let before = sequence.load(Relaxed);
    sequence.store(before + 1, Relaxed);
    assert_eq!(table.probe(stones, WHITE, 5, 0), None);
    assert!(!table.store(stones, BLACK, 5, 0, true));
    sequence.store(before, Relaxed);
    assert_eq!(table.probe(stones, WHITE, 5, 0), Some(true));
    assert_eq!(
        table.probe(stones, BLACK, 5, 0),
        None,
        "the second write was dropped"
    );
}

#[test]
fn a_line_keeps_the_larger_position_first_and_the_latest_other_second() {
    let table = Table::<u64>::new(64);
    let stones = |n: u32| [(1u64 << n) - 1, 1 << 40];
    // Hash 6 writes to slot 6 or 7, the two of one line.
    let (ten, five, seven, twelve) = (stones(9), stones(4), stones(6), stones(11));
    table.store(ten, WHITE, 6, 0, true);
    table.store(five, WHITE, 6, 0, true);
    assert_eq!(table.probe(ten, WHITE, 6, 0), Some(true));
    assert_eq!(table.probe(five, WHITE, 6, 0), Some(true));
    // Fewer stones than the first slot's: the second slot is replaced.
    table.store(seven, WHITE, 6, 0, false);
    assert_eq!(table.probe(ten, WHITE, 6, 0), Some(true));
    assert_eq!(table.probe(five, WHITE, 6, 0), None);
    assert_eq!(table.probe(seven, WHITE, 6, 0), Some(false));
    // More: the first slot is, and the second keeps its own.
    table.store(twelve, BLACK, 6, 0, true);
    assert_eq!(table.probe(ten, WHITE, 6, 0), None);
    assert_eq!(table.probe(twelve, BLACK, 6, 0), Some(true));
    assert_eq!(table.probe(seven, WHITE, 6, 0), Some(false));
    // What a slot knows of its stones is updated where they are.
    table.store(seven, BLACK, 6, 0, true);
    assert_eq!(table.probe(seven, WHITE, 6, 0), Some(false));
    assert_eq!(table.probe(seven, BLACK, 6, 0), Some(true));
    assert_eq!(table.entries().count(), 2);
}

#[test]
fn the_shared_table_grows_four_times_within_its_cap_and_keeps_every_entry() {
    let hash = |stones: [u64; 2]| splitmix(stones[0] ^ splitmix(stones[1]));
    let shared = SharedTable::<u64>::new(256, 1024);
    let positions: Vec<[u64; 2]> = (1..150u64).map(|i| [i, i << 20]).collect();
    let mut used = 0;
    for (i, &p) in positions.iter().enumerate() {
        used += shared.latest().store(p, (i % 2) as u8, hash(p), 0, true) as usize;
    }
    let before: Vec<_> = shared.latest().entries().collect();
    // Not three quarters full yet: no growth.
    shared.used.store(192, Relaxed);
    shared.grow(hash);
    assert_eq!(shared.latest().slots(), 256);
    shared.used.store(used.max(193), Relaxed);
    shared.grow(hash);
    assert_eq!(shared.latest().slots(), 1024);
    let mut after: Vec<_> = shared.latest().entries().collect();
    let mut before = before;
    before.sort_by_key(|e| e.0);
    after.sort_by_key(|e| e.0);
    assert_eq!(before, after);
    // At the cap it grows no more.
    shared.used.store(1024, Relaxed);
    shared.grow(hash);
    assert_eq!(shared.latest().slots(), 1024);
    assert_eq!(shared.tables.lock().unwrap().len(), 2);
}

#[test]
fn a_grown_table_keeps_every_entry() {
    let hash = |stones: [u64; 2]| splitmix(stones[0] ^ splitmix(stones[1]));
    let table = Table::<u64>::new(256);
    let positions: Vec<[u64; 2]> = (1..100u64).map(|i| [i, i << 20]).collect();
    let mut used = 0;
    for (i, &p) in positions.iter().enumerate() {
        used += table.store(p, (i % 2) as u8, hash(p), i as i32 - 50, true) as usize;
    }
    let before: Vec<_> = table.entries().collect();
    assert_eq!(before.len(), used);
    let (bigger, filled) = table.grown(1024, hash);
    assert_eq!(bigger.slots(), 1024);
    assert_eq!(filled, used);
    let mut after: Vec<_> = bigger.entries().collect();
    let mut before = before;
    before.sort_by_key(|e| e.0);
    after.sort_by_key(|e| e.0);
    assert_eq!(before, after);
}
