//! MCTS iterations per second, through the erased layer as the bindings call it:
//! `cargo run --release -p quanta-core --example bots_speed [game [options as k=v ...]]`
//! (default: EinStein, then Quantum Leap side 5). Each search is one `bot_action` of a fixed
//! number of iterations (`QUANTA_ITERATIONS`, default 20,000), at the first decision of a
//! seeded game and at a later one; the rate is iterations over wall time. Each line ends with
//! the action chosen: a change meant to make the same search faster must leave it as it is.
//! A measurement, not a test.

use quanta_core::bots::{Bot, BotSpec, SearchSpec};
use quanta_core::erased::DynState;
use quanta_core::game::row_rng;
use quanta_core::registry::make_game;
use quanta_core::{OptionValue, Options, ToMove};
use rand::Rng as _;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The decisions of one seeded random game.
fn decisions(start: Box<dyn DynState>) -> Vec<Box<dyn DynState>> {
    let mut rng = row_rng(1, 0);
    let mut s = start;
    let mut out = Vec::new();
    while s.to_move() != ToMove::Terminal {
        if matches!(s.to_move(), ToMove::Player(_)) && s.legal_actions().len() > 1 {
            out.push(s.clone_box());
        }
        let legal = s.legal_actions();
        s = s.play(legal[rng.random_range(0..legal.len())]).unwrap();
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: Vec<(String, Options)> = if args.is_empty() {
        vec![
            ("einstein".into(), Options::new()),
            (
                "quantum_leap".into(),
                [("size".to_string(), OptionValue::Int(5))].into(),
            ),
        ]
    } else {
        let options = args[1..]
            .iter()
            .map(|kv| {
                let (k, v) = kv.split_once('=').expect("options as key=value");
                let value = v
                    .parse()
                    .map(OptionValue::Int)
                    .unwrap_or(OptionValue::Str(v.into()));
                (k.to_string(), value)
            })
            .collect();
        vec![(args[0].clone(), options)]
    };
    let cancel = AtomicBool::new(false);
    let iterations = std::env::var("QUANTA_ITERATIONS").map_or(20_000, |n| n.parse().unwrap());
    for (name, options) in runs {
        let game = make_game(&name, &options).unwrap();
        let states = decisions(game.new_state());
        for (label, s) in [("first", &states[0]), ("middle", &states[states.len() / 2])] {
            for (kind, bot) in [
                (
                    "mcts",
                    BotSpec::Mcts(SearchSpec::iterations(iterations)),
                ),
                (
                    "ismcts",
                    BotSpec::Ismcts(SearchSpec::iterations(iterations)),
                ),
            ] {
                let start = Instant::now();
                let action = s.bot_action(&Bot { spec: bot, seed: 7 }, &cancel).unwrap();
                let seconds = start.elapsed().as_secs_f64();
                println!(
                    "{name} {options:?} {label} decision ({} actions): {kind} {:.0} iterations/s, \
                     chose {action}",
                    s.legal_actions().len(),
                    iterations as f64 / seconds
                );
            }
        }
    }
}
