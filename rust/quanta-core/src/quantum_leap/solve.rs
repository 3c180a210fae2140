//! The exact solver of Quantum Leap.
//!
//! Quantum Leap has no draws and every move removes a stone, so every position is a win or a
//! loss for the player to move. The solver is a depth-first negamax (a win/loss, null-window
//! search) with these accelerations:
//!
//! * **Sums of games.** Stones only ever land on cells that hold a stone now, and a stone's
//!   jump length is at most its number of occupied neighbour cells now (and at most the larger
//!   stone count minus one). Stones that can never reach, or border, each other form separate
//!   regions that never merge: the position is a sum of independent games. Each region's
//!   outcome class (White wins, Black wins, first player wins, second player wins) is solved
//!   once and cached under a key that forgets where the region sits and how it is turned (the
//!   12 symmetries of the hex grid and every translation). A region whose class is "second
//!   player wins" is a zero game and is dropped. A region where only one colour can ever
//!   capture is an integer (the longest run of its captures); integers are summed into one
//!   number that the search carries as spare moves. The largest region is never classed
//!   (that would search it from both sides): it and the other regions still in play are
//!   searched once, for the player to move, with the number, and that sum (not the whole
//!   position) is what the table stores, so that it is met again whatever zero and integer
//!   regions lie beside it, at one memory write per node.
//!   The positions one capture from the start are split so (the start itself is searched
//!   whole, to name its best capture); deeper positions are searched whole, with the spare
//!   moves they inherit ([`SPLIT_PLIES`]). Splitting at every node took twice the time per
//!   node and saved only a fifth of the nodes, on sides 3 and 5 alike.
//!   Spare moves that outlast every capture the opponent has left (one per own stone) decide
//!   at once.
//! * **A transposition table** with Zobrist keys that starts small and grows within the
//!   memory cap, and enhanced transposition cut-offs (a child already known lost for the
//!   opponent is taken at once; one known won for the opponent goes last, its replies not
//!   counted). An entry holds one set of stones for every number of spare
//!   moves: more spare moves are never worse for their owner, so it keeps, per player to
//!   move, the fewest with which White is known to win and the most with which Black is.
//!   Positions ten captures or more from the root, of 29 stones or fewer, go instead to a
//!   small table of the thread's own (1 MB): they are most of the nodes and quick to search
//!   again, and kept there they stay in the thread's cache and leave the shared table to the
//!   positions that are costly to search. Each slot is its own sequence lock, so no thread
//!   ever waits. On boards of up to 64 cells a cache line holds two slots, and a position
//!   may sit in either slot of the line its hash picks: the first keeps the larger of the
//!   positions met there (the costlier to search again), the second takes the rest.
//! * **Move ordering**: captures that leave the opponent the fewest replies first; ties go to
//!   the last two captures that refuted at the same distance from the root (killer moves),
//!   then to those that keep us the most captures, then to the history of earlier
//!   refutations, each weighed by the stones then on the board (2^(stones/3): a refutation
//!   nearer the root cut off a larger tree). When a capture fails, the opponent's reply that
//!   beat it will likely beat the next one too, so the captures that prevent that reply
//!   (taking the replying stone or one of its friends, or moving away its target) are tried
//!   next, each group in the order above. In the replies to the root's captures, a capture
//!   that takes the stone just moved (a recapture) is ranked as if it left
//!   [`RECAPTURE_BONUS`] replies fewer. At the swap decision, swaps that leave White the
//!   fewest captures first.
//!
//! * **Threads** (young brothers wait): near the root, a node whose first capture fails is
//!   probably lost, so its other captures must all be searched; the threads of the pool take
//!   them in order and share the table. A capture found winning stops the searches of the
//!   captures after it (`Fork`). The table grows while the threads search on
//!   ([`SharedTable`]). The root's captures are ordered by
//!   the position alone and the first winning one is returned, so the answer does not depend
//!   on the threads.
//!
//! Depth-first proof-number search was tried in place of the negamax and measured slower on
//! the same positions (benches/README.md).
//!
//! Limits (time, nodes, memory) and a cancel flag stop the search with `SearchLimit` /
//! `Interrupted`; a returned answer is always exact.

use super::board::{MAX_CELLS, OFF};
use super::{
    BLACK, CaptureCounts, Phase, QuantumLeap, QuantumLeapState, WHITE, after_capture, on_board,
};
use crate::bits::Bits;
use crate::erased::{DynState, Position};
use crate::error::{Error, Result};
use crate::game::{Action, Game};
pub use crate::search::Limits;
use crate::search::{Budget, Meter, in_pool};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::marker::PhantomData;
use std::sync::Mutex;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::fence;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize};

/// The answer for a decision node.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The player to act wins with perfect play.
    pub win: bool,
    /// A winning action if `win`, else the action that resists longest by the solver's
    /// ordering (`None` when there is no legal action).
    pub best_action: Option<Action>,
    pub nodes: u64,
    pub seconds: f64,
}

/// Outcome class of a region (Left = White).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// White wins whoever starts.
    White,
    /// Black wins whoever starts.
    Black,
    /// The player to move wins.
    First,
    /// The player to move loses: a zero game.
    Second,
}

/// What a region alone is: its outcome class, and the integer it is worth when only one
/// colour can ever capture in it.
type RegionValue = (Class, Option<i32>);

/// What the table knows of one set of stones plus an integer part `t` (see `Solver::wins`),
/// per player to move: White wins for every `t >= white_wins_from`, Black for every
/// `t <= black_wins_to`. (A larger integer part is never worse for White, so one number per
/// colour says it all.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Known {
    white_wins_from: [i16; 2],
    black_wins_to: [i16; 2],
}

impl Known {
    const NOTHING: Known = Known {
        white_wins_from: [i16::MAX; 2],
        black_wins_to: [i16::MIN; 2],
    };

    /// What `known` says for `side` to move with integer part `tempo`.
    fn says(&self, side: u8, tempo: i32) -> Option<bool> {
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
    fn with(mut self, side: u8, tempo: i32, win: bool) -> Known {
        let (s, tempo) = (side as usize, tempo as i16);
        if win == (side == WHITE) {
            self.white_wins_from[s] = self.white_wins_from[s].min(tempo);
        } else {
            self.black_wins_to[s] = self.black_wins_to[s].max(tempo);
        }
        self
    }

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

    fn halves(self) -> [i16; 4] {
        let (w, b) = (self.white_wins_from, self.black_wins_to);
        [w[0], w[1], b[0], b[1]]
    }
}

/// Words of one table slot: a sequence number (odd while a thread writes the slot), what is
/// known, then the stones (White's, Black's) as 64-bit words.
const SEQUENCE: usize = 0;
const KNOWN: usize = 1;
const STONES: usize = 2;

/// Eight words, one cache line: two slots of a board up to 64 cells, one slot of a larger one.
/// A slot never straddles two lines, so a probe is one memory access.
#[repr(align(64))]
struct Line([AtomicU64; 8]);

/// The words of one slot within its line.
#[derive(Clone, Copy)]
struct Slot<'t> {
    line: &'t [AtomicU64; 8],
    start: usize,
}

impl<'t> Slot<'t> {
    #[inline]
    fn word(self, i: usize) -> &'t AtomicU64 {
        &self.line[(self.start + i) & 7]
    }
}

/// `n` lines of zeros from the allocator. (At a line's alignment the allocator writes the zeros
/// itself, touching every page; large tables taken from `calloc` instead, their pages zeroed by
/// the system at their first touch, measured no faster: benches/README.md.)
fn zeroed_lines(n: usize) -> Vec<Line> {
    if n == 0 {
        return Vec::new();
    }
    let layout = std::alloc::Layout::array::<Line>(n).expect("a table within the memory cap");
    // SAFETY: the layout is that of `n` lines (not zero-sized); all-zero bits are a valid
    // `AtomicU64` (0), so the memory holds `n` valid lines, and a Vec of capacity `n` frees it
    // with this same layout.
    unsafe {
        let lines = std::alloc::alloc_zeroed(layout).cast::<Line>();
        if lines.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(lines, n, n)
    }
}

/// A transposition table, one line of [`Table::WAYS`] slots per hash, that every thread of a
/// solve may read and write.
/// Each slot is its own sequence lock: a reader that meets a write in progress, or that a write
/// overtook, sees a miss; a writer that meets another drops its write. Neither ever waits, and
/// a miss or a dropped write costs only a repeated search.
struct Table<B: Bits> {
    lines: Vec<Line>,
    _stones: PhantomData<B>,
}

impl<B: Bits> Table<B> {
    /// Words per slot: the sequence number, what is known, the stones; a power of two.
    const WORDS: usize = if B::CAPACITY <= 64 { 4 } else { 8 };
    /// Slots per line: a position may sit in either slot of the line its hash picks.
    const WAYS: usize = 8 / Self::WORDS;
    /// The stones as 64-bit words (the first `WORDS - STONES`).
    fn stone_words(stones: [B; 2]) -> [u64; 4] {
        if B::CAPACITY <= 64 {
            [stones[0].low_u64(), stones[1].low_u64(), 0, 0]
        } else {
            let [w, b] = stones;
            [w.low_u64(), w.high_u64(), b.low_u64(), b.high_u64()]
        }
    }

    fn from_stone_words(words: [u64; 4]) -> [B; 2] {
        if B::CAPACITY <= 64 {
            [B::from_u64s(words[0], 0), B::from_u64s(words[1], 0)]
        } else {
            [
                B::from_u64s(words[0], words[1]),
                B::from_u64s(words[2], words[3]),
            ]
        }
    }

    fn new(slots: usize) -> Self {
        let lines = (slots * Self::WORDS).div_ceil(8);
        Table {
            lines: zeroed_lines(lines),
            _stones: PhantomData,
        }
    }

    fn slots(&self) -> usize {
        self.lines.len() * 8 / Self::WORDS
    }

    #[inline]
    fn slot(&self, hash: u64) -> Slot<'_> {
        let i = hash as usize & (self.slots() - 1);
        Slot {
            line: &self.lines[i * Self::WORDS / 8].0,
            start: i * Self::WORDS % 8,
        }
    }

    /// Asks the processor to bring the slot of `hash` into the cache.
    #[inline]
    fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const AtomicU64 = self.slot(hash).word(0);
            // SAFETY: a prefetch is only a hint; the pointer is to a live table slot.
            #[allow(unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Whether `slot` holds `stones` (as `stone_words`).
    #[inline]
    fn holds(slot: Slot<'_>, words: &[u64; 4]) -> bool {
        let same = |i: usize| slot.word(STONES + i).load(Relaxed) == words[i];
        same(0) && same(1) && (B::CAPACITY <= 64 || (same(2) && same(3)))
    }

    /// What the slots of `hash` know of `stones`, if one holds them and no write is under way.
    #[inline]
    fn read(&self, stones: [B; 2], hash: u64) -> Option<Known> {
        let words = Self::stone_words(stones);
        Self::read_slot(self.slot(hash), &words)
            .or_else(|| (Self::WAYS == 2).then(|| Self::read_slot(self.slot(hash ^ 1), &words))?)
    }

    #[inline]
    fn read_slot(slot: Slot<'_>, words: &[u64; 4]) -> Option<Known> {
        let sequence = slot.word(SEQUENCE).load(Acquire);
        let known = slot.word(KNOWN).load(Relaxed);
        let holds = Self::holds(slot, words);
        fence(Acquire);
        (holds && sequence & 1 == 0 && slot.word(SEQUENCE).load(Relaxed) == sequence)
            .then(|| Known::from_word(known))
    }

    /// The slot of `hash` to write `stones` (as `stone_words`) to: the one of its line that
    /// holds them; else the first slot, if it is empty or holds no more stones than these;
    /// else the second. So the first slot keeps the larger positions, the costlier to search
    /// again, and the second takes the rest.
    fn slot_to_write(&self, words: &[u64; 4], hash: u64) -> Slot<'_> {
        let home = self.slot(hash);
        if Self::WAYS == 1 || Self::holds(home, words) {
            return home;
        }
        let other = self.slot(hash ^ 1);
        if Self::holds(other, words) {
            return other;
        }
        let held: u32 = (STONES..Self::WORDS)
            .map(|i| home.word(i).load(Relaxed).count_ones())
            .sum();
        let stones: u32 = words.iter().map(|w| w.count_ones()).sum();
        if home.word(KNOWN).load(Relaxed) == 0 || stones >= held {
            home
        } else {
            other
        }
    }

    #[inline]
    fn probe(&self, stones: [B; 2], side: u8, hash: u64, tempo: i32) -> Option<bool> {
        self.read(stones, hash)?.says(side, tempo)
    }

    /// Records that `side` to move with `tempo` on `stones` wins (`win`) or loses. Says
    /// whether an empty slot was taken.
    fn store(&self, stones: [B; 2], side: u8, hash: u64, tempo: i32, win: bool) -> bool {
        self.update(stones, hash, |known| known.with(side, tempo, win))
    }

    /// Replaces what the slot of `hash` knows of `stones` (nothing, if it holds other stones)
    /// by `learn` of it, unless another thread is writing the slot. Says whether an empty slot
    /// was taken.
    fn update(&self, stones: [B; 2], hash: u64, learn: impl FnOnce(Known) -> Known) -> bool {
        let words = Self::stone_words(stones);
        let slot = self.slot_to_write(&words, hash);
        let sequence = slot.word(SEQUENCE).load(Relaxed);
        if sequence & 1 == 1
            || slot
                .word(SEQUENCE)
                .compare_exchange(sequence, sequence + 1, Acquire, Relaxed)
                .is_err()
        {
            return false;
        }
        fence(Release);
        let old = slot.word(KNOWN).load(Relaxed);
        let known = learn(if Self::holds(slot, &words) {
            Known::from_word(old)
        } else {
            Known::NOTHING
        });
        slot.word(KNOWN).store(known.word(), Relaxed);
        for (i, w) in words.iter().enumerate().take(Self::WORDS - STONES) {
            slot.word(STONES + i).store(*w, Relaxed);
        }
        slot.word(SEQUENCE).store(sequence + 2, Release);
        old == 0
    }

    /// Every stored position: (stones, what is known).
    fn entries(&self) -> impl Iterator<Item = ([B; 2], Known)> + '_ {
        (0..self.slots()).filter_map(|i| {
            let slot = self.slot(i as u64);
            let known = Known::from_word(slot.word(KNOWN).load(Relaxed));
            let mut words = [0; 4];
            for (j, w) in words.iter_mut().enumerate().take(Self::WORDS - STONES) {
                *w = slot.word(STONES + j).load(Relaxed);
            }
            (known != Known::NOTHING).then(|| (Self::from_stone_words(words), known))
        })
    }

    /// A table of `slots` slots with every entry of this one, and the slots they fill.
    fn grown(&self, slots: usize, hash: impl Fn([B; 2]) -> u64) -> (Self, usize) {
        let bigger = Table::new(slots);
        let mut used = 0;
        for (stones, known) in self.entries() {
            used += bigger.update(stones, hash(stones), |_| known) as usize;
        }
        (bigger, used)
    }
}

/// The table every thread of a solve shares. It starts small and grows while the threads
/// search on: the thread that finds it three quarters full builds a table four times larger
/// (within the cap) with every entry, and the threads move to it at their next check
/// ([`Solver::count_node`]). What they store in the old table meanwhile is lost, which costs
/// only a repeated search. The old tables are kept until the solve ends (a third more memory
/// at most), since a thread may still be reading one.
struct SharedTable<B: Bits> {
    /// The latest table, one of `tables`.
    latest: AtomicPtr<Table<B>>,
    /// Boxed, so that `latest` stays valid when the vector grows.
    #[allow(clippy::vec_box)]
    tables: Mutex<Vec<Box<Table<B>>>>,
    /// Slots of the latest table in use (as last counted by the threads), and the most slots
    /// the memory cap allows.
    used: AtomicUsize,
    cap: usize,
    /// A thread is building the next table.
    growing: AtomicBool,
}

impl<B: Bits> SharedTable<B> {
    fn new(slots: usize, cap: usize) -> Self {
        let first = Box::new(Table::new(slots.min(cap)));
        SharedTable {
            latest: AtomicPtr::new(std::ptr::from_ref(&*first).cast_mut()),
            tables: Mutex::new(vec![first]),
            used: AtomicUsize::new(0),
            cap,
            growing: AtomicBool::new(false),
        }
    }

    fn latest(&self) -> &Table<B> {
        // SAFETY: `latest` points into a box of `tables`, which is never dropped or emptied
        // before `self`; a box's contents stay put when the vector moves it.
        unsafe { &*self.latest.load(Acquire) }
    }

    /// Whether three quarters of the latest table's slots are in use and the cap allows more.
    fn wants_to_grow(&self) -> bool {
        let slots = self.latest().slots();
        4 * self.used.load(Relaxed) > 3 * slots && slots < self.cap
    }

    /// Builds the next table, unless another thread is building it.
    fn grow(&self, hash: impl Fn([B; 2]) -> u64) {
        if self.growing.swap(true, Acquire) {
            return;
        }
        if self.wants_to_grow() {
            let old = self.latest();
            let (bigger, used) = old.grown((old.slots() * 4).min(self.cap), hash);
            let bigger = Box::new(bigger);
            let latest = std::ptr::from_ref(&*bigger).cast_mut();
            self.tables
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(bigger);
            self.used.store(used, Relaxed);
            self.latest.store(latest, Release);
        }
        self.growing.store(false, Release);
    }
}

/// What every thread of a solve shares.
struct Shared<'a, B: Bits> {
    game: &'a QuantumLeap<B>,
    zobrist: Box<[[u64; 2]; MAX_CELLS]>,
    /// `reach[c][b]`: cells within `b` steps of `c` along the six lines (b = 0..=6).
    reach: Vec<[B; 7]>,
    table: SharedTable<B>,
    /// Each thread's own table for the positions of at most `distant_stones` stones, far from
    /// the root: they are many and quick to search again, so they are kept in a table small
    /// enough to stay in the thread's cache, and out of the shared table's way.
    distant: Vec<Table<B>>,
    distant_stones: u32,
    /// Region classes by shape (any translation, rotation or reflection).
    regions: Mutex<FxHashMap<Vec<u16>, RegionValue>>,
    /// Bytes the region caches may still take.
    region_budget: AtomicUsize,
    /// Nodes searched by every thread (each adds its count now and then).
    nodes: AtomicU64,
    budget: Budget<'a>,
    /// Threads of the pool the solve runs in: with more than one, the search forks.
    threads: usize,
}

impl<'a, B: Bits> Shared<'a, B> {
    /// The shared state of a solve from a position of `root_stones` stones.
    fn new(
        game: &'a QuantumLeap<B>,
        root_stones: u32,
        limits: Limits,
        threads: usize,
        cancel: &'a AtomicBool,
    ) -> Self {
        let board = &*game.board;
        let mut zobrist = Box::new([[0; 2]; MAX_CELLS]);
        for (c, keys) in zobrist.iter_mut().enumerate().take(board.cells) {
            *keys = [splitmix(2 * c as u64 + 1), splitmix(2 * c as u64 + 2)];
        }
        let reach = (0..board.cells)
            .map(|c| {
                let mut r = [B::EMPTY; 7];
                for b in 1..=6 {
                    r[b] = r[b - 1];
                    for d in 0..6 {
                        let t = board.jump[c][d][b - 1];
                        if t != OFF {
                            r[b] |= B::cell(t as usize);
                        }
                    }
                }
                r
            })
            .collect();
        // Half the memory for the tables, half for the region caches. Each thread's table of
        // distant positions takes its share, at most `DISTANT_BYTES`; the shared table the rest.
        let bytes = limits.memory_mb.max(1) << 20;
        let slot = 8 * Table::<B>::WORDS;
        let distant_slots = 1
            << (DISTANT_BYTES.min(bytes / 4 / threads) / slot)
                .max(64)
                .ilog2();
        let shared_bytes = (bytes / 2).saturating_sub(threads * distant_slots * slot);
        // The largest table and the smaller ones it grew from (a third of it) within that.
        let cap = (shared_bytes / slot * 3 / 4).max(1024).next_power_of_two() / 2;
        Shared {
            game,
            zobrist,
            reach,
            table: SharedTable::new(1 << 14, cap),
            distant: (0..threads).map(|_| Table::new(distant_slots)).collect(),
            distant_stones: root_stones
                .saturating_sub(DISTANT_PLIES)
                .min(DISTANT_STONES),
            regions: Mutex::new(FxHashMap::default()),
            region_budget: AtomicUsize::new(bytes / 2),
            nodes: AtomicU64::new(0),
            budget: Budget::new("quantum_leap solver", limits, cancel),
            threads,
        }
    }

    fn hash(&self, stones: [B; 2]) -> u64 {
        zobrist_hash(&self.zobrist, stones)
    }

    /// Takes `bytes` from the region caches' budget, if it has them.
    fn take_region_bytes(&self, bytes: usize) -> bool {
        self.region_budget
            .fetch_update(Relaxed, Relaxed, |left| left.checked_sub(bytes))
            .is_ok()
    }

    /// Runs `search`, its halt made the solve's error.
    fn run<T>(&self, search: impl FnOnce(&Self) -> Searched<T>) -> Result<T> {
        match search(self) {
            Ok(answer) => Ok(answer),
            Err(Halt::Error(e)) => Err(e),
            Err(Halt::Stopped) => unreachable!("only a fork stops a search, and it is inside"),
        }
    }
}

/// Why a search ended without its answer.
enum Halt {
    /// A limit, or the cancel flag: the solve ends with this error.
    Error(Error),
    /// A sibling's search already decided the fork this search was working for.
    Stopped,
}

impl From<Error> for Halt {
    fn from(e: Error) -> Self {
        Halt::Error(e)
    }
}

type Searched<T> = std::result::Result<T, Halt>;

/// A node whose captures (after the first) are searched by several threads at once. The
/// captures are taken in order; once capture `found` wins, the later ones are not needed.
struct Fork {
    found: AtomicUsize,
    /// A thread met an error: the fork's answer is not needed any more.
    failed: AtomicBool,
}

impl Fork {
    /// Whether capture `index` of the fork is no longer needed.
    fn decided_before(&self, index: usize) -> bool {
        self.failed.load(Relaxed) || self.found.load(Relaxed) < index
    }
}

/// Forks happen only this close to the root, and only with this many stones or more: below,
/// a subtree is too small to be worth sharing out. (Since the captures that prevent a
/// failed capture's refutation go next, 4 plies measure better than 6: benches/README.md.)
const FORK_PLIES: u32 = 4;
const FORK_STONES: u32 = 20;

/// With this many stones or more, the capture counts of the children follow from the parent's
/// ([`QuantumLeap::captures_after`]); with fewer, a recount is as quick.
const COUNTS_STONES: u32 = 20;

/// Positions this many captures or more from the root, and of at most `DISTANT_STONES`
/// stones, go to the thread's own table (`Shared::distant`), of at most `DISTANT_BYTES`. Larger
/// positions are costly to search again whatever the root: from a 42-stone root, keeping 30-32
/// stones in the shared table took 10% less time than ten captures alone (benches/README.md).
const DISTANT_PLIES: u32 = 10;
const DISTANT_STONES: u32 = 29;
const DISTANT_BYTES: usize = 1 << 20;
/// Positions at most this many captures from the start are split into regions; deeper ones
/// are searched whole (why: the module doc, "Sums of games").
const SPLIT_PLIES: u32 = 1;

/// In the first [`RECAPTURE_PLIES`] plies (the root has no move before it, so this is the
/// replies to the root's captures), a capture that takes the stone the opponent has just moved
/// is ranked as if it left this many replies fewer (at least one). Each root capture that
/// fails must be refuted there, and taking back the stone that moved is often the cheapest
/// refutation: on the bench's 42-stone positions (two threads) the median went from 12.1 s
/// to 8.8 s, and on six other sets of 38 to 42 stones the nodes changed by -13% to +5%
/// (benches/README.md). At every ply it measured worse, with 1, 2 or 3 replies.
const RECAPTURE_BONUS: u32 = 2;
const RECAPTURE_PLIES: u32 = 2;

/// The reply count by which a capture is ordered: `replies` (at least one), fewer for a
/// recapture near the root ([`RECAPTURE_BONUS`]).
fn ranked_replies(replies: u32, recapture: bool, ply: u32) -> u32 {
    if recapture && ply < RECAPTURE_PLIES {
        replies.saturating_sub(RECAPTURE_BONUS).max(1)
    } else {
        replies
    }
}

/// No killer moves yet.
const NO_KILLERS: [(usize, usize); 2] = [(usize::MAX, usize::MAX); 2];

/// A capture in move ordering.
#[derive(Clone, Copy)]
struct Capture {
    /// The place in move ordering, lowest first: from the high bits, the opponent's replies
    /// after it ([`REPLIES_KNOWN_WON`] when the table knows the child won for the opponent),
    /// its killer rank (0, 1, or 2 for none), our captures after it counted down, and its
    /// history counted down.
    order: u64,
    /// The Zobrist key of the position after it.
    hash: u64,
    from: usize,
    to: usize,
}

impl Capture {
    /// The capture as the cells it jumps from and lands on (its direction is found only for
    /// the answer at the root).
    fn jump(&self) -> Option<(usize, usize)> {
        Some((self.from, self.to))
    }
}

/// The reply count that sends a capture last: the table knows it loses.
const REPLIES_KNOWN_WON: u64 = 0xFFFF;

/// The most a history entry holds (36 bits of [`Capture::order`]); past it, every entry is
/// halved.
const HISTORY_MAX: u64 = (1 << 36) - 1;

/// [`Capture::order`] from its parts (our captures in 10 bits, saturating at 1023: at most
/// six per stone).
fn capture_order(replies: u64, killer: u64, ours: u32, history: u64) -> u64 {
    const OURS_MAX: u32 = (1 << 10) - 1;
    replies << 48
        | killer << 46
        | u64::from(OURS_MAX - ours.min(OURS_MAX)) << 36
        | (HISTORY_MAX - history.min(HISTORY_MAX))
}

/// What a refutation adds to the history: 2^(stones / 3), up to 2^20. A refutation with
/// more stones on the board cut off a larger tree, roughly twice as large for every one or
/// two stones more (benches/README.md), and says more about the moves that follow.
fn refutation_weight(stones: u32) -> u64 {
    1 << (stones / 3).min(20)
}

/// One thread's search: its own move-ordering history and cache of placed regions, and the
/// forks it works under.
struct Solver<'s, 'a, B: Bits> {
    shared: &'s Shared<'a, B>,
    game: &'a QuantumLeap<B>,
    table: &'s Table<B>,
    /// Slots of the shared table this thread filled since it last added them to its count.
    filled: usize,
    /// This thread's table of distant positions.
    distant: &'s Table<B>,
    /// Region classes by the exact stones, which is cheaper to look up than by shape.
    placed: FxHashMap<[B; 2], RegionValue>,
    /// This thread's nodes, added to `shared.nodes` now and then.
    meter: Meter<'s>,
    /// Cut-offs per (from, to) capture, each weighed by its stones ([`refutation_weight`]),
    /// to break ties in move ordering (history heuristic).
    history: Vec<u64>,
    /// Per ply, the last two captures (from, to) that refuted there, the latest first.
    killers: Vec<[(usize, usize); 2]>,
    /// Moves from the position the solve started from.
    ply: u32,
    /// The capture that won the position last searched (none when the table or the spare
    /// moves decided it, or when it was lost).
    refutation: Option<(usize, usize)>,
    /// The capture counts of the position whose captures are being ordered, written over by
    /// the next: they are done with before any child is searched.
    counts: CaptureCounts<B>,
    /// The forks this thread works under, with the index of its capture in each.
    forks: Vec<(&'s Fork, usize)>,
    /// The cell the opponent's last capture landed on (`OFF` at the root and after a spare
    /// move): taking that stone is a recapture ([`RECAPTURE_BONUS`]).
    moved_to: usize,
}

/// The Zobrist key of `stones` (the same for every integer part).
fn zobrist_hash<B: Bits>(zobrist: &[[u64; 2]; MAX_CELLS], stones: [B; 2]) -> u64 {
    let mut h = 0;
    for side in 0..2 {
        for c in stones[side].cells() {
            h ^= zobrist[c][side];
        }
    }
    h
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<'s, 'a, B: Bits> Solver<'s, 'a, B> {
    fn new(shared: &'s Shared<'a, B>) -> Self {
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

    fn hash(&self, stones: [B; 2]) -> u64 {
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
    fn count_node(&mut self) -> Searched<()> {
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
    fn stopped(&self) -> bool {
        self.forks.iter().any(|(fork, i)| fork.decided_before(*i))
    }

    /// Whether `side` to move wins the position plus `tempo`: an integer game worth `tempo`
    /// moves for White (negative: for Black), standing for regions in which only one colour
    /// can ever move.
    fn wins(&mut self, stones: [B; 2], side: u8, hash: u64, tempo: i32) -> Searched<bool> {
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
    fn search(
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

    /// Counts a cut-off by `capture` with `stones` on the board in the history, and makes it
    /// the first killer of its ply.
    fn refuted(&mut self, capture: &Capture, stones: u32) {
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

    /// `wins` for a child, one ply further from the root, whose last capture landed on
    /// `moved_to` (`OFF` for a spare move).
    fn wins_child(
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

    /// Searches `moves` of `side` on all the threads, in order: the index of the first that
    /// wins, if one does. Each thread takes the next capture not yet taken; captures after one
    /// found winning are dropped, and their searches stopped.
    fn fork(
        &mut self,
        stones: [B; 2],
        side: u8,
        tempo: i32,
        moves: &[Capture],
    ) -> Searched<Option<usize>> {
        let fork = Fork {
            found: AtomicUsize::new(usize::MAX),
            failed: AtomicBool::new(false),
        };
        let next = AtomicUsize::new(0);
        let first_halt: Mutex<Option<Halt>> = Mutex::new(None);
        let (shared, history, killers) = (self.shared, &self.history, &self.killers);
        let (forks, ply) = (&self.forks, self.ply);
        rayon::scope(|scope| {
            for _ in 0..shared.threads.min(moves.len()) {
                scope.spawn(|_| {
                    let mut solver = Solver::new(shared);
                    solver.history.clone_from(history);
                    solver.killers.clone_from(killers);
                    solver.ply = ply + 1;
                    solver.forks = forks.clone();
                    solver.forks.push((&fork, 0));
                    loop {
                        let i = next.fetch_add(1, Relaxed);
                        if i >= moves.len() || fork.decided_before(i) {
                            break;
                        }
                        solver.forks.last_mut().expect("pushed above").1 = i;
                        let Capture { hash, from, to, .. } = moves[i];
                        let child = after_capture(stones, side, from, to);
                        solver.moved_to = to;
                        match solver.wins(child, 1 - side, hash, tempo) {
                            Ok(true) => {}
                            Ok(false) => {
                                fork.found.fetch_min(i, Relaxed);
                            }
                            // Stopped by this fork (a capture before it won) or by one above,
                            // which the caller finds out below.
                            Err(Halt::Stopped) => break,
                            Err(halt) => {
                                fork.failed.store(true, Relaxed);
                                let mut first =
                                    first_halt.lock().unwrap_or_else(|e| e.into_inner());
                                first.get_or_insert(halt);
                                break;
                            }
                        }
                    }
                });
            }
        });
        if let Some(halt) = first_halt.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(halt);
        }
        if self.stopped() {
            return Err(Halt::Stopped);
        }
        let found = fork.found.into_inner();
        Ok((found != usize::MAX).then_some(found))
    }

    /// The independent regions of the occupied cells (see the module notes), lowest first.
    ///
    /// Cell `c` can jump at most `bound(c)` = min(its occupied neighbours, the larger stone count
    /// − 1) cells, so `c` and `v` interact when they are neighbours or lie on a line within
    /// `max(bound(c), bound(v))` of each other. Distance along a line is symmetric, so grouping
    /// the occupied cells by bound gives every link of `c` from the `reach` table alone.
    fn split(&self, stones: [B; 2]) -> SmallVec<[B; 8]> {
        let board = &*self.game.board;
        let occupied = stones[0] | stones[1];
        if occupied.is_empty() {
            return SmallVec::new();
        }
        // Stones connected through neighbours alone are one region: a cheap first test.
        let mut region = B::cell(occupied.lowest());
        let mut frontier = region;
        while !frontier.is_empty() {
            let c = frontier.lowest();
            frontier ^= B::cell(c);
            let new = board.neighbours[c] & occupied & !region;
            region |= new;
            frontier |= new;
        }
        if region == occupied {
            return SmallVec::from_elem(occupied, 1);
        }
        let most = stones[0].count().max(stones[1].count()) as usize;
        let cap = most.saturating_sub(1).min(6);
        let mut bound = [0u8; 128];
        let mut by_bound = [B::EMPTY; 7];
        for c in occupied.cells() {
            let b = ((board.neighbours[c] & occupied).count() as usize).min(cap);
            bound[c] = b as u8;
            by_bound[b] |= B::cell(c);
        }
        let reach = &self.shared.reach;
        let links = |c: usize| -> B {
            let own = bound[c] as usize;
            let mut out = board.neighbours[c] | reach[c][own];
            for b in own + 1..=cap {
                out |= reach[c][b] & by_bound[b];
            }
            out & occupied
        };
        let mut regions = SmallVec::new();
        let mut left = occupied;
        while !left.is_empty() {
            let seed = B::cell(left.lowest());
            let mut region = seed;
            let mut frontier = seed;
            while !frontier.is_empty() {
                let c = frontier.lowest();
                frontier ^= B::cell(c);
                let new = links(c) & !region;
                region |= new;
                frontier |= new;
            }
            left &= !region;
            regions.push(region);
        }
        regions
    }

    /// The outcome class of a region played alone, cached by its shape.
    fn class(&mut self, part: [B; 2]) -> Searched<RegionValue> {
        if let Some(&c) = self.placed.get(&part) {
            return Ok(c);
        }
        let key = self.shape_key(part);
        let known = self
            .shared
            .regions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .copied();
        if let Some(c) = known {
            self.remember(part, c);
            return Ok(c);
        }
        let h = self.hash(part);
        let white_first = self.wins(part, WHITE, h, 0)?;
        let black_first = self.wins(part, BLACK, h, 0)?;
        let class = match (white_first, black_first) {
            (true, false) => Class::White,
            (false, true) => Class::Black,
            (true, true) => Class::First,
            (false, false) => Class::Second,
        };
        let integer = match class {
            Class::White => self.one_sided(part, WHITE).map(|n| n as i32),
            Class::Black => self.one_sided(part, BLACK).map(|n| -(n as i32)),
            _ => None,
        };
        let value = (class, integer);
        if self.shared.take_region_bytes(key.len() * 2 + 64) {
            let mut regions = self
                .shared
                .regions
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            regions.insert(key, value);
        }
        self.remember(part, value);
        Ok(value)
    }

    /// If the opponent of `side` can never capture in this region, whatever `side` plays, the
    /// region is the integer game worth the longest run of `side`'s captures: that length.
    /// `None` if the opponent might, or if the longest run takes too long to find.
    fn one_sided(&self, part: [B; 2], side: u8) -> Option<u32> {
        fn longest<B: Bits>(
            game: &QuantumLeap<B>,
            stones: [B; 2],
            side: u8,
            memo: &mut FxHashMap<[B; 2], u32>,
            budget: &mut u32,
        ) -> Option<u32> {
            if let Some(&n) = memo.get(&stones) {
                return Some(n);
            }
            *budget = budget.checked_sub(1)?;
            debug_assert!(!game.can_capture(stones, 1 - side));
            let mut moves: SmallVec<[(usize, usize); 48]> = SmallVec::new();
            game.for_each_capture(stones, side, |from, _, to| moves.push((from, to)));
            // Every capture takes one of the opponent's stones: no run is longer than that.
            let most = stones[1 - side as usize].count();
            let mut best = 0;
            for (from, to) in moves {
                let child = after_capture(stones, side, from, to);
                best = best.max(1 + longest(game, child, side, memo, budget)?);
                if best == most {
                    break;
                }
            }
            memo.insert(stones, best);
            Some(best)
        }
        // The opponent's stones never move here and their friends only get fewer: a stone with
        // no friendly neighbour now never captures. (A stone with one might, once White takes
        // the ground around it; finding out would cost a search, so such regions are left to
        // the general search.)
        let board = &*self.game.board;
        let theirs = part[1 - side as usize];
        if theirs
            .cells()
            .any(|c| !(board.neighbours[c] & theirs).is_empty())
        {
            return None;
        }
        let mut budget = 4096;
        longest(
            self.game,
            part,
            side,
            &mut FxHashMap::default(),
            &mut budget,
        )
    }

    fn remember(&mut self, part: [B; 2], value: RegionValue) {
        if self
            .shared
            .take_region_bytes(2 * std::mem::size_of::<B>() + 24)
        {
            self.placed.insert(part, value);
        }
    }

    /// A key for the stones of a region that is the same for every translation, rotation and
    /// reflection of it: the smallest of its 12 images, each moved to the origin and sorted.
    fn shape_key(&self, part: [B; 2]) -> Vec<u16> {
        let coords = &self.game.board.coords;
        let stones: Vec<(i8, i8, u16)> = (0..2)
            .flat_map(|side| part[side].cells().map(move |c| (c, side as u16)))
            .map(|(c, side)| (coords[c].0, coords[c].1, side))
            .collect();
        let mut best: Option<Vec<u16>> = None;
        for image in 0..12 {
            let moved: Vec<(i8, i8, u16)> = stones
                .iter()
                .map(|&(q, r, side)| {
                    let (mut q, mut r) = if image >= 6 { (r, q) } else { (q, r) };
                    for _ in 0..image % 6 {
                        (q, r) = (-r, q + r);
                    }
                    (q, r, side)
                })
                .collect();
            let min_q = moved.iter().map(|m| m.0).min().unwrap_or(0);
            let min_r = moved.iter().map(|m| m.1).min().unwrap_or(0);
            let mut key: Vec<u16> = moved
                .iter()
                .map(|&(q, r, side)| {
                    (((q - min_q) as u16) << 7) | (((r - min_r) as u16) << 1) | side
                })
                .collect();
            key.sort_unstable();
            if best.as_ref().is_none_or(|b| key < *b) {
                best = Some(key);
            }
        }
        best.unwrap_or_default()
    }
}

fn decision_error() -> Error {
    Error::NotApplicable(
        "quantum_leap: the solver needs a decision (White or Black to move, or Black's swap), \
         not a chance node or a finished game"
            .into(),
    )
}

/// Runs `work` with the number of threads it may use: `threads`, or every core for `None`.
/// One thread needs no pool.
fn in_threads<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce(usize) -> Result<T> + Send,
) -> Result<T> {
    match threads {
        Some(1) => work(1),
        _ => in_pool(threads, || work(rayon::current_num_threads()))?,
    }
}

/// Solves a decision node: whether the player to act wins, and a winning action. `threads`
/// (`None`: every core) changes only the time and the node count, never the answer.
pub fn solve<B: Bits>(
    game: &QuantumLeap<B>,
    state: &QuantumLeapState<B>,
    limits: Limits,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<Solution> {
    if matches!(state.phase, Phase::Deal | Phase::Move { over: true, .. }) {
        return Err(decision_error());
    }
    in_threads(threads, |threads| {
        let shared = Shared::new(game, on_board(state.stones), limits, threads, cancel);
        let (win, best_action) = shared.run(|shared| {
            let mut solver = Solver::new(shared);
            solver.count_node()?;
            match state.phase {
                Phase::Move { side, .. } => {
                    let h = solver.hash(state.stones);
                    let (win, capture) = solver.search(state.stones, side, h, 0)?;
                    let action = capture
                        .map(|(from, to)| (from * 6 + game.board.direction(from, to)) as Action);
                    Ok((win, action))
                }
                Phase::Swap => {
                    // Black wins if some swap (or none) leaves White, to move, lost.
                    let mut actions = Vec::new();
                    game.legal_actions(state, &mut actions);
                    let mut result = (false, actions.first().copied());
                    // Swaps that leave White the fewest captures first.
                    let mut children: Vec<(u32, Action, QuantumLeapState<B>)> = actions
                        .iter()
                        .map(|&a| {
                            let mut child = *state;
                            game.apply(&mut child, a);
                            (game.count_captures(child.stones, WHITE), a, child)
                        })
                        .collect();
                    children.sort_by_key(|c| c.0);
                    for (_, a, child) in children {
                        let h = solver.hash(child.stones);
                        // A swap moves no stone by a capture: nothing to recapture.
                        if !solver.wins_child(child.stones, WHITE, h, 0, OFF as usize)? {
                            result = (true, Some(a));
                            break;
                        }
                    }
                    Ok(result)
                }
                Phase::Deal => unreachable!("checked above"),
            }
        })?;
        Ok(Solution {
            win,
            best_action,
            nodes: shared.nodes.into_inner(),
            seconds: shared.budget.seconds(),
        })
    })
}

/// Every legal action of a decision node with whether it wins for the player who takes it,
/// and the nodes searched.
pub fn analyze<B: Bits>(
    game: &QuantumLeap<B>,
    state: &QuantumLeapState<B>,
    limits: Limits,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<(Vec<(Action, bool)>, u64)> {
    if matches!(state.phase, Phase::Deal | Phase::Move { over: true, .. }) {
        return Err(decision_error());
    }
    in_threads(threads, |threads| {
        let shared = Shared::new(game, on_board(state.stones), limits, threads, cancel);
        let values = shared.run(|shared| {
            let mut solver = Solver::new(shared);
            let mut actions = Vec::new();
            game.legal_actions(state, &mut actions);
            let mut values = Vec::with_capacity(actions.len());
            for a in actions {
                let mut child = *state;
                game.apply(&mut child, a);
                let Phase::Move { side, .. } = child.phase else {
                    unreachable!("a decision leads to a move")
                };
                let h = solver.hash(child.stones);
                // The cell a capture landed on, as in the solve's replies to it.
                let moved_to = match state.phase {
                    Phase::Move { side: mover, .. } => {
                        let m = mover as usize;
                        (child.stones[m] & !state.stones[m]).cells().next()
                    }
                    _ => None,
                };
                let moved_to = moved_to.unwrap_or(OFF as usize);
                values.push((a, !solver.wins_child(child.stones, side, h, 0, moved_to)?));
            }
            Ok(values)
        })?;
        Ok((values, shared.nodes.into_inner()))
    })
}

/// Calls `$f(game, state, limits, threads, cancel)` with the game and state behind `$state`
/// at whichever bitboard width the game was made with.
macro_rules! at_either_width {
    ($f:ident, $state:expr, $($arg:expr),*) => {{
        let any = $state.as_any();
        if let Some(p) = any.downcast_ref::<Position<QuantumLeap<u64>>>() {
            $f(&p.game.0, &p.state, $($arg),*)
        } else if let Some(p) = any.downcast_ref::<Position<QuantumLeap<u128>>>() {
            $f(&p.game.0, &p.state, $($arg),*)
        } else {
            Err(not_quantum_leap($state))
        }
    }};
}

/// `solve` for a state of either bitboard width, as the bindings hold it.
pub fn solve_dyn(
    state: &dyn DynState,
    limits: Limits,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<Solution> {
    at_either_width!(solve, state, limits, threads, cancel)
}

/// `analyze` for a state of either bitboard width, as the bindings hold it.
pub fn analyze_dyn(
    state: &dyn DynState,
    limits: Limits,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<(Vec<(Action, bool)>, u64)> {
    at_either_width!(analyze, state, limits, threads, cancel)
}

fn not_quantum_leap(state: &dyn DynState) -> Error {
    Error::NotApplicable(format!(
        "the quantum_leap solver got a {} state",
        state.game().name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{OptionValue, Options};

    fn game(side: i64) -> QuantumLeap<u64> {
        let mut options = Options::new();
        options.insert("size".into(), OptionValue::Int(side));
        QuantumLeap::from_options(&options).unwrap()
    }

    /// Every entry of the table with at least `stones` stones agrees with a fresh search.
    fn assert_table_true<B: Bits>(game: &QuantumLeap<B>, table: &Table<B>, stones: u32) {
        let cancel = AtomicBool::new(false);
        let fresh = Shared::new(game, stones, Limits::default(), 1, &cancel);
        for (position, known) in table.entries() {
            if on_board(position) < stones {
                continue;
            }
            for side in [WHITE, BLACK] {
                let s = side as usize;
                let h = fresh.hash(position);
                for (tempo, white_wins) in [
                    (known.white_wins_from[s], true),
                    (known.black_wins_to[s], false),
                ] {
                    if tempo == i16::MAX || tempo == i16::MIN {
                        continue;
                    }
                    let mut solver = Solver::new(&fresh);
                    let win = solver.wins(position, side, h, tempo.into());
                    assert!(
                        matches!(win, Ok(w) if w == (white_wins == (side == WHITE))),
                        "a stored value is wrong"
                    );
                }
            }
        }
    }

    #[test]
    fn a_search_whose_fork_above_is_decided_stops_and_stores_only_truths() {
        // A search whose work a fork above no longer needs must end with `Stopped`, and the
        // forks inside it must not pass off their cut-short answers as values.
        let game = game(5);
        let cancel = AtomicBool::new(false);
        let mut checked = 0;
        for line in include_str!("../../../../benches/data/quantum_leap_side5_38.txt").lines() {
            let state = game.from_notation(line).unwrap();
            let Phase::Move { side, .. } = state.phase else {
                unreachable!("the positions have a player to move")
            };
            let shared = in_pool(Some(2), || {
                let shared = Shared::new(&game, 38, Limits::default(), 2, &cancel);
                let decided = Fork {
                    found: AtomicUsize::new(0),
                    failed: AtomicBool::new(false),
                };
                let mut solver = Solver::new(&shared);
                solver.forks.push((&decided, 1));
                let h = shared.hash(state.stones);
                let outcome = solver.search(state.stones, side, h, 0);
                assert!(matches!(outcome, Err(Halt::Stopped)), "{line}");
                drop(solver);
                shared
            })
            .unwrap();
            assert_table_true(&game, shared.table.latest(), 30);
            for distant in &shared.distant {
                assert_table_true(&game, distant, 26);
            }
            checked += 1;
            if checked == 6 {
                break;
            }
        }
    }

    #[test]
    fn positions_one_capture_from_the_start_are_split_into_classed_regions() {
        // Scattered stones make sums of regions. The start is searched whole, and the
        // positions one capture from it are split: their smaller regions get classed.
        use crate::game::row_rng;
        use rand::Rng;
        let game = game(5);
        let cancel = AtomicBool::new(false);
        let mut classed = 0;
        for seed in 0..300u64 {
            let mut rng = row_rng(seed, 5);
            let mut stones = [0u64; 2];
            for _ in 0..3 {
                let centre = rng.random_range(0..game.board.cells);
                let near = game.board.neighbours[centre] | 1 << centre;
                for c in near.cells() {
                    if rng.random_range(0..2) == 0 && !(stones[0] | stones[1]).has(c) {
                        stones[rng.random_range(0..2usize)] |= 1 << c;
                    }
                }
            }
            let side = (seed % 2) as u8;
            if !game.can_capture(stones, side) {
                continue;
            }
            let shared = Shared::new(&game, on_board(stones), Limits::default(), 1, &cancel);
            let mut solver = Solver::new(&shared);
            let h = shared.hash(stones);
            assert!(solver.search(stones, side, h, 0).is_ok());
            classed += usize::from(!solver.placed.is_empty());
        }
        assert!(
            classed > 10,
            "only {classed} sums were split into classed regions"
        );
    }

    #[test]
    fn a_recapture_in_the_replies_to_the_root_counts_two_replies_fewer_but_never_none() {
        // One ply below the root: a capture that takes the stone just moved.
        assert_eq!(ranked_replies(5, true, 1), 3);
        assert_eq!(ranked_replies(2, true, 1), 1);
        assert_eq!(ranked_replies(1, true, 1), 1);
        // Not a recapture, or deeper than the replies to the root's captures.
        assert_eq!(ranked_replies(5, false, 1), 5);
        assert_eq!(ranked_replies(5, true, RECAPTURE_PLIES), 5);
        // So a recapture leaving 5 replies goes before a capture leaving 4, with any tie-break.
        let recapture = capture_order(ranked_replies(5, true, 1).into(), 2, 0, 0);
        assert!(recapture < capture_order(4, 0, u32::MAX, u64::MAX));
    }

    #[test]
    fn one_ply_below_the_root_the_search_tries_the_recapture_of_the_stone_just_moved_first() {
        // White's root capture has just landed on b3. Black wins by retaking it (e2xb3) and
        // by b1xc2, which leaves White fewer replies: the search returns the first winning
        // capture it tries, so it names the recapture only when it knows the stone moved.
        let game = game(4);
        let cancel = AtomicBool::new(false);
        let state = game
            .from_notation("..wb/b.w../bww.wb/bb..w.w/bb.bw./wbbw./w..w b")
            .unwrap();
        let cell = |name: &str| game.board.parse(name).unwrap();
        let first_win = |moved_to: usize| {
            let shared = Shared::new(&game, on_board(state.stones), Limits::default(), 1, &cancel);
            let mut solver = Solver::new(&shared);
            solver.ply = 1;
            solver.moved_to = moved_to;
            let h = shared.hash(state.stones);
            solver.search(state.stones, BLACK, h, 0).ok().unwrap()
        };
        assert_eq!(
            first_win(cell("b3")),
            (true, Some((cell("e2"), cell("b3"))))
        );
        assert_eq!(
            first_win(OFF as usize),
            (true, Some((cell("b1"), cell("c2"))))
        );
    }

    #[test]
    fn captures_are_ordered_by_replies_then_killer_then_own_captures_then_history() {
        // Each part outranks everything below it, whatever their values.
        let (most_ours, most_history) = (u32::MAX, u64::MAX);
        assert!(capture_order(1, 2, 0, 0) < capture_order(2, 0, most_ours, most_history));
        assert!(capture_order(3, 0, 0, 0) < capture_order(3, 1, most_ours, most_history));
        assert!(capture_order(3, 1, 5, 0) < capture_order(3, 1, 4, most_history));
        assert!(capture_order(3, 1, 5, 9) < capture_order(3, 1, 5, 8));
        // A child known won for the opponent goes after any reply count.
        assert!(capture_order(400, 2, 0, 0) < capture_order(REPLIES_KNOWN_WON, 0, most_ours, 0));
    }

    /// A capture named only by its cells, as the killers and the history know it.
    fn capture(from: usize, to: usize) -> Capture {
        Capture {
            order: 0,
            hash: 0,
            from,
            to,
        }
    }

    #[test]
    fn the_killers_of_a_ply_are_its_last_two_distinct_refutations_latest_first() {
        let game = game(3);
        let cancel = AtomicBool::new(false);
        let shared = Shared::new(&game, 10, Limits::default(), 1, &cancel);
        let mut solver = Solver::new(&shared);
        solver.ply = 3;
        solver.refuted(&capture(1, 2), 10);
        solver.refuted(&capture(4, 5), 10);
        assert_eq!(solver.killers[3], [(4, 5), (1, 2)]);
        // Refuting again with the first killer keeps the second.
        solver.refuted(&capture(4, 5), 10);
        assert_eq!(solver.killers[3], [(4, 5), (1, 2)]);
        solver.refuted(&capture(1, 2), 10);
        assert_eq!(solver.killers[3], [(1, 2), (4, 5)]);
        solver.refuted(&capture(7, 8), 10);
        assert_eq!(solver.killers[3], [(7, 8), (1, 2)]);
        // Other plies keep their own.
        assert_eq!(solver.killers[0], NO_KILLERS);
    }

    #[test]
    fn a_refutation_with_more_stones_weighs_more_and_a_full_history_is_halved_in_order() {
        let game = game(3);
        let cancel = AtomicBool::new(false);
        let shared = Shared::new(&game, 10, Limits::default(), 1, &cancel);
        let mut solver = Solver::new(&shared);
        let cells = game.board.cells;
        let history =
            |solver: &Solver<u64>, from: usize, to: usize| solver.history[from * cells + to];
        // One refutation with 12 stones outweighs seven with 3 stones.
        solver.refuted(&capture(1, 2), 12);
        for _ in 0..7 {
            solver.refuted(&capture(4, 5), 3);
        }
        assert!(history(&solver, 1, 2) > history(&solver, 4, 5));
        // Past the most an entry holds, every entry is halved and the order stays.
        solver.history[cells + 2] = HISTORY_MAX;
        solver.refuted(&capture(1, 2), 3);
        assert!(history(&solver, 1, 2) <= HISTORY_MAX);
        assert!(history(&solver, 1, 2) > history(&solver, 4, 5));
        assert_eq!(history(&solver, 4, 5), 7 * refutation_weight(3) / 2);
    }

    #[test]
    fn what_is_known_fits_one_word_and_nothing_is_zero() {
        assert_eq!(Known::NOTHING.word(), 0);
        let known = Known::NOTHING
            .with(WHITE, -3, true)
            .with(BLACK, 7, true)
            .with(WHITE, -9, false);
        assert_eq!(Known::from_word(known.word()), known);
        assert_eq!(known.says(WHITE, -3), Some(true));
        assert_eq!(known.says(WHITE, -4), None);
        assert_eq!(known.says(WHITE, -9), Some(false));
        // Black to move wins with 7 moves of the integer part White's, so with fewer too.
        assert_eq!(known.says(BLACK, 6), Some(true));
        assert_eq!(known.says(BLACK, 8), None);
    }

    /// Stones on both halves of a wide board, and on a narrow one.
    fn wide() -> [u128; 2] {
        [1 | 1 << 70 | 1 << 126, 1 << 3 | 1 << 64 | 1 << 100]
    }

    #[test]
    fn a_slot_keeps_every_stone_of_either_width_and_tells_other_stones_apart() {
        let table = Table::<u128>::new(64);
        let stones = wide();
        assert!(table.store(stones, WHITE, 5, 0, true));
        assert_eq!(table.probe(stones, WHITE, 5, 0), Some(true));
        assert_eq!(table.probe(stones, BLACK, 5, 0), None);
        let other = [stones[0] ^ 1 << 126, stones[1]];
        assert_eq!(table.probe(other, WHITE, 5, 0), None);
        // Black's stones past the 64th cell only.
        let black_high = [stones[0], stones[1] ^ 1 << 100];
        assert_eq!(table.probe(black_high, WHITE, 5, 0), None);
        assert_eq!(table.entries().collect::<Vec<_>>().len(), 1);
        assert_eq!(table.entries().next().unwrap().0, stones);
        // The same slot, other stones: they replace the old.
        assert!(!table.store(other, WHITE, 5 + 64, 0, false));
        assert_eq!(table.probe(stones, WHITE, 5, 0), None);
        assert_eq!(table.probe(other, WHITE, 5, 0), Some(false));

        let narrow = Table::<u64>::new(64);
        let stones = [1 << 63 | 1, 1 << 40];
        narrow.store(stones, BLACK, 9, -2, true);
        assert_eq!(narrow.probe(stones, BLACK, 9, -3), Some(true));
        assert_eq!(narrow.entries().next().unwrap().0, stones);
    }

    #[test]
    fn a_slot_being_written_is_a_miss_and_turns_away_a_second_writer() {
        let table = Table::<u128>::new(64);
        let stones = wide();
        table.store(stones, WHITE, 5, 0, true);
        let sequence = table.slot(5).word(SEQUENCE);
        let before = sequence.load(Relaxed);
        sequence.store(before + 1, Relaxed);
        assert_eq!(table.probe(stones, WHITE, 5, 0), None);
        assert!(!table.store(stones, BLACK, 5, 0, true));
        sequence.store(before, Relaxed);
        assert_eq!(table.probe(stones, WHITE, 5, 0), Some(true));
        assert_eq!(
            table.probe(stones, BLACK, 5, 0),
            None,
            "the second write was dropped"
        );
    }

    #[test]
    fn a_line_keeps_the_larger_position_first_and_the_latest_other_second() {
        let table = Table::<u64>::new(64);
        let stones = |n: u32| [(1u64 << n) - 1, 1 << 40];
        // Hash 6 writes to slot 6 or 7, the two of one line.
        let (ten, five, seven, twelve) = (stones(9), stones(4), stones(6), stones(11));
        table.store(ten, WHITE, 6, 0, true);
        table.store(five, WHITE, 6, 0, true);
        assert_eq!(table.probe(ten, WHITE, 6, 0), Some(true));
        assert_eq!(table.probe(five, WHITE, 6, 0), Some(true));
        // Fewer stones than the first slot's: the second slot is replaced.
        table.store(seven, WHITE, 6, 0, false);
        assert_eq!(table.probe(ten, WHITE, 6, 0), Some(true));
        assert_eq!(table.probe(five, WHITE, 6, 0), None);
        assert_eq!(table.probe(seven, WHITE, 6, 0), Some(false));
        // More: the first slot is, and the second keeps its own.
        table.store(twelve, BLACK, 6, 0, true);
        assert_eq!(table.probe(ten, WHITE, 6, 0), None);
        assert_eq!(table.probe(twelve, BLACK, 6, 0), Some(true));
        assert_eq!(table.probe(seven, WHITE, 6, 0), Some(false));
        // What a slot knows of its stones is updated where they are.
        table.store(seven, BLACK, 6, 0, true);
        assert_eq!(table.probe(seven, WHITE, 6, 0), Some(false));
        assert_eq!(table.probe(seven, BLACK, 6, 0), Some(true));
        assert_eq!(table.entries().count(), 2);
    }

    #[test]
    fn the_shared_table_grows_four_times_within_its_cap_and_keeps_every_entry() {
        let hash = |stones: [u64; 2]| splitmix(stones[0] ^ splitmix(stones[1]));
        let shared = SharedTable::<u64>::new(256, 1024);
        let positions: Vec<[u64; 2]> = (1..150u64).map(|i| [i, i << 20]).collect();
        let mut used = 0;
        for (i, &p) in positions.iter().enumerate() {
            used += shared.latest().store(p, (i % 2) as u8, hash(p), 0, true) as usize;
        }
        let before: Vec<_> = shared.latest().entries().collect();
        // Not three quarters full yet: no growth.
        shared.used.store(192, Relaxed);
        shared.grow(hash);
        assert_eq!(shared.latest().slots(), 256);
        shared.used.store(used.max(193), Relaxed);
        shared.grow(hash);
        assert_eq!(shared.latest().slots(), 1024);
        let mut after: Vec<_> = shared.latest().entries().collect();
        let mut before = before;
        before.sort_by_key(|e| e.0);
        after.sort_by_key(|e| e.0);
        assert_eq!(before, after);
        // At the cap it grows no more.
        shared.used.store(1024, Relaxed);
        shared.grow(hash);
        assert_eq!(shared.latest().slots(), 1024);
        assert_eq!(shared.tables.lock().unwrap().len(), 2);
    }

    #[test]
    fn a_grown_table_keeps_every_entry() {
        let hash = |stones: [u64; 2]| splitmix(stones[0] ^ splitmix(stones[1]));
        let table = Table::<u64>::new(256);
        let positions: Vec<[u64; 2]> = (1..100u64).map(|i| [i, i << 20]).collect();
        let mut used = 0;
        for (i, &p) in positions.iter().enumerate() {
            used += table.store(p, (i % 2) as u8, hash(p), i as i32 - 50, true) as usize;
        }
        let before: Vec<_> = table.entries().collect();
        assert_eq!(before.len(), used);
        let (bigger, filled) = table.grown(1024, hash);
        assert_eq!(bigger.slots(), 1024);
        assert_eq!(filled, used);
        let mut after: Vec<_> = bigger.entries().collect();
        let mut before = before;
        before.sort_by_key(|e| e.0);
        after.sort_by_key(|e| e.0);
        assert_eq!(before, after);
    }
}
