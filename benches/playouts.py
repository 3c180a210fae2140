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
import random
import time

import quanta
from quanta.batch import random_playouts


def timed(run_once, seconds: float) -> tuple[int, int, float]:
    """Calls ``run_once() -> (games, steps)`` until ``seconds`` have passed."""
    games = steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        g, s = run_once()
        games += g
        steps += s
    return games, steps, elapsed


def play_out(state, rng: random.Random) -> int:
    """One random game over any object with the State protocol; returns its steps."""
    steps = 0
    while not state.is_terminal:
        if state.is_chance:
            actions, weights = zip(*state.chance_outcomes())
            state = state.play(rng.choices(actions, weights)[0])
        else:
            state = state.play(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def bench(name: str, seconds: float) -> dict[str, float]:
    game = quanta.game(name)
    reference = importlib.import_module(f"quanta.reference.{name}").game(**game.options)
    rng = random.Random(0)
    chunk = [0]

    def batch_once():
        out = random_playouts(game, 200_000, seed=chunk[0], threads=1)
        chunk[0] += 1
        return len(out["length"]), 0

    b_games, _, b_time = timed(batch_once, seconds)
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
