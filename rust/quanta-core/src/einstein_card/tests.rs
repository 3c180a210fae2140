use super::*;
use crate::game::random_step_by_lists;

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

fn with_open_hands(open: OptionValue) -> Result<EinsteinCard> {
    EinsteinCard::from_options(&Options::from([("open_hands".to_string(), open)]))
}

#[test]
fn open_hands_is_one_bool_for_both_or_a_pair_and_nothing_else() {
    let pair = |a, b| OptionValue::Bools(vec![a, b]);
    assert_eq!(game().open_hands, [false, false]);
    assert_eq!(
        with_open_hands(OptionValue::Bool(true)).unwrap().open_hands,
        [true, true]
    );
    let g = with_open_hands(pair(false, true)).unwrap();
    assert_eq!(g.open_hands, [false, true]);
    assert_eq!(g.options()["open_hands"], pair(false, true));
    for bad in [
        OptionValue::Bools(vec![true]),
        OptionValue::Bools(vec![true, false, true]),
        OptionValue::Ints(vec![1, 0]),
        OptionValue::Int(1),
    ] {
        let e = with_open_hands(bad).unwrap_err().to_string();
        assert!(e.contains("true or false or a tuple of 2"), "{e}");
    }
}

#[test]
fn one_open_hand_is_shown_to_the_opponent_and_the_closed_one_to_nobody_else() {
    // "The stronger player acts with open cards." Player 1's hand open, player 0's closed.
    let g = with_open_hands(OptionValue::Bools(vec![false, true])).unwrap();
    let text = "123../45.../6...f/...ed/..cba 0 play 3F|12 11223445566LCDHS|1233445566LFCDHS -|-";
    let s = g.from_notation(text).unwrap();
    let board = "123../45.../6...f/...ed/..cba 0 play";
    assert_eq!(
        g.observation_string(&s, 0),
        format!("{board} 3F|12 16|16 -|-")
    );
    assert_eq!(
        g.observation_string(&s, 1),
        format!("{board} ??|12 16|16 -|-")
    );
    let mut rng = crate::game::row_rng(5, 0);
    let mut moved = false;
    for _ in 0..50 {
        assert_eq!(g.resample(&s, 0, &mut rng), s, "player 0 sees everything");
        let r = g.resample(&s, 1, &mut rng);
        assert_eq!((r.hands[1], r.heaps[1]), (s.hands[1], s.heaps[1]));
        moved |= r.hands[0] != s.hands[0];
    }
    assert!(moved, "player 0's closed hand is redrawn for player 1");
}

/// The playout's step draws a number's move from the board's tables: it must play the game the
/// generic step (a move drawn from the list of legal actions) plays from the same generator,
/// in every phase of both setups' games, special cards included.
#[test]
fn random_step_plays_the_games_of_the_generic_step() {
    for g in [
        game(),
        EinsteinCard {
            hand_size: [3, 1],
            ..game()
        },
    ] {
        let mut actions = Vec::new();
        for row in 0..500 {
            let (mut fast, mut listed) = (g.new_state(), g.new_state());
            let (mut fast_rng, mut listed_rng) =
                (crate::game::row_rng(11, row), crate::game::row_rng(11, row));
            loop {
                let a = g.random_step(&mut fast, &mut fast_rng, &mut actions);
                let b = random_step_by_lists(&g, &mut listed, &mut listed_rng, &mut actions);
                assert_eq!(a, b, "game {row}: {}", g.notation(&listed));
                assert_eq!(fast, listed, "game {row}: {}", g.notation(&listed));
                if a.is_none() {
                    break;
                }
            }
        }
    }
}
