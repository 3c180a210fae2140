//! [`solve_expected`]: the draw order is unknown. Exact expectimax over the draws (each
//! uniform over the unseen cards); the objective is the highest probability of filling the
//! grid, then the highest expected final score (see [`Expected`]).

use super::open::Node;
use super::solitaire::Solitaire;
use super::{meter, table_cap};
use crate::error::Result;
use crate::game::{Action, Game, Rng};
use super::Advice;
use crate::knowledge::{Knowledge, Rollout};
use crate::quincunx::{Quincunx, QuincunxState};
use crate::solver::{Answer, SolverInfo};
use rand::Rng as _;
use crate::quincunx::cards::{self, hand_penalty};
use crate::search::{Context, Meter};
use rustc_hash::FxHashMap;
use std::time::Instant;

/// The exact value of a position with the draw order unknown. Objective (in this order): the
/// highest probability of filling the grid, then the highest expected final score (a lost game
/// counts with its turn points, as the rules score it). Win probabilities within `1e-9` of each
/// other count as equal.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    /// Probability of filling the grid with this play.
    pub p_win: f64,
    /// Expected final score (points so far included).
    pub score: f64,
    /// The action to take (`None` when the game is over).
    pub best_action: Option<Action>,
    /// Every legal action with its (win probability, expected final score).
    pub actions: Vec<(Action, f64, f64)>,
    pub nodes: u64,
    pub seconds: f64,
}

const EPS: f64 = 1e-9;

/// (win probability, expected future value) compared as the objective says.
fn better(a: (f64, f64), b: (f64, f64)) -> bool {
    a.0 > b.0 + EPS || (a.0 >= b.0 - EPS && a.1 > b.1)
}

struct Expect<'a> {
    table: FxHashMap<(u128, u64), (f64, f64)>,
    cap: usize,
    budget: Meter<'a>,
}

impl Expect<'_> {
    /// The value of the decision node `pos` (points so far ignored): (win probability,
    /// expected future points less the final penalty).
    fn decision(&mut self, pos: &Solitaire) -> Result<(f64, f64)> {
        if pos.empty() == 0 {
            return Ok((1.0, -hand_penalty(pos.hand) as f64));
        }
        if pos.hand == 0 {
            return Ok((0.0, 0.0));
        }
        self.budget.tick()?;
        let key = (Node::new(pos.grid, 0).key, pos.hand);
        if let Some(&v) = self.table.get(&key) {
            return Ok(v);
        }
        let mut best = (-1.0, f64::NEG_INFINITY);
        for a in pos.actions() {
            let v = self.after(pos, a)?;
            if better(v, best) {
                best = v;
            }
        }
        if self.table.len() < self.cap {
            self.table.insert(key, best);
        }
        Ok(best)
    }

    /// The value of taking `action` at `pos`, points of the placement included.
    fn after(&mut self, pos: &Solitaire, action: Action) -> Result<(f64, f64)> {
        let (card, cell) = Solitaire::split(action);
        let mut next = *pos;
        let (points, draws) = next.place(card, cell);
        let (p, e) = self.chance(&next, draws)?;
        Ok((p, e + points as f64))
    }

    /// The value after drawing `pending` cards, one at a time, each uniform over the pile.
    fn chance(&mut self, pos: &Solitaire, pending: u32) -> Result<(f64, f64)> {
        if pending == 0 || pos.pile == 0 {
            let mut settled = *pos;
            settled.points = 0;
            return self.decision(&settled);
        }
        let n = pos.pile.count_ones() as f64;
        let (mut p, mut e) = (0.0, 0.0);
        for c in cards::cards(pos.pile) {
            let mut next = *pos;
            next.draw(c);
            let (pc, ec) = self.chance(&next, pending - 1)?;
            p += pc;
            e += ec;
        }
        Ok((p / n, e / n))
    }
}

/// Expectimax over every draw from `pos` (see [`Expected`] for the objective). One thread; its
/// table holds at most what fits in the context's `memory_mb`.
pub fn solve_expected(pos: &Solitaire, ctx: &Context) -> Result<Expected> {
    let (limits, cancel) = (&ctx.limits, ctx.cancel);
    let budget = meter(
        "quincunx solve_expected",
        limits,
        cancel,
        Instant::now(),
        None,
    );
    let mut ex = Expect {
        table: FxHashMap::default(),
        cap: table_cap(
            limits.memory_mb,
            std::mem::size_of::<((u128, u64), (f64, f64))>(),
        ),
        budget,
    };
    let mut actions = Vec::new();
    let mut best: Option<(Action, (f64, f64))> = None;
    let (p, e) = if pos.is_over() {
        ex.decision(&Solitaire { points: 0, ..*pos })?
    } else {
        for a in pos.actions() {
            let v = ex.after(pos, a)?;
            actions.push((a, v.0, pos.points as f64 + v.1));
            if best.is_none_or(|(_, b)| better(v, b)) {
                best = Some((a, v));
            }
        }
        best.map(|b| b.1).unwrap_or((0.0, 0.0))
    };
    Ok(Expected {
        p_win: p,
        score: pos.points as f64 + e,
        best_action: best.map(|b| b.0),
        actions,
        nodes: ex.budget.own(),
        seconds: ex.budget.seconds(),
    })
}

/// What Quincunx knows beyond its rules: its solver ([`solve_expected`]'s probability of
/// filling the solitaire grid, and its best placement), the greedy player as its rollout, and
/// its best player.
impl Knowledge for Quincunx {
    const SOLVER: Option<SolverInfo> = Some(SolverInfo {
        function: "quanta.quincunx.solve_expected",
        value: "the solitaire player's probability of filling the grid with best play, the \
                draws unknown",
        options: &[("players", "1")],
        returns: None,
    });

    fn solve(&self, state: &QuincunxState, ctx: &Context) -> Result<Answer> {
        let e = solve_expected(&Solitaire::from_state(self, state)?, ctx)?;
        let line = match e.best_action {
            Some(a) => self.action_to_string(state, a)?,
            None => String::new(),
        };
        Ok(Answer::exact(e.p_win, e.best_action, line, e.nodes, e.seconds))
    }

    /// Greedy-guided search: a placement is valued by play that scores.
    const ROLLOUT: Rollout = Rollout::Greedy;

    const BEST_PLAYER: &'static str = "solitaire: quanta.quincunx.best_move (8 sampled draw \
        orders, each solved open); 2-4 players: information-set MCTS with greedy-guided \
        search within the time";

    fn best_action(&self, state: &QuincunxState, rng: &mut Rng, ctx: &Context) -> Result<Action> {
        if self.players == 1 {
            let pos = Solitaire::from_state(self, state)?;
            match super::best_move(&pos, 8, rng.random(), Some(8), Some(2000), ctx) {
                Ok(Advice { action: Some(a), .. }) => return Ok(a),
                // Past its limits the player falls back on the greedy placement.
                Ok(_) | Err(crate::Error::SearchLimit { .. }) => {
                    if let Some(a) = crate::greedy::greedy_action(self, state, rng) {
                        return Ok(a);
                    }
                }
                Err(e) => return Err(e),
            }
        }
        crate::bots::ismcts::within(self, state, rng, ctx)
    }
}
