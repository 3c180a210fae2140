//! The search over final grids of [`solve_open`](super::solve_open). [`Grids`] searches final grids
//! once for each number of draws `d` the grid makes (its edges that draw, at most the pile), these
//! searches in parallel (rayon) sharing the best value found, the subtrees of each one's first cell
//! tasks that a thread with no search left takes: the cards that may fill the cells are then
//! exactly the hand and the top `d` cards of the pile, and every one of them not placed is held at
//! the end. Of equal grids the answer is the one making the fewest draws, then the first by its
//! cards cell by cell, at any thread count (a search for more draws need not find a grid as good as
//! one for fewer; see [`Bests`]). The empty cells get cards one by one. A node is cut when the grid
//! draws more than `d` or can no longer draw `d`, when the pile cards given cannot all be drawn in
//! time (each needs that many draws from edges between cards held before it), or when its bound is
//! no better than the best grid found. A card is not given a cell where the grid would then draw
//! too many or could no longer draw enough ([`Grids::cards_within_draws`]), neither in the search
//! nor in the bound (see `bound`). A card is tried on a cell only if the bound with that pairing
//! fixed (the assignment less the pairing's reduced cost, by the method's dual potentials) still
//! beats the best grid, the cards with the best such bound first; the next cell is the one with the
//! fewest such cards for its empty neighbours (the cards times one plus its sides without one),
//! then the most empty neighbours, then inner cells first. A complete grid is scored exactly by
//! [`Grids::orders`] (see `orders`).

mod bound;
mod orders;

use crate::error::{Error, Result};
use crate::game::Action;
use crate::quincunx::cards::{self, CARD_COUNT, Card, NO_CARD, hand_penalty};
use crate::quincunx::solve::assignment::Duals;
use crate::quincunx::solve::fill::Fill;
use crate::quincunx::solve::open::{FILL_EFFORT, Node, Open, POLISH};
use crate::quincunx::solve::solitaire::{Solitaire, bits};
use crate::quincunx::solve::tables::tables;
use crate::quincunx::solve::{CELLS, CORNERS, NEG_INF, meter};
use crate::search::{Limits, Meter};
use rayon::prelude::*;
use smallvec::SmallVec;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// The search over final grids of [`solve_open`](super::solve_open) (see the module doc): the empty cells are
/// given cards one by one in a fixed order; a complete grid is then scored exactly by the best
/// placement order ([`Grids::orders`]).
/// The edge table with `lambda` added to every edge that draws, and each card's partners by
/// it, best first: the bound of grids that make a fixed number of draws (a Lagrangian
/// relaxation of that count).
pub(super) struct Priced {
    pub(super) lambda: i32,
    edge: [[i16; CARD_COUNT]; CARD_COUNT],
    partners: [[Card; CARD_COUNT - 1]; CARD_COUNT],
}

impl Priced {
    fn new(lambda: i32) -> Self {
        let t = tables();
        let mut p = Priced {
            lambda,
            edge: [[0; CARD_COUNT]; CARD_COUNT],
            partners: [[0; CARD_COUNT - 1]; CARD_COUNT],
        };
        for c in 0..CARD_COUNT {
            for d in 0..CARD_COUNT {
                let draws = t.drawers[d] & 1 << c != 0;
                p.edge[c][d] = t.edge[c][d] as i16 + if draws { lambda as i16 } else { 0 };
            }
        }
        for c in 0..CARD_COUNT {
            let mut others: Vec<Card> = (0..CARD_COUNT as Card)
                .filter(|&d| d as usize != c)
                .collect();
            others.sort_by_key(|&d| (-(p.edge[c][d as usize] as i32), d));
            p.partners[c].copy_from_slice(&others);
        }
        p
    }
}

/// Near the root (this many cells given), each node tries the prices next to its parent's
/// for a lower bound.
const REPRICE_DEPTH: usize = 3;
/// The depths of [`Grids::search`] whose children other threads may take.
const FORK_DEPTH: usize = 1;
/// The prices of a draw tried: `prices[i].lambda == i as i32 + LOWEST_PRICE`.
pub(super) const LOWEST_PRICE: i32 = -12;
const HIGHEST_PRICE: i32 = 20;

/// The edge tables for every price of a draw, `LOWEST_PRICE` first.
pub(super) fn prices() -> &'static [Priced] {
    static PRICES: OnceLock<Vec<Priced>> = OnceLock::new();
    PRICES.get_or_init(|| (LOWEST_PRICE..=HIGHEST_PRICE).map(Priced::new).collect())
}

/// A node's relaxation ([`Grids::relax`]).
pub(super) struct Relaxed {
    /// Points outside the assignment: the edges made, the runs of lines with three holes or
    /// more, the power plays made, less the penalty of every card that may fill a cell and
    /// the price of the draws still to make.
    rest: i32,
    /// The cards that may fill the cells left: the assignment's columns.
    pool: SmallVec<[Card; 40]>,
    /// The cells left: the assignment's rows.
    left_cells: SmallVec<[usize; CELLS]>,
    /// Per cell left and card of `pool`, in half points.
    weights: SmallVec<[[i32; 40]; CELLS]>,
    cell_best: SmallVec<[i32; CELLS]>,
    /// The cells left as a set.
    holes: u16,
    /// The best assignment's weight (half points), and its dual potentials.
    assigned: i32,
    duals: Duals,
}

impl Relaxed {
    /// The most any grid below the node can score (future points less the final penalty).
    pub(super) fn bound(&self) -> i32 {
        self.rest + self.assigned.div_euclid(2)
    }
}

/// The best value met by the searches over final grids of one call and the first slot (by
/// number of draws) that met it, and the value a grid must beat (a line's, found before).
pub(super) struct Bests {
    /// The best value and its slot packed into one word, ordered by the value, then the
    /// earlier slot: `fetch_max` keeps both at once.
    best: AtomicU64,
    floor: i32,
}

impl Bests {
    pub(super) fn new(floor: i32) -> Self {
        Bests {
            best: AtomicU64::new(Self::pack(i32::MIN, u32::MAX as usize)),
            floor,
        }
    }

    fn pack(value: i32, slot: usize) -> u64 {
        ((i64::from(value) - i64::from(i32::MIN)) as u64) << 32 | u64::from(u32::MAX - slot as u32)
    }

    /// A grid of `value` met by the search in `slot`.
    pub(super) fn found(&self, value: i32, slot: usize) {
        self.best
            .fetch_max(Self::pack(value, slot), Ordering::Relaxed);
    }

    /// What a grid of the search in `slot` must beat: the floor, and the best met by the
    /// searches if an earlier slot met it, one less otherwise. Of equal grids the earliest
    /// slot's is the answer, so a later one need not find its own; the earliest finds its
    /// grid whatever the others have met when, so the answer does not depend on how the
    /// searches interleave.
    pub(super) fn bar(&self, slot: usize) -> i32 {
        let packed = self.best.load(Ordering::Relaxed);
        let value = ((packed >> 32) as i64 + i64::from(i32::MIN)) as i32;
        let first = (u32::MAX - packed as u32) as usize;
        self.floor.max(if first < slot {
            value
        } else {
            value.saturating_sub(1)
        })
    }
}

/// What [`Grids::first_grid`] knows of the complete grids of a position.
pub(super) enum FirstGrid {
    /// A complete grid that some line plays.
    Found([Card; CELLS]),
    /// No line fills the grid.
    None,
    /// Not answered within the effort.
    Unknown,
}

/// What the cards given so far in [`Grids::search`] made.
#[derive(Clone, Copy, Default)]
pub(super) struct Given {
    /// The cards given.
    used: u64,
    /// The points of the edges they completed.
    edges: i32,
    /// How many of those edges draw, and which: an edge by its left cell (bits 0-15) or
    /// its upper cell (bits 16-31), see [`Given::edge`].
    draws: usize,
    drawing: u32,
    /// One past the deepest order position of a card given.
    reach: usize,
}

impl Given {
    /// The bit of the edge between neighbouring cells `x` and `y` in `drawing`.
    fn edge(x: usize, y: usize) -> u32 {
        let (a, b) = (x.min(y), x.max(y));
        if b == a + 1 { 1 << a } else { 1 << (16 + a) }
    }
}

pub(super) struct Grids<'o, 'a> {
    /// The pile, top first.
    order: &'a [Card],
    budget: Meter<'a>,
    /// The empty cells, inner ones first: the order of ties in choosing the next cell, of
    /// the runs' attribution to a hole and of the order DP's sets.
    cells: SmallVec<[usize; CELLS]>,
    /// The position of each empty cell in `cells` (255: filled at the root).
    slot: [u8; CELLS],
    /// The grid at the root, and its filled cells.
    root: [Card; CELLS],
    root_filled: u16,
    pub(super) hand: u64,
    /// `prefix[k]`: the first `k` cards of the order.
    pub(super) prefix: Vec<u64>,
    /// The position of each card in the order (255: not in it).
    pidx: [u8; CARD_COUNT],
    /// The best complete value found by this search (future points less the final
    /// penalty), its placements and its grid: of equal grids, the first by its cards cell by
    /// cell.
    best: i32,
    line: Option<Vec<Action>>,
    best_grid: [Card; CELLS],
    /// The best values found by the searches of the call, and the floor: this search cuts
    /// what cannot reach them (see [`Bests::bar`]), and what cannot beat its own best.
    shared: &'o Bests,
    /// This search's slot in `shared`.
    shared_slot: usize,
    /// Scratch for the order DP.
    w: Vec<i32>,
    dcount: Vec<u8>,
    /// The number of draws the grids searched make (their edges that draw, at most the pile).
    draws_made: usize,
    /// The first price of a draw (in [`prices`]) that holds for `draws_made`.
    pub(super) lowest_price: usize,
}

impl<'o, 'a> Grids<'o, 'a> {
    /// The search of the final grids of `root` that make `draws_made` draws, from the hand
    /// and the pile `order`.
    pub(super) fn new(
        order: &'a [Card],
        budget: Meter<'a>,
        root: &Node,
        shared: &'o Bests,
        shared_slot: usize,
        draws_made: usize,
    ) -> Self {
        let t = tables();
        // The inner cells first (measured fastest as a fixed order: they have the most
        // edges), then the rest row by row.
        let mut cells: SmallVec<[usize; CELLS]> = bits(root.empty as u64).collect();
        cells.sort_by_key(|&x| (t.neighbours[x].count_ones() < 4, x));
        let mut slot = [255u8; CELLS];
        for (i, &x) in cells.iter().enumerate() {
            slot[x] = i as u8;
        }
        let mut prefix = vec![0u64];
        let mut pidx = [255u8; CARD_COUNT];
        for (i, &c) in order.iter().enumerate() {
            prefix.push(prefix[i] | 1 << c);
            pidx[c as usize] = i as u8;
        }
        let n = 1usize << cells.len();
        Grids {
            order,
            budget,
            cells,
            slot,
            root: root.grid,
            root_filled: !root.empty,
            hand: root.hand,
            prefix,
            pidx,
            best: NEG_INF,
            line: None,
            best_grid: [NO_CARD; CELLS],
            shared,
            shared_slot,
            w: vec![0; n],
            dcount: vec![0; n],
            draws_made,
            // A grid with more edges that draw than the pile has cards makes every draw
            // there is: for it, the draws still to make are a floor, not an exact count, and
            // only a price of at least zero bounds it.
            lowest_price: if draws_made == order.len() {
                (-LOWEST_PRICE) as usize
            } else {
                0
            },
        }
    }

    /// What a node's bound must beat to be searched: one less than this search's best (its
    /// equal grids are searched too, for the first of them), and what [`Bests::bar`] says of
    /// the others.
    fn bar(&self) -> i32 {
        (self.best - 1).max(self.shared.bar(self.shared_slot))
    }

    /// The best final grid of `root` worth at least `floor + 1` (future points less the
    /// final penalty) and its placements: one search per number of draws the grid makes, in
    /// parallel, fewest draws first. Of equal grids, the one making the fewest draws, then
    /// the first by its cards cell by cell, whatever the number of threads.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_by_draws(
        open: &Open<'a>,
        root: &Node,
        first: Option<[Card; CELLS]>,
        floor: i32,
        limits: &Limits,
        cancel: &'a AtomicBool,
        total: &'a AtomicU64,
    ) -> Result<Option<(i32, Vec<Action>)>> {
        let order = open.order;
        let fill =
            (root.empty.count_ones() as usize).saturating_sub(root.hand.count_ones() as usize);
        let start = open.budget.budget.start;
        // A good grid first (`first`, polished), as the floor: without one, the first
        // searches wander through grids that cannot be played for millions of nodes.
        let floor = match first {
            Some(first) => {
                let unshared = Bests::new(NEG_INF);
                // Smaller positions are solved in far fewer nodes: a quarter of the effort
                // for each cell fewer than a fresh deal's twelve.
                let fewer =
                    (CELLS - CORNERS.len()).saturating_sub(root.empty.count_ones() as usize);
                let effort = POLISH >> (2 * fewer).min(63);
                let polish = |seed| {
                    let budget = meter("quincunx solve_open", limits, cancel, start, Some(total));
                    Grids::new(order, budget, root, &unshared, 0, 0).polish(first, effort, seed)
                };
                let (a, b) = rayon::join(|| polish(0), || polish(1));
                floor.max(a?.0.max(b?.0) - 1)
            }
            None => floor,
        };
        let shared = Bests::new(floor);
        // Each thread takes the next number of draws, fewest first: the first searches find
        // the grids that cut the later ones.
        let next = AtomicUsize::new(fill);
        let found = (0..rayon::current_num_threads())
            .into_par_iter()
            .map(|_| {
                let mut found = Vec::new();
                loop {
                    let d = next.fetch_add(1, Ordering::Relaxed);
                    if d > order.len() {
                        return Ok(found);
                    }
                    let budget = meter("quincunx solve_open", limits, cancel, start, Some(total));
                    let mut grids = Grids::new(order, budget, root, &shared, d, d);
                    if let Some((best, line)) = grids.best_grid()? {
                        found.push((d, best, line));
                    }
                }
            })
            .collect::<Result<Vec<Vec<_>>>>()?;
        let mut found: Vec<(usize, i32, Vec<Action>)> = found.into_iter().flatten().collect();
        found.sort_by_key(|&(d, _, _)| d);
        // The best value; of equals, the fewest draws.
        Ok(found
            .into_iter()
            .map(|(_, v, line)| (v, line))
            .filter(|&(v, _)| v > floor)
            .fold(
                None,
                |best: Option<(i32, Vec<Action>)>, (v, line)| match best {
                    Some((b, _)) if b >= v => best,
                    _ => Some((v, line)),
                },
            ))
    }

    /// The best lost line of `root`, a position that no line fills, worth at least
    /// `floor + 1` (its future points), and its placements. A lost line places every card it
    /// holds or draws and then runs out, having drawn `d` cards, fewer than the hand lacks:
    /// it leaves a grid with `hand + d` of the empty cells filled. For each `d`, most first,
    /// and each choice of the cells left empty, the search over final grids fills the others
    /// with the hand and the top `d` of the pile, the cells left empty holding the Excuse
    /// (scores nothing, gives nothing, draws nothing, breaks runs and sets: what an empty
    /// cell does to its neighbours). None of the cards is held at the end, so none costs a
    /// penalty. Of equal losses, the first met in that order.
    pub(super) fn best_loss(
        open: &Open<'a>,
        root: &Node,
        floor: i32,
        limits: &Limits,
        cancel: &'a AtomicBool,
        total: &'a AtomicU64,
    ) -> Result<Option<(i32, Vec<Action>)>> {
        let hand = root.hand.count_ones() as usize;
        let empty = root.empty.count_ones() as usize;
        let lacks = empty.saturating_sub(hand);
        let order = open.order;
        // One slot for all: a grid as good as the best so far is still searched.
        let shared = Bests::new(floor);
        let start = open.budget.budget.start;
        let mut best: Option<(i32, Vec<Action>)> = None;
        for d in (0..lacks.min(order.len() + 1)).rev() {
            let blanks = (lacks - d) as u32;
            // Every set of `blanks` empty cells, in increasing order of its bits.
            let mut sub = root.empty;
            loop {
                sub = sub.wrapping_sub(1) & root.empty;
                if sub.count_ones() == blanks {
                    let mut grid = root.grid;
                    for x in bits(sub as u64) {
                        grid[x] = cards::EXCUSE;
                    }
                    let left = Node::new(grid, root.hand);
                    let budget = meter("quincunx solve_open", limits, cancel, start, Some(total));
                    let mut grids = Grids::new(order, budget, &left, &shared, 0, d);
                    if let Some((value, line)) = grids.best_grid()? {
                        if best.as_ref().is_none_or(|(v, _)| value > *v) {
                            best = Some((value, line));
                        }
                    }
                }
                if sub == 0 {
                    break;
                }
            }
        }
        Ok(best)
    }

    /// A complete grid of `root` that some line plays, or the proof that none is, if
    /// [`Fill`] answers within [`FILL_EFFORT`] nodes (counted in `total`).
    pub(super) fn first_grid(
        order: &[Card],
        root: &Node,
        limits: &Limits,
        cancel: &AtomicBool,
        total: &AtomicU64,
    ) -> Result<FirstGrid> {
        let capped = Limits {
            max_nodes: Some(FILL_EFFORT),
            ..limits.clone()
        };
        // A small table of its own (1 MB at 16 bytes an entry), whatever the call's memory.
        let mut fill = Fill::new(order, (1 << 20) / 16, &capped, cancel);
        let mut grid = root.grid;
        let found = fill.search(&mut grid, root.hand, 0);
        total.fetch_add(fill.budget.own(), Ordering::Relaxed);
        match found {
            Ok(true) => {
                let mut grid = root.grid;
                for &a in &fill.line {
                    let (card, cell) = Solitaire::split(a);
                    grid[cell] = card;
                }
                Ok(FirstGrid::Found(grid))
            }
            Ok(false) => Ok(FirstGrid::None),
            Err(Error::SearchLimit { .. }) => Ok(FirstGrid::Unknown),
            Err(e) => Err(e),
        }
    }

    /// The best grid of this search above the bar, and its placements: [`Grids::search`]
    /// from the root.
    pub(super) fn best_grid(&mut self) -> Result<Option<(i32, Vec<Action>)>> {
        let mut grid = self.root;
        self.search(
            0,
            &mut grid,
            Given::default(),
            self.lowest_price,
            &[0; CARD_COUNT],
        )?;
        Ok(self.line.take().map(|line| (self.best, line)))
    }

    /// Gives cards to the cells left (`depth` of `cells` have one). `grid`: the root grid
    /// and the cards given so far, which made `given`; `price`: the index in `prices` of the
    /// draw price the parent used; `hint`: the parent's column potentials, by card.
    fn search(
        &mut self,
        depth: usize,
        grid: &mut [Card; CELLS],
        given: Given,
        price: usize,
        hint: &[i32; CARD_COUNT],
    ) -> Result<()> {
        let Given {
            used,
            edges,
            draws,
            drawing,
            reach,
        } = given;
        self.budget.tick()?;
        let t = tables();
        let left = self.order.len();
        let target = self.draws_made;
        if draws.min(left) > target {
            return Ok(());
        }
        if depth == self.cells.len() {
            let d = draws.min(left);
            if d != target || reach > d || !self.draws_in_time(grid, used, drawing) {
                return Ok(());
            }
            let kept = (self.hand | self.prefix[d]) & !used;
            let penalty = hand_penalty(kept);
            if edges - penalty + self.extras_bound(grid, used) <= self.bar() {
                return Ok(());
            }
            if let Some((extra, line)) = self.orders(grid)? {
                let v = edges + extra - penalty;
                // Of equal grids, the first by its cards cell by cell: the one the search
                // finds whatever the order it meets them in.
                if v > self.best || v == self.best && grid[..] < self.best_grid[..] {
                    self.best = v;
                    self.best_grid = *grid;
                    self.line = Some(line);
                    self.shared.found(v, self.shared_slot);
                }
            }
            return Ok(());
        }
        if reach > target
            || (self.hand | self.prefix[target]).count_ones() < self.cells.len() as u32
        {
            return Ok(());
        }
        // The cards each cell can take with the draws still reachable (none for some cell
        // when the cells left cannot draw enough).
        let avail = (self.hand | self.prefix[target]) & !used;
        let Some(fits) = self.cards_within_draws(grid, avail, draws) else {
            return Ok(());
        };
        if !self.draws_in_time(grid, used, drawing) {
            return Ok(());
        }
        let mut price = price;
        let mut r = self.relax(grid, &given, price, hint, &fits);
        if depth == 0 {
            // At the root, the price of a draw that gives the lowest bound.
            for p in self.lowest_price..prices().len() {
                let other = self.relax(grid, &given, p, hint, &fits);
                if other.bound() < r.bound() {
                    (price, r) = (p, other);
                }
            }
        } else if depth < REPRICE_DEPTH {
            // Near the root, the price of a draw that gives this node the lowest bound.
            for step in [-1isize, 1] {
                loop {
                    let p = price as isize + step;
                    if p < self.lowest_price as isize || p as usize >= prices().len() {
                        break;
                    }
                    let other = self.relax(grid, &given, p as usize, hint, &fits);
                    if other.bound() >= r.bound() {
                        break;
                    }
                    (price, r) = (p as usize, other);
                }
            }
        }
        let bar = self.bar();
        if r.bound() <= bar {
            return Ok(());
        }
        // A child's bound is at most this one with its cell's best replaced by what its card
        // scores there (its half of the edges to cells left moves to their ends), and at most
        // the best assignment less that pairing's reduced cost. The cell to fill next is the
        // one with the fewest cards left by these cuts (a cell with none cuts the node) for
        // its empty neighbours, then the most empty neighbours, then the first in `cells`.
        let cells_bound: i32 = r.cell_best.iter().sum();
        // The bound with card `j` fixed on row `i`, if it beats the bar.
        let fixed = |i: usize, j: usize| {
            let others = cells_bound - r.cell_best[i];
            let fixed =
                (r.weights[i][j] + others).min(r.assigned - r.duals.reduced_cost(&r.weights, i, j));
            (r.rest + fixed.div_euclid(2) > bar).then_some(fixed)
        };
        let mut pick = None;
        let mut pick_key = (usize::MAX, 0);
        for i in 0..r.weights.len() {
            let cards_here = (0..r.pool.len()).filter(|&j| fixed(i, j).is_some()).count();
            if cards_here == 0 {
                return Ok(());
            }
            // Few cards and many empty neighbours (their edges are bounded loosest): the cards
            // times one plus the sides without an empty neighbour (filled, or the border).
            let closed = 4 - (t.neighbours[r.left_cells[i]] & r.holes).count_ones() as usize;
            let key = (cards_here * (closed + 1), closed);
            if key < pick_key {
                pick_key = key;
                pick = Some(i);
            }
        }
        let Some(i0) = pick else {
            return Ok(());
        };
        let mut here: SmallVec<[(i32, Card); 40]> = (0..r.pool.len())
            .filter_map(|j| fixed(i0, j).map(|f| (f, r.pool[j])))
            .collect();
        let x0 = r.left_cells[i0];
        // The node's column potentials, by card: feasible for the children's assignments
        // too, where they start.
        let mut child_hint = [0i32; CARD_COUNT];
        for (j, &c) in r.pool.iter().enumerate() {
            child_hint[c as usize] = r.duals.column[j];
        }
        // Cards for this cell, the highest bound with the pairing fixed first.
        here.sort_by_key(|&(w, c)| (-w, c));
        let (base, pidx) = (*grid, self.pidx);
        let child = |c: Card| {
            let mut next = Given {
                used: used | 1 << c,
                ..given
            };
            for m in bits(t.neighbours[x0] as u64) {
                let g = base[m];
                if g != NO_CARD {
                    next.edges += t.edge[c as usize][g as usize] as i32;
                    if t.drawers[g as usize] & 1 << c != 0 {
                        next.draws += 1;
                        next.drawing |= Given::edge(x0, m);
                    }
                }
            }
            let p = pidx[c as usize];
            if p != 255 {
                next.reach = reach.max(p as usize + 1);
            }
            next
        };
        if depth < FORK_DEPTH && rayon::current_num_threads() > 1 {
            // The cards' subtrees as tasks that an idle thread takes (the searches by number
            // of draws outnumber the threads, but the last ones take long). Each task keeps its
            // own best; the search's is the best of them, of equals the first by its cards.
            let found = here
                .par_iter()
                .map(|&(_, c)| {
                    let mut task = self.fork();
                    let mut grid = base;
                    grid[x0] = c;
                    task.search(depth + 1, &mut grid, child(c), price, &child_hint)?;
                    Ok((task.best, task.best_grid, task.line))
                })
                .collect::<Result<Vec<_>>>()?;
            for (v, g, line) in found {
                if let Some(line) = line {
                    if v > self.best || v == self.best && g[..] < self.best_grid[..] {
                        self.best = v;
                        self.best_grid = g;
                        self.line = Some(line);
                    }
                }
            }
            return Ok(());
        }
        for (_, c) in here {
            let next = child(c);
            grid[x0] = c;
            let out = self.search(depth + 1, grid, next, price, &child_hint);
            grid[x0] = NO_CARD;
            out?;
        }
        Ok(())
    }

    /// A search of a subtree of this one on another thread: the same grids searched and the
    /// same bar, its own best and scratch.
    fn fork(&self) -> Grids<'o, 'a> {
        Grids {
            order: self.order,
            budget: self.budget.fork(),
            cells: self.cells.clone(),
            slot: self.slot,
            root: self.root,
            root_filled: self.root_filled,
            hand: self.hand,
            prefix: self.prefix.clone(),
            pidx: self.pidx,
            best: self.best,
            line: None,
            best_grid: self.best_grid,
            shared: self.shared,
            shared_slot: self.shared_slot,
            w: vec![0; self.w.len()],
            dcount: vec![0; self.dcount.len()],
            draws_made: self.draws_made,
            lowest_price: self.lowest_price,
        }
    }
}
