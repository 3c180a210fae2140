//! `VectorGame`: a batch of games stepped together in the core (`quanta_core::vector`), the
//! engine of the vector environments of `quanta.interop`.

use crate::errors::{self, IllegalMoveError, InvalidOptionError, to_py};
use numpy::{IntoPyArray, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use quanta_core::erased::DynGame;
use quanta_core::vector::{Batch, DynVecGame, Illegal};
use std::sync::Arc;

/// `num_envs` games of `game`, each always at a decision (chance drawn by its own generator,
/// seeded by `reset`), a finished game starting again at once. `reset` and `step` return a
/// dict of numpy arrays; see `quanta.interop` for their meaning.
#[pyclass(module = "quanta", name = "VectorGame")]
pub struct VectorGame {
    inner: Box<dyn DynVecGame>,
    game: Py<crate::game::Game>,
    shape: Vec<usize>,
    players: usize,
    actions: usize,
    illegal: Illegal,
}

fn illegal_mode(value: &str) -> PyResult<Illegal> {
    match value {
        "raise" => Ok(Illegal::Refuse),
        "lose" => Ok(Illegal::Lose),
        _ => Err(InvalidOptionError::new_err(format!(
            "illegal must be \"raise\" or \"lose\", not {}",
            quanta_core::error::quoted(value)
        ))),
    }
}

impl VectorGame {
    fn out<'py>(&self, py: Python<'py>, b: Batch) -> PyResult<Bound<'py, PyDict>> {
        let n = self.inner.len();
        let mut shape = vec![n];
        shape.extend_from_slice(&self.shape);
        let mut final_shape = vec![b.ended.len()];
        final_shape.extend_from_slice(&self.shape);
        let out = PyDict::new(py);
        out.set_item("obs", b.obs.into_pyarray(py).reshape(shape)?)?;
        out.set_item("mask", b.mask.into_pyarray(py).reshape([n, self.actions])?)?;
        out.set_item("player", b.player.into_pyarray(py))?;
        out.set_item(
            "rewards",
            b.rewards.into_pyarray(py).reshape([n, self.players])?,
        )?;
        out.set_item("terminated", b.terminated.into_pyarray(py))?;
        out.set_item(
            "final_returns",
            b.final_returns
                .into_pyarray(py)
                .reshape([n, self.players])?,
        )?;
        let ended: Vec<i64> = b.ended.iter().map(|&i| i as i64).collect();
        out.set_item("ended", ended.into_pyarray(py))?;
        out.set_item(
            "final_obs",
            b.final_obs.into_pyarray(py).reshape(final_shape)?,
        )?;
        out.set_item("final_notation", b.final_notation)?;
        Ok(out)
    }
}

#[pymethods]
impl VectorGame {
    #[new]
    #[pyo3(signature = (game, num_envs, seed = None, threads = None, illegal = "raise"))]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        illegal: &str,
    ) -> PyResult<Self> {
        let game = crate::game::game_arg(game)?;
        let n = errors::integer_in(num_envs, "num_envs", 1, 1 << 32).map_err(|_| {
            InvalidOptionError::new_err(format!(
                "num_envs must be a positive number of games (at most 2**32), not {}",
                errors::quote(num_envs)
            ))
        })? as usize;
        let seed = match seed {
            Some(s) if !s.is_none() => errors::seed(s, "seed")?,
            _ => 0,
        };
        let threads = match threads {
            Some(t) => errors::threads(t)?,
            None => None,
        };
        let illegal = illegal_mode(illegal)?;
        let g: Arc<dyn DynGame> = game.get().inner.clone();
        let inner = py.detach(|| g.vec_game(n, seed, threads)).map_err(to_py)?;
        Ok(VectorGame {
            inner,
            game: game.clone().unbind(),
            shape: g.observation_shape(),
            players: g.num_players(),
            actions: g.num_actions(),
            illegal,
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.len()
    }

    #[getter]
    fn game(&self, py: Python<'_>) -> Py<crate::game::Game> {
        self.game.clone_ref(py)
    }

    /// What an illegal action does: "raise" (IllegalMoveError, nothing changes) or "lose".
    #[getter]
    fn illegal(&self) -> &'static str {
        match self.illegal {
            Illegal::Refuse => "raise",
            Illegal::Lose => "lose",
        }
    }

    /// Starts every game again, game `i` with the generator of row `i` of `seed`.
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let seed = errors::seed(seed, "seed")?;
        let inner = &mut self.inner;
        let b = py.detach(|| inner.reset(seed)).map_err(to_py)?;
        self.out(py, b)
    }

    /// Plays `actions` (one integer per game) and returns the arrays of the step.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let n = self.inner.len();
        let refused = || {
            InvalidOptionError::new_err(format!(
                "actions must be a sequence or 1-d array of {n} integers (one per game), not {}",
                errors::quote(actions)
            ))
        };
        // The common case first: a 1-d int64 array; else anything numpy reads as integers.
        let values: Vec<i64> = match actions.cast::<numpy::PyArray1<i64>>() {
            Ok(a) => a
                .readonly()
                .as_slice()
                .map(|v| v.to_vec())
                .unwrap_or_else(|_| a.readonly().as_array().iter().copied().collect()),
            Err(_) => {
                let array = py
                    .import("numpy")?
                    .call_method1("asarray", (actions,))
                    .map_err(|_| refused())?;
                let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
                if kind != "i" && kind != "u" {
                    return Err(refused());
                }
                let array = array
                    .call_method1("astype", ("int64",))?
                    .cast_into::<numpy::PyArrayDyn<i64>>()
                    .map_err(|_| refused())?;
                if array.ndim() != 1 {
                    return Err(refused());
                }
                array.readonly().as_array().iter().copied().collect()
            }
        };
        if values.len() != n {
            return Err(refused());
        }
        let illegal = self.illegal;
        let inner = &mut self.inner;
        let b = py
            .detach(|| inner.step(&values, illegal))
            .map_err(|e| match e {
                quanta_core::Error::IllegalMove(m) => IllegalMoveError::new_err(m),
                e => to_py(e),
            })?;
        self.out(py, b)
    }

    /// The notation of game `index` as it stands (`game.from_notation` reads it back).
    fn notation(&self, index: &Bound<'_, PyAny>) -> PyResult<String> {
        let n = self.inner.len();
        let i = errors::integer_in(index, "index", 0, n as i128 - 1).map_err(|_| {
            InvalidOptionError::new_err(format!(
                "index must be the number of a game of the batch, 0 to {}, not {}",
                n - 1,
                errors::quote(index)
            ))
        })?;
        Ok(self.inner.notation(i as usize))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "VectorGame({}, num_envs={})",
            self.game.bind(py).repr()?,
            self.inner.len()
        ))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VectorGame>()
}
