//! The Decktet as Quincunx uses it: the 36 basic cards and the Excuse.
//!
//! Card index 0..=36 in the deck's order (the table in docs/rules/quincunx.md): 0..=5 the
//! Aces (Moons, Suns, Waves, Leaves, Wyrms, Knots), 6..=29 the numerals (ranks 2..=9, three per
//! rank), 30..=35 the Crowns, 36 the Excuse. A set of cards (a hand, the pile) is a `u64` with
//! bit `card` set.

/// A card index, 0..=36.
pub type Card = u8;
/// An empty grid cell.
pub const NO_CARD: Card = 255;
/// The blank card of the extended deck: no rank, no suit.
pub const EXCUSE: Card = 36;
/// Every card index, the Excuse included.
pub const CARD_COUNT: usize = 37;
/// The basic deck, 36 cards.
pub const BASIC_DECK: u64 = (1 << 36) - 1;

/// Rank of the Aces.
pub const ACE: u8 = 1;
/// Rank of the Crowns.
pub const CROWN: u8 = 10;

/// The six suits in the deck's order, as bits of a suit set.
pub const MOONS: u8 = 1 << 0;
pub const SUNS: u8 = 1 << 1;
pub const WAVES: u8 = 1 << 2;
pub const LEAVES: u8 = 1 << 3;
pub const WYRMS: u8 = 1 << 4;
pub const KNOTS: u8 = 1 << 5;
/// Suit letters in the deck's order (bit 0 = `M`).
pub const SUIT_LETTERS: [char; 6] = ['M', 'S', 'W', 'L', 'Y', 'K'];
pub const SUIT_NAMES: [&str; 6] = ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"];

/// One card of the deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardInfo {
    /// The contract code: `AM`, `2MK`, `CK`, `X`.
    pub code: &'static str,
    /// The card's name in the deck (`the Author`, `Ace of Moons`).
    pub name: &'static str,
    /// Ace 1, numerals 2..=9, Crown 10, the Excuse 0 (no rank).
    pub rank: u8,
    /// The suits the card carries, as a set of suit bits.
    pub suits: u8,
}

const fn card(code: &'static str, name: &'static str, rank: u8, suits: u8) -> CardInfo {
    CardInfo {
        code,
        name,
        rank,
        suits,
    }
}

/// The deck by card index (the order of docs/rules/quincunx.md).
pub const DECK: [CardInfo; CARD_COUNT] = [
    card("AM", "Ace of Moons", 1, MOONS),
    card("AS", "Ace of Suns", 1, SUNS),
    card("AW", "Ace of Waves", 1, WAVES),
    card("AL", "Ace of Leaves", 1, LEAVES),
    card("AY", "Ace of Wyrms", 1, WYRMS),
    card("AK", "Ace of Knots", 1, KNOTS),
    card("2MK", "the Author", 2, MOONS | KNOTS),
    card("2SY", "the Desert", 2, SUNS | WYRMS),
    card("2WL", "the Origin", 2, WAVES | LEAVES),
    card("3MW", "the Journey", 3, MOONS | WAVES),
    card("3SK", "the Painter", 3, SUNS | KNOTS),
    card("3LY", "the Savage", 3, LEAVES | WYRMS),
    card("4MS", "the Mountain", 4, MOONS | SUNS),
    card("4WL", "the Sailor", 4, WAVES | LEAVES),
    card("4YK", "the Battle", 4, WYRMS | KNOTS),
    card("5ML", "the Forest", 5, MOONS | LEAVES),
    card("5SW", "the Discovery", 5, SUNS | WAVES),
    card("5YK", "the Soldier", 5, WYRMS | KNOTS),
    card("6MW", "the Lunatic", 6, MOONS | WAVES),
    card("6SY", "the Penitent", 6, SUNS | WYRMS),
    card("6LK", "the Market", 6, LEAVES | KNOTS),
    card("7ML", "the Chance Meeting", 7, MOONS | LEAVES),
    card("7SK", "the Castle", 7, SUNS | KNOTS),
    card("7WY", "the Cave", 7, WAVES | WYRMS),
    card("8MS", "the Diplomat", 8, MOONS | SUNS),
    card("8WL", "the Mill", 8, WAVES | LEAVES),
    card("8YK", "the Betrayal", 8, WYRMS | KNOTS),
    card("9MS", "the Pact", 9, MOONS | SUNS),
    card("9WY", "the Darkness", 9, WAVES | WYRMS),
    card("9LK", "the Merchant", 9, LEAVES | KNOTS),
    card("CM", "the Huntress", 10, MOONS),
    card("CS", "the Bard", 10, SUNS),
    card("CW", "the Sea", 10, WAVES),
    card("CL", "the End", 10, LEAVES),
    card("CY", "the Calamity", 10, WYRMS),
    card("CK", "the Windfall", 10, KNOTS),
    card("X", "the Excuse", 0, 0),
];

/// Ranks by card index, for the scoring's inner loops.
pub const RANK: [u8; CARD_COUNT] = {
    let mut ranks = [0; CARD_COUNT];
    let mut c = 0;
    while c < CARD_COUNT {
        ranks[c] = DECK[c].rank;
        c += 1;
    }
    ranks
};

/// Suit sets by card index.
pub const SUITS: [u8; CARD_COUNT] = {
    let mut suits = [0; CARD_COUNT];
    let mut c = 0;
    while c < CARD_COUNT {
        suits[c] = DECK[c].suits;
        c += 1;
    }
    suits
};

/// The deck with or without the Excuse, as a card set.
pub const fn deck(excuse: bool) -> u64 {
    if excuse {
        BASIC_DECK | 1 << EXCUSE
    } else {
        BASIC_DECK
    }
}

#[inline]
pub fn rank(card: Card) -> u8 {
    RANK[card as usize]
}

#[inline]
pub fn is_ace(card: Card) -> bool {
    card < 6
}

#[inline]
pub fn is_crown(card: Card) -> bool {
    (30..36).contains(&card)
}

#[inline]
pub fn is_numeral(card: Card) -> bool {
    (6..30).contains(&card)
}

/// What a card left in hand at the end of a round costs: Ace 15, numerals their rank, Crown
/// 10, the Excuse nothing.
#[inline]
pub fn penalty(card: Card) -> i32 {
    if is_ace(card) { 15 } else { rank(card) as i32 }
}

/// What a whole hand costs.
pub fn hand_penalty(hand: u64) -> i32 {
    cards(hand).map(penalty).sum()
}

/// The contract code of a card (`AM`, `2MK`, `CK`, `X`).
#[inline]
pub fn code(card: Card) -> &'static str {
    DECK[card as usize].code
}

/// The card with code `text`, if there is one.
pub fn from_code(text: &str) -> Option<Card> {
    DECK.iter().position(|c| c.code == text).map(|c| c as Card)
}

/// The cards of a card set in index order.
#[inline]
pub fn cards(set: u64) -> impl Iterator<Item = Card> {
    crate::bits::Bits::cells(set).map(|c| c as Card)
}

/// The `k`-th card (0-based, in index order) of a card set with more than `k` cards. (Clearing
/// the lowest bits one by one measured faster than skipping by halves and bytes.)
#[inline]
pub fn nth(mut set: u64, k: u32) -> Card {
    for _ in 0..k {
        set &= set - 1;
    }
    set.trailing_zeros() as Card
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_rank_and_suit_letters_in_deck_order() {
        for (c, info) in DECK.iter().enumerate() {
            let letters: String = (0..6)
                .filter(|s| info.suits & 1 << s != 0)
                .map(|s| SUIT_LETTERS[s])
                .collect();
            let expected = match info.rank {
                0 => "X".to_string(),
                1 => format!("A{letters}"),
                10 => format!("C{letters}"),
                r => format!("{r}{letters}"),
            };
            assert_eq!(info.code, expected, "card {c}");
            assert_eq!(from_code(info.code), Some(c as Card));
        }
        assert_eq!(from_code("2KM"), None);
        assert_eq!(from_code(""), None);
    }

    #[test]
    fn deck_has_one_ace_and_crown_per_suit_and_each_suit_once_per_numeral_rank() {
        for s in 0..6u8 {
            assert_eq!(DECK[s as usize].suits, 1 << s);
            assert_eq!(DECK[30 + s as usize].suits, 1 << s);
            for r in 2..=9 {
                let n = DECK.iter().filter(|c| c.rank == r && c.suits & 1 << s != 0);
                assert_eq!(n.count(), 1, "rank {r} suit {}", SUIT_NAMES[s as usize]);
            }
        }
        assert!(DECK[6..30].iter().all(|c| c.suits.count_ones() == 2));
        assert_eq!(DECK[EXCUSE as usize].rank, 0);
    }

    #[test]
    fn hand_penalty_is_ace_15_numeral_rank_crown_10_excuse_0() {
        let hand = [0u8, 6, 23, 35, EXCUSE]
            .iter()
            .fold(0u64, |h, &c| h | 1 << c);
        assert_eq!(hand_penalty(hand), 15 + 2 + 7 + 10);
        assert_eq!(hand_penalty(0), 0);
    }

    #[test]
    fn nth_picks_cards_in_index_order() {
        let set = 1 << 3 | 1 << 7 | 1 << 36;
        assert_eq!([nth(set, 0), nth(set, 1), nth(set, 2)], [3, 7, 36]);
        for set in [
            deck(true),
            0x5555_5555_5555_5555,
            1 << 63 | 1,
            0xF0F0_0F0F_FF00_00FF,
        ] {
            let expected: Vec<Card> = cards(set).collect();
            let picked: Vec<Card> = (0..set.count_ones()).map(|k| nth(set, k)).collect();
            assert_eq!(picked, expected);
        }
    }
}
