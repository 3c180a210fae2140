//! Bots for every game, written once against [`Game`], and an arena that plays them against
//! each other ([`arena`]).
//!
//! A bot is described by a [`BotSpec`], checked once when it is made, and acts through the
//! [`Bot`] trait at a decision of any game:
//!
//! - [`BotSpec::Random`]: a uniformly random legal action ([`random`]).
//! - [`BotSpec::Greedy`]: the action whose return right after it is best for the player who
//!   takes it, ties broken by the seed ([`crate::greedy`]).
//! - [`BotSpec::Mcts`]: UCT Monte Carlo tree search on the state it is given ([`mcts`]). It
//!   reads the whole state, hidden cards included: it is the perfect-information bot (in a game
//!   with hidden information it cheats).
//! - [`BotSpec::Ismcts`]: information-set MCTS ([`ismcts`]): the same search, each iteration on
//!   a state drawn with [`Game::resample`] from those the acting seat cannot tell apart, so that
//!   its choice depends only on what that seat knows. In a perfect-information game it is the
//!   same as `Mcts`.
//! - [`BotSpec::Solver`]: the game's registered solver's best action ([`solver_bot`]), the
//!   greedy action where the solver gives none.
//!
//! Every bot's action depends only on the state, the spec and the seed (its generator), with
//! one exception: a search stopped by `time` stops after however many iterations the machine
//! managed, so its action may differ from run to run. The bots never look at the clock
//! otherwise. What each bot may see: `Random`, `Greedy` and `Ismcts` see only what the acting
//! seat may see (checked for every game with hidden information in `tests.rs`; `Greedy` reads
//! the returns right after each of its actions, which in the registered games depend only on
//! what the seat knows); `Mcts` and `Solver` see the whole state.

pub mod arena;
pub mod ismcts;
pub mod mcts;
pub mod random;
pub mod solver_bot;
#[cfg(test)]
mod tests;

pub use arena::{ArenaResult, arena};

use crate::error::{Error, Result, quoted};
use crate::game::{Action, Game, Rng, ToMove};
use crate::search::{Limits, Request};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A player of any game: the action for the player to act at a decision.
pub trait Bot<G: Game> {
    /// The action of the player to act in `state`, which must be a decision (not a chance node
    /// nor a finished game), drawing whatever it draws from `rng`. Stops with `Interrupted`
    /// once `cancel` is set.
    fn act(&self, game: &G, state: &G::State, rng: &mut Rng, cancel: &AtomicBool)
    -> Result<Action>;
}

/// How a tree search values a new leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random legal moves (chance by its odds) to the end of the game.
    Random,
    /// The greedy player's moves ([`crate::greedy::greedy_action`]: the best immediate return,
    /// ties by the search's generator) to the end of the game: slower than random moves, but a
    /// leaf of a scoring game is valued by play that scores. The search is guided by the same
    /// player in the tree too: it widens progressively, in the greedy order (see
    /// [`mcts`]'s docs), so that with many actions and few iterations it refines the greedy
    /// choice instead of spreading one visit over each action.
    Greedy,
}

impl Rollout {
    /// The rollouts by name, as a caller gives them.
    pub const NAMES: &'static [&'static str] = &["random", "greedy"];

    pub fn name(self) -> &'static str {
        match self {
            Rollout::Random => "random",
            Rollout::Greedy => "greedy",
        }
    }
}

/// The parameters of a tree search ([`BotSpec::Mcts`], [`BotSpec::Ismcts`]), checked.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchSpec {
    /// Iterations (each one a descent, a new leaf, a rollout and the update of the path);
    /// `None` for as many as `time` allows.
    pub iterations: Option<u64>,
    /// Seconds to search; `None` for no time limit. With both, the search stops at the first
    /// limit reached; it always runs at least one iteration.
    pub time: Option<Duration>,
    /// UCT's exploration constant `c` in `mean + c * sqrt(ln(available) / visits)`, the means
    /// scaled to [0, 1] by the lowest and highest returns the search has seen.
    pub exploration: f64,
    pub rollout: Rollout,
    /// Memory for the tree: a search whose tree reaches it stops there, as at its last
    /// iteration (so that a long `time` cannot exhaust the machine).
    pub memory_mb: usize,
    /// Nodes the game's registered solver may spend on a new leaf that is a decision: where it
    /// answers within them, its value (as every player's return,
    /// [`crate::solver::SolverEntry::returns`]) replaces the rollout; where it does not, the
    /// rollout values the leaf. `None`: rollouts only.
    pub solver_nodes: Option<u64>,
}

/// The memory a leaf's solve may take for its tables, in megabytes: small, since a leaf's
/// search is cut at [`SearchSpec::solver_nodes`] nodes.
pub const LEAF_SOLVER_MEMORY_MB: usize = 16;

/// The exploration constant when none is given: sqrt(2), UCB1's.
pub const DEFAULT_EXPLORATION: f64 = std::f64::consts::SQRT_2;

/// The tree's memory when none is given, in megabytes (as a solver's tables).
pub const DEFAULT_MEMORY_MB: usize = 1024;

impl SearchSpec {
    /// Checks a tree search's parameters as the caller gave them (integers wide enough to hold
    /// any bad value) and names the first that is wrong. `exploration` defaults to
    /// [`DEFAULT_EXPLORATION`], `rollout` to "random", `memory_mb` to [`DEFAULT_MEMORY_MB`],
    /// `solver_nodes` to none (rollouts only).
    pub fn checked(
        iterations: Option<i128>,
        time: Option<f64>,
        exploration: Option<f64>,
        rollout: Option<&str>,
        memory_mb: Option<i128>,
        solver_nodes: Option<i128>,
    ) -> Result<SearchSpec> {
        let bad = |what: &str, expected: &str, given: String| {
            Error::InvalidOption(format!("{what} must be {expected}, not {given}"))
        };
        // A count of at least one, or None (`or_none` says what None means).
        let positive = |what: &str, n: Option<i128>, or_none: &str| match n {
            Some(n) if (1..=u64::MAX as i128).contains(&n) => Ok(Some(n as u64)),
            Some(n) => Err(bad(
                what,
                &format!("a positive integer (at most 2**64 - 1), or None{or_none}"),
                n.to_string(),
            )),
            None => Ok(None),
        };
        let iterations = positive("iterations", iterations, "")?;
        let time = match time {
            Some(t) if t > 0.0 && t.is_finite() => {
                // A time too long for a Duration (centuries) is no limit at all.
                Duration::try_from_secs_f64(t).ok()
            }
            Some(t) => {
                return Err(bad(
                    "time",
                    "a positive number of seconds, or None",
                    t.to_string(),
                ));
            }
            None => None,
        };
        if iterations.is_none() && time.is_none() {
            return Err(Error::InvalidOption(
                "a tree search needs iterations or time (or both: it stops at the first \
                 reached), not neither"
                    .into(),
            ));
        }
        let exploration = match exploration {
            None => DEFAULT_EXPLORATION,
            Some(c) if c >= 0.0 && c.is_finite() => c,
            Some(c) => {
                return Err(bad("exploration", "a finite number >= 0", c.to_string()));
            }
        };
        let rollout = match rollout {
            None | Some("random") => Rollout::Random,
            Some("greedy") => Rollout::Greedy,
            Some(other) => {
                return Err(bad(
                    "rollout",
                    &format!("one of {:?}", Rollout::NAMES),
                    quoted(other),
                ));
            }
        };
        let memory_mb = match memory_mb {
            None => DEFAULT_MEMORY_MB,
            Some(m) if (1..=crate::search::MAX_MEMORY_MB).contains(&m) => m as usize,
            Some(m) => return Err(crate::search::bad_argument("memory_mb", &m.to_string())),
        };
        let solver_nodes = positive("solver_nodes", solver_nodes, " for rollouts only")?;
        Ok(SearchSpec {
            iterations,
            time,
            exploration,
            rollout,
            memory_mb,
            solver_nodes,
        })
    }

    /// A search of `iterations` iterations with the default exploration and random rollouts.
    pub fn iterations(iterations: u64) -> Result<SearchSpec> {
        Self::checked(Some(iterations as i128), None, None, None, None, None)
    }
}

/// A bot, checked once: what [`Bot::act`], [`crate::erased::DynState::bot_action`] and the
/// arena take.
#[derive(Debug, Clone)]
pub enum BotSpec {
    Random,
    Greedy,
    Mcts(SearchSpec),
    Ismcts(SearchSpec),
    /// The registered solver within these limits ([`solver_bot`]).
    Solver(Limits),
}

impl BotSpec {
    /// The kinds of bot by name, as a caller gives them.
    pub const KINDS: &'static [&'static str] = &["random", "greedy", "mcts", "ismcts", "solver"];

    pub fn kind(&self) -> &'static str {
        match self {
            BotSpec::Random => "random",
            BotSpec::Greedy => "greedy",
            BotSpec::Mcts(_) => "mcts",
            BotSpec::Ismcts(_) => "ismcts",
            BotSpec::Solver(_) => "solver",
        }
    }

    /// A solver bot with a solver call's limits, checked as every solver call checks them
    /// ([`Request::checked`]).
    pub fn solver(timeout: Option<f64>, max_nodes: Option<i128>, memory_mb: i128) -> Result<Self> {
        Ok(BotSpec::Solver(
            Request::checked(timeout, max_nodes, memory_mb, None)?.limits,
        ))
    }

    /// Whether the bot's action may depend on the clock (a search stopped by `time`).
    pub fn timed(&self) -> bool {
        match self {
            BotSpec::Mcts(s) | BotSpec::Ismcts(s) => s.time.is_some(),
            BotSpec::Solver(l) => l.timeout.is_some(),
            BotSpec::Random | BotSpec::Greedy => false,
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Mcts(s) | BotSpec::Ismcts(s) => {
                write!(f, "{}(", self.kind())?;
                if let Some(n) = s.iterations {
                    write!(f, "iterations={n}, ")?;
                }
                if let Some(t) = s.time {
                    write!(f, "time={}, ", t.as_secs_f64())?;
                }
                write!(
                    f,
                    "exploration={}, rollout={})",
                    s.exploration,
                    s.rollout.name()
                )
            }
            _ => f.write_str(self.kind()),
        }
    }
}

/// The error for a bot asked to act where nobody decides.
pub(crate) fn not_a_decision<G: Game>(game: &G, state: &G::State) -> Error {
    let what = match game.to_move(state) {
        ToMove::Terminal => "the game is over",
        _ => "this is a chance node",
    };
    Error::NotApplicable(format!(
        "a bot acts only at a decision: {what} in {}",
        quoted(&game.notation(state))
    ))
}

impl<G: Game + fmt::Debug> Bot<G> for BotSpec {
    fn act(
        &self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        cancel: &AtomicBool,
    ) -> Result<Action> {
        if !matches!(game.to_move(state), ToMove::Player(_)) {
            return Err(not_a_decision(game, state));
        }
        match self {
            BotSpec::Random => random::Random.act(game, state, rng, cancel),
            BotSpec::Greedy => crate::greedy::greedy_action(game, state, rng)
                .ok_or_else(|| not_a_decision(game, state)),
            BotSpec::Mcts(spec) => mcts::Mcts(spec.clone()).act(game, state, rng, cancel),
            BotSpec::Ismcts(spec) => ismcts::Ismcts(spec.clone()).act(game, state, rng, cancel),
            BotSpec::Solver(limits) => {
                solver_bot::SolverBot(limits.clone()).act(game, state, rng, cancel)
            }
        }
    }
}
