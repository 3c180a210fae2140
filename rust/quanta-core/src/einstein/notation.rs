//! EinStein's notation and action names, written and read back with every check
//! (docs/rules/einstein.md, *Notation* and *Actions*).

use super::rules::{Board, GONE, SIDE, START_CELLS, TARGET, arrangement};
use super::{Einstein, EinsteinState, FIRST_ARRANGEMENT, FIRST_ROLL, NUM_ACTIONS, Phase};
use crate::error::{Error, Result, quoted};
use crate::game::Action;

/// `a1` for cell 0, `e5` for cell 24: column letter, then row number from the top.
pub fn cell_name(cell: u8) -> String {
    let (r, c) = (cell as usize / SIDE, cell as usize % SIDE);
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

fn notation_error(text: &str, what: impl std::fmt::Display) -> Error {
    Error::InvalidNotation(format!("einstein: {what} in {}", quoted(text)))
}

/// The player field of a notation: `0` or `1`.
pub(crate) fn read_player(field: &str) -> std::result::Result<u8, String> {
    match field {
        "0" => Ok(0),
        "1" => Ok(1),
        other => Err(format!("player must be 0 or 1, not {}", quoted(other))),
    }
}

impl Board {
    /// The five rows from the top, `/` between them: `.` empty, `1`-`6` player 0's stones,
    /// `a`-`f` player 1's.
    pub(crate) fn write_rows(&self, out: &mut String) {
        for r in 0..SIDE {
            if r > 0 {
                out.push('/');
            }
            for c in 0..SIDE {
                out.push(match self.cells[r * SIDE + c] {
                    0 => '.',
                    v if v > 0 => (b'0' + v as u8) as char,
                    v => (b'a' + (-v) as u8 - 1) as char,
                });
            }
        }
    }

    /// Reads what `write_rows` writes; the error says what is wrong.
    pub(crate) fn parse_rows(text: &str) -> std::result::Result<Board, String> {
        let mut b = Board::EMPTY;
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != SIDE {
            return Err(format!("expected 5 rows, found {}", rows.len()));
        }
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != SIDE {
                return Err(format!("row {} must have 5 cells: {}", r + 1, quoted(row)));
            }
            for (c, ch) in row.chars().enumerate() {
                let cell = (r * SIDE + c) as u8;
                let (owner, stone) = match ch {
                    '.' => continue,
                    '1'..='6' => (0, ch as u8 - b'0'),
                    'a'..='f' => (1, ch as u8 - b'a' + 1),
                    _ => {
                        return Err(format!(
                            "{ch:?} at {} is not '.', 1-6 or a-f",
                            cell_name(cell)
                        ));
                    }
                };
                if b.stones[owner][stone as usize - 1] != GONE {
                    return Err(format!("stone {ch:?} appears twice"));
                }
                b.put(owner as u8, stone, cell);
            }
        }
        Ok(b)
    }

    /// Checks a board while `player` is to arrange its stones: empty before player 0's
    /// arrangement; player 0's six stones exactly on its start cells before player 1's.
    pub(crate) fn check_setup(&self, player: u8) -> std::result::Result<(), String> {
        if player == 0 {
            if self.cells.iter().any(|&v| v != 0) {
                return Err("player 0 arranges first, so the board must be empty".into());
            }
        } else {
            let on_start = START_CELLS[0].iter().all(|&c| self.cells[c as usize] > 0);
            if !on_start || self.has_stones(1) || !self.stones[0].iter().all(|&c| c != GONE) {
                return Err(
                    "while player 1 arranges, player 0's six stones must fill its start \
                            cells and player 1 has none on the board"
                        .into(),
                );
            }
        }
        Ok(())
    }
}

impl Einstein {
    /// A move `a1b2`, `roll 3` or `setup 123456` (`Game::action_to_string`).
    pub(super) fn write_action(&self, s: &EinsteinState, action: Action) -> Result<String> {
        match action {
            a if a < FIRST_ROLL => {
                let from = (a / 3) as u8;
                match TARGET[s.player as usize][from as usize][(a % 3) as usize] {
                    GONE => Err(Error::IllegalMove(format!(
                        "einstein: action {a} would leave the board from {} for player {}",
                        cell_name(from),
                        s.player
                    ))),
                    to => Ok(format!("{}{}", cell_name(from), cell_name(to))),
                }
            }
            a if a < FIRST_ARRANGEMENT => Ok(format!("roll {}", a - FIRST_ROLL + 1)),
            a if (a as usize) < NUM_ACTIONS => {
                let order = arrangement(a - FIRST_ARRANGEMENT);
                Ok(format!(
                    "setup {}",
                    order.iter().map(|d| (b'0' + d) as char).collect::<String>()
                ))
            }
            a => Err(Error::IllegalMove(format!(
                "einstein: action {a} is out of range (0..{NUM_ACTIONS})"
            ))),
        }
    }

    /// `<rows> <player> <die>` (`Game::notation`).
    pub(super) fn write(&self, s: &EinsteinState) -> String {
        let mut out = String::with_capacity(40);
        s.board.write_rows(&mut out);
        out.push(' ');
        out.push((b'0' + s.player) as char);
        out.push(' ');
        match s.phase {
            Phase::Setup => out.push_str("setup"),
            Phase::Move(die) => out.push((b'0' + die) as char),
            Phase::Roll | Phase::Over(_) => out.push('-'),
        }
        out
    }

    /// Reads what [`Einstein::write`] writes, with every check (`Game::from_notation`).
    pub(super) fn parse(&self, text: &str) -> Result<EinsteinState> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [rows, player, die] = fields[..] else {
            return Err(notation_error(
                text,
                "expected three fields separated by single spaces: <rows> <player> <die>",
            ));
        };
        let player = read_player(player).map_err(|e| notation_error(text, e))?;
        let mut s = EinsteinState::empty(player, Phase::Roll);
        s.board = Board::parse_rows(rows).map_err(|e| notation_error(text, e))?;
        match die {
            "setup" => {
                s.phase = Phase::Setup;
                s.board
                    .check_setup(player)
                    .map_err(|e| notation_error(text, e))?;
                return Ok(s);
            }
            "-" => {}
            d if d.len() == 1 && ('1'..='6').contains(&d.chars().next().unwrap_or('x')) => {
                s.phase = Phase::Move(d.as_bytes()[0] - b'0');
            }
            other => {
                return Err(notation_error(
                    text,
                    format!("die must be 1-6, '-' or 'setup', not {}", quoted(other)),
                ));
            }
        }
        if s.board.someone_won() {
            let Some(winner) = s.board.winner() else {
                return Err(notation_error(text, "both sides have won"));
            };
            if s.phase != Phase::Roll {
                return Err(notation_error(
                    text,
                    "the game is over, so the die must be '-'",
                ));
            }
            s.phase = Phase::Over(winner);
        }
        Ok(s)
    }
}
