//! Games and states behind trait objects, so that the bindings (and anything else that picks a
//! game by name at run time) handle every game through one type. Written once for all games.
//!
//! This is the one place that erases a game's type and the one place that gets it back
//! ([`position`]): below it, every game, solver and bot is typed, and reaches the game's
//! knowledge ([`Knowledge`]) through its type.

use crate::batch::{self, Playouts};
use crate::bots::{ArenaResult, Bot};
use crate::error::{Error, Result};
use crate::game::{Action, Game, GameInfo, Rng, ToMove};
use crate::knowledge::{Knowledge, Rollout};
use crate::options::Options;
use crate::search::Context;
use crate::solver::{Answer, SolverInfo};
use crate::vector::{DynVecGame, VecGame};
use rand::SeedableRng;
use std::any::Any;
use std::fmt::Debug;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A game chosen at run time.
pub trait DynGame: Send + Sync + Debug {
    fn name(&self) -> &'static str;
    fn options(&self) -> Options;
    fn num_players(&self) -> usize;
    fn num_actions(&self) -> usize;
    fn info(&self) -> GameInfo;
    fn observation_shape(&self) -> Vec<usize>;
    /// The game's solver, described; `None` when it has none.
    fn solver(&self) -> Option<SolverInfo>;
    /// The game's position evaluator, described; `None` when it has none.
    fn evaluator(&self) -> Option<&'static str>;
    /// How a tree search values new leaves unless told otherwise.
    fn rollout(&self) -> Rollout;
    /// The game's best player, described.
    fn best_player(&self) -> &'static str;
    fn new_state(&self) -> Box<dyn DynState>;
    fn from_notation(&self, text: &str) -> Result<Box<dyn DynState>>;
    fn random_playouts(
        &self,
        first: u64,
        n: usize,
        seed: u64,
        threads: Option<usize>,
        cancel: &AtomicBool,
    ) -> Result<Playouts>;
    /// `n` games from the start between `bots`, seats rotated game by game
    /// ([`crate::bots::arena`]).
    #[allow(clippy::too_many_arguments)]
    fn arena(
        &self,
        bots: &[Bot],
        n: usize,
        seed: u64,
        threads: Option<usize>,
        record: bool,
        cancel: &AtomicBool,
    ) -> Result<ArenaResult>;
    /// `n` games stepped together ([`crate::vector`]), reset with `seed`.
    fn vec_game(&self, n: usize, seed: u64, threads: Option<usize>) -> Result<Box<dyn DynVecGame>>;
    fn as_any(&self) -> &dyn Any;
}

/// A state of a game chosen at run time; it knows its game.
pub trait DynState: Send + Sync + Debug {
    fn game(&self) -> &dyn DynGame;
    fn to_move(&self) -> ToMove;
    fn legal_actions(&self) -> Vec<Action>;
    fn chance_outcomes(&self) -> Vec<(Action, f64)>;
    /// A chance outcome drawn with `rng` by its probability, as every batch draws them
    /// ([`Game::sample_chance`]).
    fn sample_chance(&self, rng: &mut Rng) -> Action;
    fn play(&self, action: Action) -> Result<Box<dyn DynState>>;
    /// The state after `action`, which the caller has found among `legal_actions` (no second
    /// check). An illegal action is a logic error, as in [`Game::apply`].
    fn play_legal(&self, action: Action) -> Box<dyn DynState>;
    fn returns(&self) -> Vec<f64>;
    fn action_to_string(&self, action: Action) -> Result<String>;
    fn parse_action(&self, text: &str) -> Result<Action>;
    fn notation(&self) -> String;
    fn observation_string(&self, player: usize) -> String;
    fn observation_tensor(&self, player: usize) -> Vec<f32>;
    fn information_state_string(&self, player: usize) -> String;
    fn action_to_string_for(&self, action: Action, player: usize) -> Result<String>;
    /// A state `player` cannot tell from this one, drawn with a generator seeded by `seed`.
    fn resample(&self, player: usize, seed: u64) -> Box<dyn DynState>;
    /// The greedy player's action ([`crate::greedy`]), ties broken by `seed`; `None` when
    /// nobody is to decide.
    fn greedy_action(&self, seed: u64) -> Option<Action>;
    /// The action `bot` plays here ([`Bot::choose`]); `NotApplicable` when nobody is to
    /// decide.
    fn bot_action(&self, bot: &Bot, cancel: &AtomicBool) -> Result<Action>;
    /// The game's solver's answer within `ctx`'s limits ([`Knowledge::answer`]): undecided
    /// past a limit; a finished game, a state the solver does not take and a game without a
    /// solver are `NotApplicable`.
    fn solve(&self, ctx: &Context) -> Result<Answer>;
    fn clone_box(&self) -> Box<dyn DynState>;
    /// Leaves `depth` actions (chance outcomes included) below this state.
    fn perft(&self, depth: u32, cancel: &AtomicBool) -> Result<u64>;
    /// The game behind this state, shared (not rebuilt).
    fn game_arc(&self) -> Arc<dyn DynGame>;
    /// Same game (and parameters) and same position.
    fn same_as(&self, other: &dyn DynState) -> bool;
    fn hash_u64(&self) -> u64;
    fn as_any(&self) -> &dyn Any;
}

/// A game of type `G` behind `dyn DynGame`.
#[derive(Debug)]
pub struct Erased<G: Game>(pub G);

impl<G: Knowledge> Erased<G> {
    /// Makes the game from options: the one function a registry entry names.
    pub fn make(options: &Options) -> Result<Arc<dyn DynGame>> {
        Ok(Arc::new(Erased(G::from_options(options)?)))
    }
}

/// A state of `G` together with its game.
#[derive(Debug, Clone)]
pub struct Position<G: Game> {
    pub game: Arc<Erased<G>>,
    pub state: G::State,
}

impl<G: Knowledge> DynGame for Erased<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn options(&self) -> Options {
        self.0.options()
    }
    fn num_players(&self) -> usize {
        self.0.num_players()
    }
    fn num_actions(&self) -> usize {
        self.0.num_actions()
    }
    fn info(&self) -> GameInfo {
        self.0.info()
    }
    fn observation_shape(&self) -> Vec<usize> {
        self.0.observation_shape()
    }
    fn solver(&self) -> Option<SolverInfo> {
        G::SOLVER
    }
    fn evaluator(&self) -> Option<&'static str> {
        G::EVALUATOR
    }
    fn rollout(&self) -> Rollout {
        G::ROLLOUT
    }
    fn best_player(&self) -> &'static str {
        G::BEST_PLAYER
    }
    fn new_state(&self) -> Box<dyn DynState> {
        Box::new(Position {
            game: Arc::new(Erased(self.0.clone())),
            state: self.0.new_state(),
        })
    }
    fn from_notation(&self, text: &str) -> Result<Box<dyn DynState>> {
        let state = self.0.from_notation(text)?;
        Ok(Box::new(Position {
            game: Arc::new(Erased(self.0.clone())),
            state,
        }))
    }
    fn random_playouts(
        &self,
        first: u64,
        n: usize,
        seed: u64,
        threads: Option<usize>,
        cancel: &AtomicBool,
    ) -> Result<Playouts> {
        batch::random_playouts(&self.0, first, n, seed, threads, cancel)
    }
    fn arena(
        &self,
        bots: &[Bot],
        n: usize,
        seed: u64,
        threads: Option<usize>,
        record: bool,
        cancel: &AtomicBool,
    ) -> Result<ArenaResult> {
        crate::bots::arena(&self.0, bots, n, seed, threads, record, cancel)
    }
    fn vec_game(&self, n: usize, seed: u64, threads: Option<usize>) -> Result<Box<dyn DynVecGame>> {
        Ok(Box::new(VecGame::new(&self.0, n, seed, threads)?))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl<G: Knowledge> DynState for Position<G> {
    fn game(&self) -> &dyn DynGame {
        &*self.game
    }
    fn to_move(&self) -> ToMove {
        self.game.0.to_move(&self.state)
    }
    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.game.0.legal_actions(&self.state, &mut out);
        out
    }
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        let mut out = Vec::new();
        self.game.0.chance_outcomes(&self.state, &mut out);
        out
    }
    fn sample_chance(&self, rng: &mut Rng) -> Action {
        self.game.0.sample_chance(&self.state, rng)
    }
    fn play(&self, action: Action) -> Result<Box<dyn DynState>> {
        let state = self.game.0.play(&self.state, action)?;
        Ok(Box::new(Position {
            game: self.game.clone(),
            state,
        }))
    }
    fn play_legal(&self, action: Action) -> Box<dyn DynState> {
        let mut state = self.state.clone();
        self.game.0.apply(&mut state, action);
        Box::new(Position {
            game: self.game.clone(),
            state,
        })
    }
    fn returns(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.game.0.num_players()];
        self.game.0.returns(&self.state, &mut out);
        out
    }
    fn action_to_string(&self, action: Action) -> Result<String> {
        self.game.0.action_to_string(&self.state, action)
    }
    fn parse_action(&self, text: &str) -> Result<Action> {
        self.game.0.parse_action(&self.state, text)
    }
    fn notation(&self) -> String {
        self.game.0.notation(&self.state)
    }
    fn observation_string(&self, player: usize) -> String {
        self.game.0.observation_string(&self.state, player)
    }
    fn observation_tensor(&self, player: usize) -> Vec<f32> {
        let mut out = vec![0.0; self.game.0.observation_shape().iter().product()];
        self.game
            .0
            .observation_tensor(&self.state, player, &mut out);
        out
    }
    fn information_state_string(&self, player: usize) -> String {
        self.game.0.information_state_string(&self.state, player)
    }
    fn action_to_string_for(&self, action: Action, player: usize) -> Result<String> {
        self.game
            .0
            .action_to_string_for(&self.state, action, player)
    }
    fn resample(&self, player: usize, seed: u64) -> Box<dyn DynState> {
        let mut rng = Rng::seed_from_u64(seed);
        Box::new(Position {
            game: self.game.clone(),
            state: self.game.0.resample(&self.state, player, &mut rng),
        })
    }
    fn greedy_action(&self, seed: u64) -> Option<Action> {
        crate::greedy::greedy_action(&self.game.0, &self.state, &mut Rng::seed_from_u64(seed))
    }
    fn bot_action(&self, bot: &Bot, cancel: &AtomicBool) -> Result<Action> {
        bot.choose(&self.game.0, &self.state, cancel)
    }
    fn solve(&self, ctx: &Context) -> Result<Answer> {
        self.game.0.answer(&self.state, ctx)
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn perft(&self, depth: u32, cancel: &AtomicBool) -> Result<u64> {
        self.game.0.perft_until(&self.state, depth, cancel)
    }
    fn game_arc(&self) -> Arc<dyn DynGame> {
        self.game.clone()
    }
    fn same_as(&self, other: &dyn DynState) -> bool {
        other
            .as_any()
            .downcast_ref::<Position<G>>()
            .is_some_and(|o| o.state == self.state && o.game.0 == self.game.0)
    }
    fn hash_u64(&self) -> u64 {
        let mut h = DefaultHasher::new();
        G::NAME.hash(&mut h);
        self.state.hash(&mut h);
        h.finish()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The state of game `G` behind `state`, or the error naming what needed it (`what`, e.g.
/// "einstein.solve"): the one downcast of a state, for the bindings' game-specific functions.
pub fn position<'s, G: Knowledge>(state: &'s dyn DynState, what: &str) -> Result<&'s Position<G>> {
    state.as_any().downcast_ref::<Position<G>>().ok_or_else(|| {
        Error::NotApplicable(format!(
            "{what} needs a state of the game {}, not of {}",
            G::NAME,
            state.game().name()
        ))
    })
}

/// Whether `state` is a state of game `G`.
pub fn is<G: Knowledge>(state: &dyn DynState) -> bool {
    state.as_any().is::<Position<G>>()
}
