//! One thread's search ([`Solver`]): the null-window negamax over captures with spare moves,
//! its table probes and stores, the Zobrist keys and the node count.

use super::fork::{FORK_PLIES, FORK_STONES, Fork};
use super::ordering::{Capture, NO_KILLERS, REPLIES_KNOWN_WON, capture_order, ranked_replies};
use super::regions::{Class, RegionValue};
use super::shared::{Halt, Searched, Shared};
use super::table::Table;
use crate::bits::Bits;
use crate::quantum_leap::board::{MAX_CELLS, OFF};
use crate::quantum_leap::{BLACK, CaptureCounts, QuantumLeap, WHITE, after_capture, on_board};
use crate::search::Meter;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::sync::atomic::Ordering::Relaxed;

/// With this many stones or more, the capture counts of the children follow from the parent's
/// ([`QuantumLeap::captures_after`]); with fewer, a recount is as quick.
const COUNTS_STONES: u32 = 20;

/// Positions at most this many captures from the start are split into regions; deeper ones
/// are searched whole (why: the module doc, "Sums of games").
pub(super) const SPLIT_PLIES: u32 = 1;

/// One thread's search: its own move-ordering history and cache of placed regions, and the
/// forks it works under.
pub(super) struct Solver<'s, 'a, B: Bits> {
    pub(super) shared: &'s Shared<'a, B>,
    pub(super) game: &'a QuantumLeap<B>,
    table: &'s Table<B>,
    /// Slots of the shared table this thread filled since it last added them to its count.
    filled: usize,
    /// This thread's table of distant positions.
    distant: &'s Table<B>,
    /// Region classes by the exact stones, which is cheaper to look up than by shape.
    pub(super) placed: FxHashMap<[B; 2], RegionValue>,
    /// This thread's nodes, added to `shared.nodes` now and then.
    meter: Meter<'s>,
    /// Cut-offs per (from, to) capture, each weighed by its stones ([`refutation_weight`](super::ordering::refutation_weight)),
    /// to break ties in move ordering (history heuristic).
    pub(super) history: Vec<u64>,
    /// Per ply, the last two captures (from, to) that refuted there, the latest first.
    pub(super) killers: Vec<[(usize, usize); 2]>,
    /// Moves from the position the solve started from.
    pub(super) ply: u32,
    /// The capture that won the position last searched (none when the table or the spare
    /// moves decided it, or when it was lost).
    refutation: Option<(usize, usize)>,
    /// The capture counts of the position whose captures are being ordered, written over by
    /// the next: they are done with before any child is searched.
    counts: CaptureCounts<B>,
    /// The forks this thread works under, with the index of its capture in each.
    pub(super) forks: Vec<(&'s Fork, usize)>,
    /// The cell the opponent's last capture landed on (`OFF` at the root and after a spare
    /// move): taking that stone is a recapture ([`RECAPTURE_BONUS`](super::ordering::RECAPTURE_BONUS)).
    pub(super) moved_to: usize,
}

/// The Zobrist key of `stones` (the same for every integer part).
pub(super) fn zobrist_hash<B: Bits>(zobrist: &[[u64; 2]; MAX_CELLS], stones: [B; 2]) -> u64 {
    let mut h = 0;
    for side in 0..2 {
        for c in stones[side].cells() {
            h ^= zobrist[c][side];
        }
    }
    h
}

pub(super) fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<'s, 'a, B: Bits> Solver<'s, 'a, B> {
    pub(super) fn new(shared: &'s Shared<'a, B>) -> Self {
        let cells = shared.game.board.cells;
        Solver {
            shared,
            game: shared.game,
            table: shared.table.latest(),
            filled: 0,
            // A thread outside the pool (with one thread there is none) takes the first.
            distant: &shared.distant
                [rayon::current_thread_index().unwrap_or(0) % shared.distant.len()],
            placed: FxHashMap::default(),
            meter: Meter::new(shared.budget.clone(), Some(&shared.nodes)),
            history: vec![0; cells * cells],
            killers: Vec::new(),
            ply: 0,
            refutation: None,
            counts: CaptureCounts::default(),
            forks: Vec::new(),
            moved_to: OFF as usize,
        }
    }

    pub(super) fn hash(&self, stones: [B; 2]) -> u64 {
        self.shared.hash(stones)
    }

    /// The table for positions of `stones` stones: the thread's own for distant ones.
    fn table_for(&self, stones: u32) -> &'s Table<B> {
        if stones <= self.shared.distant_stones {
            self.distant
        } else {
            self.table
        }
    }

    fn probe(&self, stones: [B; 2], side: u8, hash: u64, tempo: i32) -> Option<bool> {
        self.table_for(on_board(stones))
            .probe(stones, side, hash, tempo)
    }

    /// Stores in the table for `stones`, counting the shared table's slots it fills.
    fn store(&mut self, stones: [B; 2], side: u8, hash: u64, tempo: i32, win: bool) {
        let table = self.table_for(on_board(stones));
        let filled = table.store(stones, side, hash, tempo, win);
        if std::ptr::eq(table, self.table) {
            self.filled += filled as usize;
        }
    }

    /// Counts a node, and now and then checks the limits, the table and the forks above.
    /// With one thread the node limit is exact.
    #[inline]
    pub(super) fn count_node(&mut self) -> Searched<()> {
        if self.meter.tick()? {
            let table = &self.shared.table;
            table
                .used
                .fetch_add(std::mem::take(&mut self.filled), Relaxed);
            if table.wants_to_grow() {
                table.grow(|stones| self.shared.hash(stones));
            }
            self.table = table.latest();
            if self.stopped() {
                return Err(Halt::Stopped);
            }
        }
        Ok(())
    }

    /// Whether a fork above this thread no longer needs its work.
    pub(super) fn stopped(&self) -> bool {
        self.forks.iter().any(|(fork, i)| fork.decided_before(*i))
    }

    /// Whether `side` to move wins the position plus `tempo`: an integer game worth `tempo`
    /// moves for White (negative: for Black), standing for regions in which only one colour
    /// can ever move.
    pub(super) fn wins(
        &mut self,
        stones: [B; 2],
        side: u8,
        hash: u64,
        tempo: i32,
    ) -> Searched<bool> {
        self.count_node()?;
        self.refutation = None;
        if let Some(win) = self.probe(stones, side, hash, tempo) {
            return Ok(win);
        }
        if let Some(win) = Self::spare_moves_decide(stones, side, tempo) {
            self.store(stones, side, hash, tempo, win);
            return Ok(win);
        }
        self.wins_by_regions(stones, side, hash, tempo)
    }

    /// `wins` for a position the table does not know and spare moves do not decide: split
    /// into regions (at most [`SPLIT_PLIES`] captures from the start; deeper, the stones are
    /// taken as one region), and search the sum. What is searched is stored: the stones
    /// themselves when they are one region, else only the sum of the live regions (a later
    /// visit of the stones finds it after the split, and one write to memory is saved per
    /// node).
    fn wins_by_regions(
        &mut self,
        stones: [B; 2],
        side: u8,
        hash: u64,
        tempo: i32,
    ) -> Searched<bool> {
        let regions = if self.ply <= SPLIT_PLIES {
            self.split(stones)
        } else {
            SmallVec::new()
        };
        if regions.len() <= 1 {
            let (win, jump) = self.search(stones, side, hash, tempo)?;
            self.refutation = jump.filter(|_| win);
            self.store(stones, side, hash, tempo, win);
            return Ok(win);
        }
        // One colour alone never captures: such a region is a zero game.
        let mut regions: SmallVec<[B; 8]> = regions
            .into_iter()
            .filter(|r| !(stones[0] & *r).is_empty() && !(stones[1] & *r).is_empty())
            .collect();
        // Every region but the largest is classed (cached by shape): zeros are dropped and
        // integers summed. The largest and the regions left are searched once, for the
        // player to move only.
        let largest = (0..regions.len())
            .max_by_key(|&i| regions[i].count())
            .map(|i| regions.swap_remove(i));
        let mut live = largest.unwrap_or(B::EMPTY);
        let mut total = tempo;
        for region in regions {
            match self.class([stones[0] & region, stones[1] & region])? {
                (_, Some(n)) => total += n,
                (Class::Second, None) => {}
                _ => live |= region,
            }
        }
        let rest = [stones[0] & live, stones[1] & live];
        let h = self.hash(rest);
        let known = Self::spare_moves_decide(rest, side, total)
            .or_else(|| self.probe(rest, side, h, total));
        if let Some(win) = known {
            self.store(stones, side, hash, tempo, win);
            return Ok(win);
        }
        let (win, jump) = self.search(rest, side, h, total)?;
        self.refutation = jump.filter(|_| win);
        self.store(rest, side, h, total, win);
        Ok(win)
    }

    /// Whether the integer part `tempo` decides `stones` plus it for `side` to move, whatever
    /// happens in the stones: each capture takes an enemy stone, so a colour has at most as
    /// many captures left as there are enemy stones, and spare moves that outlast all of the
    /// opponent's win. With no stones, zero spare moves lose for the player to move.
    fn spare_moves_decide(stones: [B; 2], side: u8, tempo: i32) -> Option<bool> {
        let captures_left = |c: u8| stones[1 - c as usize].count() as i32;
        let to_move = |c: u8| (side == c) as i32;
        if tempo > 0 && tempo - to_move(WHITE) >= captures_left(BLACK) {
            Some(side == WHITE)
        } else if tempo < 0 && -tempo - to_move(BLACK) >= captures_left(WHITE) {
            Some(side == BLACK)
        } else if stones[0].is_empty() && stones[1].is_empty() {
            Some(false)
        } else {
            None
        }
    }

    /// Whether `side` may spend a move of the integer part.
    fn has_tempo(side: u8, tempo: i32) -> bool {
        if side == WHITE { tempo > 0 } else { tempo < 0 }
    }

    /// Negamax over the captures of `side` (and a move of the integer part, if it has one):
    /// (win, the winning capture or else the last tried, as its cells from and to; none when
    /// a spare move wins). Captures are tried in a fixed order and the first that wins is the
    /// one returned, whether or not the search forks; at the root the order depends on the
    /// position alone, so the answer does not depend on the threads.
    pub(super) fn search(
        &mut self,
        stones: [B; 2],
        side: u8,
        hash: u64,
        tempo: i32,
    ) -> Searched<(bool, Option<(usize, usize)>)> {
        let s = side as usize;
        let mut moves: SmallVec<[Capture; 24]> = SmallVec::new();
        let zobrist = &self.shared.zobrist;
        // Each capture with the Zobrist key of its child.
        let push = |from: usize, to: usize| {
            moves.push(Capture {
                order: 0,
                hash: hash ^ zobrist[from][s] ^ zobrist[to][s] ^ zobrist[to][1 - s],
                from,
                to,
            })
        };
        let at_root = self.ply == 0;
        let stones_on_board = on_board(stones);
        // With many stones, the captures are counted as they are listed: the ordering below
        // needs the counts of both colours.
        let counting = stones_on_board >= COUNTS_STONES;
        if counting {
            self.game
                .for_each_capture_counted(stones, side, &mut self.counts, push);
        } else {
            self.game.for_each_capture_target(stones, side, push);
        }
        // The opponent with a move of the integer part left is never out of moves.
        let opponent_can_pass = Self::has_tempo(1 - side, tempo);
        if moves.len() > 1 {
            // The children's table slots are fetched from memory all at once, before the
            // first is needed.
            let children_table = self.table_for(stones_on_board - 1);
            for m in &moves {
                children_table.prefetch(m.hash);
            }
            let counts = if counting {
                self.game.count_captures_of(1 - side, &mut self.counts);
                Some(&self.counts)
            } else {
                None
            };
            // Below the root, ties in the reply count go to the last two captures that refuted
            // at this distance from the root (killer moves), then to those that keep us the
            // most captures, then to the captures that refuted most often before (history).
            let cells = self.game.board.cells;
            let killers = self
                .killers
                .get(self.ply as usize)
                .copied()
                .unwrap_or(NO_KILLERS);
            for m in moves.iter_mut() {
                let child = after_capture(stones, side, m.from, m.to);
                let action = m.jump();
                let (killer, refuted) = if at_root {
                    (2, 0)
                } else {
                    let k = killers.iter().position(|&k| k == (m.from, m.to));
                    (k.unwrap_or(2) as u64, self.history[m.from * cells + m.to])
                };
                // A child the table already knows lost for the opponent wins at once, and so
                // does a capture that leaves the opponent without a reply.
                // (Not at the root, where what the table holds depends on the threads.)
                match children_table.probe(child, 1 - side, m.hash, tempo) {
                    Some(false) if !at_root => return Ok((true, action)),
                    // A child known won for the opponent goes last, uncounted.
                    Some(true) if !at_root => {
                        m.order = capture_order(REPLIES_KNOWN_WON, killer, u32::MAX, refuted);
                        continue;
                    }
                    _ => {}
                }
                let (replies, ours) = match counts {
                    Some(counts) => self.game.captures_after(counts, side, m.from, m.to),
                    None => (
                        self.game.count_captures(child, 1 - side),
                        self.game.count_captures(child, side),
                    ),
                };
                let replies = opponent_can_pass as u32 + replies;
                if replies == 0 {
                    return Ok((true, action));
                }
                let replies = ranked_replies(replies, m.to == self.moved_to, self.ply);
                m.order = capture_order(replies.into(), killer, ours, refuted);
            }
            // Fewest replies first (ties as above).
            moves.sort_by_key(|m| m.order);
        }
        // The first capture is searched alone; if it fails, the node is likely lost and the
        // rest must all be searched: near the root, they are shared out among the threads.
        let alone = if self.shared.threads > 1
            && self.ply < FORK_PLIES
            && moves.len() > 2
            && stones_on_board >= FORK_STONES
        {
            1
        } else {
            moves.len()
        };
        for i in 0..alone {
            let m = &moves[i];
            // The table already told that this capture fails (its child is won for the
            // opponent): it is not searched again.
            if m.order >> 48 == REPLIES_KNOWN_WON {
                continue;
            }
            let child = after_capture(stones, side, m.from, m.to);
            if !self.wins_child(child, 1 - side, m.hash, tempo, m.to)? {
                self.refuted(m, stones_on_board);
                return Ok((true, m.jump()));
            }
            // The opponent's winning reply will likely answer the next capture too, unless
            // that capture takes it away: those captures go first (not at the root, whose
            // order must not depend on what the threads found).
            if let (Some(reply), false) = (self.refutation, at_root) {
                moves[i + 1..].sort_by_key(|c| !self.game.prevents((c.from, c.to), reply));
            }
        }
        if alone < moves.len() {
            if let Some(i) = self.fork(stones, side, tempo, &moves[alone..])? {
                self.refuted(&moves[alone + i], stones_on_board);
                return Ok((true, moves[alone + i].jump()));
            }
        }
        let last = moves.last().and_then(Capture::jump);
        if Self::has_tempo(side, tempo) {
            let spent = if side == WHITE { tempo - 1 } else { tempo + 1 };
            if !self.wins_child(stones, 1 - side, hash, spent, OFF as usize)? {
                // A spare move wins: no capture does.
                return Ok((true, None));
            }
        }
        Ok((false, last))
    }

    /// `wins` for a child, one ply further from the root, whose last capture landed on
    /// `moved_to` (`OFF` for a spare move).
    pub(super) fn wins_child(
        &mut self,
        stones: [B; 2],
        side: u8,
        hash: u64,
        tempo: i32,
        moved_to: usize,
    ) -> Searched<bool> {
        self.ply += 1;
        let before = std::mem::replace(&mut self.moved_to, moved_to);
        let win = self.wins(stones, side, hash, tempo);
        self.moved_to = before;
        self.ply -= 1;
        win
    }
}
