//! The greedy player, written once for every game: the action whose immediate result is best
//! for the player who takes it (its return right after the action, so a move that wins at once
//! comes first), ties broken uniformly at random by a seeded generator.

use crate::game::{Action, Game, Rng, ToMove};
use rand::Rng as _;

/// The greedy action of the player to act in `state`; `None` when nobody is to decide (a chance
/// node or a finished game). The result depends on `state` and `rng` alone.
pub fn greedy_action<G: Game>(game: &G, state: &G::State, rng: &mut Rng) -> Option<Action> {
    let ToMove::Player(player) = game.to_move(state) else {
        return None;
    };
    let mut actions = Vec::new();
    game.legal_actions(state, &mut actions);
    best_immediate(game, state, &actions, player as usize, rng)
}

/// Of `actions` (legal in `state`), the one whose return for `player` right after it is
/// highest, ties broken uniformly at random by `rng`; `None` when `actions` is empty.
pub fn best_immediate<G: Game>(
    game: &G,
    state: &G::State,
    actions: &[Action],
    player: usize,
    rng: &mut Rng,
) -> Option<Action> {
    let mut returns = vec![0.0; game.num_players()];
    let (mut best, mut best_value, mut ties) = (None, f64::NEG_INFINITY, 0u32);
    for &a in actions {
        let mut child = state.clone();
        game.apply(&mut child, a);
        game.returns(&child, &mut returns);
        let value = returns[player];
        if value > best_value {
            (best, best_value, ties) = (Some(a), value, 1);
        } else if value == best_value {
            // Reservoir sampling: each of the `ties` equal actions kept with chance 1/ties.
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                best = Some(a);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::einstein::Einstein;
    use crate::options::Options;
    use rand::SeedableRng;

    #[test]
    fn a_move_that_wins_at_once_is_always_taken() {
        // Player 0's stone 1 on d4 reaches e5 with a diagonal step after a roll of 1.
        let game = Einstein::from_options(&Options::default()).unwrap();
        let state = game
            .from_notation("...../...../...../...1./....a 0 1")
            .unwrap();
        let win = game.parse_action(&state, "d4e5").unwrap();
        for seed in 0..20 {
            let mut rng = Rng::seed_from_u64(seed);
            assert_eq!(greedy_action(&game, &state, &mut rng), Some(win));
        }
    }

    #[test]
    fn ties_are_broken_by_the_seed_alone() {
        let game = Einstein::from_options(&Options::default()).unwrap();
        let state = game
            .from_notation("1..../...../..2../...../....a 0 2")
            .unwrap();
        let pick = |seed| greedy_action(&game, &state, &mut Rng::seed_from_u64(seed));
        let picks: std::collections::HashSet<_> = (0..40).map(pick).collect();
        assert!(picks.len() > 1, "equal moves are all chosen for some seed");
        assert_eq!(pick(7), pick(7));
    }
}
