//! A Quantum Leap (Mal Jones): build a 3×3 display of cards, then place cards on it following a
//! numerical pattern, scoring pairs, runs and triples. The cards, rules and scoring are in
//! [`rules`], the notation in [`notation`].
//!
//! Options: `players` = 2 (default), 3 or 4; `match` = false (default) or true; `packs` = 1
//! (default) or 2 (three or four players: each takes up a second stock, the same suit of the
//! second pack, as two players do); `teams` = `none` (default) or `partners` (four players:
//! seats 0 and 1 against seats 2 and 3).
//!
//! Rules, notation and action names: docs/rules/a_quantum_leap.md.

mod notation;
pub mod rules;
pub mod solve;
#[cfg(test)]
mod tests;

use crate::error::{Error, Result, quoted};
use crate::game::{Action, Game, GameInfo, Information, Rng, ToMove, Utility};
use crate::options::{OptionReader, OptionValue, Options};
use rand::Rng as _;
use rules::{
    CARD_COUNT, CELL_NAMES, CELLS, CENTRE, Card, NO_CARD, Pattern, RULES, SUIT_LETTERS, cards,
    code, legal_rules, nth, rank, rules_of, score, suit_cards,
};
use std::fmt::Write as _;

pub const MAX_PLAYERS: usize = 4;

// Action ids (docs/rules/a_quantum_leap.md, *Actions*).
/// A stage-two placement is `(card × 9 + cell) × 5 + rule`, below this.
const CELL_BASE: Action = (CARD_COUNT * CELLS * 5) as Action; // 2340 + outer cell
const HIGGS_BASE: Action = CELL_BASE + CELLS as Action; // 2349 + card
const END: Action = HIGGS_BASE + CARD_COUNT as Action; // 2401
const PASS: Action = END + 1; // 2402
const DRAW_BASE: Action = PASS + 1; // 2403 + card (chance)
const LEAVE_BASE: Action = DRAW_BASE + CARD_COUNT as Action; // 2455 + suit (chance)
const NUM_ACTIONS: usize = LEAVE_BASE as usize + 4; // 2459

/// The eight outer cells as bits (every cell but b2).
const OUTER: u16 = 0x1FF & !(1 << CENTRE);

/// The game's parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AQuantumLeap {
    /// 2 to 4.
    pub players: usize,
    /// One game per dealer, the points added up.
    pub match_play: bool,
    /// 1, or 2 with three or four players.
    pub packs: usize,
    /// Four players in two partnerships of adjacent seats: 0 and 1 against 2 and 3.
    pub teams: bool,
}

/// What happens next (the `<turn>` field of the notation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Three players: the suit left out is drawn (chance).
    Leave,
    /// `player` draws the top card of their stock (chance).
    Draw,
    /// `player` chooses the empty outer cell for the `drawn` card.
    Place,
    /// The dealer places the Higgs from hand.
    Higgs,
    /// Stage two: `player` places, ends the turn or passes, having placed `placed` cards.
    Play,
    End,
}

const PHASE_NAMES: [&str; 6] = ["leave", "draw", "place", "higgs", "play", "end"];

/// A position. Every card in play is in exactly one of the display, a hand, a first stock, a
/// second stock (two players) and `drawn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AQuantumLeapState {
    /// The top card of each cell, `NO_CARD` when empty.
    tops: [Card; CELLS],
    /// The number of cards on each cell.
    heights: [u8; CELLS],
    /// `under[card]`: the card below `card` on its stack; `NO_CARD` at the bottom and for the
    /// cards not on the display. On the display a card of the second pack is `card + 52`
    /// ([`AQuantumLeapState::put_copy`]): `tops` and `under` hold these ids, whose rank and code
    /// are their card's.
    under: [Card; 2 * CARD_COUNT],
    /// Card sets per player.
    hands: [u64; MAX_PLAYERS],
    stocks: [u64; MAX_PLAYERS],
    /// Two players, or two packs: the untaken second stocks.
    seconds: [u64; MAX_PLAYERS],
    /// Bit `p`: player p's hand lies face up after a pass.
    shown: u8,
    /// `None` in stage one.
    pattern: Option<Pattern>,
    phase: Phase,
    /// The player to draw, place or play (0 at `leave` and `end`).
    player: u8,
    /// The card drawn and waiting for its cell (`Place` only), else `NO_CARD`.
    drawn: Card,
    /// Cards `player` has placed in this turn (`Play` only).
    placed: u8,
    /// Passes in succession since the last placement.
    passes: u8,
    /// Totals over the match so far.
    scores: [i32; MAX_PLAYERS],
    /// 0-based; the dealer is `game_number % players`.
    game_number: u8,
    /// Three players: the suit left out, once drawn.
    left_out: Option<u8>,
}

impl AQuantumLeapState {
    /// The top card of each cell, `NO_CARD` where empty.
    pub fn tops(&self) -> [Card; CELLS] {
        self.tops
    }
    pub fn heights(&self) -> [u8; CELLS] {
        self.heights
    }
    /// `None` before stage two.
    pub fn pattern(&self) -> Option<Pattern> {
        self.pattern
    }
    pub fn hand(&self, player: usize) -> u64 {
        self.hands[player]
    }
    /// `player`'s (first) stock: a set, its order is chance.
    pub fn stock(&self, player: usize) -> u64 {
        self.stocks[player]
    }
    /// Two players: `player`'s second stock while it is not taken up, else empty.
    pub fn second_stock(&self, player: usize) -> u64 {
        self.seconds[player]
    }
    /// Whether `player`'s hand lies face up (after a pass, until they place again).
    pub fn hand_shown(&self, player: usize) -> bool {
        self.is_shown(player)
    }
    /// The card drawn in stage one and waiting for its cell, if any.
    pub fn drawn(&self) -> Option<Card> {
        (self.drawn != NO_CARD).then_some(self.drawn)
    }
    /// The phase's name (`leave`, `draw`, `place`, `higgs`, `play` or `end`), the player to
    /// draw, place or play, and the cards they placed this turn (`play` only).
    pub fn turn(&self) -> (&'static str, usize, u8) {
        (
            PHASE_NAMES[self.phase as usize],
            self.player as usize,
            self.placed,
        )
    }
    /// The game of the match being played, from 0.
    pub fn game_number(&self) -> u8 {
        self.game_number
    }
    /// The points of every seat (only the first `players` are in play).
    pub fn scores(&self) -> [i32; MAX_PLAYERS] {
        self.scores
    }
    /// The cards of `cell`, bottom to top.
    pub fn stack(&self, cell: usize) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.heights[cell] as usize);
        let mut card = self.tops[cell];
        while card != NO_CARD {
            out.push(card);
            card = self.under[card as usize];
        }
        out.reverse();
        out
    }
    fn holds_cards(&self, player: usize) -> bool {
        self.hands[player] | self.seconds[player] != 0
    }
    /// Whether a player other than `player` has cards in hand, so that the fifth card of a turn
    /// is penalised: the penalty lapses "when only one player remains with cards in hand", and
    /// an untaken second stock is not in hand.
    fn others_have_cards_in_hand(&self, players: usize, player: usize) -> bool {
        (0..players).any(|q| q != player && self.hands[q] != 0)
    }
    fn is_shown(&self, player: usize) -> bool {
        self.shown & 1 << player != 0
    }
    fn put(&mut self, card: Card, cell: usize) {
        self.under[card as usize] = self.tops[cell];
        self.tops[cell] = card;
        self.heights[cell] += 1;
    }
    /// The cell whose stack holds the display id `id`, if any.
    fn cell_of(&self, id: Card) -> Option<usize> {
        (0..CELLS).find(|&cell| {
            let mut c = self.tops[cell];
            while c != NO_CARD && c != id {
                c = self.under[c as usize];
            }
            c == id
        })
    }
    /// Two packs: puts `card` on `cell`, the two copies of a card told apart by where they
    /// lie, so that a position has one form however it came about: the copy that comes first
    /// reading the display cell by cell (a1 to c3), each stack bottom to top, is `card`, the
    /// other `card + 52`.
    fn put_copy(&mut self, card: Card, cell: usize) {
        let other = card + CARD_COUNT as Card;
        match self.cell_of(card) {
            None => self.put(card, cell),
            Some(there) if there <= cell => self.put(other, cell),
            Some(there) => {
                // The copy already down comes later in reading order: it becomes `other`.
                let mut above = NO_CARD;
                let mut c = self.tops[there];
                while c != card {
                    above = c;
                    c = self.under[c as usize];
                }
                if above == NO_CARD {
                    self.tops[there] = other;
                } else {
                    self.under[above as usize] = other;
                }
                self.under[other as usize] = self.under[card as usize];
                self.under[card as usize] = NO_CARD;
                self.put(card, cell);
            }
        }
    }
    fn empty(game_number: u8, scores: [i32; MAX_PLAYERS], phase: Phase, player: u8) -> Self {
        AQuantumLeapState {
            tops: [NO_CARD; CELLS],
            heights: [0; CELLS],
            under: [NO_CARD; 2 * CARD_COUNT],
            hands: [0; MAX_PLAYERS],
            stocks: [0; MAX_PLAYERS],
            seconds: [0; MAX_PLAYERS],
            shown: 0,
            pattern: None,
            phase,
            player,
            drawn: NO_CARD,
            placed: 0,
            passes: 0,
            scores,
            game_number,
            left_out: None,
        }
    }
}

impl AQuantumLeap {
    /// `players` games in a match, else 1.
    pub fn games(&self) -> u8 {
        if self.match_play {
            self.players as u8
        } else {
            1
        }
    }

    /// Game `g` (from 0) is dealt by player g.
    pub fn dealer(&self, game_number: u8) -> usize {
        game_number as usize % self.players
    }

    /// The suit of `player`'s first stock: the suits in play, in the order S H D C, go to the
    /// dealer and on clockwise (two players: the first two are the first stocks).
    fn first_suit(&self, game_number: u8, left_out: Option<u8>, player: usize) -> u8 {
        let seat = (player + self.players - self.dealer(game_number)) % self.players;
        (0..4u8)
            .filter(|&s| Some(s) != left_out)
            .nth(seat)
            .unwrap_or(0)
    }

    /// Two players: the suit of `player`'s second stock (D for the dealer, C for the other).
    /// Two packs: the second stock is the same suit as the first, from the second pack.
    fn second_suit(&self, game_number: u8, left_out: Option<u8>, player: usize) -> Option<u8> {
        if self.packs == 2 {
            return Some(self.first_suit(game_number, left_out, player));
        }
        (self.players == 2).then(|| ((player + 2 - self.dealer(game_number)) % 2) as u8 + 2)
    }

    /// Whether each player has a second stock: two players, or two packs.
    pub fn second_stocks(&self) -> bool {
        self.players == 2 || self.packs == 2
    }

    /// The partnership of `player`: with `teams`, 0 for seats 0 and 1, 1 for seats 2 and 3;
    /// otherwise every player is their own side.
    pub fn team(&self, player: usize) -> usize {
        if self.teams { player / 2 } else { player }
    }

    /// `player`'s partner, in a partnership game.
    pub fn partner(&self, player: usize) -> Option<usize> {
        self.teams.then_some(player ^ 1)
    }

    /// A new game: with three players the suit left out is drawn first; otherwise the stocks
    /// are dealt and the dealer draws.
    fn start_of_game(&self, game_number: u8, scores: [i32; MAX_PLAYERS]) -> AQuantumLeapState {
        if self.players == 3 {
            AQuantumLeapState::empty(game_number, scores, Phase::Leave, 0)
        } else {
            self.dealt(game_number, None, scores)
        }
    }

    fn dealt(
        &self,
        game_number: u8,
        left_out: Option<u8>,
        scores: [i32; MAX_PLAYERS],
    ) -> AQuantumLeapState {
        let dealer = self.dealer(game_number);
        let mut s = AQuantumLeapState::empty(game_number, scores, Phase::Draw, dealer as u8);
        s.left_out = left_out;
        for p in 0..self.players {
            s.stocks[p] = suit_cards(self.first_suit(game_number, left_out, p));
            if let Some(second) = self.second_suit(game_number, left_out, p) {
                s.seconds[p] = suit_cards(second);
            }
        }
        s
    }

    fn holders(&self, s: &AQuantumLeapState) -> usize {
        (0..self.players).filter(|&q| s.holds_cards(q)).count()
    }

    /// The turn goes to the first player from `start` on (clockwise) who holds cards; one whose
    /// hand is empty takes up the second stock first.
    fn next_turn(&self, s: &mut AQuantumLeapState, start: usize) {
        for k in 0..self.players {
            let q = (start + k) % self.players;
            if s.holds_cards(q) {
                if s.hands[q] == 0 {
                    s.hands[q] = s.seconds[q];
                    s.seconds[q] = 0;
                }
                s.phase = Phase::Play;
                s.player = q as u8;
                s.placed = 0;
                return;
            }
        }
        self.game_over(s);
    }

    /// The next game of a match, or the end.
    fn game_over(&self, s: &mut AQuantumLeapState) {
        if s.game_number + 1 < self.games() {
            *s = self.start_of_game(s.game_number + 1, s.scores);
        } else {
            s.phase = Phase::End;
            s.player = 0;
            s.placed = 0;
        }
    }

    /// Calls `f` with each legal stage-two placement of `s.player`, in ascending id order.
    fn for_each_placement(&self, s: &AQuantumLeapState, mut f: impl FnMut(Action)) {
        let Some(pattern) = s.pattern else { return };
        let below = s.tops.map(rank);
        for card in cards(s.hands[s.player as usize]) {
            let placed = rank(card);
            for (cell, &below) in below.iter().enumerate() {
                let base = (card as Action * CELLS as Action + cell as Action) * 5;
                for rule in rules_of(legal_rules(pattern, placed, below)) {
                    f(base + rule.index() as Action);
                }
            }
        }
    }

    /// The action's text; another player's draw shows as `draw ?` to `viewer`.
    fn write_action(&self, s: &AQuantumLeapState, action: Action, viewer: Option<usize>) -> String {
        match action {
            a if a >= LEAVE_BASE => format!(
                "leave out {}",
                SUIT_LETTERS[(a - LEAVE_BASE) as usize] as char
            ),
            a if a >= DRAW_BASE => match viewer {
                Some(v) if v != s.player as usize => "draw ?".to_string(),
                _ => format!("draw {}", code((a - DRAW_BASE) as Card)),
            },
            PASS => "pass".to_string(),
            END => "end".to_string(),
            a if a >= HIGGS_BASE => format!("higgs {}", code((a - HIGGS_BASE) as Card)),
            a if a >= CELL_BASE => CELL_NAMES[(a - CELL_BASE) as usize].to_string(),
            a => {
                let (card, cell) = ((a / 5) as usize / CELLS, (a / 5) as usize % CELLS);
                let mut text = format!("{} {}", code(card as Card), CELL_NAMES[cell]);
                let two_rules = s.pattern.is_some_and(|p| {
                    legal_rules(p, rank(card as Card), rank(s.tops[cell])).count_ones() > 1
                });
                if two_rules {
                    let _ = write!(text, " {}", RULES[(a % 5) as usize].name());
                }
                text
            }
        }
    }

    fn checked_action_string(
        &self,
        s: &AQuantumLeapState,
        action: Action,
        viewer: Option<usize>,
    ) -> Result<String> {
        if !self.is_legal(s, action) {
            return Err(Error::IllegalMove(format!(
                "a_quantum_leap: action {action} is not legal in {}",
                self.notation(s)
            )));
        }
        Ok(self.write_action(s, action, viewer))
    }

    /// A placement: the card goes on the cell, scores for the player, sets the pattern; the
    /// fifth card of a turn gives every opponent 4 points unless no other player has cards in
    /// hand; the game ends when nobody holds cards.
    fn place(&self, s: &mut AQuantumLeapState, action: Action) {
        let p = s.player as usize;
        let (card, cell) = ((action / 5) as usize / CELLS, (action / 5) as usize % CELLS);
        let result = score(
            &s.tops,
            card as Card,
            cell,
            Some(RULES[(action % 5) as usize]),
        );
        if self.packs == 2 {
            s.put_copy(card as Card, cell);
        } else {
            s.put(card as Card, cell);
        }
        s.hands[p] &= !(1 << card);
        s.shown &= !(1 << p);
        s.scores[p] += result.points;
        s.pattern = Some(result.pattern);
        s.placed = s.placed.saturating_add(1);
        s.passes = 0;
        if s.placed == 5 && s.others_have_cards_in_hand(self.players, p) {
            // "four points are awarded to each opponent": a partner is none.
            for q in (0..self.players).filter(|&q| self.team(q) != self.team(p)) {
                s.scores[q] += 4;
            }
        }
        if self.holders(s) == 0 {
            self.game_over(s);
        }
    }

    /// `<hands as player `viewer` sees them> <stock sizes> <pattern> <turn> <passes> <scores>
    /// <game>`: the fields the observation and the information state share.
    fn write_view_tail(&self, s: &AQuantumLeapState, viewer: usize, out: &mut String) {
        for q in 0..self.players {
            out.push(if q == 0 { ' ' } else { '|' });
            if q == viewer || s.is_shown(q) {
                notation::write_hand(s, q, out);
            } else {
                let _ = write!(out, "#{}", s.hands[q].count_ones());
            }
        }
        for q in 0..self.players {
            out.push(if q == 0 { ' ' } else { '|' });
            let _ = write!(out, "{}", s.stocks[q].count_ones());
            if self.second_stocks() {
                let _ = write!(out, "/{}", s.seconds[q].count_ones());
            }
        }
        self.write_tail(s, Some(viewer), out);
    }
}

impl Game for AQuantumLeap {
    type State = AQuantumLeapState;
    const NAME: &'static str = "a_quantum_leap";

    fn from_options(options: &Options) -> Result<Self> {
        let mut r = OptionReader::new(Self::NAME, options);
        let players = r.int("players", 2, 4, 2)? as usize;
        let match_play = r.bool("match", false)?;
        let packs = r.int("packs", 1, 2, 1)? as usize;
        let teams = r.choice("teams", &["none", "partners"])? == "partners";
        r.finish()?;
        if packs == 2 && players == 2 {
            return Err(Error::InvalidOption(format!(
                "{}: option packs=2 needs 3 or 4 players (\"two packs ... when three or four \
                 people play\"), not players=2",
                Self::NAME
            )));
        }
        if teams && players != 4 {
            return Err(Error::InvalidOption(format!(
                "{}: option teams='partners' needs players=4 (two partnerships of two), not \
                 players={players}",
                Self::NAME
            )));
        }
        Ok(AQuantumLeap {
            players,
            match_play,
            packs,
            teams,
        })
    }

    fn options(&self) -> Options {
        Options::from([
            ("players".to_string(), OptionValue::Int(self.players as i64)),
            ("match".to_string(), OptionValue::Bool(self.match_play)),
            ("packs".to_string(), OptionValue::Int(self.packs as i64)),
            (
                "teams".to_string(),
                OptionValue::Str(if self.teams { "partners" } else { "none" }.to_string()),
            ),
        ])
    }

    fn num_players(&self) -> usize {
        self.players
    }

    /// Bounds per game, times the games of a match.
    ///
    /// Length: with C cards in play (52, or 39 with three players), stage one is 9 decisions
    /// (8 outer cells, the Higgs) and stage two places P = C − 9 cards. Each placing turn has
    /// at most one `end`; passes in succession stay below the players holding cards (≤ n − 1)
    /// except in the run that ends the game (≤ n), and each placement starts a new run, so
    /// there are at most (n − 1)(P + 1) + 1 passes: 9 + (n + 1)P + n decisions in all.
    ///
    /// Returns: points never go down, so 0 is the least. A placement scores at most 2 for its
    /// rule, 6 for each of the at most 4 lines through its cell (a triple; a run is 3) and 2
    /// for each of the at most 3 other cards of its rank (pairs): 32. The Higgs scores at most
    /// 30; a penalty gives 4 for 5 cards of another player, less than 32 a card. So at most
    /// 30 + 32P a game.
    fn info(&self) -> GameInfo {
        let n = self.players as u32;
        // A team's total is bounded as one player's: its cards score for it, and the other
        // team's penalties give it 8 for 5 cards, less than 32 a card.
        let in_play = if n == 3 { 39 } else { 52 } * self.packs as u32;
        let stage_two = in_play - 9;
        let games = self.games() as u32;
        GameInfo {
            information: Information::Imperfect,
            utility: Utility::GeneralSum,
            chance: true,
            min_return: 0.0,
            max_return: (games * (30 + 32 * stage_two)) as f64,
            max_game_length: games * (9 + (n + 1) * stage_two + n),
        }
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn new_state(&self) -> AQuantumLeapState {
        self.start_of_game(0, [0; MAX_PLAYERS])
    }

    fn to_move(&self, s: &AQuantumLeapState) -> ToMove {
        match s.phase {
            Phase::Leave | Phase::Draw => ToMove::Chance,
            Phase::End => ToMove::Terminal,
            _ => ToMove::Player(s.player),
        }
    }

    fn legal_actions(&self, s: &AQuantumLeapState, out: &mut Vec<Action>) {
        out.clear();
        let p = s.player as usize;
        match s.phase {
            Phase::End => {}
            Phase::Leave => out.extend(LEAVE_BASE..LEAVE_BASE + 4),
            Phase::Draw => out.extend(cards(s.stocks[p]).map(|c| DRAW_BASE + c as Action)),
            Phase::Place => out.extend(
                (0..CELLS)
                    .filter(|&c| OUTER & 1 << c != 0 && s.heights[c] == 0)
                    .map(|c| CELL_BASE + c as Action),
            ),
            Phase::Higgs => out.extend(cards(s.hands[p]).map(|c| HIGGS_BASE + c as Action)),
            Phase::Play => {
                self.for_each_placement(s, |a| out.push(a));
                if s.placed > 0 {
                    out.push(END);
                } else if out.is_empty() {
                    out.push(PASS);
                }
            }
        }
    }

    fn chance_outcomes(&self, s: &AQuantumLeapState, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.to_move(s) == ToMove::Chance {
            let mut actions = Vec::new();
            self.legal_actions(s, &mut actions);
            let p = 1.0 / actions.len() as f64;
            out.extend(actions.into_iter().map(|a| (a, p)));
        }
    }

    fn sample_chance(&self, s: &AQuantumLeapState, rng: &mut Rng) -> Action {
        match s.phase {
            Phase::Leave => LEAVE_BASE + rng.random_range(0..4),
            _ => {
                let stock = s.stocks[s.player as usize];
                DRAW_BASE + nth(stock, rng.random_range(0..stock.count_ones().max(1))) as Action
            }
        }
    }

    fn apply(&self, s: &mut AQuantumLeapState, action: Action) {
        let p = s.player as usize;
        match s.phase {
            Phase::End => {}
            Phase::Leave => {
                let suit = (action.saturating_sub(LEAVE_BASE) % 4) as u8;
                *s = self.dealt(s.game_number, Some(suit), s.scores);
            }
            Phase::Draw => {
                let card = action.wrapping_sub(DRAW_BASE) as Card;
                s.stocks[p] &= !(1u64.checked_shl(card as u32).unwrap_or(0));
                s.phase = Phase::Place;
                s.drawn = card;
            }
            Phase::Place => {
                s.put(s.drawn, action.wrapping_sub(CELL_BASE) as usize % CELLS);
                s.drawn = NO_CARD;
                let filled = (0..CELLS).filter(|&c| OUTER & 1 << c != 0 && s.heights[c] > 0);
                let filled = filled.count();
                let dealer = self.dealer(s.game_number);
                if filled < 8 {
                    s.phase = Phase::Draw;
                    s.player = ((dealer + filled) % self.players) as u8;
                } else {
                    // The outer ring is full: every player takes the rest of their first
                    // stock into hand, and the dealer places the Higgs.
                    s.hands = s.stocks;
                    s.stocks = [0; MAX_PLAYERS];
                    s.phase = Phase::Higgs;
                    s.player = dealer as u8;
                }
            }
            Phase::Higgs => {
                let card = action.wrapping_sub(HIGGS_BASE) as Card % CARD_COUNT as Card;
                s.scores[p] += score(&s.tops, card, CENTRE, None).points;
                s.put(card, CENTRE);
                s.hands[p] &= !(1 << card);
                s.pattern = Some(Pattern::Opening);
                self.next_turn(s, (self.dealer(s.game_number) + 1) % self.players);
            }
            Phase::Play => match action {
                PASS => {
                    s.shown |= 1 << p;
                    s.passes += 1;
                    if s.passes as usize >= self.holders(s) {
                        self.game_over(s);
                    } else {
                        self.next_turn(s, (p + 1) % self.players);
                    }
                }
                END => self.next_turn(s, (p + 1) % self.players),
                a if a < CELL_BASE => self.place(s, a),
                _ => {}
            },
        }
    }

    /// Partners (seats 0 and 1, 2 and 3) are one side.
    fn side(&self, player: usize) -> usize {
        self.team(player)
    }

    fn returns(&self, s: &AQuantumLeapState, out: &mut [f64]) {
        for (p, o) in out.iter_mut().enumerate().take(self.players) {
            *o = match self.partner(p) {
                Some(q) => (s.scores[p] + s.scores[q]) as f64,
                None => s.scores[p] as f64,
            };
        }
    }

    fn action_to_string(&self, s: &AQuantumLeapState, action: Action) -> Result<String> {
        self.checked_action_string(s, action, None)
    }

    fn action_to_string_for(
        &self,
        s: &AQuantumLeapState,
        action: Action,
        player: usize,
    ) -> Result<String> {
        self.checked_action_string(s, action, Some(player))
    }

    /// The legal action written `text`; a placement may also name its rule where only one
    /// rule is legal (`5H a3 ascending` for `5H a3`).
    fn parse_action(&self, s: &AQuantumLeapState, text: &str) -> Result<Action> {
        let wanted = text.trim();
        let mut actions = Vec::new();
        self.legal_actions(s, &mut actions);
        for &a in &actions {
            let written = self.write_action(s, a, None);
            if written == wanted {
                return Ok(a);
            }
            if a < CELL_BASE
                && written.split(' ').count() == 2
                && wanted.strip_prefix(written.as_str())
                    == Some(&format!(" {}", RULES[(a % 5) as usize].name()))
            {
                return Ok(a);
            }
        }
        Err(Error::IllegalMove(format!(
            "{}: no legal action {} in {}",
            Self::NAME,
            quoted(wanted),
            self.notation(s)
        )))
    }

    fn notation(&self, s: &AQuantumLeapState) -> String {
        let mut out = String::with_capacity(260);
        notation::write_display(s, &mut out);
        for q in 0..self.players {
            out.push(if q == 0 { ' ' } else { '|' });
            notation::write_hand(s, q, &mut out);
        }
        for q in 0..self.players {
            out.push(if q == 0 { ' ' } else { '|' });
            notation::write_cards(s.stocks[q], &mut out);
            if self.second_stocks() {
                out.push('/');
                notation::write_cards(s.seconds[q], &mut out);
            }
        }
        self.write_tail(s, None, &mut out);
        out
    }

    fn from_notation(&self, text: &str) -> Result<AQuantumLeapState> {
        self.parse(text)
    }

    /// `<tops> <heights> <hands> <stock sizes> <pattern> <turn> <passes> <scores> <game>`: what
    /// lies face up now, the own and shown hands, the sizes of the rest.
    fn observation_string(&self, s: &AQuantumLeapState, player: usize) -> String {
        let mut out = String::with_capacity(160);
        for (cell, &top) in s.tops.iter().enumerate() {
            notation::cell_separator(cell, &mut out);
            out.push_str(if top == NO_CARD { "." } else { code(top) });
        }
        out.push(' ');
        for (cell, &height) in s.heights.iter().enumerate() {
            notation::cell_separator(cell, &mut out);
            let _ = write!(out, "{height}");
        }
        self.write_view_tail(s, player, &mut out);
        out
    }

    /// All that `player` knows: the observation with every stack in full (the covered cards
    /// were public when they were placed) instead of the tops and heights.
    fn information_state_string(&self, s: &AQuantumLeapState, player: usize) -> String {
        let mut out = String::with_capacity(240);
        notation::write_display(s, &mut out);
        self.write_view_tail(s, player, &mut out);
        out
    }

    /// Everything else follows from the display and the public deal of the suits, so the one
    /// thing redrawn is another player's drawn card in stage one: uniformly from that player's
    /// stock and the drawn card together.
    fn resample(&self, s: &AQuantumLeapState, player: usize, rng: &mut Rng) -> AQuantumLeapState {
        let mut out = *s;
        let q = s.player as usize;
        if s.phase == Phase::Place && q != player {
            let pool = s.stocks[q] | 1 << s.drawn;
            let card = nth(pool, rng.random_range(0..pool.count_ones()));
            out.stocks[q] = pool & !(1 << card);
            out.drawn = card;
        }
        out
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![59, 12]
    }

    /// The rows and columns are listed in docs/rules/a_quantum_leap.md, *Observation*.
    fn observation_tensor(&self, s: &AQuantumLeapState, player: usize, out: &mut [f32]) {
        const WIDTH: usize = 12;
        out.fill(0.0);
        for (cell, &top) in s.tops.iter().enumerate() {
            if top != NO_CARD {
                out[(top as usize % CARD_COUNT) * WIDTH + cell] = 1.0;
            }
        }
        for card in cards(s.hands[player]) {
            out[card as usize * WIDTH + 9] = 1.0;
        }
        for q in (0..self.players).filter(|&q| q != player && s.is_shown(q)) {
            for card in cards(s.hands[q]) {
                out[card as usize * WIDTH + 10] = 1.0;
            }
        }
        if s.phase == Phase::Place && s.player as usize == player {
            out[s.drawn as usize * WIDTH + 11] = 1.0;
        }
        let acting = !matches!(s.phase, Phase::Leave | Phase::End);
        for q in 0..self.players {
            let row = &mut out[(CARD_COUNT + q) * WIDTH..(CARD_COUNT + q + 1) * WIDTH];
            row[0] = s.hands[q].count_ones() as f32;
            row[1] = s.stocks[q].count_ones() as f32;
            row[2] = s.seconds[q].count_ones() as f32;
            row[3] = s.scores[q] as f32;
            row[4] = s.is_shown(q) as u8 as f32;
            row[5] = (q == player) as u8 as f32;
            row[6] = (acting && q == s.player as usize) as u8 as f32;
            row[7] = (self.partner(player) == Some(q)) as u8 as f32;
        }
        let heights = &mut out[56 * WIDTH..57 * WIDTH];
        for (h, &height) in heights.iter_mut().zip(&s.heights) {
            *h = height as f32;
        }
        let row = &mut out[57 * WIDTH..58 * WIDTH];
        if let Some(pattern) = s.pattern {
            row[pattern.index()] = 1.0;
        }
        row[6 + s.phase as usize] = 1.0;
        let row = &mut out[58 * WIDTH..59 * WIDTH];
        row[0] = s.placed as f32;
        row[1] = s.passes as f32;
        row[2] = s.game_number as f32;
        row[3] = self.games() as f32;
        row[4] = self.dealer(s.game_number) as f32;
        row[5] = s.left_out.map_or(0.0, |suit| suit as f32 + 1.0);
        row[6] = (self.packs == 2) as u8 as f32;
        row[7] = self.teams as u8 as f32;
    }
}

impl AQuantumLeap {
    /// ` <pattern> <turn> <passes> <scores> <game>`; the turn as `viewer` sees it (another
    /// player's drawn card is `?`).
    fn write_tail(&self, s: &AQuantumLeapState, viewer: Option<usize>, out: &mut String) {
        out.push(' ');
        out.push_str(s.pattern.map_or("-", Pattern::name));
        out.push(' ');
        out.push_str(PHASE_NAMES[s.phase as usize]);
        match s.phase {
            Phase::Leave | Phase::End => {}
            Phase::Draw | Phase::Higgs => {
                let _ = write!(out, ":{}", s.player);
            }
            Phase::Place => {
                let card = match viewer {
                    Some(v) if v != s.player as usize => "?",
                    _ => code(s.drawn),
                };
                let _ = write!(out, ":{}:{card}", s.player);
            }
            Phase::Play => {
                let _ = write!(out, ":{}:{}", s.player, s.placed);
            }
        }
        let _ = write!(out, " {} ", s.passes);
        for (q, score) in s.scores[..self.players].iter().enumerate() {
            if q > 0 {
                // Partners' points are written `a+b`, the teams `,` apart.
                let partners = self.partner(q) == Some(q - 1);
                out.push(if partners { '+' } else { ',' });
            }
            let _ = write!(out, "{score}");
        }
        let _ = write!(out, " {}/{}", s.game_number + 1, self.games());
    }
}
