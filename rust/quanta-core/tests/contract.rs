//! The game contract, checked in Rust for every registered game along seeded random games:
//! what `tests/contract/test_contract.py` checks through Python, here on the core's own trait objects,
//! so that a game that breaks the contract fails `cargo test` before it reaches the bindings.
//! Nothing here names a game: a seventh game is checked by its registry line alone.

use quanta_core::erased::{DynGame, DynState};
use quanta_core::game::row_rng;
use quanta_core::registry::{game_names, make_game, solver};
use quanta_core::search::{Context, Limits};
use quanta_core::{Action, Error, Information, Options, ToMove, Utility};
use rand::Rng as _;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Random games per registered game (chance by its odds, decisions uniformly).
const GAMES: u64 = 4;

fn games() -> Vec<Arc<dyn DynGame>> {
    game_names()
        .into_iter()
        .map(|name| make_game(name, &Options::new()).expect("default options make the game"))
        .collect()
}

/// Every state along `GAMES` seeded random games of `game`.
fn states(game: &dyn DynGame) -> Vec<Box<dyn DynState>> {
    let mut out = Vec::new();
    for g in 0..GAMES {
        let mut rng = row_rng(7, g);
        let mut s = game.new_state();
        loop {
            out.push(s.clone_box());
            let action = match s.to_move() {
                ToMove::Terminal => break,
                ToMove::Chance => {
                    let outcomes = s.chance_outcomes();
                    let mut x: f64 = rng.random();
                    let mut pick = outcomes[outcomes.len() - 1].0;
                    for &(a, p) in &outcomes {
                        if x < p {
                            pick = a;
                            break;
                        }
                        x -= p;
                    }
                    pick
                }
                ToMove::Player(_) => {
                    let legal = s.legal_actions();
                    legal[rng.random_range(0..legal.len())]
                }
            };
            s = s.play(action).expect("a legal action plays");
        }
    }
    out
}

#[test]
fn the_registry_is_sorted_and_each_game_carries_its_name() {
    let names = game_names();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    for game in games() {
        assert!(names.contains(&game.name()));
        // Every option is reported, and the reported options rebuild the same game.
        let again = make_game(game.name(), &game.options()).unwrap();
        assert_eq!(again.options(), game.options());
    }
    assert!(matches!(
        make_game("no such game", &Options::new()),
        Err(Error::InvalidOption(_))
    ));
}

#[test]
fn decisions_and_chance_nodes_offer_what_they_should() {
    for game in games() {
        let name = game.name();
        for s in states(&*game) {
            let legal = s.legal_actions();
            let outcomes = s.chance_outcomes();
            match s.to_move() {
                ToMove::Terminal => {
                    assert!(
                        legal.is_empty() && outcomes.is_empty(),
                        "{name}: a finished game offers moves"
                    );
                }
                ToMove::Chance => {
                    assert!(
                        !outcomes.is_empty(),
                        "{name}: a chance node without outcomes"
                    );
                    let total: f64 = outcomes.iter().map(|o| o.1).sum();
                    assert!(
                        (total - 1.0).abs() < 1e-9,
                        "{name}: chance odds add up to {total}"
                    );
                    assert!(
                        outcomes.iter().all(|o| o.1 > 0.0),
                        "{name}: an outcome of odds 0"
                    );
                    let actions: Vec<Action> = outcomes.iter().map(|o| o.0).collect();
                    assert_eq!(
                        legal, actions,
                        "{name}: legal actions at chance are the outcomes"
                    );
                }
                ToMove::Player(p) => {
                    assert!(
                        (p as usize) < game.num_players(),
                        "{name}: player {p} out of range"
                    );
                    assert!(
                        !legal.is_empty(),
                        "{name}: a decision without legal actions"
                    );
                    assert!(
                        outcomes.is_empty(),
                        "{name}: a decision with chance outcomes"
                    );
                }
            }
            assert!(
                legal.windows(2).all(|w| w[0] < w[1]),
                "{name}: legal actions not sorted and unique"
            );
            assert!(
                legal.iter().all(|&a| (a as usize) < game.num_actions()),
                "{name}: action out of range"
            );
        }
    }
}

#[test]
fn action_names_are_distinct_and_read_back() {
    for game in games() {
        let name = game.name();
        for s in states(&*game) {
            let legal = s.legal_actions();
            let mut seen = HashSet::new();
            for &a in &legal {
                let text = s.action_to_string(a).unwrap();
                assert!(
                    seen.insert(text.clone()),
                    "{name}: two actions named {text:?}"
                );
                assert_eq!(
                    s.parse_action(&text).unwrap(),
                    a,
                    "{name}: {text:?} does not read back"
                );
            }
            // An action that is not legal here does not play.
            if let Some(illegal) = (0..game.num_actions() as Action).find(|a| !legal.contains(a)) {
                assert!(
                    s.play(illegal).is_err(),
                    "{name}: illegal action {illegal} played"
                );
            }
        }
    }
}

#[test]
fn the_notation_reads_back_to_the_same_state() {
    for game in games() {
        let name = game.name();
        for s in states(&*game) {
            let text = s.notation();
            let back = game
                .from_notation(&text)
                .unwrap_or_else(|e| panic!("{name}: {text:?}: {e}"));
            assert!(
                back.same_as(&*s),
                "{name}: {text:?} reads back to another state"
            );
            assert_eq!(back.notation(), text);
        }
        assert!(matches!(
            game.from_notation("no such position"),
            Err(Error::InvalidNotation(_))
        ));
    }
}

#[test]
fn returns_keep_to_their_bounds_and_the_utility() {
    for game in games() {
        let (name, info) = (game.name(), game.info());
        for s in states(&*game) {
            let r = s.returns();
            assert_eq!(r.len(), game.num_players(), "{name}: one return per player");
            assert!(
                r.iter()
                    .all(|&v| info.min_return <= v && v <= info.max_return),
                "{name}: {r:?} out of bounds"
            );
            match info.utility {
                Utility::ZeroSum => assert!(
                    r.iter().sum::<f64>().abs() < 1e-9,
                    "{name}: {r:?} not zero-sum"
                ),
                Utility::Cooperative => {
                    assert!(r.iter().all(|&v| v == r[0]), "{name}: {r:?} not shared")
                }
                Utility::GeneralSum => {}
            }
        }
    }
}

#[test]
fn observations_have_their_shape() {
    for game in games() {
        let name = game.name();
        let size: usize = game.observation_shape().iter().product();
        for s in states(&*game) {
            for p in 0..game.num_players() {
                assert_eq!(
                    s.observation_tensor(p).len(),
                    size,
                    "{name}: tensor of player {p}"
                );
                assert!(!s.observation_string(p).is_empty());
            }
        }
    }
}

/// A resampled state is one the player cannot tell from the real one: the same information
/// state, the same legal actions if it is their turn; a perfect-information game resamples to
/// the state itself.
#[test]
fn resample_keeps_what_the_player_knows() {
    for game in games() {
        let (name, info) = (game.name(), game.info());
        for (i, s) in states(&*game).iter().enumerate() {
            for p in 0..game.num_players() {
                let r = s.resample(p, i as u64);
                assert_eq!(
                    r.information_state_string(p),
                    s.information_state_string(p),
                    "{name}: player {p}"
                );
                assert_eq!(r.to_move(), s.to_move());
                if s.to_move() == ToMove::Player(p as u8) {
                    assert_eq!(
                        r.legal_actions(),
                        s.legal_actions(),
                        "{name}: player {p}'s moves"
                    );
                }
                if info.information == Information::Perfect {
                    assert!(
                        r.same_as(&**s),
                        "{name}: a perfect-information state resampled"
                    );
                }
            }
        }
    }
}

/// Every game's registered solver, on its solvable form, answers within a small node limit
/// either exactly or with the reason it is not exact: never an unproved value called exact.
#[test]
fn each_registered_solver_answers_or_says_undecided() {
    let cancel = AtomicBool::new(false);
    for name in game_names() {
        let Ok(entry) = solver(name) else { continue };
        let game = make_game(name, &entry.solvable_options()).unwrap();
        let limits = Limits {
            max_nodes: Some(2_000),
            ..Limits::default()
        };
        let ctx = Context::new(limits, Some(1), &cancel);
        let mut answered = 0;
        for s in states(&*game) {
            let Ok(answer) = s.solve(&ctx) else {
                continue;
            };
            answered += 1;
            // Exact: a value and no reason. Otherwise the reason is given: undecided (no value)
            // or, for a solver that estimates over samples, an estimate said to be one.
            assert_eq!(answer.exact, answer.reason.is_none(), "{name}: {answer:?}");
            assert!(
                answer.value.is_some() || !answer.exact,
                "{name}: {answer:?}"
            );
            if let Some(best) = answer.best {
                assert!(
                    s.legal_actions().contains(&best),
                    "{name}: best action {best} is not legal"
                );
            }
        }
        assert!(
            answered > 0,
            "{name}: the solver took no state of its random games"
        );
    }
}
