//! EinStein's best player against itself, one side given more time or nodes:
//! `cargo run --release -p quanta-core --example einstein_duel -- [games=N] [seconds=S |
//! nodes=N] [more=K] [seed=K]` (defaults: 400 games, 0.02 s a move, `more` 3). Side A has
//! `more` times side B's limit; A moves first in even games and second in odd ones, and each
//! pair of games draws the same setups and rolls (as far as the moves agree). It prints A's
//! wins with a 95 % interval: how much a deeper search is worth to the player.
//! A measurement, not a test.

use quanta_core::einstein::solve::best_action;
use quanta_core::einstein::{Einstein, Setup};
use quanta_core::game::{Game, ToMove, row_rng};
use quanta_core::search::{Context, Limits};
use rand::Rng as _;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn main() {
    let (mut games, mut seconds, mut nodes, mut more, mut seed) = (400u64, 0.02, None, 3.0, 0);
    for argument in std::env::args().skip(1) {
        let (key, value) = argument.split_once('=').expect("arguments as key=value");
        match key {
            "games" => games = value.parse().expect("games: a count"),
            "seconds" => seconds = value.parse().expect("seconds: a number"),
            "nodes" => nodes = Some(value.parse::<f64>().expect("nodes: a count")),
            "more" => more = value.parse().expect("more: a factor"),
            "seed" => seed = value.parse().expect("seed: an integer"),
            _ => panic!("unknown argument {key}: games, seconds, nodes, more, seed"),
        }
    }
    let limits = |factor: f64| match nodes {
        Some(n) => Limits {
            timeout: None,
            max_nodes: Some((n * factor) as u64),
            ..Limits::default()
        },
        None => Limits {
            timeout: Some(Duration::from_secs_f64(seconds * factor)),
            ..Limits::default()
        },
    };
    let cancel = AtomicBool::new(false);
    let sides = [
        Context::new(limits(more), Some(1), &cancel),
        Context::new(limits(1.0), Some(1), &cancel),
    ];
    let game = Einstein {
        setup: Setup::Random,
        first: 0,
    };
    let mut a_wins = 0u64;
    for n in 0..games {
        let mut dice = row_rng(seed, n / 2);
        let mut choices = row_rng(seed ^ 0x5EED, n);
        let a_seat = (n % 2) as u8;
        let mut s = game.new_state();
        let mut outcomes = Vec::new();
        loop {
            match game.to_move(&s) {
                ToMove::Terminal => break,
                ToMove::Chance => {
                    game.chance_outcomes(&s, &mut outcomes);
                    let k = dice.random_range(0..outcomes.len());
                    game.apply(&mut s, outcomes[k].0);
                }
                ToMove::Player(p) => {
                    let side = &sides[(p != a_seat) as usize];
                    let action = best_action(&game, &s, &mut choices, side).expect("a decision");
                    game.apply(&mut s, action);
                }
            }
        }
        let mut returns = [0.0; 2];
        game.returns(&s, &mut returns);
        a_wins += (returns[a_seat as usize] > 0.0) as u64;
    }
    let share = a_wins as f64 / games as f64;
    let half = 1.96 * (share * (1.0 - share) / games as f64).sqrt();
    let limit = match nodes {
        Some(n) => format!("{n} nodes"),
        None => format!("{seconds} s"),
    };
    println!(
        "A ({more}x {limit}) against B ({limit}): A won {a_wins} of {games}, {:.1} % ± {:.1}",
        100.0 * share,
        100.0 * half
    );
}
