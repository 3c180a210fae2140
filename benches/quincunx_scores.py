"""The distribution of optimal solitaire Quincunx scores with the draw order known, collected
deal by deal into a file that later runs extend.

    python benches/quincunx_scores.py [--deals N] [--seed SEED] [--max-nodes N] [--threads T]
                                      [--chunk N] [--file PATH] [--commit REV] [--width W]
                                      [--table-only]

Solves fresh deals ``0 .. --deals - 1`` of ``--seed`` open (``solve_open_batch``, one deal at
a time on ``--threads``), ``--chunk`` deals per call, and appends one line per deal to
``--file`` (tab separated: deal, solved, lost, score, nodes, seconds, commit), so that a run
stopped at any point loses at most one chunk and the next run goes on from there. A deal past
``--max-nodes`` is written unsolved, its lost and score fields empty (undecided: it claims
neither a loss nor a score; older lines holding 1 and 0 there read the same); a later run with a larger cap solves it again (the last
line of a deal is the one that counts). Every solved score is exact: the limit is in nodes,
not seconds, so what is solved does not depend on the machine's load.

Then prints the solve times and nodes of each build that wrote the file, and the table of
optimal scores of every solved deal in the file (the table
``benches/quincunx.py`` prints for its fresh deals, in bins of ``--width`` points), and which
of the deals past the cap cannot fill the grid at all (``fill_open``).
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import time

import numpy as np

from quanta import quincunx as solvers

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from quincunx import score_table  # noqa: E402  (the table of benches/quincunx.py)

FIELDS = ("deal", "solved", "lost", "score", "nodes", "seconds", "commit")
DEFAULT_FILE = pathlib.Path(__file__).parent / "data" / "quincunx_open_scores_seed0.tsv"


def read(path: pathlib.Path) -> dict[int, dict]:
    """The last line of each deal in ``path`` (none if the file is missing). An unsolved
    deal's ``lost`` and ``score`` are None, whatever its line holds there."""
    rows: dict[int, dict] = {}
    if not path.exists():
        return rows
    for line in path.read_text().splitlines():
        if not line or line.startswith("deal"):
            continue
        deal, solved, lost, score, nodes, seconds, commit = line.split("\t")
        decided = solved == "1"
        rows[int(deal)] = {"solved": decided, "lost": lost == "1" if decided else None,
                           "score": int(score) if decided else None, "nodes": int(nodes),
                           "seconds": float(seconds), "commit": commit}
    return rows


def field(value) -> str:
    """A lost or score entry of a batch as written to the file: empty when masked."""
    return "" if value is np.ma.masked else str(int(value))


def commit() -> str:
    """The commit of the source tree the extension was built from, as far as git knows."""
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=pathlib.Path(__file__).parent,
                              check=True).stdout.strip() or "unknown"
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def to_do(rows: dict[int, dict], deals: int, max_nodes: int | None) -> list[int]:
    """The deals below ``deals`` not solved yet and not already past this cap."""
    def done(row):
        return row["solved"] or (max_nodes is not None and row["nodes"] >= max_nodes)
    return [d for d in range(deals) if d not in rows or not done(rows[d])]


def fillable(seed: int):
    """Whether some line fills the grid of deal ``deal`` of ``seed`` (exact, ``fill_open``)."""
    return lambda deal: bool(solvers.fill_open_batch(seed, 1, first=deal)["winnable"][0])


def runs(deals: list[int]) -> list[tuple[int, int]]:
    """Consecutive deals as (first, count) pairs."""
    out: list[tuple[int, int]] = []
    for d in deals:
        if out and out[-1][0] + out[-1][1] == d:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((d, 1))
    return out


def collect(args) -> None:
    path = pathlib.Path(args.file)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_text("\t".join(FIELDS) + "\n")
    left = to_do(read(path), args.deals, args.max_nodes)
    built = args.commit or commit()
    print(f"{len(left)} deals to solve", file=sys.stderr)
    start = time.perf_counter()
    done = 0
    for first, count in runs(left):
        for at in range(first, first + count, args.chunk):
            n = min(args.chunk, first + count - at)
            out = solvers.solve_open_batch(args.seed, n, first=at, threads=args.threads,
                                           one_at_a_time=True, max_nodes=args.max_nodes)
            with path.open("a") as f:
                for i in range(n):
                    f.write(f"{at + i}\t{int(out['solved'][i])}\t{field(out['lost'][i])}\t"
                            f"{field(out['score'][i])}\t{out['nodes'][i]}\t"
                            f"{out['seconds'][i]:.3f}\t{built}\n")
            done += n
            print(f"{done}/{len(left)} deals, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr)


def table(args) -> None:
    rows = read(pathlib.Path(args.file))
    deals = sorted(d for d in rows if d < args.deals)
    if not deals:
        print("### Optimal scores: no deal in the file yet\n")
        return
    pick = [rows[d] for d in deals]
    solved = np.array([r["solved"] for r in pick])
    # As solve_open_batch gives them: lost and score masked where the deal is undecided.
    out = {"solved": solved,
           "lost": np.ma.masked_array([bool(r["lost"]) for r in pick], mask=~solved),
           "score": np.ma.masked_array([r["score"] or 0 for r in pick], mask=~solved)}
    seconds = np.array([r["seconds"] for r in pick])
    print(f"Deals 0..{deals[-1]} of seed {args.seed} in {pathlib.Path(args.file).name}: "
          f"{len(deals)} deals, "
          f"one solve at a time, median {np.median(seconds):.2f} s, "
          f"mean {seconds.mean():.2f} s\n")
    times_by_build(rows, deals)
    unsolved = [d for d in deals if not rows[d]["solved"]]
    if unsolved:
        # Whether a full grid is possible is cheap to know (fill_open) even where the best
        # score is not.
        lost = [d for d in unsolved if not fillable(args.seed)(d)]
        which = (f"of them {len(lost)} cannot fill the grid ({', '.join(map(str, lost))}): "
                 "a loss, its best score not computed" if lost else "each can fill the grid")
        print(f"Past the node cap: {len(unsolved)} deals ({', '.join(map(str, unsolved))}); "
              f"{which}.\n")
    score_table(out, width=args.width)


def times_by_build(rows: dict[int, dict], deals: list[int]) -> None:
    """Solve times and nodes per build (the build of each deal's line that counts), builds in
    the order of their first deal. Nodes do not depend on the machine's load; the times do."""
    builds: dict[str, list[dict]] = {}
    for d in deals:
        builds.setdefault(rows[d]["commit"], []).append(rows[d])
    print("| build | deals | median | p95 | over 10 s | median nodes | p95 nodes |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for build, pick in builds.items():
        seconds = np.array([r["seconds"] for r in pick])
        nodes = np.array([r["nodes"] for r in pick])
        print(f"| {build} | {len(pick)} | {np.median(seconds):.2f} s | "
              f"{np.percentile(seconds, 95):.2f} s | {np.mean(seconds > 10):.1%} | "
              f"{np.median(nodes) / 1e6:.2f} M | {np.percentile(nodes, 95) / 1e6:.2f} M |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-nodes", type=int, default=100_000_000,
                        help="nodes per deal before it is written unsolved")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--chunk", type=int, default=10, help="deals per batch call")
    parser.add_argument("--file", default=str(DEFAULT_FILE))
    parser.add_argument("--commit", default=None,
                        help="the commit the installed extension was built from "
                             "(default: the checkout's HEAD)")
    parser.add_argument("--width", type=int, default=20, help="points per histogram bin")
    parser.add_argument("--table-only", action="store_true", help="print the table, solve nothing")
    args = parser.parse_args()
    if args.seed != 0 and args.file == str(DEFAULT_FILE):
        args.file = str(DEFAULT_FILE).replace("seed0", f"seed{args.seed}")
    if not args.table_only:
        collect(args)
    table(args)


if __name__ == "__main__":
    main()
