//! Quincunx's extras: the state accessors, placement scoring, the Decktet, and the solitaire
//! solvers with their typed results.

use super::position;
use crate::detach::run_detached;
use crate::errors::Limits;
use crate::errors::{self, IllegalMoveError, InvalidNotationError, InvalidOptionError, to_py};
use crate::result::Tuple;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quanta_core::Action;
use quanta_core::erased::Position;
use quanta_core::quincunx::cards::{self as decktet, Card, NO_CARD};
use quanta_core::quincunx::solve as qx;
use quanta_core::quincunx::{Quincunx, Turn, scoring};
use quanta_core::search::Request;
use std::collections::BTreeMap;

fn quincunx<'s>(state: &'s Bound<'_, PyAny>, what: &str) -> PyResult<&'s Position<Quincunx>> {
    position::<Quincunx>(state, what)
}

fn codes(set: u64) -> Vec<&'static str> {
    decktet::cards(set).map(decktet::code).collect()
}

/// The grid as rows top to bottom, each a list of card codes or None (empty).
fn grid(p: &Position<Quincunx>) -> Vec<Vec<Option<&'static str>>> {
    let side = p.game.0.side();
    p.state.grid[..side * side]
        .chunks(side)
        .map(|row| {
            row.iter()
                .map(|&c: &Card| (c != NO_CARD).then(|| decktet::code(c)))
                .collect()
        })
        .collect()
}

state_class! {
    /// A Quincunx state: the generic `State` with the game's extras.
    QuincunxState, "QuincunxState", {
    /// The grid as rows top to bottom, each a list of card codes or None (empty).
    fn grid(slf: &Bound<'_, Self>) -> PyResult<Vec<Vec<Option<&'static str>>>> {
        Ok(grid(quincunx(slf.as_any(), "quincunx.grid")?))
    }
    /// `player`'s cards as codes, in card-index order.
    fn hand(slf: &Bound<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
        let p = quincunx(slf.as_any(), "quincunx.hand")?;
        Ok(codes(p.state.hands[errors::player(p, player)?]))
    }
    /// The cards nobody has seen (undealt, or left to draw), as codes in card-index order.
    fn pile(slf: &Bound<'_, Self>) -> PyResult<Vec<&'static str>> {
        Ok(codes(quincunx(slf.as_any(), "quincunx.pile")?.state.pile))
    }
    /// Per player: the totals of the finished rounds (hand penalties included) plus this
    /// round's turn points (no penalty yet). A lost solitaire game keeps its turn points here;
    /// its `returns()` are the loss, below every completed game's.
    fn scores(slf: &Bound<'_, Self>) -> PyResult<Vec<i32>> {
        let p = quincunx(slf.as_any(), "quincunx.scores")?;
        Ok(p.state.scores[..p.game.0.players].to_vec())
    }
    /// True for a solitaire game lost: the hand ran out before the grid was full.
    fn lost(slf: &Bound<'_, Self>) -> PyResult<bool> {
        let p = quincunx(slf.as_any(), "quincunx.lost")?;
        Ok(p.game.0.lost(&p.state))
    }
    /// What `player` sees (None: everything): `grid` (as `grid()`), per player `hands`
    /// (codes; None where hidden from `player`: another player's hand), `hand_sizes` and
    /// `scores`, `pile_size`, `phase` ("deal", "place", "draw" or "end"), `player` (to place
    /// or draw; None while dealing and at the end), `draws` (cards still to draw), `round`
    /// (from 1), `rounds` and `lost` (as `lost()`).
    #[pyo3(signature = (player=None))]
    fn view<'py>(
        slf: &Bound<'py, Self>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let p = quincunx(slf.as_any(), "quincunx.view")?;
        let viewer = super::viewer(p, player)?;
        let (s, n) = (&p.state, p.game.0.players);
        let (phase, to_move, draws) = match s.turn {
            Turn::Deal => ("deal", None, 0),
            Turn::Place(q) => ("place", Some(q), 0),
            Turn::Draw { player, pending } => ("draw", Some(player), pending),
            Turn::End => ("end", None, 0),
        };
        let hands: Vec<Option<Vec<&str>>> = (0..n)
            .map(|q| viewer.is_none_or(|v| v == q).then(|| codes(s.hands[q])))
            .collect();
        let sizes: Vec<u32> = (0..n).map(|q| s.hands[q].count_ones()).collect();
        let view = PyDict::new(slf.py());
        view.set_item("grid", grid(p))?;
        view.set_item("hands", hands)?;
        view.set_item("hand_sizes", sizes)?;
        view.set_item("scores", &s.scores[..n])?;
        view.set_item("pile_size", s.pile.count_ones())?;
        view.set_item("phase", phase)?;
        view.set_item("player", to_move)?;
        view.set_item("draws", draws)?;
        view.set_item("round", s.round + 1)?;
        view.set_item("rounds", p.game.0.rounds())?;
        view.set_item("lost", p.game.0.lost(s))?;
        Ok(view)
    }
    }
}

/// What placing `card` on `cell` of `grid` scores: (basic, pairs, straights, sets, power,
/// draws). `grid` is a 4x4 or 5x5 list of rows of card codes or None, `cell` is (row, col);
/// `solitaire` leaves straights and sets on the diagonals out. Unknown codes and bad shapes
/// raise InvalidNotationError; an occupied or off-grid cell, or a card already on the grid,
/// IllegalMoveError.
#[pyfunction]
fn quincunx_score_placement(
    grid: &Bound<'_, PyAny>,
    card: &Bound<'_, PyAny>,
    cell: &Bound<'_, PyAny>,
    solitaire: &Bound<'_, PyAny>,
) -> PyResult<(i32, i32, i32, i32, i32, u32)> {
    let solitaire = errors::flag(solitaire, "solitaire")?;
    let rows: Vec<Vec<Option<String>>> = grid.extract().map_err(|_| {
        InvalidNotationError::new_err(
            "quincunx: the grid must be a list of rows, each a list of card codes or None",
        )
    })?;
    let card = errors::text(card, |m| {
        InvalidNotationError::new_err(format!("quincunx: a card is a code: {m}"))
    })?;
    let cell: (i64, i64) = cell.extract().map_err(|_| {
        IllegalMoveError::new_err(format!(
            "quincunx: a cell is (row, col), not {}",
            errors::quote(cell)
        ))
    })?;
    let p = scoring::score_placement_by_code(&rows, &card, cell, solitaire).map_err(to_py)?;
    Ok((p.basic, p.pairs, p.straights, p.sets, p.power, p.draws))
}

/// The Decktet by card index: (code, name, rank, suit letters) per card, the Excuse last.
#[pyfunction]
fn quincunx_deck() -> Vec<(&'static str, &'static str, u8, String)> {
    decktet::DECK
        .iter()
        .map(|c| {
            let suits = (0..6)
                .filter(|s| c.suits & 1 << s != 0)
                .map(|s| decktet::SUIT_LETTERS[s])
                .collect();
            (c.code, c.name, c.rank, suits)
        })
        .collect()
}

// ---- the solitaire solvers (python/quanta/quincunx.py documents them) ----

result_class! {
    /// The best line with the draw order known (see `quanta.quincunx.solve_open`).
    OpenSolution("quanta.quincunx", "OpenSolution") {
        lost: bool,
        score: i32,
        /// The line's placements, as actions (a tuple; the draws follow from the order).
        line: Tuple<Action>,
        nodes: u64,
        seconds: f64,
        exact: bool,
    }
    repr "OpenSolution" ["lost", "score", "line", "nodes", "seconds:.3", "exact"]
}

result_class! {
    /// Whether the grid can be filled with the draw order known (see
    /// `quanta.quincunx.fill_open`).
    FillSolution("quanta.quincunx", "FillSolution") {
        winnable: bool,
        /// A line that fills the grid (a tuple of actions), or None when there is none.
        line: Option<Tuple<Action>>,
        nodes: u64,
        seconds: f64,
        exact: bool,
    }
    repr "FillSolution" ["winnable", "line", "nodes", "seconds:.3", "exact"]
}

result_class! {
    /// The exact value of a position with the draw order unknown (see
    /// `quanta.quincunx.solve_expected`).
    ExpectedSolution("quanta.quincunx", "ExpectedSolution") {
        p_win: f64,
        p_loss: f64,
        score: f64,
        best_action: Option<Action>,
        best_move: Option<String>,
        /// Every legal placement: (probability of filling the grid, expected final score).
        actions: BTreeMap<Action, (f64, f64)>,
        nodes: u64,
        seconds: f64,
        exact: bool,
    }
    repr "ExpectedSolution" ["p_win", "score", "best_move", "nodes", "seconds:.3", "exact"]
}

/// Card codes (top first) as card indices; an unknown code is invalid notation.
fn order(codes: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let codes: Vec<Bound<'_, PyAny>> = codes
        .try_iter()
        .map_err(|_| {
            InvalidNotationError::new_err("the pile order must be a sequence of card codes")
        })?
        .collect::<PyResult<_>>()?;
    codes
        .iter()
        .map(|c| {
            let code = errors::text(c, |m| InvalidNotationError::new_err(m))?;
            decktet::from_code(&code).ok_or_else(|| {
                InvalidNotationError::new_err(format!("quincunx: no card {:?}", errors::quote(c)))
            })
        })
        .collect()
}

fn solitaire(state: &Bound<'_, PyAny>, what: &str) -> PyResult<qx::Solitaire> {
    let p = quincunx(state, what)?;
    qx::Solitaire::from_state(&p.game.0, &p.state).map_err(to_py)
}

#[pyfunction]
fn quincunx_solve_open(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    pile: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<OpenSolution> {
    let pos = solitaire(state, "quincunx.solve_open")?;
    let order = order(pile)?;
    let s = run_detached(py, |cancel| {
        qx::solve_open(&pos, &order, &request.context(cancel))
    })?;
    Ok(OpenSolution {
        lost: s.lost,
        score: s.score,
        line: Tuple(s.line),
        nodes: s.nodes,
        seconds: s.seconds,
        exact: true,
    })
}

#[pyfunction]
fn quincunx_fill_open(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    pile: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<FillSolution> {
    let pos = solitaire(state, "quincunx.fill_open")?;
    // The search runs on one thread; `threads` is checked like every solver's.
    let order = order(pile)?;
    let f = run_detached(py, |cancel| {
        qx::fill_open(&pos, &order, &request.context(cancel))
    })?;
    Ok(FillSolution {
        winnable: f.line.is_some(),
        line: f.line.map(Tuple),
        nodes: f.nodes,
        seconds: f.seconds,
        exact: true,
    })
}

#[pyfunction]
fn quincunx_solve_expected(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<ExpectedSolution> {
    let pos = solitaire(state, "quincunx.solve_expected")?;
    // The search runs on one thread; `threads` is checked like every solver's.
    let e = run_detached(py, |cancel| {
        qx::solve_expected(&pos, &request.context(cancel))
    })?;
    let actions = e
        .actions
        .iter()
        .map(|&(a, p, score)| (a, (p, score)))
        .collect();
    let inner = &super::state(state, "quincunx.solve_expected")?.inner;
    let best_move = super::move_string(&**inner, e.best_action)?;
    Ok(ExpectedSolution {
        p_win: e.p_win,
        p_loss: 1.0 - e.p_win,
        score: e.score,
        best_action: e.best_action,
        best_move,
        actions,
        nodes: e.nodes,
        seconds: e.seconds,
        exact: true,
    })
}

/// A count that must be a positive integer (or None where `optional`).
fn count(value: &Bound<'_, PyAny>, name: &str, optional: bool) -> PyResult<Option<u64>> {
    if optional && value.is_none() {
        return Ok(None);
    }
    errors::integer_in(value, name, 1, i64::MAX as i128)
        .map(|v| Some(v as u64))
        .map_err(|_| {
            InvalidOptionError::new_err(format!(
                "{name} must be a positive integer{}, not {}",
                if optional { " or None" } else { "" },
                errors::quote(value)
            ))
        })
}

/// What the sampled policy takes: samples, candidates and effort, checked.
fn policy_counts(
    samples: &Bound<'_, PyAny>,
    candidates: &Bound<'_, PyAny>,
    effort: &Bound<'_, PyAny>,
) -> PyResult<(usize, Option<usize>, Option<u64>)> {
    Ok((
        count(samples, "samples", false)?.unwrap_or(1) as usize,
        count(candidates, "candidates", true)?.map(|c| c as usize),
        count(effort, "effort", true)?,
    ))
}

/// Sampled best move: the chosen action (None when the game is over).
#[pyfunction]
fn quincunx_best_move(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    candidates: &Bound<'_, PyAny>,
    effort: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<Option<Action>> {
    let pos = solitaire(state, "quincunx.best_move")?;
    let (samples, candidates, effort) = policy_counts(samples, candidates, effort)?;
    let seed = errors::seed(seed, "seed")?;
    let a = run_detached(py, |cancel| {
        qx::best_move(
            &pos,
            samples,
            seed,
            candidates,
            effort,
            &request.context(cancel),
        )
    })?;
    Ok(a.action)
}

/// The greedy baseline's placement (None when the game is over).
#[pyfunction]
fn quincunx_greedy_move(state: &Bound<'_, PyAny>) -> PyResult<Option<Action>> {
    Ok(qx::greedy_move(&solitaire(state, "quincunx.greedy_move")?))
}

/// Batch rows as a dict of numpy arrays: `solved`, `nodes`, `seconds`, and the outcome
/// columns `lost` and (where the batch asks it) `score` as `numpy.ma` masked arrays, masked
/// where the deal is undecided (past its limits): an undecided deal claims neither a loss nor
/// a score.
fn rows_to_py<'py>(
    py: Python<'py>,
    rows: Vec<qx::Row>,
    with_score: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let undecided = rows
        .iter()
        .map(|r| !r.solved())
        .collect::<Vec<_>>()
        .into_pyarray(py);
    // A masked entry's data is never read; it is set to the type's zero.
    let masked = |data: Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("mask", &undecided)?;
        py.import("numpy.ma")?
            .call_method("masked_array", (data,), Some(&kwargs))
    };
    let out = columns!(py, rows,
        "solved" => |r| r.solved(),
        "lost" => |r| r.lost.unwrap_or(false),
        "score" => |r| r.score.unwrap_or(0),
        "nodes" => |r| r.nodes,
        "seconds" => |r| r.seconds,
    );
    out.set_item("lost", masked(out.get_item("lost")?.expect("a column"))?)?;
    if with_score {
        out.set_item("score", masked(out.get_item("score")?.expect("a column"))?)?;
    } else {
        out.del_item("score")?;
    }
    Ok(out)
}

/// Open solves of deals `first..first+n` of `seed`: arrays solved, lost, score (masked where
/// undecided), nodes, seconds.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn quincunx_solve_open_batch<'py>(
    py: Python<'py>,
    seed: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    excuse: &Bound<'py, PyAny>,
    empty: &Bound<'py, PyAny>,
    one_at_a_time: &Bound<'py, PyAny>,
    request: Limits,
) -> PyResult<Bound<'py, PyDict>> {
    let (seed, n, first) = errors::rows(seed, n, first, "deals")?;
    let excuse = errors::flag(excuse, "excuse")?;
    let one_at_a_time = errors::flag(one_at_a_time, "one_at_a_time")?;
    let empty = errors::integer_in(empty, "empty", 0, 12).map_err(|_| {
        InvalidOptionError::new_err(format!(
            "empty must be a number of empty cells from 0 to 12, not {}",
            errors::quote(empty)
        ))
    })? as u32;
    let rows = run_detached(py, |cancel| {
        qx::solve_open_batch(
            seed,
            first,
            n,
            excuse,
            empty,
            one_at_a_time,
            &request.context(cancel),
        )
    })?;
    rows_to_py(py, rows, true)
}

/// Fill questions of deals `first..first+n` of `seed`: arrays solved, lost (no line fills the
/// grid; masked where undecided), nodes, seconds.
#[pyfunction]
fn quincunx_fill_open_batch<'py>(
    py: Python<'py>,
    seed: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    excuse: &Bound<'py, PyAny>,
    request: Limits,
) -> PyResult<Bound<'py, PyDict>> {
    let (seed, n, first) = errors::rows(seed, n, first, "deals")?;
    let excuse = errors::flag(excuse, "excuse")?;
    let rows = run_detached(py, |cancel| {
        qx::fill_open_batch(seed, first, n, excuse, &request.context(cancel))
    })?;
    rows_to_py(py, rows, false)
}

/// Deals `first..first+n` of `seed` played to the end by `policy` ("greedy" or "best_move").
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn quincunx_play_batch<'py>(
    py: Python<'py>,
    policy: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    excuse: &Bound<'py, PyAny>,
    threads: &Bound<'py, PyAny>,
    samples: &Bound<'py, PyAny>,
    candidates: &Bound<'py, PyAny>,
    effort: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let (seed, n, first) = errors::rows(seed, n, first, "deals")?;
    let excuse = errors::flag(excuse, "excuse")?;
    let request = Request {
        threads: errors::threads(threads)?,
        ..Request::default()
    };
    let (samples, candidates, effort) = policy_counts(samples, candidates, effort)?;
    let policy = match policy.extract::<String>().as_deref() {
        Ok("greedy") => qx::Policy::Greedy,
        Ok("best_move") => qx::Policy::BestMove {
            samples,
            candidates,
            effort,
        },
        _ => {
            return Err(InvalidOptionError::new_err(format!(
                "policy must be 'greedy' or 'best_move', not {}",
                errors::quote(policy)
            )));
        }
    };
    let rows = run_detached(py, |cancel| {
        qx::play_batch(policy, seed, first, n, excuse, &request.context(cancel))
    })?;
    rows_to_py(py, rows, true)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<QuincunxState>()?;
    m.add_class::<OpenSolution>()?;
    m.add_class::<FillSolution>()?;
    m.add_class::<ExpectedSolution>()?;
    m.add_function(wrap_pyfunction!(quincunx_score_placement, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_deck, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_solve_open, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_fill_open, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_solve_expected, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_best_move, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_greedy_move, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_solve_open_batch, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_fill_open_batch, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_play_batch, m)?)?;
    Ok(())
}
