//! The games by name. Adding a game is one line here.

use crate::erased::{DynGame, Erased};
use crate::error::{Error, Result, quoted};
use crate::options::Options;
use std::sync::Arc;

type Maker = fn(&Options) -> Result<Arc<dyn DynGame>>;

/// Every registered game, sorted by name: one line each.
#[rustfmt::skip]
const REGISTRY: &[(&str, Maker)] = &[
    ("a_quantum_leap", Erased::<crate::a_quantum_leap::AQuantumLeap>::make),
    ("einstein", Erased::<crate::einstein::Einstein>::make),
    ("einstein_card", Erased::<crate::einstein_card::EinsteinCard>::make),
    ("quantum_leap", crate::quantum_leap::make),
    ("quincunx", Erased::<crate::quincunx::Quincunx>::make),
    ("repair_unit", Erased::<crate::repair_unit::RepairUnit>::make),
];

/// The names of the registered games, sorted.
pub fn game_names() -> Vec<&'static str> {
    REGISTRY.iter().map(|(name, _)| *name).collect()
}

/// Makes the game `name` with `options` (missing options take their defaults).
pub fn make_game(name: &str, options: &Options) -> Result<Arc<dyn DynGame>> {
    match REGISTRY.iter().find(|(n, _)| *n == name) {
        Some((_, make)) => make(options),
        None => Err(Error::InvalidOption(format!(
            "unknown game {}; the games are {:?}",
            quoted(name),
            game_names()
        ))),
    }
}
