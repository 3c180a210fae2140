"""Bad arguments, tried as a new user would: each raises the documented typed exception with a
message that says what was expected, quotes little of the input, and changes nothing. The
limits of every solver are read by one reader and checked by one function in the core, so a
test of each kind of bad limit runs against every solver."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import quanta
from quanta import InvalidOptionError, NotApplicableError
from quanta import quantum_leap as ql
from quanta import quincunx as qx
from quanta.batch import random_playouts
from quanta.solvers import SOLVERS as REGISTERED

import solver_calls
from helpers import needs_search

QL = quanta.game("quantum_leap", size=3).from_notation(".w./wwb./.bw.b/..b./w.b w")


def solitaire_state():
    s = quanta.game("quincunx", players=1).new_state()
    while s.is_chance:
        s = s.play(s.legal_actions()[0])
    return s


SOLITAIRE = solitaire_state()
PILE = SOLITAIRE.pile()

#: Every solver, called with the limits given: each game's own solver functions, and each
#: registered solver through quanta.solve and quanta.best_move.
SOLVERS = {
    **solver_calls.ALL,
    **{f"quanta.solve[{game}]": functools.partial(quanta.solve, needs_search(game))
       for game in REGISTERED},
    **{f"quanta.best_move[{game}]": functools.partial(quanta.best_move, needs_search(game))
       for game in REGISTERED},
}
#: Every solver takes ``threads`` (tests/contract/test_undecided.py has the rest of them).
THREADED = set(SOLVERS)

BAD_LIMITS = [
    ("timeout", -1), ("timeout", float("nan")), ("timeout", "1"), ("timeout", True),
    ("max_nodes", -1), ("max_nodes", 1.5), ("max_nodes", "10"), ("max_nodes", 2**70),
    ("memory_mb", 0), ("memory_mb", None), ("memory_mb", -5), ("memory_mb", 2**25),
    ("memory_mb", np.bool_(True)),
]
BAD_THREADS = [0, -1, 10**6, 2.0, "2", True, np.int64(0)]


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize(("name", "value"), BAD_LIMITS, ids=repr)
def test_a_bad_limit_is_an_invalid_option_error_naming_what_was_expected(solver, name, value):
    with pytest.raises(InvalidOptionError, match=rf"^{name} must be .*, not "):
        SOLVERS[solver](**{name: value})


@pytest.mark.parametrize("solver", sorted(THREADED))
@pytest.mark.parametrize("threads", BAD_THREADS, ids=repr)
def test_bad_threads_are_an_invalid_option_error(solver, threads):
    with pytest.raises(InvalidOptionError, match="^threads must be an integer from 1 to 1024"):
        SOLVERS[solver](threads=threads)


def test_numpy_integers_are_accepted_as_integers_everywhere():
    one = np.int64(1)
    assert ql.solve(QL, threads=one, max_nodes=np.uint64(10**6), memory_mb=np.int32(64)).win
    assert QL.observation_string(np.int8(1)) == QL.observation_string(1)
    assert SOLITAIRE.hand(np.int64(0)) == SOLITAIRE.hand(0)
    assert QL.perft(np.int64(2)) == QL.perft(2)
    assert (random_playouts(quanta.game("einstein"), np.int64(5), seed=np.uint64(3))["length"]
            == random_playouts(quanta.game("einstein"), 5, seed=3)["length"]).all()


def test_a_long_bad_argument_is_quoted_short():
    with pytest.raises(InvalidOptionError) as error:
        ql.solve(QL, timeout="x" * 10_000)
    assert len(str(error.value)) < 250


@pytest.mark.parametrize("player", [-1, 2, 1.0, "0", True, None, np.bool_(False)], ids=repr)
def test_a_bad_player_number_is_an_invalid_option_error(player):
    calls = [QL.observation_string, QL.observation_tensor, QL.information_state_string,
             lambda p: QL.resample(p, 0)]
    if player is not None:  # action_to_string(a, None) is the full string
        calls.append(lambda p: QL.action_to_string(29, p))
    for call in calls:
        with pytest.raises(InvalidOptionError, match="player must be an integer from 0 to 1"):
            call(player)
    with pytest.raises(InvalidOptionError, match="player must be an integer from 0 to 0"):
        SOLITAIRE.hand(player if player != -1 else 1)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, None, "1"], ids=repr)
def test_a_bad_seed_is_an_invalid_option_error(seed):
    with pytest.raises(InvalidOptionError, match="seed must be an integer from 0 to 2"):
        QL.resample(0, seed)
    with pytest.raises(InvalidOptionError, match="seed must be an integer from 0 to 2"):
        random_playouts(quanta.game("einstein"), 1, seed=seed)
    with pytest.raises(InvalidOptionError, match="seed must be an integer from 0 to 2"):
        qx.solve_open_batch(seed, 1)


@pytest.mark.parametrize("depth", [-1, 2**40, 1.0, "2", True], ids=repr)
def test_a_bad_perft_depth_is_an_invalid_option_error(depth):
    with pytest.raises(InvalidOptionError, match="depth must be an integer from 0 to 1000"):
        QL.perft(depth)


@pytest.mark.parametrize(("argument", "value"), [
    ("n", -1), ("n", 2**41), ("n", 1.0), ("first", -1), ("threads", 0), ("threads", 5000),
    ("game", "einstein"),
], ids=repr)
def test_random_playouts_checks_its_arguments(argument, value):
    args = {"game": quanta.game("einstein"), "n": 3, "seed": 0, "threads": None, "first": 0}
    args[argument] = value
    with pytest.raises(InvalidOptionError, match=f"^{argument} must be"):
        random_playouts(args.pop("game"), args.pop("n"), **args)


@pytest.mark.parametrize(("argument", "value"), [
    ("n", -1), ("first", -3), ("samples", 0), ("candidates", -2), ("effort", 0),
], ids=repr)
def test_the_quincunx_batches_check_their_counts(argument, value):
    args = {"seed": 0, "n": 2, "first": 0}
    if argument in ("samples", "candidates", "effort"):
        with pytest.raises(InvalidOptionError, match=f"^{argument} must be a positive integer"):
            qx.play_batch("best_move", **{**args, argument: value})
        with pytest.raises(InvalidOptionError, match=f"^{argument} must be a positive integer"):
            qx.best_move(SOLITAIRE, **{argument: value})
    else:
        args[argument] = value
        for batch in (qx.solve_open_batch, qx.fill_open_batch):
            with pytest.raises(InvalidOptionError, match=f"^{argument} must be"):
                batch(**args)
        with pytest.raises(InvalidOptionError, match=f"^{argument} must be"):
            qx.play_batch("greedy", **args)


def test_a_bad_policy_name_is_an_invalid_option_error():
    with pytest.raises(InvalidOptionError, match="policy must be 'greedy' or 'best_move'"):
        qx.play_batch("smart", 0, 1)


@pytest.mark.parametrize("name", [None, 3, b"einstein", ["einstein"]], ids=repr)
def test_a_game_is_named_by_a_string(name):
    with pytest.raises(InvalidOptionError, match="a game is named by a string, one of '"):
        quanta.game(name)


def test_helpers_given_another_games_state_say_which_game_they_need():
    einstein = quanta.game("einstein").new_state()
    for helper in [qx.grid, qx.pile, qx.scores, qx.lost, lambda s: qx.hand(s, 0),
                   qx.greedy_move, qx.solve_expected, lambda s: qx.solve_open(s, [])]:
        with pytest.raises(NotApplicableError, match="needs a state of the game quincunx, not of einstein"):
            helper(einstein)
    for helper in [ql.cells, ql.solve, ql.analyze]:
        with pytest.raises(NotApplicableError, match="needs a state of the game quantum_leap"):
            helper(einstein)
    with pytest.raises(NotApplicableError, match="needs a state of the game einstein"):
        quanta.einstein.board(QL)
    with pytest.raises(NotApplicableError, match="needs a game state"):
        qx.grid("AM,.,.,AS")


def test_solving_a_chance_node_is_not_applicable():
    deal = quanta.game("quantum_leap", size=3).new_state()
    with pytest.raises(NotApplicableError, match="chance node"):
        ql.solve(deal)
    with pytest.raises(NotApplicableError):
        qx.solve_expected(quanta.game("quincunx", players=1).new_state())
    with pytest.raises(NotApplicableError):
        qx.solve_expected(quanta.game("quincunx", players=2).from_notation(
            quanta.game("quincunx", players=2).new_state().notation()))


def test_the_typed_errors_are_value_errors_and_quanta_errors():
    assert issubclass(NotApplicableError, InvalidOptionError)
    assert issubclass(NotApplicableError, ValueError)
    assert issubclass(NotApplicableError, quanta.QuantaError)


def test_numpy_bools_are_bools_and_never_integers():
    assert quanta.game("quincunx", players=1, excuse=np.True_).options["excuse"] is True
    assert quanta.game("einstein", first=np.int64(1)).options["first"] == 1
    grid = [[None] * 4 for _ in range(4)]
    grid[0][0] = "AM"
    assert qx.score_placement(grid, "7WY", "b1", solitaire=np.True_) == qx.score_placement(
        grid, "7WY", "b1", solitaire=True)
    for bad in [1, "yes", None]:
        with pytest.raises(InvalidOptionError, match="solitaire must be True or False"):
            qx.score_placement(grid, "7WY", "b1", solitaire=bad)
        with pytest.raises(InvalidOptionError, match="excuse must be True or False"):
            qx.fill_open_batch(0, 1, excuse=bad)
    with pytest.raises(quanta.IllegalMoveError):
        QL.play(np.True_)  # an action is an integer, not a bool
    with pytest.raises(InvalidOptionError, match="threads must be"):
        ql.solve(QL, threads=np.True_)


# ---- counts that cannot fit, and messages that never grow with the input ----


def test_a_count_whose_results_cannot_fit_in_memory_is_refused_before_anything_is_allocated():
    g = quanta.game("einstein")
    # 2**40 games of two players: 22 TB of returns and lengths, more than any machine here has.
    with pytest.raises(InvalidOptionError, match=r"^n: 1,099,511,627,776 games need 22\.0 TB") as e:
        random_playouts(g, 2**40)
    message = str(e.value)
    assert "at most" in message and "games fit" in message, message
    assert "first=" in message and "quanta.jobs.playouts" in message, "says what to do instead"
    assert random_playouts(g, 3, seed=1)["length"].shape == (3,), "the process goes on"


BIG = "x" * 1_000_000


def _message(call) -> str:
    with pytest.raises(quanta.QuantaError) as e:
        call()
    return str(e.value)


def _positions(name):
    """The start of the game, and positions a few random moves in, as notations."""
    g = quanta.game(name)
    rng = np.random.default_rng(3)
    out, s = [], g.new_state()
    for _ in range(30):
        out.append(s)
        if s.is_terminal:
            break
        s = s.play(int(rng.choice(s.legal_actions())))
    return g, out[::10]


@pytest.mark.parametrize("name", quanta.GAMES)
def test_a_million_character_input_comes_back_as_a_short_message(name):
    g, states = _positions(name)
    messages = [_message(lambda: g.from_notation(BIG)),
                _message(lambda: states[0].parse_action(BIG)),
                _message(lambda: quanta.game(name, bogus=BIG)),
                _message(lambda: quanta.game(name, **{BIG: 1})),
                _message(lambda: quanta.game(BIG))]
    messages += [_message(lambda: quanta.game(name, **{option: BIG})) for option in g.options]
    for s in states:  # every field of real notations, one at a time, made huge
        fields = s.notation().split(" ")
        for i in range(len(fields)):
            notation = " ".join([*fields[:i], BIG + fields[i], *fields[i + 1:]])
            messages.append(_message(lambda: g.from_notation(notation)))
    for message in messages:
        assert len(message) < 400, message[:500]
    assert "(1,000,000 characters)" in messages[0], "the cut says how long the input was"


def test_python_messages_quote_through_the_same_helper():
    from quanta.exceptions import quoted

    assert quoted("a2b3") == "'a2b3'"
    assert quoted(BIG) == '"' + "x" * 79 + '…" (1,000,000 characters)'
    assert quoted(list(range(10**5))) == repr(list(range(22)))[:-1] + ", … (688,890 characters)"
    assert len(_message(lambda: quanta.einstein_card.svg(
        quanta.game("einstein_card").new_state(), viewer=BIG))) < 400
    assert len(_message(lambda: qx.score_placement([[None] * 4] * 4, "7WY", BIG))) < 400


def test_a_solver_binding_reads_its_limits_by_name_as_one_value():
    # Every solver binding takes its limits as one argument, a dict by name (timeout,
    # max_nodes, memory_mb, threads), read and checked once in Rust with the same typed errors
    # as the module functions: no positional tuple crosses into Rust.
    from quanta import _core

    s = quanta.game("einstein").from_notation("...../.a.../...../...1./..... 0 4")
    assert _core.einstein_solve(s, dict(memory_mb=64, threads=1)).value == 1.0
    with pytest.raises(InvalidOptionError, match="the limits are a dict by name"):
        _core.einstein_solve(s, "fast")
    with pytest.raises(InvalidOptionError, match="the limits are a dict by name"):
        _core.einstein_solve(s, (None, None, 64, 1))
    with pytest.raises(InvalidOptionError, match="limits are timeout, max_nodes"):
        _core.einstein_solve(s, dict(time=1))
    with pytest.raises(InvalidOptionError, match="memory_mb"):
        _core.einstein_solve(s, dict(memory_mb=0, threads=1))
    with pytest.raises(InvalidOptionError, match="threads"):
        _core.quincunx_fill_open_batch(1, 1, 0, False, dict(memory_mb=64, threads=0))
