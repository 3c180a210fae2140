//! Solves fresh Quantum Repair Unit deals with `solve_open` (the deals of `open_batch`: row
//! `i` shuffled by `row_rng(seed, i)`) and prints the share decided within node and time caps.
//!
//! `cargo run --release -p quanta-core --example ru_open -- [deals] [players] [timeout_s]
//! [max_nodes] [deals_at_once] [threads_per_solve] [first] [seed]`
use quanta_core::batch::{Split, map_rows};
use quanta_core::repair_unit::{RepairUnit, solve};
use quanta_core::search::{Context, Limits};
use quanta_core::{Error, Game};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: f64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let deals = arg(1, 200.0) as usize;
    let game = RepairUnit::new(arg(2, 1.0) as usize);
    let limits = Limits {
        timeout: Some(Duration::from_secs_f64(arg(3, 4.0))),
        max_nodes: Some(arg(4, 40e6) as u64),
        memory_mb: 256,
    };
    let (at_once, per_solve) = (arg(5, 2.0) as usize, arg(6, 1.0) as usize);
    let (first, seed) = (arg(7, 0.0) as u64, arg(8, 0.0) as u64);
    let cancel = AtomicBool::new(false);
    let one = Context::new(limits, Some(per_solve), &cancel);
    let start = std::time::Instant::now();
    let rows = map_rows(
        first,
        deals,
        seed,
        Some(at_once),
        Split::Rows,
        &cancel,
        |_, rng| {
            let s = game.new_state();
            let order = solve::random_order(&s, rng);
            match solve::solve_open(&game, &s, &order, &one) {
                Ok(sol) => (sol.winnable as i8, sol.nodes, sol.seconds),
                Err(Error::SearchLimit { nodes, seconds, .. }) => (-1, nodes, seconds),
                Err(e) => panic!("{e}"),
            }
        },
    )
    .unwrap();
    let n = rows.len() as f64;
    let share = |f: &dyn Fn(&(i8, u64, f64)) -> bool| {
        100.0 * rows.iter().filter(|r| r.0 >= 0 && f(r)).count() as f64 / n
    };
    let mut secs: Vec<f64> = rows.iter().map(|r| r.2).collect();
    secs.sort_by(f64::total_cmp);
    let mut nodes: Vec<u64> = rows
        .iter()
        .map(|r| if r.0 < 0 { u64::MAX } else { r.1 })
        .collect();
    nodes.sort();
    println!(
        "{deals} deals: <=1s {:.1}%  <=2s {:.1}%  decided {:.1}%  | <=2M nodes {:.1}% <=4M {:.1}% \
         <=8M {:.1}% | median {:.3}s p95 {:.3}s | nodes median {} p95 {} | won {} lost {} | wall {:.0}s",
        share(&|r| r.2 <= 1.0),
        share(&|r| r.2 <= 2.0),
        share(&|_| true),
        share(&|r| r.1 <= 2_000_000),
        share(&|r| r.1 <= 4_000_000),
        share(&|r| r.1 <= 8_000_000),
        secs[secs.len() / 2],
        secs[(secs.len() - 1) * 95 / 100],
        nodes[nodes.len() / 2],
        nodes[(nodes.len() - 1) * 95 / 100],
        rows.iter().filter(|r| r.0 == 1).count(),
        rows.iter().filter(|r| r.0 == 0).count(),
        start.elapsed().as_secs_f64()
    );
    if std::env::var("RU_ROWS").is_ok() {
        for (i, r) in rows.iter().enumerate() {
            println!("deal {} {} {} {:.3}", first + i as u64, r.0, r.1, r.2);
        }
    }
}
