//! What every thread of a solve shares ([`Shared`]: the Zobrist keys, the tables, the region
//! caches, the budget), and why a search ends without its answer ([`Halt`]).

use super::regions::RegionValue;
use super::search::{splitmix, zobrist_hash};
use super::table::{SharedTable, Table};
use crate::bits::Bits;
use crate::error::{Error, Result};
use crate::quantum_leap::QuantumLeap;
use crate::quantum_leap::board::{MAX_CELLS, OFF};
use crate::search::{Budget, Limits};
use rustc_hash::FxHashMap;
use std::sync::Mutex;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};

/// What every thread of a solve shares.
pub(super) struct Shared<'a, B: Bits> {
    pub(super) game: &'a QuantumLeap<B>,
    pub(super) zobrist: Box<[[u64; 2]; MAX_CELLS]>,
    /// `reach[c][b]`: cells within `b` steps of `c` along the six lines (b = 0..=6).
    pub(super) reach: Vec<[B; 7]>,
    pub(super) table: SharedTable<B>,
    /// Each thread's own table for the positions of at most `distant_stones` stones, far from
    /// the root: they are many and quick to search again, so they are kept in a table small
    /// enough to stay in the thread's cache, and out of the shared table's way.
    pub(super) distant: Vec<Table<B>>,
    pub(super) distant_stones: u32,
    /// Region classes by shape (any translation, rotation or reflection).
    pub(super) regions: Mutex<FxHashMap<Vec<u16>, RegionValue>>,
    /// Bytes the region caches may still take.
    region_budget: AtomicUsize,
    /// Nodes searched by every thread (each adds its count now and then).
    pub(super) nodes: AtomicU64,
    pub(super) budget: Budget<'a>,
    /// Threads of the pool the solve runs in: with more than one, the search forks.
    pub(super) threads: usize,
}

impl<'a, B: Bits> Shared<'a, B> {
    /// The shared state of a solve from a position of `root_stones` stones.
    pub(super) fn new(
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

    pub(super) fn hash(&self, stones: [B; 2]) -> u64 {
        zobrist_hash(&self.zobrist, stones)
    }

    /// Takes `bytes` from the region caches' budget, if it has them.
    pub(super) fn take_region_bytes(&self, bytes: usize) -> bool {
        self.region_budget
            .fetch_update(Relaxed, Relaxed, |left| left.checked_sub(bytes))
            .is_ok()
    }

    /// Runs `search`, its halt made the solve's error.
    pub(super) fn run<T>(&self, search: impl FnOnce(&Self) -> Searched<T>) -> Result<T> {
        match search(self) {
            Ok(answer) => Ok(answer),
            Err(Halt::Error(e)) => Err(e),
            Err(Halt::Stopped) => unreachable!("only a fork stops a search, and it is inside"),
        }
    }
}

/// Why a search ended without its answer.
pub(super) enum Halt {
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

pub(super) type Searched<T> = std::result::Result<T, Halt>;

/// Positions this many captures or more from the root, and of at most `DISTANT_STONES`
/// stones, go to the thread's own table (`Shared::distant`), of at most `DISTANT_BYTES`. Larger
/// positions are costly to search again whatever the root: from a 42-stone root, keeping 30-32
/// stones in the shared table took 10% less time than ten captures alone (docs/perf/quantum_leap.md).
const DISTANT_PLIES: u32 = 10;
const DISTANT_STONES: u32 = 29;
const DISTANT_BYTES: usize = 1 << 20;
