//! Quantum Repair Unit: a cooperative memory card game with one 52-card pack, for 1 to 4
//! players. The rules and every ruling are in docs/rules/repair_unit.md; the notation is in
//! [`notation`], the solvers with the order of the deck known in [`solve`].
//!
//! Options: `players` = 1 (default; two forecasts played alternately) to 4; `memory` =
//! `"perfect"` (the only value: the team remembers every card it has seen).
//!
//! The team remembers every card it has seen, so nothing the state holds is hidden from it:
//! what it does not know is the order of the cards not seen yet, and the state does not hold
//! that order either. Each draw of an unseen card (and the deal, and a Jack's look at an unseen
//! top card) is a chance node over the unseen cards; the game is one of perfect information
//! with chance, like a dice game.

pub mod notation;
mod rules;
pub mod solve;
#[cfg(test)]
mod tests;

use crate::error::Result;
use crate::game::{Action, Game, GameInfo, Information, Rng, ToMove, Utility};
use crate::options::{OptionReader, OptionValue, Options};
use rand::Rng as _;

/// Cards are numbered `rank * 4 + suit`: ranks A 2 … K (0…12), suits S H D C (0…3).
pub type Card = u8;
pub const CARDS: usize = 52;
/// No card (an empty place).
pub const NONE: Card = 255;
pub const RANKS: &[u8; 13] = b"A23456789TJQK";
pub const SUITS: &[u8; 4] = b"SHDC";
pub const ACE: u8 = 0;
pub const JACK: u8 = 10;
pub const QUEEN: u8 = 11;
pub const KING: u8 = 12;
pub const MAX_FORECASTS: usize = 4;
pub const MAX_LEN: usize = 3;
/// Every card of the pack as a set (bit `card`).
pub const PACK: u64 = (1 << CARDS) - 1;

pub fn rank(c: Card) -> u8 {
    c / 4
}

/// The card's code: rank then suit, e.g. `QS`, `TH`.
pub fn code(c: Card) -> String {
    let mut s = String::with_capacity(2);
    s.push(RANKS[rank(c) as usize] as char);
    s.push(SUITS[(c % 4) as usize] as char);
    s
}

/// The card written `text` (exactly two characters, rank then suit, upper case).
pub fn from_code(text: &str) -> Option<Card> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let r = RANKS.iter().position(|&x| x == b[0])?;
    let s = SUITS.iter().position(|&x| x == b[1])?;
    Some((r * 4 + s) as Card)
}

/// The cards of a set, lowest first.
pub fn cards(mut set: u64) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as Card;
            set &= set - 1;
            c
        })
    })
}

// ---- actions ----
// 0..52: a card comes (chance: the deal, a draw, a Jack's look); then the team's decisions.
pub const GO_ON: Action = 52;
/// `TUNNEL + i`: tunnel at position `i` (0 = front) of the active forecast.
pub const TUNNEL: Action = 53;
pub const NO_EFFECT: Action = 56;
pub const PEEK: Action = 57;
pub const ACE_UNDER: Action = 58;
/// `KING_AT + f * 3 + i`: the King puts the face-up card at position `i` of forecast `f` under
/// the deck.
pub const KING_AT: Action = 59;
/// The King puts the drawn card (beside the forecast) under the deck.
pub const KING_DRAWN: Action = 71;
/// The King puts the target under the deck.
pub const KING_TARGET: Action = 108;
/// `QUEEN_SWAP + (i * 4 + f) * 3 + j`: the Queen swaps the face-down card at position `i` of
/// the active forecast with the one at position `j` of forecast `f`.
pub const QUEEN_SWAP: Action = 72;
pub const NUM_ACTIONS: usize = 109;

/// Once every card is known, the turns in a row without a pair removed after which the game is
/// lost: the turn that would begin next is not played (docs/rules/repair_unit.md, *End*).
/// While a card is unseen, every turn or the next one draws an unseen card: no count is kept.
pub const IDLE_TURNS: u16 = 1000;

/// Where a turn stands (see docs/rules/repair_unit.md, *The turn as decisions*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// The setup cards are dealt face down, forecast by forecast, front first (chance).
    Deal,
    /// Before the draw: the team may tunnel.
    Start,
    /// The draw of an unseen card (chance).
    Draw,
    /// After the draw, before the face-up cards move: the team may tunnel.
    Move,
    /// After the drawn card is placed, before the turn ends: the team may tunnel.
    End,
    Won,
    Lost,
}

/// An effect being resolved before the turn goes on at its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pending {
    None,
    /// The drawn card's effect (J, Q, K or A).
    Drawn,
    /// The effect of the card just tunnelled face up at this position of the active forecast.
    Tunnelled(u8),
    /// A Jack's look at the unseen top card of the deck (chance).
    Peek,
}

/// The cards put under the deck, in order (the next to be drawn of them first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Queue {
    cards: [Card; CARDS],
    len: u8,
}

impl Queue {
    pub const EMPTY: Queue = Queue {
        cards: [NONE; CARDS],
        len: 0,
    };
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn push_back(&mut self, c: Card) {
        self.cards[self.len as usize] = c;
        self.len += 1;
    }
    pub fn push_front(&mut self, c: Card) {
        self.cards.copy_within(0..self.len as usize, 1);
        self.cards[0] = c;
        self.len += 1;
    }
    pub fn pop_front(&mut self) -> Card {
        let c = self.cards[0];
        self.cards.copy_within(1..self.len as usize, 0);
        self.len -= 1;
        self.cards[self.len as usize] = NONE;
        c
    }
}

/// A position. Every card is in exactly one place: a forecast (face down or face up), the
/// target, beside the forecast (drawn), the deck (its known top, its unseen cards, the known
/// cards put under it) or out of the game (matched and removed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RepairState {
    /// `down[f][i]`: the face-down card at position `i` (0 = front) of forecast `f`.
    pub down: [[Card; MAX_LEN]; MAX_FORECASTS],
    /// `up[f][i]`: the face-up card there, or `NONE`.
    pub up: [[Card; MAX_LEN]; MAX_FORECASTS],
    pub target: Card,
    /// The card drawn this turn, beside the forecast until step 4.
    pub drawn: Card,
    /// The deck's top card when a Jack showed it (`NONE` otherwise).
    pub top: Card,
    /// The cards nobody has seen: the deck below its known top and above the queue.
    pub unseen: u64,
    /// The cards put under the deck, below the unseen ones.
    pub queue: Queue,
    /// Matched pairs, out of the game.
    pub removed: u64,
    /// Turns begun with every card known since the last pair was removed (0 while a card is
    /// unseen). The game is lost when it reaches [`IDLE_TURNS`].
    pub idle: u16,
    /// The forecast whose turn it is.
    pub active: u8,
    pub step: Step,
    pub pending: Pending,
    /// The turn's tunnel is used.
    pub tunnelled: bool,
}

/// The game: its one parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepairUnit {
    /// 1 to 4.
    pub players: usize,
}

impl RepairUnit {
    pub fn new(players: usize) -> RepairUnit {
        RepairUnit { players }
    }

    /// Two forecasts in solo, one per player otherwise.
    pub fn forecasts(&self) -> usize {
        if self.players == 1 { 2 } else { self.players }
    }

    /// Positions per forecast: 3 for 1-2 players, 2 for 3-4.
    pub fn length(&self) -> usize {
        if self.players <= 2 { 3 } else { 2 }
    }

    /// How many cards the setup deals face down.
    pub fn setup_cards(&self) -> usize {
        self.forecasts() * self.length()
    }

    /// Who decides for forecast `f`: the solo player, or the forecast's owner.
    pub fn player_of(&self, f: usize) -> u8 {
        if self.players == 1 { 0 } else { f as u8 }
    }

    /// The name of position `i` of forecast `f`: its letter, then 1 (front) to the length.
    pub fn place_name(f: usize, i: usize) -> String {
        format!("{}{}", (b'A' + f as u8) as char, i + 1)
    }

    pub fn deck_empty(&self, s: &RepairState) -> bool {
        s.top == NONE && s.unseen == 0 && s.queue.is_empty()
    }

    /// The number of cards in the deck.
    pub fn deck_size(&self, s: &RepairState) -> usize {
        (s.top != NONE) as usize + s.unseen.count_ones() as usize + s.queue.len()
    }

    fn any_face_up(&self, s: &RepairState, f: usize) -> bool {
        s.up[f][..self.length()].iter().any(|&c| c != NONE)
    }

    /// The card whose effect is pending, if any.
    pub fn effect_card(&self, s: &RepairState) -> Option<Card> {
        match s.pending {
            Pending::Drawn => Some(s.drawn),
            Pending::Tunnelled(i) => Some(s.up[s.active as usize][i as usize]),
            _ => None,
        }
    }

    /// The start of a game: nothing dealt yet.
    pub fn fresh(&self) -> RepairState {
        RepairState {
            down: [[NONE; MAX_LEN]; MAX_FORECASTS],
            up: [[NONE; MAX_LEN]; MAX_FORECASTS],
            target: NONE,
            drawn: NONE,
            top: NONE,
            unseen: PACK,
            queue: Queue::EMPTY,
            removed: 0,
            idle: 0,
            active: 0,
            step: Step::Deal,
            pending: Pending::None,
            tunnelled: false,
        }
    }

    /// The setup position whose face-down cards are `setup` (forecast by forecast, front
    /// first), the first turn about to begin.
    pub fn after_deal(&self, setup: &[Card]) -> RepairState {
        let mut s = self.fresh();
        for &c in setup {
            self.deal(&mut s, c);
        }
        s
    }

    /// The codes of the cards whose places the team does not know (in card order).
    pub fn unseen_codes(&self, s: &RepairState) -> Vec<String> {
        cards(s.unseen).map(code).collect()
    }
}

impl Game for RepairUnit {
    type State = RepairState;
    const NAME: &'static str = "repair_unit";

    fn from_options(options: &Options) -> Result<Self> {
        let mut r = OptionReader::new(Self::NAME, options);
        let players = r.int("players", 1, 4, 1)? as usize;
        if r.choice("memory", &["perfect"]).is_err() {
            return Err(crate::Error::InvalidOption(format!(
                "repair_unit: option memory: \"perfect\" is the only value supported (the team \
                 remembers every card it has seen), not {}",
                options
                    .get("memory")
                    .map_or(String::new(), |v| v.to_string())
            )));
        }
        r.finish()?;
        Ok(RepairUnit { players })
    }

    fn options(&self) -> Options {
        Options::from([
            ("players".to_string(), OptionValue::Int(self.players as i64)),
            (
                "memory".to_string(),
                OptionValue::Str("perfect".to_string()),
            ),
        ])
    }

    fn num_players(&self) -> usize {
        self.players
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    /// A turn takes at most 5 decisions (go on twice, a tunnel, the drawn card's effect and
    /// the tunnelled card's). Turns: while a card is unseen, each turn draws an unseen card or
    /// a top a Jack showed (taken from the unseen cards earlier): at most the `u` cards unseen
    /// after the deal. Once every card is known, fewer than [`IDLE_TURNS`] turns begin between
    /// two pairs removed (and after the last), and at most `u / 2` pairs are removed in all
    /// (the face-down cards stay). Plus the first turn.
    fn info(&self) -> GameInfo {
        let unseen = CARDS - self.setup_cards();
        let turns = 1 + unseen + (unseen / 2 + 1) * IDLE_TURNS as usize;
        GameInfo {
            information: Information::Perfect,
            utility: Utility::Cooperative,
            chance: true,
            min_return: -1.0,
            max_return: 1.0,
            max_game_length: 5 * turns as u32,
        }
    }

    fn new_state(&self) -> RepairState {
        self.fresh()
    }

    fn to_move(&self, s: &RepairState) -> ToMove {
        match (s.step, s.pending) {
            (Step::Won | Step::Lost, _) => ToMove::Terminal,
            (Step::Deal | Step::Draw, _) | (_, Pending::Peek) => ToMove::Chance,
            _ => ToMove::Player(self.player_of(s.active as usize)),
        }
    }

    fn legal_actions(&self, s: &RepairState, out: &mut Vec<Action>) {
        out.clear();
        match self.to_move(s) {
            ToMove::Terminal => {}
            ToMove::Chance => out.extend(cards(s.unseen).map(Action::from)),
            ToMove::Player(_) => {
                if s.pending == Pending::None {
                    out.push(GO_ON);
                    let a = s.active as usize;
                    for i in 0..self.length() {
                        if s.up[a][i] != NONE {
                            out.push(TUNNEL + i as Action);
                        }
                    }
                } else {
                    out.push(NO_EFFECT);
                    self.effect_options(s, out);
                }
            }
        }
    }

    fn chance_outcomes(&self, s: &RepairState, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.to_move(s) == ToMove::Chance {
            let p = 1.0 / s.unseen.count_ones() as f64;
            out.extend(cards(s.unseen).map(|c| (c as Action, p)));
        }
    }

    fn sample_chance(&self, s: &RepairState, rng: &mut Rng) -> Action {
        let k = rng.random_range(0..s.unseen.count_ones());
        cards(s.unseen).nth(k as usize).expect("k < unseen cards") as Action
    }

    fn apply(&self, s: &mut RepairState, action: Action) {
        let a = s.active as usize;
        if self.to_move(s) == ToMove::Chance {
            let card = action as Card;
            match (s.step, s.pending) {
                (Step::Deal, _) => return self.deal(s, card),
                (_, Pending::Peek) => {
                    s.unseen &= !(1 << card);
                    // With no unseen card left below it, the top is simply the queue's first.
                    if s.unseen == 0 {
                        s.queue.push_front(card);
                    } else {
                        s.top = card;
                    }
                    s.pending = Pending::None;
                }
                _ => {
                    s.unseen &= !(1 << card);
                    self.drawn(s, card);
                }
            }
            return self.settle(s);
        }
        match action {
            GO_ON => self.advance(s),
            53..56 => {
                let i = (action - TUNNEL) as usize;
                let up = s.up[a][i];
                s.up[a][i] = s.down[a][i];
                s.down[a][i] = up;
                s.tunnelled = true;
                s.pending = Pending::Tunnelled(i as u8);
            }
            NO_EFFECT => s.pending = Pending::None,
            PEEK => {
                s.pending = Pending::Peek;
                return;
            }
            ACE_UNDER => {
                let Some(card) = self.effect_card(s) else {
                    return;
                };
                match s.pending {
                    Pending::Drawn => s.drawn = NONE,
                    Pending::Tunnelled(i) => s.up[a][i as usize] = NONE,
                    _ => {}
                }
                self.under(s, card);
                s.pending = Pending::None;
            }
            59..71 => {
                let k = (action - KING_AT) as usize;
                let card = std::mem::replace(&mut s.up[k / 3][k % 3], NONE);
                self.under(s, card);
                s.pending = Pending::None;
            }
            KING_DRAWN => {
                let card = std::mem::replace(&mut s.drawn, NONE);
                self.under(s, card);
                s.pending = Pending::None;
            }
            KING_TARGET => {
                let card = std::mem::replace(&mut s.target, NONE);
                self.under(s, card);
                s.pending = Pending::None;
            }
            72..108 => {
                let k = (action - QUEEN_SWAP) as usize;
                let (i, f, j) = (k / 12, k / 3 % 4, k % 3);
                let mine = s.down[a][i];
                s.down[a][i] = s.down[f][j];
                s.down[f][j] = mine;
                s.pending = Pending::None;
            }
            _ => {}
        }
        self.settle(s);
    }

    fn returns(&self, s: &RepairState, out: &mut [f64]) {
        let v = match s.step {
            Step::Won => 1.0,
            Step::Lost => -1.0,
            _ => 0.0,
        };
        out.fill(v);
    }

    fn action_to_string(&self, s: &RepairState, action: Action) -> Result<String> {
        self.name(s, action).ok_or_else(|| {
            crate::Error::IllegalMove(format!(
                "repair_unit: action {action} names nothing in this game (actions 0..{NUM_ACTIONS} \
                 with {} forecasts of {})",
                self.forecasts(),
                self.length()
            ))
        })
    }

    fn notation(&self, s: &RepairState) -> String {
        notation::write(self, s)
    }

    fn from_notation(&self, text: &str) -> Result<RepairState> {
        notation::parse(self, text)
    }

    /// The team sees (and remembers) everything the state holds: the notation.
    fn observation_string(&self, s: &RepairState, _player: usize) -> String {
        self.notation(s)
    }

    fn resample(&self, s: &RepairState, _player: usize, _rng: &mut Rng) -> RepairState {
        *s
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![CARDS + 1, OBS_WIDTH]
    }

    /// Row per card: one-hot place (face down at each of 12 positions, face up at each, the
    /// target, drawn, deck top, unseen, under the deck, removed), its depth in the queue
    /// (1 = next). The last row: the step, the pending effect, the active forecast, the tunnel
    /// used, the deck size, the turns without progress. docs/rules/repair_unit.md, *Observation*.
    fn observation_tensor(&self, s: &RepairState, _player: usize, out: &mut [f32]) {
        out.fill(0.0);
        let w = OBS_WIDTH;
        let mut put = |c: Card, col: usize| out[c as usize * w + col] = 1.0;
        for f in 0..MAX_FORECASTS {
            for i in 0..MAX_LEN {
                if s.down[f][i] != NONE {
                    put(s.down[f][i], f * 3 + i);
                }
                if s.up[f][i] != NONE {
                    put(s.up[f][i], 12 + f * 3 + i);
                }
            }
        }
        if s.target != NONE {
            put(s.target, 24);
        }
        if s.drawn != NONE {
            put(s.drawn, 25);
        }
        if s.top != NONE {
            put(s.top, 26);
        }
        for c in cards(s.unseen) {
            put(c, 27);
        }
        for c in cards(s.removed) {
            put(c, 29);
        }
        for (k, &c) in s.queue.as_slice().iter().enumerate() {
            out[c as usize * w + 28] = 1.0;
            out[c as usize * w + 30] = (k + 1) as f32;
        }
        let last = &mut out[CARDS * w..];
        let step = [
            Step::Deal,
            Step::Start,
            Step::Draw,
            Step::Move,
            Step::End,
            Step::Won,
            Step::Lost,
        ]
        .iter()
        .position(|&x| x == s.step)
        .unwrap_or(0);
        last[step] = 1.0;
        match s.pending {
            Pending::None => {}
            Pending::Drawn => last[7] = 1.0,
            Pending::Tunnelled(i) => last[8 + i as usize] = 1.0,
            Pending::Peek => last[11] = 1.0,
        }
        last[12 + s.active as usize] = 1.0;
        last[16] = s.tunnelled as u8 as f32;
        last[17] = self.deck_size(s) as f32;
        last[18] = s.idle as f32;
    }
}

/// Columns of the observation tensor.
pub const OBS_WIDTH: usize = 31;
