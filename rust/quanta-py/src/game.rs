//! The generic `Game` and `State` classes (every game goes through them), the game facts
//! (`game.info`), and the registry functions.

use crate::detach::run_detached;
use crate::errors::{self, IllegalMoveError, InvalidNotationError, InvalidOptionError, to_py};
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::PyClass;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use quanta_core::erased::{DynGame, DynState};
use quanta_core::error::clipped;
use quanta_core::{Action, GameInfo, Information, OptionValue, Options, ToMove, Utility, registry};
use std::sync::{Arc, Mutex, OnceLock};

fn options_from_py(options: &Bound<'_, PyDict>) -> PyResult<Options> {
    let mut out = Options::new();
    for (key, value) in options.iter() {
        let key: String = key
            .extract()
            .map_err(|_| InvalidOptionError::new_err("option names must be strings"))?;
        // Python's and numpy's bools are bools; ints and numpy integers are integers.
        let value = if value.is_instance_of::<PyBool>() || errors::is_numpy_bool(&value) {
            OptionValue::Bool(value.is_truthy()?)
        } else if value.is_instance_of::<PyInt>() || value.hasattr("__index__")? {
            OptionValue::Int(
                errors::integer(&value, &key)
                    .ok()
                    .and_then(|v| i64::try_from(v).ok())
                    .ok_or_else(|| {
                        InvalidOptionError::new_err(format!(
                            "option {}: {} is out of range",
                            clipped(&key),
                            errors::quote(&value)
                        ))
                    })?,
            )
        } else if value.is_instance_of::<PyString>() {
            OptionValue::Str(value.extract()?)
        } else if value.is_instance_of::<PyTuple>() || value.is_instance_of::<PyList>() {
            // A tuple of bools (one per player) or of ints; never the two mixed.
            let is_bool = |item: &Bound<'_, PyAny>| {
                item.is_instance_of::<PyBool>() || errors::is_numpy_bool(item)
            };
            let items: Vec<Bound<'_, PyAny>> = value.try_iter()?.collect::<PyResult<_>>()?;
            let refused = || {
                InvalidOptionError::new_err(format!(
                    "option {}: expected a tuple of ints or of bools, not {}",
                    clipped(&key),
                    errors::quote(&value)
                ))
            };
            if !items.is_empty() && items.iter().all(is_bool) {
                let bools = items.iter().map(|item| item.is_truthy());
                OptionValue::Bools(bools.collect::<PyResult<_>>()?)
            } else {
                let mut ints = Vec::with_capacity(items.len());
                for item in &items {
                    let int = errors::integer(item, &key)
                        .ok()
                        .and_then(|v| i64::try_from(v).ok());
                    ints.push(int.ok_or_else(refused)?);
                }
                OptionValue::Ints(ints)
            }
        } else {
            return Err(InvalidOptionError::new_err(format!(
                "option {}: expected an int, bool, str or tuple of ints or of bools, not {}",
                clipped(&key),
                errors::quote(&value)
            )));
        };
        out.insert(key, value);
    }
    Ok(out)
}

/// A bool as Python spells it.
fn python_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn options_to_py<'py>(py: Python<'py>, options: &Options) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in options {
        match value {
            OptionValue::Int(v) => dict.set_item(key, v)?,
            OptionValue::Bool(v) => dict.set_item(key, v)?,
            OptionValue::Str(v) => dict.set_item(key, v)?,
            OptionValue::Ints(v) => dict.set_item(key, PyTuple::new(py, v)?)?,
            OptionValue::Bools(v) => dict.set_item(key, PyTuple::new(py, v)?)?,
        }
    }
    Ok(dict)
}

result_class! {
    /// Facts about a game, for frameworks that need them: `information` ("perfect" or
    /// "imperfect"), `utility` ("zero_sum", "general_sum" or "cooperative"), `chance` (whether
    /// the game has chance nodes), `min_return` and `max_return` (bounds of every return) and
    /// `max_game_length` (the most decisions in a game, chance outcomes excluded).
    PyGameInfo("quanta", "GameInfo") {
        information: &'static str,
        utility: &'static str,
        chance: bool,
        min_return: f64,
        max_return: f64,
        max_game_length: u32,
    }
    repr "GameInfo" [
        "information", "utility", "chance", "min_return", "max_return", "max_game_length",
    ]
}

impl From<GameInfo> for PyGameInfo {
    fn from(info: GameInfo) -> Self {
        PyGameInfo {
            information: match info.information {
                Information::Perfect => "perfect",
                Information::Imperfect => "imperfect",
            },
            utility: match info.utility {
                Utility::ZeroSum => "zero_sum",
                Utility::GeneralSum => "general_sum",
                Utility::Cooperative => "cooperative",
            },
            chance: info.chance,
            min_return: info.min_return,
            max_return: info.max_return,
            max_game_length: info.max_game_length,
        }
    }
}

/// A game: its rules and parameters. Make one with `quanta.game(name, **options)`.
#[pyclass(module = "quanta", name = "Game", frozen)]
pub struct Game {
    pub inner: Arc<dyn DynGame>,
    /// The action ids as Python ints, shared with every state of this game.
    ints: Arc<ActionInts>,
}

impl From<Arc<dyn DynGame>> for Game {
    fn from(inner: Arc<dyn DynGame>) -> Self {
        let class = crate::games::state_class(inner.name());
        Game {
            inner,
            ints: Arc::new(ActionInts {
                class,
                ints: PyOnceLock::new(),
                legal: Memo::default(),
                outcomes: Memo::default(),
            }),
        }
    }
}

/// Makes the Python object of a state: an instance of its game's state class (the generic
/// `State` extended with the game's extras, games/mod.rs).
pub type Wrap = for<'py> fn(Python<'py>, State) -> PyResult<Bound<'py, State>>;

/// A state as an instance of the state class `T` (a subclass of `State`, with no data of its
/// own).
pub fn wrap<'py, T>(py: Python<'py>, state: State) -> PyResult<Bound<'py, State>>
where
    T: PyClass<BaseType = State> + Default,
{
    Ok(Bound::new(
        py,
        PyClassInitializer::from(state).add_subclass(T::default()),
    )?
    .into_super())
}

/// What a game's states share on the Python side: the action ids `0..num_actions` as Python
/// ints, made on first use, so that a list of actions makes no int objects; and the last long
/// list of legal actions and of chance outcomes, for the next state that has the same (the
/// 720 setups of both EinStein players, say). Only immutable objects are shared. And the
/// game's state class.
struct ActionInts {
    class: Wrap,
    ints: PyOnceLock<Box<[Py<PyInt>]>>,
    legal: Memo<Action>,
    outcomes: Memo<(Action, u64)>,
}

/// The last long list made, with what it was made from.
type Memo<T> = Mutex<Option<(Vec<T>, Py<PyTuple>)>>;

/// Lists at least this long are kept for the next state.
const MEMO_FROM: usize = 64;

impl ActionInts {
    /// `action` as a Python int: the shared one.
    fn get<'py>(&self, py: Python<'py>, game: &dyn DynGame, action: Action) -> Bound<'py, PyInt> {
        let ints = self.ints.get_or_init(py, || {
            (0..game.num_actions())
                .map(|a| PyInt::new(py, a).unbind())
                .collect()
        });
        match ints.get(action as usize) {
            Some(int) => int.bind(py).clone(),
            None => PyInt::new(py, action),
        }
    }
    /// The tuple made by `make` from `key`, or the one made last from an equal long `key`.
    fn memo<'py, T: PartialEq>(
        py: Python<'py>,
        memo: &Memo<T>,
        key: Vec<T>,
        make: impl FnOnce(&[T]) -> PyResult<Bound<'py, PyTuple>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        if key.len() < MEMO_FROM {
            return make(&key);
        }
        // Never locked while Python runs (making the tuple may run a collection, and another
        // thread with it).
        let lock = || memo.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, tuple)) = &*lock() {
            if *k == key {
                return Ok(tuple.bind(py).clone());
            }
        }
        let tuple = make(&key)?;
        let old = lock().replace((key, tuple.clone().unbind()));
        drop(old); // outside the lock: dropping a tuple may run Python too
        Ok(tuple)
    }
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
    /// Facts about the game: information, utility, chance, return bounds, longest game.
    #[getter]
    fn info(&self) -> PyGameInfo {
        self.inner.info().into()
    }
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.observation_shape())
    }
    /// The start of a game (possibly a chance node).
    fn new_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, State>> {
        State::new(self.inner.new_state(), &self.ints).into_py(py)
    }
    /// The state written as `text` in the game's notation.
    fn from_notation<'py>(&self, text: &Bound<'py, PyAny>) -> PyResult<Bound<'py, State>> {
        let py = text.py();
        let text = errors::text(text, |m| InvalidNotationError::new_err(m))?;
        let inner = self.inner.from_notation(&text).map_err(to_py)?;
        State::new(inner, &self.ints).into_py(py)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Game>().is_ok_and(|o| {
            let o = o.get();
            self.inner.name() == o.inner.name() && self.inner.options() == o.inner.options()
        })
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
                OptionValue::Bool(b) => format!(", {k}={}", python_bool(*b)),
                OptionValue::Bools(v) => {
                    let items: Vec<&str> = v.iter().map(|&b| python_bool(b)).collect();
                    format!(", {k}=({})", items.join(", "))
                }
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
#[pyclass(module = "quanta", name = "State", frozen, subclass)]
pub struct State {
    pub inner: Box<dyn DynState>,
    /// Who moves, read once: `is_terminal`, `is_chance` and `current_player` read this field.
    to_move: ToMove,
    /// The legal actions, a sorted tuple made on the first `legal_actions` call and kept:
    /// `play` checks an action against it.
    legal: OnceLock<Py<PyTuple>>,
    ints: Arc<ActionInts>,
}

#[pymethods]
impl State {
    /// The game this state belongs to.
    #[getter]
    fn game(&self) -> Game {
        Game {
            inner: self.inner.game_arc(),
            ints: self.ints.clone(),
        }
    }
    /// 0..n-1, `quanta.CHANCE` (-1) at a chance node, `quanta.TERMINAL` (-4) at the end.
    #[getter]
    pub(crate) fn current_player(&self) -> i32 {
        self.to_move.code()
    }
    #[getter]
    pub(crate) fn is_terminal(&self) -> bool {
        self.to_move == ToMove::Terminal
    }
    #[getter]
    pub(crate) fn is_chance(&self) -> bool {
        self.to_move == ToMove::Chance
    }
    /// The legal actions, a sorted tuple; at a chance node, its outcomes.
    pub(crate) fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        Ok(self.legal(py)?.bind(py).clone())
    }
    /// `(action, probability)` pairs of a chance node; empty elsewhere.
    pub(crate) fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let game = self.inner.game();
        let outcomes = self.inner.chance_outcomes();
        let key = outcomes.iter().map(|&(a, p)| (a, p.to_bits())).collect();
        let pairs = ActionInts::memo(py, &self.ints.outcomes, key, |outcomes| {
            let mut pairs = Vec::with_capacity(outcomes.len());
            let mut last: Option<(u64, Bound<'py, PyFloat>)> = None;
            for &(a, p) in outcomes {
                // Outcomes of equal odds share one float.
                let p = match last {
                    Some((q, ref float)) if q == p => float.clone(),
                    _ => PyFloat::new(py, f64::from_bits(p)),
                };
                last = Some((p.value().to_bits(), p.clone()));
                let a = self.ints.get(py, game, a).into_any();
                pairs.push(PyTuple::new(py, [a, p.into_any()])?);
            }
            PyTuple::new(py, pairs)
        })?;
        PyList::new(py, pairs)
    }
    /// The state after `action`; raises `IllegalMoveError` (and changes nothing) if illegal.
    pub(crate) fn play<'py>(&self, action: &Bound<'py, PyAny>) -> PyResult<Bound<'py, State>> {
        let a = errors::action(&*self.inner, action)?;
        let next = match self.legal.get() {
            // Checked against the legal actions already made; `inner.play` names an illegal
            // action, and checks when they were never asked for.
            Some(legal) if sorted_contains(legal.bind(action.py()), a) => self.inner.play_legal(a),
            _ => self.inner.play(a).map_err(to_py)?,
        };
        State::new(next, &self.ints).into_py(action.py())
    }
    /// One value per player: +1/-1 (or scores) at the end, values so far before.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }
    /// The action's readable name; with `player`, as that player may see it (a card dealt or
    /// drawn into another player's hand shows as `?`).
    #[pyo3(signature = (action, player=None))]
    fn action_to_string(
        &self,
        action: &Bound<'_, PyAny>,
        player: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let a = errors::action(&*self.inner, action)?;
        match player {
            Some(p) if !p.is_none() => {
                let p = errors::player(&*self.inner, p)?;
                self.inner.action_to_string_for(a, p).map_err(to_py)
            }
            _ => self.inner.action_to_string(a).map_err(to_py),
        }
    }
    /// The legal action written `text`; `IllegalMoveError` if there is none.
    fn parse_action(&self, text: &Bound<'_, PyAny>) -> PyResult<Action> {
        let text = errors::text(text, |m| IllegalMoveError::new_err(m))?;
        self.inner.parse_action(&text).map_err(to_py)
    }
    /// The position in the game's notation; `game.from_notation` reads it back exactly.
    fn notation(&self) -> String {
        self.inner.notation()
    }
    /// What `player` may see now, and nothing else.
    fn observation_string(&self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        let p = errors::player(&*self.inner, player)?;
        Ok(self.inner.observation_string(p))
    }
    /// Everything `player` knows: what they see now and what they saw before.
    fn information_state_string(&self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        let p = errors::player(&*self.inner, player)?;
        Ok(self.inner.information_state_string(p))
    }
    /// What `player` may see, as a float32 array of `game.observation_shape`.
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = errors::player(&*self.inner, player)?;
        let shape = self.inner.game().observation_shape();
        Ok(self
            .inner
            .observation_tensor(p)
            .into_pyarray(py)
            .reshape(shape)?
            .into_any())
    }
    /// A full state that `player` cannot tell from this one (the same information state),
    /// drawn uniformly from all such states; the same `seed` gives the same state. A game of
    /// perfect information returns an equal state.
    fn resample<'py>(
        &self,
        player: &Bound<'py, PyAny>,
        seed: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, State>> {
        let p = errors::player(&*self.inner, player)?;
        let seed = errors::seed(seed, "seed")?;
        State::new(self.inner.resample(p, seed), &self.ints).into_py(player.py())
    }
    /// The number of action sequences of length `depth` from here (chance outcomes count as
    /// actions; finished games end a sequence early): the standard move-generation check.
    /// Ctrl-C interrupts it.
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = errors::integer(depth, "depth")
            .ok()
            .filter(|d| (0..=1000).contains(d));
        let Some(depth) = depth else {
            return Err(InvalidOptionError::new_err(
                "depth must be an integer from 0 to 1000 (actions from this state)",
            ));
        };
        let s = &*self.inner;
        run_detached(py, |cancel| s.perft(depth as u32, cancel))
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<State>()
            .is_ok_and(|o| self.inner.same_as(&*o.get().inner))
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
    fn new(inner: Box<dyn DynState>, ints: &Arc<ActionInts>) -> Self {
        State {
            to_move: inner.to_move(),
            inner,
            legal: OnceLock::new(),
            ints: ints.clone(),
        }
    }
    /// The Python object of this state: an instance of its game's state class.
    fn into_py(self, py: Python<'_>) -> PyResult<Bound<'_, State>> {
        (self.ints.class)(py, self)
    }
    /// The legal actions as a tuple, made once.
    fn legal(&self, py: Python<'_>) -> PyResult<&Py<PyTuple>> {
        if let Some(legal) = self.legal.get() {
            return Ok(legal);
        }
        let game = self.inner.game();
        let tuple = ActionInts::memo(py, &self.ints.legal, self.inner.legal_actions(), |key| {
            PyTuple::new(py, key.iter().map(|&a| self.ints.get(py, game, a)))
        })?;
        // Another thread may have stored its own (equal) tuple first; either is kept.
        Ok(self.legal.get_or_init(|| tuple.unbind()))
    }
    fn render<'py>(slf: &Bound<'py, Self>, what: &str) -> PyResult<Bound<'py, PyAny>> {
        let module = format!("quanta.{}", slf.get().inner.game().name());
        slf.py()
            .import(module.as_str())?
            .getattr(what)?
            .call1((slf,))
    }
}

/// Whether the sorted tuple of actions `legal` holds `action`.
fn sorted_contains(legal: &Bound<'_, PyTuple>, action: Action) -> bool {
    let (mut low, mut high) = (0, legal.len());
    while low < high {
        let middle = (low + high) / 2;
        let Ok(item) = legal.get_item(middle).and_then(|i| i.extract::<Action>()) else {
            return false;
        };
        match item.cmp(&action) {
            std::cmp::Ordering::Less => low = middle + 1,
            std::cmp::Ordering::Greater => high = middle,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// Makes the game `name` with `options` (a dict; missing options take their defaults).
#[pyfunction]
#[pyo3(signature = (name, options=None))]
pub fn make_game(name: &Bound<'_, PyAny>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
    let name = errors::text(name, |_| {
        InvalidOptionError::new_err(format!(
            "a game is named by a string, one of {}, not {}",
            registry::game_names()
                .iter()
                .map(|n| format!("'{n}'"))
                .collect::<Vec<_>>()
                .join(", "),
            errors::quote(name)
        ))
    })?;
    let options = match options {
        Some(d) => options_from_py(d)?,
        None => Options::new(),
    };
    Ok(registry::make_game(&name, &options).map_err(to_py)?.into())
}

/// Unpickles a state: the game by name and options, the position by notation.
#[pyfunction]
pub fn restore_state<'py>(
    name: &Bound<'py, PyAny>,
    options: &Bound<'py, PyDict>,
    notation: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, State>> {
    make_game(name, Some(options))?.from_notation(notation)
}

/// The greedy player's action in `state` (any game): the one whose immediate result is best for
/// the player taking it, ties broken by `seed`; None in a finished game.
#[pyfunction]
pub fn greedy_move(state: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> PyResult<Option<Action>> {
    let s = crate::games::state(state, "greedy_move")?;
    let seed = errors::seed(seed, "seed")?;
    match s.inner.to_move() {
        quanta_core::ToMove::Chance => Err(crate::errors::NotApplicableError::new_err(
            "greedy_move needs a decision, not a chance node: play a chance outcome first",
        )),
        _ => Ok(s.inner.greedy_action(seed)),
    }
}

/// The names of the registered games, sorted.
#[pyfunction]
pub fn game_names() -> Vec<&'static str> {
    registry::game_names()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CHANCE", quanta_core::CHANCE)?;
    m.add("TERMINAL", quanta_core::TERMINAL)?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<PyGameInfo>()?;
    m.add_function(wrap_pyfunction!(make_game, m)?)?;
    m.add_function(wrap_pyfunction!(restore_state, m)?)?;
    m.add_function(wrap_pyfunction!(game_names, m)?)?;
    m.add_function(wrap_pyfunction!(greedy_move, m)?)?;
    Ok(())
}

/// `game` as a game made by `quanta.game`, or the error that says so (for the functions that
/// take a game: batches, the arena).
pub fn game_arg<'a, 'py>(game: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, Game>> {
    game.cast::<Game>().map_err(|_| {
        crate::errors::InvalidOptionError::new_err(format!(
            "game must be a game made by quanta.game(name, ...), not {}",
            crate::errors::quote(game)
        ))
    })
}
