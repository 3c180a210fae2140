"""How closely the registered solvers and the bots keep their time limits.

    python benches/time_limits.py [--timeout T] [--bot-timeout B] [--positions N] [--seed S]

For every registered game (``quanta.GAMES``, with its default options, or those its solver
needs where it needs some, as ``quanta.solvers.SOLVERS`` states them) it times, wall clock
from Python, on ``--positions`` seeded random games:

* ``quanta.solve(state, timeout=T)`` (the game's registered solver) at the first decision it
  takes: how far past ``T`` each search a limit stopped (undecided) ended; those that finished
  first are counted apart;
* ``quanta.bots.Best(timeout=B).choose(state)`` and ``MCTS(timeout=B)`` (``ISMCTS`` for a game
  with hidden information) at the first decision: how far past ``B`` each choice ended.

It prints the median and the largest overshoot per row, in milliseconds and as a share of the
limit, and whether the largest is within 5 % or 50 ms, whichever is larger.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import quanta
from quanta import NotApplicableError, SearchLimitError, bots
from quanta.solvers import SOLVERS

from _common import chance_step, deal


def overshoots(run, positions, limit: float) -> tuple[list[float], int]:
    """The seconds past ``limit`` of ``run(state)`` on each position that did not finish
    first (``run`` says whether it did, or None: ended before the limit), and how many
    finished first."""
    past, finished = [], 0
    for state in positions:
        start = time.perf_counter()
        done = run(state)
        elapsed = time.perf_counter() - start
        if done or (done is None and elapsed < limit):
            finished += 1
        else:
            past.append(elapsed - limit)
    return past, finished


def applicable(game, seed: int):
    """The first decision of a random game of ``game`` (drawn with ``seed``) that the game's
    registered solver takes, or None if the game ends first."""
    rng = random.Random(seed)
    state = game.new_state()
    while not state.is_terminal:
        if not state.is_chance:
            try:
                quanta.solve(state, max_nodes=1)
                return state
            except NotApplicableError:
                pass
            except SearchLimitError:
                return state
        state = (chance_step(state, rng) if state.is_chance
                 else state.play(rng.choice(state.legal_actions())))
    return None


def row(name: str, limit: float, past: list[float], finished: int) -> str:
    if not past:
        return f"| {name} | {limit:g} s | {finished} | 0 | | | |"
    worst, middle = max(past), statistics.median(past)
    allowed = max(0.05 * limit, 0.05)
    kept = "kept" if worst <= allowed else f"past {allowed * 1e3:.0f} ms"
    return (f"| {name} | {limit:g} s | {finished} | {len(past)} | {middle * 1e3:+.1f} ms "
            f"| {worst * 1e3:+.1f} ms ({worst / limit:+.1%}) | {kept} |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=1.0, help="the solvers' limit")
    parser.add_argument("--bot-timeout", type=float, default=0.1, help="the bots' limit")
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print("| what | limit | finished first | stopped by the limit | median past it "
          "| most past it | within 5 % or 50 ms |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name in quanta.GAMES:
        solver = SOLVERS[name]
        game = quanta.game(name)
        if not applicable(game, args.seed):  # it needs other options (open hands, solitaire)
            game = quanta.game(name, **solver.options)
        rng = random.Random(args.seed)
        positions = [s for s in (applicable(game, rng.randrange(2**32))
                                 for _ in range(args.positions)) if s is not None]

        def solved(state) -> bool:
            return quanta.solve(state, timeout=args.timeout).value is not None

        print(row(f"{name}: `quanta.solve` ({solver.function})", args.timeout,
                  *overshoots(solved, positions, args.timeout)))
        plain = quanta.game(name)
        rng = random.Random(args.seed)
        positions = [s for s in (deal(plain, rng) for _ in range(args.positions))
                     if not s.is_terminal]
        search = bots.ISMCTS if plain.info.information == "imperfect" else bots.MCTS
        for bot in (bots.Best(timeout=args.bot_timeout),
                    search(timeout=args.bot_timeout, iterations=None)):
            def chose(state, bot=bot) -> None:
                bot.choose(state)
            label = f"{name}: `{bot!r}`"
            print(row(label, args.bot_timeout, *overshoots(chose, positions, args.bot_timeout)))


if __name__ == "__main__":
    main()
