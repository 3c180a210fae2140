"""What the framework environments of quanta.interop cost: steps per second of a random-play
loop through each against the same loop on the bare quanta API, measured in one run.

    python benches/interop.py [--seconds S] [--repeats R] [--num-envs N] [--seed S]

Sections (each a function of :data:`SECTIONS`; a framework that is not installed is reported
as skipped):

* PettingZoo: the AEC environment (``quanta.interop.pettingzoo.env``; ``agent_iter`` /
  ``last`` / a random legal action from the mask / ``step``) against the bare loop
  (``legal_actions`` / ``play``, chance drawn from ``chance_outcomes``), and the Rust batch
  (``vector_env``, ``--num-envs`` games per ``step``, actions drawn with numpy), on EinStein
  and three-player Quincunx;
* Gymnasium: ``QuantaEnv`` (``reset`` / ``step`` with a random legal action from
  ``info["action_mask"]``) against the bare loop, and the vector environment (``make_vec``,
  ``--num-envs`` games per ``step``), on Quincunx solitaire and solo Quantum Repair Unit;
* OpenSpiel: quanta's game as an OpenSpiel Python game (``quanta.interop.openspiel.load``;
  ``is_chance_node`` / ``legal_actions`` / ``apply_action``) against the bare loop, on
  EinStein and Quincunx.

A step is one decision (chance outcomes are not counted); a batch's rows are timed with the
numpy draw of the actions and, "step calls alone", without it. The ways take turns within each of
``--repeats`` rounds of about ``--seconds`` each, so a busy machine slows them alike; the
table gives the median steps/s and, per round, the bare loop's rate over each way's
(min / median / max): the overhead factor of the framework.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import quanta

#: A way to play: called with a time budget and a seed, it plays random games and returns
#: the decisions it made and the seconds they took.
Way = Callable[[float, int], tuple[int, float]]


def games_for(one_game: Callable[[random.Random], int]) -> Way:
    """The way that plays ``one_game(rng)`` (which returns its decisions) again and again
    until the time is up."""

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() < start + seconds:
            steps += one_game(rng)
        return steps, time.perf_counter() - start

    return run


def bare_loop(name: str, **options) -> Way:
    """The loop a program writes on the bare API: a new state per step."""
    game = quanta.game(name, **options)

    def one_game(rng: random.Random) -> int:
        steps = 0
        s = game.new_state()
        while not s.is_terminal:
            if s.is_chance:
                actions, weights = zip(*s.chance_outcomes())
                s = s.play(rng.choices(actions, weights)[0])
            else:
                s = s.play(rng.choice(s.legal_actions()))
                steps += 1
        return steps

    return games_for(one_game)


def aec_loop(name: str, **options) -> Way:
    from quanta.interop import pettingzoo as qpz

    env = qpz.env(name, **options)

    def one_game(rng: random.Random) -> int:
        steps = 0
        env.reset(seed=rng.randrange(2**32))
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(observation["action_mask"])))
            steps += 1
        return steps

    return games_for(one_game)


def gym_loop(name: str, **options) -> Way:
    from quanta.interop import gymnasium as qgym

    env = qgym.QuantaEnv(quanta.game(name, **options))

    def one_game(rng: random.Random) -> int:
        steps = 0
        _, info = env.reset(seed=rng.randrange(2**32))
        terminated = False
        while not terminated:
            a = rng.choice(np.flatnonzero(info["action_mask"]))
            _, _, terminated, _, info = env.step(a)
            steps += 1
        return steps

    return games_for(one_game)


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action for each row of ``masks``, for the whole batch at once:
    the k-th legal action of each row, k drawn below the row's count."""
    counts = masks.sum(axis=1, dtype=np.int32)
    k = (rng.random(len(masks)) * counts).astype(np.int32)
    return (masks.cumsum(axis=1, dtype=np.int32) <= k[:, None]).sum(axis=1)


def batch_loop(
    make: Callable[[], Any], masks_of: Callable[[Any], np.ndarray], draw: bool = True
) -> Way:
    """A Rust batch made by ``make``: a random legal action per game drawn with numpy
    (:func:`random_legal`) from the masks ``masks_of(last result)`` gives, one ``step`` for
    the whole batch. ``draw=False`` times the ``step`` calls alone."""
    env = make()

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = np.random.default_rng(seed)
        out = env.reset(seed=seed)
        steps = 0
        stepping = 0.0
        start = time.perf_counter()
        end = start + seconds
        while time.perf_counter() < end:
            masks = masks_of(out)
            actions = random_legal(masks, rng)
            t = time.perf_counter()
            out = env.step(actions)
            stepping += time.perf_counter() - t
            steps += len(masks)
        return steps, (time.perf_counter() - start) if draw else stepping

    return run


def measure(title: str, ways: dict[str, Way], args: argparse.Namespace) -> None:
    """Runs ``ways`` (the first is the bare loop) in turns and prints the table."""
    rates: dict[str, list[float]] = {name: [] for name in ways}
    for round_ in range(args.repeats):
        for name, way in ways.items():
            steps, seconds = way(args.seconds, args.seed + round_)
            rates[name].append(steps / seconds)
    bare = next(iter(ways))
    print(f"### {title}")
    print()
    print("| way | steps/s (median) | bare ÷ way (min / median / max) |")
    print("|---|---:|---:|")
    for name in ways:
        ratios = [b / r for b, r in zip(rates[bare], rates[name])]
        print(f"| {name} | {statistics.median(rates[name]):,.0f} | "
              f"{min(ratios):.2f}× / {statistics.median(ratios):.2f}× / {max(ratios):.2f}× |")
    print()


def available(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def pettingzoo_section(args: argparse.Namespace) -> None:
    if not available("pettingzoo"):
        print("PettingZoo is not installed (pip install quanta[pettingzoo]): skipped.\n")
        return
    from quanta.interop import pettingzoo as qpz

    for name, options in [("einstein", {}), ("quincunx", {"players": 3})]:
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        measure(f"PettingZoo, {label}", {
            "bare quanta API": bare_loop(name, **options),
            "PettingZoo AEC env": aec_loop(name, **options),
            f"Rust batch, {args.num_envs} games, 1 thread": batch_loop(
                lambda: qpz.vector_env(name, args.num_envs, threads=1, **options),
                lambda out: out[0]["action_mask"]),
            f"Rust batch, {args.num_envs} games, 1 thread, step calls alone": batch_loop(
                lambda: qpz.vector_env(name, args.num_envs, threads=1, **options),
                lambda out: out[0]["action_mask"], draw=False),
        }, args)


def gymnasium_section(args: argparse.Namespace) -> None:
    if not available("gymnasium"):
        print("Gymnasium is not installed (pip install quanta[gymnasium]): skipped.\n")
        return
    from quanta.interop import gymnasium as qgym

    for env_id, (name, options) in qgym.ENVS.items():
        measure(f"Gymnasium, {env_id}", {
            "bare quanta API": bare_loop(name, **options),
            "Gymnasium env": gym_loop(name, **options),
            f"vector env, {args.num_envs} games, 1 thread": batch_loop(
                lambda: qgym.make_vec(name, args.num_envs, threads=1, **options),
                lambda out: out[-1]["action_mask"]),
            f"vector env, {args.num_envs} games, 1 thread, step calls alone": batch_loop(
                lambda: qgym.make_vec(name, args.num_envs, threads=1, **options),
                lambda out: out[-1]["action_mask"], draw=False),
            f"vector env, {args.num_envs} games, all cores, step calls alone": batch_loop(
                lambda: qgym.make_vec(name, args.num_envs, **options),
                lambda out: out[-1]["action_mask"], draw=False),
        }, args)


def openspiel_section(args: argparse.Namespace) -> None:
    if not available("pyspiel"):
        print("OpenSpiel is not installed (pip install quanta[openspiel]): skipped.\n")
        return
    from quanta.interop import openspiel

    def spiel_loop(name: str) -> Way:
        """The same loop on quanta's game as an OpenSpiel Python game (in place)."""
        game = openspiel.load(name)

        def one_game(rng: random.Random) -> int:
            steps = 0
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    actions, weights = zip(*s.chance_outcomes())
                    s.apply_action(rng.choices(actions, weights)[0])
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
                    steps += 1
            return steps

        return games_for(one_game)

    for name in ("einstein", "quincunx"):
        measure(f"OpenSpiel, {name}", {
            "bare quanta API": bare_loop(name),
            "pyspiel Python game": spiel_loop(name),
        }, args)


#: The sections, in order; one more framework is one more function here.
SECTIONS = [pettingzoo_section, gymnasium_section, openspiel_section]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per way per round")
    parser.add_argument("--repeats", type=int, default=3, help="rounds")
    parser.add_argument("--num-envs", type=int, default=256, help="games of a batch")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for section in SECTIONS:
        section(args)


if __name__ == "__main__":
    main()
