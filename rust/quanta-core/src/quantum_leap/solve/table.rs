//! What the transposition tables of a solve know of a position ([`Known`]); the tables
//! themselves (slots, lines, the shared table that grows) are the game-independent
//! [`crate::search::table`].
//!
//! **A transposition table** with Zobrist keys that starts small and grows within the memory
//! cap, and enhanced transposition cut-offs (a child already known lost for the opponent is
//! taken at once; one known won for the opponent goes last, its replies not counted; every
//! child's slot is fetched ahead, so that their cache misses overlap). An entry holds one set
//! of stones for every number of spare moves: more spare moves are never worse for their owner,
//! so it keeps, per player to move, the fewest with which White is known to win and the most
//! with which Black is. Positions ten captures or more from the root, of 29 stones or fewer, go
//! instead to a small table of the thread's own (1 MB): they are most of the nodes and quick to
//! search again, and kept there they stay in the thread's cache and leave the shared table to
//! the positions that are costly to search. Each slot is its own sequence lock, so no thread
//! ever waits for another or reads half of another's write. The shared table grows while the
//! threads search on: the thread that finds it three quarters full builds one four times larger
//! with every entry, and the others move to it at their next check; no search starts again. The
//! smaller tables are kept until the solve ends (a third of the largest one's memory), all
//! within `memory_mb`. On boards of up to 64 cells a cache line holds two slots, and a position
//! may sit in either slot of the line its hash picks: the first keeps the larger of the
//! positions met there (the costlier to search again), the second takes the rest.

use crate::bits::Bits;
use crate::quantum_leap::{BLACK, WHITE};
use crate::search::table::{self, Entry};

/// What the table knows of one set of stones plus an integer part `t` (see `Solver::wins`),
/// per player to move: White wins for every `t >= white_wins_from`, Black for every
/// `t <= black_wins_to`. (A larger integer part is never worse for White, so one number per
/// colour says it all.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Known {
    pub(super) white_wins_from: [i16; 2],
    pub(super) black_wins_to: [i16; 2],
}

impl Known {
    /// What `known` says for `side` to move with integer part `tempo`.
    pub(super) fn says(&self, side: u8, tempo: i32) -> Option<bool> {
        let s = side as usize;
        if tempo >= i32::from(self.white_wins_from[s]) {
            Some(side == WHITE)
        } else if tempo <= i32::from(self.black_wins_to[s]) {
            Some(side == BLACK)
        } else {
            None
        }
    }

    /// This, and that `side` to move with `tempo` wins (`win`) or loses.
    pub(super) fn with(mut self, side: u8, tempo: i32, win: bool) -> Known {
        let (s, tempo) = (side as usize, tempo as i16);
        if win == (side == WHITE) {
            self.white_wins_from[s] = self.white_wins_from[s].min(tempo);
        } else {
            self.black_wins_to[s] = self.black_wins_to[s].max(tempo);
        }
        self
    }

    fn halves(self) -> [i16; 4] {
        let (w, b) = (self.white_wins_from, self.black_wins_to);
        [w[0], w[1], b[0], b[1]]
    }
}

impl Entry for Known {
    const NOTHING: Known = Known {
        white_wins_from: [i16::MAX; 2],
        black_wins_to: [i16::MIN; 2],
    };

    /// One word, 0 for `NOTHING` (an empty slot is all zeros): each number xor its value in
    /// `NOTHING`, 16 bits each.
    fn word(self) -> u64 {
        let [a, b, c, d] = self.halves();
        let [na, nb, nc, nd] = Self::NOTHING.halves();
        let half = |h: i16, n: i16| u64::from((h ^ n) as u16);
        half(a, na) | half(b, nb) << 16 | half(c, nc) << 32 | half(d, nd) << 48
    }

    fn from_word(word: u64) -> Known {
        let [na, nb, nc, nd] = Self::NOTHING.halves();
        let half = |i: u32, n: i16| (word >> (16 * i)) as u16 as i16 ^ n;
        Known {
            white_wins_from: [half(0, na), half(1, nb)],
            black_wins_to: [half(2, nc), half(3, nd)],
        }
    }
}

/// The tables of a solve, holding what is [`Known`] of each set of stones.
pub(super) type Table<B> = table::Table<B, Known>;
pub(super) type SharedTable<B> = table::SharedTable<B, Known>;

impl<B: Bits> Table<B> {
    #[inline]
    pub(super) fn probe(&self, stones: [B; 2], side: u8, hash: u64, tempo: i32) -> Option<bool> {
        self.read(stones, hash)?.says(side, tempo)
    }

    /// Records that `side` to move with `tempo` on `stones` wins (`win`) or loses. Says
    /// whether an empty slot was taken.
    pub(super) fn store(&self, stones: [B; 2], side: u8, hash: u64, tempo: i32, win: bool) -> bool {
        self.update(stones, hash, |known| known.with(side, tempo, win))
    }
}
