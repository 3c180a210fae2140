//! Complete grids: [`Grids::orders`] scores one exactly, a DP over the 2^k sets of placed
//! cells (the set fixes the grid, the draws made, hence the hand); [`Grids::polish`], a
//! local search over complete grids, gives the search its floor.

use crate::error::Result;
use crate::game::Action;
use crate::quincunx::cards::{self, Card, NO_CARD, hand_penalty};
use crate::quincunx::scoring::{power_play_value, score_placement};
use crate::quincunx::solve::grids::Grids;
use crate::quincunx::solve::solitaire::{bits, placement};
use crate::quincunx::solve::tables::{run_through, tables};
use crate::quincunx::solve::{CELLS, NEG_INF, SIDE};
use rand::seq::SliceRandom;
use smallvec::SmallVec;

impl<'o, 'a> Grids<'o, 'a> {
    /// The best placement order of the complete grid `grid` (cells of `cells` given cards):
    /// the most that straights, sets and power plays add over the edges (pairs inside a set
    /// removed), and that order, if any order keeps a card in hand until the grid is full.
    /// A DP over the sets of cells placed: the set fixes the grid, the number of edges that
    /// drew, hence the hand.
    pub(crate) fn orders(&mut self, grid: &[Card; CELLS]) -> Result<Option<(i32, Vec<Action>)>> {
        let t = tables();
        let k = self.cells.len();
        let full = (1usize << k) - 1;
        let left = self.order.len();
        // Per slot: the slots it draws with, the root cells it draws with, its card's order
        // position, and whether its placement can ever score a run or a power play.
        let mut dmask = [0u16; CELLS];
        let mut droot = [0u8; CELLS];
        let mut need = [0u8; CELLS];
        let mut flagged = [false; CELLS];
        for (i, &x) in self.cells.iter().enumerate() {
            let c = grid[x];
            for m in bits(t.neighbours[x] as u64) {
                if t.drawers[grid[m] as usize] & 1 << c != 0 {
                    if self.slot[m] == 255 {
                        droot[i] += 1;
                    } else {
                        dmask[i] |= 1 << self.slot[m];
                    }
                }
            }
            let p = self.pidx[c as usize];
            need[i] = if p == 255 { 0 } else { p + 1 };
        }
        // A cell can score a run only if one of its lines has a run through it in the full
        // grid (a run at any time is a part of one there); a power play needs the partner
        // beside it. The play then adds the ranks of its suit's numerals in the grid, those
        // of the root and of the slots placed, once the partner is there: `partner` its slot
        // as a set (empty for a root cell, there from the start), `power_root` and
        // `power_slot` those ranks.
        let mut powered = [false; CELLS];
        let mut partner = [0usize; CELLS];
        let mut power_root = [0i32; CELLS];
        let mut power_slot = [[0i32; CELLS]; CELLS];
        for (i, &x) in self.cells.iter().enumerate() {
            let c = grid[x];
            let beside = if cards::is_ace(c) || cards::is_crown(c) {
                bits(t.neighbours[x] as u64).find(|&m| {
                    let d = grid[m];
                    cards::SUITS[d as usize] == cards::SUITS[c as usize]
                        && (cards::is_ace(d) || cards::is_crown(d))
                        && d != c
                })
            } else {
                None
            };
            if let Some(m) = beside {
                powered[i] = true;
                partner[i] = if self.slot[m] == 255 {
                    0
                } else {
                    1 << self.slot[m]
                };
                power_root[i] = power_play_value(&self.root, c);
                for (j, &y) in self.cells.iter().enumerate() {
                    power_slot[i][j] = power_play_value(&grid[y..=y], c);
                }
            }
            flagged[i] = powered[i] || run_through(grid, x);
        }
        // What a placement adds but the power play depends only on the cells placed in its
        // row and column: memoised by those (at most six slots). Its memo key at the set
        // `s`: those slots placed, one bit each, `key_low[s & 63] | key_high[s >> 6]`.
        let mut key_low = [[0u8; 64]; CELLS];
        let mut key_high = [[0u8; 64]; CELLS];
        for (i, &x) in self.cells.iter().enumerate() {
            if !flagged[i] {
                continue;
            }
            let line_slots = self
                .cells
                .iter()
                .enumerate()
                .filter(|&(j, &y)| j != i && (x / SIDE == y / SIDE || x % SIDE == y % SIDE));
            for (b, (j, _)) in line_slots.enumerate() {
                let table = if j < 6 {
                    &mut key_low[i]
                } else {
                    &mut key_high[i]
                };
                for (part, k) in table.iter_mut().enumerate() {
                    *k |= ((part >> (j % 6) & 1) << b) as u8;
                }
            }
        }
        let mut memo = [[i32::MIN; 64]; CELLS];
        for s in 1..=full {
            let low = s.trailing_zeros() as usize;
            let rest = s & (s - 1);
            self.dcount[s] =
                self.dcount[rest] + droot[low] + (dmask[low] as usize & rest).count_ones() as u8;
        }
        self.dcount[0] = 0;
        self.w[full] = 0;
        let mut sub = [NO_CARD; CELLS];
        for s in (0..full).rev() {
            if s & 63 == 0 {
                self.budget.tick()?;
            }
            let drawn = (self.dcount[s] as usize).min(left);
            let mut best = NEG_INF;
            let mut built = false;
            let mut free = full & !s;
            while free != 0 {
                let i = free.trailing_zeros() as usize;
                free &= free - 1;
                if need[i] as usize > drawn {
                    continue;
                }
                let next = self.w[s | 1 << i];
                if next == NEG_INF {
                    continue;
                }
                let mut v = next;
                if flagged[i] {
                    let k = (key_low[i][s & 63] | key_high[i][s >> 6]) as usize;
                    if memo[i][k] == i32::MIN {
                        if !built {
                            sub = self.root;
                            for (j, &y) in self.cells.iter().enumerate() {
                                if s & 1 << j != 0 {
                                    sub[y] = grid[y];
                                }
                            }
                            built = true;
                        }
                        memo[i][k] = self.extra_parts(&sub, grid[self.cells[i]], self.cells[i]).0;
                    }
                    v += memo[i][k];
                    if powered[i] && s & partner[i] == partner[i] {
                        v += power_root[i] + bits(s as u64).map(|j| power_slot[i][j]).sum::<i32>();
                    }
                }
                best = best.max(v);
            }
            self.w[s] = best;
        }
        if self.w[0] == NEG_INF {
            return Ok(None);
        }
        // The line: from the empty set, a placement that keeps the value.
        let mut line = Vec::with_capacity(k);
        let mut s = 0usize;
        let mut sub = self.root;
        while s != full {
            let drawn = (self.dcount[s] as usize).min(left);
            let mut step = None;
            for i in 0..k {
                if s & 1 << i != 0 || need[i] as usize > drawn || self.w[s | 1 << i] == NEG_INF {
                    continue;
                }
                let x = self.cells[i];
                let v = self.w[s | 1 << i]
                    + if flagged[i] {
                        self.extra(&sub, grid[x], x)
                    } else {
                        0
                    };
                if v == self.w[s] {
                    step = Some(i);
                    break;
                }
            }
            let i = step.expect("a set's value is reached by one of its placements");
            let x = self.cells[i];
            sub[x] = grid[x];
            line.push(placement(grid[x], x));
            s |= 1 << i;
        }
        Ok(Some((self.w[0], line)))
    }

    /// The value of the complete grid `grid` (future points less the final penalty) if it
    /// is above `floor` and some order of placing its cards keeps a card in hand until it is
    /// full; `None` otherwise.
    pub(crate) fn full_value(&mut self, grid: &[Card; CELLS], floor: i32) -> Result<Option<i32>> {
        self.budget.tick()?;
        let t = tables();
        let mut used = 0u64;
        let mut reach = 0;
        for &x in &self.cells {
            used |= 1 << grid[x];
            let p = self.pidx[grid[x] as usize];
            if p != 255 {
                reach = reach.max(p as usize + 1);
            }
        }
        let (mut edges, mut draws) = (0, 0);
        for &(a, b) in &t.edges {
            let (a, b) = (a as usize, b as usize);
            if self.slot[a] != 255 || self.slot[b] != 255 {
                edges += t.edge[grid[a] as usize][grid[b] as usize] as i32;
                draws += usize::from(t.drawers[grid[b] as usize] & 1 << grid[a] != 0);
            }
        }
        let drawn = draws.min(self.order.len());
        if reach > drawn {
            return Ok(None);
        }
        let base = edges - hand_penalty((self.hand | self.prefix[drawn]) & !used);
        if base + self.extras_bound(grid, used) <= floor {
            return Ok(None);
        }
        Ok(self
            .orders(grid)?
            .map(|(extra, _)| base + extra)
            .filter(|&v| v > floor))
    }

    /// A good complete grid near `start` (itself complete and playable), by local search:
    /// two cells exchange their cards, or a cell takes a card of the hand or the pile that
    /// is not in the grid. Changes are tried in a random order and the first that scores
    /// more is kept; from a grid that no change improves, the search goes on from the best
    /// grid met, changed at random in two to four places. It ends after `effort` nodes
    /// (every grid valued counts one). Gives the best value met and its grid: a value that
    /// a line reaches, so a floor for the exact search. The random choices come from
    /// `seed` alone.
    pub(crate) fn polish(
        &mut self,
        start: [Card; CELLS],
        effort: u64,
        seed: u64,
    ) -> Result<(i32, [Card; CELLS])> {
        use rand::{Rng, SeedableRng};
        let mut rng = crate::game::Rng::seed_from_u64(seed);
        let stop = self.budget.own() + effort;
        let Some(mut value) = self.full_value(&start, NEG_INF)? else {
            return Ok((NEG_INF, start));
        };
        let cells = self.cells.clone();
        let k = cells.len();
        let cards: SmallVec<[Card; 40]> =
            cards::cards(self.hand | self.prefix[self.order.len()]).collect();
        // A change: (i, j) with j < k exchanges the cards of cells i and j; (i, k + c)
        // puts `cards[c]` on cell i, unless it is in the grid already.
        let mut changes: Vec<(usize, usize)> = (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .chain((0..k).flat_map(|i| (k..k + cards.len()).map(move |j| (i, j))))
            .collect();
        let change = |grid: &mut [Card; CELLS], (i, j): (usize, usize)| -> bool {
            if j < k {
                grid.swap(cells[i], cells[j]);
            } else if grid.contains(&cards[j - k]) {
                return false;
            } else {
                grid[cells[i]] = cards[j - k];
            }
            true
        };
        let (mut grid, mut best, mut best_grid) = (start, value, start);
        while self.budget.own() < stop {
            changes.shuffle(&mut rng);
            let mut improved = false;
            for &ch in &changes {
                if self.budget.own() >= stop {
                    break;
                }
                let mut next = grid;
                if change(&mut next, ch) {
                    if let Some(v) = self.full_value(&next, value)? {
                        (grid, value, improved) = (next, v, true);
                    }
                }
            }
            if value > best {
                (best, best_grid) = (value, grid);
            }
            if !improved {
                grid = best_grid;
                for _ in 0..rng.random_range(2..=4) {
                    let ch = changes[rng.random_range(0..changes.len())];
                    change(&mut grid, ch);
                }
                value = self.full_value(&grid, NEG_INF)?.unwrap_or(NEG_INF);
            }
        }
        Ok((best, best_grid))
    }

    /// What placing `card` on `cell` of `sub` scores beyond its edges' basic points and pairs.
    fn extra(&self, sub: &[Card; CELLS], card: Card, cell: usize) -> i32 {
        let (runs, power) = self.extra_parts(sub, card, cell);
        runs + power
    }

    /// [`Grids::extra`] in two parts: the straights and sets (less the pairs inside a set),
    /// and the power play.
    fn extra_parts(&self, sub: &[Card; CELLS], card: Card, cell: usize) -> (i32, i32) {
        let t = tables();
        let p = score_placement(sub, SIDE, false, card, cell);
        let edges: i32 = bits(t.neighbours[cell] as u64)
            .filter(|&m| sub[m] != NO_CARD)
            .map(|m| t.edge[card as usize][sub[m] as usize] as i32)
            .sum();
        (p.points() - p.power - edges, p.power)
    }
}
