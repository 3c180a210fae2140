//! Batch kernels, written once against `Game`: every game gets them for free, and every
//! per-deal job (playouts, solver batches) goes through the one row kernel, [`map_rows`].

use crate::error::{Error, Result};
use crate::game::{Game, Rng, row_rng};
use crate::search::in_pool;
use rayon::prelude::*;
use smallvec::SmallVec;
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

/// Plays `n` uniformly random games from the start: games `first..first + n` of the sequence
/// seeded by `seed` (see [`map_rows`]).
pub fn random_playouts<G: Game>(
    game: &G,
    first: u64,
    n: usize,
    seed: u64,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<Playouts> {
    let players = game.num_players();
    let rows = map_rows(first, n, seed, threads, Split::Chunks, cancel, |_, rng| {
        let mut returns: SmallVec<[f64; 4]> = SmallVec::from_elem(0.0, players);
        let mut state = game.new_state();
        let length = game.random_playout(&mut state, rng, &mut returns) as i32;
        (returns, length)
    })?;
    let mut returns = Vec::with_capacity(n * players);
    let mut length = Vec::with_capacity(n);
    for (r, l) in rows {
        returns.extend_from_slice(&r);
        length.push(l);
    }
    Ok(Playouts {
        players,
        returns,
        length,
    })
}
