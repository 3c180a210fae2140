//! Information-set Monte Carlo tree search (single observer, "SO-ISMCTS"): the search of
//! [`super::mcts`], each iteration on a determinisation of the root, a full state drawn with
//! [`crate::game::Game::resample`] from the states the acting seat cannot tell from the one it is given.
//!
//! The tree is keyed by actions from the root, so one node gathers every determinisation in
//! which the same actions were taken; a child's availability counts the visits of its parent
//! in which its action was legal, and UCB uses it in place of the parent's visits. The seat's
//! own legal actions at the root are the same in every determinisation.
//!
//! The choice depends only on what the acting seat knows (its information state), as long as
//! the game's `resample` draws from the information state alone (every registered game's
//! does: the test in `tests.rs` holds it to that). In a perfect-information game `resample`
//! returns the state itself and the search is the same as [`super::mcts::Mcts`]'s, seed for
//! seed.

use super::mcts::search;
use super::{Player, SearchSpec, not_a_decision};
use crate::error::Result;
use crate::game::{Action, Rng, ToMove};
use crate::knowledge::Knowledge;
use std::sync::atomic::AtomicBool;

/// Information-set MCTS for the player to act.
#[derive(Debug, Clone, PartialEq)]
pub struct Ismcts(pub SearchSpec);

impl<G: Knowledge> Player<G> for Ismcts {
    fn act(
        &self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        cancel: &AtomicBool,
    ) -> Result<Action> {
        let ToMove::Player(me) = game.to_move(state) else {
            return Err(not_a_decision(game, state));
        };
        search(game, state, &self.0, Some(me as usize), rng, cancel).map(|s| s.best)
    }
}

/// Information-set MCTS for the player to act within `ctx`'s limits (time, nodes, memory),
/// with the game's rollout ([`Knowledge::ROLLOUT`]); [`super::DEFAULT_ITERATIONS`] iterations
/// where `ctx` sets neither time nor nodes. What a game's best player runs where it knows
/// nothing better.
pub fn within<G: Knowledge>(
    game: &G,
    state: &G::State,
    rng: &mut Rng,
    ctx: &crate::search::Context,
) -> Result<Action> {
    let unlimited = ctx.limits.timeout.is_none() && ctx.limits.max_nodes.is_none();
    let spec = SearchSpec {
        iterations: unlimited.then_some(super::DEFAULT_ITERATIONS),
        limits: ctx.limits.clone(),
        ..SearchSpec::default_search()
    };
    Ismcts(spec).act(game, state, rng, ctx.cancel)
}

/// The game's solver's best action if it answers within half of `ctx`'s time (and its other
/// limits), else [`within`] the time left: the best player of a game whose solver decides
/// some positions quickly and others not at all.
pub fn solver_then_search<G: Knowledge>(
    game: &G,
    state: &G::State,
    rng: &mut Rng,
    ctx: &crate::search::Context,
) -> Result<Action> {
    use crate::search::{Context, Limits};
    let start = std::time::Instant::now();
    let half = Limits {
        timeout: ctx.limits.timeout.map(|t| t / 2),
        ..ctx.limits.clone()
    };
    match game.answer(state, &Context::new(half, ctx.threads, ctx.cancel)) {
        Ok(crate::solver::Answer { best: Some(a), .. }) => return Ok(a),
        Ok(_) | Err(crate::error::Error::NotApplicable(_)) => {}
        Err(e) => return Err(e),
    }
    // What the solver left of the time (at least a millisecond: the search runs one
    // iteration whatever its limit).
    let left = Limits {
        timeout: ctx.limits.timeout.map(|t| {
            t.saturating_sub(start.elapsed())
                .max(std::time::Duration::from_millis(1))
        }),
        ..ctx.limits.clone()
    };
    within(game, state, rng, &Context::new(left, ctx.threads, ctx.cancel))
}
