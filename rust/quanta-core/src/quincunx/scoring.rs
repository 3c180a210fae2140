//! What one placement scores (docs/rules/quincunx.md, "A turn" and "Rulings applied"): basic
//! scoring with each orthogonal neighbour, pairs, straights and three of a kind along each line,
//! and the power play.
//!
//! The grid is a slice of `side * side` cards, row by row from the top, `NO_CARD` for an empty
//! cell. Lines are the row and the column through the placed card and, unless playing
//! solitaire, the two diagonals.

use super::MAX_CELLS;
use super::cards::{CARD_COUNT, EXCUSE, SUITS, from_code, is_ace, is_crown, is_numeral, rank};
pub use super::cards::{Card, NO_CARD};
use crate::error::{Error, Result, clipped, quoted};

/// The points of one placement, by kind, and the cards it makes its player draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    /// Basic scoring with the orthogonal neighbours (sums 11 and 20 score no points).
    pub basic: i32,
    /// +5 per orthogonal neighbour of equal rank outside a three of a kind.
    pub pairs: i32,
    /// +20 per line direction completing a straight.
    pub straights: i32,
    /// +30 per line direction completing a three of a kind.
    pub sets: i32,
    /// The power play: the numerals in the grid carrying the suit of an Ace–Crown pair.
    pub power: i32,
    /// Neighbours whose ranks sum to 11 or 20: one draw each.
    pub draws: u32,
}

impl Placement {
    pub fn points(&self) -> i32 {
        self.basic + self.pairs + self.straights + self.sets + self.power
    }
}

const THREE_OF_A_KIND: i32 = 30;
const STRAIGHT: i32 = 20;
const PAIR: i32 = 5;

/// Steps (row, column) of the eight directions: line direction `i` (the row, the column, the
/// diagonal, the anti-diagonal) and its opposite `i + 4`. Orthogonal neighbours lie in
/// directions 0, 1, 4 and 5.
const DIRECTIONS: [(isize, isize); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (-1, 1),
];
const ORTHOGONAL: [usize; 4] = [0, 1, 4, 5];
/// Past the grid's edge.
const OFF: u8 = u8::MAX;

/// `[cell][direction]`: the cells met going from `cell` in that direction, nearest first, `OFF`
/// past the edge.
type Rays = [[[u8; 4]; 8]; MAX_CELLS];

const fn rays(side: usize) -> Rays {
    let mut t = [[[OFF; 4]; 8]; MAX_CELLS];
    let mut cell = 0;
    while cell < side * side {
        let mut d = 0;
        while d < 8 {
            let mut k = 1;
            while k <= 4 {
                let r = (cell / side) as isize + DIRECTIONS[d].0 * k as isize;
                let c = (cell % side) as isize + DIRECTIONS[d].1 * k as isize;
                if r >= 0 && c >= 0 && r < side as isize && c < side as isize {
                    t[cell][d][k - 1] = (r as usize * side + c as usize) as u8;
                }
                k += 1;
            }
            d += 1;
        }
        cell += 1;
    }
    t
}

/// The rays of the 4x4 and the 5x5 grid and of the book setup's 9×9 board.
static RAYS: [Rays; 3] = [rays(4), rays(5), rays(9)];

/// The rays of a grid of side 4, 5 or 9.
fn rays_of(side: usize) -> &'static Rays {
    &RAYS[match side {
        4 => 0,
        5 => 1,
        _ => 2,
    }]
}

/// Basic scoring of two orthogonally adjacent cards (neither the Excuse): (points, draws).
#[inline]
fn basic(card: Card, neighbour: Card) -> (i32, u32) {
    let sum = (rank(card) + rank(neighbour)) as i32;
    match sum {
        11 | 20 => (0, 1),
        10 => (0, 0),
        12..=19 => (sum - 10, 0),
        _ => {
            let ace_matching = (is_ace(card) || is_ace(neighbour))
                && SUITS[card as usize] & SUITS[neighbour as usize] != 0;
            (if ace_matching { sum } else { -sum }, 0)
        }
    }
}

/// The ranks of the cards lying one after the other from the placed card along `ray`, nearest
/// first, up to the first empty cell, the grid's edge or the Excuse (which breaks every run).
#[inline]
fn ranks_along(grid: &[Card], ray: &[u8; 4]) -> ([u8; 4], usize) {
    let mut ranks = [0; 4];
    let mut n = 0;
    for &cell in ray {
        let card = if cell == OFF {
            NO_CARD
        } else {
            grid[cell as usize]
        };
        if card == NO_CARD || card == EXCUSE {
            break;
        }
        ranks[n] = rank(card);
        n += 1;
    }
    (ranks, n)
}

/// How many of `ranks` (nearest first) go on stepping by `step` from `from` (0: equal ranks).
#[inline]
fn steps(ranks: &[u8], from: u8, step: i8) -> usize {
    let mut expected = from as i8;
    ranks
        .iter()
        .take_while(|&&r| {
            expected += step;
            r as i8 == expected
        })
        .count()
}

/// What placing `card` on the empty `cell` of `grid` (`side * side` cells) scores.
/// `diagonals` is false in solitaire: straights and three of a kind then never count on the
/// diagonals. `side` must be 4 or 5, or 9 for the book setup's board (whose grid grows within a
/// 5×5 box, so that a run has at most four cards on either side of the placed one: the rays'
/// length), the grid a possible Quincunx grid and `cell` empty (see [`try_score_placement`]
/// for a checked version).
pub fn score_placement(
    grid: &[Card],
    side: usize,
    diagonals: bool,
    card: Card,
    cell: usize,
) -> Placement {
    let mut p = Placement::default();
    if card == EXCUSE {
        return p;
    }
    debug_assert!(matches!(side, 4 | 5 | 9) && grid.len() >= side * side);
    let rays = &rays_of(side)[cell];
    let r = rank(card);

    // Bonuses, one per line direction: three of a kind beats a straight. A run through the
    // card is what lies ahead of it plus what lies behind it, stepping the other way.
    let mut set_along = [false; 4];
    let lines = if diagonals { 4 } else { 2 };
    for line in 0..lines {
        let (ahead, n) = ranks_along(grid, &rays[line]);
        let (behind, m) = ranks_along(grid, &rays[line + 4]);
        let run = |step: i8| 1 + steps(&ahead[..n], r, step) + steps(&behind[..m], r, -step);
        if run(0) >= 3 {
            set_along[line] = true;
            p.sets += THREE_OF_A_KIND;
        } else if run(1).max(run(-1)) >= 3 {
            p.straights += STRAIGHT;
        }
    }

    // Basic scoring and pairs with each orthogonal neighbour; the power play's partner.
    let partner = if is_ace(card) {
        Some(card + 30)
    } else if is_crown(card) {
        Some(card - 30)
    } else {
        None
    };
    let mut power_play = false;
    for d in ORTHOGONAL {
        let cell = rays[d][0];
        let n = if cell == OFF {
            NO_CARD
        } else {
            grid[cell as usize]
        };
        if n == NO_CARD || n == EXCUSE {
            continue;
        }
        let (points, draws) = basic(card, n);
        p.basic += points;
        p.draws += draws;
        if rank(n) == r && !set_along[d % 4] {
            p.pairs += PAIR;
        }
        power_play |= partner == Some(n);
    }
    if power_play {
        p.power = power_play_value(grid, card);
    }
    p
}

/// What a power play of `card` (an Ace or a Crown meeting its partner) scores on `grid`: the
/// ranks of the numerals there that carry its suit.
pub fn power_play_value(grid: &[Card], card: Card) -> i32 {
    let suit = SUITS[card as usize];
    grid.iter()
        .filter(|&&c| c != NO_CARD && is_numeral(c) && SUITS[c as usize] & suit != 0)
        .map(|&c| rank(c) as i32)
        .sum()
}

/// [`score_placement`] after checking its input: a 4×4 or 5×5 grid of known cards, each at
/// most once, `card` a known card not yet in the grid, `cell` on the grid and empty.
pub fn try_score_placement(
    grid: &[Card],
    side: usize,
    diagonals: bool,
    card: Card,
    cell: usize,
) -> Result<Placement> {
    if !(side == 4 || side == 5) || grid.len() != side * side {
        return Err(Error::InvalidNotation(format!(
            "quincunx: the grid must be 4x4 or 5x5, not {} cells of side {side}",
            grid.len()
        )));
    }
    let mut seen = 0u64;
    for &c in grid.iter().chain([&card]) {
        if c == NO_CARD {
            continue;
        }
        if c as usize >= CARD_COUNT {
            return Err(Error::InvalidNotation(format!(
                "quincunx: {c} is not a card index (0..{CARD_COUNT})"
            )));
        }
        if seen & 1 << c != 0 {
            return Err(Error::IllegalMove(format!(
                "quincunx: {} is in the grid already",
                super::cards::code(c)
            )));
        }
        seen |= 1 << c;
    }
    if card == NO_CARD {
        return Err(Error::InvalidNotation(
            "quincunx: no card to place".to_string(),
        ));
    }
    if cell >= grid.len() {
        return Err(Error::IllegalMove(format!(
            "quincunx: cell {cell} is off the {side}x{side} grid"
        )));
    }
    if grid[cell] != NO_CARD {
        return Err(Error::IllegalMove(format!(
            "quincunx: {} is occupied by {}",
            super::cell_name(cell, side),
            super::cards::code(grid[cell])
        )));
    }
    Ok(score_placement(grid, side, diagonals, card, cell))
}

/// [`try_score_placement`] on a grid written with card codes, as users give it: `rows` is a
/// 4×4 or 5×5 list of rows, each entry a code (`"7WY"`) or `None`; the card goes on
/// `(row, col)`; `solitaire` leaves the diagonals out. Unknown codes and grids of another shape
/// are `InvalidNotation`; a cell off the grid or occupied, or a card already on the grid,
/// `IllegalMove`.
pub fn score_placement_by_code(
    rows: &[Vec<Option<String>>],
    card: &str,
    (row, col): (i64, i64),
    solitaire: bool,
) -> Result<Placement> {
    let side = rows.len();
    if !(side == 4 || side == 5) || rows.iter().any(|r| r.len() != side) {
        let shape: Vec<usize> = rows.iter().map(Vec::len).collect();
        return Err(Error::InvalidNotation(format!(
            "quincunx: the grid must be 4x4 or 5x5 (a list of rows of card codes or None), not \
             rows of lengths {}",
            clipped(&format!("{shape:?}"))
        )));
    }
    let mut grid = Vec::with_capacity(side * side);
    for (cell, entry) in rows.iter().flatten().enumerate() {
        grid.push(match entry {
            None => NO_CARD,
            Some(code) => from_code(code).ok_or_else(|| {
                Error::InvalidNotation(format!(
                    "quincunx: unknown card code {} on {}",
                    quoted(code),
                    super::cell_name(cell, side)
                ))
            })?,
        });
    }
    let placed = from_code(card).ok_or_else(|| {
        Error::InvalidNotation(format!("quincunx: unknown card code {}", quoted(card)))
    })?;
    let on_grid = |v: i64| (0..side as i64).contains(&v);
    if !on_grid(row) || !on_grid(col) {
        return Err(Error::IllegalMove(format!(
            "quincunx: cell ({row}, {col}) is off the {side}x{side} grid"
        )));
    }
    try_score_placement(
        &grid,
        side,
        !solitaire,
        placed,
        row as usize * side + col as usize,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid from rows of card codes and `.`; `*` marks the cell to play on.
    fn grid(rows: &[&str]) -> (Vec<Card>, usize, usize) {
        let side = rows.len();
        let mut g = Vec::new();
        let mut target = usize::MAX;
        for row in rows {
            let cells: Vec<&str> = row.split_whitespace().collect();
            assert_eq!(cells.len(), side, "row {row:?}");
            for c in cells {
                match c {
                    "." => g.push(NO_CARD),
                    "*" => {
                        target = g.len();
                        g.push(NO_CARD);
                    }
                    code => g.push(from_code(code).unwrap_or_else(|| panic!("no card {code}"))),
                }
            }
        }
        (g, side, target)
    }

    /// What `card` scores on the `*` of `rows` (diagonals unless the grid is 4×4).
    fn play(rows: &[&str], card: &str) -> Placement {
        let (g, side, cell) = grid(rows);
        try_score_placement(&g, side, side == 5, from_code(card).unwrap(), cell).unwrap()
    }

    fn basic_only(basic: i32) -> Placement {
        Placement {
            basic,
            ..Placement::default()
        }
    }

    #[test]
    fn basic_sums_of_nine_or_less_lose_the_sum() {
        // 2 + 7 = 9 with each of two neighbours.
        let p = play(
            &[
                ". . . . .",
                ". 2SY . . .",
                "2MK * . . .",
                ". . . . .",
                ". . . . .",
            ],
            "7WY",
        );
        assert_eq!(p, basic_only(-9 - 9));
        // 2 + 3 = 5 and 2 + 4 = 6.
        let p = play(
            &[
                "* 3MW . . .",
                "4MS . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "2MK",
        );
        assert_eq!(p, basic_only(-5 - 6));
    }

    #[test]
    fn ace_matching_exception_gains_the_sum() {
        // The Ace of Moons next to the Author (Moons, Knots): 1 + 2 = 3 gained.
        let p = play(
            &[
                "2MK * . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "AM",
        );
        assert_eq!(p, basic_only(3));
        // Next to the Desert (Suns, Wyrms): no shared suit, 3 lost.
        let p = play(
            &[
                ". * 2SY . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "AM",
        );
        assert_eq!(p, basic_only(-3));
        // A numeral played next to an Ace of one of its suits gains too: 1 + 8 = 9.
        let p = play(
            &[
                "AK * . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "8YK",
        );
        assert_eq!(p, basic_only(9));
        // Two Aces never share a suit: 1 + 1 = 2 lost (and they are a pair).
        let p = play(
            &[
                "AK * . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "AM",
        );
        assert_eq!((p.basic, p.pairs), (-2, 5));
    }

    #[test]
    fn basic_sum_of_ten_is_zero() {
        let p = play(
            &[
                "3MW * 3SK . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "7WY",
        );
        assert_eq!(p, basic_only(0));
        // An Ace and a 9 of its suit sum to 10: zero, not the Ace-matching gain.
        let p = play(
            &[
                "AM * . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "9MS",
        );
        assert_eq!(p, basic_only(0));
    }

    #[test]
    fn sums_of_eleven_and_twenty_draw_and_score_nothing() {
        let one_draw = Placement {
            draws: 1,
            ..Placement::default()
        };
        let p = play(
            &[
                "3MW * . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "8WL",
        );
        assert_eq!(p, one_draw);
        // Two Crowns: 20 draws; being of equal rank they are also a pair.
        let p = play(
            &[
                "CM * . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "CS",
        );
        assert_eq!(
            p,
            Placement {
                pairs: 5,
                ..one_draw
            }
        );
    }

    #[test]
    fn several_draws_in_one_placement() {
        // A Crown between three Aces of other suits (11 each) and above a Crown (20, a pair).
        let p = play(
            &[
                ". AM . . .",
                "AS * AK . .",
                ". CS . . .",
                ". . . . .",
                ". . . . .",
            ],
            "CW",
        );
        assert_eq!(
            p,
            Placement {
                draws: 4,
                pairs: 5,
                ..Placement::default()
            }
        );
        // Draws and points mix: 9 + 2 = 11 draws, 9 + 10 = 19 gains 9.
        let p = play(
            &[
                ". 2MK . . .",
                ". * . . .",
                ". CK . . .",
                ". . . . .",
                ". . . . .",
            ],
            "9WY",
        );
        assert_eq!(p.draws, 1);
        assert_eq!(p.points(), 9);
    }

    #[test]
    fn sums_of_twelve_to_nineteen_gain_sum_minus_ten() {
        // A 6 next to a 7 (13) makes 3 points; a 7 next to a Crown (17) makes 7.
        let p = play(
            &[
                "6MW * . . .",
                ". CK . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "7WY",
        );
        assert_eq!(p, basic_only(3 + 7));
    }

    #[test]
    fn pair_scores_five_per_equal_neighbour() {
        // Two 7s orthogonally: 14 each (+4) and a pair each (+5); the 9 is only diagonal.
        let p = play(
            &[
                "7SK . . . .",
                "* 7WY . . .",
                ". 9MS . . .",
                ". . . . .",
                ". . . . .",
            ],
            "7ML",
        );
        assert_eq!(p.pairs, 2 * 5);
        assert_eq!(p.basic, 4 + 4);
        assert_eq!(p.points(), 18);
        // A diagonal 7 is no pair.
        let p = play(
            &[
                ". 7SK . . .",
                "* . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "7ML",
        );
        assert_eq!(p, Placement::default());
    }

    #[test]
    fn pair_not_counted_inside_a_three_of_a_kind() {
        // 6 6 * in a row: three of a kind, and the 6 beside it is no pair.
        let p = play(
            &[
                "6MW 6SY * . .",
                ". . 4MS . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "6LK",
        );
        assert_eq!(p.sets, 30);
        assert_eq!(p.pairs, 0);
        assert_eq!(p.basic, 2); // 6 + 6 = 12 gains 2; 6 + 4 = 10 is zero
        // A set in the row leaves a pair in the column standing (there are six Aces).
        let p = play(
            &[
                "AM AS * . .",
                ". . AK . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "AW",
        );
        assert_eq!(p.sets, 30);
        assert_eq!(p.pairs, 5);
        assert_eq!(p.basic, -2 - 2);
    }

    #[test]
    fn straight_both_directions() {
        let ascending = play(
            &[
                "3MW 4MS * . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "5ML",
        );
        assert_eq!(ascending.straights, 20);
        assert_eq!(ascending.basic, -9);
        let descending = play(
            &[
                "5ML 4MS * . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "3MW",
        );
        assert_eq!(descending.straights, 20);
        // The card in the middle completes it too.
        let middle = play(
            &[
                "5ML * 3MW . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "4MS",
        );
        assert_eq!(middle.straights, 20);
        // 3 5 4 is no straight.
        let jumbled = play(
            &[
                "3MW 5ML * . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "4MS",
        );
        assert_eq!(jumbled.straights, 0);
    }

    #[test]
    fn extended_run_counts_as_a_straight() {
        // 2 3 4 5 * -> 2..6, once (one bonus per line).
        let p = play(
            &[
                "2MK 3MW 4MS 5ML *",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "6MW",
        );
        assert_eq!(p.straights, 20);
        // In the middle of a run of four: one straight, not two overlapping ones.
        let p = play(
            &[
                "2MK 3MW * 5ML 6MW",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "4MS",
        );
        assert_eq!(p.straights, 20);
    }

    #[test]
    fn straight_per_direction_two_directions_score_twice() {
        // Row 3 4 *, column 7 6 * (descending towards the card): two straights, 40.
        let p = play(
            &[
                ". . 7WY . .",
                ". . 6MW . .",
                "3MW 4MS * . .",
                ". . . . .",
                ". . . . .",
            ],
            "5ML",
        );
        assert_eq!(p.straights, 40);
        // A diagonal counts on the 5x5 grid.
        let p = play(
            &[
                "3MW . . . .",
                ". 4MS . . .",
                ". . * . .",
                ". . . . .",
                ". . . . .",
            ],
            "5ML",
        );
        assert_eq!(p.straights, 20);
        // ... and the anti-diagonal.
        let p = play(
            &[
                ". . . . 3MW",
                ". . . 4MS .",
                ". . * . .",
                ". . . . .",
                ". . . . .",
            ],
            "5ML",
        );
        assert_eq!(p.straights, 20);
    }

    #[test]
    fn no_diagonal_in_solitaire() {
        let rows = ["3MW . . .", ". 4MS . .", ". . * .", ". . . ."];
        let p = play(&rows, "5ML");
        assert_eq!(p, Placement::default());
        let (g, side, cell) = grid(&rows);
        let with_diagonals = try_score_placement(&g, side, true, 15, cell).unwrap();
        assert_eq!(with_diagonals.straights, 20);
        // Sets neither.
        let rows = ["AM . . .", ". AS . .", ". . * .", ". . . ."];
        assert_eq!(play(&rows, "AW"), Placement::default());
        // Rows and columns do count in solitaire.
        let rows = ["AM AS * .", ". . . .", ". . . .", ". . . ."];
        assert_eq!(play(&rows, "AW").sets, 30);
    }

    #[test]
    fn no_wrap_crown_to_ace() {
        let p = play(
            &[
                "9MS CM * . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "AS",
        );
        assert_eq!(p.straights, 0);
        let p = play(
            &[
                "CM AS * . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "2SY",
        );
        assert_eq!(p.straights, 0);
        // 8 9 Crown is a straight (Crown is rank 10).
        let p = play(
            &[
                "8MS 9WY * . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "CK",
        );
        assert_eq!(p.straights, 20);
    }

    #[test]
    fn three_of_a_kind_scores_thirty_per_line() {
        // Crowns: a row and a column of three each: 60; basic 20 twice = two draws.
        let p = play(
            &[
                "CM CS * . .",
                ". . CW . .",
                ". . CL . .",
                ". . . . .",
                ". . . . .",
            ],
            "CK",
        );
        assert_eq!(p.sets, 60);
        assert_eq!(p.straights, 0);
        assert_eq!(p.pairs, 0);
        assert_eq!(p.draws, 2);
        assert_eq!(p.points(), 60);
        // Four in a row is still one three of a kind.
        let p = play(
            &[
                "AM AS AW * .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "AL",
        );
        assert_eq!(p.sets, 30);
    }

    #[test]
    fn one_bonus_per_line_three_of_a_kind_beats_a_straight() {
        // 4 4 [4] 5 6: a three of a kind on the left, a straight on the right, same row.
        let p = play(
            &[
                "4MS 4WL * 5ML 6MW",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "4YK",
        );
        assert_eq!((p.sets, p.straights, p.pairs), (30, 0, 0));
        assert_eq!(p.basic, -8 - 9);
    }

    #[test]
    fn power_play_adds_the_suit_numerals_in_the_grid() {
        // Ace of Knots next to the Windfall (Crown of Knots): 11 draws, and the Knots numerals
        // in the grid count: Author 2, Painter 3 (the Ace and Crown themselves do not).
        let p = play(
            &[
                "CK * . . 2MK",
                ". . . . .",
                ". . 3SK . .",
                ". . . . .",
                "4MS . . . .",
            ],
            "AK",
        );
        assert_eq!(p.power, 2 + 3);
        assert_eq!(p.draws, 1);
        assert_eq!(p.points(), 5);
        // Zero when the suit has no numeral in the grid.
        let p = play(
            &[
                "CK * . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "AK",
        );
        assert_eq!(p.power, 0);
        // The Crown played next to its Ace works the same way; another suit's Ace does not.
        let p = play(
            &[
                "AK * AM . .",
                "2MK . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "CK",
        );
        assert_eq!(p.power, 2);
        assert_eq!(p.basic, 0); // Ace of Moons + Crown of Knots = 11: a draw
        assert_eq!(p.draws, 2);
        // A diagonal partner is no power play.
        let p = play(
            &[
                "AK . . . .",
                ". * . . .",
                ". . . . .",
                ". . . . .",
                "2MK . . . .",
            ],
            "CK",
        );
        assert_eq!(p.power, 0);
    }

    #[test]
    fn power_play_counts_every_numeral_of_the_suit_up_to_44() {
        // All the Knots numerals: 2MK 3SK 4YK 5YK 6LK 7SK 8YK 9LK = 44.
        let p = play(
            &[
                "CK * 2MK 3SK 4YK",
                "5YK 6LK 7SK 8YK 9LK",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "AK",
        );
        assert_eq!(p.power, 44);
    }

    #[test]
    fn excuse_scores_nothing_and_breaks_runs() {
        // Playing the Excuse: nothing at all, even where a card would draw.
        let p = play(
            &[
                "CM * . . .",
                ". CS . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "X",
        );
        assert_eq!(p, Placement::default());
        // An Excuse neighbour gives no basic score and breaks the run 3 X * .
        let p = play(
            &[
                "3MW X * . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "5ML",
        );
        assert_eq!(p, Placement::default());
        // A run stops at the Excuse: X A * is no straight 0-1-2.
        let p = play(
            &[
                "X AS * . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "2SY",
        );
        assert_eq!(p.straights, 0);
        assert_eq!(p.basic, 3); // Ace of Suns + the Desert (Suns): matching, +3
        // Three of a kind through the Excuse neither.
        let p = play(
            &[
                "CM X * CS .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "CK",
        );
        assert_eq!(p.sets, 0);
        assert_eq!(p.draws, 1);
    }

    #[test]
    fn empty_cells_break_runs() {
        let p = play(
            &[
                "3MW . * . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            "5ML",
        );
        assert_eq!(p, Placement::default());
    }

    #[test]
    fn checked_scoring_rejects_bad_input() {
        let (g, side, cell) = grid(&["AM * . .", ". . . .", ". . . .", ". . . ."]);
        assert!(matches!(
            try_score_placement(&g, side, false, 6, 0),
            Err(Error::IllegalMove(_))
        ));
        assert!(matches!(
            try_score_placement(&g, side, false, 0, cell),
            Err(Error::IllegalMove(_))
        ));
        assert!(matches!(
            try_score_placement(&g, side, false, 6, 16),
            Err(Error::IllegalMove(_))
        ));
        assert!(matches!(
            try_score_placement(&g, side, false, 37, cell),
            Err(Error::InvalidNotation(_))
        ));
        assert!(matches!(
            try_score_placement(&g[..15], side, false, 6, cell),
            Err(Error::InvalidNotation(_))
        ));
        assert!(matches!(
            try_score_placement(&g, 3, false, 6, cell),
            Err(Error::InvalidNotation(_))
        ));
        assert_eq!(
            try_score_placement(&g, side, false, 6, cell).unwrap(),
            basic_only(3)
        );
    }

    #[test]
    fn scoring_by_code_reads_rows_of_codes() {
        let rows = |side: usize| {
            let mut r = vec![vec![None; side]; side];
            r[0][0] = Some("AM".to_string());
            r
        };
        let p = score_placement_by_code(&rows(4), "2MK", (0, 1), true).unwrap();
        assert_eq!(p, basic_only(3));
        let p = score_placement_by_code(&rows(5), "2MK", (1, 0), false).unwrap();
        assert_eq!(p, basic_only(3));
        let err = |r: Result<Placement>| match r {
            Err(Error::InvalidNotation(m)) => ("notation", m),
            Err(Error::IllegalMove(m)) => ("move", m),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            err(score_placement_by_code(&rows(5), "ZZ", (1, 0), false)).0,
            "notation"
        );
        assert_eq!(
            err(score_placement_by_code(&rows(3), "AS", (1, 0), false)).0,
            "notation"
        );
        let mut ragged = rows(5);
        ragged[2].pop();
        assert_eq!(
            err(score_placement_by_code(&ragged, "AS", (1, 0), false)).0,
            "notation"
        );
        let mut unknown = rows(5);
        unknown[4][4] = Some("CZ".to_string());
        let (kind, m) = err(score_placement_by_code(&unknown, "AS", (1, 0), false));
        assert_eq!(kind, "notation");
        assert!(m.contains("e5"), "{m}");
        let (kind, m) = err(score_placement_by_code(&rows(5), "AS", (0, 0), false));
        assert_eq!(kind, "move");
        assert!(m.contains("a1 is occupied by AM"), "{m}");
        assert_eq!(
            err(score_placement_by_code(&rows(5), "AS", (5, 0), false)).0,
            "move"
        );
        assert_eq!(
            err(score_placement_by_code(&rows(5), "AS", (0, -1), false)).0,
            "move"
        );
        assert_eq!(
            err(score_placement_by_code(&rows(5), "AM", (0, 1), false)).0,
            "move"
        );
    }
}
