//! Move ordering: the order of the captures, the killer moves and the history heuristic.
//!
//! **Move ordering**: captures that leave the opponent the fewest replies first; ties go to
//! the last two captures that refuted at the same distance from the root (killer moves),
//! then to those that keep us the most captures, then to the history of earlier
//! refutations, each weighed by the stones then on the board (2^(stones/3): a refutation
//! nearer the root cut off a larger tree). When a capture fails, the opponent's reply that
//! beat it will likely beat the next one too, so the captures that prevent that reply
//! (taking the replying stone or one of its friends, or moving away its target) are tried
//! next, each group in the order above. In the replies to the root's captures, a capture
//! that takes the stone just moved (a recapture) is ranked as if it left
//! [`RECAPTURE_BONUS`] replies fewer. At the swap decision, swaps that leave White the
//! fewest captures first.

use super::search::Solver;
use crate::bits::Bits;

/// In the first [`RECAPTURE_PLIES`] plies (the root has no move before it, so this is the
/// replies to the root's captures), a capture that takes the stone the opponent has just moved
/// is ranked as if it left this many replies fewer (at least one). Each root capture that
/// fails must be refuted there, and taking back the stone that moved is often the cheapest
/// refutation: on the bench's 42-stone positions (two threads) the median went from 12.1 s
/// to 8.8 s, and on six other sets of 38 to 42 stones the nodes changed by -13% to +5%
/// (docs/perf/quantum_leap.md). At every ply it measured worse, with 1, 2 or 3 replies.
pub(super) const RECAPTURE_BONUS: u32 = 2;
pub(super) const RECAPTURE_PLIES: u32 = 2;

/// The reply count by which a capture is ordered: `replies` (at least one), fewer for a
/// recapture near the root ([`RECAPTURE_BONUS`]).
pub(super) fn ranked_replies(replies: u32, recapture: bool, ply: u32) -> u32 {
    if recapture && ply < RECAPTURE_PLIES {
        replies.saturating_sub(RECAPTURE_BONUS).max(1)
    } else {
        replies
    }
}

/// No killer moves yet.
pub(super) const NO_KILLERS: [(usize, usize); 2] = [(usize::MAX, usize::MAX); 2];

/// A capture in move ordering.
#[derive(Clone, Copy)]
pub(super) struct Capture {
    /// The place in move ordering, lowest first: from the high bits, the opponent's replies
    /// after it ([`REPLIES_KNOWN_WON`] when the table knows the child won for the opponent),
    /// its killer rank (0, 1, or 2 for none), our captures after it counted down, and its
    /// history counted down.
    pub(super) order: u64,
    /// The Zobrist key of the position after it.
    pub(super) hash: u64,
    pub(super) from: usize,
    pub(super) to: usize,
}

impl Capture {
    /// The capture as the cells it jumps from and lands on (its direction is found only for
    /// the answer at the root).
    pub(super) fn jump(&self) -> Option<(usize, usize)> {
        Some((self.from, self.to))
    }
}

/// The reply count that sends a capture last: the table knows it loses.
pub(super) const REPLIES_KNOWN_WON: u64 = 0xFFFF;

/// The most a history entry holds (36 bits of [`Capture::order`]); past it, every entry is
/// halved.
pub(super) const HISTORY_MAX: u64 = (1 << 36) - 1;

/// [`Capture::order`] from its parts (our captures in 10 bits, saturating at 1023: at most
/// six per stone).
pub(super) fn capture_order(replies: u64, killer: u64, ours: u32, history: u64) -> u64 {
    const OURS_MAX: u32 = (1 << 10) - 1;
    replies << 48
        | killer << 46
        | u64::from(OURS_MAX - ours.min(OURS_MAX)) << 36
        | (HISTORY_MAX - history.min(HISTORY_MAX))
}

/// What a refutation adds to the history: 2^(stones / 3), up to 2^20. A refutation with
/// more stones on the board cut off a larger tree, roughly twice as large for every one or
/// two stones more (docs/perf/quantum_leap.md), and says more about the moves that follow.
pub(super) fn refutation_weight(stones: u32) -> u64 {
    1 << (stones / 3).min(20)
}

impl<'s, 'a, B: Bits> Solver<'s, 'a, B> {
    /// Counts a cut-off by `capture` with `stones` on the board in the history, and makes it
    /// the first killer of its ply.
    pub(super) fn refuted(&mut self, capture: &Capture, stones: u32) {
        let (from, to) = (capture.from, capture.to);
        let entry = &mut self.history[from * self.game.board.cells + to];
        *entry += refutation_weight(stones);
        if *entry > HISTORY_MAX {
            for h in &mut self.history {
                *h /= 2;
            }
        }
        let ply = self.ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, NO_KILLERS);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != (from, to) {
            killers[1] = killers[0];
            killers[0] = (from, to);
        }
    }
}
