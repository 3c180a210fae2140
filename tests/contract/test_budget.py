"""A larger budget never gives a worse answer: every registered solver, given a time or node
limit larger than an unlimited solve of the position used, answers as that unlimited solve did
(the same value, the same ``exact``). A solver that shares a limit out among parts of its search
(so many seconds or nodes to each sampled order) fails here: a part that needs more than its
share is left undecided although the whole call had room to spare."""

from __future__ import annotations

import random

import pytest

import quanta
from quanta.analysis import random_decisions
from quanta.solvers import SOLVERS

#: Positions near the end of seeded random games tried per solver, and how many of the
#: quickest to an unlimited solve are checked.
CANDIDATES = 4
CHECKED = 2
#: A position is tried only if the solver decides it within this many nodes (a few seconds).
SEARCHABLE = 3_000_000


def near_the_end(g: quanta.Game, rng: random.Random) -> quanta.State:
    """A decision 2 to 5 decisions before the end of a random game (chance by its odds): late
    enough for every solver to decide it quickly with no limit."""
    while True:
        trail = random_decisions(g, rng)
        if trail:
            return trail[max(0, len(trail) - rng.randint(2, 5))]


def quick_positions(name: str) -> list[tuple[quanta.State, quanta.Answer]]:
    """The ``CHECKED`` positions (of ``CANDIDATES`` positions near the end of random games of
    the solver's solvable form) that the solver decides in the fewest seconds with no limit, with
    that unlimited answer. Seconds only choose the positions; nothing is asserted about them."""
    g = quanta.game(name, **SOLVERS[name].options)
    rng = random.Random(f"budget {name}")
    found: list[tuple[quanta.State, quanta.Answer]] = []
    tries = 0
    while len(found) < CANDIDATES and tries < 10 * CANDIDATES:
        tries += 1
        state = near_the_end(g, rng)
        try:
            if quanta.solve(state, threads=2, max_nodes=SEARCHABLE).value is None:
                continue  # too large for a quick test
        except quanta.NotApplicableError:
            continue  # not the solver's kind of position
        answer = quanta.solve(state, threads=2)
        assert answer.value is not None, f"{name}: no limit, yet undecided: {answer.reason}"
        found.append((state, answer))
    assert found, f"{name}: no position of its kind in {tries} random games"
    return sorted(found, key=lambda sa: sa[1].seconds or 0.0)[:CHECKED]


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_a_limit_larger_than_an_unlimited_solve_used_gives_its_answer(name):
    for state, unlimited in quick_positions(name):
        for limits in ({"timeout": 10}, {"max_nodes": 10 * max(unlimited.nodes or 0, 1)}):
            answer = quanta.solve(state, threads=2, **limits)
            assert (answer.value, answer.exact) == (unlimited.value, unlimited.exact), (
                f"{name} {state.notation()} with {limits}: {answer.value} exact={answer.exact} "
                f"({answer.reason}), with no limit {unlimited.value} exact={unlimited.exact} "
                f"in {unlimited.nodes} nodes"
            )
