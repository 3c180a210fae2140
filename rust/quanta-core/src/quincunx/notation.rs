//! Quincunx's notation and observation text, written and read back with every check of
//! docs/rules/quincunx.md, *Notation*.

use super::cards::{self, Card, NO_CARD, code, from_code};
use super::rules::cell_bits;
use super::{BOOK_BOX, BOOK_SIDE, BOOK_START, MAX_PLAYERS, Quincunx, QuincunxState, Turn};
use crate::error::{Error, Result, quoted};
use std::fmt::Write as _;

/// Scores in a notation stay within ±this (real games stay within a few thousand), so that
/// no sum can overflow.
const MAX_SCORE: i32 = 1_000_000;

/// The name of `cell` on a grid of side `side`: column letter, then row number from the top.
pub fn cell_name(cell: usize, side: usize) -> String {
    format!(
        "{}{}",
        (b'a' + (cell % side) as u8) as char,
        cell / side + 1
    )
}

impl Quincunx {
    fn turn_field(&self, s: &QuincunxState) -> String {
        match s.turn {
            Turn::Deal => "deal".to_string(),
            Turn::Place(p) => p.to_string(),
            Turn::Draw { player, pending } => format!("{player}+{pending}"),
            Turn::End => "end".to_string(),
        }
    }

    pub(super) fn write_grid(&self, s: &QuincunxState, out: &mut String) {
        let side = self.side();
        for (i, &c) in s.grid[..self.cells()].iter().enumerate() {
            if i > 0 {
                out.push(if i % side == 0 { '/' } else { ',' });
            }
            out.push_str(if c == NO_CARD { "." } else { code(c) });
        }
    }

    /// The fields after the cards: `<scores> <turn> <round>/<rounds>`.
    pub(super) fn write_tail(&self, s: &QuincunxState, out: &mut String) {
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
pub(super) fn write_cards(set: u64, out: &mut String) {
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

impl Quincunx {
    /// Reads the notation `<grid> <hands> <pile> <scores> <turn> <round>` (the canonical text
    /// `notation` writes) and checks that it is a position of this game.
    pub(super) fn parse(&self, text: &str) -> Result<QuincunxState> {
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
