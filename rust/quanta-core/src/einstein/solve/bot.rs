//! The bot: the solver's move in endgames, a heuristic before, and games against random play.

use super::{Frame, Solver, Step, alive, turned};
use crate::batch::{Split, map_rows};
use crate::einstein::{Einstein, EinsteinState, GONE, Phase, Setup, movable_stones};
use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng, ToMove};
use crate::search::{Context, Limits};
use rand::Rng as _;
use std::sync::atomic::AtomicBool;

/// Steps from `cell` to the corner of the side heading for e5 (a diagonal step counts one).
pub(super) fn distance_home(cell: u8) -> u32 {
    let (row, col) = (cell / 5, cell % 5);
    (4 - row).max(4 - col) as u32
}

/// For the side to roll in `f`: how many of the six rolls let it win at once, and the sum over
/// the six rolls of the distance to its corner of the nearest stone that roll lets move.
fn threats(f: &Frame) -> (u32, u32) {
    let alive = alive(&f.me);
    let (mut wins, mut distance) = (0, 0);
    for die in 1..=6 {
        let stones = || movable_stones(alive, die).map(|n| n as usize - 1);
        if stones().any(|i| (0..3).any(|dir| matches!(f.step(i, dir), Some(Step::Won)))) {
            wins += 1;
        }
        distance += stones().map(|i| distance_home(f.me[i])).min().unwrap_or(0);
    }
    (wins, distance)
}

/// The heuristic's move in a rolled position: a move that wins at once if there is one (the
/// first); otherwise a move that leaves the opponent the fewest rolls that win at once, among
/// those the one that most increases (the opponent's expected distance) minus (the mover's
/// expected distance) after it, each side's expected distance being the mean over the six
/// rolls of the distance to its corner of the nearest stone the roll lets move (a diagonal
/// step counts one); ties broken uniformly at random with `rng`.
pub fn heuristic_move(game: &Einstein, state: &EinsteinState, rng: &mut Rng) -> Option<Action> {
    let mut actions = Vec::new();
    game.legal_actions(state, &mut actions);
    let mut best: Option<((u32, i64), Action)> = None;
    let mut ties = 0u32;
    for a in actions {
        let mut child = state.clone();
        game.apply(&mut child, a);
        if let Phase::Over(_) = child.phase() {
            return Some(a);
        }
        // The opponent rolls next: `me` of the child's frame.
        let f = Frame::of(&child);
        let (their_wins, their_distance) = threats(&f);
        let (_, our_distance) = threats(&f.other_side());
        let score = (their_wins, our_distance as i64 - their_distance as i64);
        match best {
            Some((b, _)) if score > b => {}
            Some((b, _)) if score == b => {
                ties += 1;
                if rng.random_range(0..=ties) == 0 {
                    best = Some((score, a));
                }
            }
            _ => {
                best = Some((score, a));
                ties = 0;
            }
        }
    }
    best.map(|(_, a)| a)
}

impl Frame {
    /// The same position as seen by the other side (as if it were about to roll).
    fn other_side(&self) -> Frame {
        Frame {
            me: turned(self.opp),
            opp: turned(self.me),
        }
    }
}

/// Stones on the board of each side.
pub(super) fn stone_counts(state: &EinsteinState) -> [usize; 2] {
    state
        .stones()
        .map(|side| side.iter().filter(|&&c| c != GONE).count())
}

/// The refusal of a player asked to act at a chance node.
pub(super) fn chance_node_refused() -> Error {
    Error::NotApplicable(
        "einstein: a player moves after a roll or arranges its stones; this is a chance node \
         (roll the die, or the random setup)"
            .into(),
    )
}

/// The bot's action: in a rolled position, the solver's best move once each side has at most
/// `solver_stones` stones and the solve ends within the solver's limits (the first best move
/// in ascending action order), else [`heuristic_move`]; at an arrangement it arranges its
/// stones uniformly at random. `None` in a finished game; before a roll (a chance node) it is
/// `NotApplicable`. `solved` is set when the solver chose the move.
pub fn bot_move(
    game: &Einstein,
    state: &EinsteinState,
    solver: &mut Solver,
    solver_stones: usize,
    rng: &mut Rng,
    solved: &mut bool,
) -> Result<Option<Action>> {
    *solved = false;
    match game.to_move(state) {
        ToMove::Terminal => return Ok(None),
        ToMove::Chance => return Err(chance_node_refused()),
        ToMove::Player(_) => {}
    }
    if state.phase() == Phase::Setup {
        let mut arrangements = Vec::new();
        game.legal_actions(state, &mut arrangements);
        return Ok(Some(arrangements[rng.random_range(0..arrangements.len())]));
    }
    if stone_counts(state).iter().all(|&n| n <= solver_stones) {
        match solver.solve(game, state) {
            Ok(solution) => {
                *solved = true;
                return Ok(solution.best_moves.first().map(|&(_, action)| action));
            }
            Err(Error::SearchLimit { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(heuristic_move(game, state, rng))
}

/// The outcome of one game of [`play_against_random`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The bot's side (player 0 moves first).
    pub bot: u8,
    pub bot_won: bool,
    /// The bot's moves, and those the solver chose.
    pub moves: u32,
    pub solved: u32,
}

/// Games `first..first + n` (seeded by `seed`, see [`map_rows`]) of the bot against uniform
/// random play, with random setups: in game `i` the bot is player `i % 2`, and player 0 moves
/// first. Each solve runs within `limits` (its own clock and node count), a game keeps one
/// table, and `limits.memory_mb` is shared by the tables of the games running at once (one a
/// thread).
pub fn play_against_random(
    first: u64,
    n: usize,
    seed: u64,
    threads: Option<usize>,
    solver_stones: usize,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Vec<Played>> {
    let game = Einstein {
        setup: Setup::Random,
        first: 0,
    };
    let workers = crate::search::in_pool(threads, rayon::current_num_threads)?;
    let per_game = Limits {
        memory_mb: (limits.memory_mb / workers.max(1)).max(1),
        ..limits.clone()
    };
    let rows = map_rows(
        first,
        n,
        seed,
        threads,
        Split::Rows,
        cancel,
        |number, rng| {
            let ctx = Context::new(per_game.clone(), Some(1), cancel);
            let mut solver = Solver::new(&ctx);
            let bot = (number % 2) as u8;
            let mut played = Played {
                bot,
                bot_won: false,
                moves: 0,
                solved: 0,
            };
            let mut state = game.new_state();
            let mut actions = Vec::new();
            loop {
                let action = match game.to_move(&state) {
                    ToMove::Terminal => break,
                    ToMove::Chance => game.sample_chance(&state, rng),
                    ToMove::Player(p) if p == bot => {
                        let mut solved = false;
                        let action =
                            bot_move(&game, &state, &mut solver, solver_stones, rng, &mut solved)?;
                        played.moves += 1;
                        played.solved += solved as u32;
                        action.ok_or_else(|| Error::NotApplicable("einstein: no move".into()))?
                    }
                    ToMove::Player(_) => {
                        game.legal_actions(&state, &mut actions);
                        actions[rng.random_range(0..actions.len())]
                    }
                };
                game.apply(&mut state, action);
            }
            played.bot_won = state.phase() == Phase::Over(bot);
            Ok(played)
        },
    )?;
    rows.into_iter().collect()
}
