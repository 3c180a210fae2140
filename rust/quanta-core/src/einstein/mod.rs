//! EinStein würfelt nicht (Ingo Althöfer): the dice race-and-capture game on a 5×5 board.
//!
//! Options: `setup` = `"random"` (default) or `"choose"`; `first` = 0 (default) or 1.
//!
//! The board, the steps, captures, the win conditions, the nearest-stone rule and the
//! arrangements are in [`rules`] (EinStein a la Card plays on the same [`Board`]), the
//! notation and the action names in `notation`, the exact solver and its bot in [`solve`].
//!
//! Rules, notation and action names: docs/rules/einstein.md.

mod notation;
pub mod rules;
pub mod solve;
#[cfg(test)]
mod tests;

use crate::error::Result;
use crate::game::{Action, Game, GameInfo, Information, Rng, ToMove, Utility};
use crate::options::{OptionReader, OptionValue, Options};
pub use notation::cell_name;
pub(crate) use notation::read_player;
use rand::Rng as _;
use rules::SIDE;
pub(crate) use rules::{ARRANGEMENTS, CELLS, arrangement};
pub use rules::{Board, GOAL, GONE, STONES, TARGET, movable_stones};

/// The action of rolling 1 (rolls 1-6 are `FIRST_ROLL..FIRST_ROLL + 6`).
pub const FIRST_ROLL: Action = 75;
/// The action of arrangement 0 (arrangements 0-719 are `FIRST_ARRANGEMENT..NUM_ACTIONS`).
pub const FIRST_ARRANGEMENT: Action = FIRST_ROLL + 6;
pub(crate) const NUM_ACTIONS: usize = (FIRST_ARRANGEMENT + ARRANGEMENTS) as usize;

/// How the stones get onto the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setup {
    /// Each side's arrangement is a chance event, uniform over the 720.
    Random,
    /// Each side arranges its own stones, player 1 after seeing player 0's.
    Choose,
}

/// The game's parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Einstein {
    pub setup: Setup,
    /// The player who moves first after the setup.
    pub first: u8,
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `player` arranges its stones next (player 0 first, then player 1).
    Setup,
    /// `player` rolls the die next.
    Roll,
    /// `player` has rolled this number and moves.
    Move(u8),
    /// The game is over; the winner.
    Over(u8),
}

/// A position: the board, whose turn it is and the phase of the turn.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EinsteinState {
    board: Board,
    /// The side to arrange, roll or move (in a finished game: the side that would be next).
    player: u8,
    phase: Phase,
}

impl EinsteinState {
    fn empty(player: u8, phase: Phase) -> Self {
        EinsteinState {
            board: Board::EMPTY,
            player,
            phase,
        }
    }

    /// Moves the stone of the side to move on `from` to `to`, a step away: then the other
    /// side rolls, or the game is over.
    #[inline(always)]
    fn move_stone(&mut self, from: u8, to: u8) {
        let mover = self.player;
        let won = self.board.move_stone(mover, from, to);
        self.player = 1 - mover;
        self.phase = match won {
            Some(winner) => Phase::Over(winner),
            None => Phase::Roll,
        };
    }

    /// Calls `f` with each move after rolling `die`, in ascending action order.
    fn for_each_move(&self, die: u8, f: impl FnMut(Action)) {
        self.board.for_each_move(self.player, die, f)
    }

    /// The board as `+n`/`-n` stones per cell, row by row from the top.
    pub fn board(&self) -> [i8; CELLS] {
        self.board.cells
    }

    /// `stones()[player][n - 1]`: the cell of stone n of `player`, or `GONE`.
    pub fn stones(&self) -> [[u8; STONES]; 2] {
        self.board.stones()
    }

    /// The side to arrange, roll or move (in a finished game: the side that would be next).
    pub fn player(&self) -> u8 {
        self.player
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }
}

/// The options `setup` (`random` or `choose`) and `first` (0 or 1) that both EinStein games
/// take.
pub(crate) fn read_setup_and_first(r: &mut OptionReader) -> Result<(Setup, u8)> {
    let setup = match r.choice("setup", &["random", "choose"])? {
        "random" => Setup::Random,
        _ => Setup::Choose,
    };
    Ok((setup, r.int("first", 0, 1, 0)? as u8))
}

/// The options `setup` and `first` as [`read_setup_and_first`] reads them back (EinStein's, and
/// the card variant's first two).
pub(crate) fn setup_and_first_options(setup: Setup, first: u8) -> Options {
    let setup = match setup {
        Setup::Random => "random",
        Setup::Choose => "choose",
    };
    Options::from([
        ("setup".to_string(), OptionValue::Str(setup.to_string())),
        ("first".to_string(), OptionValue::Int(first as i64)),
    ])
}

impl Game for Einstein {
    type State = EinsteinState;
    const NAME: &'static str = "einstein";

    fn from_options(options: &Options) -> Result<Self> {
        let mut r = OptionReader::new(Self::NAME, options);
        let (setup, first) = read_setup_and_first(&mut r)?;
        r.finish()?;
        Ok(Einstein { setup, first })
    }

    fn options(&self) -> Options {
        setup_and_first_options(self.setup, self.first)
    }

    fn num_players(&self) -> usize {
        2
    }

    /// Every move takes a stone one or two steps (row + column) nearer its corner, from a
    /// start of 8 in all to at most 7 each of the six stones short of the corner, plus the
    /// move onto it: at most 35 moves a side, and two arrangements with `setup="choose"`.
    fn info(&self) -> GameInfo {
        GameInfo {
            information: Information::Perfect,
            utility: Utility::ZeroSum,
            chance: true,
            min_return: -1.0,
            max_return: 1.0,
            max_game_length: 70 + if self.setup == Setup::Choose { 2 } else { 0 },
        }
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn new_state(&self) -> EinsteinState {
        EinsteinState::empty(0, Phase::Setup)
    }

    fn to_move(&self, s: &EinsteinState) -> ToMove {
        match s.phase {
            Phase::Setup if self.setup == Setup::Random => ToMove::Chance,
            Phase::Roll => ToMove::Chance,
            Phase::Over(_) => ToMove::Terminal,
            Phase::Setup | Phase::Move(_) => ToMove::Player(s.player),
        }
    }

    fn legal_actions(&self, s: &EinsteinState, out: &mut Vec<Action>) {
        out.clear();
        match s.phase {
            Phase::Setup => out.extend(FIRST_ARRANGEMENT..FIRST_ARRANGEMENT + ARRANGEMENTS),
            Phase::Roll => out.extend(FIRST_ROLL..FIRST_ARRANGEMENT),
            Phase::Over(_) => {}
            Phase::Move(die) => s.for_each_move(die, |a| out.push(a)),
        }
    }

    fn chance_outcomes(&self, s: &EinsteinState, out: &mut Vec<(Action, f64)>) {
        out.clear();
        match (self.to_move(s), s.phase) {
            (ToMove::Chance, Phase::Roll) => {
                out.extend((FIRST_ROLL..FIRST_ARRANGEMENT).map(|a| (a, 1.0 / 6.0)))
            }
            (ToMove::Chance, Phase::Setup) => out.extend(
                (FIRST_ARRANGEMENT..FIRST_ARRANGEMENT + ARRANGEMENTS)
                    .map(|a| (a, 1.0 / ARRANGEMENTS as f64)),
            ),
            _ => {}
        }
    }

    fn sample_chance(&self, s: &EinsteinState, rng: &mut Rng) -> Action {
        match s.phase {
            Phase::Roll => FIRST_ROLL + rng.random_range(0..6),
            _ => FIRST_ARRANGEMENT + rng.random_range(0..ARRANGEMENTS),
        }
    }

    /// The generic step, without its bookkeeping: a roll and the move after it drawn straight
    /// from the board's tables. Same rules and odds as `legal_actions` + `apply`.
    fn random_step(
        &self,
        s: &mut EinsteinState,
        rng: &mut Rng,
        _actions: &mut Vec<Action>,
    ) -> Option<u32> {
        let die = match s.phase {
            Phase::Over(_) => return None,
            Phase::Setup => {
                // Both arrangements in one step (no ply).
                while s.phase == Phase::Setup {
                    self.apply(s, self.sample_chance(s, rng));
                }
                return Some(0);
            }
            Phase::Roll => rng.random_range(1..=6),
            Phase::Move(die) => die,
        };
        let (from, to) = s.board.random_move(s.player, die, rng);
        s.move_stone(from, to);
        Some(1)
    }

    const PLAYOUT_LANES: usize = 4;

    fn apply(&self, s: &mut EinsteinState, action: Action) {
        match s.phase {
            Phase::Setup => {
                s.board.arrange(s.player, action - FIRST_ARRANGEMENT);
                if s.player == 0 {
                    s.player = 1;
                } else {
                    s.player = self.first;
                    s.phase = Phase::Roll;
                }
            }
            Phase::Roll => s.phase = Phase::Move((action - FIRST_ROLL + 1) as u8),
            Phase::Move(_) => {
                let (from, to) = rules::step_cells(s.player, action);
                s.move_stone(from, to)
            }
            Phase::Over(_) => {}
        }
    }

    fn returns(&self, s: &EinsteinState, out: &mut [f64]) {
        let (r0, r1) = match s.phase {
            Phase::Over(0) => (1.0, -1.0),
            Phase::Over(_) => (-1.0, 1.0),
            _ => (0.0, 0.0),
        };
        out[0] = r0;
        out[1] = r1;
    }

    fn action_to_string(&self, s: &EinsteinState, action: Action) -> Result<String> {
        self.write_action(s, action)
    }

    fn notation(&self, s: &EinsteinState) -> String {
        self.write(s)
    }

    fn from_notation(&self, text: &str) -> Result<EinsteinState> {
        self.parse(text)
    }

    fn observation_string(&self, s: &EinsteinState, _player: usize) -> String {
        self.notation(s)
    }

    fn resample(&self, s: &EinsteinState, _player: usize, _rng: &mut Rng) -> EinsteinState {
        s.clone()
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![20, SIDE, SIDE]
    }

    /// The planes are listed in docs/rules/einstein.md, *Observation*.
    fn observation_tensor(&self, s: &EinsteinState, _player: usize, out: &mut [f32]) {
        out.fill(0.0);
        for (p, stones) in s.board.stones().iter().enumerate() {
            for (n, &cell) in stones.iter().enumerate() {
                if cell != GONE {
                    out[(p * STONES + n) * CELLS + cell as usize] = 1.0;
                }
            }
        }
        let mut fill = |plane: usize| out[plane * CELLS..(plane + 1) * CELLS].fill(1.0);
        if let Phase::Move(die) = s.phase {
            fill(12 + die as usize - 1);
        }
        if s.player == 1 {
            fill(18);
        }
        if s.phase == Phase::Setup {
            fill(19);
        }
    }
}
