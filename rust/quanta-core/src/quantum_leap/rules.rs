//! Quantum Leap's captures and deal: which stones may jump where, the capture counts the
//! solver reads, the end of the game when the side to move cannot capture, and the deal of the
//! colours (docs/rules/quantum_leap.md, *Rules*).

use super::board::{MAX_CELLS, OFF};
use super::{BLACK, Phase, QuantumLeap, QuantumLeapState, Setup, WHITE};
use crate::bits::Bits;

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

    /// Capture `n` (from 0) of `side` in action order, as `(from, direction, to)`: the stone
    /// is found by counting each one's targets (as [`Self::count_captures`] does), and only
    /// its directions are looked up.
    #[inline]
    pub fn nth_capture(&self, stones: [B; 2], side: u8, mut n: u32) -> (usize, usize, usize) {
        let (own, enemy) = (stones[side as usize], stones[1 - side as usize]);
        let b = &*self.board;
        for c in own.cells() {
            let k = b.friends(c, own);
            let mut targets = b.landing[c][k] & enemy;
            if n >= targets.count() {
                n -= targets.count();
                continue;
            }
            for d in 0.. {
                let t = b.jump[c][d][k - 1];
                if t != OFF && targets.has(t as usize) {
                    if n == 0 {
                        return (c, d, t as usize);
                    }
                    n -= 1;
                    targets ^= B::cell(t as usize);
                }
            }
        }
        panic!("nth_capture: {n} is past the captures of side {side}")
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

    pub(super) fn to_play(&self, stones: [B; 2], side: u8) -> Phase {
        Phase::Move {
            side,
            over: !self.can_capture(stones, side),
        }
    }

    pub(super) fn deal_colour(&self, s: &mut QuantumLeapState<B>, colour: usize) {
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
}
