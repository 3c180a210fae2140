//! The one helper every long-running call goes through: the work runs on its own thread with
//! the GIL released, and Ctrl-C (or any other signal's exception) cancels it.

use crate::errors::to_py;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use quanta_core::Error;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Runs `work` on its own thread with the GIL released, checking for Ctrl-C (and other
/// signals) meanwhile; on a signal it raises the cancel flag, waits for `work` to notice, and
/// returns the signal's exception. A panic in `work` becomes a RuntimeError (a bug).
pub fn run_detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let cancel = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel();
    // The receiver is used from detached closures, which must be `Sync`: hence the mutex.
    let rx = std::sync::Mutex::new(rx);
    let wait = |timeout: Option<Duration>| {
        let rx = rx.lock().unwrap_or_else(|e| e.into_inner());
        match timeout {
            Some(t) => rx.recv_timeout(t),
            None => rx
                .recv()
                .map_err(|_| std::sync::mpsc::RecvTimeoutError::Disconnected),
        }
    };
    std::thread::scope(|scope| {
        let cancel = &cancel;
        scope.spawn(move || {
            let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || work(cancel),
            )));
        });
        loop {
            match py.detach(|| wait(Some(Duration::from_millis(50)))) {
                Ok(Ok(result)) => return result.map_err(to_py),
                Ok(Err(_)) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "quanta: internal error in the Rust core",
                    ));
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        cancel.store(true, Ordering::Relaxed);
                        let _ = py.detach(|| wait(None));
                        return Err(signal);
                    }
                }
            }
        }
    })
}
