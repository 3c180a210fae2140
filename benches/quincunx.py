"""Solitaire Quincunx solvers: open-deck solve times, optimal scores, policies, playouts.

    python benches/quincunx.py [--fill-deals N] [--deals N] [--timeout S] [--empties 6,7,8] [--positions N]
                               [--games N] [--samples N] [--candidates N] [--effort N]
                               [--threads T] [--seconds S] [--seed SEED] [--strength-deals N]

Prints markdown tables:

1. ``solve_open`` on positions with a given number of empty cells (fresh deals played by the
   greedy policy down to that many empty cells, then solved open with the rest of the order):
   time per solve (median, 95th percentile, max; a solve past ``--timeout`` counts with its
   time and as unsolved), the share solved, the share winnable and the mean optimal score.
   ``12`` empty cells is the fresh deal.
2. The share of fresh deals that can be filled with the order known (``fill_open_batch`` over
   ``--fill-deals`` of them), and the distribution of the optimal score over the solved fresh
   deals (``--deals`` of them).
3. ``best_move`` against ``greedy_move`` over ``--games`` deals (the same deals for both).
4. Random solitaire playouts: Rust batch against the pure-Python reference.
5. Strength (only with ``--strength-deals N``): over N fresh deals, the share of the deals
   some line fills with the order known on which the best player (quanta's computer player,
   ``quincunx.best_move`` with ``--samples``, ``--candidates`` and ``--effort``: by default
   its own defaults) completes the spread, never seeing the order; with its mean score and mean
   return (a loss returns ``game.info.min_return``), and the greedy baseline on the same deals.

Solves run several at a time on ``--threads`` threads, or with ``--one-at-a-time`` one after
another, each ``solve_open`` on all ``--threads`` (its searches by number of draws in
parallel); times are per solve.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

import numpy as np

import quanta
from quanta import quincunx as solvers

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _common import (  # noqa: E402  (the shared bench helpers)
    batch_playouts,
    play_out,
    print_against_reference,
    timed,
)


def solve_table(args) -> list:
    print("### solve_open by empty cells\n")
    print("| empty cells | positions | median | p95 | max | solved | winnable | mean score |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    fresh = None
    for empty in args.empties:
        n = args.deals if empty == 12 else args.positions
        start = time.perf_counter()
        out = solvers.solve_open_batch(args.seed, n, empty=empty, threads=args.threads,
                                       one_at_a_time=args.one_at_a_time,
                                       timeout=args.timeout)
        wall = time.perf_counter() - start
        # lost and score are masked where a deal is undecided: counts and means are over
        # the solved deals.
        seconds, solved = out["seconds"], out["solved"]
        won = (~out["lost"]).compressed()
        mean = out["score"].compressed().mean() if solved.any() else float("nan")
        print(f"| {empty} | {n} | {np.median(seconds) * 1e3:.1f} ms | "
              f"{np.percentile(seconds, 95) * 1e3:.1f} ms | {seconds.max() * 1e3:.1f} ms | "
              f"{solved.mean():.1%} | {won.sum() / max(solved.sum(), 1):.1%} | {mean:.1f} |"
              f" <!-- wall {wall:.0f} s -->")
        if empty == 12:
            fresh = out
    print()
    return fresh


def fill_table(args) -> None:
    start = time.perf_counter()
    out = solvers.fill_open_batch(args.seed, args.fill_deals, threads=args.threads,
                                  timeout=args.timeout)
    wall = time.perf_counter() - start
    # winnable is masked where a deal is undecided: its sums and means are over the answered.
    solved, seconds = out["solved"], out["seconds"]
    winnable = out["winnable"].compressed()
    print(f"### Fresh deals that can be filled with the order known ({args.fill_deals} deals, "
          f"seed {args.seed})\n")
    print("| deals | answered | winnable | not winnable | median | p95 | max | max nodes |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    share = winnable.sum() / max(len(winnable), 1)
    print(f"| {len(solved)} | {solved.mean():.1%} | {winnable.sum()} ({share:.2%}) | "
          f"{(~winnable).sum()} | {np.median(seconds) * 1e6:.0f} µs | "
          f"{np.percentile(seconds, 95) * 1e6:.0f} µs | {seconds.max() * 1e3:.2f} ms | "
          f"{out['nodes'].max()} | <!-- wall {wall:.1f} s -->")
    print()


def score_table(out, width: int = 50) -> None:
    """The optimal scores of the solved deals of ``out``: percentiles, then a histogram in
    bins of ``width`` points from the lowest to the highest score."""
    solved = out["solved"]
    if not solved.any():
        print("### Optimal scores of fresh deals: none solved\n")
        return
    # The solved deals alone (lost and score are masked elsewhere), as plain arrays.
    scores = np.asarray(out["score"][solved])
    won = ~np.asarray(out["lost"][solved])
    print(f"### Optimal scores of {solved.sum()} solved fresh deals "
          f"({solved.mean():.1%} of {len(solved)})\n")
    print("| | deals | winnable | mean | min | p5 | p25 | median | p75 | p95 | max |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    # A loss ranks below every full grid: its score (the best loss) apart as well.
    rows = [("all", np.ones_like(won))]
    if not won.all():
        rows += [("grid filled", won), ("lost (best loss)", ~won)]
    for name, pick in rows:
        part = scores[pick]
        q = np.percentile(part, [5, 25, 50, 75, 95])
        print(f"| {name} | {pick.sum()} | {won[pick].mean():.1%} | {part.mean():.1f} | "
              f"{part.min()} | " + " | ".join(f"{v:.0f}" for v in q) + f" | {part.max()} |")
    print()
    low, high = int(scores.min()) // width * width, -(-(int(scores.max()) + 1) // width) * width
    edges = list(range(low, high + 1, width))
    counts, _ = np.histogram(scores, bins=edges)
    labels = [f"{a}..{b - 1}" for a, b in zip(edges, edges[1:])]
    print("| score | " + " | ".join(labels) + " |")
    print("|---|" + "---:|" * len(labels))
    print("| deals | " + " | ".join(str(c) for c in counts) + " |")
    print()


def policy_name(policy: str, args) -> str:
    return policy if policy == "greedy" else (
        f"best_move (samples {args.samples}, candidates {args.candidates}, "
        f"effort {args.effort})")


def policy_table(args) -> None:
    print(f"### Policies over {args.games} deals (seed {args.seed})\n")
    print("| policy | mean score | loss rate | mean score of wins | s per game |")
    print("|---|---:|---:|---:|---:|")
    for policy in ("greedy", "best_move"):
        start = time.perf_counter()
        out = solvers.play_batch(policy, args.seed, args.games, threads=args.threads,
                                 samples=args.samples, candidates=args.candidates,
                                 effort=args.effort)
        wall = time.perf_counter() - start
        lost, score = out["lost"], out["score"]
        wins = score[~lost].mean() if (~lost).any() else float("nan")
        print(f"| {policy_name(policy, args)} | {score.mean():.1f} | {lost.mean():.1%} | "
              f"{wins:.1f} | {out['seconds'].mean():.3f} | <!-- wall {wall:.0f} s -->")
    print()


def playout_table(args) -> None:
    game = quanta.game("quincunx", players=1)
    from quanta.reference import quincunx as reference_rules
    reference = reference_rules.game(**game.options)
    rng = random.Random(0)

    def reference_once():
        return 1, play_out(reference.new_state(), rng)

    b_games, _, b_time = timed(batch_playouts(game, 20_000), args.seconds)
    r_games, _, r_time = timed(reference_once, args.seconds)
    print("### Random solitaire playouts\n")
    print_against_reference("games/s (1 thread)", "Rust batch", b_games / b_time, r_games / r_time)


def strength_table(args) -> None:
    n = args.strength_deals
    start = time.perf_counter()
    # Which deals some line fills with the order known: fill_open answers exactly what
    # solve_open's lost does (solve_open decides it with the same search), in microseconds.
    fill = solvers.fill_open_batch(args.seed, n, threads=args.threads)
    assert fill["solved"].all(), "a fill question past its limits"
    fillable = np.asarray(fill["winnable"])
    lost_return = quanta.game("quincunx", players=1).info.min_return
    print(f"### Strength: the spread completed on the deals the order-known solver fills "
          f"({n} deals, seed {args.seed}; {fillable.sum()} fillable)\n")
    print("| player | completed, of the fillable | mean score | mean score of the completed |"
          " mean return | s per game |")
    print("|---|---:|---:|---:|---:|---:|")
    for policy in ("greedy", "best_move"):
        out = solvers.play_batch(policy, args.seed, n, threads=args.threads,
                                 samples=args.samples, candidates=args.candidates,
                                 effort=args.effort)
        completed = ~np.asarray(out["lost"])
        score = np.asarray(out["score"])
        returns = np.where(completed, score, lost_return)
        print(f"| {policy_name(policy, args)} | {completed[fillable].sum()} of {fillable.sum()} "
              f"({completed[fillable].mean():.2%}) | {score.mean():.1f} | "
              f"{score[completed].mean():.1f} | {returns.mean():.1f} | "
              f"{out['seconds'].mean():.2f} |")
    print(f"\n<!-- wall {time.perf_counter() - start:.0f} s -->\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10_000, help="fresh deals to solve open")
    parser.add_argument("--fill-deals", type=int, default=100_000,
                        help="fresh deals asked whether they can be filled")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per open solve")
    parser.add_argument("--empties", default="6,7,8,12",
                        help="empty cells to solve from, comma separated (12: fresh deal)")
    parser.add_argument("--positions", type=int, default=200,
                        help="positions per empty-cell count below 12")
    parser.add_argument("--games", type=int, default=1_000, help="deals per policy")
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--candidates", type=int, default=8)
    parser.add_argument("--effort", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--one-at-a-time", action="store_true",
                        help="solve_open one deal after another, each on all the threads")
    parser.add_argument("--seconds", type=float, default=3.0, help="per playout engine")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strength-deals", type=int, default=0,
                        help="fresh deals for the strength section (0: no such section)")
    parser.add_argument("--skip", default="", help="sections to skip: fill,solve,policy,playouts")
    args = parser.parse_args()
    args.empties = [int(e) for e in args.empties.split(",") if e]
    skip = set(args.skip.split(","))
    if "fill" not in skip:
        fill_table(args)
    if "solve" not in skip:
        fresh = solve_table(args)
        if fresh is not None:
            score_table(fresh)
    if "policy" not in skip:
        policy_table(args)
    if "playouts" not in skip:
        playout_table(args)
    if args.strength_deals:
        strength_table(args)


if __name__ == "__main__":
    main()
