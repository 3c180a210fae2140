//! `quanta.bots` and `quanta.arena`: the core's bots (`quanta_core::bots`) as one Python class,
//! `Bot`, made from a kind and its parameters (checked once, by the core), and the arena.

use crate::detach::run_detached;
use crate::errors::{self, InvalidOptionError, to_py};
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use quanta_core::Action;
use quanta_core::bots::{BotSpec, DEFAULT_EXPLORATION, DEFAULT_MEMORY_MB, SearchSpec};
use quanta_core::error::quoted;

/// The parameters each kind of bot takes, by name (besides `seed`).
fn parameters(kind: &str) -> &'static [&'static str] {
    match kind {
        "mcts" | "ismcts" => &[
            "iterations",
            "time",
            "exploration",
            "rollout",
            "memory_mb",
            "solver_nodes",
        ],
        "solver" => &["timeout", "max_nodes", "memory_mb"],
        _ => &[],
    }
}

/// The spec of a bot of `kind` with `params`, checked once by the core.
fn spec(kind: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<BotSpec> {
    if !BotSpec::KINDS.contains(&kind) {
        return Err(InvalidOptionError::new_err(format!(
            "kind must be one of {:?}, not {}",
            BotSpec::KINDS,
            quoted(kind)
        )));
    }
    let allowed = parameters(kind);
    let mut given: Vec<(String, Bound<'_, PyAny>)> = Vec::new();
    if let Some(params) = params {
        for (name, value) in params.iter() {
            let name: String = name.extract()?;
            if !allowed.contains(&name.as_str()) {
                return Err(InvalidOptionError::new_err(format!(
                    "a {kind} bot takes {}, not {}",
                    if allowed.is_empty() {
                        "no parameter but seed".to_string()
                    } else {
                        format!("the parameters {allowed:?} and seed")
                    },
                    quoted(&name)
                )));
            }
            given.push((name, value));
        }
    }
    let get = |name: &str| -> Option<Bound<'_, PyAny>> {
        given
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_none())
    };
    // A value of the wrong type is refused with the same words as the core's checks use for
    // a bad value of the right type (`SearchSpec::checked`, `Request::checked`).
    let expected = |name: &str| match name {
        "iterations" => Some("a positive integer (at most 2**64 - 1), or None"),
        "time" => Some("a positive number of seconds, or None"),
        "exploration" => Some("a finite number >= 0"),
        _ => None,
    };
    let refused = |name: &str, v: &Bound<'_, PyAny>, e: PyErr| match expected(name) {
        Some(what) => {
            InvalidOptionError::new_err(format!("{name} must be {what}, not {}", errors::quote(v)))
        }
        None => e,
    };
    let number = |name: &str| -> PyResult<Option<f64>> {
        match get(name) {
            Some(v) => errors::seconds(&v, name).map_err(|e| refused(name, &v, e)),
            None => Ok(None),
        }
    };
    let integer = |name: &str| -> PyResult<Option<i128>> {
        match get(name) {
            Some(v) => errors::integer(&v, name)
                .map(Some)
                .map_err(|e| refused(name, &v, e)),
            None => Ok(None),
        }
    };
    match kind {
        "random" => Ok(BotSpec::Random),
        "greedy" => Ok(BotSpec::Greedy),
        "mcts" | "ismcts" => {
            let rollout = match get("rollout") {
                Some(v) => Some(errors::text(&v, |m| {
                    InvalidOptionError::new_err(format!(
                        "rollout must be one of {:?}: {m}",
                        quanta_core::bots::Rollout::NAMES
                    ))
                })?),
                None => None,
            };
            let s = SearchSpec::checked(
                integer("iterations")?,
                number("time")?,
                number("exploration")?,
                rollout.as_deref(),
                integer("memory_mb")?,
                integer("solver_nodes")?,
            )
            .map_err(to_py)?;
            Ok(if kind == "mcts" {
                BotSpec::Mcts(s)
            } else {
                BotSpec::Ismcts(s)
            })
        }
        _ => BotSpec::solver(
            number("timeout")?,
            integer("max_nodes")?,
            integer("memory_mb")?.unwrap_or(1024),
        )
        .map_err(to_py),
    }
}

/// The parameters of a spec as `(name, value)`, each as the constructor takes it: what
/// `__reduce__`, `__repr__` and `params` show.
fn params_of<'py>(py: Python<'py>, spec: &BotSpec) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    match spec {
        BotSpec::Random | BotSpec::Greedy => {}
        BotSpec::Mcts(s) | BotSpec::Ismcts(s) => {
            out.set_item("iterations", s.iterations)?;
            out.set_item("time", s.time.map(|t| t.as_secs_f64()))?;
            out.set_item("exploration", s.exploration)?;
            out.set_item("rollout", s.rollout.name())?;
            out.set_item("memory_mb", s.memory_mb)?;
            out.set_item("solver_nodes", s.solver_nodes)?;
        }
        BotSpec::Solver(l) => {
            out.set_item("timeout", l.timeout.map(|t| t.as_secs_f64()))?;
            out.set_item("max_nodes", l.max_nodes)?;
            out.set_item("memory_mb", l.memory_mb)?;
        }
    }
    Ok(out)
}

/// A player of any game: `quanta.bots.Random(...)`, `Greedy`, `MCTS`, `ISMCTS`, `Solver` make
/// one (see `quanta.bots`). Immutable, compared by value, picklable.
#[pyclass(module = "quanta", name = "Bot", frozen)]
pub struct Bot {
    pub spec: BotSpec,
    pub seed: u64,
}

/// The seed of one `choose`: the bot's seed and the state's hash mixed (splitmix64), so that
/// the action depends only on the bot and the state.
fn call_seed(seed: u64, state_hash: u64) -> u64 {
    let mut z = seed ^ state_hash.rotate_left(32) ^ 0x9E37_79B9_7F4A_7C15;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (kind, seed = None, params = None))]
    fn new(
        kind: &str,
        seed: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let seed = match seed {
            Some(s) => errors::seed(s, "seed")?,
            None => 0,
        };
        Ok(Bot {
            spec: spec(kind, params)?,
            seed,
        })
    }

    /// "random", "greedy", "mcts", "ismcts" or "solver".
    #[getter]
    fn kind(&self) -> &'static str {
        self.spec.kind()
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The bot's parameters (besides the seed), defaults filled in.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        params_of(py, &self.spec)
    }

    /// Whether the bot's action may depend on the clock (a search stopped by time).
    #[getter]
    fn timed(&self) -> bool {
        self.spec.timed()
    }

    /// The bot's action in `state`, a decision of any game. The action depends only on the
    /// bot (its seed included) and the state, except for a bot stopped by the clock. Runs
    /// with the GIL released; Ctrl-C interrupts it.
    fn choose(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Action> {
        let s = &*crate::games::state(state, "choose")?.inner;
        let seed = call_seed(self.seed, s.hash_u64());
        let spec = &self.spec;
        run_detached(py, |cancel| s.bot_action(spec, seed, cancel))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let args = (me.spec.kind(), me.seed, params_of(py, &me.spec)?);
        (slf.get_type(), args).into_pyobject(py)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Bot>().is_ok_and(|o| {
            let o = o.get();
            o.seed == self.seed && format!("{:?}", o.spec) == format!("{:?}", self.spec)
        })
    }

    fn __hash__(&self) -> u64 {
        call_seed(self.seed, {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            format!("{:?}", self.spec).hash(&mut h);
            h.finish()
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let name = match self.spec {
            BotSpec::Random => "Random",
            BotSpec::Greedy => "Greedy",
            BotSpec::Mcts(_) => "MCTS",
            BotSpec::Ismcts(_) => "ISMCTS",
            BotSpec::Solver(_) => "Solver",
        };
        let mut parts = Vec::new();
        for (k, v) in params_of(py, &self.spec)?.iter() {
            let default = match k.extract::<String>()?.as_str() {
                "exploration" => v.extract::<f64>()? == DEFAULT_EXPLORATION,
                "rollout" => v.extract::<String>()? == "random",
                "memory_mb" => v.extract::<usize>()? == DEFAULT_MEMORY_MB,
                _ => false,
            };
            if !v.is_none() && !default {
                parts.push(format!("{}={}", k, v.repr()?));
            }
        }
        parts.push(format!("seed={}", self.seed));
        Ok(format!("{name}({})", parts.join(", ")))
    }
}

/// `n` games of `game` between `bots` (seat `i` of game `g` played by bot `(i + g) % k`), on
/// `threads` threads with the GIL released: a dict of numpy arrays `returns` (n × players),
/// `seats` (n × players, the bot in each seat) and `length` (decisions per game).
#[pyfunction]
#[pyo3(signature = (game, bots, n, seed, threads))]
fn arena<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    bots: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = crate::game::game_arg(game)?;
    let refused = || {
        InvalidOptionError::new_err(format!(
            "bots must be a list of bots from quanta.bots (e.g. [quanta.bots.MCTS(iterations=100), \
             quanta.bots.Random()]), not {}",
            errors::quote(bots)
        ))
    };
    let list = bots
        .cast::<PyList>()
        .map(|l| l.to_tuple())
        .or_else(|_| bots.cast::<PyTuple>().map(|t| t.clone()))
        .map_err(|_| refused())?;
    let mut specs = Vec::with_capacity(list.len());
    for b in list.iter() {
        specs.push(b.cast::<Bot>().map_err(|_| refused())?.get().spec.clone());
    }
    let (seed, n, _) = errors::rows(seed, n, &0u8.into_pyobject(py)?.into_any(), "games")?;
    let threads = errors::threads(threads)?;
    let g = game.get().inner.clone();
    let result = run_detached(py, move |cancel| g.arena(&specs, n, seed, threads, cancel))?;
    let players = result.players;
    let out = PyDict::new(py);
    out.set_item(
        "returns",
        result.returns.into_pyarray(py).reshape([n, players])?,
    )?;
    out.set_item(
        "seats",
        result.seats.into_pyarray(py).reshape([n, players])?,
    )?;
    out.set_item("length", result.length.into_pyarray(py))?;
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BOT_KINDS", BotSpec::KINDS.to_vec())?;
    m.add_class::<Bot>()?;
    m.add_function(wrap_pyfunction!(arena, m)?)
}
