//! Batches over fresh deals: [`deal`], [`advance_greedily`], and [`solve_open_batch`],
//! [`fill_open_batch`], [`play_batch`] (one [`Row`] per deal; [`Policy`]: the player).

use super::fill::fill_open_here;
use super::open::solve_open_here;
use super::policy::{best_move_here, greedy_move};
use super::solitaire::Solitaire;
use super::{CELLS, CORNERS, HAND};
use crate::batch::{Split, map_rows};
use crate::error::{Error, Result};
use crate::game::{Rng, row_rng};
use crate::quincunx::cards::{self, Card, NO_CARD};
use crate::search::{Context, Limits};
use rand::seq::SliceRandom;
use std::time::Instant;

/// Deal `row` of the sequence seeded by `seed`: the deck shuffled by `row_rng(seed, row)`, its
/// first four cards on the corners (a1, d1, a4, d4), the next eight the hand, the rest the
/// pile in draw order (top first). It is the deal of game `row` of `random_playouts` of
/// solitaire with that seed, which deals the same shuffled deck in the same order.
pub fn deal(seed: u64, row: u64, excuse: bool) -> (Solitaire, Vec<Card>) {
    deal_from(&mut row_rng(seed, row), excuse)
}

/// The deal of a deck shuffled with `rng` (see [`deal`]).
pub fn deal_from(rng: &mut Rng, excuse: bool) -> (Solitaire, Vec<Card>) {
    let mut deck: Vec<Card> = cards::cards(cards::deck(excuse)).collect();
    deck.shuffle(rng);
    let mut grid = [NO_CARD; CELLS];
    for (&cell, &c) in CORNERS.iter().zip(&deck) {
        grid[cell] = c;
    }
    let hand = deck[4..4 + HAND].iter().fold(0u64, |h, &c| h | 1 << c);
    let order = deck[4 + HAND..].to_vec();
    let pile = order.iter().fold(0u64, |p, &c| p | 1 << c);
    (
        Solitaire {
            grid,
            hand,
            pile,
            points: 0,
        },
        order,
    )
}

/// Plays `pos` greedily, drawing from `order`, until at most `empty` cells are empty or the
/// game is over; returns the rest of the order.
pub fn advance_greedily(pos: &mut Solitaire, order: &[Card], empty: u32) -> Vec<Card> {
    let mut next = order.iter();
    while pos.empty().count_ones() > empty && !pos.is_over() {
        let Some(a) = greedy_move(pos) else { break };
        let (card, cell) = Solitaire::split(a);
        let (_, draws) = pos.place(card, cell);
        for _ in 0..draws {
            if let Some(&c) = next.next() {
                pos.draw(c);
            }
        }
    }
    next.copied().collect()
}

/// One row of a batch: the outcome of one deal.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Whether the game is lost (no full grid); `None` when the deal hit its per-deal limit
    /// (undecided).
    pub lost: Option<bool>,
    /// The final score; `None` when the deal is undecided, or when the batch asks no score
    /// ([`fill_open_batch`]).
    pub score: Option<i32>,
    pub nodes: u64,
    pub seconds: f64,
}

impl Row {
    /// Whether the deal was decided within its limits.
    pub fn solved(&self) -> bool {
        self.lost.is_some()
    }
}

/// Runs `one` on deals `first..first + n` of `seed` through the row kernel, each with the
/// deal's generator; rows in deal order.
fn batch(
    seed: u64,
    first: u64,
    n: usize,
    split: Split,
    ctx: &Context,
    one: impl Fn(u64, &mut Rng) -> Result<Row> + Sync,
) -> Result<Vec<Row>> {
    map_rows(first, n, seed, ctx.threads, split, ctx.cancel, one)?
        .into_iter()
        .collect()
}

/// Solves deals `first..first + n` of `seed` open (each within `limits`; a deal that hits
/// them is an undecided row), from the deal itself (`empty` = 12) or after greedy
/// play down to `empty` empty cells. The deals are solved in parallel, or with
/// `one_at_a_time` one after another, each solve on all the threads (for the time one solve
/// takes alone).
pub fn solve_open_batch(
    seed: u64,
    first: u64,
    n: usize,
    excuse: bool,
    empty: u32,
    one_at_a_time: bool,
    ctx: &Context,
) -> Result<Vec<Row>> {
    let split = if one_at_a_time {
        Split::WithinRows
    } else {
        Split::Rows
    };
    let (limits, cancel) = (&ctx.limits, ctx.cancel);
    batch(seed, first, n, split, ctx, |_, rng| {
        let (mut pos, order) = deal_from(rng, excuse);
        let order = advance_greedily(&mut pos, &order, empty);
        within_limits(
            Instant::now(),
            solve_open_here(&pos, &order, limits, cancel).map(|s| Row {
                lost: Some(s.lost),
                score: Some(s.score),
                nodes: s.nodes,
                seconds: s.seconds,
            }),
        )
    })
}

/// A batch row from one deal's answer: a deal past its limits (started at `start`) is an
/// undecided row (no outcome, no score); other errors stop the batch.
fn within_limits(start: Instant, row: Result<Row>) -> Result<Row> {
    match row {
        Err(Error::SearchLimit { nodes, .. }) => Ok(Row {
            lost: None,
            score: None,
            nodes,
            seconds: start.elapsed().as_secs_f64(),
        }),
        row => row,
    }
}

/// Asks [`fill_open`] of fresh deals `first..first + n` of `seed` (each within `limits`; a
/// deal that hits them is an undecided row): `lost` when no line fills the grid (`score` is
/// `None`: the question has no score).
pub fn fill_open_batch(
    seed: u64,
    first: u64,
    n: usize,
    excuse: bool,
    ctx: &Context,
) -> Result<Vec<Row>> {
    let (limits, cancel) = (&ctx.limits, ctx.cancel);
    batch(seed, first, n, Split::Rows, ctx, |_, rng| {
        let (pos, order) = deal_from(rng, excuse);
        within_limits(
            Instant::now(),
            fill_open_here(&pos, &order, limits, cancel).map(|f| Row {
                lost: Some(f.line.is_none()),
                score: None,
                nodes: f.nodes,
                seconds: f.seconds,
            }),
        )
    })
}

/// A policy for [`play_batch`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Policy {
    Greedy,
    /// [`best_move`] with these settings (seeded per deal and turn).
    BestMove {
        samples: usize,
        candidates: Option<usize>,
        effort: Option<u64>,
    },
}

/// Plays deals `first..first + n` of `seed` to the end with `policy` (which never sees the
/// draw order); rows hold the final outcome.
pub fn play_batch(
    policy: Policy,
    seed: u64,
    first: u64,
    n: usize,
    excuse: bool,
    ctx: &Context,
) -> Result<Vec<Row>> {
    let (limits, cancel) = (Limits::default(), ctx.cancel);
    batch(seed, first, n, Split::Rows, ctx, |row, rng| {
        let (mut pos, order) = deal_from(rng, excuse);
        let start = Instant::now();
        let mut nodes = 0;
        let mut next = order.iter();
        for turn in 0u64.. {
            let action = match policy {
                Policy::Greedy => greedy_move(&pos),
                Policy::BestMove {
                    samples,
                    candidates,
                    effort,
                } => {
                    // Each deal and turn samples with its own seed; the batch's pool runs them.
                    let mut rng = row_rng(seed ^ 0x5eed_5eed, row << 5 | turn);
                    let sample_seed = rand::Rng::random::<u64>(&mut rng);
                    let advice = best_move_here(
                        &pos,
                        samples,
                        sample_seed,
                        candidates,
                        effort,
                        &limits,
                        cancel,
                    )?;
                    nodes += advice.nodes;
                    advice.action
                }
            };
            let Some(a) = action else { break };
            let (card, cell) = Solitaire::split(a);
            let (_, draws) = pos.place(card, cell);
            for _ in 0..draws {
                if let Some(&c) = next.next() {
                    pos.draw(c);
                }
            }
        }
        Ok(Row {
            lost: Some(pos.lost()),
            score: Some(pos.final_score()),
            nodes,
            seconds: start.elapsed().as_secs_f64(),
        })
    })
}
