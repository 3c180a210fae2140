//! Random playouts per second on one thread, through the erased layer as the bindings call it:
//! `cargo run --release -p quanta-core --example playouts_speed [game] [seconds=S] [games=N]`
//! (default: EinStein with its default options, 3 s, 200,000). Plays batches of N games, seeds
//! 0, 1, ... for about S seconds and prints the rate and a checksum of the first batch's
//! returns and lengths, which a change to the playout kernel must leave as it is (the same
//! games from the same seeds). With `seconds=0` it plays the first batch alone: a fixed
//! workload whose CPU time (`/usr/bin/time -f %U`) compares two builds on a busy machine. A
//! measurement, not a test.

use quanta_core::registry::make_game;
use quanta_core::Options;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("einstein", |s| s.as_str());
    let seconds: f64 = args
        .iter()
        .find_map(|kv| kv.strip_prefix("seconds="))
        .map_or(3.0, |s| s.parse().expect("seconds=S"));
    let game = make_game(name, &Options::new()).expect("a registered game");
    let cancel = AtomicBool::new(false);
    let batch: usize = args
        .iter()
        .find_map(|kv| kv.strip_prefix("games="))
        .map_or(200_000, |s| s.parse().expect("games=N"));
    let first = game.random_playouts(0, batch, 0, Some(1), &cancel).unwrap();
    let checksum = first
        .returns
        .iter()
        .zip(first.length.iter().cycle())
        .fold(0u64, |h, (r, l)| {
            h.wrapping_mul(0x100000001b3) ^ (r.to_bits() ^ *l as u64)
        });
    let (mut games, mut seed) = (0usize, 1u64);
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds {
        games += game
            .random_playouts(0, batch, seed, Some(1), &cancel)
            .unwrap()
            .length
            .len();
        seed += 1;
    }
    let rate = games as f64 / start.elapsed().as_secs_f64().max(1e-9);
    let plies: i64 = first.length.iter().map(|&l| l as i64).sum();
    println!(
        "{name}: {rate:.0} games/s on one thread; first batch: {:.2} plies a game, checksum {checksum:016x}",
        plies as f64 / batch as f64
    );
}
