//! Solvers: [`solve_open`] (can the team win when it knows the order of the unseen cards?),
//! [`win_probability`] (how often it could, over random orders), [`policy`] (a move for the
//! real game, the order unknown) and [`rule_move`] (a simple rule-based player).
//!
//! `solve_open` is a depth-first search over the team's decisions; the cards come from the
//! given order, so the only branching is the team's. It restarts: a first attempt of a few
//! thousand nodes, then attempts of twice as many nodes each, the actions shuffled (by a fixed
//! generator: the answer and the line depend only on the input). Positions proved lost stay
//! known across attempts, so the last attempt is a complete search like any other. Winnable
//! deals are many and finding a line is what takes the time, not proving a loss.
//!
//! Lost positions are remembered at the start of a turn only (one decision node in three or so:
//! the memo's lookups and inserts took about half of a node's time, and the paths within a turn
//! meet again at the next turn's start), under a key of two 128-bit words that keeps each
//! card's rank (suits never matter: matching is by rank and no rule looks at a suit): the used
//! positions' cards, the target, the drawn card, the deck's known top and the turn in one, the
//! cards put under the deck in the other (a position with more of them than the word holds is
//! not remembered). It drops the removed cards (they play no further part). Children equal up
//! to suits are tried once. A Jack's look is never tried: with the order known it shows
//! nothing, and the cards come in the same order with or without it.
//!
//! Once every card is known, the team can send cards round the deck (a King or an Ace may be
//! used every time it is revealed) and positions can repeat. A line that comes back to a
//! decision it met before (the same key, no progress in between) is cut: whatever it could do
//! from the second visit it could do from the first, with fewer idle turns spent, so a winning
//! line never needs the cycle. Such a cut depends on the line that led there (the graph history
//! interaction): a turn start proved lost is remembered only when every cut below it came back
//! to it or to a later decision, never to one above it. The idle-turn limit makes a loss depend
//! on the idle count: a proof that met the limit is remembered with the count it was made at
//! (lost from that count on), any other for every count.
//! The `threads` of the context are not used: one solve is one sequential search (batches
//! run several solves at once).

pub mod deal_table;
pub mod player;

pub use player::{SIGHT, Sight, best_action, best_action_with, evaluate, reach};

use super::{
    ACE, ACE_UNDER, Card, GO_ON, IDLE_TURNS, KING, KING_AT, NO_EFFECT, NONE, PEEK, Pending, QUEEN,
    RepairState, RepairUnit, Step, TUNNEL, cards, code, rank,
};
use crate::batch::{Split, map_rows};
use crate::error::{Error, Result, quoted};
use crate::game::{Action, Game, Rng, ToMove};
use crate::knowledge::Knowledge;
use crate::search::{Context, Meter, hash_map_cap};
use crate::solver::{self, SolverInfo};
use rand::seq::SliceRandom;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// The answer of [`solve_open`].
#[derive(Debug, Clone, PartialEq)]
pub struct OpenSolution {
    pub winnable: bool,
    /// The team's actions (chance excluded) of a winning line; empty when not winnable.
    pub line: Vec<Action>,
    pub nodes: u64,
    pub seconds: f64,
}

/// `order` (card codes) read and checked: a permutation of the state's unseen cards.
pub fn read_order(s: &RepairState, order: &[String]) -> Result<Vec<Card>> {
    let expected = || {
        let mut want: Vec<String> = cards(s.unseen).map(code).collect();
        if want.len() > 12 {
            want.truncate(12);
            want.push("...".into());
        }
        format!(
            "order must list each of the state's {} unseen cards (state.unseen(): {}) once, as \
             codes such as 'QS'",
            s.unseen.count_ones(),
            want.join(" ")
        )
    };
    let mut got = 0u64;
    let mut out = Vec::with_capacity(order.len());
    for text in order {
        let c = super::from_code(text).ok_or_else(|| {
            Error::InvalidOption(format!(
                "{}; {} is not a card code",
                expected(),
                quoted(text)
            ))
        })?;
        if s.unseen & 1 << c == 0 {
            return Err(Error::InvalidOption(format!(
                "{}; {text} is not unseen",
                expected()
            )));
        }
        if got & 1 << c != 0 {
            return Err(Error::InvalidOption(format!(
                "{}; {text} is there twice",
                expected()
            )));
        }
        got |= 1 << c;
        out.push(c);
    }
    if got != s.unseen {
        return Err(Error::InvalidOption(format!(
            "{}; {} missing",
            expected(),
            cards(s.unseen & !got)
                .map(code)
                .collect::<Vec<_>>()
                .join(" ")
        )));
    }
    Ok(out)
}

/// The memo key of a decision node (see the module docs): the used positions' cards, the
/// target, the drawn card, the deck's known top and the turn in one word, each card as its
/// rank; the cards under the deck as their ranks in the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key(u128, u128);

/// Cards under the deck a [`Key`] holds (4 bits each, and the count): a position with more
/// has no key (it is not remembered).
const KEY_QUEUE: usize = 30;

fn key(game: &RepairUnit, s: &RepairState) -> Option<Key> {
    if s.queue.len() > KEY_QUEUE {
        return None;
    }
    let card = |c: Card| -> u128 { if c == NONE { 31 } else { rank(c) as u128 } };
    // At most 8 positions (2 x 3 in solo and with 2 players, 4 x 2 with 3-4) of 10 bits, then
    // 30 bits: 110 in all.
    let mut k: u128 = 0;
    let mut put = |v: u128, bits: u32| k = k << bits | v;
    for f in 0..game.forecasts() {
        for i in 0..game.length() {
            put(card(s.down[f][i]) << 5 | card(s.up[f][i]), 10);
        }
    }
    put(card(s.target), 5);
    put(card(s.drawn), 5);
    put(card(s.top), 5);
    put(s.unseen.count_ones() as u128, 6);
    put(s.step as u128, 3);
    put(
        match s.pending {
            Pending::None => 0,
            Pending::Drawn => 1,
            Pending::Tunnelled(i) => 2 + i as u128,
            Pending::Peek => 5,
        },
        3,
    );
    put(s.tunnelled as u128, 1);
    put(s.active as u128, 2);
    let queue = s
        .queue
        .as_slice()
        .iter()
        .fold(0u128, |q, &c| q << 4 | rank(c) as u128);
    Some(Key(k, queue << 5 | s.queue.len() as u128))
}

struct Open<'a> {
    game: &'a RepairUnit,
    order: &'a [Card],
    /// Unseen cards when the search began: the next card is `order[total - unseen now]`.
    total: u32,
    /// Turn starts proved lost, at most `cap` of them: the fewest idle turns the loss was proved
    /// with (0: at any count).
    lost: FxHashMap<Key, u16>,
    /// The decisions of the current line met with every card known, and the pairs removed
    /// before each (a cycle is cut where a key comes back: see the module docs).
    path: Vec<(Key, u8)>,
    cap: usize,
    meter: Meter<'a>,
    /// Nodes left to the current attempt (see [`solve_open`]).
    left: u64,
    /// Shuffles the actions of every attempt but the first.
    rng: Option<Rng>,
    /// A line "wins" once this many unseen cards have come (`u32::MAX`: the whole game).
    horizon: u32,
    /// The actions of each depth's node (kept to spare an allocation per node).
    actions: Vec<Vec<Action>>,
    /// The most unseen cards come on any line searched so far without a mismatch: a line of
    /// the team's that plays on that far exists, whatever the search decides (see [`reach`]).
    reached: u32,
}

impl Open<'_> {
    fn next_card(&self, s: &RepairState) -> Card {
        self.order[(self.total - s.unseen.count_ones()) as usize]
    }

    /// Whether the team wins from `s`; `None` when the attempt ran out of nodes first (then
    /// nothing below was remembered as lost unless proved so).
    fn wins(&mut self, s: &RepairState, line: &mut Vec<Action>) -> Result<Option<Answer>> {
        self.meter.tick()?;
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let mut s = *s;
        // Chance comes from the order, one card after another.
        while self.game.to_move(&s) == ToMove::Chance {
            let c = self.next_card(&s);
            self.game.apply(&mut s, c as Action);
        }
        match s.step {
            Step::Won => return Ok(Some(Answer::Won)),
            Step::Lost => {
                return Ok(Some(Answer::Lost {
                    cut: usize::MAX,
                    idle: s.idle >= IDLE_TURNS,
                }));
            }
            _ => {}
        }
        let come = self.total - s.unseen.count_ones();
        self.reached = self.reached.max(come);
        if come >= self.horizon {
            return Ok(Some(Answer::Won)); // survived long enough (see `survives`)
        }
        let base = self.path.len();
        let known = s.unseen == 0;
        let here = (known || s.step == Step::Start)
            .then(|| key(self.game, &s))
            .flatten();
        // Only the start of a turn is remembered (see the module docs).
        let k = here.filter(|_| s.step == Step::Start);
        if let Some(&proved) = k.as_ref().and_then(|k| self.lost.get(k)) {
            if proved <= s.idle {
                return Ok(Some(Answer::Lost {
                    cut: usize::MAX,
                    idle: proved > 0,
                }));
            }
        }
        let pushed = match here.filter(|_| known) {
            Some(h) => {
                let pairs = s.removed.count_ones() as u8;
                let back = self.path[..base]
                    .iter()
                    .rev()
                    .take_while(|(_, p)| *p == pairs)
                    .position(|(x, _)| *x == h);
                if let Some(i) = back {
                    return Ok(Some(Answer::Lost {
                        cut: base - 1 - i,
                        idle: false,
                    }));
                }
                self.path.push((h, pairs));
                true
            }
            None => false,
        };
        let answer = self.children(&s, line);
        if pushed {
            self.path.pop();
        }
        let answer = answer?;
        if let (Some(k), Some(Answer::Lost { cut, idle })) = (k, answer) {
            // A loss that leaned on a cut above this node depends on the line to it.
            if cut >= base && (self.lost.len() < self.cap || self.lost.contains_key(&k)) {
                let at = if idle { s.idle } else { 0 };
                let e = self.lost.entry(k).or_insert(at);
                *e = (*e).min(at);
            }
        }
        Ok(answer)
    }

    /// The team's choices at the decision `s`, tried in turn (see [`Open::wins`]).
    fn children(&mut self, s: &RepairState, line: &mut Vec<Action>) -> Result<Option<Answer>> {
        let depth = line.len();
        if self.actions.len() <= depth {
            self.actions
                .resize_with(depth + 1, || Vec::with_capacity(16));
        }
        let mut actions = std::mem::take(&mut self.actions[depth]);
        self.game.legal_actions(s, &mut actions);
        if let Some(rng) = self.rng.as_mut() {
            actions.shuffle(rng);
        }
        // Children that are the same up to suits are searched once. Only two kinds of decision
        // can have such children: a Queen's swaps (of cards of one rank), and tunnels where
        // both cards have one rank (the same as going on once the turn goes on).
        let same = |x: Card, y: Card| x != NONE && y != NONE && rank(x) == rank(y);
        let dedupe = match self.game.effect_card(s) {
            Some(c) => rank(c) == QUEEN,
            None => {
                let f = s.active as usize;
                (0..self.game.length()).any(|i| same(s.up[f][i], s.down[f][i]))
            }
        };
        let mut tried: SmallVec<[Key; 16]> = SmallVec::new();
        let (mut cut, mut idle) = (usize::MAX, false);
        for &a in actions.iter() {
            if a == PEEK {
                continue;
            }
            let mut child = *s;
            self.game.apply(&mut child, a);
            if let Some(ck) = dedupe.then(|| key(self.game, &child)).flatten() {
                if tried.contains(&ck) {
                    continue;
                }
                tried.push(ck);
            }
            line.push(a);
            match self.wins(&child, line)? {
                Some(Answer::Won) => {
                    self.actions[depth] = actions;
                    return Ok(Some(Answer::Won));
                }
                Some(Answer::Lost { cut: c, idle: i }) => {
                    cut = cut.min(c);
                    idle |= i;
                }
                None => {
                    self.actions[depth] = actions;
                    return Ok(None);
                }
            }
            line.pop();
        }
        self.actions[depth] = actions;
        Ok(Some(Answer::Lost { cut, idle }))
    }
}

/// What the search below a decision found: a win, or a loss and what its proof leaned on.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Answer {
    Won,
    /// `cut`: the lowest index in [`Open::path`] of a decision a cycle was cut back to
    /// (`usize::MAX`: none); `idle`: the proof met the limit on idle turns.
    Lost {
        cut: usize,
        idle: bool,
    },
}

/// Nodes of the first attempt of [`solve_open`]; each next attempt may search twice as many.
const FIRST_ATTEMPT: u64 = 4096;

/// Whether the team can win from `s` when the unseen cards come in `order` (first drawn
/// first; a permutation of the unseen cards, as [`read_order`] checks), with a winning line.
pub fn solve_open(
    game: &RepairUnit,
    s: &RepairState,
    order: &[Card],
    ctx: &Context,
) -> Result<OpenSolution> {
    let start = std::time::Instant::now();
    check_order(s, order)?;
    search_open(game, s, order, u32::MAX, ctx, start)
}

fn check_order(s: &RepairState, order: &[Card]) -> Result<()> {
    let unseen = order.iter().fold(0u64, |set, &c| set | 1 << c);
    if order.len() != s.unseen.count_ones() as usize || unseen != s.unseen {
        return Err(Error::InvalidOption(
            "repair_unit: the order must be a permutation of the unseen cards".into(),
        ));
    }
    Ok(())
}

/// Whether the team can play on from `s` without a mismatch until `horizon` of the unseen
/// cards (coming in `order`) have come, or the game is won: [`solve_open`] with a short sight,
/// the score of [`policy`].
pub fn survives(
    game: &RepairUnit,
    s: &RepairState,
    order: &[Card],
    horizon: u32,
    ctx: &Context,
) -> Result<OpenSolution> {
    check_order(s, order)?;
    search_open(game, s, order, horizon, ctx, std::time::Instant::now())
}

fn search_open(
    game: &RepairUnit,
    s: &RepairState,
    order: &[Card],
    horizon: u32,
    ctx: &Context,
    start: std::time::Instant,
) -> Result<OpenSolution> {
    let mut search = Open::new(game, order, s, horizon, ctx, start);
    let (winnable, line) = search.run(s)?;
    Ok(OpenSolution {
        winnable,
        line,
        nodes: search.meter.sync(),
        seconds: search.meter.seconds(),
    })
}

impl<'a> Open<'a> {
    fn new(
        game: &'a RepairUnit,
        order: &'a [Card],
        s: &RepairState,
        horizon: u32,
        ctx: &Context<'a>,
        start: std::time::Instant,
    ) -> Self {
        Open {
            game,
            order,
            total: s.unseen.count_ones(),
            lost: FxHashMap::default(),
            path: Vec::new(),
            cap: hash_map_cap(ctx.limits.memory_mb, std::mem::size_of::<(Key, u16)>()),
            actions: Vec::new(),
            meter: Meter::new(
                crate::search::Budget::started(
                    "repair_unit solve_open",
                    ctx.limits.clone(),
                    ctx.cancel,
                    start,
                ),
                None,
            ),
            left: FIRST_ATTEMPT,
            rng: None,
            horizon,
            reached: 0,
        }
    }

    /// The restarts (see the module docs): whether the team wins (or survives to the horizon)
    /// from `s`, and a winning line.
    fn run(&mut self, s: &RepairState) -> Result<(bool, Vec<Action>)> {
        let mut line = Vec::new();
        let mut attempt = 0u64;
        loop {
            line.clear();
            if let Some(answer) = self.wins(s, &mut line)? {
                return Ok((answer == Answer::Won, line));
            }
            // Restart with a fresh order of the actions and twice the nodes; what was proved
            // lost stays known, so the last attempt is a complete search like any other.
            attempt += 1;
            self.left = FIRST_ATTEMPT << attempt.min(40);
            self.rng = Some(crate::game::row_rng(0x5EED, attempt));
        }
    }
}

/// A uniformly random order of the unseen cards of `s`.
pub fn random_order(s: &RepairState, rng: &mut Rng) -> Vec<Card> {
    let mut order: Vec<Card> = cards(s.unseen).collect();
    order.shuffle(rng);
    order
}

/// The estimate of [`win_probability`].
#[derive(Debug, Clone, PartialEq)]
pub struct WinProbability {
    /// Wins over the decided samples; `None` when no sample was decided.
    pub probability: Option<f64>,
    /// Its standard error; `None` with fewer than two decided samples.
    pub stderr: Option<f64>,
    pub samples: usize,
    pub wins: usize,
    /// Samples whose solve ended with an answer (the estimate is over these).
    pub decided: usize,
    /// Samples whose solve hit its limit (left out of the estimate).
    pub undecided: usize,
    pub nodes: u64,
    pub seconds: f64,
}

/// The chance that a team knowing the order would win from `s`, over `samples` uniformly
/// random orders (sample `i` shuffled by `row_rng(seed, i)`); each sample is one
/// [`solve_open`] with `ctx`'s limits (a sample past them is undecided).
pub fn win_probability(
    game: &RepairUnit,
    s: &RepairState,
    samples: usize,
    seed: u64,
    ctx: &Context,
) -> Result<WinProbability> {
    estimate(game, s, samples, seed, ctx, Share::EachSample)
}

/// [`win_probability`] within one budget for all the samples, as the solver registry answers:
/// one clock from the call's start, and one node count that the samples take in turn (sample
/// `i` is decided only if it and the samples before it searched no more than `max_nodes` in
/// all). A sample the time limit stopped is undecided, and with the node limit so are the
/// samples after the first one past it. So a limit larger than an unlimited call used gives
/// the same answer, and a larger limit never decides fewer samples; which samples are decided
/// under a node limit depends only on the inputs, at any thread count.
pub fn win_probability_within(
    game: &RepairUnit,
    s: &RepairState,
    samples: usize,
    seed: u64,
    ctx: &Context,
) -> Result<WinProbability> {
    estimate(game, s, samples, seed, ctx, Share::OneBudget)
}

/// How [`estimate`]'s samples take the limits.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Share {
    /// Each sample its own clock and node count.
    EachSample,
    /// One clock and one node count for all (see [`win_probability_within`]).
    OneBudget,
}

fn estimate(
    game: &RepairUnit,
    s: &RepairState,
    samples: usize,
    seed: u64,
    ctx: &Context,
    share: Share,
) -> Result<WinProbability> {
    let start = std::time::Instant::now();
    let one = Context::new(ctx.limits.clone(), None, ctx.cancel);
    let rows = map_rows(
        0,
        samples,
        seed,
        ctx.threads,
        Split::Rows,
        ctx.cancel,
        |_, rng| {
            let order = random_order(s, rng);
            let clock = match share {
                Share::EachSample => std::time::Instant::now(),
                Share::OneBudget => start,
            };
            match search_open(game, s, &order, u32::MAX, &one, clock) {
                Ok(sol) => Ok((Some(sol.winnable), sol.nodes)),
                Err(Error::SearchLimit { nodes, .. }) => Ok((None, nodes)),
                Err(e) => Err(e),
            }
        },
    )?;
    let mut wins = 0;
    let mut undecided = 0;
    let mut nodes = 0;
    for row in rows {
        let (won, n) = row?;
        nodes += n;
        let within = match share {
            Share::EachSample => true,
            Share::OneBudget => ctx.limits.max_nodes.is_none_or(|m| nodes <= m),
        };
        match won.filter(|_| within) {
            Some(true) => wins += 1,
            Some(false) => {}
            None => undecided += 1,
        }
    }
    let decided = samples - undecided;
    let p = (decided > 0).then(|| wins as f64 / decided as f64);
    let stderr = p
        .filter(|_| decided > 1)
        .map(|p| (p * (1.0 - p) / (decided - 1) as f64).sqrt());
    Ok(WinProbability {
        probability: p,
        stderr,
        samples,
        wins,
        decided,
        undecided,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The move of [`policy`], with the samples it won per action.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyMove {
    pub action: Action,
    /// `(action, orders survived, orders decided)` for each legal action tried.
    pub wins: Vec<(Action, usize, usize)>,
    pub samples: usize,
    pub nodes: u64,
}

/// A move for the real game (the order unknown), by determinised search: `samples` random
/// orders of the unseen cards (row `i` shuffled by `row_rng(seed, i)`) are drawn once; each
/// legal action is scored by the share of them the team survives after it for `horizon` more
/// unseen cards (or wins; [`survives`], each search within `ctx`'s limits), over the orders
/// whose search was decided: an order past the limits is left out of that action's share, not
/// counted as a loss. The action with the highest share is played, ties going to
/// [`rule_move`]'s choice, then to the lowest action; an action with no decided order has no
/// share and is played only as the rule move when no action has one. A Jack's look is scored
/// as no effect (it shows nothing when the order is known), so the policy looks only when the
/// rule player would.
pub fn policy(
    game: &RepairUnit,
    s: &RepairState,
    samples: usize,
    horizon: u32,
    seed: u64,
    ctx: &Context,
) -> Result<PolicyMove> {
    let actions = team_actions(game, s, "policy")?;
    let rule = rule_move(game, s);
    if actions.len() == 1 {
        return Ok(PolicyMove {
            action: actions[0],
            wins: vec![],
            samples: 0,
            nodes: 0,
        });
    }
    let tried: Vec<Action> = actions.iter().copied().filter(|&a| a != PEEK).collect();
    let one = Context::new(ctx.limits.clone(), None, ctx.cancel);
    let rows = map_rows(
        0,
        samples,
        seed,
        ctx.threads,
        Split::Rows,
        ctx.cancel,
        |_, rng| {
            let order = random_order(s, rng);
            let mut won = Vec::with_capacity(tried.len());
            let mut nodes = 0;
            for &a in &tried {
                let mut child = *s;
                game.apply(&mut child, a);
                match survives(game, &child, &order, horizon, &one) {
                    Ok(sol) => {
                        nodes += sol.nodes;
                        won.push(Some(sol.winnable));
                    }
                    Err(Error::SearchLimit { nodes: n, .. }) => {
                        nodes += n;
                        won.push(None);
                    }
                    Err(e) => return Err(e),
                }
            }
            Ok((won, nodes))
        },
    )?;
    let mut wins = vec![(0usize, 0usize); tried.len()];
    let mut nodes = 0;
    for row in rows {
        let (won, n) = row?;
        nodes += n;
        for ((w, d), x) in wins.iter_mut().zip(won) {
            if let Some(x) = x {
                *w += x as usize;
                *d += 1;
            }
        }
    }
    let scored: Vec<(Action, usize, usize)> = tried
        .iter()
        .zip(wins)
        .map(|(&a, (w, d))| (a, w, d))
        .collect();
    // The best share survived over the decided orders, compared exactly (w1 * d2 vs w2 * d1).
    let best = scored
        .iter()
        .filter(|&&(_, _, d)| d > 0)
        .max_by(|x, y| (x.1 * y.2).cmp(&(y.1 * x.2)))
        .map(|&(_, w, d)| (w, d));
    let is_best = |w: usize, d: usize| best.is_some_and(|(bw, bd)| d > 0 && w * bd == bw * d);
    let rule_scored = if rule == PEEK { NO_EFFECT } else { rule };
    let action = if best.is_none()
        || scored
            .iter()
            .any(|&(a, w, d)| a == rule_scored && is_best(w, d))
    {
        rule
    } else {
        scored
            .iter()
            .find(|&&(_, w, d)| is_best(w, d))
            .map_or(rule, |&(a, _, _)| a)
    };
    Ok(PolicyMove {
        action,
        wins: scored,
        samples,
        nodes,
    })
}

/// The team's legal actions at `s`; `NotApplicable` (naming the `player` asked) where the team
/// has no decision.
pub(super) fn team_actions(
    game: &RepairUnit,
    s: &RepairState,
    player: &str,
) -> Result<Vec<Action>> {
    let ToMove::Player(_) = game.to_move(s) else {
        return Err(Error::NotApplicable(format!(
            "repair_unit {player}: the team has no decision in {}",
            game.notation(s)
        )));
    };
    let mut actions = Vec::new();
    game.legal_actions(s, &mut actions);
    Ok(actions)
}

/// A simple rule-based player, looking only at the turn's forecast front and the target:
///
/// - before the move, a front face-up card that would not match the target is tunnelled when
///   the face-down card there would match it; otherwise the team goes on;
/// - a Queen brings a face-down card matching the target to the forecast's front (from another
///   forecast) when the front's face-down card does not match;
/// - a King puts a front face-up card that would not match under the deck;
/// - an Ace goes under the deck when a target of another rank waits;
/// - a Jack looks at the top card; every other effect is left unused.
pub fn rule_move(game: &RepairUnit, s: &RepairState) -> Action {
    let a = s.active as usize;
    let len = game.length();
    let matches = |c: Card| c != NONE && s.target != NONE && rank(c) == rank(s.target);
    let clash = |c: Card| c != NONE && s.target != NONE && rank(c) != rank(s.target);
    let mut actions = Vec::new();
    game.legal_actions(s, &mut actions);
    match s.pending {
        Pending::None => {
            if s.step == Step::Move && clash(s.up[a][0]) && matches(s.down[a][0]) {
                return TUNNEL;
            }
            GO_ON
        }
        _ => {
            let Some(c) = game.effect_card(s) else {
                return NO_EFFECT;
            };
            let choice = match rank(c) {
                KING if clash(s.up[a][0]) => KING_AT + (a * 3) as Action,
                ACE if s.target != NONE && rank(s.target) != ACE => ACE_UNDER,
                QUEEN if s.target != NONE && !matches(s.down[a][0]) => {
                    let from = (0..game.forecasts())
                        .filter(|&f| f != a)
                        .flat_map(|f| (0..len).map(move |j| (f, j)))
                        .find(|&(f, j)| matches(s.down[f][j]));
                    match from {
                        Some((f, j)) => super::QUEEN_SWAP + (f * 3 + j) as Action,
                        None => NO_EFFECT,
                    }
                }
                super::JACK => PEEK,
                _ => NO_EFFECT,
            };
            if actions.contains(&choice) {
                choice
            } else {
                NO_EFFECT
            }
        }
    }
}

/// Plays a fresh game to its end with the player `kind` (`"best"`: [`best_action`] with
/// `samples` orders, `horizon` and `ctx`'s node limit per search; `"policy"` with `samples`
/// orders per decision and `ctx`'s limits per solve; `"rule"` or `"random"`), the cards drawn
/// with `rng`: whether it was won, and the team's decisions.
#[allow(clippy::too_many_arguments)]
pub fn play(
    game: &RepairUnit,
    kind: &str,
    samples: usize,
    horizon: u32,
    row: u64,
    rng: &mut Rng,
    ctx: &Context,
) -> Result<(bool, i32)> {
    use rand::Rng as _;
    let mut s = game.new_state();
    let mut decisions = 0;
    let mut actions = Vec::new();
    loop {
        match game.to_move(&s) {
            ToMove::Terminal => return Ok((s.step == Step::Won, decisions)),
            ToMove::Chance => {
                let c = game.sample_chance(&s, rng);
                game.apply(&mut s, c);
            }
            ToMove::Player(_) => {
                let seed = crate::game::row_rng(row, decisions as u64).random::<u64>();
                let a = match kind {
                    "random" => {
                        game.legal_actions(&s, &mut actions);
                        actions[rng.random_range(0..actions.len())]
                    }
                    "rule" => rule_move(game, &s),
                    "best" => {
                        let sight = Sight {
                            samples,
                            horizon,
                            nodes: ctx.limits.max_nodes.unwrap_or(SIGHT.nodes),
                            ..SIGHT
                        };
                        best_action_with(game, &s, &sight, seed, ctx)?
                    }
                    _ => policy(game, &s, samples, horizon, seed, ctx)?.action,
                };
                game.apply(&mut s, a);
                decisions += 1;
            }
        }
    }
}

/// Orders of the unseen cards the registry's answer is estimated over.
pub const ANSWER_SAMPLES: usize = 32;

/// What Quantum Repair Unit knows beyond its rules: its solver (the order of the unseen cards
/// is chance, so the answer is [`win_probability_within`] over [`ANSWER_SAMPLES`] orders
/// seeded by 0, one budget for all of them, an estimate over the decided orders when some are
/// undecided; and [`best_action`]'s move (seed 0, its own node caps)), its evaluator
/// ([`evaluate`], the best player's horizon-cut estimate) and its best player
/// ([`best_action`]).
impl Knowledge for RepairUnit {
    const SOLVER: Option<SolverInfo> = Some(SolverInfo {
        function: "quanta.repair_unit.win_probability",
        value: "the probability that a team knowing the card order would win, estimated over \
                32 seeded orders",
        options: &[],
        returns: Some(crate::solver::team_win_probability_returns),
    });

    fn solve(&self, s: &RepairState, ctx: &Context) -> Result<solver::Answer> {
        let game = self;
        // The answer comes with the team's best action: where the team has no decision (a
        // deal, a finished game) it is refused at once, before any order is searched.
        team_actions(game, s, "solver")?;
        let n = ANSWER_SAMPLES;
        let w = win_probability_within(game, s, n, 0, ctx)?;
        let Some(probability) = w.probability else {
            return Err(Error::SearchLimit {
                reason: format!(
                    "repair_unit: none of the {n} sampled orders was decided within the limits"
                ),
                nodes: w.nodes,
                seconds: w.seconds,
            });
        };
        let action = best_action(
            game,
            s,
            0,
            &Context::new(Default::default(), ctx.threads, ctx.cancel),
        )?;
        let mut answer = solver::Answer::exact(
            probability,
            Some(action),
            game.action_to_string(s, action)?,
            w.nodes,
            w.seconds,
        );
        if w.undecided > 0 {
            answer.exact = false;
            answer.reason = Some(format!(
                "repair_unit: an estimate over the {} of {n} sampled orders decided within the \
                 limits",
                w.decided
            ));
        }
        Ok(answer)
    }

    const EVALUATOR: Option<&'static str> = Some(
        "quanta.repair_unit.evaluate: the best player's horizon-cut estimate of the team's \
         return, from 16 sampled orders of the unseen cards",
    );

    fn evaluate(&self, s: &RepairState, rng: &mut Rng, returns: &mut [f64]) -> Result<bool> {
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = Context::new(Default::default(), Some(1), &cancel);
        let value = evaluate(self, s, rand::Rng::random(rng), &ctx)?;
        returns.fill(value);
        Ok(true)
    }

    const BEST_PLAYER: &'static str = "quanta.repair_unit.best_action: every action scored by \
        how far the team gets in 16 sampled orders of the unseen cards, each searched to a \
        horizon of 8 unseen cards within 20,000 nodes; a Jack's look whenever offered; a \
        winning line once every card is known";

    /// The player's searches are capped in nodes, not time: its move depends only on what the
    /// team knows and the seed.
    fn best_action(&self, s: &RepairState, rng: &mut Rng, ctx: &Context) -> Result<Action> {
        best_action(self, s, rand::Rng::random(rng), ctx)
    }
}
