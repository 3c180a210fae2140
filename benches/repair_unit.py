"""Quantum Repair Unit: the open solver on fresh deals, and the players.

    python benches/repair_unit.py [--deals 1000] [--timeout 1] [--players 1,2,3,4]
                                  [--games 1000] [--best-games 1000] [--best-samples 16]
                                  [--best-horizon 8] [--best-nodes 20000]
                                  [--policy-games 200] [--samples 8]
                                  [--horizon 8] [--policy-nodes 20000] [--threads 2]
                                  [--skip open,play]

1. **open**: ``quanta.repair_unit.open_batch`` over ``--deals`` fresh deals of each player count
   (deal ``i``: the pack shuffled by the generator of ``(seed, i)``), each ``solve_open`` within
   ``--timeout`` seconds (two at a time on two threads; each deal's own solve time): the share
   decided within the limit, the share winnable among the decided ones (with its 95% interval)
   and the median, p95 and max solve time of the decided deals.
2. **play**: ``quanta.repair_unit.play_batch`` with the best player ``best_action``
   (``--best-games`` games; each decision scores every action by the mean share of a horizon of
   ``--best-horizon`` unseen cards the team can be shown to survive over ``--best-samples``
   sampled orders, each search within ``--best-nodes`` nodes), the determinised ``policy`` (``--samples``
   orders per decision, each solve capped at ``--policy-nodes`` nodes; ``--policy-games``
   games; each scores an action by how many of the sampled orders the team survives for
   ``--horizon`` more unseen cards), the rule-based player and random play (``--games`` games
   each): the share of games won with its 95% interval, the mean decisions a game lasted, and
   seconds per game.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import quanta.repair_unit as ru


def interval(wins: int, n: int) -> str:
    if n == 0:
        return "–"
    p = wins / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return f"{100 * p:.1f}% ± {100 * half:.1f}"


def open_table(args) -> None:
    print(f"### solve_open on fresh deals ({args.deals} deals each, limit {args.timeout} s)\n")
    print("| players | decided ≤ limit | winnable (of decided) | median s | p95 s | max s "
          "| wall s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for players in args.players:
        start = time.perf_counter()
        out = ru.open_batch(players, args.deals, seed=args.seed, threads=args.threads,
                            timeout=args.timeout, memory_mb=256)
        wall = time.perf_counter() - start
        w, secs = out["winnable"], out["seconds"]
        decided = ~np.ma.getmaskarray(w)  # undecided deals are masked
        t = np.sort(secs[decided]) if decided.any() else np.array([math.nan])
        print(f"| {players} | {100 * decided.mean():.1f}% | "
              f"{interval(int(w.sum()), int(decided.sum()))} | {np.median(t):.3f} | "
              f"{t[int(0.95 * (len(t) - 1))]:.3f} | {t[-1]:.3f} | {wall:.0f} |")
    print()


def play_table(args) -> None:
    print("### Players in the real game (order unknown)\n")
    print("| players | player | games | won | mean decisions | s/game |")
    print("|---:|---|---:|---:|---:|---:|")
    for players in args.players:
        for player, games in (("best", args.best_games), ("policy", args.policy_games),
                              ("rule", args.games), ("random", args.games)):
            if games == 0:
                continue
            sight = ((args.best_samples, args.best_horizon, args.best_nodes) if player == "best"
                     else (args.samples, args.horizon, args.policy_nodes))
            start = time.perf_counter()
            out = ru.play_batch(players, player, games, seed=args.seed, samples=sight[0],
                                horizon=sight[1], max_nodes=sight[2], threads=args.threads)
            seconds = time.perf_counter() - start
            won = int(out["won"].sum())
            print(f"| {players} | {player} | {games} | {interval(won, games)} | "
                  f"{out['decisions'].mean():.1f} | {seconds / games:.3f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--timeout", type=float, default=1.0)
    parser.add_argument("--players", default="1,2,3,4",
                        type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--best-games", type=int, default=1000)
    parser.add_argument("--best-samples", type=int, default=16)
    parser.add_argument("--best-horizon", type=int, default=8)
    parser.add_argument("--best-nodes", type=int, default=20_000)
    parser.add_argument("--policy-games", type=int, default=200)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--horizon", type=int, default=8)
    parser.add_argument("--policy-nodes", type=int, default=20_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip", default="")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    if "open" not in skip:
        open_table(args)
    if "play" not in skip:
        play_table(args)


if __name__ == "__main__":
    main()
