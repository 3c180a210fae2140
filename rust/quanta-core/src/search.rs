//! What every solver shares: its budget (time, nodes, memory) and the checks that stop a
//! search with `SearchLimit` or `Interrupted`.

pub mod table;
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Budgets of one solve.
#[derive(Debug, Clone)]
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

/// Runs `work` on `threads` threads (`None`: rayon's global pool).
pub fn in_pool<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    match threads {
        None => Ok(work()),
        Some(t) => Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
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
    fn a_cancelled_search_stops_at_its_next_check() {
        let cancel = AtomicBool::new(true);
        let mut meter = Meter::new(Budget::new("test", Limits::default(), &cancel), None);
        let ticks = (1..).find(|_| meter.tick().is_err()).unwrap();
        assert_eq!(ticks, FLUSH);
        assert!(matches!(meter.check(), Err(Error::Interrupted)));
    }
}
