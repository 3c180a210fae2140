//! The board of Quantum Leap: its shape, cells, names, neighbours and jump tables.
//!
//! A board is a set of hexagonal cells in axial coordinates (q, r): a hexagon of side n (the
//! usual boards), a parallelogram, a triangle, or any connected set of cells given one by one
//! (docs/rules/quantum_leap.md, *Boards*). Rows are the cells of one r, top (smallest r) to
//! bottom; cells are numbered row by row, left (smallest q) to right.

use crate::bits::Bits;
use crate::error::{Error, Result, quoted};
use std::collections::HashMap;

/// No cell (off the board).
pub const OFF: u8 = u8::MAX;

/// The most cells a bitboard has room for (256 bits). The per-cell tables have this many
/// entries whatever the board, so that a cell from a bitboard needs no bounds check.
pub const MAX_CELLS: usize = 256;

/// The most cells a board may have: cell numbers fit a byte, with `OFF` left over.
pub const MOST_CELLS: usize = OFF as usize;

/// The most rows a board may have: they are lettered a to z.
pub const MOST_ROWS: usize = 26;

/// The largest coordinate, either way, of a cell given one by one (so that a jump of six
/// steps stays within a byte).
pub const MOST_COORDINATE: i8 = 100;

/// Directions as axial steps (dq, dr), counter-clockwise from east: E, NE, NW, W, SW, SE.
pub const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// The shape of a board, as the option `board` names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A hexagon of `n` cells a side (3n(n−1)+1 cells): `"hexagon 5"`, or the option `size`.
    Hexagon(usize),
    /// `a` cells a row and `b` rows, each row half a cell right of the one above:
    /// `"parallelogram 3x4"`.
    Parallelogram(usize, usize),
    /// `n` rows, the top one a single cell, each row one cell longer: `"triangle 4"`.
    Triangle(usize),
    /// Cells given one by one as axial coordinates `q,r`: `"cells 0,0 1,0 0,1"`.
    Cells(Vec<(i8, i8)>),
}

fn bad_board(text: &str, what: impl std::fmt::Display) -> Error {
    Error::InvalidOption(format!(
        "quantum_leap: option board must be \"hexagon N\", \"parallelogram AxB\", \
         \"triangle N\" or \"cells q,r q,r ...\" (a connected set of 3 to {MOST_CELLS} cells \
         in at most {MOST_ROWS} rows); {what} in {}",
        quoted(text)
    ))
}

impl Shape {
    /// Reads the option `board`, and checks that its cells make a board.
    pub fn parse(text: &str) -> Result<Shape> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |word: &str| -> Result<usize> {
            word.parse::<usize>()
                .map_err(|_| bad_board(text, format!("{} is no whole number", quoted(word))))
        };
        let shape = match words.as_slice() {
            ["hexagon", n] => Shape::Hexagon(number(n)?),
            ["parallelogram", sides] => {
                let Some((a, b)) = sides.split_once('x') else {
                    return Err(bad_board(text, "a parallelogram is written AxB"));
                };
                Shape::Parallelogram(number(a)?, number(b)?)
            }
            ["triangle", n] => Shape::Triangle(number(n)?),
            ["cells", cells @ ..] => {
                let mut coords = Vec::with_capacity(cells.len());
                for cell in cells {
                    let pair = cell.split_once(',').and_then(|(q, r)| {
                        Some((q.parse::<i8>().ok()?, r.parse::<i8>().ok()?))
                    });
                    match pair {
                        Some((q, r))
                            if q.abs() <= MOST_COORDINATE && r.abs() <= MOST_COORDINATE =>
                        {
                            coords.push((q, r))
                        }
                        _ => {
                            return Err(bad_board(
                                text,
                                format!(
                                    "{} is no cell q,r with whole numbers from -{m} to {m}",
                                    quoted(cell),
                                    m = MOST_COORDINATE
                                ),
                            ));
                        }
                    }
                }
                Shape::Cells(coords)
            }
            _ => return Err(bad_board(text, "no such shape")),
        };
        shape.check().map_err(|what| bad_board(text, what))?;
        Ok(shape)
    }

    /// What is wrong with the shape's cells as a board, if anything.
    fn check(&self) -> std::result::Result<(), String> {
        let too_big = |n: usize| n > MOST_CELLS;
        match *self {
            Shape::Hexagon(n) if n < 2 || too_big(3 * n * n.saturating_sub(1) + 1) => {
                return Err(format!("a hexagon has a side from 2 to 9, not {n}"));
            }
            Shape::Parallelogram(a, b)
                if a * b < 3 || too_big(a * b) || b > MOST_ROWS || a > MOST_COORDINATE as usize =>
            {
                return Err(format!(
                    "a parallelogram has 3 to {MOST_CELLS} cells in at most {MOST_ROWS} rows, \
                     not {a}x{b}"
                ));
            }
            Shape::Triangle(n) if !(2..=MOST_ROWS).contains(&n) => {
                return Err(format!("a triangle has a side from 2 to {MOST_ROWS}, not {n}"));
            }
            _ => {}
        }
        let coords = self.coords();
        let mut seen = HashMap::new();
        for &c in &coords {
            if seen.insert(c, ()).is_some() {
                return Err(format!("the cell {},{} is given twice", c.0, c.1));
            }
        }
        if coords.len() < 3 || too_big(coords.len()) {
            return Err(format!("{} cells", coords.len()));
        }
        let mut rows: Vec<i8> = coords.iter().map(|c| c.1).collect();
        rows.sort_unstable();
        rows.dedup();
        if rows.len() > MOST_ROWS {
            return Err(format!("{} rows", rows.len()));
        }
        // Connected: every cell reached from the first by steps to neighbours.
        let mut reached = vec![coords[0]];
        let mut todo = vec![coords[0]];
        while let Some((q, r)) = todo.pop() {
            for (dq, dr) in DIRECTIONS {
                let next = (q + dq, r + dr);
                if seen.contains_key(&next) && !reached.contains(&next) {
                    reached.push(next);
                    todo.push(next);
                }
            }
        }
        if reached.len() < coords.len() {
            return Err(format!(
                "the cells are not connected ({} of {} reached from {},{})",
                reached.len(),
                coords.len(),
                coords[0].0,
                coords[0].1
            ));
        }
        Ok(())
    }

    /// The cells, in axial coordinates, in no particular order.
    pub fn coords(&self) -> Vec<(i8, i8)> {
        match *self {
            Shape::Hexagon(n) => {
                let n = n as i8;
                let mut coords = Vec::new();
                for r in -(n - 1)..=(n - 1) {
                    for q in (-(n - 1)).max(-(n - 1) - r)..=(n - 1).min(n - 1 - r) {
                        coords.push((q, r));
                    }
                }
                coords
            }
            Shape::Parallelogram(a, b) => (0..b as i8)
                .flat_map(|r| (0..a as i8).map(move |q| (q, r)))
                .collect(),
            Shape::Triangle(n) => (0..n as i8)
                .flat_map(|r| (-r..=0).map(move |q| (q, r)))
                .collect(),
            Shape::Cells(ref cells) => cells.clone(),
        }
    }

    /// The option `board` that names this shape (cells given one by one in row order).
    pub fn text(&self, coords_in_row_order: &[(i8, i8)]) -> String {
        match *self {
            Shape::Hexagon(n) => format!("hexagon {n}"),
            Shape::Parallelogram(a, b) => format!("parallelogram {a}x{b}"),
            Shape::Triangle(n) => format!("triangle {n}"),
            Shape::Cells(_) => {
                let cells: Vec<String> = coords_in_row_order
                    .iter()
                    .map(|(q, r)| format!("{q},{r}"))
                    .collect();
                format!("cells {}", cells.join(" "))
            }
        }
    }

    /// The side of a hexagon, the board of the option `size`.
    pub fn hexagon_side(&self) -> Option<usize> {
        match *self {
            Shape::Hexagon(n) => Some(n),
            _ => None,
        }
    }
}

/// The geometry of one board, with every table move generation needs.
#[derive(Debug, Clone)]
pub struct Board<B> {
    pub shape: Shape,
    pub cells: usize,
    /// The cell at the mean of the cells' positions, where there is one (the centre of a
    /// hexagon, of a triangle of side 3k+1, of a parallelogram with odd sides).
    pub centre: Option<usize>,
    /// Axial coordinates (q, r) of each cell.
    pub coords: Vec<(i8, i8)>,
    /// The first cell of each row, and one past the last.
    pub row_start: Vec<usize>,
    /// The cells next to each cell (empty past the last cell).
    pub neighbours: Box<[B; MAX_CELLS]>,
    /// `jump[c][d][k - 1]`: the cell `k` steps from `c` in direction `d`, or `OFF`.
    pub jump: Vec<[[u8; 6]; 6]>,
    /// `landing[c][k]`: the cells exactly `k` steps from `c` along the six lines (none for 0,
    /// nor for 7, which is there so that a count of friendly neighbours masked to three bits
    /// needs no bounds check).
    pub landing: Box<[[B; 8]; MAX_CELLS]>,
    /// Every cell.
    pub all: B,
}

impl<B: Bits> Board<B> {
    /// The hexagon of side `side` (2..=7 at 128 bits, and it must fit `B`).
    pub fn new(side: usize) -> Self {
        Self::of(&Shape::Hexagon(side))
    }

    /// The board of `shape`, which must be checked ([`Shape::parse`]) and fit `B`.
    pub fn of(shape: &Shape) -> Self {
        let mut coords = shape.coords();
        coords.sort_unstable_by_key(|&(q, r)| (r, q));
        let cells = coords.len();
        assert!(cells <= B::CAPACITY && cells <= MOST_CELLS);
        let mut row_start = vec![0];
        for c in 1..cells {
            if coords[c].1 != coords[c - 1].1 {
                row_start.push(c);
            }
        }
        row_start.push(cells);
        let numbers: HashMap<(i8, i8), usize> =
            coords.iter().enumerate().map(|(c, &qr)| (qr, c)).collect();
        let index = |q: i8, r: i8| numbers.get(&(q, r)).copied();
        let mut neighbours = Box::new([B::EMPTY; MAX_CELLS]);
        let mut jump = vec![[[OFF; 6]; 6]; cells];
        for (c, &(q, r)) in coords.iter().enumerate() {
            for (d, &(dq, dr)) in DIRECTIONS.iter().enumerate() {
                if let Some(t) = index(q + dq, r + dr) {
                    neighbours[c] |= B::cell(t);
                }
                for k in 1..=6i8 {
                    if let Some(t) = index(q + k * dq, r + k * dr) {
                        jump[c][d][k as usize - 1] = t as u8;
                    }
                }
            }
        }
        let mut landing = Box::new([[B::EMPTY; 8]; MAX_CELLS]);
        for (lines, by_length) in jump.iter().zip(landing.iter_mut()) {
            for (k, cells) in by_length.iter_mut().enumerate().take(7).skip(1) {
                for line in lines {
                    if line[k - 1] != OFF {
                        *cells |= B::cell(line[k - 1] as usize);
                    }
                }
            }
        }
        let (sum_q, sum_r) = coords.iter().fold((0i64, 0i64), |(sq, sr), &(q, r)| {
            (sq + i64::from(q), sr + i64::from(r))
        });
        let n = cells as i64;
        let centre = (sum_q % n == 0 && sum_r % n == 0)
            .then(|| index((sum_q / n) as i8, (sum_r / n) as i8))
            .flatten();
        Board {
            shape: shape.clone(),
            cells,
            centre,
            coords,
            row_start,
            neighbours,
            jump,
            landing,
            all: B::first(cells),
        }
    }

    /// The option `board` naming this board.
    pub fn text(&self) -> String {
        self.shape.text(&self.coords)
    }

    /// The board in a message: `size 5` for a hexagon (the option `size`), else its option.
    pub fn describe(&self) -> String {
        match self.shape.hexagon_side() {
            Some(n) => format!("size {n}"),
            None => format!("board {}", quoted(&self.text())),
        }
    }

    /// Whether `c` is the centre.
    #[inline]
    pub fn is_centre(&self, c: usize) -> bool {
        self.centre == Some(c)
    }
    /// How many of the cells next to `c` are in `stones`: the jump length of a stone on `c`
    /// whose friends are `stones`. At most six, and masked to three bits so that it indexes
    /// `landing` without a bounds check.
    #[inline]
    pub fn friends(&self, c: usize, stones: B) -> usize {
        (self.neighbours[c] & stones).count() as usize & 7
    }

    /// The direction from `from` to `to`, which lie on one line.
    pub fn direction(&self, from: usize, to: usize) -> usize {
        let ((q0, r0), (q1, r1)) = (self.coords[from], self.coords[to]);
        let (dq, dr) = ((q1 - q0).signum(), (r1 - r0).signum());
        DIRECTIONS
            .iter()
            .position(|&d| d == (dq, dr))
            .expect("the cells lie on one line")
    }

    /// Row letter (a = top) and 1-based position within the row: `a1`, `e5`.
    pub fn name(&self, cell: usize) -> String {
        let row = self.row_start.partition_point(|&s| s <= cell) - 1;
        format!(
            "{}{}",
            (b'a' + row as u8) as char,
            cell - self.row_start[row] + 1
        )
    }

    /// The cell named `text`, if any.
    pub fn parse(&self, text: &str) -> Option<usize> {
        let mut chars = text.chars();
        let row = (chars.next()? as u32).checked_sub('a' as u32)? as usize;
        let pos: usize = chars.as_str().parse().ok()?;
        let rows = self.row_start.len() - 1;
        (row < rows && pos >= 1 && pos <= self.row_start[row + 1] - self.row_start[row])
            .then(|| self.row_start[row] + pos - 1)
    }

    pub fn rows(&self) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        self.row_start.windows(2).map(|w| w[0]..w[1])
    }

    /// The board's symmetries: of the 12 of the hexagonal grid (six turns, each with and
    /// without a reflection, about the mean of the cells' positions), those that map the
    /// board onto itself, each as the cell every cell goes to. The first is the identity; a
    /// hexagon has all 12.
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
        let numbers: HashMap<(i64, i64), usize> = self
            .coords
            .iter()
            .enumerate()
            .map(|(c, &(q, r))| ((i64::from(q), i64::from(r)), c))
            .collect();
        // Positions times the number of cells, so that the mean is a whole point.
        let n = self.cells as i64;
        let (sum_q, sum_r) = numbers
            .keys()
            .fold((0, 0), |(sq, sr), &(q, r)| (sq + q, sr + r));
        let mut maps = Vec::with_capacity(12);
        for reflect in [false, true] {
            for turns in 0..6 {
                let image = |q: i64, r: i64| {
                    // Cube coordinates: x = q, z = r, y = -q - r.
                    let (mut x, mut y, mut z) = (q, -q - r, r);
                    if reflect {
                        (y, z) = (z, y);
                    }
                    for _ in 0..turns {
                        (x, y, z) = (-z, -x, -y);
                    }
                    debug_assert_eq!(x + y + z, 0);
                    (x, z)
                };
                // The turn about the mean: p -> mean + L(p - mean), in n-fold positions.
                let (lq, lr) = image(sum_q, sum_r);
                let (tq, tr) = (sum_q - lq, sum_r - lr);
                if tq % n != 0 || tr % n != 0 {
                    continue;
                }
                let map: Option<Vec<usize>> = self
                    .coords
                    .iter()
                    .map(|&(q, r)| {
                        let (x, z) = image(i64::from(q), i64::from(r));
                        numbers.get(&(x + tq / n, z + tr / n)).copied()
                    })
                    .collect();
                maps.extend(map);
            }
        }
        maps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_twelve_symmetries_are_distinct_and_keep_neighbours_neighbours() {
        for side in 2..=4 {
            let b = Board::<u64>::new(side);
            let maps = b.symmetries();
            assert_eq!(maps.len(), 12);
            assert_eq!(
                maps[0],
                (0..b.cells).collect::<Vec<_>>(),
                "the identity first"
            );
            for (i, m) in maps.iter().enumerate() {
                assert!(!maps[..i].contains(m), "side {side}: symmetry {i} repeats");
                let centre = b.centre.unwrap();
                assert_eq!(m[centre], centre);
                for c in 0..b.cells {
                    for t in 0..b.cells {
                        let near = |c: usize, t: usize| b.neighbours[c].has(t);
                        assert_eq!(near(c, t), near(m[c], m[t]));
                    }
                }
            }
        }
    }

    #[test]
    fn sizes_have_the_hexhex_cell_counts() {
        for side in 2..=7 {
            let b = Board::<u128>::new(side);
            assert_eq!(b.cells, 3 * side * (side - 1) + 1);
            assert_eq!(b.coords[b.centre.unwrap()], (0, 0));
            let lengths: Vec<usize> = b.rows().map(|r| r.len()).collect();
            let n = side;
            let expected: Vec<usize> = (0..2 * n - 1)
                .map(|i| if i < n { n + i } else { 3 * n - 2 - i })
                .collect();
            assert_eq!(lengths, expected);
        }
    }

    #[test]
    fn neighbours_are_symmetric_and_six_inside() {
        let b = Board::<u64>::new(5);
        for c in 0..b.cells {
            for t in b.neighbours[c].cells() {
                assert!(b.neighbours[t].has(c));
            }
        }
        assert_eq!(b.neighbours[b.centre.unwrap()].count(), 6);
        assert_eq!(b.neighbours[0].count(), 3); // a corner
    }

    #[test]
    fn the_direction_between_two_cells_is_the_one_of_the_jump_between_them() {
        for side in 2..=7 {
            let b = Board::<u128>::new(side);
            for c in 0..b.cells {
                for (d, line) in b.jump[c].iter().enumerate() {
                    for &t in line.iter().filter(|&&t| t != OFF) {
                        assert_eq!(b.direction(c, t as usize), d, "side {side}, {c} to {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn names_round_trip() {
        let b = Board::<u64>::new(5);
        assert_eq!(b.name(0), "a1");
        assert_eq!(b.name(b.centre.unwrap()), "e5");
        assert_eq!(b.name(b.cells - 1), "i5");
        for c in 0..b.cells {
            assert_eq!(b.parse(&b.name(c)), Some(c));
        }
        assert_eq!(b.parse("j1"), None);
        assert_eq!(b.parse("a6"), None);
        assert_eq!(b.parse("a0"), None);
    }

    #[test]
    fn rows_are_drawn_horizontally() {
        // In the row below, a cell's SE neighbour keeps q and its SW neighbour has q - 1.
        let b = Board::<u64>::new(3);
        // a1 (first cell of the top row) touches a2 (E), b1 (SW) and b2 (SE).
        let names: Vec<String> = b.neighbours[0].cells().map(|c| b.name(c)).collect();
        assert_eq!(names, ["a2", "b1", "b2"]);
    }
}
