//! Solvers for solitaire Quincunx (4×4 grid, one player; rules in docs/rules/quincunx.md).
//!
//! Every solver ranks a full grid above any loss and then goes by score, the final score being
//! the turn points less the hand penalty (a lost game keeps its turn points: its hand is empty).
//!
//! * [`solve_open`]: the draw order is known. Basic points, pairs and the number of draws
//!   depend only on the final grid (an edge scores, and draws once, when its second card
//!   lands); only straights and sets, the pair exception inside a set, power plays and
//!   feasibility (a pile card is placed after it is drawn; the hand never runs out) depend on
//!   the order. So after a short sequence search (a depth-first branch and bound over the
//!   placements with a transposition table, `open::QUICK` nodes; it answers small positions
//!   outright and its best line is the floor; see the `open` module), the search of
//!   [`fill_open`] looks for a first complete grid, and a local search over complete grids
//!   from it (`Grids::polish`: two seeded runs of card swaps and replacements, each grid
//!   valued exactly) raises the floor, without which the first searches can spend millions of
//!   nodes before they meet a grid that can be played. Then `Grids` searches final grids, once
//!   for each number of draws the grid makes (that number fixes which pile cards can be in the
//!   grid and which are held at the end), these searches in parallel on the context's threads
//!   (see the `grids` module: their bound in `grids::bound`, the Hungarian method in
//!   `assignment`, the exact scoring of a complete grid in `grids::orders`). The line is the
//!   same at any thread count: of equal grids, the one making the fewest draws, then the first
//!   by its cards, cell by cell.
//!
//!   Where that search of [`fill_open`] proves that no line fills the grid (about 0.15% of
//!   fresh deals), the answer is a loss, and the best one is searched over the grids lost
//!   lines leave (`Grids::best_loss`): a lost line places every card it holds or draws, having
//!   drawn fewer cards than the hand lacks, so for each number of draws and each choice of the
//!   cells left empty, the search over final grids fills the others, the empty cells standing
//!   as the Excuse (which does to its neighbours what an empty cell does); seconds on a fresh
//!   deal. With the Excuse in play that stand-in is taken, and the sequence search alone finds
//!   the best loss: quick late in a game, but not within a minute on a fresh deal that cannot
//!   be filled.
//! * [`fill_open`]: the draw order is known, and the question is only whether some line fills
//!   the grid: a depth-first search, drawing placements first, on one thread. A draw needs two
//!   neighbours whose ranks sum to 11 or 20, so it reasons on ranks alone: it remembers the
//!   positions from which no line fills the grid by the ranks on the grid (the cards drawn and
//!   the hand follow from them; see `fill::Fill`), and stops as soon as the drawing pairs
//!   within reach (the hand, the placed cards with an empty neighbour, and the pile cards
//!   those draws would bring) cannot bring the cards the empty cells still need
//!   (`Fill::draws_within_reach`). Microseconds on a fresh deal.
//! * [`solve_expected`]: the draw order is unknown. Exact expectimax over the draws (each
//!   uniform over the unseen cards), on one thread; the objective is the highest probability
//!   of filling the grid, then the highest expected final score (see [`Expected`]). Exact, so
//!   for late positions.
//! * [`best_move`]: a policy for any position: sample draw orders with the seed, solve each
//!   order open after every candidate action (the best `candidates` by immediate points, each
//!   solve within `effort` nodes), pick the action that wins in the most samples, then has the
//!   highest mean final score (perfect-information Monte Carlo: it optimises the average of
//!   the open-deck optimum, which is optimistic about what the player knows); the same seed
//!   gives the same move at any thread count.
//! * [`greedy_move`]: the baseline: the highest immediate points.
//!
//! Limits (time, nodes, memory) and a cancel flag stop a search with `SearchLimit` /
//! `Interrupted`; a returned answer is always exact for its objective. `memory_mb` bounds the
//! transposition tables of a call together, their growth included (the samples of
//! [`best_move`] solved at once share it); besides them each solver thread keeps at most about
//! 30 MB of memoised bounds of single lines (see `tables`), which depend on ranks alone and
//! serve all its solves.
//!
//! Layout: `solitaire` (the model and grid helpers), `tables` (what the bounds derive from
//! the scoring rules, and the memoised bounds of one line), `open` (the sequence search and
//! [`solve_open`]), `grids` (the search over final grids), `assignment`, `expect`
//! ([`solve_expected`]), `fill` ([`fill_open`]), `policy` ([`best_move`], [`greedy_move`]),
//! `batch` (batches over fresh deals), and `tests`.

mod assignment;
mod batch;
pub mod deal_table;
mod expect;
mod fill;
mod grids;
mod open;
mod policy;
mod solitaire;
mod tables;
#[cfg(test)]
mod tests;

pub use batch::{
    Policy, Row, advance_greedily, deal, fill_open_batch, play_batch, solve_open_batch,
};
pub use expect::{Expected, solve_expected};
pub use fill::{FillSolution, fill_open};
pub use open::{OpenSolution, solve_open};
pub use policy::{Advice, best_move, greedy_move};
pub use solitaire::{Solitaire, placement, replay};
// The solvers share the limits of every solver (and so the bindings' parsing).
pub use crate::search::Limits;

use crate::search::{Budget, Meter};
use std::sync::atomic::{AtomicBool, AtomicU64};
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
/// The bounds of one line ([`line_bonus`](tables::line_bonus), [`line_max`](tables::line_max), [`line_pairs`](tables::line_pairs)) depend only on the
/// line's ranks, so each solver thread memoises them across solves, outside `memory_mb`: at
/// most this many entries each (about 9 MB for the two first, 8 MB for the pairs), the memo
/// starting afresh when full. A fresh deal's open solve stays far below (about 10 MB of
/// memory in all, table included).
const LINE_MEMO: usize = 1 << 18;
const LINE_PAIRS_MEMO: usize = 1 << 13;
/// And at most this many splits of a two-hole line ([`line_split`](tables::line_split), about 4 MB).
const LINE_SPLIT_MEMO: usize = 1 << 15;

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

/// Table entries of `entry_bytes` bytes (key and value) that fit in `memory_mb`, the table's
/// spare room and growth included.
fn table_cap(memory_mb: usize, entry_bytes: usize) -> usize {
    crate::search::hash_map_cap(memory_mb, entry_bytes)
}
