"""A search stopped by a limit is undecided: no solver, batch or job table passes a number off
as the answer. With limits too small to decide a position that needs real search, a solver
raises SearchLimitError (with the nodes and seconds spent), a batch masks the deal's outcome,
and a job row keeps its value null and says why. Bots (best_move, policy) still move, but only
as they would without the solver's answer. Every solver takes the same four limits, and
``timeout=0`` means the same in Python and on the command line."""

from __future__ import annotations

import random

import numpy as np
import pytest
from click.testing import CliRunner

import quanta
from quanta import InvalidOptionError, SearchLimitError, jobs
from quanta import einstein as ein
from quanta import quantum_leap as ql
from quanta import quincunx as qx
from quanta import repair_unit as ru
from quanta.cli import main
from quanta.solvers import SOLVERS as REGISTERED

from helpers import needs_search, random_step
from solver_calls import (
    ALL, EINSTEIN_ROLLED, LIMITS, QUANTUM_LEAP, REPAIR, SOLVERS, functions_with_limits,
    reached,
)


def assert_undecided(call) -> SearchLimitError:
    """``call`` raises SearchLimitError carrying the work done; any answer fails."""
    try:
        answer = call()
    except SearchLimitError as e:
        assert e.nodes >= 1 and e.seconds >= 0
        assert "limit reached" in str(e)
        return e
    pytest.fail(f"an answer came out of a search past its limits: {answer!r}")


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_solver_past_its_node_limit_gives_no_answer(solver):
    e = assert_undecided(lambda: SOLVERS[solver](max_nodes=1, threads=1))
    assert "node limit" in str(e)


#: These positions take fewer nodes than the searches make between two looks at the clock (a
#: thousand or so): even with no time they are answered, exactly.
QUICK = {"quincunx.fill_open", "a_quantum_leap.best_higgs", "repair_unit.solve_open"}


@pytest.mark.parametrize("solver", sorted(set(SOLVERS) - QUICK))
def test_a_solver_with_no_time_gives_no_answer(solver):
    # timeout=0: the search stops at its first look at the clock.
    e = assert_undecided(lambda: SOLVERS[solver](timeout=0))
    assert "time limit" in str(e)


@pytest.mark.parametrize("solver", ALL)
@pytest.mark.parametrize("threads", [1, 2, None])
def test_every_solver_takes_the_four_limits(solver, threads):
    with pytest.raises(InvalidOptionError, match="^threads must be an integer from 1 to 1024"):
        ALL[solver](threads=0)
    for limit, bad, message in [("timeout", -1, "a number of seconds >= 0"),
                                ("memory_mb", 0, ""), ("max_nodes", -1, "")]:
        with pytest.raises(InvalidOptionError, match=f"^{limit} must be {message}"):
            ALL[solver](**{limit: bad}, threads=threads)


def test_every_solver_function_of_a_game_is_listed_and_takes_the_four_limits():
    # Read from the game modules of the registered games: a new solver function with limits
    # must join solver_calls.py (and so every limit test), and take all four.
    found = functions_with_limits()
    assert sorted(found) == sorted(ALL)
    assert {name: taken for name, taken in found.items() if taken != LIMITS} == {}


# ---- the registered solvers, through quanta.solve and quanta.best_move ----


@pytest.mark.parametrize("game", REGISTERED)
def test_a_registered_solver_past_its_node_limit_answers_undecided(game):
    s = needs_search(game)
    answer = quanta.solve(s, max_nodes=1, threads=1)
    assert answer.undecided and answer.value is None and not answer.exact
    assert answer.reason and answer.nodes >= 1
    with pytest.raises(SearchLimitError) as error:
        quanta.best_move(s, max_nodes=1, threads=1)
    assert error.value.partial.value is None


@pytest.mark.parametrize("game", REGISTERED)
def test_a_registered_solver_with_no_time_answers_undecided(game):
    answer = quanta.solve(needs_search(game), timeout=0, threads=1)
    assert answer.undecided and answer.value is None and not answer.exact
    assert answer.reason


@pytest.mark.parametrize("game", REGISTERED)
@pytest.mark.parametrize("threads", [1, 2, None])
def test_a_registered_solver_takes_the_four_limits(game, threads):
    s = needs_search(game)
    for call in (quanta.solve, quanta.best_move):
        with pytest.raises(InvalidOptionError, match="^threads must be an integer from 1 to 1024"):
            call(s, threads=0)
        with pytest.raises(InvalidOptionError, match="^timeout must be a number of seconds >= 0"):
            call(s, timeout=-1, threads=threads)
        with pytest.raises(InvalidOptionError, match="^memory_mb must be"):
            call(s, memory_mb=0, threads=threads)
        with pytest.raises(InvalidOptionError, match="^max_nodes must be"):
            call(s, max_nodes=-1, threads=threads)


def test_einstein_best_move_past_its_limits_moves_as_the_heuristic_alone():
    # The solver is not let out of its limits: the bot moves as it would without it.
    heuristic = ein.best_move(EINSTEIN_ROLLED, solver_stones=0, seed=3)
    for threads in [1, 2]:
        assert ein.best_move(EINSTEIN_ROLLED, solver_stones=6, seed=3, max_nodes=1,
                             threads=threads) == heuristic


def test_repair_unit_policy_past_its_limits_scores_only_decided_orders():
    # An order past the limits is undecided: it counts neither as survived nor as lost. The move
    # is the action with the best share of decided orders survived; with none decided at all,
    # the rule's move (never whatever a cut search saw first).
    from quanta import _core

    rng = random.Random(4)
    s, checked, none_decided = REPAIR, 0, 0
    while not s.is_terminal:
        if not s.is_chance:
            move, scores = _core.repair_unit_policy(s, 1, 16, 10, dict(max_nodes=1, memory_mb=64, threads=1))
            assert move == ru.policy(s, 1, max_nodes=1, threads=1)
            shares = {a: won / decided for a, won, decided in scores if decided}
            if not shares:
                assert move == ru.rule_move(s)
                none_decided += 1
            else:
                assert shares.get(move, -1) == max(shares.values())
            checked += 1
        s = s.play(ru.rule_move(s)) if not s.is_chance else random_step(s, rng)
    assert checked > 5 and none_decided > 0


def test_threads_change_no_answer_of_the_single_threaded_solvers():
    # A late position: the solitaire played greedily down to three empty cells.
    def late(s) -> bool:
        return sum(c is None for row in qx.grid(s) for c in row) <= 3
    s = reached(quanta.game("quincunx", players=1), late)
    order = s.pile()
    for threads in [1, 2]:
        assert qx.fill_open(s, order, threads=threads).winnable == \
            qx.fill_open(s, order).winnable
        one, other = qx.solve_expected(s, threads=1), qx.solve_expected(s, threads=threads)
        assert (one.p_win, one.score, one.best_action) == \
            (other.p_win, other.score, other.best_action)


# ---- batches ----


def test_undecided_deals_of_the_open_batches_claim_neither_a_loss_nor_a_score():
    out = qx.solve_open_batch(0, 3, max_nodes=1, threads=1)
    assert not out["solved"].any() and (out["nodes"] > 1).all()
    for column in ("lost", "score"):
        assert isinstance(out[column], np.ma.MaskedArray) and out[column].mask.all()
        assert out[column].count() == 0
    fill = qx.fill_open_batch(0, 3, max_nodes=1, threads=1)
    assert not fill["solved"].any() and fill["winnable"].mask.all()
    # Decided deals are not masked: the mask is exactly the undecided.
    decided = qx.fill_open_batch(0, 3, threads=1)
    assert decided["solved"].all() and decided["winnable"].count() == 3


def test_an_open_batch_mixing_decided_and_undecided_deals_masks_only_the_undecided():
    # Deals 0-7 played down to six empty cells need from 14 to 2,127 nodes.
    out = qx.solve_open_batch(0, 8, empty=6, max_nodes=200, threads=1)
    solved = out["solved"]
    assert solved.any() and not solved.all(), "pick a cap between the deals' needs"
    assert (out["lost"].mask == ~solved).all() and (out["score"].mask == ~solved).all()
    assert out["score"].count() == solved.sum()
    for i in np.flatnonzero(solved):
        one = qx.solve_open_batch(0, 1, first=int(i), empty=6, threads=1)
        assert one["score"][0] == out["score"][i] and one["lost"][0] == out["lost"][i]


# ---- job tables ----


def read(job, out):
    jobs.run(job, out, threads=1)
    return jobs.read(out).to_pydict()


def test_an_undecided_quincunx_open_row_is_null(tmp_path):
    rows = read(jobs.table("quincunx_open", 2, max_nodes=1, shard_size=1), tmp_path)
    assert rows["solved"] == [False, False]
    assert rows["lost"] == [None, None] and rows["score"] == [None, None]
    assert all(n > 1 for n in rows["nodes"])


def test_an_undecided_quantum_leap_row_is_null(tmp_path):
    rows = read(jobs.table("quantum_leap", 2, size=5, setup="B", max_nodes=1), tmp_path)
    assert rows["win"] == [None, None] and rows["best"] == [None, None]
    assert all(e.startswith("SearchLimitError: ") for e in rows["error"])
    assert all(n > 1 for n in rows["nodes"])


def test_an_undecided_class_of_every_deal_is_null(tmp_path):
    rows = read(jobs.table("quantum_leap_every_deal", size=2, setup="B", max_nodes=1),
                tmp_path)
    undecided = [e != "" for e in rows["error"]]
    assert any(undecided)
    for i, out in enumerate(undecided):
        assert (rows["white_wins"][i] is None) == out
        if out:
            assert rows["error"][i].startswith("SearchLimitError: ")
            assert rows["black_swap_wins"][i] is None and rows["nodes"][i] > 1
    with pytest.raises(InvalidOptionError, match="unsolved rows"):
        jobs.first_player_wins(jobs.read(tmp_path))


@pytest.mark.parametrize("game", REGISTERED)
def test_an_undecided_solve_row_is_null_and_says_why(tmp_path, game):
    state = needs_search(game)
    rows = read(jobs.solve(game, [state.notation()], options=state.game.options, max_nodes=1),
                tmp_path)
    assert rows["value"] == [None] and rows["best"] == [None]
    assert rows["exact"] == [False]
    assert rows["error"][0].startswith("SearchLimitError: ")
    assert rows["nodes"][0] >= 1


# ---- timeout=0 on both sides ----


def test_timeout_zero_is_a_limit_in_python_and_on_the_command_line():
    with pytest.raises(SearchLimitError, match="time limit"):
        ql.solve(QUANTUM_LEAP, timeout=0)
    notation = QUANTUM_LEAP.notation()
    result = CliRunner().invoke(main, ["solve", "quantum_leap", notation, "-o", "size=5",
                                       "-o", "setup=B", "--timeout", "0"])
    assert result.exit_code == 1, result.output
    assert "time limit reached" in result.output


def test_a_negative_timeout_is_refused_in_python_and_on_the_command_line():
    with pytest.raises(InvalidOptionError, match="timeout must be a number of seconds >= 0"):
        ql.solve(QUANTUM_LEAP, timeout=-0.5)
    with pytest.raises(InvalidOptionError, match="timeout must be a number of seconds >= 0"):
        jobs.solve("quantum_leap", [QUANTUM_LEAP.notation()], options={"size": 5},
                   timeout=-0.5)
    for command in (["solve", "quantum_leap", QUANTUM_LEAP.notation(), "-o", "size=5",
                     "-o", "setup=B", "--timeout", "-0.5"],
                    ["analyze", "--games", "1", "--solve-timeout", "-0.5"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2 and "timeout" in result.output
