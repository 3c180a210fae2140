//! EinStein a la Card (Ingo Althöfer): EinStein würfelt nicht with cards instead of the die,
//! and six special cards that bend the rules.
//!
//! Options: `setup` = `"random"` (default) or `"choose"`; `first` = 0 (default) or 1;
//! `hand_size` = 2 (default) for both, or a pair, e.g. `(2, 3)`; `open_hands` = false
//! (default) or true for both, or a pair, e.g. `(false, true)`: player 1's hand is open.
//!
//! The board, the stones, the steps, captures, the win conditions and the nearest-stone rule
//! are EinStein's ([`Board`]). Rules, notation and action names: docs/rules/einstein_card.md.

use crate::einstein::{
    ARRANGEMENTS, Board, CELLS, FIRST_ARRANGEMENT, FIRST_ROLL, GONE, STONES, Setup, cell_name,
    read_player, read_setup_and_first, setup_and_first_options,
};
use crate::error::{Error, Result};
use crate::game::{
    Action, Game, GameInfo, Information, Rng, ToMove, Utility, random_step_by_lists,
};
use crate::options::{OptionReader, OptionValue, Options};
use rand::Rng as _;
use rand::seq::SliceRandom;

mod notation;
mod rules;
pub mod solve;
#[cfg(test)]
mod tests;

/// Kinds of card: 0-5 the numbers 1-6, then the six special cards.
pub const KINDS: usize = 12;
pub const MURPHY_LIGHT: u8 = 6;
pub const FULL_MURPHY: u8 = 7;
pub const DA_CAPO: u8 = 8;
pub const DIRAC: u8 = 9;
pub const HEISENBERG: u8 = 10;
pub const SCHROEDINGER: u8 = 11;
/// The copies of each kind in a player's heap: two of each number, one of each special card.
pub const FULL: [u8; KINDS] = [2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1];
/// A player's cards.
pub const CARDS: usize = 18;
/// The one-letter code of each kind in the notation.
pub const CODES: [char; KINDS] = ['1', '2', '3', '4', '5', '6', 'L', 'F', 'C', 'D', 'H', 'S'];
/// Each kind's name in action strings.
pub const NAMES: [&str; KINDS] = [
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "Murphy Light",
    "Full Murphy",
    "Da Capo",
    "Dirac",
    "Heisenberg",
    "Schroedinger",
];

/// `play <card>`: `PLAY + kind`.
pub const PLAY: Action = FIRST_ARRANGEMENT + ARRANGEMENTS;
/// `draw <card>` (chance): `DRAW + kind`.
pub const DRAW: Action = PLAY + KINDS as Action;
/// `stone <cell>` (Murphy Light's naming, Schroedinger's marking): `STONE + cell`.
pub const STONE: Action = DRAW + KINDS as Action;
/// `j=<n>` (Heisenberg's choice): `CHOOSE + n - 1`.
pub const CHOOSE: Action = STONE + CELLS as Action;
const NUM_ACTIONS: usize = (CHOOSE + 6) as usize;
/// An unused slot of a discard pile.
const NO_CARD: u8 = u8::MAX;

/// The game's parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EinsteinCard {
    pub setup: Setup,
    /// The player who plays the first card.
    pub first: u8,
    /// Each player's hand size (the handicap: more cards for the weaker side).
    pub hand_size: [u8; 2],
    /// Whose hand is shown to the opponent (the other handicap: the stronger player's).
    pub open_hands: [bool; 2],
}

/// Where a turn stands. `player` of the state is always the side whose card is resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `player` arranges its stones (a chance event with `setup="random"`).
    Setup,
    /// A card of `player`'s heap is dealt into its hand (chance).
    Deal,
    /// `player` plays a card.
    Play,
    /// `player` moves as for this number (a number card, Da Capo, Heisenberg's j).
    Number(u8),
    /// Murphy Light: the opponent names one of `player`'s stones.
    Murphy,
    /// Murphy Light: `player` steps the stone on this cell.
    Named(u8),
    /// Full Murphy: the opponent makes `player`'s step.
    Full,
    /// Dirac: `player` steps any of its stones.
    Dirac,
    /// Heisenberg: the roll (chance).
    Heisenberg,
    /// Heisenberg rolled this: `player` picks j.
    Rolled(u8),
    /// Schroedinger: `player` marks a stone.
    Schroedinger,
    /// Schroedinger: the roll on the stone of this cell (chance).
    Marked(u8),
    /// `player` draws a card from its heap (chance).
    Draw,
    /// The game is over: the board names the winner, or nobody has won (a draw).
    Over,
}

/// A position. Every card of a player is in exactly one of its hand, heap and discard pile.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EinsteinCardState {
    board: Board,
    /// The side whose card is played and resolved (in a finished game: the side next).
    player: u8,
    phase: Phase,
    /// Copies of each kind in each hand.
    hands: [[u8; KINDS]; 2],
    /// Copies of each kind in each heap (its order is never seen: a draw is a chance event).
    heaps: [[u8; KINDS]; 2],
    /// Each player's played cards in order, `NO_CARD` after the last.
    discards: [[u8; CARDS]; 2],
    played: [u8; 2],
}

fn count(cards: &[u8; KINDS]) -> u8 {
    cards.iter().sum()
}

impl EinsteinCardState {
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn player(&self) -> u8 {
        self.player
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Copies of each kind in `player`'s hand.
    pub fn hand(&self, player: usize) -> [u8; KINDS] {
        self.hands[player]
    }

    /// Copies of each kind in `player`'s heap.
    pub fn heap(&self, player: usize) -> [u8; KINDS] {
        self.heaps[player]
    }

    /// The kinds `player` has played, in order.
    pub fn discards(&self, player: usize) -> &[u8] {
        &self.discards[player][..self.played[player] as usize]
    }
}

impl EinsteinCard {
    /// Whether `viewer` sees the hand of `owner`: their own, or an open one.
    pub fn shows(&self, owner: usize, viewer: usize) -> bool {
        owner == viewer || self.open_hands[owner]
    }
}

impl Game for EinsteinCard {
    type State = EinsteinCardState;
    const NAME: &'static str = "einstein_card";

    fn from_options(options: &Options) -> Result<Self> {
        let mut r = OptionReader::new(Self::NAME, options);
        let (setup, first) = read_setup_and_first(&mut r)?;
        let hands = r.ints("hand_size", 2, 1, CARDS as i64, 2)?;
        let open = r.bools("open_hands", 2, false)?;
        r.finish()?;
        Ok(EinsteinCard {
            setup,
            first,
            hand_size: [hands[0] as u8, hands[1] as u8],
            open_hands: [open[0], open[1]],
        })
    }

    fn options(&self) -> Options {
        let mut options = setup_and_first_options(self.setup, self.first);
        options.insert(
            "hand_size".to_string(),
            OptionValue::Ints(self.hand_size.iter().map(|&n| n as i64).collect()),
        );
        options.insert(
            "open_hands".to_string(),
            OptionValue::Bools(self.open_hands.to_vec()),
        );
        options
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    /// Each of the 36 cards takes at most three decisions (the card; Murphy Light's naming and
    /// step or Heisenberg's j and step), plus two arrangements with `setup="choose"`.
    fn info(&self) -> GameInfo {
        GameInfo {
            information: Information::Imperfect,
            utility: Utility::ZeroSum,
            chance: true,
            min_return: -1.0,
            max_return: 1.0,
            max_game_length: 3 * 2 * CARDS as u32 + if self.setup == Setup::Choose { 2 } else { 0 },
        }
    }

    fn new_state(&self) -> EinsteinCardState {
        EinsteinCardState {
            board: Board::EMPTY,
            player: 0,
            phase: Phase::Setup,
            hands: [[0; KINDS]; 2],
            heaps: [FULL; 2],
            discards: [[NO_CARD; CARDS]; 2],
            played: [0; 2],
        }
    }

    fn to_move(&self, s: &EinsteinCardState) -> ToMove {
        match s.phase {
            Phase::Setup if self.setup == Setup::Random => ToMove::Chance,
            Phase::Deal | Phase::Draw | Phase::Heisenberg | Phase::Marked(_) => ToMove::Chance,
            Phase::Over => ToMove::Terminal,
            _ => ToMove::Player(EinsteinCard::decider(s)),
        }
    }

    fn legal_actions(&self, s: &EinsteinCardState, out: &mut Vec<Action>) {
        out.clear();
        let p = s.player;
        match s.phase {
            Phase::Setup => out.extend(FIRST_ARRANGEMENT..FIRST_ARRANGEMENT + ARRANGEMENTS),
            Phase::Deal | Phase::Draw => EinsteinCard::for_each_draw(s, |a, _| out.push(a)),
            Phase::Play => s.for_each_play(|a| out.push(a)),
            Phase::Number(n) => s.board.for_each_move(p, n, |a| out.push(a)),
            Phase::Named(cell) => Board::for_each_step(cell, p, |a| out.push(a)),
            Phase::Full | Phase::Dirac => s.board.for_each_any_move(p, |a| out.push(a)),
            Phase::Murphy => s.for_each_stone(Some(p), |c| out.push(STONE + c as Action)),
            Phase::Schroedinger => s.for_each_stone(None, |c| out.push(STONE + c as Action)),
            Phase::Heisenberg | Phase::Marked(_) => out.extend(FIRST_ROLL..FIRST_ROLL + 6),
            Phase::Rolled(i) => {
                out.extend((i.max(2) - 1..=(i + 1).min(6)).map(|j| CHOOSE + j as Action - 1))
            }
            Phase::Over => {}
        }
    }

    fn chance_outcomes(&self, s: &EinsteinCardState, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.to_move(s) != ToMove::Chance {
            return;
        }
        match s.phase {
            Phase::Setup => out.extend(
                (FIRST_ARRANGEMENT..FIRST_ARRANGEMENT + ARRANGEMENTS)
                    .map(|a| (a, 1.0 / ARRANGEMENTS as f64)),
            ),
            Phase::Deal | Phase::Draw => EinsteinCard::for_each_draw(s, |a, p| out.push((a, p))),
            _ => out.extend((FIRST_ROLL..FIRST_ROLL + 6).map(|a| (a, 1.0 / 6.0))),
        }
    }

    fn sample_chance(&self, s: &EinsteinCardState, rng: &mut Rng) -> Action {
        match s.phase {
            Phase::Setup => FIRST_ARRANGEMENT + rng.random_range(0..ARRANGEMENTS),
            Phase::Deal | Phase::Draw => {
                let heap = &s.heaps[s.player as usize];
                let mut x = rng.random_range(0..count(heap));
                for (k, &n) in heap.iter().enumerate() {
                    if x < n {
                        return DRAW + k as Action;
                    }
                    x -= n;
                }
                unreachable!("a draw comes from a heap with cards")
            }
            _ => FIRST_ROLL + rng.random_range(0..6),
        }
    }

    /// The generic step, but a number's move drawn straight from the board's tables as
    /// EinStein's are: the same draw as from the list of `legal_actions`.
    fn random_step(
        &self,
        s: &mut EinsteinCardState,
        rng: &mut Rng,
        actions: &mut Vec<Action>,
    ) -> Option<u32> {
        let Phase::Number(n) = s.phase else {
            return random_step_by_lists(self, s, rng, actions);
        };
        let (from, to) = s.board.random_move(s.player, n, rng);
        s.board.move_stone(s.player, from, to);
        s.after_effect();
        Some(1)
    }

    fn apply(&self, s: &mut EinsteinCardState, action: Action) {
        let p = s.player;
        match s.phase {
            Phase::Setup => {
                s.board.arrange(p, action - FIRST_ARRANGEMENT);
                s.player = 1 - p;
                if p == 1 {
                    s.player = 0;
                    s.phase = Phase::Deal;
                }
            }
            Phase::Deal => {
                s.take((action - DRAW) as u8);
                if count(&s.hands[p as usize]) == self.hand_size[p as usize] {
                    if p == 0 {
                        s.player = 1;
                    } else {
                        s.player = self.first;
                        s.phase = Phase::Play;
                    }
                }
            }
            Phase::Draw => {
                s.take((action - DRAW) as u8);
                s.next_turn();
            }
            Phase::Play => {
                let kind = (action - PLAY) as u8;
                let resolved = if kind == DA_CAPO {
                    s.da_capo_copy()
                } else {
                    Some(kind)
                };
                s.hands[p as usize][kind as usize] -= 1;
                s.discards[p as usize][s.played[p as usize] as usize] = kind;
                s.played[p as usize] += 1;
                s.resolve(resolved);
            }
            Phase::Number(_) | Phase::Named(_) | Phase::Full | Phase::Dirac => {
                s.board.step(p, action);
                s.after_effect();
            }
            Phase::Murphy => s.phase = Phase::Named((action - STONE) as u8),
            Phase::Schroedinger => s.phase = Phase::Marked((action - STONE) as u8),
            Phase::Heisenberg => s.phase = Phase::Rolled((action - FIRST_ROLL + 1) as u8),
            Phase::Rolled(_) => s.phase = Phase::Number((action - CHOOSE + 1) as u8),
            Phase::Marked(cell) => {
                if action - FIRST_ROLL + 1 >= 4 {
                    s.board.clear(cell);
                }
                s.after_effect();
            }
            Phase::Over => {}
        }
    }

    fn returns(&self, s: &EinsteinCardState, out: &mut [f64]) {
        let (r0, r1) = match (s.phase, s.board.winner()) {
            (Phase::Over, Some(0)) => (1.0, -1.0),
            (Phase::Over, Some(_)) => (-1.0, 1.0),
            _ => (0.0, 0.0),
        };
        out[0] = r0;
        out[1] = r1;
    }

    fn action_to_string(&self, s: &EinsteinCardState, action: Action) -> Result<String> {
        self.write_action(s, action)
    }

    /// Another player's draw shows no card (unless that player's hand is open).
    fn action_to_string_for(
        &self,
        s: &EinsteinCardState,
        action: Action,
        player: usize,
    ) -> Result<String> {
        let text = self.action_to_string(s, action)?;
        let hidden = matches!(s.phase, Phase::Deal | Phase::Draw)
            && (DRAW..STONE).contains(&action)
            && !self.shows(s.player as usize, player);
        Ok(if hidden { "draw ?".into() } else { text })
    }

    fn notation(&self, s: &EinsteinCardState) -> String {
        self.write(s, None)
    }

    fn from_notation(&self, text: &str) -> Result<EinsteinCardState> {
        self.parse(text)
    }

    /// The notation with the other hand shown as `?` per card (unless it is open) and the heaps
    /// as their sizes.
    fn observation_string(&self, s: &EinsteinCardState, player: usize) -> String {
        self.write(s, Some(player))
    }

    /// The other player's hand and heap dealt anew from their cards (every copy equally
    /// likely anywhere, as the draws deal them), the hand keeping its size; nothing when the
    /// other hand is open (its heap is then known too). The player's own heap is known: its
    /// cards are those neither in hand nor played.
    fn resample(&self, s: &EinsteinCardState, player: usize, rng: &mut Rng) -> EinsteinCardState {
        let mut out = s.clone();
        let o = 1 - player;
        if self.shows(o, player) {
            return out;
        }
        let mut unseen: Vec<u8> = Vec::with_capacity(CARDS);
        for k in 0..KINDS {
            for _ in 0..s.hands[o][k] + s.heaps[o][k] {
                unseen.push(k as u8);
            }
        }
        unseen.shuffle(rng);
        let size = count(&s.hands[o]) as usize;
        out.hands[o] = [0; KINDS];
        out.heaps[o] = [0; KINDS];
        for (i, &k) in unseen.iter().enumerate() {
            if i < size {
                out.hands[o][k as usize] += 1;
            } else {
                out.heaps[o][k as usize] += 1;
            }
        }
        out
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![TENSOR]
    }

    /// The entries are listed in docs/rules/einstein_card.md, *Observation*.
    fn observation_tensor(&self, s: &EinsteinCardState, player: usize, out: &mut [f32]) {
        out.fill(0.0);
        for (p, stones) in s.board.stones().iter().enumerate() {
            for (n, &cell) in stones.iter().enumerate() {
                if cell != GONE {
                    out[(p * STONES + n) * CELLS + cell as usize] = 1.0;
                }
            }
        }
        for p in 0..2 {
            if self.shows(p, player) {
                for k in 0..KINDS {
                    out[T_HANDS + p * KINDS + k] = s.hands[p][k] as f32;
                }
            }
            out[T_SIZES + p] = count(&s.hands[p]) as f32;
            out[T_SIZES + 2 + p] = count(&s.heaps[p]) as f32;
            for (i, &k) in s.discards[p][..s.played[p] as usize].iter().enumerate() {
                out[T_DISCARDS + (p * CARDS + i) * KINDS + k as usize] = 1.0;
            }
        }
        out[T_VIEWER + player] = 1.0;
        out[T_PLAYER + s.player as usize] = 1.0;
        let (kind, value, cell) = match s.phase {
            Phase::Setup => (0, None, None),
            Phase::Deal => (1, None, None),
            Phase::Play => (2, None, None),
            Phase::Number(n) => (3, Some(n), None),
            Phase::Murphy => (4, None, None),
            Phase::Named(c) => (5, None, Some(c)),
            Phase::Full => (6, None, None),
            Phase::Dirac => (7, None, None),
            Phase::Heisenberg => (8, None, None),
            Phase::Rolled(i) => (9, Some(i), None),
            Phase::Schroedinger => (10, None, None),
            Phase::Marked(c) => (11, None, Some(c)),
            Phase::Draw => (12, None, None),
            Phase::Over => (13, None, None),
        };
        out[T_PHASE + kind] = 1.0;
        if let Some(v) = value {
            out[T_VALUE + v as usize - 1] = 1.0;
        }
        if let Some(c) = cell {
            out[T_CELL + c as usize] = 1.0;
        }
    }
}

// The observation tensor's sections (docs/rules/einstein_card.md, *Observation*).
const T_HANDS: usize = 2 * STONES * CELLS;
const T_SIZES: usize = T_HANDS + 2 * KINDS;
const T_DISCARDS: usize = T_SIZES + 4;
const T_VIEWER: usize = T_DISCARDS + 2 * CARDS * KINDS;
const T_PLAYER: usize = T_VIEWER + 2;
const T_PHASE: usize = T_PLAYER + 2;
const T_VALUE: usize = T_PHASE + 14;
const T_CELL: usize = T_VALUE + 6;
const TENSOR: usize = T_CELL + CELLS;
