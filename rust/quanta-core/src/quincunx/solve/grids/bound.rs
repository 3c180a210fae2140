//! The bound of a node of [`Grids::search`] ([`Grids::relax`]) and the cuts on draws. The bound:
//! the completed edges, plus the best assignment of distinct cards to the empty cells (Hungarian
//! method; a child's is cut at once where its parent's column potentials show the cut), plus, for
//! the power plays whose Ace and Crown are both given, their suit's numerals in the grid, less the
//! penalty of every card that may fill a cell. The draws still to make are priced (a Lagrangian
//! relaxation of their count): every edge that draws is worth that price more in the weights below,
//! and the price of the draws still to make is taken off, which bounds the grids making exactly `d`
//! draws at any price; the root takes the price that gives the lowest bound, the first cells the
//! neighbouring price when it gives a lower one ([`REPRICE_DEPTH`](super::REPRICE_DEPTH)). An
//! assignment weight, per cell and card: its edges to filled cells; half its best edges with
//! distinct partners to its empty neighbours (an edge is at most the mean of its ends' bests); the
//! runs of its lines with one hole (the most with its rank given), and its share of those of its
//! lines with two (shares by the two holes' ranks that add up to at least the line's value,
//! [`split_pair`](crate::quincunx::solve::tables::split_pair)), and of those with three or four
//! (each hole's best with its rank given, over the holes, [`line_shares`]), memoised per line; for
//! a power play still to make, when it is the play's last card (the Ace when both are missing) on a
//! cell where it meets its partner, the suit's numerals in the grid; for a numeral, its rank for
//! each of its suits with a power play still possible (the play counts it only if it is in the
//! grid); and back its penalty.

use crate::quincunx::cards::{self, CARD_COUNT, Card, NO_CARD, hand_penalty, is_numeral, penalty};
use crate::quincunx::solve::assignment::{Duals, assignment};
use crate::quincunx::solve::grids::{Given, Grids, Relaxed, prices};
use crate::quincunx::solve::solitaire::{
    bits, draw_cap, draw_level, drawing_with, edges_within, empty_cells, lost_draws,
};
use crate::quincunx::solve::tables::{
    line_by_rank, line_max, line_shares, line_split, runs_cap, tables,
};
use crate::quincunx::solve::{CELLS, NEG_INF, SIDE, SIDES, UNFIT};
use smallvec::SmallVec;

impl<'o, 'a> Grids<'o, 'a> {
    /// The bound of a node of [`Grids::search`] and what its children's bounds come from,
    /// every draw still to make priced at `prices[price]`, each cell given only the cards
    /// that `fits` it (see [`Grids::cards_within_draws`]).
    pub(crate) fn relax(
        &self,
        grid: &[Card; CELLS],
        given: &Given,
        price: usize,
        hint: &[i32; CARD_COUNT],
        fits: &[u64; CELLS],
    ) -> Relaxed {
        let &Given {
            used, edges, draws, ..
        } = given;
        let t = tables();
        let priced = &prices()[price];
        let target = self.draws_made;
        // The cards that may fill the cells left: the hand and the pile down to the draws
        // made. Each of them is held at the end unless it fills a cell: the penalty of them
        // all is taken off, and given back to a card in the assignment below.
        let avail = (self.hand | self.prefix[target]) & !used;
        let penalty = hand_penalty(avail);
        // The best edges of each available card with 1, 2, 3, 4 distinct other available
        // cards, for its edges to cells left (their cards are distinct), as far as a cell
        // left has such edges.
        let holes: u16 = self
            .cells
            .iter()
            .filter(|&&x| grid[x] == NO_CARD)
            .fold(0, |m, &x| m | 1 << x);
        let most_shared = bits(holes as u64)
            .map(|x| (t.neighbours[x] & holes).count_ones() as usize)
            .max()
            .unwrap_or(0);
        let mut partners = [[0i32; 5]; CARD_COUNT];
        if most_shared > 0 {
            for c in cards::cards(avail) {
                let best = &mut partners[c as usize];
                let mut k = 0;
                for &d in priced.partners[c as usize].iter() {
                    if avail & 1 << d != 0 {
                        best[k + 1] = best[k] + priced.edge[c as usize][d as usize] as i32;
                        k += 1;
                        if k == most_shared {
                            break;
                        }
                    }
                }
            }
        }
        // Per cell left: the best any available card scores on its edges.
        let mut per_cell = [[0i32; 11]; CELLS];
        let mut powers = Powers {
            plays: SmallVec::new(),
            numeral: [0; CARD_COUNT],
        };
        let (runs, power) = self.extras(grid, avail | used, Some(&mut per_cell), Some(&mut powers));
        // Per cell left and card, in half points: twice its edges to filled cells, its
        // runs and the power plays it can make, plus its edges to the other cells left at
        // their best for this card with distinct partners (an edge counts half at each end:
        // it is at most the mean of its ends' bests).
        let pool: SmallVec<[Card; 40]> = cards::cards(avail).collect();
        // What a card's weight has wherever it goes: the numeral ranks it adds to power
        // plays to come, and its penalty back.
        let mut anywhere = [0i32; 40];
        // The column of each card of the pool.
        let mut column = [0u8; CARD_COUNT];
        for (j, &c) in pool.iter().enumerate() {
            anywhere[j] = 2 * powers.numeral[c as usize] + 2 * penalty_of(c);
            column[c as usize] = j as u8;
        }
        let mut left_cells: SmallVec<[usize; CELLS]> = SmallVec::new();
        let mut weights: SmallVec<[[i32; 40]; CELLS]> = SmallVec::new();
        let mut cell_best: SmallVec<[i32; CELLS]> = SmallVec::new();
        for &x in self.cells.iter().filter(|&&x| grid[x] == NO_CARD) {
            let (mut around, mut filled) = ([0usize; 4], 0);
            let mut shared = 0usize;
            for m in bits(t.neighbours[x] as u64) {
                if grid[m] != NO_CARD {
                    around[filled] = grid[m] as usize;
                    filled += 1;
                } else {
                    shared += 1;
                }
            }
            let around = &around[..filled];
            let mut best = NEG_INF;
            // Each row written where it stays (copying it in was 0.8% of the instructions).
            weights.push([0i32; 40]);
            let row_w = weights.last_mut().expect("the row just added");
            for (j, &c) in pool.iter().enumerate() {
                if fits[x] & 1 << c == 0 {
                    row_w[j] = UNFIT;
                    continue;
                }
                let row = &priced.edge[c as usize];
                let s: i32 = around.iter().map(|&d| row[d] as i32).sum();
                row_w[j] = 2 * s
                    + anywhere[j]
                    + per_cell[x][cards::rank(c) as usize]
                    + partners[c as usize][shared];
                best = best.max(row_w[j]);
            }
            // The power plays whose last card may go here (seldom any).
            for p in powers.plays.iter().filter(|p| p.cells & 1 << x != 0) {
                let j = column[p.card as usize] as usize;
                if avail & 1 << p.card != 0 && row_w[j] != UNFIT {
                    row_w[j] += 2 * p.value;
                    best = best.max(row_w[j]);
                }
            }
            left_cells.push(x);
            cell_best.push(best);
        }
        // The draws still to make, each priced into the edges above, are taken off.
        let still = target.saturating_sub(draws) as i32;
        let rest = edges + runs + power - penalty - priced.lambda * still;
        // Each card fills one cell: the best assignment of distinct cards (unless the best
        // of each cell alone already cuts the node).
        let cells_bound: i32 = cell_best.iter().sum();
        // The node is cut when the assignment weighs `cut` or less.
        let cut = (2 * (i64::from(self.bar()) - i64::from(rest)) + 1)
            .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        let (assigned, duals) = if cells_bound <= cut {
            (cells_bound, Duals::default())
        } else {
            let start: SmallVec<[i32; 40]> = pool.iter().map(|&c| hint[c as usize]).collect();
            assignment(&weights, pool.len(), cut, &start)
        };
        Relaxed {
            rest,
            pool,
            left_cells,
            weights,
            cell_best,
            holes,
            assigned,
            duals,
        }
    }

    /// Whether every pile card given can be drawn before it is placed: the first placement
    /// of a card at order position `p` or later comes after `p + 1` draws, all made by edges
    /// between cells whose cards were in hand before (the start hand, order positions below
    /// `p`), the cells left filled from those cards.
    pub(super) fn draws_in_time(&self, grid: &[Card; CELLS], used: u64, drawing: u32) -> bool {
        let left = self.order.len();
        if used & self.prefix[left] & !self.hand == 0 {
            return true;
        }
        // The cells filled at the root and those given cards since; the edges that draw,
        // not between two root cells, by their left (`right`) or upper (`down`) cell.
        let empty = empty_cells(grid);
        let within = edges_within(empty);
        let (right, down) = (drawing as u16, (drawing >> 16) as u16);
        // The cells whose cards were in hand from the start, and the others by their card's
        // order position: the pile cards given, in the order they are drawn.
        let mut allowed = self.root_filled;
        let mut from_pile: SmallVec<[(u8, usize); CELLS]> = SmallVec::new();
        for x in bits((!self.root_filled & !empty) as u64) {
            match self.pidx[grid[x] as usize] {
                255 => allowed |= 1 << x,
                p => from_pile.push((p, x)),
            }
        }
        from_pile.sort_unstable();
        // Each pile card in turn, `allowed` the cells of the cards held before it.
        for &(p, x) in &from_pile {
            let p = p as usize;
            let done = ((right & allowed & allowed >> 1).count_ones()
                + (down & allowed & allowed >> SIDE).count_ones()) as usize;
            // The cap counts every edge between cells left: with those, the draws may be
            // enough without the rest of the cap.
            let needed = (p + 1).min(left);
            if done + within < needed
                && done + draw_cap(grid, empty, (self.hand | self.prefix[p]) & !used, allowed)
                    < needed
            {
                return false;
            }
            allowed |= 1 << x;
        }
        true
    }

    /// Per cell left, the cards of `cards_in` (the cards that may fill the cells left) that
    /// can go there with the grid still making exactly `draws_made` draws, `draws` being
    /// made: with that card there, the grid would not have drawn too many already, and the
    /// most draws the cells left could then make ([`draw_cap`]: exact for the cell's
    /// empty neighbours, the other cells' counted as here, at least theirs) still reach the
    /// target. `None` when some cell has no such card: no grid below makes the target.
    pub(crate) fn cards_within_draws(
        &self,
        grid: &[Card; CELLS],
        cards_in: u64,
        draws: usize,
    ) -> Option<[u64; CELLS]> {
        let t = tables();
        let target = self.draws_made;
        let empty = empty_cells(grid);
        // Per cell left, the cards that draw with at least 1, 2, 3, 4 of its filled
        // neighbours, and the most one card draws with.
        let mut at_least = [[0u64; 4]; CELLS];
        let mut most = [0usize; CELLS];
        let mut cap = edges_within(empty);
        for x in bits(empty as u64) {
            at_least[x] = drawing_with(grid, x, cards_in, !empty);
            most[x] = draw_level(&at_least[x]);
            cap += most[x];
        }
        // The draws the cap allows beyond the target; each placement loses some of them.
        let slack = (draws + cap).checked_sub(target)?;
        // A cell has four sides: past four draws to spare, a card seldom loses them all (only
        // the one that alone gives a neighbour its best can), nor draws too many when four or
        // more are still to make. Every card is then left to every cell.
        let exact = target < self.order.len();
        if slack >= SIDES && (!exact || draws + SIDES <= target) {
            return Some([cards_in; CELLS]);
        }
        // Per cell left, the cards with which its best card(s) still make their draws and
        // one more (with no filled neighbour to draw with: the cards with a partner among
        // those that may fill a cell), and its best card when it is the only one.
        let mut keeps = [0u64; CELLS];
        let mut alone = [0u64; CELLS];
        let mut partnered = None;
        for y in bits(empty as u64) {
            let best = match most[y] {
                0 => cards_in,
                m => at_least[y][m - 1],
            };
            keeps[y] = match most[y] {
                0 => *partnered.get_or_insert_with(|| {
                    cards::cards(cards_in).fold(0, |m, c| m | t.drawers[c as usize])
                }),
                _ => cards::cards(best).fold(0, |m, c| m | t.drawers[c as usize]),
            };
            if best.count_ones() == 1 {
                alone[y] = best;
            }
        }
        let mut fits = [0u64; CELLS];
        for x in bits(empty as u64) {
            let open = t.neighbours[x] & empty;
            // Too many draws already: the cards that draw with more filled neighbours than
            // the draws still to make.
            // (With the whole pile to draw, drawing more is allowed: the pile runs out.)
            let too_many = if exact && draws + SIDES > target {
                at_least[x][target - draws]
            } else {
                0
            };
            fits[x] = cards_in & !too_many;
            // A placement loses the cell's own draws with filled neighbours it does not make
            // and, for each empty neighbour, the edge between them unless that neighbour's
            // best card draws with it too (and more when the card was that neighbour's only
            // best: counted exactly below). `lost[k]`: the cards that lose more than `k`.
            if slack < most[x] + open.count_ones() as usize {
                let mut lost = [0u64; 8];
                let count = |set: u64, lost: &mut [u64; 8]| {
                    for k in (1..=slack).rev() {
                        lost[k] |= lost[k - 1] & set;
                    }
                    lost[0] |= set;
                };
                for &set in &at_least[x][..most[x]] {
                    count(!set, &mut lost);
                }
                for y in bits(open as u64) {
                    count(!keeps[y], &mut lost);
                }
                fits[x] &= !lost[slack];
            }
            let alone = bits(open as u64).fold(0, |m, y| m | alone[y]);
            for c in cards::cards(fits[x] & alone) {
                if lost_draws(&at_least, &most, cards_in, open, x, c) > slack {
                    fits[x] &= !(1 << c);
                }
            }
            if fits[x] == 0 {
                return None;
            }
        }
        Some(fits)
    }

    /// An upper bound of what straights, sets and power plays add over the edges, with the
    /// cells left to be filled from `cards` (the cards that may be in the grid).
    pub(super) fn extras_bound(&self, grid: &[Card; CELLS], cards_in: u64) -> i32 {
        let (runs, power) = self.extras(grid, cards_in, None, None);
        runs + power
    }

    /// [`Grids::extras_bound`] in two parts: straights and sets, power plays.
    /// With `per_cell` (in half points), a line with one or two holes is not counted in the
    /// runs but added to `per_cell[x][r]` for its holes `x` and the ranks `r` they take: the
    /// most the line scores with `x` of rank `r` (any rank for its other hole), twice for a
    /// line with one hole, once at each hole of a line with two (the line's value is at most
    /// the mean of the two).
    fn extras(
        &self,
        grid: &[Card; CELLS],
        cards_in: u64,
        mut per_cell: Option<&mut [[i32; 11]; CELLS]>,
        mut powers: Option<&mut Powers>,
    ) -> (i32, i32) {
        let t = tables();
        let in_grid = grid_set(grid);
        let empty = empty_cells(grid);
        let free = if empty != 0 { cards_in & !in_grid } else { 0 };
        let mut count = [0u8; 11];
        for c in cards::cards(free) {
            count[cards::rank(c) as usize] += 1;
        }
        // The memo keys' supply for a line with `h` holes: the cards per rank that could
        // come, at most `h` (3 bits per rank from bit 20).
        let mut supply = [0u64; SIDE + 1];
        for (h, s) in supply.iter_mut().enumerate() {
            for (r, &n) in count.iter().enumerate() {
                *s |= (n.min(h as u8) as u64) << (20 + 3 * r);
            }
        }
        let mut total = 0;
        for line in &t.lines {
            let mut key = 0u64;
            let mut holes = 0u8;
            let mut todo = false;
            for (i, &x) in line.iter().enumerate() {
                let x = x as usize;
                let c = grid[x];
                let f = if c == NO_CARD {
                    holes += 1;
                    15
                } else if self.root[x] != NO_CARD {
                    16 | cards::rank(c) as u64
                } else {
                    cards::rank(c) as u64
                };
                todo |= f & 16 == 0;
                key |= f << (5 * i);
            }
            if !todo {
                continue;
            }
            if let (Some(per), true) = (per_cell.as_deref_mut(), holes >= 3) {
                // Three holes or more: each hole's share, by its rank (see `line_shares`).
                let shares = line_shares(key | supply[holes as usize]);
                for (i, &x) in line.iter().enumerate() {
                    if grid[x as usize] == NO_CARD {
                        for r in 0..11 {
                            per[x as usize][r] += shares[i][r];
                        }
                    }
                }
                continue;
            }
            if holes >= 3 {
                let mut ranks = [0u8; SIDE];
                for (i, &x) in line.iter().enumerate() {
                    let c = grid[x as usize];
                    ranks[i] = if c == NO_CARD { 15 } else { cards::rank(c) };
                }
                total += runs_cap(ranks, &count);
                continue;
            }
            if let (Some(per), true) = (per_cell.as_deref_mut(), holes > 0) {
                let supply = supply[holes as usize];
                let mut at = line
                    .iter()
                    .enumerate()
                    .filter(|&(_, &x)| grid[x as usize] == NO_CARD);
                let (i0, x0) = at.next().expect("a hole");
                if holes == 1 {
                    // One hole: the line's value for each rank there, twice (half points).
                    let by_rank = line_by_rank(key | supply | (i0 as u64) << 56);
                    for r in 0..11 {
                        per[*x0 as usize][r] += 2 * by_rank[r];
                    }
                } else {
                    // Two holes: the line's value split between them (see `split_pair`).
                    let (_, x1) = at.next().expect("a second hole");
                    let (a, b) = line_split(key | supply | (i0 as u64) << 56);
                    for r in 0..11 {
                        per[*x0 as usize][r] += a[r];
                        per[*x1 as usize][r] += b[r];
                    }
                }
                continue;
            }
            total += line_max(key | supply[holes as usize]);
        }
        let runs = total;
        let mut total = 0;
        // Power plays: once per suit, when the second of its Ace and Crown lands beside the
        // first; at most the suit's numerals that may be in the grid.
        let may = in_grid | free;
        let holes = empty;
        for s in 0..6u8 {
            let (ace, crown) = (s, 30 + s);
            let both = 1u64 << ace | 1u64 << crown;
            if may & both != both || self.root_has(ace) && self.root_has(crown) {
                continue;
            }
            let at = |c: Card| grid.iter().position(|&g| g == c);
            let (at_ace, at_crown) = (at(ace), at(crown));
            let (possible, needed) = match (at_ace, at_crown) {
                (Some(a), Some(b)) => (t.neighbours[a] & 1 << b != 0, 0),
                (Some(a), None) | (None, Some(a)) => (t.neighbours[a] & holes != 0, 1),
                (None, None) => (bits(holes as u64).any(|y| t.neighbours[y] & holes != 0), 2),
            };
            if !possible {
                continue;
            }
            let suit = |c: &Card| is_numeral(*c) && cards::SUITS[*c as usize] & 1 << s != 0;
            // The suit's numerals in the grid.
            let here = cards::cards(in_grid)
                .filter(suit)
                .map(|c| cards::rank(c) as i32)
                .sum::<i32>();
            let Some(powers) = powers.as_deref_mut() else {
                // And the best of those to come that fit in the holes the Ace and Crown leave.
                let mut more: SmallVec<[i32; 8]> = cards::cards(free)
                    .filter(suit)
                    .map(|c| cards::rank(c) as i32)
                    .collect();
                more.sort_unstable_by(|a, b| b.cmp(a));
                let room = (holes.count_ones() as usize).saturating_sub(needed);
                total += here + more.iter().take(room).sum::<i32>();
                continue;
            };
            // Each numeral of the suit to come adds its rank when it is given a cell: the
            // play counts it only if it is in the grid.
            for c in cards::cards(free).filter(suit) {
                powers.numeral[c as usize] += cards::rank(c) as i32;
            }
            if needed == 0 {
                total += here;
                continue;
            }
            // The play needs its last card (the Crown or Ace missing; with both missing, the
            // Ace) on a cell where it can meet its partner: the numerals in the grid go to
            // that card on those cells.
            let (card, cells) = match (at_ace, at_crown) {
                (Some(a), None) => (crown, t.neighbours[a] & holes),
                (None, Some(b)) => (ace, t.neighbours[b] & holes),
                _ => (
                    ace,
                    (0..CELLS).fold(0u16, |m, y| {
                        m | u16::from(holes & 1 << y != 0 && t.neighbours[y] & holes != 0) << y
                    }),
                ),
            };
            powers.plays.push(PowerPlay {
                card,
                cells,
                value: here,
            });
        }
        (runs, total)
    }

    fn root_has(&self, card: Card) -> bool {
        self.root.contains(&card)
    }
}

/// The power plays still possible, for the bound of [`Grids::search`]: a play is worth the
/// ranks of its suit's numerals in the grid, those already there going to the play's last
/// card (or to the bound, when the Ace and Crown are both given), those to come to each such
/// numeral wherever it goes.
struct Powers {
    plays: SmallVec<[PowerPlay; 6]>,
    /// Per card: the ranks it adds to the plays of its suits when in the grid.
    numeral: [i32; CARD_COUNT],
}

/// A power play still to make, for the bound of [`Grids::search`]: worth at most `value`, it
/// needs `card` placed on one of `cells`.
struct PowerPlay {
    card: Card,
    cells: u16,
    value: i32,
}

fn penalty_of(c: Card) -> i32 {
    penalty(c)
}

/// The cards in `grid`.
fn grid_set(grid: &[Card; CELLS]) -> u64 {
    grid.iter()
        .filter(|&&c| c != NO_CARD)
        .fold(0, |m, &c| m | 1 << c)
}
