//! A Quantum Leap's cards, cells, placing rules and patterns, and what one placement scores:
//! docs/rules/a_quantum_leap.md, *Cards*, *The placing rules*, *The pattern* and *Scoring a
//! placement*. The engine and `score_placement` score through the one function [`score`].

use crate::error::{Error, Result, quoted};

/// A card index: suit index (S H D C) × 13 + rank − 1.
pub type Card = u8;
/// An empty cell, or a card below nothing.
pub const NO_CARD: Card = u8::MAX;
pub const CARD_COUNT: usize = 52;
pub const SUIT_LETTERS: &[u8; 4] = b"SHDC";
pub const RANK_LETTERS: &[u8; 13] = b"A23456789TJQK";
/// The display's cells a1 b1 c1 a2 b2 c2 a3 b3 c3 (index = row × 3 + col).
pub const CELLS: usize = 9;
pub const CELL_NAMES: [&str; CELLS] = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
/// b2, where the Higgs goes.
pub const CENTRE: usize = 4;
/// The lines: three rows, three columns, two long diagonals (cells in reading order).
pub const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// `NEIGHBOURS[cell]`: the up to 8 cells touching `cell` along a side or at a corner, as bits.
pub(super) const NEIGHBOURS: [u16; CELLS] = {
    let mut out = [0u16; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (row, col) = ((cell / 3) as i32, (cell % 3) as i32);
        let mut other = 0;
        while other < CELLS {
            let (r, c) = ((other / 3) as i32, (other % 3) as i32);
            if other != cell && (r - row).abs() <= 1 && (c - col).abs() <= 1 {
                out[cell] |= 1 << other;
            }
            other += 1;
        }
        cell += 1;
    }
    out
};

/// The codes of the cards by index: `AS` .. `KC`.
const CODES: [&str; CARD_COUNT] = [
    "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", //
    "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", //
    "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", //
    "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC",
];

/// The code of a card; a second-pack copy on the display (`card + 52`) has its card's code.
pub fn code(card: Card) -> &'static str {
    CODES[card as usize % CARD_COUNT]
}

/// The card written `text` (`7S`, `TH`), if any.
pub fn from_code(text: &str) -> Option<Card> {
    CODES.iter().position(|&c| c == text).map(|i| i as Card)
}

/// 1 (Ace) to 13 (King).
pub fn rank(card: Card) -> u8 {
    card % 13 + 1
}

/// The 13 cards of suit `suit` (0 S, 1 H, 2 D, 3 C) as a card set.
pub fn suit_cards(suit: u8) -> u64 {
    0x1FFF << (13 * suit as u64)
}

/// The cards of a card set, lowest index first.
pub fn cards(mut set: u64) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let card = set.trailing_zeros() as Card;
            set &= set - 1;
            card
        })
    })
}

/// The `k`-th (from 0) card of a card set, lowest first.
pub fn nth(set: u64, k: u32) -> Card {
    cards(set).nth(k as usize).unwrap_or(NO_CARD)
}

/// The placing rules, by rule index (the last digit of a placement's action id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    Ascending,
    Descending,
    Halving,
    Doubling,
    Equal,
}

pub const RULES: [Rule; 5] = [
    Rule::Ascending,
    Rule::Descending,
    Rule::Halving,
    Rule::Doubling,
    Rule::Equal,
];
const RULE_NAMES: [&str; 5] = ["ascending", "descending", "halving", "doubling", "equal"];

impl Rule {
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        RULE_NAMES[self.index()]
    }
    pub fn from_name(name: &str) -> Option<Rule> {
        RULE_NAMES.iter().position(|&n| n == name).map(|i| RULES[i])
    }
    /// Rule 1 scores 1, rule 2 scores 2, `equal` nothing.
    pub fn points(self) -> i32 {
        [1, 1, 2, 2, 0][self.index()]
    }
    fn bit(self) -> u8 {
        1 << self.index()
    }
}

/// Which rules may be used next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pattern {
    Opening,
    Free,
    Ascending,
    Descending,
    Halving,
    Doubling,
}

pub const PATTERNS: [Pattern; 6] = [
    Pattern::Opening,
    Pattern::Free,
    Pattern::Ascending,
    Pattern::Descending,
    Pattern::Halving,
    Pattern::Doubling,
];
const PATTERN_NAMES: [&str; 6] = [
    "opening",
    "free",
    "ascending",
    "descending",
    "halving",
    "doubling",
];

impl Pattern {
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        PATTERN_NAMES[self.index()]
    }
    pub fn from_name(name: &str) -> Option<Pattern> {
        PATTERN_NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| PATTERNS[i])
    }
    /// The rules allowed, as bits by rule index: `opening` rules 1 and 2, `free` all five, an
    /// established pattern its own rule and `equal`.
    pub fn allowed(self) -> u8 {
        match self {
            Pattern::Opening => 0b01111,
            Pattern::Free => 0b11111,
            Pattern::Ascending => Rule::Ascending.bit() | Rule::Equal.bit(),
            Pattern::Descending => Rule::Descending.bit() | Rule::Equal.bit(),
            Pattern::Halving => Rule::Halving.bit() | Rule::Equal.bit(),
            Pattern::Doubling => Rule::Doubling.bit() | Rule::Equal.bit(),
        }
    }
    /// The established pattern of a rule-1 or rule-2 placement.
    fn of(rule: Rule) -> Pattern {
        match rule {
            Rule::Ascending => Pattern::Ascending,
            Rule::Descending => Pattern::Descending,
            Rule::Halving => Pattern::Halving,
            Rule::Doubling => Pattern::Doubling,
            Rule::Equal => Pattern::Free,
        }
    }
}

/// `FITTING[placed rank - 1][below rank - 1]`: the rules a card of the first rank follows on a
/// card of the second, as bits by rule index. The Ace is 1 and 14 at once.
const FITTING: [[u8; 13]; 13] = {
    let mut table = [[0u8; 13]; 13];
    let mut placed = 1;
    while placed <= 13 {
        let mut below = 1;
        while below <= 13 {
            let mut bits = 0u8;
            let xs: [u8; 2] = if placed == 1 {
                [1, 14]
            } else {
                [placed, placed]
            };
            let ys: [u8; 2] = if below == 1 { [1, 14] } else { [below, below] };
            let mut i = 0;
            while i < 2 {
                let mut j = 0;
                while j < 2 {
                    let (x, y) = (xs[i], ys[j]);
                    if x == y + 1 {
                        bits |= 1;
                    }
                    if x + 1 == y {
                        bits |= 2;
                    }
                    if 2 * x == y {
                        bits |= 4;
                    }
                    if x == 2 * y {
                        bits |= 8;
                    }
                    j += 1;
                }
                i += 1;
            }
            if placed == below {
                bits |= 16;
            }
            table[placed as usize - 1][below as usize - 1] = bits;
            below += 1;
        }
        placed += 1;
    }
    table
};

/// The rules `pattern` allows that a card of rank `placed` follows on one of rank `below`, as
/// bits by rule index.
pub fn legal_rules(pattern: Pattern, placed: u8, below: u8) -> u8 {
    FITTING[placed as usize - 1][below as usize - 1] & pattern.allowed()
}

/// The rules of a bit set, in rule order.
pub fn rules_of(bits: u8) -> impl Iterator<Item = Rule> {
    // Rule i is bit i: the set bits, lowest first, are the rules in order.
    let mut bits = bits & 0b11111;
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let rule = RULES[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            rule
        })
    })
}

/// The pattern after a placement of rank `placed` on rank `below` following `rule`: `free`
/// after `equal`, else the rule's own, except for the quantum leap (an Ace on a 2 or a 2 on an
/// Ace) which switches ascending ↔ doubling and descending ↔ halving.
pub fn pattern_after(rule: Rule, placed: u8, below: u8) -> Pattern {
    let leap = (placed == 1 && below == 2) || (placed == 2 && below == 1);
    match rule {
        Rule::Ascending if leap => Pattern::Doubling,
        Rule::Doubling if leap => Pattern::Ascending,
        Rule::Descending if leap => Pattern::Halving,
        Rule::Halving if leap => Pattern::Descending,
        rule => Pattern::of(rule),
    }
}

/// The next rank up, round the Ace: K → A → 2.
fn successor(rank: u8) -> u8 {
    rank % 13 + 1
}

/// Three ranks along a line, each stepping up by one or each stepping down by one.
fn is_run([a, b, c]: [u8; 3]) -> bool {
    (b == successor(a) && c == successor(b)) || (a == successor(b) && b == successor(c))
}

/// The bonuses of one placement, as counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bonuses {
    pub pair: u32,
    pub run: u32,
    pub triple: u32,
}

impl Bonuses {
    /// Pairs 2, runs 3, triples 6 points each.
    pub fn points(self) -> i32 {
        (2 * self.pair + 3 * self.run + 6 * self.triple) as i32
    }
}

/// The bonuses of `card` put on `cell` of the top cards `tops` (`NO_CARD` where empty): a
/// triple for each full line through the cell of equal ranks, a run for each that steps by
/// one, a pair for each neighbour of equal rank outside the triples the card makes.
pub fn bonuses(tops: &[Card; CELLS], card: Card, cell: usize) -> Bonuses {
    let mut after = *tops;
    after[cell] = card;
    let mut found = Bonuses::default();
    let mut in_triple = 0u16;
    for line in LINES.iter().filter(|line| line.contains(&cell)) {
        if line.iter().any(|&c| after[c] == NO_CARD) {
            continue;
        }
        let ranks = line.map(|c| rank(after[c]));
        if ranks[0] == ranks[1] && ranks[1] == ranks[2] {
            found.triple += 1;
            in_triple |= line.iter().fold(0, |bits, &c| bits | 1 << c);
        } else if is_run(ranks) {
            found.run += 1;
        }
    }
    let pairs = NEIGHBOURS[cell] & !in_triple;
    found.pair = (0..CELLS)
        .filter(|&n| pairs & 1 << n != 0 && after[n] != NO_CARD && rank(after[n]) == rank(card))
        .count() as u32;
    found
}

/// What one placement scores: the rule's points plus the bonuses, the bonuses, the rule
/// followed (`None` for the Higgs) and the pattern after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub points: i32,
    pub bonuses: Bonuses,
    pub pattern: Pattern,
    pub rule: Option<Rule>,
}

/// Scores a placement known to be legal: `rule` `None` is the Higgs (bonuses only, the pattern
/// after it `opening`); `equal` scores nothing at all and makes the pattern `free`.
pub fn score(tops: &[Card; CELLS], card: Card, cell: usize, rule: Option<Rule>) -> Placement {
    match rule {
        None => {
            let b = bonuses(tops, card, cell);
            Placement {
                points: b.points(),
                bonuses: b,
                pattern: Pattern::Opening,
                rule: None,
            }
        }
        Some(Rule::Equal) => Placement {
            points: 0,
            bonuses: Bonuses::default(),
            pattern: Pattern::Free,
            rule,
        },
        Some(r) => {
            let b = bonuses(tops, card, cell);
            Placement {
                points: r.points() + b.points(),
                bonuses: b,
                pattern: pattern_after(r, rank(card), rank(tops[cell])),
                rule,
            }
        }
    }
}

fn illegal(what: String) -> Error {
    Error::IllegalMove(format!("a_quantum_leap: {what}"))
}

fn invalid(what: String) -> Error {
    Error::InvalidOption(format!("a_quantum_leap: {what}"))
}

/// The cell named `name` (`a1` .. `c3`).
pub fn cell_named(name: &str) -> Result<usize> {
    CELL_NAMES
        .iter()
        .position(|&n| n == name)
        .ok_or_else(|| invalid(format!("no cell {} (cells are a1..c3)", quoted(name))))
}

/// The cell at (`row`, `col`), both from 0.
pub fn cell_at(row: i128, col: i128) -> Result<usize> {
    if (0..3).contains(&row) && (0..3).contains(&col) {
        Ok((row * 3 + col) as usize)
    } else {
        Err(invalid(format!(
            "cell ({row}, {col}) is off the 3x3 display"
        )))
    }
}

/// Scores placing `card` on `cell` of the top cards `tops` under `pattern` (`None`: the
/// Higgs, on an empty cell, without a rule), checking that it may go there: `IllegalMove`
/// when no allowed rule fits, the cell is empty (occupied for the Higgs), the rule is missing
/// though two fit, or the rule named does not fit.
pub fn score_placement(
    tops: &[Card; CELLS],
    card: Card,
    cell: usize,
    pattern: Option<Pattern>,
    rule: Option<Rule>,
) -> Result<Placement> {
    let name = CELL_NAMES[cell];
    let Some(pattern) = pattern else {
        if tops[cell] != NO_CARD {
            return Err(illegal(format!(
                "the Higgs goes on an empty cell; {name} is not"
            )));
        }
        if rule.is_some() {
            return Err(illegal("the Higgs follows no placing rule".into()));
        }
        return Ok(score(tops, card, cell, None));
    };
    if tops[cell] == NO_CARD {
        return Err(illegal(format!(
            "{name} is empty: a card goes on top of a card"
        )));
    }
    let (placed, below) = (code(card), code(tops[cell]));
    let legal = legal_rules(pattern, rank(card), rank(tops[cell]));
    if legal == 0 {
        return Err(illegal(format!(
            "{placed} may not go on {below} under pattern {}",
            pattern.name()
        )));
    }
    let rule = match rule {
        None if legal.count_ones() > 1 => {
            let names: Vec<_> = rules_of(legal).map(Rule::name).collect();
            return Err(illegal(format!(
                "{placed} on {below} under pattern {} needs a rule: {}",
                pattern.name(),
                names.join(" or ")
            )));
        }
        None => rules_of(legal).next().unwrap_or(Rule::Equal),
        Some(r) if legal & r.bit() == 0 => {
            return Err(illegal(format!(
                "{placed} on {below} does not follow {} under pattern {}",
                r.name(),
                pattern.name()
            )));
        }
        Some(r) => r,
    };
    Ok(score(tops, card, cell, Some(rule)))
}

/// `score_placement` from text, as `score_placement` of the Python module takes it: the display
/// as 3 rows of 3 top-card codes or `None`, the card's code, the cell, the pattern's and the
/// rule's names, and the packs in play (1 or 2: with two, a card and its twin may both be
/// seen). A malformed display, code, pattern or rule name, `packs` other than 1 or 2, or more
/// copies of a card among the top cards and the card placed than the packs hold, is an
/// `InvalidOption`.
pub fn score_placement_by_code(
    display: &[Vec<Option<String>>],
    card: &str,
    cell: usize,
    pattern: Option<&str>,
    rule: Option<&str>,
    packs: i64,
) -> Result<Placement> {
    if !(1..=2).contains(&packs) {
        return Err(invalid(format!("packs must be 1 or 2, not {packs}")));
    }
    let packs = packs as usize;
    if display.len() != 3 || display.iter().any(|row| row.len() != 3) {
        return Err(invalid("the display must be 3 rows of 3 cells".into()));
    }
    let mut tops = [NO_CARD; CELLS];
    let mut copies = [0usize; CARD_COUNT];
    let too_many = |card: &str| {
        let held = if packs == 1 {
            "one pack holds one"
        } else {
            "two packs hold two"
        };
        invalid(format!("card {card} is seen more often than {held}"))
    };
    for (top, entry) in tops.iter_mut().zip(display.iter().flatten()) {
        if let Some(text) = entry {
            *top = from_code(text)
                .ok_or_else(|| invalid(format!("unknown card code {}", quoted(text))))?;
            copies[*top as usize] += 1;
            if copies[*top as usize] > packs {
                return Err(too_many(text));
            }
        }
    }
    let placed =
        from_code(card).ok_or_else(|| invalid(format!("unknown card code {}", quoted(card))))?;
    if copies[placed as usize] + 1 > packs {
        return Err(too_many(card));
    }
    let pattern = pattern
        .map(|name| {
            Pattern::from_name(name)
                .ok_or_else(|| invalid(format!("unknown pattern {}", quoted(name))))
        })
        .transpose()?;
    let rule = rule
        .map(|name| {
            Rule::from_name(name).ok_or_else(|| invalid(format!("unknown rule {}", quoted(name))))
        })
        .transpose()?;
    score_placement(&tops, placed, cell, pattern, rule)
}
