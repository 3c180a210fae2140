use super::*;
use crate::game::{Game, ToMove};

fn play(g: &RepairUnit, s: &RepairState, text: &str) -> RepairState {
    let a = g.parse_action(s, text).unwrap_or_else(|e| panic!("{text}: {e}"));
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
    assert_eq!(g.notation(&s), "7H,QS,2C|AD,5S,9C - - *46 - - A:draw");
}

#[test]
#[ignore]
fn timing_probe() {
    use crate::search::Limits;
    use rand::SeedableRng;
    use std::sync::atomic::AtomicBool;
    let cancel = AtomicBool::new(false);
    for players in [1usize, 2, 3, 4] {
        let g = RepairUnit::new(players);
        let ctx = crate::search::Context::new(
            Limits { timeout: Some(std::time::Duration::from_secs(1)), ..Limits::default() },
            None,
            &cancel,
        );
        let (mut wins, mut slow, mut times) = (0, 0, vec![]);
        for seed in 0..40u64 {
            let mut rng = crate::game::Rng::seed_from_u64(seed);
            let s = g.new_state();
            let order = solve::random_order(&s, &mut rng);
            match solve::solve_open(&g, &s, &order, &ctx) {
                Ok(sol) => {
                    wins += sol.winnable as u32;
                    times.push(sol.seconds);
                }
                Err(_) => slow += 1,
            }
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!(
            "players {players}: wins {wins} undecided {slow} median {:.4} p95 {:.4} max {:.4}",
            times[times.len() / 2],
            times[times.len() * 95 / 100],
            times.last().unwrap()
        );
    }
}
