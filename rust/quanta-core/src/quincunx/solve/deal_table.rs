//! The `quincunx_open` table: fresh deals of the solitaire solved with the draw order known
//! (the open-deck optimum, [`solve_open_batch`]), one row a deal.

use super::solve_open_batch;
use crate::error::Result;
use crate::search::Context;
use crate::table::{Cell, Column, Dtype, Param, Params, TableEntry};
use std::ops::Range;

/// The open-deck optimum of fresh deals.
pub const TABLE: TableEntry = TableEntry {
    name: "quincunx_open",
    game: "quincunx",
    doc: "fresh deals of the Quincunx solitaire solved with the draw order known; a deal past \
          the limits is undecided: solved false, lost and score null",
    params: &[
        Param::bool("excuse", false),
        Param::int("empty", 0, 12, 12),
        Param::TIMEOUT,
        Param::MAX_NODES,
        Param::memory_mb(256),
    ],
    columns: &[
        Column::new("deal", Dtype::Int64, false),
        Column::new("solved", Dtype::Bool, false),
        Column::new("lost", Dtype::Bool, true),
        Column::new("score", Dtype::Int32, true),
        Column::new("nodes", Dtype::UInt64, false),
        Column::new("seconds", Dtype::Float64, false),
    ],
    rows: None,
    seeded: true,
    kernel: rows,
};

/// Deals `rows` of `seed` (deal `i` from `row_rng(seed, i)`), solved in parallel.
fn rows(p: &Params, rows: Range<u64>, seed: u64, ctx: &Context) -> Result<Vec<Vec<Cell>>> {
    let n = (rows.end - rows.start) as usize;
    let solved = solve_open_batch(
        seed,
        rows.start,
        n,
        p.bool("excuse"),
        p.int("empty") as u32,
        false,
        ctx,
    )?;
    Ok(rows
        .zip(solved)
        .map(|(deal, r)| {
            vec![
                Cell::Int(deal as i64),
                r.solved().into(),
                r.lost.into(),
                r.score.map(i64::from).into(),
                r.nodes.into(),
                r.seconds.into(),
            ]
        })
        .collect())
}
