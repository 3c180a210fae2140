//! The games by name, each with what it declares: its solver, its evaluator, its best player
//! and its tables. Adding a game is one line here. This is the top of the core: nothing below
//! it looks a game up by name.

use crate::erased::{DynGame, Erased};
use crate::error::{Error, Result, quoted};
use crate::knowledge::{Knowledge, Rollout};
use crate::bits::Bits256;
use crate::options::Options;
use crate::quantum_leap::QuantumLeap;
use crate::solver::SolverInfo;
use crate::table::TableEntry;
use std::sync::Arc;

type Maker = fn(&Options) -> Result<Arc<dyn DynGame>>;

/// One registered game: how to make it, and what its type declares ([`Knowledge`]), read here
/// so that generic code can list them without making the game.
pub struct Entry {
    pub name: &'static str,
    pub make: Maker,
    pub solver: Option<SolverInfo>,
    pub evaluator: Option<&'static str>,
    pub rollout: Rollout,
    pub best_player: &'static str,
    pub tables: &'static [&'static TableEntry],
}

/// The entry of game `G`, made with [`Erased::make`], with its tables.
const fn entry<G: Knowledge>(tables: &'static [&'static TableEntry]) -> Entry {
    Entry {
        name: G::NAME,
        make: Erased::<G>::make,
        solver: G::SOLVER,
        evaluator: G::EVALUATOR,
        rollout: G::ROLLOUT,
        best_player: G::BEST_PLAYER,
        tables,
    }
}

/// Quantum Leap at the bitboard width its board needs: 64 bits up to 64 cells (a hexagon of
/// side 5), 128 up to 128 (side 7), 256 beyond.
fn quantum_leap_at_width(options: &Options) -> Result<Arc<dyn DynGame>> {
    match crate::quantum_leap::cells_of(options) {
        Some(cells) if cells > 128 => Erased::<QuantumLeap<Bits256>>::make(options),
        Some(cells) if cells > 64 => Erased::<QuantumLeap<u128>>::make(options),
        _ => Erased::<QuantumLeap<u64>>::make(options),
    }
}

/// Every registered game, sorted by name: one line each.
#[rustfmt::skip]
const REGISTRY: &[Entry] = &[
    entry::<crate::a_quantum_leap::AQuantumLeap>(&[]),
    entry::<crate::einstein::Einstein>(&[]),
    entry::<crate::einstein_card::EinsteinCard>(&[]),
    Entry { make: quantum_leap_at_width, ..entry::<QuantumLeap<u64>>(crate::quantum_leap::solve::deal_tables::TABLES) },
    entry::<crate::quincunx::Quincunx>(&[&crate::quincunx::solve::deal_table::TABLE]),
    entry::<crate::repair_unit::RepairUnit>(&[&crate::repair_unit::solve::deal_table::TABLE]),
];

/// Every registered game's entry, sorted by name.
pub fn entries() -> &'static [Entry] {
    REGISTRY
}

/// The names of the registered games, sorted.
pub fn game_names() -> Vec<&'static str> {
    REGISTRY.iter().map(|e| e.name).collect()
}

/// Makes the game `name` with `options` (missing options take their defaults).
pub fn make_game(name: &str, options: &Options) -> Result<Arc<dyn DynGame>> {
    match REGISTRY.iter().find(|e| e.name == name) {
        Some(e) => (e.make)(options),
        None => Err(Error::InvalidOption(format!(
            "unknown game {}; the games are {:?}",
            quoted(name),
            game_names()
        ))),
    }
}

/// The games that have a solver, with it, in the games' order.
pub fn solvers() -> Vec<(&'static str, SolverInfo)> {
    REGISTRY
        .iter()
        .filter_map(|e| e.solver.map(|s| (e.name, s)))
        .collect()
}

/// The solver of the game `name`, or the error naming the games that have one.
pub fn solver(name: &str) -> Result<SolverInfo> {
    REGISTRY
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| e.solver)
        .ok_or_else(|| {
            Error::NotApplicable(format!(
                "{name} has no solver yet; the games with one are {:?}",
                solvers().iter().map(|(g, _)| *g).collect::<Vec<_>>()
            ))
        })
}

/// Every table kind, its game's tables in the games' order.
pub fn tables() -> Vec<&'static TableEntry> {
    REGISTRY
        .iter()
        .flat_map(|e| e.tables.iter().copied())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{Bot, BotSpec};
    use crate::game::{Rng, ToMove};
    use crate::search::{Context, Limits};
    use rand::{Rng as _, SeedableRng};
    use std::sync::atomic::AtomicBool;

    /// Every registered solver, on every decision of a random game of its solvable form with no
    /// node to spend: an undecided answer carries no number; a finished game is refused.
    #[test]
    fn every_registered_solver_answers_undecided_without_a_number_or_refuses() {
        let cancel = AtomicBool::new(false);
        let none = Limits {
            max_nodes: Some(0),
            ..Limits::default()
        };
        assert!(!solvers().is_empty());
        for (name, info) in solvers() {
            assert!(game_names().contains(&name));
            let game = make_game(name, &info.solvable_options()).unwrap();
            assert!(game.solver().is_some(), "{name}");
            let mut rng = Rng::seed_from_u64(7);
            let mut state = game.new_state();
            let mut answered = 0;
            while state.to_move() != ToMove::Terminal {
                let actions = state.legal_actions();
                if let ToMove::Player(_) = state.to_move() {
                    match state.solve(&Context::new(none.clone(), Some(1), &cancel)) {
                        Ok(a) if a.value.is_none() => {
                            assert!(!a.exact && a.best.is_none() && a.line.is_empty());
                            assert!(a.reason.as_deref().unwrap().contains("limit"));
                            answered += 1;
                        }
                        Ok(a) => {
                            assert!(a.nodes <= 64, "{name}: decided past its limit");
                            answered += 1;
                        }
                        Err(Error::NotApplicable(_)) => {}
                        Err(e) => panic!("{name}: {e}"),
                    }
                }
                state = state
                    .play(actions[rng.random_range(0..actions.len())])
                    .unwrap();
            }
            assert!(answered > 0, "{name} answered no decision");
            let over = state.solve(&Context::new(none.clone(), None, &cancel));
            assert!(matches!(over, Err(Error::NotApplicable(_))), "{name}");
        }
    }

    #[test]
    fn a_game_without_a_solver_is_named_as_such() {
        for name in game_names() {
            let has = solvers().iter().any(|(g, _)| *g == name);
            let entry = entries().iter().find(|e| e.name == name).unwrap();
            assert_eq!(has, entry.solver.is_some(), "{name}");
            assert_eq!(
                has,
                make_game(name, &Options::new()).unwrap().solver().is_some(),
                "{name}"
            );
            match solver(name) {
                Ok(info) => assert!(has && info.function == entry.solver.unwrap().function),
                Err(Error::NotApplicable(m)) => assert!(!has && m.contains("has no solver")),
                Err(e) => panic!("{e}"),
            }
        }
        // A name that no game has is refused as having no solver, naming those that have one.
        match solver("no_such_game") {
            Err(Error::NotApplicable(m)) => {
                assert!(m.contains("no_such_game has no solver"), "{m}");
                for (name, _) in solvers() {
                    assert!(m.contains(name), "{m}");
                }
            }
            other => panic!("{other:?}"),
        }
    }

    /// The registry lists every game once, sorted, each entry what its game declares.
    #[test]
    fn every_entry_is_what_its_game_declares() {
        let names = game_names();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
        for entry in entries() {
            let game = (entry.make)(&Options::new()).unwrap();
            assert_eq!(game.name(), entry.name);
            assert_eq!(game.evaluator(), entry.evaluator, "{}", entry.name);
            assert_eq!(game.rollout(), entry.rollout, "{}", entry.name);
            assert_eq!(game.best_player(), entry.best_player, "{}", entry.name);
            assert_eq!(
                game.solver().map(|s| s.function),
                entry.solver.map(|s| s.function),
                "{}",
                entry.name
            );
        }
    }

    /// Every registered game declares a best player, and the best player answers at a decision
    /// of a random game with a small time limit with a legal action.
    #[test]
    fn every_game_has_a_best_player_that_plays_a_legal_action_in_time() {
        let cancel = AtomicBool::new(false);
        let limits = Limits {
            timeout: Some(std::time::Duration::from_millis(50)),
            ..Limits::default()
        };
        for entry in entries() {
            let name = entry.name;
            assert!(!entry.best_player.trim().is_empty(), "{name}: no best player");
            let game = (entry.make)(&Options::new()).unwrap();
            let mut rng = Rng::seed_from_u64(13);
            let mut state = game.new_state();
            let mut asked = 0;
            while state.to_move() != ToMove::Terminal && asked < 3 {
                let actions = state.legal_actions();
                if let ToMove::Player(_) = state.to_move() {
                    // A decision early in the game and two later ones.
                    if rng.random_range(0..4) == 0 || asked == 0 {
                        let bot = Bot {
                            spec: BotSpec::Best(limits.clone()),
                            seed: 5,
                        };
                        let started = std::time::Instant::now();
                        let a = state
                            .bot_action(&bot, &cancel)
                            .unwrap_or_else(|e| panic!("{name}: {e}"));
                        assert!(actions.contains(&a), "{name}: {a} is not legal");
                        // Generous: the machine may be busy, but a best player ignoring its
                        // time would take far longer.
                        let seconds = started.elapsed().as_secs_f64();
                        assert!(seconds < 5.0, "{name}: {seconds} s for a 0.05 s move");
                        asked += 1;
                    }
                }
                state = state
                    .play(actions[rng.random_range(0..actions.len())])
                    .unwrap();
            }
            assert!(asked > 0, "{name}: no decision");
        }
    }
}
