//! Every game's solver behind one answer shape, registered next to its game
//! ([`crate::registry`]): what generic code (the bindings' `quanta.solve`, jobs, the command
//! line) calls without knowing the game.
//!
//! A game declares its solver once as a [`SolverEntry`]: a name, what its value means, the
//! game options under which it can be exercised, and a function from a state to an
//! [`Answer`]. The algorithms stay in the games' own modules; an entry only reads their
//! results into the shared shape. A search stopped by a limit is an *undecided* answer
//! (`value` None, `exact` false, the reason), never a number.

use crate::erased::{DynState, Position};
use crate::error::{Error, Result};
use crate::game::{Action, Game};
use crate::search::Context;

/// A solver's answer to one position, from the view of the player to act.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// `None` when undecided (a limit stopped the search: `reason` says which).
    pub value: Option<f64>,
    /// The best action in the position, where one action is best (not before a die roll).
    pub best: Option<Action>,
    /// The best line from the position as the game's action strings, space-separated: the
    /// action, a whole turn, or one move per roll (`1:d4e5 2:...`). Empty when undecided.
    pub line: String,
    /// False for an undecided answer and for an estimate (see `reason`).
    pub exact: bool,
    pub nodes: u64,
    pub seconds: f64,
    /// Why the answer is undecided or only an estimate.
    pub reason: Option<String>,
}

impl Answer {
    /// An exact answer.
    pub fn exact(value: f64, best: Option<Action>, line: String, nodes: u64, seconds: f64) -> Self {
        Answer {
            value: Some(value),
            best,
            line,
            exact: true,
            nodes,
            seconds,
            reason: None,
        }
    }

    /// The undecided answer of a search stopped by a limit.
    fn undecided(reason: String, nodes: u64, seconds: f64) -> Self {
        Answer {
            value: None,
            best: None,
            line: String::new(),
            exact: false,
            nodes,
            seconds,
            reason: Some(reason),
        }
    }
}

/// One game's solver, as the registry lists it.
#[derive(Debug)]
pub struct SolverEntry {
    /// The game's registered name.
    pub game: &'static str,
    /// The game-specific function whose answer this is (for people: docs and reports).
    pub function: &'static str,
    /// What the value means.
    pub value: &'static str,
    /// Game options under which positions of the game can be solved (its solvable form, e.g.
    /// Quantum Leap's side 3), as `(name, JSON value)`: what `quanta analyze` exercises.
    pub options: &'static [(&'static str, &'static str)],
    /// The answer for a decision (or, where the solver takes them, a chance node before a die
    /// roll). `Error::SearchLimit` is turned into an undecided answer by [`solve`].
    pub solve: fn(&dyn DynState, &Context) -> Result<Answer>,
    /// A value at a decision as every player's return, `(value, mover, returns)`, where the
    /// value is a value of the game (a win probability, an expected return): what a tree
    /// search takes as a leaf's value ([`crate::bots::SearchSpec::solver_nodes`]). `None`
    /// where it is not (the points of one turn, the chance of filling a grid).
    pub returns: Option<fn(f64, usize, &mut [f64])>,
}

impl SolverEntry {
    /// The game options of the solver's solvable form ([`SolverEntry::options`]), as a game
    /// takes them.
    pub fn solvable_options(&self) -> crate::options::Options {
        use crate::options::OptionValue;
        self.options
            .iter()
            .map(|&(name, json)| {
                let value = match json {
                    "true" | "false" => OptionValue::Bool(json == "true"),
                    _ => json
                        .parse()
                        .map(OptionValue::Int)
                        .unwrap_or_else(|_| OptionValue::Str(json.trim_matches('"').into())),
                };
                (name.to_string(), value)
            })
            .collect()
    }
}

/// [`SolverEntry::returns`] of a two-player game won (+1) or lost (-1) whose value is the
/// mover's probability of winning.
pub fn win_probability_returns(p: f64, mover: usize, returns: &mut [f64]) {
    expected_return_returns(2.0 * p - 1.0, mover, returns);
}

/// [`SolverEntry::returns`] of a two-player zero-sum game whose value is the mover's expected
/// return.
pub fn expected_return_returns(v: f64, mover: usize, returns: &mut [f64]) {
    for (player, r) in returns.iter_mut().enumerate() {
        *r = if player == mover { v } else { -v };
    }
}

/// [`SolverEntry::returns`] of a cooperative game won (+1 to everyone) or lost (-1) whose value
/// is the team's probability of winning.
pub fn team_win_probability_returns(p: f64, _mover: usize, returns: &mut [f64]) {
    returns.fill(2.0 * p - 1.0);
}

/// The answer of `state`'s game's solver (`entry`) within `ctx`'s limits: a search stopped by
/// a limit is undecided; a finished game, a state the solver does not take and bad input are
/// errors.
pub fn solve(entry: &SolverEntry, state: &dyn DynState, ctx: &Context) -> Result<Answer> {
    if state.to_move() == crate::game::ToMove::Terminal {
        return Err(Error::NotApplicable(
            "the game is over in this position: nothing to solve".into(),
        ));
    }
    match (entry.solve)(state, ctx) {
        Err(e @ Error::SearchLimit { nodes, seconds, .. }) => {
            Ok(Answer::undecided(e.to_string(), nodes, seconds))
        }
        other => other,
    }
}

/// The state of game `G` behind `state`, or the error naming the solver that needs it.
pub fn position<'s, G: Game + std::fmt::Debug>(
    state: &'s dyn DynState,
    solver: &str,
) -> Result<&'s Position<G>> {
    state.as_any().downcast_ref::<Position<G>>().ok_or_else(|| {
        Error::NotApplicable(format!(
            "{solver} needs a state of the game {}, not of {}",
            G::NAME,
            state.game().name()
        ))
    })
}

/// The actions of a line from `state` as its game's strings, space-separated.
pub fn line_text<G: Game>(game: &G, state: &G::State, line: &[Action]) -> Result<String> {
    let mut s = state.clone();
    let mut words = Vec::with_capacity(line.len());
    for &a in line {
        words.push(game.action_to_string(&s, a)?);
        game.apply(&mut s, a);
    }
    Ok(words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Rng, ToMove};
    use crate::registry;
    use crate::search::Limits;
    use rand::{Rng as _, SeedableRng};
    use std::sync::atomic::AtomicBool;

    fn solvable_game(entry: &SolverEntry) -> std::sync::Arc<dyn crate::erased::DynGame> {
        registry::make_game(entry.game, &entry.solvable_options()).unwrap()
    }

    /// Every registered solver, on every decision of a random game of its solvable form with no
    /// node to spend: an undecided answer carries no number; a finished game is refused.
    #[test]
    fn every_registered_solver_answers_undecided_without_a_number_or_refuses() {
        let cancel = AtomicBool::new(false);
        let none = Limits {
            max_nodes: Some(0),
            ..Limits::default()
        };
        for entry in registry::solvers() {
            assert!(registry::game_names().contains(&entry.game));
            let game = solvable_game(entry);
            let mut rng = Rng::seed_from_u64(7);
            let mut state = game.new_state();
            let mut answered = 0;
            while state.to_move() != ToMove::Terminal {
                let actions = state.legal_actions();
                if let ToMove::Player(_) = state.to_move() {
                    match solve(
                        entry,
                        &*state,
                        &Context::new(none.clone(), Some(1), &cancel),
                    ) {
                        Ok(a) if a.value.is_none() => {
                            assert!(!a.exact && a.best.is_none() && a.line.is_empty());
                            assert!(a.reason.as_deref().unwrap().contains("limit"));
                            answered += 1;
                        }
                        Ok(a) => {
                            assert!(a.nodes <= 64, "{}: decided past its limit", entry.game);
                            answered += 1;
                        }
                        Err(Error::NotApplicable(_)) => {}
                        Err(e) => panic!("{}: {e}", entry.game),
                    }
                }
                state = state
                    .play(actions[rng.random_range(0..actions.len())])
                    .unwrap();
            }
            assert!(answered > 0, "{} answered no decision", entry.game);
            let over = solve(entry, &*state, &Context::new(none.clone(), None, &cancel));
            assert!(
                matches!(over, Err(Error::NotApplicable(_))),
                "{}",
                entry.game
            );
        }
    }

    #[test]
    fn a_game_without_a_solver_is_named_as_such() {
        for name in registry::game_names() {
            let has = registry::solvers().iter().any(|s| s.game == name);
            match registry::solver(name) {
                Ok(entry) => assert!(has && entry.game == name),
                Err(Error::NotApplicable(m)) => assert!(!has && m.contains("has no solver")),
                Err(e) => panic!("{e}"),
            }
        }
    }
}
