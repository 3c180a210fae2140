//! The solver bot: the best action of the game's solver ([`Knowledge::answer`]).
//!
//! The bot plays the answer's best action whenever it names one: an exact answer's, or an
//! estimate's that names one (Repair Unit's answer is an estimate over sampled card orders
//! with its policy's move). Where the solver gives no best action (a limit stopped it, so the
//! answer is undecided, or it does not take the position, e.g. a game whose options are not
//! its solvable form), the bot plays the greedy action instead ([`crate::greedy`]), ties
//! broken by its generator. A game without a solver is an error (`NotApplicable`). The solver
//! reads the whole state: in a game with hidden information this bot sees what its seat may
//! not.

use super::{Player, not_a_decision};
use crate::error::{Error, Result};
use crate::game::{Action, Rng};
use crate::knowledge::Knowledge;
use crate::search::{Context, Limits};
use std::sync::atomic::AtomicBool;

/// The game's solver's best action within these limits, else the greedy action.
#[derive(Debug, Clone)]
pub struct SolverBot(pub Limits);

impl<G: Knowledge> Player<G> for SolverBot {
    fn act(
        &self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        cancel: &AtomicBool,
    ) -> Result<Action> {
        if G::SOLVER.is_none() {
            return Err(no_solver::<G>());
        }
        let ctx = Context::new(self.0.clone(), None, cancel);
        let best = match game.answer(state, &ctx) {
            Ok(answer) => answer.best,
            Err(Error::NotApplicable(_)) => None,
            Err(e) => return Err(e),
        };
        match best {
            Some(a) => Ok(a),
            None => crate::greedy::greedy_action(game, state, rng)
                .ok_or_else(|| not_a_decision(game, state)),
        }
    }
}

/// The error for the solver bot in a game without a solver.
pub fn no_solver<G: Knowledge>() -> Error {
    Error::NotApplicable(format!(
        "{} has no solver, so the solver bot cannot play it",
        G::NAME
    ))
}
