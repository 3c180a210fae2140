//! The table of a solve's positions, which every thread reads and writes without locks.

use crate::search::table::prefetch;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU64, AtomicUsize};

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
pub(super) struct Memo {
    /// The table: its first `size` slots; past them, slots not used yet (all zeros).
    slots: Vec<[AtomicU64; 2]>,
    size: usize,
    used: AtomicUsize,
    largest: usize,
    /// [`Memo::REGION_FROM`] (smaller in tests).
    region_from: usize,
}

/// What [`Memo::insert`] did.
pub(super) enum Stored {
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
    pub(super) const FIRST_SLOTS: usize = 1 << 16;
    /// The size from which the table grows within the reserved memory: a smaller one is an
    /// array of its own (which the allocator may give again to the next solve, touched
    /// already, while each reservation is fresh memory).
    pub(super) const REGION_FROM: usize = 1 << 18;

    /// The slots of the largest table within `memory_mb`, with the half-size array it grew
    /// from (if the table below [`Memo::REGION_FROM`] was an array of its own, or the
    /// reservation failed).
    pub(super) fn capacity(memory_mb: usize) -> usize {
        let bytes = memory_mb.max(1) << 20;
        let most = bytes * 2 / 3 / std::mem::size_of::<[AtomicU64; 2]>();
        if most.is_power_of_two() {
            most
        } else {
            most.next_power_of_two() / 2
        }
    }

    pub(super) fn new(memory_mb: usize) -> Self {
        Self::sized(
            Self::capacity(memory_mb),
            Self::FIRST_SLOTS,
            Self::REGION_FROM,
        )
    }

    /// A table of `first` slots that grows to at most `largest` (powers of two).
    pub(super) fn sized(largest: usize, first: usize, region_from: usize) -> Self {
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
    pub(super) fn len(&self) -> usize {
        self.used.load(Relaxed)
    }

    /// Adds `n` slots taken to the count. A thread counts its own and adds them a batch at a
    /// time (every insert adding to one shared counter would make the threads contend for its
    /// cache line); the batch is small enough that the count lags by a small part of the
    /// table, which the limits on filling leave room for.
    pub(super) fn count(&self, n: usize) {
        self.used.fetch_add(n, Relaxed);
    }

    /// The slots a thread takes before adding them to the count, with `threads` threads (one
    /// at a time for a thread alone: it contends with no one).
    pub(super) fn batch(&self, threads: usize) -> usize {
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
    pub(super) fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.home(key)]);
    }

    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<f64> {
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

    pub(super) fn insert(&self, key: u64, value: f64) -> Stored {
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
    ///
    /// `stop` is asked every [`Memo::STOP_EVERY`] entries moved (a large table takes a good
    /// part of a second to grow): when it says so, the growth is abandoned, the table left
    /// empty at its first size, and `false` returned (the search's time limit is kept to a
    /// few milliseconds, not the length of a growth).
    pub(super) fn grow(&mut self, threads: usize, stop: &mut dyn FnMut() -> bool) -> bool {
        let grown = self.grow_unless(threads, stop);
        if !grown {
            *self = Memo::sized(self.largest, Self::FIRST_SLOTS, self.region_from);
        }
        grown
    }

    /// Slots first touched between two questions to [`Memo::grow`]'s `stop` (16 MB).
    pub(super) const TOUCH_PIECE: usize = 1 << 20;

    /// Entries moved between two questions to [`Memo::grow`]'s `stop`.
    pub(super) const STOP_EVERY: usize = 1 << 16;

    /// [`Memo::grow`], `false` (the table in pieces) when `stop` said so.
    fn grow_unless(&mut self, threads: usize, stop: &mut dyn FnMut() -> bool) -> bool {
        let mut asked = 0usize;
        // `now`: ask whatever the count (between two pieces of memory touched).
        let mut stopped = move |now: bool| {
            asked += 1;
            (now || asked % Self::STOP_EVERY == 0) && stop()
        };
        let old = self.size;
        let size = (2 * old).min(self.largest);
        // The entries, counted (the threads' counts may lag).
        let mut used = 0;
        for (i, [key, bits]) in self.slots[..old].iter().enumerate() {
            used += (key.load(Relaxed) != 0 && bits.load(Relaxed) != 0) as usize;
            if i % Self::TOUCH_PIECE == 0 && stopped(true) {
                return false;
            }
        }
        self.used = AtomicUsize::new(0);
        if self.slots.len() < size {
            let region = (size >= self.region_from)
                .then(|| try_zeroed_slots(self.largest))
                .flatten();
            let old = std::mem::replace(
                &mut self.slots,
                region.unwrap_or_else(|| zeroed_slots(size)),
            );
            for piece in self.slots[..size].chunks(Self::TOUCH_PIECE) {
                touch(piece, threads);
                if stopped(true) {
                    return false;
                }
            }
            self.size = size;
            for [key, bits] in &old {
                let (key, bits) = (key.load(Relaxed), bits.load(Relaxed));
                if key != 0 && bits != 0 {
                    self.put(key, f64::from_bits(!bits));
                    if stopped(false) {
                        return false;
                    }
                }
            }
            return true;
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
                if stopped(false) {
                    return false;
                }
            }
            return true;
        }
        for piece in self.slots[old..size].chunks(Self::TOUCH_PIECE) {
            touch(piece, threads);
            if stopped(true) {
                return false;
            }
        }
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
                if stopped(false) {
                    return false;
                }
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
            if stopped(false) {
                return false;
            }
        }
        self.used = AtomicUsize::new(moved - aside.len());
        for (key, bits) in aside {
            self.put(key, f64::from_bits(!bits));
        }
        true
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
