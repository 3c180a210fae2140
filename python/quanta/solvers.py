"""One position answered the same way for every game: the solver each game has, what its value
means, and the move of the best computer player quanta has for each game.

:func:`answer` gives an :class:`Answer` (value, best move or line, nodes, seconds, ``exact``
and, when the search could not decide, the reason). A search stopped by a limit is
*undecided*: ``value`` None, ``exact`` False and ``reason`` saying which limit, never a 0 or a
loss. ``quanta solve``, ``quanta analyze`` and solve jobs all read :data:`SOLVERS`.

:func:`computer_move` is the move ``quanta play`` makes for the computer: each game's best
solver or policy (:data:`PLAYERS` says which).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

import quanta

from . import _core
from .exceptions import NotApplicableError, SearchLimitError

__all__ = ["Answer", "PLAYERS", "SOLVERS", "Solver", "answer", "computer_move", "greedy_move"]


@dataclass(frozen=True)
class Answer:
    """A solver's answer to one position, from the view of the player to act.

    ``value`` is None when the search was undecided (stopped by a limit: ``reason`` says which);
    ``exact`` is False for an undecided answer and for an estimate (a value over the decided
    samples only, ``reason`` saying how many were left undecided). ``best`` is the best move or
    line in the game's action strings (None when the search did not get that far)."""

    value: float | None
    best: str | None
    nodes: int | None
    seconds: float | None
    exact: bool
    reason: str | None = None

    @property
    def undecided(self) -> bool:
        """True when the search gave no value."""
        return self.value is None


def _undecided(e: SearchLimitError) -> Answer:
    return Answer(None, None, e.nodes, e.seconds, False, str(e))


@dataclass(frozen=True)
class Solver:
    """How ``game``'s positions are solved: ``function`` (its name, for people), what the
    ``value`` means, the game ``options`` under which :func:`quanta analyze` exercises it (its
    solvable form), and ``run(state, limits, threads) -> Answer``."""

    game: str
    function: str
    value: str
    run: Callable[[Any, dict, Any], Answer]
    options: dict = field(default_factory=dict)


def _einstein(state, limits: dict, threads) -> Answer:
    r = quanta.einstein.solve(state, threads=threads, **limits)
    best = " ".join(f"{d}:{m}" for d, m in r.best_move_strings.items())
    return Answer(r.value, best, r.nodes, r.seconds, r.exact)


def _einstein_card(state, limits: dict, threads) -> Answer:
    r = quanta.einstein_card.solve(state, threads=threads, **limits)
    return Answer(r.value, r.best_move, r.nodes, r.seconds, r.exact)


def _quantum_leap(state, limits: dict, threads) -> Answer:
    r = quanta.quantum_leap.solve(state, threads=threads, **limits)
    return Answer(float(r.win), r.best_move, r.nodes, r.seconds, r.exact)


def _quincunx(state, limits: dict, threads) -> Answer:
    r = quanta.quincunx.solve_expected(state, threads=threads, **limits)
    return Answer(r.p_win, r.best_move, r.nodes, r.seconds, r.exact)


def _a_quantum_leap(state, limits: dict, threads) -> Answer:
    if quanta.a_quantum_leap.phase(state) == "higgs":
        h = quanta.a_quantum_leap.best_higgs(state, threads=threads, **limits)
        return Answer(float(h.points), h.move, h.nodes, h.seconds, h.exact)
    r = quanta.a_quantum_leap.best_turn(state, threads=threads, **limits)
    return Answer(float(r.value), " ".join(r.moves), r.nodes, r.seconds, r.exact)


#: Orders of the unseen cards a Quantum Repair Unit answer is estimated over.
REPAIR_UNIT_SAMPLES = 32


def _repair_unit(state, limits: dict, threads) -> Answer:
    # The order of the unseen cards is chance: the win probability of a team that would know
    # it, over REPAIR_UNIT_SAMPLES seeded orders, the limits shared out among them.
    samples = REPAIR_UNIT_SAMPLES
    each = dict(limits)
    if each.get("timeout") is not None:
        each["timeout"] = each["timeout"] / samples
    if each.get("max_nodes") is not None:
        each["max_nodes"] = max(1, each["max_nodes"] // samples)
    r = quanta.repair_unit.win_probability(state, samples, 0, threads=threads, **each)
    decided = samples - r.undecided
    if decided == 0 or r.probability is None:
        return Answer(None, None, r.nodes, r.seconds, False,
                      f"repair_unit: none of the {samples} sampled orders was decided within "
                      f"the limits")
    move = state.action_to_string(quanta.repair_unit.policy(state, 0, samples=8,
                                                            threads=threads))
    reason = None if r.undecided == 0 else (
        f"repair_unit: an estimate over the {decided} of {samples} sampled orders decided "
        f"within the limits")
    return Answer(r.probability, move, r.nodes, r.seconds, r.undecided == 0, reason)


#: The solver of each game that has one, by game name.
SOLVERS: dict[str, Solver] = {
    "a_quantum_leap": Solver(
        "a_quantum_leap", "quanta.a_quantum_leap.best_turn (best_higgs for the Higgs)",
        "the points of the mover's best turn less 4 per penalty it gives (the Higgs: its bonus "
        "points)", _a_quantum_leap),
    "einstein": Solver(
        "einstein", "quanta.einstein.solve",
        "the mover's probability of winning with perfect play by both sides", _einstein),
    "einstein_card": Solver(
        "einstein_card", "quanta.einstein_card.solve",
        "the expected return of the player to act with perfect play by both sides, both hands "
        "open (+1 a win, -1 a loss, 0 a draw)", _einstein_card, {"open_hands": True}),
    "quantum_leap": Solver(
        "quantum_leap", "quanta.quantum_leap.solve",
        "1 if the mover wins with perfect play, 0 if the mover loses", _quantum_leap,
        {"size": 3}),
    "quincunx": Solver(
        "quincunx", "quanta.quincunx.solve_expected",
        "the solitaire player's probability of filling the grid with best play, the draws "
        "unknown", _quincunx, {"players": 1}),
    "repair_unit": Solver(
        "repair_unit", "quanta.repair_unit.win_probability",
        f"the probability that a team knowing the card order would win, estimated over "
        f"{REPAIR_UNIT_SAMPLES} seeded orders", _repair_unit),
}


def _solver(name: str) -> Solver:
    if name not in SOLVERS:
        raise NotApplicableError(f"{name} has no solver yet; the games with one are "
                                 f"{sorted(SOLVERS)}")
    return SOLVERS[name]


def answer(state, *, timeout: float | None = None, max_nodes: int | None = None,
           memory_mb: int = 1024, threads: int | None = None) -> Answer:
    """The answer of the state's game's solver (:data:`SOLVERS`) within the limits. A search
    stopped by a limit is an undecided :class:`Answer` (``value`` None, the reason), not an
    error; bad limits, a finished game or a chance node raise as the solver does."""
    if not isinstance(state, quanta.State):
        raise NotApplicableError(f"answer needs a game state, not {type(state).__name__}")
    if state.is_terminal:
        raise NotApplicableError("the game is over in this position: nothing to solve")
    solver = _solver(state.game.name)
    limits = {"timeout": timeout, "max_nodes": max_nodes, "memory_mb": memory_mb}
    try:
        return solver.run(state, limits, threads)
    except SearchLimitError as e:
        return _undecided(e)


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
            move = quanta.einstein_card.solve(state, timeout=timeout).best_action
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
