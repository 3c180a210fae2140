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
}
