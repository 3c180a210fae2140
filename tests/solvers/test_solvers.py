"""The solver registry: every game's solver behind ``quanta.solve``, one answer shape, the same
answers as the game's own functions, and undecided answers that carry no number."""

from __future__ import annotations

import random

import pytest
from helpers import random_step

import quanta
from quanta.exceptions import InvalidOptionError, NotApplicableError
from quanta.solvers import SOLVERS


# Random play loses Quantum Repair Unit within a few turns: a late position is written out.
_CODES = [r + s for r in "A23456789TJQK" for s in "SHDC"]
_KEPT = ("7H", "3D", "7S", "QS", "QH", "2C", "2D", "3S", "3H", "3C", "5S", "5H")
REPAIR_LATE = (f"7H+3D,7S,QS|QH,2C,2D 3S - *4 {','.join(c for c in _CODES if c not in _KEPT)} "
               f"0 A:move")


def _late(name: str, seed: int, want=lambda s: True) -> quanta.State:
    """A decision from the last part of a seeded random game of the solver's solvable form."""
    g = quanta.game(name, **SOLVERS[name].options)
    if name == "repair_unit":
        return g.from_notation(REPAIR_LATE)
    rng = random.Random(seed)
    for _ in range(500):
        s, trail = g.new_state(), []
        while not s.is_terminal:
            if not s.is_chance and want(s):
                trail.append(s)
            s = random_step(s, rng)
        if trail:
            return trail[-min(len(trail), 3)]
    raise AssertionError("no such position")


def test_the_registry_names_registered_games_and_says_what_each_value_means():
    assert SOLVERS, "some game has a solver"
    for name, solver in SOLVERS.items():
        assert name in quanta.GAMES and solver.game == name
        assert solver.value and solver.function.startswith("quanta.")
        quanta.game(name, **solver.options)  # its solvable form is a valid game


def _aql_turn(s) -> bool:
    return (quanta.a_quantum_leap.phase(s) == "play"
            and len(quanta.a_quantum_leap.hand(s, s.current_player)) <= 4)


#: Each registered solver against the game's own function: (positions wanted, own answer as
#: (value, best string)).
OWN = {
    "einstein": (lambda s: True, lambda s: (
        quanta.einstein.solve(s).value,
        " ".join(f"{d}:{m}" for d, m in quanta.einstein.solve(s).best_move_strings.items()))),
    "einstein_card": (lambda s: max(len(quanta.einstein_card.heap(s, p)) for p in (0, 1)) <= 2,
                      lambda s: (quanta.einstein_card.solve(s).value,
                                 quanta.einstein_card.solve(s).best_move)),
    "quantum_leap": (lambda s: True, lambda s: (
        float(quanta.quantum_leap.solve(s).win), quanta.quantum_leap.solve(s).best_move)),
    "quincunx": (lambda s: sum(c is None for row in quanta.quincunx.grid(s) for c in row) <= 3,
                 lambda s: (
        quanta.quincunx.solve_expected(s).p_win, quanta.quincunx.solve_expected(s).best_move)),
    "a_quantum_leap": (_aql_turn, lambda s: (
        float(quanta.a_quantum_leap.best_turn(s).value),
        " ".join(quanta.a_quantum_leap.best_turn(s).moves))),
    "repair_unit": (lambda s: True, lambda s: (
        quanta.repair_unit.win_probability(s, 32, 0).probability, None)),
}


@pytest.mark.parametrize("name", sorted(SOLVERS))
@pytest.mark.parametrize("seed", [1, 2])
def test_quanta_solve_gives_the_games_own_answer(name, seed):
    want, own = OWN[name]
    s = _late(name, seed, want)
    answer = quanta.solve(s, threads=1)
    value, best = own(s)
    assert answer.exact and answer.reason is None and not answer.undecided
    assert answer.value == value
    if best is not None:
        assert answer.best == best
    again = quanta.solve(s, threads=2)
    assert (again.value, again.best) == (answer.value, answer.best), "at any thread count"


def test_the_higgs_is_answered_by_the_best_higgs():
    s = _late("a_quantum_leap", 3, lambda s: quanta.a_quantum_leap.phase(s) == "higgs")
    higgs = quanta.a_quantum_leap.best_higgs(s)
    answer = quanta.solve(s)
    assert (answer.value, answer.best_action, answer.best) == (higgs.points, higgs.action,
                                                                 higgs.move)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_an_answer_stopped_by_a_limit_is_undecided_and_carries_no_number(name):
    s = _late(name, 5)
    answer = quanta.solve(s, max_nodes=0)
    if answer.undecided:  # a position decided at once may still be answered
        assert answer.value is None and answer.best is None and answer.best_action is None
        assert answer.exact is False and "limit" in answer.reason
    else:
        assert answer.nodes <= 64


@pytest.mark.parametrize("name", sorted(SOLVERS))
@pytest.mark.parametrize(("limit", "value"), [("timeout", -1), ("max_nodes", -1),
                                              ("memory_mb", 0), ("threads", 0)])
def test_bad_limits_are_refused_the_same_way_for_every_solver(name, limit, value):
    s = _late(name, 6)
    with pytest.raises(InvalidOptionError, match=f"^{limit} must be "):
        quanta.solve(s, **{limit: value})


def test_a_finished_game_another_thing_or_a_game_without_a_solver_is_not_applicable():
    s = _late("quantum_leap", 7)
    while not s.is_terminal:
        s = s.play(s.legal_actions()[0])
    with pytest.raises(NotApplicableError, match="the game is over"):
        quanta.solve(s)
    with pytest.raises(NotApplicableError, match="needs a game state"):
        quanta.solve("not a state")
    for name in sorted(set(quanta.GAMES) - set(SOLVERS)):
        with pytest.raises(NotApplicableError, match="has no solver yet"):
            quanta.solve(quanta.game(name).new_state())


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_best_move_is_the_answers_best_action_or_says_why_there_is_none(name):
    s = _late(name, 8, OWN[name][0])
    answer = quanta.solve(s)
    if answer.best_action is None:
        with pytest.raises(NotApplicableError, match="waits on chance"):
            quanta.best_move(s)
    else:
        assert quanta.best_move(s) == answer.best_action
        assert answer.best_action in s.legal_actions()


def test_best_move_past_a_limit_raises_with_the_undecided_answer():
    s = quanta.game("einstein").from_notation("12.../3..../...../....c/...ba 0 4")
    with pytest.raises(quanta.SearchLimitError) as caught:
        quanta.best_move(s, max_nodes=10)
    assert caught.value.partial.undecided and caught.value.nodes > 0
