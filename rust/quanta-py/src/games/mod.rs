//! Each game's extras (state accessors, solvers and their typed results), one file per game,
//! each with its own `register`. Adding a game's extras is one file and one line here.

use crate::errors::NotApplicableError;
use crate::game::State;
use pyo3::prelude::*;
use quanta_core::Game;
use quanta_core::erased::Position;

mod a_quantum_leap;
mod einstein;
mod einstein_card;
mod quantum_leap;
mod quincunx;
mod repair_unit;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    a_quantum_leap::register(m)?;
    einstein::register(m)?;
    einstein_card::register(m)?;
    quantum_leap::register(m)?;
    quincunx::register(m)?;
    repair_unit::register(m)?;
    Ok(())
}

/// The game and state of type `G` behind `state`, or the typed error naming what `what`
/// (e.g. "quincunx.grid") needs and what it got.
pub fn position<'s, G: Game + std::fmt::Debug>(
    state: &'s Bound<'_, PyAny>,
    what: &str,
) -> PyResult<&'s Position<G>> {
    let state = self::state(state, what)?;
    state
        .inner
        .as_any()
        .downcast_ref::<Position<G>>()
        .ok_or_else(|| {
            NotApplicableError::new_err(format!(
                "{what} needs a state of the game {}, not of {}",
                G::NAME,
                state.inner.game().name()
            ))
        })
}

/// The string of a solver's best action in `state`, if it has one.
pub fn move_string(
    state: &dyn quanta_core::erased::DynState,
    action: Option<quanta_core::Action>,
) -> PyResult<Option<String>> {
    action
        .map(|a| state.action_to_string(a))
        .transpose()
        .map_err(crate::errors::to_py)
}

/// The state passed to `what`, or the typed error saying a state was expected.
pub fn state<'s>(value: &'s Bound<'_, PyAny>, what: &str) -> PyResult<&'s State> {
    value.cast::<State>().map(|s| s.get()).map_err(|_| {
        NotApplicableError::new_err(format!(
            "{what} needs a game state (from quanta.game(...).new_state() or from_notation), \
             not {}",
            crate::errors::quote(value)
        ))
    })
}
