//! EinStein's strongest player: [`best_action`], an expectimax over the die a few turns deep
//! with [`evaluate`]'s race estimate at its leaves, and the exact solver in endgames.
//!
//! **Evaluation.** Each side's *race*: the turns it needs to bring a stone home if nothing
//! stood in its way, the roll choosing the stone(s) that may move and the side stepping the
//! one that leaves it the fewest turns expected. Every stone off its corner has a step that
//! takes it one nearer (a diagonal step counts one), so a side's race depends only on each
//! numbered stone's distance, and [`Races`] holds, for each of the 5^6 ways to have stones 1-6
//! gone or 1-4 steps away, the probability of finishing within t turns. The side about to roll
//! wins the race if it finishes in no more turns than the opponent (it moves first); the
//! evaluation is that probability, the two races taken as independent. Captures and blocks are
//! left to the search.
//!
//! **Search.** From a rolled position, each legal move is valued by an expectiminimax of the
//! positions after it: a side about to roll gets the mean over the six rolls of the best of
//! that roll's moves, a move that wins at once is worth 1, and any other move 1 minus the
//! opponent's value after it (no draws); each stone's best step is searched once and shared by
//! the rolls that let it move. At the depth limit a position is valued by the evaluation. A
//! position met again (or an equivalent one, see [`Frame::key`]) takes the value it was given
//! if that was searched at least as deep, from a table kept within `memory_mb`. The
//! depth grows one turn at a time until the clock or the node limit stops a search, each
//! search taking the root's moves best first by the last one's values. The move played is the
//! best of the deepest search (ties broken at random by the seed): of the last one, among the
//! moves it valued, if it valued the last search's best move before it was stopped, else of
//! the one before. A search stopped by a node limit is deterministic given the position and
//! the seed.
//!
//! **Endgame.** Once each side has at most [`SOLVER_STONES`] stones, the exact solver is
//! asked first, within half the time; its move is played if it answers.

use super::bot::{chance_node_refused, distance_home, stone_counts};
use super::{Frame, Solver, Step, alive, turned};
use crate::einstein::{Einstein, EinsteinState, GONE, Phase, movable_stones};
use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng, ToMove};
use crate::search::{Context, Limits, Meter, hash_map_cap};
use rand::Rng as _;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// The solver takes over once each side has at most this many stones.
pub const SOLVER_STONES: usize = 3;
/// The deepest search, in turns after the move (a game is at most 70 plies long, and searches
/// this deep never end in a move's time).
const MAX_DEPTH: u32 = 30;
/// The depth searched when neither a time nor a node limit is given.
pub const DEPTH_WITHOUT_LIMITS: u32 = 3;
/// The longest race: every turn takes a stone a step nearer, and a side's stones are at most
/// 6 × 4 steps away.
const RACE_TURNS: usize = 24;
/// A side's stones as a race: stone n's distance (0: gone) in base-5 digit n - 1.
const RACES: usize = 5usize.pow(6);

/// For each race, the probability of finishing within t turns, t = 0..=RACE_TURNS.
struct Races {
    finished_by: Vec<[f32; RACE_TURNS + 1]>,
}

impl Races {
    fn new() -> Races {
        let digit = |race: usize, k: usize| race / 5usize.pow(k as u32) % 5;
        let steps = |race: usize| (0..6).map(|k| digit(race, k)).sum::<usize>();
        // A race's successors are one step shorter: take them shortest first.
        let mut order: Vec<usize> = (1..RACES).collect();
        order.sort_by_key(|&race| steps(race));
        let mut expected = vec![0.0f64; RACES];
        let mut finished_by = vec![[0.0f32; RACE_TURNS + 1]; RACES];
        for race in order {
            let alive = (0..6).fold(0u8, |bits, k| bits | (((digit(race, k) > 0) as u8) << k));
            let mut turns = 0.0;
            let mut within = [0.0f64; RACE_TURNS + 1];
            for die in 1..=6 {
                // The step the roll allows that leaves the fewest turns expected (None: home).
                let mut best: Option<usize> = None;
                let mut best_turns = f64::INFINITY;
                for n in movable_stones(alive, die) {
                    let k = n as usize - 1;
                    if digit(race, k) == 1 {
                        best = None;
                        best_turns = 0.0;
                        break;
                    }
                    let next = race - 5usize.pow(k as u32);
                    if expected[next] < best_turns {
                        best = Some(next);
                        best_turns = expected[next];
                    }
                }
                turns += best_turns;
                for t in 1..=RACE_TURNS {
                    within[t] += best.map_or(1.0, |next| finished_by[next][t - 1] as f64);
                }
            }
            expected[race] = 1.0 + turns / 6.0;
            finished_by[race] = within.map(|p| (p / 6.0) as f32);
        }
        Races { finished_by }
    }

    fn get() -> &'static Races {
        static RACES_TABLE: OnceLock<Races> = OnceLock::new();
        RACES_TABLE.get_or_init(Races::new)
    }

    /// The race of stones heading for e5.
    fn of(stones: &[u8; 6]) -> &'static [f32; RACE_TURNS + 1] {
        let distance = |c: u8| {
            if c == GONE {
                0
            } else {
                distance_home(c) as usize
            }
        };
        let race = stones
            .iter()
            .rev()
            .fold(0, |race, &c| race * 5 + distance(c));
        &Races::get().finished_by[race]
    }
}

/// The estimated probability that the side about to roll in `f` wins (see the module doc).
fn race(f: &Frame) -> f64 {
    let (me, opp) = (Races::of(&f.me), Races::of(&turned(f.opp)));
    let mut win = 0.0;
    for t in 1..=RACE_TURNS {
        win += (me[t] - me[t - 1]) as f64 * (1.0 - opp[t - 1] as f64);
    }
    win
}

/// The evaluation of a position after the setup: the estimated probability that the player
/// the notation names wins (about to roll: the race estimate of the module doc; after a roll:
/// its best move's value, 1 for a move that wins at once, else 1 minus the opponent's
/// estimate). A finished game gives 1 or 0 for that player (0: it names the loser); a setup is
/// `NotApplicable`.
pub fn evaluate(game: &Einstein, state: &EinsteinState) -> Result<f64> {
    match state.phase() {
        Phase::Setup => Err(Error::NotApplicable(
            "einstein: the evaluation needs a position after the setup".into(),
        )),
        Phase::Over(winner) => Ok((winner == state.player()) as u8 as f64),
        Phase::Roll => Ok(race(&Frame::of(state))),
        Phase::Move(_) => {
            let mut actions = Vec::new();
            game.legal_actions(state, &mut actions);
            let mut best = 0.0f64;
            for a in actions {
                let mut child = state.clone();
                game.apply(&mut child, a);
                let value = match child.phase() {
                    Phase::Over(_) => 1.0,
                    _ => 1.0 - race(&Frame::of(&child)),
                };
                best = best.max(value);
            }
            Ok(best)
        }
    }
}

/// A depth-limited expectiminimax over frames, counted and stopped by `meter`.
struct Search<'a> {
    meter: Meter<'a>,
    /// Positions searched at least two turns deep, by their key ([`Frame::key`]: equivalent
    /// positions share it): the turns searched and the value. A value searched as deep or
    /// deeper serves again. At most `room` positions are kept.
    table: FxHashMap<u64, (u32, f64)>,
    room: usize,
}

impl Search<'_> {
    /// The value for the side about to roll in `f`, searched `depth` turns deep.
    fn about_to_roll(&mut self, f: &Frame, depth: u32) -> Result<f64> {
        if depth == 0 {
            return Ok(race(f));
        }
        let key = (depth >= 2).then(|| f.key());
        if let Some(&(searched, value)) = key.and_then(|k| self.table.get(&k)) {
            if searched >= depth {
                return Ok(value);
            }
        }
        self.meter.tick()?;
        let alive = alive(&f.me);
        let mut best_of_stone = [0.0f64; 6];
        for (i, best) in best_of_stone.iter_mut().enumerate() {
            if f.me[i] != GONE {
                *best = self.best_step(f, i, depth)?;
            }
        }
        let mut total = 0.0;
        for die in 1..=6 {
            total += movable_stones(alive, die)
                .map(|n| best_of_stone[n as usize - 1])
                .fold(0.0, f64::max);
        }
        let value = total / 6.0;
        if let Some(k) = key {
            if self.table.len() < self.room {
                self.table.insert(k, (depth, value));
            }
        }
        Ok(value)
    }

    /// The value of stone `i`'s best step for the side about to roll in `f`.
    fn best_step(&mut self, f: &Frame, i: usize, depth: u32) -> Result<f64> {
        let mut best = 0.0f64;
        for dir in 0..3 {
            let value = match f.step(i, dir) {
                None => continue,
                Some(Step::Won) => return Ok(1.0),
                Some(Step::Next(g)) => 1.0 - self.about_to_roll(&g, depth - 1)?,
            };
            best = best.max(value);
        }
        Ok(best)
    }
}

/// EinStein's strongest player: its action in `state` (after a roll; at an arrangement of
/// `setup="choose"`, a uniformly random one), within `ctx`'s limits. In an endgame of at most
/// [`SOLVER_STONES`] stones a side, the exact solver's best move if it answers within half the
/// time (and the node limit, on `ctx`'s threads); otherwise the move of the deepest
/// expectimax the limits allow (see the module doc), at least one turn deep (which ends in
/// microseconds), [`DEPTH_WITHOUT_LIMITS`] turns when there are no limits.
/// Ties go to a move drawn with `rng`. A finished game or a chance node is `NotApplicable`.
pub fn best_action(
    game: &Einstein,
    state: &EinsteinState,
    rng: &mut Rng,
    ctx: &Context,
) -> Result<Action> {
    match game.to_move(state) {
        ToMove::Terminal => {
            return Err(Error::NotApplicable(
                "einstein: the game is over, there is no action to choose".into(),
            ));
        }
        ToMove::Chance => return Err(chance_node_refused()),
        ToMove::Player(_) => {}
    }
    let mut actions = Vec::new();
    game.legal_actions(state, &mut actions);
    if state.phase() == Phase::Setup {
        return Ok(actions[rng.random_range(0..actions.len())]);
    }
    if actions.len() == 1 {
        return Ok(actions[0]);
    }
    let budget = ctx.budget("einstein best_action");
    if stone_counts(state).iter().all(|&n| n <= SOLVER_STONES) {
        let solver_limits = Limits {
            timeout: ctx.limits.timeout.map(|t| t / 2),
            ..ctx.limits.clone()
        };
        let solver_ctx = Context::new(solver_limits, ctx.threads, ctx.cancel);
        match Solver::new(&solver_ctx).solve(game, state) {
            Ok(solution) => {
                if let Some(&(_, action)) = solution.best_moves.first() {
                    return Ok(action);
                }
            }
            Err(Error::SearchLimit { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    // The moves' children, as the opponent about to roll sees them (None: a win at once).
    let children: Vec<Option<Frame>> = actions
        .iter()
        .map(|&a| {
            let mut child = state.clone();
            game.apply(&mut child, a);
            match child.phase() {
                Phase::Over(_) => None,
                _ => Some(Frame::of(&child)),
            }
        })
        .collect();
    if let Some(i) = children.iter().position(Option::is_none) {
        return Ok(actions[i]);
    }
    let unlimited = ctx.limits.timeout.is_none() && ctx.limits.max_nodes.is_none();
    let deepest = if unlimited {
        DEPTH_WITHOUT_LIMITS
    } else {
        MAX_DEPTH
    };
    let mut search = Search {
        meter: Meter::new(budget, None),
        table: FxHashMap::default(),
        room: hash_map_cap(ctx.limits.memory_mb, 24),
    };
    // The root's moves, the best of the last search first.
    let mut order: Vec<usize> = (0..actions.len()).collect();
    let mut best: Vec<usize> = order.clone();
    for depth in 0..deepest {
        let mut values: Vec<Option<f64>> = vec![None; actions.len()];
        let mut stopped = false;
        for &i in &order {
            let child = children[i].as_ref().expect("no move wins at once here");
            match search.about_to_roll(child, depth) {
                Ok(v) => values[i] = Some(1.0 - v),
                Err(Error::SearchLimit { .. }) if depth > 0 => {
                    stopped = true;
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        // A search stopped part-way counts once it has valued the last search's best move:
        // the moves it valued compete, the others are taken to be no better.
        if stopped && values[order[0]].is_none() {
            break;
        }
        let top = values
            .iter()
            .flatten()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        best = (0..actions.len())
            .filter(|&i| values[i] == Some(top))
            .collect();
        if stopped || top == 1.0 {
            break;
        }
        order.sort_by(|&a, &b| {
            values[b]
                .partial_cmp(&values[a])
                .expect("values are numbers")
        });
    }
    Ok(actions[best[rng.random_range(0..best.len())]])
}
