//! The exact solver of Quantum Leap.
//!
//! Quantum Leap has no draws and every move removes a stone, so every position is a win or a
//! loss for the player to move. The solver is a depth-first negamax (a win/loss, null-window
//! search) with these accelerations:
//!
//! * **Sums of games** (`regions`): stones that can never reach, or border, each other form
//!   separate regions that never merge, so a position is a sum of independent games; each
//!   region's outcome class is solved once and cached by shape, zero games are dropped and
//!   integers carried as spare moves.
//! * **A transposition table** (`table`) with Zobrist keys that starts small and grows within
//!   the memory cap, and enhanced transposition cut-offs.
//! * **Move ordering** (`ordering`): captures that leave the opponent the fewest replies
//!   first, then killer moves, our own captures and the history of earlier refutations.
//! * **Threads** (`fork`; young brothers wait): near the root, the captures after a node's
//!   first are searched by the threads of the pool in order, sharing the table ([`Shared`]).
//!   The root's captures are ordered by the position alone and the first winning one is
//!   returned, so the answer does not depend on the threads.
//!
//! Each accelerator's full description is the module documentation of its file (`regions.rs`,
//! `table.rs`, `ordering.rs`, `fork.rs`, beside this one). One thread's search is [`Solver`]
//! (`search`).
//!
//! Depth-first proof-number search was tried in place of the negamax and measured slower on
//! the same positions (docs/perf/quantum_leap.md).
//!
//! Limits (time, nodes, memory) and a cancel flag stop the search with `SearchLimit` /
//! `Interrupted`; a returned answer is always exact. With more than one thread the node limit
//! is checked now and then (every `FLUSH` nodes a thread) rather than at every node; only
//! the node count and the time depend on the threads, never the answer.

pub mod deal_tables;
mod fork;
mod ordering;
mod regions;
mod search;
mod shared;
mod table;
#[cfg(test)]
mod tests;

use crate::bits::Bits;
use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng};
use crate::knowledge::Knowledge;
use crate::solver::{Answer, SolverInfo};
use crate::quantum_leap::board::OFF;
use crate::quantum_leap::{Phase, QuantumLeap, QuantumLeapState, WHITE, on_board};
pub use crate::search::Limits;
use crate::search::{Context, in_pool};
use search::Solver;
use shared::Shared;

/// The answer for a decision node.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The player to act wins with perfect play.
    pub win: bool,
    /// A winning action if `win`, else the action that resists longest by the solver's
    /// ordering (`None` when there is no legal action).
    pub best_action: Option<Action>,
    pub nodes: u64,
    pub seconds: f64,
}

fn decision_error() -> Error {
    Error::NotApplicable(
        "quantum_leap: the solver needs a decision (White or Black to move, or Black's swap), \
         not a chance node (the deal)"
            .into(),
    )
}

/// Whether `state` is a finished game (the side to move has lost), after checking that it is
/// not a chance node.
fn finished<B: Bits>(state: &QuantumLeapState<B>) -> Result<bool> {
    match state.phase {
        Phase::Deal => Err(decision_error()),
        Phase::Move { over, .. } => Ok(over),
        Phase::Swap => Ok(false),
    }
}

/// Runs `work` with the number of threads it may use: `threads`, or every core for `None`.
/// One thread needs no pool.
fn in_threads<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce(usize) -> Result<T> + Send,
) -> Result<T> {
    match threads {
        Some(1) => work(1),
        _ => in_pool(threads, || work(rayon::current_num_threads()))?,
    }
}

/// Solves a decision node: whether the player to act wins, and a winning action. `threads`
/// (`None`: every core) changes only the time and the node count, never the answer.
/// A finished game is answered: the side to move has lost and has no move.
pub fn solve<B: Bits>(
    game: &QuantumLeap<B>,
    state: &QuantumLeapState<B>,
    ctx: &Context,
) -> Result<Solution> {
    if finished(state)? {
        return Ok(Solution {
            win: false,
            best_action: None,
            nodes: 0,
            seconds: 0.0,
        });
    }
    let (limits, cancel) = (ctx.limits.clone(), ctx.cancel);
    in_threads(ctx.threads, |threads| {
        let shared = Shared::new(game, on_board(state.stones), limits, threads, cancel);
        let (win, best_action) = shared.run(|shared| {
            let mut solver = Solver::new(shared);
            solver.count_node()?;
            match state.phase {
                Phase::Move { side, .. } => {
                    let h = solver.hash(state.stones);
                    let (win, capture) = solver.search(state.stones, side, h, 0)?;
                    let action = capture
                        .map(|(from, to)| (from * 6 + game.board.direction(from, to)) as Action);
                    Ok((win, action))
                }
                Phase::Swap => {
                    // Black wins if some swap (or none) leaves White, to move, lost.
                    let mut actions = Vec::new();
                    game.legal_actions(state, &mut actions);
                    let mut result = (false, actions.first().copied());
                    // Swaps that leave White the fewest captures first.
                    let mut children: Vec<(u32, Action, QuantumLeapState<B>)> = actions
                        .iter()
                        .map(|&a| {
                            let mut child = *state;
                            game.apply(&mut child, a);
                            (game.count_captures(child.stones, WHITE), a, child)
                        })
                        .collect();
                    children.sort_by_key(|c| c.0);
                    for (_, a, child) in children {
                        let h = solver.hash(child.stones);
                        // A swap moves no stone by a capture: nothing to recapture.
                        if !solver.wins_child(child.stones, WHITE, h, 0, OFF as usize)? {
                            result = (true, Some(a));
                            break;
                        }
                    }
                    Ok(result)
                }
                Phase::Deal => unreachable!("checked above"),
            }
        })?;
        Ok(Solution {
            win,
            best_action,
            nodes: shared.nodes.into_inner(),
            seconds: shared.budget.seconds(),
        })
    })
}

/// Every legal action of a decision node with whether it wins for the player who takes it,
/// and the nodes searched (none in a finished game).
pub fn analyze<B: Bits>(
    game: &QuantumLeap<B>,
    state: &QuantumLeapState<B>,
    ctx: &Context,
) -> Result<(Vec<(Action, bool)>, u64)> {
    if finished(state)? {
        return Ok((Vec::new(), 0));
    }
    let (limits, cancel) = (ctx.limits.clone(), ctx.cancel);
    in_threads(ctx.threads, |threads| {
        let shared = Shared::new(game, on_board(state.stones), limits, threads, cancel);
        let values = shared.run(|shared| {
            let mut solver = Solver::new(shared);
            let mut actions = Vec::new();
            game.legal_actions(state, &mut actions);
            let mut values = Vec::with_capacity(actions.len());
            for a in actions {
                let mut child = *state;
                game.apply(&mut child, a);
                let Phase::Move { side, .. } = child.phase else {
                    unreachable!("a decision leads to a move")
                };
                let h = solver.hash(child.stones);
                // The cell a capture landed on, as in the solve's replies to it.
                let moved_to = match state.phase {
                    Phase::Move { side: mover, .. } => {
                        let m = mover as usize;
                        (child.stones[m] & !state.stones[m]).cells().next()
                    }
                    _ => None,
                };
                let moved_to = moved_to.unwrap_or(OFF as usize);
                values.push((a, !solver.wins_child(child.stones, side, h, 0, moved_to)?));
            }
            Ok(values)
        })?;
        Ok((values, shared.nodes.into_inner()))
    })
}

/// What Quantum Leap knows beyond its rules, at either bitboard width: its solver ([`solve`]'s
/// win or loss, and its best action: winning, or resisting longest) and its best player.
impl<B: Bits> Knowledge for QuantumLeap<B> {
    const SOLVER: Option<SolverInfo> = Some(SolverInfo {
        function: "quanta.quantum_leap.solve",
        value: "1 if the mover wins with perfect play, 0 if the mover loses",
        options: &[("size", "3")],
        returns: Some(crate::solver::win_probability_returns),
    });

    fn solve(&self, state: &QuantumLeapState<B>, ctx: &Context) -> Result<Answer> {
        let sol = solve(self, state, ctx)?;
        let line = match sol.best_action {
            Some(a) => self.action_to_string(state, a)?,
            None => String::new(),
        };
        let value = if sol.win { 1.0 } else { 0.0 };
        Ok(Answer::exact(value, sol.best_action, line, sol.nodes, sol.seconds))
    }

    const BEST_PLAYER: &'static str = "the exact solver's move (winning, or resisting longest) \
        when it decides within half the time; otherwise MCTS within the time";

    fn best_action(&self, state: &QuantumLeapState<B>, rng: &mut Rng, ctx: &Context) -> Result<Action> {
        crate::bots::ismcts::solver_then_search(self, state, rng, ctx)
    }
}
