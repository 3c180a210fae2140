//! What every solver shares: its budget (time, nodes, memory) and the checks that stop a
//! search with `SearchLimit` or `Interrupted`.

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, Ordering};
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
pub struct Budget<'a> {
    pub limits: Limits,
    pub start: Instant,
    cancel: &'a AtomicBool,
    /// Names the solver in the errors, e.g. "quantum_leap solver".
    what: &'static str,
}

impl<'a> Budget<'a> {
    pub fn new(what: &'static str, limits: Limits, cancel: &'a AtomicBool) -> Self {
        Budget {
            limits,
            start: Instant::now(),
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
