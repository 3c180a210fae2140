//! Transposition tables that every thread of a search may read and write, none ever waiting.
//!
//! A position is two sets of cells (`[B; 2]`, one per player) and what a table knows of it is
//! one word ([`Entry`]: its meaning is the game's). Each slot is its own sequence lock: a
//! sequence number (odd while a thread writes the slot), what is known, the cells as 64-bit
//! words. On boards of up to 64 cells a cache line holds two slots, and a position may sit in
//! either slot of the line its hash picks: the first keeps the larger of the positions met
//! there (the costlier to search again), the second takes the rest. [`SharedTable`] starts
//! small and grows within a cap while the threads search on.

use crate::bits::Bits;
use std::marker::PhantomData;
use std::sync::Mutex;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::fence;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize};

/// What a table knows of a position, as one word.
pub trait Entry: Copy + PartialEq {
    /// Nothing known: the word 0 (an empty slot is all zeros).
    const NOTHING: Self;
    /// One word, 0 for `NOTHING`.
    fn word(self) -> u64;
    fn from_word(word: u64) -> Self;
}

/// Words of one table slot: a sequence number (odd while a thread writes the slot), what is
/// known, then the stones (the first player's, then the second's) as 64-bit words.
pub const SEQUENCE: usize = 0;
const KNOWN: usize = 1;
const STONES: usize = 2;

/// Eight words, one cache line: two slots of a board up to 64 cells, one slot of a board up to
/// 128. Such a slot never straddles two lines, so a probe is one memory access; a slot of a
/// larger board takes two lines.
#[repr(align(64))]
struct Line([AtomicU64; 8]);

/// The words of one slot within its line (the first eight words of a two-line slot, whose
/// others are in `far`, the next line; for a slot within one line `far` is that line).
#[derive(Clone, Copy)]
pub struct Slot<'t> {
    line: &'t [AtomicU64; 8],
    start: usize,
    far: &'t [AtomicU64; 8],
}

impl<'t> Slot<'t> {
    #[inline]
    pub fn word(self, i: usize) -> &'t AtomicU64 {
        if i < 8 {
            &self.line[(self.start + i) & 7]
        } else {
            &self.far[i & 7]
        }
    }
}

/// A type whose all-zero bits are a valid value (atomics of zero).
///
/// # Safety
/// Only for types for which every byte 0 is a valid value.
pub unsafe trait Zeroable {}

// SAFETY: all-zero bits are a valid `AtomicU64` (0).
unsafe impl Zeroable for Line {}
// SAFETY: as above, for each element.
unsafe impl<const N: usize> Zeroable for [AtomicU64; N] {}

/// `n` values of zeros from the allocator. (At a line's alignment the allocator writes the
/// zeros itself, touching every page; large tables taken from `calloc` instead, their pages
/// zeroed by the system at their first touch, measured no faster: docs/perf/quantum_leap.md.)
pub fn zeroed<T: Zeroable>(n: usize) -> Vec<T> {
    let layout = std::alloc::Layout::array::<T>(n).expect("a table within the memory cap");
    try_zeroed(n).unwrap_or_else(|| std::alloc::handle_alloc_error(layout))
}

/// `n` values of zeros from the allocator, or `None` if it has not the memory (or the
/// address space: a large allocation is only reserved, each page taken at its first touch).
pub fn try_zeroed<T: Zeroable>(n: usize) -> Option<Vec<T>> {
    assert!(std::mem::size_of::<T>() > 0, "a table of zero-sized slots");
    if n == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).ok()?;
    // SAFETY: the layout is that of `n` values of `T` (not zero-sized: `n` > 0 and `T` is
    // not, as asserted); all-zero bits are a valid `T` (`Zeroable`), so the
    // memory holds `n` valid values, and a Vec of capacity `n` frees it with this same layout.
    unsafe {
        let values = std::alloc::alloc_zeroed(layout).cast::<T>();
        (!values.is_null()).then(|| Vec::from_raw_parts(values, n, n))
    }
}

/// Asks Linux to back `values` with huge pages where it allows them (`madvise`), for tables
/// whose probes land all over them: with small pages most probes also miss the address cache.
/// A hint: nothing changes but the time, whatever the answer.
#[cfg(target_os = "linux")]
pub fn advise_huge_pages<T>(values: &[T]) {
    const HUGE: usize = 2 << 20;
    let start = values.as_ptr() as usize;
    let end = start + std::mem::size_of_val(values);
    let (first, last) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
    if first < last {
        // SAFETY: the range lies within the live allocation of `values`; MADV_HUGEPAGE
        // changes no contents, only how the system backs the pages.
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

/// Asks the processor to bring the cache line of `item` into the cache (a hint; nothing
/// happens on processors without the instruction).
#[inline]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let address: *const T = item;
        // SAFETY: a prefetch is only a hint, and the address is that of a live value.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address.cast());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// A transposition table, one line of [`Table::WAYS`] slots per hash, that every thread of a
/// solve may read and write.
/// Each slot is its own sequence lock: a reader that meets a write in progress, or that a write
/// overtook, sees a miss; a writer that meets another drops its write. Neither ever waits, and
/// a miss or a dropped write costs only a repeated search.
pub struct Table<B: Bits, E: Entry> {
    lines: Vec<Line>,
    _stones: PhantomData<B>,
    _entries: PhantomData<E>,
}

impl<B: Bits, E: Entry> Table<B, E> {
    /// 64-bit words of each player's stones.
    const SET_WORDS: usize = B::CAPACITY.div_ceil(64);
    /// Words of the stones, both players'.
    const STONE_WORDS: usize = 2 * Self::SET_WORDS;
    /// Words per slot: the sequence number, what is known, the stones; a power of two.
    pub const WORDS: usize = (STONES + Self::STONE_WORDS).next_power_of_two();
    /// Slots per line: a position may sit in either slot of the line its hash picks.
    pub const WAYS: usize = if Self::WORDS < 8 { 8 / Self::WORDS } else { 1 };
    /// Lines per slot.
    const SLOT_LINES: usize = Self::WORDS.div_ceil(8);
    /// The stones as 64-bit words (the first `STONE_WORDS`).
    #[inline]
    fn stone_words(stones: [B; 2]) -> [u64; 8] {
        let (w, b) = (stones[0].words(), stones[1].words());
        let mut words = [0; 8];
        for i in 0..Self::SET_WORDS {
            words[i] = w[i];
            words[Self::SET_WORDS + i] = b[i];
        }
        words
    }

    fn from_stone_words(words: [u64; 8]) -> [B; 2] {
        let (mut w, mut b) = ([0; 4], [0; 4]);
        for i in 0..Self::SET_WORDS {
            w[i] = words[i];
            b[i] = words[Self::SET_WORDS + i];
        }
        [B::from_words(w), B::from_words(b)]
    }

    pub fn new(slots: usize) -> Self {
        let lines = (slots * Self::WORDS).div_ceil(8);
        debug_assert!(Self::SET_WORDS <= 4);
        Table {
            lines: zeroed(lines),
            _stones: PhantomData,
            _entries: PhantomData,
        }
    }

    pub fn slots(&self) -> usize {
        self.lines.len() * 8 / Self::WORDS
    }

    #[inline]
    pub fn slot(&self, hash: u64) -> Slot<'_> {
        let i = hash as usize & (self.slots() - 1);
        let line = i * Self::WORDS / 8;
        Slot {
            line: &self.lines[line].0,
            start: i * Self::WORDS % 8,
            far: &self.lines[line + Self::SLOT_LINES - 1].0,
        }
    }

    /// Asks the processor to bring the slot of `hash` into the cache.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        prefetch(self.slot(hash).word(0));
    }

    /// Whether `slot` holds `stones` (as `stone_words`).
    #[inline]
    fn holds(slot: Slot<'_>, words: &[u64; 8]) -> bool {
        let same = |i: usize| slot.word(STONES + i).load(Relaxed) == words[i];
        (0..Self::STONE_WORDS).all(same)
    }

    /// What the slots of `hash` know of `stones`, if one holds them and no write is under way.
    #[inline]
    pub fn read(&self, stones: [B; 2], hash: u64) -> Option<E> {
        let words = Self::stone_words(stones);
        Self::read_slot(self.slot(hash), &words)
            .or_else(|| (Self::WAYS == 2).then(|| Self::read_slot(self.slot(hash ^ 1), &words))?)
    }

    #[inline]
    fn read_slot(slot: Slot<'_>, words: &[u64; 8]) -> Option<E> {
        let sequence = slot.word(SEQUENCE).load(Acquire);
        let known = slot.word(KNOWN).load(Relaxed);
        let holds = Self::holds(slot, words);
        fence(Acquire);
        (holds && sequence & 1 == 0 && slot.word(SEQUENCE).load(Relaxed) == sequence)
            .then(|| E::from_word(known))
    }

    /// The slot of `hash` to write `stones` (as `stone_words`) to: the one of its line that
    /// holds them; else the first slot, if it is empty or holds no more stones than these;
    /// else the second. So the first slot keeps the larger positions, the costlier to search
    /// again, and the second takes the rest.
    fn slot_to_write(&self, words: &[u64; 8], hash: u64) -> Slot<'_> {
        let home = self.slot(hash);
        if Self::WAYS == 1 || Self::holds(home, words) {
            return home;
        }
        let other = self.slot(hash ^ 1);
        if Self::holds(other, words) {
            return other;
        }
        let held: u32 = (STONES..STONES + Self::STONE_WORDS)
            .map(|i| home.word(i).load(Relaxed).count_ones())
            .sum();
        let stones: u32 = words.iter().map(|w| w.count_ones()).sum();
        if home.word(KNOWN).load(Relaxed) == 0 || stones >= held {
            home
        } else {
            other
        }
    }

    /// Replaces what the slot of `hash` knows of `stones` (nothing, if it holds other stones)
    /// by `learn` of it, unless another thread is writing the slot. Says whether an empty slot
    /// was taken.
    pub fn update(&self, stones: [B; 2], hash: u64, learn: impl FnOnce(E) -> E) -> bool {
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
            E::from_word(old)
        } else {
            E::NOTHING
        });
        slot.word(KNOWN).store(known.word(), Relaxed);
        for (i, w) in words.iter().enumerate().take(Self::STONE_WORDS) {
            slot.word(STONES + i).store(*w, Relaxed);
        }
        slot.word(SEQUENCE).store(sequence + 2, Release);
        old == 0
    }

    /// Every stored position: (stones, what is known).
    pub fn entries(&self) -> impl Iterator<Item = ([B; 2], E)> + '_ {
        (0..self.slots()).filter_map(|i| {
            let slot = self.slot(i as u64);
            let known = E::from_word(slot.word(KNOWN).load(Relaxed));
            let mut words = [0; 8];
            for (j, w) in words.iter_mut().enumerate().take(Self::STONE_WORDS) {
                *w = slot.word(STONES + j).load(Relaxed);
            }
            (known != E::NOTHING).then(|| (Self::from_stone_words(words), known))
        })
    }

    /// A table of `slots` slots with every entry of this one, and the slots they fill.
    pub fn grown(&self, slots: usize, hash: impl Fn([B; 2]) -> u64) -> (Self, usize) {
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
/// (within the cap) with every entry, and the threads move to it at their next check. What
/// they store in the old table meanwhile is lost, which costs only a repeated search. The old tables are kept until the solve ends (a third more memory
/// at most), since a thread may still be reading one.
pub struct SharedTable<B: Bits, E: Entry> {
    /// The latest table, one of `tables`.
    latest: AtomicPtr<Table<B, E>>,
    /// Boxed, so that `latest` stays valid when the vector grows.
    #[allow(clippy::vec_box)]
    pub(crate) tables: Mutex<Vec<Box<Table<B, E>>>>,
    /// Slots of the latest table in use (as last counted by the threads), and the most slots
    /// the memory cap allows.
    pub(crate) used: AtomicUsize,
    cap: usize,
    /// A thread is building the next table.
    growing: AtomicBool,
}

impl<B: Bits, E: Entry> SharedTable<B, E> {
    pub fn new(slots: usize, cap: usize) -> Self {
        let first = Box::new(Table::new(slots.min(cap)));
        SharedTable {
            latest: AtomicPtr::new(std::ptr::from_ref(&*first).cast_mut()),
            tables: Mutex::new(vec![first]),
            used: AtomicUsize::new(0),
            cap,
            growing: AtomicBool::new(false),
        }
    }

    pub fn latest(&self) -> &Table<B, E> {
        // SAFETY: `latest` points into a box of `tables`, which is never dropped or emptied
        // before `self`; a box's contents stay put when the vector moves it.
        unsafe { &*self.latest.load(Acquire) }
    }

    /// Whether three quarters of the latest table's slots are in use and the cap allows more.
    pub fn wants_to_grow(&self) -> bool {
        let slots = self.latest().slots();
        4 * self.used.load(Relaxed) > 3 * slots && slots < self.cap
    }

    /// Builds the next table, unless another thread is building it.
    pub fn grow(&self, hash: impl Fn([B; 2]) -> u64) {
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
