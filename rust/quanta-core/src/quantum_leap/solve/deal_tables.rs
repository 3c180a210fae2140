//! The Quantum Leap tables: `quantum_leap` (boards dealt at random, each solved) and
//! `quantum_leap_every_deal` (every deal of a small board, each class of deals the board's
//! symmetries map onto one another solved once, weighted by the deals it stands for). Either
//! takes the board as `size` (a hexagon's side) or as `board` (any board, which replaces
//! `size`).

use super::solve;
use crate::batch::{Split, map_rows};
use crate::bits::{Bits, Bits256};
use crate::error::Result;
use crate::game::{Game, Rng, ToMove};
use crate::options::{OptionValue, Options};
use crate::error::Error;
use crate::quantum_leap::board::{Board, Shape};
use crate::quantum_leap::{QuantumLeap, QuantumLeapState};
use crate::search::Context;
use crate::table::{Cell, Column, Dtype, Param, Params, TableEntry, error_text, error_work};
use rayon::prelude::*;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

/// Quantum Leap's tables, in its registry line.
pub const TABLES: &[&TableEntry] = &[&DEALS, &EVERY_DEAL];

/// Boards dealt at random, each solved.
pub const DEALS: TableEntry = TableEntry {
    name: "quantum_leap",
    game: "quantum_leap",
    doc: "Quantum Leap boards dealt at random and solved; a deal past the limits keeps win and \
          best null and its SearchLimitError in error",
    params: &[
        Param::int("size", 2, 7, DEFAULT_SIZE),
        Param::text("board", BOARD),
        Param::choice("setup", &["A", "B"]),
        Param::TIMEOUT,
        Param::MAX_NODES,
        Param::memory_mb(1024),
    ],
    columns: &[
        Column::new("deal", Dtype::Int64, false),
        Column::new("notation", Dtype::String, false),
        Column::new("win", Dtype::Bool, true),
        Column::new("best", Dtype::String, true),
        Column::new("nodes", Dtype::Int64, true),
        Column::new("seconds", Dtype::Float64, true),
        Column::new("error", Dtype::String, false),
    ],
    rows: None,
    seeded: true,
    kernel: deal_rows,
};

/// The side of the hexagon a table's boards have when neither `size` nor `board` says.
const DEFAULT_SIZE: i64 = 3;

/// What the parameter `board` must be.
const BOARD: &str = "a board such as \"triangle 4\" or \"parallelogram 2x3\" (it replaces \
                     size), or \"\" for the hexagon of side size";

/// The most cells of a board whose every deal a table lists (each deal is enumerated).
pub const EVERY_DEAL_CELLS: usize = 24;

/// Every deal of a board of side 2 or 3, or of any board of at most `EVERY_DEAL_CELLS` cells,
/// up to symmetry.
pub const EVERY_DEAL: TableEntry = TableEntry {
    name: "quantum_leap_every_deal",
    game: "quantum_leap",
    doc: "every deal of a Quantum Leap board of side 2 or 3 (or a board of at most 24 cells), \
          one row a class of deals the board's symmetries map onto one another, weighted by \
          the deals in it",
    params: &[
        Param::int("size", 2, 3, DEFAULT_SIZE),
        Param::text("board", BOARD),
        Param::choice("setup", &["A", "B"]),
        Param::TIMEOUT,
        Param::MAX_NODES,
        Param::memory_mb(1024),
    ],
    columns: &[
        Column::new("deal", Dtype::Int64, false),
        Column::new("board", Dtype::String, false),
        Column::new("weight", Dtype::Int64, false),
        Column::new("white_wins", Dtype::Bool, true),
        Column::new("black_swap_wins", Dtype::Bool, true),
        Column::new("nodes", Dtype::Int64, false),
        Column::new("seconds", Dtype::Float64, false),
        Column::new("error", Dtype::String, false),
    ],
    rows: Some(|p| Ok(deal_classes(&small_shape(p)?, p.str("setup")).len() as u64)),
    seeded: false,
    kernel: every_deal_rows,
};

/// The board of the table's parameters: `board`, or else the hexagon of side `size` (a `size`
/// other than its default beside a `board` is refused: the board names its own size).
fn shape(p: &Params) -> Result<Shape> {
    match p.str("board") {
        "" => Ok(Shape::Hexagon(p.int("size") as usize)),
        _ if p.int("size") != DEFAULT_SIZE => Err(Error::InvalidOption(
            "a Quantum Leap table takes board or size, not both: a board names its own size \
             (\"hexagon 3\" is size 3)"
                .into(),
        )),
        text => Shape::parse(text),
    }
}

/// The board of the table's parameters, small enough for every deal to be listed.
fn small_shape(p: &Params) -> Result<Shape> {
    let shape = shape(p)?;
    let cells = shape.coords().len();
    if cells > EVERY_DEAL_CELLS {
        return Err(Error::InvalidOption(format!(
            "table quantum_leap_every_deal: a board of {cells} cells has too many deals; \
             the table lists every deal of boards of at most {EVERY_DEAL_CELLS} cells"
        )));
    }
    Ok(shape)
}

/// The game of the table's parameters, at bitboard width `B`.
fn game<B: Bits>(p: &Params) -> Result<QuantumLeap<B>> {
    let board = match shape(p)? {
        Shape::Hexagon(side) if side <= 7 => ("size".to_string(), OptionValue::Int(side as i64)),
        shape => {
            let text = Board::<Bits256>::of(&shape).text();
            ("board".to_string(), OptionValue::Str(text))
        }
    };
    let setup = ("setup".to_string(), OptionValue::Str(p.str("setup").to_string()));
    QuantumLeap::<B>::from_options(&Options::from([board, setup]))
}

/// The deal drawn by `rng`: each chance outcome by its probability.
fn deal<B: Bits>(game: &QuantumLeap<B>, rng: &mut Rng) -> QuantumLeapState<B> {
    let mut state = game.new_state();
    let mut outcomes = Vec::new();
    while game.to_move(&state) == ToMove::Chance {
        game.chance_outcomes(&state, &mut outcomes);
        game.apply(&mut state, crate::bots::arena::draw(&outcomes, rng));
    }
    state
}

/// Deals `rows` of `seed` (deal `i` drawn by `row_rng(seed, i)`), one after another, each
/// solve on every thread; boards past 64 cells need 128-bit sets, past 128 cells 256-bit ones.
fn deal_rows(p: &Params, rows: Range<u64>, seed: u64, ctx: &Context) -> Result<Vec<Vec<Cell>>> {
    match shape(p)?.coords().len() {
        cells if cells > 128 => deal_rows_at::<Bits256>(p, rows, seed, ctx),
        cells if cells > 64 => deal_rows_at::<u128>(p, rows, seed, ctx),
        _ => deal_rows_at::<u64>(p, rows, seed, ctx),
    }
}

fn deal_rows_at<B: Bits>(
    p: &Params,
    rows: Range<u64>,
    seed: u64,
    ctx: &Context,
) -> Result<Vec<Vec<Cell>>> {
    let game = game::<B>(p)?;
    let one = Context::new(ctx.limits.clone(), None, ctx.cancel);
    let n = (rows.end - rows.start) as usize;
    let rows = map_rows(
        rows.start,
        n,
        seed,
        ctx.threads,
        Split::WithinRows,
        ctx.cancel,
        |i, rng| {
            let state = deal(&game, rng);
            let mut row = vec![Cell::Int(i as i64), Cell::Str(game.notation(&state))];
            match solve(&game, &state, &one) {
                Ok(s) => {
                    let best = s
                        .best_action
                        .map(|a| game.action_to_string(&state, a))
                        .transpose()?;
                    row.extend([
                        s.win.into(),
                        best.into(),
                        Cell::Int(s.nodes as i64),
                        s.seconds.into(),
                        Cell::Str(String::new()),
                    ]);
                }
                Err(e @ crate::Error::Interrupted) => return Err(e),
                Err(e) => {
                    let limit = matches!(e, crate::Error::SearchLimit { .. });
                    let (nodes, seconds) = error_work(&e);
                    row.extend([
                        Cell::Null,
                        Cell::Null,
                        if limit {
                            Cell::Int(nodes as i64)
                        } else {
                            Cell::Null
                        },
                        if limit {
                            Cell::Float(seconds)
                        } else {
                            Cell::Null
                        },
                        Cell::Str(error_text(&e)),
                    ]);
                }
            }
            Ok(row)
        },
    )?;
    rows.into_iter().collect()
}

/// The classes of every deal of the board `shape` (of at most `EVERY_DEAL_CELLS` cells) with
/// `setup` ("A" or "B"): each class's smallest code and the deals in it, sorted by code. A
/// deal's code is its cells in base 3 (0 empty, 1 white, 2 black; cell `i` weighs `3**i`,
/// cells in notation order), and a class holds the deals the board's symmetries map onto one
/// another. Computed once a board and kept (a few hundred kilobytes for side 3).
pub fn deal_classes(shape: &Shape, setup: &str) -> Arc<Vec<(u64, u64)>> {
    type Classes = Arc<Vec<(u64, u64)>>;
    static CLASSES: OnceLock<Mutex<HashMap<(Shape, bool), Classes>>> = OnceLock::new();
    let key = (shape.clone(), setup == "A");
    let cache = CLASSES.get_or_init(Default::default);
    if let Some(classes) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return classes.clone();
    }
    let classes = Arc::new(count_classes(shape, key.1));
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, classes.clone());
    classes
}

fn count_classes(shape: &Shape, setup_a: bool) -> Vec<(u64, u64)> {
    let board = Board::<u64>::of(shape);
    let cells = board.cells;
    assert!(cells <= EVERY_DEAL_CELLS);
    // White's stones (the rest are Black's): as `QuantumLeap::stock`.
    let stones = if setup_a { (cells - 1) / 2 } else { cells / 2 };
    // weight[k][i]: what a white stone on cell i adds to the code of symmetry k's image.
    let weights: Vec<Vec<u64>> = board
        .symmetries()
        .iter()
        .map(|m| m.iter().map(|&j| 3u64.pow(j as u32)).collect())
        .collect();
    let empties: Vec<Option<usize>> = if setup_a {
        (0..cells)
            .filter(|&c| !board.is_centre(c))
            .map(Some)
            .collect()
    } else {
        vec![None]
    };
    let mut codes: Vec<u64> = empties
        .par_iter()
        .flat_map_iter(|&empty| {
            let taken = empty.map_or(0u64, |e| 1 << e);
            let weights = &weights;
            (0u64..1 << cells)
                .filter(move |w| w & taken == 0 && w.count_ones() as usize == stones)
                .map(move |whites| {
                    let blacks = ((1u64 << cells) - 1) & !whites & !taken;
                    weights
                        .iter()
                        .map(|weight| {
                            let sum = |set: u64| -> u64 {
                                (0..cells)
                                    .filter(|&i| set >> i & 1 == 1)
                                    .map(|i| weight[i])
                                    .sum()
                            };
                            sum(whites) + 2 * sum(blacks)
                        })
                        .min()
                        .expect("the identity at least")
                })
        })
        .collect();
    codes.par_sort_unstable();
    let mut classes: Vec<(u64, u64)> = Vec::new();
    for code in codes {
        match classes.last_mut() {
            Some((last, count)) if *last == code => *count += 1,
            _ => classes.push((code, 1)),
        }
    }
    classes
}

/// The board of `code` (see [`deal_classes`]) as the notation writes it: rows top to bottom,
/// `.` empty, `w` white, `b` black, separated by `/`.
pub fn board_text(code: u64, shape: &Shape) -> String {
    let board = Board::<u64>::of(shape);
    let mut digits = Vec::with_capacity(board.cells);
    let mut rest = code;
    for _ in 0..board.cells {
        digits.push(b".wb"[(rest % 3) as usize] as char);
        rest /= 3;
    }
    board
        .rows()
        .map(|r| digits[r].iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

/// Classes `rows` of every deal, one after another, each solve on every thread: White's
/// result after Black's `no swap` (setup A) or from the start (B), and in setup A Black's by
/// the best swap decision.
fn every_deal_rows(p: &Params, rows: Range<u64>, _: u64, ctx: &Context) -> Result<Vec<Vec<Cell>>> {
    let (shape, setup_a) = (small_shape(p)?, p.str("setup") == "A");
    let game = game::<u64>(p)?;
    let classes = deal_classes(&shape, p.str("setup"));
    let one = Context::new(ctx.limits.clone(), None, ctx.cancel);
    let n = (rows.end - rows.start) as usize;
    let rows = map_rows(
        rows.start,
        n,
        0,
        ctx.threads,
        Split::WithinRows,
        ctx.cancel,
        |i, _| {
            let (code, weight) = classes[i as usize];
            let board = board_text(code, &shape);
            let (mut nodes, mut seconds) = (0u64, 0.0f64);
            let mut black = None;
            let white = (|| -> Result<bool> {
                let white_to_move = if setup_a {
                    let at_swap = game.from_notation(&format!("{board} swap"))?;
                    let b = solve(&game, &at_swap, &one)?;
                    (black, nodes, seconds) = (Some(b.win), b.nodes, b.seconds);
                    game.play(&at_swap, game.parse_action(&at_swap, "no swap")?)?
                } else {
                    game.from_notation(&format!("{board} w"))?
                };
                let w = solve(&game, &white_to_move, &one)?;
                (nodes, seconds) = (nodes + w.nodes, seconds + w.seconds);
                Ok(w.win)
            })();
            let (white, error) = match white {
                Ok(w) => (Some(w), String::new()),
                Err(e @ crate::Error::Interrupted) => return Err(e),
                Err(e) => {
                    // An undecided class holds no answer: its wins stay null, its work is counted.
                    black = None;
                    let (n, s) = error_work(&e);
                    (nodes, seconds) = (nodes + n, seconds + s);
                    (None, error_text(&e))
                }
            };
            Ok(vec![
                Cell::Int(i as i64),
                Cell::Str(board),
                Cell::Int(weight as i64),
                white.into(),
                black.into(),
                Cell::Int(nodes as i64),
                Cell::Float(seconds),
                Cell::Str(error),
            ])
        },
    )?;
    rows.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_deal_is_counted_once_in_its_class() {
        // Setup A: the empty cell (not the centre), then White's stones among the rest.
        let a2: u64 = deal_classes(&Shape::Hexagon(2), "A").iter().map(|c| c.1).sum();
        assert_eq!(a2, 6 * 20);
        let b2: u64 = deal_classes(&Shape::Hexagon(2), "B").iter().map(|c| c.1).sum();
        assert_eq!(b2, 35);
        let a3 = deal_classes(&Shape::Hexagon(3), "A");
        assert_eq!(a3.iter().map(|c| c.1).sum::<u64>(), 18 * 48620);
        assert!(
            a3.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted, one row a class"
        );
        assert!(
            a3.iter().all(|c| c.1 <= 12),
            "a class is at most the 12 images of a deal"
        );
    }

    #[test]
    fn the_twelve_images_of_a_side_3_deal_have_its_value() {
        let board = Board::<u64>::new(3);
        let options = Options::from([("size".to_string(), OptionValue::Int(3))]);
        let game = QuantumLeap::<u64>::from_options(&options).unwrap();
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = Context::new(Default::default(), Some(1), &cancel);
        let classes = deal_classes(&Shape::Hexagon(3), "A");
        for &(code, _) in [
            classes[0],
            classes[classes.len() / 2],
            classes[classes.len() - 1],
        ]
        .iter()
        {
            let cells: Vec<char> = board_text(code, &Shape::Hexagon(3)).chars().filter(|&c| c != '/').collect();
            let mut values = std::collections::HashSet::new();
            for m in board.symmetries() {
                let mut image = vec!['?'; board.cells];
                for (i, &j) in m.iter().enumerate() {
                    image[j] = cells[i];
                }
                let code: u64 = (0..board.cells)
                    .map(|i| ".wb".find(image[i]).unwrap() as u64 * 3u64.pow(i as u32))
                    .sum();
                let state = game
                    .from_notation(&format!("{} swap", board_text(code, &Shape::Hexagon(3))))
                    .unwrap();
                values.insert(solve(&game, &state, &ctx).unwrap().win);
            }
            assert_eq!(values.len(), 1, "{}", board_text(code, &Shape::Hexagon(3)));
        }
    }

    #[test]
    fn a_class_is_named_by_its_smallest_image_and_written_as_the_notation_writes_it() {
        let board = Board::<u64>::new(2);
        for &(code, _) in deal_classes(&Shape::Hexagon(2), "B").iter() {
            let text = board_text(code, &Shape::Hexagon(2));
            assert_eq!(text.split('/').map(str::len).collect::<Vec<_>>(), [2, 3, 2]);
            let cells: Vec<char> = text.chars().filter(|&c| c != '/').collect();
            for m in board.symmetries() {
                let image: u64 = (0..board.cells)
                    .map(|i| ".wb".find(cells[i]).unwrap() as u64 * 3u64.pow(m[i] as u32))
                    .sum();
                assert!(image >= code);
            }
        }
    }
}
