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
//!   reads the whole state, hidden cards included: it is the perfect-information bot.
//! - [`BotSpec::Ismcts`]: information-set MCTS ([`ismcts`]): the same search, each iteration on
//!   a state drawn with [`Game::resample`] from those the acting seat cannot tell apart, so that
//!   its choice depends only on what that seat knows. In a perfect-information game it is the
//!   same as `Mcts`.
//! - [`BotSpec::Solver`]: the game's solver's best action ([`solver_bot`]), the greedy action
//!   where the solver gives none.
//! - [`BotSpec::Best`]: the strongest player the game declares
//!   ([`crate::knowledge::Knowledge::best_action`]).
//!
//! The searches take the game's knowledge through its type ([`Knowledge`]): its solver, its
//! evaluator and the rollout it declares as the default.
//!
//! **What a bot may see, and its generator.** A [`Bot`] is a spec and a seed. `Random`,
//! `Greedy`, `Ismcts` and `Best` are *blind*: they act only on what the acting seat may see,
//! and each action draws from a generator seeded by the bot's seed and the acting player's
//! information state ([`Bot::choose`]), never the whole state, so that two states the seat
//! cannot tell apart get the same action from every surface (checked for every game with
//! hidden information in `tests.rs` and from Python). `Mcts` and `Solver` see the whole state
//! (in a game with hidden information they cheat), and their generator is seeded by the whole
//! state. A bot's action depends only on the state, the spec and the seed, with one
//! exception: a search stopped by its `timeout` stops after however much work the machine
//! managed, so its action may differ from run to run ([`BotSpec::timed`]).

pub mod arena;
pub mod ismcts;
pub mod mcts;
pub mod random;
pub mod solver_bot;
#[cfg(test)]
mod tests;

pub use crate::knowledge::Rollout;
pub use arena::{ArenaResult, arena};

use crate::error::{Error, Result, quoted};
use crate::game::{Action, Game, Rng, ToMove, splitmix64};
use crate::knowledge::Knowledge;
use crate::search::{Context, Limits, Request};
use rand::SeedableRng;
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::AtomicBool;

/// A player of any game: the action for the player to act at a decision.
pub trait Player<G: Game> {
    /// The action of the player to act in `state`, which must be a decision (not a chance node
    /// nor a finished game), drawing whatever it draws from `rng`. Stops with `Interrupted`
    /// once `cancel` is set.
    fn act(&self, game: &G, state: &G::State, rng: &mut Rng, cancel: &AtomicBool)
    -> Result<Action>;
}

/// The parameters of a tree search ([`BotSpec::Mcts`], [`BotSpec::Ismcts`]), checked.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchSpec {
    /// Iterations (each one a descent, a new leaf, its value and the update of the path);
    /// `None` for as many as the limits allow.
    pub iterations: Option<u64>,
    /// The search's limits, as a solver's: `timeout` (seconds), `max_nodes` (nodes of the
    /// tree) and `memory_mb` (the tree's memory). The search stops at the first limit or the
    /// last iteration reached, after one iteration at least, and answers with what it found.
    pub limits: Limits,
    /// UCT's exploration constant `c` in `mean + c * sqrt(ln(available) / visits)`, the means
    /// scaled to [0, 1] by the lowest and highest returns the search has seen.
    pub exploration: f64,
    /// How a new leaf is valued; `None`: the rollout the game declares
    /// ([`Knowledge::ROLLOUT`]).
    pub rollout: Option<Rollout>,
    /// Nodes the game's solver may spend on a new leaf that is a decision: where it answers
    /// within them, its value (as every player's return,
    /// [`crate::solver::SolverInfo::returns`]) replaces the rollout; where it does not, the
    /// rollout values the leaf. `None`: no solver at the leaves.
    pub solver_nodes: Option<u64>,
}

/// The memory a leaf's solve may take for its tables, in megabytes: small, since a leaf's
/// search is cut at [`SearchSpec::solver_nodes`] nodes.
pub const LEAF_SOLVER_MEMORY_MB: usize = 16;

/// The exploration constant when none is given: sqrt(2), UCB1's.
pub const DEFAULT_EXPLORATION: f64 = std::f64::consts::SQRT_2;

/// The iterations of a tree search given no iterations and no time limit.
pub const DEFAULT_ITERATIONS: u64 = 1000;

/// The time per move of the best player given none, in seconds.
pub const DEFAULT_BEST_TIMEOUT: f64 = 1.0;

/// A parameter's value as the caller gave it: what [`BotSpec::make`] checks.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// An integer, wide enough to hold any bad value.
    Int(i128),
    Number(f64),
    Text(String),
    /// Given as nothing (Python's None): the parameter's default, except for a limit whose
    /// default is a number (the best player's `timeout`), where it means no limit.
    Nothing,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Number(x) => write!(f, "{x}"),
            Value::Text(t) => f.write_str(&quoted(t)),
            Value::Nothing => f.write_str("None"),
        }
    }
}

/// One parameter of a kind of bot: its name and what it must be, in the user's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parameter {
    pub name: &'static str,
    pub expected: &'static str,
}

const fn parameter(name: &'static str, expected: &'static str) -> Parameter {
    Parameter { name, expected }
}

/// The limits every search and solver takes by name ([`Limits`], checked by
/// [`Request::checked`]).
const TIMEOUT: Parameter = parameter("timeout", "a number of seconds >= 0, or None for no time limit");
const MAX_NODES: Parameter = parameter("max_nodes", "an integer >= 0, or None for no node limit");
const MEMORY_MB: Parameter = parameter("memory_mb", "an integer number of megabytes from 1 to 16777216");

/// The parameters of a tree search, each declared once.
const SEARCH: &[Parameter] = &[
    parameter("iterations", "a positive integer (at most 2**64 - 1), or None"),
    TIMEOUT,
    MAX_NODES,
    MEMORY_MB,
    parameter("exploration", "a finite number >= 0"),
    parameter("rollout", "one of \"random\", \"greedy\", \"evaluator\", or None for the game's"),
    parameter("solver_nodes", "a positive integer (at most 2**64 - 1), or None for no solver at the leaves"),
];

/// The parameters of the solver bot and of the best player: a solver's limits.
const LIMITS: &[Parameter] = &[TIMEOUT, MAX_NODES, MEMORY_MB];

/// The word that the time limit had before `timeout`, still taken (with a warning from the
/// bindings) as the same parameter.
pub const OLD_TIME_WORD: &str = "time";

impl SearchSpec {
    /// A search with every default: the game's rollout, [`DEFAULT_ITERATIONS`] iterations.
    pub fn default_search() -> SearchSpec {
        SearchSpec {
            iterations: Some(DEFAULT_ITERATIONS),
            limits: Limits::default(),
            exploration: DEFAULT_EXPLORATION,
            rollout: None,
            solver_nodes: None,
        }
    }

    /// A search of `iterations` iterations with the default exploration and random rollouts.
    pub fn iterations(iterations: u64) -> SearchSpec {
        SearchSpec {
            iterations: Some(iterations),
            rollout: Some(Rollout::Random),
            ..Self::default_search()
        }
    }
}

/// A kind of bot, checked once: what [`Bot`] plays.
#[derive(Debug, Clone, PartialEq)]
pub enum BotSpec {
    Random,
    Greedy,
    Mcts(SearchSpec),
    Ismcts(SearchSpec),
    /// The game's solver within these limits ([`solver_bot`]).
    Solver(Limits),
    /// The game's best player within these limits ([`Knowledge::best_action`]).
    Best(Limits),
}

impl BotSpec {
    /// The kinds of bot by name, as a caller gives them.
    pub const KINDS: &'static [&'static str] =
        &["random", "greedy", "mcts", "ismcts", "solver", "best"];

    pub fn kind(&self) -> &'static str {
        match self {
            BotSpec::Random => "random",
            BotSpec::Greedy => "greedy",
            BotSpec::Mcts(_) => "mcts",
            BotSpec::Ismcts(_) => "ismcts",
            BotSpec::Solver(_) => "solver",
            BotSpec::Best(_) => "best",
        }
    }

    /// The parameters a kind of bot takes (besides its seed), each declared here once.
    pub fn parameters(kind: &str) -> &'static [Parameter] {
        match kind {
            "mcts" | "ismcts" => SEARCH,
            "solver" | "best" => LIMITS,
            _ => &[],
        }
    }

    /// The bot of `kind` with `params` by name, checked once; the first wrong name or value is
    /// named with what was expected. A parameter left out takes its default.
    pub fn make(kind: &str, params: &[(String, Value)]) -> Result<BotSpec> {
        if !Self::KINDS.contains(&kind) {
            return Err(Error::InvalidOption(format!(
                "kind must be one of {:?}, not {}",
                Self::KINDS,
                quoted(kind)
            )));
        }
        let allowed = Self::parameters(kind);
        for (name, _) in params {
            if !allowed.iter().any(|p| p.name == name) {
                let names: Vec<&str> = allowed.iter().map(|p| p.name).collect();
                return Err(Error::InvalidOption(format!(
                    "a {kind} bot takes {}, not {}",
                    if names.is_empty() {
                        "no parameter but seed".to_string()
                    } else {
                        format!("the parameters {names:?} and seed")
                    },
                    quoted(name)
                )));
            }
        }
        // A parameter given as nothing takes its default (a limit's default aside, below).
        let given = |name: &str| {
            params
                .iter()
                .find(|(n, v)| n == name && *v != Value::Nothing)
                .map(|(_, v)| v)
        };
        let unset = |name: &str| params.iter().any(|(n, v)| n == name && *v == Value::Nothing);
        let bad = |name: &str, v: &Value| {
            let p = allowed.iter().find(|p| p.name == name).expect("a declared parameter");
            Error::InvalidOption(format!("{name} must be {}, not {v}", p.expected))
        };
        let integer = |name: &str| match given(name) {
            None => Ok(None),
            Some(Value::Int(n)) => Ok(Some(*n)),
            Some(v) => Err(bad(name, v)),
        };
        let number = |name: &str| match given(name) {
            None => Ok(None),
            Some(Value::Int(n)) => Ok(Some(*n as f64)),
            Some(Value::Number(x)) => Ok(Some(*x)),
            Some(v) => Err(bad(name, v)),
        };
        let limits = |default_timeout: Option<f64>| -> Result<Limits> {
            let memory = integer("memory_mb")?.unwrap_or(Limits::default().memory_mb as i128);
            let default_timeout = if unset("timeout") { None } else { default_timeout };
            Ok(Request::checked(
                number("timeout")?.or(default_timeout),
                integer("max_nodes")?,
                memory,
                None,
            )?
            .limits)
        };
        let positive = |name: &str| match given(name) {
            None => Ok(None),
            Some(Value::Int(n)) if (1..=u64::MAX as i128).contains(n) => Ok(Some(*n as u64)),
            Some(v) => Err(bad(name, v)),
        };
        Ok(match kind {
            "random" => BotSpec::Random,
            "greedy" => BotSpec::Greedy,
            "solver" => BotSpec::Solver(limits(None)?),
            "best" => BotSpec::Best(limits(Some(DEFAULT_BEST_TIMEOUT))?),
            _ => {
                let mut search = SearchSpec {
                    iterations: positive("iterations")?,
                    limits: limits(None)?,
                    ..SearchSpec::default_search()
                };
                if search.iterations.is_none()
                    && search.limits.timeout.is_none()
                    && search.limits.max_nodes.is_none()
                {
                    if let Some(t) = number("timeout")? {
                        // A timeout too long to count (centuries) would be no limit at all:
                        // the search would never stop, rather than take the default.
                        return Err(Error::InvalidOption(format!(
                            "timeout must be a number of seconds up to {:e} for a {kind} bot \
                             stopped by the clock alone, not {t:e}: give iterations or \
                             max_nodes for a search the clock does not stop",
                            std::time::Duration::MAX.as_secs_f64()
                        )));
                    }
                    search.iterations = Some(DEFAULT_ITERATIONS);
                }
                if let Some(c) = number("exploration")? {
                    if !(c >= 0.0 && c.is_finite()) {
                        return Err(bad("exploration", given("exploration").expect("given")));
                    }
                    search.exploration = c;
                }
                search.rollout = match given("rollout") {
                    None => None,
                    Some(v @ Value::Text(t)) => {
                        Some(Rollout::from_name(t).ok_or_else(|| bad("rollout", v))?)
                    }
                    Some(v) => return Err(bad("rollout", v)),
                };
                search.solver_nodes = positive("solver_nodes")?;
                if kind == "mcts" {
                    BotSpec::Mcts(search)
                } else {
                    BotSpec::Ismcts(search)
                }
            }
        })
    }

    /// Every parameter's value (defaults filled in; `None` where it is unset), in the order
    /// of [`BotSpec::parameters`]: what a caller gives back to [`BotSpec::make`].
    pub fn params(&self) -> Vec<(&'static str, Option<Value>)> {
        let limits = |l: &Limits| {
            vec![
                ("timeout", l.timeout.map(|t| Value::Number(t.as_secs_f64()))),
                ("max_nodes", l.max_nodes.map(|n| Value::Int(n as i128))),
                ("memory_mb", Some(Value::Int(l.memory_mb as i128))),
            ]
        };
        match self {
            BotSpec::Random | BotSpec::Greedy => Vec::new(),
            BotSpec::Solver(l) | BotSpec::Best(l) => limits(l),
            BotSpec::Mcts(s) | BotSpec::Ismcts(s) => {
                let mut out = vec![("iterations", s.iterations.map(|n| Value::Int(n as i128)))];
                out.extend(limits(&s.limits));
                out.push(("exploration", Some(Value::Number(s.exploration))));
                out.push(("rollout", s.rollout.map(|r| Value::Text(r.name().into()))));
                out.push(("solver_nodes", s.solver_nodes.map(|n| Value::Int(n as i128))));
                out
            }
        }
    }

    /// The parameters whose values differ from a bot of the same kind made with none (`None`
    /// where the default is a value and this bot has none): what a short description shows.
    pub fn changed_params(&self) -> Vec<(&'static str, Option<Value>)> {
        let plain = Self::make(self.kind(), &[]).expect("every kind takes no parameters");
        let defaults = plain.params();
        self.params()
            .into_iter()
            .zip(defaults)
            .filter(|((_, v), (_, d))| v != d)
            .map(|((name, v), _)| (name, v))
            .collect()
    }

    /// Whether the bot's action may depend on the clock (a search stopped by its timeout).
    pub fn timed(&self) -> bool {
        match self {
            BotSpec::Mcts(s) | BotSpec::Ismcts(s) => s.limits.timeout.is_some(),
            BotSpec::Solver(l) | BotSpec::Best(l) => l.timeout.is_some(),
            BotSpec::Random | BotSpec::Greedy => false,
        }
    }

    /// Whether the bot acts only on what the acting seat may see.
    pub fn blind(&self) -> bool {
        !matches!(self, BotSpec::Mcts(_) | BotSpec::Solver(_))
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.kind())?;
        let params: Vec<String> = self
            .changed_params()
            .iter()
            .map(|(name, v)| format!("{name}={}", v.as_ref().unwrap_or(&Value::Nothing)))
            .collect();
        write!(f, "{})", params.join(", "))
    }
}

/// A bot: a kind, checked once, and a seed. What the bindings' `quanta.Bot` and the arena hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Bot {
    pub spec: BotSpec,
    pub seed: u64,
}

impl Bot {
    /// The bot's action in `state`, a decision of `game`, with a generator seeded by the bot's
    /// seed and what the bot may see: the acting player's information state for a blind bot,
    /// the whole state for one that sees everything. So a blind bot gives the same action in
    /// every state its seat cannot tell apart, whoever asks (the bindings, the arena, an
    /// adapter).
    pub fn choose<G: Knowledge>(&self, game: &G, state: &G::State, cancel: &AtomicBool) -> Result<Action> {
        let ToMove::Player(p) = game.to_move(state) else {
            return Err(not_a_decision(game, state));
        };
        let mut h = DefaultHasher::new();
        G::NAME.hash(&mut h);
        if self.spec.blind() {
            game.information_state_string(state, p as usize).hash(&mut h);
        } else {
            state.hash(&mut h);
        }
        let mut rng = Rng::seed_from_u64(splitmix64(self.seed ^ splitmix64(h.finish())));
        self.spec.act(game, state, &mut rng, cancel)
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

impl<G: Knowledge> Player<G> for BotSpec {
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
            BotSpec::Best(limits) => {
                game.best_action(state, rng, &Context::new(limits.clone(), Some(1), cancel))
            }
        }
    }
}
