//! `quanta.solve`: every game's registered solver behind one answer shape
//! (`quanta_core::solver`), and the registry's facts for the Python layer.

use crate::detach::run_detached;
use crate::errors::Limits;
use crate::errors::to_py;
use crate::games::state;
use pyo3::prelude::*;
use quanta_core::{Action, registry, solver};

/// A solver's answer to one position, from the view of the player to act (see
/// `quanta.solve`).
#[pyclass(module = "quanta", name = "Answer", frozen, eq, skip_from_py_object)]
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    inner: solver::Answer,
}

#[pymethods]
impl Answer {
    /// The value (its meaning per game: `quanta.solvers.SOLVERS[game].value`); None when
    /// undecided.
    #[getter]
    fn value(&self) -> Option<f64> {
        self.inner.value
    }
    /// The best action, where one action is best (None before a die roll or when undecided).
    #[getter]
    fn best_action(&self) -> Option<Action> {
        self.inner.best
    }
    /// The best move or line as the game's action strings; None when undecided.
    #[getter]
    fn best(&self) -> Option<String> {
        (!self.inner.line.is_empty()).then(|| self.inner.line.clone())
    }
    #[getter]
    fn nodes(&self) -> u64 {
        self.inner.nodes
    }
    #[getter]
    fn seconds(&self) -> f64 {
        self.inner.seconds
    }
    /// False when undecided, or for an estimate (`reason` says which).
    #[getter]
    fn exact(&self) -> bool {
        self.inner.exact
    }
    /// Why the answer is undecided or only an estimate; None for an exact answer.
    #[getter]
    fn reason(&self) -> Option<String> {
        self.inner.reason.clone()
    }
    /// True when the search gave no value.
    #[getter]
    fn undecided(&self) -> bool {
        self.inner.value.is_none()
    }
    fn __repr__(&self) -> String {
        let value = self
            .inner
            .value
            .map_or("None".to_string(), |v| format!("{v}"));
        format!(
            "Answer(value={value}, best={:?}, exact={}, nodes={}, seconds={:.3}{})",
            self.inner.line,
            if self.inner.exact { "True" } else { "False" },
            self.inner.nodes,
            self.inner.seconds,
            self.inner
                .reason
                .as_ref()
                .map_or(String::new(), |r| format!(", reason={r:?}"))
        )
    }
}

/// The state's game's solver within the limits.
#[pyfunction]
fn solve(py: Python<'_>, state: &Bound<'_, PyAny>, request: Limits) -> PyResult<Answer> {
    let s = &*self::state(state, "quanta.solve")?.inner;
    // A game without a solver is refused before any work, naming the games with one.
    registry::solver(s.game().name()).map_err(to_py)?;
    let inner = run_detached(py, |cancel| s.solve(&request.context(cancel)))?;
    Ok(Answer { inner })
}

/// Every registered solver: `(game, function, what the value means, options as JSON)`.
#[pyfunction]
fn solvers() -> Vec<(
    &'static str,
    &'static str,
    &'static str,
    Vec<(&'static str, &'static str)>,
)> {
    registry::solvers()
        .into_iter()
        .map(|(game, s)| (game, s.function, s.value, s.options.to_vec()))
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Answer>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solvers, m)?)?;
    Ok(())
}
