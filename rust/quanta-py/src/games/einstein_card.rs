//! EinStein a la Card's extras: its state class (the board, hands, heaps, discards and the
//! view), and the exact solver for both hands open, with its typed result.

use super::position;
use crate::detach::run_detached;
use crate::errors;
use crate::errors::Limits;
use numpy::{IntoPyArray, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quanta_core::Action;
use quanta_core::einstein::cell_name;
use quanta_core::einstein_card::solve as solver;
use quanta_core::einstein_card::{EinsteinCard, KINDS, NAMES, Phase};
use quanta_core::erased::Position;

fn card<'s>(
    slf: &'s Bound<'_, EinsteinCardState>,
    what: &str,
) -> PyResult<&'s Position<EinsteinCard>> {
    position::<EinsteinCard>(slf.as_any(), what)
}

/// Card names of `counts` copies of each kind, in card order.
fn names(counts: [u8; KINDS]) -> Vec<&'static str> {
    (0..KINDS)
        .flat_map(|k| std::iter::repeat_n(NAMES[k], counts[k] as usize))
        .collect()
}

state_class! {
    /// An EinStein a la Card state: the generic `State` with the game's extras.
    EinsteinCardState, "EinsteinCardState", {
    /// The board as a 5x5 int8 array indexed [row, col]: player 0's stones +1..+6, player 1's
    /// -1..-6, empty cells 0 (as EinStein's).
    fn board<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let p = card(slf, "einstein_card.board")?;
        p.state
            .board()
            .cells()
            .to_vec()
            .into_pyarray(slf.py())
            .reshape([5, 5])
    }
    /// `player`'s hand as card names, in card order (the whole state: hidden or not).
    fn hand(slf: &Bound<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
        let p = card(slf, "einstein_card.hand")?;
        Ok(names(p.state.hand(errors::player(p, player)?)))
    }
    /// The cards left in `player`'s heap, in card order.
    fn heap(slf: &Bound<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
        let p = card(slf, "einstein_card.heap")?;
        Ok(names(p.state.heap(errors::player(p, player)?)))
    }
    /// The cards `player` has played, in order.
    fn discards(slf: &Bound<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
        let p = card(slf, "einstein_card.discards")?;
        let player = errors::player(p, player)?;
        Ok(p.state
            .discards(player)
            .iter()
            .map(|&k| NAMES[k as usize])
            .collect())
    }
    /// What `player` sees (None: everything): `board` (5 rows of 5 ints as `board()`),
    /// `player` (whose card is resolved), `phase` ("setup", "deal", "play", "move", "murphy",
    /// "full", "dirac", "heisenberg", "schroedinger", "draw" or "over"), `number` (the number
    /// to move as, or Heisenberg's roll; else None), `cell` (the stone named by Murphy Light
    /// or marked by Schroedinger; else None), and per player `hands` and `heaps` (card names,
    /// None where hidden from `player`: a hand neither theirs nor open, and its heap),
    /// `hand_sizes`, `heap_sizes` and `discards`.
    #[pyo3(signature = (player=None))]
    fn view<'py>(
        slf: &Bound<'py, Self>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let p = card(slf, "einstein_card.view")?;
        let viewer = super::viewer(p, player)?;
        let s = &p.state;
        let (phase, number, cell) = match s.phase() {
            Phase::Setup => ("setup", None, None),
            Phase::Deal => ("deal", None, None),
            Phase::Play => ("play", None, None),
            Phase::Number(n) => ("move", Some(n), None),
            Phase::Murphy => ("murphy", None, None),
            Phase::Named(c) => ("murphy", None, Some(cell_name(c))),
            Phase::Full => ("full", None, None),
            Phase::Dirac => ("dirac", None, None),
            Phase::Heisenberg => ("heisenberg", None, None),
            Phase::Rolled(n) => ("heisenberg", Some(n), None),
            Phase::Schroedinger => ("schroedinger", None, None),
            Phase::Marked(c) => ("schroedinger", None, Some(cell_name(c))),
            Phase::Draw => ("draw", None, None),
            Phase::Over => ("over", None, None),
        };
        let shown = |owner: usize| viewer.is_none_or(|v| p.game.0.shows(owner, v));
        let count = |cards: [u8; KINDS]| cards.iter().map(|&n| n as usize).sum::<usize>();
        let rows: Vec<Vec<i8>> = s.board().cells().chunks(5).map(<[i8]>::to_vec).collect();
        let view = PyDict::new(slf.py());
        view.set_item("board", rows)?;
        view.set_item("player", s.player())?;
        view.set_item("phase", phase)?;
        view.set_item("number", number)?;
        view.set_item("cell", cell)?;
        let each = |f: &dyn Fn(usize) -> Option<Vec<&'static str>>| [f(0), f(1)];
        view.set_item("hands", each(&|o| shown(o).then(|| names(s.hand(o)))))?;
        view.set_item("heaps", each(&|o| shown(o).then(|| names(s.heap(o)))))?;
        view.set_item("hand_sizes", [count(s.hand(0)), count(s.hand(1))])?;
        view.set_item("heap_sizes", [count(s.heap(0)), count(s.heap(1))])?;
        let discards =
            |o: usize| -> Vec<&str> { s.discards(o).iter().map(|&k| NAMES[k as usize]).collect() };
        view.set_item("discards", [discards(0), discards(1)])?;
        Ok(view)
    }
    }
}

result_class! {
    /// The exact value of a decision node with both hands open.
    ///
    /// `value`: the expected return of the player to act with optimal play by both sides, in
    /// [-1, 1] (+1 a win, -1 a loss, 0 a draw); in a finished game the return of the player the
    /// notation names. `best_action`: the lowest action of the highest value (None in a finished
    /// game); `best_move` its string. `nodes` and `seconds` measure the work; `exact` is always
    /// true (a search out of budget raises SearchLimitError instead of guessing).
    Solution("quanta.einstein_card", "Solution") {
        value: f64,
        best_action: Option<Action>,
        best_move: Option<String>,
        nodes: u64,
        seconds: f64,
        exact: bool,
    }
    repr "Solution" ["value", "best_action", "best_move", "nodes", "seconds:.3", "exact"]
}

/// Solves an EinStein a la Card decision node with both hands open (see
/// `quanta.einstein_card.solve`).
#[pyfunction]
fn einstein_card_solve(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<Solution> {
    let p = position::<EinsteinCard>(state, "einstein_card.solve")?;
    let sol = run_detached(py, |cancel| {
        solver::solve(&p.game.0, &p.state, &request.context(cancel))
    })?;
    let best_move = super::move_string(p, sol.best_action)?;
    Ok(Solution {
        value: sol.value,
        best_action: sol.best_action,
        best_move,
        nodes: sol.nodes,
        seconds: sol.seconds,
        exact: true,
    })
}

/// Every legal action of an EinStein a la Card decision node with both hands open, with its
/// value (see `quanta.einstein_card.analyze`).
#[pyfunction]
fn einstein_card_analyze(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<Vec<(Action, f64)>> {
    let p = position::<EinsteinCard>(state, "einstein_card.analyze")?;
    let (values, _nodes) = run_detached(py, |cancel| {
        solver::analyze(&p.game.0, &p.state, &request.context(cancel))
    })?;
    Ok(values)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The class is quanta.einstein_card.Solution; in the extension it sits beside the other
    // games' solutions under its own name.
    m.add("EinsteinCardSolution", m.py().get_type::<Solution>())?;
    m.add_class::<EinsteinCardState>()?;
    m.add_function(wrap_pyfunction!(einstein_card_solve, m)?)?;
    m.add_function(wrap_pyfunction!(einstein_card_analyze, m)?)?;
    Ok(())
}
