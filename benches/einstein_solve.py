"""EinStein würfelt nicht: the exact endgame solver and the bot.

    python benches/einstein_solve.py [--positions 100] [--four 20] [--timeout 120]
                                     [--solve-threads N] [--games 10000] [--threads 1]
                                     [--far 60] [--solve-timeout 1]

1. Solve times of random positions with 1, 2 and 3 stones a side (``--positions`` each) and 4
   a side (``--four``, each within ``--timeout`` seconds), each solve on ``--solve-threads``
   threads (default one per core): median and max seconds and nodes.
   A random position: each side's stones get distinct random numbers and random cells off
   both corners, either side is about to roll (die not rolled yet).
2. The far case: three stones a side on the cells farthest from their corners (player 0 on a1
   b1 a2, player 1 on e5 d5 e4), within ``--far`` seconds (0 skips it).
3. ``quanta.einstein.best_move`` (the solver at 3 stones a side or fewer, each solve within
   ``--solve-timeout`` seconds, else the heuristic; the heuristic before) and the heuristic alone, each against uniform random play over
   ``--games`` games with random setups (the bot is player 0 in even games, player 1 in odd
   ones; player 0 moves first), played in Rust (``quanta._core.einstein_play_batch``): the
   bot's share of wins with a 95% confidence interval (``--games 0`` skips it).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import quanta
from quanta import SearchLimitError
from quanta._core import einstein_play_batch
from quanta.einstein import solve

GAME = quanta.game("einstein")


def random_position(rng: random.Random, stones: int) -> quanta.State:
    while True:
        cells = rng.sample(range(1, 24), 2 * stones)
        board = ["."] * 25
        for side, letters in enumerate(["123456", "abcdef"]):
            for cell, letter in zip(cells[side * stones:(side + 1) * stones],
                                    rng.sample(letters, stones)):
                board[cell] = letter
        rows = "/".join("".join(board[r * 5:r * 5 + 5]) for r in range(5))
        s = GAME.from_notation(f"{rows} {rng.randrange(2)} -")
        if not s.is_terminal:
            return s


def solve_times(positions: int, four: int, timeout: float, threads: int | None,
                rng: random.Random) -> None:
    print(f"## Solve times of random positions ({threads or 'one per core'} thread(s))\n")
    print("| stones a side | positions | median | max | median nodes | max nodes | unsolved |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for stones, count in [(1, positions), (2, positions), (3, positions), (4, four)]:
        if count == 0:
            continue
        times, nodes, unsolved = [], [], 0
        for _ in range(count):
            s = random_position(rng, stones)
            try:
                r = solve(s, timeout=timeout, threads=threads)
                times.append(r.seconds)
                nodes.append(r.nodes)
            except SearchLimitError as e:
                times.append(e.seconds)
                nodes.append(e.nodes)
                unsolved += 1
        print(f"| {stones} | {count} | {statistics.median(times):.4f} s | {max(times):.3f} s "
              f"| {statistics.median(nodes):,.0f} | {max(nodes):,} | {unsolved} |")
    print()


def far(seconds: float) -> None:
    notation = "12.../3..../...../....c/...ba 0 -"
    print(f"## Three stones a side, farthest from their corners ({seconds:.0f} s limit)\n")
    try:
        r = solve(GAME.from_notation(notation), timeout=seconds)
        print(f"`{notation}`: value {r.value:.4f}, {r.nodes:,} nodes, {r.seconds:.1f} s\n")
    except SearchLimitError as e:
        print(f"`{notation}`: not solved, {e.nodes:,} nodes in {e.seconds:.0f} s\n")


def share(wins: int, games: int) -> str:
    """Win share with a 95% Wilson interval."""
    p, z = wins / games, 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return f"{100 * p:.2f}% ({100 * (centre - half):.2f}-{100 * (centre + half):.2f}%)"


def bot(games: int, threads: int, solve_timeout: float) -> None:
    print(f"## The bot against uniform random play ({games:,} games, {threads} thread(s))\n")
    print("| bot | wins (95% CI) | as player 0 | as player 1 | moves by the solver | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, stones in [("best_move (solver at <= 3 a side)", 3), ("heuristic alone", 0)]:
        start = time.perf_counter()
        out = einstein_play_batch(2026, games, 0, stones, (solve_timeout, None, 1024, threads))
        seconds = time.perf_counter() - start
        won, side = out["bot_won"], out["bot"]
        first, second = won[side == 0], won[side == 1]
        solved = 100 * out["solved"].sum() / out["moves"].sum()
        print(f"| {label} | {share(int(won.sum()), games)} | {100 * first.mean():.2f}% "
              f"| {100 * second.mean():.2f}% | {solved:.1f}% | {seconds:.1f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--four", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--solve-threads", type=int, default=None)
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--far", type=float, default=60.0)
    parser.add_argument("--solve-timeout", type=float, default=1.0)
    args = parser.parse_args()
    rng = random.Random(2026)
    solve_times(args.positions, args.four, args.timeout, args.solve_threads, rng)
    if args.far > 0:
        far(args.far)
    if args.games > 0:
        bot(args.games, args.threads, args.solve_timeout)


if __name__ == "__main__":
    main()
