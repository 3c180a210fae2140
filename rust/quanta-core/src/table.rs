//! Tables: a kind of table declared once, next to its game in the registry
//! ([`crate::registry::tables`]), and computed row by row in Rust.
//!
//! A [`TableEntry`] names its game, its parameters (each with its type, range and default,
//! checked here once: a bad one is an `InvalidOption` saying what was expected), its columns
//! (name, type, whether it may be null: the Parquet schema of a `table` job) and its kernel,
//! which computes rows `start..stop` of the table. A table of fresh deals takes the number of
//! rows from its caller, and row `i` draws from `row_rng(seed, i)` (through the shared row
//! kernel, [`crate::batch::map_rows`]): the rows depend on the seed and their numbers only,
//! never on how a job cuts them into shards or on the threads. A table whose parameters fix its
//! rows (every deal of a board) says how many there are ([`TableEntry::count`]).

use crate::error::{Error, Result, clipped, quoted};
use crate::search::{Context, Limits, Request};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

/// A parameter's value as the caller gives it (Python's `None`, `bool`, `int`, `float`, `str`).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    None,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
}

impl fmt::Display for Value {
    /// As Python shows it: `None`, `True`, `3`, `1.5`, `'A'`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::None => write!(f, "None"),
            Value::Bool(true) => write!(f, "True"),
            Value::Bool(false) => write!(f, "False"),
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v:?}"),
            Value::Str(s) => {
                let q = quoted(s);
                write!(f, "'{}'", &q[1..q.len() - 1])
            }
        }
    }
}

/// What a parameter holds, and its default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// An integer within `min..=max`.
    Int {
        min: i64,
        max: i64,
        default: i64,
    },
    Bool {
        default: bool,
    },
    /// One of `choices`; the first is the default.
    Choice {
        choices: &'static [&'static str],
    },
    /// Any text (the kernel checks it): `what` it must be, for a message; "" by default.
    Text {
        what: &'static str,
    },
    /// A time limit in seconds a row, or None for none.
    Timeout {
        default: Option<f64>,
    },
    /// A node limit a row, or None for none.
    MaxNodes,
    /// The memory a row's solve may take, in MB.
    MemoryMb {
        default: i64,
    },
}

/// One parameter of a table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    pub name: &'static str,
    pub kind: Kind,
}

impl Param {
    pub const fn int(name: &'static str, min: i64, max: i64, default: i64) -> Param {
        Param {
            name,
            kind: Kind::Int { min, max, default },
        }
    }
    pub const fn bool(name: &'static str, default: bool) -> Param {
        Param {
            name,
            kind: Kind::Bool { default },
        }
    }
    pub const fn choice(name: &'static str, choices: &'static [&'static str]) -> Param {
        Param {
            name,
            kind: Kind::Choice { choices },
        }
    }
    pub const fn text(name: &'static str, what: &'static str) -> Param {
        Param {
            name,
            kind: Kind::Text { what },
        }
    }
    pub const TIMEOUT: Param = Param {
        name: "timeout",
        kind: Kind::Timeout { default: None },
    };
    pub const fn timeout(default: f64) -> Param {
        Param {
            name: "timeout",
            kind: Kind::Timeout {
                default: Some(default),
            },
        }
    }
    pub const MAX_NODES: Param = Param {
        name: "max_nodes",
        kind: Kind::MaxNodes,
    };
    pub const fn memory_mb(default: i64) -> Param {
        Param {
            name: "memory_mb",
            kind: Kind::MemoryMb { default },
        }
    }

    /// The default value.
    pub fn default(&self) -> Value {
        match self.kind {
            Kind::Int { default, .. } | Kind::MemoryMb { default } => Value::Int(default as i128),
            Kind::Bool { default } => Value::Bool(default),
            Kind::Choice { choices } => Value::Str(choices[0].to_string()),
            Kind::Text { .. } => Value::Str(String::new()),
            Kind::Timeout { default } => default.map_or(Value::None, Value::Float),
            Kind::MaxNodes => Value::None,
        }
    }

    /// What the parameter must be, for a message.
    pub fn expected(&self) -> String {
        match self.kind {
            Kind::Int { min, max, .. } => format!("an integer from {min} to {max}"),
            Kind::Bool { .. } => "True or False".into(),
            Kind::Choice { choices } => format!("one of {choices:?}"),
            Kind::Text { what } => what.into(),
            Kind::Timeout { .. } => "a number of seconds from 0, or None for no limit".into(),
            Kind::MaxNodes => "a number of nodes from 0, or None for no limit".into(),
            Kind::MemoryMb { .. } => "a number of megabytes from 1".into(),
        }
    }

    /// `value` checked: the value itself (an int given for a float, as a float), or the
    /// error saying what was expected.
    fn check(&self, table: &str, value: &Value) -> Result<Value> {
        let ok = match (self.kind, value) {
            (Kind::Int { min, max, .. }, Value::Int(v)) => ((min as i128)..=(max as i128))
                .contains(v)
                .then(|| value.clone()),
            (Kind::Bool { .. }, Value::Bool(_)) => Some(value.clone()),
            (Kind::Text { .. }, Value::Str(_)) => Some(value.clone()),
            (Kind::Choice { choices }, Value::Str(s)) => {
                choices.contains(&s.as_str()).then(|| value.clone())
            }
            (Kind::Timeout { .. }, Value::None) | (Kind::MaxNodes, Value::None) => {
                Some(Value::None)
            }
            (Kind::Timeout { .. }, Value::Float(t)) => (*t >= 0.0).then(|| value.clone()),
            (Kind::Timeout { .. }, Value::Int(t)) => (*t >= 0).then_some(Value::Float(*t as f64)),
            (Kind::MaxNodes, Value::Int(n)) => {
                (0..=u64::MAX as i128).contains(n).then(|| value.clone())
            }
            (Kind::MemoryMb { .. }, Value::Int(m)) => (*m >= 1).then(|| value.clone()),
            _ => None,
        };
        ok.ok_or_else(|| {
            Error::InvalidOption(format!(
                "table {table}: parameter {} must be {}, not {}",
                self.name,
                self.expected(),
                clipped(&value.to_string())
            ))
        })
    }
}

/// The type of a column's values (as pyarrow names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    Bool,
    Int32,
    Int64,
    UInt64,
    Float64,
    String,
}

impl Dtype {
    pub fn name(self) -> &'static str {
        match self {
            Dtype::Bool => "bool",
            Dtype::Int32 => "int32",
            Dtype::Int64 => "int64",
            Dtype::UInt64 => "uint64",
            Dtype::Float64 => "float64",
            Dtype::String => "string",
        }
    }
}

/// One column of a table: its name, type, and whether a row may leave it null.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Column {
    pub name: &'static str,
    pub dtype: Dtype,
    pub nullable: bool,
}

impl Column {
    pub const fn new(name: &'static str, dtype: Dtype, nullable: bool) -> Column {
        Column {
            name,
            dtype,
            nullable,
        }
    }
}

/// One value of a row, in its column's order.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
}

impl From<bool> for Cell {
    fn from(v: bool) -> Cell {
        Cell::Bool(v)
    }
}
impl From<i64> for Cell {
    fn from(v: i64) -> Cell {
        Cell::Int(v)
    }
}
impl From<u64> for Cell {
    fn from(v: u64) -> Cell {
        Cell::UInt(v)
    }
}
impl From<f64> for Cell {
    fn from(v: f64) -> Cell {
        Cell::Float(v)
    }
}
impl From<String> for Cell {
    fn from(v: String) -> Cell {
        Cell::Str(v)
    }
}
impl<T: Into<Cell>> From<Option<T>> for Cell {
    fn from(v: Option<T>) -> Cell {
        v.map_or(Cell::Null, Into::into)
    }
}

/// A column's values (a null's place holds a default value).
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    Bool(Vec<bool>),
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    UInt64(Vec<u64>),
    Float64(Vec<f64>),
    String(Vec<String>),
}

/// A column of rows: its values, and which are not null (`None`: every one).
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnData {
    pub data: Data,
    pub valid: Option<Vec<bool>>,
}

/// The parameters of a table, checked, with the defaults of those not given.
#[derive(Debug, Clone)]
pub struct Params {
    values: BTreeMap<&'static str, Value>,
    /// The limits of each row's solve (from `timeout`, `max_nodes`, `memory_mb`).
    pub limits: Limits,
}

impl Params {
    fn get(&self, name: &str) -> &Value {
        self.values
            .get(name)
            .unwrap_or_else(|| panic!("the table declares no parameter {name}"))
    }
    /// An integer parameter (a kernel reads only the parameters its table declares).
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Value::Int(v) => *v as i64,
            v => panic!("parameter {name} is {v}, not an integer"),
        }
    }
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.get(name), Value::Bool(true))
    }
    pub fn str(&self, name: &str) -> &str {
        match self.get(name) {
            Value::Str(s) => s,
            v => panic!("parameter {name} is {v}, not a text"),
        }
    }
    /// Every parameter with its value, by name.
    pub fn values(&self) -> impl Iterator<Item = (&'static str, &Value)> {
        self.values.iter().map(|(k, v)| (*k, v))
    }
}

/// Rows `rows` of a table with `params`, seeded by `seed`, on the threads and cancel flag of
/// the context (whose limits are the parameters'): one `Vec<Cell>` a row, in the columns'
/// order.
pub type Kernel = fn(&Params, Range<u64>, u64, &Context) -> Result<Vec<Vec<Cell>>>;

/// A kind of table, declared once.
#[derive(Debug)]
pub struct TableEntry {
    pub name: &'static str,
    /// The game it belongs to (its registry line).
    pub game: &'static str,
    /// One line: what a row is.
    pub doc: &'static str,
    pub params: &'static [Param],
    pub columns: &'static [Column],
    /// The number of rows, where the parameters fix it (every deal of a board); `None` for a
    /// table of fresh deals, whose caller says how many.
    pub rows: Option<fn(&Params) -> Result<u64>>,
    /// Whether rows depend on the seed (fresh deals) or not.
    pub seeded: bool,
    pub kernel: Kernel,
}

impl TableEntry {
    /// The parameters `given` checked, with the defaults of the others. An unknown name, or a
    /// value of the wrong type or out of range, is an `InvalidOption` saying what was expected.
    pub fn params(&self, given: &[(String, Value)]) -> Result<Params> {
        let unknown: Vec<&str> = given
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| !self.params.iter().any(|p| p.name == *k))
            .collect();
        if !unknown.is_empty() {
            let mut names: Vec<&str> = self.params.iter().map(|p| p.name).collect();
            names.sort_unstable();
            return Err(Error::InvalidOption(format!(
                "table {} takes {names:?}, not {}",
                self.name,
                clipped(&format!("{unknown:?}"))
            )));
        }
        let mut values = BTreeMap::new();
        for p in self.params {
            let value = match given.iter().rev().find(|(k, _)| k == p.name) {
                Some((_, v)) => p.check(self.name, v)?,
                None => p.default(),
            };
            values.insert(p.name, value);
        }
        let number = |name: &str| match values.get(name) {
            Some(Value::Int(v)) => Some(*v),
            _ => None,
        };
        let timeout = match values.get("timeout") {
            Some(Value::Float(t)) => Some(*t),
            _ => None,
        };
        let request = Request::checked(
            timeout,
            number("max_nodes"),
            number("memory_mb").unwrap_or(1),
            None,
        )
        .map_err(|e| Error::InvalidOption(format!("table {}: {e}", self.name)))?;
        Ok(Params {
            values,
            limits: request.limits,
        })
    }

    /// The number of rows of the table: `deals` for a table of fresh deals (which needs it),
    /// the table's own count for a table whose parameters fix its rows (which refuses it).
    pub fn count(&self, params: &Params, deals: Option<u64>) -> Result<u64> {
        match (self.rows, deals) {
            (Some(rows), None) => rows(params),
            (Some(_), Some(_)) => Err(Error::InvalidOption(format!(
                "table {} solves every deal: give no number of deals",
                self.name
            ))),
            (None, Some(n)) => Ok(n),
            (None, None) => Err(Error::InvalidOption(format!(
                "table {} needs the number of deals (--deals)",
                self.name
            ))),
        }
    }

    /// Rows `rows` of the table with `params` and `seed`, as columns of the declared schema.
    /// A table whose parameters fix its rows refuses rows past its last.
    pub fn compute(
        &self,
        params: &Params,
        rows: Range<u64>,
        seed: u64,
        ctx: &Context,
    ) -> Result<Vec<ColumnData>> {
        if rows.start > rows.end {
            return Err(Error::InvalidOption(format!(
                "table {}: rows {}..{} run backwards",
                self.name, rows.start, rows.end
            )));
        }
        if let Some(count) = self.rows {
            let count = count(params)?;
            if rows.end > count {
                return Err(Error::InvalidOption(format!(
                    "table {} has {count} rows with these parameters, not {}",
                    self.name, rows.end
                )));
            }
        }
        let cells = (self.kernel)(params, rows, seed, ctx)?;
        self.columns_of(cells)
    }

    /// Rows of cells as the declared columns; a cell of the wrong type, or a null in a column
    /// that has none, is a kernel's error, said as such.
    fn columns_of(&self, rows: Vec<Vec<Cell>>) -> Result<Vec<ColumnData>> {
        let n = rows.len();
        let mut out: Vec<ColumnData> = self
            .columns
            .iter()
            .map(|c| ColumnData {
                data: match c.dtype {
                    Dtype::Bool => Data::Bool(Vec::with_capacity(n)),
                    Dtype::Int32 => Data::Int32(Vec::with_capacity(n)),
                    Dtype::Int64 => Data::Int64(Vec::with_capacity(n)),
                    Dtype::UInt64 => Data::UInt64(Vec::with_capacity(n)),
                    Dtype::Float64 => Data::Float64(Vec::with_capacity(n)),
                    Dtype::String => Data::String(Vec::with_capacity(n)),
                },
                valid: c.nullable.then(|| Vec::with_capacity(n)),
            })
            .collect();
        for (r, row) in rows.into_iter().enumerate() {
            if row.len() != self.columns.len() {
                return Err(self.bad_row(r, format!("{} cells", row.len())));
            }
            for ((cell, column), data) in row.into_iter().zip(self.columns).zip(&mut out) {
                let null = cell == Cell::Null;
                match (&mut data.valid, null) {
                    (Some(valid), _) => valid.push(!null),
                    (None, true) => {
                        return Err(self.bad_row(r, format!("a null {}", column.name)));
                    }
                    (None, false) => {}
                }
                match (&mut data.data, cell) {
                    (Data::Bool(v), Cell::Bool(x)) => v.push(x),
                    (Data::Bool(v), Cell::Null) => v.push(false),
                    (Data::Int32(v), Cell::Int(x)) if i32::try_from(x).is_ok() => v.push(x as i32),
                    (Data::Int32(v), Cell::Null) => v.push(0),
                    (Data::Int64(v), Cell::Int(x)) => v.push(x),
                    (Data::Int64(v), Cell::UInt(x)) if i64::try_from(x).is_ok() => v.push(x as i64),
                    (Data::Int64(v), Cell::Null) => v.push(0),
                    (Data::UInt64(v), Cell::UInt(x)) => v.push(x),
                    (Data::UInt64(v), Cell::Null) => v.push(0),
                    (Data::Float64(v), Cell::Float(x)) => v.push(x),
                    (Data::Float64(v), Cell::Null) => v.push(0.0),
                    (Data::String(v), Cell::Str(x)) => v.push(x),
                    (Data::String(v), Cell::Null) => v.push(String::new()),
                    (_, cell) => {
                        return Err(self.bad_row(
                            r,
                            format!(
                                "{cell:?} in column {} of {}",
                                column.name,
                                column.dtype.name()
                            ),
                        ));
                    }
                }
            }
        }
        Ok(out)
    }

    fn bad_row(&self, row: usize, what: String) -> Error {
        Error::NotApplicable(format!(
            "table {}: the kernel's row {row} holds {what}, against the table's columns",
            self.name
        ))
    }
}

/// A row's error as a table's `error` column holds it: the Python exception's name and message
/// (`SearchLimitError: quantum_leap solver: node limit reached after ...`).
pub fn error_text(e: &Error) -> String {
    let name = match e {
        Error::InvalidOption(_) => "InvalidOptionError",
        Error::InvalidNotation(_) => "InvalidNotationError",
        Error::IllegalMove(_) => "IllegalMoveError",
        Error::SearchLimit { .. } => "SearchLimitError",
        Error::NotApplicable(_) => "NotApplicableError",
        Error::Interrupted => "KeyboardInterrupt",
    };
    format!("{name}: {e}")
}

/// The work of an error (a search past its limits), or none.
pub fn error_work(e: &Error) -> (u64, f64) {
    match e {
        Error::SearchLimit { nodes, seconds, .. } => (*nodes, *seconds),
        _ => (0, 0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use std::sync::atomic::AtomicBool;

    fn given(pairs: &[(&str, Value)]) -> Vec<(String, Value)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn every_table_is_found_by_name_and_its_defaults_pass_its_own_checks() {
        let tables = registry::tables();
        assert!(tables.len() >= 4);
        for t in tables {
            assert!(std::ptr::eq(registry::table(t.name).unwrap(), t));
            assert!(registry::game_names().contains(&t.game), "{}", t.name);
            let defaults: Vec<(String, Value)> = t
                .params
                .iter()
                .map(|p| (p.name.to_string(), p.default()))
                .collect();
            let (given, default) = (t.params(&defaults).unwrap(), t.params(&[]).unwrap());
            assert!(given.values().eq(default.values()), "{}", t.name);
        }
        assert!(
            matches!(registry::table("chess"), Err(Error::InvalidOption(m)) if m.contains("quincunx_open"))
        );
    }

    #[test]
    fn a_bad_parameter_is_refused_saying_what_was_expected() {
        let t = registry::table("quincunx_open").unwrap();
        let err = |pairs: &[(&str, Value)]| match t.params(&given(pairs)) {
            Err(Error::InvalidOption(m)) => m,
            other => panic!("{other:?}"),
        };
        assert!(err(&[("colour", Value::Str("red".into()))]).contains("takes [\"empty\""));
        assert_eq!(
            err(&[("empty", Value::Int(13))]),
            "table quincunx_open: parameter empty must be an integer from 0 to 12, not 13"
        );
        assert!(err(&[("excuse", Value::Int(1))]).contains("True or False, not 1"));
        assert!(err(&[("timeout", Value::Float(-1.0))]).contains("seconds"));
        assert!(err(&[("memory_mb", Value::Int(0))]).contains("megabytes"));
        let ok = t.params(&given(&[("timeout", Value::Int(2))])).unwrap();
        assert_eq!(ok.limits.timeout, Some(std::time::Duration::from_secs(2)));
    }

    #[test]
    fn a_kernels_row_against_the_declared_columns_is_an_error_not_a_column() {
        fn wrong(_: &Params, rows: Range<u64>, _: u64, _: &Context) -> Result<Vec<Vec<Cell>>> {
            // Row 1 leaves a non-null column null, row 2 puts text in a number's column.
            Ok(rows
                .map(|i| match i {
                    1 => vec![Cell::Null],
                    2 => vec![Cell::Str("x".into())],
                    _ => vec![Cell::Int(i as i64)],
                })
                .collect())
        }
        const T: TableEntry = TableEntry {
            name: "test",
            game: "einstein",
            doc: "",
            params: &[],
            columns: &[Column::new("deal", Dtype::Int64, false)],
            rows: None,
            seeded: false,
            kernel: wrong,
        };
        let t = &T;
        let p = t.params(&[]).unwrap();
        let cancel = AtomicBool::new(false);
        let ctx = Context::new(p.limits.clone(), Some(1), &cancel);
        assert!(t.compute(&p, 0..1, 0, &ctx).is_ok());
        for (rows, what) in [(0..2, "a null deal"), (2..3, "in column deal of int64")] {
            match t.compute(&p, rows, 0, &ctx) {
                Err(Error::NotApplicable(m)) => assert!(m.contains(what), "{m}"),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn the_rows_of_a_fresh_deal_table_do_not_depend_on_how_they_are_cut() {
        let t = registry::table("quincunx_open").unwrap();
        let p = t.params(&given(&[("empty", Value::Int(5))])).unwrap();
        let cancel = AtomicBool::new(false);
        let ctx = |threads| Context::new(p.limits.clone(), threads, &cancel);
        let whole = t.compute(&p, 0..6, 9, &ctx(Some(2))).unwrap();
        let head = t.compute(&p, 0..2, 9, &ctx(Some(1))).unwrap();
        let tail = t.compute(&p, 2..6, 9, &ctx(None)).unwrap();
        let Data::Int32(scores) = &whole[3].data else {
            panic!()
        };
        let (Data::Int32(a), Data::Int32(b)) = (&head[3].data, &tail[3].data) else {
            panic!()
        };
        assert_eq!(scores, &[a.clone(), b.clone()].concat());
        let Data::Int64(deals) = &tail[0].data else {
            panic!()
        };
        assert_eq!(deals, &[2, 3, 4, 5]);
    }
}
