//! Quincunx (Chris DeLeo): the Decktet card game of placing cards on a grid, for 1 to 4
//! players. The deck is in [`cards`], what one placement scores in [`scoring`], the deal,
//! placements, draws and round ends in [`rules`], the notation in [`notation`], the solitaire
//! solvers in [`solve`].
//!
//! Options: `players` = 2 (default), 3, 4 or 1 (solitaire); `excuse` = false (default) or
//! true; `match` = false (default) or true; `setup` = `"wiki"` (default) or `"book"`.
//!
//! Rules, notation and action names: docs/rules/quincunx.md.

pub mod cards;
mod notation;
mod rules;
pub mod scoring;
pub mod solve;
#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::game::{Action, Game, GameInfo, Information, Rng, ToMove, Utility};
use crate::options::{OptionReader, OptionValue, Options};
use cards::{CARD_COUNT, Card, NO_CARD, code, deck, nth};
pub use notation::cell_name;
use notation::write_cards;
use rand::Rng as _;
use rand::seq::SliceRandom as _;
use rules::{Slot, cell_bits, nth_cell};
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

/// Start cells (dealt face up, in this order): the corners, and the centre with 2 or 4 players.
const SOLITAIRE_START: &[usize] = &[0, 3, 12, 15];
const CORNERS: &[usize] = &[0, 4, 20, 24];
const CORNERS_AND_CENTRE: &[usize] = &[0, 4, 12, 20, 24];
/// The book setup's one start card, on the centre (4, 4) of the 9×9 board.
const BOOK_START: &[usize] = &[4 * BOOK_SIDE + 4];

/// No completed solitaire game scores less. The 4×4 grid has 24 edges, each scored once, when
/// its second card lands: at worst −9, or 0 for a sum of 11 or 20, which draws a card. A
/// completed grid took 12 placements from a hand of 8, so d such edges leave at most d − 4
/// cards in hand; each draw saves 9 points and its card costs at most 15 (six Aces), then 10
/// (six Crowns), then 9: at worst −9 × (24 − d) less six Aces and six Crowns, with d = 16.
pub const SOLITAIRE_LOWEST_SCORE: i32 = -9 * (24 - 16) - (6 * 15 + 6 * 10);
/// No solitaire game scores more, completed or in progress: an edge scores at most 13 (a pair
/// of 9s, 8 + 5); each row and column gives at most one bonus of 30 per placement that makes a
/// run of three or more in it, so two in the middle rows and columns and one in the outer ones
/// (their corners are dealt): 12; a power play, at most 44, comes at most once for each suit.
pub const SOLITAIRE_HIGHEST_SCORE: i32 = 24 * 13 + 12 * 30 + 6 * 44;
/// The return of a lost solitaire game ("If you run out of cards before completing the spread,
/// you lose."): below every completed game's score, and below the turn points of any game in
/// progress (at least 24 × −9), so that a loss never looks better than going on. Its turn
/// points stay in `scores`.
pub const SOLITAIRE_LOST_RETURN: i32 = SOLITAIRE_LOWEST_SCORE - 1;

/// How the round is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setup {
    /// The rules as on the wiki: start cards on the corners (and the centre), full hands.
    Wiki,
    /// The newer official version (2-3 players): one start card, hands of 12 / 8, the grid
    /// grows edge to edge up to 5×5.
    Book,
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

    /// Bounds from the scoring rules. Solitaire: a lost game's return below the lowest
    /// completed score, up to the highest score ([`SOLITAIRE_LOST_RETURN`],
    /// [`SOLITAIRE_HIGHEST_SCORE`]). With 2-4 players: a placement scores at most 4 × 9
    /// (basic) + 4 × 5 (pairs) + 4 × 30 (a bonus per line direction) + 44 (a power play) = 220
    /// and at least 4 × −9; a hand left at the end costs at most the whole deck's penalty, 282.
    fn info(&self) -> GameInfo {
        let placements = self.grid_size() - self.start_cells().len() as u32;
        let rounds = self.rounds() as u32;
        let (min_return, max_return) = if self.solitaire() {
            (SOLITAIRE_LOST_RETURN as f64, SOLITAIRE_HIGHEST_SCORE as f64)
        } else {
            (
                -((rounds * (36 * placements + 282)) as f64),
                (rounds * 220 * placements) as f64,
            )
        };
        GameInfo {
            information: Information::Imperfect,
            utility: Utility::GeneralSum,
            chance: true,
            min_return,
            max_return,
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

    /// The scores, except that a lost solitaire game returns [`SOLITAIRE_LOST_RETURN`].
    fn returns(&self, s: &QuincunxState, out: &mut [f64]) {
        for (o, &score) in out.iter_mut().zip(&s.scores[..self.players]) {
            *o = score as f64;
        }
        if self.lost(s) {
            out[0] = SOLITAIRE_LOST_RETURN as f64;
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
