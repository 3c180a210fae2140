//! `random_playouts`, written once for every game, and `check_limits` and `check_fits`, which
//! batch jobs call once when a job is made rather than failing on every row; and `quote`, the
//! one way a message quotes a caller's input, for the Python modules too.

use crate::detach::run_detached;
use crate::errors;
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quanta_core::batch;

/// Checks a solver's limits as every solver reads them (the same typed errors), so that a job
/// refuses bad limits when it is made; see `quanta.jobs.solve`.
#[pyfunction]
pub fn check_limits(limits: errors::Limits) -> PyResult<()> {
    let _checked = limits;
    Ok(())
}

/// Refuses, before anything is allocated, `n` rows of `row_bytes` bytes each whose results
/// would not fit in memory (the typed error names the count as `name`, the most `rows` that
/// fit, and `advice`); see `quanta.jobs.playouts`.
#[pyfunction]
pub fn check_fits(
    name: &str,
    n: &Bound<'_, PyAny>,
    rows: &str,
    row_bytes: &Bound<'_, PyAny>,
    advice: &str,
) -> PyResult<()> {
    let n = errors::integer_in(n, "n", 0, i64::MAX as i128)? as usize;
    let row_bytes = errors::integer_in(row_bytes, "row_bytes", 1, 1 << 20)? as usize;
    batch::check_fits(name, n, rows, row_bytes, advice).map_err(errors::to_py)
}

/// `n` uniformly random games from the start; see `quanta.batch.random_playouts`.
#[pyfunction]
pub fn random_playouts<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = crate::game::game_arg(game)?;
    let (seed, n, first) = errors::rows(seed, n, first, "games")?;
    let threads = errors::threads(threads)?;
    let g = game.get().inner.clone();
    let result = run_detached(py, move |cancel| {
        g.random_playouts(first, n, seed, threads, cancel)
    })?;
    let out = PyDict::new(py);
    out.set_item(
        "returns",
        result
            .returns
            .into_pyarray(py)
            .reshape([n, result.players])?,
    )?;
    out.set_item("length", result.length.into_pyarray(py))?;
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(check_fits, m)?)?;
    m.add_function(wrap_pyfunction!(errors::quote, m)?)?;
    m.add_function(wrap_pyfunction!(check_limits, m)?)
}
