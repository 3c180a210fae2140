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
//! Lost positions are remembered at the start of a turn only (one decision node in three or
//! so: the memo's lookups and inserts took about half of a node's time, and the paths within a
//! turn meet again at the next turn's start), under a key of two 128-bit words that
//! keeps each card's rank (suits never matter: matching is by rank and no rule looks at a suit)
//! and whether it has been under the deck, and drops the removed cards (they play no further
//! part). Children equal up to suits are tried once. A Jack's look is never tried: with the
//! order known it shows nothing, and the cards come in the same order with or without it.
//! The `threads` of the context are not used: one solve is one sequential search (batches
//! run several solves at once).

use super::{
    ACE, ACE_UNDER, Card, GO_ON, KING, KING_AT, NO_EFFECT, NONE, PEEK, Pending, QUEEN, RepairState,
    RepairUnit, Step, TUNNEL, cards, code, rank,
};
use crate::batch::{Split, map_rows};
use crate::error::{Error, Result, quoted};
use crate::game::{Action, Game, Rng, ToMove};
use crate::search::{Context, Meter, hash_map_cap};
use rand::seq::SliceRandom;
use rustc_hash::FxHashSet;
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
/// target, the drawn card, the deck's known top and the turn in one word, each card as its rank
/// and recycled flag; the cards under the deck (all recycled) as their ranks in the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key(u128, u128);

/// Cards under the deck a [`Key`] holds (4 bits each, and the count): a position with more
/// has no key (it is not remembered).
const KEY_QUEUE: usize = 30;

fn key(game: &RepairUnit, s: &RepairState) -> Option<Key> {
    if s.queue.len() > KEY_QUEUE {
        return None;
    }
    let card = |c: Card| -> u128 {
        if c == NONE {
            31
        } else {
            (rank(c) as u128) | ((s.recycled >> c & 1) as u128) << 4
        }
    };
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
    /// Turn starts proved lost, at most `cap` of them.
    lost: FxHashSet<Key>,
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
}

impl Open<'_> {
    fn next_card(&self, s: &RepairState) -> Card {
        self.order[(self.total - s.unseen.count_ones()) as usize]
    }

    /// Whether the team wins from `s`; `None` when the attempt ran out of nodes first (then
    /// nothing below was remembered as lost unless proved so).
    fn wins(&mut self, s: &RepairState, line: &mut Vec<Action>) -> Result<Option<bool>> {
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
            Step::Won => return Ok(Some(true)),
            Step::Lost => return Ok(Some(false)),
            _ => {}
        }
        if self.total - s.unseen.count_ones() >= self.horizon {
            return Ok(Some(true)); // survived long enough (see `survives`)
        }
        // Only the start of a turn is remembered (see the module docs).
        let k = (s.step == Step::Start)
            .then(|| key(self.game, &s))
            .flatten();
        if k.as_ref().is_some_and(|k| self.lost.contains(k)) {
            return Ok(Some(false));
        }
        let depth = line.len();
        if self.actions.len() <= depth {
            self.actions
                .resize_with(depth + 1, || Vec::with_capacity(16));
        }
        let mut actions = std::mem::take(&mut self.actions[depth]);
        self.game.legal_actions(&s, &mut actions);
        if let Some(rng) = self.rng.as_mut() {
            actions.shuffle(rng);
        }
        // Children that are the same up to suits are searched once. Only two kinds of decision
        // can have such children: a Queen's swaps (of cards of one rank), and tunnels where
        // both cards have one rank and flag (the same as going on once the turn goes on).
        let same = |x: Card, y: Card| {
            x != NONE && rank(x) == rank(y) && (s.recycled >> x ^ s.recycled >> y) & 1 == 0
        };
        let dedupe = match self.game.effect_card(&s) {
            Some(c) => rank(c) == QUEEN,
            None => {
                let f = s.active as usize;
                (0..self.game.length()).any(|i| same(s.up[f][i], s.down[f][i]))
            }
        };
        let mut tried: SmallVec<[Key; 16]> = SmallVec::new();
        for &a in actions.iter() {
            if a == PEEK {
                continue;
            }
            let mut child = s;
            self.game.apply(&mut child, a);
            if let Some(ck) = dedupe.then(|| key(self.game, &child)).flatten() {
                if tried.contains(&ck) {
                    continue;
                }
                tried.push(ck);
            }
            line.push(a);
            match self.wins(&child, line)? {
                Some(true) => return Ok(Some(true)),
                Some(false) => {}
                None => {
                    self.actions[depth] = actions;
                    return Ok(None);
                }
            }
            line.pop();
        }
        self.actions[depth] = actions;
        if let Some(k) = k {
            if self.lost.len() < self.cap {
                self.lost.insert(k);
            }
        }
        Ok(Some(false))
    }
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
    let mut search = Open {
        game,
        order,
        total: s.unseen.count_ones(),
        lost: FxHashSet::default(),
        cap: hash_map_cap(ctx.limits.memory_mb, std::mem::size_of::<Key>()),
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
    };
    let mut line = Vec::new();
    let mut attempt = 0u64;
    let winnable = loop {
        line.clear();
        if let Some(won) = search.wins(s, &mut line)? {
            break won;
        }
        // Restart with a fresh order of the actions and twice the nodes; what was proved
        // lost stays known, so the last attempt is a complete search like any other.
        attempt += 1;
        search.left = FIRST_ATTEMPT << attempt.min(40);
        search.rng = Some(crate::game::row_rng(0x5EED, attempt));
    };
    Ok(OpenSolution {
        winnable,
        line,
        nodes: search.meter.sync(),
        seconds: search.meter.seconds(),
    })
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
    /// Wins over decided samples.
    pub probability: f64,
    pub stderr: f64,
    pub samples: usize,
    pub wins: usize,
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
            match solve_open(game, s, &order, &one) {
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
        match won {
            Some(true) => wins += 1,
            Some(false) => {}
            None => undecided += 1,
        }
    }
    let decided = samples - undecided;
    let p = if decided > 0 {
        wins as f64 / decided as f64
    } else {
        0.0
    };
    let stderr = if decided > 1 {
        (p * (1.0 - p) / (decided - 1) as f64).sqrt()
    } else {
        0.0
    };
    Ok(WinProbability {
        probability: p,
        stderr,
        samples,
        wins,
        undecided,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The move of [`policy`], with the samples it won per action.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyMove {
    pub action: Action,
    /// `(action, orders won)` for each legal action tried.
    pub wins: Vec<(Action, usize)>,
    pub samples: usize,
    pub nodes: u64,
}

/// A move for the real game (the order unknown), by determinised search: `samples` random
/// orders of the unseen cards (row `i` shuffled by `row_rng(seed, i)`) are drawn once; each
/// legal action is scored by how many of them the team survives after it for `horizon` more
/// unseen cards (or wins; [`survives`], each search within `ctx`'s limits, one past them
/// counting as not survived); the action scoring most is played, ties going to
/// [`rule_move`]'s choice, then to the lowest action. A Jack's look is scored as no
/// effect (it shows nothing when the order is known), so the policy looks only when the rule
/// player would.
pub fn policy(
    game: &RepairUnit,
    s: &RepairState,
    samples: usize,
    horizon: u32,
    seed: u64,
    ctx: &Context,
) -> Result<PolicyMove> {
    let ToMove::Player(_) = game.to_move(s) else {
        return Err(Error::NotApplicable(format!(
            "repair_unit policy: the team has no decision in {}",
            game.notation(s)
        )));
    };
    let mut actions = Vec::new();
    game.legal_actions(s, &mut actions);
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
                        won.push(sol.winnable);
                    }
                    Err(Error::SearchLimit { nodes: n, .. }) => {
                        nodes += n;
                        won.push(false);
                    }
                    Err(e) => return Err(e),
                }
            }
            Ok((won, nodes))
        },
    )?;
    let mut wins = vec![0usize; tried.len()];
    let mut nodes = 0;
    for row in rows {
        let (won, n) = row?;
        nodes += n;
        for (w, x) in wins.iter_mut().zip(won) {
            *w += x as usize;
        }
    }
    let best = wins.iter().copied().max().unwrap_or(0);
    let scored: Vec<(Action, usize)> = tried.iter().copied().zip(wins).collect();
    let rule_scored = if rule == PEEK { NO_EFFECT } else { rule };
    let action = if scored.iter().any(|&(a, w)| a == rule_scored && w == best) {
        rule
    } else {
        scored
            .iter()
            .find(|&&(_, w)| w == best)
            .map_or(rule, |&(a, _)| a)
    };
    Ok(PolicyMove {
        action,
        wins: scored,
        samples,
        nodes,
    })
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

/// Plays a fresh game to its end with the player `kind` (`"policy"` with `samples` orders per
/// decision and `ctx`'s limits per solve, `"rule"` or `"random"`), the cards drawn with
/// `rng`: whether it was won, and the team's decisions.
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
                let a = match kind {
                    "random" => {
                        game.legal_actions(&s, &mut actions);
                        actions[rng.random_range(0..actions.len())]
                    }
                    "rule" => rule_move(game, &s),
                    _ => {
                        let seed = crate::game::row_rng(row, decisions as u64).random::<u64>();
                        policy(game, &s, samples, horizon, seed, ctx)?.action
                    }
                };
                game.apply(&mut s, a);
                decisions += 1;
            }
        }
    }
}
