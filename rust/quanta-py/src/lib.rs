//! `quanta._core`: thin PyO3 wrappers over quanta-core. The generic classes live in `game`,
//! the errors and argument readers in `errors`, the GIL/Ctrl-C helper in `detach`, batch
//! playouts in `batch`, the solver registry's `quanta.solve` in `solver`, the table kinds of
//! `quanta.jobs` in `tables`, and each game's extras in `games/<game>.rs`.

use pyo3::prelude::*;

/// The dict of numpy columns of a batch: one array per name, its entries the expression read
/// from each of `rows`, e.g. `columns!(py, rows, "moves" => |r| r.moves, "won" => |r| r.won)`.
macro_rules! columns {
    ($py:expr, $rows:expr, $($name:literal => |$row:ident| $value:expr),+ $(,)?) => {{
        use numpy::IntoPyArray as _;
        let out = pyo3::types::PyDict::new($py);
        $(out.set_item($name, $rows.iter().map(|$row| $value).collect::<Vec<_>>().into_pyarray($py))?;)+
        out
    }};
}

/// Declares a frozen result class: every field a getter, compared by value, a `__repr__` that
/// shows the fields `repr` lists under the name before them (see `result::repr`), and any
/// further `methods`.
macro_rules! result_class {
    (
        $(#[$attr:meta])*
        $class:ident($module:literal, $name:literal) {
            $($(#[$field_attr:meta])* $field:ident: $ty:ty),* $(,)?
        }
        repr $shown:literal [$($spec:literal),* $(,)?]
        $(methods { $($methods:tt)* })?
    ) => {
        $(#[$attr])*
        #[pyclass(module = $module, name = $name, frozen, get_all, eq)]
        #[derive(PartialEq)]
        pub struct $class {
            $($(#[$field_attr])* $field: $ty),*
        }

        #[pymethods]
        impl $class {
            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                crate::result::repr(slf.as_any(), $shown, &[$($spec),*])
            }
            $($($methods)*)?
        }
    };
}

mod batch;
mod bots;
mod detach;
mod errors;
mod game;
mod games;
mod result;
mod solver;
mod tables;
mod vector;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    game::register(m)?;
    batch::register(m)?;
    bots::register(m)?;
    games::register(m)?;
    solver::register(m)?;
    tables::register(m)?;
    vector::register(m)?;
    Ok(())
}
