"""EinStein würfelt nicht: quanta's speed against OpenSpiel's C++ in one run, taking turns.

    python benches/speed_vs_openspiel.py [--rounds R] [--seconds S] [--iterations N]

Two measures, each as a ratio of rates taken in the same round (the two sides alternate within
each of ``--rounds`` rounds, so a busy machine slows them alike):

* **random playouts**, games per second on one thread: quanta's
  ``quanta.batch.random_playouts(game, n, seed=k, threads=1)`` against OpenSpiel's
  ``pyspiel.evaluate_bots`` over ``einstein_wurfelt_nicht`` with two
  ``make_uniform_random_bot`` (the game loop in C++, one Python call a game);
* **MCTS**, iterations per second at the first decision (both setups and the first roll drawn
  with a seeded ``random.Random``): ``quanta.bots.MCTS(iterations=N, seed=k).choose(state)``
  against ``pyspiel.MCTSBot(game, RandomRolloutEvaluator(1, k), 2.0, N, ...)``'s ``step`` (the
  C++ MCTS with one random rollout a leaf, as quanta's). Each side runs ``--positions``
  positions a round.

It prints, for each measure, each side's rate and quanta's over OpenSpiel's as min / median /
max over the rounds. OpenSpiel is needed: ``pip install open_spiel``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pyspiel

import quanta
from quanta import bots
from quanta.batch import random_playouts


def quanta_playouts(game, seconds: float, round_: int) -> float:
    """Random games a second of quanta's batch on one thread."""
    games, calls = 0, 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        games += len(random_playouts(game, 20_000, seed=1000 * round_ + calls,
                                     threads=1)["length"])
        calls += 1
    return games / elapsed


def openspiel_playouts(game, seconds: float, round_: int) -> float:
    """Random games a second of OpenSpiel's ``evaluate_bots`` with uniform random bots."""
    players = [pyspiel.make_uniform_random_bot(p, round_ * 2 + p) for p in range(2)]
    games = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(200):
            pyspiel.evaluate_bots(game.new_initial_state(), players, games)
            games += 1
    return games / elapsed


def first_decisions(count: int, seed: int):
    """``count`` pairs of the same first decision in both libraries: the setups and the first
    roll drawn alike, by outcome index (both list a chance node's outcomes in the same order:
    the 720 arrangements, then the six rolls)."""
    ours, theirs = quanta.game("einstein"), pyspiel.load_game("einstein_wurfelt_nicht")
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        q, o = ours.new_state(), theirs.new_initial_state()
        while q.is_chance:
            outcomes = q.chance_outcomes()
            k = rng.randrange(len(outcomes))
            q = q.play(outcomes[k][0])
            o.apply_action(o.chance_outcomes()[k][0])
        assert not o.is_chance_node() and o.legal_actions(), "both at a decision"
        pairs.append((q, o))
    return pairs


def quanta_mcts(pairs, iterations: int, round_: int) -> float:
    start = time.perf_counter()
    for k, (state, _) in enumerate(pairs):
        bots.MCTS(iterations=iterations, seed=round_ * len(pairs) + k).choose(state)
    return iterations * len(pairs) / (time.perf_counter() - start)


def openspiel_mcts(pairs, iterations: int, round_: int) -> float:
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    start = time.perf_counter()
    for k, (_, state) in enumerate(pairs):
        seed = round_ * len(pairs) + k
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, iterations,
                              1000, False, seed, False)
        bot.step(state)
    return iterations * len(pairs) / (time.perf_counter() - start)


def spread(values) -> str:
    return (f"{statistics.median(values):,.0f} ({min(values):,.0f}-{max(values):,.0f})"
            if values[0] >= 100 else
            f"{statistics.median(values):.2f}× ({min(values):.2f}-{max(values):.2f})")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="playouts: seconds a side a round")
    parser.add_argument("--iterations", type=int, default=20_000,
                        help="MCTS: iterations a search")
    parser.add_argument("--positions", type=int, default=5,
                        help="MCTS: first decisions a side a round")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    ours, theirs = quanta.game("einstein"), pyspiel.load_game("einstein_wurfelt_nicht")
    pairs = first_decisions(args.positions, args.seed)
    rows = {"playouts": ([], []), "mcts": ([], [])}
    for r in range(args.rounds):
        q = quanta_playouts(ours, args.seconds, r)
        o = openspiel_playouts(theirs, args.seconds, r)
        rows["playouts"][0].append(q)
        rows["playouts"][1].append(o)
        o = openspiel_mcts(pairs, args.iterations, r)
        q = quanta_mcts(pairs, args.iterations, r)
        rows["mcts"][0].append(q)
        rows["mcts"][1].append(o)
    print(f"| measure | quanta | OpenSpiel C++ | quanta ÷ OpenSpiel |")
    print("|---|---:|---:|---:|")
    for name, unit in (("playouts", "games/s, one thread"),
                       ("mcts", f"iterations/s, MCTS({args.iterations:,}) at a first decision")):
        q, o = rows[name]
        ratios = [a / b for a, b in zip(q, o)]
        print(f"| {name}: {unit} | {spread(q)} | {spread(o)} | {spread(ratios)} |")
    print(f"\n{args.rounds} rounds, medians (min-max); quanta {quanta.__version__}, "
          f"OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else '?'}")


if __name__ == "__main__":
    main()
