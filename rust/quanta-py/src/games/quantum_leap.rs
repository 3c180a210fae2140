//! Quantum Leap's extras: the cells, and the exact solver with its typed results.

use super::state;
use crate::detach::run_detached;
use crate::errors::Limits;
use crate::errors::NotApplicableError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quanta_core::Action;
use quanta_core::bits::{Bits, Bits256};
use quanta_core::erased::{DynState, Position, position};
use quanta_core::quantum_leap::{Phase, QuantumLeap, Setup, solve as ql};

result_class! {
    /// The exact value of a decision node.
    ///
    /// `win`: the player to act (White or Black to move, or Black deciding the swap) wins with
    /// perfect play. `best_action`: a winning action when `win`; otherwise the move the solver
    /// tried last (any move loses), or None when there is none (a finished game). `best_move` is
    /// its string. `nodes` and `seconds` measure the work; `exact` is always true (a search out
    /// of budget raises SearchLimitError instead of guessing).
    Solution("quanta.quantum_leap", "Solution") {
        win: bool,
        best_action: Option<Action>,
        best_move: Option<String>,
        nodes: u64,
        seconds: f64,
        exact: bool,
    }
    repr "Solution" ["win", "best_action", "best_move", "nodes", "seconds:.3", "exact"]
}

/// The cells of a Quantum Leap state, by number: 'w', 'b', '.' or '?' (not dealt yet).
fn cells_of<B: Bits>(p: &Position<QuantumLeap<B>>) -> Vec<char> {
    let s = &p.state;
    (0..p.game.0.cells())
        .map(|c| {
            if s.stones[0].has(c) {
                'w'
            } else if s.stones[1].has(c) {
                'b'
            } else if s.undealt.has(c) {
                '?'
            } else {
                '.'
            }
        })
        .collect()
}

/// The view of a Quantum Leap state (see `QuantumLeapState.view`).
fn view_of<'py, B: Bits>(
    py: Python<'py>,
    p: &Position<QuantumLeap<B>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (phase, player) = match p.state.phase {
        Phase::Deal => ("deal", None),
        Phase::Swap => ("swap", Some(1)),
        Phase::Move { side, over: false } => ("move", Some(side)),
        Phase::Move { side, over: true } => ("over", Some(side)),
    };
    let view = PyDict::new(py);
    let board = &p.game.0.board;
    view.set_item("size", board.shape.hexagon_side())?;
    view.set_item("board", board.text())?;
    view.set_item("coords", board.coords.clone())?;
    view.set_item(
        "setup",
        match p.game.0.setup {
            Setup::A => "A",
            Setup::B => "B",
        },
    )?;
    view.set_item("cells", cells_of(p))?;
    view.set_item("phase", phase)?;
    view.set_item("player", player)?;
    Ok(view)
}

/// `$f(p)` for the state behind `$value` as a Quantum Leap position `p` of any bitboard
/// width, or the typed error naming what `$what` needs.
macro_rules! any_width {
    ($value:expr, $what:expr, |$p:ident| $f:expr) => {{
        let s = &*state($value, $what)?.inner;
        if let Ok($p) = position::<QuantumLeap<u64>>(s, $what) {
            Ok($f)
        } else if let Ok($p) = position::<QuantumLeap<u128>>(s, $what) {
            Ok($f)
        } else if let Ok($p) = position::<QuantumLeap<Bits256>>(s, $what) {
            Ok($f)
        } else {
            Err(wrong_game($what, s))
        }
    }};
}

state_class! {
    /// A Quantum Leap state: the generic `State` with the game's extras.
    QuantumLeapState, "QuantumLeapState", {
    /// The contents of every cell, by cell number: 'w' (white stone), 'b' (black stone), '.'
    /// (empty) or '?' (not dealt yet).
    fn cells(slf: &Bound<'_, Self>) -> PyResult<Vec<char>> {
        any_width!(slf.as_any(), "quantum_leap.cells", |p| cells_of(p))
    }
    /// What `player` sees (None: everything; Quantum Leap hides nothing): `size` (the side of
    /// a hexagonal board, else None), `board` (the board as the option `board` names it),
    /// `coords` (each cell's axial coordinates (q, r), by cell number), `setup` ("A" or "B"), `cells` (as `cells()`), `phase` ("deal", "swap", "move"
    /// or "over") and `player` (0 White, 1 Black: to swap, to move, or unable to move at the
    /// end; None while dealing).
    #[pyo3(signature = (player=None))]
    fn view<'py>(
        slf: &Bound<'py, Self>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        super::viewer(&*state(slf.as_any(), "quantum_leap.view")?.inner, player)?;
        let py = slf.py();
        any_width!(slf.as_any(), "quantum_leap.view", |p| view_of(py, p))?
    }
    }
}

fn wrong_game(what: &str, state: &dyn DynState) -> PyErr {
    NotApplicableError::new_err(format!(
        "{what} needs a state of the game quantum_leap, not of {}",
        state.game().name()
    ))
}

/// Solves a Quantum Leap decision node (see `quanta.quantum_leap.solve`).
#[pyfunction]
fn quantum_leap_solve(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<Solution> {
    let what = "quantum_leap.solve";
    let sol = any_width!(state, what, |p| run_detached(py, |cancel| ql::solve(
        &p.game.0,
        &p.state,
        &request.context(cancel)
    )))??;
    let best_move = super::move_string(&*super::state(state, what)?.inner, sol.best_action)?;
    Ok(Solution {
        win: sol.win,
        best_action: sol.best_action,
        best_move,
        nodes: sol.nodes,
        seconds: sol.seconds,
        exact: true,
    })
}

/// Every legal action of a Quantum Leap decision node with whether it wins for its player.
#[pyfunction]
fn quantum_leap_analyze(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<Vec<(Action, bool)>> {
    let what = "quantum_leap.analyze";
    let (values, _nodes) = any_width!(state, what, |p| run_detached(py, |cancel| ql::analyze(
        &p.game.0,
        &p.state,
        &request.context(cancel)
    )))??;
    Ok(values)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Solution>()?;
    m.add_class::<QuantumLeapState>()?;
    m.add_function(wrap_pyfunction!(quantum_leap_solve, m)?)?;
    m.add_function(wrap_pyfunction!(quantum_leap_analyze, m)?)?;
    Ok(())
}
