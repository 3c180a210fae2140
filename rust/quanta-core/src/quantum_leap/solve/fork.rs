//! Threads (young brothers wait): the searches of a node's captures shared out among the
//! threads of the pool ([`Fork`], [`Solver::fork`]).
//!
//! **Threads** (young brothers wait; `threads`, default every core): near the root (the first
//! `FORK_PLIES` moves, with at least `FORK_STONES` stones on the board) a node searches its
//! first capture alone; if that capture does not win, the node is probably lost and its other
//! captures must all be searched, so the threads of the pool take them in order and share the
//! table. A capture found winning stops the searches of the captures after it (`Fork`). The
//! table grows while the threads search on ([`SharedTable`](super::table::SharedTable)). The
//! root's captures are ordered by the position alone and the first winning one is returned, so
//! the answer does not depend on the threads.

use super::ordering::Capture;
use super::search::Solver;
use super::shared::{Halt, Searched};
use crate::bits::Bits;
use crate::quantum_leap::after_capture;
use std::sync::Mutex;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};

/// A node whose captures (after the first) are searched by several threads at once. The
/// captures are taken in order; once capture `found` wins, the later ones are not needed.
pub(super) struct Fork {
    pub(super) found: AtomicUsize,
    /// A thread met an error: the fork's answer is not needed any more.
    pub(super) failed: AtomicBool,
}

impl Fork {
    /// Whether capture `index` of the fork is no longer needed.
    pub(super) fn decided_before(&self, index: usize) -> bool {
        self.failed.load(Relaxed) || self.found.load(Relaxed) < index
    }
}

/// Forks happen only this close to the root, and only with this many stones or more: below,
/// a subtree is too small to be worth sharing out. (Since the captures that prevent a
/// failed capture's refutation go next, 4 plies measure better than 6: docs/perf/quantum_leap.md.)
pub(super) const FORK_PLIES: u32 = 4;
pub(super) const FORK_STONES: u32 = 20;

impl<'s, 'a, B: Bits> Solver<'s, 'a, B> {
    /// Searches `moves` of `side` on all the threads, in order: the index of the first that
    /// wins, if one does. Each thread takes the next capture not yet taken; captures after one
    /// found winning are dropped, and their searches stopped.
    pub(super) fn fork(
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
}
