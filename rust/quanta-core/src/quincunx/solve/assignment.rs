//! The assignment bound of the search over final grids: the best assignment of distinct
//! cards to the empty cells (Hungarian method) and its dual potentials, with which a
//! child's is cut at once where its parent's column potentials show the cut.

use super::CELLS;
use smallvec::SmallVec;

/// Optimal dual potentials of an assignment problem: `w[i][j] <= row[i] + column[j]` for
/// every row and column, `column[j] >= 0`, and they sum to the best total.
pub(super) struct Duals {
    pub(super) row: [i32; CELLS],
    pub(super) column: [i32; 40],
}

impl Default for Duals {
    fn default() -> Self {
        Duals {
            row: [0; CELLS],
            column: [0; 40],
        }
    }
}

impl Duals {
    /// A lower bound of what the best total loses when row `i` gets column `j`: any
    /// assignment doing so totals at most the best total less this.
    pub(super) fn reduced_cost(&self, w: &[[i32; 40]], i: usize, j: usize) -> i32 {
        self.row[i] + self.column[j] - w[i][j]
    }
}

/// The largest total weight of giving each row of `w` a distinct column among the first `m`
/// (Hungarian method, rows <= m), and optimal dual potentials; or, as soon as the potentials
/// show that it is at most `cut`, that bound (at most `cut`, at least the largest weight)
/// and no potentials. `start`: column potentials (at least 0) that show the cut at once
/// when they can, such as the parent node's (rows and columns of a child are its parent's,
/// one of each fewer, with some weights changed: they stay feasible with each row's
/// potential raised to fit).
pub(super) fn assignment(w: &[[i32; 40]], m: usize, cut: i32, start: &[i32]) -> (i32, Duals) {
    let n = w.len();
    let mut duals = Duals::default();
    if n == 0 {
        return (0, duals);
    }
    if start.iter().any(|&h| h != 0) {
        let rows: i32 = w
            .iter()
            .map(|row| (0..m).map(|j| row[j] - start[j]).max().expect("a column"))
            .sum();
        let bound = rows + start[..m].iter().sum::<i32>();
        if bound <= cut {
            return (bound, duals);
        }
    }
    assert!(n <= m && m <= 40 && n <= CELLS);
    const INF: i32 = i32::MAX / 4;
    // Above every reduced cost a free column can have: the columns already on the path
    // are kept this high, so that one pass over all columns finds the cheapest free one
    // without asking which columns are on the path; the potentials of those on it are
    // then updated from their list (deal 2: 10.94 G -> 10.62 G instructions).
    const ON_PATH: i32 = i32::MAX / 2;
    // The textbook O(n^2 m) method minimising the cost -w, rows 1-based, column `m` the
    // virtual column the path to a free column starts from. Each row's potential starts at
    // its cheapest column (feasible, and most rows then find a free column at once).
    let mut u = [0i32; CELLS + 1];
    let mut v = [0i32; 40];
    // The row of each column (0: free), and each column's predecessor on the path.
    let mut p = [0usize; 41];
    let mut way = [0u32; 40];
    for i in 1..=n {
        u[i] = -w[i - 1][..m].iter().copied().max().expect("a column");
    }
    for i in 1..=n {
        p[m] = i;
        let mut j0 = m;
        let mut minv = [INF; 40];
        let mut blocked = [0i32; 40];
        let mut path: SmallVec<[usize; 16]> = SmallVec::new();
        loop {
            let i0 = p[j0];
            let row = &w[i0 - 1][..m];
            let ui = u[i0];
            let mut delta = INF;
            for (j, &wj) in row.iter().enumerate() {
                let cur = -wj - ui - v[j] + blocked[j];
                let nearer = cur < minv[j];
                minv[j] = if nearer { cur } else { minv[j] };
                way[j] = if nearer { j0 as u32 } else { way[j] };
                delta = delta.min(minv[j]);
            }
            let j1 = minv[..m]
                .iter()
                .position(|&c| c == delta)
                .expect("a free column");
            u[i] += delta;
            for &j in path.iter() {
                u[p[j]] += delta;
                v[j] -= delta;
            }
            for c in minv[..m].iter_mut() {
                *c -= delta;
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
            path.push(j0);
            blocked[j0] = ON_PATH;
            minv[j0] = ON_PATH;
        }
        loop {
            let j1 = way[j0] as usize;
            p[j0] = p[j1];
            j0 = j1;
            if j0 == m {
                break;
            }
        }
        // The potentials stay feasible for every row (those not reached yet keep their
        // cheapest column, and column potentials only fall), so by weak duality the
        // assignment weighs at most minus their sum.
        if i < n {
            let bound = -(u[1..=n].iter().sum::<i32>() + v[..m].iter().sum::<i32>());
            if bound <= cut {
                return (bound, Duals::default());
            }
        }
    }
    let mut total = 0;
    for j in 0..m {
        if p[j] != 0 {
            total += w[p[j] - 1][j];
        }
    }
    // The method keeps u[i] + v[j] <= -w[i][j], v[j] <= 0 (0 for a column left out), with
    // equality on the assignment found.
    for i in 0..n {
        duals.row[i] = -u[i + 1];
    }
    for j in 0..m {
        duals.column[j] = -v[j];
    }
    (total, duals)
}
