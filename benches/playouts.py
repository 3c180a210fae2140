"""Random playouts three ways, in one run, reported as ratios.

    python benches/playouts.py [--game NAME ...] [--seconds S]

* batch:     quanta.batch.random_playouts on one thread (Rust end to end);
* python:    a Python loop over the Rust State (legal_actions + play per step);
* reference: the pure-Python reference rules (quanta.reference.<game>).

Each way runs for about ``--seconds`` and reports games/s and steps/s (a step is one action,
chance outcomes included); the ratios compare the ways within this one run, so a busy machine
slows all three alike.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import random
import sys

import quanta

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _common import batch_playouts, play_out, timed  # noqa: E402  (the shared bench helpers)


def bench(name: str, seconds: float) -> dict[str, float]:
    game = quanta.game(name)
    reference = importlib.import_module(f"quanta.reference.{name}").game(**game.options)
    rng = random.Random(0)
    b_games, _, b_time = timed(batch_playouts(game, 200_000), seconds)
    p_games, p_steps, p_time = timed(lambda: (1, play_out(game.new_state(), rng)), seconds)
    r_games, r_steps, r_time = timed(lambda: (1, play_out(reference.new_state(), rng)), seconds)
    return {
        "batch games/s": b_games / b_time,
        "python-loop games/s": p_games / p_time,
        "python-loop steps/s": p_steps / p_time,
        "reference games/s": r_games / r_time,
        "reference steps/s": r_steps / r_time,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=quanta.GAMES)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print("| game | batch games/s (1 thread) | Python-loop steps/s | reference games/s "
          "| batch ÷ reference | batch ÷ Python loop |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in args.game or quanta.GAMES:
        r = bench(name, args.seconds)
        print(f"| {name} | {r['batch games/s']:,.0f} | {r['python-loop steps/s']:,.0f} "
              f"| {r['reference games/s']:,.0f} "
              f"| {r['batch games/s'] / r['reference games/s']:,.0f}× "
              f"| {r['batch games/s'] / r['python-loop games/s']:,.0f}× |")


if __name__ == "__main__":
    main()
