//! A solver's answer, in one shape for every game, and how a game describes its solver
//! ([`SolverInfo`], declared on the game's type through [`crate::knowledge::Knowledge`]).
//!
//! The algorithms stay in the games' own modules; a game's `Knowledge::solve` only reads
//! their results into an [`Answer`]. A search stopped by a limit is an *undecided* answer
//! (`value` None, `exact` false, the reason), never a number.

use crate::error::Result;
use crate::game::{Action, Game};

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
    pub fn undecided(reason: String, nodes: u64, seconds: f64) -> Self {
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

/// A game's solver, described: what generic code (the bindings' `quanta.solve`, jobs, the
/// command line, a tree search's leaves) needs to know of it besides its answers.
#[derive(Debug, Clone, Copy)]
pub struct SolverInfo {
    /// The game-specific function whose answer this is (for people: docs and reports).
    pub function: &'static str,
    /// What the value means.
    pub value: &'static str,
    /// Game options under which positions of the game can be solved (its solvable form, e.g.
    /// Quantum Leap's side 3), as `(name, JSON value)`: what `quanta analyze` exercises.
    pub options: &'static [(&'static str, &'static str)],
    /// A value at a decision as every player's return, `(value, mover, returns)`, where the
    /// value is a value of the game (a win probability, an expected return): what a tree
    /// search takes as a leaf's value ([`crate::bots::SearchSpec::solver_nodes`]). `None`
    /// where it is not (the points of one turn, the chance of filling a grid).
    pub returns: Option<fn(f64, usize, &mut [f64])>,
}

impl SolverInfo {
    /// The game options of the solver's solvable form ([`SolverInfo::options`]), as a game
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

/// [`SolverInfo::returns`] of a two-player game won (+1) or lost (-1) whose value is the
/// mover's probability of winning.
pub fn win_probability_returns(p: f64, mover: usize, returns: &mut [f64]) {
    expected_return_returns(2.0 * p - 1.0, mover, returns);
}

/// [`SolverInfo::returns`] of a two-player zero-sum game whose value is the mover's expected
/// return.
pub fn expected_return_returns(v: f64, mover: usize, returns: &mut [f64]) {
    for (player, r) in returns.iter_mut().enumerate() {
        *r = if player == mover { v } else { -v };
    }
}

/// [`SolverInfo::returns`] of a cooperative game won (+1 to everyone) or lost (-1) whose value
/// is the team's probability of winning.
pub fn team_win_probability_returns(p: f64, _mover: usize, returns: &mut [f64]) {
    returns.fill(2.0 * p - 1.0);
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

