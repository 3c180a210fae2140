//! The hexhex board of Quantum Leap: cells, names, neighbours and jump tables for one size.

use crate::bits::Bits;

/// No cell (off the board).
pub const OFF: u8 = u8::MAX;

/// The most cells a board has room for (side 7 has 127). The per-cell tables have this many
/// entries whatever the side, so that a cell from a bitboard needs no bounds check.
pub const MAX_CELLS: usize = 128;

/// Directions as axial steps (dq, dr), counter-clockwise from east: E, NE, NW, W, SW, SE.
pub const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// The geometry of a hexhex board of one side length, with every table move generation needs.
#[derive(Debug, Clone)]
pub struct Board<B> {
    pub side: usize,
    pub cells: usize,
    pub centre: usize,
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
    /// The board of side `side` (2..=7, and it must fit `B`).
    pub fn new(side: usize) -> Self {
        let n = side as i8;
        let mut coords = Vec::new();
        let mut row_start = Vec::new();
        for r in -(n - 1)..=(n - 1) {
            row_start.push(coords.len());
            for q in (-(n - 1)).max(-(n - 1) - r)..=(n - 1).min(n - 1 - r) {
                coords.push((q, r));
            }
        }
        row_start.push(coords.len());
        let cells = coords.len();
        assert!(cells <= B::CAPACITY && cells < OFF as usize);
        let index = |q: i8, r: i8| -> Option<usize> {
            let s = -q - r;
            if q.abs() < n && r.abs() < n && s.abs() < n {
                let row = (r + n - 1) as usize;
                let first_q = (-(n - 1)).max(-(n - 1) - r);
                Some(row_start[row] + (q - first_q) as usize)
            } else {
                None
            }
        };
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
        Board {
            side,
            cells,
            centre: index(0, 0).expect("the centre is on the board"),
            coords,
            row_start,
            neighbours,
            jump,
            landing,
            all: B::first(cells),
        }
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

    /// The board's 12 symmetries (six turns, each with and without a reflection), each as
    /// the cell every cell goes to. The first is the identity.
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
        let cell = |x: i8, z: i8| {
            self.coords
                .iter()
                .position(|&c| c == (x, z))
                .expect("a symmetry maps the board onto itself")
        };
        let mut maps = Vec::with_capacity(12);
        for reflect in [false, true] {
            for turns in 0..6 {
                maps.push(
                    self.coords
                        .iter()
                        .map(|&(q, r)| {
                            // Cube coordinates: x = q, z = r, y = -q - r.
                            let (mut x, mut y, mut z) = (q, -q - r, r);
                            if reflect {
                                (y, z) = (z, y);
                            }
                            for _ in 0..turns {
                                (x, y, z) = (-z, -x, -y);
                            }
                            debug_assert_eq!(x + y + z, 0);
                            cell(x, z)
                        })
                        .collect(),
                );
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
                assert_eq!(m[b.centre], b.centre);
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
            assert_eq!(b.coords[b.centre], (0, 0));
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
        assert_eq!(b.neighbours[b.centre].count(), 6);
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
        assert_eq!(b.name(b.centre), "e5");
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
