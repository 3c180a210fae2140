//! A Quantum Leap's notation, written and read back with every check of
//! docs/rules/a_quantum_leap.md, *What a position must satisfy*.

use super::rules::{
    CARD_COUNT, CELLS, CENTRE, Card, NO_CARD, Pattern, cards, code, from_code, suit_cards,
};
use super::{AQuantumLeap, AQuantumLeapState, MAX_PLAYERS, OUTER, Phase};
use crate::error::{Error, Result, quoted};

/// `,` between the cells of a row, `/` between rows (nothing before the first cell).
pub(super) fn cell_separator(cell: usize, out: &mut String) {
    match cell {
        0 => {}
        c if c % 3 == 0 => out.push('/'),
        _ => out.push(','),
    }
}

/// The stacks, bottom to top, rows `/`, cells `,`, `.` where empty.
pub(super) fn write_display(s: &AQuantumLeapState, out: &mut String) {
    for cell in 0..CELLS {
        cell_separator(cell, out);
        if s.heights[cell] == 0 {
            out.push('.');
        }
        for card in s.stack(cell) {
            out.push_str(code(card));
        }
    }
}

/// Codes in card-index order joined by `,`, or `-`.
pub(super) fn write_cards(set: u64, out: &mut String) {
    if set == 0 {
        out.push('-');
    }
    for (i, card) in cards(set).enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(code(card));
    }
}

/// A hand, with a leading `*` when it is shown.
pub(super) fn write_hand(s: &AQuantumLeapState, player: usize, out: &mut String) {
    if s.is_shown(player) {
        out.push('*');
    }
    write_cards(s.hands[player], out);
}

fn bad(text: &str, what: impl std::fmt::Display) -> Error {
    Error::InvalidNotation(format!(
        "a_quantum_leap: {what} in notation {}",
        quoted(text)
    ))
}

/// Counts of the outer cells whose bottom card is of each player's first suit.
fn outer_bottoms_by_player(
    bottoms: &[Card; CELLS],
    first: &[u64; MAX_PLAYERS],
    players: usize,
) -> [usize; MAX_PLAYERS] {
    let mut made = [0; MAX_PLAYERS];
    for cell in (0..CELLS).filter(|&c| OUTER & 1 << c != 0 && bottoms[c] != NO_CARD) {
        for q in 0..players {
            if first[q] & 1 << bottoms[cell] != 0 {
                made[q] += 1;
            }
        }
    }
    made
}

impl AQuantumLeap {
    /// How many of the first `filled` outer placements each player makes: placement i by
    /// (dealer + i) mod n.
    fn outer_share(&self, dealer: usize, filled: usize) -> [usize; MAX_PLAYERS] {
        let mut share = [0; MAX_PLAYERS];
        for i in 0..filled {
            share[(dealer + i) % self.players] += 1;
        }
        share
    }

    /// Reads `<display> <hands> <stocks> <pattern> <turn> <passes> <scores> <game>`.
    pub(super) fn parse(&self, text: &str) -> Result<AQuantumLeapState> {
        let n = self.players;
        let fields: Vec<&str> = text.split(' ').collect();
        let [
            display_f,
            hands_f,
            stocks_f,
            pattern_f,
            turn_f,
            passes_f,
            scores_f,
            game_f,
        ] = fields[..]
        else {
            return Err(bad(
                text,
                "expected eight fields '<display> <hands> <stocks> <pattern> <turn> <passes> \
                 <scores> <game>'",
            ));
        };
        let int = |value: &str, what: &str| -> Result<u64> {
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad(
                    text,
                    format!(
                        "{what} must be a non-negative integer, not {}",
                        quoted(value)
                    ),
                ));
            }
            // Digits beyond u64 are out of every range checked below.
            Ok(value.parse::<u64>().unwrap_or(u64::MAX))
        };
        let card = |value: &str, what: &str| -> Result<Card> {
            from_code(value).ok_or_else(|| {
                bad(
                    text,
                    format!("unknown card code {} in {what}", quoted(value)),
                )
            })
        };
        let set = |value: &str, what: &str| -> Result<u64> {
            if value == "-" {
                return Ok(0);
            }
            let mut out = 0u64;
            let mut last = None;
            for c in value.split(',') {
                let c = card(c, what)?;
                if last.is_some_and(|l| l >= c) {
                    return Err(bad(
                        text,
                        format!("{what} must list distinct cards in card-index order"),
                    ));
                }
                last = Some(c);
                out |= 1 << c;
            }
            Ok(out)
        };

        // The game number.
        let Some((number_t, games_t)) = game_f.split_once('/').filter(|(_, g)| !g.contains('/'))
        else {
            return Err(bad(text, "the game field must be '<game>/<games>'"));
        };
        let (number, games) = (int(number_t, "the game number")?, int(games_t, "games")?);
        if games != self.games() as u64 {
            return Err(bad(
                text,
                format!("this match has {} game(s), not {games}", self.games()),
            ));
        }
        if !(1..=games).contains(&number) {
            return Err(bad(text, format!("game {number_t} out of 1..{games}")));
        }
        let game_number = (number - 1) as u8;
        let dealer = self.dealer(game_number);

        // The display.
        let rows: Vec<&str> = display_f.split('/').collect();
        if rows.len() != 3 || rows.iter().any(|r| r.split(',').count() != 3) {
            return Err(bad(
                text,
                "the display needs 3 rows of 3 cells ('/' between rows, ',' between cells)",
            ));
        }
        let mut stacks: Vec<Vec<Card>> = Vec::with_capacity(CELLS);
        for cell_text in rows.iter().flat_map(|r| r.split(',')) {
            if cell_text == "." {
                stacks.push(Vec::new());
                continue;
            }
            if cell_text.is_empty() || cell_text.len() % 2 == 1 || !cell_text.is_ascii() {
                return Err(bad(
                    text,
                    format!(
                        "a stack is card codes written one after another, not {}",
                        quoted(cell_text)
                    ),
                ));
            }
            let stack = (0..cell_text.len())
                .step_by(2)
                .map(|i| card(&cell_text[i..i + 2], "the display"))
                .collect::<Result<Vec<_>>>()?;
            stacks.push(stack);
        }

        // Hands (a leading '*': shown after a pass).
        let hand_texts: Vec<&str> = hands_f.split('|').collect();
        if hand_texts.len() != n {
            return Err(bad(text, format!("expected {n} hands separated by '|'")));
        }
        let mut hands = [0u64; MAX_PLAYERS];
        let mut shown = 0u8;
        for (q, h) in hand_texts.iter().enumerate() {
            let (is_shown, h) = match h.strip_prefix('*') {
                Some(rest) => (true, rest),
                None => (false, *h),
            };
            hands[q] = set(h, &format!("player {q}'s hand"))?;
            if is_shown {
                if hands[q] == 0 {
                    return Err(bad(
                        text,
                        format!("player {q}'s hand is empty and cannot be shown"),
                    ));
                }
                shown |= 1 << q;
            }
        }

        // Stocks.
        let stock_texts: Vec<&str> = stocks_f.split('|').collect();
        if stock_texts.len() != n {
            return Err(bad(text, format!("expected {n} stocks separated by '|'")));
        }
        let mut stocks = [0u64; MAX_PLAYERS];
        let mut seconds = [0u64; MAX_PLAYERS];
        for (q, s) in stock_texts.iter().enumerate() {
            if self.second_stocks() {
                let halves: Vec<&str> = s.split('/').collect();
                let [first, second] = halves[..] else {
                    return Err(bad(
                        text,
                        if n == 2 {
                            "with two players each stock entry is '<first>/<second>'"
                        } else {
                            "with two packs each stock entry is '<first>/<second>'"
                        },
                    ));
                };
                stocks[q] = set(first, &format!("player {q}'s stock"))?;
                seconds[q] = set(second, &format!("player {q}'s second stock"))?;
            } else {
                stocks[q] = set(s, &format!("player {q}'s stock"))?;
            }
        }

        // Pattern, passes, scores.
        let pattern = match pattern_f {
            "-" => None,
            name => Some(
                Pattern::from_name(name)
                    .ok_or_else(|| bad(text, format!("unknown pattern {}", quoted(name))))?,
            ),
        };
        let passes = int(passes_f, "passes")?;
        // Partners' points are written `a+b`, the teams `,` apart.
        let score_texts: Vec<&str> = if self.teams {
            let teams: Vec<&str> = scores_f.split(',').collect();
            if teams.len() != 2 || teams.iter().any(|t| t.split('+').count() != 2) {
                return Err(bad(
                    text,
                    "with partners the scores are '<p0>+<p1>,<p2>+<p3>' (partners joined by '+')",
                ));
            }
            teams.iter().flat_map(|t| t.split('+')).collect()
        } else {
            scores_f.split(',').collect()
        };
        if score_texts.len() != n {
            return Err(bad(text, format!("expected {n} scores separated by ','")));
        }
        let mut scores = [0i32; MAX_PLAYERS];
        for (q, s) in score_texts.iter().enumerate() {
            let value = int(s, "a score")?;
            if value > 1_000_000 {
                return Err(bad(text, "a score above 1000000"));
            }
            scores[q] = value as i32;
        }

        // The turn.
        let turn: Vec<&str> = turn_f.split(':').collect();
        let read_player = |value: &str| -> Result<usize> {
            let q = int(value, "the player")?;
            if q >= n as u64 {
                return Err(bad(text, format!("no player {q}")));
            }
            Ok(q as usize)
        };
        let (phase, player, drawn, placed) = match turn[..] {
            ["leave"] => (Phase::Leave, 0, NO_CARD, 0),
            ["end"] => (Phase::End, 0, NO_CARD, 0),
            ["draw", p] => (Phase::Draw, read_player(p)?, NO_CARD, 0),
            ["higgs", p] => (Phase::Higgs, read_player(p)?, NO_CARD, 0),
            ["place", p, c] => (Phase::Place, read_player(p)?, card(c, "the turn")?, 0),
            ["play", p, k] => (
                Phase::Play,
                read_player(p)?,
                NO_CARD,
                int(k, "the cards placed this turn")?,
            ),
            _ => {
                return Err(bad(
                    text,
                    format!(
                        "the turn must be leave, draw:<p>, place:<p>:<card>, higgs:<p>, \
                         play:<p>:<placed> or end, not {}",
                        quoted(turn_f)
                    ),
                ));
            }
        };

        // Every card at most once (two packs: twice).
        let mut present = 0u64;
        let mut copies = [0usize; CARD_COUNT];
        let everywhere = stacks.iter().flatten().copied().chain(
            hands
                .iter()
                .chain(&stocks)
                .chain(&seconds)
                .flat_map(|&set| cards(set)),
        );
        for c in everywhere.chain((drawn != NO_CARD).then_some(drawn)) {
            present |= 1 << c;
            copies[c as usize] += 1;
        }
        if copies.iter().any(|&k| k > self.packs) {
            return Err(bad(
                text,
                if self.packs == 1 {
                    "a card appears twice"
                } else {
                    "a card appears three times (two packs hold two of each)"
                },
            ));
        }

        let mut s = AQuantumLeapState::empty(game_number, scores, phase, player as u8);
        // Reading order tells the two copies of a card apart (see `put_copy`).
        let mut down = 0u64;
        for (cell, stack) in stacks.iter().enumerate() {
            for &c in stack {
                let id = if down & 1 << c != 0 {
                    c + CARD_COUNT as Card
                } else {
                    c
                };
                down |= 1 << c;
                s.put(id, cell);
            }
        }
        s.hands = hands;
        s.stocks = stocks;
        s.seconds = seconds;
        s.shown = shown;
        s.pattern = pattern;
        s.drawn = drawn;

        if phase == Phase::Leave {
            if n != 3 {
                return Err(bad(text, "only a three-player game leaves a suit out"));
            }
            if present != 0 || pattern.is_some() || passes != 0 || shown != 0 {
                return Err(bad(
                    text,
                    "before the suit left out is drawn nothing is dealt",
                ));
            }
            return Ok(s);
        }

        // Which suits are in play, and whose they are.
        let left_out = if n == 3 {
            let absent: Vec<u8> = (0..4)
                .filter(|&suit| present & suit_cards(suit) == 0)
                .collect();
            let [suit] = absent[..] else {
                return Err(bad(text, "a three-player game leaves exactly one suit out"));
            };
            Some(suit)
        } else {
            None
        };
        s.left_out = left_out;
        let in_play = (0..4)
            .filter(|&suit| Some(suit) != left_out)
            .fold(0u64, |set, suit| set | suit_cards(suit));
        if present != in_play || cards(present).any(|c| copies[c as usize] != self.packs) {
            return Err(bad(
                text,
                if self.packs == 1 {
                    "every card of the suits in play must be somewhere, once"
                } else {
                    "every card of the suits in play must be somewhere, twice (two packs)"
                },
            ));
        }
        let mut first = [0u64; MAX_PLAYERS];
        let mut second = [0u64; MAX_PLAYERS];
        for q in 0..n {
            first[q] = suit_cards(self.first_suit(game_number, left_out, q));
            second[q] = self
                .second_suit(game_number, left_out, q)
                .map_or(0, suit_cards);
            if hands[q] & !(first[q] | second[q]) != 0 {
                return Err(bad(
                    text,
                    format!("player {q}'s hand holds a card of another player's suit"),
                ));
            }
            if stocks[q] & !first[q] != 0 {
                return Err(bad(
                    text,
                    format!("player {q}'s stock holds a card of another suit"),
                ));
            }
            if seconds[q] != 0 && seconds[q] != second[q] {
                return Err(bad(
                    text,
                    format!("player {q}'s second stock must be its whole suit or '-'"),
                ));
            }
        }
        if drawn != NO_CARD && first[player] & 1 << drawn == 0 {
            return Err(bad(
                text,
                format!("player {player} cannot have drawn a card of another suit"),
            ));
        }

        let bottoms: [Card; CELLS] =
            std::array::from_fn(|c| stacks[c].first().copied().unwrap_or(NO_CARD));
        let filled = (0..CELLS)
            .filter(|&c| OUTER & 1 << c != 0 && !stacks[c].is_empty())
            .count();
        let made = outer_bottoms_by_player(&bottoms, &first, n);

        if matches!(phase, Phase::Draw | Phase::Place | Phase::Higgs) {
            if pattern.is_some() || passes != 0 || shown != 0 {
                return Err(bad(text, "stage one has no pattern, passes or shown hands"));
            }
            if !stacks[CENTRE].is_empty() || stacks.iter().any(|st| st.len() > 1) {
                return Err(bad(
                    text,
                    "in stage one each outer cell holds at most one card and the centre none",
                ));
            }
            if seconds != second {
                return Err(bad(text, "the second stocks are untouched in stage one"));
            }
            if made != self.outer_share(dealer, filled) {
                return Err(bad(
                    text,
                    "the outer cards do not match the order of placement (dealer first, then \
                     clockwise)",
                ));
            }
            if phase == Phase::Higgs {
                if filled != 8 || player != dealer {
                    return Err(bad(
                        text,
                        "the dealer places the Higgs once the eight outer cards lie",
                    ));
                }
                if stocks.iter().any(|&st| st != 0) {
                    return Err(bad(
                        text,
                        "the first stocks are in hand when the Higgs is placed",
                    ));
                }
            } else {
                if filled == 8 {
                    return Err(bad(
                        text,
                        "the outer ring is full: the dealer places the Higgs",
                    ));
                }
                let placer = (dealer + filled) % n;
                if player != placer {
                    return Err(bad(
                        text,
                        format!("outer placement {} is made by player {placer}", filled + 1),
                    ));
                }
                if hands.iter().any(|&h| h != 0) {
                    return Err(bad(text, "hands are taken up after the eight outer cards"));
                }
            }
            return Ok(s);
        }

        // Stage two (or the end).
        if stacks.iter().any(|st| st.is_empty()) {
            return Err(bad(text, "in stage two every cell holds a card"));
        }
        if stocks.iter().any(|&st| st != 0) {
            return Err(bad(text, "the first stocks are in hand in stage two"));
        }
        let Some(pattern) = pattern else {
            return Err(bad(text, "stage two has a pattern"));
        };
        if (pattern == Pattern::Opening) != stacks.iter().all(|st| st.len() == 1) {
            return Err(bad(
                text,
                "the pattern is 'opening' exactly until the first stage-two placement",
            ));
        }
        let holders = self.holders(&s) as u64;
        if made != self.outer_share(dealer, 8) {
            return Err(bad(
                text,
                "the bottom outer cards do not match the order of placement (dealer first, then \
                 clockwise)",
            ));
        }
        if first[dealer] & 1 << bottoms[CENTRE] == 0 {
            return Err(bad(
                text,
                "the bottom card of the centre is the dealer's Higgs",
            ));
        }
        if phase == Phase::End {
            if game_number + 1 != self.games() {
                return Err(bad(text, "only the last game of a match ends it"));
            }
            if holders > 0 && passes < holders {
                return Err(bad(
                    text,
                    "a game ends when nobody holds cards or everybody has passed",
                ));
            }
            if passes > n as u64 {
                return Err(bad(text, format!("at most {n} passes in succession")));
            }
            s.passes = passes as u8;
            return Ok(s);
        }
        if holders == 0 {
            return Err(bad(text, "nobody holds cards: the game is over"));
        }
        if placed == 0 {
            if !s.holds_cards(player) {
                return Err(bad(
                    text,
                    format!("player {player} holds no card and takes no turn"),
                ));
            }
            if hands[player] == 0 {
                return Err(bad(
                    text,
                    format!("player {player} takes up the second stock at the start of the turn"),
                ));
            }
        } else {
            if passes != 0 {
                return Err(bad(text, "a placement ends a run of passes"));
            }
            if s.is_shown(player) {
                return Err(bad(
                    text,
                    "a shown hand is taken back when its player places",
                ));
            }
            if placed > CARD_COUNT as u64 {
                return Err(bad(text, "too many cards placed in one turn"));
            }
            if pattern == Pattern::Opening {
                return Err(bad(text, "a placement has set the pattern"));
            }
        }
        if passes >= holders {
            return Err(bad(
                text,
                "every player holding cards has passed: the game is over",
            ));
        }
        s.passes = passes as u8;
        s.placed = placed as u8;
        Ok(s)
    }
}
