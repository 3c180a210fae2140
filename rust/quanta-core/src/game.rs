//! The trait every game implements, and the generic machinery written once against it.

use crate::error::{Error, Result, quoted};
use crate::options::Options;
use rand::{Rng as _, SeedableRng};
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};

/// An action: a move, a decision, or a chance outcome, numbered `0..num_actions()`.
pub type Action = u32;

/// The random generator of playouts and chance sampling: small, fast and the same everywhere.
pub type Rng = rand_xoshiro::Xoshiro256PlusPlus;

/// Player code of a chance node (contract: `quanta.CHANCE`).
pub const CHANCE: i32 = -1;
/// Player code of a finished game (contract: `quanta.TERMINAL`).
pub const TERMINAL: i32 = -4;

/// Who acts next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToMove {
    Player(u8),
    Chance,
    Terminal,
}

impl ToMove {
    /// The integer code of the Python API: the player, `CHANCE` or `TERMINAL`.
    pub fn code(self) -> i32 {
        match self {
            ToMove::Player(p) => p as i32,
            ToMove::Chance => CHANCE,
            ToMove::Terminal => TERMINAL,
        }
    }
}

/// Who can see what: every game is one or the other (contract: `game.info.information`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Information {
    /// Every player sees the whole state (chance outcomes included, once they happen).
    Perfect,
    /// Some of the state is hidden from some players (hands, a pile, a deck).
    Imperfect,
}

/// How the players' returns relate (contract: `game.info.utility`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Utility {
    /// The returns always add up to zero (one player's gain is the others' loss).
    ZeroSum,
    /// Anything else: scores of their own (and every one-player game).
    GeneralSum,
    /// Every player always gets the same return: they win or lose together.
    Cooperative,
}

/// Facts about a game, so that outside frameworks can be fed without guessing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameInfo {
    pub information: Information,
    pub utility: Utility,
    /// Whether the game has chance nodes.
    pub chance: bool,
    /// No return is ever below this (at the end of a game or before).
    pub min_return: f64,
    /// No return is ever above this.
    pub max_return: f64,
    /// The most decisions a game can take, chance outcomes excluded (the `length` of
    /// `random_playouts` never exceeds it).
    pub max_game_length: u32,
}

/// A game: its parameters (`self`) and its rules over a state type.
///
/// Implement the required methods; the provided ones (`play`, `is_legal`, `parse_action`,
/// `sample_chance`, `random_playout`, `perft`) come for free and are what generic code uses.
pub trait Game: Clone + PartialEq + Send + Sync + 'static {
    /// A position, including whatever chance state is pending. Cheap to clone.
    type State: Clone + Eq + Hash + Send + Sync + Debug;

    /// The registered name (contract: an entry of `quanta.GAMES`).
    const NAME: &'static str;

    /// Builds the game from its options, checking every one.
    fn from_options(options: &Options) -> Result<Self>
    where
        Self: Sized;
    /// Every parameter's value, defaults included.
    fn options(&self) -> Options;
    fn num_players(&self) -> usize;
    /// Actions are numbered `0..num_actions()`.
    fn num_actions(&self) -> usize;
    /// The start of a game; may be a chance node.
    fn new_state(&self) -> Self::State;

    fn to_move(&self, state: &Self::State) -> ToMove;
    /// Appends the legal actions, sorted ascending, to the cleared `out`; at a chance node, the
    /// outcomes with non-zero probability; nothing when the game is over.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Action>);
    /// The outcomes of a chance node with their probabilities (summing to 1); empty otherwise.
    fn chance_outcomes(&self, state: &Self::State, out: &mut Vec<(Action, f64)>);
    /// Applies a legal action. Calling it with an illegal action is a logic error (it may
    /// produce a nonsensical state, but never undefined behaviour); use `play` for checked play.
    fn apply(&self, state: &mut Self::State, action: Action);
    /// One value per player: final scores or +1/-1/0 at the end, the values so far otherwise.
    fn returns(&self, state: &Self::State, out: &mut [f64]);

    /// A readable name of an action in this state.
    fn action_to_string(&self, state: &Self::State, action: Action) -> Result<String>;
    /// The position as text (contract notation per game); `from_notation` reads it back exactly.
    fn notation(&self, state: &Self::State) -> String;
    fn from_notation(&self, text: &str) -> Result<Self::State>;

    /// Facts about the game with these parameters.
    fn info(&self) -> GameInfo;

    /// What `player` may see now, and nothing else. Required of every game, so that a game
    /// with hidden information cannot fall back on the full notation by mistake; a
    /// perfect-information game returns its notation.
    fn observation_string(&self, state: &Self::State, player: usize) -> String;
    /// Everything `player` knows: what they see now and what they have seen before. The
    /// default is the observation, which is right for games whose observation already holds
    /// all a player remembers; games where players remember cards no longer shown override it.
    fn information_state_string(&self, state: &Self::State, player: usize) -> String {
        self.observation_string(state, player)
    }
    /// An action as `player` may see it (another player's draw shows no card). The default,
    /// the action's full string, is right when every action is public.
    fn action_to_string_for(
        &self,
        state: &Self::State,
        action: Action,
        _player: usize,
    ) -> Result<String> {
        self.action_to_string(state, action)
    }
    /// A full state that `player` cannot tell from `state` (the same information state),
    /// drawn uniformly from all such states with `rng`. A perfect-information game returns
    /// `state` itself.
    fn resample(&self, state: &Self::State, player: usize, rng: &mut Rng) -> Self::State;
    /// Shape of `observation_tensor`.
    fn observation_shape(&self) -> Vec<usize>;
    /// Writes `player`'s observation into `out` (zeroed, `observation_shape` elements).
    fn observation_tensor(&self, state: &Self::State, player: usize, out: &mut [f32]);

    // ---- provided ----

    /// The side `player` plays for: a partnership's seats share one (their returns are the
    /// team's), otherwise every seat is its own side.
    fn side(&self, player: usize) -> usize {
        player
    }

    fn is_legal(&self, state: &Self::State, action: Action) -> bool {
        let mut actions = Vec::new();
        self.legal_actions(state, &mut actions);
        actions.binary_search(&action).is_ok()
    }

    /// Checked play: a new state, or `IllegalMove` naming why.
    fn play(&self, state: &Self::State, action: Action) -> Result<Self::State> {
        if !self.is_legal(state, action) {
            return Err(illegal(self, state, action));
        }
        let mut next = state.clone();
        self.apply(&mut next, action);
        Ok(next)
    }

    /// The legal action whose string is `text` (surrounding blanks ignored).
    fn parse_action(&self, state: &Self::State, text: &str) -> Result<Action> {
        let wanted = text.trim();
        let mut actions = Vec::new();
        self.legal_actions(state, &mut actions);
        for &a in &actions {
            if self.action_to_string(state, a).is_ok_and(|s| s == wanted) {
                return Ok(a);
            }
        }
        Err(Error::IllegalMove(format!(
            "{}: no legal action {} in {}",
            Self::NAME,
            quoted(wanted),
            self.notation(state)
        )))
    }

    /// Draws a chance outcome with its probability. Games with uniform chance override this.
    fn sample_chance(&self, state: &Self::State, rng: &mut Rng) -> Action {
        let mut outcomes = Vec::new();
        self.chance_outcomes(state, &mut outcomes);
        let mut x: f64 = rng.random();
        for &(a, p) in &outcomes {
            if x < p {
                return a;
            }
            x -= p;
        }
        outcomes.last().expect("a chance node has outcomes").0
    }

    /// Plays uniformly random legal moves (and chance by its probabilities) to the end. Returns
    /// the number of plies, chance outcomes excluded; `returns` receives the final values.
    fn random_playout(&self, state: &mut Self::State, rng: &mut Rng, returns: &mut [f64]) -> u32 {
        let mut actions = Vec::with_capacity(64);
        let mut plies = 0;
        while let Some(played) = self.random_step(state, rng, &mut actions) {
            plies += played;
        }
        self.returns(state, returns);
        plies
    }

    /// The next step of [`Game::random_playout`]: a chance outcome drawn by its probability,
    /// or a uniformly random legal move (a game may take a chance outcome and the move after
    /// it in one step). Returns the plies played (chance outcomes excluded), or `None` once the
    /// game is over. `actions` is scratch room, kept from step to step to spare allocations.
    fn random_step(
        &self,
        state: &mut Self::State,
        rng: &mut Rng,
        actions: &mut Vec<Action>,
    ) -> Option<u32> {
        random_step_by_lists(self, state, rng, actions)
    }

    /// Games that a batch of random playouts ([`crate::batch::random_playouts`]) steps side
    /// by side on one thread, one [`Game::random_step`] of each in turn: while one game waits
    /// on memory, the processor works on the others. With 1, each game is played to its end
    /// by [`Game::random_playout`], which a game whose playout is not a sequence of its
    /// `random_step`s (it deals differently, say) must keep.
    const PLAYOUT_LANES: usize = 1;

    /// Counts the leaves `depth` actions (chance outcomes included) below `state`.
    fn perft(&self, state: &Self::State, depth: u32) -> u64 {
        self.perft_until(state, depth, &AtomicBool::new(false))
            .expect("an uncancelled count finishes")
    }

    /// `perft` that stops with `Interrupted` once `cancel` is set.
    fn perft_until(&self, state: &Self::State, depth: u32, cancel: &AtomicBool) -> Result<u64> {
        if depth == 0 || self.to_move(state) == ToMove::Terminal {
            return Ok(1);
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Interrupted);
        }
        let mut actions = Vec::new();
        self.legal_actions(state, &mut actions);
        let mut leaves = 0;
        for a in actions {
            let mut next = state.clone();
            self.apply(&mut next, a);
            leaves += self.perft_until(&next, depth - 1, cancel)?;
        }
        Ok(leaves)
    }
}

fn illegal<G: Game>(game: &G, state: &G::State, action: Action) -> Error {
    let what = if (action as usize) >= game.num_actions() {
        format!(
            "action {action} is out of range (0..{})",
            game.num_actions()
        )
    } else {
        match game.action_to_string(state, action) {
            Ok(s) => format!("action {action} ({s}) is not legal"),
            Err(_) => format!("action {action} is not legal"),
        }
    };
    Error::IllegalMove(format!("{}: {what} in {}", G::NAME, game.notation(state)))
}

/// [`Game::random_step`] as every game can take it: a chance outcome from
/// [`Game::sample_chance`], or a move drawn from the list of [`Game::legal_actions`]. A game
/// with a faster step for some positions keeps this one for the others.
pub fn random_step_by_lists<G: Game + ?Sized>(
    game: &G,
    state: &mut G::State,
    rng: &mut Rng,
    actions: &mut Vec<Action>,
) -> Option<u32> {
    match game.to_move(state) {
        ToMove::Terminal => None,
        ToMove::Chance => {
            let a = game.sample_chance(state, rng);
            game.apply(state, a);
            Some(0)
        }
        ToMove::Player(_) => {
            actions.clear();
            game.legal_actions(state, actions);
            let a = actions[rng.random_range(0..actions.len())];
            game.apply(state, a);
            Some(1)
        }
    }
}

/// The generator of row `row` of a batch seeded with `seed`: independent of threads and order.
pub fn row_rng(seed: u64, row: u64) -> Rng {
    Rng::seed_from_u64(splitmix64(
        seed ^ splitmix64(row.wrapping_add(0x9E37_79B9_7F4A_7C15)),
    ))
}

/// SplitMix64's mixer: a well-spread 64-bit hash of `z`.
pub(crate) fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
