//! The best player of the real game ([`best_action`]) and its position evaluator
//! ([`evaluate`]), acting only on what the team knows: every card of the position, not the order
//! of the unseen cards.
//!
//! Both look at sampled orders of the unseen cards (the same orders for every action: sample `i`
//! shuffled by `row_rng(seed, i)`) and ask, for each, how far the team could play on knowing
//! that order: [`reach`], an open search cut at a horizon of [`Sight::horizon`] more unseen
//! cards within [`Sight::nodes`] nodes. Its score is the share of the horizon the search showed
//! a line to survive: 1 for a line that survives it (or wins the game), the most cards any line
//! it searched survived over the horizon otherwise. A search stopped by its node cap still
//! scores what it has shown, a lower bound, never a guess, and the cap is a node count, so the
//! move depends only on the position and the seed. An action's score is the mean over the
//! samples (one expectation for all the orders, not the best action of each).
//!
//! Once every card is known there is no chance left: the player follows a winning line of
//! [`solve_open`](super::solve_open) (within [`Sight::endgame_nodes`]) and scores actions by
//! samples only where that search was cut. A Jack's look is always taken: it costs nothing and
//! shows the next card.

use super::{Open, random_order, rule_move, solve_open, team_actions};
use crate::batch::{Split, map_rows};
use crate::error::{Error, Result};
use crate::game::{Action, Game};
use crate::repair_unit::{PEEK, RepairState, RepairUnit, Step};
use crate::search::{Context, Limits};

/// How far and how wide the player looks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sight {
    /// Sampled orders of the unseen cards.
    pub samples: usize,
    /// Unseen cards each sampled search looks ahead.
    pub horizon: u32,
    /// Nodes of each sampled search.
    pub nodes: u64,
    /// Nodes of the search for a winning line once every card is known.
    pub endgame_nodes: u64,
}

/// The settings of [`best_action`] and [`evaluate`] (docs/perf/repair_unit.md, *The best
/// player*).
pub const SIGHT: Sight = Sight {
    samples: 16,
    horizon: 8,
    nodes: 20_000,
    endgame_nodes: 1_000_000,
};

/// The share of the horizon (up to `sight.horizon` more unseen cards, or the whole game when
/// fewer are left) that the team can be shown to play on from `s` when the unseen cards come
/// in `order`, within `sight.nodes` nodes: 1 for a line that gets there or wins, 0 for a
/// position already lost.
pub fn reach(
    game: &RepairUnit,
    s: &RepairState,
    order: &[super::Card],
    sight: &Sight,
    ctx: &Context,
) -> Result<(f64, u64)> {
    match s.step {
        Step::Won => return Ok((1.0, 0)),
        Step::Lost => return Ok((0.0, 0)),
        _ => {}
    }
    let limits = Limits {
        max_nodes: Some(sight.nodes),
        timeout: None,
        memory_mb: 16,
    };
    let one = Context::new(limits, None, ctx.cancel);
    let mut search = Open::new(
        game,
        order,
        s,
        sight.horizon,
        &one,
        std::time::Instant::now(),
    );
    // The horizon, or every unseen card and the win after them: one step more.
    let goal = sight.horizon.min(s.unseen.count_ones() + 1);
    let share = match search.run(s) {
        Ok((true, _)) => 1.0,
        Ok((false, _)) | Err(Error::SearchLimit { .. }) => search.reached as f64 / goal as f64,
        Err(e) => return Err(e),
    };
    Ok((share, search.meter.sync()))
}

/// The mean [`reach`] of each of `positions` over the same `sight.samples` orders of the
/// unseen cards (`row_rng(seed, i)`), summed in sample order (the same at any thread count),
/// and the nodes searched.
fn mean_reach(
    game: &RepairUnit,
    s: &RepairState,
    positions: &[RepairState],
    sight: &Sight,
    seed: u64,
    ctx: &Context,
) -> Result<(Vec<f64>, u64)> {
    let rows = map_rows(
        0,
        sight.samples,
        seed,
        ctx.threads,
        Split::Rows,
        ctx.cancel,
        |_, rng| {
            let order = random_order(s, rng);
            positions
                .iter()
                .map(|p| reach(game, p, &order, sight, ctx))
                .collect::<Result<Vec<_>>>()
        },
    )?;
    let mut means = vec![0.0; positions.len()];
    let mut nodes = 0;
    for row in rows {
        for (m, (share, n)) in means.iter_mut().zip(row?) {
            *m += share / sight.samples as f64;
            nodes += n;
        }
    }
    Ok((means, nodes))
}

/// Once every card is known: [`solve_open`](super::solve_open) within
/// `sight.endgame_nodes` (`None` past them).
fn endgame(
    game: &RepairUnit,
    s: &RepairState,
    sight: &Sight,
    ctx: &Context,
) -> Result<Option<super::OpenSolution>> {
    let limits = Limits {
        max_nodes: Some(sight.endgame_nodes),
        timeout: None,
        memory_mb: 64,
    };
    match solve_open(game, s, &[], &Context::new(limits, None, ctx.cancel)) {
        Ok(sol) => Ok(Some(sol)),
        Err(Error::SearchLimit { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The best player's move: the action with the highest mean [`reach`] over [`SIGHT`]'s sampled
/// orders (see the module docs), ties going to [`rule_move`]'s choice, then to the first legal
/// action; a Jack's look whenever it is offered; once every card is known, a winning line's
/// move. Depends only on the position and `seed` (the samples run on `ctx.threads`; `ctx`'s
/// limits are not used: the searches are capped in nodes by [`SIGHT`]).
pub fn best_action(game: &RepairUnit, s: &RepairState, seed: u64, ctx: &Context) -> Result<Action> {
    best_action_with(game, s, &SIGHT, seed, ctx)
}

/// [`best_action`] with other settings.
pub fn best_action_with(
    game: &RepairUnit,
    s: &RepairState,
    sight: &Sight,
    seed: u64,
    ctx: &Context,
) -> Result<Action> {
    let actions = team_actions(game, s, "best_action")?;
    if actions.len() == 1 {
        return Ok(actions[0]);
    }
    if actions.contains(&PEEK) {
        return Ok(PEEK);
    }
    if s.unseen == 0 {
        if let Some(a) = endgame(game, s, sight, ctx)?.and_then(|sol| sol.line.first().copied()) {
            return Ok(a);
        }
    }
    let children: Vec<RepairState> = actions
        .iter()
        .map(|&a| {
            let mut child = *s;
            game.apply(&mut child, a);
            child
        })
        .collect();
    let (means, _) = mean_reach(game, s, &children, sight, seed, ctx)?;
    let best = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let rule = rule_move(game, s);
    let is_best = |a: Action| {
        actions
            .iter()
            .position(|&b| b == a)
            .is_some_and(|i| means[i] == best)
    };
    if is_best(rule) {
        return Ok(rule);
    }
    Ok(actions
        .iter()
        .zip(&means)
        .find(|&(_, &m)| m == best)
        .map_or(rule, |(&a, _)| a))
}

/// The position evaluator of a tree search over the real game: the team's return from `s`
/// estimated from what it knows, in [-1, 1]. A finished game gives its return; with every card
/// known, ±1 where [`solve_open`](super::solve_open) decides within [`SIGHT`]'s endgame nodes;
/// otherwise 2 × the mean [`reach`] over [`SIGHT`]'s sampled orders − 1 (orders from `seed`;
/// the horizon-cut estimate of [`best_action`], not a probability of winning).
pub fn evaluate(game: &RepairUnit, s: &RepairState, seed: u64, ctx: &Context) -> Result<f64> {
    match s.step {
        Step::Won => return Ok(1.0),
        Step::Lost => return Ok(-1.0),
        _ => {}
    }
    if s.unseen == 0 {
        if let Some(sol) = endgame(game, s, &SIGHT, ctx)? {
            return Ok(if sol.winnable { 1.0 } else { -1.0 });
        }
    }
    let (means, _) = mean_reach(game, s, std::slice::from_ref(s), &SIGHT, seed, ctx)?;
    Ok(2.0 * means[0] - 1.0)
}
