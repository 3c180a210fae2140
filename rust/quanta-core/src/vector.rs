//! A batch of games stepped together, for reinforcement-learning environments (the Gymnasium
//! vector environment and the PettingZoo batch of `quanta.interop`). Written once against
//! `Game`: every game gets it.
//!
//! Each of the `n` games is a decision node at all times: chance is resolved by the game's own
//! generator (`row_rng(seed, row)` from the last `reset`), and a finished game starts again at
//! once. One `step` plays one action in every game; what it writes depends only on the seed,
//! the actions and the steps before, never on the number of threads.

use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng, ToMove, row_rng};
use crate::search::pool_threads;
use rayon::prelude::*;
use std::sync::Arc;

/// Games handed to a thread at a time: a small batch runs on one thread.
const MIN_ROWS: usize = 16;

/// What becomes of an illegal action in a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The step is refused (`IllegalMove`, naming the first such game) and nothing changes.
    Refuse,
    /// The game ends at once: its acting player's return becomes the game's lowest
    /// (`info().min_return`), the other players' stay as they were, and it starts again.
    Lose,
}

/// The arrays one `reset` or `step` writes, row-major with one row per game.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    /// The acting player's observation, `observation_shape` floats per game.
    pub obs: Vec<f32>,
    /// 1 for each legal action of the acting player, `num_actions` per game.
    pub mask: Vec<i8>,
    /// The player to act in each game (after any restart).
    pub player: Vec<i32>,
    /// Every player's reward of this step: the change of `returns()` (the last action and the
    /// chance outcomes after it), `players` per game; 0 after a reset.
    pub rewards: Vec<f64>,
    /// Whether the game ended in this step (it has already started again).
    pub terminated: Vec<bool>,
    /// Every player's final return for the games that ended in this step, `players` per game
    /// (0 in the other rows).
    pub final_returns: Vec<f64>,
    /// The games that ended in this step, in row order, and the final observation of each by
    /// the player who made the last action, `observation_shape` floats per ended game.
    pub ended: Vec<usize>,
    pub final_obs: Vec<f32>,
    /// The notation of each game that ended, as it ended (after an illegal action that lost,
    /// the position it was played in).
    pub final_notation: Vec<String>,
}

/// One game of the batch.
#[derive(Debug, Clone)]
struct Row<S> {
    state: S,
    rng: Rng,
    /// `returns()` when the last step ended (the base of the next rewards).
    returns: Vec<f64>,
}

/// `n` games of `G` stepped together.
#[derive(Clone)]
pub struct VecGame<G: Game> {
    game: G,
    rows: Vec<Row<G::State>>,
    /// The batch's own threads (built once), or `None` for rayon's global pool.
    pool: Option<Arc<rayon::ThreadPool>>,
    /// One thread asked for, or too few games to share: every row is done on the caller's
    /// thread (no hand-over to a pool on each step).
    serial: bool,
}

impl<G: Game + std::fmt::Debug> std::fmt::Debug for VecGame<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VecGame")
            .field("game", &self.game)
            .field("n", &self.rows.len())
            .finish()
    }
}

/// One row's results of a step, before they are laid out in the batch's arrays.
struct RowOut {
    reward: Vec<f64>,
    terminated: bool,
    final_returns: Vec<f64>,
    final_obs: Option<(Vec<f32>, String)>,
}

impl<G: Game> VecGame<G> {
    /// `n` games (at least 1) on `threads` threads (`None`: every core), reset with `seed`.
    pub fn new(game: &G, n: usize, seed: u64, threads: Option<usize>) -> Result<Self> {
        if n == 0 {
            return Err(Error::InvalidOption(
                "num_envs must be a positive number of games, not 0".into(),
            ));
        }
        crate::batch::check_fits(
            "num_envs",
            n,
            "games",
            Self::env_bytes(game),
            "step fewer games at a time",
        )?;
        let pool = match threads {
            None => None,
            Some(t) => Some(Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(pool_threads(t))
                    .build()
                    .map_err(|e| Error::InvalidOption(format!("cannot start {t} threads: {e}")))?,
            )),
        };
        let mut v = VecGame {
            game: game.clone(),
            rows: Vec::with_capacity(n),
            serial: n <= MIN_ROWS || pool.as_ref().is_some_and(|p| p.current_num_threads() == 1),
            pool,
        };
        for i in 0..n {
            v.rows.push(Self::start(game, row_rng(seed, i as u64)));
        }
        Ok(v)
    }

    /// The memory one game of the batch takes at its peak, in bytes, as measured (about
    /// 30 kB for solitaire Quincunx, 53 kB for Repair Unit, peak virtual size over steps of
    /// 20,000 games): its row (the state and its generator), and eleven copies of its
    /// observation (4 bytes a value): the observation space's bounds (two, in Python), the
    /// batch a step returns and the caller's previous one, a final observation in the row
    /// and in the returned arrays, and the copies made on the way to numpy. Its mask and
    /// action space twice more, and the allocator's headers.
    pub fn env_bytes(game: &G) -> usize {
        let observation = 4 * game.observation_shape().iter().product::<usize>();
        std::mem::size_of::<Row<G::State>>() + 11 * observation + 2 * game.num_actions() + 1024
    }

    /// `f(i, item)` for every item, in order of `i`, on the batch's threads (or here).
    fn each<I: Send, T: Send>(
        &self,
        items: &mut [I],
        f: impl Fn(usize, &mut I) -> T + Sync + Send,
    ) -> Vec<T> {
        if self.serial {
            return items.iter_mut().enumerate().map(|(i, x)| f(i, x)).collect();
        }
        let mut work = move || {
            items
                .par_iter_mut()
                .with_min_len(MIN_ROWS)
                .enumerate()
                .map(|(i, x)| f(i, x))
                .collect()
        };
        match &self.pool {
            None => work(),
            Some(p) => p.install(work),
        }
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    /// The state of game `row`, a decision node.
    pub fn state(&self, row: usize) -> &G::State {
        &self.rows[row].state
    }

    /// A new game at its first decision, chance resolved with `rng`.
    fn start(game: &G, mut rng: Rng) -> Row<G::State> {
        let mut state = game.new_state();
        Self::resolve(game, &mut state, &mut rng);
        let mut returns = vec![0.0; game.num_players()];
        game.returns(&state, &mut returns);
        Row {
            state,
            rng,
            returns,
        }
    }

    /// Plays chance outcomes, drawn with `rng`, until a decision or the end.
    fn resolve(game: &G, state: &mut G::State, rng: &mut Rng) {
        while game.to_move(state) == ToMove::Chance {
            let a = game.sample_chance(state, rng);
            game.apply(state, a);
        }
    }

    fn player(&self, state: &G::State) -> Option<usize> {
        match self.game.to_move(state) {
            ToMove::Player(p) => Some(p as usize),
            _ => None,
        }
    }

    /// Starts every game again, game `i` with the generator `row_rng(seed, i)`.
    pub fn reset(&mut self, seed: u64) -> Result<Batch> {
        let mut rows = std::mem::take(&mut self.rows);
        let game = &self.game;
        self.each(&mut rows, |i, row| {
            *row = Self::start(game, row_rng(seed, i as u64))
        });
        self.rows = rows;
        let n = self.rows.len();
        let players = self.game.num_players();
        let outs = (0..n)
            .map(|_| RowOut {
                reward: vec![0.0; players],
                terminated: false,
                final_returns: vec![0.0; players],
                final_obs: None,
            })
            .collect();
        self.layout(outs)
    }

    /// Plays `actions[i]` in game `i` (every game is at a decision), resolves chance, and
    /// starts again each game that ended.
    pub fn step(&mut self, actions: &[i64], illegal: Illegal) -> Result<Batch> {
        let n = self.rows.len();
        if actions.len() != n {
            return Err(Error::InvalidOption(format!(
                "actions must hold one action per game ({n}), not {}",
                actions.len()
            )));
        }
        let game = &self.game;
        let legal = |row: &Row<G::State>, a: i64| {
            (0..game.num_actions() as i64).contains(&a) && game.is_legal(&row.state, a as Action)
        };
        if illegal == Illegal::Refuse {
            if let Some(i) = (0..n).find(|&i| !legal(&self.rows[i], actions[i])) {
                let a = actions[i];
                let why = match u32::try_from(a) {
                    Ok(a) => match game.play(&self.rows[i].state, a) {
                        Err(Error::IllegalMove(m)) => m,
                        _ => format!("action {a} is not legal"),
                    },
                    Err(_) => format!("action {a} is out of range (0..{})", game.num_actions()),
                };
                return Err(Error::IllegalMove(format!("game {i} of the batch: {why}")));
            }
        }
        let min_return = game.info().min_return;
        let players = game.num_players();
        let shape: usize = game.observation_shape().iter().product();
        let mut rows = std::mem::take(&mut self.rows);
        let outs = self.each(&mut rows, |i, row| {
            let a = actions[i];
            let actor = match game.to_move(&row.state) {
                ToMove::Player(p) => p as usize,
                _ => 0,
            };
            let mut now = vec![0.0; players];
            // (Refused steps were checked above: every action here is legal.)
            let ended = if illegal == Illegal::Refuse || legal(row, a) {
                game.apply(&mut row.state, a as Action);
                Self::resolve(game, &mut row.state, &mut row.rng);
                game.returns(&row.state, &mut now);
                game.to_move(&row.state) == ToMove::Terminal
            } else {
                now.copy_from_slice(&row.returns);
                now[actor] = min_return;
                true
            };
            let reward: Vec<f64> = now.iter().zip(&row.returns).map(|(x, y)| x - y).collect();
            let mut out = RowOut {
                reward,
                terminated: ended,
                final_returns: vec![0.0; players],
                final_obs: None,
            };
            if ended {
                let mut obs = vec![0.0; shape];
                game.observation_tensor(&row.state, actor, &mut obs);
                out.final_obs = Some((obs, game.notation(&row.state)));
                out.final_returns = now;
                let rng = row.rng.clone();
                *row = Self::start(game, rng);
            } else {
                row.returns = now;
            }
            out
        });
        self.rows = rows;
        self.layout(outs)
    }

    /// The batch's arrays from the rows' results and the games as they stand.
    fn layout(&self, outs: Vec<RowOut>) -> Result<Batch> {
        let game = &self.game;
        let n = self.rows.len();
        let players = game.num_players();
        let actions = game.num_actions();
        let shape: usize = game.observation_shape().iter().product();
        let mut obs = vec![0.0f32; n * shape];
        let mut mask = vec![0i8; n * actions];
        let mut player = vec![0i32; n];
        let mut cells: Vec<_> = obs
            .chunks_mut(shape.max(1))
            .zip(mask.chunks_mut(actions.max(1)))
            .zip(player.iter_mut())
            .zip(self.rows.iter())
            .collect();
        self.each(&mut cells, |_, (((obs, mask), player), row)| {
            **player = game.to_move(&row.state).code();
            if let Some(p) = self.player(&row.state) {
                game.observation_tensor(&row.state, p, obs);
                let mut legal = Vec::new();
                game.legal_actions(&row.state, &mut legal);
                for a in legal {
                    mask[a as usize] = 1;
                }
            }
        });
        drop(cells);
        let mut batch = Batch {
            obs,
            mask,
            player,
            rewards: Vec::with_capacity(n * players),
            terminated: Vec::with_capacity(n),
            final_returns: Vec::with_capacity(n * players),
            ended: Vec::new(),
            final_obs: Vec::new(),
            final_notation: Vec::new(),
        };
        for (i, out) in outs.into_iter().enumerate() {
            batch.rewards.extend_from_slice(&out.reward);
            batch.terminated.push(out.terminated);
            batch.final_returns.extend_from_slice(&out.final_returns);
            if let Some((o, notation)) = out.final_obs {
                batch.ended.push(i);
                batch.final_obs.extend_from_slice(&o);
                batch.final_notation.push(notation);
            }
        }
        Ok(batch)
    }
}

/// A batch of games of a game chosen at run time ([`crate::erased::DynGame::vec_game`]).
pub trait DynVecGame: Send + Sync + std::fmt::Debug {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn reset(&mut self, seed: u64) -> Result<Batch>;
    fn step(&mut self, actions: &[i64], illegal: Illegal) -> Result<Batch>;
    /// The notation of game `row` as it stands.
    fn notation(&self, row: usize) -> String;
}

impl<G: Game + std::fmt::Debug> DynVecGame for VecGame<G> {
    fn len(&self) -> usize {
        VecGame::len(self)
    }
    fn reset(&mut self, seed: u64) -> Result<Batch> {
        VecGame::reset(self, seed)
    }
    fn step(&mut self, actions: &[i64], illegal: Illegal) -> Result<Batch> {
        VecGame::step(self, actions, illegal)
    }
    fn notation(&self, row: usize) -> String {
        self.game.notation(self.state(row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::erased::DynGame;
    use crate::options::Options;
    use crate::registry::{game_names, make_game};
    use rand::Rng as _;

    fn games() -> Vec<std::sync::Arc<dyn DynGame>> {
        game_names()
            .into_iter()
            .map(|name| make_game(name, &Options::default()).unwrap())
            .collect()
    }

    /// Random legal actions for every game of `batch` (from its mask), drawn with `rng`.
    fn random_actions(batch: &Batch, actions: usize, rng: &mut Rng) -> Vec<i64> {
        batch
            .mask
            .chunks(actions)
            .map(|m| {
                let legal: Vec<usize> = (0..actions).filter(|&a| m[a] == 1).collect();
                legal[rng.random_range(0..legal.len())] as i64
            })
            .collect()
    }

    /// Steps a batch of every registered game with random legal actions; the results are the
    /// same on one thread and on three, every game has a legal action at every step, and the
    /// rewards of each game that ended add up to its final returns.
    #[test]
    fn every_game_steps_the_same_on_any_number_of_threads() {
        for g in games() {
            let (n, actions, players) = (5, g.num_actions(), g.num_players());
            let mut one = g.vec_game(n, 7, Some(1)).unwrap();
            let mut three = g.vec_game(n, 7, Some(3)).unwrap();
            let mut batch = one.reset(7).unwrap();
            assert_eq!(batch, three.reset(7).unwrap(), "{}", g.name());
            let mut rng = row_rng(1, 0);
            let mut sums = vec![0.0; n * players];
            let mut ended = 0;
            for _ in 0..400 {
                let a = random_actions(&batch, actions, &mut rng);
                batch = one.step(&a, Illegal::Refuse).unwrap();
                assert_eq!(
                    batch,
                    three.step(&a, Illegal::Refuse).unwrap(),
                    "{}",
                    g.name()
                );
                for (s, r) in sums.iter_mut().zip(&batch.rewards) {
                    *s += r;
                }
                for i in 0..n {
                    if batch.terminated[i] {
                        ended += 1;
                        for p in 0..players {
                            let k = i * players + p;
                            assert!(
                                (sums[k] - batch.final_returns[k]).abs() < 1e-9,
                                "{}: rewards add up to the return",
                                g.name()
                            );
                            sums[k] = 0.0;
                        }
                    }
                }
            }
            assert!(ended > 0, "{}: some game ended in 400 steps", g.name());
        }
    }

    /// Game `i` of a batch plays as the one game seeded by `row_rng(seed, i)` does.
    #[test]
    fn a_row_is_the_single_game_with_its_generator() {
        for g in games() {
            let mut batch_game = g.vec_game(3, 11, None).unwrap();
            let mut batch = batch_game.reset(11).unwrap();
            let mut state = g.new_state();
            let mut rng = row_rng(11, 2);
            let mut pick = row_rng(5, 5);
            let actions = g.num_actions();
            for _ in 0..60 {
                while state.to_move() == ToMove::Chance {
                    let a = state.sample_chance(&mut rng);
                    state = state.play(a).unwrap();
                }
                if state.to_move() == ToMove::Terminal {
                    break;
                }
                assert_eq!(state.notation(), batch_game.notation(2), "{}", g.name());
                let a = random_actions(&batch, actions, &mut pick);
                state = state.play(a[2] as Action).unwrap();
                batch = batch_game.step(&a, Illegal::Refuse).unwrap();
            }
        }
    }

    #[test]
    fn an_illegal_action_is_refused_or_loses() {
        for g in games() {
            let mut v = g.vec_game(2, 3, Some(1)).unwrap();
            let batch = v.reset(3).unwrap();
            let actions = g.num_actions();
            let illegal = (0..actions)
                .find(|&a| batch.mask[actions + a] == 0)
                .map_or(actions as i64, |a| a as i64);
            let legal = (0..actions).find(|&a| batch.mask[a] == 1).unwrap() as i64;
            let before = (v.notation(0), v.notation(1));
            let err = v.step(&[legal, illegal], Illegal::Refuse).unwrap_err();
            assert!(
                matches!(&err, Error::IllegalMove(m) if m.starts_with("game 1 of the batch")),
                "{err:?}"
            );
            assert_eq!(before, (v.notation(0), v.notation(1)), "nothing changed");
            assert!(matches!(
                v.step(&[legal], Illegal::Refuse),
                Err(Error::InvalidOption(_))
            ));
            let out = v.step(&[legal, illegal], Illegal::Lose).unwrap();
            assert!(out.terminated[1]);
            let actor = batch.player[1] as usize;
            let players = g.num_players();
            assert_eq!(out.final_returns[players + actor], g.info().min_return);
        }
    }

    #[test]
    fn no_games_is_refused() {
        for g in games() {
            assert!(matches!(
                g.vec_game(0, 0, None),
                Err(Error::InvalidOption(_))
            ));
        }
    }
}
