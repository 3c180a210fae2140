//! Times `solve_open` on fresh (or greedily advanced) solitaire Quincunx deals.
//!
//! `cargo run --release -p quanta-core --example qx_open -- [deals] [empty] [seed] [timeout_s] [first]`
//! prints one line per deal (lost, score, nodes, seconds and the line's placements) and the
//! median / mean / p95 / max time.
use quanta_core::quincunx::solve::{Limits, advance_greedily, deal, solve_open};
use quanta_core::search::Context;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (deals, empty, seed, timeout, first) =
        (arg(1, 20), arg(2, 12), arg(3, 0), arg(4, 10), arg(5, 0));
    let limits = Limits {
        timeout: Some(Duration::from_secs(timeout)),
        ..Limits::default()
    };
    let cancel = AtomicBool::new(false);
    let mut times = Vec::new();
    let mut unsolved = 0;
    for row in first..first + deals {
        let (mut pos, order) = deal(seed, row, false);
        let order = advance_greedily(&mut pos, &order, empty as u32);
        let start = Instant::now();
        match solve_open(&pos, &order, &Context::new(limits.clone(), None, &cancel)) {
            Ok(s) => println!(
                "deal {row}: lost {} score {} nodes {} {:.3}s line {:?}",
                s.lost, s.score, s.nodes, s.seconds, s.line
            ),
            Err(e) => {
                unsolved += 1;
                println!("deal {row}: {e}")
            }
        }
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let q = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    println!(
        "{} deals, {} unsolved: median {:.3}s mean {:.3}s p95 {:.3}s max {:.3}s",
        times.len(),
        unsolved,
        q(0.5),
        times.iter().sum::<f64>() / times.len() as f64,
        q(0.95),
        times[times.len() - 1]
    );
}
