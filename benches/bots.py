"""The bots: a league per game (every bot against every bot) and their speed.

    python benches/bots.py [--games 200] [--iterations 200] [--seed 0] [--threads N]
                           [--game NAME[:option=value,...]] ... [--speed-iterations 20000]
                           [--rollout random|greedy] [--solver-nodes N]
                           [--no-league] [--no-speed]

1. League: for each game (default: every registered game with its default options; repeat
   ``--game`` to choose, e.g. ``--game quantum_leap:size=4``), every pair of the bots Random,
   Greedy, MCTS and ISMCTS (``--iterations`` each, ``--rollout`` their rollouts,
   ``--solver-nodes`` their solver leaves) plays ``--games`` games through ``quanta.arena``
   (seats rotated, fixed ``--seed``), and the table gives the row bot's win share against the
   column bot with its 95 % Wilson interval, and each bot's mean return over all its games. A
   one-player game has no pairs: each bot plays ``--games`` games alone, and the table gives
   its mean return and how often it reached the game's highest return.
2. Speed: MCTS and ISMCTS iterations per second at the first decision of EinStein and of Quantum
   Leap side 5 (``--speed-iterations`` per choice, one thread); arena games per second of
   EinStein MCTS(100) against Random on 1 and 2 threads; and, where ``open_spiel`` is installed,
   OpenSpiel's Python ``MCTSBot`` (random rollouts) on its EinStein in the same run.
"""

from __future__ import annotations

import argparse
import itertools
import time

from _common import label, parse_game

import quanta
from quanta import bots
from quanta.arenas import wilson


def league(game: quanta.Game, players: dict[str, quanta.Bot], n: int, seed: int,
           threads: int | None) -> None:
    print(f"\n#### {label(game)}\n")
    names = list(players)
    if game.num_players == 1:
        # Alone, a bot has no one to beat: the table gives its mean return and how often it
        # reached the game's highest return (a win where returns are +1 and -1).
        best = game.info.max_return
        print(f"| bot | games | mean return [95 %] | return {best:g} reached [95 %] |\n"
              "|---|---:|---:|---:|")
        for name in names:
            r = quanta.arena(game, [players[name]], n, seed=seed, threads=threads)
            mine = r.returns[:, 0]
            half = 1.96 * mine.std(ddof=1) / len(mine) ** 0.5 if len(mine) > 1 else float("nan")
            top = int((mine == best).sum())
            lo, hi = wilson(top, len(mine))
            print(f"| {name} | {len(mine)} | {mine.mean():+.1f} [{mine.mean() - half:+.1f}, "
                  f"{mine.mean() + half:+.1f}] | {top / len(mine):.1%} [{lo:.0%}–{hi:.0%}] |")
        return
    share: dict[tuple[str, str], str] = {}
    totals = {name: [0.0, 0] for name in names}
    start = time.perf_counter()
    for a, b in itertools.combinations(names, 2):
        r = quanta.arena(game, [players[a], players[b]], n, seed=seed, threads=threads)
        for x, y, rec in ((a, b, r.summary[0]), (b, a, r.summary[1])):
            lo, hi = rec.win_interval
            share[x, y] = f"{rec.shares[0]:.0%} [{lo:.0%}–{hi:.0%}]"
            totals[x][0] += rec.mean_return * rec.games
            totals[x][1] += rec.games
    print("| row bot wins against → | " + " | ".join(names) + " | mean return |")
    print("|---|" + "---:|" * (len(names) + 1))
    for x in names:
        cells = [share.get((x, y), "—") for y in names]
        total, games = totals[x]
        print(f"| {x} | " + " | ".join(cells) + f" | {total / games:+.3f} |")
    print(f"\n({n} games a pair, {time.perf_counter() - start:.1f} s)")


def first_decision(game: quanta.Game, seed: int = 0) -> quanta.State:
    import random

    rng = random.Random(seed)
    s = game.new_state()
    while s.is_chance:
        actions, weights = zip(*s.chance_outcomes())
        s = s.play(rng.choices(actions, weights)[0])
    return s


def rate(call, count: int) -> float:
    start = time.perf_counter()
    call()
    return count / (time.perf_counter() - start)


def speed(iterations: int, seed: int) -> None:
    print("\n### Speed\n")
    print("| what | where | per second |\n|---|---|---:|")
    for game in (quanta.game("einstein"), quanta.game("quantum_leap", size=5)):
        s = first_decision(game, seed)
        for kind in ("MCTS", "ISMCTS"):
            bot = getattr(bots, kind)(iterations=iterations, seed=seed)
            print(f"| {kind} iterations | {label(game)}, first decision | "
                  f"{rate(lambda: bot.choose(s), iterations):,.0f} |")
    einstein = quanta.game("einstein")
    pair = [bots.MCTS(iterations=100, seed=seed), bots.Random(seed)]
    for threads in (1, 2):
        n = 400 * threads
        print(f"| arena games, MCTS(100) vs Random | einstein, {threads} thread(s) | "
              f"{rate(lambda: quanta.arena(einstein, pair, n, seed=seed, threads=threads), n):,.0f} |")
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        print("\nOpenSpiel is not installed here (`pip install open_spiel`): its row is left out.")
        return
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    sims = max(1, iterations // 10)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=sims,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    print(f"| OpenSpiel MCTSBot iterations (Python) | einstein_wurfelt_nicht, first decision | "
          f"{rate(lambda: bot.step(state), sims):,.0f} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--game", action="append", default=[])
    p.add_argument("--speed-iterations", type=int, default=20_000)
    p.add_argument("--rollout", choices=["random", "greedy"], default="random")
    p.add_argument("--solver-nodes", type=int, default=None)
    p.add_argument("--no-league", action="store_true")
    p.add_argument("--no-speed", action="store_true")
    a = p.parse_args()
    if not a.no_league:
        search = {"iterations": a.iterations, "seed": a.seed, "rollout": a.rollout,
                  "solver_nodes": a.solver_nodes}
        shown = ", ".join([str(a.iterations)] + [a.rollout] * (a.rollout != "random")
                          + [f"solver {a.solver_nodes}"] * (a.solver_nodes is not None))
        players = {"Random": bots.Random(a.seed), "Greedy": bots.Greedy(a.seed),
                   f"MCTS({shown})": bots.MCTS(**search),
                   f"ISMCTS({shown})": bots.ISMCTS(**search)}
        games = [parse_game(g) for g in a.game] or [quanta.game(n) for n in quanta.GAMES]
        print("### League")
        for game in games:
            league(game, players, a.games, a.seed, a.threads)
    if not a.no_speed:
        speed(a.speed_iterations, a.seed)


if __name__ == "__main__":
    main()
