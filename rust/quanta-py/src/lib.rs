//! `quanta._core`: thin PyO3 wrappers over quanta-core. The generic classes live in `game`,
//! the errors and argument readers in `errors`, the GIL/Ctrl-C helper in `detach`, batch
//! playouts in `batch`, the solver registry's `quanta.solve` in `solver`, the table kinds of
//! `quanta.jobs` in `tables`, and each game's extras in `games/<game>.rs`.

use pyo3::prelude::*;

mod batch;
mod detach;
mod errors;
mod game;
mod games;
mod solver;
mod tables;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    game::register(m)?;
    batch::register(m)?;
    games::register(m)?;
    solver::register(m)?;
    tables::register(m)?;
    Ok(())
}
