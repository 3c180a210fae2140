//! Quantum Leap's notation and action names, written and read back with every check
//! (docs/rules/quantum_leap.md, *Notation* and *Actions*).

use super::board::OFF;
use super::{BLACK, Phase, QuantumLeap, QuantumLeapState, Setup, WHITE};
use crate::bits::Bits;
use crate::error::{Error, Result, quoted};
use crate::game::{Action, Game};

fn bad(text: &str, what: impl std::fmt::Display) -> Error {
    Error::InvalidNotation(format!("quantum_leap: {what} in {}", quoted(text)))
}

impl<B: Bits> QuantumLeap<B> {
    /// The name of `action` in `s` (docs/rules/quantum_leap.md, *Actions*).
    pub(super) fn write_action(&self, s: &QuantumLeapState<B>, action: Action) -> Result<String> {
        let (a, c, b) = (action as usize, self.cells(), &*self.board);
        let e = self.first_deal() as usize;
        if a < 6 * c {
            let (from, d) = (a / 6, a % 6);
            let side = match s.phase {
                Phase::Move { side, .. } => side as usize,
                _ => {
                    return Err(Error::IllegalMove(format!(
                        "quantum_leap: action {a} is a jump, and no one is moving"
                    )));
                }
            };
            let k = b.friends(from, s.stones[side]);
            match (s.stones[side].has(from), k) {
                (true, 1..) if b.jump[from][d][k - 1] != OFF => Ok(format!(
                    "{}x{}",
                    b.name(from),
                    b.name(b.jump[from][d][k - 1] as usize)
                )),
                _ => Err(Error::IllegalMove(format!(
                    "quantum_leap: action {a} (from {} in direction {d}) is no jump here",
                    b.name(from)
                ))),
            }
        } else if a == 6 * c {
            Ok("no swap".to_string())
        } else if a < e {
            let pair = a - 6 * c - 1;
            let (i, j) = (pair / c, pair % c);
            if i < j {
                Ok(format!("swap {} {}", b.name(i), b.name(j)))
            } else {
                Err(Error::IllegalMove(format!(
                    "quantum_leap: action {a} is no swap"
                )))
            }
        } else if a < e + c {
            Ok(format!("empty {}", b.name(a - e)))
        } else if a < e + c + 2 {
            if s.undealt.is_empty() {
                return Err(Error::IllegalMove(
                    "quantum_leap: every cell is dealt".into(),
                ));
            }
            let colour = if a == e + c { "white" } else { "black" };
            Ok(format!("{colour} {}", b.name(s.undealt.lowest())))
        } else {
            Err(Error::IllegalMove(format!(
                "quantum_leap: action {a} is out of range (0..{})",
                self.num_actions()
            )))
        }
    }

    /// The notation of `s`: the rows, then whose turn or which stage of the setup.
    pub(super) fn write(&self, s: &QuantumLeapState<B>) -> String {
        let rows: Vec<String> = self
            .board
            .rows()
            .map(|r| r.map(|c| Self::cell_char(s, c)).collect())
            .collect();
        let side = match s.phase {
            Phase::Deal => "deal",
            Phase::Swap => "swap",
            Phase::Move { side: WHITE, .. } => "w",
            Phase::Move { .. } => "b",
        };
        format!("{} {side}", rows.join("/"))
    }

    /// Reads a notation back, with every check of a reachable position.
    pub(super) fn parse(&self, text: &str) -> Result<QuantumLeapState<B>> {
        let Some((rows, side)) = text.split_once(' ') else {
            return Err(bad(text, "expected <rows> <side>"));
        };
        let b = &*self.board;
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != b.row_start.len() - 1 {
            return Err(bad(
                text,
                format!(
                    "{} has {} rows, not {}",
                    b.describe(),
                    b.row_start.len() - 1,
                    rows.len()
                ),
            ));
        }
        let mut s = QuantumLeapState {
            stones: [B::EMPTY; 2],
            undealt: B::EMPTY,
            phase: Phase::Deal,
        };
        let mut empty = B::EMPTY;
        for (i, (row, cells)) in rows.iter().zip(b.rows()).enumerate() {
            if row.chars().count() != cells.len() {
                return Err(bad(
                    text,
                    format!(
                        "row {} must have {} cells: {}",
                        i + 1,
                        cells.len(),
                        quoted(row)
                    ),
                ));
            }
            for (ch, c) in row.chars().zip(cells) {
                match ch {
                    'w' => s.stones[0] |= B::cell(c),
                    'b' => s.stones[1] |= B::cell(c),
                    '?' => s.undealt |= B::cell(c),
                    '.' => empty |= B::cell(c),
                    _ => {
                        return Err(bad(
                            text,
                            format!("{ch:?} at {} is not w, b, . or ?", b.name(c)),
                        ));
                    }
                }
            }
        }
        if side != "deal" && !s.undealt.is_empty() {
            return Err(bad(text, "'?' (undealt) cells only appear during the deal"));
        }
        s.phase = match side {
            "w" => self.to_play(s.stones, WHITE),
            "b" => self.to_play(s.stones, BLACK),
            "swap" if self.setup == Setup::A => Phase::Swap,
            "swap" => return Err(bad(text, "setup B has no swap")),
            "deal" => {
                self.check_deal(text, &s, empty)?;
                Phase::Deal
            }
            other => {
                return Err(bad(
                    text,
                    format!("side must be w, b, swap or deal, not {}", quoted(other)),
                ));
            }
        };
        Ok(s)
    }

    fn cell_char(s: &QuantumLeapState<B>, c: usize) -> char {
        if s.undealt.has(c) {
            '?'
        } else if s.stones[0].has(c) {
            'w'
        } else if s.stones[1].has(c) {
            'b'
        } else {
            '.'
        }
    }

    fn check_deal(&self, text: &str, s: &QuantumLeapState<B>, empty: B) -> Result<()> {
        if s.undealt.is_empty() {
            return Err(bad(text, "a deal in progress has undealt ('?') cells"));
        }
        match self.setup {
            Setup::B if !empty.is_empty() => return Err(bad(text, "setup B deals no empty cell")),
            Setup::A if empty.count() > 1 => return Err(bad(text, "setup A deals one empty cell")),
            Setup::A if self.board.centre.is_some_and(|c| empty.has(c)) => {
                return Err(bad(text, "the empty cell may not be the centre"));
            }
            Setup::A if empty.is_empty() && s.undealt != self.board.all => {
                return Err(bad(text, "setup A deals the empty cell first"));
            }
            _ => {}
        }
        // The dealt cells are the lowest ones, apart from the empty cell.
        let dealt = s.stones[0] | s.stones[1];
        if !dealt.is_empty() && s.undealt.lowest() < self.board.cells {
            let first_undealt = s.undealt.lowest();
            if dealt.cells().any(|c| c > first_undealt) {
                return Err(bad(
                    text,
                    "cells are dealt in order: every '?' must follow the dealt cells",
                ));
            }
        }
        let stock = self.stock();
        for colour in 0..2 {
            let n = s.stones[colour].count();
            if n > stock[colour] {
                return Err(bad(
                    text,
                    format!("{} stones dealt, the stock has {}", n, stock[colour]),
                ));
            }
            if n == stock[colour] {
                return Err(bad(
                    text,
                    "a colour is used up, so the remaining cells would be filled",
                ));
            }
        }
        Ok(())
    }
}
