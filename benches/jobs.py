"""Batch jobs three ways: here on 1 thread, here on 2 threads, and on a Dask LocalCluster of 2
worker processes (1 thread each).

    python benches/jobs.py [--games 10000000] [--shard-size 500000] [--positions 1000]
                           [--timeout 30] [--stones 36] [--seed 0]

1. A playout job: ``--games`` random EinStein games in parts of at most ``--shard-size``.
2. A solve job: ``--positions`` Quantum Leap side-5 positions with ``--stones`` stones (setup
   A, no swap, reached by random play from random deals drawn with ``--seed``), each solved
   within ``--timeout`` seconds, at most 50 positions a part.

For each: wall seconds, rows per second, and the ratio to the 1-thread local run. The three
playout runs must write the same Parquet rows, and the solve runs the same value for every
position all three solved (checked here). Needs ``quanta[dask]``.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import tempfile
import time

import quanta
from quanta import jobs

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _common import deal  # noqa: E402  (the shared bench helpers)


def positions(n: int, seed: int, stones: int) -> list[str]:
    rng = random.Random(seed)
    g = quanta.game("quantum_leap", size=5, setup="A")
    out = []
    while len(out) < n:
        s = deal(g, rng)
        s = s.play(s.parse_action("no swap"))
        while not s.is_terminal and s.notation().split()[0].count("w") + \
                s.notation().split()[0].count("b") > stones:
            s = s.play(rng.choice(s.legal_actions()))
        if not s.is_terminal:
            out.append(s.notation())
    return out


def three_ways(label: str, job: jobs.Job, unit: str) -> None:
    results = []
    with tempfile.TemporaryDirectory() as root:
        root = pathlib.Path(root)
        for how, threads in (("local, 1 thread", 1), ("local, 2 threads", 2)):
            start = time.perf_counter()
            jobs.run(job, root / how, threads=threads)
            results.append((how, time.perf_counter() - start, jobs.read(root / how)))
        start = time.perf_counter()
        with jobs.dask_executor(local_cluster=2) as executor:
            ready = time.perf_counter()
            jobs.run(job, root / "dask", executor=executor, threads=1)
            ran = time.perf_counter()
        results.append((f"LocalCluster, 2 workers (+{ready - start:.1f} s to start)",
                        ran - ready, jobs.read(root / "dask")))
        if job.kind == "solve":
            # Time limits may end a solve in one run and not in another, and a losing
            # position's move is whichever the solver tried last: compare the values of the
            # positions every run solved.
            solved = [{r["position"]: r["value"] for r in t.to_pylist() if not r["error"]}
                      for _, _, t in results]
            common = set.intersection(*(set(x) for x in solved))
            assert all(x[i] == solved[0][i] for x in solved for i in common), "values differ"
            unsolved = [t.num_rows - len(x) for (_, _, t), x in zip(results, solved)]
        else:
            assert all(r[2].equals(results[0][2]) for r in results[1:]), "the runs differ"
            unsolved = None
    base = results[0][1]
    print(f"## {label}\n")
    extra = " | unsolved in time" if unsolved else ""
    print(f"| run | seconds | {unit}/s | time ÷ 1-thread local{extra} |")
    print("|---|---:|---:|---:|" + ("---:|" if unsolved else ""))
    for k, (how, seconds, table) in enumerate(results):
        print(f"| {how} | {seconds:.1f} | {table.num_rows / seconds:,.0f} | "
              f"{seconds / base:.2f}" + (f" | {unsolved[k]}" if unsolved else "") + " |")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000_000)
    ap.add_argument("--shard-size", type=int, default=500_000)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--stones", type=int, default=36)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    three_ways(f"{args.games:,} EinStein playouts, parts of at most {args.shard_size:,}",
               jobs.playouts("einstein", args.games, seed=args.seed, shard_size=args.shard_size),
               "games")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(positions(args.positions, args.seed, args.stones)) + "\n")
    three_ways(f"{args.positions:,} Quantum Leap side-5 positions ({args.stones} stones) solved",
               jobs.solve("quantum_leap", f.name, options={"size": 5},
                          timeout=args.timeout, shard_size=50), "positions")


if __name__ == "__main__":
    main()
