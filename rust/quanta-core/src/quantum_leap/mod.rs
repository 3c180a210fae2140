//! Quantum Leap (Néstor Romeral Andrés): the hex capture game, with its exact solver in `solve`.
//!
//! Options: `size` = 5 (default) or any side from 2 to 7; `setup` = `"A"` (default) or `"B"`.
//! Positions are two bitboards (`u64` up to side 5, `u128` up to side 7); the board's tables
//! (`board`) give neighbours and jump targets.
//!
//! Rules, notation and action names: docs/rules/quantum_leap.md.

pub mod board;
pub mod solve;

use crate::bits::Bits;
use crate::erased::{DynGame, Erased};
use crate::error::{Error, Result, quoted};
use crate::game::{Action, Game, GameInfo, Information, Rng, ToMove, Utility};
use crate::options::{OptionReader, OptionValue, Options};
use board::{Board, MAX_CELLS, OFF};
use rand::Rng as _;
use std::sync::Arc;

pub const WHITE: u8 = 0;
pub const BLACK: u8 = 1;

/// How the stones are dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setup {
    /// (C−1)/2 stones each, one empty non-centre cell; Black may then swap two stones.
    A,
    /// The board full, (C−1)/2 White and (C+1)/2 Black; no swap.
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
        self.setup == other.setup && self.board.side == other.board.side
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

/// How many stones, of both colours, `stones` has on the board.
pub fn on_board<B: Bits>(stones: [B; 2]) -> u32 {
    (stones[0] | stones[1]).count()
}

/// The stones after `side` captures from `from` to `to`: its stone leaves `from` for `to`,
/// and the enemy stone on `to` is gone. (Written without indexing the pair by `side`, which
/// would store one half and load both at once, a stall the solver paid at every child.)
#[inline]
pub fn after_capture<B: Bits>(stones: [B; 2], side: u8, from: usize, to: usize) -> [B; 2] {
    let (moved, taken) = (B::cell(from) | B::cell(to), B::cell(to));
    let white = if side == WHITE { moved } else { taken };
    [stones[0] ^ white, stones[1] ^ white ^ B::cell(from)]
}

/// Makes the game with the bitboard that fits its size.
pub fn make(options: &Options) -> Result<Arc<dyn DynGame>> {
    match options.get("size") {
        Some(OptionValue::Int(side)) if *side > 5 => Erased::<QuantumLeap<u128>>::make(options),
        _ => Erased::<QuantumLeap<u64>>::make(options),
    }
}

/// Per stone, its friendly neighbours and its captures, for both colours: see
/// [`QuantumLeap::capture_counts`]. One value is filled again and again in place
/// ([`QuantumLeap::count_captures_into`]), so that nothing is cleared or copied per position.
#[derive(Clone)]
pub struct CaptureCounts<B> {
    stones: [B; 2],
    /// By cell: the friendly neighbours of the stone there, and its captures (only the cells
    /// of `stones` are read; the others may hold what an earlier position left).
    friends: [u8; MAX_CELLS],
    captures: [u8; MAX_CELLS],
    /// By colour: every capture, and the stones by friendly neighbours.
    total: [i32; 2],
    by_friends: [[B; 8]; 2],
}

impl<B: Bits> Default for CaptureCounts<B> {
    fn default() -> Self {
        CaptureCounts {
            stones: [B::EMPTY; 2],
            friends: [0; MAX_CELLS],
            captures: [0; MAX_CELLS],
            total: [0; 2],
            by_friends: [[B::EMPTY; 8]; 2],
        }
    }
}

impl<B: Bits> QuantumLeap<B> {
    pub fn cells(&self) -> usize {
        self.board.cells
    }

    /// How many stones of each colour the deal hands out.
    fn stock(&self) -> [u32; 2] {
        let c = self.board.cells as u32;
        match self.setup {
            Setup::A => [(c - 1) / 2, (c - 1) / 2],
            Setup::B => [(c - 1) / 2, (c + 1) / 2],
        }
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

    /// Calls `f(from, direction, to)` for every capture of `side`, in action order.
    #[inline]
    pub fn for_each_capture(
        &self,
        stones: [B; 2],
        side: u8,
        mut f: impl FnMut(usize, usize, usize),
    ) {
        let (own, enemy) = (stones[side as usize], stones[1 - side as usize]);
        let b = &*self.board;
        // The enemy stones each stone can land on are found at once on the bitboard; the
        // directions are looked up only for stones that have some, until all are found.
        self.for_each_stone(own, enemy, |c, k, mut targets| {
            let mut d = 0;
            while !targets.is_empty() {
                let t = b.jump[c][d][k - 1];
                if t != OFF && targets.has(t as usize) {
                    f(c, d, t as usize);
                    targets ^= B::cell(t as usize);
                }
                d += 1;
            }
        });
    }

    /// Calls `f(from, to)` for every capture of `side`: by stone, then by target cell.
    #[inline]
    pub fn for_each_capture_target(
        &self,
        stones: [B; 2],
        side: u8,
        mut f: impl FnMut(usize, usize),
    ) {
        let (own, enemy) = (stones[side as usize], stones[1 - side as usize]);
        self.for_each_stone(own, enemy, |c, _, targets| {
            for t in targets.cells() {
                f(c, t);
            }
        });
    }

    /// Calls `f(c, k, targets)` for every stone `c` of `own`: its friendly neighbours `k` and
    /// the stones of `enemy` it may land on.
    #[inline]
    fn for_each_stone(&self, own: B, enemy: B, mut f: impl FnMut(usize, usize, B)) {
        let b = &*self.board;
        for c in own.cells() {
            let k = b.friends(c, own);
            f(c, k, b.landing[c][k] & enemy);
        }
    }

    /// Whether the capture `(from, to)` leaves the opponent's capture `reply` (from, to)
    /// impossible, where it was possible before: it takes the replying stone, or a friend of
    /// it (so that its jump is shorter), or moves away the stone the reply would take.
    #[inline]
    pub fn prevents(&self, (from, to): (usize, usize), reply: (usize, usize)) -> bool {
        to == reply.0 || from == reply.1 || self.board.neighbours[reply.0].has(to)
    }

    /// Whether `side` has a capture.
    #[inline]
    pub fn can_capture(&self, stones: [B; 2], side: u8) -> bool {
        let (own, enemy) = (stones[side as usize], stones[1 - side as usize]);
        own.cells()
            .any(|c| !(self.landings(c, own) & enemy).is_empty())
    }

    /// Where the stone on `c` may land: the cells as many steps away along a line as it has
    /// friendly neighbours among `own` (a capture needs an enemy stone there).
    #[inline]
    pub fn landings(&self, c: usize, own: B) -> B {
        let b = &*self.board;
        b.landing[c][b.friends(c, own)]
    }

    /// How many captures `side` has.
    #[inline]
    pub fn count_captures(&self, stones: [B; 2], side: u8) -> u32 {
        let (own, enemy) = (stones[side as usize], stones[1 - side as usize]);
        own.cells()
            .map(|c| (self.landings(c, own) & enemy).count())
            .sum()
    }

    /// The captures of both colours on `stones`, kept so that the counts after any one
    /// capture follow from a few changes ([`captures_after`](Self::captures_after)).
    pub fn capture_counts(&self, stones: [B; 2]) -> CaptureCounts<B> {
        let mut counts = CaptureCounts::default();
        self.count_captures_into(stones, &mut counts);
        counts
    }

    /// [`capture_counts`](Self::capture_counts) written over `counts`.
    #[inline]
    pub fn count_captures_into(&self, stones: [B; 2], counts: &mut CaptureCounts<B>) {
        self.for_each_capture_counted(stones, WHITE, counts, |_, _| {});
        self.count_captures_of(BLACK, counts);
    }

    /// Calls `f(from, to)` for every capture of `side`, as
    /// [`for_each_capture_target`](Self::for_each_capture_target) does, and meanwhile starts
    /// `counts` afresh for `stones` with the counts of `side`'s stones; the opponent's follow
    /// from [`count_captures_of`](Self::count_captures_of).
    #[inline]
    pub fn for_each_capture_counted(
        &self,
        stones: [B; 2],
        side: u8,
        counts: &mut CaptureCounts<B>,
        mut f: impl FnMut(usize, usize),
    ) {
        counts.stones = stones;
        counts.total = [0; 2];
        counts.by_friends = [[B::EMPTY; 8]; 2];
        self.count_side(side as usize, counts, |c, targets| {
            for t in targets.cells() {
                f(c, t);
            }
        });
    }

    /// Adds the counts of `side`'s stones to `counts` started by
    /// [`for_each_capture_counted`](Self::for_each_capture_counted) for the other side.
    #[inline]
    pub fn count_captures_of(&self, side: u8, counts: &mut CaptureCounts<B>) {
        self.count_side(side as usize, counts, |_, _| {});
    }

    #[inline]
    fn count_side(
        &self,
        side: usize,
        counts: &mut CaptureCounts<B>,
        mut targets_of: impl FnMut(usize, B),
    ) {
        let (own, enemy) = (counts.stones[side], counts.stones[1 - side]);
        self.for_each_stone(own, enemy, |c, k, targets| {
            let n = targets.count();
            counts.friends[c] = k as u8;
            counts.captures[c] = n as u8;
            counts.total[side] += n as i32;
            counts.by_friends[side][k] |= B::cell(c);
            if n > 0 {
                targets_of(c, targets);
            }
        });
    }

    /// How many captures `side` and its opponent have after `side` captures from `from` to
    /// `to`: ([`count_captures`](Self::count_captures) of the opponent, of `side`) on the
    /// position after, from the counts before. A stone's captures change only when its
    /// friendly neighbours change (next to `from` or `to`), or when `from` or `to` was or
    /// becomes one of its targets.
    pub fn captures_after(
        &self,
        counts: &CaptureCounts<B>,
        side: u8,
        from: usize,
        to: usize,
    ) -> (u32, u32) {
        let b = &*self.board;
        let (s, t) = (side as usize, 1 - side as usize);
        let own = counts.stones[s] ^ B::cell(from) ^ B::cell(to);
        let enemy = counts.stones[t] ^ B::cell(to);
        let count = |c: usize| i32::from(counts.captures[c]);
        // The opponent: the captured stone's friends have one friend fewer. Every other stone
        // lost `from` as a target where it jumped to it, and gained `to` where it jumps there
        // (the same length along a line both ways: the stones `k` steps from the cell).
        let mut replies = counts.total[t] - count(to);
        let next_to_captured = enemy & b.neighbours[to];
        for e in next_to_captured.cells() {
            let k = (counts.friends[e] as usize - 1) & 7;
            replies += (b.landing[e][k] & own).count() as i32 - count(e);
        }
        let unchanged = enemy & !next_to_captured;
        for k in 1..7 {
            let group = counts.by_friends[t][k] & unchanged;
            replies += (b.landing[to][k] & group).count() as i32;
            replies -= (b.landing[from][k] & group).count() as i32;
        }
        // `side`: the stone leaves `from` and lands on `to`, so its friends there change;
        // every other stone only loses `to` as a target.
        let mut mine = counts.total[s] - count(from);
        let regrouped = (b.neighbours[from] ^ b.neighbours[to]) & own & !B::cell(to);
        for o in regrouped.cells() {
            mine += (self.landings(o, own) & enemy).count() as i32 - count(o);
        }
        mine += (self.landings(to, own) & enemy).count() as i32;
        let unchanged = own & !regrouped & !B::cell(to);
        for k in 1..7 {
            mine -= (b.landing[to][k] & counts.by_friends[s][k] & unchanged).count() as i32;
        }
        (replies as u32, mine as u32)
    }

    fn to_play(&self, stones: [B; 2], side: u8) -> Phase {
        Phase::Move {
            side,
            over: !self.can_capture(stones, side),
        }
    }

    fn deal_colour(&self, s: &mut QuantumLeapState<B>, colour: usize) {
        let cell = s.undealt.lowest();
        s.undealt ^= B::cell(cell);
        s.stones[colour] |= B::cell(cell);
        let left = self.left_to_deal(s);
        // A colour used up: the rest of the cells are forced.
        for (colour, &n) in left.iter().enumerate() {
            if n == 0 {
                s.stones[1 - colour] |= s.undealt;
                s.undealt = B::EMPTY;
            }
        }
        if s.undealt.is_empty() {
            s.phase = match self.setup {
                Setup::A => Phase::Swap,
                Setup::B => self.to_play(s.stones, WHITE),
            };
        }
    }

    fn cell_char(s: &QuantumLeapState<B>, c: usize) -> char {
        if s.undealt.has(c) {
            '?'
        } else if s.stones[0].has(c) {
            'w'
        } else if s.stones[1].has(c) {
            'b'
        } else {
            '.'
        }
    }
}

fn bad(text: &str, what: impl std::fmt::Display) -> Error {
    Error::InvalidNotation(format!("quantum_leap: {what} in {}", quoted(text)))
}

impl<B: Bits> Game for QuantumLeap<B> {
    type State = QuantumLeapState<B>;
    const NAME: &'static str = "quantum_leap";

    fn from_options(options: &Options) -> Result<Self> {
        let mut r = OptionReader::new(Self::NAME, options);
        let side = r.int("size", 2, 7, 5)? as usize;
        let setup = match r.choice("setup", &["A", "B"])? {
            "A" => Setup::A,
            _ => Setup::B,
        };
        r.finish()?;
        if 3 * side * (side - 1) + 1 > B::CAPACITY {
            return Err(Error::InvalidOption(format!(
                "quantum_leap: size {side} needs a wider bitboard"
            )));
        }
        Ok(QuantumLeap {
            setup,
            board: Arc::new(Board::new(side)),
        })
    }

    fn options(&self) -> Options {
        let setup = match self.setup {
            Setup::A => "A",
            Setup::B => "B",
        };
        Options::from([
            ("size".to_string(), OptionValue::Int(self.board.side as i64)),
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
            let p = 1.0 / (self.cells() - 1) as f64;
            out.extend(
                (0..self.cells())
                    .filter(|&c| c != self.board.centre)
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
            let mut c = rng.random_range(0..self.cells() - 1);
            if c >= self.board.centre {
                c += 1;
            }
            e + c as Action
        } else {
            let [w, b] = self.left_to_deal(s);
            e + self.cells() as Action + (rng.random_range(0..w + b) >= w) as Action
        }
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
        let (a, c, b) = (action as usize, self.cells(), &*self.board);
        let e = self.first_deal() as usize;
        if a < 6 * c {
            let (from, d) = (a / 6, a % 6);
            let side = match s.phase {
                Phase::Move { side, .. } => side as usize,
                _ => {
                    return Err(Error::IllegalMove(format!(
                        "quantum_leap: action {a} is a jump, and no one is moving"
                    )));
                }
            };
            let k = b.friends(from, s.stones[side]);
            match (s.stones[side].has(from), k) {
                (true, 1..) if b.jump[from][d][k - 1] != OFF => Ok(format!(
                    "{}x{}",
                    b.name(from),
                    b.name(b.jump[from][d][k - 1] as usize)
                )),
                _ => Err(Error::IllegalMove(format!(
                    "quantum_leap: action {a} (from {} in direction {d}) is no jump here",
                    b.name(from)
                ))),
            }
        } else if a == 6 * c {
            Ok("no swap".to_string())
        } else if a < e {
            let pair = a - 6 * c - 1;
            let (i, j) = (pair / c, pair % c);
            if i < j {
                Ok(format!("swap {} {}", b.name(i), b.name(j)))
            } else {
                Err(Error::IllegalMove(format!(
                    "quantum_leap: action {a} is no swap"
                )))
            }
        } else if a < e + c {
            Ok(format!("empty {}", b.name(a - e)))
        } else if a < e + c + 2 {
            if s.undealt.is_empty() {
                return Err(Error::IllegalMove(
                    "quantum_leap: every cell is dealt".into(),
                ));
            }
            let colour = if a == e + c { "white" } else { "black" };
            Ok(format!("{colour} {}", b.name(s.undealt.lowest())))
        } else {
            Err(Error::IllegalMove(format!(
                "quantum_leap: action {a} is out of range (0..{})",
                self.num_actions()
            )))
        }
    }

    fn notation(&self, s: &Self::State) -> String {
        let rows: Vec<String> = self
            .board
            .rows()
            .map(|r| r.map(|c| Self::cell_char(s, c)).collect())
            .collect();
        let side = match s.phase {
            Phase::Deal => "deal",
            Phase::Swap => "swap",
            Phase::Move { side: WHITE, .. } => "w",
            Phase::Move { .. } => "b",
        };
        format!("{} {side}", rows.join("/"))
    }

    fn from_notation(&self, text: &str) -> Result<Self::State> {
        let Some((rows, side)) = text.split_once(' ') else {
            return Err(bad(text, "expected <rows> <side>"));
        };
        let b = &*self.board;
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != b.row_start.len() - 1 {
            return Err(bad(
                text,
                format!(
                    "size {} has {} rows, not {}",
                    b.side,
                    b.row_start.len() - 1,
                    rows.len()
                ),
            ));
        }
        let mut s = QuantumLeapState {
            stones: [B::EMPTY; 2],
            undealt: B::EMPTY,
            phase: Phase::Deal,
        };
        let mut empty = B::EMPTY;
        for (i, (row, cells)) in rows.iter().zip(b.rows()).enumerate() {
            if row.chars().count() != cells.len() {
                return Err(bad(
                    text,
                    format!(
                        "row {} must have {} cells: {}",
                        i + 1,
                        cells.len(),
                        quoted(row)
                    ),
                ));
            }
            for (ch, c) in row.chars().zip(cells) {
                match ch {
                    'w' => s.stones[0] |= B::cell(c),
                    'b' => s.stones[1] |= B::cell(c),
                    '?' => s.undealt |= B::cell(c),
                    '.' => empty |= B::cell(c),
                    _ => {
                        return Err(bad(
                            text,
                            format!("{ch:?} at {} is not w, b, . or ?", b.name(c)),
                        ));
                    }
                }
            }
        }
        if side != "deal" && !s.undealt.is_empty() {
            return Err(bad(text, "'?' (undealt) cells only appear during the deal"));
        }
        s.phase = match side {
            "w" => self.to_play(s.stones, WHITE),
            "b" => self.to_play(s.stones, BLACK),
            "swap" if self.setup == Setup::A => Phase::Swap,
            "swap" => return Err(bad(text, "setup B has no swap")),
            "deal" => {
                self.check_deal(text, &s, empty)?;
                Phase::Deal
            }
            other => {
                return Err(bad(
                    text,
                    format!("side must be w, b, swap or deal, not {}", quoted(other)),
                ));
            }
        };
        Ok(s)
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

impl<B: Bits> QuantumLeap<B> {
    fn check_deal(&self, text: &str, s: &QuantumLeapState<B>, empty: B) -> Result<()> {
        if s.undealt.is_empty() {
            return Err(bad(text, "a deal in progress has undealt ('?') cells"));
        }
        match self.setup {
            Setup::B if !empty.is_empty() => return Err(bad(text, "setup B deals no empty cell")),
            Setup::A if empty.count() > 1 => return Err(bad(text, "setup A deals one empty cell")),
            Setup::A if empty.has(self.board.centre) => {
                return Err(bad(text, "the empty cell may not be the centre"));
            }
            Setup::A if empty.is_empty() && s.undealt != self.board.all => {
                return Err(bad(text, "setup A deals the empty cell first"));
            }
            _ => {}
        }
        // The dealt cells are the lowest ones, apart from the empty cell.
        let dealt = s.stones[0] | s.stones[1];
        if !dealt.is_empty() && s.undealt.lowest() < self.board.cells {
            let first_undealt = s.undealt.lowest();
            if dealt.cells().any(|c| c > first_undealt) {
                return Err(bad(
                    text,
                    "cells are dealt in order: every '?' must follow the dealt cells",
                ));
            }
        }
        let stock = self.stock();
        for colour in 0..2 {
            let n = s.stones[colour].count();
            if n > stock[colour] {
                return Err(bad(
                    text,
                    format!("{} stones dealt, the stock has {}", n, stock[colour]),
                ));
            }
            if n == stock[colour] {
                return Err(bad(
                    text,
                    "a colour is used up, so the remaining cells would be filled",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
