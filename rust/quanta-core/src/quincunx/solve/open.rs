//! The open-deck solve ([`solve_open`]: the draw order is known) and its sequence search,
//! which answers small positions outright, gives the search over final grids its floor
//! and finds the best loss when no grid can be filled.
//!
//! The sequence search: a depth-first branch and bound over the
//! placements. The future of a position depends only on the grid, the hand and how many cards
//! were drawn, and the hand follows from the grid and that number (every card placed or held
//! came from the start hand or the top of the pile), so the transposition table is keyed by
//! the grid and the number drawn. It stores the best future value, or an upper bound when a
//! search failed low. The admissible upper bound ([`Open::bound`]) adds up, per empty cell,
//! the best that any card that could still reach it scores with its filled neighbours (each
//! edge between two empty cells counted once, at its best for that card), the most the
//! straights and sets of each line can still bring, the power plays still possible, less the
//! smallest hand penalty still unavoidable; and it says whether a full grid is still possible
//! (enough edges left that could draw). Moves are tried greedy first.
//! The 8 symmetries of the square never apply within one solve: the four corner cards are
//! distinct and fixed from the deal, and every symmetry but the identity moves a corner card
//! to another corner, so no two positions of one search are images of each other.

use super::grids::{FirstGrid, Grids};
use super::solitaire::{Solitaire, bits, empty_cells, placement};
use super::tables::{line_bonus, tables};
use super::{CELLS, NEG_INF, SIDE, WIN, meter, table_cap};
use crate::error::{Error, Result};
use crate::game::Action;
use crate::quincunx::cards::{self, CARD_COUNT, Card, NO_CARD, hand_penalty, is_numeral, penalty};
use crate::quincunx::scoring::score_placement;
use crate::search::{Context, Limits, Meter};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

/// The best line with the draw order known.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenSolution {
    /// The line runs out of cards before the grid is full (only when no line fills it).
    pub lost: bool,
    /// The final score of the line: points so far plus the line's points, less the hand
    /// penalty left at the end.
    pub score: i32,
    /// The placements of the line (draws follow from the order).
    pub line: Vec<Action>,
    pub nodes: u64,
    pub seconds: f64,
}

/// A node of the open search: the grid, the hand and how many cards were drawn.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) grid: [Card; CELLS],
    pub(super) hand: u64,
    drawn: usize,
    pub(super) empty: u16,
    /// The grid, 6 bits a cell (63 = empty), and `drawn` above bit 96.
    pub(super) key: u128,
}

impl Node {
    pub(super) fn new(grid: [Card; CELLS], hand: u64) -> Self {
        let key = grid
            .iter()
            .enumerate()
            .fold(0u128, |k, (i, &c)| k | ((c & 63) as u128) << (6 * i));
        Node {
            grid,
            hand,
            drawn: 0,
            empty: empty_cells(&grid),
            key,
        }
    }
}

#[derive(Clone, Copy)]
pub(super) struct Move {
    order: i32,
    pub(super) points: i32,
    pub(super) card: Card,
    pub(super) cell: u8,
    draws: u8,
}

#[derive(Clone, Copy)]
struct Entry {
    /// The best future value (exact) or an upper bound of it.
    value: i32,
    exact: bool,
    best: u16,
}

pub(super) struct Open<'a> {
    /// The pile, top first.
    pub(super) order: &'a [Card],
    table: FxHashMap<u128, Entry>,
    cap: usize,
    pub(super) budget: Meter<'a>,
    /// Points of the moves from the root of the current search to the node being searched.
    path: i32,
    /// The best value from the root of a line met so far (a real line, so a lower bound).
    incumbent: i32,
    /// Node count past which [`Open::value_within`] gives up and answers `incumbent`.
    effort: Option<u64>,
    /// Whether some line may fill the grid; once known that none does, every position is
    /// bounded as one that cannot be filled.
    pub(super) fillable: bool,
}

impl<'a> Open<'a> {
    pub(super) fn new(order: &'a [Card], budget: Meter<'a>) -> Self {
        let cap = table_cap(
            budget.budget.limits.memory_mb,
            std::mem::size_of::<(u128, Entry)>(),
        );
        Open {
            order,
            table: FxHashMap::default(),
            cap,
            budget,
            path: 0,
            incumbent: NEG_INF,
            effort: None,
            fillable: true,
        }
    }

    /// The node after `m`, drawing from the order.
    pub(super) fn child(&self, n: &Node, m: &Move) -> Node {
        let mut c = *n;
        c.grid[m.cell as usize] = m.card;
        c.hand &= !(1 << m.card);
        c.empty &= !(1 << m.cell);
        c.key ^= ((63 ^ m.card) as u128) << (6 * m.cell as usize);
        let draws = (m.draws as usize).min(self.order.len() - n.drawn);
        for &d in &self.order[n.drawn..n.drawn + draws] {
            c.hand |= 1 << d;
        }
        c.drawn += draws;
        c.key += (draws as u128) << 96;
        c
    }

    /// The moves of `n`, best guess first: points, and while the hand is short of the empty
    /// cells, draws (worth a card each); ties by action number.
    pub(super) fn moves(&self, n: &Node) -> SmallVec<[Move; 128]> {
        let need = n.empty.count_ones() as i32 - n.hand.count_ones() as i32;
        let mut moves = SmallVec::new();
        for card in cards::cards(n.hand) {
            for cell in bits(n.empty as u64) {
                let p = score_placement(&n.grid, SIDE, false, card, cell);
                let useful = (p.draws as i32).min(need.max(0));
                moves.push(Move {
                    order: p.points() + 12 * useful,
                    points: p.points(),
                    card,
                    cell: cell as u8,
                    draws: p.draws as u8,
                });
            }
        }
        moves.sort_by_key(|m: &Move| (-m.order, placement(m.card, m.cell as usize)));
        moves
    }

    /// An upper bound of the future value of `n` (see the module doc).
    pub(super) fn bound(&self, n: &Node) -> i32 {
        let t = tables();
        let grid = &n.grid;
        let filled = !n.empty;
        // Each edge with an empty end draws at most once.
        let open_edges = t
            .edges
            .iter()
            .filter(|&&(a, b)| n.empty & (1 << a | 1 << b) != 0)
            .count();
        let left = self.order.len() - n.drawn;
        let reach = left.min(open_edges);
        let mut avail = n.hand;
        for &c in &self.order[n.drawn..n.drawn + reach] {
            avail |= 1 << c;
        }
        let mut placed = 0u64;
        for x in bits(filled as u64) {
            placed |= 1 << grid[x];
        }

        // Can the grid still be filled: enough edges left that could draw?
        let need = n.empty.count_ones() as i32 - n.hand.count_ones() as i32;
        let mut drawing = 0;
        if need > 0 {
            for &(a, b) in &t.edges {
                let (ea, eb) = (n.empty & 1 << a != 0, n.empty & 1 << b != 0);
                drawing += match (ea, eb) {
                    (true, true) => 1,
                    (true, false) => i32::from(avail & t.drawers[grid[b as usize] as usize] != 0),
                    (false, true) => i32::from(avail & t.drawers[grid[a as usize] as usize] != 0),
                    _ => 0,
                };
            }
        }
        let can_win = self.fillable && need <= drawing.min(left as i32);
        // A line that does not fill the grid draws fewer cards than the cells the hand
        // lacks, and places every card it holds or draws before it runs out: only those
        // cards, in as many cells.
        let mut places = n.empty.count_ones() as usize;
        if !can_win {
            let draws = drawing.min(left as i32).min(need - 1).max(0) as usize;
            avail = n.hand;
            for &c in &self.order[n.drawn..n.drawn + draws] {
                avail |= 1 << c;
            }
            places = places.min(n.hand.count_ones() as usize + draws);
        }

        // Best partner of each available card for an edge between two empty cells.
        let mut partner = [0i32; CARD_COUNT];
        for c in cards::cards(avail) {
            partner[c as usize] = t.partners[c as usize]
                .iter()
                .find(|&&d| avail & 1 << d != 0)
                .map_or(0, |&d| (t.edge[c as usize][d as usize] as i32).max(0));
        }
        let mut cells = 0;
        let mut lost_cells: SmallVec<[i32; CELLS]> = SmallVec::new();
        for x in bits(n.empty as u64) {
            let nb = t.neighbours[x];
            // Edges between empty cells count at their higher-numbered end.
            let shared = (nb & n.empty & ((1u16 << x) - 1)).count_ones() as i32;
            let mut around: SmallVec<[usize; 4]> = SmallVec::new();
            for m in bits((nb & filled) as u64) {
                around.push(grid[m] as usize);
            }
            let mut best = NEG_INF;
            for c in cards::cards(avail) {
                let row = &t.edge[c as usize];
                let s = shared * partner[c as usize]
                    + around.iter().map(|&d| row[d] as i32).sum::<i32>();
                best = best.max(s);
            }
            if can_win {
                cells += best;
            } else {
                lost_cells.push(best.max(0));
            }
        }
        if !can_win {
            // The cells filled are among the best `places` of them.
            lost_cells.sort_unstable_by(|a, b| b.cmp(a));
            cells = lost_cells.iter().take(places).sum();
        }

        // Straights and sets still possible, line by line.
        let mut count = [0u8; 11];
        for c in cards::cards(avail) {
            count[cards::rank(c) as usize] += 1;
        }
        let mut bonuses = 0;
        for line in &t.lines {
            let mut key = 0;
            let mut holes = 0;
            for (i, &x) in line.iter().enumerate() {
                let c = grid[x as usize];
                holes += u8::from(c == NO_CARD);
                let r = if c == NO_CARD {
                    15
                } else {
                    cards::rank(c) as u64
                };
                key |= r << (4 * i);
            }
            if holes == 0 {
                continue;
            }
            if holes >= 3 {
                // Two more runs at most (the third and fourth card of the line); a set of
                // three needs three cards of a rank, a straight three ranks in a row. Solving
                // these lines exactly costs more than the bound saves.
                let mut here = count;
                for &x in line {
                    if grid[x as usize] != NO_CARD {
                        here[cards::rank(grid[x as usize]) as usize] += 1;
                    }
                }
                let set = (1..=10).any(|r| here[r] >= 3);
                let straight = (1..=8).any(|r| here[r] > 0 && here[r + 1] > 0 && here[r + 2] > 0);
                bonuses += 2 * if set {
                    30
                } else if straight {
                    20
                } else {
                    0
                };
                continue;
            }
            // No line takes more cards of one rank than it has holes.
            for (r, &n) in count.iter().enumerate() {
                key |= (n.min(holes) as u64) << (16 + 3 * r);
            }
            bonuses += line_bonus(key);
        }

        // Power plays: a suit whose Ace and Crown can both be in the grid, not both there yet.
        let mut power = 0;
        let reachable = placed | avail;
        for s in 0..6u8 {
            let (ace, crown) = (s, 30 + s);
            let both = 1u64 << ace | 1u64 << crown;
            if reachable & both == both && placed & both != both {
                power += cards::cards(reachable)
                    .filter(|&c| is_numeral(c) && cards::SUITS[c as usize] & 1 << s != 0)
                    .map(|c| cards::rank(c) as i32)
                    .sum::<i32>();
            }
        }

        if !can_win {
            return cells + bonuses + power;
        }
        // Cards of the hand beyond the empty cells stay in it: at least the cheapest of them.
        let extra = (n.hand.count_ones() as i32 - n.empty.count_ones() as i32).max(0) as usize;
        let mut costs: SmallVec<[i32; 32]> = cards::cards(n.hand).map(penalty).collect();
        costs.sort_unstable();
        let kept: i32 = costs[..extra].iter().sum();
        WIN + cells + bonuses + power - kept
    }

    /// The best future value of `n` if it is above `alpha`; otherwise an upper bound of it that
    /// is at most `alpha` (fail-soft).
    fn search(&mut self, n: &Node, alpha: i32) -> Result<i32> {
        if n.empty == 0 || n.hand == 0 {
            let v = if n.empty == 0 {
                WIN - hand_penalty(n.hand)
            } else {
                0
            };
            self.incumbent = self.incumbent.max(self.path + v);
            return Ok(v);
        }
        self.budget.tick()?;
        if self.effort.is_some_and(|e| self.budget.own() > e) {
            return Err(Error::Interrupted);
        }
        let mut first = None;
        if let Some(e) = self.table.get(&n.key) {
            if e.exact || e.value <= alpha {
                return Ok(e.value);
            }
            first = Some(e.best);
        }
        let bound = self.bound(n);
        if bound <= alpha {
            self.store(n.key, bound, false, 0);
            return Ok(bound);
        }
        let mut moves = self.moves(n);
        if let Some(b) = first {
            if let Some(i) = moves
                .iter()
                .position(|m| placement(m.card, m.cell as usize) == b as Action)
            {
                moves[..=i].rotate_right(1);
            }
        }
        let mut best = NEG_INF;
        let mut best_move = 0;
        for m in &moves {
            let floor = alpha.max(best);
            self.path += m.points;
            let v = self.search(&self.child(n, m), floor - m.points);
            self.path -= m.points;
            let v = m.points + v?;
            if v > best {
                best = v;
                best_move = placement(m.card, m.cell as usize) as u16;
                if best >= bound {
                    break;
                }
            }
        }
        self.store(n.key, best, best > alpha, best_move);
        if best > alpha {
            self.incumbent = self.incumbent.max(self.path + best);
        }
        Ok(best)
    }

    fn store(&mut self, key: u128, value: i32, exact: bool, best: u16) {
        if let Some(e) = self.table.get_mut(&key) {
            if exact || !e.exact && value < e.value {
                *e = Entry {
                    value,
                    exact,
                    best: if best != 0 || exact { best } else { e.best },
                };
            }
        } else if self.table.len() < self.cap {
            self.table.insert(key, Entry { value, exact, best });
        }
    }

    /// The exact future value of `n`.
    fn value(&mut self, n: &Node) -> Result<i32> {
        self.search(n, NEG_INF)
    }

    /// The value of `n` if a search of at most `effort` more nodes finds it; otherwise the
    /// best value of a line it met. Deterministic: the cut is by nodes, not time.
    pub(super) fn value_within(&mut self, n: &Node, effort: Option<u64>) -> Result<i32> {
        self.effort = effort.map(|e| self.budget.own() + e);
        self.incumbent = NEG_INF;
        self.path = 0;
        let v = match self.search(n, NEG_INF) {
            Err(Error::Interrupted) if self.effort.is_some_and(|e| self.budget.own() > e) => {
                self.budget.check()?;
                Ok(self.incumbent)
            }
            v => v,
        };
        self.effort = None;
        v
    }

    /// A line that reaches the value `target` from `n`.
    fn line(&mut self, n: &Node, target: i32) -> Result<Vec<Action>> {
        let mut line = Vec::new();
        let mut n = *n;
        let mut target = target;
        while n.empty != 0 && n.hand != 0 {
            let moves = self.moves(&n);
            let mut next = None;
            for m in &moves {
                let c = self.child(&n, m);
                if m.points + self.search(&c, target - m.points - 1)? == target {
                    next = Some((c, m.points, placement(m.card, m.cell as usize)));
                    break;
                }
            }
            let Some((c, points, action)) = next else {
                unreachable!("a position's value is reached by one of its moves")
            };
            line.push(action);
            target -= points;
            n = c;
        }
        Ok(line)
    }
}

/// Checks that `order` lists the pile of `pos` exactly once each.
pub(super) fn check_order(pos: &Solitaire, order: &[Card]) -> Result<()> {
    let mut seen = 0u64;
    for &c in order {
        if c as usize >= CARD_COUNT || pos.pile & 1 << c == 0 || seen & 1 << c != 0 {
            let what = if (c as usize) < CARD_COUNT {
                cards::code(c)
            } else {
                "?"
            };
            return Err(Error::InvalidNotation(format!(
                "quincunx: the pile order must list each unseen card once; {what} is not one or is repeated"
            )));
        }
        seen |= 1 << c;
    }
    if seen != pos.pile {
        let missing: Vec<&str> = cards::cards(pos.pile & !seen).map(cards::code).collect();
        return Err(Error::InvalidNotation(format!(
            "quincunx: the pile order misses {}",
            missing.join(",")
        )));
    }
    Ok(())
}

/// Splits a value into (lost, final score) given the points so far.
pub(super) fn outcome(points: i32, value: i32) -> (bool, i32) {
    if value >= WIN / 2 {
        (false, points + value - WIN)
    } else {
        (true, points + value)
    }
}

/// The best line of `pos` when the pile comes in `order` (top first): a full grid if any line
/// fills it, then the highest final score; on the context's threads.
pub fn solve_open(pos: &Solitaire, order: &[Card], ctx: &Context) -> Result<OpenSolution> {
    ctx.in_pool(|| solve_open_here(pos, order, &ctx.limits, ctx.cancel))?
}

/// [`solve_open`] on the threads of the pool it is called in.
pub(super) fn solve_open_here(
    pos: &Solitaire,
    order: &[Card],
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<OpenSolution> {
    solve_open_with(pos, order, limits, cancel, QUICK)
}

/// Nodes of the sequence search before [`solve_open`] turns to the search over final grids.
pub(super) const QUICK: u64 = 2000;
/// Nodes of [`Fill`](super::fill::Fill) looking for a first complete grid, and of each of the two polishes of
/// it ([`Grids::polish`]) that give the search over final grids its floor, on a fresh deal.
pub(super) const FILL_EFFORT: u64 = 10_000;
pub(super) const POLISH: u64 = 20_000;

pub(super) fn solve_open_with(
    pos: &Solitaire,
    order: &[Card],
    limits: &Limits,
    cancel: &AtomicBool,
    quick: u64,
) -> Result<OpenSolution> {
    check_order(pos, order)?;
    // Nodes of every search of the call (the searches over final grids run in parallel).
    let total = AtomicU64::new(0);
    let mut open = Open::new(
        order,
        meter(
            "quincunx solve_open",
            limits,
            cancel,
            Instant::now(),
            Some(&total),
        ),
    );
    let root = Node::new(pos.grid, pos.hand);
    // Small positions: the sequence search alone, within `quick` nodes.
    open.effort = Some(quick);
    open.incumbent = NEG_INF;
    open.path = 0;
    let first = open.search(&root, NEG_INF);
    open.effort = None;
    let (value, line) = match first {
        Ok(v) => (v, open.line(&root, v)?),
        Err(Error::Interrupted) if open.budget.own() > quick => {
            open.budget.check()?;
            // The best line met is a floor: a final grid must reach its value.
            let floor = if open.incumbent >= WIN / 2 {
                open.incumbent - WIN - 1
            } else {
                NEG_INF
            };
            open.budget.check()?;
            let found = match Grids::first_grid(order, &root, limits, cancel, &total)? {
                // No line fills the grid: the searches over final grids would only prove it
                // again, in hundreds of millions of nodes on some fresh deals. The best loss
                // instead, over the grids a lost line leaves (not with the Excuse in play,
                // which stands in for the cells left empty there).
                FirstGrid::None => {
                    open.fillable = false;
                    let excuse = (pos.hand | pos.pile) & 1 << cards::EXCUSE != 0
                        || pos.grid.contains(&cards::EXCUSE);
                    if excuse {
                        None
                    } else {
                        let floor = open.incumbent.max(NEG_INF + 1) - 1;
                        // The value of a loss, less the WIN that `found` adds for a grid.
                        Grids::best_loss(&open, &root, floor, limits, cancel, &total)?
                            .map(|(v, line)| (v - WIN, line))
                    }
                }
                first => {
                    let first = match first {
                        FirstGrid::Found(grid) => Some(grid),
                        _ => None,
                    };
                    Grids::search_by_draws(&open, &root, first, floor, limits, cancel, &total)?
                }
            };
            match found {
                Some((best, line)) => (WIN + best, line),
                None => {
                    // No full grid: the best loss, by the sequence search.
                    let v = open.value(&root)?;
                    (v, open.line(&root, v)?)
                }
            }
        }
        Err(e) => return Err(e),
    };
    let (lost, score) = outcome(pos.points, value);
    Ok(OpenSolution {
        lost,
        score,
        line,
        nodes: open.budget.sync(),
        seconds: open.budget.seconds(),
    })
}
