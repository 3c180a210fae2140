//! The typed exceptions of `quanta.exceptions`, the one place core errors become them, and the
//! readers of arguments that every binding shares: each bad argument raises the documented
//! typed exception with a message saying what was expected.

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};
use quanta_core::erased::DynState;
use quanta_core::error::{QUOTED_CHARS, clipped, quoted};
use quanta_core::search::{Request, bad_argument, checked_threads};
use quanta_core::{Action, Error};

pyo3::import_exception!(quanta.exceptions, IllegalMoveError);
pyo3::import_exception!(quanta.exceptions, InvalidNotationError);
pyo3::import_exception!(quanta.exceptions, InvalidOptionError);
pyo3::import_exception!(quanta.exceptions, NotApplicableError);
pyo3::import_exception!(quanta.exceptions, SearchLimitError);

/// The one place core errors become Python exceptions.
pub fn to_py(e: Error) -> PyErr {
    match e {
        Error::InvalidOption(m) => InvalidOptionError::new_err(m),
        Error::InvalidNotation(m) => InvalidNotationError::new_err(m),
        Error::IllegalMove(m) => IllegalMoveError::new_err(m),
        e @ Error::SearchLimit { nodes, seconds, .. } => {
            SearchLimitError::new_err((e.to_string(), nodes, seconds))
        }
        Error::NotApplicable(m) => NotApplicableError::new_err(m),
        Error::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
    }
}

/// What the caller passed, for a message: its `repr`, at most about 80 characters (a long
/// text cut with its length, as the core quotes text: `quanta_core::error::quoted`).
#[pyfunction]
pub fn quote(value: &Bound<'_, PyAny>) -> String {
    if let Ok(text) = value.cast::<PyString>() {
        if let Ok(text) = text.to_str() {
            if text.chars().count() > QUOTED_CHARS {
                return quoted(text);
            }
        }
    }
    let shown = value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    clipped(&shown)
}

/// Whether `value` is a numpy bool (numpy.bool_), told apart without importing numpy.
pub fn is_numpy_bool(value: &Bound<'_, PyAny>) -> bool {
    let kind = value.get_type();
    kind.module().is_ok_and(|m| m.to_string() == "numpy")
        && kind
            .name()
            .is_ok_and(|n| n.to_string() == "bool" || n.to_string() == "bool_")
}

/// A yes/no argument: a Python or numpy bool; anything else is refused with the argument's
/// own message.
pub fn flag(value: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    if value.is_instance_of::<PyBool>() || is_numpy_bool(value) {
        if let Ok(b) = value.is_truthy() {
            return Ok(b);
        }
    }
    Err(InvalidOptionError::new_err(format!(
        "{name} must be True or False, not {}",
        quote(value)
    )))
}

/// An integer argument: a Python int or anything that is an index (numpy integers); bools,
/// floats, text and the rest are refused with the argument's own message.
pub fn integer(value: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    let refused = || to_py(bad_argument(name, &quote(value)));
    if value.is_instance_of::<PyBool>()
        || is_numpy_bool(value)
        || value.is_instance_of::<PyString>()
    {
        return Err(refused());
    }
    let index = value.call_method0("__index__").map_err(|_| refused())?;
    index.extract::<i128>().or_else(|_| {
        // Beyond 128 bits: out of range either way; say so with the value.
        Err(to_py(bad_argument(name, &quote(value))))
    })
}

/// An integer argument that may be None.
pub fn optional_integer(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<i128>> {
    if value.is_none() {
        Ok(None)
    } else {
        integer(value, name).map(Some)
    }
}

/// An integer argument that must lie in `low..=high`.
pub fn integer_in(value: &Bound<'_, PyAny>, name: &str, low: i128, high: i128) -> PyResult<i128> {
    match integer(value, name)? {
        v if (low..=high).contains(&v) => Ok(v),
        _ => Err(to_py(bad_argument(name, &quote(value)))),
    }
}

/// A seed: an integer from 0 to 2**64 - 1.
pub fn seed(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    integer_in(value, name, 0, u64::MAX as i128).map(|v| v as u64)
}

/// The rows of a batch job: its seed, how many `rows` (e.g. "games", "deals"; up to 2**40) and
/// the number of the first, each checked.
pub fn rows(
    seed: &Bound<'_, PyAny>,
    n: &Bound<'_, PyAny>,
    first: &Bound<'_, PyAny>,
    rows: &str,
) -> PyResult<(u64, usize, u64)> {
    let count = integer_in(n, "n", 0, 1 << 40).map_err(|_| {
        InvalidOptionError::new_err(format!(
            "n must be a number of {rows} from 0 to 2**40, not {}",
            quote(n)
        ))
    })?;
    let first_row = self::seed(first, "first").map_err(|_| {
        InvalidOptionError::new_err(format!(
            "first must be the number of the first of the {rows}, from 0 to 2**64 - 1, not {}",
            quote(first)
        ))
    })?;
    Ok((self::seed(seed, "seed")?, count as usize, first_row))
}

/// A number of seconds that may be None: an int or a float (numpy's too), never a bool.
pub fn seconds(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<f64>> {
    if value.is_none() {
        return Ok(None);
    }
    if value.is_instance_of::<PyBool>()
        || is_numpy_bool(value)
        || value.is_instance_of::<PyString>()
    {
        return Err(to_py(bad_argument(name, &quote(value))));
    }
    value
        .extract::<f64>()
        .map(Some)
        .map_err(|_| to_py(bad_argument(name, &quote(value))))
}

/// `threads`: None (every core) or an integer from 1 to 1024.
pub fn threads(value: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    checked_threads(optional_integer(value, "threads")?).map_err(to_py)
}

/// The limits and threads of a solver call, read and checked once for every solver.
pub fn request(
    timeout: &Bound<'_, PyAny>,
    max_nodes: &Bound<'_, PyAny>,
    memory_mb: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
) -> PyResult<Request> {
    Request::checked(
        seconds(timeout, "timeout")?,
        optional_integer(max_nodes, "max_nodes")?,
        integer(memory_mb, "memory_mb")?,
        optional_integer(threads, "threads")?,
    )
    .map_err(to_py)
}

/// A solver call's limits and threads as every solver binding (batches too) takes them: one
/// argument, a dict of the limits by name (`timeout`, `max_nodes`, `memory_mb`, `threads`; a
/// name left out takes its default) that its Python module passes, read and checked once by
/// [`request`] when the call's arguments are read. A binding uses it as the [`Request`] it
/// holds (`limits.context(cancel)`, `limits.threads`).
pub struct Limits(Request);

/// The limits every solver call takes, by name.
const LIMIT_NAMES: [&str; 4] = ["timeout", "max_nodes", "memory_mb", "threads"];

impl<'a, 'py> FromPyObject<'a, 'py> for Limits {
    type Error = PyErr;
    fn extract(value: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let py = value.py();
        let limits = value.cast::<PyDict>().map_err(|_| {
            InvalidOptionError::new_err(format!(
                "the limits are a dict by name ({}), not {}",
                LIMIT_NAMES.join(", "),
                quote(&value)
            ))
        })?;
        for name in limits.keys() {
            let known = name.extract::<String>().is_ok_and(|n| LIMIT_NAMES.contains(&n.as_str()));
            if !known {
                return Err(InvalidOptionError::new_err(format!(
                    "a solver's limits are {}, not {}",
                    LIMIT_NAMES.join(", "),
                    quote(&name)
                )));
            }
        }
        let get = |name: &str, default: Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
            Ok(limits.get_item(name)?.unwrap_or(default))
        };
        let none = || py.None().into_bound(py);
        let memory = Request::default().limits.memory_mb.into_pyobject(py)?.into_any();
        request(
            &get("timeout", none())?,
            &get("max_nodes", none())?,
            &get("memory_mb", memory)?,
            &get("threads", none())?,
        )
        .map(Limits)
    }
}

impl std::ops::Deref for Limits {
    type Target = Request;
    fn deref(&self) -> &Request {
        &self.0
    }
}

/// A player number of `state`'s game.
pub fn player(state: &dyn DynState, value: &Bound<'_, PyAny>) -> PyResult<usize> {
    let n = state.game().num_players();
    match integer(value, "player") {
        Ok(p) if (0..n as i128).contains(&p) => Ok(p as usize),
        _ => Err(InvalidOptionError::new_err(format!(
            "{}: player must be an integer from 0 to {} (the game has {n} player{}), not {}",
            state.game().name(),
            n - 1,
            if n == 1 { "" } else { "s" },
            quote(value)
        ))),
    }
}

/// An action argument: any Python integer (numpy integers too); everything else, and integers
/// outside the game's actions, is an illegal move.
pub fn action(state: &dyn DynState, action: &Bound<'_, PyAny>) -> PyResult<Action> {
    let n = state.game().num_actions();
    // A plain int (the common case; `bool` is a subclass, so not exactly `int`).
    if action.is_exact_instance_of::<PyInt>() {
        if let Ok(a) = action.extract::<i64>() {
            if (0..n as i64).contains(&a) {
                return Ok(a as Action);
            }
        }
    }
    let integer = if action.is_instance_of::<PyBool>() || is_numpy_bool(action) {
        None
    } else {
        action.extract::<i64>().ok()
    };
    let name = state.game().name();
    match integer {
        Some(a) if (0..n as i64).contains(&a) => Ok(a as Action),
        Some(a) => Err(IllegalMoveError::new_err(format!(
            "{name}: action {a} does not exist (actions are integers from 0 to {})",
            n - 1
        ))),
        None => Err(IllegalMoveError::new_err(format!(
            "{name}: an action is an integer from 0 to {}, not {}",
            n - 1,
            quote(action)
        ))),
    }
}

/// A text argument; anything but a `str` raises the method's own typed error.
pub fn text(value: &Bound<'_, PyAny>, error: impl Fn(String) -> PyErr) -> PyResult<String> {
    value
        .extract::<String>()
        .map_err(|_| error(format!("expected text (a str), not {}", quote(value))))
}
