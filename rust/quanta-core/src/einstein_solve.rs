//! The exact solver of EinStein würfelt nicht (any position after the setup; fast in endgames),
//! and a bot that uses it.
//!
//! **Value.** [`solve`] gives the probability that the player to move (or about to roll) wins
//! under optimal play by both sides: an expectiminimax over the die, each of the six rolls with
//! probability 1/6, and after a roll the best of that roll's moves. EinStein has no draws, so
//! the value of a move is 1 minus the opponent's value after it.
//!
//! **Search.** A depth-first recursion over the positions in which a side is about to roll,
//! memoised in a transposition table (at most [`Memo::capacity`] slots within
//! `memory_mb`; once full it stops storing and the search goes on, still exact, only slower).
//! Every move takes a stone one step nearer its corner, so the sum of the stones' distances to
//! their corners strictly decreases and the recursion ends (at most 70 plies deep). A position
//! is stored as seen by the side to roll, turned half a turn when that is player 1 so that it
//! always moves towards e5 (one entry serves both sides), and as the smallest of the keys of
//! the positions that are the same game: its mirror image across the a1-e5 diagonal (which
//! swaps "right" and "down" and keeps the diagonal), and each side's stones renumbered
//! `n -> 7 - n` (die `d` then moves what die `7 - d` moved), a lone stone under any number
//! (see `Numbered`); a position's value is the mean of its six rolls' values added in pairs
//! `d`, `7 - d`, so that the equivalent positions' values agree bit for bit. A roll selects one
//! stone or two; each stone's best move is searched once per position and shared by the rolls
//! that select it, and a step that wins at once (onto the corner, or onto the opponent's last
//! stone) ends that stone's search.
//!
//! The table is one array that all threads share without locks (see [`Memo`]). An expansion
//! first asks the processor for the slots of all its children at once, so that their cache
//! misses overlap, and Linux is asked to back the table with huge pages: the probes land all
//! over it, and finding their pages' addresses costs as much as the probes. The threads
//! (`threads`, default one per core) each search the whole tree from the root, in different
//! orders (the root's moves started at different places, a position's stones taken in
//! opposite orders), and share what they find through the table; the first to finish gives
//! the answer, which is the same whichever thread gives it, since a position's value does not
//! depend on the order it was found in. The table grows between rounds: when it is three
//! quarters full the round ends, the table doubles (in place once large: the largest table's
//! memory is reserved once, only what the table uses is ever touched, and the threads touch
//! the new part together), and a new round starts from the root, finding in the table what the
//! last one stored.
//!
//! Moves are the engine's: [`TARGET`] for the steps and [`movable_stones`] for which stones a
//! roll lets move; the root's moves come from [`Game::legal_actions`] in ascending order, and
//! ties between equally good moves go to the first.
//!
//! Limits (time, nodes) and the cancel flag stop the search with `SearchLimit` /
//! `Interrupted` (a node is a position expanded, not one found in the table); an answer
//! returned is exact. The node count is the total of the threads (with several threads it
//! varies a little from run to run: the value and the moves do not).
//!
//! **Bot.** [`bot_move`]: the solver's move once each side has at most `solver_stones` stones
//! (and the solve ends within its limits), before that a heuristic (see [`heuristic_move`]).
//! [`play_against_random`] plays it against uniform random play, game by game through
//! [`map_rows`], one table per game kept from move to move.

use crate::batch::{Split, map_rows};
use crate::einstein::{
    Einstein, EinsteinState, FIRST_ROLL, GOAL, GONE, Phase, STONES, Setup, TARGET, movable_stones,
};
use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng, ToMove};
use crate::search::table::prefetch;
use crate::search::{Context, Limits, Meter, pool_threads};
use rand::Rng as _;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};

/// The answer for a position after the setup.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The probability that the player to move (or about to roll) wins with optimal play. In a
    /// finished game, 1 or 0 for the player the notation names (the loser: 0).
    pub value: f64,
    /// For each roll still to come (all six before the roll, the one rolled after it), a best
    /// move: the first in ascending action order of those of the highest value. Empty in a
    /// finished game.
    pub best_moves: Vec<(u8, Action)>,
    /// Positions expanded (not found in the table).
    pub nodes: u64,
    pub seconds: f64,
}

fn setup_error() -> Error {
    Error::NotApplicable(
        "einstein: the solver needs a position after the setup (a side to roll or to move), \
         not an arrangement of the stones"
            .into(),
    )
}

/// The corner the side to roll heads for in a [`Frame`].
const HOME: u8 = GOAL[0];
/// Directions of the side to roll in a [`Frame`] (index into [`TARGET`]): player 0's.
const FORWARD: usize = 0;

/// `stones` turned half a turn (a1 <-> e5), removed stones left removed.
fn turned(stones: [u8; STONES]) -> [u8; STONES] {
    stones.map(|c| if c == GONE { GONE } else { HOME - c })
}

/// Bit `n - 1` set while stone n is on the board.
fn alive(stones: &[u8; STONES]) -> u8 {
    stones
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &c)| bits | (((c != GONE) as u8) << i))
}

/// Key code of a cell: the cell, 31 for a removed stone.
fn code(cell: u8) -> u64 {
    cell.min(31) as u64
}

/// Key code of a cell's mirror image across the a1-e5 diagonal ((row, col) -> (col, row)).
fn mirror_code(cell: u8) -> u64 {
    /// The codes of cells 0-24, then 31 for every other value (a removed stone).
    const MIRROR: [u8; 256] = {
        let mut codes = [31; 256];
        let mut cell = 0;
        while cell < 25 {
            codes[cell] = ((cell % 5) * 5 + cell / 5) as u8;
            cell += 1;
        }
        codes
    };
    MIRROR[cell as usize] as u64
}

/// One side's stones in a key, five bits a stone (a cell, or 31 for a removed stone): as
/// numbered and renumbered `n -> 7 - n`, on the board and in its mirror image. The numbers
/// matter only through which stones a roll lets move, and [`movable_stones`] treats die `d`
/// and stone `n` as die `7 - d` treats stone `7 - n`: the stones renumbered give the same game
/// (the die is uniform); and a lone stone moves at every roll, whatever its number. So a side
/// is keyed by the smaller of its two numberings, a lone stone as stone 1.
#[derive(Clone)]
struct Numbered {
    /// Stone 1 lowest, then stone 6 lowest; the same in the mirror image.
    board: [u64; 2],
    mirror: [u64; 2],
    stones: u32,
}

/// The keys of a position's children, each from its parent's with a stone or two changed
/// (what [`Frame::key`] gives, found faster).
struct ChildKeys {
    /// The stones of the side to roll next, then of the side that steps, both turned.
    sides: [Numbered; 2],
}

impl ChildKeys {
    fn of(f: &Frame) -> ChildKeys {
        ChildKeys {
            sides: [Numbered::of(&turned(f.opp)), Numbered::of(&turned(f.me))],
        }
    }

    /// The key after stone `i` of the side to roll in `f` steps to `to` (a step that does not
    /// win at once).
    #[inline]
    fn after(&self, f: &Frame, i: usize, to: u8) -> u64 {
        let [mut next, mut stepped] = [self.sides[0].clone(), self.sides[1].clone()];
        stepped.set(i, HOME - to);
        if let Some(j) = f.opp.iter().position(|&c| c == to) {
            next.remove(j);
        } else if let Some(j) = (0..STONES).find(|&j| j != i && f.me[j] == to) {
            stepped.remove(j);
        }
        let plain = next.plain() | (stepped.plain() << 30);
        let mirrored = next.mirrored() | (stepped.mirrored() << 30);
        plain.min(mirrored)
    }
}

impl Numbered {
    /// Stone `i + 1` onto `cell` (on the board).
    #[inline]
    fn set(&mut self, i: usize, cell: u8) {
        let (c, m) = (code(cell), mirror_code(cell));
        let (low, high) = (5 * i, 5 * (STONES - 1 - i));
        self.board[0] = (self.board[0] & !(31 << low)) | (c << low);
        self.board[1] = (self.board[1] & !(31 << high)) | (c << high);
        self.mirror[0] = (self.mirror[0] & !(31 << low)) | (m << low);
        self.mirror[1] = (self.mirror[1] & !(31 << high)) | (m << high);
    }

    /// Stone `j + 1` removed.
    #[inline]
    fn remove(&mut self, j: usize) {
        let gone = (31 << (5 * j), 31 << (5 * (STONES - 1 - j)));
        self.board[0] |= gone.0;
        self.board[1] |= gone.1;
        self.mirror[0] |= gone.0;
        self.mirror[1] |= gone.1;
        self.stones -= 1;
    }

    #[inline]
    fn of(cells: &[u8; STONES]) -> Numbered {
        let (mut board, mut mirror, mut stones) = ([0, 0], [0, 0], 0);
        for (i, &cell) in cells.iter().enumerate() {
            let (c, m) = (code(cell), mirror_code(cell));
            board[0] |= c << (5 * i);
            board[1] |= c << (5 * (STONES - 1 - i));
            mirror[0] |= m << (5 * i);
            mirror[1] |= m << (5 * (STONES - 1 - i));
            stones += (cell != GONE) as u32;
        }
        Numbered {
            board,
            mirror,
            stones,
        }
    }

    /// The key of `fields` (either numbering): the smaller, or a lone stone as stone 1.
    #[inline]
    fn least(&self, [numbered, renumbered]: [u64; 2]) -> u64 {
        const OTHERS: u64 = (1 << 30) - 32;
        if self.stones == 1 {
            // The lone stone's field is the only one under 31: and-ing the fields gives it.
            let x = numbered;
            OTHERS | (x & (x >> 5) & (x >> 10) & (x >> 15) & (x >> 20) & (x >> 25) & 31)
        } else {
            numbered.min(renumbered)
        }
    }

    #[inline]
    fn plain(&self) -> u64 {
        self.least(self.board)
    }

    #[inline]
    fn mirrored(&self) -> u64 {
        self.least(self.mirror)
    }
}

/// A position as the side about to roll sees it, turned so that it heads for e5 like player
/// 0: `me[n - 1]` and `opp[n - 1]` are the cells of stone n of each side, or `GONE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Frame {
    me: [u8; STONES],
    opp: [u8; STONES],
}

/// What a step leads to.
enum Step {
    /// The mover has won: onto its corner or onto the opponent's last stone.
    Won,
    /// The opponent is about to roll in this position.
    Next(Frame),
}

impl Frame {
    /// The frame of the side to roll or to move in `state`.
    fn of(state: &EinsteinState) -> Frame {
        let [zero, one] = state.stones();
        if state.player() == 0 {
            Frame { me: zero, opp: one }
        } else {
            Frame {
                me: turned(one),
                opp: turned(zero),
            }
        }
    }

    /// The table key: 5 bits per stone (`me` in bits 0-29, `opp` in 30-59), the smallest of
    /// the keys of the equivalent positions (see [`Numbered`]): the position and its mirror
    /// image, each side's stones numbered either way.
    #[inline]
    fn key(&self) -> u64 {
        let (me, opp) = (Numbered::of(&self.me), Numbered::of(&self.opp));
        let plain = me.plain() | (opp.plain() << 30);
        let mirrored = me.mirrored() | (opp.mirrored() << 30);
        plain.min(mirrored)
    }

    /// Stone `i` (of the side to roll) steps in direction `dir`; `None` off the board.
    fn step(&self, i: usize, dir: usize) -> Option<Step> {
        let to = TARGET[FORWARD][self.me[i] as usize][dir];
        if to == GONE {
            return None;
        }
        if to == HOME {
            return Some(Step::Won);
        }
        let (mut me, mut opp) = (self.me, self.opp);
        me[i] = to;
        if let Some(c) = opp.iter_mut().find(|c| **c == to) {
            *c = GONE;
            if opp.iter().all(|&c| c == GONE) {
                return Some(Step::Won);
            }
        } else if let Some(j) = (0..STONES).find(|&j| j != i && me[j] == to) {
            me[j] = GONE;
        }
        Some(Step::Next(Frame {
            me: turned(opp),
            opp: turned(me),
        }))
    }
}

/// The values of the positions expanded so far, which every thread of a solve reads and
/// writes: open addressing over a power-of-two table of slots, probed linearly. A slot is two
/// words: the key (0 for an empty slot: no position has key 0, it would put every stone on
/// a1) and the value's bits inverted (0 while the value is being written, which reads as a
/// miss). The table doubles between the rounds of a solve (see [`Solver::solve`]) when three
/// quarters full, up to [`Memo::capacity`] slots; that last table is filled to 7/8 (with
/// several threads, a little more: see [`Memo::count`]), and past that nothing more is stored
/// and the search goes on, still exact, only slower.
///
/// Once the table reaches [`Memo::REGION_FROM`] slots, the largest table's memory is reserved
/// at once (the system gives each page at its first touch) and the table grows within it, so
/// that a solve touches little more memory than its last table (the pages a process touches
/// for the first time are what costs most on a virtual machine: see docs/perf/einstein.md);
/// where the reservation fails, each table is an array of its own.
struct Memo {
    /// The table: its first `size` slots; past them, slots not used yet (all zeros).
    slots: Vec<[AtomicU64; 2]>,
    size: usize,
    used: AtomicUsize,
    largest: usize,
    /// [`Memo::REGION_FROM`] (smaller in tests).
    region_from: usize,
}

/// What [`Memo::insert`] did.
enum Stored {
    /// The value is in the table, in a slot it took: the caller counts it (see [`Memo::count`]).
    New,
    /// The value was in the table already.
    Yes,
    /// The table is three quarters full and may grow: the value was not stored.
    Grow,
    /// The table is as large and as full as the memory limit allows: the value was not stored.
    Full,
}

impl Memo {
    const FIRST_SLOTS: usize = 1 << 16;
    /// The size from which the table grows within the reserved memory: a smaller one is an
    /// array of its own (which the allocator may give again to the next solve, touched
    /// already, while each reservation is fresh memory).
    const REGION_FROM: usize = 1 << 18;

    /// The slots of the largest table within `memory_mb`, with the half-size array it grew
    /// from (if the table below [`Memo::REGION_FROM`] was an array of its own, or the
    /// reservation failed).
    fn capacity(memory_mb: usize) -> usize {
        let bytes = memory_mb.max(1) << 20;
        let most = bytes * 2 / 3 / std::mem::size_of::<[AtomicU64; 2]>();
        if most.is_power_of_two() {
            most
        } else {
            most.next_power_of_two() / 2
        }
    }

    fn new(memory_mb: usize) -> Self {
        Self::sized(
            Self::capacity(memory_mb),
            Self::FIRST_SLOTS,
            Self::REGION_FROM,
        )
    }

    /// A table of `first` slots that grows to at most `largest` (powers of two).
    fn sized(largest: usize, first: usize, region_from: usize) -> Self {
        debug_assert!(largest.is_power_of_two() && first.is_power_of_two() && first >= 8);
        let size = largest.min(first);
        Memo {
            slots: zeroed_slots(size),
            size,
            used: AtomicUsize::new(0),
            largest,
            region_from,
        }
    }

    /// Positions stored, as last counted (each thread adds its count now and then: see
    /// [`Memo::count`]).
    fn len(&self) -> usize {
        self.used.load(Relaxed)
    }

    /// Adds `n` slots taken to the count. A thread counts its own and adds them a batch at a
    /// time (every insert adding to one shared counter would make the threads contend for its
    /// cache line); the batch is small enough that the count lags by a small part of the
    /// table, which the limits on filling leave room for.
    fn count(&self, n: usize) {
        self.used.fetch_add(n, Relaxed);
    }

    /// The slots a thread takes before adding them to the count, with `threads` threads (one
    /// at a time for a thread alone: it contends with no one).
    fn batch(&self, threads: usize) -> usize {
        if threads <= 1 {
            1
        } else {
            (self.size / 128 / threads).clamp(1, 256)
        }
    }

    /// Stores `key` between rounds (one thread), counting it.
    fn put(&self, key: u64, value: f64) {
        if let Stored::New = self.insert(key, value) {
            self.count(1);
        }
    }

    /// The first slot to probe for `key` (Fibonacci hashing: the top bits of the product, so
    /// that a key's slot in the table twice as large is twice its slot here, or one more).
    #[inline]
    fn home(&self, key: u64) -> usize {
        let bits = self.size.trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.home(key)]);
    }

    #[inline]
    fn get(&self, key: u64) -> Option<f64> {
        let mut i = self.home(key);
        loop {
            let k = self.slots[i][0].load(Acquire);
            if k == key {
                let bits = self.slots[i][1].load(Acquire);
                return (bits != 0).then(|| f64::from_bits(!bits));
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & (self.size - 1);
        }
    }

    fn insert(&self, key: u64, value: f64) -> Stored {
        let (used, slots) = (self.len(), self.size);
        if slots < self.largest && 4 * used >= 3 * slots {
            return Stored::Grow;
        }
        if 8 * used >= 7 * slots {
            return Stored::Full;
        }
        let mut i = self.home(key);
        loop {
            match self.slots[i][0].compare_exchange(0, key, AcqRel, Acquire) {
                Ok(_) => {
                    self.slots[i][1].store(!value.to_bits(), Release);
                    return Stored::New;
                }
                Err(k) if k == key => return Stored::Yes,
                Err(_) => i = (i + 1) & (slots - 1),
            }
        }
    }

    /// The table twice as large, between rounds, its new memory first touched by `threads`
    /// threads (see [`touch`]). Within the reservation: the entries parked at the top of the
    /// new table, the old one emptied, and each entry put back in order (one whose probe would
    /// reach the entries still parked waits in a vector until the end). Without it, a new
    /// array.
    fn grow(&mut self, threads: usize) {
        let old = self.size;
        let size = (2 * old).min(self.largest);
        // The entries, counted (the threads' counts may lag).
        let used = self.slots[..old]
            .iter()
            .filter(|[key, bits]| key.load(Relaxed) != 0 && bits.load(Relaxed) != 0)
            .count();
        self.used = AtomicUsize::new(0);
        if self.slots.len() < size {
            let region = (size >= self.region_from)
                .then(|| try_zeroed_slots(self.largest))
                .flatten();
            let old = std::mem::replace(
                &mut self.slots,
                region.unwrap_or_else(|| zeroed_slots(size)),
            );
            touch(&self.slots[..size], threads);
            self.size = size;
            for [key, bits] in &old {
                let (key, bits) = (key.load(Relaxed), bits.load(Relaxed));
                if key != 0 && bits != 0 {
                    self.put(key, f64::from_bits(!bits));
                }
            }
            return;
        }
        // In place: the entries go to the top of the new table (past the old one), then
        // each goes back to its slot in order; one whose probe would reach the entries still
        // waiting at the top waits in a vector until the end.
        let zone = size - used;
        if zone < old {
            let mut entries = Vec::with_capacity(used);
            for [key, bits] in &mut self.slots[..old] {
                let (key, bits) = (
                    std::mem::take(key.get_mut()),
                    std::mem::take(bits.get_mut()),
                );
                if key != 0 && bits != 0 {
                    entries.push((key, bits));
                }
            }
            self.size = size;
            for (key, bits) in entries {
                self.put(key, f64::from_bits(!bits));
            }
            return;
        }
        touch(&self.slots[old..size], threads);
        let (table, top) = self.slots[..size].split_at_mut(zone);
        let mut waiting = top.iter_mut();
        let mut moved = 0;
        for [key, bits] in &mut table[..old] {
            let (key, bits) = (
                std::mem::take(key.get_mut()),
                std::mem::take(bits.get_mut()),
            );
            if key != 0 && bits != 0 {
                let [k, b] = waiting.next().expect("room for every entry");
                (*k.get_mut(), *b.get_mut()) = (key, bits);
                moved += 1;
            }
        }
        self.size = size;
        let mut aside = Vec::new();
        for t in zone..zone + moved {
            let [key, bits] = &mut self.slots[t];
            let (key, bits) = (
                std::mem::take(key.get_mut()),
                std::mem::take(bits.get_mut()),
            );
            let mut i = self.home(key);
            loop {
                if i > t {
                    aside.push((key, bits));
                    break;
                }
                let [k, b] = &mut self.slots[i];
                if *k.get_mut() == 0 {
                    (*k.get_mut(), *b.get_mut()) = (key, bits);
                    break;
                }
                i += 1;
            }
        }
        self.used = AtomicUsize::new(moved - aside.len());
        for (key, bits) in aside {
            self.put(key, f64::from_bits(!bits));
        }
    }
}

/// Writes to every page of `slots` (zeros, over zeros), `threads` threads sharing them: the
/// system gives a page at its first touch, which can cost more than all else a round does
/// with the page (docs/perf/einstein.md), and one thread alone would leave the others idle.
fn touch(slots: &[[AtomicU64; 2]], threads: usize) {
    const PAGE: usize = 4096 / std::mem::size_of::<[AtomicU64; 2]>();
    let part = slots.len().div_ceil(threads.max(1)).next_multiple_of(PAGE);
    if part == 0 {
        return;
    }
    let touch_part = |part: &[[AtomicU64; 2]]| {
        for slot in part.iter().step_by(PAGE) {
            slot[0].store(0, Relaxed);
        }
    };
    std::thread::scope(|scope| {
        let mut parts = slots.chunks(part);
        let first = parts.next();
        for p in parts {
            scope.spawn(move || touch_part(p));
        }
        if let Some(p) = first {
            touch_part(p);
        }
    });
}

/// `n` empty slots, their pages left to the system to zero at their first touch, and on Linux
/// in huge pages where the system allows (the search's probes land all over the table: with
/// small pages most of them also miss the address cache).
fn zeroed_slots(n: usize) -> Vec<[AtomicU64; 2]> {
    let layout = std::alloc::Layout::array::<[AtomicU64; 2]>(n).expect("a table within memory");
    try_zeroed_slots(n).unwrap_or_else(|| std::alloc::handle_alloc_error(layout))
}

/// [`zeroed_slots`], or `None` where the allocator has not the memory to reserve.
fn try_zeroed_slots(n: usize) -> Option<Vec<[AtomicU64; 2]>> {
    let slots = crate::search::table::try_zeroed::<[AtomicU64; 2]>(n)?;
    #[cfg(target_os = "linux")]
    crate::search::table::advise_huge_pages(&slots);
    Some(slots)
}

/// Why a round of the search stopped before its answer.
enum Halt {
    /// A limit, or Ctrl-C: the solve ends with this error.
    Stop(Error),
    /// The table must grow, or another thread has the answer or met a limit: the round ends.
    Round,
}

impl From<Error> for Halt {
    fn from(e: Error) -> Self {
        Halt::Stop(e)
    }
}

/// One thread's search in a round: the shared table, its own node count, and the flag that
/// ends the round for every thread. Threads differ only in the order they take the root's
/// moves and a position's stones, so that they start on different parts of the tree and
/// share what they find through the table.
struct Worker<'s, 'a> {
    memo: &'s Memo,
    meter: Meter<'a>,
    round_over: &'s AtomicBool,
    index: usize,
    /// Slots this thread took and has not added to the table's count yet, and how many it
    /// adds at a time (see [`Memo::count`]).
    uncounted: usize,
    batch: usize,
}

/// The mean of the values of the six rolls (`values[d - 1]` for die d), added in pairs of
/// rolls `d` and `7 - d` so that the sum is the same, bit for bit, with the dice reversed: a
/// side's stones renumbered `n -> 7 - n` give each roll's value to roll `7 - d` (see
/// [`Numbered`]), and the two positions share an entry of the table.
fn mean_of_rolls(values: [f64; 6]) -> f64 {
    let [one, two, three, four, five, six] = values;
    ((one + six) + (two + five) + (three + four)) / 6.0
}

/// For each rolled position of a solve's root, every legal move with its value.
type RootValues = Vec<Vec<(Action, f64)>>;

/// For each roll still to come (all six before the roll, the one rolled after it), the rolled
/// position: what the root of a solve decides.
fn rolled_positions(game: &Einstein, state: &EinsteinState) -> Vec<(u8, EinsteinState)> {
    match state.phase() {
        Phase::Move(die) => vec![(die, state.clone())],
        Phase::Roll => (1..=6)
            .map(|die| {
                let mut s = state.clone();
                game.apply(&mut s, FIRST_ROLL + die as Action - 1);
                (die, s)
            })
            .collect(),
        Phase::Setup | Phase::Over(_) => Vec::new(),
    }
}

impl Worker<'_, '_> {
    /// The probability that the side to roll in `f` (key `key`) wins.
    fn roll(&mut self, f: &Frame, key: u64) -> std::result::Result<f64, Halt> {
        match self.memo.get(key) {
            Some(v) => Ok(v),
            None => self.expand(f, key),
        }
    }

    /// The value of `f`, not in the table: every stone's best step, each roll's best stone.
    /// The children's slots are fetched together before any is read, so that their cache
    /// misses overlap.
    fn expand(&mut self, f: &Frame, key: u64) -> std::result::Result<f64, Halt> {
        self.meter.tick()?;
        if self.round_over.load(Relaxed) {
            return Err(Halt::Round);
        }
        let mut children: [[Option<(Frame, u64)>; 3]; STONES] = [[None; 3]; STONES];
        let mut best = [0.0f64; STONES];
        let mut won = [false; STONES];
        let keys = ChildKeys::of(f);
        for i in (0..STONES).filter(|&i| f.me[i] != GONE) {
            for (dir, slot) in children[i].iter_mut().enumerate() {
                match f.step(i, dir) {
                    Some(Step::Won) => won[i] = true,
                    Some(Step::Next(_)) if won[i] => {}
                    Some(Step::Next(child)) => {
                        let k = keys.after(f, i, TARGET[FORWARD][f.me[i] as usize][dir]);
                        debug_assert_eq!(k, child.key());
                        self.memo.prefetch(k);
                        *slot = Some((child, k));
                    }
                    None => {}
                }
            }
        }
        for n in 0..STONES {
            let i = if self.index % 2 == 1 {
                STONES - 1 - n
            } else {
                n
            };
            if f.me[i] != GONE {
                best[i] = if won[i] {
                    1.0
                } else {
                    self.best_step(&children[i])?
                };
            }
        }
        let alive = alive(&f.me);
        let value = mean_of_rolls(std::array::from_fn(|d| {
            movable_stones(alive, d as u8 + 1)
                .map(|n| best[n as usize - 1])
                .fold(0.0, f64::max)
        }));
        match self.memo.insert(key, value) {
            Stored::New => {
                self.uncounted += 1;
                if self.uncounted >= self.batch {
                    self.memo.count(self.uncounted);
                    self.uncounted = 0;
                }
                Ok(value)
            }
            Stored::Yes | Stored::Full => Ok(value),
            Stored::Grow => {
                self.round_over.store(true, Relaxed);
                Err(Halt::Round)
            }
        }
    }

    /// The value of a stone's best step, given the positions its steps lead to (and their
    /// keys): those in the table first, then the others searched.
    fn best_step(&mut self, steps: &[Option<(Frame, u64)>; 3]) -> std::result::Result<f64, Halt> {
        let mut best = 0.0f64;
        let mut unknown = [None; 3];
        for (slot, (child, key)) in unknown.iter_mut().zip(steps.iter().flatten()) {
            match self.memo.get(*key) {
                Some(v) => best = best.max(1.0 - v),
                None => *slot = Some((child, *key)),
            }
        }
        for &(child, key) in unknown.iter().flatten() {
            if best == 1.0 {
                break;
            }
            best = best.max(1.0 - self.roll(child, key)?);
        }
        Ok(best)
    }

    /// The probability that the player who plays `action` in `state` (a rolled position) wins.
    fn action_value(
        &mut self,
        game: &Einstein,
        state: &EinsteinState,
        action: Action,
    ) -> std::result::Result<f64, Halt> {
        let mut child = state.clone();
        game.apply(&mut child, action);
        match child.phase() {
            Phase::Over(winner) => Ok(if winner == state.player() { 1.0 } else { 0.0 }),
            _ => {
                let f = Frame::of(&child);
                Ok(1.0 - self.roll(&f, f.key())?)
            }
        }
    }

    /// Every legal move of each rolled position with its value, in ascending action order.
    /// Thread `index` starts at a different move and goes round.
    fn root(
        &mut self,
        game: &Einstein,
        rolled: &[(u8, EinsteinState)],
    ) -> std::result::Result<RootValues, Halt> {
        let mut moves: Vec<(usize, Action)> = Vec::new();
        let mut actions = Vec::new();
        for (r, (_, state)) in rolled.iter().enumerate() {
            game.legal_actions(state, &mut actions);
            moves.extend(actions.iter().map(|&a| (r, a)));
        }
        let start = if moves.is_empty() {
            0
        } else {
            self.index * moves.len() / 2 % moves.len()
        };
        let mut values = vec![Vec::new(); rolled.len()];
        for &(r, a) in moves[start..].iter().chain(&moves[..start]) {
            values[r].push((a, self.action_value(game, &rolled[r].1, a)?));
        }
        for v in &mut values {
            v.sort_by_key(|&(a, _)| a);
        }
        Ok(values)
    }
}

/// A search and its table, which it keeps from one call to the next (a bot keeps one for a
/// whole game: what one move's search learnt answers the next).
pub struct Solver<'a> {
    ctx: Context<'a>,
    memo: Memo,
}

impl<'a> Solver<'a> {
    pub fn new(ctx: &Context<'a>) -> Self {
        Solver {
            ctx: ctx.clone(),
            memo: Memo::new(ctx.limits.memory_mb),
        }
    }

    /// Positions in the table.
    pub fn stored(&self) -> usize {
        self.memo.len()
    }

    /// The threads of a solve: `threads`, or one per core.
    fn threads(&self) -> usize {
        pool_threads(
            self.ctx
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        )
    }

    /// Every legal move of each rolled position of `state` (see [`rolled_positions`]) with
    /// its value, and the nodes searched. The search runs in rounds: every thread searches the
    /// whole root, in its own order, sharing the table; the first to finish ends the round
    /// with the answer (every thread would give the same: a position's value does not depend
    /// on the order it was found in). A round also ends when the table is three quarters full: it grows,
    /// and the next round starts again from the root, finding what was found in the table.
    fn search(
        &mut self,
        game: &Einstein,
        rolled: &[(u8, EinsteinState)],
    ) -> Result<(RootValues, u64, f64)> {
        let budget = self.ctx.budget("einstein solver");
        let total = AtomicU64::new(0);
        let threads = self.threads();
        loop {
            let round_over = AtomicBool::new(false);
            let worker = |index| Worker {
                memo: &self.memo,
                meter: Meter::new(budget.clone(), Some(&total)),
                round_over: &round_over,
                index,
                uncounted: 0,
                batch: self.memo.batch(threads),
            };
            // An answer or a limit ends the round for the other threads too.
            let run = |mut w: Worker| {
                let answer = w.root(game, rolled);
                w.memo.count(w.uncounted);
                if !matches!(answer, Err(Halt::Round)) {
                    w.round_over.store(true, Relaxed);
                }
                answer
            };
            let answers: Vec<_> = if threads == 1 {
                vec![run(worker(0))]
            } else {
                std::thread::scope(|scope| {
                    let others: Vec<_> = (1..threads)
                        .map(|i| {
                            let w = worker(i);
                            scope.spawn(move || run(w))
                        })
                        .collect();
                    let mut answers = vec![run(worker(0))];
                    answers.extend(others.into_iter().map(|h| {
                        h.join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    }));
                    answers
                })
            };
            let mut grow = false;
            for answer in answers {
                match answer {
                    Ok(values) => {
                        return Ok((values, total.load(Relaxed), budget.seconds()));
                    }
                    Err(Halt::Stop(e)) => return Err(e),
                    Err(Halt::Round) => grow = true,
                }
            }
            debug_assert!(grow);
            self.memo.grow(threads);
        }
    }

    /// Solves `state` (see [`solve`]), keeping the table for the next call.
    pub fn solve(&mut self, game: &Einstein, state: &EinsteinState) -> Result<Solution> {
        if let Phase::Setup = state.phase() {
            return Err(setup_error());
        }
        let rolled = rolled_positions(game, state);
        let (values, nodes, seconds) = self.search(game, &rolled)?;
        let mut best_moves = Vec::with_capacity(rolled.len());
        let mut bests = Vec::with_capacity(rolled.len());
        for ((die, _), moves) in rolled.iter().zip(&values) {
            let mut best = *moves.first().ok_or_else(|| {
                Error::NotApplicable("einstein: a rolled position without a move".into())
            })?;
            for &(a, v) in &moves[1..] {
                if v > best.1 {
                    best = (a, v);
                }
            }
            bests.push(best.1);
            best_moves.push((*die, best.0));
        }
        let value = match (state.phase(), &bests[..]) {
            (Phase::Over(winner), _) => (winner == state.player()) as u8 as f64,
            (_, &[rolled]) => rolled,
            (_, &[one, two, three, four, five, six]) => {
                mean_of_rolls([one, two, three, four, five, six])
            }
            _ => return Err(Error::NotApplicable("einstein: not six rolls".into())),
        };
        Ok(Solution {
            value,
            best_moves,
            nodes,
            seconds,
        })
    }

    /// Every legal action of `state` with its value (see [`analyze`]), and the nodes searched.
    pub fn analyze(
        &mut self,
        game: &Einstein,
        state: &EinsteinState,
    ) -> Result<(Vec<(Action, f64)>, u64)> {
        if let Phase::Setup = state.phase() {
            return Err(setup_error());
        }
        let rolled = rolled_positions(game, state);
        let (values, nodes, _) = self.search(game, &rolled)?;
        let values = match state.phase() {
            Phase::Roll => rolled
                .iter()
                .zip(values)
                .map(|((die, _), moves)| {
                    let best = moves.iter().map(|m| m.1).fold(f64::NEG_INFINITY, f64::max);
                    (FIRST_ROLL + *die as Action - 1, best)
                })
                .collect(),
            _ => values.into_iter().flatten().collect(),
        };
        Ok((values, nodes))
    }
}

/// Solves a position after the setup: the probability that the player to move (or about to
/// roll) wins with optimal play, and a best move for each roll still to come. A finished game
/// is answered (value 1 or 0 for the player the notation names, no moves); a setup is
/// `NotApplicable`.
pub fn solve(game: &Einstein, state: &EinsteinState, ctx: &Context) -> Result<Solution> {
    Solver::new(ctx).solve(game, state)
}

/// Every legal action of a position after the setup with its value, and the nodes searched:
/// after a roll, each move with the probability that its player wins after it; before the
/// roll, each roll (actions 75-80) with the probability that the player about to roll wins
/// after rolling it. Empty in a finished game; a setup is `NotApplicable`.
pub fn analyze(
    game: &Einstein,
    state: &EinsteinState,
    ctx: &Context,
) -> Result<(Vec<(Action, f64)>, u64)> {
    Solver::new(ctx).analyze(game, state)
}

// ---- the bot ----

/// Steps from `cell` to the corner of the side heading for e5 (a diagonal step counts one).
fn distance_home(cell: u8) -> u32 {
    let (row, col) = (cell / 5, cell % 5);
    (4 - row).max(4 - col) as u32
}

/// For the side to roll in `f`: how many of the six rolls let it win at once, and the sum over
/// the six rolls of the distance to its corner of the nearest stone that roll lets move.
fn threats(f: &Frame) -> (u32, u32) {
    let alive = alive(&f.me);
    let (mut wins, mut distance) = (0, 0);
    for die in 1..=6 {
        let stones = || movable_stones(alive, die).map(|n| n as usize - 1);
        if stones().any(|i| (0..3).any(|dir| matches!(f.step(i, dir), Some(Step::Won)))) {
            wins += 1;
        }
        distance += stones().map(|i| distance_home(f.me[i])).min().unwrap_or(0);
    }
    (wins, distance)
}

/// The heuristic's move in a rolled position: a move that wins at once if there is one (the
/// first); otherwise a move that leaves the opponent the fewest rolls that win at once, among
/// those the one that most increases (the opponent's expected distance) minus (the mover's
/// expected distance) after it, each side's expected distance being the mean over the six
/// rolls of the distance to its corner of the nearest stone the roll lets move (a diagonal
/// step counts one); ties broken uniformly at random with `rng`.
pub fn heuristic_move(game: &Einstein, state: &EinsteinState, rng: &mut Rng) -> Option<Action> {
    let mut actions = Vec::new();
    game.legal_actions(state, &mut actions);
    let mut best: Option<((u32, i64), Action)> = None;
    let mut ties = 0u32;
    for a in actions {
        let mut child = state.clone();
        game.apply(&mut child, a);
        if let Phase::Over(_) = child.phase() {
            return Some(a);
        }
        // The opponent rolls next: `me` of the child's frame.
        let f = Frame::of(&child);
        let (their_wins, their_distance) = threats(&f);
        let (_, our_distance) = threats(&f.other_side());
        let score = (their_wins, our_distance as i64 - their_distance as i64);
        match best {
            Some((b, _)) if score > b => {}
            Some((b, _)) if score == b => {
                ties += 1;
                if rng.random_range(0..=ties) == 0 {
                    best = Some((score, a));
                }
            }
            _ => {
                best = Some((score, a));
                ties = 0;
            }
        }
    }
    best.map(|(_, a)| a)
}

impl Frame {
    /// The same position as seen by the other side (as if it were about to roll).
    fn other_side(&self) -> Frame {
        Frame {
            me: turned(self.opp),
            opp: turned(self.me),
        }
    }
}

/// Stones on the board of each side.
fn stone_counts(state: &EinsteinState) -> [usize; 2] {
    state
        .stones()
        .map(|side| side.iter().filter(|&&c| c != GONE).count())
}

/// The bot's action: in a rolled position, the solver's best move once each side has at most
/// `solver_stones` stones and the solve ends within the solver's limits (the first best move
/// in ascending action order), else [`heuristic_move`]; at an arrangement it arranges its
/// stones uniformly at random. `None` in a finished game; before a roll (a chance node) it is
/// `NotApplicable`. `solved` is set when the solver chose the move.
pub fn bot_move(
    game: &Einstein,
    state: &EinsteinState,
    solver: &mut Solver,
    solver_stones: usize,
    rng: &mut Rng,
    solved: &mut bool,
) -> Result<Option<Action>> {
    *solved = false;
    match game.to_move(state) {
        ToMove::Terminal => return Ok(None),
        ToMove::Chance => {
            return Err(Error::NotApplicable(
                "einstein: the bot moves after a roll or arranges its stones; this is a \
                 chance node (roll the die, or the random setup)"
                    .into(),
            ));
        }
        ToMove::Player(_) => {}
    }
    if state.phase() == Phase::Setup {
        let mut arrangements = Vec::new();
        game.legal_actions(state, &mut arrangements);
        return Ok(Some(arrangements[rng.random_range(0..arrangements.len())]));
    }
    if stone_counts(state).iter().all(|&n| n <= solver_stones) {
        match solver.solve(game, state) {
            Ok(solution) => {
                *solved = true;
                return Ok(solution.best_moves.first().map(|&(_, action)| action));
            }
            Err(Error::SearchLimit { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(heuristic_move(game, state, rng))
}

/// The outcome of one game of [`play_against_random`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The bot's side (player 0 moves first).
    pub bot: u8,
    pub bot_won: bool,
    /// The bot's moves, and those the solver chose.
    pub moves: u32,
    pub solved: u32,
}

/// Games `first..first + n` (seeded by `seed`, see [`map_rows`]) of the bot against uniform
/// random play, with random setups: in game `i` the bot is player `i % 2`, and player 0 moves
/// first. Each solve runs within `limits` (its own clock and node count), a game keeps one
/// table, and `limits.memory_mb` is shared by the tables of the games running at once (one a
/// thread).
pub fn play_against_random(
    first: u64,
    n: usize,
    seed: u64,
    threads: Option<usize>,
    solver_stones: usize,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Vec<Played>> {
    let game = Einstein {
        setup: Setup::Random,
        first: 0,
    };
    let workers = crate::search::in_pool(threads, rayon::current_num_threads)?;
    let per_game = Limits {
        memory_mb: (limits.memory_mb / workers.max(1)).max(1),
        ..limits.clone()
    };
    let rows = map_rows(
        first,
        n,
        seed,
        threads,
        Split::Rows,
        cancel,
        |number, rng| {
            let ctx = Context::new(per_game.clone(), Some(1), cancel);
            let mut solver = Solver::new(&ctx);
            let bot = (number % 2) as u8;
            let mut played = Played {
                bot,
                bot_won: false,
                moves: 0,
                solved: 0,
            };
            let mut state = game.new_state();
            let mut actions = Vec::new();
            loop {
                let action = match game.to_move(&state) {
                    ToMove::Terminal => break,
                    ToMove::Chance => game.sample_chance(&state, rng),
                    ToMove::Player(p) if p == bot => {
                        let mut solved = false;
                        let action =
                            bot_move(&game, &state, &mut solver, solver_stones, rng, &mut solved)?;
                        played.moves += 1;
                        played.solved += solved as u32;
                        action.ok_or_else(|| Error::NotApplicable("einstein: no move".into()))?
                    }
                    ToMove::Player(_) => {
                        game.legal_actions(&state, &mut actions);
                        actions[rng.random_range(0..actions.len())]
                    }
                };
                game.apply(&mut state, action);
            }
            played.bot_won = state.phase() == Phase::Over(bot);
            Ok(played)
        },
    )?;
    rows.into_iter().collect()
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

    fn with<T>(limits: Limits, f: impl FnOnce(&Context) -> T) -> T {
        let cancel = AtomicBool::new(false);
        f(&Context::new(limits, Some(1), &cancel))
    }

    fn solved(text: &str) -> Solution {
        with(Limits::default(), |ctx| solve(&game(), &at(text), ctx)).unwrap()
    }

    /// A plain expectiminimax over the engine's `Game` interface, memoised by notation: the
    /// probability that the player to act (or about to roll) wins.
    fn plain(g: &Einstein, s: &EinsteinState) -> f64 {
        plain_in(g, s, &mut std::collections::HashMap::new())
    }

    fn plain_in(
        g: &Einstein,
        s: &EinsteinState,
        seen: &mut std::collections::HashMap<String, f64>,
    ) -> f64 {
        if let Some(&v) = seen.get(&g.notation(s)) {
            return v;
        }
        let mut actions = Vec::new();
        let value = match g.to_move(s) {
            ToMove::Terminal => match s.phase() {
                Phase::Over(w) if w == s.player() => 1.0,
                _ => 0.0,
            },
            ToMove::Chance => {
                let mut outcomes = Vec::new();
                g.chance_outcomes(s, &mut outcomes);
                outcomes
                    .iter()
                    .map(|&(a, p)| p * plain_in(g, &g.play(s, a).unwrap(), seen))
                    .sum()
            }
            ToMove::Player(p) => {
                g.legal_actions(s, &mut actions);
                actions
                    .iter()
                    .map(|&a| {
                        // The child's value is for its player (in a finished game, the loser).
                        let t = g.play(s, a).unwrap();
                        let v = plain_in(g, &t, seen);
                        if t.player() == p { v } else { 1.0 - v }
                    })
                    .fold(0.0, f64::max)
            }
        };
        seen.insert(g.notation(s), value);
        value
    }

    /// A random position after the setup with `a` stones of player 0 and `b` of player 1 (of
    /// random numbers, on random cells off both corners), either side to roll.
    fn random_position(rng: &mut Rng, a: usize, b: usize) -> EinsteinState {
        loop {
            let mut board = ['.'; 25];
            let mut cells: Vec<usize> = (1..24).collect();
            let mut numbers: Vec<u8> = (0..6).collect();
            for (count, base) in [(a, b'1'), (b, b'a')] {
                for _ in 0..count {
                    let cell = cells.swap_remove(rng.random_range(0..cells.len()));
                    let n = numbers.swap_remove(rng.random_range(0..numbers.len()));
                    board[cell] = (base + n) as char;
                }
                numbers = (0..6).collect();
            }
            let rows: Vec<String> = board.chunks(5).map(|r| r.iter().collect()).collect();
            let text = format!("{} {} -", rows.join("/"), rng.random_range(0..2));
            if let Ok(s) = game().from_notation(&text) {
                return s;
            }
        }
    }

    #[test]
    fn one_stone_each_a_step_from_its_corner_wins_for_the_roller() {
        for text in [
            "...../.a.../...../...1./..... 0 -",
            "...../.a.../...../....1/..... 0 3",
            ".b.../a..../...../...../...1. 1 -",
        ] {
            let sol = solved(text);
            assert_eq!(sol.value, 1.0, "{text}");
        }
        // Stone 1 on d4 for any roll: the diagonal step d4e5.
        let sol = solved("...../.a.../...../...1./..... 0 -");
        let g = game();
        let s = at("...../.a.../...../...1./..... 0 -");
        assert_eq!(sol.best_moves.len(), 6);
        for (die, action) in sol.best_moves {
            let rolled = g.play(&s, FIRST_ROLL + die as Action - 1).unwrap();
            assert_eq!(g.action_to_string(&rolled, action).unwrap(), "d4e5");
        }
    }

    #[test]
    fn two_steps_from_the_corner_against_one_step_loses_unless_it_captures() {
        // Player 0's stone on c3 needs two steps; player 1's stone on b2 needs one and wins
        // whatever it rolls, so player 0 must win at once: impossible from c3.
        let sol = solved("...../.a.../..1../...../..... 0 -");
        assert_eq!(sol.value, 0.0);
        // With the enemy stone on d4 instead, c3d4 captures it and wins.
        let sol = solved("...../...../..1../...a./..... 0 -");
        assert_eq!(sol.value, 1.0);
    }

    #[test]
    fn finished_games_are_answered_and_setups_refused() {
        let sol = solved("f..../..1.5/.6.3./b..../..... 0 -");
        assert_eq!((sol.value, sol.best_moves.len(), sol.nodes), (0.0, 0, 0));
        let refused = with(Limits::default(), |ctx| {
            solve(&game(), &game().new_state(), ctx)
        });
        assert!(matches!(refused, Err(Error::NotApplicable(_))));
    }

    #[test]
    fn the_solver_agrees_with_a_plain_expectiminimax() {
        let g = game();
        let mut rng = crate::game::row_rng(11, 0);
        for round in 0..60 {
            let (a, b) = [(1, 1), (1, 2), (2, 1), (2, 2)][round % 4];
            let s = random_position(&mut rng, a, b);
            let expected = plain(&g, &s);
            let sol = with(Limits::default(), |ctx| solve(&g, &s, ctx)).unwrap();
            assert!((sol.value - expected).abs() < 1e-12, "{}", g.notation(&s));
            // Each roll: the best move's value is the best of analyze, and equals the plain one.
            let mut mean = 0.0;
            for &(die, action) in &sol.best_moves {
                let rolled = g.play(&s, FIRST_ROLL + die as Action - 1).unwrap();
                let (values, _) = with(Limits::default(), |ctx| analyze(&g, &rolled, ctx)).unwrap();
                let best = values.iter().map(|v| v.1).fold(0.0, f64::max);
                let of_action = values.iter().find(|v| v.0 == action).unwrap().1;
                assert_eq!(of_action, best);
                assert!((best - plain(&g, &rolled)).abs() < 1e-12);
                mean += best / 6.0;
            }
            assert!((mean - sol.value).abs() < 1e-12);
        }
    }

    #[test]
    fn a_full_table_changes_nothing_but_the_time() {
        let g = game();
        let mut rng = crate::game::row_rng(12, 0);
        let cancel = AtomicBool::new(false);
        let ctx = Context::new(Limits::default(), Some(1), &cancel);
        for _ in 0..10 {
            let s = random_position(&mut rng, 2, 2);
            let mut big = Solver::new(&ctx);
            let whole = big.solve(&g, &s).unwrap();
            // A table that holds between a third and seven-eighths of the positions stored.
            let largest = (big.stored() + 1).next_power_of_two() / 2;
            let mut small = Solver::new(&ctx);
            small.memo = Memo::sized(largest, Memo::FIRST_SLOTS, 16);
            let sol = small.solve(&g, &s).unwrap();
            assert_eq!(small.stored(), largest * 7 / 8);
            assert!((sol.value - whole.value).abs() < 1e-12);
            assert!(sol.nodes > whole.nodes);
        }
    }

    #[test]
    fn the_table_stays_within_its_memory_even_while_growing() {
        for memory_mb in [1, 3, 64, 1024] {
            let slots = Memo::capacity(memory_mb);
            assert!(slots.is_power_of_two());
            // At its largest, with the half-size array it grew from.
            let peak = (slots + slots / 2) * std::mem::size_of::<[AtomicU64; 2]>();
            assert!(peak <= memory_mb << 20, "{memory_mb} MB: {peak} bytes");
            assert!(
                2 * peak > memory_mb << 20,
                "{memory_mb} MB: needlessly small"
            );
        }
    }

    #[test]
    fn rounds_and_threads_change_nothing_but_the_time() {
        // A table that starts at 16 slots ends a round at every doubling, growing within its
        // reserved memory or into new arrays; two and three threads share it. Values are
        // exact in every case: the same bits, the same moves.
        let g = game();
        let mut rng = crate::game::row_rng(14, 0);
        for round in 0..12 {
            let s = random_position(&mut rng, 3, 2 + round % 2);
            let plain_solve = with(Limits::default(), |ctx| solve(&g, &s, ctx)).unwrap();
            let plain_values = with(Limits::default(), |ctx| analyze(&g, &s, ctx))
                .unwrap()
                .0;
            for (threads, region_from) in [(1, 16), (2, 16), (3, 16), (2, usize::MAX)] {
                let cancel = AtomicBool::new(false);
                let ctx = Context::new(Limits::default(), Some(threads), &cancel);
                let mut solver = Solver::new(&ctx);
                solver.memo = Memo::sized(Memo::capacity(1024), 16, region_from);
                let sol = solver.solve(&g, &s).unwrap();
                assert_eq!(sol.value, plain_solve.value, "{}", g.notation(&s));
                assert_eq!(sol.best_moves, plain_solve.best_moves);
                let mut solver = Solver::new(&ctx);
                solver.memo = Memo::sized(Memo::capacity(1024), 16, region_from);
                assert_eq!(solver.analyze(&g, &s).unwrap().0, plain_values);
            }
        }
    }

    #[test]
    fn renumbered_sides_share_their_key_and_value() {
        let g = game();
        let mut rng = crate::game::row_rng(15, 0);
        // Stone n of `side` renumbered 7 - n (on the board, not in the fields after it).
        let renumber = |text: &str, side: usize| -> String {
            let (board, rest) = text.split_once(' ').unwrap();
            let board: String = board
                .chars()
                .map(|c| match (side, c) {
                    (0, '1'..='6') => (b'7' - (c as u8 - b'0')) as char,
                    (1, 'a'..='f') => (b'a' + b'f' - c as u8) as char,
                    _ => c,
                })
                .collect();
            format!("{board} {rest}")
        };
        for round in 0..24 {
            let s = random_position(&mut rng, 1 + round % 3, 3 - round % 3);
            let text = g.notation(&s);
            for side in [0, 1] {
                let other = renumber(&text, side);
                let (a, b) = (at(&text), at(&other));
                assert_eq!(Frame::of(&a).key(), Frame::of(&b).key(), "{text} / {other}");
                assert_eq!(
                    solved(&text).value,
                    solved(&other).value,
                    "{text} / {other}"
                );
            }
        }
        // A lone stone's number does not matter; two stones' numbers do, beyond the reversal.
        let key = |text: &str| Frame::of(&at(text)).key();
        assert_eq!(
            key("...../.a.../...../...1./..... 0 -"),
            key("...../.a.../...../...4./..... 0 -")
        );
        assert_ne!(
            key("...../.a.../..1../...2./..... 0 -"),
            key("...../.a.../..1../...3./..... 0 -")
        );
        assert_ne!(
            key("...../.a.../..1../...2./..... 0 -"),
            key("...../.a.../..2../...1./..... 0 -")
        );
    }

    #[test]
    fn mirror_images_and_the_other_side_have_the_same_value() {
        let g = game();
        let mut rng = crate::game::row_rng(13, 0);
        for _ in 0..20 {
            let s = random_position(&mut rng, 3, 2);
            let text = g.notation(&s);
            let (rows, rest) = text.split_once(' ').unwrap();
            let cells: Vec<char> = rows.chars().filter(|&c| c != '/').collect();
            let mirror: Vec<String> = (0..5)
                .map(|r| (0..5).map(|c| cells[c * 5 + r]).collect())
                .collect();
            let mirrored = format!("{} {rest}", mirror.join("/"));
            assert_eq!(solved(&text).value, solved(&mirrored).value, "{text}");
        }
    }

    #[test]
    fn limits_and_cancel_stop_the_search() {
        let g = game();
        let s = at("1.2../4..../...../....c/..b.a 0 -");
        let over = with(
            Limits {
                max_nodes: Some(10),
                ..Limits::default()
            },
            |ctx| solve(&g, &s, ctx),
        );
        assert!(
            matches!(over, Err(Error::SearchLimit { nodes: 11, .. })),
            "{over:?}"
        );
        let cancel = AtomicBool::new(true);
        let ctx = Context::new(Limits::default(), Some(1), &cancel);
        assert!(matches!(solve(&g, &s, &ctx), Err(Error::Interrupted)));
    }

    #[test]
    fn the_bot_takes_a_winning_move_and_beats_random_play() {
        let g = game();
        let mut rng = crate::game::row_rng(1, 0);
        // The heuristic alone: e4e5 wins at once.
        let s = at("1..../...../...../....2/a.... 0 2");
        assert_eq!(
            g.action_to_string(&s, heuristic_move(&g, &s, &mut rng).unwrap())
                .unwrap(),
            "e4e5"
        );
        let cancel = AtomicBool::new(false);
        let limits = Limits {
            timeout: Some(std::time::Duration::from_secs(5)),
            memory_mb: 64,
            ..Limits::default()
        };
        let games = play_against_random(0, 200, 5, Some(1), 2, &limits, &cancel).unwrap();
        let won = games.iter().filter(|p| p.bot_won).count();
        assert!(won > 150, "{won} of 200");
        assert!(games.iter().any(|p| p.solved > 0));
    }
}
