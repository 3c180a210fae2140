use super::*;
use crate::game::{Game, ToMove};

fn play(g: &RepairUnit, s: &RepairState, text: &str) -> RepairState {
    let a = g
        .parse_action(s, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.play(s, a).unwrap()
}

#[test]
fn random_games_round_trip_their_notation() {
    use rand::SeedableRng;
    for players in 1..=4 {
        let g = RepairUnit::new(players);
        for seed in 0..30 {
            let mut rng = crate::game::Rng::seed_from_u64(seed);
            let mut s = g.new_state();
            let mut actions = Vec::new();
            loop {
                let text = g.notation(&s);
                assert_eq!(g.from_notation(&text).unwrap(), s, "{text}");
                if g.to_move(&s) == ToMove::Terminal {
                    break;
                }
                let a = if g.to_move(&s) == ToMove::Chance {
                    g.sample_chance(&s, &mut rng)
                } else {
                    g.legal_actions(&s, &mut actions);
                    actions[rand::Rng::random_range(&mut rng, 0..actions.len())]
                };
                s = g.play(&s, a).unwrap();
            }
        }
    }
}

#[test]
fn the_deal_fills_the_forecasts_front_first_then_turn_a_starts() {
    let g = RepairUnit::new(1);
    let mut s = g.new_state();
    for c in ["7H", "QS", "2C", "AD", "5S", "9C"] {
        s = play(&g, &s, c);
    }
    // No face-up card: the first turn goes straight to the draw.
    assert_eq!(g.notation(&s), "7H,QS,2C|AD,5S,9C - - *46 - 0 A:draw");
}

#[test]
fn a_winning_open_line_replays_to_a_win_and_suits_do_not_change_the_answer() {
    use crate::search::{Context, Limits};
    use rand::SeedableRng;
    use std::sync::atomic::AtomicBool;
    let cancel = AtomicBool::new(false);
    let limits = Limits {
        max_nodes: Some(3_000_000),
        ..Limits::default()
    };
    let ctx = Context::new(limits, None, &cancel);
    let g = RepairUnit::new(1);
    let mut checked = 0;
    for seed in 0..8 {
        let mut rng = crate::game::Rng::seed_from_u64(seed);
        let s = g.new_state();
        let order = solve::random_order(&s, &mut rng);
        let Ok(sol) = solve::solve_open(&g, &s, &order, &ctx) else {
            continue;
        };
        // The same deal with the suits of every rank rotated has the same answer.
        let rotated: Vec<Card> = order.iter().map(|&c| c / 4 * 4 + (c % 4 + 1) % 4).collect();
        let again = solve::solve_open(&g, &s, &rotated, &ctx).unwrap();
        assert_eq!(again.winnable, sol.winnable);
        if !sol.winnable {
            continue;
        }
        let (mut state, mut cards, mut line) = (s, order.iter(), sol.line.iter());
        while g.to_move(&state) != ToMove::Terminal {
            let a = if g.to_move(&state) == ToMove::Chance {
                *cards.next().unwrap() as Action
            } else {
                *line.next().unwrap()
            };
            state = g.play(&state, a).unwrap();
        }
        assert_eq!(state.step, Step::Won);
        assert!(line.next().is_none());
        checked += 1;
    }
    assert!(checked > 0);
}

/// The registry's estimate takes one budget for all its sampled orders: a node limit at least
/// what an unlimited call searched gives the same answer, and a larger limit never decides fewer
/// orders (a limit shared out among the orders would leave the hardest one undecided).
#[test]
fn a_larger_budget_decides_the_same_orders_and_more() {
    use crate::search::{Context, Limits};
    use std::sync::atomic::AtomicBool;
    let g = RepairUnit::new(1);
    let s = g
        .from_notation("TC+7D,5D+9H,3D+QH|3H+5S,5C+4S,4C+AD - - *40 - 0 A:start")
        .unwrap();
    let cancel = AtomicBool::new(false);
    let within = |max_nodes: Option<u64>, timeout: Option<u64>| {
        let limits = Limits {
            max_nodes,
            timeout: timeout.map(std::time::Duration::from_secs),
            ..Limits::default()
        };
        solve::win_probability_within(&g, &s, 32, 0, &Context::new(limits, Some(2), &cancel))
            .unwrap()
    };
    let open = within(None, None);
    assert_eq!(open.decided, 32);
    for (max_nodes, timeout) in [(Some(open.nodes), None), (Some(10 * open.nodes), Some(10))] {
        let w = within(max_nodes, timeout);
        assert_eq!(
            (w.probability, w.wins, w.decided),
            (open.probability, open.wins, 32)
        );
    }
    let mut decided = 0;
    for eighths in 1..8 {
        let w = within(Some(open.nodes * eighths / 8), None);
        assert!(w.decided >= decided && w.decided < 32, "{eighths}/8: {w:?}");
        decided = w.decided;
    }
    assert!(decided > 0);
}
