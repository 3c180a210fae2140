"""Small helpers shared by the test files."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import pathlib
import random
import sys

import pytest

import quanta


def random_step(state, rng: random.Random):
    """The state after one uniformly random action, or a chance outcome drawn by its odds.
    Works for Rust states and reference states alike."""
    if state.is_chance:
        actions, weights = zip(*state.chance_outcomes())
        return state.play(rng.choices(actions, weights)[0])
    return state.play(rng.choice(state.legal_actions()))


def moves(state) -> list[str]:
    """The legal actions' strings, in action order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state, *texts: str):
    """The state after the actions written `texts`."""
    for t in texts:
        state = state.play(state.parse_action(t))
    return state


def assert_same_generic(s, r) -> list[int]:
    """Asserts that the Rust state `s` and the reference state `r` agree on what every game's
    state has: the notation, the player to move, terminal or chance, the legal actions, the
    returns and the chance outcomes with their odds. Returns the legal actions."""
    assert s.notation() == r.notation()
    assert s.current_player == r.current_player
    assert s.is_terminal == r.is_terminal
    assert s.is_chance == r.is_chance
    legal = list(s.legal_actions())
    assert legal == r.legal_actions()
    assert s.returns() == r.returns()
    rust_odds, ref_odds = s.chance_outcomes(), r.chance_outcomes()
    assert [a for a, _ in rust_odds] == [a for a, _ in ref_odds]
    assert [p for _, p in rust_odds] == pytest.approx([p for _, p in ref_odds])
    return legal


@functools.cache
def needs_search(name: str, nodes: int = 20_000):
    """A decision of seeded random games of the game ``name`` in its registered solver's
    solvable form (``quanta.solvers.SOLVERS[name].options``) that the solver cannot decide in
    ``nodes`` nodes: a position on which every limit bites. Found from the registries alone."""
    from quanta.solvers import SOLVERS

    game = quanta.game(name, **SOLVERS[name].options)
    rng = random.Random(1)
    for _ in range(100):
        s = game.new_state()
        while not s.is_terminal:
            if not s.is_chance:
                try:
                    if not quanta.solve(s, max_nodes=nodes, threads=1).exact:
                        return s
                except quanta.NotApplicableError:
                    pass
            s = random_step(s, rng)
    raise AssertionError(f"{name}: no position of 100 random games needs {nodes} nodes")


@contextlib.contextmanager
def bench_script(name: str):
    """The benchmark script ``benches/<name>.py`` loaded as a module, with ``benches/`` on
    ``sys.path`` meanwhile (the scripts import their shared helpers from there)."""
    benches = pathlib.Path(__file__).resolve().parents[1] / "benches"
    sys.path.insert(0, str(benches))
    try:
        spec = importlib.util.spec_from_file_location(name, benches / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(benches))


#: A Quantum Leap's display cells in reading order, and the eight outer ones.
AQL_CELLS = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]


def aql_display(tops: list[str], spare: list[str], owners: dict[str, str]) -> str:
    """The display part of an A Quantum Leap notation with ``tops`` (reading order) on top:
    each cell's bottom card the first of ``spare`` in the suit ``owners`` gives it, the rest of
    ``spare`` covered under the top of a1 (``spare`` is used up)."""
    stacks = {}
    for name in AQL_CELLS:
        bottom = next(c for c in spare if c[1] == owners[name])
        spare.remove(bottom)
        stacks[name] = [bottom]
    stacks["a1"] += spare
    for name, top in zip(AQL_CELLS, tops):
        stacks[name].append(top)
    return "/".join(",".join("".join(stacks[n]) for n in AQL_CELLS[r * 3:r * 3 + 3])
                    for r in range(3))
