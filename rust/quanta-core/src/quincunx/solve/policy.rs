//! Policies for any position.
//!
//! * [`best_move`]: a policy for any position: sample draw orders with the seed, solve each
//!   order open after every candidate action, pick the action that wins in the most samples, then
//!   has the highest mean final score (perfect-information Monte Carlo).
//! * [`greedy_move`]: the baseline: the highest immediate points.

use super::open::{Move, Node, Open, outcome};
use super::solitaire::{Solitaire, placement};
use super::{SIDE, meter};
use crate::error::Result;
use crate::game::{Action, row_rng};
use crate::quincunx::cards::{self, Card};
use crate::quincunx::scoring::score_placement;
use crate::search::{Context, Limits};
use rand::seq::SliceRandom;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The greedy baseline: the placement with the most immediate points; ties go to the one that
/// draws more cards, then to the lowest action number. `None` when the game is over.
pub fn greedy_move(pos: &Solitaire) -> Option<Action> {
    let mut best: Option<((i32, u32), Action)> = None;
    for a in pos.actions() {
        let (card, cell) = Solitaire::split(a);
        let p = score_placement(&pos.grid, SIDE, false, card, cell);
        let key = (p.points(), p.draws);
        if best.is_none_or(|(b, _)| key > b) {
            best = Some((key, a));
        }
    }
    best.map(|b| b.1)
}

/// What [`best_move`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    /// The chosen placement (`None` when the game is over).
    pub action: Option<Action>,
    /// Every candidate with the share of samples in which it fills the grid and its mean final
    /// score over the samples (each sample played perfectly with that order known).
    pub candidates: Vec<(Action, f64, f64)>,
    pub nodes: u64,
    pub seconds: f64,
}

/// The sample `i` of the draw order of `pile` for `seed`: the same on every thread.
fn sample_order(pile: u64, seed: u64, i: u64) -> Vec<Card> {
    let mut order: Vec<Card> = cards::cards(pile).collect();
    order.shuffle(&mut row_rng(seed, i));
    order
}

/// A policy for any position with the draw order unknown: draws `samples` orders of the pile
/// (from `seed`; the same orders on any thread count), solves every candidate action open under
/// each, and picks the action that fills the grid in the most samples, then has the highest
/// mean final score, then the lowest action number. `candidates` keeps only that many actions,
/// the best by immediate points (draws count while the hand is short), and `effort` caps each
/// open solve at that many nodes (it then counts the best line it found, a lower bound), to
/// bound the work; with both `None` every sample is solved exactly.
///
/// The samples are solved in parallel on the context's threads, each with its share of
/// `memory_mb` for its table, so that together they stay within it.
pub fn best_move(
    pos: &Solitaire,
    samples: usize,
    seed: u64,
    candidates: Option<usize>,
    effort: Option<u64>,
    ctx: &Context,
) -> Result<Advice> {
    ctx.in_pool(|| {
        best_move_here(
            pos,
            samples,
            seed,
            candidates,
            effort,
            &ctx.limits,
            ctx.cancel,
        )
    })?
}

/// [`best_move`] on the threads of the pool it is called in.
pub(super) fn best_move_here(
    pos: &Solitaire,
    samples: usize,
    seed: u64,
    candidates: Option<usize>,
    effort: Option<u64>,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Advice> {
    let start = Instant::now();
    if pos.is_over() {
        return Ok(Advice {
            action: None,
            candidates: Vec::new(),
            nodes: 0,
            seconds: 0.0,
        });
    }
    let shared = AtomicU64::new(0);
    let root = Node::new(pos.grid, pos.hand);
    let moves: Vec<Move> = {
        let dummy = Open::new(
            &[],
            meter("quincunx best_move", limits, cancel, start, None),
        );
        let mut m = dummy.moves(&root).into_vec();
        m.truncate(candidates.unwrap_or(usize::MAX).max(1));
        m
    };
    // The samples solved at once share the memory.
    let share = Limits {
        memory_mb: (limits.memory_mb / rayon::current_num_threads().min(samples.max(1))).max(1),
        ..limits.clone()
    };
    let per_sample = |i: usize| -> Result<Vec<i32>> {
        let order = sample_order(pos.pile, seed, i as u64);
        let budget = meter("quincunx best_move", &share, cancel, start, Some(&shared));
        let mut open = Open::new(&order, budget);
        let mut values = Vec::with_capacity(moves.len());
        for m in &moves {
            let child = open.child(&root, m);
            values.push(m.points + open.value_within(&child, effort)?);
        }
        Ok(values)
    };
    let run = || -> Result<Vec<Vec<i32>>> {
        (0..samples.max(1))
            .into_par_iter()
            .map(per_sample)
            .collect()
    };
    let values = run()?;
    let n = values.len() as f64;
    let mut scored = Vec::with_capacity(moves.len());
    for (j, m) in moves.iter().enumerate() {
        let (mut wins, mut total) = (0.0, 0.0);
        for v in &values {
            let (lost, score) = outcome(pos.points, v[j]);
            wins += f64::from(u8::from(!lost));
            total += score as f64;
        }
        scored.push((placement(m.card, m.cell as usize), wins / n, total / n));
    }
    let action = scored
        .iter()
        .max_by(|a, b| {
            (a.1, a.2)
                .partial_cmp(&(b.1, b.2))
                .unwrap()
                .then(b.0.cmp(&a.0))
        })
        .map(|c| c.0);
    scored.sort_by_key(|c| c.0);
    Ok(Advice {
        action,
        candidates: scored,
        nodes: shared.load(Ordering::Relaxed),
        seconds: start.elapsed().as_secs_f64(),
    })
}
