use super::*;
use crate::error::Error;

fn game() -> Einstein {
    Einstein {
        setup: Setup::Random,
        first: 0,
    }
}

fn at(text: &str) -> EinsteinState {
    game().from_notation(text).unwrap()
}

fn moves(s: &EinsteinState) -> Vec<String> {
    let g = game();
    let mut out = Vec::new();
    g.legal_actions(s, &mut out);
    out.iter()
        .map(|&a| g.action_to_string(s, a).unwrap())
        .collect()
}

#[test]
fn arrangements_are_lexicographic_permutations() {
    assert_eq!(arrangement(0), [1, 2, 3, 4, 5, 6]);
    assert_eq!(arrangement(1), [1, 2, 3, 4, 6, 5]);
    assert_eq!(arrangement(719), [6, 5, 4, 3, 2, 1]);
    let mut all: Vec<_> = (0..720).map(arrangement).collect();
    all.dedup();
    assert!(all.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn rolled_stone_present_moves_only_that_stone() {
    let s = at("1.2../...../...../...../....a 0 2");
    assert_eq!(moves(&s), ["c1d1", "c1c2", "c1d2"]);
}

#[test]
fn missing_stone_offers_nearest_lower_and_higher() {
    // Stones 1 and 5 remain; a roll of 3 offers both neighbours of 3.
    let s = at("1...5/...../...../...../....a 0 3");
    assert_eq!(moves(&s), ["a1b1", "a1a2", "a1b2", "e1e2"]);
}

#[test]
fn missing_stone_with_only_one_side_present() {
    // Only stones 1 and 2 remain; a roll of 6 offers the nearest lower (2) alone.
    let s = at("12.../...../...../...../....a 0 6");
    assert_eq!(moves(&s), ["b1c1", "b1b2", "b1c2"]);
}

#[test]
fn capturing_own_stone_removes_it() {
    let g = game();
    let s = at("12.../...../...../...../....a 0 1");
    let a = g.parse_action(&s, "a1b1").unwrap();
    let t = g.play(&s, a).unwrap();
    assert_eq!(g.notation(&t), ".1.../...../...../...../....a 1 -");
}

#[test]
fn reaching_the_corner_wins() {
    let g = game();
    let s = at("....a/...../...../....1/..... 0 1");
    let t = g.play(&s, g.parse_action(&s, "e4e5").unwrap()).unwrap();
    assert_eq!(g.to_move(&t), ToMove::Terminal);
    let mut r = [0.0; 2];
    g.returns(&t, &mut r);
    assert_eq!(r, [1.0, -1.0]);
}

#[test]
fn removing_the_last_enemy_stone_wins() {
    let g = game();
    let s = at("1..../.a.../...../...../..... 0 1");
    let t = g.play(&s, g.parse_action(&s, "a1b2").unwrap()).unwrap();
    assert_eq!(t.phase, Phase::Over(0));
}

#[test]
fn notation_rejects_impossible_positions() {
    let g = game();
    for bad in [
        "a..../...../...../...../....1 0 -", // both goal corners reached: both have won
        "...../...../...../...../..... 0 -", // nobody has stones
        "1...1/...../...../...../....a 0 -", // stone twice
        "1..../...../...../...../....a 0 7", // no such die
        "1..../...../...../...../....a 2 -", // no such player
        "1..../...../...../....a 0 -",       // four rows
        "1..x./...../...../...../....a 0 -", // bad character
        "1..../...../...../...../..... 1 3", // finished game with a die
        "1..../...../...../...../..... 0 setup",
    ] {
        assert!(
            matches!(g.from_notation(bad), Err(Error::InvalidNotation(_))),
            "{bad}"
        );
    }
}

#[test]
fn random_games_round_trip_their_notation() {
    let g = game();
    let mut rng = crate::game::row_rng(7, 0);
    for _ in 0..200 {
        let mut s = g.new_state();
        while g.to_move(&s) != ToMove::Terminal {
            assert_eq!(g.from_notation(&g.notation(&s)).unwrap(), s);
            let a = match g.to_move(&s) {
                ToMove::Chance => g.sample_chance(&s, &mut rng),
                _ => {
                    let mut v = Vec::new();
                    g.legal_actions(&s, &mut v);
                    assert!(!v.is_empty(), "no passing: a player always has a move");
                    v[rng.random_range(0..v.len())]
                }
            };
            s = g.play(&s, a).unwrap();
        }
        assert_eq!(g.from_notation(&g.notation(&s)).unwrap(), s);
    }
}

#[test]
fn fast_playout_plays_exactly_the_generic_playout() {
    // The same generator stream must give the same game as legal_actions + apply.
    let g = game();
    for seed in 0..300 {
        let (mut fast, mut slow) = (g.new_state(), g.new_state());
        let mut r = [0.0; 2];
        let plies = g.random_playout(&mut fast, &mut crate::game::row_rng(seed, 0), &mut r);
        let mut rng = crate::game::row_rng(seed, 0);
        let mut slow_plies = 0;
        let mut v = Vec::new();
        loop {
            match g.to_move(&slow) {
                ToMove::Terminal => break,
                ToMove::Chance => {
                    let a = g.sample_chance(&slow, &mut rng);
                    slow = g.play(&slow, a).unwrap();
                }
                ToMove::Player(_) => {
                    g.legal_actions(&slow, &mut v);
                    slow = g.play(&slow, v[rng.random_range(0..v.len())]).unwrap();
                    slow_plies += 1;
                }
            }
        }
        assert_eq!((fast, plies), (slow, slow_plies));
    }
}

#[test]
fn perft_after_a_fixed_setup() {
    let g = Einstein {
        setup: Setup::Choose,
        first: 0,
    };
    let s = g.new_state();
    let s = g.play(&s, FIRST_ARRANGEMENT).unwrap();
    let s = g.play(&s, FIRST_ARRANGEMENT).unwrap();
    assert_eq!(g.notation(&s), "123../45.../6...f/...ed/..cba 0 -");
    // 6 rolls; every stone on a start cell has all three of its steps on the board.
    assert_eq!(g.perft(&s, 1), 6);
    assert_eq!(g.perft(&s, 2), 3 + 3 + 3 + 3 + 3 + 3);
}
