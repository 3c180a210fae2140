"""What a long job costs and loses: the figures docs/jobs.md and benches/README.md quote.

    python benches/job_runs.py overhead [--games 10000000] [--rounds 2]
    python benches/job_runs.py kills [--kills 3] [--deals 2000]
    python benches/job_runs.py scaling [--deals 16]

``overhead``: an EinStein playout job of ``--games`` games on 1 thread, written part by part
(the default: parts of at most 1,000,000 games, sized to quanta.jobs.CHECKPOINT seconds), and
in as few parts as the sizing allows, against the same games played by
``quanta.batch.random_playouts`` in one call and written nowhere; best of ``--rounds``.

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


def overhead(games: int, rounds: int) -> None:
    g = quanta.game("einstein")
    ways = {
        "random_playouts, one call, written nowhere":
            lambda root: quanta.batch.random_playouts(g, games, seed=0, threads=1),
        "job, parts of at most 1,000,000 games (the default)":
            lambda root: jobs.run(jobs.playouts("einstein", games), root / "parts", threads=1),
        f"job, parts of up to {games:,} games (as few as the sizing allows)":
            lambda root: jobs.run(jobs.playouts("einstein", games, shard_size=games),
                                  root / "few", threads=1),
    }
    best: dict = {}
    for _ in range(rounds):  # taken in turn, so that the machine's load falls on each alike
        for name, way in ways.items():
            with tempfile.TemporaryDirectory() as root:
                start = time.perf_counter()
                done = way(pathlib.Path(root))
                seconds = time.perf_counter() - start
            parts = getattr(done, "parts", None)
            best[name] = min(best.get(name, (seconds, parts)), (seconds, parts))
    bare = next(iter(best.values()))[0]
    print(f"{games:,} EinStein playouts on 1 thread, best of {rounds}:")
    for name, (seconds, parts) in best.items():
        print(f"  {name}: {seconds:.2f} s" + (f" in {parts} parts, {seconds / bare - 1:+.0%}"
                                               if parts else ""))


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
            moment = rng.uniform(20, 90)
            time.sleep(moment)
            process.send_signal(signal.SIGKILL)
            process.wait()
            killed = time.time()
            last = max([p.stat().st_mtime for p in _parts(out)] + [began])
            lost.append(killed - max(last, began))
            print(f"killed at {killed - began:5.1f} s (drawn: {moment:.1f} s): "
                  f"{len(_parts(out))} parts on disk, "
                  f"{lost[-1]:.1f} s of work lost")
    print(f"work lost at a kill: mean {sum(lost) / len(lost):.1f} s, most {max(lost):.1f} s "
          f"({count} kills)")


def _cpu(executor) -> float:
    """The CPU seconds the cluster's worker processes have used so far."""
    return sum(executor._client.run(time.process_time).values())


def scaling(deals: int) -> None:
    job = jobs.table("quincunx_open", deals)
    seconds, cpu = {}, {}
    with tempfile.TemporaryDirectory() as root:
        for workers in (1, 2):
            with jobs.dask_executor(local_cluster=workers) as executor:
                before = _cpu(executor)
                report = jobs.run(job, pathlib.Path(root) / str(workers), executor=executor,
                                  threads=1)
                cpu[workers] = _cpu(executor) - before
            seconds[workers] = report.seconds
            print(f"{workers} worker(s): {deals} deals in {report.seconds:.1f} s, "
                  f"{cpu[workers]:.1f} CPU s in the workers")
    per_deal = seconds[1] / deals
    speedup = seconds[1] / seconds[2]
    efficiency = speedup / 2
    print(f"per deal on one worker: {per_deal:.2f} s of wall time, {cpu[1] / deals:.2f} s of "
          f"CPU; 1 -> 2 workers: {speedup:.2f}x ({efficiency:.0%} efficiency)")
    for cost, what in ((per_deal, "wall"), (cpu[1] / deals, "CPU")):
        hours = [100_000 * cost / (cores * efficiency) / 3600 for cores in (2, 32)]
        print(f"100,000 deals from the {what} time a deal: {hours[0]:.1f} h on 2 cores, "
              f"{hours[1]:.1f} h on 32")
    print(f"load average now: {os.getloadavg()[0]:.1f} (on {os.cpu_count()} cores)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    o = sub.add_parser("overhead")
    o.add_argument("--games", type=int, default=10_000_000)
    o.add_argument("--rounds", type=int, default=2)
    k = sub.add_parser("kills")
    k.add_argument("--kills", type=int, default=3)
    k.add_argument("--deals", type=int, default=2000)
    sub.add_parser("scaling").add_argument("--deals", type=int, default=16)
    a = parser.parse_args()
    if a.what == "overhead":
        overhead(a.games, a.rounds)
    elif a.what == "kills":
        kills(a.kills, a.deals)
    else:
        scaling(a.deals)


if __name__ == "__main__":
    main()
