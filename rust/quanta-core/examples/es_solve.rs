//! Solves EinStein würfelt nicht positions given as notation lines on stdin and prints the
//! value (and its bits), nodes and time of each.
//!
//!     cargo run --release --example es_solve < positions.txt
//!
//! `THREADS` sets the threads (default 1), `MEMORY_MB` the memory cap (default 1024).

use quanta_core::einstein::Einstein;
use quanta_core::einstein::solve::solve;
use quanta_core::game::Game;
use quanta_core::options::Options;
use quanta_core::search::{Context, Limits};
use std::io::BufRead;
use std::sync::atomic::AtomicBool;

fn main() {
    let game = Einstein::from_options(&Options::new()).expect("game");
    let cancel = AtomicBool::new(false);
    let threads = std::env::var("THREADS").map_or(1, |t| t.parse().expect("THREADS"));
    let limits = Limits {
        memory_mb: std::env::var("MEMORY_MB").map_or(1024, |m| m.parse().expect("MEMORY_MB")),
        ..Limits::default()
    };
    let (mut nodes, mut seconds) = (0, 0.0);
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("line");
        let state = game.from_notation(line.trim()).expect("notation");
        let s = solve(
            &game,
            &state,
            &Context::new(limits.clone(), Some(threads), &cancel),
        )
        .expect("solve");
        println!(
            "{:.9} {:016x} {:>10} {:8.3}s  {}",
            s.value,
            s.value.to_bits(),
            s.nodes,
            s.seconds,
            line.trim()
        );
        nodes += s.nodes;
        seconds += s.seconds;
    }
    println!("total {nodes} nodes, {seconds:.3}s");
}
