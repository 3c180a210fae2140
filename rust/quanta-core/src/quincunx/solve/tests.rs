//! Unit tests of the solitaire Quincunx solvers.

use super::assignment::assignment;
use super::fill::Fill;
use super::grids::{Bests, FirstGrid, Given, Grids, LOWEST_PRICE, prices};
use super::open::{Node, Open, solve_open_with};
use super::solitaire::{bits, replay};
use super::tables::{line_bonus, line_max, line_shares, split_pair, tables};
use super::{NEG_INF, meter};
use crate::error::Error;
use crate::game::row_rng;
use crate::quincunx::cards::{self, CARD_COUNT, Card, NO_CARD};
use crate::search::{Context, in_pool};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use super::*;
use rand::Rng as _;

fn no_limits() -> Limits {
    Limits::default()
}

/// What a finished game counts: its final score, or only its points when it is lost.
fn ended_score(end: &Solitaire) -> i32 {
    if end.lost() {
        end.points
    } else {
        end.final_score()
    }
}

/// Plain exhaustive search: the best (won, score) over every line.
/// Every end of the game from `pos` (each line of placements, the pile drawn in `order`
/// from position `drawn`), with the number of cards drawn on the way.
fn each_end(pos: &Solitaire, order: &[Card], drawn: usize, f: &mut impl FnMut(&Solitaire, usize)) {
    if pos.is_over() {
        f(pos, drawn);
        return;
    }
    for a in pos.actions() {
        let mut next = *pos;
        let (card, cell) = Solitaire::split(a);
        let (_, draws) = next.place(card, cell);
        let take = (draws as usize).min(order.len() - drawn);
        for &c in &order[drawn..drawn + take] {
            next.draw(c);
        }
        each_end(&next, order, drawn + take, f);
    }
}

fn brute(pos: &Solitaire, order: &[Card]) -> (bool, i32) {
    let mut best = (false, i32::MIN);
    each_end(pos, order, 0, &mut |end, _| {
        best = best.max((!end.lost(), ended_score(end)))
    });
    best
}

/// Deal `row` played greedily until `empty` cells remain (the order's rest returned).
fn late(row: u64, empty: u32) -> (Solitaire, Vec<Card>) {
    let (mut pos, order) = deal(7, row, row % 3 == 0);
    let order = advance_greedily(&mut pos, &order, empty);
    (pos, order)
}

/// `s`, an open solution of `pos` with the pile `order` (deal `row`), reaches the best
/// outcome of the exhaustive search, and its line, replayed, ends the game as it claims.
fn assert_best_line(pos: &Solitaire, order: &[Card], s: &OpenSolution, row: u64) {
    let (won, score) = brute(pos, order);
    assert_eq!((!s.lost, s.score), (won, score), "deal {row}");
    let end = replay(pos, order, &s.line).unwrap();
    assert!(end.is_over());
    assert_eq!(end.lost(), s.lost);
    assert_eq!(
        ended_score(&end),
        s.score,
        "deal {row}: the line scores what was claimed"
    );
}

/// `f`, a fill answer for `pos` with the pile `order`, is right about whether the grid can
/// be filled (`fillable`), and its line, replayed, fills it.
fn assert_fill(pos: &Solitaire, order: &[Card], f: &FillSolution, fillable: bool, row: u64) {
    assert_eq!(f.line.is_some(), fillable, "deal {row}");
    if let Some(line) = &f.line {
        let end = replay(pos, order, line).unwrap();
        assert_eq!(end.empty(), 0, "deal {row}: the line fills the grid");
    }
}

#[test]
fn drawing_depends_only_on_the_ranks() {
    // The rule fill_open's memory rests on: a neighbour sum of 11 or 20 draws, whatever
    // the suits (the Excuse, without rank, never draws).
    let t = tables();
    for c in 0..CARD_COUNT as Card {
        for d in 0..CARD_COUNT as Card {
            let sum = cards::rank(c) + cards::rank(d);
            let draws =
                c != d && c != cards::EXCUSE && d != cards::EXCUSE && (sum == 11 || sum == 20);
            assert_eq!(t.drawers[d as usize] & 1 << c != 0, draws, "{c} beside {d}");
        }
    }
}

#[test]
fn fill_matches_exhaustive_search_on_late_positions() {
    let cancel = AtomicBool::new(false);
    let mut unfillable = 0;
    for row in 0..80 {
        let (pos, order) = late(row, 3 + (row % 3) as u32);
        let (won, _) = brute(&pos, &order);
        let f = fill_open(&pos, &order, &Context::new(no_limits(), None, &cancel)).unwrap();
        assert_fill(&pos, &order, &f, won, row);
        unfillable += usize::from(!won);
    }
    assert!(
        unfillable >= 10,
        "the positions include lost ones ({unfillable})"
    );
}

#[test]
fn fill_agrees_with_the_open_solve_on_larger_positions() {
    let cancel = AtomicBool::new(false);
    let mut unfillable = 0;
    for row in 0..40 {
        let (pos, order) = late(row, 6 + (row % 3) as u32);
        let s = solve_open(&pos, &order, &Context::new(no_limits(), None, &cancel)).unwrap();
        let f = fill_open(&pos, &order, &Context::new(no_limits(), None, &cancel)).unwrap();
        assert_fill(&pos, &order, &f, !s.lost, row);
        unfillable += usize::from(s.lost);
    }
    assert!(
        unfillable >= 5,
        "the positions include lost ones ({unfillable})"
    );
}

#[test]
fn dead_positions_remembered_by_ranks_hide_no_line() {
    // fill_open remembers a position from which no line fills the grid by the rank on each
    // cell. A search that remembers nothing must find no line where it found none: on
    // these deals a key coarser than the ranks (occupied or not) wrongly loses some.
    let cancel = AtomicBool::new(false);
    let limits = Limits {
        max_nodes: Some(200_000),
        ..Limits::default()
    };
    let (mut lost, mut checked) = (0, 0);
    for row in 6300..6400 {
        let (pos, order) = deal(0, row, false);
        if fill_open(&pos, &order, &Context::new(no_limits(), None, &cancel))
            .unwrap()
            .line
            .is_some()
        {
            continue;
        }
        lost += 1;
        let mut forgetful = Fill::new(&order, 0, &limits, &cancel);
        match forgetful.search(&mut pos.grid.clone(), pos.hand, 0) {
            Ok(filled) => {
                assert!(!filled, "deal {row}: a line fills the grid");
                checked += 1;
            }
            Err(Error::SearchLimit { .. }) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert!(
        checked >= 1 && checked == lost,
        "{checked} of {lost} lost deals checked"
    );
}

#[test]
fn fill_stops_at_its_node_limit() {
    let (pos, order) = deal(3, 0, false);
    let limits = Limits {
        max_nodes: Some(0),
        ..Limits::default()
    };
    let got = fill_open(
        &pos,
        &order,
        &Context::new(limits.clone(), None, &AtomicBool::new(false)),
    );
    assert!(matches!(got, Err(Error::SearchLimit { .. })), "{got:?}");
}

#[test]
fn open_solve_matches_exhaustive_search_on_late_positions() {
    let cancel = AtomicBool::new(false);
    for row in 0..60 {
        let (pos, order) = late(row, 4 + (row % 2) as u32);
        let s = solve_open(&pos, &order, &Context::new(no_limits(), None, &cancel)).unwrap();
        assert_best_line(&pos, &order, &s, row);
    }
}

#[test]
fn the_best_loss_is_the_exhaustive_one_where_no_line_fills_the_grid() {
    // A grid that no line fills is known from the first fill: the best loss then comes
    // from the grids lost lines leave (their empty cells as the Excuse), and must be
    // the exhaustive one.
    let cancel = AtomicBool::new(false);
    let mut lost = 0;
    for row in 0..400 {
        let (pos, order) = late(row, 6);
        let filled = fill_open(&pos, &order, &Context::new(no_limits(), None, &cancel)).unwrap();
        if pos.is_over() || filled.line.is_some() {
            continue;
        }
        let s = solve_open(&pos, &order, &Context::new(no_limits(), None, &cancel)).unwrap();
        assert!(s.lost, "deal {row}");
        assert_best_line(&pos, &order, &s, row);
        // `quick` = 0: straight to the search over the grids lost lines leave.
        let s = solve_open_with(&pos, &order, &no_limits(), &cancel, 0).unwrap();
        assert_best_line(&pos, &order, &s, row);
        lost += 1;
    }
    assert!(lost >= 50, "{lost} positions that cannot be filled");
}

#[test]
fn the_bound_of_a_grid_no_line_fills_covers_its_best_loss() {
    // Along random lines from positions that no line fills, the sequence search's bound
    // once that is known (counting only the cards a lost line holds or draws, and as
    // many cells) is at least the best points any line still scores.
    let cancel = AtomicBool::new(false);
    let mut rng = <crate::game::Rng as rand::SeedableRng>::seed_from_u64(5);
    let (mut checked, mut tight) = (0, 0);
    for row in 0..400 {
        let (mut pos, order) = late(row, 4 + (row % 4) as u32);
        let filled = fill_open(&pos, &order, &Context::new(no_limits(), None, &cancel)).unwrap();
        if pos.is_over() || filled.line.is_some() {
            continue;
        }
        let mut drawn = 0;
        while !pos.is_over() {
            let rest = &order[drawn..];
            let budget = meter("test", &no_limits(), &cancel, Instant::now(), None);
            let mut open = Open::new(rest, budget);
            open.fillable = false;
            let bound = open.bound(&Node::new(pos.grid, pos.hand));
            let (won, best) = brute(&pos, rest);
            let future = best - pos.points;
            assert!(
                !won && bound >= future,
                "deal {row}: bound {bound}, best {future}"
            );
            checked += 1;
            tight += usize::from(bound == future);
            let actions = pos.actions();
            let (card, cell) = Solitaire::split(actions[rng.random_range(0..actions.len())]);
            let (_, draws) = pos.place(card, cell);
            let take = (draws as usize).min(rest.len());
            for &c in &rest[..take] {
                pos.draw(c);
            }
            drawn += take;
        }
    }
    assert!(
        checked >= 100 && tight >= 5,
        "{checked} positions, {tight} tight"
    );
}

#[test]
fn a_later_search_by_draws_need_not_find_a_grid_as_good_as_an_earlier_ones() {
    // Of equal grids the answer is the one making the fewest draws: a search for more
    // draws cuts at the best met so far, one for fewer (or the same) only below it.
    let bests = Bests::new(100);
    assert_eq!(bests.bar(5), 100, "nothing met yet: the floor");
    bests.found(150, 5);
    assert_eq!((bests.bar(4), bests.bar(5), bests.bar(6)), (149, 149, 150));
    bests.found(150, 3);
    assert_eq!((bests.bar(3), bests.bar(4), bests.bar(6)), (149, 150, 150));
    bests.found(140, 1);
    assert_eq!(
        (bests.bar(1), bests.bar(2)),
        (149, 149),
        "a lower value changes nothing"
    );
    bests.found(160, 9);
    assert_eq!((bests.bar(3), bests.bar(10)), (159, 160));
}

#[test]
fn grid_search_matches_exhaustive_search_on_late_positions() {
    // `quick` = 0: straight to the search over final grids and their orders.
    let cancel = AtomicBool::new(false);
    for row in 0..60 {
        let (pos, order) = late(row, 4 + (row % 3) as u32);
        let s = solve_open_with(&pos, &order, &no_limits(), &cancel, 0).unwrap();
        assert_best_line(&pos, &order, &s, row);
    }
}

#[test]
fn a_polished_grid_is_played_by_a_line_that_scores_its_value() {
    // The polish gives the search over final grids its floor, so its value must be one
    // that a line reaches: never above the exhaustive best, and scored exactly.
    let cancel = AtomicBool::new(false);
    let (mut polished, mut improved) = (0, 0);
    for row in 0..60 {
        let (pos, order) = late(row, 5 + (row % 2) as u32);
        let root = Node::new(pos.grid, pos.hand);
        let FirstGrid::Found(first) =
            Grids::first_grid(&order, &root, &no_limits(), &cancel, &AtomicU64::new(0)).unwrap()
        else {
            continue;
        };
        let shared = Bests::new(NEG_INF);
        let budget = meter("test", &no_limits(), &cancel, Instant::now(), None);
        let mut grids = Grids::new(&order, budget, &root, &shared, 0, 0);
        let start = grids
            .full_value(&first, NEG_INF)
            .unwrap()
            .expect("a played grid");
        let (value, grid) = grids.polish(first, 2000, row).unwrap();
        assert_eq!(
            grids.polish(first, 2000, row).unwrap(),
            (value, grid),
            "deal {row}"
        );
        assert!(value >= start);
        improved += usize::from(value > start);
        let (_, line) = grids.orders(&grid).unwrap().expect("a playable grid");
        let end = replay(&pos, &order, &line).unwrap();
        assert_eq!(end.empty(), 0, "deal {row}: the line fills the grid");
        assert_eq!(end.final_score() - pos.points, value, "deal {row}");
        let (won, best) = brute(&pos, &order);
        assert!(won && end.final_score() <= best, "deal {row}");
        polished += 1;
    }
    assert!(
        polished >= 15 && improved >= 5,
        "{polished} polished, {improved} improved"
    );
}

#[test]
fn grids_drawing_a_given_number_of_cards_are_bounded_at_every_price_of_a_draw() {
    // The search over final grids runs once per number of draws the grid makes, and
    // bounds those grids with every draw still to make priced into the edges that draw
    // (and the price of them all taken off again). The bound must hold at every price,
    // negative ones included, unless the pile runs out (then only prices of zero or more).
    let cancel = AtomicBool::new(false);
    let mut checked = 0;
    for row in 0..30 {
        let (pos, order) = late(row, 4 + (row % 2) as u32);
        // The best final score of the lines that fill the grid, per number of cards drawn.
        let mut best = vec![i32::MIN; order.len() + 1];
        each_end(&pos, &order, 0, &mut |end, drawn| {
            if !end.lost() {
                best[drawn] = best[drawn].max(ended_score(end));
            }
        });
        let root = Node::new(pos.grid, pos.hand);
        let shared = Bests::new(NEG_INF);
        for (d, &score) in best.iter().enumerate() {
            if score == i32::MIN {
                continue;
            }
            let budget = meter("test", &no_limits(), &cancel, Instant::now(), None);
            let grids = Grids::new(&order, budget, &root, &shared, 0, d);
            let lowest = if d == order.len() {
                (-LOWEST_PRICE) as usize
            } else {
                0
            };
            assert_eq!(grids.lowest_price, lowest);
            let avail = grids.hand | grids.prefix[d];
            let fits = grids
                .cards_within_draws(&pos.grid, avail, 0)
                .expect("a grid makes these draws");
            for p in lowest..prices().len() {
                let bound = grids
                    .relax(&pos.grid, &Given::default(), p, &[0; CARD_COUNT], &fits)
                    .bound();
                assert!(
                    bound >= score - pos.points,
                    "deal {row}, {d} draws, price {}: bound {bound} below the grid's {}",
                    prices()[p].lambda,
                    score - pos.points
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked} bounds checked");
}

#[test]
fn every_grid_making_the_draws_keeps_its_cards_among_those_that_fit() {
    // `cards_within_draws` rules out a card on a cell when the grid could then no longer
    // make exactly the draws searched for (too many already, or too few within reach).
    // Along the cells of every filled end grid, in cell order, each of its cards must
    // still fit where it lies, for the number of cards the line drew. Every other deal
    // has a pile of one to four cards, so that grids drawing past its end (allowed) are
    // met too.
    let cancel = AtomicBool::new(false);
    let t = tables();
    let (mut checked, mut past_the_pile) = (0, 0);
    for row in 0..40 {
        let (pos, mut order) = late(row, 4 + (row % 3) as u32);
        if row % 2 == 1 {
            order.truncate(1 + (row as usize / 2) % 4);
        }
        let root = Node::new(pos.grid, pos.hand);
        let shared = Bests::new(NEG_INF);
        let mut ends = Vec::new();
        each_end(&pos, &order, 0, &mut |end, drawn| {
            if !end.lost() {
                ends.push((end.grid, drawn));
            }
        });
        for (end, d) in ends {
            let budget = meter("test", &no_limits(), &cancel, Instant::now(), None);
            let grids = Grids::new(&order, budget, &root, &shared, 0, d);
            let mut grid = pos.grid;
            let (mut used, mut draws) = (0u64, 0usize);
            for x in (0..CELLS).filter(|&x| pos.grid[x] == NO_CARD) {
                let avail = (grids.hand | grids.prefix[d]) & !used;
                let fits = grids.cards_within_draws(&grid, avail, draws);
                let c = end[x];
                assert!(
                    fits.is_some_and(|f| f[x] & 1 << c != 0),
                    "deal {row}, {d} draws: {} ruled out on cell {x}",
                    cards::code(c)
                );
                checked += 1;
                for m in bits(t.neighbours[x] as u64) {
                    if grid[m] != NO_CARD && t.drawers[grid[m] as usize] & 1 << c != 0 {
                        draws += 1;
                    }
                }
                grid[x] = c;
                used |= 1 << c;
            }
            past_the_pile += usize::from(draws > order.len());
        }
    }
    assert!(checked > 1000, "{checked} placements checked");
    assert!(
        past_the_pile > 10,
        "{past_the_pile} grids drawing past the pile"
    );
}

#[test]
fn the_searches_by_number_of_draws_give_the_same_line_at_any_thread_count() {
    // The final grids are searched once per number of draws, in parallel, sharing the
    // best value found. Equal grids in several searches: the one making the fewest draws
    // wins; within a search, the first by its cards cell by cell (a search for more
    // draws need not look for its own), so the line never depends on which search
    // finishes first, nor on the order a search meets its grids in.
    let cancel = AtomicBool::new(false);
    let mut ties = 0;
    // Rows 131 and 143 have such equal grids.
    for row in (0..30).chain([131, 143]) {
        let (pos, order) = late(row, 5 + (row % 3) as u32);
        let solve = |threads| {
            in_pool(Some(threads), || {
                solve_open_with(&pos, &order, &no_limits(), &cancel, 0).unwrap()
            })
            .unwrap()
        };
        let one = solve(1);
        for threads in [2, 3] {
            let many = solve(threads);
            assert_eq!(
                (one.lost, one.score, &one.line),
                (many.lost, many.score, &many.line),
                "deal {row}, {threads} threads"
            );
        }
        // The best grid of each number of draws, searched alone: the line makes the
        // fewest draws of those that reach its score. On several threads the subtrees of
        // the first cell are tasks of their own; of their equal grids, the first by its
        // cards is the search's, as on one thread.
        let end = replay(&pos, &order, &one.line).unwrap();
        let drawn = (pos.pile.count_ones() - end.pile.count_ones()) as usize;
        let root = Node::new(pos.grid, pos.hand);
        let best_of = |d, threads| {
            in_pool(Some(threads), || {
                let shared = Bests::new(NEG_INF);
                let budget = meter("test", &no_limits(), &cancel, Instant::now(), None);
                let mut grids = Grids::new(&order, budget, &root, &shared, 0, d);
                grids.best_grid().unwrap()
            })
            .unwrap()
        };
        let reaching: Vec<usize> = (0..=order.len())
            .filter(|&d| {
                let best = best_of(d, 1);
                assert_eq!(best, best_of(d, 3), "deal {row}, {d} draws");
                best.is_some_and(|(v, _)| pos.points + v == one.score)
            })
            .collect();
        if !one.lost {
            assert_eq!(reaching.first(), Some(&drawn), "deal {row}");
        }
        ties += usize::from(reaching.len() > 1);
    }
    assert_eq!(ties, 2, "deals with equal grids making different draws");
}

#[test]
fn grid_search_agrees_with_the_sequence_search() {
    // Positions with 7 empty cells: too big for the exhaustive search, both exact searches
    // must agree.
    let cancel = AtomicBool::new(false);
    for row in 0..12 {
        let (pos, order) = late(row, 7);
        let a = solve_open_with(&pos, &order, &no_limits(), &cancel, 0).unwrap();
        let b = solve_open_with(&pos, &order, &no_limits(), &cancel, u64::MAX).unwrap();
        assert_eq!((a.lost, a.score), (b.lost, b.score), "deal {row}");
        let end = replay(&pos, &order, &a.line).unwrap();
        assert!(end.is_over());
        assert_eq!(ended_score(&end), a.score, "deal {row}");
    }
}

#[test]
fn bad_orders_are_rejected() {
    let cancel = AtomicBool::new(false);
    let (pos, mut order) = deal(1, 0, false);
    order.pop();
    assert!(matches!(
        solve_open(&pos, &order, &Context::new(no_limits(), None, &cancel)),
        Err(Error::InvalidNotation(_))
    ));
    order.push(order[0]);
    assert!(matches!(
        solve_open(&pos, &order, &Context::new(no_limits(), None, &cancel)),
        Err(Error::InvalidNotation(_))
    ));
}

#[test]
fn node_limit_stops_a_fresh_deal() {
    let cancel = AtomicBool::new(false);
    let (pos, order) = deal(1, 0, false);
    let limits = Limits {
        max_nodes: Some(100),
        ..Limits::default()
    };
    assert!(matches!(
        solve_open(&pos, &order, &Context::new(limits.clone(), None, &cancel)),
        Err(Error::SearchLimit { .. })
    ));
}

#[test]
fn assignment_reduced_costs_bound_the_assignments_with_a_pairing_fixed() {
    // Brute force over small random weight tables: the best assignment is found, and
    // giving row i column j loses at least the pairing's reduced cost.
    fn best(w: &[[i32; 40]], m: usize, row: usize, used: u64) -> i32 {
        if row == w.len() {
            return 0;
        }
        (0..m)
            .filter(|&j| used & 1 << j == 0)
            .map(|j| w[row][j] + best(w, m, row + 1, used | 1 << j))
            .max()
            .unwrap_or(NEG_INF)
    }
    let mut rng = row_rng(5, 0);
    for _ in 0..300 {
        let n = rng.random_range(1..=4);
        let m = rng.random_range(n..=7);
        let w: Vec<[i32; 40]> = (0..n)
            .map(|_| std::array::from_fn(|_| rng.random_range(-20..40)))
            .collect();
        let (total, duals) = assignment(&w, m, i32::MIN, &[0; 40][..m]);
        assert_eq!(total, best(&w, m, 0, 0));
        // Weak duality: the potentials show the optimum itself at the end.
        let dual: i32 = duals.row[..n].iter().sum::<i32>() + duals.column[..m].iter().sum::<i32>();
        assert_eq!(dual, total);
        // Cut early, from no potentials or from any column potentials of at least zero
        // (a parent's): never below the optimum, never above the cut; the optimum itself
        // when it is above the cut.
        let start: [i32; 40] = std::array::from_fn(|_| rng.random_range(0..30));
        for start in [&[0; 40][..m], &start[..m]] {
            assert_eq!(assignment(&w, m, total - 1, start).0, total);
            assert_eq!(assignment(&w, m, i32::MIN, start).0, total);
            for cut in [total, total + 5, total + 50] {
                let (early, _) = assignment(&w, m, cut, start);
                assert!(
                    total <= early && early <= cut.max(total),
                    "{w:?} from {start:?}: {early} for cut {cut}"
                );
            }
        }
        for i in 0..n {
            for j in 0..m {
                let cost = duals.reduced_cost(&w, i, j);
                assert!(cost >= 0);
                // The best assignment with row i given column j, rows taken in turn.
                let mut rows = w.clone();
                rows.swap(0, i);
                let fixed = rows[0][j] + best(&rows, m, 1, 1 << j);
                assert!(fixed <= total - cost, "{w:?} row {i} column {j}");
            }
        }
    }
}

#[test]
fn two_hole_line_shares_cover_every_pair_and_never_exceed_the_even_split() {
    // `split_pair` on random line tables and supplies: for every pair of ranks the supply
    // allows, the two shares add up to at least the line's value (half points), and no
    // share is above the even split it starts from (the hole's best with any other rank).
    let mut rng = row_rng(7, 0);
    for _ in 0..500 {
        let pairs: [[i32; 11]; 11] = std::array::from_fn(|_| {
            std::array::from_fn(|_| [0, 0, 0, 20, 30, 40, 60][rng.random_range(0..7)])
        });
        let count: [u8; 11] = std::array::from_fn(|_| rng.random_range(0..3));
        let fits = |r: usize, q: usize| count[r] > 0 && count[q] > u8::from(q == r);
        let (a, b) = split_pair(&pairs, &count);
        for r in 0..11 {
            for q in 0..11 {
                if fits(r, q) {
                    assert!(
                        a[r] + b[q] >= 2 * pairs[r][q],
                        "{pairs:?} {count:?} {r} {q}"
                    );
                }
            }
            let even_a = (0..11).filter(|&q| fits(r, q)).map(|q| pairs[r][q]).max();
            let even_b = (0..11).filter(|&q| fits(q, r)).map(|q| pairs[q][r]).max();
            assert!(a[r] <= even_a.unwrap_or(0) && b[r] <= even_b.unwrap_or(0));
        }
    }
    // 5 6 _ _: 20 for a 7 at the third cell, 20 more with an 8 at the last, nothing else:
    // 20 points (40 half points) to each, nothing to other ranks at the last cell.
    let mut pairs = [[0; 11]; 11];
    for q in 1..11 {
        pairs[7][q] = if q == 8 { 40 } else { 20 };
    }
    let (a, b) = split_pair(&pairs, &[1; 11]);
    assert_eq!((a[7], b[8]), (40, 40));
    assert!((0..11).all(|q| q == 8 || b[q] <= 0));
}

#[test]
fn shares_of_lines_with_three_or_four_holes_cover_every_filling() {
    // A line with three or four holes goes into the assignment as a share per hole and
    // rank. Whatever ranks the holes take (as the supply allows), the shares add up to
    // at least what the line's straights and sets can score (`line_max`, half points).
    let mut rng = row_rng(8, 0);
    for _ in 0..300 {
        let holes = rng.random_range(3..=4);
        let mut ranks = [15u64; SIDE];
        let filled = rng.random_range(0..SIDE);
        if holes == 3 {
            // A card given to the search (its rank known, its turn not fixed) or one
            // placed at the root (bit 4).
            ranks[filled] = rng.random_range(1..11) | [0, 16][rng.random_range(0..2)];
        }
        let count: [u64; 11] =
            std::array::from_fn(|r| if r == 0 { 0 } else { rng.random_range(0..=3) });
        let mut key = (0..SIDE).fold(0, |k, i| k | ranks[i] << (5 * i));
        for (r, &n) in count.iter().enumerate() {
            key |= n << (20 + 3 * r);
        }
        let shares = line_shares(key);
        let open: Vec<usize> = (0..SIDE).filter(|&i| ranks[i] == 15).collect();
        let mut fill = vec![1usize; open.len()];
        'fillings: loop {
            let mut need = [0u64; 11];
            for &r in &fill {
                need[r] += 1;
            }
            if (0..11).all(|r| need[r] <= count[r]) {
                let mut given = key & !((1 << 20) - 1);
                for i in 0..SIDE {
                    given |= ranks[i] << (5 * i);
                }
                let mut total = 0;
                for (k, &i) in open.iter().enumerate() {
                    given = given & !(31 << (5 * i)) | (fill[k] as u64) << (5 * i);
                    total += shares[i][fill[k]];
                }
                for r in 0..11 {
                    given = given & !(7 << (20 + 3 * r)) | (count[r] - need[r]) << (20 + 3 * r);
                }
                assert!(total >= 2 * line_max(given), "{ranks:?} {count:?} {fill:?}");
            }
            for f in fill.iter_mut() {
                if *f < 10 {
                    *f += 1;
                    continue 'fillings;
                }
                *f = 1;
            }
            break;
        }
    }
}

#[test]
fn line_bonus_bounds() {
    let key = |ranks: [u64; 4], supply: &[(usize, u64)]| {
        let mut k = ranks
            .iter()
            .enumerate()
            .fold(0, |k, (i, &r)| k | r << (4 * i));
        for &(r, n) in supply {
            k |= n << (16 + 3 * r);
        }
        k
    };
    // An empty line and four Crowns: a set of three, then of four.
    assert_eq!(line_bonus(key([15; 4], &[(10, 4)])), 60);
    // Corners 3 and 6, the 4 and 5 to come: one straight of four.
    assert_eq!(line_bonus(key([3, 15, 15, 6], &[(4, 1), (5, 1)])), 20);
    assert_eq!(line_bonus(key([3, 15, 15, 9], &[(4, 1), (7, 2)])), 0);
    // 2 . . 2 with two more 2s: 2 2 2 2 completes a set of four once.
    assert_eq!(line_bonus(key([2, 15, 15, 2], &[(2, 1), (9, 3)])), 0);
}

#[test]
fn batch_rows_past_their_limits_claim_no_outcome() {
    // One node is far too few for any fresh deal: every row is undecided, with neither a
    // loss nor a score; with no limit the same deals are decided.
    let cancel = AtomicBool::new(false);
    let tight = Limits {
        max_nodes: Some(1),
        ..Limits::default()
    };
    let ctx = Context::new(tight, Some(1), &cancel);
    for rows in [
        solve_open_batch(0, 0, 3, false, 12, false, &ctx).unwrap(),
        fill_open_batch(0, 0, 3, false, &ctx).unwrap(),
    ] {
        assert_eq!(rows.len(), 3);
        for row in rows {
            assert!(!row.solved());
            assert_eq!((row.lost, row.score), (None, None));
            assert!(row.nodes > 1);
        }
    }
    let ctx = Context::new(Limits::default(), Some(1), &cancel);
    let fills = fill_open_batch(0, 0, 3, false, &ctx).unwrap();
    assert!(fills.iter().all(|r| r.solved() && r.score.is_none()));
    let solves = solve_open_batch(0, 0, 1, false, 4, false, &ctx).unwrap();
    assert!(solves[0].solved() && solves[0].score.is_some());
}
