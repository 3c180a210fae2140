//! quanta-core: rules engines, batch simulation and solvers for the quanta games.
//!
//! Every game implements [`Game`]; generic machinery (checked play, playouts, perft, batch
//! kernels, the run-time registry) is written once against it.

pub mod a_quantum_leap;
pub mod batch;
pub mod bits;
pub mod bots;
pub mod einstein;
pub mod einstein_card;
pub mod erased;
pub mod error;
pub mod game;
pub mod knowledge;
pub mod greedy;
pub mod options;
pub mod quantum_leap;
pub mod quincunx;
pub mod registry;
pub mod repair_unit;
pub mod search;
pub mod solver;
pub mod table;
pub mod vector;

pub use error::{Error, Result};
pub use game::{Action, CHANCE, Game, GameInfo, Information, Rng, TERMINAL, ToMove, Utility};
pub use options::{OptionValue, Options};
