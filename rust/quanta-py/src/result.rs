//! The `__repr__` every result class shares, written from its getters.

use pyo3::prelude::*;

/// `name(field=value, ...)`: each of `fields` read through its getter and written as Python
/// writes it, or as its spec after a colon says: `seconds:.3` a number to 3 decimals (None
/// stays None), `line:len` a sequence as `<n actions>`.
pub fn repr(result: &Bound<'_, PyAny>, name: &str, fields: &[&str]) -> PyResult<String> {
    let mut parts = Vec::with_capacity(fields.len());
    for field in fields {
        let (field, spec) = field.split_once(':').unwrap_or((field, ""));
        let value = result.getattr(field)?;
        let shown = match spec {
            "len" => format!("<{} actions>", value.len()?),
            _ if spec.starts_with('.') && !value.is_none() => {
                let digits: usize = spec[1..].parse().unwrap_or(3);
                format!("{:.*}", digits, value.extract::<f64>()?)
            }
            _ => value.repr()?.to_string(),
        };
        parts.push(format!("{field}={shown}"));
    }
    Ok(format!("{name}({})", parts.join(", ")))
}

/// A sequence a result class shows as a Python tuple (`line`, `moves`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Tuple<T>(pub Vec<T>);

impl<'py, T> IntoPyObject<'py> for &Tuple<T>
where
    for<'a> &'a T: IntoPyObject<'py>,
{
    type Target = pyo3::types::PyTuple;
    type Output = Bound<'py, pyo3::types::PyTuple>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        pyo3::types::PyTuple::new(py, &self.0)
    }
}
