//! The games by name, each with its solver and its tables. Adding a game is one line here.

use crate::erased::{DynGame, Erased};
use crate::error::{Error, Result, quoted};
use crate::options::Options;
use crate::solver::SolverEntry;
use crate::table::TableEntry;
use std::sync::Arc;

type Maker = fn(&Options) -> Result<Arc<dyn DynGame>>;

type Tables = &'static [&'static TableEntry];

/// Every registered game, sorted by name, with its solver where it has one and its tables
/// (`quanta.jobs` table kinds): one line each.
#[rustfmt::skip]
const REGISTRY: &[(&str, Maker, Option<&SolverEntry>, Tables)] = &[
    ("a_quantum_leap", Erased::<crate::a_quantum_leap::AQuantumLeap>::make, Some(&crate::a_quantum_leap::solve::SOLVER), &[]),
    ("einstein", Erased::<crate::einstein::Einstein>::make, Some(&crate::einstein::solve::SOLVER), &[]),
    ("einstein_card", Erased::<crate::einstein_card::EinsteinCard>::make, Some(&crate::einstein_card::solve::SOLVER), &[]),
    ("quantum_leap", crate::quantum_leap::make, Some(&crate::quantum_leap::solve::SOLVER), crate::quantum_leap::solve::deal_tables::TABLES),
    ("quincunx", Erased::<crate::quincunx::Quincunx>::make, Some(&crate::quincunx::solve::SOLVER), &[&crate::quincunx::solve::deal_table::TABLE]),
    ("repair_unit", Erased::<crate::repair_unit::RepairUnit>::make, Some(&crate::repair_unit::solve::SOLVER), &[&crate::repair_unit::solve::deal_table::TABLE]),
];

/// The names of the registered games, sorted.
pub fn game_names() -> Vec<&'static str> {
    REGISTRY.iter().map(|(name, ..)| *name).collect()
}

/// Makes the game `name` with `options` (missing options take their defaults).
pub fn make_game(name: &str, options: &Options) -> Result<Arc<dyn DynGame>> {
    match REGISTRY.iter().find(|(n, ..)| *n == name) {
        Some((_, make, ..)) => make(options),
        None => Err(Error::InvalidOption(format!(
            "unknown game {}; the games are {:?}",
            quoted(name),
            game_names()
        ))),
    }
}

/// The solvers of the games that have one, in the games' order.
pub fn solvers() -> Vec<&'static SolverEntry> {
    REGISTRY
        .iter()
        .filter_map(|(_, _, solver, _)| *solver)
        .collect()
}

/// The solver of the game `name`, or the error naming the games that have one.
pub fn solver(name: &str) -> Result<&'static SolverEntry> {
    REGISTRY
        .iter()
        .find(|(n, ..)| *n == name)
        .and_then(|(_, _, solver, _)| *solver)
        .ok_or_else(|| {
            Error::NotApplicable(format!(
                "{name} has no solver yet; the games with one are {:?}",
                solvers().iter().map(|s| s.game).collect::<Vec<_>>()
            ))
        })
}

/// Every table kind, its game's tables in the games' order.
pub fn tables() -> Vec<&'static TableEntry> {
    REGISTRY
        .iter()
        .flat_map(|(.., tables)| tables.iter().copied())
        .collect()
}

/// The table kind `name`, or the error naming the tables there are.
pub fn table(name: &str) -> Result<&'static TableEntry> {
    tables()
        .into_iter()
        .find(|t| t.name == name)
        .ok_or_else(|| {
            let mut names: Vec<&str> = tables().iter().map(|t| t.name).collect();
            names.sort_unstable();
            Error::InvalidOption(format!(
                "table must be one of {names:?}, not {}",
                quoted(name)
            ))
        })
}
