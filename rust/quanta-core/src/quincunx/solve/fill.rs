//! [`fill_open`]: the draw order is known, and the question is only whether some line fills
//! the grid (see [`Fill`]): a depth-first search, drawing placements first, that reasons on
//! ranks alone and stops when the drawing pairs within reach cannot bring the cards still
//! needed ([`Fill::draws_within_reach`]).

use super::open::check_order;
use super::solitaire::{Solitaire, bits, empty_cells, placement};
use super::tables::tables;
use super::{CELLS, meter, table_cap};
use crate::error::Result;
use crate::game::Action;
use crate::quincunx::cards::{self, Card, NO_CARD};
use crate::search::{Context, Limits, Meter};
use smallvec::SmallVec;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Whether some line fills the grid with the draw order known, and one such line.
#[derive(Debug, Clone, PartialEq)]
pub struct FillSolution {
    /// A line (placements; the draws follow from the order) that fills the grid, or `None`
    /// when every line runs out of cards first.
    pub line: Option<Vec<Action>>,
    pub nodes: u64,
    pub seconds: f64,
}

/// The depth-first search of [`fill_open`].
///
/// Whether a card draws depends only on the ranks of it and its neighbour (a sum of 11 or 20;
/// the Excuse never draws), so the future of a position depends only on the rank on each
/// cell, the ranks in the hand and how many cards were drawn. The last two follow from the
/// first within one search: every edge made since its start drew once (while the pile
/// lasted), and the hand is the start hand and the cards drawn, less those placed. So the
/// rank on each cell is the key under which a position that cannot be filled is remembered,
/// and two cards of one rank in the hand are one choice.
pub(super) struct Fill<'a> {
    /// The pile, top first.
    order: &'a [Card],
    /// `unseen[i]`: the cards of the pile after `i` draws, as a set.
    unseen: Vec<u64>,
    /// Rank keys of positions from which no line fills the grid.
    dead: rustc_hash::FxHashSet<u64>,
    cap: usize,
    pub(super) budget: Meter<'a>,
    /// The placements of the line found, last first.
    pub(super) line: Vec<Action>,
}

/// The rank code of a cell or card in a [`Fill`] key: the rank, 0 for the Excuse, 15 empty.
fn rank_code(c: Card) -> u64 {
    if c == NO_CARD {
        15
    } else {
        u64::from(cards::rank(c))
    }
}

impl<'a> Fill<'a> {
    /// A search of the pile `order`, remembering at most `cap` dead positions.
    pub(super) fn new(
        order: &'a [Card],
        cap: usize,
        limits: &'a Limits,
        cancel: &'a AtomicBool,
    ) -> Self {
        Fill {
            order,
            unseen: (0..=order.len())
                .map(|i| order[i..].iter().fold(0u64, |p, &c| p | 1 << c))
                .collect(),
            dead: Default::default(),
            cap,
            budget: meter("quincunx fill_open", limits, cancel, Instant::now(), None),
            line: Vec::new(),
        }
    }

    /// The key: 4 bits a cell, its rank code.
    fn key(grid: &[Card; CELLS]) -> u64 {
        grid.iter()
            .enumerate()
            .fold(0, |k, (i, &c)| k | rank_code(c) << (4 * i))
    }

    /// At most how many more cards can be drawn. A draw is an edge between two cards that draw
    /// together (ranks summing to 11 or 20), at least one of them still to be placed, and a
    /// pile card only comes after the draws before it. The edges a card still to be placed
    /// can make with placed cards are at most the most placed neighbours of one empty cell it
    /// draws with; those a placed card can still make, at most its empty neighbours; a card
    /// has four neighbours at most. So: bound the edges among the hand and the placed cards,
    /// take that many more cards from the pile, bound again, until the bound stops growing.
    fn draws_within_reach(
        &self,
        grid: &[Card; CELLS],
        empty: u16,
        hand: u64,
        drawn: usize,
    ) -> usize {
        let t = tables();
        // `beside_one_cell[k]`: the cards that draw with k + 1 or more placed neighbours of
        // some one empty cell (a count kept bit by bit, per cell).
        let mut beside_one_cell = [0u64; 4];
        for x in bits(u64::from(empty)) {
            let mut at_least = [0u64; 4];
            for n in bits(u64::from(t.neighbours[x])) {
                if grid[n] != NO_CARD {
                    let m = t.drawers[grid[n] as usize];
                    for k in (1..4).rev() {
                        at_least[k] |= at_least[k - 1] & m;
                    }
                    at_least[0] |= m;
                }
            }
            for k in 0..4 {
                beside_one_cell[k] |= at_least[k];
            }
        }
        // The placed cards that can still gain a neighbour, with how many they can gain.
        let placed: SmallVec<[(Card, u32); 16]> = (0..CELLS)
            .filter(|&x| grid[x] != NO_CARD)
            .map(|x| (grid[x], (t.neighbours[x] & empty).count_ones()))
            .filter(|&(_, free)| free > 0)
            .collect();
        let left = self.order.len() - drawn;
        let mut draws = 0;
        loop {
            let to_place = hand | (self.unseen[drawn] & !self.unseen[drawn + draws]);
            let by_cards_to_place: u32 = beside_one_cell
                .iter()
                .map(|&m| (m & to_place).count_ones())
                .sum();
            let by_placed_cards: u32 = placed
                .iter()
                .map(|&(c, free)| free.min((t.drawers[c as usize] & to_place).count_ones()))
                .sum();
            let among_cards_to_place: u32 = cards::cards(to_place)
                .map(|c| 4.min((t.drawers[c as usize] & to_place).count_ones()))
                .sum::<u32>()
                / 2;
            let edges = by_cards_to_place.min(by_placed_cards) + among_cards_to_place;
            let reach = (edges as usize).min(left);
            if reach <= draws {
                return draws;
            }
            draws = reach;
        }
    }

    /// Whether the grid can be filled from here; on success the line is in `self.line`.
    pub(super) fn search(
        &mut self,
        grid: &mut [Card; CELLS],
        hand: u64,
        drawn: usize,
    ) -> Result<bool> {
        let empty = empty_cells(grid);
        if empty == 0 {
            return Ok(true);
        }
        if hand == 0 {
            return Ok(false);
        }
        self.budget.tick()?;
        let t = tables();
        // Every card still to come must be drawn: at most once per edge still to be made that
        // some card still to be had (in the hand or the pile) could make draw, and never past
        // the end of the pile.
        let short = empty.count_ones().saturating_sub(hand.count_ones()) as usize;
        let to_have = hand | self.unseen[drawn];
        let can_draw = |a: u8, b: u8| match (grid[a as usize], grid[b as usize]) {
            (NO_CARD, NO_CARD) => true,
            (NO_CARD, c) | (c, NO_CARD) => t.drawers[c as usize] & to_have != 0,
            _ => false,
        };
        let open_edges = t.edges.iter().filter(|&&(a, b)| can_draw(a, b)).count();
        if short > open_edges.min(self.order.len() - drawn)
            || short > self.draws_within_reach(grid, empty, hand, drawn)
        {
            return Ok(false);
        }
        let key = Self::key(grid);
        if self.dead.contains(&key) {
            return Ok(false);
        }
        // One card per rank in the hand (the lowest), tried on every empty cell, the
        // placements that draw most first.
        let mut moves: SmallVec<[(u32, Card, usize); 96]> = SmallVec::new();
        let mut ranks_seen = 0u32;
        for c in cards::cards(hand) {
            let r = rank_code(c) as u32;
            if ranks_seen & 1 << r != 0 {
                continue;
            }
            ranks_seen |= 1 << r;
            for x in bits(u64::from(empty)) {
                let draws = bits(u64::from(t.neighbours[x]))
                    .filter(|&n| grid[n] != NO_CARD && t.drawers[grid[n] as usize] & 1 << c != 0)
                    .count() as u32;
                moves.push((draws, c, x));
            }
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.0));
        for (draws, c, x) in moves {
            let taken = (draws as usize).min(self.order.len() - drawn);
            let drawn_cards = self.order[drawn..drawn + taken]
                .iter()
                .fold(0u64, |h, &d| h | 1 << d);
            grid[x] = c;
            let filled = self.search(grid, hand & !(1 << c) | drawn_cards, drawn + taken);
            grid[x] = NO_CARD;
            if filled? {
                self.line.push(placement(c, x));
                return Ok(true);
            }
        }
        if self.dead.len() < self.cap {
            self.dead.insert(key);
        }
        Ok(false)
    }
}

/// Whether some line fills the grid of `pos` when the pile comes in `order` (top first), and
/// one such line: the first question of [`solve_open`](super::solve_open) (a full grid beats any loss), without
/// the score. A depth-first search, placements that draw most first, remembering the
/// positions (by ranks, see [`Fill`]) from which no line fills the grid. One thread.
pub fn fill_open(pos: &Solitaire, order: &[Card], ctx: &Context) -> Result<FillSolution> {
    fill_open_here(pos, order, &ctx.limits, ctx.cancel)
}

/// [`fill_open`] with its limits and cancel flag.
pub(super) fn fill_open_here(
    pos: &Solitaire,
    order: &[Card],
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<FillSolution> {
    check_order(pos, order)?;
    let cap = table_cap(limits.memory_mb, std::mem::size_of::<u64>());
    let mut fill = Fill::new(order, cap, limits, cancel);
    let mut grid = pos.grid;
    let filled = fill.search(&mut grid, pos.hand, 0)?;
    fill.line.reverse();
    Ok(FillSolution {
        line: filled.then_some(fill.line),
        nodes: fill.budget.own(),
        seconds: fill.budget.seconds(),
    })
}
