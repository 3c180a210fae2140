//! Batch kernels, written once against `Game`: every game gets them for free.

use crate::error::{Error, Result};
use crate::game::{Game, row_rng};
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

/// Plays `n` uniformly random games from the start: games `first..first + n` of the sequence
/// seeded by `seed`. Game `i` uses the generator `row_rng(seed, i)`, so the result depends only
/// on `(game, first, n, seed)`, never on `threads` (`None` = all cores), and a long run can be
/// cut into pieces that together equal one call. Stops early with `Interrupted` once `cancel`
/// is set.
pub fn random_playouts<G: Game>(
    game: &G,
    first: u64,
    n: usize,
    seed: u64,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<Playouts> {
    let players = game.num_players();
    let mut returns = vec![0.0; n * players];
    let mut length = vec![0i32; n];
    let work = |returns: &mut [f64], length: &mut [i32]| {
        returns
            .par_chunks_mut(CHUNK * players)
            .zip(length.par_chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(chunk, (ret, len))| {
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                for (i, (r, l)) in ret.chunks_mut(players).zip(len.iter_mut()).enumerate() {
                    let row = first + (chunk * CHUNK + i) as u64;
                    let mut rng = row_rng(seed, row);
                    let mut state = game.new_state();
                    *l = game.random_playout(&mut state, &mut rng, r) as i32;
                }
            });
    };
    in_pool(threads, || work(&mut returns, &mut length))?;
    if cancel.load(Ordering::Relaxed) {
        return Err(Error::Interrupted);
    }
    Ok(Playouts {
        players,
        returns,
        length,
    })
}
