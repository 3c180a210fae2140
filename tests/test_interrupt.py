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
