//! Batch kernels, written once against `Game`: every game gets them for free, and every
//! per-deal job (playouts, solver batches) goes through the one row kernel, [`map_rows`].

use crate::error::{Error, Result, thousands};
use crate::game::{Game, Rng, row_rng};
use crate::search::in_pool;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Results of `random_playouts`: row-major `returns` (`n * players`) and plies per game.
#[derive(Debug, Clone, PartialEq)]
pub struct Playouts {
    pub players: usize,
    pub returns: Vec<f64>,
    pub length: Vec<i32>,
}

/// Rows handed to a worker at a time; also how often a worker looks at the cancel flag.
const CHUNK: usize = 1024;

/// How the threads of a row job share the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// Many rows at once, handed to the threads a thousand at a time (cheap rows: playouts).
    Chunks,
    /// Many rows at once, one at a time to each thread (costly rows: solves).
    Rows,
    /// One row after another, each with every thread (a row that is a parallel solve, timed
    /// as it would run alone).
    WithinRows,
}

/// Rows `first..first + n` of the sequence seeded by `seed`, each computed by `row` from its
/// number and its own generator `row_rng(seed, number)`: the result depends only on
/// `(first, n, seed)` and `row`, never on `threads` (`None` = all cores), on `split` or on
/// the order the rows are computed in, and a long run cut into pieces equals one call. Row `i`
/// of any two jobs with the same seed starts from the same generator, so a game that deals
/// from it deals the same cards in `random_playouts` and in a solver batch. Stops early with
/// `Interrupted` once `cancel` is set.
pub fn map_rows<T: Send>(
    first: u64,
    n: usize,
    seed: u64,
    threads: Option<usize>,
    split: Split,
    cancel: &AtomicBool,
    row: impl Fn(u64, &mut Rng) -> T + Sync,
) -> Result<Vec<T>> {
    let one = |i: usize| {
        if (split != Split::Chunks || i % CHUNK == 0) && cancel.load(Ordering::Relaxed) {
            return None;
        }
        let number = first.wrapping_add(i as u64);
        Some(row(number, &mut row_rng(seed, number)))
    };
    let rows = in_pool(threads, || match split {
        Split::Chunks => (0..n)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(one)
            .collect::<Option<Vec<T>>>(),
        Split::Rows => (0..n).into_par_iter().map(one).collect(),
        Split::WithinRows => (0..n).map(one).collect(),
    })?;
    match rows {
        Some(rows) if !cancel.load(Ordering::Relaxed) => Ok(rows),
        _ => Err(Error::Interrupted),
    }
}

/// Bytes of one playout's results: every seat's return (`f64`) and the game's length (`i32`).
pub fn playout_bytes(players: usize) -> usize {
    players * 8 + 4
}

/// The most bytes that results may take here: the memory the system has available now
/// (Linux's `MemAvailable`), and never more than 2**47 bytes, the address space a process has
/// on the common 64-bit machines (on a system that does not say what is available, that
/// ceiling, and a refused allocation, are the only bounds).
pub fn memory_for_results() -> u64 {
    let ceiling = (isize::MAX as u64).min(1 << 47);
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("MemAvailable:"))
                .and_then(|rest| rest.trim().strip_suffix("kB"))
                .and_then(|kb| kb.trim().parse::<u64>().ok())
                .map(|kb| kb.saturating_mul(1024))
        });
    let room = available.map_or(ceiling, |a| a.min(ceiling));
    address_space_left().map_or(room, |left| room.min(left))
}

/// Three quarters of the address space left under the process's limit (`ulimit -v`,
/// `RLIMIT_AS`), if it has one: past the limit an allocation fails and the allocator aborts
/// the process, whatever memory the machine has free. A quarter is kept for what a call
/// reserves besides its results (its threads' stacks and allocator arenas).
fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let soft = limits
        .lines()
        .find_map(|line| line.strip_prefix("Max address space"))?
        .split_whitespace()
        .next()?
        .parse::<u64>()
        .ok()?; // "unlimited" is no limit
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let used = status
        .lines()
        .find_map(|line| line.strip_prefix("VmSize:"))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|kb| kb.trim().parse::<u64>().ok())
        .map_or(0, |kb| kb.saturating_mul(1024));
    Some(soft.saturating_sub(used) / 4 * 3)
}

/// `bytes` for a person: "22.0 TB", "512 MB" (powers of 1000).
fn size(bytes: u128) -> String {
    let units = ["bytes", "kB", "MB", "GB", "TB", "PB", "EB"];
    let (mut value, mut unit) = (bytes as f64, 0);
    while value >= 1000.0 && unit + 1 < units.len() {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

/// The error for `n` rows of `row_bytes` bytes that do not fit in the `room` bytes there are:
/// it names the count as `name`, says the most rows that fit, and what to do instead.
fn too_big(name: &str, n: usize, rows: &str, row_bytes: usize, room: u64, advice: &str) -> Error {
    let need = n as u128 * row_bytes as u128;
    Error::InvalidOption(format!(
        "{name}: {} {rows} need {} of memory for their results ({row_bytes} bytes each), more \
         than the {} there is room for here; at most {} {rows} fit: {advice}",
        thousands(n),
        size(need),
        size(room as u128),
        thousands((room / row_bytes.max(1) as u64) as usize),
    ))
}

/// Results this small are taken to fit without asking the system: reading its figures
/// ([`memory_for_results`], three files of `/proc`) costs some ten microseconds, and an
/// allocation that is refused all the same is an error too (never an abort).
const SURELY_FITS: u128 = 1 << 20;

/// Refuses, before anything is allocated, `n` rows of `row_bytes` bytes each whose results
/// would not fit in [`memory_for_results`]: the error (an `InvalidOption`) names the count as
/// `name` ("n", "shard_size"), says the most `rows` that fit and `advice`, what to do instead.
pub fn check_fits(name: &str, n: usize, rows: &str, row_bytes: usize, advice: &str) -> Result<()> {
    let need = n as u128 * row_bytes as u128;
    if need <= SURELY_FITS {
        return Ok(());
    }
    let room = memory_for_results();
    if need <= room as u128 {
        Ok(())
    } else {
        Err(too_big(name, n, rows, row_bytes, room, advice))
    }
}

/// What to do instead of one call of `random_playouts` too big to hold.
pub const PLAYOUTS_ADVICE: &str = "play them in pieces (first=), or as a job written to disk shard by shard \
     (quanta.jobs.playouts)";

/// A vector with room for `n` items, or the error of [`check_fits`] when the memory cannot be
/// had (the allocation is fallible: a refusal is an error, never an abort).
fn room_for<T>(n: usize, name: &str, games: usize, players: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        too_big(
            name,
            games,
            "games",
            playout_bytes(players),
            memory_for_results(),
            PLAYOUTS_ADVICE,
        )
    })?;
    Ok(v)
}

/// Plays `n` uniformly random games from the start: games `first..first + n` of the sequence
/// seeded by `seed` (see [`map_rows`]). `n` games whose results would not fit in memory are
/// refused before anything is allocated ([`check_fits`]). One thread plays on the calling
/// thread: a pool built for it would cost more than a thousand games.
pub fn random_playouts<G: Game>(
    game: &G,
    first: u64,
    n: usize,
    seed: u64,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<Playouts> {
    let players = game.num_players();
    check_fits("n", n, "games", playout_bytes(players), PLAYOUTS_ADVICE)?;
    let mut returns = room_for(n * players, "n", n, players)?;
    let mut length = room_for(n, "n", n, players)?;
    returns.resize(n * players, 0.0);
    length.resize(n, 0);
    // Chunk `k` holds games `first + k * CHUNK..`; the cancel flag is read once a chunk.
    let play = |(chunk, (returns, length)): (usize, (&mut [f64], &mut [i32]))| {
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Interrupted);
        }
        let from = first.wrapping_add((chunk * CHUNK) as u64);
        play_in_lanes(game, from, seed, returns, length);
        Ok(())
    };
    let (returns_chunk, length_chunk) = (CHUNK * players, CHUNK);
    match threads {
        Some(1) => returns
            .chunks_mut(returns_chunk)
            .zip(length.chunks_mut(length_chunk))
            .enumerate()
            .try_for_each(play)?,
        _ => in_pool(threads, || {
            returns
                .par_chunks_mut(returns_chunk)
                .zip(length.par_chunks_mut(length_chunk))
                .enumerate()
                .try_for_each(play)
        })??,
    }
    Ok(Playouts {
        players,
        returns,
        length,
    })
}

/// Plays games `first..` of the sequence seeded by `seed` from the start, one per entry of
/// `length` (its plies) and `players` entries of `returns` (its returns): each game from its
/// own generator, so each is the game `Game::random_playout` plays from it, whatever the lanes.
/// With `G::PLAYOUT_LANES` above 1, that many games are stepped in turn (see there).
fn play_in_lanes<G: Game>(
    game: &G,
    first: u64,
    seed: u64,
    returns: &mut [f64],
    length: &mut [i32],
) {
    let players = game.num_players();
    let start = |row: usize| Lane {
        row,
        state: game.new_state(),
        rng: row_rng(seed, first.wrapping_add(row as u64)),
        plies: 0,
        actions: Vec::new(),
    };
    if G::PLAYOUT_LANES <= 1 {
        for (row, length) in length.iter_mut().enumerate() {
            let Lane {
                mut state, mut rng, ..
            } = start(row);
            let returns = &mut returns[row * players..(row + 1) * players];
            *length = game.random_playout(&mut state, &mut rng, returns) as i32;
        }
        return;
    }
    let new_game = game.new_state();
    let mut lanes: Vec<Lane<G::State>> =
        (0..G::PLAYOUT_LANES.min(length.len())).map(start).collect();
    let mut next = lanes.len();
    while !lanes.is_empty() {
        let mut i = 0;
        while i < lanes.len() {
            let lane = &mut lanes[i];
            if let Some(plies) = game.random_step(&mut lane.state, &mut lane.rng, &mut lane.actions)
            {
                lane.plies += plies;
                i += 1;
                continue;
            }
            game.returns(
                &lane.state,
                &mut returns[lane.row * players..(lane.row + 1) * players],
            );
            length[lane.row] = lane.plies as i32;
            if next < length.len() {
                // Field by field, from a start state made once: a new `Lane` or state built on
                // the stack and copied over the old one measured 10-20% slower in all (the copy
                // waits on the stores that built it).
                lane.row = next;
                lane.state.clone_from(&new_game);
                lane.rng = row_rng(seed, first.wrapping_add(next as u64));
                lane.plies = 0;
                next += 1;
                i += 1;
            } else {
                lanes.swap_remove(i);
            }
        }
    }
}

/// One game of [`play_in_lanes`] under way.
struct Lane<S> {
    row: usize,
    state: S,
    rng: Rng,
    plies: u32,
    actions: Vec<crate::game::Action>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::einstein::Einstein;
    use crate::game::Game;

    #[test]
    fn a_count_whose_results_cannot_fit_is_refused_before_anything_is_allocated() {
        let game = Einstein::from_options(&Default::default()).unwrap();
        let cancel = AtomicBool::new(false);
        let err = random_playouts(&game, 0, 1 << 40, 0, Some(1), &cancel).unwrap_err();
        let Error::InvalidOption(message) = err else {
            panic!("{err:?}")
        };
        assert!(
            message.starts_with("n: 1,099,511,627,776 games need 22.0 TB"),
            "{message}"
        );
        assert!(message.contains("at most") && message.contains("quanta.jobs.playouts"));
        assert!(check_fits("n", 1000, "games", 20, PLAYOUTS_ADVICE).is_ok());
    }

    #[test]
    fn games_played_in_pieces_are_the_games_of_the_sequence_at_any_threads() {
        let game = Einstein::from_options(&Default::default()).unwrap();
        let cancel = AtomicBool::new(false);
        let n = 5 * CHUNK + 3;
        let all = random_playouts(&game, 5, n, 7, Some(1), &cancel).unwrap();
        for threads in [None, Some(1), Some(2)] {
            let tail = random_playouts(
                &game,
                5 + 2 * CHUNK as u64 + 1,
                3 * CHUNK + 2,
                7,
                threads,
                &cancel,
            )
            .unwrap();
            assert_eq!(all.length[2 * CHUNK + 1..], tail.length[..]);
            assert_eq!(all.returns[2 * (2 * CHUNK + 1)..], tail.returns[..]);
        }
        assert_eq!(
            all,
            random_playouts(&game, 5, n, 7, Some(2), &cancel).unwrap()
        );
    }

    #[test]
    fn a_cancelled_batch_is_interrupted_on_one_thread_and_on_many() {
        let game = Einstein::from_options(&Default::default()).unwrap();
        let cancel = AtomicBool::new(true);
        for threads in [Some(1), Some(2), None] {
            let err = random_playouts(&game, 0, 3 * CHUNK, 0, threads, &cancel).unwrap_err();
            assert!(matches!(err, Error::Interrupted), "{threads:?}: {err:?}");
        }
    }

    #[test]
    fn games_stepped_in_lanes_are_the_games_each_generator_plays_alone() {
        // EinStein steps PLAYOUT_LANES games side by side; each must be its own playout.
        let game = Einstein::from_options(&Default::default()).unwrap();
        assert!(Einstein::PLAYOUT_LANES > 1);
        let (first, seed, n) = (11, 3, 1000);
        let mut returns = vec![0.0; 2 * n];
        let mut length = vec![0; n];
        play_in_lanes(&game, first, seed, &mut returns, &mut length);
        for row in 0..n {
            let mut alone = [0.0; 2];
            let mut rng = row_rng(seed, first + row as u64);
            let plies = game.random_playout(&mut game.new_state(), &mut rng, &mut alone);
            assert_eq!(
                (length[row], &returns[2 * row..2 * row + 2]),
                (plies as i32, &alone[..])
            );
        }
    }
}
