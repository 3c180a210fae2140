//! EinStein a la Card's extras: the exact solver for both hands open, with its typed result.

use super::position;
use crate::detach::run_detached;
use crate::errors;
use pyo3::prelude::*;
use quanta_core::Action;
use quanta_core::einstein_card::EinsteinCard;
use quanta_core::einstein_card::solve as solver;

/// The exact value of a decision node with both hands open.
///
/// `value`: the expected return of the player to act with optimal play by both sides, in
/// [-1, 1] (+1 a win, -1 a loss, 0 a draw); in a finished game the return of the player the
/// notation names. `best_action`: the lowest action of the highest value (None in a finished
/// game); `best_move` its string. `nodes` and `seconds` measure the work; `exact` is always
/// true (a search out of budget raises SearchLimitError instead of guessing).
#[pyclass(
    module = "quanta.einstein_card",
    name = "Solution",
    frozen,
    get_all,
    eq
)]
#[derive(PartialEq)]
pub struct Solution {
    value: f64,
    best_action: Option<Action>,
    best_move: Option<String>,
    nodes: u64,
    seconds: f64,
    exact: bool,
}

#[pymethods]
impl Solution {
    fn __repr__(&self) -> String {
        format!(
            "Solution(value={:?}, best_action={}, best_move={}, nodes={}, seconds={:.3}, \
             exact=True)",
            self.value,
            self.best_action.map_or("None".into(), |a| a.to_string()),
            self.best_move
                .as_ref()
                .map_or("None".into(), |m| format!("'{m}'")),
            self.nodes,
            self.seconds
        )
    }
}

/// Solves an EinStein a la Card decision node with both hands open (see
/// `quanta.einstein_card.solve`).
#[pyfunction]
fn einstein_card_solve(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    timeout: &Bound<'_, PyAny>,
    max_nodes: &Bound<'_, PyAny>,
    memory_mb: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
) -> PyResult<Solution> {
    let p = position::<EinsteinCard>(state, "einstein_card.solve")?;
    let request = errors::request(timeout, max_nodes, memory_mb, threads)?;
    let sol = run_detached(py, |cancel| {
        solver::solve(&p.game.0, &p.state, &request.context(cancel))
    })?;
    let best_move = super::move_string(p, sol.best_action)?;
    Ok(Solution {
        value: sol.value,
        best_action: sol.best_action,
        best_move,
        nodes: sol.nodes,
        seconds: sol.seconds,
        exact: true,
    })
}

/// Every legal action of an EinStein a la Card decision node with both hands open, with its
/// value (see `quanta.einstein_card.analyze`).
#[pyfunction]
fn einstein_card_analyze(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    timeout: &Bound<'_, PyAny>,
    max_nodes: &Bound<'_, PyAny>,
    memory_mb: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
) -> PyResult<Vec<(Action, f64)>> {
    let p = position::<EinsteinCard>(state, "einstein_card.analyze")?;
    let request = errors::request(timeout, max_nodes, memory_mb, threads)?;
    let (values, _nodes) = run_detached(py, |cancel| {
        solver::analyze(&p.game.0, &p.state, &request.context(cancel))
    })?;
    Ok(values)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The class is quanta.einstein_card.Solution; in the extension it sits beside the other
    // games' solutions under its own name.
    m.add("EinsteinCardSolution", m.py().get_type::<Solution>())?;
    m.add_function(wrap_pyfunction!(einstein_card_solve, m)?)?;
    m.add_function(wrap_pyfunction!(einstein_card_analyze, m)?)?;
    Ok(())
}
