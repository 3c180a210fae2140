"""EinStein würfelt nicht: the exact solver against a plain expectiminimax over the pure-Python
reference rules, its answers at finished games and setups, its limits, and the bot."""

from __future__ import annotations

import functools
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import quanta
import quanta.einstein as ein
from quanta import InvalidOptionError, NotApplicableError, SearchLimitError
from quanta.reference import einstein as ref

GAME = quanta.game("einstein")
REF = ref.EinsteinGame()
#: A position whose solve takes a few hundred thousand nodes (about a second).
BIG = "..32./....d/e.6.c/...f./...5. 1 -"


@functools.lru_cache(maxsize=None)
def plain(notation: str) -> float:
    """The probability that the player to act (or about to roll) wins: a plain expectiminimax
    over the reference rules, memoised by notation."""
    s = REF.from_notation(notation)
    if s.is_terminal:
        return 1.0 if s.winner() == int(notation.split()[1]) else 0.0
    if s.is_chance:
        return sum(p * plain(s.play(a).notation()) for a, p in s.chance_outcomes())
    player = s.current_player
    best = 0.0
    for a in s.legal_actions():
        child = s.play(a).notation()
        value = plain(child)
        best = max(best, value if int(child.split()[1]) == player else 1.0 - value)
    return best


@st.composite
def positions(draw, most: int = 2) -> str:
    """A position after the setup with 1 to `most` stones a side on random cells (not on the
    corners), random numbers, either side, the die rolled or not."""
    cells = draw(st.permutations(range(1, 24)))
    counts = [draw(st.integers(1, most)), draw(st.integers(1, most))]
    board = ["."] * 25
    used = 0
    for side, letters in enumerate(["123456", "abcdef"]):
        numbers = draw(st.permutations(letters))
        for k in range(counts[side]):
            board[cells[used]] = numbers[k]
            used += 1
    rows = "/".join("".join(board[r * 5:r * 5 + 5]) for r in range(5))
    die = draw(st.sampled_from(["-", "1", "2", "3", "4", "5", "6"]))
    return f"{rows} {draw(st.integers(0, 1))} {die}"


@given(positions())
def test_the_solver_agrees_with_a_plain_expectiminimax(notation):
    s = GAME.from_notation(notation)
    answer = ein.solve(s)
    assert answer.exact
    assert 0.0 <= answer.value <= 1.0
    assert math.isclose(answer.value, plain(notation), abs_tol=1e-12)
    values = ein.analyze(s)
    assert sorted(values) == list(s.legal_actions())
    for action, value in values.items():
        assert math.isclose(value, plain(s.play(action).notation()) if s.is_chance
                            else 1.0 - plain(s.play(action).notation())
                            if not s.play(action).is_terminal else 1.0, abs_tol=1e-12)


@given(positions(most=3))
def test_rolled_values_are_the_best_of_analyze_and_the_unrolled_value_their_mean(notation):
    s = GAME.from_notation(notation.rsplit(" ", 1)[0] + " -")
    answer = ein.solve(s)
    assert sorted(answer.best_moves) == [1, 2, 3, 4, 5, 6]
    rolled_values = []
    for die in range(1, 7):
        rolled = s.play(s.parse_action(f"roll {die}"))
        at_roll = ein.solve(rolled)
        values = ein.analyze(rolled)
        assert at_roll.value == max(values.values())
        # The best move is the lowest action of the highest value, the same before the roll.
        best = min(a for a, v in values.items() if v == at_roll.value)
        assert at_roll.best_moves == {die: best} == {die: answer.best_moves[die]}
        assert at_roll.best_move_strings == {die: rolled.action_to_string(best)}
        assert answer.best_move_strings[die] == rolled.action_to_string(best)
        rolled_values.append(at_roll.value)
    assert math.isclose(answer.value, sum(rolled_values) / 6, abs_tol=1e-12)
    assert math.isclose(sum(ein.analyze(s).values()) / 6, answer.value, abs_tol=1e-12)


def test_known_values():
    # One stone each a step from its corner: the side to roll wins at once, whatever it rolls.
    for notation in ["...../.a.../...../...1./..... 0 -", "...../.a.../...../...1./..... 1 -",
                     "...../.a.../...../....1/..... 0 5"]:
        assert ein.solve(GAME.from_notation(notation)).value == 1.0
    s = GAME.from_notation("...../.a.../...../...1./..... 0 -")
    assert ein.solve(s).best_move_strings == {die: "d4e5" for die in range(1, 7)}
    # Two steps away against one: lost, unless a step captures the last enemy stone.
    assert ein.solve(GAME.from_notation("...../.a.../..1../...../..... 0 -")).value == 0.0
    assert ein.solve(GAME.from_notation("...../...../..1../...a./..... 0 -")).value == 1.0


def test_finished_games_are_answered():
    for notation in ["f..../..1.5/.6.3./b..../..... 0 -", "....1/...../...../...../....3 1 -"]:
        s = GAME.from_notation(notation)
        assert s.is_terminal
        answer = ein.solve(s)
        assert (answer.value, answer.best_moves, answer.best_move_strings) == (0.0, {}, {})
        assert (answer.nodes, answer.exact) == (0, True)
        assert ein.analyze(s) == {}
        assert ein.best_move(s) is None


def test_setups_and_other_games_are_refused():
    for s in [GAME.new_state(), quanta.game("einstein", setup="choose").new_state(),
              GAME.from_notation("123../45.../6..../...../..... 1 setup")]:
        with pytest.raises(NotApplicableError, match="setup"):
            ein.solve(s)
        with pytest.raises(NotApplicableError, match="setup"):
            ein.analyze(s)
    with pytest.raises(NotApplicableError):
        ein.solve(quanta.game("quantum_leap", size=2).from_notation("wb/w.b/wb w"))
    with pytest.raises(NotApplicableError):
        ein.solve("...../.a.../...../...1./..... 0 -")
    with pytest.raises(NotApplicableError, match="chance node"):
        ein.best_move(GAME.from_notation("...../.a.../...../...1./..... 0 -"))


def test_bad_limits_are_refused():
    s = GAME.from_notation("...../.a.../...../...1./..... 0 -")
    for bad in [{"timeout": -1}, {"timeout": float("nan")}, {"memory_mb": 0},
                {"memory_mb": 2**40}, {"max_nodes": -1}, {"threads": 0}, {"threads": 1.5},
                {"threads": True}, {"max_nodes": "10"}]:
        with pytest.raises(InvalidOptionError):
            ein.solve(s, **bad)
        with pytest.raises(InvalidOptionError):
            ein.analyze(s, **bad)
    for bad in [{"solver_stones": 7}, {"solver_stones": -1}, {"seed": -1}, {"timeout": -1}]:
        with pytest.raises(InvalidOptionError):
            ein.best_move(s.play(75), **bad)


def test_limits_raise_search_limit_error():
    s = GAME.from_notation(BIG)
    with pytest.raises(SearchLimitError) as info:
        ein.solve(s, timeout=0)
    assert info.value.nodes > 0
    for limit in [0, 1, 5000]:
        with pytest.raises(SearchLimitError) as info:
            ein.solve(s, max_nodes=limit, threads=1)
        assert info.value.nodes == limit + 1 and info.value.seconds >= 0
        # Threads add up their nodes every 1,024: the limit is overshot by less than that each.
        with pytest.raises(SearchLimitError) as info:
            ein.solve(s, max_nodes=limit, threads=2)
        assert limit < info.value.nodes <= limit + 2 * 1024
    with pytest.raises(SearchLimitError):
        ein.analyze(s, max_nodes=100)


def test_a_small_table_gives_the_same_answer():
    s = GAME.from_notation("...a./..3d1/.e4../...../..... 0 -")
    assert ein.solve(s, memory_mb=1).value == ein.solve(s).value


def test_threads_change_nothing_but_the_time():
    # 195,000 positions: the table grows in rounds (it starts at 65,536 slots).
    s = GAME.from_notation("...2./1..../...../f..../5be.. 0 -")
    one = ein.solve(s, threads=1)
    for threads in (2, 3):
        many = ein.solve(s, threads=threads)
        assert (many.value, many.best_moves) == (one.value, one.best_moves)
        assert ein.analyze(s, threads=threads) == ein.analyze(s, threads=1)


def test_the_solution_is_a_frozen_class_of_the_module():
    answer = ein.solve(GAME.from_notation("...../.a.../...../...1./..... 0 4"))
    assert type(answer) is ein.Solution
    assert (ein.Solution.__module__, ein.Solution.__name__) == ("quanta.einstein", "Solution")
    assert answer.best_moves == {4: GAME.from_notation("...../.a.../...../...1./..... 0 4")
                                 .parse_action("d4e5")}
    assert repr(answer).startswith("Solution(value=1.0, best_move_strings={4: 'd4e5'}, nodes=")
    with pytest.raises(AttributeError):
        answer.value = 0.5


def test_best_move_uses_the_solver_in_endgames_and_the_heuristic_before():
    rng = random.Random(3)
    s = GAME.from_notation("...a./..3d1/.e4../...../..... 0 -")
    for die in range(1, 7):
        rolled = s.play(74 + die)
        assert ein.best_move(rolled) == ein.solve(rolled).best_moves[die]
    # A move that wins at once is always taken, heuristic or not.
    s = GAME.from_notation("1..../...../...../....2/a.... 0 2")
    assert s.action_to_string(ein.best_move(s, solver_stones=0)) == "e4e5"
    # From the start (six stones a side) the heuristic moves: legal, and seeded.
    g = quanta.game("einstein", setup="choose")
    s = g.new_state()
    for _ in range(2):
        a = ein.best_move(s, seed=rng.randrange(2**64))
        assert a in s.legal_actions()
        s = s.play(a)
    s = s.play(77)
    assert ein.best_move(s, seed=5) == ein.best_move(s, seed=5) in s.legal_actions()


def test_the_bot_beats_random_play():
    out = quanta._core.einstein_play_batch(7, 200, 0, 2, dict(timeout=5.0, memory_mb=64, threads=1))
    assert len(out["bot_won"]) == 200
    assert out["bot_won"].mean() > 0.75
    assert list(out["bot"][:4]) == [0, 1, 0, 1]
    assert (out["solved"] <= out["moves"]).all() and out["solved"].sum() > 0


def test_best_action_solves_endgames_and_searches_before():
    # Three stones a side: the solver's move for each roll.
    s = GAME.from_notation("...a./..3d1/.e4../...../..... 0 -")
    for die in range(1, 7):
        rolled = s.play(74 + die)
        assert ein.best_action(rolled, timeout=None) == ein.solve(rolled).best_moves[die]
    # Six a side: the search, legal and the same within a node limit for the same seed.
    s = GAME.from_notation("123../45.../6...f/...ed/..cba 0 4")
    first = ein.best_action(s, seed=2, timeout=None, max_nodes=2000)
    assert first == ein.best_action(s, seed=2, timeout=None, max_nodes=2000)
    assert first in s.legal_actions()
    with pytest.raises(NotApplicableError):
        ein.best_action(GAME.from_notation("123../45.../6...f/...ed/..cba 0 -"))
    with pytest.raises(InvalidOptionError):
        ein.best_action(s, timeout=-1)


def test_evaluate_is_the_race_and_agrees_with_the_solver_where_no_capture_is_in_reach():
    s = GAME.from_notation(".a.../...../6..../...1./..... 0 -")
    assert ein.evaluate(s) == pytest.approx(5 / 6) == pytest.approx(ein.solve(s).value)
    assert ein.evaluate(s.play(75)) == 1.0  # roll 1: d4e5 wins
    assert ein.evaluate(GAME.from_notation("f..../..1.5/.6.3./b..../..... 0 -")) == 0.0
    with pytest.raises(NotApplicableError):
        ein.evaluate(GAME.new_state())
