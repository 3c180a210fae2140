//! EinStein würfelt nicht's extras: the board as an array.

use super::position;
use numpy::{IntoPyArray, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use quanta_core::einstein::Einstein;

/// The board as a 5x5 int8 array indexed [row, col] (row 0 at the top): player 0's stones
/// +1..+6, player 1's -1..-6, empty cells 0.
#[pyfunction]
fn einstein_board<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<i8>>> {
    let p = position::<Einstein>(state, "einstein.board")?;
    p.state.board().to_vec().into_pyarray(py).reshape([5, 5])
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(einstein_board, m)?)
}
