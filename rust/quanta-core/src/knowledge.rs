//! What a game knows beyond its rules, declared on the game's own type: its exact solver, a
//! position evaluator for a tree search's leaves, how a search values new leaves by default,
//! and its strongest player.
//!
//! Every game implements [`Knowledge`] next to its solver (`<game>/solve/mod.rs`). The generic
//! searches ([`crate::bots`]: MCTS, ISMCTS, the solver-backed bot, the best player, the arena)
//! are written once against it and take these parts through the game's type, as OpenSpiel
//! hands its `MCTSBot` an evaluator as a value: nothing below the registry looks a game up by
//! name or erases its type. [`crate::erased`] is the one place that does, for the bindings.

use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng, ToMove};
use crate::search::Context;
use crate::solver::{Answer, SolverInfo};
use std::fmt::Debug;

/// How a tree search values a new leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random legal moves (chance by its odds) to the end of the game.
    Random,
    /// The greedy player's moves ([`crate::greedy::greedy_action`]: the best immediate return,
    /// ties by the search's generator) to the end of the game: slower than random moves, but a
    /// leaf of a scoring game is valued by play that scores. The search is guided by the same
    /// player in the tree too: it widens progressively, in the greedy order (see
    /// [`crate::bots::mcts`]'s docs), so that with many actions and few iterations it refines
    /// the greedy choice instead of spreading one visit over each action.
    Greedy,
    /// The game's position evaluator ([`Knowledge::evaluate`]) values the leaf at once, a
    /// random rollout where it gives no value.
    Evaluator,
}

impl Rollout {
    /// The rollouts by name, as a caller gives them.
    pub const NAMES: &'static [&'static str] = &["random", "greedy", "evaluator"];

    pub fn name(self) -> &'static str {
        match self {
            Rollout::Random => "random",
            Rollout::Greedy => "greedy",
            Rollout::Evaluator => "evaluator",
        }
    }

    /// The rollout named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Rollout> {
        match name {
            "random" => Some(Rollout::Random),
            "greedy" => Some(Rollout::Greedy),
            "evaluator" => Some(Rollout::Evaluator),
            _ => None,
        }
    }
}

/// What a game knows beyond its rules. The solver and the evaluator are optional (their
/// defaults say the game has none); the best player is required of every game.
pub trait Knowledge: Game + Debug {
    /// The game's exact solver, described; `None` when the game has none (then
    /// [`Knowledge::solve`] is never called).
    const SOLVER: Option<SolverInfo> = None;

    /// The solver's answer for a decision (or, where the solver takes them, a chance node
    /// before a die roll) within `ctx`'s limits. A search stopped by a limit returns
    /// `Error::SearchLimit`, which [`Knowledge::answer`] turns into an undecided answer.
    fn solve(&self, state: &Self::State, ctx: &Context) -> Result<Answer> {
        let _ = (state, ctx);
        Err(Error::NotApplicable(format!("{} has no solver", Self::NAME)))
    }

    /// What the position evaluator estimates, for people; `None` when the game has none.
    const EVALUATOR: Option<&'static str> = None;

    /// Writes the evaluator's estimate of `state` (a decision) as every player's return and
    /// says so; false where it gives no value. It reads only what the player to act may know
    /// (a search calls it on a determinised state, so a value that read hidden cards would be
    /// the determinisation's, as a rollout's is).
    fn evaluate(&self, state: &Self::State, rng: &mut Rng, returns: &mut [f64]) -> Result<bool> {
        let _ = (state, rng, returns);
        Ok(false)
    }

    /// How MCTS and ISMCTS value a new leaf when the caller names no rollout: the strongest
    /// choice for this game.
    const ROLLOUT: Rollout = Rollout::Random;

    /// The strongest player quanta has for this game, described for people.
    const BEST_PLAYER: &'static str;

    /// The best player's action at a decision, within `ctx`'s limits (its time per move
    /// among them), drawing whatever it draws from `rng`. In a game with hidden information
    /// it acts on what the player to act may know: its action depends only on that player's
    /// information state and `rng`. A limit makes it play its fallback, never an error.
    fn best_action(&self, state: &Self::State, rng: &mut Rng, ctx: &Context) -> Result<Action>;

    // ---- provided ----

    /// The solver's answer, checked: a finished game and a game without a solver are
    /// `NotApplicable`; a search stopped by a limit is an undecided answer (`value` None,
    /// `exact` false, the reason), never a number.
    fn answer(&self, state: &Self::State, ctx: &Context) -> Result<Answer> {
        if Self::SOLVER.is_none() {
            return Err(Error::NotApplicable(format!("{} has no solver", Self::NAME)));
        }
        if self.to_move(state) == ToMove::Terminal {
            return Err(Error::NotApplicable(
                "the game is over in this position: nothing to solve".into(),
            ));
        }
        match self.solve(state, ctx) {
            Err(e @ Error::SearchLimit { nodes, seconds, .. }) => {
                Ok(Answer::undecided(e.to_string(), nodes, seconds))
            }
            other => other,
        }
    }
}
