"""One position answered the same way for every game: the solver each game has, what its value
means, and the move of the best computer player quanta has for each game.

:func:`solve` (also ``quanta.solve``) gives an :class:`Answer` (value, best move or line,
nodes, seconds, ``exact`` and, when the search could not decide, the reason) from the solver
each game registers in the core. A search stopped by a limit is *undecided*: ``value`` None,
``exact`` False and ``reason`` saying which limit, never a 0 or a loss. ``quanta solve``,
``quanta analyze`` and solve jobs all read :data:`SOLVERS`.

:func:`computer_move` is the move ``quanta play`` makes for the computer: each game's best
solver or policy (:data:`PLAYERS` says which).

What each game's solver answers: docs/rules/<game>.md (its solver section); how it searches: the
module documentation of rust/quanta-core/src/<game>/solve/mod.rs.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import quanta

from . import _core
from ._core import State
from .exceptions import NotApplicableError, SearchLimitError

__all__ = ["Answer", "PLAYERS", "SOLVERS", "Solver", "best_move", "computer_move", "greedy_move",
           "solve"]


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
    return _core.solve(state, (timeout, max_nodes, memory_mb, threads))


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


# ---- the computer player ----

#: The player quanta's computer is, per game, as ``quanta play`` describes it.
PLAYERS: dict[str, str] = {
    "a_quantum_leap": "the exact best turn (best_turn) within the time, else the greedy "
                      "placement; the best Higgs (best_higgs); outer cells at random",
    "einstein": "quanta.einstein.best_move: the exact solver in endgames, its heuristic before",
    "einstein_card": "with both hands open, the exact solver's best action "
                     "(quanta.einstein_card.solve) when it answers within the time; otherwise "
                     "the greedy player (quanta.solvers.greedy_move: a move that wins at once, "
                     "else any, by the seed)",
    "quantum_leap": "the exact solver's winning move; in a lost or undecided position any "
                    "move, by the seed",
    "quincunx": "solitaire: quanta.quincunx.best_move; 2-4 players: the greedy player (the "
                "placement whose points so far are best, ties by the seed)",
    "repair_unit": "quanta.repair_unit.policy (determinised search over sampled orders)",
}


def computer_move(state, *, seed: int = 0, timeout: float = 2.0) -> int:
    """The move of quanta's best player for the state's game (:data:`PLAYERS`), searching at
    most about ``timeout`` seconds; the same move for the same state and ``seed``.
    :class:`quanta.NotApplicableError` at a chance node or in a finished game."""
    if not isinstance(state, quanta.State):
        raise NotApplicableError(f"computer_move needs a game state, not {type(state).__name__}")
    if state.is_chance or state.is_terminal:
        raise NotApplicableError("computer_move needs a decision: the position is "
                                 + ("a chance node" if state.is_chance else "a finished game"))
    name = state.game.name
    rng = random.Random(seed)
    move: int | None = None  # the library's functions answer None only in a finished game
    if name == "einstein":
        move = quanta.einstein.best_move(state, seed=seed, timeout=timeout)
    if name == "einstein_card" and state.game.options["open_hands"] == (True, True):
        try:
            move = quanta.einstein_card.solve(state, timeout=timeout, memory_mb=512).best_action
        except SearchLimitError:
            pass
    if name == "quantum_leap":
        try:
            r = quanta.quantum_leap.solve(state, timeout=timeout)
            move = r.best_action if r.win else None
        except SearchLimitError:
            pass
        if move is None:
            return rng.choice(state.legal_actions())
    if name == "a_quantum_leap":
        phase = quanta.a_quantum_leap.phase(state)
        if phase == "higgs":
            return quanta.a_quantum_leap.best_higgs(state, timeout=timeout).action
        if phase == "play":
            try:
                return quanta.a_quantum_leap.best_turn(state, timeout=timeout).actions[0]
            except SearchLimitError:
                return quanta.a_quantum_leap.greedy_move(state)
        return rng.choice(state.legal_actions())  # an outer cell of stage one
    if name == "quincunx":
        if state.game.num_players == 1:
            move = quanta.quincunx.best_move(state, seed=seed)
    if name == "repair_unit":
        move = quanta.repair_unit.policy(state, seed)
    return move if move is not None else greedy_move(state, seed)


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
