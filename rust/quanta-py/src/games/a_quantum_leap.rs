//! A Quantum Leap's extras: the state accessors, the scoring of one placement
//! (docs/rules/a_quantum_leap.md, *State extras* and *Scoring one placement*), the exact best
//! turn and best Higgs with their typed results, and batches of games played by a policy.

use super::position;
use crate::detach::run_detached;
use crate::errors::Limits;
use crate::errors::{self, InvalidOptionError, to_py};
use crate::result::Tuple;
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use quanta_core::Action;
use quanta_core::Game;
use quanta_core::a_quantum_leap::rules::{self, NO_CARD};
use quanta_core::a_quantum_leap::solve;
use quanta_core::a_quantum_leap::{AQuantumLeap, AQuantumLeapState as Core};
use quanta_core::erased::Position;
use quanta_core::search::Request;

fn aql<'s>(state: &'s Bound<'_, PyAny>, what: &str) -> PyResult<&'s Position<AQuantumLeap>> {
    position::<AQuantumLeap>(state, what)
}

fn rows<T: Copy>(cells: [T; 9]) -> Vec<Vec<T>> {
    cells.chunks(3).map(<[T]>::to_vec).collect()
}

/// A set of cards as codes, in card-index order.
fn codes(set: u64) -> Vec<&'static str> {
    rules::cards(set).map(rules::code).collect()
}

/// The top cards as 3 rows of 3 codes, None where a cell is empty.
fn display(s: &Core) -> Vec<Vec<Option<&'static str>>> {
    rows(s.tops().map(|c| (c != NO_CARD).then(|| rules::code(c))))
}

/// The stack heights as 3 rows of 3.
fn heights(s: &Core) -> Vec<Vec<u32>> {
    rows(s.heights().map(u32::from))
}

/// The game's state and the player `player` names.
fn seat<'s>(
    slf: &'s Bound<'_, AQuantumLeapState>,
    player: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<(&'s Core, usize)> {
    let p = aql(slf.as_any(), what)?;
    Ok((&p.state, errors::player(p, player)?))
}

state_class! {
    /// An A Quantum Leap state: the generic `State` with the game's extras.
    AQuantumLeapState, "AQuantumLeapState", {
    /// The top cards as 3 rows of 3 codes (row 1 first), None where a cell is empty.
    fn display(slf: &Bound<'_, Self>) -> PyResult<Vec<Vec<Option<&'static str>>>> {
        Ok(display(&aql(slf.as_any(), "a_quantum_leap.display")?.state))
    }
    /// The stack heights as 3 rows of 3.
    fn stacks(slf: &Bound<'_, Self>) -> PyResult<Vec<Vec<u32>>> {
        Ok(heights(&aql(slf.as_any(), "a_quantum_leap.stacks")?.state))
    }
    /// The pattern (`opening`, `free`, `ascending`, ...), None before stage two.
    fn pattern(slf: &Bound<'_, Self>) -> PyResult<Option<&'static str>> {
        let p = aql(slf.as_any(), "a_quantum_leap.pattern")?;
        Ok(p.state.pattern().map(|p| p.name()))
    }
    /// `player`'s hand as codes, in card-index order.
    fn hand(slf: &Bound<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
        let (s, player) = seat(slf, player, "a_quantum_leap.hand")?;
        Ok(codes(s.hand(player)))
    }
    /// `player`'s (first) stock as codes in card-index order: a set, its order is chance.
    fn stock(slf: &Bound<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
        let (s, player) = seat(slf, player, "a_quantum_leap.stock")?;
        Ok(codes(s.stock(player)))
    }
    /// Two players: `player`'s second stock while it is not taken up, else `[]`.
    fn second_stock(
        slf: &Bound<'_, Self>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<&'static str>> {
        let (s, player) = seat(slf, player, "a_quantum_leap.second_stock")?;
        Ok(codes(s.second_stock(player)))
    }
    /// Whether `player`'s hand lies face up (after a pass, until they place again).
    fn hand_shown(slf: &Bound<'_, Self>, player: &Bound<'_, PyAny>) -> PyResult<bool> {
        let (s, player) = seat(slf, player, "a_quantum_leap.hand_shown")?;
        Ok(s.hand_shown(player))
    }
    /// The codes of the cards on `cell` (`"b2"` or `(row, col)`), bottom to top.
    fn stack(slf: &Bound<'_, Self>, cell: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
        let p = aql(slf.as_any(), "a_quantum_leap.stack")?;
        Ok(p.state
            .stack(self::cell(cell)?)
            .into_iter()
            .map(rules::code)
            .collect())
    }
    /// The card drawn in stage one and waiting for its cell, None at other times.
    fn drawn(slf: &Bound<'_, Self>) -> PyResult<Option<&'static str>> {
        Ok(aql(slf.as_any(), "a_quantum_leap.drawn")?
            .state
            .drawn()
            .map(rules::code))
    }
    /// Every player's points (in a match, the totals so far); the same values as `returns()`.
    fn scores(slf: &Bound<'_, Self>) -> PyResult<Vec<i32>> {
        let p = aql(slf.as_any(), "a_quantum_leap.scores")?;
        Ok(p.state.scores()[..p.game.0.players].to_vec())
    }
    /// What `player` sees (None: everything): `display` and `stacks` (as the methods),
    /// `pattern`, per player `hands` (codes; None where hidden from `player`: another's hand
    /// not shown after a pass), `hand_shown` and `scores`, `phase` ("leave", "draw", "place",
    /// "higgs", "play" or "end"), `player` (to draw, place or play), `placed` (cards placed
    /// this turn), `drawn` (the card waiting for its cell, None when there is none or it is
    /// another player's), and `game` and `games`
    /// (the game of the match, from 1, and their number).
    #[pyo3(signature = (player=None))]
    fn view<'py>(
        slf: &Bound<'py, Self>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let p = aql(slf.as_any(), "a_quantum_leap.view")?;
        let viewer = super::viewer(p, player)?;
        let (s, n) = (&p.state, p.game.0.players);
        let (phase, to_move, placed) = s.turn();
        let hands: Vec<Option<Vec<&str>>> = (0..n)
            .map(|q| {
                let shown = viewer.is_none_or(|v| v == q) || s.hand_shown(q);
                shown.then(|| codes(s.hand(q)))
            })
            .collect();
        let view = PyDict::new(slf.py());
        view.set_item("display", display(s))?;
        view.set_item("stacks", heights(s))?;
        view.set_item("pattern", s.pattern().map(|p| p.name()))?;
        view.set_item("hands", hands)?;
        view.set_item(
            "hand_shown",
            (0..n).map(|q| s.hand_shown(q)).collect::<Vec<_>>(),
        )?;
        view.set_item("scores", &s.scores()[..n])?;
        view.set_item("phase", phase)?;
        view.set_item("player", to_move)?;
        view.set_item("placed", placed)?;
        let drawn = s.drawn().filter(|_| viewer.is_none_or(|v| v == to_move));
        view.set_item("drawn", drawn.map(rules::code))?;
        view.set_item("game", s.game_number() + 1)?;
        view.set_item("games", p.game.0.games())?;
        Ok(view)
    }
    }
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
    packs: &Bound<'_, PyAny>,
) -> PyResult<Scored> {
    let packs = errors::integer(packs, "packs")
        .ok()
        .and_then(|n| i64::try_from(n).ok())
        .ok_or_else(|| {
            InvalidOptionError::new_err(format!(
                "a_quantum_leap: packs must be 1 or 2, not {}",
                errors::quote(packs)
            ))
        })?;
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
        rules::score_placement_by_code(
            &display,
            &card,
            cell,
            pattern.as_deref(),
            rule.as_deref(),
            packs,
        )
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

// ---- the best turn and the best Higgs (quanta.a_quantum_leap.best_turn documents them) ----

result_class! {
    /// The exact best rest of the mover's turn (see `quanta.a_quantum_leap.best_turn`).
    BestTurn("quanta.a_quantum_leap", "BestTurn") {
        /// The action ids from the state, in order (a tuple).
        actions: Tuple<Action>,
        /// The actions' strings, in order (a tuple).
        moves: Tuple<String>,
        points: i32,
        penalty: bool,
        /// What a penalty costs the mover's side: 4, or 8 with partners (two opponents).
        penalty_points: i32,
        nodes: u64,
        seconds: f64,
        exact: bool,
    }
    repr "BestTurn" ["moves", "points", "penalty", "nodes", "seconds:.3", "exact"]
    methods {
        /// `points - penalty_points * penalty`: how much the mover's lead over every opponent
        /// (with partners: the other team) grows.
        #[getter]
        fn value(&self) -> i32 {
            self.points - self.penalty_points * self.penalty as i32
        }
    }
}

result_class! {
    /// The dealer's best Higgs (see `quanta.a_quantum_leap.best_higgs`).
    BestHiggs("quanta.a_quantum_leap", "BestHiggs") {
        action: Action,
        #[pyo3(name = "move")]
        move_: String,
        card: &'static str,
        points: i32,
        nodes: u64,
        seconds: f64,
        exact: bool,
    }
    repr "BestHiggs" ["action", "move", "card", "points", "nodes", "seconds:.3", "exact"]
}

/// The exact best rest of the mover's turn.
#[pyfunction]
fn a_quantum_leap_best_turn(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<BestTurn> {
    let p = aql(state, "a_quantum_leap.best_turn")?;
    let best = run_detached(py, |cancel| {
        solve::best_turn(&p.game.0, &p.state, &request.context(cancel))
    })?;
    let mut moves = Vec::with_capacity(best.actions.len());
    let mut s = p.state;
    for &a in &best.actions {
        moves.push(p.game.0.action_to_string(&s, a).map_err(to_py)?);
        p.game.0.apply(&mut s, a);
    }
    Ok(BestTurn {
        actions: Tuple(best.actions),
        moves: Tuple(moves),
        points: best.points,
        penalty: best.penalty,
        penalty_points: best.penalty_points,
        nodes: best.nodes,
        seconds: best.seconds,
        exact: true,
    })
}

/// The greedy policy's decision in a stage-two turn.
#[pyfunction]
fn a_quantum_leap_greedy_move(state: &Bound<'_, PyAny>) -> PyResult<Action> {
    let p = aql(state, "a_quantum_leap.greedy_move")?;
    solve::greedy_move(&p.game.0, &p.state).map_err(to_py)
}

/// The dealer's best Higgs.
#[pyfunction]
fn a_quantum_leap_best_higgs(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    request: Limits,
) -> PyResult<BestHiggs> {
    let p = aql(state, "a_quantum_leap.best_higgs")?;
    let best = run_detached(py, |cancel| {
        solve::best_higgs(&p.game.0, &p.state, &request.context(cancel))
    })?;
    Ok(BestHiggs {
        action: best.action,
        move_: p
            .game
            .0
            .action_to_string(&p.state, best.action)
            .map_err(to_py)?,
        card: rules::code(best.card),
        points: best.points,
        nodes: best.nodes,
        seconds: best.seconds,
        exact: true,
    })
}

/// Games `first..first+n` of `seed` with `players` players, every seat played by `policy`
/// ("random", "greedy" or "best_turn", each turn within `max_nodes`): arrays `scores`
/// (n × players), `turns`, `nodes`, `fallbacks`.
#[pyfunction]
fn a_quantum_leap_play_batch<'py>(
    py: Python<'py>,
    policy: &Bound<'py, PyAny>,
    players: &Bound<'py, PyAny>,
    n: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    limits: Limits,
) -> PyResult<Bound<'py, PyDict>> {
    let (seed, n, first) = errors::rows(seed, n, first, "games")?;
    let players = errors::integer_in(players, "players", 2, 4).map_err(|_| {
        InvalidOptionError::new_err(format!(
            "players must be 2, 3 or 4, not {}",
            errors::quote(players)
        ))
    })? as usize;
    let policy = policy
        .extract::<String>()
        .ok()
        .and_then(|name| solve::Policy::from_name(&name))
        .ok_or_else(|| {
            InvalidOptionError::new_err(format!(
                "policy must be 'random', 'greedy' or 'best_turn', not {}",
                errors::quote(policy)
            ))
        })?;
    let request = Request {
        threads: limits.threads,
        ..Request::default()
    };
    let game = AQuantumLeap {
        players,
        match_play: false,
        packs: 1,
        teams: false,
    };
    let rows = run_detached(py, |cancel| {
        let max_nodes = limits.limits.max_nodes;
        solve::play_batch(
            &game,
            policy,
            first,
            n,
            seed,
            max_nodes,
            &request.context(cancel),
        )
    })?;
    let scores: Vec<i32> = rows.iter().flat_map(|r| r.scores.iter().copied()).collect();
    let scores = scores.into_pyarray(py).reshape([rows.len(), players])?;
    let out = columns!(py, rows,
        "turns" => |r| r.turns,
        "nodes" => |r| r.nodes,
        "fallbacks" => |r| r.fallbacks,
    );
    out.set_item("scores", scores)?;
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<AQuantumLeapState>()?;
    m.add_class::<BestTurn>()?;
    m.add_class::<BestHiggs>()?;
    m.add_function(wrap_pyfunction!(a_quantum_leap_best_turn, m)?)?;
    m.add_function(wrap_pyfunction!(a_quantum_leap_best_higgs, m)?)?;
    m.add_function(wrap_pyfunction!(a_quantum_leap_greedy_move, m)?)?;
    m.add_function(wrap_pyfunction!(a_quantum_leap_play_batch, m)?)?;
    m.add_function(wrap_pyfunction!(a_quantum_leap_score_placement, m)?)?;
    Ok(())
}
