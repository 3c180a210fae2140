//! Quincunx (Chris DeLeo): the Decktet card game of placing cards on a grid, for 1 to 4
//! players. The deck is in [`cards`], what one placement scores in [`scoring`], the solitaire
//! solvers in [`solve`].
//!
//! Options: `players` = 2 (default), 3, 4 or 1 (solitaire); `excuse` = false (default) or
//! true; `match` = false (default) or true; `setup` = `"wiki"` (default) or `"book"`.
//!
//! Rules, notation and action names: docs/rules/quincunx.md.

pub mod cards;
pub mod scoring;
pub mod solve;
#[cfg(test)]
mod tests;

use crate::error::{Error, Result, quoted};
use crate::game::{Action, Game, GameInfo, Information, Rng, ToMove, Utility};
use crate::options::{OptionReader, OptionValue, Options};
use cards::{CARD_COUNT, Card, NO_CARD, code, deck, from_code, hand_penalty, nth};
use rand::Rng as _;
use rand::seq::SliceRandom as _;
use scoring::score_placement;
use std::fmt::Write as _;

/// The largest board: the book setup's 9×9 (the wiki grid uses the first 25 or 16 cells).
pub const MAX_CELLS: usize = 81;
/// The side of the book setup's board, on which a grid of up to 5×5 grows from the centre.
pub const BOOK_SIDE: usize = 9;
/// The book setup's grid is full with this many cards (its 5×5 box).
const BOOK_GRID: u32 = 25;
/// The book setup's longest extent, in rows and in columns.
const BOOK_BOX: usize = 5;
pub const MAX_PLAYERS: usize = 4;
/// Scores in a notation stay within ±this (real games stay within a few thousand), so that
/// no sum can overflow.
const MAX_SCORE: i32 = 1_000_000;

/// Start cells (dealt face up, in this order): the corners, and the centre with 2 or 4 players.
const SOLITAIRE_START: &[usize] = &[0, 3, 12, 15];
const CORNERS: &[usize] = &[0, 4, 20, 24];
const CORNERS_AND_CENTRE: &[usize] = &[0, 4, 12, 20, 24];
/// The book setup's one start card, on the centre (4, 4) of the 9×9 board.
const BOOK_START: &[usize] = &[4 * BOOK_SIDE + 4];

/// How the round is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setup {
    /// The rules as on the wiki: start cards on the corners (and the centre), full hands.
    Wiki,
    /// The newer official version (2-3 players): one start card, hands of 12 / 8, the grid
    /// grows edge to edge up to 5×5.
    Book,
}

/// The set bits of a cell set, lowest first.
fn cell_bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let cell = set.trailing_zeros() as usize;
            set &= set - 1;
            cell
        })
    })
}

/// The `k`-th (0-based) set bit of a cell set.
fn nth_cell(set: u128, k: usize) -> usize {
    cell_bits(set).nth(k).expect("k < set bits")
}

/// The game's parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quincunx {
    /// 1 (solitaire) to 4.
    pub players: usize,
    /// The Excuse is in the deck.
    pub excuse: bool,
    /// A game of one round per dealer instead of a single round.
    pub match_play: bool,
    pub setup: Setup,
}

/// Whose turn it is, and to do what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The deal is under way; the next card's place follows from what is dealt.
    Deal,
    /// The player places a card.
    Place(u8),
    /// The player draws `pending` more cards (never more than the pile holds).
    Draw { player: u8, pending: u8 },
    /// The game is over.
    End,
}

/// A position. Every card of the deck is in exactly one of `grid`, `hands` and `pile`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct QuincunxState {
    /// Row by row from the top, `side * side` cells used, `NO_CARD` where empty.
    pub grid: [Card; MAX_CELLS],
    /// Each player's hand as a card set (bit `card`); players beyond the game's stay empty.
    pub hands: [u64; MAX_PLAYERS],
    /// The cards nobody has seen: the undealt cards, then the draw pile.
    pub pile: u64,
    /// Totals of the finished rounds (penalties included) plus this round's turn points.
    pub scores: [i32; MAX_PLAYERS],
    pub turn: Turn,
    /// 0-based.
    pub round: u8,
}

/// Where the next card of the deal goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Cell(usize),
    Hand(usize),
}

/// The name of `cell` on a grid of side `side`: column letter, then row number from the top.
pub fn cell_name(cell: usize, side: usize) -> String {
    format!(
        "{}{}",
        (b'a' + (cell % side) as u8) as char,
        cell / side + 1
    )
}

impl Quincunx {
    pub fn solitaire(&self) -> bool {
        self.players == 1
    }

    pub fn book(&self) -> bool {
        self.setup == Setup::Book
    }

    /// 4 in solitaire, 9 (the board the book's grid grows on) with the book setup, 5 otherwise.
    pub fn side(&self) -> usize {
        if self.solitaire() {
            4
        } else if self.book() {
            BOOK_SIDE
        } else {
            5
        }
    }

    /// How many cards make the grid full: every cell, or 25 (a 5×5 box) with the book setup.
    pub fn grid_size(&self) -> u32 {
        if self.book() {
            BOOK_GRID
        } else {
            self.cells() as u32
        }
    }

    pub fn cells(&self) -> usize {
        self.side() * self.side()
    }

    /// Straights and three of a kind count on the diagonals (never in solitaire).
    pub fn diagonals(&self) -> bool {
        !self.solitaire()
    }

    /// Cards dealt to each hand: 8 (solitaire), 10, 7, 6; with the book setup 12, 8.
    pub fn hand_size(&self) -> u32 {
        if self.book() {
            [0, 12, 8, 0][self.players - 1]
        } else {
            [8, 10, 7, 6][self.players - 1]
        }
    }

    /// How many cards the deal hands out: the start cards and the hands.
    pub fn deal_size(&self) -> u32 {
        self.start_cells().len() as u32 + self.players as u32 * self.hand_size()
    }

    pub fn rounds(&self) -> u8 {
        if self.match_play {
            self.players as u8
        } else {
            1
        }
    }

    /// The cells dealt face up, in dealing order.
    pub fn start_cells(&self) -> &'static [usize] {
        match self.players {
            _ if self.book() => BOOK_START,
            1 => SOLITAIRE_START,
            3 => CORNERS,
            _ => CORNERS_AND_CENTRE,
        }
    }

    /// Every card of the game as a card set.
    pub fn deck(&self) -> u64 {
        deck(self.excuse)
    }

    /// The dealer of round `round` is `(n - 1 + round) % n`; the player on their left begins.
    pub fn first_player(&self, round: u8) -> usize {
        round as usize % self.players
    }

    /// The action "this card comes" of a chance node is `chance_base() + card`.
    pub fn chance_base(&self) -> Action {
        (CARD_COUNT * self.cells()) as Action
    }

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
    fn fresh_round(&self, scores: [i32; MAX_PLAYERS], round: u8) -> QuincunxState {
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
    fn deal_slot(&self, s: &QuincunxState) -> Option<Slot> {
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
    fn end_turn(&self, s: &mut QuincunxState, player: usize) {
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
    fn end_round(&self, s: &mut QuincunxState) {
        for p in 0..self.players {
            s.scores[p] -= hand_penalty(s.hands[p]);
        }
        if s.round + 1 < self.rounds() {
            *s = self.fresh_round(s.scores, s.round + 1);
        } else {
            s.turn = Turn::End;
        }
    }

    fn place(&self, s: &mut QuincunxState, player: usize, card: Card, cell: usize) {
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

    fn turn_field(&self, s: &QuincunxState) -> String {
        match s.turn {
            Turn::Deal => "deal".to_string(),
            Turn::Place(p) => p.to_string(),
            Turn::Draw { player, pending } => format!("{player}+{pending}"),
            Turn::End => "end".to_string(),
        }
    }

    fn write_grid(&self, s: &QuincunxState, out: &mut String) {
        let side = self.side();
        for (i, &c) in s.grid[..self.cells()].iter().enumerate() {
            if i > 0 {
                out.push(if i % side == 0 { '/' } else { ',' });
            }
            out.push_str(if c == NO_CARD { "." } else { code(c) });
        }
    }

    /// The fields after the cards: `<scores> <turn> <round>/<rounds>`.
    fn write_tail(&self, s: &QuincunxState, out: &mut String) {
        for (p, score) in s.scores[..self.players].iter().enumerate() {
            let _ = write!(out, "{}{score}", if p == 0 { " " } else { "," });
        }
        let _ = write!(
            out,
            " {} {}/{}",
            self.turn_field(s),
            s.round + 1,
            self.rounds()
        );
    }
}

/// A card set as codes in card-index order joined by `,`; `-` when empty.
fn write_cards(set: u64, out: &mut String) {
    if set == 0 {
        out.push('-');
    }
    for (i, c) in cards::cards(set).enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(code(c));
    }
}

fn bad(text: &str, what: impl std::fmt::Display) -> Error {
    Error::InvalidNotation(format!("quincunx: {what} in {}", quoted(text)))
}

impl Game for Quincunx {
    type State = QuincunxState;
    const NAME: &'static str = "quincunx";

    fn from_options(options: &Options) -> Result<Self> {
        let mut r = OptionReader::new(Self::NAME, options);
        let players = r.int("players", 1, 4, 2)? as usize;
        let excuse = r.bool("excuse", false)?;
        let match_play = r.bool("match", false)?;
        let setup = match r.choice("setup", &["wiki", "book"])? {
            "book" => Setup::Book,
            _ => Setup::Wiki,
        };
        r.finish()?;
        if setup == Setup::Book && !(2..=3).contains(&players) {
            return Err(Error::InvalidOption(format!(
                "quincunx: setup \"book\" is for 2 or 3 players, not players={players}"
            )));
        }
        if match_play && players == 1 {
            return Err(Error::InvalidOption(
                "quincunx: solitaire (players=1) is always one round; match=True needs 2-4 \
                 players"
                    .to_string(),
            ));
        }
        Ok(Quincunx {
            players,
            excuse,
            match_play,
            setup,
        })
    }

    fn options(&self) -> Options {
        Options::from([
            ("players".to_string(), OptionValue::Int(self.players as i64)),
            ("excuse".to_string(), OptionValue::Bool(self.excuse)),
            ("match".to_string(), OptionValue::Bool(self.match_play)),
            (
                "setup".to_string(),
                OptionValue::Str(if self.book() { "book" } else { "wiki" }.to_string()),
            ),
        ])
    }

    fn num_players(&self) -> usize {
        self.players
    }

    /// Bounds from the scoring rules: a placement scores at most 4 × 9 (basic) + 4 × 5
    /// (pairs) + 4 × 30 (a bonus per line direction) + 44 (a power play) = 220 and at least
    /// 4 × −9; a hand left at the end costs at most the whole deck's penalty, 282.
    fn info(&self) -> GameInfo {
        let placements = self.grid_size() - self.start_cells().len() as u32;
        let rounds = self.rounds() as u32;
        GameInfo {
            information: Information::Imperfect,
            utility: Utility::GeneralSum,
            chance: true,
            min_return: -((rounds * (36 * placements + 282)) as f64),
            max_return: (rounds * 220 * placements) as f64,
            max_game_length: rounds * placements,
        }
    }

    fn num_actions(&self) -> usize {
        CARD_COUNT * self.cells() + CARD_COUNT
    }

    fn new_state(&self) -> QuincunxState {
        self.fresh_round([0; MAX_PLAYERS], 0)
    }

    fn to_move(&self, s: &QuincunxState) -> ToMove {
        match s.turn {
            Turn::Deal | Turn::Draw { .. } => ToMove::Chance,
            Turn::Place(p) => ToMove::Player(p),
            Turn::End => ToMove::Terminal,
        }
    }

    fn legal_actions(&self, s: &QuincunxState, out: &mut Vec<Action>) {
        out.clear();
        match s.turn {
            Turn::Deal | Turn::Draw { .. } => {
                let base = self.chance_base();
                out.extend(cards::cards(s.pile).map(|c| base + c as Action));
            }
            Turn::Place(p) => {
                let legal = self.legal_cells(s);
                let cells = self.cells() as Action;
                for card in cards::cards(s.hands[p as usize]) {
                    out.extend(
                        cell_bits(legal).map(|cell| card as Action * cells + cell as Action),
                    );
                }
            }
            Turn::End => {}
        }
    }

    fn chance_outcomes(&self, s: &QuincunxState, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if let Turn::Deal | Turn::Draw { .. } = s.turn {
            let p = 1.0 / s.pile.count_ones() as f64;
            let base = self.chance_base();
            out.extend(cards::cards(s.pile).map(|c| (base + c as Action, p)));
        }
    }

    fn sample_chance(&self, s: &QuincunxState, rng: &mut Rng) -> Action {
        let k = rng.random_range(0..s.pile.count_ones() as usize);
        self.chance_base() + nth(s.pile, k as u32) as Action
    }

    fn apply(&self, s: &mut QuincunxState, action: Action) {
        let cells = self.cells();
        let chance_card = action.wrapping_sub(self.chance_base()) as Card;
        match s.turn {
            Turn::Deal => {
                s.pile &= !(1 << chance_card);
                match self.deal_slot(s) {
                    Some(Slot::Cell(cell)) => s.grid[cell] = chance_card,
                    Some(Slot::Hand(p)) => s.hands[p] |= 1 << chance_card,
                    None => {}
                }
                if self.deck().count_ones() - s.pile.count_ones() == self.deal_size() {
                    s.turn = Turn::Place(self.first_player(s.round) as u8);
                }
            }
            Turn::Draw { player, pending } => {
                s.pile &= !(1 << chance_card);
                s.hands[player as usize] |= 1 << chance_card;
                if pending > 1 {
                    s.turn = Turn::Draw {
                        player,
                        pending: pending - 1,
                    };
                } else {
                    self.end_turn(s, player as usize);
                }
            }
            Turn::Place(p) => {
                let (card, cell) = (action as usize / cells, action as usize % cells);
                self.place(s, p as usize, card as Card, cell);
            }
            Turn::End => {}
        }
    }

    /// The random playout without lists. Each round's cards come from the pile shuffled once
    /// with `rng` and dealt in that order (the start cells, the hands, then the draws), which
    /// is as likely as drawing each card uniformly from the pile, and deals game `i` of
    /// `random_playouts` exactly as the solitaire batches deal row `i`
    /// ([`solve::deal`]). A uniformly random (card, cell) pair is a uniformly random legal
    /// placement.
    fn random_playout(&self, s: &mut QuincunxState, rng: &mut Rng, returns: &mut [f64]) -> u32 {
        let mut plies = 0;
        // The shuffled pile, next card last, and the round it was shuffled for.
        let mut coming: Vec<Card> = Vec::with_capacity(CARD_COUNT);
        let mut shuffled_round = None;
        loop {
            match s.turn {
                Turn::End => break,
                Turn::Deal | Turn::Draw { .. } => {
                    if shuffled_round != Some(s.round) {
                        coming.clear();
                        coming.extend(cards::cards(s.pile));
                        coming.shuffle(rng);
                        coming.reverse();
                        shuffled_round = Some(s.round);
                    }
                    let card = coming.pop().expect("a chance node has a card to come");
                    self.apply(s, self.chance_base() + card as Action);
                }
                Turn::Place(p) => {
                    let hand = s.hands[p as usize];
                    let legal = self.legal_cells(s);
                    let free = legal.count_ones() as usize;
                    let k = rng.random_range(0..hand.count_ones() as usize * free);
                    let card = nth(hand, (k / free) as u32);
                    let cell = nth_cell(legal, k % free);
                    self.place(s, p as usize, card, cell);
                    plies += 1;
                }
            }
        }
        self.returns(s, returns);
        plies
    }

    fn returns(&self, s: &QuincunxState, out: &mut [f64]) {
        for (o, &score) in out.iter_mut().zip(&s.scores[..self.players]) {
            *o = score as f64;
        }
    }

    fn action_to_string(&self, s: &QuincunxState, action: Action) -> Result<String> {
        let cells = self.cells();
        let base = self.chance_base();
        let card = if action < base {
            action as usize / cells
        } else {
            action.wrapping_sub(base) as usize
        };
        if action as usize >= self.num_actions() || self.deck() & 1 << card == 0 {
            return Err(Error::IllegalMove(format!(
                "quincunx: action {action} names no card of this game's deck (0..{})",
                self.num_actions()
            )));
        }
        let card = code(card as Card);
        Ok(if action < base {
            format!("{card} {}", cell_name(action as usize % cells, self.side()))
        } else if s.turn == Turn::Deal {
            format!("deal {card}")
        } else {
            format!("draw {card}")
        })
    }

    fn notation(&self, s: &QuincunxState) -> String {
        let mut out = String::with_capacity(160);
        self.write_grid(s, &mut out);
        for (p, &hand) in s.hands[..self.players].iter().enumerate() {
            out.push(if p == 0 { ' ' } else { '|' });
            write_cards(hand, &mut out);
        }
        out.push(' ');
        write_cards(s.pile, &mut out);
        self.write_tail(s, &mut out);
        out
    }

    fn from_notation(&self, text: &str) -> Result<QuincunxState> {
        self.parse(text)
    }

    /// `<grid> <own hand> <hand sizes> <pile size> <scores> <turn> <round>`: the notation with
    /// the other hands and the pile reduced to their sizes.
    fn observation_string(&self, s: &QuincunxState, player: usize) -> String {
        let mut out = String::with_capacity(120);
        self.write_grid(s, &mut out);
        out.push(' ');
        write_cards(s.hands[player], &mut out);
        for (p, &hand) in s.hands[..self.players].iter().enumerate() {
            let _ = write!(
                out,
                "{}{}",
                if p == 0 { " " } else { "|" },
                hand.count_ones()
            );
        }
        let _ = write!(out, " {}", s.pile.count_ones());
        self.write_tail(s, &mut out);
        out
    }

    /// A card dealt or drawn into another player's hand shows as `?`.
    fn action_to_string_for(
        &self,
        s: &QuincunxState,
        action: Action,
        player: usize,
    ) -> Result<String> {
        let text = self.action_to_string(s, action)?;
        let receiver = match s.turn {
            Turn::Deal => match self.deal_slot(s) {
                Some(Slot::Hand(p)) => Some(p),
                _ => None,
            },
            Turn::Draw { player: p, .. } => Some(p as usize),
            _ => None,
        };
        Ok(match receiver {
            Some(p) if p != player && action >= self.chance_base() => {
                format!("{} ?", text.split(' ').next().unwrap_or_default())
            }
            _ => text,
        })
    }

    /// The cards `player` has not seen (the pile and the other hands) dealt anew at random,
    /// each hand keeping its size: uniform over the states `player` cannot tell apart.
    fn resample(&self, s: &QuincunxState, player: usize, rng: &mut Rng) -> QuincunxState {
        let mut out = s.clone();
        let others = (0..self.players).filter(|&p| p != player);
        let mut unseen: Vec<Card> =
            cards::cards(others.clone().fold(s.pile, |set, p| set | s.hands[p])).collect();
        unseen.shuffle(rng);
        let mut next = unseen.into_iter();
        for p in others {
            let size = s.hands[p].count_ones() as usize;
            out.hands[p] = next.by_ref().take(size).fold(0, |set, c| set | 1 << c);
        }
        out.pile = next.fold(0, |set, c| set | 1 << c);
        out
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![CARD_COUNT + 1, self.cells() + 2]
    }

    /// The rows and columns are listed in docs/rules/quincunx.md, *Observation*.
    fn observation_tensor(&self, s: &QuincunxState, player: usize, out: &mut [f32]) {
        let width = self.cells() + 2;
        out.fill(0.0);
        for (cell, &c) in s.grid[..self.cells()].iter().enumerate() {
            if c != NO_CARD {
                out[c as usize * width + cell] = 1.0;
            }
        }
        let unseen = self.deck()
            & !s.hands[player]
            & !s.grid
                .iter()
                .filter(|&&c| c != NO_CARD)
                .fold(0u64, |set, &c| set | 1 << c);
        for c in cards::cards(s.hands[player]) {
            out[c as usize * width + width - 2] = 1.0;
        }
        for c in cards::cards(unseen) {
            out[c as usize * width + width - 1] = 1.0;
        }
        let n = self.players;
        let table = &mut out[CARD_COUNT * width..];
        for p in 0..n {
            table[p] = s.hands[p].count_ones() as f32;
            table[n + p] = s.scores[p] as f32;
        }
        let (mover, pending) = match s.turn {
            Turn::Place(p) => (Some(p), 0),
            Turn::Draw { player, pending } => (Some(player), pending),
            _ => (None, 0),
        };
        if let Some(p) = mover {
            table[2 * n + p as usize] = 1.0;
        }
        table[3 * n + player] = 1.0;
        table[4 * n] = s.pile.count_ones() as f32;
        table[4 * n + 1] = pending as f32;
        table[4 * n + 2] = (s.turn == Turn::Deal) as u8 as f32;
        table[4 * n + 3] = s.round as f32;
        table[4 * n + 4] = (s.turn == Turn::End) as u8 as f32;
    }
}

impl Quincunx {
    /// Reads the notation `<grid> <hands> <pile> <scores> <turn> <round>` (the canonical text
    /// `notation` writes) and checks that it is a position of this game.
    fn parse(&self, text: &str) -> Result<QuincunxState> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [
            grid_field,
            hands_field,
            pile_field,
            scores_field,
            turn_field,
            round_field,
        ] = fields[..]
        else {
            return Err(bad(
                text,
                "expected six fields separated by single spaces: <grid> <hands> <pile> <scores> \
                 <turn> <round>",
            ));
        };
        let (side, n) = (self.side(), self.players);
        let mut s = self.fresh_round([0; MAX_PLAYERS], 0);
        let mut seen = 0u64;
        // Every card once, and only cards of this game's deck.
        let mut take = |c: Card, seen_in: &str| -> Result<()> {
            if self.deck() & 1 << c == 0 {
                return Err(bad(
                    text,
                    format!(
                        "{} is not in this game's deck (option excuse=False)",
                        code(c)
                    ),
                ));
            }
            if seen & 1 << c != 0 {
                return Err(bad(text, format!("{} appears twice ({seen_in})", code(c))));
            }
            seen |= 1 << c;
            Ok(())
        };

        let rows: Vec<&str> = grid_field.split('/').collect();
        if rows.len() != side {
            return Err(bad(
                text,
                format!("the grid has {} rows, not {side}", rows.len()),
            ));
        }
        for (r, row) in rows.iter().enumerate() {
            let entries: Vec<&str> = row.split(',').collect();
            if entries.len() != side {
                return Err(bad(
                    text,
                    format!("grid row {} has {} cells, not {side}", r + 1, entries.len()),
                ));
            }
            for (col, entry) in entries.iter().enumerate() {
                let cell = r * side + col;
                if *entry == "." {
                    continue;
                }
                let c = from_code(entry).ok_or_else(|| {
                    bad(
                        text,
                        format!(
                            "{} on {} is not a card code or '.'",
                            quoted(entry),
                            cell_name(cell, side)
                        ),
                    )
                })?;
                take(c, "on the grid")?;
                s.grid[cell] = c;
            }
        }
        if self.book() {
            self.check_book_grid(text, &s)?;
        }

        let read_cards = |field: &str, what: &str| -> Result<u64> {
            if field == "-" {
                return Ok(0);
            }
            let mut set = 0u64;
            let mut last = None;
            for entry in field.split(',') {
                let c = from_code(entry).ok_or_else(|| {
                    bad(
                        text,
                        format!("{} in {what} is not a card code", quoted(entry)),
                    )
                })?;
                if last.is_some_and(|l| l >= c) {
                    return Err(bad(
                        text,
                        format!("{what} must list distinct cards in card-index order"),
                    ));
                }
                last = Some(c);
                set |= 1 << c;
            }
            Ok(set)
        };
        let hands: Vec<&str> = hands_field.split('|').collect();
        if hands.len() != n {
            return Err(bad(
                text,
                format!(
                    "expected {n} hand(s) separated by '|', found {}",
                    hands.len()
                ),
            ));
        }
        for (p, field) in hands.iter().enumerate() {
            let what = format!("player {p}'s hand");
            s.hands[p] = read_cards(field, &what)?;
            for c in cards::cards(s.hands[p]) {
                take(c, &what)?;
            }
        }
        s.pile = read_cards(pile_field, "the pile")?;
        for c in cards::cards(s.pile) {
            take(c, "the pile")?;
        }
        let missing = self.deck() & !seen;
        if missing != 0 {
            let mut list = String::new();
            write_cards(missing, &mut list);
            return Err(bad(
                text,
                format!("cards missing (neither on the grid, in a hand nor in the pile): {list}"),
            ));
        }

        let scores: Vec<&str> = scores_field.split(',').collect();
        if scores.len() != n {
            return Err(bad(
                text,
                format!(
                    "expected {n} score(s) separated by ',', found {}",
                    scores.len()
                ),
            ));
        }
        for (p, field) in scores.iter().enumerate() {
            s.scores[p] = canonical_int(field)
                .filter(|v| v.abs() <= MAX_SCORE)
                .ok_or_else(|| {
                    bad(
                        text,
                        format!(
                            "score {} is not an integer from -{MAX_SCORE} to {MAX_SCORE}",
                            quoted(field)
                        ),
                    )
                })?;
        }

        let (round, rounds) = round_field
            .split_once('/')
            .and_then(|(r, t)| Some((canonical_int(r)?, canonical_int(t)?)))
            .ok_or_else(|| {
                bad(
                    text,
                    format!(
                        "the round must be <round>/<rounds>, not {}",
                        quoted(round_field)
                    ),
                )
            })?;
        if rounds != self.rounds() as i32 {
            return Err(bad(
                text,
                format!("this game has {} round(s), not {rounds}", self.rounds()),
            ));
        }
        if !(1..=rounds).contains(&round) {
            return Err(bad(text, format!("round {round} is not in 1..={rounds}")));
        }
        s.round = (round - 1) as u8;

        s.turn = self.parse_turn(text, turn_field)?;
        self.check_turn(text, &s)?;
        Ok(s)
    }

    /// The book setup's grid grows from the start card on the centre, each card edge to edge
    /// with one placed before: the placed cards (if any) hold the centre, are connected edge to
    /// edge and lie within a 5×5 box.
    fn check_book_grid(&self, text: &str, s: &QuincunxState) -> Result<()> {
        let placed: u128 = (0..self.cells())
            .filter(|&x| s.grid[x] != NO_CARD)
            .fold(0, |set, x| set | 1 << x);
        if placed == 0 {
            return Ok(());
        }
        let centre = BOOK_START[0];
        if placed & 1 << centre == 0 {
            return Err(bad(
                text,
                format!(
                    "the book grid grows from its start card on the centre {}, which is empty",
                    cell_name(centre, BOOK_SIDE)
                ),
            ));
        }
        let side = BOOK_SIDE;
        let extent = |of: fn(usize) -> usize| {
            let (lo, hi) = cell_bits(placed)
                .map(of)
                .fold((usize::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
            hi - lo + 1
        };
        let height = extent(|x| x / BOOK_SIDE);
        let width = extent(|x| x % BOOK_SIDE);
        if height > BOOK_BOX || width > BOOK_BOX {
            return Err(bad(
                text,
                format!(
                    "the placed cards span {height} rows and {width} columns; the book grid \
                     stays within 5x5"
                ),
            ));
        }
        let mut reached: u128 = 1 << centre;
        let mut frontier = vec![centre];
        while let Some(x) = frontier.pop() {
            let (r, c) = (x / side, x % side);
            let next = [
                (r > 0).then(|| x - side),
                (r + 1 < side).then(|| x + side),
                (c > 0).then(|| x - 1),
                (c + 1 < side).then(|| x + 1),
            ];
            for y in next.into_iter().flatten() {
                if placed & 1 << y != 0 && reached & 1 << y == 0 {
                    reached |= 1 << y;
                    frontier.push(y);
                }
            }
        }
        if reached != placed {
            return Err(bad(
                text,
                format!(
                    "{} is not connected edge to edge with the start card (book setup)",
                    cell_name(cell_bits(placed & !reached).next().unwrap(), side)
                ),
            ));
        }
        Ok(())
    }

    fn parse_turn(&self, text: &str, field: &str) -> Result<Turn> {
        let player = |p: &str| {
            canonical_int(p)
                .filter(|&p| (0..self.players as i32).contains(&p))
                .map(|p| p as u8)
        };
        let turn = match field {
            "deal" => Some(Turn::Deal),
            "end" => Some(Turn::End),
            _ => match field.split_once('+') {
                None => player(field).map(Turn::Place),
                Some((p, k)) => player(p).zip(canonical_int(k)).and_then(|(player, k)| {
                    (1..=4).contains(&k).then_some(Turn::Draw {
                        player,
                        pending: k as u8,
                    })
                }),
            },
        };
        turn.ok_or_else(|| {
            bad(
                text,
                format!(
                    "the turn must be 'deal', 'end', a player 0..{} or <player>+<draws> with 1 \
                     to 4 draws, not {}",
                    self.players,
                    quoted(field)
                ),
            )
        })
    }

    /// Checks that the cards fit the turn: a deal in progress, a player to place or draw, or
    /// a finished game.
    fn check_turn(&self, text: &str, s: &QuincunxState) -> Result<()> {
        let starts = self.start_cells();
        let starts_dealt = starts.iter().filter(|&&c| s.grid[c] != NO_CARD).count();
        let fail = |what: &str| Err(bad(text, what));
        match s.turn {
            Turn::Deal => {
                let on_grid = (0..self.cells()).filter(|&c| s.grid[c] != NO_CARD).count();
                if on_grid != starts_dealt {
                    return fail("during the deal only start cells hold cards");
                }
                if starts[..starts_dealt].iter().any(|&c| s.grid[c] == NO_CARD) {
                    return fail("the start cells are dealt in increasing cell order");
                }
                // The hands in dealing order: full ones, then at most one partial one.
                let first = self.first_player(s.round);
                let mut open = starts_dealt < starts.len();
                for k in 0..self.players {
                    let size = s.hands[(first + k) % self.players].count_ones();
                    if size > self.hand_size() {
                        return fail("a hand holds more cards than the deal gives");
                    }
                    if open && size > 0 {
                        return fail(
                            "the hands are dealt one after the other, each in full, after the \
                             start cells",
                        );
                    }
                    open |= size < self.hand_size();
                }
                if self.deal_slot(s).is_none() {
                    return fail("the deal is complete: the turn must name the player to move");
                }
            }
            Turn::End => {
                if s.round + 1 != self.rounds() {
                    return fail("the game ends only in its last round");
                }
                let solitaire_lost = self.solitaire() && s.hands[0] == 0;
                if !(self.grid_full(s) || solitaire_lost) {
                    return fail(
                        "a finished game has a full grid (or, in solitaire, an empty hand)",
                    );
                }
            }
            Turn::Place(_) | Turn::Draw { .. } if starts_dealt < starts.len() => {
                return fail("after the deal every start cell holds a card");
            }
            Turn::Place(p) => {
                if self.grid_full(s) {
                    return fail("the grid is full: the round is over");
                }
                if s.hands[p as usize] == 0 {
                    return fail("the player to place has no card");
                }
            }
            Turn::Draw { pending, .. } => {
                if pending as u32 > s.pile.count_ones() {
                    return fail("more draws pending than cards in the pile");
                }
            }
        }
        // With 2-4 players the deal gives at least as many cards as there are cells to fill,
        // and placing or drawing never lowers the cards in hand and on the grid together.
        let in_hand: u32 = s.hands.iter().map(|h| h.count_ones()).sum();
        let playing = matches!(s.turn, Turn::Place(_) | Turn::Draw { .. });
        if playing && !self.solitaire() && in_hand < self.grid_size() - self.placed(s) {
            return fail("the hands hold fewer cards than there are empty cells left to fill");
        }
        Ok(())
    }
}

/// An integer written the way `notation` writes it (no sign but `-`, no leading zeros).
fn canonical_int(text: &str) -> Option<i32> {
    let v: i32 = text.parse().ok()?;
    (v.to_string() == text).then_some(v)
}
