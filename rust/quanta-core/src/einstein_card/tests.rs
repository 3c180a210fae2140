use super::*;

fn game() -> EinsteinCard {
    EinsteinCard::from_options(&Options::new()).unwrap()
}

#[test]
fn random_games_round_trip_their_notation_and_end_within_the_cards() {
    let g = game();
    let mut rng = crate::game::row_rng(3, 0);
    let mut v = Vec::new();
    for _ in 0..200 {
        let mut s = g.new_state();
        while g.to_move(&s) != ToMove::Terminal {
            assert_eq!(
                g.from_notation(&g.notation(&s)).unwrap(),
                s,
                "{}",
                g.notation(&s)
            );
            let a = match g.to_move(&s) {
                ToMove::Chance => g.sample_chance(&s, &mut rng),
                _ => {
                    g.legal_actions(&s, &mut v);
                    assert!(!v.is_empty(), "{}", g.notation(&s));
                    v[rng.random_range(0..v.len())]
                }
            };
            s = g.play(&s, a).unwrap();
        }
        assert_eq!(g.from_notation(&g.notation(&s)).unwrap(), s);
    }
}

fn phase_after(g: &EinsteinCard, text: &str, action: &str) -> Phase {
    let s = g.from_notation(text).unwrap_or_else(|e| panic!("{e}"));
    let a = g.parse_action(&s, action).unwrap_or_else(|e| panic!("{e}"));
    g.play(&s, a).unwrap().phase
}

#[test]
fn da_capo_copies_the_opponents_card_or_else_ones_own() {
    let g = game();
    let board = "123../45.../6...f/...ed/..cba";
    let copy_two = format!("{board} 0 play 1C|12 12233445566LDHS|133445566LFCDHS F|2");
    assert_eq!(phase_after(&g, &copy_two, "play Da Capo"), Phase::Number(2));
    let own_full = format!("{board} 0 play 1C|12 12233445566LDHS|1233445566LFDHS F|C");
    assert_eq!(phase_after(&g, &own_full, "play Da Capo"), Phase::Full);
    let nothing = format!("{board} 0 play 1C|12 12233445566LFDHS|1233445566LFDHS -|C");
    let s = g.from_notation(&nothing).unwrap();
    assert!(g.parse_action(&s, "play Da Capo").is_err());
}

#[test]
fn sampled_draws_follow_the_copies_left() {
    let g = game();
    let text = "123../45.../6...f/...ed/..cba 0 draw F|12 11223445566LCDHS|1233445566LFCDHS 3|-";
    let s = g.from_notation(text).unwrap();
    let mut odds = Vec::new();
    g.chance_outcomes(&s, &mut odds);
    let mut rng = crate::game::row_rng(1, 0);
    let n = 150_000;
    let mut seen = [0u32; NUM_ACTIONS];
    for _ in 0..n {
        seen[g.sample_chance(&s, &mut rng) as usize] += 1;
    }
    for (a, p) in odds {
        let share = seen[a as usize] as f64 / n as f64;
        assert!((share - p).abs() < 0.005, "{a}: {share} against {p}");
    }
    assert_eq!(seen.iter().sum::<u32>(), n);
}
