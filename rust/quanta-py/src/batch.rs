//! `random_playouts`, written once for every game.

use crate::detach::run_detached;
use crate::errors::{self, InvalidOptionError};
use crate::game::Game;
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The most games one call may play (about a trillion).
const MAX_GAMES: i128 = 1 << 40;

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
    let game = game.cast::<Game>().map_err(|_| {
        InvalidOptionError::new_err(format!(
            "game must be a game made by quanta.game(name, ...), not {}",
            errors::quote(game)
        ))
    })?;
    let n = errors::integer_in(n, "n", 0, MAX_GAMES).map_err(|_| {
        InvalidOptionError::new_err(format!(
            "n must be a number of games from 0 to 2**40, not {}",
            errors::quote(n)
        ))
    })? as usize;
    let seed = errors::seed(seed, "seed")?;
    let first = errors::seed(first, "first").map_err(|_| {
        InvalidOptionError::new_err(format!(
            "first must be a game number from 0 to 2**64 - 1, not {}",
            errors::quote(first)
        ))
    })?;
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
    m.add_function(wrap_pyfunction!(random_playouts, m)?)
}
