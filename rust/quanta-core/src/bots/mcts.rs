//! UCT Monte Carlo tree search, for any number of players and with chance, and the search
//! engine that [`super::ismcts`] shares.
//!
//! **Tree.** Nodes live in one vector and name their children by index; a node is reached by
//! the actions from the root (decisions and chance outcomes alike) and keeps its visits, its
//! availability (how often its parent was visited while its action was legal) and the sum of
//! every player's returns over the iterations through it.
//!
//! **Iteration.** From the root state (the state itself for [`Mcts`]; a determinisation for
//! ISMCTS): at a decision of player `p`, a legal action without a node yet is expanded (drawn
//! uniformly among them; with greedy rollouts, see below, the one with the best immediate
//! return for `p`, and only while the node is allowed another child), else the child maximising `mean_p + c * sqrt(ln(available) /
//! visits)` is followed (the first, by action, on a tie), where `mean_p` is `p`'s mean return
//! through the child scaled to [0, 1] by the lowest and highest return any rollout of this
//! search has given; at a chance node an outcome is drawn by its odds
//! ([`Game::sample_chance`]) and its node followed, or made when new. A new node is valued by
//! a rollout ([`super::Rollout`]), a finished game by its returns, and the returns are added
//! along the path. With [`SearchSpec::solver_nodes`], a new node that is a decision is first
//! put to the game's solver ([`crate::knowledge::Knowledge::answer`]) within that many nodes (one thread,
//! [`super::LEAF_SOLVER_MEMORY_MB`] of tables), and its value, read as every player's return
//! ([`crate::solver::SolverInfo::returns`]), replaces the rollout where it answers; a game
//! whose solver's value is not a game value (A Quantum Leap's turn points, Quincunx's chance
//! of filling the grid) refuses the option. In a perfect-information game a child is legal at every visit of its
//! parent, so `available` is the parent's visits since the child was made: plain UCT.
//!
//! **Progressive widening** (with [`Rollout::Greedy`]): a node of `v` visits keeps adding
//! children while it has fewer than `sqrt(v + 1)` of them legal in the iteration's state (and
//! always when none is), taking the untried actions best immediate return first. A root of
//! hundreds of actions (a Quincunx hand times the empty cells) searched 200 times then weighs
//! its dozen best placements instead of trying each placement once; uniform expansion stays
//! the rule with random rollouts, where every action is tried before any is tried twice.
//!
//! **Limits.** The search stops at the first of its iterations and its limits, checked by the
//! shared budget ([`crate::search::Budget`]): `timeout`, `max_nodes` (the tree's nodes, the root
//! aside: one node at most is made per iteration) and `memory_mb` (the tree full), after one
//! iteration at least; Ctrl-C stops it with `Interrupted`.
//!
//! **Choice.** The root action with the most visits, the lowest action on a tie. A decision
//! with one legal action is answered without searching.
//!
//! `Mcts` searches the state it is given, hidden cards included: it is the perfect-information
//! bot, and in a game with hidden information it sees what its seat may not.

use super::{Player, Rollout, SearchSpec, not_a_decision};
use crate::error::{Error, Result};
use crate::game::{Action, Game, Rng, ToMove};
use crate::knowledge::Knowledge;
use crate::search::{Budget, Context, Limits};
use crate::solver::Answer;
use rand::Rng as _;
use std::sync::atomic::AtomicBool;

/// UCT on the state it is given.
#[derive(Debug, Clone, PartialEq)]
pub struct Mcts(pub SearchSpec);

impl<G: Knowledge> Player<G> for Mcts {
    fn act(
        &self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        cancel: &AtomicBool,
    ) -> Result<Action> {
        search(game, state, &self.0, None, rng, cancel).map(|s| s.best)
    }
}

/// What a search found: the chosen action and the root's statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct Searched {
    pub best: Action,
    /// Iterations run.
    pub iterations: u64,
    /// Each root action searched, with its visits, ascending by action.
    pub visits: Vec<(Action, u64)>,
}

const NO_ACTION: Action = Action::MAX;

#[derive(Debug, Clone)]
struct Node {
    /// The action from the parent (`NO_ACTION` at the root).
    action: Action,
    visits: u64,
    available: u64,
    /// Children, ascending by action, each with its action: a child is found without
    /// visiting the nodes it passes over.
    children: Vec<(Action, u32)>,
    /// A decision of [`Mcts`] whose every legal action has its child: its state is the same
    /// at every visit, so its children are its legal actions, and need not be listed again.
    complete: bool,
}

/// The tree: nodes, and every player's summed returns of node `i` at `sums[i * players..]`.
struct Tree {
    players: usize,
    nodes: Vec<Node>,
    sums: Vec<f64>,
}

impl Tree {
    fn new(players: usize) -> Self {
        let mut tree = Tree {
            players,
            nodes: Vec::new(),
            sums: Vec::new(),
        };
        tree.add(NO_ACTION);
        tree
    }

    fn add(&mut self, action: Action) -> u32 {
        self.nodes.push(Node {
            action,
            visits: 0,
            available: 1,
            children: Vec::new(),
            complete: false,
        });
        self.sums.extend(std::iter::repeat_n(0.0, self.players));
        (self.nodes.len() - 1) as u32
    }

    /// The child of `node` for `action`, made if new; whether it was new.
    fn child(&mut self, node: u32, action: Action) -> (u32, bool) {
        let at = self.nodes[node as usize]
            .children
            .binary_search_by_key(&action, |&(a, _)| a);
        match at {
            Ok(i) => (self.nodes[node as usize].children[i].1, false),
            Err(i) => {
                let c = self.add(action);
                self.nodes[node as usize].children.insert(i, (action, c));
                (c, true)
            }
        }
    }
}

/// Natural logarithms of the counts, each computed once, the first time it is asked for: the
/// same values as `ln`, without its cost at every child of every node the search passes.
/// Counts from `Logarithms::MOST` on (a node visited that often) are not kept.
struct Logarithms(Vec<f64>);

impl Logarithms {
    const MOST: u64 = 1 << 16;

    fn new() -> Self {
        Logarithms(Vec::new())
    }

    #[inline]
    fn of(&mut self, n: u64) -> f64 {
        match self.0.get(n as usize) {
            Some(&ln) => ln,
            None => self.compute(n),
        }
    }

    /// `ln(n)`, and those of the counts up to `n` kept when below `MOST`.
    #[cold]
    fn compute(&mut self, n: u64) -> f64 {
        if n >= Self::MOST {
            return (n as f64).ln();
        }
        let known = self.0.len() as u64;
        self.0.extend((known..=n).map(|k| (k as f64).ln()));
        self.0[n as usize]
    }
}

/// The bytes a node of a game of `players` players takes: the node, its sums and its place in
/// its parent's children (and as much again for the vectors' spare room).
fn node_bytes(players: usize) -> usize {
    2 * (std::mem::size_of::<Node>() + players * 8 + 8)
}

/// Runs the search of `spec` from `root`, a decision: on `root` itself when `observer` is
/// `None` ([`Mcts`]), else each iteration on `game.resample(root, observer, rng)`
/// ([`super::ismcts::Ismcts`]). Stops at the first of `spec`'s iterations, time and memory
/// (at least one iteration), or with `Interrupted` once `cancel` is set.
pub fn search<G: Knowledge>(
    game: &G,
    root: &G::State,
    spec: &SearchSpec,
    observer: Option<usize>,
    rng: &mut Rng,
    cancel: &AtomicBool,
) -> Result<Searched> {
    if !matches!(game.to_move(root), ToMove::Player(_)) {
        return Err(not_a_decision(game, root));
    }
    let mut actions = Vec::new();
    game.legal_actions(root, &mut actions);
    if let [only] = actions[..] {
        return Ok(Searched {
            best: only,
            iterations: 0,
            visits: vec![(only, 0)],
        });
    }
    let leaf_solver = match spec.solver_nodes {
        Some(nodes) => Some(LeafSolver::new::<G>(nodes)?),
        None => None,
    };
    let rollout = spec.rollout.unwrap_or(G::ROLLOUT);
    let budget = Budget::new("tree search", spec.limits.clone(), cancel);
    let players = game.num_players();
    let mut tree = Tree::new(players);
    // Each iteration makes at most one node.
    let most_nodes = ((spec.limits.memory_mb << 20) / node_bytes(players))
        .clamp(2, u32::MAX as usize) as u64;
    let mut returns = vec![0.0; players];
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut path: Vec<u32> = Vec::new();
    let mut untried: Vec<Action> = Vec::new();
    let mut seen: Vec<u32> = Vec::new();
    let mut iterations = 0u64;
    let mut log = Logarithms::new();
    loop {
        if spec.iterations.is_some_and(|n| iterations >= n) || tree.nodes.len() as u64 >= most_nodes
        {
            break;
        }
        // The shared budget: Ctrl-C stops the search; a limit ends it with what it found,
        // after one iteration at least. An iteration makes at most one node: the tree (root
        // aside) stays within `max_nodes`.
        match budget.check(tree.nodes.len() as u64) {
            Err(Error::SearchLimit { .. }) if iterations > 0 => break,
            Err(Error::SearchLimit { .. }) | Ok(()) => {}
            Err(e) => return Err(e),
        }
        iterations += 1;
        let mut state = match observer {
            Some(me) => game.resample(root, me, rng),
            None => root.clone(),
        };
        let mut node = 0u32;
        path.clear();
        path.push(node);
        // Descend until a node is made or the game ends.
        let leaf_is_new = loop {
            match game.to_move(&state) {
                ToMove::Terminal => break false,
                ToMove::Chance => {
                    let a = game.sample_chance(&state, rng);
                    game.apply(&mut state, a);
                    let (c, new) = tree.child(node, a);
                    node = c;
                    path.push(node);
                    if new {
                        break true;
                    }
                }
                ToMove::Player(p) => {
                    untried.clear();
                    seen.clear();
                    let parent = &tree.nodes[node as usize];
                    let children = &parent.children;
                    if parent.complete {
                        seen.extend(children.iter().map(|&(_, c)| c));
                    } else {
                        actions.clear();
                        game.legal_actions(&state, &mut actions);
                        let mut i = 0;
                        for &a in &actions {
                            while i < children.len() && children[i].0 < a {
                                i += 1;
                            }
                            if i < children.len() && children[i].0 == a {
                                seen.push(children[i].1);
                            } else {
                                untried.push(a);
                            }
                        }
                        // Once complete, a node of `Mcts` stays so; ISMCTS never marks one
                        // (its legal actions may change with the determinisation).
                        tree.nodes[node as usize].complete =
                            observer.is_none() && untried.is_empty();
                    }
                    let (mut best, mut best_score) = (u32::MAX, f64::NEG_INFINITY);
                    let scale = if high > low { 1.0 / (high - low) } else { 0.0 };
                    for &c in &seen {
                        tree.nodes[c as usize].available += 1;
                    }
                    // Greedy-guided search widens progressively: a node considers one more
                    // action each time the square root of its visits passes its children.
                    let widen = match rollout {
                        Rollout::Random | Rollout::Evaluator => true,
                        Rollout::Greedy => {
                            seen.is_empty()
                                || (seen.len() as f64)
                                    < (tree.nodes[node as usize].visits as f64 + 1.0).sqrt()
                        }
                    };
                    let expand = if untried.is_empty() || !widen {
                        None
                    } else {
                        match rollout {
                            Rollout::Random | Rollout::Evaluator => {
                                Some(untried[rng.random_range(0..untried.len())])
                            }
                            Rollout::Greedy => crate::greedy::best_immediate(
                                game, &state, &untried, p as usize, rng,
                            ),
                        }
                    };
                    if let Some(a) = expand {
                        game.apply(&mut state, a);
                        let (c, _) = tree.child(node, a);
                        node = c;
                        path.push(node);
                        break true;
                    }
                    for &c in &seen {
                        let child = &tree.nodes[c as usize];
                        let n = child.visits as f64;
                        let mean = tree.sums[c as usize * players + p as usize] / n;
                        let scaled = if scale > 0.0 {
                            (mean - low) * scale
                        } else {
                            0.5
                        };
                        let score =
                            scaled + spec.exploration * (log.of(child.available) / n).sqrt();
                        if score > best_score {
                            (best, best_score) = (c, score);
                        }
                    }
                    game.apply(&mut state, tree.nodes[best as usize].action);
                    node = best;
                    path.push(node);
                }
            }
        };
        // A new leaf: the solver's value where it answers, else a rollout.
        let solved = leaf_is_new
            && match &leaf_solver {
                Some(solver) => solver.value(game, &state, &mut returns, cancel)?,
                None => false,
            };
        let evaluated = leaf_is_new
            && !solved
            && rollout == Rollout::Evaluator
            && matches!(game.to_move(&state), ToMove::Player(_))
            && game.evaluate(&state, rng, &mut returns)?;
        if solved || evaluated {
            // `returns` holds the solver's or the evaluator's value.
        } else if leaf_is_new {
            match rollout {
                Rollout::Random | Rollout::Evaluator => {
                    game.random_playout(&mut state, rng, &mut returns);
                }
                Rollout::Greedy => greedy_playout(game, &mut state, rng, &mut returns),
            }
        } else {
            game.returns(&state, &mut returns);
        }
        for &r in &returns {
            low = low.min(r);
            high = high.max(r);
        }
        for &n in &path {
            tree.nodes[n as usize].visits += 1;
            let sums = &mut tree.sums[n as usize * players..(n as usize + 1) * players];
            for (s, r) in sums.iter_mut().zip(&returns) {
                *s += r;
            }
        }
    }
    let visits: Vec<(Action, u64)> = tree.nodes[0]
        .children
        .iter()
        .map(|&(a, c)| (a, tree.nodes[c as usize].visits))
        .collect();
    let mut best = (visits[0].0, visits[0].1);
    for &(a, v) in &visits {
        if v > best.1 {
            best = (a, v);
        }
    }
    Ok(Searched {
        best: best.0,
        iterations,
        visits,
    })
}

/// The game's solver as a leaf's value ([`SearchSpec::solver_nodes`]).
struct LeafSolver {
    as_returns: fn(f64, usize, &mut [f64]),
    limits: Limits,
}

impl LeafSolver {
    /// The leaf solver of game `G`, or the error saying why its solver gives no leaf values.
    fn new<G: Knowledge>(nodes: u64) -> Result<Self> {
        let refused = |why: String| {
            Error::InvalidOption(format!(
                "solver_nodes needs a game whose solver values a position as the players' \
                 returns (a win probability or an expected return); {why}: leave solver_nodes \
                 None"
            ))
        };
        let Some(info) = G::SOLVER else {
            return Err(refused(format!("{} has no solver", G::NAME)));
        };
        let Some(as_returns) = info.returns else {
            return Err(refused(format!("{}'s solver gives {}", G::NAME, info.value)));
        };
        Ok(LeafSolver {
            as_returns,
            limits: Limits {
                timeout: None,
                max_nodes: Some(nodes),
                memory_mb: super::LEAF_SOLVER_MEMORY_MB,
            },
        })
    }

    /// Writes the solver's value of `state` as every player's return and says so, where
    /// `state` is a decision the solver answers within the nodes; false otherwise (a chance
    /// node or a finished game, a position it does not take, a search stopped by its limit).
    fn value<G: Knowledge>(
        &self,
        game: &G,
        state: &G::State,
        returns: &mut [f64],
        cancel: &AtomicBool,
    ) -> Result<bool> {
        let ToMove::Player(mover) = game.to_move(state) else {
            return Ok(false);
        };
        let ctx = Context::new(self.limits.clone(), Some(1), cancel);
        match game.answer(state, &ctx) {
            Ok(Answer { value: Some(v), .. }) => {
                (self.as_returns)(v, mover as usize, returns);
                Ok(true)
            }
            Ok(_) | Err(Error::NotApplicable(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// Plays `state` to its end with the greedy player's moves (chance by its odds) and writes the
/// returns.
fn greedy_playout<G: Game>(game: &G, state: &mut G::State, rng: &mut Rng, returns: &mut [f64]) {
    loop {
        let action = match game.to_move(state) {
            ToMove::Terminal => break,
            ToMove::Chance => game.sample_chance(state, rng),
            ToMove::Player(_) => crate::greedy::greedy_action(game, state, rng)
                .expect("a decision has a greedy action"),
        };
        game.apply(state, action);
    }
    game.returns(state, returns);
}
