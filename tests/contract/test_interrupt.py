"""Long Rust calls honour Ctrl-C: they run with the GIL released and stop when Python has a
pending KeyboardInterrupt (simulated here with _thread.interrupt_main)."""

from __future__ import annotations

import _thread
import threading
import time

import pytest

import quanta
from quanta.batch import random_playouts
from quanta.quantum_leap import solve

from helpers import needs_search


def interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def test_ctrl_c_stops_a_long_solve():
    s = quanta.game("quantum_leap", size=4, setup="B").from_notation(
        "bbbb/wwbww/wbwwbw/bwwbwbw/bwwbwb/bwwbb/bwbb w"
    )
    start = time.perf_counter()
    timer = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        solve(s, timeout=60)
    timer.join()
    assert time.perf_counter() - start < 10


def test_ctrl_c_stops_a_long_batch():
    g = quanta.game("quantum_leap", size=7)
    start = time.perf_counter()
    timer = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        random_playouts(g, 10_000_000, threads=1)
    timer.join()
    assert time.perf_counter() - start < 10


def test_other_threads_run_while_rust_works():
    """The GIL is released: a Python thread keeps counting during a long solve."""
    s = quanta.game("quantum_leap", size=4, setup="B").from_notation(
        "bbbb/wwbww/wbwwbw/bwwbwbw/bwwbwb/bwwbb/bwbb w"
    )
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    worker = threading.Thread(target=count)
    worker.start()
    with pytest.raises(quanta.SearchLimitError):
        solve(s, timeout=0.5)
    stop.set()
    worker.join()
    assert len(ticks) >= 10


def test_ctrl_c_stops_a_long_perft():
    s = quanta.game("quantum_leap", size=5, setup="B").new_state()
    start = time.perf_counter()
    timer = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        s.perft(40)
    timer.join()
    assert time.perf_counter() - start < 10


def test_ctrl_c_stops_a_solve_asked_for_a_thousand_threads():
    """A request of 1024 threads starts at most four per core, so Ctrl-C still stops it."""
    s = quanta.game("quantum_leap", size=4, setup="B").from_notation(
        "bbbb/wwbww/wbwwbw/bwwbwbw/bwwbwb/bwwbb/bwbb w"
    )
    start = time.perf_counter()
    timer = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        solve(s, timeout=60, threads=1024)
    timer.join()
    assert time.perf_counter() - start < 10


def test_a_timeout_holds_at_any_thread_count():
    s = quanta.game("quantum_leap", size=4, setup="B").from_notation(
        "bbbb/wwbww/wbwwbw/bwwbwbw/bwwbwb/bwwbb/bwbb w"
    )
    start = time.perf_counter()
    with pytest.raises(quanta.SearchLimitError):
        solve(s, timeout=0.5, threads=1024)
    assert time.perf_counter() - start < 10


def _long_decision(name: str) -> quanta.State:
    """A decision of the registered solver's solvable form whose search takes more than a
    million nodes, or, where random games hold none (Quantum Leap's side 3), more than the
    default of :func:`helpers.needs_search`."""
    try:
        return needs_search(name, nodes=1_000_000)
    except AssertionError:
        return needs_search(name)


def test_ctrl_c_stops_every_registered_solver():
    # quanta.solve on the first decision of a fresh game of each solver's solvable form, with no
    # limit: a long search stops at Ctrl-C; a solver that answers before the interrupt comes is
    # let be (a fresh side-3 Quantum Leap board is solved at once), but most searches are long.
    from quanta.solvers import SOLVERS

    interrupted = 0
    for name in SOLVERS:
        s = _long_decision(name)
        start = time.perf_counter()
        timer = interrupt_after(0.3)
        try:
            quanta.solve(s, threads=1)
        except KeyboardInterrupt:
            interrupted += 1
            assert time.perf_counter() - start < 10, name
        else:
            timer.cancel()
            assert time.perf_counter() - start < 0.3, f"{name}: not interrupted"
        timer.join()
    assert interrupted >= len(SOLVERS) - 1
