"""A plain Python game loop over quanta's EinStein states against the same loop over OpenSpiel's.

    python benches/python_loop.py [--games N] [--repeats R] [--seed S]

Each way plays ``--games`` random games of EinStein würfelt nicht from the start, in the loop a
Python program writes against either library, with a ``random.Random`` seeded by ``--seed``:

* quanta:                ``is_terminal`` / ``is_chance`` / ``chance_outcomes`` /
                         ``legal_actions`` / ``play`` (a new state each step);
* pyspiel child:         ``is_terminal()`` / ``is_chance_node()`` / ``chance_outcomes()`` /
                         ``legal_actions()`` / ``child(a)`` (a new state each step: the
                         closest to ``play``);
* pyspiel apply_action:  the same with ``apply_action(a)`` on one state per game (in place).

Two loops, each over the three ways:

* weighted: at a chance node, ``chance_outcomes()`` and ``rng.choices(actions, weights)``;
  elsewhere ``rng.choice(legal_actions())``;
* four calls: ``rng.choice(legal_actions())`` at every node, chance nodes too (both libraries
  list a chance node's outcomes as its legal actions, and EinStein's are all equally likely,
  so the games are drawn from the same odds): the loop of ``is_terminal`` / ``is_chance`` /
  ``legal_actions`` / ``play`` alone.

The ways take turns within each of ``--repeats`` rounds, so a busy machine slows them alike.
It prints games/s and plies/s (a ply is one ``play``, chance outcomes included) per way as
min / median / max over the rounds, and quanta's rate over each pyspiel way's, round by round.
OpenSpiel (``pip install open_spiel``) is optional: without it only quanta's rows are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import quanta

try:
    import pyspiel
except ImportError:  # OpenSpiel is not a dependency of quanta
    pyspiel = None


def quanta_loop(game, games: int, rng: random.Random, weighted: bool) -> int:
    """``games`` random games over quanta states; returns the plies played."""
    plies = 0
    for _ in range(games):
        s = game.new_state()
        while not s.is_terminal:
            if s.is_chance and weighted:
                actions, weights = zip(*s.chance_outcomes())
                a = rng.choices(actions, weights)[0]
            else:
                a = rng.choice(s.legal_actions())
            s = s.play(a)
            plies += 1
    return plies


def pyspiel_child_loop(game, games: int, rng: random.Random, weighted: bool) -> int:
    """The same loop over OpenSpiel states, ``child(a)`` making a new state each ply."""
    plies = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node() and weighted:
                actions, weights = zip(*s.chance_outcomes())
                a = rng.choices(actions, weights)[0]
            else:
                a = rng.choice(s.legal_actions())
            s = s.child(a)
            plies += 1
    return plies


def pyspiel_apply_loop(game, games: int, rng: random.Random, weighted: bool) -> int:
    """The same loop over OpenSpiel states, ``apply_action(a)`` changing one state in place."""
    plies = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node() and weighted:
                actions, weights = zip(*s.chance_outcomes())
                a = rng.choices(actions, weights)[0]
            else:
                a = rng.choice(s.legal_actions())
            s.apply_action(a)
            plies += 1
    return plies


def spread(values: list[float]) -> str:
    return f"{min(values):,.0f} / {statistics.median(values):,.0f} / {max(values):,.0f}"


def ratio_spread(values: list[float]) -> str:
    return f"{min(values):.2f}× / {statistics.median(values):.2f}× / {max(values):.2f}×"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per way per round")
    parser.add_argument("--repeats", type=int, default=5, help="rounds")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    ways = {"quanta": (quanta_loop, quanta.game("einstein"))}
    if pyspiel is not None:
        spiel_game = pyspiel.load_game("einstein_wurfelt_nicht")
        ways["pyspiel child"] = (pyspiel_child_loop, spiel_game)
        ways["pyspiel apply_action"] = (pyspiel_apply_loop, spiel_game)
    for title, weighted in LOOPS.items():
        run(title, weighted, ways, args)


LOOPS = {
    "weighted (chance drawn from chance_outcomes by its odds)": True,
    "four calls (every node drawn from legal_actions)": False,
}


def run(title: str, weighted: bool, ways: dict, args: argparse.Namespace) -> None:
    games_per_s: dict[str, list[float]] = {name: [] for name in ways}
    plies_per_s: dict[str, list[float]] = {name: [] for name in ways}
    for round_ in range(args.repeats):
        for name, (loop, game) in ways.items():
            rng = random.Random(args.seed + round_)
            start = time.perf_counter()
            plies = loop(game, args.games, rng, weighted)
            elapsed = time.perf_counter() - start
            games_per_s[name].append(args.games / elapsed)
            plies_per_s[name].append(plies / elapsed)

    print(f"### {title}")
    print()
    print(f"EinStein, {args.games:,} random games per way per round, {args.repeats} rounds "
          "(min / median / max).")
    print()
    print("| loop | games/s | plies/s |")
    print("|---|---:|---:|")
    for name in ways:
        print(f"| {name} | {spread(games_per_s[name])} | {spread(plies_per_s[name])} |")
    print()
    if pyspiel is None:
        print("OpenSpiel is not installed (pip install open_spiel): no pyspiel rows.")
        print()
        return
    print("| quanta ÷ | games/s | plies/s |")
    print("|---|---:|---:|")
    for name in ways:
        if name == "quanta":
            continue
        by_games = [q / p for q, p in zip(games_per_s["quanta"], games_per_s[name])]
        by_plies = [q / p for q, p in zip(plies_per_s["quanta"], plies_per_s[name])]
        print(f"| {name} | {ratio_spread(by_games)} | {ratio_spread(by_plies)} |")
    print()


if __name__ == "__main__":
    main()
