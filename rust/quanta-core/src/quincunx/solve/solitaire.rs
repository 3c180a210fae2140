//! The solitaire model: [`Solitaire`], the action numbering ([`placement`]), [`replay`], and
//! the grid helpers the searches share (empty cells, the edges and draws within reach).

use super::tables::tables;
use super::{CELLS, SIDE};
use crate::error::{Error, Result};
use crate::game::Action;
use crate::quincunx::cards::{self, CARD_COUNT, Card, NO_CARD, hand_penalty};
use crate::quincunx::scoring::score_placement;
use crate::quincunx::{Quincunx, QuincunxState, Turn};

/// The action that places `card` on `cell` (contract numbering: `card * cells + cell`).
pub fn placement(card: Card, cell: usize) -> Action {
    card as Action * CELLS as Action + cell as Action
}

/// A solitaire position at the player's decision (no draw pending), or a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Solitaire {
    /// Row by row from the top, `NO_CARD` for an empty cell.
    pub grid: [Card; CELLS],
    /// The hand as a card set (bit `card`).
    pub hand: u64,
    /// The cards not seen yet (the draw pile, as a set).
    pub pile: u64,
    /// Turn points scored so far.
    pub points: i32,
}

impl Solitaire {
    /// A position from its parts, checked: every card of the deck (with or without the Excuse)
    /// exactly once in the grid, the hand or the pile.
    pub fn new(
        grid: [Card; CELLS],
        hand: u64,
        pile: u64,
        points: i32,
        excuse: bool,
    ) -> Result<Self> {
        let deck = cards::deck(excuse);
        let mut placed = 0u64;
        for &c in &grid {
            if c == NO_CARD {
                continue;
            }
            if c as usize >= CARD_COUNT || deck & 1 << c == 0 {
                return Err(Error::InvalidNotation(format!(
                    "quincunx: {c} is not a card of this deck"
                )));
            }
            if placed & 1 << c != 0 {
                return Err(Error::InvalidNotation(format!(
                    "quincunx: {} is twice in the grid",
                    cards::code(c)
                )));
            }
            placed |= 1 << c;
        }
        if placed & hand != 0
            || placed & pile != 0
            || hand & pile != 0
            || placed | hand | pile != deck
        {
            return Err(Error::InvalidNotation(
                "quincunx: the grid, the hand and the pile must hold every card of the deck once"
                    .into(),
            ));
        }
        Ok(Solitaire {
            grid,
            hand,
            pile,
            points,
        })
    }

    /// The position of a solitaire game's state at a placement (or at the end). Chance nodes
    /// (the deal, a pending draw) and games of 2-4 players are not applicable.
    pub fn from_state(game: &Quincunx, state: &QuincunxState) -> Result<Self> {
        if !game.solitaire() {
            return Err(Error::NotApplicable(format!(
                "the quincunx solvers play solitaire (players=1), not {} players",
                game.players
            )));
        }
        if matches!(state.turn, Turn::Deal | Turn::Draw { .. }) {
            return Err(Error::NotApplicable(
                "the quincunx solvers need a placement to make, not a chance node (deal or draw)"
                    .into(),
            ));
        }
        let mut grid = [NO_CARD; CELLS];
        grid.copy_from_slice(&state.grid[..CELLS]);
        Self::new(
            grid,
            state.hands[0],
            state.pile,
            state.scores[0],
            game.excuse,
        )
    }

    /// The empty cells as a bit set.
    pub fn empty(&self) -> u16 {
        empty_cells(&self.grid)
    }

    /// The grid is full (won) or the hand is empty with the grid not full (lost).
    pub fn is_over(&self) -> bool {
        self.empty() == 0 || self.hand == 0
    }

    /// The game ended with the grid not full.
    pub fn lost(&self) -> bool {
        self.empty() != 0 && self.hand == 0
    }

    /// The legal placements, ascending.
    pub fn actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        for c in cards::cards(self.hand) {
            for x in bits(self.empty() as u64) {
                out.push(placement(c, x));
            }
        }
        out
    }

    /// Places `card` on `cell` and draws what it makes the player draw, from `order` (the pile
    /// top first) when given, else nothing yet. Returns the points and the draws owed.
    pub(super) fn place(&mut self, card: Card, cell: usize) -> (i32, u32) {
        let p = score_placement(&self.grid, SIDE, false, card, cell);
        self.grid[cell] = card;
        self.hand &= !(1 << card);
        self.points += p.points();
        (p.points(), p.draws)
    }

    /// Draws `card` from the pile into the hand.
    pub(super) fn draw(&mut self, card: Card) {
        self.pile &= !(1 << card);
        self.hand |= 1 << card;
    }

    /// The final score of a finished game: turn points less the hand penalty.
    pub fn final_score(&self) -> i32 {
        self.points - hand_penalty(self.hand)
    }

    pub(super) fn split(action: Action) -> (Card, usize) {
        ((action as usize / CELLS) as Card, action as usize % CELLS)
    }

    fn check_action(&self, action: Action) -> Result<(Card, usize)> {
        let (card, cell) = Self::split(action);
        if (card as usize) < CARD_COUNT && self.hand & 1 << card != 0 && self.grid[cell] == NO_CARD
        {
            Ok((card, cell))
        } else {
            Err(Error::IllegalMove(format!(
                "quincunx: action {action} is not a legal placement here"
            )))
        }
    }
}

pub(super) fn empty_cells(grid: &[Card; CELLS]) -> u16 {
    grid.iter()
        .enumerate()
        .filter(|&(_, &c)| c == NO_CARD)
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// The most draws the cells left (`empty`) can still make, filled from `cards_in`, counting
/// only the filled neighbours in `known`: per cell, the most of those neighbours one card
/// draws with, plus every edge between two cells left.
pub(super) fn draw_cap(grid: &[Card; CELLS], empty: u16, cards_in: u64, known: u16) -> usize {
    bits(empty as u64).fold(edges_within(empty), |total, x| {
        total + draw_level(&drawing_with(grid, x, cards_in, known & !empty))
    })
}

/// The edges between two cells of `cells` (counted by their left or upper cell; 0x7777: not
/// the last column).
pub(super) fn edges_within(cells: u16) -> usize {
    (cells & cells >> 1 & 0x7777).count_ones() as usize
        + (cells & cells >> SIDE).count_ones() as usize
}

/// The cards of `cards_in` that draw with at least 1, 2, 3, 4 of the neighbours of cell `x`
/// in `filled` (cells with a card).
pub(super) fn drawing_with(grid: &[Card; CELLS], x: usize, cards_in: u64, filled: u16) -> [u64; 4] {
    let t = tables();
    let mut at_least = [0u64; 4];
    for m in bits((t.neighbours[x] & filled) as u64) {
        let d = t.drawers[grid[m] as usize] & cards_in;
        at_least[3] |= at_least[2] & d;
        at_least[2] |= at_least[1] & d;
        at_least[1] |= at_least[0] & d;
        at_least[0] |= d;
    }
    at_least
}

/// The most filled neighbours one card draws with, from the sets of the cards that draw with
/// at least 1, 2, 3, 4 of them.
pub(super) fn draw_level(at_least: &[u64; 4]) -> usize {
    at_least.iter().take_while(|&&s| s != 0).count()
}

/// The draws of [`draw_cap`] that placing `c` on cell `x` loses, `open` its empty
/// neighbours (see [`Grids::cards_within_draws`](super::grids::Grids::cards_within_draws); `at_least` and `most` as there).
pub(super) fn lost_draws(
    at_least: &[[u64; 4]; CELLS],
    most: &[usize; CELLS],
    cards_in: u64,
    open: u16,
    x: usize,
    c: Card,
) -> usize {
    let t = tables();
    let bit = 1u64 << c;
    let made = at_least[x].iter().filter(|&&s| s & bit != 0).count();
    let others = cards_in & !bit;
    let d = t.drawers[c as usize] & others;
    let mut lost = most[x] - made;
    for y in bits(open as u64) {
        let s = at_least[y].map(|s| s & others);
        let after = [s[0] | d, s[1] | s[0] & d, s[2] | s[1] & d, s[3] | s[2] & d];
        lost += most[y] + 1 - draw_level(&after);
    }
    lost
}

/// The set bits of `set`, lowest first.
pub(super) fn bits(set: u64) -> impl Iterator<Item = usize> {
    crate::bits::Bits::cells(set)
}

/// Replays `line` from `pos` with the pile in `order`: the final position. Checks legality.
pub fn replay(pos: &Solitaire, order: &[Card], line: &[Action]) -> Result<Solitaire> {
    let mut pos = *pos;
    let mut next = order.iter();
    for &a in line {
        let (card, cell) = pos.check_action(a)?;
        let (_, draws) = pos.place(card, cell);
        for _ in 0..draws {
            if let Some(&c) = next.next() {
                pos.draw(c);
            }
        }
    }
    Ok(pos)
}
