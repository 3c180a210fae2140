//! The arena: `n` games between bots, played on rayon's threads.
//!
//! **Seats.** With `k` bots, seat `i` of game `g` is played by bot `(i + g) % k`: the bots
//! take turns in every seat, game by game (two bots in a two-player game swap seats each
//! game). Fewer bots than seats means a bot plays several seats of a game; more bots than
//! seats means some sit a game out.
//!
//! **Sides.** In a partnership game ([`Game::side`]) the sides take the place of the seats:
//! side `i` of game `g` is played by bot `(i + g) % k` in all its seats, and a side's result
//! (its seats share one return) is counted once ([`ArenaResult::counted`]).
//!
//! **Seeds.** Game `g` draws its chance outcomes from its own generator, `row_rng(seed, g)`
//! ([`crate::game::row_rng`], through [`crate::batch::map_rows`]), one number each, read
//! against the outcomes' odds ([`draw`]). Each decision is the acting bot's
//! [`Bot::choose`], exactly as a caller asking that bot in that state gets it: a blind bot's
//! generator is seeded by its seed and the acting seat's information state, so its play
//! never depends on what its seat cannot see, and one bot's draws never shift another's or
//! the dice. With `record`, the result keeps every game's actions (chance outcomes
//! included), so that any game can be replayed. The results depend only on the bots, `n` and
//! `seed`, never on `threads`, except with a bot stopped by the clock ([`BotSpec::timed`]).

use super::{Bot, BotSpec};
use crate::knowledge::Knowledge;
use crate::batch::{Split, check_fits, map_rows};
use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng, ToMove};
use rand::Rng as _;
use std::sync::atomic::AtomicBool;

/// What an arena played: for each game, each seat's return and the bot in it, and its length.
#[derive(Debug, Clone, PartialEq)]
pub struct ArenaResult {
    pub players: usize,
    /// How many bots took part.
    pub bots: usize,
    /// Row-major `n * players`: the return of each seat of each game.
    pub returns: Vec<f64>,
    /// Row-major `n * players`: the bot (its index in the list given) in each seat.
    pub seats: Vec<u32>,
    /// The side of each seat ([`Game::side`]): partners share one, else each seat its own.
    pub sides: Vec<u32>,
    /// Decisions per game, chance outcomes excluded.
    pub length: Vec<i32>,
    /// Each game's actions from its start, chance outcomes included (with `record`).
    pub actions: Option<Vec<Vec<Action>>>,
}

impl ArenaResult {
    pub fn games(&self) -> usize {
        self.length.len()
    }

    /// Whether seat `seat`'s result counts: it is the first seat of its side (a side's seats
    /// share one result, counted once).
    pub fn counted(&self, seat: usize) -> bool {
        self.sides[..seat].iter().all(|&s| s != self.sides[seat])
    }

    /// Each bot's mean return over the sides it played (NaN for a bot that played none).
    pub fn mean_by_bot(&self) -> Vec<f64> {
        let mut sum = vec![0.0; self.bots];
        let mut count = vec![0u64; self.bots];
        let counted = (0..self.players).map(|seat| self.counted(seat));
        let counted: Vec<bool> = counted.collect();
        for (i, (&bot, &r)) in self.seats.iter().zip(&self.returns).enumerate() {
            if !counted[i % self.players] {
                continue;
            }
            sum[bot as usize] += r;
            count[bot as usize] += 1;
        }
        sum.iter()
            .zip(&count)
            .map(|(s, &c)| if c == 0 { f64::NAN } else { s / c as f64 })
            .collect()
    }

    /// Games in which bot `bot` got a higher return than every other bot in the game (seats
    /// it does not hold).
    pub fn wins(&self, bot: usize) -> usize {
        (0..self.games())
            .filter(|&g| {
                let row = g * self.players..(g + 1) * self.players;
                let (seats, returns) = (&self.seats[row.clone()], &self.returns[row]);
                // A side's returns are one result: their seats agree, so reading them all
                // changes nothing here.
                let mine = seats
                    .iter()
                    .zip(returns)
                    .filter(|(s, _)| **s as usize == bot);
                let others = seats
                    .iter()
                    .zip(returns)
                    .filter(|(s, _)| **s as usize != bot);
                let best_other = others.map(|(_, &r)| r).fold(f64::NEG_INFINITY, f64::max);
                mine.clone().count() > 0 && mine.map(|(_, &r)| r).all(|r| r > best_other)
            })
            .count()
    }
}

/// The bot in seat `seat` of game `game` among `bots` bots.
pub fn seat_bot(seat: usize, game: u64, bots: usize) -> usize {
    ((seat as u64 + game % bots as u64) % bots as u64) as usize
}

/// The bot in seat `seat` of game `number` of `game`: its side's ([`Game::side`]), which is
/// the seat itself except in a partnership game.
fn side_bot<G: Game>(game: &G, seat: usize, number: u64, bots: usize) -> usize {
    seat_bot(game.side(seat), number, bots)
}

/// Plays `n` games of `game` from its start between `bots` (see the module's docs for the
/// seats and seeds), on `threads` threads (`None`: every core). Stops with `Interrupted` once
/// `cancel` is set.
pub fn arena<G: Knowledge>(
    game: &G,
    bots: &[Bot],
    n: usize,
    seed: u64,
    threads: Option<usize>,
    record: bool,
    cancel: &AtomicBool,
) -> Result<ArenaResult> {
    if bots.is_empty() {
        return Err(Error::InvalidOption(
            "bots must be a list of at least one bot, not an empty one".into(),
        ));
    }
    if G::SOLVER.is_none() && bots.iter().any(|b| matches!(b.spec, BotSpec::Solver(_))) {
        // A game without a solver is refused before any game is played.
        return Err(super::solver_bot::no_solver::<G>());
    }
    let players = game.num_players();
    check_fits(
        "n",
        n,
        "games",
        game_bytes(players),
        "play fewer games at a time",
    )?;
    let k = bots.len();
    let rows = map_rows(0, n, seed, threads, Split::Rows, cancel, |g, rng| {
        play(game, bots, g, rng, record, cancel)
    })?;
    let mut out = ArenaResult {
        players,
        bots: k,
        returns: Vec::with_capacity(n * players),
        seats: Vec::with_capacity(n * players),
        sides: (0..players).map(|seat| game.side(seat) as u32).collect(),
        length: Vec::with_capacity(n),
        actions: record.then(|| Vec::with_capacity(n)),
    };
    for (g, row) in rows.into_iter().enumerate() {
        let (returns, length, actions) = row?;
        if let Some(all) = &mut out.actions {
            all.push(actions);
        }
        out.returns.extend_from_slice(&returns);
        out.seats
            .extend((0..players).map(|seat| side_bot(game, seat, g as u64, k) as u32));
        out.length.push(length);
    }
    Ok(out)
}

/// Game `g` of an arena: each seat's return, the number of decisions and, with `record`,
/// the actions.
/// The memory one game of an arena takes at its peak, in bytes (about 96 measured for two
/// players): its row while the games are played (the row itself, its returns on the heap with
/// the allocator's header), then its returns and seats in the results (12 bytes a player)
/// and its length (4); a recorded game's actions come on top.
pub fn game_bytes(players: usize) -> usize {
    let row = std::mem::size_of::<Result<(Vec<f64>, i32, Vec<Action>)>>() + 8 * players + 32;
    row + 12 * players + 4
}

fn play<G: Knowledge>(
    game: &G,
    bots: &[Bot],
    g: u64,
    rng: &mut Rng,
    record: bool,
    cancel: &AtomicBool,
) -> Result<(Vec<f64>, i32, Vec<Action>)> {
    let mut state = game.new_state();
    let mut length = 0;
    let mut outcomes = Vec::new();
    let mut actions = Vec::new();
    loop {
        let a = match game.to_move(&state) {
            ToMove::Terminal => break,
            ToMove::Chance => {
                game.chance_outcomes(&state, &mut outcomes);
                draw(&outcomes, rng)
            }
            ToMove::Player(p) => {
                length += 1;
                bots[side_bot(game, p as usize, g, bots.len())].choose(game, &state, cancel)?
            }
        };
        game.apply(&mut state, a);
        if record {
            actions.push(a);
        }
    }
    let mut returns = vec![0.0; game.num_players()];
    game.returns(&state, &mut returns);
    Ok((returns, length, actions))
}

/// A chance outcome drawn by its odds with one number from `rng` (what the arena plays).
pub fn draw(outcomes: &[(Action, f64)], rng: &mut Rng) -> Action {
    let mut x: f64 = rng.random();
    for &(a, p) in outcomes {
        if x < p {
            return a;
        }
        x -= p;
    }
    outcomes.last().expect("a chance node has outcomes").0
}
