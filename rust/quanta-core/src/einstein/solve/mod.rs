//! The exact solver of EinStein würfelt nicht (any position after the setup; fast in endgames),
//! and a bot that uses it.
//!
//! **Value.** [`solve`] gives the probability that the player to move (or about to roll) wins
//! under optimal play by both sides: an expectiminimax over the die, each of the six rolls with
//! probability 1/6, and after a roll the best of that roll's moves. EinStein has no draws, so
//! the value of a move is 1 minus the opponent's value after it.
//!
//! **Search.** A depth-first recursion over the positions in which a side is about to roll,
//! memoised in a transposition table (at most [`Memo::capacity`] slots within
//! `memory_mb`; once full it stops storing and the search goes on, still exact, only slower).
//! Every move takes a stone one step nearer its corner, so the sum of the stones' distances to
//! their corners strictly decreases and the recursion ends (at most 70 plies deep). A position
//! is stored as seen by the side to roll, turned half a turn when that is player 1 so that it
//! always moves towards e5 (one entry serves both sides), and as the smallest of the keys of
//! the positions that are the same game: its mirror image across the a1-e5 diagonal (which
//! swaps "right" and "down" and keeps the diagonal), and each side's stones renumbered
//! `n -> 7 - n` (die `d` then moves what die `7 - d` moved), a lone stone under any number
//! (see `Numbered`); a position's value is the mean of its six rolls' values added in pairs
//! `d`, `7 - d`, so that the equivalent positions' values agree bit for bit. A roll selects one
//! stone or two; each stone's best move is searched once per position and shared by the rolls
//! that select it, and a step that wins at once (onto the corner, or onto the opponent's last
//! stone) ends that stone's search.
//!
//! **Reach.** The work grows with the cells the stones can still reach: endgames are quick
//! (three stones a side take milliseconds at the median, four a side a fraction of a second),
//! while a position whose stones stand far back (e.g. three a side on their start corners)
//! does not fit in the table and is out of reach.
//! Figures: benches/README.md, *EinStein: the endgame solver*.
//!
//! The table is one array that all threads share without locks (see [`Memo`]). An expansion
//! first asks the processor for the slots of all its children at once, so that their cache
//! misses overlap, and Linux is asked to back the table with huge pages: the probes land all
//! over it, and finding their pages' addresses costs as much as the probes. The threads
//! (`threads`, default one per core) each search the whole tree from the root, in different
//! orders (the root's moves started at different places, a position's stones taken in
//! opposite orders), and share what they find through the table; the first to finish gives
//! the answer, which is the same whichever thread gives it, since a position's value does not
//! depend on the order it was found in. The table grows between rounds: when it is three
//! quarters full the round ends, the table doubles (in place once large: the largest table's
//! memory is reserved once, only what the table uses is ever touched, and the threads touch
//! the new part together), and a new round starts from the root, finding in the table what the
//! last one stored.
//!
//! Moves are the engine's: [`TARGET`] for the steps and [`movable_stones`] for which stones a
//! roll lets move; the root's moves come from [`Game::legal_actions`] in ascending order, and
//! ties between equally good moves go to the first.
//!
//! Limits (time, nodes) and the cancel flag stop the search with `SearchLimit` /
//! `Interrupted` (a node is a position expanded, not one found in the table); an answer
//! returned is exact. The node count is the total of the threads (with several threads it
//! varies a little from run to run: the value and the moves do not). The node limit is exact on
//! one thread; with several, each thread adds its count to the total every `FLUSH` (1,024)
//! nodes, so the search can pass the limit by up to that many a thread.
//!
//! **Bot.** [`bot_move`]: the solver's move once each side has at most `solver_stones` stones
//! (and the solve ends within its limits), before that a heuristic (see [`heuristic_move`]).
//! [`play_against_random`] plays it against uniform random play, game by game through
//! [`map_rows`](crate::batch::map_rows), one table per game kept from move to move.

use crate::einstein::{
    Einstein, EinsteinState, FIRST_ROLL, GOAL, GONE, Phase, STONES, TARGET, movable_stones,
};
use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng, ToMove};
use crate::knowledge::Knowledge;
use crate::search::{Context, Meter, pool_threads};
use crate::solver::{Answer, SolverInfo};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};

mod bot;
mod memo;
mod player;

pub use bot::{Played, bot_move, heuristic_move, play_against_random};
use memo::{Memo, Stored};
pub use player::{DEPTH_WITHOUT_LIMITS, SOLVER_STONES, best_action, evaluate};

/// The answer for a position after the setup.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The probability that the player to move (or about to roll) wins with optimal play. In a
    /// finished game, 1 or 0 for the player the notation names (the loser: 0).
    pub value: f64,
    /// For each roll still to come (all six before the roll, the one rolled after it), a best
    /// move: the first in ascending action order of those of the highest value. Empty in a
    /// finished game.
    pub best_moves: Vec<(u8, Action)>,
    /// Positions expanded (not found in the table).
    pub nodes: u64,
    pub seconds: f64,
}

fn setup_error() -> Error {
    Error::NotApplicable(
        "einstein: the solver needs a position after the setup (a side to roll or to move), \
         not an arrangement of the stones"
            .into(),
    )
}

/// The corner the side to roll heads for in a [`Frame`].
const HOME: u8 = GOAL[0];
/// Directions of the side to roll in a [`Frame`] (index into [`TARGET`]): player 0's.
const FORWARD: usize = 0;

/// `stones` turned half a turn (a1 <-> e5), removed stones left removed.
fn turned(stones: [u8; STONES]) -> [u8; STONES] {
    stones.map(|c| if c == GONE { GONE } else { HOME - c })
}

/// Bit `n - 1` set while stone n is on the board.
fn alive(stones: &[u8; STONES]) -> u8 {
    stones
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &c)| bits | (((c != GONE) as u8) << i))
}

/// Key code of a cell: the cell, 31 for a removed stone.
fn code(cell: u8) -> u64 {
    cell.min(31) as u64
}

/// Key code of a cell's mirror image across the a1-e5 diagonal ((row, col) -> (col, row)).
fn mirror_code(cell: u8) -> u64 {
    /// The codes of cells 0-24, then 31 for every other value (a removed stone).
    const MIRROR: [u8; 256] = {
        let mut codes = [31; 256];
        let mut cell = 0;
        while cell < 25 {
            codes[cell] = ((cell % 5) * 5 + cell / 5) as u8;
            cell += 1;
        }
        codes
    };
    MIRROR[cell as usize] as u64
}

/// One side's stones in a key, five bits a stone (a cell, or 31 for a removed stone): as
/// numbered and renumbered `n -> 7 - n`, on the board and in its mirror image. The numbers
/// matter only through which stones a roll lets move, and [`movable_stones`] treats die `d`
/// and stone `n` as die `7 - d` treats stone `7 - n`: the stones renumbered give the same game
/// (the die is uniform); and a lone stone moves at every roll, whatever its number. So a side
/// is keyed by the smaller of its two numberings, a lone stone as stone 1.
#[derive(Clone)]
struct Numbered {
    /// Stone 1 lowest, then stone 6 lowest; the same in the mirror image.
    board: [u64; 2],
    mirror: [u64; 2],
    stones: u32,
}

/// The keys of a position's children, each from its parent's with a stone or two changed
/// (what [`Frame::key`] gives, found faster).
struct ChildKeys {
    /// The stones of the side to roll next, then of the side that steps, both turned.
    sides: [Numbered; 2],
}

impl ChildKeys {
    fn of(f: &Frame) -> ChildKeys {
        ChildKeys {
            sides: [Numbered::of(&turned(f.opp)), Numbered::of(&turned(f.me))],
        }
    }

    /// The key after stone `i` of the side to roll in `f` steps to `to` (a step that does not
    /// win at once).
    #[inline]
    fn after(&self, f: &Frame, i: usize, to: u8) -> u64 {
        let [mut next, mut stepped] = [self.sides[0].clone(), self.sides[1].clone()];
        stepped.set(i, HOME - to);
        if let Some(j) = f.opp.iter().position(|&c| c == to) {
            next.remove(j);
        } else if let Some(j) = (0..STONES).find(|&j| j != i && f.me[j] == to) {
            stepped.remove(j);
        }
        let plain = next.plain() | (stepped.plain() << 30);
        let mirrored = next.mirrored() | (stepped.mirrored() << 30);
        plain.min(mirrored)
    }
}

impl Numbered {
    /// Stone `i + 1` onto `cell` (on the board).
    #[inline]
    fn set(&mut self, i: usize, cell: u8) {
        let (c, m) = (code(cell), mirror_code(cell));
        let (low, high) = (5 * i, 5 * (STONES - 1 - i));
        self.board[0] = (self.board[0] & !(31 << low)) | (c << low);
        self.board[1] = (self.board[1] & !(31 << high)) | (c << high);
        self.mirror[0] = (self.mirror[0] & !(31 << low)) | (m << low);
        self.mirror[1] = (self.mirror[1] & !(31 << high)) | (m << high);
    }

    /// Stone `j + 1` removed.
    #[inline]
    fn remove(&mut self, j: usize) {
        let gone = (31 << (5 * j), 31 << (5 * (STONES - 1 - j)));
        self.board[0] |= gone.0;
        self.board[1] |= gone.1;
        self.mirror[0] |= gone.0;
        self.mirror[1] |= gone.1;
        self.stones -= 1;
    }

    #[inline]
    fn of(cells: &[u8; STONES]) -> Numbered {
        let (mut board, mut mirror, mut stones) = ([0, 0], [0, 0], 0);
        for (i, &cell) in cells.iter().enumerate() {
            let (c, m) = (code(cell), mirror_code(cell));
            board[0] |= c << (5 * i);
            board[1] |= c << (5 * (STONES - 1 - i));
            mirror[0] |= m << (5 * i);
            mirror[1] |= m << (5 * (STONES - 1 - i));
            stones += (cell != GONE) as u32;
        }
        Numbered {
            board,
            mirror,
            stones,
        }
    }

    /// The key of `fields` (either numbering): the smaller, or a lone stone as stone 1.
    #[inline]
    fn least(&self, [numbered, renumbered]: [u64; 2]) -> u64 {
        const OTHERS: u64 = (1 << 30) - 32;
        if self.stones == 1 {
            // The lone stone's field is the only one under 31: and-ing the fields gives it.
            let x = numbered;
            OTHERS | (x & (x >> 5) & (x >> 10) & (x >> 15) & (x >> 20) & (x >> 25) & 31)
        } else {
            numbered.min(renumbered)
        }
    }

    #[inline]
    fn plain(&self) -> u64 {
        self.least(self.board)
    }

    #[inline]
    fn mirrored(&self) -> u64 {
        self.least(self.mirror)
    }
}

/// A position as the side about to roll sees it, turned so that it heads for e5 like player
/// 0: `me[n - 1]` and `opp[n - 1]` are the cells of stone n of each side, or `GONE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Frame {
    me: [u8; STONES],
    opp: [u8; STONES],
}

/// What a step leads to.
enum Step {
    /// The mover has won: onto its corner or onto the opponent's last stone.
    Won,
    /// The opponent is about to roll in this position.
    Next(Frame),
}

impl Frame {
    /// The frame of the side to roll or to move in `state`.
    fn of(state: &EinsteinState) -> Frame {
        let [zero, one] = state.stones();
        if state.player() == 0 {
            Frame { me: zero, opp: one }
        } else {
            Frame {
                me: turned(one),
                opp: turned(zero),
            }
        }
    }

    /// The table key: 5 bits per stone (`me` in bits 0-29, `opp` in 30-59), the smallest of
    /// the keys of the equivalent positions (see [`Numbered`]): the position and its mirror
    /// image, each side's stones numbered either way.
    #[inline]
    fn key(&self) -> u64 {
        let (me, opp) = (Numbered::of(&self.me), Numbered::of(&self.opp));
        let plain = me.plain() | (opp.plain() << 30);
        let mirrored = me.mirrored() | (opp.mirrored() << 30);
        plain.min(mirrored)
    }

    /// Stone `i` (of the side to roll) steps in direction `dir`; `None` off the board.
    fn step(&self, i: usize, dir: usize) -> Option<Step> {
        let to = TARGET[FORWARD][self.me[i] as usize][dir];
        if to == GONE {
            return None;
        }
        if to == HOME {
            return Some(Step::Won);
        }
        let (mut me, mut opp) = (self.me, self.opp);
        me[i] = to;
        if let Some(c) = opp.iter_mut().find(|c| **c == to) {
            *c = GONE;
            if opp.iter().all(|&c| c == GONE) {
                return Some(Step::Won);
            }
        } else if let Some(j) = (0..STONES).find(|&j| j != i && me[j] == to) {
            me[j] = GONE;
        }
        Some(Step::Next(Frame {
            me: turned(opp),
            opp: turned(me),
        }))
    }
}

/// Why a round of the search stopped before its answer.
enum Halt {
    /// A limit, or Ctrl-C: the solve ends with this error.
    Stop(Error),
    /// The table must grow, or another thread has the answer or met a limit: the round ends.
    Round,
}

impl From<Error> for Halt {
    fn from(e: Error) -> Self {
        Halt::Stop(e)
    }
}

/// One thread's search in a round: the shared table, its own node count, and the flag that
/// ends the round for every thread. Threads differ only in the order they take the root's
/// moves and a position's stones, so that they start on different parts of the tree and
/// share what they find through the table.
struct Worker<'s, 'a> {
    memo: &'s Memo,
    meter: Meter<'a>,
    round_over: &'s AtomicBool,
    index: usize,
    /// Slots this thread took and has not added to the table's count yet, and how many it
    /// adds at a time (see [`Memo::count`]).
    uncounted: usize,
    batch: usize,
}

/// The mean of the values of the six rolls (`values[d - 1]` for die d), added in pairs of
/// rolls `d` and `7 - d` so that the sum is the same, bit for bit, with the dice reversed: a
/// side's stones renumbered `n -> 7 - n` give each roll's value to roll `7 - d` (see
/// [`Numbered`]), and the two positions share an entry of the table.
fn mean_of_rolls(values: [f64; 6]) -> f64 {
    let [one, two, three, four, five, six] = values;
    ((one + six) + (two + five) + (three + four)) / 6.0
}

/// For each rolled position of a solve's root, every legal move with its value.
type RootValues = Vec<Vec<(Action, f64)>>;

/// For each roll still to come (all six before the roll, the one rolled after it), the rolled
/// position: what the root of a solve decides.
fn rolled_positions(game: &Einstein, state: &EinsteinState) -> Vec<(u8, EinsteinState)> {
    match state.phase() {
        Phase::Move(die) => vec![(die, state.clone())],
        Phase::Roll => (1..=6)
            .map(|die| {
                let mut s = state.clone();
                game.apply(&mut s, FIRST_ROLL + die as Action - 1);
                (die, s)
            })
            .collect(),
        Phase::Setup | Phase::Over(_) => Vec::new(),
    }
}

impl Worker<'_, '_> {
    /// The probability that the side to roll in `f` (key `key`) wins.
    fn roll(&mut self, f: &Frame, key: u64) -> std::result::Result<f64, Halt> {
        match self.memo.get(key) {
            Some(v) => Ok(v),
            None => self.expand(f, key),
        }
    }

    /// The value of `f`, not in the table: every stone's best step, each roll's best stone.
    /// The children's slots are fetched together before any is read, so that their cache
    /// misses overlap.
    fn expand(&mut self, f: &Frame, key: u64) -> std::result::Result<f64, Halt> {
        self.meter.tick()?;
        if self.round_over.load(Relaxed) {
            return Err(Halt::Round);
        }
        let mut children: [[Option<(Frame, u64)>; 3]; STONES] = [[None; 3]; STONES];
        let mut best = [0.0f64; STONES];
        let mut won = [false; STONES];
        let keys = ChildKeys::of(f);
        for i in (0..STONES).filter(|&i| f.me[i] != GONE) {
            for (dir, slot) in children[i].iter_mut().enumerate() {
                match f.step(i, dir) {
                    Some(Step::Won) => won[i] = true,
                    Some(Step::Next(_)) if won[i] => {}
                    Some(Step::Next(child)) => {
                        let k = keys.after(f, i, TARGET[FORWARD][f.me[i] as usize][dir]);
                        debug_assert_eq!(k, child.key());
                        self.memo.prefetch(k);
                        *slot = Some((child, k));
                    }
                    None => {}
                }
            }
        }
        for n in 0..STONES {
            let i = if self.index % 2 == 1 {
                STONES - 1 - n
            } else {
                n
            };
            if f.me[i] != GONE {
                best[i] = if won[i] {
                    1.0
                } else {
                    self.best_step(&children[i])?
                };
            }
        }
        let alive = alive(&f.me);
        let value = mean_of_rolls(std::array::from_fn(|d| {
            movable_stones(alive, d as u8 + 1)
                .map(|n| best[n as usize - 1])
                .fold(0.0, f64::max)
        }));
        match self.memo.insert(key, value) {
            Stored::New => {
                self.uncounted += 1;
                if self.uncounted >= self.batch {
                    self.memo.count(self.uncounted);
                    self.uncounted = 0;
                }
                Ok(value)
            }
            Stored::Yes | Stored::Full => Ok(value),
            Stored::Grow => {
                self.round_over.store(true, Relaxed);
                Err(Halt::Round)
            }
        }
    }

    /// The value of a stone's best step, given the positions its steps lead to (and their
    /// keys): those in the table first, then the others searched.
    fn best_step(&mut self, steps: &[Option<(Frame, u64)>; 3]) -> std::result::Result<f64, Halt> {
        let mut best = 0.0f64;
        let mut unknown = [None; 3];
        for (slot, (child, key)) in unknown.iter_mut().zip(steps.iter().flatten()) {
            match self.memo.get(*key) {
                Some(v) => best = best.max(1.0 - v),
                None => *slot = Some((child, *key)),
            }
        }
        for &(child, key) in unknown.iter().flatten() {
            if best == 1.0 {
                break;
            }
            best = best.max(1.0 - self.roll(child, key)?);
        }
        Ok(best)
    }

    /// The probability that the player who plays `action` in `state` (a rolled position) wins.
    fn action_value(
        &mut self,
        game: &Einstein,
        state: &EinsteinState,
        action: Action,
    ) -> std::result::Result<f64, Halt> {
        let mut child = state.clone();
        game.apply(&mut child, action);
        match child.phase() {
            Phase::Over(winner) => Ok(if winner == state.player() { 1.0 } else { 0.0 }),
            _ => {
                let f = Frame::of(&child);
                Ok(1.0 - self.roll(&f, f.key())?)
            }
        }
    }

    /// Every legal move of each rolled position with its value, in ascending action order.
    /// Thread `index` starts at a different move and goes round.
    fn root(
        &mut self,
        game: &Einstein,
        rolled: &[(u8, EinsteinState)],
    ) -> std::result::Result<RootValues, Halt> {
        let mut moves: Vec<(usize, Action)> = Vec::new();
        let mut actions = Vec::new();
        for (r, (_, state)) in rolled.iter().enumerate() {
            game.legal_actions(state, &mut actions);
            moves.extend(actions.iter().map(|&a| (r, a)));
        }
        let start = if moves.is_empty() {
            0
        } else {
            self.index * moves.len() / 2 % moves.len()
        };
        let mut values = vec![Vec::new(); rolled.len()];
        for &(r, a) in moves[start..].iter().chain(&moves[..start]) {
            values[r].push((a, self.action_value(game, &rolled[r].1, a)?));
        }
        for v in &mut values {
            v.sort_by_key(|&(a, _)| a);
        }
        Ok(values)
    }
}

/// A search and its table, which it keeps from one call to the next (a bot keeps one for a
/// whole game: what one move's search learnt answers the next).
pub struct Solver<'a> {
    ctx: Context<'a>,
    memo: Memo,
}

impl<'a> Solver<'a> {
    pub fn new(ctx: &Context<'a>) -> Self {
        Solver {
            ctx: ctx.clone(),
            memo: Memo::new(ctx.limits.memory_mb),
        }
    }

    /// Positions in the table.
    pub fn stored(&self) -> usize {
        self.memo.len()
    }

    /// The threads of a solve: `threads`, or one per core.
    fn threads(&self) -> usize {
        pool_threads(
            self.ctx
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        )
    }

    /// Every legal move of each rolled position of `state` (see [`rolled_positions`]) with
    /// its value, and the nodes searched. The search runs in rounds: every thread searches the
    /// whole root, in its own order, sharing the table; the first to finish ends the round
    /// with the answer (every thread would give the same: a position's value does not depend
    /// on the order it was found in). A round also ends when the table is three quarters full: it grows,
    /// and the next round starts again from the root, finding what was found in the table.
    fn search(
        &mut self,
        game: &Einstein,
        rolled: &[(u8, EinsteinState)],
    ) -> Result<(RootValues, u64, f64)> {
        let budget = self.ctx.budget("einstein solver");
        let total = AtomicU64::new(0);
        let threads = self.threads();
        loop {
            let round_over = AtomicBool::new(false);
            let worker = |index| Worker {
                memo: &self.memo,
                meter: Meter::new(budget.clone(), Some(&total)),
                round_over: &round_over,
                index,
                uncounted: 0,
                batch: self.memo.batch(threads),
            };
            // An answer or a limit ends the round for the other threads too.
            let run = |mut w: Worker| {
                let answer = w.root(game, rolled);
                w.memo.count(w.uncounted);
                if !matches!(answer, Err(Halt::Round)) {
                    w.round_over.store(true, Relaxed);
                }
                answer
            };
            let answers: Vec<_> = if threads == 1 {
                vec![run(worker(0))]
            } else {
                std::thread::scope(|scope| {
                    let others: Vec<_> = (1..threads)
                        .map(|i| {
                            let w = worker(i);
                            scope.spawn(move || run(w))
                        })
                        .collect();
                    let mut answers = vec![run(worker(0))];
                    answers.extend(others.into_iter().map(|h| {
                        h.join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    }));
                    answers
                })
            };
            let mut grow = false;
            for answer in answers {
                match answer {
                    Ok(values) => {
                        return Ok((values, total.load(Relaxed), budget.seconds()));
                    }
                    Err(Halt::Stop(e)) => return Err(e),
                    Err(Halt::Round) => grow = true,
                }
            }
            debug_assert!(grow);
            // The time limit holds through the growth too (up to half a second for a large
            // table): past it, the growth stops and the search with it.
            budget.check(total.load(Relaxed))?;
            let mut late = None;
            let grown = self.memo.grow(threads, &mut || {
                late = budget.check(total.load(Relaxed)).err();
                late.is_some()
            });
            if !grown {
                return Err(late.expect("a growth stops only past a limit"));
            }
        }
    }

    /// Solves `state` (see [`solve`]), keeping the table for the next call.
    pub fn solve(&mut self, game: &Einstein, state: &EinsteinState) -> Result<Solution> {
        if let Phase::Setup = state.phase() {
            return Err(setup_error());
        }
        let rolled = rolled_positions(game, state);
        let (values, nodes, seconds) = self.search(game, &rolled)?;
        let mut best_moves = Vec::with_capacity(rolled.len());
        let mut bests = Vec::with_capacity(rolled.len());
        for ((die, _), moves) in rolled.iter().zip(&values) {
            let mut best = *moves.first().ok_or_else(|| {
                Error::NotApplicable("einstein: a rolled position without a move".into())
            })?;
            for &(a, v) in &moves[1..] {
                if v > best.1 {
                    best = (a, v);
                }
            }
            bests.push(best.1);
            best_moves.push((*die, best.0));
        }
        let value = match (state.phase(), &bests[..]) {
            (Phase::Over(winner), _) => (winner == state.player()) as u8 as f64,
            (_, &[rolled]) => rolled,
            (_, &[one, two, three, four, five, six]) => {
                mean_of_rolls([one, two, three, four, five, six])
            }
            _ => return Err(Error::NotApplicable("einstein: not six rolls".into())),
        };
        Ok(Solution {
            value,
            best_moves,
            nodes,
            seconds,
        })
    }

    /// Every legal action of `state` with its value (see [`analyze`]), and the nodes searched.
    pub fn analyze(
        &mut self,
        game: &Einstein,
        state: &EinsteinState,
    ) -> Result<(Vec<(Action, f64)>, u64)> {
        if let Phase::Setup = state.phase() {
            return Err(setup_error());
        }
        let rolled = rolled_positions(game, state);
        let (values, nodes, _) = self.search(game, &rolled)?;
        let values = match state.phase() {
            Phase::Roll => rolled
                .iter()
                .zip(values)
                .map(|((die, _), moves)| {
                    let best = moves.iter().map(|m| m.1).fold(f64::NEG_INFINITY, f64::max);
                    (FIRST_ROLL + *die as Action - 1, best)
                })
                .collect(),
            _ => values.into_iter().flatten().collect(),
        };
        Ok((values, nodes))
    }
}

/// Solves a position after the setup: the probability that the player to move (or about to
/// roll) wins with optimal play, and a best move for each roll still to come. A finished game
/// is answered (value 1 or 0 for the player the notation names, no moves); a setup is
/// `NotApplicable`.
pub fn solve(game: &Einstein, state: &EinsteinState, ctx: &Context) -> Result<Solution> {
    Solver::new(ctx).solve(game, state)
}

/// Every legal action of a position after the setup with its value, and the nodes searched:
/// after a roll, each move with the probability that its player wins after it; before the
/// roll, each roll (actions 75-80) with the probability that the player about to roll wins
/// after rolling it. Empty in a finished game; a setup is `NotApplicable`.
pub fn analyze(
    game: &Einstein,
    state: &EinsteinState,
    ctx: &Context,
) -> Result<(Vec<(Action, f64)>, u64)> {
    Solver::new(ctx).analyze(game, state)
}

#[cfg(test)]
mod tests;

/// Each best move of `solution` (from `state`) as `(roll, move string)`: before the roll, the
/// move of the player who rolls each number.
pub fn best_move_strings(
    game: &Einstein,
    state: &EinsteinState,
    solution: &Solution,
) -> Result<Vec<(u8, String)>> {
    let mut out = Vec::with_capacity(solution.best_moves.len());
    for &(die, action) in &solution.best_moves {
        let rolled = if solution.best_moves.len() > 1 {
            game.play(state, crate::einstein::FIRST_ROLL + die as Action - 1)?
        } else {
            state.clone()
        };
        out.push((die, game.action_to_string(&rolled, action)?));
    }
    Ok(out)
}

/// What EinStein knows beyond its rules: its solver ([`solve`]'s win probability, and the
/// best move of each roll still to come), its evaluator (the race estimate, [`evaluate`]) and
/// its best player ([`best_action`]).
impl Knowledge for Einstein {
    const SOLVER: Option<SolverInfo> = Some(SolverInfo {
        function: "quanta.einstein.solve",
        value: "the mover's probability of winning with perfect play by both sides",
        options: &[],
        returns: Some(crate::solver::win_probability_returns),
    });

    fn solve(&self, state: &EinsteinState, ctx: &Context) -> Result<Answer> {
        let sol = solve(self, state, ctx)?;
        let strings = best_move_strings(self, state, &sol)?;
        let line = strings
            .iter()
            .map(|(die, text)| format!("{die}:{text}"))
            .collect::<Vec<_>>()
            .join(" ");
        let best = match sol.best_moves[..] {
            [(_, action)] => Some(action),
            _ => None,
        };
        Ok(Answer::exact(sol.value, best, line, sol.nodes, sol.seconds))
    }

    const EVALUATOR: Option<&'static str> = Some(
        "quanta.einstein.evaluate: the probability that the mover wins the race home, each \
         side stepping its stones as if nothing stood in their way",
    );

    fn evaluate(&self, state: &EinsteinState, _rng: &mut Rng, returns: &mut [f64]) -> Result<bool> {
        let ToMove::Player(mover) = self.to_move(state) else {
            return Ok(false);
        };
        match evaluate(self, state) {
            Ok(p) => {
                crate::solver::win_probability_returns(p, mover as usize, returns);
                Ok(true)
            }
            Err(Error::NotApplicable(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    const BEST_PLAYER: &'static str = "quanta.einstein.best_action: the exact solver once each \
        side has at most 3 stones (within half the time), else an expectiminimax over the die \
        as deep as the time allows, its leaves valued by the race estimate (evaluate)";

    fn best_action(&self, state: &EinsteinState, rng: &mut Rng, ctx: &Context) -> Result<Action> {
        best_action(self, state, rng, ctx)
    }
}
