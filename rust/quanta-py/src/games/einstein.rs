//! EinStein würfelt nicht's extras: the board as an array, the exact solver with its typed
//! result, and the bot.

use super::position;
use crate::detach::run_detached;
use crate::errors::Limits;
use crate::errors::{self, InvalidOptionError};
use numpy::{IntoPyArray, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quanta_core::Action;
use quanta_core::einstein::solve as solver;
use quanta_core::einstein::{Einstein, Phase};
use std::collections::BTreeMap;

state_class! {
    /// An EinStein state: the generic `State` with EinStein's extras.
    EinsteinState, "EinsteinState", {
    /// The board as a 5x5 int8 array indexed [row, col] (row 0 at the top): player 0's stones
    /// +1..+6, player 1's -1..-6, empty cells 0.
    fn board<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let p = position::<Einstein>(slf.as_any(), "einstein.board")?;
        p.state
            .board()
            .to_vec()
            .into_pyarray(slf.py())
            .reshape([5, 5])
    }
    /// What `player` sees (None: everything; EinStein hides nothing): `board` (5 rows of 5
    /// ints as `board()`), `player` (the side to arrange, roll or move), `phase` ("setup",
    /// "roll", "move" or "over"), `die` (the roll to move by, else None) and `winner` (None
    /// before the end).
    #[pyo3(signature = (player=None))]
    fn view<'py>(
        slf: &Bound<'py, Self>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let p = position::<Einstein>(slf.as_any(), "einstein.view")?;
        super::viewer(p, player)?;
        let s = &p.state;
        let (phase, die, winner) = match s.phase() {
            Phase::Setup => ("setup", None, None),
            Phase::Roll => ("roll", None, None),
            Phase::Move(die) => ("move", Some(die), None),
            Phase::Over(winner) => ("over", None, Some(winner)),
        };
        let rows: Vec<Vec<i8>> = s.board().chunks(5).map(<[i8]>::to_vec).collect();
        let view = PyDict::new(slf.py());
        view.set_item("board", rows)?;
        view.set_item("player", s.player())?;
        view.set_item("phase", phase)?;
        view.set_item("die", die)?;
        view.set_item("winner", winner)?;
        Ok(view)
    }
    }
}

result_class! {
    /// The exact value of a position after the setup.
    ///
    /// `value`: the probability that the player to move (or about to roll) wins with optimal
    /// play (in a finished game 1 or 0 for the player the notation names, the loser: 0).
    /// `best_moves`: for each roll still to come, a best action (all six before the roll, the one
    /// rolled after it; empty in a finished game); `best_move_strings` the same as move strings.
    /// `nodes` and `seconds` measure the work; `exact` is always true (a search out of budget
    /// raises SearchLimitError instead of guessing).
    Solution("quanta.einstein", "Solution") {
        value: f64,
        best_moves: BTreeMap<u8, Action>,
        best_move_strings: BTreeMap<u8, String>,
        nodes: u64,
        seconds: f64,
        exact: bool,
    }
    repr "Solution" ["value", "best_move_strings", "nodes", "seconds:.3", "exact"]
}

/// Solves an EinStein position after the setup (see `quanta.einstein.solve`).
#[pyfunction]
fn einstein_solve(py: Python<'_>, state: &Bound<'_, PyAny>, request: Limits) -> PyResult<Solution> {
    let p = position::<Einstein>(state, "einstein.solve")?;
    let sol = run_detached(py, |cancel| {
        solver::solve(&p.game.0, &p.state, &request.context(cancel))
    })?;
    let best_move_strings = solver::best_move_strings(&p.game.0, &p.state, &sol)
        .map_err(errors::to_py)?
        .into_iter()
        .collect();
    Ok(Solution {
        value: sol.value,
        best_moves: sol.best_moves.into_iter().collect(),
        best_move_strings,
        nodes: sol.nodes,
        seconds: sol.seconds,
        exact: true,
    })
}

/// Every legal action of an EinStein position after the setup with its value (see
/// `quanta.einstein.analyze`).
#[pyfunction]
fn einstein_analyze(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<Vec<(Action, f64)>> {
    let p = position::<Einstein>(state, "einstein.analyze")?;
    let (values, _nodes) = run_detached(py, |cancel| {
        solver::analyze(&p.game.0, &p.state, &request.context(cancel))
    })?;
    Ok(values)
}

/// `solver_stones`: an integer from 0 to 6.
fn solver_stones(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    errors::integer_in(value, "solver_stones", 0, 6)
        .map(|n| n as usize)
        .map_err(|_| {
            InvalidOptionError::new_err(format!(
                "solver_stones must be an integer from 0 to 6 (stones a side), not {}",
                errors::quote(value)
            ))
        })
}

/// The bot's action (see `quanta.einstein.best_move`).
#[pyfunction]
fn einstein_best_move(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    solver_stones: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<Option<Action>> {
    let p = position::<Einstein>(state, "einstein.best_move")?;
    let stones = self::solver_stones(solver_stones)?;
    let seed = errors::seed(seed, "seed")?;
    run_detached(py, |cancel| {
        let ctx = request.context(cancel);
        let mut s = solver::Solver::new(&ctx);
        let mut rng = quanta_core::game::row_rng(seed, 0);
        let mut solved = false;
        solver::bot_move(&p.game.0, &p.state, &mut s, stones, &mut rng, &mut solved)
    })
}

/// EinStein's strongest player's action (see `quanta.einstein.best_action`).
#[pyfunction]
fn einstein_best_action(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<Action> {
    let p = position::<Einstein>(state, "einstein.best_action")?;
    let seed = errors::seed(seed, "seed")?;
    run_detached(py, |cancel| {
        let mut rng = quanta_core::game::row_rng(seed, 0);
        solver::best_action(&p.game.0, &p.state, &mut rng, &request.context(cancel))
    })
}

/// The estimated probability that the player the notation names wins (see
/// `quanta.einstein.evaluate`).
#[pyfunction]
fn einstein_evaluate(state: &Bound<'_, PyAny>) -> PyResult<f64> {
    let p = position::<Einstein>(state, "einstein.evaluate")?;
    solver::evaluate(&p.game.0, &p.state).map_err(errors::to_py)
}

/// Games `first..first+n` of `seed`: the bot against uniform random play (see
/// `benches/einstein_solve.py`), as a dict of numpy arrays.
#[pyfunction]
fn einstein_play_batch<'py>(
    py: Python<'py>,
    seed: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    solver_stones: &Bound<'py, PyAny>,
    request: Limits,
) -> PyResult<Bound<'py, PyDict>> {
    let (seed, n, first) = errors::rows(seed, n, first, "games")?;
    let stones = self::solver_stones(solver_stones)?;
    let rows = run_detached(py, |cancel| {
        solver::play_against_random(
            first,
            n,
            seed,
            request.threads,
            stones,
            &request.limits,
            cancel,
        )
    })?;
    Ok(columns!(py, rows,
        "bot" => |r| r.bot as u32,
        "bot_won" => |r| r.bot_won,
        "moves" => |r| r.moves,
        "solved" => |r| r.solved,
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The class is quanta.einstein.Solution; in the extension it sits beside Quantum Leap's
    // Solution under its own name.
    m.add("EinsteinSolution", m.py().get_type::<Solution>())?;
    m.add_class::<EinsteinState>()?;
    m.add_function(wrap_pyfunction!(einstein_solve, m)?)?;
    m.add_function(wrap_pyfunction!(einstein_analyze, m)?)?;
    m.add_function(wrap_pyfunction!(einstein_best_move, m)?)?;
    m.add_function(wrap_pyfunction!(einstein_best_action, m)?)?;
    m.add_function(wrap_pyfunction!(einstein_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(einstein_play_batch, m)?)?;
    Ok(())
}
