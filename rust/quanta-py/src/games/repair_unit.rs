//! Quantum Repair Unit's extras: the unseen cards, and the solvers with the order known
//! (python/quanta/repair_unit.py documents them).

use super::position;
use crate::detach::run_detached;
use crate::errors::Limits;
use crate::errors::{self, InvalidOptionError, to_py};
use crate::result::Tuple;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quanta_core::batch::{Split, map_rows};
use quanta_core::erased::Position;
use quanta_core::repair_unit::solve as ru;
use quanta_core::repair_unit::{Card, NONE, Pending, RepairUnit, Step, cards, code};
use quanta_core::search::Context;
use quanta_core::{Action, Error, Game, ToMove};

fn repair_unit<'s>(state: &'s Bound<'_, PyAny>, what: &str) -> PyResult<&'s Position<RepairUnit>> {
    position::<RepairUnit>(state, what)
}

/// A card's code, None for no card.
fn card(c: Card) -> Option<String> {
    (c != NONE).then(|| code(c))
}

state_class! {
    /// A Quantum Repair Unit state: the generic `State` with the game's extras.
    RepairUnitState, "RepairUnitState", {
    /// The codes of the cards whose places the team does not know (the deck below its known
    /// top and above the cards put under it; before and during the deal, the undealt cards),
    /// in card order.
    fn unseen(slf: &Bound<'_, Self>) -> PyResult<Vec<String>> {
        let p = repair_unit(slf.as_any(), "repair_unit.unseen")?;
        Ok(cards(p.state.unseen).map(code).collect())
    }
    /// What `player` sees (None: everything; the team shares all it knows): `forecasts` (per
    /// forecast, front first, a `[face_down, face_up]` pair of codes or None per position),
    /// `target`, `drawn` and `top` (the deck's top card a Jack showed; each a code or None),
    /// `unseen` (how many cards are unseen), `under` (the known cards put under the deck, next
    /// first), `removed` (codes in card order), `idle` (turns without progress), `phase`
    /// ("deal", "start", "draw", "move", "end", "won" or "lost"), `forecast` (the active
    /// forecast's letter), `tunnelled` (the turn's tunnel is used) and `pending` (the effect
    /// being resolved: "drawn", "peek", the name of the position tunnelled on, or None).
    #[pyo3(signature = (player=None))]
    fn view<'py>(
        slf: &Bound<'py, Self>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let p = repair_unit(slf.as_any(), "repair_unit.view")?;
        super::viewer(p, player)?;
        let (g, s) = (&p.game.0, &p.state);
        let forecasts: Vec<Vec<[Option<String>; 2]>> = (0..g.forecasts())
            .map(|f| {
                (0..g.length())
                    .map(|i| [card(s.down[f][i]), card(s.up[f][i])])
                    .collect()
            })
            .collect();
        let phase = match s.step {
            Step::Deal => "deal",
            Step::Start => "start",
            Step::Draw => "draw",
            Step::Move => "move",
            Step::End => "end",
            Step::Won => "won",
            Step::Lost => "lost",
        };
        let pending = match s.pending {
            Pending::None => None,
            Pending::Drawn => Some("drawn".to_string()),
            Pending::Peek => Some("peek".to_string()),
            Pending::Tunnelled(i) => Some(RepairUnit::place_name(s.active as usize, i as usize)),
        };
        let view = PyDict::new(slf.py());
        view.set_item("forecasts", forecasts)?;
        view.set_item("target", card(s.target))?;
        view.set_item("drawn", card(s.drawn))?;
        view.set_item("top", card(s.top))?;
        view.set_item("unseen", s.unseen.count_ones())?;
        view.set_item(
            "under",
            s.queue
                .as_slice()
                .iter()
                .map(|&c| code(c))
                .collect::<Vec<_>>(),
        )?;
        view.set_item("removed", cards(s.removed).map(code).collect::<Vec<_>>())?;
        view.set_item("idle", s.idle)?;
        view.set_item("phase", phase)?;
        view.set_item("forecast", ((b'A' + s.active) as char).to_string())?;
        view.set_item("tunnelled", s.tunnelled)?;
        view.set_item("pending", pending)?;
        Ok(view)
    }
    }
}

result_class! {
    /// Whether the team can win with the order known (see `quanta.repair_unit.solve_open`).
    RepairOpenSolution("quanta.repair_unit", "RepairUnitOpenSolution") {
        winnable: bool,
        /// A winning line of the team's actions (a tuple; chance excluded); empty when not
        /// winnable.
        line: Tuple<Action>,
        nodes: u64,
        seconds: f64,
        exact: bool,
    }
    repr "OpenSolution" ["winnable", "line:len", "nodes", "seconds:.3", "exact"]
}

result_class! {
    /// The estimate of `quanta.repair_unit.win_probability`.
    RepairWinProbability("quanta.repair_unit", "RepairUnitWinProbability") {
        probability: Option<f64>,
        stderr: Option<f64>,
        samples: usize,
        wins: usize,
        decided: usize,
        undecided: usize,
        nodes: u64,
        seconds: f64,
    }
    repr "WinProbability" [
        "probability:.4", "stderr:.4", "samples", "wins", "decided", "undecided", "nodes",
        "seconds:.3",
    ]
}

/// The order as card codes, checked in Rust against the state's unseen cards.
fn order(
    state: &quanta_core::repair_unit::RepairState,
    value: &Bound<'_, PyAny>,
) -> PyResult<Vec<u8>> {
    let expected = "order must be a sequence of card codes (str), a permutation of state.unseen()";
    let items: Vec<Bound<'_, PyAny>> = value
        .try_iter()
        .map_err(|_| {
            InvalidOptionError::new_err(format!("{expected}, not {}", errors::quote(value)))
        })?
        .collect::<PyResult<_>>()?;
    if value.is_instance_of::<pyo3::types::PyString>() {
        return Err(InvalidOptionError::new_err(format!(
            "{expected}, not the text {}",
            errors::quote(value)
        )));
    }
    let codes = items
        .iter()
        .map(|c| {
            errors::text(c, |m| {
                InvalidOptionError::new_err(format!("{expected}: {m}"))
            })
        })
        .collect::<PyResult<Vec<String>>>()?;
    ru::read_order(state, &codes).map_err(to_py)
}

#[pyfunction]
fn repair_unit_solve_open(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    order: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<RepairOpenSolution> {
    let p = repair_unit(state, "repair_unit.solve_open")?;
    let order = self::order(&p.state, order)?;
    let s = run_detached(py, |cancel| {
        ru::solve_open(&p.game.0, &p.state, &order, &request.context(cancel))
    })?;
    Ok(RepairOpenSolution {
        winnable: s.winnable,
        line: Tuple(s.line),
        nodes: s.nodes,
        seconds: s.seconds,
        exact: true,
    })
}

#[pyfunction]
fn repair_unit_win_probability(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<RepairWinProbability> {
    let p = repair_unit(state, "repair_unit.win_probability")?;
    let samples = samples_arg(samples)?;
    let seed = errors::seed(seed, "seed")?;
    let w = run_detached(py, |cancel| {
        ru::win_probability(&p.game.0, &p.state, samples, seed, &request.context(cancel))
    })?;
    Ok(RepairWinProbability {
        probability: w.probability,
        stderr: w.stderr,
        samples: w.samples,
        wins: w.wins,
        decided: w.decided,
        undecided: w.undecided,
        nodes: w.nodes,
        seconds: w.seconds,
    })
}

fn horizon_arg(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    errors::integer_in(value, "horizon", 1, 52)
        .map(|v| v as u32)
        .map_err(|_| {
            InvalidOptionError::new_err(format!(
                "horizon must be a number of cards from 1 to 52, not {}",
                errors::quote(value)
            ))
        })
}

fn samples_arg(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    errors::integer_in(value, "samples", 1, 1 << 24)
        .map(|v| v as usize)
        .map_err(|_| {
            InvalidOptionError::new_err(format!(
                "samples must be an integer from 1 to 16777216, not {}",
                errors::quote(value)
            ))
        })
}

#[pyfunction]
fn repair_unit_policy(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
    horizon: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<(Action, Vec<(Action, usize, usize)>)> {
    let p = repair_unit(state, "repair_unit.policy")?;
    let samples = samples_arg(samples)?;
    let horizon = horizon_arg(horizon)?;
    let seed = errors::seed(seed, "seed")?;
    let m = run_detached(py, |cancel| {
        ru::policy(
            &p.game.0,
            &p.state,
            samples,
            horizon,
            seed,
            &request.context(cancel),
        )
    })?;
    Ok((m.action, m.wins))
}

#[pyfunction]
fn repair_unit_best_action(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<Action> {
    let p = repair_unit(state, "repair_unit.best_action")?;
    let seed = errors::seed(seed, "seed")?;
    run_detached(py, |cancel| {
        ru::best_action(&p.game.0, &p.state, seed, &request.context(cancel))
    })
}

#[pyfunction]
fn repair_unit_evaluate(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<f64> {
    let p = repair_unit(state, "repair_unit.evaluate")?;
    let seed = errors::seed(seed, "seed")?;
    run_detached(py, |cancel| {
        ru::evaluate(&p.game.0, &p.state, seed, &request.context(cancel))
    })
}

#[pyfunction]
fn repair_unit_rule_move(state: &Bound<'_, PyAny>) -> PyResult<Action> {
    let p = repair_unit(state, "repair_unit.rule_move")?;
    match p.game.0.to_move(&p.state) {
        ToMove::Player(_) => Ok(ru::rule_move(&p.game.0, &p.state)),
        _ => Err(to_py(Error::NotApplicable(format!(
            "repair_unit.rule_move: the team has no decision in {}",
            p.game.0.notation(&p.state)
        )))),
    }
}

fn players_arg(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    errors::integer_in(value, "players", 1, 4)
        .map(|v| v as usize)
        .map_err(|_| {
            InvalidOptionError::new_err(format!(
                "players must be an integer from 1 to 4, not {}",
                errors::quote(value)
            ))
        })
}

/// `solve_open` over fresh deals (row `i`: all 52 cards in the order `row_rng(seed, first+i)`
/// shuffles, the deal included): arrays `winnable` (bool; false where undecided), `decided`
/// (bool: false past a limit), `nodes` and `seconds`.
#[pyfunction]
fn repair_unit_open_batch<'py>(
    py: Python<'py>,
    players: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    request: Limits,
) -> PyResult<Bound<'py, PyDict>> {
    let game = RepairUnit::new(players_arg(players)?);
    let (seed, n, first) = errors::rows(seed, n, first, "deals")?;
    let rows = run_detached(py, |cancel| {
        let ctx = Context::new(request.limits.clone(), request.threads, cancel);
        quanta_core::repair_unit::solve::deal_table::open_batch(&game, first, n, seed, &ctx)
    })?;
    Ok(columns!(py, rows,
        "winnable" => |r| r.0 == Some(true),
        "decided" => |r| r.0.is_some(),
        "nodes" => |r| r.1,
        "seconds" => |r| r.2,
    ))
}

/// Plays fresh games with a player (`"best"`, `"policy"`, `"rule"` or `"random"`), the cards from
/// row `i`'s generator: array `won` (bool) and `decisions` (int32).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn repair_unit_play_batch<'py>(
    py: Python<'py>,
    players: &Bound<'py, PyAny>,
    player: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    samples: &Bound<'py, PyAny>,
    horizon: &Bound<'py, PyAny>,
    request: Limits,
) -> PyResult<Bound<'py, PyDict>> {
    let game = RepairUnit::new(players_arg(players)?);
    let kind = errors::text(player, |m| InvalidOptionError::new_err(m))?;
    if !["best", "policy", "rule", "random"].contains(&kind.as_str()) {
        return Err(InvalidOptionError::new_err(format!(
            "player must be 'best', 'policy', 'rule' or 'random', not {}",
            errors::quote(player)
        )));
    }
    let (seed, n, first) = errors::rows(seed, n, first, "games")?;
    let samples = samples_arg(samples)?;
    let horizon = horizon_arg(horizon)?;
    let rows = run_detached(py, |cancel| {
        let one = Context::new(request.limits.clone(), None, cancel);
        let rows = map_rows(
            first,
            n,
            seed,
            request.threads,
            Split::Rows,
            cancel,
            |row, rng| ru::play(&game, &kind, samples, horizon, row, rng, &one),
        )?;
        rows.into_iter().collect::<Result<Vec<_>, Error>>()
    })?;
    Ok(columns!(py, rows, "won" => |r| r.0, "decisions" => |r| r.1))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RepairOpenSolution>()?;
    m.add_class::<RepairWinProbability>()?;
    m.add_class::<RepairUnitState>()?;
    m.add_function(wrap_pyfunction!(repair_unit_solve_open, m)?)?;
    m.add_function(wrap_pyfunction!(repair_unit_win_probability, m)?)?;
    m.add_function(wrap_pyfunction!(repair_unit_policy, m)?)?;
    m.add_function(wrap_pyfunction!(repair_unit_best_action, m)?)?;
    m.add_function(wrap_pyfunction!(repair_unit_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(repair_unit_rule_move, m)?)?;
    m.add_function(wrap_pyfunction!(repair_unit_open_batch, m)?)?;
    m.add_function(wrap_pyfunction!(repair_unit_play_batch, m)?)?;
    Ok(())
}
