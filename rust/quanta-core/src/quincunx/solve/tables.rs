//! What the bounds derive from the scoring rules (computed once from `score_placement`
//! itself), and the bounds of one line's straights and sets ([`line_bonus`], [`line_max`],
//! [`line_pairs`], [`line_shares`], [`line_split`], [`runs_cap`]), memoised per thread.

use super::{CELLS, LINE_MEMO, LINE_PAIRS_MEMO, LINE_SPLIT_MEMO, SIDE};
use crate::quincunx::cards::{self, CARD_COUNT, Card, NO_CARD};
use crate::quincunx::scoring::score_placement;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// What the bounds need, computed once from `score_placement` itself (so they follow the
/// rules by construction).
pub(super) struct Tables {
    /// `edge[c][d]`: the points of placing `c` beside `d` on an otherwise empty grid (basic
    /// scoring and pair; sums 11 and 20 score nothing).
    pub(super) edge: [[i8; CARD_COUNT]; CARD_COUNT],
    /// `drawers[d]`: the cards whose placement beside `d` draws a card.
    pub(super) drawers: [u64; CARD_COUNT],
    /// `partners[c]`: the other cards by `edge[c][·]`, best first.
    pub(super) partners: [[Card; CARD_COUNT - 1]; CARD_COUNT],
    /// Orthogonal neighbours of each cell as a bit set.
    pub(super) neighbours: [u16; CELLS],
    /// The 24 orthogonal edges.
    pub(super) edges: [(u8, u8); 24],
    /// The rows then the columns, cells in line order.
    pub(super) lines: [[u8; SIDE]; 2 * SIDE],
}

pub(super) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut edge = [[0i8; CARD_COUNT]; CARD_COUNT];
        let mut drawers = [0u64; CARD_COUNT];
        for d in 0..CARD_COUNT as Card {
            let mut grid = [NO_CARD; CELLS];
            grid[0] = d;
            for c in 0..CARD_COUNT as Card {
                if c != d {
                    let p = score_placement(&grid, SIDE, false, c, 1);
                    edge[c as usize][d as usize] = p.points() as i8;
                    if p.draws > 0 {
                        drawers[d as usize] |= 1 << c;
                    }
                }
            }
        }
        let mut partners = [[0; CARD_COUNT - 1]; CARD_COUNT];
        for c in 0..CARD_COUNT {
            let mut others: Vec<Card> = (0..CARD_COUNT as Card)
                .filter(|&d| d as usize != c)
                .collect();
            others.sort_by_key(|&d| (-(edge[c][d as usize] as i32), d));
            partners[c].copy_from_slice(&others);
        }
        let mut neighbours = [0u16; CELLS];
        let mut edges = [(0, 0); 24];
        let mut e = 0;
        for x in 0..CELLS {
            let (r, c) = (x / SIDE, x % SIDE);
            if c + 1 < SIDE {
                edges[e] = (x as u8, (x + 1) as u8);
                e += 1;
            }
            if r + 1 < SIDE {
                edges[e] = (x as u8, (x + SIDE) as u8);
                e += 1;
            }
        }
        for &(a, b) in &edges {
            neighbours[a as usize] |= 1 << b;
            neighbours[b as usize] |= 1 << a;
        }
        let lines = std::array::from_fn(|l| {
            std::array::from_fn(|i| {
                if l < SIDE {
                    (l * SIDE + i) as u8
                } else {
                    (i * SIDE + l - SIDE) as u8
                }
            })
        });
        Tables {
            edge,
            drawers,
            partners,
            neighbours,
            edges,
            lines,
        }
    })
}

/// The cards of each rank (0 = the Excuse), in deck order.
fn rank_cards() -> &'static [Vec<Card>; 11] {
    static CARDS: OnceLock<[Vec<Card>; 11]> = OnceLock::new();
    CARDS.get_or_init(|| {
        std::array::from_fn(|r| {
            (0..CARD_COUNT as Card)
                .filter(|&c| cards::rank(c) as usize == r)
                .collect()
        })
    })
}

/// A thread's memo of a function of a `u64` key (see [`memoised`]).
type Memo<V> = std::thread::LocalKey<std::cell::RefCell<FxHashMap<u64, V>>>;

/// `compute()`, the value for `key`, memoised in this thread's `memo`, which is emptied when
/// it holds `cap` entries. `compute` may use the memo itself (the lines' bounds recurse).
pub(super) fn memoised<V: Copy>(
    memo: &'static Memo<V>,
    cap: usize,
    key: u64,
    compute: impl FnOnce() -> V,
) -> V {
    if let Some(v) = memo.with(|m| m.borrow().get(&key).copied()) {
        return v;
    }
    let v = compute();
    memo.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= cap {
            m.clear();
        }
        m.insert(key, v);
    });
    v
}

/// The most that straights and sets can still score along one 4-cell line (used for lines
/// with at most two empty cells), found by trying
/// every order and every rank of the cards to come (memoised by `key`). `key`: the line's cells in line order, 4
/// bits each (the rank, 15 = empty), then from bit 16, 3 bits per rank 0..=10, how many cards
/// of that rank could still come (at most 4). Bonuses depend only on ranks, so the line is
/// scored with stand-in cards of those ranks on the top row of an otherwise empty grid.
pub(super) fn line_bonus(key: u64) -> i32 {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, i32>> = Default::default();
    }
    memoised(&MEMO, LINE_MEMO, key, || {
        let by_rank = rank_cards();
        let mut used = [0usize; 11];
        let mut grid = [NO_CARD; CELLS];
        for (i, cell) in grid.iter_mut().take(SIDE).enumerate() {
            let r = (key >> (4 * i) & 15) as usize;
            if r != 15 {
                *cell = by_rank[r][used[r]];
                used[r] += 1;
            }
        }
        let mut supply = [0usize; 11];
        for (r, s) in supply.iter_mut().enumerate() {
            *s = ((key >> (16 + 3 * r) & 7) as usize).min(by_rank[r].len() - used[r]);
        }
        let mut v = 0;
        for x in 0..SIDE {
            if grid[x] != NO_CARD {
                continue;
            }
            for r in (0..11).filter(|&r| supply[r] > 0) {
                let p = score_placement(&grid, SIDE, false, by_rank[r][used[r]], x);
                let child = (key & !(15 << (4 * x))) | (r as u64) << (4 * x);
                let child = child & !(7 << (16 + 3 * r)) | ((supply[r] - 1) as u64) << (16 + 3 * r);
                v = v.max(p.straights + p.sets + line_bonus(child));
            }
        }
        v
    })
}

/// The most that straights and sets can score along one 4-cell line over every order of
/// placing its cells that are not placed yet. `key`: per cell 5 bits (bits 0-3 the rank, 15 =
/// a hole that any rank of the supply may fill; bit 4 = already placed), then from bit 20, 3
/// bits per rank 0..=10, how many cards of that rank could fill the holes (at most 4).
/// Bonuses depend only on ranks, so the line is scored with stand-in cards of those ranks on
/// the top row of an otherwise empty grid (only its placed cells present).
pub(super) fn line_max(key: u64) -> i32 {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, i32>> = Default::default();
    }
    memoised(&MEMO, LINE_MEMO, key, || {
        let by_rank = rank_cards();
        let mut used = [0usize; 11];
        let mut grid = [NO_CARD; CELLS];
        let mut ranks = [15usize; SIDE];
        for i in 0..SIDE {
            let f = (key >> (5 * i)) & 31;
            ranks[i] = (f & 15) as usize;
            if f & 16 != 0 {
                let r = ranks[i];
                grid[i] = by_rank[r][used[r].min(by_rank[r].len() - 1)];
                used[r] += 1;
            }
        }
        let mut v = 0;
        for x in 0..SIDE {
            let f = (key >> (5 * x)) & 31;
            if f & 16 != 0 {
                continue;
            }
            let placed = key | 16 << (5 * x);
            if ranks[x] != 15 {
                let r = ranks[x];
                let card = by_rank[r][used[r].min(by_rank[r].len() - 1)];
                let p = score_placement(&grid, SIDE, false, card, x);
                v = v.max(p.straights + p.sets + line_max(placed));
            } else {
                for r in 0..11 {
                    let s = (key >> (20 + 3 * r) & 7) as usize;
                    if s == 0 || used[r] >= by_rank[r].len() {
                        continue;
                    }
                    let p = score_placement(&grid, SIDE, false, by_rank[r][used[r]], x);
                    let child = (placed & !(15 << (5 * x))) | (r as u64) << (5 * x);
                    let child = child & !(7 << (20 + 3 * r)) | ((s - 1) as u64) << (20 + 3 * r);
                    v = v.max(p.straights + p.sets + line_max(child));
                }
            }
        }
        v
    })
}

/// [`line_max`] of a line with one hole, at line position `i0` (bits 56-57 of `key`), given
/// each rank in turn (0 for a rank the supply lacks). `key` as for [`line_max`], its supply
/// capped at one. Memoised by the line alone (in a memo of its own: read at most nodes, it
/// stays in the cache), so the supply of a node only picks among these.
pub(super) fn line_by_rank(key: u64) -> [i32; 11] {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, [i32; 11]>> = Default::default();
    }
    let i0 = (key >> 56 & 3) as usize;
    let line = key & ((1 << 20) - 1);
    let line_key = line | (i0 as u64) << 56;
    let first: [i32; 11] = memoised(&MEMO, LINE_PAIRS_MEMO, line_key, || {
        std::array::from_fn(|r| line_max((line & !(31 << (5 * i0))) | (r as u64) << (5 * i0)))
    });
    std::array::from_fn(|r| {
        if key >> (20 + 3 * r) & 7 == 0 {
            0
        } else {
            first[r]
        }
    })
}

/// For a line with one or two holes (`key`: the line as for [`line_max`], no supply, the
/// hole at line position `i0` in bits 56-57): [`line_max`] with rank `r` at `i0` and rank
/// `q` at the other hole, as `[r][q]` (`[r][0]` with one hole). Memoised by the line alone,
/// so the supply of a node only picks among these.
pub(super) fn line_pairs(key: u64) -> [[i32; 11]; 11] {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, [[i32; 11]; 11]>> = Default::default();
    }
    memoised(&MEMO, LINE_PAIRS_MEMO, key, || {
        let i0 = (key >> 56 & 3) as usize;
        let line = key & ((1 << 20) - 1);
        let other = (0..SIDE).find(|&i| i != i0 && line >> (5 * i) & 31 == 15);
        let mut out = [[0i32; 11]; 11];
        for (r, row) in out.iter_mut().enumerate() {
            let k = (line & !(31 << (5 * i0))) | (r as u64) << (5 * i0);
            match other {
                None => row[0] = line_max(k),
                Some(j) => {
                    for (q, v) in row.iter_mut().enumerate() {
                        *v = line_max((k & !(31 << (5 * j))) | (q as u64) << (5 * j));
                    }
                }
            }
        }
        out
    })
}

/// The shares of a line with three or four holes (`key` as for [`line_max`]), per cell of
/// the line and rank, in half points: for a hole and a rank, twice the most the line scores
/// with that rank there, divided by the number of holes and rounded up (0 for a cell that is
/// not a hole). Whatever ranks the holes take, their shares add up to at least the line's
/// value: each is at least its part of it. Memoised by `key`.
pub(super) fn line_shares(key: u64) -> [[i32; 11]; SIDE] {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, [[i32; 11]; SIDE]>> =
            Default::default();
    }
    memoised(&MEMO, LINE_MEMO, key, || {
        let ranks: [u8; SIDE] = std::array::from_fn(|i| (key >> (5 * i) & 15) as u8);
        let mut supply: [u8; 11] = std::array::from_fn(|r| (key >> (20 + 3 * r) & 7) as u8);
        let n = ranks.iter().filter(|&&r| r == 15).count() as i32;
        let mut out = [[0i32; 11]; SIDE];
        for i in (0..SIDE).filter(|&i| ranks[i] == 15) {
            for r in 0..11 {
                if supply[r] == 0 {
                    continue;
                }
                let mut given = ranks;
                given[i] = r as u8;
                supply[r] -= 1;
                out[i][r] = (2 * runs_cap(given, &supply) + n - 1) / n;
                supply[r] += 1;
            }
        }
        out
    })
}

/// [`split_pair`] of a line with two holes, memoised by `key`: the line as for [`line_max`]
/// with its supply (capped at 2 per rank), its first hole's position in bits 56-57.
pub(super) fn line_split(key: u64) -> ([i32; 11], [i32; 11]) {
    thread_local! {
        static MEMO: std::cell::RefCell<FxHashMap<u64, ([i32; 11], [i32; 11])>> =
            Default::default();
    }
    memoised(&MEMO, LINE_SPLIT_MEMO, key, || {
        let pairs = line_pairs(key & ((1 << 20) - 1) | key & 3 << 56);
        let count = std::array::from_fn(|r| (key >> (20 + 3 * r) & 7) as u8);
        let out = split_pair(&pairs, &count);
        out
    })
}

/// Half-point shares `(a, b)` of a line with two holes, `pairs[r][q]` its most with rank `r`
/// at its first hole and `q` at its second, the holes filled from `count` (cards per rank):
/// `a[r] + b[q] >= 2 * pairs[r][q]` for every pair of ranks the supply allows, so that the
/// assignment of [`Grids::search`](super::grids::Grids::search) counts the line at most at its value. From the even split
/// (each hole its best with any rank at the other, `max_q pairs[r][q]` and the like), each
/// share is lowered to the least the other allows, first `b` then `a`: no share grows, and a
/// hole whose rank fits no pair at the other is no longer counted at the best the line could
/// reach (5 6 _ _ : 20 to a 7 and 20 to an 8 at the last hole, nothing to another rank there).
pub(super) fn split_pair(pairs: &[[i32; 11]; 11], count: &[u8; 11]) -> ([i32; 11], [i32; 11]) {
    let fits = |r: usize, q: usize| count[r] > 0 && count[q] > u8::from(q == r);
    let mut a = [0i32; 11];
    for (r, ar) in a.iter_mut().enumerate() {
        *ar = (0..11)
            .filter(|&q| fits(r, q))
            .map(|q| pairs[r][q])
            .max()
            .unwrap_or(0);
    }
    let mut b = [0i32; 11];
    for (q, bq) in b.iter_mut().enumerate() {
        *bq = (0..11)
            .filter(|&r| fits(r, q))
            .map(|r| 2 * pairs[r][q] - a[r])
            .max()
            .unwrap_or(0);
    }
    for (r, ar) in a.iter_mut().enumerate() {
        *ar = (0..11)
            .filter(|&q| fits(r, q))
            .map(|q| 2 * pairs[r][q] - b[q])
            .max()
            .unwrap_or(0);
    }
    (a, b)
}

/// An upper bound of the straights and sets one 4-cell line can still score, from what its
/// final ranks can be: `ranks` in line order (15 = a hole), the holes filled from `supply`
/// (cards per rank). A line scores at most twice (its third and fourth card): 60 takes four
/// of a rank (two sets), 40 four ranks in a row (a straight, then its extension); one bonus
/// takes three cells in a row making a set (30) or a straight (20). The Excuse (rank 0) is in
/// no run.
pub(super) fn runs_cap(ranks: [u8; SIDE], supply: &[u8; 11]) -> i32 {
    // Can cells `from..from + len` take ranks `want(i)`?
    let fits = |from: usize, len: usize, want: &dyn Fn(usize) -> i32| -> bool {
        let mut need = [0u8; 11];
        for i in from..from + len {
            let w = want(i);
            if !(1..=10).contains(&w) {
                return false;
            }
            if ranks[i] == 15 {
                need[w as usize] += 1;
            } else if ranks[i] as i32 != w {
                return false;
            }
        }
        (0..11).all(|r| need[r] <= supply[r])
    };
    let mut best = 0;
    for r in 1..=10i32 {
        if fits(0, SIDE, &|_| r) {
            return 60;
        }
        for step in [1i32, -1] {
            if fits(0, SIDE, &|i| r + step * i as i32) {
                best = best.max(40);
            }
        }
        for from in 0..=SIDE - 3 {
            if fits(from, 3, &|_| r) {
                best = best.max(30);
            }
            for step in [1i32, -1] {
                if fits(from, 3, &|i| r + step * (i - from) as i32) {
                    best = best.max(20);
                }
            }
        }
    }
    best
}

/// Whether the full grid has a run of three or more (equal ranks, or ranks stepping by one)
/// through `x` along its row or its column.
pub(super) fn run_through(grid: &[Card; CELLS], x: usize) -> bool {
    let t = tables();
    let (r, c) = (x / SIDE, x % SIDE);
    for line in [&t.lines[r], &t.lines[SIDE + c]] {
        let pos = line.iter().position(|&y| y as usize == x).unwrap();
        let rank = |i: usize| {
            let card = grid[line[i] as usize];
            if card == NO_CARD || card == 36 {
                None
            } else {
                Some(cards::rank(card) as i32)
            }
        };
        for step in [0, 1, -1] {
            // The longest run through `pos` where each next rank is the previous plus `step`.
            let mut lo = pos;
            while lo > 0 && matches!((rank(lo - 1), rank(lo)), (Some(a), Some(b)) if b - a == step)
            {
                lo -= 1;
            }
            let mut hi = pos;
            while hi + 1 < SIDE
                && matches!((rank(hi), rank(hi + 1)), (Some(a), Some(b)) if b - a == step)
            {
                hi += 1;
            }
            if rank(pos).is_some() && hi - lo + 1 >= 3 {
                return true;
            }
        }
    }
    false
}
