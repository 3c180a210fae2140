//! Quantum Leap (Néstor Romeral Andrés): the hex capture game, with its exact solver in `solve`.
//!
//! Options: `size` = 5 (default) or any side from 2 to 7, or `board` = any board
//! (`"hexagon 9"`, `"parallelogram 3x4"`, `"triangle 5"`, `"cells 0,0 1,0 ..."`: see
//! [`board::Shape`]); `setup` = `"A"` (default) or `"B"`. Positions are two bitboards (`u64`
//! up to 64 cells, `u128` up to 128, [`crate::bits::Bits256`] beyond); the board's tables
//! (`board`) give neighbours and jump targets.
//!
//! Rules, notation and action names: docs/rules/quantum_leap.md.

pub mod board;
mod notation;
mod rules;
pub mod solve;

use crate::bits::Bits;
use crate::error::{Error, Result};
use crate::game::{
    Action, Game, GameInfo, Information, Rng, ToMove, Utility, random_step_by_lists,
};
use crate::options::{OptionReader, OptionValue, Options};
use board::{Board, Shape};
use rand::Rng as _;
use std::sync::Arc;

pub use rules::{CaptureCounts, after_capture, on_board};

pub const WHITE: u8 = 0;
pub const BLACK: u8 = 1;

/// How the stones are dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setup {
    /// One empty cell (not the centre), the stones as equal as can be, any odd one Black's
    /// ((C−1)/2 each on a board of an odd number C of cells); Black may then swap two stones.
    A,
    /// The board full, the stones as equal as can be, any odd one Black's ((C−1)/2 White and
    /// (C+1)/2 Black where C is odd); no swap.
    B,
}

/// The game's parameters and board tables.
#[derive(Debug, Clone)]
pub struct QuantumLeap<B: Bits> {
    pub setup: Setup,
    pub board: Arc<Board<B>>,
}

impl<B: Bits> PartialEq for QuantumLeap<B> {
    fn eq(&self, other: &Self) -> bool {
        self.setup == other.setup && self.board.coords == other.board.coords
    }
}

/// What happens next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The random deal: the empty cell first (setup A), then the colours cell by cell.
    Deal,
    /// Black decides whether to swap a white and a black stone.
    Swap,
    /// `side` to capture (or, when it cannot, to lose).
    Move { side: u8, over: bool },
}

/// A position: stones of each colour, cells not yet dealt, and the phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct QuantumLeapState<B> {
    pub stones: [B; 2],
    pub undealt: B,
    pub phase: Phase,
}

impl<B: Bits> QuantumLeap<B> {
    pub fn cells(&self) -> usize {
        self.board.cells
    }

    /// How many stones of each colour the deal hands out: every cell filled but setup A's
    /// empty one, as equally as can be, the odd stone Black's (docs/rules/quantum_leap.md,
    /// *Rulings applied*).
    pub fn stock(&self) -> [u32; 2] {
        let c = self.board.cells as u32;
        let stones = match self.setup {
            Setup::A => c - 1,
            Setup::B => c,
        };
        [stones / 2, stones.div_ceil(2)]
    }

    /// The cells setup A's empty cell may be dealt to: all but the centre.
    fn empty_cell_choices(&self) -> usize {
        self.cells() - usize::from(self.board.centre.is_some())
    }

    fn left_to_deal(&self, s: &QuantumLeapState<B>) -> [u32; 2] {
        let stock = self.stock();
        [
            stock[0] - s.stones[0].count(),
            stock[1] - s.stones[1].count(),
        ]
    }

    /// During setup A's deal, before the empty cell is drawn.
    fn empty_cell_pending(&self, s: &QuantumLeapState<B>) -> bool {
        self.setup == Setup::A && s.undealt == self.board.all
    }

    fn first_deal(&self) -> Action {
        (6 * self.cells() + 1 + self.cells() * self.cells()) as Action
    }

    fn no_swap(&self) -> Action {
        (6 * self.cells()) as Action
    }
}

impl<B: Bits> Game for QuantumLeap<B> {
    type State = QuantumLeapState<B>;
    const NAME: &'static str = "quantum_leap";

    fn from_options(options: &Options) -> Result<Self> {
        let mut r = OptionReader::new(Self::NAME, options);
        let side = r.int("size", 2, 7, 5)? as usize;
        let board = r.text("board")?;
        let setup = match r.choice("setup", &["A", "B"])? {
            "A" => Setup::A,
            _ => Setup::B,
        };
        r.finish()?;
        let shape = match board {
            Some(_) if options.contains_key("size") => {
                return Err(Error::InvalidOption(
                    "quantum_leap: give the option size (a hexagon's side) or the option \
                     board, not both"
                        .into(),
                ));
            }
            Some(text) => Shape::parse(text)?,
            None => Shape::Hexagon(side),
        };
        let cells = shape.coords().len();
        if cells > B::CAPACITY {
            return Err(Error::InvalidOption(format!(
                "quantum_leap: a board of {cells} cells needs a wider bitboard"
            )));
        }
        Ok(QuantumLeap {
            setup,
            board: Arc::new(Board::of(&shape)),
        })
    }

    fn options(&self) -> Options {
        let setup = match self.setup {
            Setup::A => "A",
            Setup::B => "B",
        };
        let board = match self.board.shape.hexagon_side() {
            Some(side) if side <= 7 => ("size".to_string(), OptionValue::Int(side as i64)),
            _ => ("board".to_string(), OptionValue::Str(self.board.text())),
        };
        Options::from([
            board,
            ("setup".to_string(), OptionValue::Str(setup.to_string())),
        ])
    }

    fn num_players(&self) -> usize {
        2
    }

    /// Every capture removes a stone and needs two stones of the capturing colour, so a game
    /// has fewer captures than cells, plus Black's swap decision.
    fn info(&self) -> GameInfo {
        GameInfo {
            information: Information::Perfect,
            utility: Utility::ZeroSum,
            chance: true,
            min_return: -1.0,
            max_return: 1.0,
            max_game_length: self.cells() as u32,
        }
    }

    fn num_actions(&self) -> usize {
        self.first_deal() as usize + self.cells() + 2
    }

    fn new_state(&self) -> Self::State {
        QuantumLeapState {
            stones: [B::EMPTY; 2],
            undealt: self.board.all,
            phase: Phase::Deal,
        }
    }

    fn to_move(&self, s: &Self::State) -> ToMove {
        match s.phase {
            Phase::Deal => ToMove::Chance,
            Phase::Swap => ToMove::Player(BLACK),
            Phase::Move { over: true, .. } => ToMove::Terminal,
            Phase::Move { side, .. } => ToMove::Player(side),
        }
    }

    fn legal_actions(&self, s: &Self::State, out: &mut Vec<Action>) {
        out.clear();
        match s.phase {
            Phase::Deal => {
                let mut odds = Vec::new();
                self.chance_outcomes(s, &mut odds);
                out.extend(odds.iter().map(|&(a, _)| a));
            }
            Phase::Swap => {
                out.push(self.no_swap());
                let c = self.cells();
                for i in (s.stones[0] | s.stones[1]).cells() {
                    let other = if s.stones[0].has(i) {
                        s.stones[1]
                    } else {
                        s.stones[0]
                    };
                    for j in other.cells().filter(|&j| j > i) {
                        out.push(self.no_swap() + 1 + (i * c + j) as Action);
                    }
                }
            }
            Phase::Move { over: true, .. } => {}
            Phase::Move { side, .. } => {
                self.for_each_capture(s.stones, side, |c, d, _| out.push((c * 6 + d) as Action))
            }
        }
    }

    fn chance_outcomes(&self, s: &Self::State, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if s.phase != Phase::Deal {
            return;
        }
        let e = self.first_deal();
        if self.empty_cell_pending(s) {
            let p = 1.0 / self.empty_cell_choices() as f64;
            out.extend(
                (0..self.cells())
                    .filter(|&c| !self.board.is_centre(c))
                    .map(|c| (e + c as Action, p)),
            );
        } else {
            let [w, b] = self.left_to_deal(s).map(|n| n as f64);
            let c = self.cells() as Action;
            out.extend(
                [(e + c, w / (w + b)), (e + c + 1, b / (w + b))]
                    .into_iter()
                    .filter(|&(_, p)| p > 0.0),
            );
        }
    }

    fn sample_chance(&self, s: &Self::State, rng: &mut Rng) -> Action {
        let e = self.first_deal();
        if self.empty_cell_pending(s) {
            let mut c = rng.random_range(0..self.empty_cell_choices());
            if self.board.centre.is_some_and(|centre| c >= centre) {
                c += 1;
            }
            e + c as Action
        } else {
            let [w, b] = self.left_to_deal(s);
            e + self.cells() as Action + (rng.random_range(0..w + b) >= w) as Action
        }
    }

    /// The generic step, but a capture drawn without listing the captures: counted on the
    /// bitboard, and only the drawn one looked up ([`Self::nth_capture`]). The same draw as
    /// from the list of `legal_actions`, which is in the same order.
    fn random_step(
        &self,
        s: &mut Self::State,
        rng: &mut Rng,
        actions: &mut Vec<Action>,
    ) -> Option<u32> {
        let Phase::Move { side, over: false } = s.phase else {
            return random_step_by_lists(self, s, rng, actions);
        };
        let count = self.count_captures(s.stones, side);
        // Drawn as a u32: the same draw as `random_range(0..count)` on a `usize`.
        let (from, _, to) = self.nth_capture(s.stones, side, rng.random_range(0..count));
        s.stones = after_capture(s.stones, side, from, to);
        s.phase = self.to_play(s.stones, 1 - side);
        Some(1)
    }

    fn apply(&self, s: &mut Self::State, action: Action) {
        let (a, c) = (action as usize, self.cells());
        match s.phase {
            Phase::Deal => {
                let e = self.first_deal() as usize;
                if a < e + c {
                    s.undealt ^= B::cell(a - e);
                } else {
                    self.deal_colour(s, a - e - c);
                }
            }
            Phase::Swap => {
                if action != self.no_swap() {
                    let pair = a - 6 * c - 1;
                    let cells = B::cell(pair / c) | B::cell(pair % c);
                    s.stones[0] ^= cells;
                    s.stones[1] ^= cells;
                }
                s.phase = self.to_play(s.stones, WHITE);
            }
            Phase::Move { side, .. } => {
                let (from, d) = (a / 6, a % 6);
                let own = s.stones[side as usize];
                let k = self.board.friends(from, own);
                let to = self.board.jump[from][d][k - 1] as usize;
                s.stones = after_capture(s.stones, side, from, to);
                s.phase = self.to_play(s.stones, 1 - side);
            }
        }
    }

    fn returns(&self, s: &Self::State, out: &mut [f64]) {
        out.fill(0.0);
        if let Phase::Move { side, over: true } = s.phase {
            out[side as usize] = -1.0;
            out[1 - side as usize] = 1.0;
        }
    }

    fn action_to_string(&self, s: &Self::State, action: Action) -> Result<String> {
        self.write_action(s, action)
    }

    fn notation(&self, s: &Self::State) -> String {
        self.write(s)
    }

    fn from_notation(&self, text: &str) -> Result<Self::State> {
        self.parse(text)
    }

    fn observation_string(&self, s: &Self::State, _player: usize) -> String {
        self.notation(s)
    }

    fn resample(&self, s: &Self::State, _player: usize, _rng: &mut Rng) -> Self::State {
        s.clone()
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![5, self.cells()]
    }

    /// The planes are listed in docs/rules/quantum_leap.md, *Observation*.
    fn observation_tensor(&self, s: &Self::State, _player: usize, out: &mut [f32]) {
        let c = self.cells();
        out.fill(0.0);
        for (plane, set) in [s.stones[0], s.stones[1], s.undealt]
            .into_iter()
            .enumerate()
        {
            for cell in set.cells() {
                out[plane * c + cell] = 1.0;
            }
        }
        if matches!(s.phase, Phase::Swap | Phase::Move { side: BLACK, .. }) {
            out[3 * c..4 * c].fill(1.0);
        }
        if s.phase == Phase::Swap {
            out[4 * c..5 * c].fill(1.0);
        }
    }
}

/// How many cells the board of `options` has, if they name one (the registry picks the
/// bitboard width by it; making the game checks the options).
pub fn cells_of(options: &Options) -> Option<usize> {
    match (options.get("board"), options.get("size")) {
        (Some(OptionValue::Str(text)), _) => Shape::parse(text).ok().map(|s| s.coords().len()),
        (None, Some(OptionValue::Int(side))) if (2..=7).contains(side) => {
            Some(Shape::Hexagon(*side as usize).coords().len())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
