//! Bitboards: a set of cells as the bits of an unsigned integer.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// An unsigned integer used as a set of cells (bit `i` = cell `i`).
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many cells fit.
    const CAPACITY: usize;
    const EMPTY: Self;
    fn cell(i: usize) -> Self;
    /// The cells `0..n`.
    fn first(n: usize) -> Self;
    fn count(self) -> u32;
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
    fn has(self, i: usize) -> bool {
        !(self & Self::cell(i)).is_empty()
    }
    /// The lowest cell; meaningless on an empty set.
    fn lowest(self) -> usize;
    /// The set without its lowest cell (empty stays empty).
    fn without_lowest(self) -> Self;
    /// The cells in increasing order.
    fn cells(self) -> CellIter<Self> {
        CellIter(self)
    }
    fn low_u64(self) -> u64;
    fn high_u64(self) -> u64;
    /// The set whose bits are `low`, then `high` (dropped where they do not fit).
    fn from_u64s(low: u64, high: u64) -> Self;
    /// The set as four 64-bit words, lowest first (zeros past the capacity).
    fn words(self) -> [u64; 4] {
        [self.low_u64(), self.high_u64(), 0, 0]
    }
    /// The set of `words` (as [`words`](Self::words) gives them).
    fn from_words(words: [u64; 4]) -> Self {
        Self::from_u64s(words[0], words[1])
    }
}

/// Iterates the cells of a bitboard in increasing order.
pub struct CellIter<B>(B);

impl<B: Bits> Iterator for CellIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(i)
    }
}

macro_rules! bits_for {
    ($t:ty) => {
        impl Bits for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const EMPTY: Self = 0;
            #[inline]
            fn cell(i: usize) -> Self {
                1 << i
            }
            #[inline]
            fn first(n: usize) -> Self {
                if n >= Self::CAPACITY {
                    !0
                } else {
                    (1 << n) - 1
                }
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn low_u64(self) -> u64 {
                self as u64
            }
            #[inline]
            #[allow(clippy::unnecessary_cast)]
            fn high_u64(self) -> u64 {
                ((self as u128) >> 64) as u64
            }
            #[inline]
            #[allow(clippy::unnecessary_cast)]
            fn from_u64s(low: u64, high: u64) -> Self {
                (low as u128 | (high as u128) << 64) as $t
            }
        }
    };
}
bits_for!(u64);
bits_for!(u128);

/// A set of up to 256 cells, as four 64-bit words (cell `i` is bit `i % 64` of word
/// `i / 64`): the bitboard of the boards too big for a `u128`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Bits256(pub [u64; 4]);

impl Ord for Bits256 {
    /// As the numbers the bits make: the highest word first.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl PartialOrd for Bits256 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

macro_rules! word_by_word {
    ($op:ident, $f:ident, $assign:ident, $fa:ident) => {
        impl $op for Bits256 {
            type Output = Self;
            #[inline]
            fn $f(self, other: Self) -> Self {
                let (a, b) = (self.0, other.0);
                Bits256([a[0].$f(b[0]), a[1].$f(b[1]), a[2].$f(b[2]), a[3].$f(b[3])])
            }
        }
        impl $assign for Bits256 {
            #[inline]
            fn $fa(&mut self, other: Self) {
                *self = self.$f(other);
            }
        }
    };
}
word_by_word!(BitAnd, bitand, BitAndAssign, bitand_assign);
word_by_word!(BitOr, bitor, BitOrAssign, bitor_assign);
word_by_word!(BitXor, bitxor, BitXorAssign, bitxor_assign);

impl Not for Bits256 {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Bits256(self.0.map(|w| !w))
    }
}

impl Bits for Bits256 {
    const CAPACITY: usize = 256;
    const EMPTY: Self = Bits256([0; 4]);
    #[inline]
    fn cell(i: usize) -> Self {
        let mut words = [0; 4];
        words[(i >> 6) & 3] = 1 << (i & 63);
        Bits256(words)
    }
    #[inline]
    fn first(n: usize) -> Self {
        Bits256(std::array::from_fn(|w| u64::first(n.saturating_sub(64 * w))))
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> usize {
        match self.0.iter().position(|&w| w != 0) {
            Some(w) => 64 * w + self.0[w].trailing_zeros() as usize,
            None => 256,
        }
    }
    #[inline]
    fn without_lowest(mut self) -> Self {
        if let Some(w) = self.0.iter_mut().find(|w| **w != 0) {
            *w &= *w - 1;
        }
        self
    }
    #[inline]
    fn low_u64(self) -> u64 {
        self.0[0]
    }
    #[inline]
    fn high_u64(self) -> u64 {
        self.0[1]
    }
    #[inline]
    fn from_u64s(low: u64, high: u64) -> Self {
        Bits256([low, high, 0, 0])
    }
    #[inline]
    fn words(self) -> [u64; 4] {
        self.0
    }
    #[inline]
    fn from_words(words: [u64; 4]) -> Self {
        Bits256(words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells_of<B: Bits>(cells: &[usize]) -> Vec<usize> {
        let set = cells.iter().fold(B::EMPTY, |s, &c| s | B::cell(c));
        set.cells().collect()
    }

    #[test]
    fn cells_are_listed_once_each_in_increasing_order_at_either_width() {
        let cells = [0, 1, 5, 31, 32, 63];
        assert_eq!(cells_of::<u64>(&cells), cells);
        assert_eq!(cells_of::<u128>(&cells), cells);
        let wide = [0, 62, 63, 64, 65, 100, 127];
        assert_eq!(cells_of::<u128>(&wide), wide);
        assert_eq!(cells_of::<u64>(&[]), Vec::<usize>::new());
        assert_eq!(u128::MAX.cells().count(), 128);
        assert_eq!(u64::cell(63).without_lowest(), 0);
    }

    #[test]
    fn a_256_bit_set_lists_cells_in_every_word_and_orders_as_a_number() {
        let cells = [0, 1, 63, 64, 127, 128, 200, 216, 255];
        assert_eq!(cells_of::<Bits256>(&cells), cells);
        assert_eq!(Bits256::first(217).count(), 217);
        assert_eq!(Bits256::first(217).cells().last(), Some(216));
        assert_eq!(Bits256::first(256), !Bits256::EMPTY);
        assert_eq!(Bits256::cell(130).lowest(), 130);
        assert!(Bits256::cell(200) > Bits256::cell(3) | Bits256::cell(199));
        let set = Bits256::cell(5) | Bits256::cell(190);
        assert_eq!(Bits256::from_words(set.words()), set);
        assert_eq!((set & !Bits256::cell(5)).cells().collect::<Vec<_>>(), [190]);
    }
}
