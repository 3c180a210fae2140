//! Quincunx's rules as moves on a position: the deal, where a card may go, a placement and
//! its draws, the end of a turn and of a round (docs/rules/quincunx.md).

use super::cards::{Card, NO_CARD, hand_penalty};
use super::scoring::score_placement;
use super::{BOOK_BOX, BOOK_SIDE, MAX_CELLS, MAX_PLAYERS, Quincunx, QuincunxState, Turn};

/// The set bits of a cell set, lowest first.
pub(super) fn cell_bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let cell = set.trailing_zeros() as usize;
            set &= set - 1;
            cell
        })
    })
}

/// The `k`-th (0-based) set bit of a cell set.
pub(super) fn nth_cell(set: u128, k: usize) -> usize {
    cell_bits(set).nth(k).expect("k < set bits")
}

/// Where the next card of the deal goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
    Cell(usize),
    Hand(usize),
}

impl Quincunx {
    /// The empty cells as bits of a `u128`.
    pub fn empty_cells(&self, s: &QuincunxState) -> u128 {
        s.grid[..self.cells()]
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c == NO_CARD)
            .fold(0, |set, (cell, _)| set | 1 << cell)
    }

    /// The cards on the grid.
    pub fn placed(&self, s: &QuincunxState) -> u32 {
        s.grid[..self.cells()]
            .iter()
            .filter(|&&c| c != NO_CARD)
            .count() as u32
    }

    /// The cells a card may go on: every empty cell; with the book setup only those edge to
    /// edge with a placed card that keep all placed cards within a 5×5 box.
    pub fn legal_cells(&self, s: &QuincunxState) -> u128 {
        let empty = self.empty_cells(s);
        if !self.book() {
            return empty;
        }
        let side = BOOK_SIDE;
        // The box of the placed cards: rows top..=bottom, columns left..=right.
        let (mut top, mut bottom, mut left, mut right) = (side, 0, side, 0);
        for cell in (0..self.cells()).filter(|&x| s.grid[x] != NO_CARD) {
            let (r, c) = (cell / side, cell % side);
            (top, bottom) = (top.min(r), bottom.max(r));
            (left, right) = (left.min(c), right.max(c));
        }
        cell_bits(empty)
            .filter(|&cell| {
                let (r, c) = (cell / side, cell % side);
                let touches = (r > 0 && s.grid[cell - side] != NO_CARD)
                    || (r + 1 < side && s.grid[cell + side] != NO_CARD)
                    || (c > 0 && s.grid[cell - 1] != NO_CARD)
                    || (c + 1 < side && s.grid[cell + 1] != NO_CARD);
                touches
                    && bottom.max(r) - top.min(r) < BOOK_BOX
                    && right.max(c) - left.min(c) < BOOK_BOX
            })
            .fold(0, |set, cell| set | 1 << cell)
    }

    pub fn grid_full(&self, s: &QuincunxState) -> bool {
        self.placed(s) == self.grid_size()
    }

    /// A finished solitaire whose hand ran out before the grid was full.
    pub fn lost(&self, s: &QuincunxState) -> bool {
        self.solitaire() && s.turn == Turn::End && !self.grid_full(s)
    }

    /// A round about to be dealt: nothing on the grid or in hand.
    pub(super) fn fresh_round(&self, scores: [i32; MAX_PLAYERS], round: u8) -> QuincunxState {
        QuincunxState {
            grid: [NO_CARD; MAX_CELLS],
            hands: [0; MAX_PLAYERS],
            pile: self.deck(),
            scores,
            turn: Turn::Deal,
            round,
        }
    }

    /// Where the deal puts its next card: the start cells in order, then the hands in full,
    /// from the player who moves first on; `None` once everything is dealt.
    pub(super) fn deal_slot(&self, s: &QuincunxState) -> Option<Slot> {
        if let Some(&cell) = self.start_cells().iter().find(|&&c| s.grid[c] == NO_CARD) {
            return Some(Slot::Cell(cell));
        }
        let first = self.first_player(s.round);
        (0..self.players)
            .map(|k| (first + k) % self.players)
            .find(|&p| s.hands[p].count_ones() < self.hand_size())
            .map(Slot::Hand)
    }

    /// After a placement and its draws: the round ends on a full grid; otherwise the next
    /// player clockwise who holds a card places (the others pass). Nobody holding a card with
    /// the grid not full only happens in solitaire: the game is lost.
    pub(super) fn end_turn(&self, s: &mut QuincunxState, player: usize) {
        if self.grid_full(s) {
            return self.end_round(s);
        }
        let n = self.players;
        s.turn = (1..=n)
            .map(|k| (player + k) % n)
            .find(|&p| s.hands[p] != 0)
            .map_or(Turn::End, |p| Turn::Place(p as u8));
    }

    /// Each player loses their hand penalty; then the next round is dealt, or the game ends.
    pub(super) fn end_round(&self, s: &mut QuincunxState) {
        for p in 0..self.players {
            s.scores[p] -= hand_penalty(s.hands[p]);
        }
        if s.round + 1 < self.rounds() {
            *s = self.fresh_round(s.scores, s.round + 1);
        } else {
            s.turn = Turn::End;
        }
    }

    pub(super) fn place(&self, s: &mut QuincunxState, player: usize, card: Card, cell: usize) {
        let side = self.side();
        let placement = score_placement(&s.grid[..side * side], side, self.diagonals(), card, cell);
        s.grid[cell] = card;
        s.hands[player] &= !(1 << card);
        s.scores[player] += placement.points();
        // One draw per sum of 11 or 20; a draw from an empty pile does nothing.
        let pending = placement.draws.min(s.pile.count_ones());
        if pending > 0 {
            s.turn = Turn::Draw {
                player: player as u8,
                pending: pending as u8,
            };
        } else {
            self.end_turn(s, player);
        }
    }
}
