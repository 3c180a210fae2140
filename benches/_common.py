"""What the benchmark scripts share: drawing chance outcomes, random playouts, timing loops and
the table of a Rust rate against the pure-Python reference's."""

from __future__ import annotations

import itertools
import random
import time

import quanta
from quanta.batch import random_playouts


def chance_step(state, rng: random.Random):
    """The state after a chance outcome of ``state`` drawn by its odds."""
    actions, weights = zip(*state.chance_outcomes())
    return state.play(rng.choices(actions, weights)[0])


def deal(game, rng: random.Random):
    """A new state of ``game`` after its chance events, drawn by their odds: the first decision
    (or the end)."""
    state = game.new_state()
    while state.is_chance:
        state = chance_step(state, rng)
    return state


def play_out(state, rng: random.Random) -> int:
    """One random game over any object with the State protocol; returns its steps."""
    steps = 0
    while not state.is_terminal:
        if state.is_chance:
            state = chance_step(state, rng)
        else:
            state = state.play(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def timed(run_once, seconds: float) -> tuple[int, int, float]:
    """Calls ``run_once() -> (games, steps)`` until ``seconds`` have passed."""
    games = steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        g, s = run_once()
        games += g
        steps += s
    return games, steps, elapsed


def batch_playouts(game, games_per_call: int):
    """A ``run_once`` for :func:`timed`: ``games_per_call`` random playouts of ``game`` in one
    Rust batch on one thread, with seed 0 on the first call, 1 on the next, and so on (steps
    are not counted)."""
    seeds = itertools.count()

    def run_once() -> tuple[int, int]:
        out = random_playouts(game, games_per_call, seed=next(seeds), threads=1)
        return len(out["length"]), 0

    return run_once


def print_against_reference(
    rate: str, rust_engine: str, rust_rate: float, reference_rate: float
) -> None:
    """A markdown table of the ``rate`` of ``rust_engine`` and of the reference, and their
    ratio."""
    print(f"| engine | {rate} |")
    print("|---|---:|")
    print(f"| {rust_engine} | {rust_rate:,.0f} |")
    print(f"| reference | {reference_rate:,.0f} |")
    print(f"| ratio | {rust_rate / reference_rate:,.0f}× |")
    print()


def parse_game(text: str) -> quanta.Game:
    """``NAME`` or ``NAME:KEY=VALUE,...`` (e.g. ``quantum_leap:size=4``) as a game."""
    name, _, rest = text.partition(":")
    options = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    return quanta.game(name, **options)


def label(game: quanta.Game) -> str:
    """The game's name with every option, for a table's heading."""
    shown = ", ".join(f"{k}={v}" for k, v in game.options.items())
    return f"{game.name} ({shown})"
