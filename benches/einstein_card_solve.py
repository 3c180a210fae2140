"""EinStein a la Card with both hands open: solve times of the exact solver on endgames.

    python benches/einstein_card_solve.py [--positions 50] [--heaps 0,1,2,3,4,5] [--timeout 10]
                                          [--threads N] [--seed 1]

For each heap size h of ``--heaps``: ``--positions`` positions from random play (``open_hands=
True``, the other options the defaults): in each of as many random games (uniform random
actions, chance by its odds; games that end before reach no such position and are skipped),
the first position at which a card is to be played with at most h cards left in each heap.
Each is solved by ``quanta.einstein_card.solve`` within ``--timeout`` seconds on ``--threads``
threads (default one per core). One row per h: the stones a side (median, max of the two
sides), the solves' median and max time and nodes (a search stopped by the time limit counts
with its time and nodes) and how many were solved within the timeout.
"""

from __future__ import annotations

import argparse
import random
import statistics

import quanta
from quanta import SearchLimitError
from quanta.einstein_card import board, solve

GAME = quanta.game("einstein_card", open_hands=True)


def endgame(rng: random.Random, heap: int) -> quanta.State | None:
    """The first position of a random game at which a card is played with at most ``heap``
    cards in each heap, or None if the game ends before."""
    s = GAME.new_state()
    while not s.is_terminal:
        if s.is_chance:
            actions, odds = zip(*s.chance_outcomes())
            s = s.play(rng.choices(actions, odds)[0])
            continue
        fields = s.notation().split(" ")
        if fields[2] == "play":
            heaps = [0 if h == "-" else len(h) for h in fields[4].split("|")]
            if max(heaps) <= heap:
                return s
        s = s.play(rng.choice(s.legal_actions()))
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--heaps", default="0,1,2,3,4,5")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"## EinStein a la Card, both hands open: endgames from random play "
          f"({args.timeout:g} s limit, {args.threads or 'one per core'} thread(s))\n")
    print("| cards a heap at most | positions | stones a side: median (max) | median | max "
          "| median nodes | max nodes | solved in time |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for h in [int(x) for x in args.heaps.split(",")]:
        rng = random.Random(args.seed * 1000 + h)
        times: list[float] = []
        nodes: list[int] = []
        stones: list[int] = []
        solved = 0
        while len(times) < args.positions:
            s = endgame(rng, h)
            if s is None:
                continue
            b = board(s)
            stones.append(max(int((b > 0).sum()), int((b < 0).sum())))
            try:
                r = solve(s, timeout=args.timeout, threads=args.threads)
                times.append(r.seconds)
                nodes.append(r.nodes)
                solved += 1
            except SearchLimitError as e:
                times.append(e.seconds or args.timeout)
                nodes.append(e.nodes or 0)
        print(f"| {h} | {args.positions} | {statistics.median(stones):g} ({max(stones)}) "
              f"| {statistics.median(times):.4f} s | {max(times):.3f} s "
              f"| {statistics.median(nodes):,.0f} | {max(nodes):,} | {solved} |", flush=True)
    print()


if __name__ == "__main__":
    main()
