"""Strength: bots against each other over many games, with 95 % intervals.

    python benches/strength.py [--games 400] [--seed 0] [--threads N]
                               [--game NAME[:option=value,...]] ...
                               [--bot KIND[:KEY=VALUE,...]] ...

For each game (default: every registered game with its default options; repeat ``--game`` to
choose, e.g. ``--game quincunx:players=2``), the bots (default: ``best:timeout=0.1`` and
``mcts:iterations=1000``; repeat ``--bot`` to choose, in the syntax of ``quanta job league``)
play ``--games`` games through ``quanta.arena`` with the seats rotated game by game and a
fixed ``--seed``. With two players or more, each bot's line gives its win, draw and loss
shares with 95 % Wilson intervals and its mean return. In a one-player game each bot plays
``--games`` games alone, and its line gives how often it won (reached the game's highest
return, or completed the game where a loss sits below every completed score) and its mean
return with a 95 % interval.
"""

from __future__ import annotations

import argparse
import time

from _common import label, parse_game

import quanta
from quanta.arenas import wilson
from quanta.cli import _bots


def interval(values) -> str:
    mean = values.mean()
    half = 1.96 * values.std(ddof=1) / len(values) ** 0.5 if len(values) > 1 else float("nan")
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def alone(game: quanta.Game, bot: quanta.Bot, n: int, seed: int, threads: int | None) -> str:
    r = quanta.arena(game, [bot], n, seed=seed, threads=threads)
    mine = r.returns[:, 0]
    won = int((mine > 0).sum()) if game.info.utility == "cooperative" else None
    if won is None:  # a scoring solitaire: a completed game is any return above a loss's
        won = int((mine > game.info.min_return).sum())
    lo, hi = wilson(won, len(mine))
    return (f"| {bot!r} | {len(mine)} | {won / len(mine):.1%} [{lo:.1%}–{hi:.1%}] | "
            f"{interval(mine)} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--game", action="append", default=[])
    p.add_argument("--bot", action="append", default=[])
    a = p.parse_args()
    players = _bots(None, None, tuple(a.bot or ["best:timeout=0.1", "mcts:iterations=1000"]))
    games = [parse_game(g) for g in a.game] or [quanta.game(n) for n in quanta.GAMES]
    for game in games:
        start = time.perf_counter()
        print(f"\n#### {label(game)}\n")
        if game.num_players == 1:
            print("| bot | games | won [95 %] | mean return [95 %] |\n|---|---:|---:|---:|")
            for bot in players:
                print(alone(game, bot, a.games, a.seed, a.threads))
        else:
            r = quanta.arena(game, players, a.games, seed=a.seed, threads=a.threads)
            print("| bot | games | win [95 %] | draw | loss | mean return |\n"
                  "|---|---:|---:|---:|---:|---:|")
            for rec in r.summary:
                lo, hi = rec.win_interval
                win, draw, loss = rec.shares if rec.shares else (float("nan"),) * 3
                print(f"| {rec.bot!r} | {rec.games} | {win:.1%} [{lo:.1%}–{hi:.1%}] | "
                      f"{draw:.1%} | {loss:.1%} | {rec.mean_return:+.3f} |")
        print(f"\n({a.games} games, {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
