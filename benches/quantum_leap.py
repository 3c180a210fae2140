"""Quantum Leap solver and move-generation benchmarks.

    python benches/quantum_leap.py [--deals 200] [--positions 10] [--stones 38 42] [--timeout 60]
                                   [--moonshot 300] [--save-positions DIR]
    python benches/quantum_leap.py --positions-file FILE [--positions-file FILE ...] [--timeout 60]
    python benches/quantum_leap.py --draw SEED --positions 21 --stones 44 --save-positions DIR

1. Side 3, ``--deals`` random deals: solve time per deal and the first player's (White's) win
   rate under perfect play for setup A without the swap (White to move after "no swap"),
   setup A with the swap (Black decides; White wins when every choice loses for Black), and
   setup B.
2. Side 5 (setup A, no swap), positions reached by random play with 38 and with 42 stones:
   median and max solve time over ``--positions`` positions, each with ``--timeout`` seconds.
   ``--stones`` sets the stone counts (38 and 42 by default). ``--save-positions DIR`` writes
   the positions to ``DIR/side5_<stones>.txt``, one notation per line, for the solver alone
   (``cargo run --release --example ql_solve``).
3. Side 4 from the start (setup A at the swap, setup B at White's first move) within
   ``--moonshot`` seconds each: solved or not.
4. Move generation: perft leaves per second, Rust vs the pure-Python reference.

``--positions-file FILE`` (repeatable) runs none of these: it solves the side-5 positions of
each file (one notation per line, as ``--save-positions`` writes them) and prints each one's value,
nodes and seconds, then the file's row of table 2. ``--draw SEED`` only draws ``--positions``
positions per ``--stones`` count from ``random.Random(SEED)`` (the draw of table 2) and writes
them to ``--save-positions``, solving nothing.

Solves run with the solver's default threads (every core).
"""

from __future__ import annotations

import argparse
import itertools
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


def draw(g, rng, target: int):
    """Positions of side 5 (setup A, no swap) reached by random play with ``target`` stones, one
    after another, for ever."""
    while True:
        s = deal(g, rng)
        s = s.play(s.parse_action("no swap"))
        while not s.is_terminal and stones(s) > target:
            s = s.play(rng.choice(s.legal_actions()))
        if not s.is_terminal and stones(s) == target:
            yield s


def solve_row(label: str, states, timeout: float, verbose: bool = False) -> None:
    """Solves ``states`` within ``timeout`` seconds each and prints their row of the side-5
    table; ``verbose`` prints each position's value, nodes and seconds first (as comments)."""
    times, nodes, unsolved = [], [], 0
    for i, s in enumerate(states, 1):
        try:
            r = solve(s, timeout=timeout)
            times.append(r.seconds)
            nodes.append(r.nodes)
            line = f"{'win ' if r.win else 'loss'} {r.nodes:>12,} {r.seconds:8.3f} s"
        except SearchLimitError as e:
            times.append(e.seconds)
            unsolved += 1
            line = f"unsolved {e.nodes:>8,} {e.seconds:8.3f} s"
        if verbose:
            print(f"<!-- {i:>2} {line} -->", flush=True)
    median_nodes = f"{statistics.median(nodes):,.0f}" if nodes else "-"
    print(f"| {label} | {statistics.median(times):.3f} s | {max(times):.2f} s "
          f"| {unsolved} | {median_nodes} |", flush=True)


def save_positions(save: pathlib.Path, target: int, states) -> None:
    """Writes ``states`` to ``save/side5_<target>.txt``, one notation per line."""
    save.mkdir(parents=True, exist_ok=True)
    (save / f"side5_{target}.txt").write_text("".join(s.notation() + "\n" for s in states))


def print_side5_header(first: str) -> None:
    print(f"| {first} | median solve | max solve | unsolved in time | median nodes |")
    print("|---:|---:|---:|---:|---:|")


def side5(positions: int, stone_counts, timeout: float, rng, save: pathlib.Path | None) -> None:
    print(f"## Side 5, positions from random play ({positions} each, {timeout:.0f} s limit)\n")
    print_side5_header("stones")
    g = quanta.game("quantum_leap", size=5, setup="A")
    for target in stone_counts:
        drawn = list(itertools.islice(draw(g, rng, target), positions))
        solve_row(str(target), drawn, timeout)
        if save is not None:
            save_positions(save, target, drawn)
    print()


def side5_files(files, timeout: float) -> None:
    print(f"## Side 5, positions from files ({timeout:.0f} s limit)\n")
    print_side5_header("file (positions)")
    g = quanta.game("quantum_leap", size=5)
    for path in files:
        lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
        solve_row(f"{path.name} ({len(lines)})", [g.from_notation(n) for n in lines], timeout,
                  verbose=True)
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
    parser.add_argument("--stones", type=int, nargs="+", default=[38, 42])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--moonshot", type=float, default=300.0)
    parser.add_argument("--save-positions", type=pathlib.Path, default=None, metavar="DIR")
    parser.add_argument("--positions-file", type=pathlib.Path, action="append", metavar="FILE")
    parser.add_argument("--draw", type=int, default=None, metavar="SEED")
    args = parser.parse_args()
    if args.positions_file:
        side5_files(args.positions_file, args.timeout)
        return
    if args.draw is not None:
        if args.save_positions is None:
            parser.error("--draw needs --save-positions")
        g = quanta.game("quantum_leap", size=5, setup="A")
        for target in args.stones:
            drawn = itertools.islice(draw(g, random.Random(args.draw), target), args.positions)
            save_positions(args.save_positions, target, drawn)
        return
    rng = random.Random(2026)
    movegen(rng)
    side3(args.deals, rng)
    side5(args.positions, args.stones, args.timeout, rng, args.save_positions)
    moonshot(args.moonshot)


if __name__ == "__main__":
    main()
