//! The table kinds of the registry (`quanta_core::table`) for `quanta.jobs`: what each
//! declares, its parameters checked (in Rust, once), and its rows as numpy columns.

use crate::detach::run_detached;
use crate::errors::{self, InvalidOptionError, to_py};
use numpy::IntoPyArray;
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyString};
use quanta_core::registry;
use quanta_core::search::Context;
use quanta_core::table::{Data, Params, TableEntry, Value};

fn to_object(py: Python<'_>, value: &Value) -> PyResult<Py<PyAny>> {
    match value {
        Value::None => Ok(py.None()),
        Value::Bool(b) => b.into_py_any(py),
        Value::Int(i) => i.into_py_any(py),
        Value::Float(f) => f.into_py_any(py),
        Value::Str(s) => s.into_py_any(py),
    }
}

/// A Python value as a parameter's value (what it must be is the table's to check).
fn from_object(table: &TableEntry, name: &str, value: &Bound<'_, PyAny>) -> PyResult<Value> {
    if value.is_none() {
        Ok(Value::None)
    } else if value.is_instance_of::<PyBool>() || errors::is_numpy_bool(value) {
        Ok(Value::Bool(value.is_truthy()?))
    } else if let Ok(s) = value.cast::<PyString>() {
        Ok(Value::Str(s.to_str()?.to_string()))
    } else if value.is_instance_of::<PyFloat>() {
        Ok(Value::Float(value.extract()?))
    } else if let Ok(i) = errors::integer(value, name) {
        Ok(Value::Int(i))
    } else {
        let expected = table
            .params
            .iter()
            .find(|p| p.name == name)
            .map_or("a plain value".to_string(), |p| p.expected());
        Err(InvalidOptionError::new_err(format!(
            "table {}: parameter {name} must be {expected}, not {}",
            table.name,
            errors::quote(value)
        )))
    }
}

/// The table `name` and `params` (a dict) checked.
fn checked(name: &str, params: &Bound<'_, PyDict>) -> PyResult<(&'static TableEntry, Params)> {
    let table = registry::table(name).map_err(to_py)?;
    let mut given = Vec::new();
    for (k, v) in params.iter() {
        let k: String = k.extract().map_err(|_| {
            InvalidOptionError::new_err(format!(
                "table {name}: parameter names are text, not {}",
                errors::quote(&k)
            ))
        })?;
        let value = from_object(table, &k, &v)?;
        given.push((k, value));
    }
    let params = table.params(&given).map_err(to_py)?;
    Ok((table, params))
}

/// Every table kind: `(name, game, doc, params, columns, fixed_rows, seeded)`, `params` as
/// `(name, default, what it must be)` and `columns` as `(name, dtype, nullable)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn tables(
    py: Python<'_>,
) -> PyResult<
    Vec<(
        &'static str,
        &'static str,
        &'static str,
        Vec<(&'static str, Py<PyAny>, String)>,
        Vec<(&'static str, &'static str, bool)>,
        bool,
        bool,
    )>,
> {
    registry::tables()
        .into_iter()
        .map(|t| {
            let params = t
                .params
                .iter()
                .map(|p| Ok((p.name, to_object(py, &p.default())?, p.expected())))
                .collect::<PyResult<_>>()?;
            let columns = t
                .columns
                .iter()
                .map(|c| (c.name, c.dtype.name(), c.nullable))
                .collect();
            Ok((
                t.name,
                t.game,
                t.doc,
                params,
                columns,
                t.rows.is_some(),
                t.seeded,
            ))
        })
        .collect()
}

/// The parameters of table `name` checked, every one with its value (the defaults of those
/// not given), and the table's number of rows: `deals` for a table of fresh deals, the
/// table's own for one whose parameters fix it (which takes no `deals`).
#[pyfunction]
fn table_params<'py>(
    py: Python<'py>,
    name: &str,
    params: &Bound<'py, PyDict>,
    deals: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyDict>, u64)> {
    let (table, params) = checked(name, params)?;
    let deals = if deals.is_none() {
        None
    } else {
        Some(errors::integer_in(deals, "deals", 1, 1 << 40).map_err(|_| {
            InvalidOptionError::new_err(format!(
                "deals must be an integer from 1 to {}, not {}",
                1u64 << 40,
                errors::quote(deals)
            ))
        })? as u64)
    };
    let rows = table.count(&params, deals).map_err(to_py)?;
    let out = PyDict::new(py);
    for (k, v) in params.values() {
        out.set_item(k, to_object(py, v)?)?;
    }
    Ok((out, rows))
}

/// Rows `start..stop` of table `name` with `params` and `seed` on `threads` (None: every
/// core): `(column, values, valid)` a column in the declared order, `values` a numpy array
/// (a list of str for text), `valid` a numpy bool array (None: no nulls).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn table_rows<'py>(
    py: Python<'py>,
    name: &str,
    params: &Bound<'py, PyDict>,
    start: &Bound<'py, PyAny>,
    stop: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: &Bound<'py, PyAny>,
) -> PyResult<Vec<(&'static str, Py<PyAny>, Option<Py<PyAny>>)>> {
    let (table, params) = checked(name, params)?;
    let start = errors::seed(start, "start")?;
    let stop = errors::seed(stop, "stop")?;
    let seed = errors::seed(seed, "seed")?;
    let threads = errors::threads(threads)?;
    let columns = run_detached(py, |cancel| {
        let ctx = Context::new(params.limits.clone(), threads, cancel);
        table.compute(&params, start..stop, seed, &ctx)
    })?;
    table
        .columns
        .iter()
        .zip(columns)
        .map(|(c, column)| {
            let values = match column.data {
                Data::Bool(v) => v.into_pyarray(py).into_any().unbind(),
                Data::Int32(v) => v.into_pyarray(py).into_any().unbind(),
                Data::Int64(v) => v.into_pyarray(py).into_any().unbind(),
                Data::UInt64(v) => v.into_pyarray(py).into_any().unbind(),
                Data::Float64(v) => v.into_pyarray(py).into_any().unbind(),
                Data::String(v) => v.into_py_any(py)?,
            };
            let valid = column.valid.map(|v| v.into_pyarray(py).into_any().unbind());
            Ok((c.name, values, valid))
        })
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tables, m)?)?;
    m.add_function(wrap_pyfunction!(table_params, m)?)?;
    m.add_function(wrap_pyfunction!(table_rows, m)?)?;
    Ok(())
}
