//! `quanta._core`: thin PyO3 wrappers over quanta-core. Errors map to the typed exceptions of
//! `quanta.exceptions`; long Rust work runs with the GIL released and stays interruptible.

use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple};
use quanta_core::erased::{DynGame, DynState};
use quanta_core::quantum_leap;
use quanta_core::quincunx::{cards as decktet, scoring as quincunx_scoring};
use quanta_core::search::{Limits, in_pool};
use quanta_core::{Action, Error, OptionValue, Options, registry};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pyo3::import_exception!(quanta.exceptions, IllegalMoveError);
pyo3::import_exception!(quanta.exceptions, InvalidNotationError);
pyo3::import_exception!(quanta.exceptions, InvalidOptionError);
pyo3::import_exception!(quanta.exceptions, SearchLimitError);

/// The one place core errors become Python exceptions.
fn to_py(e: Error) -> PyErr {
    match e {
        Error::InvalidOption(m) => InvalidOptionError::new_err(m),
        Error::InvalidNotation(m) => InvalidNotationError::new_err(m),
        Error::IllegalMove(m) => IllegalMoveError::new_err(m),
        e @ Error::SearchLimit { nodes, seconds, .. } => {
            SearchLimitError::new_err((e.to_string(), nodes, seconds))
        }
        Error::NotApplicable(m) => PyValueError::new_err(m),
        Error::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
    }
}

/// Runs `work` on its own thread with the GIL released, checking for Ctrl-C (and other
/// signals) meanwhile; on a signal it raises the cancel flag, waits for `work` to notice, and
/// returns the signal's exception. The one helper every long-running call goes through.
fn run_detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let cancel = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel();
    // The receiver is used from detached closures, which must be `Sync`: hence the mutex.
    let rx = std::sync::Mutex::new(rx);
    let wait = |timeout: Option<Duration>| {
        let rx = rx.lock().unwrap_or_else(|e| e.into_inner());
        match timeout {
            Some(t) => rx.recv_timeout(t),
            None => rx
                .recv()
                .map_err(|_| std::sync::mpsc::RecvTimeoutError::Disconnected),
        }
    };
    std::thread::scope(|scope| {
        let cancel = &cancel;
        scope.spawn(move || {
            let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || work(cancel),
            )));
        });
        loop {
            match py.detach(|| wait(Some(Duration::from_millis(50)))) {
                Ok(Ok(result)) => return result.map_err(to_py),
                Ok(Err(_)) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "quanta: internal error in the Rust core",
                    ));
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        cancel.store(true, Ordering::Relaxed);
                        let _ = py.detach(|| wait(None));
                        return Err(signal);
                    }
                }
            }
        }
    })
}

fn options_from_py(options: &Bound<'_, PyDict>) -> PyResult<Options> {
    let mut out = Options::new();
    for (key, value) in options.iter() {
        let key: String = key
            .extract()
            .map_err(|_| InvalidOptionError::new_err("option names must be strings"))?;
        let value = if value.is_instance_of::<PyBool>() {
            OptionValue::Bool(value.extract()?)
        } else if value.is_instance_of::<PyInt>() {
            OptionValue::Int(value.extract().map_err(|_| {
                InvalidOptionError::new_err(format!("option {key}: integer out of range"))
            })?)
        } else if value.is_instance_of::<PyString>() {
            OptionValue::Str(value.extract()?)
        } else {
            return Err(InvalidOptionError::new_err(format!(
                "option {key}: expected an int, bool or str, not {}",
                value.get_type().name()?
            )));
        };
        out.insert(key, value);
    }
    Ok(out)
}

fn options_to_py<'py>(py: Python<'py>, options: &Options) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in options {
        match value {
            OptionValue::Int(v) => dict.set_item(key, v)?,
            OptionValue::Bool(v) => dict.set_item(key, v)?,
            OptionValue::Str(v) => dict.set_item(key, v)?,
        }
    }
    Ok(dict)
}

/// An action argument: any Python integer (numpy integers too); everything else, and integers
/// outside `0..num_actions`, is an illegal move.
fn action_from_py(state: &dyn DynState, action: &Bound<'_, PyAny>) -> PyResult<Action> {
    let n = state.game().num_actions();
    let integer = if action.is_instance_of::<PyBool>() {
        None
    } else {
        action.extract::<i64>().ok()
    };
    match integer {
        Some(a) if (0..n as i64).contains(&a) => Ok(a as Action),
        Some(a) => Err(IllegalMoveError::new_err(format!(
            "{}: action {a} is out of range (0..{n})",
            state.game().name()
        ))),
        None => Err(IllegalMoveError::new_err(format!(
            "{}: an action is an integer in 0..{n}, not {}",
            state.game().name(),
            action.repr()?
        ))),
    }
}

/// A text argument; anything but a `str` raises the method's own typed error.
fn text_arg(text: &Bound<'_, PyAny>, error: impl Fn(String) -> PyErr) -> PyResult<String> {
    text.extract::<String>().map_err(|_| {
        let what = text
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_else(|_| "?".into());
        error(format!("expected text (a str), not {what}"))
    })
}

/// A game: its rules and parameters. Make one with `quanta.game(name, **options)`.
#[pyclass(module = "quanta", name = "Game", frozen)]
struct Game {
    inner: Arc<dyn DynGame>,
}

#[pymethods]
impl Game {
    /// The registered name, an entry of `quanta.GAMES`.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    /// Actions are the integers `0..num_actions`.
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }
    /// Every parameter's value, defaults included.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options_to_py(py, &self.inner.options())
    }
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.observation_shape())
    }
    /// The start of a game (possibly a chance node).
    fn new_state(&self) -> State {
        State {
            inner: self.inner.new_state(),
        }
    }
    /// The state written as `text` in the game's notation.
    fn from_notation(&self, text: &Bound<'_, PyAny>) -> PyResult<State> {
        let text = text_arg(text, |m| InvalidNotationError::new_err(m))?;
        Ok(State {
            inner: self.inner.from_notation(&text).map_err(to_py)?,
        })
    }
    fn __eq__(&self, other: PyRef<'_, Game>) -> bool {
        self.inner.name() == other.inner.name() && self.inner.options() == other.inner.options()
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut h = DefaultHasher::new();
        (self.inner.name(), self.inner.options()).hash(&mut h);
        h.finish()
    }
    fn __repr__(&self) -> String {
        let opts: Vec<String> = self
            .inner
            .options()
            .iter()
            .map(|(k, v)| match v {
                // Python's spelling, so that eval(repr(game)) rebuilds the game.
                OptionValue::Bool(b) => format!(", {k}={}", if *b { "True" } else { "False" }),
                v => format!(", {k}={v}"),
            })
            .collect();
        format!("quanta.game({:?}{})", self.inner.name(), opts.join("")).replace('"', "'")
    }
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, Bound<'py, PyDict>))> {
        let make = py.import("quanta._core")?.getattr("make_game")?;
        Ok((
            make,
            (
                self.inner.name().to_string(),
                options_to_py(py, &self.inner.options())?,
            ),
        ))
    }
}

/// A position, immutable: `play` returns a new state.
#[pyclass(module = "quanta", name = "State", frozen)]
struct State {
    inner: Box<dyn DynState>,
}

#[pymethods]
impl State {
    /// The game this state belongs to.
    #[getter]
    fn game(&self) -> Game {
        let g = self.inner.game();
        Game {
            inner: registry::make_game(g.name(), &g.options())
                .expect("a game's own options are valid"),
        }
    }
    /// 0..n-1, `quanta.CHANCE` (-1) at a chance node, `quanta.TERMINAL` (-4) at the end.
    #[getter]
    fn current_player(&self) -> i32 {
        self.inner.to_move().code()
    }
    #[getter]
    fn is_terminal(&self) -> bool {
        self.inner.to_move() == quanta_core::ToMove::Terminal
    }
    #[getter]
    fn is_chance(&self) -> bool {
        self.inner.to_move() == quanta_core::ToMove::Chance
    }
    /// The legal actions, sorted; at a chance node, its outcomes.
    fn legal_actions(&self) -> Vec<Action> {
        self.inner.legal_actions()
    }
    /// `(action, probability)` pairs of a chance node; empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        self.inner.chance_outcomes()
    }
    /// The state after `action`; raises `IllegalMoveError` (and changes nothing) if illegal.
    fn play(&self, action: &Bound<'_, PyAny>) -> PyResult<State> {
        let a = action_from_py(&*self.inner, action)?;
        Ok(State {
            inner: self.inner.play(a).map_err(to_py)?,
        })
    }
    /// One value per player: +1/-1 (or scores) at the end, values so far before.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let a = action_from_py(&*self.inner, action)?;
        self.inner.action_to_string(a).map_err(to_py)
    }
    /// The legal action written `text`; `IllegalMoveError` if there is none.
    fn parse_action(&self, text: &Bound<'_, PyAny>) -> PyResult<Action> {
        let text = text_arg(text, |m| IllegalMoveError::new_err(m))?;
        self.inner.parse_action(&text).map_err(to_py)
    }
    /// The position in the game's notation; `game.from_notation` reads it back exactly.
    fn notation(&self) -> String {
        self.inner.notation()
    }
    fn observation_string(&self, player: usize) -> PyResult<String> {
        self.check_player(player)?;
        Ok(self.inner.observation_string(player))
    }
    /// What `player` may see, as a float32 array of `game.observation_shape`.
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.check_player(player)?;
        let shape = self.inner.game().observation_shape();
        Ok(self
            .inner
            .observation_tensor(player)
            .into_pyarray(py)
            .reshape(shape)?
            .into_any())
    }
    /// The number of action sequences of length `depth` from here (chance outcomes count as
    /// actions; finished games end a sequence early): the standard move-generation check.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        let s = &*self.inner;
        run_detached(py, |_| Ok(s.perft(depth)))
    }
    fn __eq__(&self, other: PyRef<'_, State>) -> bool {
        self.inner.same_as(&*other.inner)
    }
    fn __hash__(&self) -> u64 {
        self.inner.hash_u64()
    }
    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }
    fn __repr__(&self) -> String {
        format!(
            "<{} state {:?}>",
            self.inner.game().name(),
            self.inner.notation()
        )
    }
    /// A readable board (drawn by the game's Python module).
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        Self::render(slf, "text")?.extract()
    }
    /// An SVG picture for notebooks (drawn by the game's Python module).
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        Self::render(slf, "svg")?.extract()
    }
    /// Game-specific accessors (e.g. `board()`), provided by the game's Python module.
    fn __getattr__<'py>(slf: &Bound<'py, Self>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("quanta")?
            .getattr("_state_method")?
            .call1((slf, name))
    }
    /// The methods of every state plus the game's own extras (for completion in notebooks).
    fn __dir__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("quanta")?
            .getattr("_state_dir")?
            .call1((slf,))
    }
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, Bound<'py, PyDict>, String))> {
        let g = self.inner.game();
        Ok((
            py.import("quanta._core")?.getattr("restore_state")?,
            (
                g.name().to_string(),
                options_to_py(py, &g.options())?,
                self.inner.notation(),
            ),
        ))
    }
}

impl State {
    fn check_player(&self, player: usize) -> PyResult<()> {
        let n = self.inner.game().num_players();
        if player < n {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!(
                "player must be in 0..{n}, not {player}"
            )))
        }
    }

    fn render<'py>(slf: &Bound<'py, Self>, what: &str) -> PyResult<Bound<'py, PyAny>> {
        let module = format!("quanta.{}", slf.get().inner.game().name());
        slf.py()
            .import(module.as_str())?
            .getattr(what)?
            .call1((slf,))
    }
}

/// Makes the game `name` with `options` (a dict; missing options take their defaults).
#[pyfunction]
fn make_game(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
    let options = match options {
        Some(d) => options_from_py(d)?,
        None => Options::new(),
    };
    Ok(Game {
        inner: registry::make_game(name, &options).map_err(to_py)?,
    })
}

/// Unpickles a state: the game by name and options, the position by notation.
#[pyfunction]
fn restore_state(name: &str, options: &Bound<'_, PyDict>, notation: &str) -> PyResult<State> {
    make_game(name, Some(options))?.from_notation(&PyString::new(options.py(), notation))
}

/// The names of the registered games, sorted.
#[pyfunction]
fn game_names() -> Vec<&'static str> {
    registry::game_names()
}

/// `n` uniformly random games from the start; see `quanta.batch.random_playouts`.
#[pyfunction]
#[pyo3(signature = (game, n, seed=0, threads=None, first=0))]
fn random_playouts<'py>(
    py: Python<'py>,
    game: &Game,
    n: usize,
    seed: u64,
    threads: Option<usize>,
    first: u64,
) -> PyResult<Bound<'py, PyDict>> {
    check_threads(threads)?;
    let g = game.inner.clone();
    let result = run_detached(py, move |cancel| {
        g.random_playouts(first, n, seed, threads, cancel)
    })?;
    let out = PyDict::new(py);
    out.set_item(
        "returns",
        result
            .returns
            .into_pyarray(py)
            .reshape([n, result.players])?,
    )?;
    out.set_item("length", result.length.into_pyarray(py))?;
    Ok(out)
}

fn solver_limits(
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    memory_mb: usize,
) -> PyResult<Limits> {
    let timeout = match timeout {
        // A timeout too long for a Duration (centuries) is no limit at all.
        Some(t) if t >= 0.0 && !t.is_nan() => Duration::try_from_secs_f64(t).ok(),
        Some(t) => {
            return Err(PyValueError::new_err(format!(
                "timeout must be >= 0 seconds, not {t}"
            )));
        }
        None => None,
    };
    if memory_mb == 0 || memory_mb > 1 << 24 {
        return Err(PyValueError::new_err(format!(
            "memory_mb must be from 1 to {} (16 TiB), not {memory_mb}",
            1 << 24
        )));
    }
    Ok(Limits {
        timeout,
        max_nodes,
        memory_mb,
    })
}

/// `threads` for a solver or a batch: at least 1, or None for every core.
fn check_threads(threads: Option<usize>) -> PyResult<()> {
    if threads == Some(0) {
        return Err(PyValueError::new_err(
            "threads must be at least 1 (or None for all cores)",
        ));
    }
    Ok(())
}

/// Solves a Quantum Leap decision node: (win, best_action, nodes, seconds).
#[pyfunction]
#[pyo3(signature = (state, timeout=None, max_nodes=None, memory_mb=1024, threads=None))]
fn quantum_leap_solve(
    py: Python<'_>,
    state: &State,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    memory_mb: usize,
    threads: Option<usize>,
) -> PyResult<(bool, Option<Action>, u64, f64)> {
    let limits = solver_limits(timeout, max_nodes, memory_mb)?;
    check_threads(threads)?;
    let s = &*state.inner;
    let sol = run_detached(py, |cancel| {
        quantum_leap::solve::solve_dyn(s, limits, threads, cancel)
    })?;
    Ok((sol.win, sol.best_action, sol.nodes, sol.seconds))
}

/// Every legal action of a Quantum Leap decision node with whether it wins for its player.
#[pyfunction]
#[pyo3(signature = (state, timeout=None, max_nodes=None, memory_mb=1024, threads=None))]
fn quantum_leap_analyze(
    py: Python<'_>,
    state: &State,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    memory_mb: usize,
    threads: Option<usize>,
) -> PyResult<(Vec<(Action, bool)>, u64)> {
    let limits = solver_limits(timeout, max_nodes, memory_mb)?;
    check_threads(threads)?;
    let s = &*state.inner;
    run_detached(py, |cancel| {
        quantum_leap::solve::analyze_dyn(s, limits, threads, cancel)
    })
}

/// What placing `card` on `cell` of `grid` scores: (basic, pairs, straights, sets, power,
/// draws). `grid` is a 4x4 or 5x5 list of rows of card codes or None, `cell` is (row, col);
/// `solitaire` leaves straights and sets on the diagonals out. Unknown codes and bad shapes
/// raise InvalidNotationError; an occupied or off-grid cell, or a card already on the grid,
/// IllegalMoveError (both ValueErrors).
#[pyfunction]
#[pyo3(signature = (grid, card, cell, solitaire=false))]
fn quincunx_score_placement(
    grid: &Bound<'_, PyAny>,
    card: &Bound<'_, PyAny>,
    cell: &Bound<'_, PyAny>,
    solitaire: bool,
) -> PyResult<(i32, i32, i32, i32, i32, u32)> {
    let rows: Vec<Vec<Option<String>>> = grid.extract().map_err(|_| {
        InvalidNotationError::new_err(
            "quincunx: the grid must be a list of rows, each a list of card codes or None",
        )
    })?;
    let card = text_arg(card, |m| {
        InvalidNotationError::new_err(format!("quincunx: a card is a code: {m}"))
    })?;
    let cell: (i64, i64) = cell.extract().map_err(|_| {
        IllegalMoveError::new_err(format!(
            "quincunx: a cell is (row, col), not {}",
            cell.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    })?;
    let p =
        quincunx_scoring::score_placement_by_code(&rows, &card, cell, solitaire).map_err(to_py)?;
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

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CHANCE", quanta_core::CHANCE)?;
    m.add("TERMINAL", quanta_core::TERMINAL)?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(make_game, m)?)?;
    m.add_function(wrap_pyfunction!(restore_state, m)?)?;
    m.add_function(wrap_pyfunction!(game_names, m)?)?;
    m.add_function(wrap_pyfunction!(random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(quantum_leap_solve, m)?)?;
    m.add_function(wrap_pyfunction!(quantum_leap_analyze, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_score_placement, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_deck, m)?)?;
    add_quincunx_solvers(m)?;
    Ok(())
}

// ---- Quincunx solitaire solvers (python/quanta/_quincunx_solvers.py wraps these) ----

use quanta_core::quincunx::cards as qx_cards;
use quanta_core::quincunx::solve as qx;

fn add_quincunx_solvers(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(quincunx_solve_open, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_solve_expected, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_best_move, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_greedy_move, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_solve_open_batch, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_fill_open, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_fill_open_batch, m)?)?;
    m.add_function(wrap_pyfunction!(quincunx_play_batch, m)?)?;
    Ok(())
}

/// Card codes (top first) as card indices; an unknown code is invalid notation.
fn quincunx_order(codes: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let codes: Vec<Bound<'_, PyAny>> = codes
        .try_iter()
        .map_err(|_| {
            InvalidNotationError::new_err("the pile order must be a sequence of card codes")
        })?
        .collect::<PyResult<_>>()?;
    codes
        .iter()
        .map(|c| {
            let code = text_arg(c, |m| InvalidNotationError::new_err(m))?;
            qx_cards::from_code(&code)
                .ok_or_else(|| InvalidNotationError::new_err(format!("quincunx: no card {code:?}")))
        })
        .collect()
}

/// What the open-deck solvers take, checked: the solitaire position, the pile order and the
/// limits.
fn quincunx_open_args(
    state: &State,
    pile: &Bound<'_, PyAny>,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    memory_mb: usize,
) -> PyResult<(qx::Solitaire, Vec<u8>, qx::Limits)> {
    let limits = solver_limits(timeout, max_nodes, memory_mb)?;
    let order = quincunx_order(pile)?;
    let pos = qx::Solitaire::from_dyn(&*state.inner).map_err(to_py)?;
    Ok((pos, order, limits))
}

/// The best line of a solitaire position with the pile in `pile` order:
/// (lost, score, line, nodes, seconds).
#[pyfunction]
#[pyo3(signature = (state, pile, timeout=None, max_nodes=None, memory_mb=1024, threads=None))]
fn quincunx_solve_open(
    py: Python<'_>,
    state: &State,
    pile: &Bound<'_, PyAny>,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    memory_mb: usize,
    threads: Option<usize>,
) -> PyResult<(bool, i32, Vec<Action>, u64, f64)> {
    check_threads(threads)?;
    let (pos, order, limits) = quincunx_open_args(state, pile, timeout, max_nodes, memory_mb)?;
    let s = run_detached(py, |cancel| {
        in_pool(threads, || qx::solve_open(&pos, &order, &limits, cancel))?
    })?;
    Ok((s.lost, s.score, s.line, s.nodes, s.seconds))
}

/// Whether the grid can be filled with the pile in `pile` order: (a line that fills it or
/// None, nodes, seconds).
#[pyfunction]
#[pyo3(signature = (state, pile, timeout=None, max_nodes=None, memory_mb=1024))]
fn quincunx_fill_open(
    py: Python<'_>,
    state: &State,
    pile: &Bound<'_, PyAny>,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    memory_mb: usize,
) -> PyResult<(Option<Vec<Action>>, u64, f64)> {
    let (pos, order, limits) = quincunx_open_args(state, pile, timeout, max_nodes, memory_mb)?;
    let f = run_detached(py, |cancel| qx::fill_open(&pos, &order, &limits, cancel))?;
    Ok((f.line, f.nodes, f.seconds))
}

/// Expectimax over the draws: (p_win, expected score, best action, [(action, p_win, score)],
/// nodes, seconds).
#[pyfunction]
#[pyo3(signature = (state, timeout=None, max_nodes=None, memory_mb=1024))]
#[allow(clippy::type_complexity)]
fn quincunx_solve_expected(
    py: Python<'_>,
    state: &State,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    memory_mb: usize,
) -> PyResult<(f64, f64, Option<Action>, Vec<(Action, f64, f64)>, u64, f64)> {
    let limits = solver_limits(timeout, max_nodes, memory_mb)?;
    let pos = qx::Solitaire::from_dyn(&*state.inner).map_err(to_py)?;
    let e = run_detached(py, |cancel| qx::solve_expected(&pos, &limits, cancel))?;
    Ok((
        e.p_win,
        e.score,
        e.best_action,
        e.actions,
        e.nodes,
        e.seconds,
    ))
}

/// Sampled best move: (action, [(action, win share, mean score)], nodes, seconds).
#[pyfunction]
#[pyo3(signature = (state, samples, seed, candidates=None, effort=None, threads=None, timeout=None, max_nodes=None, memory_mb=1024))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn quincunx_best_move(
    py: Python<'_>,
    state: &State,
    samples: usize,
    seed: u64,
    candidates: Option<usize>,
    effort: Option<u64>,
    threads: Option<usize>,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    memory_mb: usize,
) -> PyResult<(Option<Action>, Vec<(Action, f64, f64)>, u64, f64)> {
    let limits = solver_limits(timeout, max_nodes, memory_mb)?;
    check_threads(threads)?;
    let pos = qx::Solitaire::from_dyn(&*state.inner).map_err(to_py)?;
    let a = run_detached(py, |cancel| {
        qx::best_move(
            &pos, samples, seed, candidates, effort, threads, &limits, cancel,
        )
    })?;
    Ok((a.action, a.candidates, a.nodes, a.seconds))
}

/// The greedy baseline's placement (None when the game is over).
#[pyfunction]
fn quincunx_greedy_move(state: &State) -> PyResult<Option<Action>> {
    let pos = qx::Solitaire::from_dyn(&*state.inner).map_err(to_py)?;
    Ok(qx::greedy_move(&pos))
}

/// Batch rows as a dict of numpy arrays.
fn quincunx_rows<'py>(py: Python<'py>, rows: Vec<qx::Row>) -> PyResult<Bound<'py, PyDict>> {
    fn column<'py, T: numpy::Element>(
        py: Python<'py>,
        rows: &[qx::Row],
        field: impl Fn(&qx::Row) -> T,
    ) -> Bound<'py, numpy::PyArray1<T>> {
        rows.iter().map(field).collect::<Vec<_>>().into_pyarray(py)
    }
    let out = PyDict::new(py);
    out.set_item("solved", column(py, &rows, |r| r.solved))?;
    out.set_item("lost", column(py, &rows, |r| r.lost))?;
    out.set_item("score", column(py, &rows, |r| r.score))?;
    out.set_item("nodes", column(py, &rows, |r| r.nodes))?;
    out.set_item("seconds", column(py, &rows, |r| r.seconds))?;
    Ok(out)
}

/// Open solves of deals `first..first+n` of `seed`: arrays solved, lost, score, nodes, seconds.
#[pyfunction]
#[pyo3(signature = (seed, n, first=0, excuse=false, empty=12, threads=None, one_at_a_time=false, timeout=None, max_nodes=None, memory_mb=256))]
#[allow(clippy::too_many_arguments)]
fn quincunx_solve_open_batch<'py>(
    py: Python<'py>,
    seed: u64,
    n: usize,
    first: u64,
    excuse: bool,
    empty: u32,
    threads: Option<usize>,
    one_at_a_time: bool,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    memory_mb: usize,
) -> PyResult<Bound<'py, PyDict>> {
    check_threads(threads)?;
    let limits = solver_limits(timeout, max_nodes, memory_mb)?;
    let rows = run_detached(py, |cancel| {
        qx::solve_open_batch(
            seed,
            first,
            n,
            excuse,
            empty,
            threads,
            one_at_a_time,
            &limits,
            cancel,
        )
    })?;
    quincunx_rows(py, rows)
}

/// Fill questions of deals `first..first+n` of `seed`: arrays solved, lost, score, nodes,
/// seconds.
#[pyfunction]
#[pyo3(signature = (seed, n, first=0, excuse=false, threads=None, timeout=None, max_nodes=None, memory_mb=256))]
#[allow(clippy::too_many_arguments)]
fn quincunx_fill_open_batch<'py>(
    py: Python<'py>,
    seed: u64,
    n: usize,
    first: u64,
    excuse: bool,
    threads: Option<usize>,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    memory_mb: usize,
) -> PyResult<Bound<'py, PyDict>> {
    check_threads(threads)?;
    let limits = solver_limits(timeout, max_nodes, memory_mb)?;
    let rows = run_detached(py, |cancel| {
        qx::fill_open_batch(seed, first, n, excuse, threads, &limits, cancel)
    })?;
    quincunx_rows(py, rows)
}

/// Deals `first..first+n` of `seed` played to the end by `policy` ("greedy" or "best_move").
#[pyfunction]
#[pyo3(signature = (policy, seed, n, first=0, excuse=false, threads=None, samples=8, candidates=None, effort=None))]
#[allow(clippy::too_many_arguments)]
fn quincunx_play_batch<'py>(
    py: Python<'py>,
    policy: &str,
    seed: u64,
    n: usize,
    first: u64,
    excuse: bool,
    threads: Option<usize>,
    samples: usize,
    candidates: Option<usize>,
    effort: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    check_threads(threads)?;
    let policy = match policy {
        "greedy" => qx::Policy::Greedy,
        "best_move" => qx::Policy::BestMove {
            samples,
            candidates,
            effort,
        },
        other => {
            return Err(PyValueError::new_err(format!(
                "policy must be 'greedy' or 'best_move', not {other:?}"
            )));
        }
    };
    let rows = run_detached(py, |cancel| {
        qx::play_batch(policy, seed, first, n, excuse, threads, cancel)
    })?;
    quincunx_rows(py, rows)
}
