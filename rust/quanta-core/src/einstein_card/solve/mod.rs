//! The exact solver of EinStein a la Card with both hands open (`open_hands=True`).
//!
//! **Which positions.** With both hands open nothing is hidden that matters: a heap's order is
//! never part of a position (docs/rules/einstein_card.md), so every draw is a chance event
//! with the odds of the copies left, and the game is one of perfect information with chance.
//! A position in which some hand is hidden is refused (`NotApplicable`: a bot, or an
//! information-set search, plays those), as are a chance node at the root (a draw, a roll:
//! solve each outcome's position instead), the setup and the deal. A finished game is
//! answered: its value for the player the notation names, no action.
//!
//! **Value.** [`solve`] gives the expected return of the player to act at the root (the
//! engine's `to_move`: the opponent of the card's player while Murphy Light's stone is named
//! and while Full Murphy's step is made) when both sides play optimally: +1 a win, −1 a loss,
//! 0 a draw (all 36 cards played without a winner), so the value lies in [−1, 1]; it is the
//! win probability minus the loss probability. [`analyze`] gives every legal action's value on
//! the same scale, for the same player.
//!
//! **Search.** An expectiminimax over the engine's own moves ([`Game::legal_actions`],
//! [`Game::chance_outcomes`], [`Game::apply`]), as player 0's expected return throughout: at a
//! decision node the player to move (whoever `to_move` names) takes the best of its actions
//! for itself (the highest for player 0, the lowest for player 1): a step that wins at once
//! if there is one, else the actions in ascending order, stopping at a win that nothing can
//! beat; at a chance node the outcomes' values are weighted by their odds and added in
//! ascending action order, and an outcome whose position equals the one before (a
//! Schroedinger roll of 2 or 3 after a 1, of 5 or 6 after a 4) takes that one's value. Every
//! card played takes one from the hands, so the recursion ends within the cards left.
//!
//! Below the root each position is searched within a window (alpha-beta at the decisions,
//! Ballard's Star1 at the chance nodes: an outcome's window is what would put the sum outside
//! the node's whatever the other outcomes are worth, every value lying in [−1, 1]), and a
//! search that leaves its window says only on which side ([`Found`]). The windows never change
//! a value found: a position cut off is one that the whole tree's search would not take, and a
//! chance node's windows are widened by [`MARGIN`] (1e-9), far beyond the rounding of its
//! sums, so every value found is the whole search's, bit for bit. The root's actions are
//! searched with the whole window: each is exact.
//!
//! The positions at which a card is played, and those of a number to move (a number card, a Da
//! Capo copying one, Heisenberg's j: one reached from several rolls), are memoised in a
//! transposition table, the shared lock-free [`SharedTable`] of [`crate::search::table`]: it
//! starts small and grows within `memory_mb`, and once at its cap it overwrites, which costs
//! only a repeated search, never a wrong value. A position is keyed by 128 bits ([`key`]): the
//! stones, the player, the phase, each player's hand and heap (as counts: a discard pile is the
//! rest), and the two last cards played, which matter only to a Da Capo still to be played (so
//! they are dropped once both are gone). The table holds a position's value, and beside it
//! (under its key marked [`AT_LEAST`] or [`AT_MOST`]) the best bounds that searches cut off by
//! their windows have found. The windows and the bounds halve the nodes of endgames from random
//! play and cut their time by about three (docs/perf/einstein_card.md).
//!
//! **Threads.** The root's actions are shared among `threads` threads (rayon; `None`: every
//! core), which share the table. A position's value is computed the same way whichever thread
//! computes it, or finds it in the table (the same additions in the same order), so the values,
//! the value and the best action are the same at any thread count; only the node count varies
//! a little. The best action is the lowest of those of the highest value.
//!
//! Limits (time, nodes) and the cancel flag stop the search with `SearchLimit` /
//! `Interrupted` (a node is a position expanded, the root included; not one found in the table
//! or a finished game); an answer returned is exact. The node limit is exact on one thread;
//! with several, each thread adds its count to the total every `FLUSH` (1,024) nodes, so the
//! search can pass the limit by up to that many a thread.
//!
//! **Reach.** What grows with the cards left in the heaps is the tree: with at most three cards
//! left in each heap, positions from random play take well under a second; with five, some
//! take longer than ten seconds. Figures: benches/README.md, *EinStein a la Card: the exact
//! solver with open hands*.

use super::{DA_CAPO, EinsteinCard, EinsteinCardState, KINDS, Phase};
use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng, ToMove, splitmix64};
use crate::knowledge::Knowledge;
use crate::solver::{Answer, SolverInfo};
use crate::search::table::{Entry, SharedTable, Table};
use crate::search::{Context, Meter};
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

#[cfg(test)]
mod tests;

/// The answer for a decision node (or a finished game).
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The expected return of the player to act with optimal play by both sides, in [−1, 1]
    /// (+1 a win, −1 a loss, 0 a draw). In a finished game, the return of the player the
    /// notation names.
    pub value: f64,
    /// The lowest action of the highest value; `None` in a finished game.
    pub best_action: Option<Action>,
    /// Positions expanded (not found in the table), the root included.
    pub nodes: u64,
    pub seconds: f64,
}

/// The refusal of a position with a hidden hand.
pub const HIDDEN_HANDS: &str = "the a la Card solver needs both hands open (open_hands=True): \
     with hidden hands use a bot (quanta.bots.Best, or information-set search)";

/// What the table knows of a position: its value for player 0, as the complement of the
/// value's bits (never 0: that would be a NaN, and 0 is an empty slot).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Known(u64);

impl Known {
    fn of(value: f64) -> Known {
        Known(!value.to_bits())
    }

    fn value(self) -> Option<f64> {
        (self != Known::NOTHING).then(|| f64::from_bits(!self.0))
    }
}

impl Entry for Known {
    const NOTHING: Known = Known(0);

    fn word(self) -> u64 {
        self.0
    }

    fn from_word(word: u64) -> Known {
        Known(word)
    }
}

/// A position's key: 128 bits as two words. The first: each stone's cell (5 bits a stone, 31
/// once removed: player 0's stones 1-6, then player 1's; 60 bits), the player (bit 60) and the
/// phase's low three bits. The second: each player's cards (26 bits a player, see
/// [`cards_code`]), the phase's high four bits, then the code of each player's last card (4
/// bits each: 0 none, else the kind + 1; both 0 once no Da Capo is left to play).
pub(crate) fn key(s: &EinsteinCardState) -> [u64; 2] {
    let mut low = 0u64;
    for (p, stones) in s.board.stones().iter().enumerate() {
        for (n, &cell) in stones.iter().enumerate() {
            low |= (cell.min(31) as u64) << (5 * (6 * p + n));
        }
    }
    let phase = phase_code(s.phase);
    low |= (s.player as u64) << 60 | (phase & 7) << 61;
    let da_capo_left =
        (0..2).any(|p| s.hands[p][DA_CAPO as usize] + s.heaps[p][DA_CAPO as usize] > 0);
    let last = |p: u8| match s.last(p) {
        Some(k) if da_capo_left => k as u64 + 1,
        _ => 0,
    };
    let high = cards_code(s, 0)
        | cards_code(s, 1) << 26
        | (phase >> 3) << 52
        | last(0) << 56
        | last(1) << 60;
    [low, high]
}

/// `player`'s hand and heap in 26 bits: per number kind (two copies) one of the six (hand,
/// heap) counts with at most two in all, per special card (one copy) one of in hand, in the
/// heap or played; 6^6 * 3^6 codes in all, fewer than 2^26.
fn cards_code(s: &EinsteinCardState, player: usize) -> u64 {
    let (hand, heap) = (&s.hands[player], &s.heaps[player]);
    (0..KINDS).fold(0u64, |code, k| {
        let (h, p) = (hand[k] as u64, heap[k] as u64);
        if k < 6 {
            code * 6 + [0, 3, 5][h as usize] + p
        } else {
            code * 3 + 2 * h + p
        }
    })
}

/// The phase as a number below 128.
fn phase_code(phase: Phase) -> u64 {
    match phase {
        Phase::Play => 0,
        Phase::Draw => 1,
        Phase::Number(n) => 1 + n as u64,
        Phase::Murphy => 8,
        Phase::Full => 9,
        Phase::Dirac => 10,
        Phase::Heisenberg => 11,
        Phase::Rolled(i) => 11 + i as u64,
        Phase::Schroedinger => 18,
        Phase::Named(c) => 19 + c as u64,
        Phase::Marked(c) => 44 + c as u64,
        Phase::Over => 69,
        Phase::Setup => 70,
        Phase::Deal => 71,
    }
}

/// Marks a key's entry as a bound: the value is at least (at most) the one stored. The bits
/// are the phase's high bits, 0 in every stored position (a card to play, a number to move).
const AT_LEAST: u64 = 1 << 52;
const AT_MOST: u64 = 1 << 53;

/// The key of a bound of the position of `key`.
fn bound([low, high]: [u64; 2], kind: u64) -> [u64; 2] {
    debug_assert_eq!(high & (AT_LEAST | AT_MOST), 0);
    [low, high | kind]
}

fn hash([low, high]: [u64; 2]) -> u64 {
    splitmix64(low ^ splitmix64(high))
}

/// Player 0's return in a finished game.
fn final_value(s: &EinsteinCardState) -> f64 {
    match s.board.winner() {
        Some(0) => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// Slots of the first table (32 bytes each: 128 KB).
const FIRST_SLOTS: usize = 1 << 12;

/// The most slots the table may grow to within `memory_mb`, the smaller tables it grew from
/// (a third of it at most) included.
fn table_cap(memory_mb: usize) -> usize {
    let bytes = memory_mb.max(1) << 20;
    let slot = 8 * Table::<u64, Known>::WORDS;
    (bytes / slot * 3 / 4).max(1024).next_power_of_two() / 2
}

/// One thread's search of the positions under one root action.
struct Worker<'s, 'a> {
    game: &'s EinsteinCard,
    shared: &'s SharedTable<u64, Known>,
    table: &'s Table<u64, Known>,
    meter: Meter<'a>,
    /// Empty slots this worker filled, not yet added to the table's count.
    filled: usize,
    /// Spare buffers of actions and of chance outcomes, one per level in use.
    actions: Vec<Vec<Action>>,
    outcomes: Vec<Vec<(Action, f64)>>,
}

impl<'s, 'a> Worker<'s, 'a> {
    fn new(game: &'s EinsteinCard, shared: &'s SharedTable<u64, Known>, meter: Meter<'a>) -> Self {
        Worker {
            game,
            shared,
            table: shared.latest(),
            meter,
            filled: 0,
            actions: Vec::new(),
            outcomes: Vec::new(),
        }
    }

    /// Counts a node; now and then checks the limits and lets the table grow.
    fn count(&mut self) -> Result<()> {
        if self.meter.tick()? {
            self.shared
                .used
                .fetch_add(std::mem::take(&mut self.filled), Relaxed);
            if self.shared.wants_to_grow() {
                self.shared.grow(hash);
            }
            self.table = self.shared.latest();
        }
        Ok(())
    }

    /// Player 0's expected return in `s` with optimal play, if it lies strictly between `low`
    /// and `high` (else at least which side of the window it lies on; see [`Found`]).
    fn value(&mut self, s: &EinsteinCardState, low: f64, high: f64) -> Result<Found> {
        let stored = matches!(s.phase, Phase::Play | Phase::Number(_));
        let key = stored.then(|| key(s));
        if let Some(k) = key {
            if let Some(v) = self.read(k) {
                return Ok(Found::Exact(v));
            }
            if low > f64::NEG_INFINITY || high < f64::INFINITY {
                if self.read(bound(k, AT_LEAST)).is_some_and(|v| v >= high) {
                    return Ok(Found::Above);
                }
                if self.read(bound(k, AT_MOST)).is_some_and(|v| v <= low) {
                    return Ok(Found::Below);
                }
            }
        }
        let found = match self.game.to_move(s) {
            ToMove::Terminal => return Ok(Found::Exact(final_value(s))),
            ToMove::Chance => {
                self.count()?;
                self.chance(s, low, high)?
            }
            ToMove::Player(p) => {
                self.count()?;
                if p == 0 {
                    self.decision(s, low, high, 1.0)?
                } else {
                    self.decision(s, -high, -low, -1.0)?.flipped()
                }
            }
        };
        if let Some(k) = key {
            match found {
                Found::Exact(v) => self.learn(k, v, |_, new| new),
                Found::Above => self.learn(bound(k, AT_LEAST), high, f64::max),
                Found::Below => self.learn(bound(k, AT_MOST), low, f64::min),
            }
        }
        Ok(found)
    }

    /// The value stored under `key`.
    fn read(&self, key: [u64; 2]) -> Option<f64> {
        self.table.read(key, hash(key)).and_then(Known::value)
    }

    /// Stores `value` under `key`, merged with what is stored (`merge(old, value)`).
    fn learn(&mut self, key: [u64; 2], value: f64, merge: impl FnOnce(f64, f64) -> f64) {
        let taken = self.table.update(key, hash(key), |old| {
            Known::of(old.value().map_or(value, |old| merge(old, value)))
        });
        self.filled += taken as usize;
    }

    /// The outcomes' values weighted by their odds, added in ascending action order; or
    /// `Below` (`Above`) as soon as the outcomes searched so far put the sum there whatever the
    /// others are worth (Ballard's Star1). Each outcome is searched within the window that
    /// tells, widened by [`MARGIN`].
    fn chance(&mut self, s: &EinsteinCardState, low: f64, high: f64) -> Result<Found> {
        let mut outcomes = self.outcomes.pop().unwrap_or_default();
        self.game.chance_outcomes(s, &mut outcomes);
        let mut rest: f64 = outcomes.iter().map(|o| o.1).sum();
        let mut sum = 0.0;
        let mut last: Option<(EinsteinCardState, f64)> = None;
        for &(a, odds) in &outcomes {
            rest -= odds;
            let mut child = s.clone();
            self.game.apply(&mut child, a);
            let v = match &last {
                Some((before, v)) if *before == child => *v,
                _ => {
                    let below = (low - sum - rest) / odds - MARGIN;
                    let above = (high - sum + rest) / odds + MARGIN;
                    match self.value(&child, below, above)? {
                        Found::Exact(v) => v,
                        cut => {
                            self.outcomes.push(outcomes);
                            return Ok(cut);
                        }
                    }
                }
            };
            sum += odds * v;
            last = Some((child, v));
        }
        self.outcomes.push(outcomes);
        Ok(Found::Exact(sum))
    }

    /// The best of the actions for the player to move, whose return is `sign` times player
    /// 0's, the window and the answer in its terms: first a step that wins at once, then the
    /// actions in ascending order, each searched within (the best so far, `high`); stopping
    /// at a win, which nothing beats, or at a value of `high` or more (`Above`).
    fn decision(&mut self, s: &EinsteinCardState, low: f64, high: f64, sign: f64) -> Result<Found> {
        let mut actions = self.actions.pop().unwrap_or_default();
        self.game.legal_actions(s, &mut actions);
        if matches!(
            s.phase,
            Phase::Number(_) | Phase::Named(_) | Phase::Full | Phase::Dirac
        ) {
            for &a in &actions {
                let mut child = s.clone();
                self.game.apply(&mut child, a);
                if child.phase == Phase::Over && sign * final_value(&child) == 1.0 {
                    self.actions.push(actions);
                    return Ok(Found::Exact(1.0));
                }
            }
        }
        let mut best = f64::NEG_INFINITY;
        let mut found = None;
        for &a in &actions {
            let mut child = s.clone();
            self.game.apply(&mut child, a);
            let floor = low.max(best);
            let answer = if sign > 0.0 {
                self.value(&child, floor, high)?
            } else {
                self.value(&child, -high, -floor)?.flipped()
            };
            match answer {
                Found::Exact(v) if v > best => {
                    best = v;
                    if best == 1.0 {
                        found = Some(Found::Exact(1.0));
                    } else if best >= high {
                        found = Some(Found::Above);
                    }
                }
                Found::Exact(_) | Found::Below => {}
                Found::Above => found = Some(Found::Above),
            }
            if found.is_some() {
                break;
            }
        }
        self.actions.push(actions);
        Ok(found.unwrap_or(if best > low {
            Found::Exact(best)
        } else {
            Found::Below
        }))
    }
}

/// What a search within a window (`low`, `high`) finds of a position's value: the value, or
/// only that it is at most `low` or at least `high`. A value found is the one a search of the
/// whole tree gives, bit for bit: every value added or compared in it is such a value, and a
/// position cut off is one that a search of the whole tree would not take (at a decision) or
/// whose parent it would not take (at a chance node, whose window is widened by [`MARGIN`]
/// beyond the rounding of the sums).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Found {
    Exact(f64),
    Below,
    Above,
}

impl Found {
    /// The same answer for the other player (the value and the window negated).
    fn flipped(self) -> Found {
        match self {
            Found::Exact(v) => Found::Exact(-v),
            Found::Below => Found::Above,
            Found::Above => Found::Below,
        }
    }
}

/// How far a chance node's outcome's window is widened beyond the bounds that cut the node: far
/// more than the rounding of its sums (about 1e-16), far less than a value's step that matters.
const MARGIN: f64 = 1e-9;

/// The solver's refusals: a hidden hand, the setup or the deal, a chance node.
fn check(game: &EinsteinCard, state: &EinsteinCardState) -> Result<()> {
    if game.open_hands != [true, true] {
        return Err(Error::NotApplicable(format!(
            "einstein_card: {HIDDEN_HANDS}"
        )));
    }
    if matches!(state.phase, Phase::Setup | Phase::Deal) {
        return Err(Error::NotApplicable(
            "einstein_card: the solver needs a position after the deal, not the setup or the \
             deal of the hands"
                .into(),
        ));
    }
    if game.to_move(state) == ToMove::Chance {
        return Err(Error::NotApplicable(
            "einstein_card: the solver needs a decision, not a chance node (a draw or a \
             roll): solve the position after each outcome (state.chance_outcomes())"
                .into(),
        ));
    }
    Ok(())
}

/// What a search of a decision node finds.
struct Searched {
    /// Every legal action with its value for the player to act, in ascending action order.
    values: Vec<(Action, f64)>,
    nodes: u64,
    seconds: f64,
}

/// Searches the decision node `state`, `player` to act.
fn search(
    game: &EinsteinCard,
    state: &EinsteinCardState,
    player: u8,
    ctx: &Context,
) -> Result<Searched> {
    let budget = ctx.budget("einstein_card solver");
    let total = AtomicU64::new(0);
    let shared = SharedTable::<u64, Known>::new(FIRST_SLOTS, table_cap(ctx.limits.memory_mb));
    let mut root = Meter::new(budget.clone(), Some(&total));
    root.tick()?;
    root.check()?;
    drop(root);
    let mut actions = Vec::new();
    game.legal_actions(state, &mut actions);
    let sign = if player == 0 { 1.0 } else { -1.0 };
    let values: Vec<Result<f64>> = ctx.in_pool(|| {
        actions
            .par_iter()
            .map(|&a| {
                let mut w = Worker::new(game, &shared, Meter::new(budget.clone(), Some(&total)));
                let mut child = state.clone();
                game.apply(&mut child, a);
                // The whole window: every root action's value is exact. + 0.0: a draw is 0,
                // not -0 (for player 1).
                match w.value(&child, f64::NEG_INFINITY, f64::INFINITY)? {
                    Found::Exact(v) => Ok(sign * v + 0.0),
                    cut => unreachable!("no value lies outside the whole window: {cut:?}"),
                }
            })
            .collect()
    })?;
    let values = actions
        .iter()
        .zip(values)
        .map(|(&a, v)| v.map(|v| (a, v)))
        .collect::<Result<Vec<_>>>()?;
    Ok(Searched {
        values,
        nodes: total.load(Relaxed),
        seconds: budget.seconds(),
    })
}

/// Solves a position of EinStein a la Card with both hands open: the expected return of the
/// player to act with optimal play (in [−1, 1]) and the lowest of the best actions. A finished
/// game is answered (the return of the player the notation names, no action); a hidden hand,
/// a chance node, the setup or the deal is `NotApplicable`.
pub fn solve(game: &EinsteinCard, state: &EinsteinCardState, ctx: &Context) -> Result<Solution> {
    check(game, state)?;
    let ToMove::Player(player) = game.to_move(state) else {
        let sign = if state.player == 0 { 1.0 } else { -1.0 };
        let value = sign * final_value(state) + 0.0;
        return Ok(Solution {
            value,
            best_action: None,
            nodes: 0,
            seconds: 0.0,
        });
    };
    let Searched {
        values,
        nodes,
        seconds,
    } = search(game, state, player, ctx)?;
    let mut best: Option<(Action, f64)> = None;
    for &(a, v) in &values {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((a, v));
        }
    }
    let (action, value) = best.ok_or_else(|| {
        Error::NotApplicable("einstein_card: a decision without an action".into())
    })?;
    Ok(Solution {
        value,
        best_action: Some(action),
        nodes,
        seconds,
    })
}

/// What EinStein a la Card knows beyond its rules: its solver ([`solve`]'s value and best
/// action, for the game with both hands open; other positions are refused as `solve` refuses
/// them) and its best player: with both hands open the solver's action where it answers
/// within the time, else an information-set search.
impl Knowledge for EinsteinCard {
    const SOLVER: Option<SolverInfo> = Some(SolverInfo {
        function: "quanta.einstein_card.solve",
        value: "the expected return of the player to act with perfect play by both sides, both \
                hands open (+1 a win, -1 a loss, 0 a draw)",
        options: &[("open_hands", "true")],
        returns: Some(crate::solver::expected_return_returns),
    });

    fn solve(&self, state: &EinsteinCardState, ctx: &Context) -> Result<Answer> {
        let sol = solve(self, state, ctx)?;
        let line = match sol.best_action {
            Some(a) => self.action_to_string(state, a)?,
            None => String::new(),
        };
        Ok(Answer::exact(sol.value, sol.best_action, line, sol.nodes, sol.seconds))
    }

    const BEST_PLAYER: &'static str = "with both hands open, the exact solver's best action \
        when it answers within half the time; otherwise information-set MCTS within the time \
        (random rollouts)";

    fn best_action(&self, state: &EinsteinCardState, rng: &mut Rng, ctx: &Context) -> Result<Action> {
        if self.open_hands == [true, true] {
            crate::bots::ismcts::solver_then_search(self, state, rng, ctx)
        } else {
            crate::bots::ismcts::within(self, state, rng, ctx)
        }
    }
}

/// Every legal action of a decision node with its value for the player to act (the expected
/// return with optimal play after it, in [−1, 1]), in ascending action order, and the nodes
/// searched. Empty in a finished game; refusals as [`solve`]'s.
pub fn analyze(
    game: &EinsteinCard,
    state: &EinsteinCardState,
    ctx: &Context,
) -> Result<(Vec<(Action, f64)>, u64)> {
    check(game, state)?;
    let ToMove::Player(player) = game.to_move(state) else {
        return Ok((Vec::new(), 0));
    };
    let found = search(game, state, player, ctx)?;
    Ok((found.values, found.nodes))
}
