"""One position answered the same way for every game: the solver each game has and what its
value means.

:func:`solve` (also ``quanta.solve``) gives an :class:`Answer` (value, best move or line,
nodes, seconds, ``exact`` and, when the search could not decide, the reason) from the solver
each game registers in the core. A search stopped by a limit is *undecided*: ``value`` None,
``exact`` False and ``reason`` saying which limit, never a 0 or a loss. ``quanta solve``,
``quanta analyze`` and solve jobs all read :data:`SOLVERS`.

The best player each game declares is :func:`quanta.bots.Best` (``quanta play`` plays it).

What each game's solver answers: docs/rules/<game>.md (its solver section); how it searches: the
module documentation of rust/quanta-core/src/<game>/solve/mod.rs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from . import _core
from ._core import State
from .exceptions import NotApplicableError, SearchLimitError

__all__ = ["Answer", "SOLVERS", "Solver", "best_move", "greedy_move", "solve"]


#: A solver's answer (``quanta.Answer``, frozen): ``value`` (None when undecided), ``best``
#: (the best move or line as action strings), ``best_action``, ``nodes``, ``seconds``,
#: ``exact``, ``reason`` and ``undecided``.
Answer = _core.Answer


@dataclass(frozen=True)
class Solver:
    """A game's registered solver: ``function`` (the game-specific function its answer is,
    for people), what the ``value`` means, and the game ``options`` under which
    ``quanta analyze`` exercises it (its solvable form)."""

    game: str
    function: str
    value: str
    options: dict[str, Any] = field(default_factory=dict)


#: The solver of each game that has one, by game name: read from the core's registry, where
#: each game declares its solver next to its registry line.
SOLVERS: dict[str, Solver] = {
    game: Solver(game, function, value, {k: json.loads(v) for k, v in options})
    for game, function, value, options in _core.solvers()
}


def solve(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
          memory_mb: int = 1024, threads: int | None = None) -> Answer:
    """The answer of the state's game's registered solver (:data:`SOLVERS`) within the limits,
    for every game alike. A search stopped by a limit is an undecided :class:`Answer`
    (``value`` None, ``exact`` False, the reason), not an error; bad limits raise
    :class:`quanta.InvalidOptionError`, and a finished game, a chance node the solver does not
    take or a game without a solver :class:`quanta.NotApplicableError`. The rich per-game
    functions (``quanta.einstein.solve``, ...) stay for their own details. Ctrl-C interrupts
    it; the GIL is released meanwhile."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.solve(state, limits)


def best_move(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
              memory_mb: int = 1024, threads: int | None = None) -> int:
    """The best action of the state's game's registered solver (:func:`solve`'s
    ``best_action``), for every game alike. A search stopped by a limit has no best move: it
    raises :class:`quanta.SearchLimitError` (with ``nodes``, ``seconds`` and the undecided
    :class:`Answer` as ``partial``); a position whose best move waits on chance (EinStein before
    the roll: one move per roll, in ``solve(state).best``) raises
    :class:`quanta.NotApplicableError`."""
    answer = solve(state, timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb,
                   threads=threads)
    if answer.undecided:
        raise SearchLimitError(answer.reason or "undecided", answer.nodes, answer.seconds,
                               answer)
    if answer.best_action is None:
        raise NotApplicableError(f"no single best move in this position: the best waits on "
                                 f"chance ({answer.best}); see quanta.solve")
    return answer.best_action


def greedy_move(state, seed: int = 0) -> int:
    """The greedy player's move in any game: the action whose immediate result is best for the
    player taking it (its return right after the action: a move that wins at once, the most
    points now), ties broken uniformly at random by ``seed``. It looks at nothing hidden from
    the player beyond what the action itself reveals. :class:`quanta.NotApplicableError` at a
    chance node or in a finished game."""
    move = _core.greedy_move(state, seed)
    if move is None:
        raise NotApplicableError("greedy_move needs a decision: the game is over")
    return move
