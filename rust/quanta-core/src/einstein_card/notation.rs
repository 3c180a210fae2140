//! EinStein a la Card's notation: writing a position (in full, or as a player sees it) and
//! reading it back with every check (docs/rules/einstein_card.md, *Notation*).

use super::*;
use crate::error::quoted;
use std::fmt::Write as _;

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
    Error::InvalidNotation(format!("einstein_card: {what} in {}", quoted(text)))
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

    /// The notation with what `viewer` cannot see hidden (`None`: everything shown).
    pub(super) fn write(&self, s: &EinsteinCardState, viewer: Option<usize>) -> String {
        let mut out = String::with_capacity(120);
        s.board.write_rows(&mut out);
        let _ = write!(out, " {} {} ", s.player, Self::phase_field(s));
        for p in 0..2 {
            if p == 1 {
                out.push('|');
            }
            match viewer {
                Some(v) if !self.shows(p, v) => {
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

    pub(super) fn parse(&self, text: &str) -> Result<EinsteinCardState> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [rows, player, phase, hands, heaps, discards] = fields[..] else {
            return Err(notation_error(
                text,
                "expected six fields separated by single spaces: \
                 <rows> <player> <phase> <hands> <heaps> <discards>",
            ));
        };
        let board = Board::parse_rows(rows).map_err(|e| notation_error(text, e))?;
        let player = read_player(player).map_err(|e| notation_error(text, e))?;
        let phase = Self::parse_phase(phase).ok_or_else(|| {
            notation_error(text, format!("{} is not a phase of a turn", quoted(phase)))
        })?;
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
}

impl EinsteinCard {
    /// The name of `action` in `s` (docs/rules/einstein_card.md, *Actions*).
    pub(super) fn write_action(&self, s: &EinsteinCardState, action: Action) -> Result<String> {
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
}
