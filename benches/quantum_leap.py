"""Quantum Leap solver and move-generation benchmarks.

    python benches/quantum_leap.py [--deals 200] [--positions 10] [--timeout 60] [--moonshot 300]
                                   [--save-positions DIR]

1. Side 3, ``--deals`` random deals: solve time per deal and the first player's (White's) win
   rate under perfect play for setup A without the swap (White to move after "no swap"),
   setup A with the swap (Black decides; White wins when every choice loses for Black), and
   setup B.
2. Side 5 (setup A, no swap), positions reached by random play with 38 and with 42 stones:
   median and max solve time over ``--positions`` positions, each with ``--timeout`` seconds.
   ``--save-positions DIR`` writes them to ``DIR/side5_38.txt`` and ``DIR/side5_42.txt``, one
   notation per line, for the solver alone (``cargo run --release --example ql_solve``).
3. Side 4 from the start (setup A at the swap, setup B at White's first move) within
   ``--moonshot`` seconds each: solved or not.
4. Move generation: perft leaves per second, Rust vs the pure-Python reference.

Solves run with the solver's default threads (every core).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

import quanta
from quanta import SearchLimitError
from quanta.quantum_leap import solve
from quanta.reference import quantum_leap as reference

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _common import deal, print_against_reference  # noqa: E402  (the shared bench helpers)


def stones(state) -> int:
    board = state.notation().split()[0]
    return board.count("w") + board.count("b")


def side3(deals: int, rng) -> None:
    print(f"## Side 3, {deals} random deals\n")
    print("| start | median solve | max solve | White (first player) wins |")
    print("|---|---:|---:|---:|")
    a, b = quanta.game("quantum_leap", size=3, setup="A"), quanta.game("quantum_leap", size=3, setup="B")
    a_deals = [deal(a, rng) for _ in range(deals)]
    b_deals = [deal(b, rng) for _ in range(deals)]
    cases = [
        ("A, no swap (White to move)", [s.play(s.parse_action("no swap")) for s in a_deals], True),
        ("A with swap (Black decides)", a_deals, False),
        ("B (White to move)", b_deals, True),
    ]
    for label, states, white_to_act in cases:
        times, white_wins = [], 0
        for s in states:
            r = solve(s)
            times.append(r.seconds)
            white_wins += r.win if white_to_act else not r.win
        print(f"| {label} | {1000 * statistics.median(times):.2f} ms | {1000 * max(times):.1f} ms "
              f"| {100 * white_wins / len(states):.1f}% |")
    print()


def side5(positions: int, timeout: float, rng, save: pathlib.Path | None) -> None:
    print(f"## Side 5, positions from random play ({positions} each, {timeout:.0f} s limit)\n")
    print("| stones | median solve | max solve | unsolved in time | median nodes |")
    print("|---:|---:|---:|---:|---:|")
    g = quanta.game("quantum_leap", size=5, setup="A")
    for target in (38, 42):
        times, nodes, unsolved, drawn = [], [], 0, []
        while len(times) < positions:
            s = deal(g, rng)
            s = s.play(s.parse_action("no swap"))
            while not s.is_terminal and stones(s) > target:
                s = s.play(rng.choice(s.legal_actions()))
            if s.is_terminal or stones(s) != target:
                continue
            drawn.append(s.notation())
            try:
                r = solve(s, timeout=timeout)
                times.append(r.seconds)
                nodes.append(r.nodes)
            except SearchLimitError as e:
                times.append(e.seconds)
                unsolved += 1
        median_nodes = f"{statistics.median(nodes):,.0f}" if nodes else "-"
        print(f"| {target} | {statistics.median(times):.3f} s | {max(times):.2f} s "
              f"| {unsolved} | {median_nodes} |")
        if save is not None:
            save.mkdir(parents=True, exist_ok=True)
            (save / f"side5_{target}.txt").write_text("\n".join(drawn) + "\n")
    print()


def moonshot(seconds: float) -> None:
    print(f"## Side 4 from the start ({seconds:.0f} s limit each)\n")
    print("| start | result |")
    print("|---|---|")
    rng = random.Random(4)
    for setup in ("A", "B"):
        g = quanta.game("quantum_leap", size=4, setup=setup)
        s = deal(g, rng)
        label = f"{setup}: `{s.notation()}`"
        try:
            r = solve(s, timeout=seconds, memory_mb=8192)
            print(f"| {label} | solved: {'first to act wins' if r.win else 'first to act loses'} "
                  f"({r.best_move}), {r.nodes:,} nodes, {r.seconds:.1f} s |")
        except SearchLimitError as e:
            print(f"| {label} | not solved: {e.nodes:,} nodes in {e.seconds:.0f} s |")
    print()


def movegen(rng) -> None:
    print("## Move generation (perft)\n")
    g = quanta.game("quantum_leap", size=5, setup="B")
    rg = reference.game(size=5, setup="B")
    starts = []
    for _ in range(5):
        s = deal(g, rng)
        for _ in range(rng.randrange(0, 10)):
            if not s.is_terminal:
                s = s.play(rng.choice(s.legal_actions()))
        starts.append(s)

    def ref_perft(s, depth):
        if depth == 0 or s.is_terminal:
            return 1
        return sum(ref_perft(s.play(a), depth - 1) for a in s.legal_actions())

    t = time.perf_counter()
    rust = sum(s.perft(3) for s in starts)
    rust_rate = rust / (time.perf_counter() - t)
    t = time.perf_counter()
    ref = sum(ref_perft(rg.from_notation(s.notation()), 2) for s in starts)
    ref_rate = ref / (time.perf_counter() - t)
    assert sum(s.perft(2) for s in starts) == ref, "perft must agree"
    print_against_reference("perft leaves/s (side 5)", "Rust", rust_rate, ref_rate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--moonshot", type=float, default=300.0)
    parser.add_argument("--save-positions", type=pathlib.Path, default=None, metavar="DIR")
    args = parser.parse_args()
    rng = random.Random(2026)
    movegen(rng)
    side3(args.deals, rng)
    side5(args.positions, args.timeout, rng, args.save_positions)
    moonshot(args.moonshot)


if __name__ == "__main__":
    main()
