//! `quanta.bots` and `quanta.arena`: the core's bots (`quanta_core::bots`) as one Python class,
//! `Bot`, made from a kind and its parameters (checked once, by the core), and the arena.

use crate::detach::run_detached;
use crate::errors::{self, InvalidOptionError, is_numpy_bool, to_py};
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::exceptions::PyFutureWarning;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString, PyTuple};
use quanta_core::Action;
use quanta_core::bots::{self as core, BotSpec, OLD_TIME_WORD, Value};

/// A parameter's Python value as the core checks it: an integer (numpy's too), a number or a
/// text; anything else (a bool, a list, ...) is refused with what the parameter must be.
fn value(kind: &str, name: &str, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    let refused = || {
        let expected = BotSpec::parameters(kind)
            .iter()
            .find(|p| p.name == name)
            .map_or("a valid value", |p| p.expected);
        InvalidOptionError::new_err(format!("{name} must be {expected}, not {}", errors::quote(v)))
    };
    if v.is_instance_of::<PyBool>() || is_numpy_bool(v) {
        return Err(refused());
    }
    if let Ok(text) = v.cast::<PyString>() {
        return Ok(Value::Text(text.to_str().map_err(|_| refused())?.to_string()));
    }
    if v.is_instance_of::<PyFloat>() {
        return v.extract::<f64>().map(Value::Number).map_err(|_| refused());
    }
    if let Ok(index) = v.call_method0("__index__") {
        return index.extract::<i128>().map(Value::Int).map_err(|_| refused());
    }
    v.extract::<f64>().map(Value::Number).map_err(|_| refused())
}

/// The spec of a bot of `kind` with `params`, checked once by the core. A parameter given as
/// None takes its default. `time`, the time limit's old word, is taken as `timeout` with a
/// warning.
fn spec(py: Python<'_>, kind: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<BotSpec> {
    let mut given: Vec<(String, Value)> = Vec::new();
    if let Some(params) = params {
        for (name, v) in params.iter() {
            let mut name: String = name.extract().map_err(|_| {
                InvalidOptionError::new_err(format!(
                    "a bot's parameters are named by text, not {}",
                    errors::quote(&name)
                ))
            })?;
            let takes_timeout = BotSpec::parameters(kind).iter().any(|p| p.name == "timeout");
            if name == OLD_TIME_WORD && takes_timeout {
                if params.contains("timeout")? {
                    return Err(InvalidOptionError::new_err(
                        "give the time limit once, as timeout (time is its old name)",
                    ));
                }
                PyErr::warn(
                    py,
                    &py.get_type::<PyFutureWarning>(),
                    c"the bots' time limit is now named timeout, as the solvers'; time= will go",
                    2,
                )?;
                name = "timeout".into();
            }
            if v.is_none() {
                given.push((name, Value::Nothing));
                continue;
            }
            let v = value(kind, &name, &v)?;
            given.push((name, v));
        }
    }
    BotSpec::make(kind, &given).map_err(to_py)
}

/// A refusal of solver leaves, with the games that take them (read from the registry, which
/// the bots below it cannot read).
fn with_leaf_games(e: quanta_core::Error) -> quanta_core::Error {
    match e {
        quanta_core::Error::InvalidOption(m) if m.starts_with("solver_nodes needs") => {
            let games: Vec<&str> = quanta_core::registry::entries()
                .iter()
                .filter(|e| e.solver.is_some_and(|s| s.returns.is_some()))
                .map(|e| e.name)
                .collect();
            quanta_core::Error::InvalidOption(format!(
                "{m}; the games that take solver_nodes are {}",
                games.join(", ")
            ))
        }
        other => other,
    }
}

/// A core value as the constructor takes it back.
fn py_value<'py>(py: Python<'py>, v: &Option<Value>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        None | Some(Value::Nothing) => py.None().into_bound(py),
        Some(Value::Int(n)) => n.into_pyobject(py)?.into_any(),
        Some(Value::Number(x)) => x.into_pyobject(py)?.into_any(),
        Some(Value::Text(t)) => t.into_pyobject(py)?.into_any(),
    })
}

/// The parameters of a spec as `(name, value)`, each as the constructor takes it: what
/// `__reduce__` and `params` show.
fn params_of<'py>(py: Python<'py>, spec: &BotSpec) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for (name, v) in spec.params() {
        out.set_item(name, py_value(py, &v)?)?;
    }
    Ok(out)
}

/// A player of any game: `quanta.bots.Random(...)`, `Greedy`, `MCTS`, `ISMCTS`, `Solver`,
/// `Best` make one (see `quanta.bots`). Immutable, compared by value, picklable.
#[pyclass(module = "quanta", name = "Bot", frozen)]
pub struct Bot {
    pub inner: core::Bot,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (kind, seed = None, params = None))]
    fn new(
        py: Python<'_>,
        kind: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let kind = errors::text(kind, |m| {
            InvalidOptionError::new_err(format!(
                "kind must be one of {:?}: {m}",
                BotSpec::KINDS
            ))
        })?;
        let seed = match seed {
            Some(s) => errors::seed(s, "seed")?,
            None => 0,
        };
        Ok(Bot {
            inner: core::Bot {
                spec: spec(py, &kind, params)?,
                seed,
            },
        })
    }

    /// "random", "greedy", "mcts", "ismcts", "solver" or "best".
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.spec.kind()
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed
    }

    /// The bot's parameters (besides the seed), defaults filled in.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        params_of(py, &self.inner.spec)
    }

    /// Whether the bot's action may depend on the clock (a search stopped by its timeout).
    #[getter]
    fn timed(&self) -> bool {
        self.inner.spec.timed()
    }

    /// Whether the bot acts only on what the acting player may see (its information state).
    #[getter]
    fn blind(&self) -> bool {
        self.inner.spec.blind()
    }

    /// The bot's action in `state`, a decision of any game. A blind bot's action depends only
    /// on the bot (its seed included) and the acting player's information state; a bot that
    /// sees everything, on the bot and the whole state; a bot stopped by its timeout, on the
    /// clock too. Runs with the GIL released; Ctrl-C interrupts it.
    fn choose(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Action> {
        let s = &*crate::games::state(state, "choose")?.inner;
        let bot = &self.inner;
        run_detached(py, |cancel| s.bot_action(bot, cancel).map_err(with_leaf_games))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = &slf.get().inner;
        let args = (me.spec.kind(), me.seed, params_of(py, &me.spec)?);
        (slf.get_type(), args).into_pyobject(py)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Bot>().is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format!("{:?}", self.inner).hash(&mut h);
        h.finish()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let name = match self.inner.spec {
            BotSpec::Random => "Random",
            BotSpec::Greedy => "Greedy",
            BotSpec::Mcts(_) => "MCTS",
            BotSpec::Ismcts(_) => "ISMCTS",
            BotSpec::Solver(_) => "Solver",
            BotSpec::Best(_) => "Best",
        };
        let mut parts = Vec::new();
        for (k, v) in self.inner.spec.changed_params() {
            parts.push(format!("{k}={}", py_value(py, &v)?.repr()?));
        }
        parts.push(format!("seed={}", self.inner.seed));
        Ok(format!("{name}({})", parts.join(", ")))
    }
}

/// `n` games of `game` between `bots` (seat `i` of game `g` played by bot `(i + g) % k`), on
/// `threads` threads with the GIL released: a dict of numpy arrays `returns` (n × players),
/// `seats` (n × players, the bot in each seat), `sides` (players: the side of each seat,
/// partners sharing one) and `length` (decisions per game), and with
/// `record` `actions` (a list of each game's actions, chance outcomes included).
#[pyfunction]
#[pyo3(signature = (game, bots, n, seed, threads, record = None))]
fn arena<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    bots: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: &Bound<'py, PyAny>,
    record: Option<&Bound<'py, PyAny>>,
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
    let mut players = Vec::with_capacity(list.len());
    for b in list.iter() {
        players.push(b.cast::<Bot>().map_err(|_| refused())?.get().inner.clone());
    }
    let (seed, n, _) = errors::rows(seed, n, &0u8.into_pyobject(py)?.into_any(), "games")?;
    let threads = errors::threads(threads)?;
    let record = match record {
        Some(r) => errors::flag(r, "record")?,
        None => false,
    };
    let g = game.get().inner.clone();
    let result = run_detached(py, move |cancel| {
        g.arena(&players, n, seed, threads, record, cancel)
            .map_err(with_leaf_games)
    })?;
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
    out.set_item("sides", result.sides.into_pyarray(py))?;
    out.set_item("length", result.length.into_pyarray(py))?;
    if let Some(actions) = result.actions {
        out.set_item("actions", actions)?;
    }
    Ok(out)
}

/// The parameters a kind of bot takes besides its seed, as `(name, what it must be)`, in the
/// order the core declares them (each declared there once).
#[pyfunction]
fn bot_parameters(kind: &Bound<'_, PyAny>) -> PyResult<Vec<(&'static str, &'static str)>> {
    let kind = errors::text(kind, |m| InvalidOptionError::new_err(format!("kind: {m}")))?;
    if !BotSpec::KINDS.contains(&kind.as_str()) {
        return Err(InvalidOptionError::new_err(format!(
            "kind must be one of {:?}, not {}",
            BotSpec::KINDS,
            quanta_core::error::quoted(&kind)
        )));
    }
    Ok(BotSpec::parameters(&kind)
        .iter()
        .map(|p| (p.name, p.expected))
        .collect())
}

/// What each registered game declares beyond its rules, for the bots:
/// `(game, best player described, default rollout, evaluator described or None)`.
#[pyfunction]
fn knowledge() -> Vec<(&'static str, &'static str, &'static str, Option<&'static str>)> {
    quanta_core::registry::entries()
        .iter()
        .map(|e| (e.name, e.best_player, e.rollout.name(), e.evaluator))
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BOT_KINDS", BotSpec::KINDS.to_vec())?;
    m.add_function(wrap_pyfunction!(bot_parameters, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge, m)?)?;
    m.add_class::<Bot>()?;
    m.add_function(wrap_pyfunction!(arena, m)?)
}
