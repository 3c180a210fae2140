//! Each game's extras (its state class with the state accessors, solvers and their typed
//! results), one file per game, each with its own `register`. Adding a game's extras is one
//! file and two lines here: its module and its state class in `STATE_CLASSES`.

use crate::errors::NotApplicableError;
use crate::game::{State, Wrap, wrap};
use pyo3::prelude::*;
use pyo3::types::PyType;
use quanta_core::knowledge::Knowledge;
use quanta_core::erased::Position;

/// Declares a game's state class: a subclass of `State` (with no data of its own) whose methods
/// are the game's extras and, again, the generic methods of every game loop (`State`'s own):
/// CPython calls a method fast only when the method is on the object's own class.
macro_rules! state_class {
    ($(#[$doc:meta])* $class:ident, $name:literal, { $($extras:tt)* }) => {
        $(#[$doc])*
        #[pyclass(module = "quanta", name = $name, extends = crate::game::State, frozen)]
        #[derive(Default)]
        pub struct $class;

        #[pymethods]
        impl $class {
            /// 0..n-1, `quanta.CHANCE` (-1) at a chance node, `quanta.TERMINAL` (-4) at the end.
            #[getter]
            fn current_player(slf: &Bound<'_, Self>) -> i32 {
                slf.as_super().get().current_player()
            }
            #[getter]
            fn is_terminal(slf: &Bound<'_, Self>) -> bool {
                slf.as_super().get().is_terminal()
            }
            #[getter]
            fn is_chance(slf: &Bound<'_, Self>) -> bool {
                slf.as_super().get().is_chance()
            }
            /// The legal actions, a sorted tuple; at a chance node, its outcomes.
            fn legal_actions<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
                slf.as_super().get().legal_actions(slf.py())
            }
            /// `(action, probability)` pairs of a chance node; empty elsewhere.
            fn chance_outcomes<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<Bound<'py, pyo3::types::PyList>> {
                slf.as_super().get().chance_outcomes(slf.py())
            }
            /// The state after `action`; raises `IllegalMoveError` (and changes nothing) if
            /// illegal.
            fn play<'py>(
                slf: &Bound<'py, Self>,
                action: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, crate::game::State>> {
                slf.as_super().get().play(action)
            }
            $($extras)*
        }
    };
}

mod a_quantum_leap;
mod einstein;
mod einstein_card;
mod quantum_leap;
mod quincunx;
mod repair_unit;

/// Each game's state class (a subclass of `State` holding the game's extras), by game name.
const STATE_CLASSES: &[(&str, Wrap)] = &[
    ("a_quantum_leap", wrap::<a_quantum_leap::AQuantumLeapState>),
    ("einstein", wrap::<einstein::EinsteinState>),
    ("einstein_card", wrap::<einstein_card::EinsteinCardState>),
    ("quantum_leap", wrap::<quantum_leap::QuantumLeapState>),
    ("quincunx", wrap::<quincunx::QuincunxState>),
    ("repair_unit", wrap::<repair_unit::RepairUnitState>),
];

/// How the states of the game `name` are made in Python: its state class, or the generic
/// `State` for a game without one.
pub fn state_class(name: &str) -> Wrap {
    STATE_CLASSES
        .iter()
        .find(|(game, _)| *game == name)
        .map_or(plain, |&(_, wrap)| wrap)
}

fn plain(py: Python<'_>, state: State) -> PyResult<Bound<'_, State>> {
    Bound::new(py, state)
}

/// `value` if it is an instance of the state class `class`, else the typed error naming what
/// `what` (e.g. "einstein.board", the game's module first) needs and what it got: the module
/// helpers' check.
#[pyfunction]
fn game_state<'py>(
    value: &Bound<'py, PyAny>,
    class: &Bound<'py, PyType>,
    what: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let s = state(value, what)?;
    if value.is_instance(class)? {
        return Ok(value.clone());
    }
    let game = what.split('.').next().unwrap_or(what);
    Err(NotApplicableError::new_err(format!(
        "{what} needs a state of the game {game}, not of {}",
        s.inner.game().name()
    )))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(game_state, m)?)?;
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
pub fn position<'s, G: Knowledge>(
    state: &'s Bound<'_, PyAny>,
    what: &str,
) -> PyResult<&'s Position<G>> {
    quanta_core::erased::position::<G>(&*self::state(state, what)?.inner, what)
        .map_err(crate::errors::to_py)
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

/// Reads the `player` of a `view`: None (everything) or a player of the state's game.
pub fn viewer(
    position: &dyn quanta_core::erased::DynState,
    player: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<usize>> {
    match player {
        Some(p) if !p.is_none() => crate::errors::player(position, p).map(Some),
        _ => Ok(None),
    }
}
