//! EinStein a la Card (Ingo Althöfer): EinStein würfelt nicht with cards instead of the die,
//! and six special cards that bend the rules.
//!
//! Options: `setup` = `"random"` (default) or `"choose"`; `first` = 0 (default) or 1;
//! `hand_size` = 2 (default) for both, or a pair, e.g. `(2, 3)`; `open_hands` = false.
//!
//! The board, the stones, the steps, captures, the win conditions and the nearest-stone rule
//! are EinStein's ([`Board`]). Rules, notation and action names: docs/rules/einstein_card.md.

use crate::einstein::{
    ARRANGEMENTS, Board, CELLS, FIRST_ARRANGEMENT, FIRST_ROLL, GONE, STONES, Setup, cell_name,
};
use crate::error::{Error, Result};
use crate::game::{Action, Game, GameInfo, Information, Rng, ToMove, Utility};
use crate::options::{OptionReader, OptionValue, Options};
use rand::Rng as _;
use rand::seq::SliceRandom;
use std::fmt::Write as _;

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
    /// Both hands are shown to both players (the other handicap).
    pub open_hands: bool,
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

    /// `player`'s last played card.
    fn last(&self, player: u8) -> Option<u8> {
        let n = self.played[player as usize] as usize;
        (n > 0).then(|| self.discards[player as usize][n - 1])
    }

    /// The card Da Capo resolves as now: the opponent's last card, or the player's own if that
    /// was Da Capo; None when there is no such card.
    fn da_capo_copy(&self) -> Option<u8> {
        match self.last(1 - self.player) {
            Some(DA_CAPO) => self.last(self.player).filter(|&k| k != DA_CAPO),
            other => other,
        }
    }

    fn playable(&self, kind: u8) -> bool {
        self.hands[self.player as usize][kind as usize] > 0
            && (kind != DA_CAPO || self.da_capo_copy().is_some())
    }

    /// The cards `player` may play: every kind in hand that can be resolved; a hand of only
    /// Da Capo with nothing to copy plays it without effect.
    fn for_each_play(&self, mut f: impl FnMut(Action)) {
        let hand = &self.hands[self.player as usize];
        let any = (0..KINDS as u8).any(|k| self.playable(k));
        for k in 0..KINDS as u8 {
            if hand[k as usize] > 0 && (!any || self.playable(k)) {
                f(PLAY + k as Action);
            }
        }
    }

    /// Starts resolving `kind` for `player` (a Da Capo as the card it copies; `None`: Da Capo
    /// with nothing to copy, no effect).
    fn resolve(&mut self, kind: Option<u8>) {
        let Some(kind) = kind else {
            return self.end_turn();
        };
        self.phase = match kind {
            0..=5 => Phase::Number(kind + 1),
            MURPHY_LIGHT => Phase::Murphy,
            FULL_MURPHY => Phase::Full,
            DA_CAPO => unreachable!("Da Capo resolves as the card it copies"),
            DIRAC => Phase::Dirac,
            HEISENBERG => Phase::Heisenberg,
            _ => Phase::Schroedinger,
        }
    }

    /// After a step or a Schroedinger roll: the game is over if someone has won, otherwise
    /// the player draws (if its heap has cards) and the turn passes.
    fn after_effect(&mut self) {
        if self.board.someone_won() {
            self.phase = Phase::Over;
        } else {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        if count(&self.heaps[self.player as usize]) > 0 {
            self.phase = Phase::Draw;
        } else {
            self.next_turn();
        }
    }

    fn next_turn(&mut self) {
        self.player = 1 - self.player;
        self.phase = if count(&self.hands[self.player as usize]) == 0 {
            Phase::Over
        } else {
            Phase::Play
        };
    }

    fn take(&mut self, kind: u8) {
        let p = self.player as usize;
        self.heaps[p][kind as usize] -= 1;
        self.hands[p][kind as usize] += 1;
    }

    /// The cells holding a stone of `player` (any side for `None`).
    fn for_each_stone(&self, player: Option<u8>, mut f: impl FnMut(u8)) {
        for cell in 0..CELLS as u8 {
            let v = self.board.at(cell);
            if v != 0 && player.is_none_or(|p| (v > 0) == (p == 0)) {
                f(cell);
            }
        }
    }
}

fn write_cards(cards: &[u8; KINDS], out: &mut String) {
    let start = out.len();
    for (k, &n) in cards.iter().enumerate() {
        for _ in 0..n {
            out.push(CODES[k]);
        }
    }
    if out.len() == start {
        out.push('-');
    }
}

fn write_discard(s: &EinsteinCardState, p: usize, out: &mut String) {
    if s.played[p] == 0 {
        out.push('-');
    }
    for &k in &s.discards[p][..s.played[p] as usize] {
        out.push(CODES[k as usize]);
    }
}

fn kind_of(code: char) -> Option<u8> {
    CODES.iter().position(|&c| c == code).map(|k| k as u8)
}

fn cell_of(name: &str) -> Option<u8> {
    let b = name.as_bytes();
    (b.len() == 2 && (b'a'..=b'e').contains(&b[0]) && (b'1'..=b'5').contains(&b[1]))
        .then(|| (b[1] - b'1') * 5 + (b[0] - b'a'))
}

fn notation_error(text: &str, what: impl std::fmt::Display) -> Error {
    Error::InvalidNotation(format!("einstein_card: {what} in {text:?}"))
}

impl EinsteinCard {
    fn phase_field(s: &EinsteinCardState) -> String {
        match s.phase {
            Phase::Setup => "setup".into(),
            Phase::Deal => "deal".into(),
            Phase::Play => "play".into(),
            Phase::Number(n) => n.to_string(),
            Phase::Murphy => "murphy".into(),
            Phase::Named(c) => format!("murphy-{}", cell_name(c)),
            Phase::Full => "full".into(),
            Phase::Dirac => "dirac".into(),
            Phase::Heisenberg => "heisenberg".into(),
            Phase::Rolled(i) => format!("heisenberg-{i}"),
            Phase::Schroedinger => "schroedinger".into(),
            Phase::Marked(c) => format!("schroedinger-{}", cell_name(c)),
            Phase::Draw => "draw".into(),
            Phase::Over => "-".into(),
        }
    }

    fn parse_phase(field: &str) -> Option<Phase> {
        Some(match field {
            "setup" => Phase::Setup,
            "deal" => Phase::Deal,
            "play" => Phase::Play,
            "murphy" => Phase::Murphy,
            "full" => Phase::Full,
            "dirac" => Phase::Dirac,
            "heisenberg" => Phase::Heisenberg,
            "schroedinger" => Phase::Schroedinger,
            "draw" => Phase::Draw,
            "-" => Phase::Over,
            n if n.len() == 1 && ("1"..="6").contains(&n) => Phase::Number(n.as_bytes()[0] - b'0'),
            f => {
                if let Some(c) = f.strip_prefix("murphy-") {
                    Phase::Named(cell_of(c)?)
                } else if let Some(c) = f.strip_prefix("schroedinger-") {
                    Phase::Marked(cell_of(c)?)
                } else if let Some(i) = f.strip_prefix("heisenberg-") {
                    match i {
                        "1" | "2" | "3" | "4" | "5" | "6" => Phase::Rolled(i.as_bytes()[0] - b'0'),
                        _ => return None,
                    }
                } else {
                    return None;
                }
            }
        })
    }

    /// The side that decides now (the opponent under Murphy Light and Full Murphy).
    fn decider(s: &EinsteinCardState) -> u8 {
        match s.phase {
            Phase::Murphy | Phase::Full => 1 - s.player,
            _ => s.player,
        }
    }

    /// The notation with what `viewer` cannot see hidden (`None`: everything shown).
    fn write(&self, s: &EinsteinCardState, viewer: Option<usize>) -> String {
        let mut out = String::with_capacity(120);
        s.board.write_rows(&mut out);
        let _ = write!(out, " {} {} ", s.player, Self::phase_field(s));
        for p in 0..2 {
            if p == 1 {
                out.push('|');
            }
            match viewer {
                Some(v) if v != p && !self.open_hands => {
                    let n = count(&s.hands[p]);
                    out.push_str(&if n == 0 {
                        "-".into()
                    } else {
                        "?".repeat(n as usize)
                    });
                }
                _ => write_cards(&s.hands[p], &mut out),
            }
        }
        out.push(' ');
        for p in 0..2 {
            if p == 1 {
                out.push('|');
            }
            match viewer {
                Some(_) => {
                    let _ = write!(out, "{}", count(&s.heaps[p]));
                }
                None => write_cards(&s.heaps[p], &mut out),
            }
        }
        out.push(' ');
        write_discard(s, 0, &mut out);
        out.push('|');
        write_discard(s, 1, &mut out);
        out
    }

    fn parse(&self, text: &str) -> Result<EinsteinCardState> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [rows, player, phase, hands, heaps, discards] = fields[..] else {
            return Err(notation_error(
                text,
                "expected six fields separated by single spaces: \
                 <rows> <player> <phase> <hands> <heaps> <discards>",
            ));
        };
        let board = Board::parse_rows(rows).map_err(|e| notation_error(text, e))?;
        let player = match player {
            "0" => 0,
            "1" => 1,
            other => {
                return Err(notation_error(
                    text,
                    format!("player must be 0 or 1, not {other:?}"),
                ));
            }
        };
        let phase = Self::parse_phase(phase)
            .ok_or_else(|| notation_error(text, format!("{phase:?} is not a phase of a turn")))?;
        let pair = |field: &str, what: &str| -> Result<[Vec<u8>; 2]> {
            let parts: Vec<&str> = field.split('|').collect();
            let [a, b] = parts[..] else {
                return Err(notation_error(
                    text,
                    format!("{what}: expected two lists split by '|'"),
                ));
            };
            let list = |part: &str| -> Result<Vec<u8>> {
                if part == "-" {
                    return Ok(Vec::new());
                }
                part.chars()
                    .map(|c| {
                        kind_of(c).ok_or_else(|| {
                            notation_error(text, format!("{what}: {c:?} is not a card code"))
                        })
                    })
                    .collect()
            };
            Ok([list(a)?, list(b)?])
        };
        let (hands, heaps, discards) = (
            pair(hands, "hands")?,
            pair(heaps, "heaps")?,
            pair(discards, "discards")?,
        );
        let mut s = EinsteinCardState {
            board,
            player,
            phase,
            hands: [[0; KINDS]; 2],
            heaps: [[0; KINDS]; 2],
            discards: [[NO_CARD; CARDS]; 2],
            played: [0; 2],
        };
        for p in 0..2 {
            let mut all = [0u8; KINDS];
            for (list, into) in [(&hands[p], &mut s.hands[p]), (&heaps[p], &mut s.heaps[p])] {
                if list.windows(2).any(|w| w[0] > w[1]) {
                    return Err(notation_error(
                        text,
                        "hands and heaps list their cards in card order",
                    ));
                }
                for &k in list {
                    into[k as usize] += 1;
                    all[k as usize] += 1;
                }
            }
            for (i, &k) in discards[p].iter().enumerate() {
                if i < CARDS {
                    s.discards[p][i] = k;
                }
                all[k as usize] = all[k as usize].saturating_add(1);
            }
            if all != FULL {
                return Err(notation_error(
                    text,
                    format!(
                        "player {p}'s hand, heap and discards must hold its 18 cards exactly \
                         (two of each number, one of each special card)"
                    ),
                ));
            }
            s.played[p] = discards[p].len() as u8;
        }
        self.check(text, &s)?;
        Ok(s)
    }

    /// Checks that the cards and the board fit the phase.
    fn check(&self, text: &str, s: &EinsteinCardState) -> Result<()> {
        let fail = |what: &str| Err(notation_error(text, what));
        let p = s.player as usize;
        let hand = [count(&s.hands[0]), count(&s.hands[1])];
        let nothing_played = s.played == [0, 0];
        match s.phase {
            Phase::Setup => {
                s.board
                    .check_setup(s.player)
                    .map_err(|e| notation_error(text, e))?;
                if hand != [0, 0] || !nothing_played {
                    return fail("no card is dealt before the stones are set up");
                }
                return Ok(());
            }
            Phase::Deal => {
                let start = (0..2u8).all(|q| {
                    let mut b = Board::EMPTY;
                    b.arrange(q, 0);
                    let mut on_start = 0;
                    for cell in 0..CELLS as u8 {
                        if b.at(cell) != 0 && s.board.at(cell).signum() == b.at(cell).signum() {
                            on_start += 1;
                        }
                    }
                    on_start == STONES
                });
                let dealing = if p == 0 {
                    hand[0] < self.hand_size[0] && hand[1] == 0
                } else {
                    hand[0] == self.hand_size[0] && hand[1] < self.hand_size[1]
                };
                if !start || !nothing_played || !dealing {
                    return fail(
                        "during the deal every stone stands on its start cells, no card has \
                         been played and the hands are dealt player 0's first",
                    );
                }
            }
            _ => {}
        }
        let won = s.board.someone_won();
        if won && s.board.winner().is_none() {
            return fail("both sides have won");
        }
        let all_played = hand == [0, 0] && count(&s.heaps[0]) + count(&s.heaps[1]) == 0;
        if won != (s.phase == Phase::Over) && !(s.phase == Phase::Over && all_played) {
            return fail(
                "a game is over ('-') exactly when a side has won or every card has been played",
            );
        }
        let stone_of = |cell: u8, owner: Option<u8>| {
            let v = s.board.at(cell);
            v != 0 && owner.is_none_or(|o| (v > 0) == (o == 0))
        };
        match s.phase {
            Phase::Play if hand[p] == 0 => fail("the player to play has no card"),
            Phase::Draw if count(&s.heaps[p]) == 0 => fail("the player to draw has no heap"),
            Phase::Named(c) if !stone_of(c, Some(s.player)) => {
                fail("Murphy Light's named cell holds no stone of the player")
            }
            Phase::Marked(c) if !stone_of(c, None) => fail("Schroedinger's marked cell is empty"),
            _ => Ok(()),
        }
    }

    /// `draw <card>` actions of the player's heap, with the odds of each (copies / cards).
    fn for_each_draw(s: &EinsteinCardState, mut f: impl FnMut(Action, f64)) {
        let heap = &s.heaps[s.player as usize];
        let total = count(heap) as f64;
        for (k, &n) in heap.iter().enumerate() {
            if n > 0 {
                f(DRAW + k as Action, n as f64 / total);
            }
        }
    }
}

impl Game for EinsteinCard {
    type State = EinsteinCardState;
    const NAME: &'static str = "einstein_card";

    fn from_options(options: &Options) -> Result<Self> {
        let mut r = OptionReader::new(Self::NAME, options);
        let setup = match r.choice("setup", &["random", "choose"])? {
            "random" => Setup::Random,
            _ => Setup::Choose,
        };
        let first = r.int("first", 0, 1, 0)? as u8;
        let hands = r.ints("hand_size", 2, 1, CARDS as i64, 2)?;
        let open_hands = r.bool("open_hands", false)?;
        r.finish()?;
        Ok(EinsteinCard {
            setup,
            first,
            hand_size: [hands[0] as u8, hands[1] as u8],
            open_hands,
        })
    }

    fn options(&self) -> Options {
        let setup = match self.setup {
            Setup::Random => "random",
            Setup::Choose => "choose",
        };
        Options::from([
            ("setup".to_string(), OptionValue::Str(setup.to_string())),
            ("first".to_string(), OptionValue::Int(self.first as i64)),
            (
                "hand_size".to_string(),
                OptionValue::Ints(self.hand_size.iter().map(|&n| n as i64).collect()),
            ),
            ("open_hands".to_string(), OptionValue::Bool(self.open_hands)),
        ])
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
        let range = |what: &str| {
            Err(Error::IllegalMove(format!(
                "einstein_card: action {action} ({what}) does not fit {}",
                self.notation(s)
            )))
        };
        Ok(match action {
            a if a < FIRST_ROLL => {
                let owner = s.player as usize;
                let from = (a / 3) as u8;
                match crate::einstein::TARGET[owner][from as usize][(a % 3) as usize] {
                    GONE => return range("a step off the board"),
                    to => format!("{}{}", cell_name(from), cell_name(to)),
                }
            }
            a if a < FIRST_ARRANGEMENT => format!("roll {}", a - FIRST_ROLL + 1),
            a if a < PLAY => {
                let order = crate::einstein::arrangement(a - FIRST_ARRANGEMENT);
                format!(
                    "setup {}",
                    order.iter().map(|d| (b'0' + d) as char).collect::<String>()
                )
            }
            a if a < DRAW => format!("play {}", NAMES[(a - PLAY) as usize]),
            a if a < STONE => format!("draw {}", NAMES[(a - DRAW) as usize]),
            a if a < CHOOSE => format!("stone {}", cell_name((a - STONE) as u8)),
            a if (a as usize) < NUM_ACTIONS => format!("j={}", a - CHOOSE + 1),
            a => {
                return Err(Error::IllegalMove(format!(
                    "einstein_card: action {a} is out of range (0..{NUM_ACTIONS})"
                )));
            }
        })
    }

    /// Another player's draw shows no card (unless the hands are open).
    fn action_to_string_for(
        &self,
        s: &EinsteinCardState,
        action: Action,
        player: usize,
    ) -> Result<String> {
        let text = self.action_to_string(s, action)?;
        let hidden = matches!(s.phase, Phase::Deal | Phase::Draw)
            && (DRAW..STONE).contains(&action)
            && s.player as usize != player
            && !self.open_hands;
        Ok(if hidden { "draw ?".into() } else { text })
    }

    fn notation(&self, s: &EinsteinCardState) -> String {
        self.write(s, None)
    }

    fn from_notation(&self, text: &str) -> Result<EinsteinCardState> {
        self.parse(text)
    }

    /// The notation with the other hand shown as `?` per card (unless the hands are open) and
    /// the heaps as their sizes.
    fn observation_string(&self, s: &EinsteinCardState, player: usize) -> String {
        self.write(s, Some(player))
    }

    /// The other player's hand and heap dealt anew from their cards (every copy equally
    /// likely anywhere, as the draws deal them), the hand keeping its size. The player's own
    /// heap is known: its cards are those neither in hand nor played.
    fn resample(&self, s: &EinsteinCardState, player: usize, rng: &mut Rng) -> EinsteinCardState {
        let mut out = s.clone();
        if self.open_hands {
            return out;
        }
        let o = 1 - player;
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
            if p == player || self.open_hands {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> EinsteinCard {
        EinsteinCard::from_options(&Options::new()).unwrap()
    }

    #[test]
    fn random_games_round_trip_their_notation_and_end_within_the_cards() {
        let g = game();
        let mut rng = crate::game::row_rng(3, 0);
        let mut v = Vec::new();
        for _ in 0..200 {
            let mut s = g.new_state();
            while g.to_move(&s) != ToMove::Terminal {
                assert_eq!(
                    g.from_notation(&g.notation(&s)).unwrap(),
                    s,
                    "{}",
                    g.notation(&s)
                );
                let a = match g.to_move(&s) {
                    ToMove::Chance => g.sample_chance(&s, &mut rng),
                    _ => {
                        g.legal_actions(&s, &mut v);
                        assert!(!v.is_empty(), "{}", g.notation(&s));
                        v[rng.random_range(0..v.len())]
                    }
                };
                s = g.play(&s, a).unwrap();
            }
            assert_eq!(g.from_notation(&g.notation(&s)).unwrap(), s);
        }
    }

    fn phase_after(g: &EinsteinCard, text: &str, action: &str) -> Phase {
        let s = g.from_notation(text).unwrap_or_else(|e| panic!("{e}"));
        let a = g.parse_action(&s, action).unwrap_or_else(|e| panic!("{e}"));
        g.play(&s, a).unwrap().phase
    }

    #[test]
    fn da_capo_copies_the_opponents_card_or_else_ones_own() {
        let g = game();
        let board = "123../45.../6...f/...ed/..cba";
        let copy_two = format!("{board} 0 play 1C|12 12233445566LDHS|133445566LFCDHS F|2");
        assert_eq!(phase_after(&g, &copy_two, "play Da Capo"), Phase::Number(2));
        let own_full = format!("{board} 0 play 1C|12 12233445566LDHS|1233445566LFDHS F|C");
        assert_eq!(phase_after(&g, &own_full, "play Da Capo"), Phase::Full);
        let nothing = format!("{board} 0 play 1C|12 12233445566LFDHS|1233445566LFDHS -|C");
        let s = g.from_notation(&nothing).unwrap();
        assert!(g.parse_action(&s, "play Da Capo").is_err());
    }

    #[test]
    fn sampled_draws_follow_the_copies_left() {
        let g = game();
        let text = "123../45.../6...f/...ed/..cba 0 draw F|12 11223445566LCDHS|1233445566LFCDHS 3|-";
        let s = g.from_notation(text).unwrap();
        let mut odds = Vec::new();
        g.chance_outcomes(&s, &mut odds);
        let mut rng = crate::game::row_rng(1, 0);
        let n = 150_000;
        let mut seen = [0u32; NUM_ACTIONS];
        for _ in 0..n {
            seen[g.sample_chance(&s, &mut rng) as usize] += 1;
        }
        for (a, p) in odds {
            let share = seen[a as usize] as f64 / n as f64;
            assert!((share - p).abs() < 0.005, "{a}: {share} against {p}");
        }
        assert_eq!(seen.iter().sum::<u32>(), n);
    }
}
