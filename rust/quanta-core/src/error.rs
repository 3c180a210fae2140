//! The one error type of the core. The Python bindings map each variant to a typed exception.

/// Everything that can go wrong when a caller hands the engines bad input or a search runs out
/// of budget. Engines never panic on caller input: they return one of these.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// Unknown game, unknown option, or an option value out of range.
    #[error("{0}")]
    InvalidOption(String),
    /// A position or action text that does not parse; the message names what is wrong.
    #[error("{0}")]
    InvalidNotation(String),
    /// An action that is not legal (or does not exist) in the position it was played in.
    #[error("{0}")]
    IllegalMove(String),
    /// A search hit its time, node or memory budget (or was interrupted) before it finished.
    #[error("{reason} after {nodes} nodes and {seconds:.3} s")]
    SearchLimit {
        reason: String,
        nodes: u64,
        seconds: f64,
    },
    /// A request that does not apply to the position (e.g. solving a chance node).
    #[error("{0}")]
    NotApplicable(String),
    /// The caller asked to stop (Ctrl-C in Python).
    #[error("interrupted")]
    Interrupted,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
