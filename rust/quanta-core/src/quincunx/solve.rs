//! Solvers for solitaire Quincunx (4×4 grid, one player; rules in docs/rules/quincunx.md).
//!
//! Every solver ranks a full grid above any loss and then goes by score, the final score being
//! the turn points less the hand penalty (a lost game keeps its turn points: its hand is empty).
//!
//! * [`solve_open`]: the draw order is known. Basic points, pairs and the number of draws
//!   depend only on the final grid (an edge scores, and draws once, when its second card
//!   lands); only straights and sets, the pair exception inside a set, power plays and
//!   feasibility (a pile card is placed after it is drawn; the hand never runs out) depend on
//!   the order. So after a short sequence search ([`QUICK`] nodes, below; it answers small
//!   positions outright and its best line is the floor), and a local search over complete
//!   grids from one that [`Fill`] finds ([`Grids::polish`]; its best grid raises the floor,
//!   without which the first searches can spend millions of nodes before they meet a grid
//!   that can be played), [`Grids`] searches final grids,
//!   once for each number of draws `d` the grid makes (its edges that draw, at most the
//!   pile), these searches in parallel (rayon) sharing the best value found, the subtrees of
//!   each one's first cell tasks that a thread with no search left takes: the cards that
//!   may fill the cells are then exactly the hand and the top `d` cards of the pile, and
//!   every one of them not placed is held at the end. Of equal grids the answer is the one
//!   making the fewest draws, then the first by its cards cell by cell, at any thread count
//!   (a search for more draws need not find a grid as good as one for fewer; see [`Bests`]).
//!   The empty cells get cards one by one. A node is cut when the grid draws more than `d`
//!   or can no longer draw `d`, when the pile cards given cannot all be drawn in
//!   time (each needs that many draws from edges between cards held before it), or when its
//!   bound is no better than the best grid found. A card is not given a cell where the grid
//!   would then draw too many or could no longer draw enough
//!   ([`Grids::cards_within_draws`]), neither in the search nor in the bound. The bound: the
//!   completed edges, plus the
//!   best assignment of distinct cards to the empty cells (Hungarian method; a child's is cut
//!   at once where its parent's column potentials show the cut), plus, for the
//!   power plays whose Ace and Crown are both given, their suit's numerals in the grid,
//!   less the penalty of every card that may fill a cell. The draws still to make are priced (a Lagrangian relaxation of
//!   their count): every edge that draws is worth that price more in the weights below,
//!   and the price of the draws still to make is taken off, which bounds the grids making
//!   exactly `d` draws at any price; the root takes the price that gives the lowest bound,
//!   the first cells the neighbouring price when it gives a lower one ([`REPRICE_DEPTH`]).
//!   An assignment weight, per cell and
//!   card: its edges to filled cells; half its best edges with distinct partners to its
//!   empty neighbours (an edge is at most the mean of its ends' bests); the runs of its
//!   lines with one hole (the most with its rank given), and its share of those of its
//!   lines with two (shares by the two holes' ranks that add up to at least the line's
//!   value, [`split_pair`]), and of those with three or four (each hole's best with its rank
//!   given, over the holes, [`line_shares`]), memoised per line; for a power play still to make, when it is
//!   the play's last card (the Ace when both are missing) on a cell where it meets its
//!   partner, the suit's numerals in the grid; for a numeral, its rank for each of its
//!   suits with a power play still possible (the play counts it only if it is in the grid);
//!   and back its penalty. A card is
//!   tried on a cell only if the bound with that pairing fixed (the assignment less the
//!   pairing's reduced cost, by the method's dual potentials) still beats the best grid, the
//!   cards with the best such bound first; the next cell is the one with the fewest such cards for its empty neighbours (the cards
//!   times one plus its sides without one), then the most empty neighbours, then inner
//!   cells first. A complete grid is scored exactly by [`Grids::orders`], a DP over
//!   the 2^k sets of placed cells (the set fixes the grid, the draws made, hence the hand).
//!   When no grid can be filled, the sequence search below finds the best loss.
//!
//!   The sequence search: a depth-first branch and bound over the
//!   placements. The future of a position depends only on the grid, the hand and how many cards
//!   were drawn, and the hand follows from the grid and that number (every card placed or held
//!   came from the start hand or the top of the pile), so the transposition table is keyed by
//!   the grid and the number drawn. It stores the best future value, or an upper bound when a
//!   search failed low. The admissible upper bound ([`Open::bound`]) adds up, per empty cell,
//!   the best that any card that could still reach it scores with its filled neighbours (each
//!   edge between two empty cells counted once, at its best for that card), the most the
//!   straights and sets of each line can still bring, the power plays still possible, less the
//!   smallest hand penalty still unavoidable; and it says whether a full grid is still possible
//!   (enough edges left that could draw). Moves are tried greedy first.
//!   The 8 symmetries of the square never apply within one solve: the four corner cards are
//!   distinct and fixed from the deal, and every symmetry but the identity moves a corner card
//!   to another corner, so no two positions of one search are images of each other.
//! * [`fill_open`]: the draw order is known, and the question is only whether some line fills
//!   the grid (see [`Fill`]): a depth-first search, drawing placements first, that reasons on
//!   ranks alone and stops when the drawing pairs within reach cannot bring the cards still
//!   needed ([`Fill::draws_within_reach`]).
//! * [`solve_expected`]: the draw order is unknown. Exact expectimax over the draws (each
//!   uniform over the unseen cards); the objective is the highest probability of filling the
//!   grid, then the highest expected final score (see [`Expected`]).
//! * [`best_move`]: a policy for any position: sample draw orders with the seed, solve each
//!   order open after every candidate action, pick the action that wins in the most samples, then
//!   has the highest mean final score (perfect-information Monte Carlo).
//! * [`greedy_move`]: the baseline: the highest immediate points.
//!
//! Limits (time, nodes, memory) and a cancel flag stop a search with `SearchLimit` /
//! `Interrupted`; a returned answer is always exact for its objective.

use super::cards::{self, CARD_COUNT, Card, NO_CARD, hand_penalty, is_numeral, penalty};
use super::scoring::score_placement;
use super::{Quincunx, QuincunxState, Turn};
use crate::erased::{DynState, Position};
use crate::error::{Error, Result};
use crate::game::{Action, row_rng};
use crate::search::{Budget, Meter, in_pool};
// The solvers share the limits of every solver (and so the bindings' parsing).
pub use crate::search::Limits;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// Side of the solitaire grid.
pub const SIDE: usize = 4;
/// Cells of the solitaire grid.
pub const CELLS: usize = SIDE * SIDE;
/// The cells dealt face up at the start: the corners.
pub const CORNERS: [usize; 4] = [0, 3, 12, 15];
/// Cards in the starting hand.
pub const HAND: usize = 8;
/// Added to the value of every line that fills the grid, so that any win beats any loss.
const WIN: i32 = 1 << 20;
const NEG_INF: i32 = i32::MIN / 2;
/// The sides of a cell: its most neighbours.
const SIDES: usize = 4;
/// The assignment weight of a card on a cell it cannot take (far below any assignment's).
const UNFIT: i32 = -(1 << 22);
/// The bounds of one line ([`line_bonus`], [`line_max`], [`line_pairs`]) depend only on the
/// line's ranks, so each solver thread memoises them across solves, outside `memory_mb`: at
/// most this many entries each (about 9 MB for the two first, 8 MB for the pairs), the memo
/// starting afresh when full. A fresh deal's open solve stays far below (about 10 MB of
/// memory in all, table included).
const LINE_MEMO: usize = 1 << 18;
const LINE_PAIRS_MEMO: usize = 1 << 13;
/// And at most this many splits of a two-hole line ([`line_split`], about 4 MB).
const LINE_SPLIT_MEMO: usize = 1 << 15;

/// The action that places `card` on `cell` (contract numbering: `card * cells + cell`).
pub fn placement(card: Card, cell: usize) -> Action {
    card as Action * CELLS as Action + cell as Action
}

/// A solitaire position at the player's decision (no draw pending), or a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Solitaire {
    /// Row by row from the top, `NO_CARD` for an empty cell.
    pub grid: [Card; CELLS],
    /// The hand as a card set (bit `card`).
    pub hand: u64,
    /// The cards not seen yet (the draw pile, as a set).
    pub pile: u64,
    /// Turn points scored so far.
    pub points: i32,
}

impl Solitaire {
    /// A position from its parts, checked: every card of the deck (with or without the Excuse)
    /// exactly once in the grid, the hand or the pile.
    pub fn new(
        grid: [Card; CELLS],
        hand: u64,
        pile: u64,
        points: i32,
        excuse: bool,
    ) -> Result<Self> {
        let deck = cards::deck(excuse);
        let mut placed = 0u64;
        for &c in &grid {
            if c == NO_CARD {
                continue;
            }
            if c as usize >= CARD_COUNT || deck & 1 << c == 0 {
                return Err(Error::InvalidNotation(format!(
                    "quincunx: {c} is not a card of this deck"
                )));
            }
            if placed & 1 << c != 0 {
                return Err(Error::InvalidNotation(format!(
                    "quincunx: {} is twice in the grid",
                    cards::code(c)
                )));
            }
            placed |= 1 << c;
        }
        if placed & hand != 0
            || placed & pile != 0
            || hand & pile != 0
            || placed | hand | pile != deck
        {
            return Err(Error::InvalidNotation(
                "quincunx: the grid, the hand and the pile must hold every card of the deck once"
                    .into(),
            ));
        }
        Ok(Solitaire {
            grid,
            hand,
            pile,
            points,
        })
    }

    /// The position of a solitaire game's state at a placement (or at the end). Chance nodes
    /// (the deal, a pending draw) and games of 2-4 players are not applicable.
    pub fn from_state(game: &Quincunx, state: &QuincunxState) -> Result<Self> {
        if !game.solitaire() {
            return Err(Error::NotApplicable(format!(
                "the quincunx solvers play solitaire (players=1), not {} players",
                game.players
            )));
        }
        if matches!(state.turn, Turn::Deal | Turn::Draw { .. }) {
            return Err(Error::NotApplicable(
                "the quincunx solvers need a placement to make, not a chance node (deal or draw)"
                    .into(),
            ));
        }
        let mut grid = [NO_CARD; CELLS];
        grid.copy_from_slice(&state.grid[..CELLS]);
        Self::new(
            grid,
            state.hands[0],
            state.pile,
            state.scores[0],
            game.excuse,
        )
    }

    /// [`Solitaire::from_state`] for a state as the bindings hold it.
    pub fn from_dyn(state: &dyn DynState) -> Result<Self> {
        match state.as_any().downcast_ref::<Position<Quincunx>>() {
            Some(p) => Self::from_state(&p.game.0, &p.state),
            None => Err(Error::NotApplicable(format!(
                "the quincunx solvers got a {} state",
                state.game().name()
            ))),
        }
    }

    /// The empty cells as a bit set.
    pub fn empty(&self) -> u16 {
        empty_cells(&self.grid)
    }

    /// The grid is full (won) or the hand is empty with the grid not full (lost).
    pub fn is_over(&self) -> bool {
        self.empty() == 0 || self.hand == 0
    }

    /// The game ended with the grid not full.
    pub fn lost(&self) -> bool {
        self.empty() != 0 && self.hand == 0
    }

    /// The legal placements, ascending.
    pub fn actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        for c in cards::cards(self.hand) {
            for x in bits(self.empty() as u64) {
                out.push(placement(c, x));
            }
        }
        out
    }

    /// Places `card` on `cell` and draws what it makes the player draw, from `order` (the pile
    /// top first) when given, else nothing yet. Returns the points and the draws owed.
    fn place(&mut self, card: Card, cell: usize) -> (i32, u32) {
        let p = score_placement(&self.grid, SIDE, false, card, cell);
        self.grid[cell] = card;
        self.hand &= !(1 << card);
        self.points += p.points();
        (p.points(), p.draws)
    }

    /// Draws `card` from the pile into the hand.
    fn draw(&mut self, card: Card) {
        self.pile &= !(1 << card);
        self.hand |= 1 << card;
    }

    /// The final score of a finished game: turn points less the hand penalty.
    pub fn final_score(&self) -> i32 {
        self.points - hand_penalty(self.hand)
    }

    fn split(action: Action) -> (Card, usize) {
        ((action as usize / CELLS) as Card, action as usize % CELLS)
    }

    fn check_action(&self, action: Action) -> Result<(Card, usize)> {
        let (card, cell) = Self::split(action);
        if (card as usize) < CARD_COUNT && self.hand & 1 << card != 0 && self.grid[cell] == NO_CARD
        {
            Ok((card, cell))
        } else {
            Err(Error::IllegalMove(format!(
                "quincunx: action {action} is not a legal placement here"
            )))
        }
    }
}

fn empty_cells(grid: &[Card; CELLS]) -> u16 {
    grid.iter()
        .enumerate()
        .filter(|&(_, &c)| c == NO_CARD)
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// The most draws the cells left (`empty`) can still make, filled from `cards_in`, counting
/// only the filled neighbours in `known`: per cell, the most of those neighbours one card
/// draws with, plus every edge between two cells left.
fn draw_cap(grid: &[Card; CELLS], empty: u16, cards_in: u64, known: u16) -> usize {
    bits(empty as u64).fold(edges_within(empty), |total, x| {
        total + draw_level(&drawing_with(grid, x, cards_in, known & !empty))
    })
}

/// The edges between two cells of `cells` (counted by their left or upper cell; 0x7777: not
/// the last column).
fn edges_within(cells: u16) -> usize {
    (cells & cells >> 1 & 0x7777).count_ones() as usize
        + (cells & cells >> SIDE).count_ones() as usize
}

/// The cards of `cards_in` that draw with at least 1, 2, 3, 4 of the neighbours of cell `x`
/// in `filled` (cells with a card).
fn drawing_with(grid: &[Card; CELLS], x: usize, cards_in: u64, filled: u16) -> [u64; 4] {
    let t = tables();
    let mut at_least = [0u64; 4];
    for m in bits((t.neighbours[x] & filled) as u64) {
        let d = t.drawers[grid[m] as usize] & cards_in;
        at_least[3] |= at_least[2] & d;
        at_least[2] |= at_least[1] & d;
        at_least[1] |= at_least[0] & d;
        at_least[0] |= d;
    }
    at_least
}

/// The most filled neighbours one card draws with, from the sets of the cards that draw with
/// at least 1, 2, 3, 4 of them.
fn draw_level(at_least: &[u64; 4]) -> usize {
    at_least.iter().take_while(|&&s| s != 0).count()
}

/// The draws of [`draw_cap`] that placing `c` on cell `x` loses, `open` its empty
/// neighbours (see [`Grids::cards_within_draws`]; `at_least` and `most` as there).
fn lost_draws(
    at_least: &[[u64; 4]; CELLS],
    most: &[usize; CELLS],
    cards_in: u64,
    open: u16,
    x: usize,
    c: Card,
) -> usize {
    let t = tables();
    let bit = 1u64 << c;
    let made = at_least[x].iter().filter(|&&s| s & bit != 0).count();
    let others = cards_in & !bit;
    let d = t.drawers[c as usize] & others;
    let mut lost = most[x] - made;
    for y in bits(open as u64) {
        let s = at_least[y].map(|s| s & others);
        let after = [s[0] | d, s[1] | s[0] & d, s[2] | s[1] & d, s[3] | s[2] & d];
        lost += most[y] + 1 - draw_level(&after);
    }
    lost
}

/// The set bits of `set`, lowest first.
fn bits(set: u64) -> impl Iterator<Item = usize> {
    crate::bits::Bits::cells(set)
}

// ---- tables derived from the scoring rules ----

/// What the bounds need, computed once from `score_placement` itself (so they follow the
/// rules by construction).
struct Tables {
    /// `edge[c][d]`: the points of placing `c` beside `d` on an otherwise empty grid (basic
    /// scoring and pair; sums 11 and 20 score nothing).
    edge: [[i8; CARD_COUNT]; CARD_COUNT],
    /// `drawers[d]`: the cards whose placement beside `d` draws a card.
    drawers: [u64; CARD_COUNT],
    /// `partners[c]`: the other cards by `edge[c][·]`, best first.
    partners: [[Card; CARD_COUNT - 1]; CARD_COUNT],
    /// Orthogonal neighbours of each cell as a bit set.
    neighbours: [u16; CELLS],
    /// The 24 orthogonal edges.
    edges: [(u8, u8); 24],
    /// The rows then the columns, cells in line order.
    lines: [[u8; SIDE]; 2 * SIDE],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut edge = [[0i8; CARD_COUNT]; CARD_COUNT];
        let mut drawers = [0u64; CARD_COUNT];
        for d in 0..CARD_COUNT as Card {
            let mut grid = [NO_CARD; CELLS];
            grid[0] = d;
            for c in 0..CARD_COUNT as Card {
                if c != d {
                    let p = score_placement(&grid, SIDE, false, c, 1);
                    edge[c as usize][d as usize] = p.points() as i8;
                    if p.draws > 0 {
                        drawers[d as usize] |= 1 << c;
                    }
                }
            }
        }
        let mut partners = [[0; CARD_COUNT - 1]; CARD_COUNT];
        for c in 0..CARD_COUNT {
            let mut others: Vec<Card> = (0..CARD_COUNT as Card)
                .filter(|&d| d as usize != c)
                .collect();
            others.sort_by_key(|&d| (-(edge[c][d as usize] as i32), d));
            partners[c].copy_from_slice(&others);
        }
        let mut neighbours = [0u16; CELLS];
        let mut edges = [(0, 0); 24];
        let mut e = 0;
        for x in 0..CELLS {
            let (r, c) = (x / SIDE, x % SIDE);
            if c + 1 < SIDE {
                edges[e] = (x as u8, (x + 1) as u8);
                e += 1;
            }
            if r + 1 < SIDE {
                edges[e] = (x as u8, (x + SIDE) as u8);
                e += 1;
            }
        }
        for &(a, b) in &edges {
            neighbours[a as usize] |= 1 << b;
            neighbours[b as usize] |= 1 << a;
        }
        let lines = std::array::from_fn(|l| {
            std::array::from_fn(|i| {
                if l < SIDE {
                    (l * SIDE + i) as u8
                } else {
                    (i * SIDE + l - SIDE) as u8
                }
            })
        });
        Tables {
            edge,
            drawers,
            partners,
            neighbours,
            edges,
            lines,
        }
    })
}

/// The cards of each rank (0 = the Excuse), in deck order.
fn rank_cards() -> &'static [Vec<Card>; 11] {
    static CARDS: OnceLock<[Vec<Card>; 11]> = OnceLock::new();
    CARDS.get_or_init(|| {
        std::array::from_fn(|r| {
            (0..CARD_COUNT as Card)
                .filter(|&c| cards::rank(c) as usize == r)
                .collect()
        })
    })
}

/// A thread's memo of a function of a `u64` key (see [`memoised`]).
type Memo<V> = std::thread::LocalKey<std::cell::RefCell<FxHashMap<u64, V>>>;

/// `compute()`, the value for `key`, memoised in this thread's `memo`, which is emptied when
/// it holds `cap` entries. `compute` may use the memo itself (the lines' bounds recurse).
fn memoised<V: Copy>(
    memo: &'static Memo<V>,
    cap: usize,
    key: u64,
    compute: impl FnOnce() -> V,
) -> V {
    if let Some(v) = memo.with(|m| m.borrow().get(&key).copied()) {
        return v;
    }
    let v = compute();
    memo.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= cap {
            m.clear();
        }
        m.insert(key, v);
    });
    v
}

/// The most that straights and sets can still score along one 4-cell line (used for lines
/// with at most two empty cells), found by trying
/// every order and every rank of the cards to come (memoised by `key`). `key`: the line's cells in line order, 4
/// bits each (the rank, 15 = empty), then from bit 16, 3 bits per rank 0..=10, how many cards
/// of that rank could still come (at most 4). Bonuses depend only on ranks, so the line is
/// scored with stand-in cards of those ranks on the top row of an otherwise empty grid.
fn line_bonus(key: u64) -> i32 {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, i32>> = Default::default();
    }
    memoised(&MEMO, LINE_MEMO, key, || {
        let by_rank = rank_cards();
        let mut used = [0usize; 11];
        let mut grid = [NO_CARD; CELLS];
        for (i, cell) in grid.iter_mut().take(SIDE).enumerate() {
            let r = (key >> (4 * i) & 15) as usize;
            if r != 15 {
                *cell = by_rank[r][used[r]];
                used[r] += 1;
            }
        }
        let mut supply = [0usize; 11];
        for (r, s) in supply.iter_mut().enumerate() {
            *s = ((key >> (16 + 3 * r) & 7) as usize).min(by_rank[r].len() - used[r]);
        }
        let mut v = 0;
        for x in 0..SIDE {
            if grid[x] != NO_CARD {
                continue;
            }
            for r in (0..11).filter(|&r| supply[r] > 0) {
                let p = score_placement(&grid, SIDE, false, by_rank[r][used[r]], x);
                let child = (key & !(15 << (4 * x))) | (r as u64) << (4 * x);
                let child = child & !(7 << (16 + 3 * r)) | ((supply[r] - 1) as u64) << (16 + 3 * r);
                v = v.max(p.straights + p.sets + line_bonus(child));
            }
        }
        v
    })
}

// ---- budget ----

/// The meter of one quincunx search named `what`, its clock started at `start`, adding its
/// nodes to `total` when several searches of one call share it.
fn meter<'a>(
    what: &'static str,
    limits: &Limits,
    cancel: &'a AtomicBool,
    start: Instant,
    total: Option<&'a AtomicU64>,
) -> Meter<'a> {
    Meter::new(Budget::started(what, limits.clone(), cancel, start), total)
}

/// Table entries that fit in `memory_mb` (an entry with the hash table's overhead).
fn table_cap(memory_mb: usize, entry_bytes: usize) -> usize {
    (memory_mb.max(1) << 20) / entry_bytes
}

// ---- open deck: branch and bound ----

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
struct Node {
    grid: [Card; CELLS],
    hand: u64,
    drawn: usize,
    empty: u16,
    /// The grid, 6 bits a cell (63 = empty), and `drawn` above bit 96.
    key: u128,
}

impl Node {
    fn new(grid: [Card; CELLS], hand: u64) -> Self {
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
struct Move {
    order: i32,
    points: i32,
    card: Card,
    cell: u8,
    draws: u8,
}

#[derive(Clone, Copy)]
struct Entry {
    /// The best future value (exact) or an upper bound of it.
    value: i32,
    exact: bool,
    best: u16,
}

struct Open<'a> {
    /// The pile, top first.
    order: &'a [Card],
    table: FxHashMap<u128, Entry>,
    cap: usize,
    budget: Meter<'a>,
    /// Points of the moves from the root of the current search to the node being searched.
    path: i32,
    /// The best value from the root of a line met so far (a real line, so a lower bound).
    incumbent: i32,
    /// Node count past which [`Open::value_within`] gives up and answers `incumbent`.
    effort: Option<u64>,
    /// Whether some line may fill the grid; once known that none does, every position is
    /// bounded as one that cannot be filled.
    fillable: bool,
}

impl<'a> Open<'a> {
    fn new(order: &'a [Card], budget: Meter<'a>) -> Self {
        let cap = table_cap(budget.budget.limits.memory_mb, 48);
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
    fn child(&self, n: &Node, m: &Move) -> Node {
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
    fn moves(&self, n: &Node) -> SmallVec<[Move; 128]> {
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
    fn bound(&self, n: &Node) -> i32 {
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
    fn value_within(&mut self, n: &Node, effort: Option<u64>) -> Result<i32> {
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
fn check_order(pos: &Solitaire, order: &[Card]) -> Result<()> {
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
fn outcome(points: i32, value: i32) -> (bool, i32) {
    if value >= WIN / 2 {
        (false, points + value - WIN)
    } else {
        (true, points + value)
    }
}

/// The best line of `pos` when the pile comes in `order` (top first): a full grid if any line
/// fills it, then the highest final score.
pub fn solve_open(
    pos: &Solitaire,
    order: &[Card],
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<OpenSolution> {
    solve_open_with(pos, order, limits, cancel, QUICK)
}

/// Nodes of the sequence search before [`solve_open`] turns to the search over final grids.
const QUICK: u64 = 2000;
/// Nodes of [`Fill`] looking for a first complete grid, and of each of the two polishes of
/// it ([`Grids::polish`]) that give the search over final grids its floor, on a fresh deal.
const FILL_EFFORT: u64 = 10_000;
const POLISH: u64 = 20_000;

fn solve_open_with(
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

// ---- open deck: final grids, then orders ----

/// The most that straights and sets can score along one 4-cell line over every order of
/// placing its cells that are not placed yet. `key`: per cell 5 bits (bits 0-3 the rank, 15 =
/// a hole that any rank of the supply may fill; bit 4 = already placed), then from bit 20, 3
/// bits per rank 0..=10, how many cards of that rank could fill the holes (at most 4).
/// Bonuses depend only on ranks, so the line is scored with stand-in cards of those ranks on
/// the top row of an otherwise empty grid (only its placed cells present).
fn line_max(key: u64) -> i32 {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, i32>> = Default::default();
    }
    memoised(&MEMO, LINE_MEMO, key, || {
        let by_rank = rank_cards();
        let mut used = [0usize; 11];
        let mut grid = [NO_CARD; CELLS];
        let mut ranks = [15usize; SIDE];
        for i in 0..SIDE {
            let f = (key >> (5 * i)) & 31;
            ranks[i] = (f & 15) as usize;
            if f & 16 != 0 {
                let r = ranks[i];
                grid[i] = by_rank[r][used[r].min(by_rank[r].len() - 1)];
                used[r] += 1;
            }
        }
        let mut v = 0;
        for x in 0..SIDE {
            let f = (key >> (5 * x)) & 31;
            if f & 16 != 0 {
                continue;
            }
            let placed = key | 16 << (5 * x);
            if ranks[x] != 15 {
                let r = ranks[x];
                let card = by_rank[r][used[r].min(by_rank[r].len() - 1)];
                let p = score_placement(&grid, SIDE, false, card, x);
                v = v.max(p.straights + p.sets + line_max(placed));
            } else {
                for r in 0..11 {
                    let s = (key >> (20 + 3 * r) & 7) as usize;
                    if s == 0 || used[r] >= by_rank[r].len() {
                        continue;
                    }
                    let p = score_placement(&grid, SIDE, false, by_rank[r][used[r]], x);
                    let child = (placed & !(15 << (5 * x))) | (r as u64) << (5 * x);
                    let child = child & !(7 << (20 + 3 * r)) | ((s - 1) as u64) << (20 + 3 * r);
                    v = v.max(p.straights + p.sets + line_max(child));
                }
            }
        }
        v
    })
}

/// [`line_max`] of a line with one hole, at line position `i0` (bits 56-57 of `key`), given
/// each rank in turn (0 for a rank the supply lacks). `key` as for [`line_max`], its supply
/// capped at one. Memoised by the line alone (in a memo of its own: read at most nodes, it
/// stays in the cache), so the supply of a node only picks among these.
fn line_by_rank(key: u64) -> [i32; 11] {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, [i32; 11]>> = Default::default();
    }
    let i0 = (key >> 56 & 3) as usize;
    let line = key & ((1 << 20) - 1);
    let line_key = line | (i0 as u64) << 56;
    let first: [i32; 11] = memoised(&MEMO, LINE_PAIRS_MEMO, line_key, || {
        std::array::from_fn(|r| line_max((line & !(31 << (5 * i0))) | (r as u64) << (5 * i0)))
    });
    std::array::from_fn(|r| {
        if key >> (20 + 3 * r) & 7 == 0 {
            0
        } else {
            first[r]
        }
    })
}

/// For a line with one or two holes (`key`: the line as for [`line_max`], no supply, the
/// hole at line position `i0` in bits 56-57): [`line_max`] with rank `r` at `i0` and rank
/// `q` at the other hole, as `[r][q]` (`[r][0]` with one hole). Memoised by the line alone,
/// so the supply of a node only picks among these.
fn line_pairs(key: u64) -> [[i32; 11]; 11] {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, [[i32; 11]; 11]>> = Default::default();
    }
    memoised(&MEMO, LINE_PAIRS_MEMO, key, || {
        let i0 = (key >> 56 & 3) as usize;
        let line = key & ((1 << 20) - 1);
        let other = (0..SIDE).find(|&i| i != i0 && line >> (5 * i) & 31 == 15);
        let mut out = [[0i32; 11]; 11];
        for (r, row) in out.iter_mut().enumerate() {
            let k = (line & !(31 << (5 * i0))) | (r as u64) << (5 * i0);
            match other {
                None => row[0] = line_max(k),
                Some(j) => {
                    for (q, v) in row.iter_mut().enumerate() {
                        *v = line_max((k & !(31 << (5 * j))) | (q as u64) << (5 * j));
                    }
                }
            }
        }
        out
    })
}

/// The search over final grids of [`solve_open`] (see the module doc): the empty cells are
/// given cards one by one in a fixed order; a complete grid is then scored exactly by the best
/// placement order ([`Grids::orders`]).
/// The edge table with `lambda` added to every edge that draws, and each card's partners by
/// it, best first: the bound of grids that make a fixed number of draws (a Lagrangian
/// relaxation of that count).
struct Priced {
    lambda: i32,
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
const LOWEST_PRICE: i32 = -12;
const HIGHEST_PRICE: i32 = 20;

/// The edge tables for every price of a draw, `LOWEST_PRICE` first.
fn prices() -> &'static [Priced] {
    static PRICES: OnceLock<Vec<Priced>> = OnceLock::new();
    PRICES.get_or_init(|| (LOWEST_PRICE..=HIGHEST_PRICE).map(Priced::new).collect())
}

/// A node's relaxation ([`Grids::relax`]).
struct Relaxed {
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
    fn bound(&self) -> i32 {
        self.rest + self.assigned.div_euclid(2)
    }
}

/// The best value met by the searches over final grids of one call and the first slot (by
/// number of draws) that met it, and the value a grid must beat (a line's, found before).
struct Bests {
    /// The best value and its slot packed into one word, ordered by the value, then the
    /// earlier slot: `fetch_max` keeps both at once.
    best: AtomicU64,
    floor: i32,
}

impl Bests {
    fn new(floor: i32) -> Self {
        Bests {
            best: AtomicU64::new(Self::pack(i32::MIN, u32::MAX as usize)),
            floor,
        }
    }

    fn pack(value: i32, slot: usize) -> u64 {
        ((i64::from(value) - i64::from(i32::MIN)) as u64) << 32 | u64::from(u32::MAX - slot as u32)
    }

    /// A grid of `value` met by the search in `slot`.
    fn found(&self, value: i32, slot: usize) {
        self.best
            .fetch_max(Self::pack(value, slot), Ordering::Relaxed);
    }

    /// What a grid of the search in `slot` must beat: the floor, and the best met by the
    /// searches if an earlier slot met it, one less otherwise. Of equal grids the earliest
    /// slot's is the answer, so a later one need not find its own; the earliest finds its
    /// grid whatever the others have met when, so the answer does not depend on how the
    /// searches interleave.
    fn bar(&self, slot: usize) -> i32 {
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
enum FirstGrid {
    /// A complete grid that some line plays.
    Found([Card; CELLS]),
    /// No line fills the grid.
    None,
    /// Not answered within the effort.
    Unknown,
}

/// What the cards given so far in [`Grids::search`] made.
#[derive(Clone, Copy, Default)]
struct Given {
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

struct Grids<'o, 'a> {
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
    hand: u64,
    /// `prefix[k]`: the first `k` cards of the order.
    prefix: Vec<u64>,
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
    lowest_price: usize,
}

impl<'o, 'a> Grids<'o, 'a> {
    /// The search of the final grids of `root` that make `draws_made` draws, from the hand
    /// and the pile `order`.
    fn new(
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
    fn search_by_draws(
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
    fn best_loss(
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
    fn first_grid(
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
        let mut fill = Fill::new(order, table_cap(1, 16), &capped, cancel);
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
    fn best_grid(&mut self) -> Result<Option<(i32, Vec<Action>)>> {
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

    /// The bound of a node of [`Grids::search`] and what its children's bounds come from,
    /// every draw still to make priced at `prices[price]`, each cell given only the cards
    /// that `fits` it (see [`Grids::cards_within_draws`]).
    fn relax(
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
        for (j, &c) in pool.iter().enumerate() {
            anywhere[j] = 2 * powers.numeral[c as usize] + 2 * penalty_of(c);
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
            let plays: SmallVec<[&PowerPlay; 4]> = powers
                .plays
                .iter()
                .filter(|p| p.cells & 1 << x != 0)
                .collect();
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
                let mut s: i32 = around.iter().map(|&d| row[d] as i32).sum();
                for p in plays.iter().filter(|p| p.card == c) {
                    s += p.value;
                }
                row_w[j] = 2 * s
                    + anywhere[j]
                    + per_cell[x][cards::rank(c) as usize]
                    + partners[c as usize][shared];
                best = best.max(row_w[j]);
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
    fn draws_in_time(&self, grid: &[Card; CELLS], used: u64, drawing: u32) -> bool {
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
    fn cards_within_draws(
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
    fn extras_bound(&self, grid: &[Card; CELLS], cards_in: u64) -> i32 {
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

    /// The best placement order of the complete grid `grid` (cells of `cells` given cards):
    /// the most that straights, sets and power plays add over the edges (pairs inside a set
    /// removed), and that order, if any order keeps a card in hand until the grid is full.
    /// A DP over the sets of cells placed: the set fixes the grid, the number of edges that
    /// drew, hence the hand.
    fn orders(&mut self, grid: &[Card; CELLS]) -> Result<Option<(i32, Vec<Action>)>> {
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
        let mut powered = [false; CELLS];
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
        // beside it.
        for (i, &x) in self.cells.iter().enumerate() {
            let c = grid[x];
            let power = (cards::is_ace(c) || c >= 30 && c < 36)
                && bits(t.neighbours[x] as u64).any(|m| {
                    let d = grid[m];
                    cards::SUITS[d as usize] == cards::SUITS[c as usize]
                        && (cards::is_ace(d) || d >= 30 && d < 36)
                        && d != c
                });
            flagged[i] = power || run_through(grid, x);
            powered[i] = power;
        }
        // Without a power play, what a placement adds depends only on the cells placed in
        // its row and column: memoised by those (at most six slots, `line_slots`).
        let mut line_slots: [SmallVec<[u8; 6]>; CELLS] = Default::default();
        for (i, &x) in self.cells.iter().enumerate() {
            for (j, &y) in self.cells.iter().enumerate() {
                if j != i && (x / SIDE == y / SIDE || x % SIDE == y % SIDE) {
                    line_slots[i].push(j as u8);
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
                    let key = if powered[i] {
                        None
                    } else {
                        let k = line_slots[i]
                            .iter()
                            .enumerate()
                            .fold(0, |k, (b, &j)| k | (s >> j & 1) << b);
                        Some(k).filter(|&k| memo[i][k] != i32::MIN)
                    };
                    v += match key {
                        Some(k) => memo[i][k],
                        None => {
                            if !built {
                                sub = self.root;
                                for (j, &y) in self.cells.iter().enumerate() {
                                    if s & 1 << j != 0 {
                                        sub[y] = grid[y];
                                    }
                                }
                                built = true;
                            }
                            let e = self.extra(&sub, grid[self.cells[i]], self.cells[i]);
                            if !powered[i] {
                                let k = line_slots[i]
                                    .iter()
                                    .enumerate()
                                    .fold(0, |k, (b, &j)| k | (s >> j & 1) << b);
                                memo[i][k] = e;
                            }
                            e
                        }
                    };
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
    fn full_value(&mut self, grid: &[Card; CELLS], floor: i32) -> Result<Option<i32>> {
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
    fn polish(
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
        let t = tables();
        let p = score_placement(sub, SIDE, false, card, cell);
        let edges: i32 = bits(t.neighbours[cell] as u64)
            .filter(|&m| sub[m] != NO_CARD)
            .map(|m| t.edge[card as usize][sub[m] as usize] as i32)
            .sum();
        p.points() - edges
    }
}

/// The shares of a line with three or four holes (`key` as for [`line_max`]), per cell of
/// the line and rank, in half points: for a hole and a rank, twice the most the line scores
/// with that rank there, divided by the number of holes and rounded up (0 for a cell that is
/// not a hole). Whatever ranks the holes take, their shares add up to at least the line's
/// value: each is at least its part of it. Memoised by `key`.
fn line_shares(key: u64) -> [[i32; 11]; SIDE] {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, [[i32; 11]; SIDE]>> =
            Default::default();
    }
    memoised(&MEMO, LINE_MEMO, key, || {
        let ranks: [u8; SIDE] = std::array::from_fn(|i| (key >> (5 * i) & 15) as u8);
        let mut supply: [u8; 11] = std::array::from_fn(|r| (key >> (20 + 3 * r) & 7) as u8);
        let n = ranks.iter().filter(|&&r| r == 15).count() as i32;
        let mut out = [[0i32; 11]; SIDE];
        for i in (0..SIDE).filter(|&i| ranks[i] == 15) {
            for r in 0..11 {
                if supply[r] == 0 {
                    continue;
                }
                let mut given = ranks;
                given[i] = r as u8;
                supply[r] -= 1;
                out[i][r] = (2 * runs_cap(given, &supply) + n - 1) / n;
                supply[r] += 1;
            }
        }
        out
    })
}

/// [`split_pair`] of a line with two holes, memoised by `key`: the line as for [`line_max`]
/// with its supply (capped at 2 per rank), its first hole's position in bits 56-57.
fn line_split(key: u64) -> ([i32; 11], [i32; 11]) {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, ([i32; 11], [i32; 11])>> =
            Default::default();
    }
    memoised(&MEMO, LINE_SPLIT_MEMO, key, || {
        let pairs = line_pairs(key & ((1 << 20) - 1) | key & 3 << 56);
        let count = std::array::from_fn(|r| (key >> (20 + 3 * r) & 7) as u8);
        let out = split_pair(&pairs, &count);
        out
    })
}

/// Half-point shares `(a, b)` of a line with two holes, `pairs[r][q]` its most with rank `r`
/// at its first hole and `q` at its second, the holes filled from `count` (cards per rank):
/// `a[r] + b[q] >= 2 * pairs[r][q]` for every pair of ranks the supply allows, so that the
/// assignment of [`Grids::search`] counts the line at most at its value. From the even split
/// (each hole its best with any rank at the other, `max_q pairs[r][q]` and the like), each
/// share is lowered to the least the other allows, first `b` then `a`: no share grows, and a
/// hole whose rank fits no pair at the other is no longer counted at the best the line could
/// reach (5 6 _ _ : 20 to a 7 and 20 to an 8 at the last hole, nothing to another rank there).
fn split_pair(pairs: &[[i32; 11]; 11], count: &[u8; 11]) -> ([i32; 11], [i32; 11]) {
    let fits = |r: usize, q: usize| count[r] > 0 && count[q] > u8::from(q == r);
    let mut a = [0i32; 11];
    for (r, ar) in a.iter_mut().enumerate() {
        *ar = (0..11)
            .filter(|&q| fits(r, q))
            .map(|q| pairs[r][q])
            .max()
            .unwrap_or(0);
    }
    let mut b = [0i32; 11];
    for (q, bq) in b.iter_mut().enumerate() {
        *bq = (0..11)
            .filter(|&r| fits(r, q))
            .map(|r| 2 * pairs[r][q] - a[r])
            .max()
            .unwrap_or(0);
    }
    for (r, ar) in a.iter_mut().enumerate() {
        *ar = (0..11)
            .filter(|&q| fits(r, q))
            .map(|q| 2 * pairs[r][q] - b[q])
            .max()
            .unwrap_or(0);
    }
    (a, b)
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

/// Optimal dual potentials of an assignment problem: `w[i][j] <= row[i] + column[j]` for
/// every row and column, `column[j] >= 0`, and they sum to the best total.
struct Duals {
    row: [i32; CELLS],
    column: [i32; 40],
}

impl Default for Duals {
    fn default() -> Self {
        Duals {
            row: [0; CELLS],
            column: [0; 40],
        }
    }
}

impl Duals {
    /// A lower bound of what the best total loses when row `i` gets column `j`: any
    /// assignment doing so totals at most the best total less this.
    fn reduced_cost(&self, w: &[[i32; 40]], i: usize, j: usize) -> i32 {
        self.row[i] + self.column[j] - w[i][j]
    }
}

/// The largest total weight of giving each row of `w` a distinct column among the first `m`
/// (Hungarian method, rows <= m), and optimal dual potentials; or, as soon as the potentials
/// show that it is at most `cut`, that bound (at most `cut`, at least the largest weight)
/// and no potentials. `start`: column potentials (at least 0) that show the cut at once
/// when they can, such as the parent node's (rows and columns of a child are its parent's,
/// one of each fewer, with some weights changed: they stay feasible with each row's
/// potential raised to fit).
fn assignment(w: &[[i32; 40]], m: usize, cut: i32, start: &[i32]) -> (i32, Duals) {
    let n = w.len();
    let mut duals = Duals::default();
    if n == 0 {
        return (0, duals);
    }
    if start.iter().any(|&h| h != 0) {
        let rows: i32 = w
            .iter()
            .map(|row| (0..m).map(|j| row[j] - start[j]).max().expect("a column"))
            .sum();
        let bound = rows + start[..m].iter().sum::<i32>();
        if bound <= cut {
            return (bound, duals);
        }
    }
    assert!(n <= m && m <= 40 && n <= CELLS);
    const INF: i32 = i32::MAX / 4;
    // Above every reduced cost a free column can have: the columns already on the path
    // are kept this high, so that one pass over all columns finds the cheapest free one
    // without asking which columns are on the path; the potentials of those on it are
    // then updated from their list (deal 2: 10.94 G -> 10.62 G instructions).
    const ON_PATH: i32 = i32::MAX / 2;
    // The textbook O(n^2 m) method minimising the cost -w, rows 1-based, column `m` the
    // virtual column the path to a free column starts from. Each row's potential starts at
    // its cheapest column (feasible, and most rows then find a free column at once).
    let mut u = [0i32; CELLS + 1];
    let mut v = [0i32; 40];
    // The row of each column (0: free), and each column's predecessor on the path.
    let mut p = [0usize; 41];
    let mut way = [0u32; 40];
    for i in 1..=n {
        u[i] = -w[i - 1][..m].iter().copied().max().expect("a column");
    }
    for i in 1..=n {
        p[m] = i;
        let mut j0 = m;
        let mut minv = [INF; 40];
        let mut blocked = [0i32; 40];
        let mut path: SmallVec<[usize; 16]> = SmallVec::new();
        loop {
            let i0 = p[j0];
            let row = &w[i0 - 1][..m];
            let ui = u[i0];
            let mut delta = INF;
            for (j, &wj) in row.iter().enumerate() {
                let cur = -wj - ui - v[j] + blocked[j];
                let nearer = cur < minv[j];
                minv[j] = if nearer { cur } else { minv[j] };
                way[j] = if nearer { j0 as u32 } else { way[j] };
                delta = delta.min(minv[j]);
            }
            let j1 = minv[..m]
                .iter()
                .position(|&c| c == delta)
                .expect("a free column");
            u[i] += delta;
            for &j in path.iter() {
                u[p[j]] += delta;
                v[j] -= delta;
            }
            for c in minv[..m].iter_mut() {
                *c -= delta;
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
            path.push(j0);
            blocked[j0] = ON_PATH;
            minv[j0] = ON_PATH;
        }
        loop {
            let j1 = way[j0] as usize;
            p[j0] = p[j1];
            j0 = j1;
            if j0 == m {
                break;
            }
        }
        // The potentials stay feasible for every row (those not reached yet keep their
        // cheapest column, and column potentials only fall), so by weak duality the
        // assignment weighs at most minus their sum.
        if i < n {
            let bound = -(u[1..=n].iter().sum::<i32>() + v[..m].iter().sum::<i32>());
            if bound <= cut {
                return (bound, Duals::default());
            }
        }
    }
    let mut total = 0;
    for j in 0..m {
        if p[j] != 0 {
            total += w[p[j] - 1][j];
        }
    }
    // The method keeps u[i] + v[j] <= -w[i][j], v[j] <= 0 (0 for a column left out), with
    // equality on the assignment found.
    for i in 0..n {
        duals.row[i] = -u[i + 1];
    }
    for j in 0..m {
        duals.column[j] = -v[j];
    }
    (total, duals)
}

/// An upper bound of the straights and sets one 4-cell line can still score, from what its
/// final ranks can be: `ranks` in line order (15 = a hole), the holes filled from `supply`
/// (cards per rank). A line scores at most twice (its third and fourth card): 60 takes four
/// of a rank (two sets), 40 four ranks in a row (a straight, then its extension); one bonus
/// takes three cells in a row making a set (30) or a straight (20). The Excuse (rank 0) is in
/// no run.
fn runs_cap(ranks: [u8; SIDE], supply: &[u8; 11]) -> i32 {
    // Can cells `from..from + len` take ranks `want(i)`?
    let fits = |from: usize, len: usize, want: &dyn Fn(usize) -> i32| -> bool {
        let mut need = [0u8; 11];
        for i in from..from + len {
            let w = want(i);
            if !(1..=10).contains(&w) {
                return false;
            }
            if ranks[i] == 15 {
                need[w as usize] += 1;
            } else if ranks[i] as i32 != w {
                return false;
            }
        }
        (0..11).all(|r| need[r] <= supply[r])
    };
    let mut best = 0;
    for r in 1..=10i32 {
        if fits(0, SIDE, &|_| r) {
            return 60;
        }
        for step in [1i32, -1] {
            if fits(0, SIDE, &|i| r + step * i as i32) {
                best = best.max(40);
            }
        }
        for from in 0..=SIDE - 3 {
            if fits(from, 3, &|_| r) {
                best = best.max(30);
            }
            for step in [1i32, -1] {
                if fits(from, 3, &|i| r + step * (i - from) as i32) {
                    best = best.max(20);
                }
            }
        }
    }
    best
}

/// Whether the full grid has a run of three or more (equal ranks, or ranks stepping by one)
/// through `x` along its row or its column.
fn run_through(grid: &[Card; CELLS], x: usize) -> bool {
    let t = tables();
    let (r, c) = (x / SIDE, x % SIDE);
    for line in [&t.lines[r], &t.lines[SIDE + c]] {
        let pos = line.iter().position(|&y| y as usize == x).unwrap();
        let rank = |i: usize| {
            let card = grid[line[i] as usize];
            if card == NO_CARD || card == 36 {
                None
            } else {
                Some(cards::rank(card) as i32)
            }
        };
        for step in [0, 1, -1] {
            // The longest run through `pos` where each next rank is the previous plus `step`.
            let mut lo = pos;
            while lo > 0 && matches!((rank(lo - 1), rank(lo)), (Some(a), Some(b)) if b - a == step)
            {
                lo -= 1;
            }
            let mut hi = pos;
            while hi + 1 < SIDE
                && matches!((rank(hi), rank(hi + 1)), (Some(a), Some(b)) if b - a == step)
            {
                hi += 1;
            }
            if rank(pos).is_some() && hi - lo + 1 >= 3 {
                return true;
            }
        }
    }
    false
}

// ---- unknown order: expectimax ----

/// The exact value of a position with the draw order unknown. Objective (in this order): the
/// highest probability of filling the grid, then the highest expected final score (a lost game
/// counts with its turn points, as the rules score it). Win probabilities within `1e-9` of each
/// other count as equal.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    /// Probability of filling the grid with this play.
    pub p_win: f64,
    /// Expected final score (points so far included).
    pub score: f64,
    /// The action to take (`None` when the game is over).
    pub best_action: Option<Action>,
    /// Every legal action with its (win probability, expected final score).
    pub actions: Vec<(Action, f64, f64)>,
    pub nodes: u64,
    pub seconds: f64,
}

const EPS: f64 = 1e-9;

/// (win probability, expected future value) compared as the objective says.
fn better(a: (f64, f64), b: (f64, f64)) -> bool {
    a.0 > b.0 + EPS || (a.0 >= b.0 - EPS && a.1 > b.1)
}

struct Expect<'a> {
    table: FxHashMap<(u128, u64), (f64, f64)>,
    cap: usize,
    budget: Meter<'a>,
}

impl Expect<'_> {
    /// The value of the decision node `pos` (points so far ignored): (win probability,
    /// expected future points less the final penalty).
    fn decision(&mut self, pos: &Solitaire) -> Result<(f64, f64)> {
        if pos.empty() == 0 {
            return Ok((1.0, -hand_penalty(pos.hand) as f64));
        }
        if pos.hand == 0 {
            return Ok((0.0, 0.0));
        }
        self.budget.tick()?;
        let key = (Node::new(pos.grid, 0).key, pos.hand);
        if let Some(&v) = self.table.get(&key) {
            return Ok(v);
        }
        let mut best = (-1.0, f64::NEG_INFINITY);
        for a in pos.actions() {
            let v = self.after(pos, a)?;
            if better(v, best) {
                best = v;
            }
        }
        if self.table.len() < self.cap {
            self.table.insert(key, best);
        }
        Ok(best)
    }

    /// The value of taking `action` at `pos`, points of the placement included.
    fn after(&mut self, pos: &Solitaire, action: Action) -> Result<(f64, f64)> {
        let (card, cell) = Solitaire::split(action);
        let mut next = *pos;
        let (points, draws) = next.place(card, cell);
        let (p, e) = self.chance(&next, draws)?;
        Ok((p, e + points as f64))
    }

    /// The value after drawing `pending` cards, one at a time, each uniform over the pile.
    fn chance(&mut self, pos: &Solitaire, pending: u32) -> Result<(f64, f64)> {
        if pending == 0 || pos.pile == 0 {
            let mut settled = *pos;
            settled.points = 0;
            return self.decision(&settled);
        }
        let n = pos.pile.count_ones() as f64;
        let (mut p, mut e) = (0.0, 0.0);
        for c in cards::cards(pos.pile) {
            let mut next = *pos;
            next.draw(c);
            let (pc, ec) = self.chance(&next, pending - 1)?;
            p += pc;
            e += ec;
        }
        Ok((p / n, e / n))
    }
}

/// Expectimax over every draw from `pos` (see [`Expected`] for the objective).
pub fn solve_expected(pos: &Solitaire, limits: &Limits, cancel: &AtomicBool) -> Result<Expected> {
    let budget = meter(
        "quincunx solve_expected",
        limits,
        cancel,
        Instant::now(),
        None,
    );
    let mut ex = Expect {
        table: FxHashMap::default(),
        cap: table_cap(limits.memory_mb, 64),
        budget,
    };
    let mut actions = Vec::new();
    let mut best: Option<(Action, (f64, f64))> = None;
    let (p, e) = if pos.is_over() {
        ex.decision(&Solitaire { points: 0, ..*pos })?
    } else {
        for a in pos.actions() {
            let v = ex.after(pos, a)?;
            actions.push((a, v.0, pos.points as f64 + v.1));
            if best.is_none_or(|(_, b)| better(v, b)) {
                best = Some((a, v));
            }
        }
        best.map(|b| b.1).unwrap_or((0.0, 0.0))
    };
    Ok(Expected {
        p_win: p,
        score: pos.points as f64 + e,
        best_action: best.map(|b| b.0),
        actions,
        nodes: ex.budget.own(),
        seconds: ex.budget.seconds(),
    })
}

// ---- policies ----

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
#[allow(clippy::too_many_arguments)]
pub fn best_move(
    pos: &Solitaire,
    samples: usize,
    seed: u64,
    candidates: Option<usize>,
    effort: Option<u64>,
    threads: Option<usize>,
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
    let per_sample = |i: usize| -> Result<Vec<i32>> {
        let order = sample_order(pos.pile, seed, i as u64);
        let budget = meter("quincunx best_move", limits, cancel, start, Some(&shared));
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
    let values = in_pool(threads, run)??;
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

// ---- open deck: can the grid be filled at all ----

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
struct Fill<'a> {
    /// The pile, top first.
    order: &'a [Card],
    /// `unseen[i]`: the cards of the pile after `i` draws, as a set.
    unseen: Vec<u64>,
    /// Rank keys of positions from which no line fills the grid.
    dead: rustc_hash::FxHashSet<u64>,
    cap: usize,
    budget: Meter<'a>,
    /// The placements of the line found, last first.
    line: Vec<Action>,
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
    fn new(order: &'a [Card], cap: usize, limits: &'a Limits, cancel: &'a AtomicBool) -> Self {
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
    fn search(&mut self, grid: &mut [Card; CELLS], hand: u64, drawn: usize) -> Result<bool> {
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
/// one such line: the first question of [`solve_open`] (a full grid beats any loss), without
/// the score. A depth-first search, placements that draw most first, remembering the
/// positions (by ranks, see [`Fill`]) from which no line fills the grid.
pub fn fill_open(
    pos: &Solitaire,
    order: &[Card],
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<FillSolution> {
    check_order(pos, order)?;
    let mut fill = Fill::new(order, table_cap(limits.memory_mb, 16), limits, cancel);
    let mut grid = pos.grid;
    let filled = fill.search(&mut grid, pos.hand, 0)?;
    fill.line.reverse();
    Ok(FillSolution {
        line: filled.then_some(fill.line),
        nodes: fill.budget.own(),
        seconds: fill.budget.seconds(),
    })
}

// ---- batches over fresh deals ----

/// Deal `row` of the sequence seeded by `seed`: the deck shuffled by `row_rng(seed, row)`, its
/// first four cards on the corners (a1, d1, a4, d4), the next eight the hand, the rest the
/// pile in draw order (top first).
pub fn deal(seed: u64, row: u64, excuse: bool) -> (Solitaire, Vec<Card>) {
    let mut deck: Vec<Card> = cards::cards(cards::deck(excuse)).collect();
    deck.shuffle(&mut row_rng(seed, row));
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
    /// False when the deal hit its per-deal limit (`lost` and `score` then mean nothing).
    pub solved: bool,
    pub lost: bool,
    pub score: i32,
    pub nodes: u64,
    pub seconds: f64,
}

/// Runs `one` on deals `first..first + n` of `seed`, on `threads` threads; rows in deal order.
fn batch(
    first: u64,
    n: usize,
    threads: Option<usize>,
    one_at_a_time: bool,
    cancel: &AtomicBool,
    one: impl Fn(u64) -> Result<Row> + Sync,
) -> Result<Vec<Row>> {
    let rows = in_pool(threads, || {
        if one_at_a_time {
            (0..n as u64).map(|i| one(first + i)).collect()
        } else {
            (0..n as u64)
                .into_par_iter()
                .map(|i| one(first + i))
                .collect::<Result<Vec<Row>>>()
        }
    })??;
    if cancel.load(Ordering::Relaxed) {
        return Err(Error::Interrupted);
    }
    Ok(rows)
}

/// Solves deals `first..first + n` of `seed` open (each within `limits`; a deal that hits
/// them is a row with `solved = false`), from the deal itself (`empty` = 12) or after greedy
/// play down to `empty` empty cells. The deals are solved in parallel, or with
/// `one_at_a_time` one after another, each solve on all the threads (for the time one solve
/// takes alone).
#[allow(clippy::too_many_arguments)]
pub fn solve_open_batch(
    seed: u64,
    first: u64,
    n: usize,
    excuse: bool,
    empty: u32,
    threads: Option<usize>,
    one_at_a_time: bool,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Vec<Row>> {
    batch(first, n, threads, one_at_a_time, cancel, |row| {
        let (mut pos, order) = deal(seed, row, excuse);
        let order = advance_greedily(&mut pos, &order, empty);
        within_limits(
            Instant::now(),
            solve_open(&pos, &order, limits, cancel).map(|s| Row {
                solved: true,
                lost: s.lost,
                score: s.score,
                nodes: s.nodes,
                seconds: s.seconds,
            }),
        )
    })
}

/// A batch row from one deal's answer: a deal past its limits (started at `start`) is a row
/// with `solved = false`; other errors stop the batch.
fn within_limits(start: Instant, row: Result<Row>) -> Result<Row> {
    match row {
        Err(Error::SearchLimit { nodes, .. }) => Ok(Row {
            solved: false,
            lost: true,
            score: 0,
            nodes,
            seconds: start.elapsed().as_secs_f64(),
        }),
        row => row,
    }
}

/// Asks [`fill_open`] of fresh deals `first..first + n` of `seed` (each within `limits`; a
/// deal that hits them is a row with `solved = false`): `lost` when no line fills the grid
/// (`score` is 0: the question has no score).
pub fn fill_open_batch(
    seed: u64,
    first: u64,
    n: usize,
    excuse: bool,
    threads: Option<usize>,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Vec<Row>> {
    batch(first, n, threads, false, cancel, |row| {
        let (pos, order) = deal(seed, row, excuse);
        within_limits(
            Instant::now(),
            fill_open(&pos, &order, limits, cancel).map(|f| Row {
                solved: true,
                lost: f.line.is_none(),
                score: 0,
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
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<Vec<Row>> {
    let limits = Limits::default();
    batch(first, n, threads, false, cancel, |row| {
        let (mut pos, order) = deal(seed, row, excuse);
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
                    let advice = best_move(
                        &pos,
                        samples,
                        sample_seed,
                        candidates,
                        effort,
                        None,
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
            solved: true,
            lost: pos.lost(),
            score: pos.final_score(),
            nodes,
            seconds: start.elapsed().as_secs_f64(),
        })
    })
}

/// Replays `line` from `pos` with the pile in `order`: the final position. Checks legality.
pub fn replay(pos: &Solitaire, order: &[Card], line: &[Action]) -> Result<Solitaire> {
    let mut pos = *pos;
    let mut next = order.iter();
    for &a in line {
        let (card, cell) = pos.check_action(a)?;
        let (_, draws) = pos.place(card, cell);
        for _ in 0..draws {
            if let Some(&c) = next.next() {
                pos.draw(c);
            }
        }
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;

    fn no_limits() -> Limits {
        Limits::default()
    }

    /// What a finished game counts: its final score, or only its points when it is lost.
    fn ended_score(end: &Solitaire) -> i32 {
        if end.lost() {
            end.points
        } else {
            end.final_score()
        }
    }

    /// Plain exhaustive search: the best (won, score) over every line.
    /// Every end of the game from `pos` (each line of placements, the pile drawn in `order`
    /// from position `drawn`), with the number of cards drawn on the way.
    fn each_end(
        pos: &Solitaire,
        order: &[Card],
        drawn: usize,
        f: &mut impl FnMut(&Solitaire, usize),
    ) {
        if pos.is_over() {
            f(pos, drawn);
            return;
        }
        for a in pos.actions() {
            let mut next = *pos;
            let (card, cell) = Solitaire::split(a);
            let (_, draws) = next.place(card, cell);
            let take = (draws as usize).min(order.len() - drawn);
            for &c in &order[drawn..drawn + take] {
                next.draw(c);
            }
            each_end(&next, order, drawn + take, f);
        }
    }

    fn brute(pos: &Solitaire, order: &[Card]) -> (bool, i32) {
        let mut best = (false, i32::MIN);
        each_end(pos, order, 0, &mut |end, _| {
            best = best.max((!end.lost(), ended_score(end)))
        });
        best
    }

    /// Deal `row` played greedily until `empty` cells remain (the order's rest returned).
    fn late(row: u64, empty: u32) -> (Solitaire, Vec<Card>) {
        let (mut pos, order) = deal(7, row, row % 3 == 0);
        let order = advance_greedily(&mut pos, &order, empty);
        (pos, order)
    }

    /// `s`, an open solution of `pos` with the pile `order` (deal `row`), reaches the best
    /// outcome of the exhaustive search, and its line, replayed, ends the game as it claims.
    fn assert_best_line(pos: &Solitaire, order: &[Card], s: &OpenSolution, row: u64) {
        let (won, score) = brute(pos, order);
        assert_eq!((!s.lost, s.score), (won, score), "deal {row}");
        let end = replay(pos, order, &s.line).unwrap();
        assert!(end.is_over());
        assert_eq!(end.lost(), s.lost);
        assert_eq!(
            ended_score(&end),
            s.score,
            "deal {row}: the line scores what was claimed"
        );
    }

    /// `f`, a fill answer for `pos` with the pile `order`, is right about whether the grid can
    /// be filled (`fillable`), and its line, replayed, fills it.
    fn assert_fill(pos: &Solitaire, order: &[Card], f: &FillSolution, fillable: bool, row: u64) {
        assert_eq!(f.line.is_some(), fillable, "deal {row}");
        if let Some(line) = &f.line {
            let end = replay(pos, order, line).unwrap();
            assert_eq!(end.empty(), 0, "deal {row}: the line fills the grid");
        }
    }

    #[test]
    fn drawing_depends_only_on_the_ranks() {
        // The rule fill_open's memory rests on: a neighbour sum of 11 or 20 draws, whatever
        // the suits (the Excuse, without rank, never draws).
        let t = tables();
        for c in 0..CARD_COUNT as Card {
            for d in 0..CARD_COUNT as Card {
                let sum = cards::rank(c) + cards::rank(d);
                let draws =
                    c != d && c != cards::EXCUSE && d != cards::EXCUSE && (sum == 11 || sum == 20);
                assert_eq!(t.drawers[d as usize] & 1 << c != 0, draws, "{c} beside {d}");
            }
        }
    }

    #[test]
    fn fill_matches_exhaustive_search_on_late_positions() {
        let cancel = AtomicBool::new(false);
        let mut unfillable = 0;
        for row in 0..80 {
            let (pos, order) = late(row, 3 + (row % 3) as u32);
            let (won, _) = brute(&pos, &order);
            let f = fill_open(&pos, &order, &no_limits(), &cancel).unwrap();
            assert_fill(&pos, &order, &f, won, row);
            unfillable += usize::from(!won);
        }
        assert!(
            unfillable >= 10,
            "the positions include lost ones ({unfillable})"
        );
    }

    #[test]
    fn fill_agrees_with_the_open_solve_on_larger_positions() {
        let cancel = AtomicBool::new(false);
        let mut unfillable = 0;
        for row in 0..40 {
            let (pos, order) = late(row, 6 + (row % 3) as u32);
            let s = solve_open(&pos, &order, &no_limits(), &cancel).unwrap();
            let f = fill_open(&pos, &order, &no_limits(), &cancel).unwrap();
            assert_fill(&pos, &order, &f, !s.lost, row);
            unfillable += usize::from(s.lost);
        }
        assert!(
            unfillable >= 5,
            "the positions include lost ones ({unfillable})"
        );
    }

    #[test]
    fn dead_positions_remembered_by_ranks_hide_no_line() {
        // fill_open remembers a position from which no line fills the grid by the rank on each
        // cell. A search that remembers nothing must find no line where it found none: on
        // these deals a key coarser than the ranks (occupied or not) wrongly loses some.
        let cancel = AtomicBool::new(false);
        let limits = Limits {
            max_nodes: Some(200_000),
            ..Limits::default()
        };
        let (mut lost, mut checked) = (0, 0);
        for row in 6300..6400 {
            let (pos, order) = deal(0, row, false);
            if fill_open(&pos, &order, &no_limits(), &cancel)
                .unwrap()
                .line
                .is_some()
            {
                continue;
            }
            lost += 1;
            let mut forgetful = Fill::new(&order, 0, &limits, &cancel);
            match forgetful.search(&mut pos.grid.clone(), pos.hand, 0) {
                Ok(filled) => {
                    assert!(!filled, "deal {row}: a line fills the grid");
                    checked += 1;
                }
                Err(Error::SearchLimit { .. }) => {}
                Err(e) => panic!("{e}"),
            }
        }
        assert!(
            checked >= 1 && checked == lost,
            "{checked} of {lost} lost deals checked"
        );
    }

    #[test]
    fn fill_stops_at_its_node_limit() {
        let (pos, order) = deal(3, 0, false);
        let limits = Limits {
            max_nodes: Some(0),
            ..Limits::default()
        };
        let got = fill_open(&pos, &order, &limits, &AtomicBool::new(false));
        assert!(matches!(got, Err(Error::SearchLimit { .. })), "{got:?}");
    }

    #[test]
    fn open_solve_matches_exhaustive_search_on_late_positions() {
        let cancel = AtomicBool::new(false);
        for row in 0..60 {
            let (pos, order) = late(row, 4 + (row % 2) as u32);
            let s = solve_open(&pos, &order, &no_limits(), &cancel).unwrap();
            assert_best_line(&pos, &order, &s, row);
        }
    }

    #[test]
    fn the_best_loss_is_the_exhaustive_one_where_no_line_fills_the_grid() {
        // A grid that no line fills is known from the first fill: the best loss then comes
        // from the grids lost lines leave (their empty cells as the Excuse), and must be
        // the exhaustive one.
        let cancel = AtomicBool::new(false);
        let mut lost = 0;
        for row in 0..400 {
            let (pos, order) = late(row, 6);
            let filled = fill_open(&pos, &order, &no_limits(), &cancel).unwrap();
            if pos.is_over() || filled.line.is_some() {
                continue;
            }
            let s = solve_open(&pos, &order, &no_limits(), &cancel).unwrap();
            assert!(s.lost, "deal {row}");
            assert_best_line(&pos, &order, &s, row);
            // `quick` = 0: straight to the search over the grids lost lines leave.
            let s = solve_open_with(&pos, &order, &no_limits(), &cancel, 0).unwrap();
            assert_best_line(&pos, &order, &s, row);
            lost += 1;
        }
        assert!(lost >= 50, "{lost} positions that cannot be filled");
    }

    #[test]
    fn the_bound_of_a_grid_no_line_fills_covers_its_best_loss() {
        // Along random lines from positions that no line fills, the sequence search's bound
        // once that is known (counting only the cards a lost line holds or draws, and as
        // many cells) is at least the best points any line still scores.
        let cancel = AtomicBool::new(false);
        let mut rng = <crate::game::Rng as rand::SeedableRng>::seed_from_u64(5);
        let (mut checked, mut tight) = (0, 0);
        for row in 0..400 {
            let (mut pos, order) = late(row, 4 + (row % 4) as u32);
            let filled = fill_open(&pos, &order, &no_limits(), &cancel).unwrap();
            if pos.is_over() || filled.line.is_some() {
                continue;
            }
            let mut drawn = 0;
            while !pos.is_over() {
                let rest = &order[drawn..];
                let budget = meter("test", &no_limits(), &cancel, Instant::now(), None);
                let mut open = Open::new(rest, budget);
                open.fillable = false;
                let bound = open.bound(&Node::new(pos.grid, pos.hand));
                let (won, best) = brute(&pos, rest);
                let future = best - pos.points;
                assert!(
                    !won && bound >= future,
                    "deal {row}: bound {bound}, best {future}"
                );
                checked += 1;
                tight += usize::from(bound == future);
                let actions = pos.actions();
                let (card, cell) = Solitaire::split(actions[rng.random_range(0..actions.len())]);
                let (_, draws) = pos.place(card, cell);
                let take = (draws as usize).min(rest.len());
                for &c in &rest[..take] {
                    pos.draw(c);
                }
                drawn += take;
            }
        }
        assert!(
            checked >= 100 && tight >= 5,
            "{checked} positions, {tight} tight"
        );
    }

    #[test]
    fn a_later_search_by_draws_need_not_find_a_grid_as_good_as_an_earlier_ones() {
        // Of equal grids the answer is the one making the fewest draws: a search for more
        // draws cuts at the best met so far, one for fewer (or the same) only below it.
        let bests = Bests::new(100);
        assert_eq!(bests.bar(5), 100, "nothing met yet: the floor");
        bests.found(150, 5);
        assert_eq!((bests.bar(4), bests.bar(5), bests.bar(6)), (149, 149, 150));
        bests.found(150, 3);
        assert_eq!((bests.bar(3), bests.bar(4), bests.bar(6)), (149, 150, 150));
        bests.found(140, 1);
        assert_eq!(
            (bests.bar(1), bests.bar(2)),
            (149, 149),
            "a lower value changes nothing"
        );
        bests.found(160, 9);
        assert_eq!((bests.bar(3), bests.bar(10)), (159, 160));
    }

    #[test]
    fn grid_search_matches_exhaustive_search_on_late_positions() {
        // `quick` = 0: straight to the search over final grids and their orders.
        let cancel = AtomicBool::new(false);
        for row in 0..60 {
            let (pos, order) = late(row, 4 + (row % 3) as u32);
            let s = solve_open_with(&pos, &order, &no_limits(), &cancel, 0).unwrap();
            assert_best_line(&pos, &order, &s, row);
        }
    }

    #[test]
    fn a_polished_grid_is_played_by_a_line_that_scores_its_value() {
        // The polish gives the search over final grids its floor, so its value must be one
        // that a line reaches: never above the exhaustive best, and scored exactly.
        let cancel = AtomicBool::new(false);
        let (mut polished, mut improved) = (0, 0);
        for row in 0..60 {
            let (pos, order) = late(row, 5 + (row % 2) as u32);
            let root = Node::new(pos.grid, pos.hand);
            let FirstGrid::Found(first) =
                Grids::first_grid(&order, &root, &no_limits(), &cancel, &AtomicU64::new(0))
                    .unwrap()
            else {
                continue;
            };
            let shared = Bests::new(NEG_INF);
            let budget = meter("test", &no_limits(), &cancel, Instant::now(), None);
            let mut grids = Grids::new(&order, budget, &root, &shared, 0, 0);
            let start = grids
                .full_value(&first, NEG_INF)
                .unwrap()
                .expect("a played grid");
            let (value, grid) = grids.polish(first, 2000, row).unwrap();
            assert_eq!(
                grids.polish(first, 2000, row).unwrap(),
                (value, grid),
                "deal {row}"
            );
            assert!(value >= start);
            improved += usize::from(value > start);
            let (_, line) = grids.orders(&grid).unwrap().expect("a playable grid");
            let end = replay(&pos, &order, &line).unwrap();
            assert_eq!(end.empty(), 0, "deal {row}: the line fills the grid");
            assert_eq!(end.final_score() - pos.points, value, "deal {row}");
            let (won, best) = brute(&pos, &order);
            assert!(won && end.final_score() <= best, "deal {row}");
            polished += 1;
        }
        assert!(
            polished >= 15 && improved >= 5,
            "{polished} polished, {improved} improved"
        );
    }

    #[test]
    fn grids_drawing_a_given_number_of_cards_are_bounded_at_every_price_of_a_draw() {
        // The search over final grids runs once per number of draws the grid makes, and
        // bounds those grids with every draw still to make priced into the edges that draw
        // (and the price of them all taken off again). The bound must hold at every price,
        // negative ones included, unless the pile runs out (then only prices of zero or more).
        let cancel = AtomicBool::new(false);
        let mut checked = 0;
        for row in 0..30 {
            let (pos, order) = late(row, 4 + (row % 2) as u32);
            // The best final score of the lines that fill the grid, per number of cards drawn.
            let mut best = vec![i32::MIN; order.len() + 1];
            each_end(&pos, &order, 0, &mut |end, drawn| {
                if !end.lost() {
                    best[drawn] = best[drawn].max(ended_score(end));
                }
            });
            let root = Node::new(pos.grid, pos.hand);
            let shared = Bests::new(NEG_INF);
            for (d, &score) in best.iter().enumerate() {
                if score == i32::MIN {
                    continue;
                }
                let budget = meter("test", &no_limits(), &cancel, Instant::now(), None);
                let grids = Grids::new(&order, budget, &root, &shared, 0, d);
                let lowest = if d == order.len() {
                    (-LOWEST_PRICE) as usize
                } else {
                    0
                };
                assert_eq!(grids.lowest_price, lowest);
                let avail = grids.hand | grids.prefix[d];
                let fits = grids
                    .cards_within_draws(&pos.grid, avail, 0)
                    .expect("a grid makes these draws");
                for p in lowest..prices().len() {
                    let bound = grids
                        .relax(&pos.grid, &Given::default(), p, &[0; CARD_COUNT], &fits)
                        .bound();
                    assert!(
                        bound >= score - pos.points,
                        "deal {row}, {d} draws, price {}: bound {bound} below the grid's {}",
                        prices()[p].lambda,
                        score - pos.points
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 500, "{checked} bounds checked");
    }

    #[test]
    fn every_grid_making_the_draws_keeps_its_cards_among_those_that_fit() {
        // `cards_within_draws` rules out a card on a cell when the grid could then no longer
        // make exactly the draws searched for (too many already, or too few within reach).
        // Along the cells of every filled end grid, in cell order, each of its cards must
        // still fit where it lies, for the number of cards the line drew. Every other deal
        // has a pile of one to four cards, so that grids drawing past its end (allowed) are
        // met too.
        let cancel = AtomicBool::new(false);
        let t = tables();
        let (mut checked, mut past_the_pile) = (0, 0);
        for row in 0..40 {
            let (pos, mut order) = late(row, 4 + (row % 3) as u32);
            if row % 2 == 1 {
                order.truncate(1 + (row as usize / 2) % 4);
            }
            let root = Node::new(pos.grid, pos.hand);
            let shared = Bests::new(NEG_INF);
            let mut ends = Vec::new();
            each_end(&pos, &order, 0, &mut |end, drawn| {
                if !end.lost() {
                    ends.push((end.grid, drawn));
                }
            });
            for (end, d) in ends {
                let budget = meter("test", &no_limits(), &cancel, Instant::now(), None);
                let grids = Grids::new(&order, budget, &root, &shared, 0, d);
                let mut grid = pos.grid;
                let (mut used, mut draws) = (0u64, 0usize);
                for x in (0..CELLS).filter(|&x| pos.grid[x] == NO_CARD) {
                    let avail = (grids.hand | grids.prefix[d]) & !used;
                    let fits = grids.cards_within_draws(&grid, avail, draws);
                    let c = end[x];
                    assert!(
                        fits.is_some_and(|f| f[x] & 1 << c != 0),
                        "deal {row}, {d} draws: {} ruled out on cell {x}",
                        cards::code(c)
                    );
                    checked += 1;
                    for m in bits(t.neighbours[x] as u64) {
                        if grid[m] != NO_CARD && t.drawers[grid[m] as usize] & 1 << c != 0 {
                            draws += 1;
                        }
                    }
                    grid[x] = c;
                    used |= 1 << c;
                }
                past_the_pile += usize::from(draws > order.len());
            }
        }
        assert!(checked > 1000, "{checked} placements checked");
        assert!(
            past_the_pile > 10,
            "{past_the_pile} grids drawing past the pile"
        );
    }

    #[test]
    fn the_searches_by_number_of_draws_give_the_same_line_at_any_thread_count() {
        // The final grids are searched once per number of draws, in parallel, sharing the
        // best value found. Equal grids in several searches: the one making the fewest draws
        // wins; within a search, the first by its cards cell by cell (a search for more
        // draws need not look for its own), so the line never depends on which search
        // finishes first, nor on the order a search meets its grids in.
        let cancel = AtomicBool::new(false);
        let mut ties = 0;
        // Rows 131 and 143 have such equal grids.
        for row in (0..30).chain([131, 143]) {
            let (pos, order) = late(row, 5 + (row % 3) as u32);
            let solve = |threads| {
                in_pool(Some(threads), || {
                    solve_open_with(&pos, &order, &no_limits(), &cancel, 0).unwrap()
                })
                .unwrap()
            };
            let one = solve(1);
            for threads in [2, 3] {
                let many = solve(threads);
                assert_eq!(
                    (one.lost, one.score, &one.line),
                    (many.lost, many.score, &many.line),
                    "deal {row}, {threads} threads"
                );
            }
            // The best grid of each number of draws, searched alone: the line makes the
            // fewest draws of those that reach its score. On several threads the subtrees of
            // the first cell are tasks of their own; of their equal grids, the first by its
            // cards is the search's, as on one thread.
            let end = replay(&pos, &order, &one.line).unwrap();
            let drawn = (pos.pile.count_ones() - end.pile.count_ones()) as usize;
            let root = Node::new(pos.grid, pos.hand);
            let best_of = |d, threads| {
                in_pool(Some(threads), || {
                    let shared = Bests::new(NEG_INF);
                    let budget = meter("test", &no_limits(), &cancel, Instant::now(), None);
                    let mut grids = Grids::new(&order, budget, &root, &shared, 0, d);
                    grids.best_grid().unwrap()
                })
                .unwrap()
            };
            let reaching: Vec<usize> = (0..=order.len())
                .filter(|&d| {
                    let best = best_of(d, 1);
                    assert_eq!(best, best_of(d, 3), "deal {row}, {d} draws");
                    best.is_some_and(|(v, _)| pos.points + v == one.score)
                })
                .collect();
            if !one.lost {
                assert_eq!(reaching.first(), Some(&drawn), "deal {row}");
            }
            ties += usize::from(reaching.len() > 1);
        }
        assert_eq!(ties, 2, "deals with equal grids making different draws");
    }

    #[test]
    fn grid_search_agrees_with_the_sequence_search() {
        // Positions with 7 empty cells: too big for the exhaustive search, both exact searches
        // must agree.
        let cancel = AtomicBool::new(false);
        for row in 0..12 {
            let (pos, order) = late(row, 7);
            let a = solve_open_with(&pos, &order, &no_limits(), &cancel, 0).unwrap();
            let b = solve_open_with(&pos, &order, &no_limits(), &cancel, u64::MAX).unwrap();
            assert_eq!((a.lost, a.score), (b.lost, b.score), "deal {row}");
            let end = replay(&pos, &order, &a.line).unwrap();
            assert!(end.is_over());
            assert_eq!(ended_score(&end), a.score, "deal {row}");
        }
    }

    #[test]
    fn bad_orders_are_rejected() {
        let cancel = AtomicBool::new(false);
        let (pos, mut order) = deal(1, 0, false);
        order.pop();
        assert!(matches!(
            solve_open(&pos, &order, &no_limits(), &cancel),
            Err(Error::InvalidNotation(_))
        ));
        order.push(order[0]);
        assert!(matches!(
            solve_open(&pos, &order, &no_limits(), &cancel),
            Err(Error::InvalidNotation(_))
        ));
    }

    #[test]
    fn node_limit_stops_a_fresh_deal() {
        let cancel = AtomicBool::new(false);
        let (pos, order) = deal(1, 0, false);
        let limits = Limits {
            max_nodes: Some(100),
            ..Limits::default()
        };
        assert!(matches!(
            solve_open(&pos, &order, &limits, &cancel),
            Err(Error::SearchLimit { .. })
        ));
    }

    #[test]
    fn assignment_reduced_costs_bound_the_assignments_with_a_pairing_fixed() {
        // Brute force over small random weight tables: the best assignment is found, and
        // giving row i column j loses at least the pairing's reduced cost.
        fn best(w: &[[i32; 40]], m: usize, row: usize, used: u64) -> i32 {
            if row == w.len() {
                return 0;
            }
            (0..m)
                .filter(|&j| used & 1 << j == 0)
                .map(|j| w[row][j] + best(w, m, row + 1, used | 1 << j))
                .max()
                .unwrap_or(NEG_INF)
        }
        let mut rng = row_rng(5, 0);
        for _ in 0..300 {
            let n = rng.random_range(1..=4);
            let m = rng.random_range(n..=7);
            let w: Vec<[i32; 40]> = (0..n)
                .map(|_| std::array::from_fn(|_| rng.random_range(-20..40)))
                .collect();
            let (total, duals) = assignment(&w, m, i32::MIN, &[0; 40][..m]);
            assert_eq!(total, best(&w, m, 0, 0));
            // Weak duality: the potentials show the optimum itself at the end.
            let dual: i32 =
                duals.row[..n].iter().sum::<i32>() + duals.column[..m].iter().sum::<i32>();
            assert_eq!(dual, total);
            // Cut early, from no potentials or from any column potentials of at least zero
            // (a parent's): never below the optimum, never above the cut; the optimum itself
            // when it is above the cut.
            let start: [i32; 40] = std::array::from_fn(|_| rng.random_range(0..30));
            for start in [&[0; 40][..m], &start[..m]] {
                assert_eq!(assignment(&w, m, total - 1, start).0, total);
                assert_eq!(assignment(&w, m, i32::MIN, start).0, total);
                for cut in [total, total + 5, total + 50] {
                    let (early, _) = assignment(&w, m, cut, start);
                    assert!(
                        total <= early && early <= cut.max(total),
                        "{w:?} from {start:?}: {early} for cut {cut}"
                    );
                }
            }
            for i in 0..n {
                for j in 0..m {
                    let cost = duals.reduced_cost(&w, i, j);
                    assert!(cost >= 0);
                    // The best assignment with row i given column j, rows taken in turn.
                    let mut rows = w.clone();
                    rows.swap(0, i);
                    let fixed = rows[0][j] + best(&rows, m, 1, 1 << j);
                    assert!(fixed <= total - cost, "{w:?} row {i} column {j}");
                }
            }
        }
    }

    #[test]
    fn two_hole_line_shares_cover_every_pair_and_never_exceed_the_even_split() {
        // `split_pair` on random line tables and supplies: for every pair of ranks the supply
        // allows, the two shares add up to at least the line's value (half points), and no
        // share is above the even split it starts from (the hole's best with any other rank).
        let mut rng = row_rng(7, 0);
        for _ in 0..500 {
            let pairs: [[i32; 11]; 11] = std::array::from_fn(|_| {
                std::array::from_fn(|_| [0, 0, 0, 20, 30, 40, 60][rng.random_range(0..7)])
            });
            let count: [u8; 11] = std::array::from_fn(|_| rng.random_range(0..3));
            let fits = |r: usize, q: usize| count[r] > 0 && count[q] > u8::from(q == r);
            let (a, b) = split_pair(&pairs, &count);
            for r in 0..11 {
                for q in 0..11 {
                    if fits(r, q) {
                        assert!(
                            a[r] + b[q] >= 2 * pairs[r][q],
                            "{pairs:?} {count:?} {r} {q}"
                        );
                    }
                }
                let even_a = (0..11).filter(|&q| fits(r, q)).map(|q| pairs[r][q]).max();
                let even_b = (0..11).filter(|&q| fits(q, r)).map(|q| pairs[q][r]).max();
                assert!(a[r] <= even_a.unwrap_or(0) && b[r] <= even_b.unwrap_or(0));
            }
        }
        // 5 6 _ _: 20 for a 7 at the third cell, 20 more with an 8 at the last, nothing else:
        // 20 points (40 half points) to each, nothing to other ranks at the last cell.
        let mut pairs = [[0; 11]; 11];
        for q in 1..11 {
            pairs[7][q] = if q == 8 { 40 } else { 20 };
        }
        let (a, b) = split_pair(&pairs, &[1; 11]);
        assert_eq!((a[7], b[8]), (40, 40));
        assert!((0..11).all(|q| q == 8 || b[q] <= 0));
    }

    #[test]
    fn shares_of_lines_with_three_or_four_holes_cover_every_filling() {
        // A line with three or four holes goes into the assignment as a share per hole and
        // rank. Whatever ranks the holes take (as the supply allows), the shares add up to
        // at least what the line's straights and sets can score (`line_max`, half points).
        let mut rng = row_rng(8, 0);
        for _ in 0..300 {
            let holes = rng.random_range(3..=4);
            let mut ranks = [15u64; SIDE];
            let filled = rng.random_range(0..SIDE);
            if holes == 3 {
                // A card given to the search (its rank known, its turn not fixed) or one
                // placed at the root (bit 4).
                ranks[filled] = rng.random_range(1..11) | [0, 16][rng.random_range(0..2)];
            }
            let count: [u64; 11] =
                std::array::from_fn(|r| if r == 0 { 0 } else { rng.random_range(0..=3) });
            let mut key = (0..SIDE).fold(0, |k, i| k | ranks[i] << (5 * i));
            for (r, &n) in count.iter().enumerate() {
                key |= n << (20 + 3 * r);
            }
            let shares = line_shares(key);
            let open: Vec<usize> = (0..SIDE).filter(|&i| ranks[i] == 15).collect();
            let mut fill = vec![1usize; open.len()];
            'fillings: loop {
                let mut need = [0u64; 11];
                for &r in &fill {
                    need[r] += 1;
                }
                if (0..11).all(|r| need[r] <= count[r]) {
                    let mut given = key & !((1 << 20) - 1);
                    for i in 0..SIDE {
                        given |= ranks[i] << (5 * i);
                    }
                    let mut total = 0;
                    for (k, &i) in open.iter().enumerate() {
                        given = given & !(31 << (5 * i)) | (fill[k] as u64) << (5 * i);
                        total += shares[i][fill[k]];
                    }
                    for r in 0..11 {
                        given = given & !(7 << (20 + 3 * r)) | (count[r] - need[r]) << (20 + 3 * r);
                    }
                    assert!(total >= 2 * line_max(given), "{ranks:?} {count:?} {fill:?}");
                }
                for f in fill.iter_mut() {
                    if *f < 10 {
                        *f += 1;
                        continue 'fillings;
                    }
                    *f = 1;
                }
                break;
            }
        }
    }

    #[test]
    fn line_bonus_bounds() {
        let key = |ranks: [u64; 4], supply: &[(usize, u64)]| {
            let mut k = ranks
                .iter()
                .enumerate()
                .fold(0, |k, (i, &r)| k | r << (4 * i));
            for &(r, n) in supply {
                k |= n << (16 + 3 * r);
            }
            k
        };
        // An empty line and four Crowns: a set of three, then of four.
        assert_eq!(line_bonus(key([15; 4], &[(10, 4)])), 60);
        // Corners 3 and 6, the 4 and 5 to come: one straight of four.
        assert_eq!(line_bonus(key([3, 15, 15, 6], &[(4, 1), (5, 1)])), 20);
        assert_eq!(line_bonus(key([3, 15, 15, 9], &[(4, 1), (7, 2)])), 0);
        // 2 . . 2 with two more 2s: 2 2 2 2 completes a set of four once.
        assert_eq!(line_bonus(key([2, 15, 15, 2], &[(2, 1), (9, 3)])), 0);
    }
}
