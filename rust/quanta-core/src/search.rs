//! What every solver shares: the checked request of a call (limits and threads), its context
//! (the request and the cancel flag), its budget (time, nodes, memory) and the checks that stop
//! a search with `SearchLimit` or `Interrupted`.

pub mod table;
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Budgets of one solve.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    pub timeout: Option<Duration>,
    pub max_nodes: Option<u64>,
    /// Memory for the solver's tables together.
    pub memory_mb: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: None,
            max_nodes: None,
            memory_mb: 1024,
        }
    }
}

/// The most threads a call may ask for.
pub const MAX_THREADS: i128 = 1024;
/// The largest memory cap, in megabytes (16 TiB).
pub const MAX_MEMORY_MB: i128 = 1 << 24;

/// What each argument of a solver call must be, in the user's words: the one text that every
/// message about a bad limit uses, whoever finds it bad (the core or the bindings).
pub fn expected(argument: &str) -> &'static str {
    match argument {
        "timeout" => "a number of seconds >= 0, or None for no time limit",
        "max_nodes" => "an integer >= 0, or None for no node limit",
        "memory_mb" => "an integer number of megabytes from 1 to 16777216",
        "threads" => "an integer from 1 to 1024, or None for every core",
        "seed" => "an integer from 0 to 2**64 - 1",
        _ => "a valid value",
    }
}

/// The error for `argument` given as `given` (its text, cut as
/// [`crate::error::clipped`] cuts it).
pub fn bad_argument(argument: &str, given: &str) -> Error {
    Error::InvalidOption(format!(
        "{argument} must be {}, not {}",
        expected(argument),
        crate::error::clipped(given)
    ))
}

/// A solver call's request, checked once for every solver: its limits and its threads.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub limits: Limits,
    /// `None`: every core.
    pub threads: Option<usize>,
}

impl Request {
    /// Checks the arguments every solver takes, as the caller gave them (integers wide
    /// enough to hold any bad value), and names the first one that is wrong.
    pub fn checked(
        timeout: Option<f64>,
        max_nodes: Option<i128>,
        memory_mb: i128,
        threads: Option<i128>,
    ) -> Result<Request> {
        let timeout = match timeout {
            // A timeout too long for a Duration (centuries) is no limit at all.
            Some(t) if t >= 0.0 => Duration::try_from_secs_f64(t).ok(),
            Some(t) => return Err(bad_argument("timeout", &t.to_string())),
            None => None,
        };
        let max_nodes = match max_nodes {
            Some(n) if (0..=u64::MAX as i128).contains(&n) => Some(n as u64),
            Some(n) => return Err(bad_argument("max_nodes", &n.to_string())),
            None => None,
        };
        if !(1..=MAX_MEMORY_MB).contains(&memory_mb) {
            return Err(bad_argument("memory_mb", &memory_mb.to_string()));
        }
        Ok(Request {
            limits: Limits {
                timeout,
                max_nodes,
                memory_mb: memory_mb as usize,
            },
            threads: checked_threads(threads)?,
        })
    }

    /// The context of a call that runs with this request and `cancel`.
    pub fn context<'a>(&self, cancel: &'a AtomicBool) -> Context<'a> {
        Context {
            limits: self.limits.clone(),
            threads: self.threads,
            cancel,
        }
    }
}

/// `threads` checked: from 1 to [`MAX_THREADS`], or `None` for every core.
pub fn checked_threads(threads: Option<i128>) -> Result<Option<usize>> {
    match threads {
        Some(t) if (1..=MAX_THREADS).contains(&t) => Ok(Some(t as usize)),
        Some(t) => Err(bad_argument("threads", &t.to_string())),
        None => Ok(None),
    }
}

/// What every solver and batch takes: the limits, the threads and the cancel flag (set by
/// Ctrl-C in the bindings).
#[derive(Debug, Clone)]
pub struct Context<'a> {
    pub limits: Limits,
    pub threads: Option<usize>,
    pub cancel: &'a AtomicBool,
}

impl<'a> Context<'a> {
    pub fn new(limits: Limits, threads: Option<usize>, cancel: &'a AtomicBool) -> Self {
        Context {
            limits,
            threads,
            cancel,
        }
    }

    /// The budget of a search named `what` (e.g. "quantum_leap solver"), its clock started now.
    pub fn budget(&self, what: &'static str) -> Budget<'a> {
        Budget::new(what, self.limits.clone(), self.cancel)
    }

    /// Runs `work` on this call's threads.
    pub fn in_pool<T: Send>(&self, work: impl FnOnce() -> T + Send) -> Result<T> {
        in_pool(self.threads, work)
    }
}

/// The most entries a growing hash map of `entry_bytes`-byte entries may hold so that its
/// memory stays within `memory_mb`, counting the map's spare buckets (it keeps at most 7/8 of
/// them full and doubles when past that) and the old buckets it holds while it grows. A map
/// that stops inserting at this many entries never allocates more than `memory_mb`.
pub fn hash_map_cap(memory_mb: usize, entry_bytes: usize) -> usize {
    let bytes = memory_mb.max(1) << 20;
    // One control byte per bucket; the old table, half the size, lives on during a growth.
    let per_bucket = (entry_bytes + 1) * 3 / 2 + 1;
    let most = bytes / per_bucket;
    let buckets = if most.is_power_of_two() {
        most
    } else {
        most.next_power_of_two() / 2
    };
    buckets / 8 * 7
}

/// A running search's limits, clock and cancel flag (set by Ctrl-C in the bindings).
#[derive(Clone)]
pub struct Budget<'a> {
    pub limits: Limits,
    pub start: Instant,
    cancel: &'a AtomicBool,
    /// Names the solver in the errors, e.g. "quantum_leap solver".
    what: &'static str,
}

impl<'a> Budget<'a> {
    pub fn new(what: &'static str, limits: Limits, cancel: &'a AtomicBool) -> Self {
        Self::started(what, limits, cancel, Instant::now())
    }

    /// A budget whose clock started at `start` (several searches of one call share it).
    pub fn started(
        what: &'static str,
        limits: Limits,
        cancel: &'a AtomicBool,
        start: Instant,
    ) -> Self {
        Budget {
            limits,
            start,
            cancel,
            what,
        }
    }

    pub fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Whether `nodes` is past the node limit (cheap: call it at every node).
    #[inline]
    pub fn over_nodes(&self, nodes: u64) -> bool {
        self.limits.max_nodes.is_some_and(|m| nodes > m)
    }

    /// An error if the search was cancelled or is past a limit, `nodes` searched so far.
    pub fn check(&self, nodes: u64) -> Result<()> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(Error::Interrupted);
        }
        if self.over_nodes(nodes) {
            return Err(self.limit("node limit reached", nodes));
        }
        if self
            .limits
            .timeout
            .is_some_and(|t| self.start.elapsed() >= t)
        {
            return Err(self.limit("time limit reached", nodes));
        }
        Ok(())
    }

    /// The `SearchLimit` error for `reason`, carrying the work done.
    pub fn limit(&self, reason: &str, nodes: u64) -> Error {
        Error::SearchLimit {
            reason: format!("{}: {reason}", self.what),
            nodes,
            seconds: self.seconds(),
        }
    }
}

/// One search's count of nodes against a `Budget`. `tick` at every node: every `FLUSH` nodes,
/// and at once past the node limit, the count is added to the call's total (when several
/// searches or threads share one) and the limits are checked. The node limit is exact while
/// one search counts; with several it is checked against the total each last saw.
pub struct Meter<'a> {
    pub budget: Budget<'a>,
    total: Option<&'a AtomicU64>,
    /// Nodes this search counted, and those not yet added to `total`.
    own: u64,
    fresh: u64,
    /// The total when this search last added to it (its own count without a total).
    seen: u64,
}

/// Nodes between two checks of the limits.
pub const FLUSH: u64 = 1024;

impl<'a> Meter<'a> {
    pub fn new(budget: Budget<'a>, total: Option<&'a AtomicU64>) -> Self {
        Meter {
            budget,
            total,
            own: 0,
            fresh: 0,
            seen: total.map_or(0, |t| t.load(Ordering::Relaxed)),
        }
    }

    /// A meter for a part of this search run on another thread: the same limits and total,
    /// its own count.
    pub fn fork(&self) -> Meter<'a> {
        Meter::new(self.budget.clone(), self.total)
    }

    /// Nodes this search counted.
    pub fn own(&self) -> u64 {
        self.own
    }

    /// Nodes of the whole call, as far as this search knows.
    pub fn nodes(&self) -> u64 {
        self.seen + self.fresh
    }

    /// Counts a node; says whether the limits were checked (the search may check its own
    /// conditions then too).
    #[inline]
    pub fn tick(&mut self) -> Result<bool> {
        self.own += 1;
        self.fresh += 1;
        if self.fresh >= FLUSH || self.budget.over_nodes(self.seen + self.fresh) {
            self.check()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Adds the count to the total and checks the limits.
    pub fn check(&mut self) -> Result<()> {
        self.flush();
        self.budget.check(self.seen)
    }

    fn flush(&mut self) {
        self.seen = match self.total {
            Some(total) => total.fetch_add(self.fresh, Ordering::Relaxed) + self.fresh,
            None => self.seen + self.fresh,
        };
        self.fresh = 0;
    }

    /// Adds the count to the total, and gives the nodes of the whole call as far as this
    /// search knows (all of them once the other searches sharing the total are done).
    pub fn sync(&mut self) -> u64 {
        self.flush();
        self.seen
    }

    /// The `SearchLimit` error for `reason`.
    pub fn limit(&self, reason: &str) -> Error {
        self.budget.limit(reason, self.nodes())
    }

    pub fn seconds(&self) -> f64 {
        self.budget.seconds()
    }
}

impl Drop for Meter<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// The threads a pool actually starts for a request of `threads`: at most four per core.
/// Every answer is the same at any thread count, so the cap changes only the time, and a
/// request of hundreds of threads neither floods the machine nor delays a timeout or Ctrl-C.
pub fn pool_threads(threads: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    threads.clamp(1, 4 * cores)
}

/// Runs `work` on `threads` threads (`None`: rayon's global pool, one per core), at most
/// [`pool_threads`] of them.
pub fn in_pool<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    match threads {
        None => Ok(work()),
        Some(t) => Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(pool_threads(t))
            .build()
            .map_err(|e| Error::InvalidOption(format!("cannot start {t} threads: {e}")))?
            .install(work)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_nodes: u64) -> Limits {
        Limits {
            max_nodes: Some(max_nodes),
            ..Limits::default()
        }
    }

    #[test]
    fn one_meter_stops_exactly_past_the_node_limit() {
        let cancel = AtomicBool::new(false);
        for limit in [0, 1, 1023, 1024, 5000] {
            let mut meter = Meter::new(Budget::new("test", limits(limit), &cancel), None);
            let ticks = (1..).find(|_| meter.tick().is_err()).unwrap();
            assert_eq!(ticks, limit + 1);
            assert!(
                matches!(meter.limit("x"), Error::SearchLimit { nodes, .. } if nodes == limit + 1)
            );
        }
    }

    #[test]
    fn meters_sharing_a_total_add_up_every_node_once_dropped() {
        let cancel = AtomicBool::new(false);
        let total = AtomicU64::new(0);
        let budget = Budget::new("test", Limits::default(), &cancel);
        for n in [1, 1023, 1024, 3000] {
            let mut meter = Meter::new(budget.clone(), Some(&total));
            for _ in 0..n {
                meter.tick().unwrap();
            }
            assert_eq!(meter.own(), n);
        }
        assert_eq!(total.load(Ordering::Relaxed), 1 + 1023 + 1024 + 3000);
        // A meter made later starts from the total, so one more search keeps the limit exact.
        let mut late = Meter::new(Budget::new("test", limits(5050), &cancel), Some(&total));
        let ticks = (1..).find(|_| late.tick().is_err()).unwrap();
        assert_eq!(ticks, 5050 + 1 - 5048);
    }

    #[test]
    fn a_map_filled_to_its_cap_stays_within_its_memory_even_while_growing() {
        // Entries of 48 bytes: a u64 key and a 40-byte value.
        for memory_mb in [1, 3, 64] {
            let cap = hash_map_cap(memory_mb, 48);
            let mut map = std::collections::HashMap::<u64, [u8; 40]>::new();
            for k in 0..cap as u64 {
                map.insert(k, [0; 40]);
            }
            // Capacity is 7/8 of the buckets; the old half-size table lives on in a growth.
            let buckets = (map.capacity() * 8).div_ceil(7).next_power_of_two();
            let peak = buckets * 3 / 2 * 49;
            assert!(peak <= memory_mb << 20, "{memory_mb} MB: {peak} bytes");
            assert!(
                cap > (memory_mb << 20) / 49 / 4,
                "{memory_mb} MB: needlessly small"
            );
        }
    }

    #[test]
    fn a_cancelled_search_stops_at_its_next_check() {
        let cancel = AtomicBool::new(true);
        let mut meter = Meter::new(Budget::new("test", Limits::default(), &cancel), None);
        let ticks = (1..).find(|_| meter.tick().is_err()).unwrap();
        assert_eq!(ticks, FLUSH);
        assert!(matches!(meter.check(), Err(Error::Interrupted)));
    }
}
