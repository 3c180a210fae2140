"""Issue 45, item 5: every bad input a new user tried is a quanta error (the contract of
quanta.exceptions), says what was expected, changes nothing and never aborts the process: the
inputs that escaped as TypeError, UnicodeEncodeError, OverflowError, AssertionError or a raw
ModuleNotFoundError; a solver's refusal made at once; memory checks that refuse, under an
address-space limit (ulimit -v), before the allocator would abort."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
import time
import warnings

import numpy as np
import pytest

import quanta
import quanta.jobs
from quanta import bots


def _gym_env():
    from quanta.interop.gymnasium import QuantaEnv

    env = QuantaEnv(quanta.game("quincunx", players=1), illegal="raise")
    env.reset(seed=1)
    return env


def _gym_make_illegal_none():
    import gymnasium

    from quanta.interop.gymnasium import ENVS

    return gymnasium.make(next(iter(ENVS)), illegal=None)


def _pettingzoo_step_before_reset():
    from quanta.interop.pettingzoo import env

    env("einstein").step(0)


def _vector_step_before_reset():
    from quanta.interop.gymnasium import make_vec

    make_vec("quincunx", 2, players=1).step(np.zeros(2, dtype=np.int64))


def _mcts_time(value):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return bots.MCTS(time=value)


#: (label, the call, the words its message must hold).
CASES = [
    ("bots.make(None)", lambda: bots.make(None), "kind must be"),
    ("bots.make(5)", lambda: bots.make(5), "kind must be"),
    ("a lone surrogate as an option", lambda: quanta.game("einstein", setup="\ud800"),
     "option setup must be text"),
    ("QuantaEnv.step(2**63)", lambda: _gym_env().step(2**63), "an action is an integer"),
    ("gymnasium.make(illegal=None)", _gym_make_illegal_none, 'illegal must be "raise" or'),
    ("jobs.solve with positions None", lambda: quanta.jobs.solve("einstein", None),
     "positions must be notations"),
    ("PettingZoo step before reset", _pettingzoo_step_before_reset, "call reset() before step"),
    ("vector env step before reset", _vector_step_before_reset, "call reset() before step"),
    ("MCTS(time=1e300)", lambda: _mcts_time(1e300), "give iterations or max_nodes"),
]


@pytest.mark.parametrize(("label", "call", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_bad_input_raises_a_quanta_error_saying_what_was_expected(label, call, expected):
    """Rule: bad input raises a QuantaError (a ValueError where it is bad input), its message
    saying what was expected."""
    with pytest.raises(quanta.QuantaError) as caught:
        call()
    assert expected in str(caught.value), (label, str(caught.value))


@pytest.mark.parametrize("value", [4e-10, 1e-300, 0.0, 1.5, 1e9])
def test_a_bots_time_limit_it_accepts_round_trips_through_pickle(value):
    """Rule: a bot accepted is a bot that pickles and unpickles to the same parameters."""
    b = _mcts_time(value)
    again = pickle.loads(pickle.dumps(b))
    assert again.params == b.params and repr(again) == repr(b)


def test_a_repair_unit_deal_is_refused_at_once_before_any_search():
    """Rule: quanta.solve refuses a position its solver does not take before searching (a
    deal took 1.6-7.7 s to refuse on main)."""
    s = quanta.game("repair_unit").new_state()
    assert s.is_chance
    began = time.perf_counter()
    with pytest.raises(quanta.NotApplicableError, match="no decision"):
        quanta.solve(s)
    assert time.perf_counter() - began < 0.2


def _run(code: str, limit_bytes: int | None = None) -> subprocess.CompletedProcess:
    """``code`` run by a fresh interpreter (under an address-space limit of ``limit_bytes``,
    as ``ulimit -v`` sets it), its output captured."""
    prelude = ""
    if limit_bytes is not None:
        prelude = (f"import resource\nresource.setrlimit(resource.RLIMIT_AS, "
                   f"({limit_bytes}, {limit_bytes}))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    try:
        return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                              capture_output=True, text=True, timeout=120, env=env)
    except subprocess.TimeoutExpired:  # accepted, and playing what it cannot hold
        pytest.fail("not refused: still running after 120 s")


def test_a_missing_extra_is_one_import_error_line_naming_the_install_command():
    """Rule: importing an interop module without its extra raises ImportError, one line naming
    ``pip install '<distribution>[extra]'`` (the name read from the package's metadata)."""
    result = _run("""
        import sys
        sys.modules["gymnasium"] = None  # as if the extra were not installed
        from quanta._extras import distribution
        try:
            from quanta.interop import pettingzoo
        except ImportError as e:
            print(type(e).__name__, "|", e, "|", distribution())
    """)
    assert result.returncode == 0, result.stderr
    kind, message, name = (part.strip() for part in result.stdout.split("|"))
    assert kind == "ImportError" and "\n" not in message
    assert f"pip install '{name}[pettingzoo]'" in message, message
    assert "gymnasium" in message


#: The address space the memory checks run under: enough for the interpreter, numpy and the
#: core, far below what the refused batches would take.
LIMIT = 4_500_000_000


def test_a_vector_env_too_large_for_the_address_space_is_refused_not_aborted():
    """Rule: under ulimit -v, make_vec refuses a batch it could not hold with a typed error
    (on main the check passed and the allocator aborted the interpreter)."""
    result = _run("""
        import quanta
        from quanta.interop.gymnasium import make_vec
        try:
            env = make_vec("quincunx", 400_000, players=1)
            env.reset(seed=1)
            print("made")
        except quanta.InvalidOptionError as e:
            print("refused:", e)
    """, LIMIT)
    assert result.returncode == 0, (result.returncode, result.stderr[-500:])
    assert result.stdout.startswith("refused: num_envs"), result.stdout


def test_a_vector_env_that_fits_the_address_space_is_made():
    """Rule: the check refuses only what does not fit: a smaller batch is made and stepped."""
    result = _run("""
        import numpy as np
        from quanta.interop.gymnasium import make_vec
        env = make_vec("quincunx", 20_000, players=1)
        env.reset(seed=1)
        for _ in range(5):
            mask = env.action_masks()
            env.step(mask.argmax(axis=1))
        print("stepped")
    """, LIMIT)
    assert result.returncode == 0, result.stderr[-500:]
    assert result.stdout.strip() == "stepped"


def test_an_arena_too_large_for_the_address_space_is_refused_not_aborted():
    """Rule: under ulimit -v, the arena refuses games whose results it could not hold (it
    budgeted 28 bytes a game against about 96 measured)."""
    result = _run("""
        import quanta
        from quanta import bots
        try:
            quanta.arena("einstein", [bots.Random(), bots.Random()], 60_000_000, threads=1)
            print("played")
        except quanta.InvalidOptionError as e:
            print("refused:", e)
    """, LIMIT)
    assert result.returncode == 0, (result.returncode, result.stderr[-500:])
    assert result.stdout.startswith("refused: n:"), result.stdout


@pytest.fixture
def unwritable(tmp_path):
    """Output paths a job cannot write: under a file (NotADirectoryError), and where making a
    directory is not permitted (PermissionError)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    paths = [blocker / "out"]
    if os.geteuid() == 0:
        paths.append(__import__("pathlib").Path("/sys/quanta-job-out"))
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        paths.append(locked / "out")
    return paths


def test_a_job_given_an_output_it_cannot_write_raises_a_quanta_error(unwritable):
    """Rule: an unwritable ``out`` (a file in the way, no permission) is an
    InvalidOptionError naming the directory, not a PermissionError or NotADirectoryError."""
    job = quanta.jobs.playouts("einstein", 10)
    for out in unwritable:
        with pytest.raises(quanta.InvalidOptionError, match="out must be a directory"):
            quanta.jobs.run(job, out)
        assert not out.exists()
