//! The random bot: a uniformly random legal action. It reads only the legal actions, which
//! the acting seat knows.

use super::{Player, not_a_decision};
use crate::error::Result;
use crate::game::{Action, Game, Rng, ToMove};
use rand::Rng as _;
use std::sync::atomic::AtomicBool;

/// A uniformly random legal action, drawn with the generator it is given.
#[derive(Debug, Clone, Copy, Default)]
pub struct Random;

impl<G: Game> Player<G> for Random {
    fn act(
        &self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        _cancel: &AtomicBool,
    ) -> Result<Action> {
        if !matches!(game.to_move(state), ToMove::Player(_)) {
            return Err(not_a_decision(game, state));
        }
        let mut actions = Vec::new();
        game.legal_actions(state, &mut actions);
        Ok(actions[rng.random_range(0..actions.len())])
    }
}
