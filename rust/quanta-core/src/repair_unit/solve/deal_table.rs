//! The `repair_unit_open` table: fresh Quantum Repair Unit deals decided with the card order
//! known ([`solve_open`]), one row a deal.

use super::{random_order, solve_open};
use crate::batch::{Split, map_rows};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::repair_unit::RepairUnit;
use crate::search::Context;
use crate::table::{Cell, Column, Dtype, Param, Params, TableEntry};
use std::ops::Range;

/// Whether fresh deals can be won with the order known.
pub const TABLE: TableEntry = TableEntry {
    name: "repair_unit_open",
    game: "repair_unit",
    doc: "fresh Quantum Repair Unit deals decided with the card order known; winnable is null \
          where undecided within the limits",
    params: &[
        Param::int("players", 1, 4, 1),
        Param::timeout(1.0),
        Param::MAX_NODES,
        Param::memory_mb(256),
    ],
    columns: &[
        Column::new("deal", Dtype::Int64, false),
        Column::new("winnable", Dtype::Bool, true),
        Column::new("nodes", Dtype::UInt64, false),
        Column::new("seconds", Dtype::Float64, false),
    ],
    rows: None,
    seeded: true,
    kernel: rows,
};

/// Deals `first..first + n` of `seed` (deal `i`: the whole pack in the order `row_rng(seed, i)`
/// shuffles it) solved open in parallel, each within the context's limits: whether it can be
/// won (`None`: undecided within them), the nodes and the seconds of its solve.
pub fn open_batch(
    game: &RepairUnit,
    first: u64,
    n: usize,
    seed: u64,
    ctx: &Context,
) -> Result<Vec<(Option<bool>, u64, f64)>> {
    let one = Context::new(ctx.limits.clone(), None, ctx.cancel);
    map_rows(
        first,
        n,
        seed,
        ctx.threads,
        Split::Rows,
        ctx.cancel,
        |_, rng| {
            let s = game.new_state();
            let order = random_order(&s, rng);
            match solve_open(game, &s, &order, &one) {
                Ok(sol) => (Some(sol.winnable), sol.nodes, sol.seconds),
                Err(Error::SearchLimit { nodes, seconds, .. }) => (None, nodes, seconds),
                Err(_) => (None, 0, 0.0),
            }
        },
    )
}

/// Deals `rows` of `seed` ([`open_batch`]), one row a deal.
fn rows(p: &Params, rows: Range<u64>, seed: u64, ctx: &Context) -> Result<Vec<Vec<Cell>>> {
    let game = RepairUnit::new(p.int("players") as usize);
    let n = (rows.end - rows.start) as usize;
    let solved = open_batch(&game, rows.start, n, seed, ctx)?;
    Ok(rows
        .zip(solved)
        .map(|(deal, (winnable, nodes, seconds))| {
            vec![
                Cell::Int(deal as i64),
                winnable.into(),
                nodes.into(),
                seconds.into(),
            ]
        })
        .collect())
}
