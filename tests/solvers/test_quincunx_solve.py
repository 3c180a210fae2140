"""Solitaire Quincunx solvers: open-deck solve, expectimax, best_move and greedy_move.

The oracles are plain exhaustive searches written here over the pure-Python reference rules
(quanta.reference.quincunx), which know nothing of the Rust solvers."""

from __future__ import annotations

import _thread
import random
import threading
import time

import pytest

import quanta
from quanta import quincunx as solvers
from quanta.reference import quincunx as reference

GAME = quanta.game("quincunx", players=1)
CELLS = 16
DRAW = 37 * CELLS  # chance outcome "card k comes" = DRAW + k


def fields(state) -> list:
    return state.notation().split(" ")


def pile_of(state) -> list:
    pile = fields(state)[2]
    return [] if pile == "-" else pile.split(",")


def empty_cells(state) -> int:
    return fields(state)[0].count(".")


def lost(state) -> bool:
    return state.is_terminal and empty_cells(state) > 0


def code_index(code: str) -> int:
    return reference.card_by_code(code)


def deal(seed: int, game=GAME):
    """A fresh deal, the chance outcomes drawn by ``random.Random(seed)``."""
    rng = random.Random(seed)
    state = game.new_state()
    while state.is_chance:
        state = state.play(rng.choice(state.legal_actions()))
    return state, rng


def late(seed: int, empty: int, game=GAME):
    """A position with at most ``empty`` empty cells, reached by greedy play with random draws,
    and a random order of its pile."""
    state, rng = deal(seed, game)
    while empty_cells(state) > empty and not state.is_terminal:
        state = state.play(solvers.greedy_move(state))
        while state.is_chance:
            state = state.play(rng.choice(state.legal_actions()))
    order = pile_of(state)
    rng.shuffle(order)
    return state, order


def with_order(state, order: list):
    """Resolves pending draws of ``state`` from ``order``; returns (state, rest of order)."""
    while state.is_chance:
        state = state.play(DRAW + code_index(order[0]))
        order = order[1:]
    return state, order


def brute_open(state, order: list) -> tuple:
    """(won, final score) of the best line: every placement tried, draws from ``order``."""
    if state.is_terminal:
        return (not state.lost(), state.scores()[0])
    return max(brute_open(*with_order(state.play(a), order)) for a in state.legal_actions())


def brute_expected(state) -> tuple:
    """(p_win, expected final score): the best action by win probability (within 1e-9), then
    expected score; chance outcomes weighted by their probabilities."""
    if state.is_terminal:
        return (0.0 if state.lost() else 1.0, state.scores()[0])
    if state.is_chance:
        p = e = 0.0
        for a, w in state.chance_outcomes():
            pc, ec = brute_expected(state.play(a))
            p, e = p + w * pc, e + w * ec
        return p, e
    best = None
    for a in state.legal_actions():
        v = brute_expected(state.play(a))
        if best is None or v[0] > best[0] + 1e-9 or (v[0] >= best[0] - 1e-9 and v[1] > best[1]):
            best = v
    return best


def as_reference(state):
    return reference.game(players=1, excuse=GAME.options.get("excuse", False)).from_notation(
        state.notation())


@pytest.mark.parametrize("seed", range(12))
def test_solve_open_agrees_with_exhaustive_search(seed):
    state, order = late(seed, 3 + seed % 2)
    solution = solvers.solve_open(state, order)
    assert (not solution.lost, solution.score) == brute_open(as_reference(state), order)
    assert solution.exact and solution.nodes >= 0


@pytest.mark.parametrize("seed", range(8))
def test_the_line_replays_to_the_claimed_outcome(seed):
    state, order = late(100 + seed, 6)
    solution = solvers.solve_open(state, order)
    rest = order
    for action in solution.line:
        state, rest = with_order(state.play(action), rest)
    assert state.is_terminal
    assert lost(state) == solution.lost
    assert state.scores()[0] == solution.score


@pytest.mark.parametrize("seed", range(16))
def test_fill_open_agrees_with_the_exhaustive_search_and_its_line_fills_the_grid(seed):
    # Greedy play loses often, so these late positions include grids no line can fill.
    state, order = late(600 + seed, 3 + seed % 3)
    won, _ = brute_open(as_reference(state), order)
    fill = solvers.fill_open(state, order)
    assert fill.winnable == won and fill.exact  # 10 of these 16 positions cannot be filled
    assert (fill.line is not None) == won
    if won:
        rest = order
        for action in fill.line:
            state, rest = with_order(state.play(action), rest)
        assert state.is_terminal and not lost(state)


def test_fill_open_agrees_with_solve_open_on_larger_positions():
    answers = []
    for seed in range(16):
        state, order = late(700 + seed, 6 + seed % 2)
        fill = solvers.fill_open(state, order)
        assert fill.winnable == (not solvers.solve_open(state, order).lost)
        answers.append(fill.winnable)
    assert 0 < answers.count(False) < len(answers)  # both answers were checked


def test_fill_open_batch_is_fill_open_of_each_deal():
    rows = solvers.fill_open_batch(0, 400, threads=2)
    assert rows["solved"].all() and len(rows["winnable"]) == 400
    # Deal 324 of seed 0 cannot be filled: the hand (A A 2 5 5 7 8 8 9 with corners 5 5 7 A)
    # holds one drawing pair (2 + 9 = 11), and the card it draws (an 8) draws with nothing
    # in reach, so the hand runs out long before the 12 cells are covered.
    assert not rows["winnable"][324] and rows["winnable"].sum() >= 390
    again = solvers.fill_open_batch(0, 8, first=320, threads=1)
    assert (again["winnable"] == rows["winnable"][320:328]).all()
    assert (again["nodes"] == rows["nodes"][320:328]).all()


def test_fill_open_limits_and_bad_input():
    state, _ = deal(4)
    with pytest.raises(quanta.SearchLimitError):
        solvers.fill_open(state, pile_of(state), max_nodes=0)
    with pytest.raises(quanta.InvalidNotationError):
        solvers.fill_open(state, pile_of(state)[1:])
    with pytest.raises(ValueError):
        solvers.fill_open(GAME.new_state(), [])
    with pytest.raises(ValueError):
        solvers.fill_open_batch(0, 1, threads=0)


def greedy_outcome(state, order: list) -> tuple:
    """(won, final score) of greedy play with the draws from ``order``."""
    while not state.is_terminal:
        state, order = with_order(state.play(solvers.greedy_move(state)), order)
    return (not lost(state), state.scores()[0])


@pytest.mark.parametrize("seed", range(4))
def test_larger_positions_replay_on_the_reference_and_beat_greedy(seed):
    # 8-9 empty cells: past the short sequence search, so the search over final grids and
    # their placement orders answers (its exactness against exhaustive search is checked in
    # the Rust tests, where that search can be forced on small positions).
    state, order = late(300 + seed, 8 + seed % 2)
    solution = solvers.solve_open(state, order, timeout=120)
    ref = as_reference(state)
    rest = order
    for action in solution.line:
        ref = ref.play(action)
        while ref.is_chance:
            ref = ref.play(DRAW + code_index(rest[0]))
            rest = rest[1:]
    assert ref.is_terminal
    assert ref.lost() == solution.lost
    assert ref.scores()[0] == solution.score
    assert (not solution.lost, solution.score) >= greedy_outcome(state, order)


def test_solve_open_at_the_end_is_the_result():
    state, order = late(5, 0)
    solution = solvers.solve_open(state, order)
    assert solution.line == ()
    assert solution.score == state.scores()[0]


@pytest.mark.parametrize("seed", range(6))
def test_solve_expected_agrees_with_expectimax(seed):
    state, _ = late(200 + seed, 2 + seed % 2)
    got = solvers.solve_expected(state)
    p_win, score = brute_expected(as_reference(state))
    assert got.p_win == pytest.approx(p_win, abs=1e-9)
    assert got.p_loss == pytest.approx(1 - p_win, abs=1e-9)
    assert got.score == pytest.approx(score, abs=1e-6)
    if not state.is_terminal:
        assert got.best_action in state.legal_actions()
        assert got.actions[got.best_action] == pytest.approx((got.p_win, got.score))
        assert set(got.actions) == set(state.legal_actions())


def test_limits_raise_search_limit_error():
    state, order = deal(1)[0], None
    order = pile_of(state)
    with pytest.raises(quanta.SearchLimitError) as info:
        solvers.solve_open(state, order, max_nodes=500)
    assert info.value.nodes > 500
    start = time.perf_counter()
    with pytest.raises(quanta.SearchLimitError):
        solvers.solve_open(state, order, timeout=0.2)
    assert time.perf_counter() - start < 5
    with pytest.raises(quanta.SearchLimitError):
        solvers.solve_expected(late(3, 7)[0], max_nodes=1000)
    with pytest.raises(quanta.SearchLimitError):
        solvers.best_move(state, samples=2, effort=None, candidates=None, max_nodes=5000)


@pytest.mark.parametrize("bad", [
    "missing", "repeated", "unknown", "seen", "not text",
])
def test_bad_pile_raises_a_typed_error_and_changes_nothing(bad):
    state, order = late(9, 5)
    before = state.notation()
    pile = list(order)
    if bad == "missing":
        pile.pop()
    elif bad == "repeated":
        pile[-1] = pile[0]
    elif bad == "unknown":
        pile[0] = "ZZ"
    elif bad == "seen":
        pile[0] = fields(state)[1].split(",")[0]
    else:
        pile[0] = 7
    with pytest.raises(quanta.InvalidNotationError):
        solvers.solve_open(state, pile)
    assert isinstance(quanta.InvalidNotationError("x"), ValueError)
    assert state.notation() == before


def test_solvers_refuse_chance_nodes_and_other_games():
    two = quanta.game("quincunx", players=2)
    chance = GAME.new_state()
    for state in (chance, deal(0, two)[0]):
        with pytest.raises(ValueError):
            solvers.solve_open(state, [])
        with pytest.raises(ValueError):
            solvers.solve_expected(state)
        with pytest.raises(ValueError):
            solvers.best_move(state)
        with pytest.raises(ValueError):
            solvers.greedy_move(state)
    with pytest.raises(ValueError):
        solvers.solve_open(quanta.game("einstein").new_state(), [])


def test_best_move_is_legal_and_deterministic_per_seed():
    for seed in range(3):
        state, _ = late(300 + seed, 9)
        first = solvers.best_move(state, samples=4, seed=seed, threads=1)
        assert first in state.legal_actions()
        assert solvers.best_move(state, samples=4, seed=seed, threads=2) == first
        assert solvers.best_move(state, samples=4, seed=seed) == first
    end, _ = late(5, 0)
    assert solvers.best_move(end) is None


def test_best_move_with_exact_samples_late():
    state = next(s for s, _ in (late(400 + i, 4) for i in range(50)) if not s.is_terminal)
    action = solvers.best_move(state, samples=3, seed=1, candidates=None, effort=None)
    assert action in state.legal_actions()


def test_greedy_move_takes_the_most_points_then_the_most_draws():
    for seed in range(5):
        state, _ = late(500 + seed, 10 - seed)
        if state.is_terminal:
            continue
        ref = as_reference(state)

        def key(a):
            card, cell = divmod(a, CELLS)
            p = reference.score_placement(ref.grid(), reference.CARDS[card].code,
                                          divmod(cell, 4), solitaire=True)
            return (p.points, p.draws, -a)

        assert solvers.greedy_move(state) == max(state.legal_actions(), key=key)


def test_batches_do_not_depend_on_threads():
    # Node counts may (the searches by number of draws share their best value); answers not.
    one = solvers.solve_open_batch(3, 6, empty=6, threads=1)
    two = solvers.solve_open_batch(3, 6, empty=6, threads=2)
    alone = solvers.solve_open_batch(3, 6, empty=6, threads=2, one_at_a_time=True)
    for key in ("solved", "lost", "score"):
        assert (one[key] == two[key]).all() and (one[key] == alone[key]).all()
    a = solvers.play_batch("greedy", 1, 8, threads=1)
    b = solvers.play_batch("greedy", 1, 8, threads=2)
    assert (a["score"] == b["score"]).all() and (a["lost"] == b["lost"]).all()
    c = solvers.play_batch("best_move", 1, 2, samples=2, candidates=4, effort=200, threads=1)
    d = solvers.play_batch("best_move", 1, 2, samples=2, candidates=4, effort=200, threads=2)
    assert (c["score"] == d["score"]).all()
    with pytest.raises(ValueError):
        solvers.play_batch("random", 1, 1)


def test_open_solve_gives_the_same_line_on_any_number_of_threads():
    # Positions big enough for the search over final grids, one search per number of draws
    # run in parallel: the line (not only the score) is the same on 1, 2 or 3 threads.
    for seed in range(4):
        state, pile = late(seed, 8)
        one = solvers.solve_open(state, pile, threads=1)
        for threads in (2, 3):
            other = solvers.solve_open(state, pile, threads=threads)
            assert (other.lost, other.score, other.line) == (one.lost, one.score, one.line)
    with pytest.raises(ValueError, match="threads"):
        solvers.solve_open(state, pile, threads=0)


@pytest.mark.parametrize("solver", ["solve_open", "solve_expected"])
def test_ctrl_c_stops_a_long_solve(solver):
    # A fresh deal: the open solve takes a second or more (the interrupt comes after 0.1 s),
    # the expectimax far longer than any test.
    state, _ = deal(2)
    solve = {
        "solve_open": lambda: solvers.solve_open(state, pile_of(state), timeout=60),
        "solve_expected": lambda: solvers.solve_expected(state, timeout=60),
    }[solver]
    timer = threading.Timer(0.1, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solve()
    timer.join()
    assert time.perf_counter() - start < 10


def test_solver_results_are_frozen_objects_made_once_with_fields_and_reprs():
    import quanta
    from quanta import quincunx as qx

    s = quanta.game("quincunx", players=1).new_state()
    while s.is_chance:
        s = s.play(s.legal_actions()[0])
    open_ = qx.solve_open(s, s.pile())
    fill = qx.fill_open(s, s.pile())
    assert isinstance(open_, qx.OpenSolution) and isinstance(fill, qx.FillSolution)
    assert type(open_).__module__ == "quanta.quincunx"
    assert isinstance(open_.line, tuple) and open_.exact is True
    assert repr(open_).startswith(f"OpenSolution(lost={open_.lost}, score={open_.score}, line=(")
    assert repr(fill).startswith(f"FillSolution(winnable={fill.winnable}, line=")
    for result, field in [(open_, "score"), (fill, "winnable")]:
        with pytest.raises(AttributeError):
            setattr(result, field, 0)
