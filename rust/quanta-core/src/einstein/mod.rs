//! EinStein würfelt nicht (Ingo Althöfer): the dice race-and-capture game on a 5×5 board.
//!
//! Options: `setup` = `"random"` (default) or `"choose"`; `first` = 0 (default) or 1.
//!
//! Rules, notation and action names: docs/rules/einstein.md.

use crate::error::{Error, Result, quoted};
use crate::game::{Action, Game, GameInfo, Information, Rng, ToMove, Utility};
use crate::options::{OptionReader, OptionValue, Options};
use rand::Rng as _;

pub mod solve;

const SIDE: usize = 5;
pub(crate) const CELLS: usize = SIDE * SIDE;
pub const STONES: usize = 6;
/// Marks a stone that has been removed.
pub const GONE: u8 = u8::MAX;

/// The action of rolling 1 (rolls 1-6 are `FIRST_ROLL..FIRST_ROLL + 6`).
pub const FIRST_ROLL: Action = 75;
/// The action of arrangement 0 (arrangements 0-719 are `FIRST_ARRANGEMENT..NUM_ACTIONS`).
pub const FIRST_ARRANGEMENT: Action = FIRST_ROLL + 6;
pub(crate) const ARRANGEMENTS: u32 = 720;
pub(crate) const NUM_ACTIONS: usize = (FIRST_ARRANGEMENT + ARRANGEMENTS) as usize;

/// The start cells of each side, in the order an arrangement fills them.
const START_CELLS: [[u8; STONES]; 2] = [
    [0, 1, 2, 5, 6, 10],      // a1 b1 c1 a2 b2 a3
    [24, 23, 22, 19, 18, 14], // e5 d5 c5 e4 d4 e3
];
/// The corner each side must reach.
pub const GOAL: [u8; 2] = [24, 0];
/// Steps (row, column) of each side: player 0 right, down, diagonal; player 1 left, up, diagonal.
const STEPS: [[(i8, i8); 3]; 2] = [[(0, 1), (1, 0), (1, 1)], [(0, -1), (-1, 0), (-1, -1)]];

/// `TARGET[player][cell][direction]`: the cell a step leads to, or `GONE` off the board.
pub const TARGET: [[[u8; 3]; CELLS]; 2] = {
    let mut t = [[[GONE; 3]; CELLS]; 2];
    let mut p = 0;
    while p < 2 {
        let mut cell = 0;
        while cell < CELLS {
            let mut d = 0;
            while d < 3 {
                let r = (cell / SIDE) as i8 + STEPS[p][d].0;
                let c = (cell % SIDE) as i8 + STEPS[p][d].1;
                if r >= 0 && r < SIDE as i8 && c >= 0 && c < SIDE as i8 {
                    t[p][cell][d] = (r as usize * SIDE + c as usize) as u8;
                }
                d += 1;
            }
            cell += 1;
        }
        p += 1;
    }
    t
};

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

/// The board and its stones: what EinStein and EinStein a la Card share (the start cells,
/// the steps, captures, the win conditions and the nearest-stone rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Each cell: 0 empty, +n player 0's stone n, −n player 1's stone n.
    cells: [i8; CELLS],
    /// `stones[player][n - 1]`: the cell of stone n, or `GONE`.
    stones: [[u8; STONES]; 2],
    /// Bit `n - 1` of `alive[player]` is set while stone n is on the board.
    alive: [u8; 2],
}

impl Board {
    /// No stone on the board.
    pub const EMPTY: Board = Board {
        cells: [0; CELLS],
        stones: [[GONE; STONES]; 2],
        alive: [0; 2],
    };

    pub(crate) fn put(&mut self, player: u8, stone: u8, cell: u8) {
        self.cells[cell as usize] = if player == 0 {
            stone as i8
        } else {
            -(stone as i8)
        };
        self.stones[player as usize][stone as usize - 1] = cell;
        self.alive[player as usize] |= 1 << (stone - 1);
    }

    fn remove(&mut self, player: usize, stone: u8) {
        self.stones[player][stone as usize - 1] = GONE;
        self.alive[player] &= !(1 << (stone - 1));
    }

    /// Removes whatever stands on `cell` (nothing if it is empty).
    pub(crate) fn clear(&mut self, cell: u8) {
        let v = self.cells[cell as usize];
        if v != 0 {
            self.remove(if v > 0 { 0 } else { 1 }, v.unsigned_abs());
            self.cells[cell as usize] = 0;
        }
    }

    pub(crate) fn has_stones(&self, player: u8) -> bool {
        self.alive[player as usize] != 0
    }

    /// The stone on `cell`: 0 empty, +n player 0's stone n, −n player 1's.
    pub(crate) fn at(&self, cell: u8) -> i8 {
        self.cells[cell as usize]
    }

    /// Puts `player`'s stones on its start cells in arrangement `k` (0..720).
    pub(crate) fn arrange(&mut self, player: u8, k: u32) {
        for (i, &stone) in arrangement(k).iter().enumerate() {
            self.put(player, stone, START_CELLS[player as usize][i]);
        }
    }

    /// Steps the stone of `owner` on the cell of `action` (`from_cell * 3 + direction`, in
    /// `owner`'s directions), removing whatever stood on the target cell. Returns the winner
    /// if the step wins: only the stone's owner can win by it.
    pub(crate) fn step(&mut self, owner: u8, action: Action) -> Option<u8> {
        let p = owner as usize;
        let from = (action / 3) as usize;
        let to = TARGET[p][from][(action % 3) as usize] as usize;
        let captured = self.cells[to];
        if captured != 0 {
            self.remove(if captured > 0 { 0 } else { 1 }, captured.unsigned_abs());
        }
        let stone = self.cells[from];
        self.cells[from] = 0;
        self.cells[to] = stone;
        self.stones[p][stone.unsigned_abs() as usize - 1] = to as u8;
        (to == GOAL[p] as usize || !self.has_stones(1 - owner)).then_some(owner)
    }

    /// The winner of a position in which someone has won: a stone on its goal corner, or the
    /// other side without stones.
    pub(crate) fn winner(&self) -> Option<u8> {
        let won = |p: u8| {
            self.cells[GOAL[p as usize] as usize].signum() == if p == 0 { 1 } else { -1 }
                || !self.has_stones(1 - p)
        };
        match (won(0), won(1)) {
            (true, false) => Some(0),
            (false, true) => Some(1),
            _ => None,
        }
    }

    /// Whether a side has won (both, in an impossible position).
    pub(crate) fn someone_won(&self) -> bool {
        self.cells[GOAL[0] as usize] > 0
            || self.cells[GOAL[1] as usize] < 0
            || !self.has_stones(0)
            || !self.has_stones(1)
    }

    /// Calls `f` with each step of the stone on `cell` for its owner `player`, in ascending
    /// action order.
    pub(crate) fn for_each_step(cell: u8, player: u8, mut f: impl FnMut(Action)) {
        for (d, &to) in TARGET[player as usize][cell as usize].iter().enumerate() {
            if to != GONE {
                f(cell as Action * 3 + d as Action);
            }
        }
    }

    /// Calls `f` with each move of `player` after rolling `die`, in ascending action order.
    /// At most two stones may move; the one on the lower cell goes first so that the actions
    /// (`from_cell * 3 + direction`) come out sorted.
    pub(crate) fn for_each_move(&self, player: u8, die: u8, mut f: impl FnMut(Action)) {
        let p = player as usize;
        let mut from = [GONE; 2];
        for (slot, stone) in from.iter_mut().zip(movable_stones(self.alive[p], die)) {
            *slot = self.stones[p][stone as usize - 1];
        }
        if from[1] < from[0] {
            from.swap(0, 1);
        }
        for &cell in from.iter().take_while(|&&c| c != GONE) {
            Self::for_each_step(cell, player, &mut f);
        }
    }

    /// Calls `f` with each step of each of `player`'s stones, in ascending action order.
    pub(crate) fn for_each_any_move(&self, player: u8, mut f: impl FnMut(Action)) {
        for cell in 0..CELLS as u8 {
            let v = self.cells[cell as usize];
            if v != 0 && (v > 0) == (player == 0) {
                Self::for_each_step(cell, player, &mut f);
            }
        }
    }

    /// The five rows from the top, `/` between them: `.` empty, `1`-`6` player 0's stones,
    /// `a`-`f` player 1's.
    pub(crate) fn write_rows(&self, out: &mut String) {
        for r in 0..SIDE {
            if r > 0 {
                out.push('/');
            }
            for c in 0..SIDE {
                out.push(match self.cells[r * SIDE + c] {
                    0 => '.',
                    v if v > 0 => (b'0' + v as u8) as char,
                    v => (b'a' + (-v) as u8 - 1) as char,
                });
            }
        }
    }

    /// Reads what `write_rows` writes; the error says what is wrong.
    pub(crate) fn parse_rows(text: &str) -> std::result::Result<Board, String> {
        let mut b = Board::EMPTY;
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != SIDE {
            return Err(format!("expected 5 rows, found {}", rows.len()));
        }
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != SIDE {
                return Err(format!("row {} must have 5 cells: {}", r + 1, quoted(row)));
            }
            for (c, ch) in row.chars().enumerate() {
                let cell = (r * SIDE + c) as u8;
                let (owner, stone) = match ch {
                    '.' => continue,
                    '1'..='6' => (0, ch as u8 - b'0'),
                    'a'..='f' => (1, ch as u8 - b'a' + 1),
                    _ => {
                        return Err(format!(
                            "{ch:?} at {} is not '.', 1-6 or a-f",
                            cell_name(cell)
                        ));
                    }
                };
                if b.stones[owner][stone as usize - 1] != GONE {
                    return Err(format!("stone {ch:?} appears twice"));
                }
                b.put(owner as u8, stone, cell);
            }
        }
        Ok(b)
    }

    /// Checks a board while `player` is to arrange its stones: empty before player 0's
    /// arrangement; player 0's six stones exactly on its start cells before player 1's.
    pub(crate) fn check_setup(&self, player: u8) -> std::result::Result<(), String> {
        if player == 0 {
            if self.cells.iter().any(|&v| v != 0) {
                return Err("player 0 arranges first, so the board must be empty".into());
            }
        } else {
            let on_start = START_CELLS[0].iter().all(|&c| self.cells[c as usize] > 0);
            if !on_start || self.has_stones(1) || !self.stones[0].iter().all(|&c| c != GONE) {
                return Err(
                    "while player 1 arranges, player 0's six stones must fill its start \
                            cells and player 1 has none on the board"
                        .into(),
                );
            }
        }
        Ok(())
    }

    /// The board as `+n`/`-n` stones per cell, row by row from the top.
    pub fn cells(&self) -> [i8; CELLS] {
        self.cells
    }

    /// `stones()[player][n - 1]`: the cell of stone n of `player`, or `GONE`.
    pub fn stones(&self) -> [[u8; STONES]; 2] {
        self.stones
    }
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
        self.board.stones
    }

    /// The side to arrange, roll or move (in a finished game: the side that would be next).
    pub fn player(&self) -> u8 {
        self.player
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }
}

/// The stones (numbers 1-6) a side with stones `alive` (bit `n - 1` set while stone n is on
/// the board) may move after rolling `die`: stone `die` if it is on the board, otherwise the
/// nearest existing lower and higher stones (lower first).
pub fn movable_stones(alive: u8, die: u8) -> impl Iterator<Item = u8> {
    let bit = 1u8 << (die - 1);
    let (lower, higher) = if alive & bit != 0 {
        (Some(die), None)
    } else {
        let below = alive & (bit - 1);
        let above = alive & !(bit | (bit - 1));
        (
            (below != 0).then(|| 8 - below.leading_zeros() as u8),
            (above != 0).then(|| above.trailing_zeros() as u8 + 1),
        )
    };
    lower.into_iter().chain(higher)
}

/// `a1` for cell 0, `e5` for cell 24: column letter, then row number from the top.
pub(crate) fn cell_name(cell: u8) -> String {
    let (r, c) = (cell as usize / SIDE, cell as usize % SIDE);
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

/// `ORDERS[k]`: the `k`-th permutation of 1..=6 in lexicographic order, i.e. the stones that
/// arrangement `k` puts on a side's start cells.
const ORDERS: [[u8; STONES]; ARRANGEMENTS as usize] = {
    let mut table = [[0u8; STONES]; ARRANGEMENTS as usize];
    let mut k = 0;
    while k < ARRANGEMENTS as usize {
        // Decode k in the factorial number system, picking from the stones still unused.
        let mut used = [false; STONES];
        let mut rest = k;
        let mut fact = 120; // 5!
        let mut i = 0;
        while i < STONES {
            let mut skip = rest / fact;
            rest %= fact;
            let mut n = 0;
            while used[n] || skip > 0 {
                if !used[n] {
                    skip -= 1;
                }
                n += 1;
            }
            used[n] = true;
            table[k][i] = n as u8 + 1;
            if i < STONES - 1 {
                fact /= STONES - 1 - i;
            }
            i += 1;
        }
        k += 1;
    }
    table
};

pub(crate) fn arrangement(k: u32) -> [u8; STONES] {
    ORDERS[k as usize]
}

fn notation_error(text: &str, what: impl std::fmt::Display) -> Error {
    Error::InvalidNotation(format!("einstein: {what} in {}", quoted(text)))
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

/// The player field of a notation: `0` or `1`.
pub(crate) fn read_player(field: &str) -> std::result::Result<u8, String> {
    match field {
        "0" => Ok(0),
        "1" => Ok(1),
        other => Err(format!("player must be 0 or 1, not {}", quoted(other))),
    }
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
        let setup = match self.setup {
            Setup::Random => "random",
            Setup::Choose => "choose",
        };
        Options::from([
            ("setup".to_string(), OptionValue::Str(setup.to_string())),
            ("first".to_string(), OptionValue::Int(self.first as i64)),
        ])
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

    /// The generic playout, without its bookkeeping: roll, pick a uniformly random move from a
    /// list on the stack, repeat. Same rules and odds as `legal_actions` + `apply`.
    fn random_playout(&self, s: &mut EinsteinState, rng: &mut Rng, returns: &mut [f64]) -> u32 {
        let mut plies = 0;
        loop {
            let die = match s.phase {
                Phase::Over(_) => break,
                Phase::Setup => {
                    self.apply(s, self.sample_chance(s, rng));
                    continue;
                }
                Phase::Roll => rng.random_range(1..=6),
                Phase::Move(die) => die,
            };
            let mut moves = [0; 6];
            let mut n = 0;
            s.for_each_move(die, |a| {
                moves[n] = a;
                n += 1;
            });
            s.phase = Phase::Move(die);
            self.apply(s, moves[rng.random_range(0..n)]);
            plies += 1;
        }
        self.returns(s, returns);
        plies
    }

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
                let mover = s.player;
                let won = s.board.step(mover, action);
                s.player = 1 - mover;
                s.phase = match won {
                    Some(winner) => Phase::Over(winner),
                    None => Phase::Roll,
                };
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
        match action {
            a if a < FIRST_ROLL => {
                let from = (a / 3) as u8;
                match TARGET[s.player as usize][from as usize][(a % 3) as usize] {
                    GONE => Err(Error::IllegalMove(format!(
                        "einstein: action {a} would leave the board from {} for player {}",
                        cell_name(from),
                        s.player
                    ))),
                    to => Ok(format!("{}{}", cell_name(from), cell_name(to))),
                }
            }
            a if a < FIRST_ARRANGEMENT => Ok(format!("roll {}", a - FIRST_ROLL + 1)),
            a if (a as usize) < NUM_ACTIONS => {
                let order = arrangement(a - FIRST_ARRANGEMENT);
                Ok(format!(
                    "setup {}",
                    order.iter().map(|d| (b'0' + d) as char).collect::<String>()
                ))
            }
            a => Err(Error::IllegalMove(format!(
                "einstein: action {a} is out of range (0..{NUM_ACTIONS})"
            ))),
        }
    }

    fn notation(&self, s: &EinsteinState) -> String {
        let mut out = String::with_capacity(40);
        s.board.write_rows(&mut out);
        out.push(' ');
        out.push((b'0' + s.player) as char);
        out.push(' ');
        match s.phase {
            Phase::Setup => out.push_str("setup"),
            Phase::Move(die) => out.push((b'0' + die) as char),
            Phase::Roll | Phase::Over(_) => out.push('-'),
        }
        out
    }

    fn from_notation(&self, text: &str) -> Result<EinsteinState> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [rows, player, die] = fields[..] else {
            return Err(notation_error(
                text,
                "expected three fields separated by single spaces: <rows> <player> <die>",
            ));
        };
        let player = read_player(player).map_err(|e| notation_error(text, e))?;
        let mut s = EinsteinState::empty(player, Phase::Roll);
        s.board = Board::parse_rows(rows).map_err(|e| notation_error(text, e))?;
        match die {
            "setup" => {
                s.phase = Phase::Setup;
                s.board
                    .check_setup(player)
                    .map_err(|e| notation_error(text, e))?;
                return Ok(s);
            }
            "-" => {}
            d if d.len() == 1 && ('1'..='6').contains(&d.chars().next().unwrap_or('x')) => {
                s.phase = Phase::Move(d.as_bytes()[0] - b'0');
            }
            other => {
                return Err(notation_error(
                    text,
                    format!("die must be 1-6, '-' or 'setup', not {}", quoted(other)),
                ));
            }
        }
        if s.board.someone_won() {
            let Some(winner) = s.board.winner() else {
                return Err(notation_error(text, "both sides have won"));
            };
            if s.phase != Phase::Roll {
                return Err(notation_error(
                    text,
                    "the game is over, so the die must be '-'",
                ));
            }
            s.phase = Phase::Over(winner);
        }
        Ok(s)
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
        for (p, stones) in s.board.stones.iter().enumerate() {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Einstein {
        Einstein {
            setup: Setup::Random,
            first: 0,
        }
    }

    fn at(text: &str) -> EinsteinState {
        game().from_notation(text).unwrap()
    }

    fn moves(s: &EinsteinState) -> Vec<String> {
        let g = game();
        let mut out = Vec::new();
        g.legal_actions(s, &mut out);
        out.iter()
            .map(|&a| g.action_to_string(s, a).unwrap())
            .collect()
    }

    #[test]
    fn arrangements_are_lexicographic_permutations() {
        assert_eq!(arrangement(0), [1, 2, 3, 4, 5, 6]);
        assert_eq!(arrangement(1), [1, 2, 3, 4, 6, 5]);
        assert_eq!(arrangement(719), [6, 5, 4, 3, 2, 1]);
        let mut all: Vec<_> = (0..720).map(arrangement).collect();
        all.dedup();
        assert!(all.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn rolled_stone_present_moves_only_that_stone() {
        let s = at("1.2../...../...../...../....a 0 2");
        assert_eq!(moves(&s), ["c1d1", "c1c2", "c1d2"]);
    }

    #[test]
    fn missing_stone_offers_nearest_lower_and_higher() {
        // Stones 1 and 5 remain; a roll of 3 offers both neighbours of 3.
        let s = at("1...5/...../...../...../....a 0 3");
        assert_eq!(moves(&s), ["a1b1", "a1a2", "a1b2", "e1e2"]);
    }

    #[test]
    fn missing_stone_with_only_one_side_present() {
        // Only stones 1 and 2 remain; a roll of 6 offers the nearest lower (2) alone.
        let s = at("12.../...../...../...../....a 0 6");
        assert_eq!(moves(&s), ["b1c1", "b1b2", "b1c2"]);
    }

    #[test]
    fn capturing_own_stone_removes_it() {
        let g = game();
        let s = at("12.../...../...../...../....a 0 1");
        let a = g.parse_action(&s, "a1b1").unwrap();
        let t = g.play(&s, a).unwrap();
        assert_eq!(g.notation(&t), ".1.../...../...../...../....a 1 -");
    }

    #[test]
    fn reaching_the_corner_wins() {
        let g = game();
        let s = at("....a/...../...../....1/..... 0 1");
        let t = g.play(&s, g.parse_action(&s, "e4e5").unwrap()).unwrap();
        assert_eq!(g.to_move(&t), ToMove::Terminal);
        let mut r = [0.0; 2];
        g.returns(&t, &mut r);
        assert_eq!(r, [1.0, -1.0]);
    }

    #[test]
    fn removing_the_last_enemy_stone_wins() {
        let g = game();
        let s = at("1..../.a.../...../...../..... 0 1");
        let t = g.play(&s, g.parse_action(&s, "a1b2").unwrap()).unwrap();
        assert_eq!(t.phase, Phase::Over(0));
    }

    #[test]
    fn notation_rejects_impossible_positions() {
        let g = game();
        for bad in [
            "a..../...../...../...../....1 0 -", // both goal corners reached: both have won
            "...../...../...../...../..... 0 -", // nobody has stones
            "1...1/...../...../...../....a 0 -", // stone twice
            "1..../...../...../...../....a 0 7", // no such die
            "1..../...../...../...../....a 2 -", // no such player
            "1..../...../...../....a 0 -",       // four rows
            "1..x./...../...../...../....a 0 -", // bad character
            "1..../...../...../...../..... 1 3", // finished game with a die
            "1..../...../...../...../..... 0 setup",
        ] {
            assert!(
                matches!(g.from_notation(bad), Err(Error::InvalidNotation(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn random_games_round_trip_their_notation() {
        let g = game();
        let mut rng = crate::game::row_rng(7, 0);
        for _ in 0..200 {
            let mut s = g.new_state();
            while g.to_move(&s) != ToMove::Terminal {
                assert_eq!(g.from_notation(&g.notation(&s)).unwrap(), s);
                let a = match g.to_move(&s) {
                    ToMove::Chance => g.sample_chance(&s, &mut rng),
                    _ => {
                        let mut v = Vec::new();
                        g.legal_actions(&s, &mut v);
                        assert!(!v.is_empty(), "no passing: a player always has a move");
                        v[rng.random_range(0..v.len())]
                    }
                };
                s = g.play(&s, a).unwrap();
            }
            assert_eq!(g.from_notation(&g.notation(&s)).unwrap(), s);
        }
    }

    #[test]
    fn fast_playout_plays_exactly_the_generic_playout() {
        // The same generator stream must give the same game as legal_actions + apply.
        let g = game();
        for seed in 0..300 {
            let (mut fast, mut slow) = (g.new_state(), g.new_state());
            let mut r = [0.0; 2];
            let plies = g.random_playout(&mut fast, &mut crate::game::row_rng(seed, 0), &mut r);
            let mut rng = crate::game::row_rng(seed, 0);
            let mut slow_plies = 0;
            let mut v = Vec::new();
            loop {
                match g.to_move(&slow) {
                    ToMove::Terminal => break,
                    ToMove::Chance => {
                        let a = g.sample_chance(&slow, &mut rng);
                        slow = g.play(&slow, a).unwrap();
                    }
                    ToMove::Player(_) => {
                        g.legal_actions(&slow, &mut v);
                        slow = g.play(&slow, v[rng.random_range(0..v.len())]).unwrap();
                        slow_plies += 1;
                    }
                }
            }
            assert_eq!((fast, plies), (slow, slow_plies));
        }
    }

    #[test]
    fn perft_after_a_fixed_setup() {
        let g = Einstein {
            setup: Setup::Choose,
            first: 0,
        };
        let s = g.new_state();
        let s = g.play(&s, FIRST_ARRANGEMENT).unwrap();
        let s = g.play(&s, FIRST_ARRANGEMENT).unwrap();
        assert_eq!(g.notation(&s), "123../45.../6...f/...ed/..cba 0 -");
        // 6 rolls; every stone on a start cell has all three of its steps on the board.
        assert_eq!(g.perft(&s, 1), 6);
        assert_eq!(g.perft(&s, 2), 3 + 3 + 3 + 3 + 3 + 3);
    }
}
