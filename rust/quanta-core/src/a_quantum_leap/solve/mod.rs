//! The exact best turn and best Higgs of A Quantum Leap (docs/rules/a_quantum_leap.md, *Best
//! turn and best Higgs*), and batches of whole games played by simple policies.
//!
//! **What is optimised.** From a stage-two position (phase `play`), the rest of the mover's
//! turn: the largest `points − 4·penalty` (the points the mover scores, 4 off when the actions
//! place the fifth card of the turn while another player has cards in hand; 8 off in a
//! partnership game, where both opponents score 4), then the fewest cards,
//! then the lexicographically smallest list of action ids. A position where the mover can
//! place nothing at the start of the turn answers `pass`. The Higgs: the card whose bonuses
//! score the most on b2, the lowest card among equals.
//!
//! **How.** Both criteria fold into one additive value per action: a placement scoring `g`
//! is worth `32·g − 1` (a turn places at most 13 cards, so the −1s only break ties between
//! equal points), the fifth card while another player has cards in hand another `−128`, `end` and
//! `pass` 0. The best turn is then a longest path in the graph of positions the turn can reach
//! (the top cards, the mover's hand, the pattern, the cards placed so far, counted up to the
//! fifth): a depth-first search, moves ordered by their own value, with a fail-soft threshold
//! (a position whose upper bound cannot beat what is already found is cut), memoised on that
//! position (exact values, or upper bounds of the cut ones). The bound gives every card of
//! the hand the most it could score anywhere (2 for its rule, bonuses from what the display
//! and the hand could put round it) and takes the best number of cards, penalty included.
//! The lexicographic tie-break is read afterwards: from the root, the first action in id order
//! whose value plus its child's (asked with a threshold just below what it needs) reaches the
//! optimum.
//!
//! The memo is a hash map within `memory_mb` (once at its cap it stores no more new positions
//! and the search goes on, still exact, only slower). The search runs on one thread (`threads`
//! is checked like every solver's). Limits (time, nodes) and the cancel flag stop it with
//! `SearchLimit` / `Interrupted`; an answer returned is exact. The answers are those of the
//! reference's plain search (`quanta.reference.a_quantum_leap.best_turn`; the tests compare
//! the two on small hands).
//!
//! **Reach.** The work is exponential in the hand: most decision points of a game take well
//! under a millisecond, a full 13-card hand minutes, since the positions the turn can reach
//! number in the millions and the bound is loose exactly there (docs/perf/a_quantum_leap.md).
//! Figures: benches/README.md, *A Quantum Leap: best turn, playouts, policies*.

use super::rules::{
    CELLS, CENTRE, Card, LINES, NEIGHBOURS, Pattern, RULES, cards, legal_rules, rank, rules_of,
    score,
};
use super::{AQuantumLeap, AQuantumLeapState, END, HIGGS_BASE, PASS, Phase};
use crate::batch::{Split, map_rows};
use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng};
use crate::knowledge::{Knowledge, Rollout};
use crate::search::{Context, Limits, Meter, hash_map_cap};
use crate::solver::{Answer, SolverInfo};
use rand::Rng as _;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// The best rest of a turn (see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct BestTurn {
    /// The action ids from the state, in order: placements, then `end` unless the last card
    /// ends the game; `[pass]` when the mover can place nothing.
    pub actions: Vec<Action>,
    /// What the mover scores with them.
    pub points: i32,
    /// Whether they place the fifth card of the turn while another player has cards in hand.
    pub penalty: bool,
    /// What a penalty costs the mover's side against the other: 4, or 8 with partners (each
    /// of the two opponents scores 4).
    pub penalty_points: i32,
    pub nodes: u64,
    pub seconds: f64,
}

impl BestTurn {
    /// What the turn is worth to the mover: `points` less what the opponents gain from a
    /// penalty (how much the mover's lead over every opponent grows; with partners, the
    /// mover's team's lead over the other team).
    pub fn value(&self) -> i32 {
        self.points - self.penalty_points * self.penalty as i32
    }
}

/// The dealer's best Higgs.
#[derive(Debug, Clone, PartialEq)]
pub struct BestHiggs {
    pub action: Action,
    pub card: Card,
    /// What its bonuses score.
    pub points: i32,
    pub nodes: u64,
    pub seconds: f64,
}

/// Below every value of a turn.
const NEG: i32 = i32::MIN / 2;
/// A point is worth this much; a card placed costs 1 (at most 13 per turn, fewer than this).
const POINT: i32 = 32;
/// The penalty: 4 points to each opponent.
const PENALTY: i32 = 4 * POINT;

/// What a penalty costs the mover's side: 4 points, or 8 with partners (two opponents).
fn penalty_points(game: &AQuantumLeap) -> i32 {
    if game.teams { 8 } else { 4 }
}

/// What decides the rest of the turn.
#[derive(Debug, Clone, Copy)]
struct Node {
    tops: [Card; CELLS],
    hand: u64,
    pattern: Pattern,
    /// Cards placed in this turn, counted up to 5.
    placed: u8,
}

impl Node {
    /// Top cards by rank (4 bits each), the hand, the pattern, the cards placed.
    fn key(&self) -> u128 {
        let mut key = self.hand as u128;
        for (cell, &top) in self.tops.iter().enumerate() {
            key |= ((rank(top) - 1) as u128) << (52 + 4 * cell);
        }
        key | (self.pattern.index() as u128) << 88 | (self.placed as u128) << 91
    }
}

/// One action of a node: its value, its id and the node after it (`None` when the turn ends).
#[derive(Clone, Copy)]
struct Move {
    value: i32,
    action: Action,
    child: Option<Node>,
}

#[derive(Clone, Copy)]
struct Entry {
    /// The value (exact) or an upper bound of it.
    value: i32,
    exact: bool,
}

/// `LINES_THROUGH[cell]`: the other two cells of each line through `cell`, in line order, with
/// the cell's place in the line (0, 1 or 2).
const LINES_THROUGH: [[(usize, usize, usize); 4]; CELLS] = {
    let mut out = [[(CELLS, CELLS, 0); 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut k = 0;
        let mut l = 0;
        while l < LINES.len() {
            let line = LINES[l];
            let mut i = 0;
            while i < 3 {
                if line[i] == cell {
                    let (a, b) = match i {
                        0 => (line[1], line[2]),
                        1 => (line[0], line[2]),
                        _ => (line[0], line[1]),
                    };
                    out[cell][k] = (a, b, i);
                    k += 1;
                }
                i += 1;
            }
            l += 1;
        }
        cell += 1;
    }
    out
};

/// The next rank up and down, round the Ace (K → A → 2).
fn up(r: u8) -> u8 {
    r % 13 + 1
}
fn down(r: u8) -> u8 {
    (r + 11) % 13 + 1
}

struct Search<'a> {
    /// Whether another player has cards in hand (the penalty applies).
    others_in_hand: bool,
    /// The penalty's cost in values: `PENALTY`, twice that with partners.
    penalty: i32,
    /// Whether the mover's hand running out ends the game (nobody else holds cards and the
    /// mover has no second stock aside).
    last_cards_end: bool,
    table: FxHashMap<u128, Entry>,
    cap: usize,
    meter: Meter<'a>,
}

impl Search<'_> {
    /// The actions of `n`, with their values and the nodes after them.
    fn moves(&self, n: &Node) -> SmallVec<[Move; 64]> {
        let mut out = SmallVec::new();
        for card in cards(n.hand) {
            for cell in 0..CELLS {
                let base = (card as Action * CELLS as Action + cell as Action) * 5;
                for rule in rules_of(legal_rules(n.pattern, rank(card), rank(n.tops[cell]))) {
                    let p = score(&n.tops, card, cell, Some(rule));
                    let placed = n.placed + 1;
                    let mut value = POINT * p.points - 1;
                    if placed == 5 && self.others_in_hand {
                        value -= self.penalty;
                    }
                    let hand = n.hand & !(1 << card);
                    let child = (hand != 0 || !self.last_cards_end).then(|| {
                        let mut tops = n.tops;
                        tops[cell] = card;
                        Node {
                            tops,
                            hand,
                            pattern: p.pattern,
                            placed: placed.min(5),
                        }
                    });
                    out.push(Move {
                        value,
                        action: base + rule.index() as Action,
                        child,
                    });
                }
            }
        }
        if n.placed > 0 {
            out.push(Move {
                value: 0,
                action: END,
                child: None,
            });
        } else if out.is_empty() {
            out.push(Move {
                value: 0,
                action: PASS,
                child: None,
            });
        }
        out
    }

    /// An upper bound of the value of `n` (see the module doc).
    fn bound(&self, n: &Node) -> i32 {
        if n.hand == 0 {
            return 0;
        }
        // Cells whose top has each rank; ranks in hand, and those in hand twice (2 players'
        // hands are one suit, but a position may say otherwise).
        let mut cells_of = [0u16; 14];
        for (cell, &top) in n.tops.iter().enumerate() {
            cells_of[rank(top) as usize] |= 1 << cell;
        }
        let (mut ranks, mut twice) = (0u16, 0u16);
        for card in cards(n.hand) {
            let bit = 1 << rank(card);
            twice |= ranks & bit;
            ranks |= bit;
        }
        let mut gains: SmallVec<[i32; 16]> = SmallVec::new();
        for r in (1..=13u8).filter(|&r| ranks & 1 << r != 0) {
            // Where a card of rank s could lie when the card of rank r goes down.
            let could = |s: u8| -> u16 {
                let other = if s == r { twice } else { ranks };
                if other & 1 << s != 0 {
                    0x1FF
                } else {
                    cells_of[s as usize]
                }
            };
            let (same, u1, u2, d1, d2) = (
                could(r),
                could(up(r)),
                could(up(up(r))),
                could(down(r)),
                could(down(down(r))),
            );
            let has = |set: u16, cell: usize| set & 1 << cell != 0;
            let mut most = 0;
            for cell in 0..CELLS {
                let mut bonus = 2 * (NEIGHBOURS[cell] & same).count_ones() as i32;
                for &(a, b, place) in LINES_THROUGH[cell].iter().filter(|l| l.0 < CELLS) {
                    bonus += if has(same, a) && has(same, b) {
                        6
                    } else {
                        let run = match place {
                            0 => (has(u1, a) && has(u2, b)) || (has(d1, a) && has(d2, b)),
                            1 => (has(d1, a) && has(u1, b)) || (has(u1, a) && has(d1, b)),
                            _ => (has(u2, a) && has(u1, b)) || (has(d2, a) && has(d1, b)),
                        };
                        3 * run as i32
                    };
                }
                most = most.max(bonus);
            }
            let copies = 1 + (twice & 1 << r != 0) as usize;
            for _ in 0..copies {
                gains.push(POINT * (2 + most) - 1);
            }
        }
        gains.sort_unstable_by(|a, b| b.cmp(a));
        let (mut sum, mut best) = (0, 0);
        for (k, g) in gains.iter().enumerate() {
            sum += g;
            if n.placed as usize + k + 1 == 5 && self.others_in_hand {
                sum -= self.penalty;
            }
            best = best.max(sum);
        }
        best
    }

    /// The value of `n` if it is above `alpha`; otherwise an upper bound of it, at most
    /// `alpha` (fail-soft).
    fn value(&mut self, n: &Node, alpha: i32) -> Result<i32> {
        self.meter.tick()?;
        let key = n.key();
        if let Some(e) = self.table.get(&key)
            && (e.exact || e.value <= alpha)
        {
            return Ok(e.value);
        }
        let bound = self.bound(n);
        if bound <= alpha {
            return Ok(bound);
        }
        let mut moves = self.moves(n);
        moves.sort_by_key(|m| (-m.value, m.action));
        let (mut best, mut above) = (NEG, NEG);
        for m in &moves {
            let a = alpha.max(best);
            let v = match &m.child {
                None => m.value,
                Some(c) => m.value + self.value(c, a - m.value)?,
            };
            if v > a {
                best = v;
            } else {
                above = above.max(v);
            }
        }
        let entry = if best > alpha {
            Entry {
                value: best,
                exact: true,
            }
        } else {
            Entry {
                value: above.min(bound),
                exact: false,
            }
        };
        if self.table.len() < self.cap || self.table.contains_key(&key) {
            self.table.insert(key, entry);
        }
        Ok(entry.value)
    }
}

fn not_applicable(game: &AQuantumLeap, state: &AQuantumLeapState, what: &str) -> Error {
    Error::NotApplicable(format!(
        "{}: {what}, not in {}",
        AQuantumLeap::NAME,
        game.notation(state)
    ))
}

/// The exact best rest of the mover's turn (see the module doc). `NotApplicable` unless the
/// state is in phase `play`; `SearchLimit` or `Interrupted` past the limits of `ctx`.
pub fn best_turn(
    game: &AQuantumLeap,
    state: &AQuantumLeapState,
    ctx: &Context,
) -> Result<BestTurn> {
    if state.phase != Phase::Play {
        return Err(not_applicable(
            game,
            state,
            "best_turn applies to a stage-two turn (phase play)",
        ));
    }
    let p = state.player as usize;
    let others_hold = (0..game.players).any(|q| q != p && state.holds_cards(q));
    let limits = &ctx.limits;
    let mut search = Search {
        others_in_hand: state.others_have_cards_in_hand(game.players, p),
        penalty: PENALTY * penalty_points(game) / 4,
        last_cards_end: !others_hold && state.seconds[p] == 0,
        table: FxHashMap::default(),
        cap: hash_map_cap(limits.memory_mb, std::mem::size_of::<(u128, Entry)>()),
        meter: Meter::new(ctx.budget("a_quantum_leap best_turn"), None),
    };
    let mut node = Node {
        tops: state.tops,
        hand: state.hands[p],
        pattern: state.pattern.unwrap_or(Pattern::Opening),
        placed: state.placed.min(5),
    };
    let mut target = search.value(&node, NEG)?;
    // The tie-break: the first action in id order that keeps to the optimum.
    let mut actions = Vec::new();
    loop {
        let mut moves = search.moves(&node);
        moves.sort_by_key(|m| m.action);
        let mut chosen = None;
        for m in &moves {
            let need = target - m.value;
            let reaches = match &m.child {
                None => need == 0,
                Some(c) => search.value(c, need - 1)? >= need,
            };
            if reaches {
                chosen = Some(*m);
                break;
            }
        }
        let Some(m) = chosen else {
            return Err(Error::NotApplicable(format!(
                "a_quantum_leap: best_turn lost its way in {}",
                game.notation(state)
            )));
        };
        actions.push(m.action);
        target -= m.value;
        match m.child {
            Some(c) => node = c,
            None => break,
        }
    }
    // Points and penalty as the engine scores the actions.
    let mut s = *state;
    for &a in &actions {
        game.apply(&mut s, a);
    }
    let points = s.scores[p] - state.scores[p];
    let penalty = (0..game.players).any(|q| q != p && s.scores[q] > state.scores[q]);
    Ok(BestTurn {
        actions,
        points,
        penalty,
        penalty_points: penalty_points(game),
        nodes: search.meter.sync(),
        seconds: search.meter.seconds(),
    })
}

/// The dealer's best Higgs (see the module doc). `NotApplicable` unless the state is in
/// phase `higgs`.
pub fn best_higgs(
    game: &AQuantumLeap,
    state: &AQuantumLeapState,
    ctx: &Context,
) -> Result<BestHiggs> {
    if state.phase != Phase::Higgs {
        return Err(not_applicable(
            game,
            state,
            "best_higgs applies to the dealer's Higgs (phase higgs)",
        ));
    }
    let mut meter = Meter::new(ctx.budget("a_quantum_leap best_higgs"), None);
    let mut best: Option<(Card, i32)> = None;
    for card in cards(state.hands[state.player as usize]) {
        meter.tick()?;
        let points = score(&state.tops, card, CENTRE, None).points;
        if best.is_none_or(|(_, b)| points > b) {
            best = Some((card, points));
        }
    }
    let Some((card, points)) = best else {
        return Err(not_applicable(game, state, "the dealer holds no card"));
    };
    Ok(BestHiggs {
        action: HIGGS_BASE + card as Action,
        card,
        points,
        nodes: meter.sync(),
        seconds: meter.seconds(),
    })
}

/// How the players of a batch game choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Every decision uniformly at random.
    Random,
    /// The placement that scores the most (the lowest id among equals), then `end`; the best
    /// Higgs.
    Greedy,
    /// [`best_turn`] every turn; the best Higgs.
    BestTurn,
}

impl Policy {
    pub fn from_name(name: &str) -> Option<Policy> {
        match name {
            "random" => Some(Policy::Random),
            "greedy" => Some(Policy::Greedy),
            "best_turn" => Some(Policy::BestTurn),
            _ => None,
        }
    }
}

/// One game of a batch: the final points by seat, the turns with a placement, the nodes the
/// searches took, and the turns whose search hit the node limit (played greedily instead).
#[derive(Debug, Clone, PartialEq)]
pub struct PlayRow {
    pub scores: Vec<i32>,
    pub turns: u32,
    pub nodes: u64,
    pub fallbacks: u32,
}

/// The placement of `s` that scores the most, the lowest id among equals.
fn greedy_placement(game: &AQuantumLeap, s: &AQuantumLeapState) -> Option<Action> {
    let mut best: Option<(Action, i32)> = None;
    game.for_each_placement(s, |a| {
        let (card, cell) = ((a / 5) as usize / CELLS, (a / 5) as usize % CELLS);
        let points = score(&s.tops, card as Card, cell, Some(RULES[(a % 5) as usize])).points;
        if best.is_none_or(|(_, b)| points > b) {
            best = Some((a, points));
        }
    });
    best.map(|(a, _)| a)
}

/// Plays games `first..first + n` of `seed` to the end, every seat by `policy`: game i deals
/// and draws from the generator of row i ([`map_rows`]), so the same seed deals the same games
/// to every policy while the choices agree. Outer cells are chosen at random by every policy.
/// Each turn's search (`BestTurn`) runs within `max_nodes` (`None`: no limit); a turn past it
/// is played as `Greedy` plays it and counted in `fallbacks`. Ctrl-C (the cancel flag of
/// `ctx`) stops the batch.
pub fn play_batch(
    game: &AQuantumLeap,
    policy: Policy,
    first: u64,
    n: usize,
    seed: u64,
    max_nodes: Option<u64>,
    ctx: &Context,
) -> Result<Vec<PlayRow>> {
    let limits = Limits {
        max_nodes,
        ..Limits::default()
    };
    let turn_ctx = Context::new(limits, None, ctx.cancel);
    let rows = map_rows(
        first,
        n,
        seed,
        ctx.threads,
        Split::Rows,
        ctx.cancel,
        |_, rng| play_one(game, policy, rng, &turn_ctx),
    )?;
    rows.into_iter().collect()
}

fn play_one(game: &AQuantumLeap, policy: Policy, rng: &mut Rng, ctx: &Context) -> Result<PlayRow> {
    let mut s = game.new_state();
    let (mut turns, mut nodes, mut fallbacks) = (0, 0, 0);
    let mut actions = Vec::with_capacity(64);
    while s.phase != Phase::End {
        if matches!(s.phase, Phase::Leave | Phase::Draw) {
            let a = game.sample_chance(&s, rng);
            game.apply(&mut s, a);
            continue;
        }
        actions.clear();
        game.legal_actions(&s, &mut actions);
        let random = actions[rng.random_range(0..actions.len())];
        match (policy, s.phase) {
            (Policy::Random, _) | (_, Phase::Place) => game.apply(&mut s, random),
            (_, Phase::Higgs) => {
                let higgs = best_higgs(game, &s, ctx)?.action;
                game.apply(&mut s, higgs);
            }
            (Policy::Greedy, _) => turns += greedy_turn(game, &mut s),
            (Policy::BestTurn, _) => match best_turn(game, &s, ctx) {
                Ok(best) => {
                    nodes += best.nodes;
                    turns += (best.actions[0] != PASS) as u32;
                    for &a in &best.actions {
                        game.apply(&mut s, a);
                    }
                }
                Err(Error::SearchLimit { nodes: n, .. }) => {
                    nodes += n;
                    fallbacks += 1;
                    turns += greedy_turn(game, &mut s);
                }
                Err(e) => return Err(e),
            },
        }
    }
    Ok(PlayRow {
        scores: s.scores[..game.players].to_vec(),
        turns,
        nodes,
        fallbacks,
    })
}

/// The greedy policy's decision in a stage-two turn (phase `play`): at the turn's first
/// placement the placement that scores the most (the lowest id among equals), `pass` when
/// nothing fits; after a placement, `end`. The choice of [`Policy::Greedy`], one decision at a
/// time.
pub fn greedy_move(game: &AQuantumLeap, s: &AQuantumLeapState) -> Result<Action> {
    if s.phase != Phase::Play {
        return Err(not_applicable(
            game,
            s,
            "greedy_move applies to a stage-two turn (phase play)",
        ));
    }
    Ok(if s.placed > 0 {
        END
    } else {
        greedy_placement(game, s).unwrap_or(PASS)
    })
}

/// Plays `s`'s turn greedily: the placement that scores the most, then `end` (`pass` when
/// nothing fits). Returns 1 for a turn with a placement, else 0.
fn greedy_turn(game: &AQuantumLeap, s: &mut AQuantumLeapState) -> u32 {
    match greedy_placement(game, s) {
        Some(a) => {
            game.apply(s, a);
            if s.phase == Phase::Play && s.placed > 0 {
                game.apply(s, END);
            }
            1
        }
        None => {
            game.apply(s, PASS);
            0
        }
    }
}

/// What A Quantum Leap knows beyond its rules: its solver, the exact best turn
/// ([`best_turn`]) of a stage-two turn or the best Higgs ([`best_higgs`]) of the dealer's
/// Higgs, and its best player, the information-set search for its time.
impl Knowledge for AQuantumLeap {
    const SOLVER: Option<SolverInfo> = Some(SolverInfo {
        function: "quanta.a_quantum_leap.best_turn (best_higgs for the Higgs)",
        value: "the points of the mover's best turn less 4 per penalty it gives (8 with \
                partners; the Higgs: its bonus points)",
        options: &[],
        returns: None,
    });

    fn solve(&self, s: &AQuantumLeapState, ctx: &Context) -> Result<Answer> {
        if s.phase == Phase::Higgs {
            let h = best_higgs(self, s, ctx)?;
            let line = self.action_to_string(s, h.action)?;
            return Ok(Answer::exact(h.points as f64, Some(h.action), line, h.nodes, h.seconds));
        }
        let t = best_turn(self, s, ctx)?;
        Ok(Answer::exact(
            t.value() as f64,
            t.actions.first().copied(),
            crate::solver::line_text(self, s, &t.actions)?,
            t.nodes,
            t.seconds,
        ))
    }

    /// Scoring play values a leaf better than random play.
    const ROLLOUT: Rollout = Rollout::Greedy;

    /// A turn's exact best (best_turn) sees no further than the turn, and plays below a search
    /// of the whole game: against `MCTS(iterations=1000)` it won 43.5 % of 400 games, the
    /// search for 0.1 s a move 53.8 % (losing 43.0 %; benches/README.md). After stage one
    /// nothing is hidden (every stock holds one card of each rank).
    const BEST_PLAYER: &'static str = "information-set MCTS with greedy-guided search within \
        the time, at every decision";

    fn best_action(&self, s: &AQuantumLeapState, rng: &mut Rng, ctx: &Context) -> Result<Action> {
        crate::bots::ismcts::within(self, s, rng, ctx)
    }
}

#[cfg(test)]
mod tests;
