//! Solves Quantum Leap positions given as notation lines on stdin and prints nodes and time.
//!
//!     cargo run --release --example ql_solve -- 5 20 < positions.txt
//!
//! Arguments: board side, time limit per position in seconds; `MEMORY_MB` sets the memory cap,
//! `THREADS` the threads (default 1) and `MAX_NODES` a node limit per position (none by
//! default; with one thread the count, unlike the time, is the same under any load).

use quanta_core::game::Game;
use quanta_core::options::{OptionValue, Options};
use quanta_core::quantum_leap::QuantumLeap;
use quanta_core::quantum_leap::solve::{Limits, solve};
use quanta_core::search::Context;
use std::io::BufRead;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let side: i64 = args.get(1).map_or(5, |s| s.parse().expect("side"));
    let seconds: f64 = args.get(2).map_or(20.0, |s| s.parse().expect("seconds"));
    let mut options = Options::new();
    options.insert("size".into(), OptionValue::Int(side));
    let game = QuantumLeap::<u64>::from_options(&options).expect("game");
    let cancel = AtomicBool::new(false);
    let mut times = Vec::new();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("line");
        let state = game.from_notation(line.trim()).expect("notation");
        let limits = Limits {
            timeout: Some(Duration::from_secs_f64(seconds)),
            memory_mb: std::env::var("MEMORY_MB").map_or(1024, |m| m.parse().expect("MEMORY_MB")),
            max_nodes: std::env::var("MAX_NODES").ok().map(|m| m.parse().expect("MAX_NODES")),
            ..Limits::default()
        };
        let threads = std::env::var("THREADS").map_or(1, |t| t.parse().expect("THREADS"));
        match solve(&game, &state, &Context::new(limits, Some(threads), &cancel)) {
            Ok(s) => {
                println!(
                    "{} {:>10} {:10.6}s",
                    if s.win { "win " } else { "loss" },
                    s.nodes,
                    s.seconds
                );
                times.push(s.seconds);
            }
            Err(e) => {
                println!("{e}");
                times.push(seconds);
            }
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "median {:.3}s total {:.3}s",
        times[times.len() / 2],
        times.iter().sum::<f64>()
    );
}
