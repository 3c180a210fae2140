//! Sums of games: a position split into regions that never interact, and the outcome class
//! of a region ([`Solver::split`], [`Solver::class`]).
//!
//! **Sums of games.** Stones only ever land on cells that hold a stone now, and a stone's jump
//! length is at most its number of occupied neighbour cells now (and at most the larger stone
//! count minus one). Stones that can never reach, or border, each other form separate regions
//! that never merge: the position is a sum of independent games. A region of one colour never
//! moves and is dropped. Each other region's outcome class (White wins, Black wins, first
//! player wins, second player wins) is solved once and cached under a key that forgets where
//! the region sits and how it is turned (the 12 symmetries of the hex grid and every
//! translation). A region whose class is "second player wins" is a zero game and is dropped. A
//! region where only one colour can ever capture is an integer (the longest run of its
//! captures); integers are summed into one number that the search carries as spare moves. The
//! largest region is never classed (that would search it from both sides): it and the other
//! regions still in play are searched once, for the player to move, with the number, and that
//! sum (not the whole position) is what the table stores, so that it is met again whatever zero
//! and integer regions lie beside it, at one memory write per node. The positions one capture
//! from the start are split so (the start itself is searched whole, to name its best capture);
//! deeper positions are searched whole, with the spare moves they inherit
//! ([`SPLIT_PLIES`](super::search::SPLIT_PLIES)). Splitting at every node took twice the time
//! per node and saved only a fifth of the nodes, on sides 3 and 5 alike. Spare moves that
//! outlast every capture the opponent has left (one per own stone) decide at once.

use super::search::Solver;
use super::shared::Searched;
use crate::bits::Bits;
use crate::quantum_leap::board::MAX_CELLS;
use crate::quantum_leap::{BLACK, QuantumLeap, WHITE, after_capture};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Outcome class of a region (Left = White).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// White wins whoever starts.
    White,
    /// Black wins whoever starts.
    Black,
    /// The player to move wins.
    First,
    /// The player to move loses: a zero game.
    Second,
}

/// What a region alone is: its outcome class, and the integer it is worth when only one
/// colour can ever capture in it.
pub(super) type RegionValue = (Class, Option<i32>);

impl<'s, 'a, B: Bits> Solver<'s, 'a, B> {
    /// The independent regions of the occupied cells (see the module notes), lowest first.
    ///
    /// Cell `c` can jump at most `bound(c)` = min(its occupied neighbours, the larger stone count
    /// − 1) cells, so `c` and `v` interact when they are neighbours or lie on a line within
    /// `max(bound(c), bound(v))` of each other. Distance along a line is symmetric, so grouping
    /// the occupied cells by bound gives every link of `c` from the `reach` table alone.
    pub(super) fn split(&self, stones: [B; 2]) -> SmallVec<[B; 8]> {
        let board = &*self.game.board;
        let occupied = stones[0] | stones[1];
        if occupied.is_empty() {
            return SmallVec::new();
        }
        // Stones connected through neighbours alone are one region: a cheap first test.
        let mut region = B::cell(occupied.lowest());
        let mut frontier = region;
        while !frontier.is_empty() {
            let c = frontier.lowest();
            frontier ^= B::cell(c);
            let new = board.neighbours[c] & occupied & !region;
            region |= new;
            frontier |= new;
        }
        if region == occupied {
            return SmallVec::from_elem(occupied, 1);
        }
        let most = stones[0].count().max(stones[1].count()) as usize;
        let cap = most.saturating_sub(1).min(6);
        let mut bound = [0u8; MAX_CELLS];
        let mut by_bound = [B::EMPTY; 7];
        for c in occupied.cells() {
            let b = ((board.neighbours[c] & occupied).count() as usize).min(cap);
            bound[c] = b as u8;
            by_bound[b] |= B::cell(c);
        }
        let reach = &self.shared.reach;
        let links = |c: usize| -> B {
            let own = bound[c] as usize;
            let mut out = board.neighbours[c] | reach[c][own];
            for b in own + 1..=cap {
                out |= reach[c][b] & by_bound[b];
            }
            out & occupied
        };
        let mut regions = SmallVec::new();
        let mut left = occupied;
        while !left.is_empty() {
            let seed = B::cell(left.lowest());
            let mut region = seed;
            let mut frontier = seed;
            while !frontier.is_empty() {
                let c = frontier.lowest();
                frontier ^= B::cell(c);
                let new = links(c) & !region;
                region |= new;
                frontier |= new;
            }
            left &= !region;
            regions.push(region);
        }
        regions
    }

    /// The outcome class of a region played alone, cached by its shape.
    pub(super) fn class(&mut self, part: [B; 2]) -> Searched<RegionValue> {
        if let Some(&c) = self.placed.get(&part) {
            return Ok(c);
        }
        let key = self.shape_key(part);
        let known = self
            .shared
            .regions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .copied();
        if let Some(c) = known {
            self.remember(part, c);
            return Ok(c);
        }
        let h = self.hash(part);
        let white_first = self.wins(part, WHITE, h, 0)?;
        let black_first = self.wins(part, BLACK, h, 0)?;
        let class = match (white_first, black_first) {
            (true, false) => Class::White,
            (false, true) => Class::Black,
            (true, true) => Class::First,
            (false, false) => Class::Second,
        };
        let integer = match class {
            Class::White => self.one_sided(part, WHITE).map(|n| n as i32),
            Class::Black => self.one_sided(part, BLACK).map(|n| -(n as i32)),
            _ => None,
        };
        let value = (class, integer);
        if self.shared.take_region_bytes(key.len() * 2 + 64) {
            let mut regions = self
                .shared
                .regions
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            regions.insert(key, value);
        }
        self.remember(part, value);
        Ok(value)
    }

    /// If the opponent of `side` can never capture in this region, whatever `side` plays, the
    /// region is the integer game worth the longest run of `side`'s captures: that length.
    /// `None` if the opponent might, or if the longest run takes too long to find.
    fn one_sided(&self, part: [B; 2], side: u8) -> Option<u32> {
        fn longest<B: Bits>(
            game: &QuantumLeap<B>,
            stones: [B; 2],
            side: u8,
            memo: &mut FxHashMap<[B; 2], u32>,
            budget: &mut u32,
        ) -> Option<u32> {
            if let Some(&n) = memo.get(&stones) {
                return Some(n);
            }
            *budget = budget.checked_sub(1)?;
            debug_assert!(!game.can_capture(stones, 1 - side));
            let mut moves: SmallVec<[(usize, usize); 48]> = SmallVec::new();
            game.for_each_capture(stones, side, |from, _, to| moves.push((from, to)));
            // Every capture takes one of the opponent's stones: no run is longer than that.
            let most = stones[1 - side as usize].count();
            let mut best = 0;
            for (from, to) in moves {
                let child = after_capture(stones, side, from, to);
                best = best.max(1 + longest(game, child, side, memo, budget)?);
                if best == most {
                    break;
                }
            }
            memo.insert(stones, best);
            Some(best)
        }
        // The opponent's stones never move here and their friends only get fewer: a stone with
        // no friendly neighbour now never captures. (A stone with one might, once White takes
        // the ground around it; finding out would cost a search, so such regions are left to
        // the general search.)
        let board = &*self.game.board;
        let theirs = part[1 - side as usize];
        if theirs
            .cells()
            .any(|c| !(board.neighbours[c] & theirs).is_empty())
        {
            return None;
        }
        let mut budget = 4096;
        longest(
            self.game,
            part,
            side,
            &mut FxHashMap::default(),
            &mut budget,
        )
    }

    fn remember(&mut self, part: [B; 2], value: RegionValue) {
        if self
            .shared
            .take_region_bytes(2 * std::mem::size_of::<B>() + 24)
        {
            self.placed.insert(part, value);
        }
    }

    /// A key for the stones of a region that is the same for every translation, rotation and
    /// reflection of it: the smallest of its 12 images, each moved to the origin and sorted.
    fn shape_key(&self, part: [B; 2]) -> Vec<u16> {
        let coords = &self.game.board.coords;
        let stones: Vec<(i8, i8, u16)> = (0..2)
            .flat_map(|side| part[side].cells().map(move |c| (c, side as u16)))
            .map(|(c, side)| (coords[c].0, coords[c].1, side))
            .collect();
        let mut best: Option<Vec<u16>> = None;
        for image in 0..12 {
            let moved: Vec<(i8, i8, u16)> = stones
                .iter()
                .map(|&(q, r, side)| {
                    let (mut q, mut r) = if image >= 6 { (r, q) } else { (q, r) };
                    for _ in 0..image % 6 {
                        (q, r) = (-r, q + r);
                    }
                    (q, r, side)
                })
                .collect();
            let min_q = moved.iter().map(|m| m.0).min().unwrap_or(0);
            let min_r = moved.iter().map(|m| m.1).min().unwrap_or(0);
            let mut key: Vec<u16> = moved
                .iter()
                .map(|&(q, r, side)| {
                    (((q - min_q) as u16) << 7) | (((r - min_r) as u16) << 1) | side
                })
                .collect();
            key.sort_unstable();
            if best.as_ref().is_none_or(|b| key < *b) {
                best = Some(key);
            }
        }
        best.unwrap_or_default()
    }
}
