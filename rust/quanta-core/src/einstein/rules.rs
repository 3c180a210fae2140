//! EinStein's board and its rules: the cells, the start cells, the goal corners and the
//! steps, captures and the win conditions, the nearest-stone rule, the 720 arrangements
//! (docs/rules/einstein.md). EinStein a la Card plays on the same [`Board`].

use crate::bits::Bits;
use crate::game::{Action, Rng};
use rand::Rng as _;

pub(super) const SIDE: usize = 5;
pub(crate) const CELLS: usize = SIDE * SIDE;
pub const STONES: usize = 6;
/// Marks a stone that has been removed.
pub const GONE: u8 = u8::MAX;

pub(crate) const ARRANGEMENTS: u32 = 720;

/// The start cells of each side, in the order an arrangement fills them.
pub(super) const START_CELLS: [[u8; STONES]; 2] = [
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

/// The steps a stone of one side may take from one cell, in ascending action order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Steps {
    /// The actions (`from * 3 + direction`); the first `count` are the steps.
    pub(crate) actions: [Action; 3],
    /// The cell each step leads to.
    pub(crate) to: [u8; 3],
    pub(crate) from: u8,
    pub(crate) count: u8,
}

/// `STEPS_FROM[player][cell]`: the steps a stone of `player` on `cell` may take. Row `CELLS`
/// stands for no stone: no steps.
const STEPS_FROM: [[Steps; CELLS + 1]; 2] = {
    let none = Steps {
        actions: [0; 3],
        to: [GONE; 3],
        from: GONE,
        count: 0,
    };
    let mut t = [[none; CELLS + 1]; 2];
    let mut p = 0;
    while p < 2 {
        let mut cell = 0;
        while cell < CELLS {
            let steps = &mut t[p][cell];
            steps.from = cell as u8;
            let mut d = 0;
            while d < 3 {
                if TARGET[p][cell][d] != GONE {
                    let n = steps.count as usize;
                    steps.actions[n] = (cell * 3 + d) as Action;
                    steps.to[n] = TARGET[p][cell][d];
                    steps.count += 1;
                }
                d += 1;
            }
            cell += 1;
        }
        p += 1;
    }
    t
};

/// `MOVABLE[alive][die - 1]`: [`movable_stones`] as a table of stone indices (stone n is
/// `n - 1`), lower first, `STONES` where there is no stone.
const MOVABLE: [[[u8; 2]; 6]; 1 << STONES] = {
    let mut t = [[[STONES as u8; 2]; 6]; 1 << STONES];
    let mut alive = 0;
    while alive < 1 << STONES {
        let mut die = 1;
        while die <= 6 {
            let mut n = 0;
            let mut stone = 1;
            while stone <= 6 {
                if movable(alive as u8, die, stone) {
                    t[alive][die as usize - 1][n] = stone - 1;
                    n += 1;
                }
                stone += 1;
            }
            die += 1;
        }
        alive += 1;
    }
    t
};

/// Whether a side with stones `alive` may move stone `stone` after rolling `die`: the stone
/// rolled, or, when it has left the board, the nearest existing lower and higher ones.
const fn movable(alive: u8, die: u8, stone: u8) -> bool {
    if on_board(alive, die) {
        return stone == die;
    }
    if !on_board(alive, stone) {
        return false;
    }
    // No stone on the board strictly between `stone` and `die`.
    let (low, high) = if stone < die {
        (stone, die)
    } else {
        (die, stone)
    };
    let mut n = low + 1;
    while n < high {
        if on_board(alive, n) {
            return false;
        }
        n += 1;
    }
    true
}

const fn on_board(alive: u8, stone: u8) -> bool {
    alive & (1 << (stone - 1)) != 0
}

/// The board and its stones: what EinStein and EinStein a la Card share (the start cells,
/// the steps, captures, the win conditions and the nearest-stone rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Each cell: 0 empty, +n player 0's stone n, −n player 1's stone n.
    pub(super) cells: [i8; CELLS],
    /// `stones[player][n - 1]`: the cell of stone n, or `GONE`.
    pub(super) stones: [[u8; STONES]; 2],
    /// Bit `n - 1` of `alive[player]` is set while stone n is on the board.
    pub(super) alive: [u8; 2],
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
        let (from, to) = step_cells(owner, action);
        self.move_stone(owner, from, to)
    }

    /// Moves the stone of `owner` on `from` to `to`, a step away, removing whatever stood on
    /// `to`. Returns the winner if the step wins: only the stone's owner can win by it.
    #[inline(always)]
    pub(crate) fn move_stone(&mut self, owner: u8, from: u8, to: u8) -> Option<u8> {
        let (p, from, to) = (owner as usize, from as usize, to as usize);
        // The stone on the target cell, if any, leaves the board. Written without a branch on
        // whether there is one: random games capture too irregularly for a branch to guess.
        let captured = self.cells[to];
        let side = (captured < 0) as usize;
        let number = captured.unsigned_abs();
        self.alive[side] &= !((1u8 << number) >> 1);
        let slot = (number as usize).saturating_sub(1);
        let before = self.stones[side][slot];
        self.stones[side][slot] = if number != 0 { GONE } else { before };
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
    pub(crate) fn for_each_step(cell: u8, player: u8, f: impl FnMut(Action)) {
        let steps = &STEPS_FROM[player as usize][cell as usize];
        steps.actions[..steps.count as usize]
            .iter()
            .copied()
            .for_each(f);
    }

    /// Calls `f` with each move of `player` after rolling `die`, in ascending action order.
    pub(crate) fn for_each_move(&self, player: u8, die: u8, mut f: impl FnMut(Action)) {
        let (stones, n) = self.moving_stones(player, die);
        (0..n).for_each(|k| {
            let (steps, k) = Self::nth_step(stones, k);
            f(steps.actions[k])
        });
    }

    /// The steps of the (at most two) stones `player` may move after rolling `die`, the stone
    /// on the lower cell first, and how many moves they make together. Found by table lookups
    /// alone, without a branch on the position: random playouts spend their time here.
    #[inline(always)]
    pub(crate) fn moving_stones(&self, player: u8, die: u8) -> ([&'static Steps; 2], usize) {
        let p = player as usize;
        // The cell of each stone, and `CELLS` for "no stone" (`MOVABLE`'s `STONES`).
        let mut cell_of = [CELLS as u8; STONES + 1];
        cell_of[..STONES].copy_from_slice(&self.stones[p]);
        let [a, b] = MOVABLE[self.alive[p] as usize][die as usize - 1];
        let (a, b) = (cell_of[a as usize], cell_of[b as usize]);
        let lower = &STEPS_FROM[p][a.min(b) as usize];
        let higher = &STEPS_FROM[p][a.max(b) as usize];
        ([lower, higher], (lower.count + higher.count) as usize)
    }

    /// Move `k` (in ascending action order) of the stones of [`Self::moving_stones`]: the
    /// stone's steps and the step's place among them.
    #[inline]
    pub(crate) fn nth_step(
        [lower, higher]: [&'static Steps; 2],
        k: usize,
    ) -> (&'static Steps, usize) {
        let first = lower.count as usize;
        if k < first {
            (lower, k)
        } else {
            (higher, (k - first).min(2))
        }
    }

    /// A uniformly random move of `player` after rolling `die`, as `(from, to)`, drawn from the
    /// tables: the same draw as `random_range(0..n)` over the `n` moves of
    /// [`Self::for_each_move`] (as a u32, which draws as a `usize` does).
    #[inline(always)]
    pub(crate) fn random_move(&self, player: u8, die: u8, rng: &mut Rng) -> (u8, u8) {
        let (stones, n) = self.moving_stones(player, die);
        let (steps, k) = Self::nth_step(stones, rng.random_range(0..n as u32) as usize);
        (steps.from, steps.to[k])
    }

    /// Calls `f` with each step of each of `player`'s stones, in ascending action order.
    pub(crate) fn for_each_any_move(&self, player: u8, mut f: impl FnMut(Action)) {
        for cell in self.occupied(player).cells() {
            Self::for_each_step(cell as u8, player, &mut f);
        }
    }

    /// The cells of `player`'s stones as a set: bit `cell` is set where one stands. Read from
    /// the stones, not the 25 cells.
    #[inline]
    pub(crate) fn occupied(&self, player: u8) -> u64 {
        // A removed stone's `GONE` shifts a 0 (to bit 63, which is no cell).
        self.stones[player as usize]
            .iter()
            .fold(0, |set, &c| set | ((c != GONE) as u64) << (c & 63))
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

/// The cells a step of `owner` (`action` = `from_cell * 3 + direction`) leaves and reaches.
pub(crate) fn step_cells(owner: u8, action: Action) -> (u8, u8) {
    let from = action / 3;
    (
        from as u8,
        TARGET[owner as usize][from as usize][(action % 3) as usize],
    )
}

/// The stones (numbers 1-6) a side with stones `alive` (bit `n - 1` set while stone n is on
/// the board) may move after rolling `die`: stone `die` if it is on the board, otherwise the
/// nearest existing lower and higher stones (lower first).
pub fn movable_stones(alive: u8, die: u8) -> impl Iterator<Item = u8> {
    MOVABLE[alive as usize & ((1 << STONES) - 1)][die as usize - 1]
        .into_iter()
        .filter(|&i| i < STONES as u8)
        .map(|i| i + 1)
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
