"""Bots: players for every game, written once in the Rust core, and what makes them.

>>> import quanta
>>> from quanta import bots
>>> s = quanta.game("einstein").new_state()
>>> while s.is_chance:                              # set the stones up
...     s = s.play(s.chance_outcomes()[0][0])
>>> bot = bots.MCTS(iterations=200, seed=1)
>>> bot.choose(s) in s.legal_actions()
True
>>> bot.choose(s) == bot.choose(s)                 # the same bot, the same state: the same action
True

Each function returns a :class:`quanta.Bot` (immutable, compared by value, picklable) whose
``choose(state)`` gives the action of the player to act at a decision of any game, with the GIL
released (Ctrl-C interrupts it). At a chance node or in a finished game ``choose`` raises
:class:`quanta.NotApplicableError`. Parameters are checked once, when the bot is made: a bad one
raises :class:`quanta.InvalidOptionError` saying what was expected.

**Determinism.** A bot has no state that changes: its action depends only on the bot (its seed
included) and the state it is given — each ``choose`` draws from a generator seeded with the
bot's seed mixed with the state's hash. The one exception is a search stopped by the clock
(``MCTS(time=...)``, ``Solver(timeout=...)``; ``bot.timed`` is True), which stops after however
many iterations the machine managed.

What a bot may see: ``Random``, ``Greedy`` and ``ISMCTS`` act only on what the acting player
may see; ``MCTS`` and ``Solver`` read the whole state (in a game with hidden cards they cheat).

:func:`quanta.arena` plays bots against each other.
"""

from __future__ import annotations

from ._core import BOT_KINDS, Bot

__all__ = ["Bot", "Greedy", "ISMCTS", "KINDS", "MCTS", "Random", "Solver", "make"]

#: The kinds of bot by name, as :func:`make` and ``quanta play --bot`` take them.
KINDS: tuple[str, ...] = tuple(BOT_KINDS)


def Random(seed: int = 0) -> Bot:
    """A uniformly random legal action."""
    return Bot("random", seed)


def Greedy(seed: int = 0) -> Bot:
    """The action whose return right after it is best for the player taking it; ties broken by
    the seed."""
    return Bot("greedy", seed)


def _search(kind: str, iterations, time, seed, exploration, rollout, memory_mb,
            solver_nodes) -> Bot:
    params = {"iterations": iterations, "time": time, "exploration": exploration,
              "rollout": rollout, "memory_mb": memory_mb, "solver_nodes": solver_nodes}
    return Bot(kind, seed, {k: v for k, v in params.items() if v is not None})


def MCTS(iterations: int | None = None, time: float | None = None, seed: int = 0, *,
         exploration: float | None = None, rollout: str | None = None,
         memory_mb: int | None = None, solver_nodes: int | None = None) -> Bot:
    """UCT Monte Carlo tree search on the whole state (hidden cards included).

    ``iterations`` (a positive integer) and/or ``time`` (seconds): the search stops at the first
    reached; at least one is needed. ``exploration`` is UCT's constant (default sqrt(2), on
    returns scaled to [0, 1]). ``rollout`` is how a new leaf is valued: ``"random"`` (the
    default) plays random moves to the end; ``"greedy"`` plays the greedy player's moves,
    slower and better in scoring games, and the search then widens progressively in the greedy
    player's order, best immediate return first. ``solver_nodes`` (a positive integer) puts
    each new leaf to the game's registered solver (:data:`quanta.solvers.SOLVERS`) within that
    many nodes, and takes its value instead of a rollout where it answers; only games whose
    solver values positions as returns take it (a clear error says which). ``memory_mb`` caps
    the tree (default 1024)."""
    return _search("mcts", iterations, time, seed, exploration, rollout, memory_mb, solver_nodes)


def ISMCTS(iterations: int | None = None, time: float | None = None, seed: int = 0, *,
           exploration: float | None = None, rollout: str | None = None,
           memory_mb: int | None = None, solver_nodes: int | None = None) -> Bot:
    """Information-set MCTS: :func:`MCTS` with each iteration on a state drawn from those the
    acting player cannot tell apart, so that its choice depends only on what that player knows.
    In a game of perfect information it is MCTS. Parameters as :func:`MCTS` (a leaf's solver
    reads the drawn state, as the rollout does)."""
    return _search("ismcts", iterations, time, seed, exploration, rollout, memory_mb,
                   solver_nodes)


def Solver(timeout: float | None = None, max_nodes: int | None = None,
           memory_mb: int = 1024, seed: int = 0) -> Bot:
    """The game's registered solver's best action within the limits (as :func:`quanta.solve`
    takes them), the greedy action where the solver gives none (undecided, or no single best
    action). A game without a solver refuses it when it is asked to act."""
    params = {"timeout": timeout, "max_nodes": max_nodes, "memory_mb": memory_mb}
    return Bot("solver", seed, {k: v for k, v in params.items() if v is not None})


def make(kind: str, seed: int = 0, **params) -> Bot:
    """A bot of ``kind`` (one of :data:`KINDS`) with its parameters by name, e.g.
    ``make("mcts", iterations=100)``."""
    return Bot(kind, seed, params)
