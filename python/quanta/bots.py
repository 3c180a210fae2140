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
:class:`quanta.NotApplicableError`. Parameters are checked once, by the core, when the bot is
made: a bad one raises :class:`quanta.InvalidOptionError` saying what was expected. Each
kind's parameters are declared once, in the core (:func:`parameters`).

**The best player.** :func:`Best` is the strongest player quanta has for each game, as the
game declares it (:data:`BEST_PLAYERS` describes each): its own policy, its solver, or a search
with its evaluator. ``quanta play`` and ``quanta hint`` use it.

**Defaults are the strongest setting.** :func:`MCTS` and :func:`ISMCTS` with no options run
1000 iterations and value new leaves the way the game declares (for Quincunx and A Quantum
Leap, greedy-guided search; see each game's rules page).

**Limits.** Every search takes its limits by name, as the solvers do: ``timeout`` (seconds),
``max_nodes`` and ``memory_mb``. ``time=`` is the old name of ``timeout``: it still works and
warns.

**Blind bots.** ``Random``, ``Greedy``, ``ISMCTS`` and ``Best`` act only on what the acting
player may see (``bot.blind``): each ``choose`` draws from a generator seeded with the bot's
seed and the acting player's information state, so two states that player cannot tell apart
(a state and its ``resample``) get the same action, from ``choose``, from
:func:`quanta.arena` and from the OpenSpiel adapter alike. ``MCTS`` and ``Solver`` read the
whole state (in a game with hidden cards they cheat), and are seeded by it. The one exception
to determinism is a search stopped by the clock (``timeout``; ``bot.timed`` is True), which
stops after however much work the machine managed.

:func:`quanta.arena` plays bots against each other.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from . import _core
from ._core import BOT_KINDS, Bot
from .exceptions import InvalidOptionError

__all__ = ["BEST_PLAYERS", "Best", "Bot", "EVALUATORS", "Greedy", "ISMCTS", "KINDS", "MCTS",
           "ROLLOUTS", "Random", "Solver", "make", "parameters"]

#: The kinds of bot by name, as :func:`make` and ``quanta play --bot`` take them.
KINDS: tuple[str, ...] = tuple(BOT_KINDS)

#: The best player each game declares, described, by game name (from the core's registry).
BEST_PLAYERS: dict[str, str] = {game: best for game, best, _, _ in _core.knowledge()}

#: How :func:`MCTS` and :func:`ISMCTS` value new leaves in each game when given no
#: ``rollout``: what the game declares as its strongest ("random", "greedy" or "evaluator").
ROLLOUTS: dict[str, str] = {game: rollout for game, _, rollout, _ in _core.knowledge()}

#: The position evaluator each game declares, described (``rollout="evaluator"`` uses it), by
#: game name; games without one are not listed.
EVALUATORS: dict[str, str] = {game: e for game, _, _, e in _core.knowledge() if e}


def parameters(kind: str) -> dict[str, str]:
    """The parameters a kind of bot takes besides its seed, each with what it must be, in the
    order the core declares them."""
    return dict(_core.bot_parameters(kind))


def make(kind: str, seed: int = 0, **params: Any) -> Bot:
    """A bot of ``kind`` (one of :data:`KINDS`) with its parameters by name, e.g.
    ``make("mcts", iterations=100)`` or ``make("best")``."""
    return Bot(kind, seed, params)


def _maker(kind: str, positional: int, doc: str) -> Callable[..., Bot]:
    """The function that makes a ``kind`` bot: its signature is the core's parameters of that
    kind (the first ``positional`` of them also by position), then ``seed``."""
    declared = parameters(kind)
    names = list(declared)

    def make_bot(*args: Any, seed: int = 0, **params: Any) -> Bot:
        if len(args) > positional:
            raise InvalidOptionError(
                f"{kind} bot: at most {positional} parameters by position "
                f"({', '.join(names[:positional]) or 'none'}), not {len(args)}; name the rest")
        for name, value in zip(names, args):
            if name in params:
                raise InvalidOptionError(f"{kind} bot: {name} given twice")
            params[name] = value
        return Bot(kind, seed, params)

    kinds = inspect.Parameter
    make_bot.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [kinds(n, kinds.POSITIONAL_OR_KEYWORD if i < positional else kinds.KEYWORD_ONLY,
               default=None) for i, n in enumerate(names)]
        + [kinds("seed", kinds.KEYWORD_ONLY, default=0)])
    described = "\n".join(f"- ``{n}``: {what}." for n, what in declared.items())
    make_bot.__doc__ = f"{doc}\n\nParameters (each None for its default):\n\n{described}\n"
    return make_bot


def Random(seed: int = 0) -> Bot:
    """A uniformly random legal action."""
    return Bot("random", seed)


def Greedy(seed: int = 0) -> Bot:
    """The action whose return right after it is best for the player taking it; ties broken by
    the seed."""
    return Bot("greedy", seed)


MCTS = _maker("mcts", 2, """UCT Monte Carlo tree search on the whole state (hidden cards
included): it sees what its seat may not.

The search runs ``iterations`` iterations (1000 when no limit is given) and stops earlier at
its ``timeout``, ``max_nodes`` (nodes of its tree) or ``memory_mb`` (its tree's memory), after
one iteration at least. ``exploration`` is UCT's constant (default sqrt(2), on returns scaled to
[0, 1]). ``rollout`` is how a new leaf is valued: ``"random"`` plays random moves to the end;
``"greedy"`` plays the greedy player's moves and widens the tree progressively in the greedy
order; ``"evaluator"`` takes the game's position evaluator; None (the default) takes what the
game declares. ``solver_nodes`` puts each new leaf to the game's solver within that many nodes
and takes its value where it answers (only games whose solver values positions as returns).""")

ISMCTS = _maker("ismcts", 2, """Information-set MCTS: :func:`MCTS` with each iteration on a
state drawn from those the acting player cannot tell apart, so that its choice depends only on
what that player knows. In a game of perfect information it is MCTS.""")

Solver = _maker("solver", 1, """The game's solver's best action within the limits (as
:func:`quanta.solve` takes them), the greedy action where the solver gives none (undecided, or
no single best action). A game without a solver refuses it when it is asked to act.""")

Best = _maker("best", 1, """The strongest player quanta has for the game it is asked to play
(:data:`BEST_PLAYERS` says what it is per game), within ``timeout`` seconds a move (default 1)
and the other limits. It acts only on what its seat may see.""")
