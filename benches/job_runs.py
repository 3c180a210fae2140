"""What a long job costs and loses: the figures docs/jobs.md and benches/README.md quote.

    python benches/job_runs.py overhead [--games 10000000]
    python benches/job_runs.py kills [--kills 3] [--deals 2000]
    python benches/job_runs.py scaling [--deals 16]

``overhead``: an EinStein playout job of ``--games`` games on 1 thread, written part by part
(parts sized to quanta.jobs.CHECKPOINT seconds), against the same games played by
``quanta.batch.random_playouts`` in one call and written nowhere.

``kills``: the solitaire Quincunx table (``quincunx_open``, fresh deals) run by ``quanta job
table`` with its defaults (every core), SIGKILLed ``--kills`` times at a random moment 20 to
90 s after it starts; each time, the work lost is the time since the last part was written
(the run computes one part at a time). That the rerun computes only the rows not on disk is
tests/surface/test_job_runs.py's.

``scaling``: ``--deals`` deals of the same table on a Dask LocalCluster of 1 worker, then of 2
(1 thread each): the seconds per deal on one worker, and the speed-up from 1 to 2 workers;
with them the hours of the 100,000-deal table on this machine and, assuming the efficiency
from 1 to 2 workers holds, on 32.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import signal
import subprocess
import sys
import tempfile
import time

import quanta
from quanta import jobs


def overhead(games: int) -> None:
    g = quanta.game("einstein")
    start = time.perf_counter()
    quanta.batch.random_playouts(g, games, seed=0, threads=1)
    bare = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as root:
        report = jobs.run(jobs.playouts("einstein", games), pathlib.Path(root) / "out",
                          threads=1)
    print(f"{games:,} EinStein playouts, 1 thread: random_playouts {bare:.2f} s; job "
          f"{report.seconds:.2f} s in {report.parts} parts: overhead "
          f"{report.seconds / bare - 1:+.1%}")


def _parts(out: pathlib.Path) -> list[pathlib.Path]:
    return list(out.glob("part-*.parquet"))


def kills(count: int, deals: int) -> None:
    rng = random.Random()
    with tempfile.TemporaryDirectory() as root:
        out = pathlib.Path(root) / "quincunx-open"
        args = [sys.executable, "-m", "quanta.cli", "job", "table", "quincunx_open",
                "--deals", str(deals), "--out", str(out), "-q"]
        lost = []
        for _ in range(count):
            process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
            began = time.time()
            time.sleep(rng.uniform(20, 90))
            process.send_signal(signal.SIGKILL)
            process.wait()
            killed = time.time()
            last = max([p.stat().st_mtime for p in _parts(out)] + [began])
            lost.append(killed - max(last, began))
            print(f"killed at {killed - began:5.1f} s: {len(_parts(out))} parts on disk, "
                  f"{lost[-1]:.1f} s of work lost")
    print(f"work lost at a kill: mean {sum(lost) / len(lost):.1f} s, most {max(lost):.1f} s "
          f"({count} kills)")


def scaling(deals: int) -> None:
    job = jobs.table("quincunx_open", deals)
    seconds = {}
    with tempfile.TemporaryDirectory() as root:
        for workers in (1, 2):
            with jobs.dask_executor(local_cluster=workers) as executor:
                report = jobs.run(job, pathlib.Path(root) / str(workers), executor=executor,
                                  threads=1)
            seconds[workers] = report.seconds
            print(f"{workers} worker(s): {deals} deals in {report.seconds:.1f} s")
        rows = jobs.read(pathlib.Path(root) / "1")
    per_deal = seconds[1] / deals
    speedup = seconds[1] / seconds[2]
    efficiency = speedup / 2
    print(f"per deal on one worker: {per_deal:.2f} s (mean solve {sum(rows.column('seconds').to_pylist()) / deals:.2f} s); "
          f"1 -> 2 workers: {speedup:.2f}x ({efficiency:.0%} efficiency)")
    for cores in (2, 32):
        hours = 100_000 * per_deal / (cores * efficiency) / 3600
        print(f"100,000 deals on {cores} cores: {hours:.1f} h")
    print(f"load average now: {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("overhead").add_argument("--games", type=int, default=10_000_000)
    k = sub.add_parser("kills")
    k.add_argument("--kills", type=int, default=3)
    k.add_argument("--deals", type=int, default=2000)
    sub.add_parser("scaling").add_argument("--deals", type=int, default=16)
    a = parser.parse_args()
    if a.what == "overhead":
        overhead(a.games)
    elif a.what == "kills":
        kills(a.kills, a.deals)
    else:
        scaling(a.deals)


if __name__ == "__main__":
    main()
