//! A Quantum Leap's extras: the state accessors and the scoring of one placement
//! (docs/rules/a_quantum_leap.md, *State extras* and *Scoring one placement*).

use super::position;
use crate::errors::{self, InvalidOptionError, to_py};
use pyo3::prelude::*;
use pyo3::types::PyString;
use quanta_core::a_quantum_leap::rules::{self, NO_CARD};
use quanta_core::a_quantum_leap::{AQuantumLeap, AQuantumLeapState};
use quanta_core::erased::Position;

fn aql<'s>(state: &'s Bound<'_, PyAny>, what: &str) -> PyResult<&'s Position<AQuantumLeap>> {
    position::<AQuantumLeap>(state, what)
}

fn rows<T: Copy>(cells: [T; 9]) -> Vec<Vec<T>> {
    cells.chunks(3).map(<[T]>::to_vec).collect()
}

/// The top cards as 3 rows of 3 codes, None where a cell is empty.
#[pyfunction]
fn a_quantum_leap_display(state: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<Option<&'static str>>>> {
    let s: &AQuantumLeapState = &aql(state, "a_quantum_leap.display")?.state;
    Ok(rows(
        s.tops().map(|c| (c != NO_CARD).then(|| rules::code(c))),
    ))
}

/// The stack heights as 3 rows of 3.
#[pyfunction]
fn a_quantum_leap_stacks(state: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<u32>>> {
    Ok(rows(
        aql(state, "a_quantum_leap.stacks")?
            .state
            .heights()
            .map(u32::from),
    ))
}

/// The pattern's name, None before stage two.
#[pyfunction]
fn a_quantum_leap_pattern(state: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
    Ok(aql(state, "a_quantum_leap.pattern")?
        .state
        .pattern()
        .map(|p| p.name()))
}

/// `player`'s hand as codes, in card-index order.
#[pyfunction]
fn a_quantum_leap_hand(
    state: &Bound<'_, PyAny>,
    player: &Bound<'_, PyAny>,
) -> PyResult<Vec<&'static str>> {
    let p = aql(state, "a_quantum_leap.hand")?;
    let player = errors::player(&*super::state(state, "a_quantum_leap.hand")?.inner, player)?;
    Ok(rules::cards(p.state.hand(player))
        .map(rules::code)
        .collect())
}

/// Every player's points (match totals so far).
#[pyfunction]
fn a_quantum_leap_scores(state: &Bound<'_, PyAny>) -> PyResult<Vec<i32>> {
    let p = aql(state, "a_quantum_leap.scores")?;
    Ok(p.state.scores()[..p.game.0.players].to_vec())
}

/// A name that may be None (a pattern, a rule), or the typed error.
fn optional_name(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<String>> {
    if value.is_none() {
        return Ok(None);
    }
    value.extract::<String>().map(Some).map_err(|_| {
        InvalidOptionError::new_err(format!(
            "a_quantum_leap: {what} must be a name (a str) or None, not {}",
            errors::quote(value)
        ))
    })
}

/// The cell given as a name (`"b2"`) or as (row, col).
fn cell(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(name) = value.cast::<PyString>() {
        return rules::cell_named(&name.to_string()).map_err(to_py);
    }
    let refused = || {
        InvalidOptionError::new_err(format!(
            "a_quantum_leap: a cell is (row, col) or a name like 'b2', not {}",
            errors::quote(value)
        ))
    };
    let pair: Vec<Bound<'_, PyAny>> = value
        .try_iter()
        .and_then(|items| items.take(3).collect::<PyResult<_>>())
        .map_err(|_| refused())?;
    let [row, col] = &pair[..] else {
        return Err(refused());
    };
    let row = errors::integer(row, "row").map_err(|_| refused())?;
    let col = errors::integer(col, "col").map_err(|_| refused())?;
    rules::cell_at(row, col).map_err(to_py)
}

/// (points, pairs, runs, triples, the pattern after, the rule followed or None).
type Scored = (i32, u32, u32, u32, &'static str, Option<&'static str>);

/// What placing `card` on `cell` of `display` under `pattern` (None: the Higgs) scores:
/// (points, pairs, runs, triples, the pattern after, the rule followed or None).
#[pyfunction]
fn a_quantum_leap_score_placement(
    display: &Bound<'_, PyAny>,
    card: &Bound<'_, PyAny>,
    cell: &Bound<'_, PyAny>,
    pattern: &Bound<'_, PyAny>,
    rule: &Bound<'_, PyAny>,
) -> PyResult<Scored> {
    let refused =
        || InvalidOptionError::new_err("a_quantum_leap: the display must be 3 rows of 3 cells");
    if display.is_instance_of::<PyString>() {
        return Err(refused());
    }
    let display: Vec<Vec<Option<String>>> = display.extract().map_err(|_| refused())?;
    let card = errors::text(card, |m| {
        InvalidOptionError::new_err(format!(
            "a_quantum_leap: a card is a code such as '7S': {m}"
        ))
    })?;
    let cell = self::cell(cell)?;
    let pattern = optional_name(pattern, "pattern")?;
    let rule = optional_name(rule, "rule")?;
    let p =
        rules::score_placement_by_code(&display, &card, cell, pattern.as_deref(), rule.as_deref())
            .map_err(to_py)?;
    let b = p.bonuses;
    Ok((
        p.points,
        b.pair,
        b.run,
        b.triple,
        p.pattern.name(),
        p.rule.map(|r| r.name()),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(a_quantum_leap_display, m)?)?;
    m.add_function(wrap_pyfunction!(a_quantum_leap_stacks, m)?)?;
    m.add_function(wrap_pyfunction!(a_quantum_leap_pattern, m)?)?;
    m.add_function(wrap_pyfunction!(a_quantum_leap_hand, m)?)?;
    m.add_function(wrap_pyfunction!(a_quantum_leap_scores, m)?)?;
    m.add_function(wrap_pyfunction!(a_quantum_leap_score_placement, m)?)?;
    Ok(())
}
