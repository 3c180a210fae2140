"""The analysis ``quanta analyze`` prints, as a library: random play of a game folded into its
figures at constant memory, a game's registered solver on late positions of random games, and
a bot against a random player (:func:`bot_figures`).

>>> import quanta
>>> from quanta import analysis
>>> analysis.playout_figures(quanta.game("einstein"), 1000, seed=1)["games"]
1000

Each function returns plain numbers (a dict), which ``quanta analyze --json`` prints as they
are and its table formats.
"""

from __future__ import annotations

import random
import time

import numpy as np

import quanta

from . import bots as _bots
from .arenas import arena
from .batch import random_playouts
from .solvers import SOLVERS, solve

__all__ = ["Tally", "bot_figures", "late_position", "playout_figures", "solver_figures"]

#: Games per call of random_playouts: the progress bar's step, and all the memory a
#: :func:`playout_figures` call needs at any number of games.
PIECE = 50_000


def _bar(total: int, desc: str, unit: str, progress: bool):
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]  # as in quanta.cli

    return tqdm(total=total, desc=desc, unit=unit, disable=not progress, leave=False)


class Tally:
    """Running sums over played games, so memory stays the same at any number of games.

    A game counts as won by the player with the single highest return, else as a draw; in a
    cooperative game (``together``) as won by every seat when the return is positive, else as
    lost (never a draw)."""

    def __init__(self, players: int, together: bool = False) -> None:
        self.together = together
        self.games = 0
        self.plies = 0
        self.wins = [0] * players
        self.draws = 0
        self.returns = [0.0] * players

    def add(self, returns: np.ndarray, length: np.ndarray) -> None:
        if self.together:  # one team: every seat wins (a positive return) or none does
            leaders = np.repeat(returns[:, :1] > 0, returns.shape[1], axis=1)
            single = np.ones(len(length), dtype=bool)
        else:
            leaders = returns == returns.max(axis=1, keepdims=True)
            single = leaders.sum(axis=1) == 1
        self.games += len(length)
        self.plies += int(length.sum(dtype=np.int64))
        self.draws += int((~single).sum())
        for p, total in enumerate(returns.sum(axis=0)):
            self.wins[p] += int((leaders[:, p] & single).sum())
            self.returns[p] += float(total)


def playout_figures(g: quanta.Game, n: int, *, seed: int = 0, threads: int | None = None,
                    progress: bool = False) -> dict:
    """``n`` random games of ``g`` (as :func:`quanta.batch.random_playouts` plays them, in
    pieces of :data:`PIECE` games folded into a :class:`Tally`, so memory stays constant):
    ``games``, ``mean_plies``, ``wins`` (share per seat; in a cooperative game the team's),
    ``draws``, ``mean_returns`` and ``games_per_second``."""
    piece = max(1, min(n, PIECE))
    tally, seconds = Tally(g.num_players, g.info.utility == "cooperative"), 0.0
    with _bar(n, g.name, "games", progress) as bar:
        for first in range(0, n, piece):
            count = min(piece, n - first)
            start = time.perf_counter()
            out = random_playouts(g, count, seed=seed, threads=threads, first=first)
            seconds += time.perf_counter() - start
            tally.add(out["returns"], out["length"])
            del out
            bar.update(count)
    return {
        "game": g.name,
        "games": tally.games,
        "mean_plies": tally.plies / tally.games,
        "wins": [w / tally.games for w in tally.wins],
        "draws": tally.draws / tally.games,
        "mean_returns": [r / tally.games for r in tally.returns],
        "games_per_second": tally.games / seconds if seconds > 0 else None,
    }


def random_decisions(g: quanta.Game, rng: random.Random) -> list[quanta.State]:
    """The decisions of one game of ``g`` played with uniformly random moves (chance by its
    odds), in order."""
    state, trail = g.new_state(), []
    while not state.is_terminal:
        if state.is_chance:
            outcomes = state.chance_outcomes()
            state = state.play(rng.choices([a for a, _ in outcomes],
                                            [p for _, p in outcomes])[0])
            continue
        trail.append(state)
        state = state.play(rng.choice(state.legal_actions()))
    return trail


def late_position(g: quanta.Game, rng: random.Random) -> quanta.State:
    """A decision position from the last third of a random game (chance by its odds)."""
    while True:
        trail = random_decisions(g, rng)
        if trail:
            return trail[rng.randrange(2 * len(trail) // 3, len(trail))]


def solver_figures(name: str, n: int, *, seed: int = 0, limits: dict | None = None,
                   threads: int | None = None, progress: bool = False) -> dict:
    """The game's registered solver (:data:`quanta.solvers.SOLVERS`) on ``n`` late positions
    of random games of its solvable form, each within ``limits`` (``timeout``, ``max_nodes``):
    how many it answers ``exact``-ly, how many only as ``estimates``, how many it leaves
    ``undecided`` (and of those ``undecided_over_time``), the median and worst seconds, and
    the ``mean_value`` over the answered positions (None when none was), with what the value
    means."""
    limits = {"timeout": None, "max_nodes": None, **(limits or {})}
    solver = SOLVERS[name]
    g = quanta.game(name, **solver.options)
    rng = random.Random(seed)
    seconds: list[float] = []
    values: list[float] = []
    counts = {"exact": 0, "estimate": 0, "undecided": 0, "over time": 0}
    with _bar(n, f"{name} solver", "solves", progress) as bar:
        while len(seconds) < n:
            state = late_position(g, rng)
            try:
                a = solve(state, threads=threads, **limits)
            except quanta.NotApplicableError:
                continue  # not the solver's kind of position (e.g. a stage-one turn)
            seconds.append(a.seconds or 0.0)
            if a.value is None:
                counts["undecided"] += 1
                counts["over time"] += "time limit" in (a.reason or "")
            else:
                values.append(a.value)
                counts["exact" if a.exact else "estimate"] += 1
            bar.update()
    options = ", ".join(f"{k}={v}" for k, v in solver.options.items())
    return {
        "game": name + (f" ({options})" if options else ""),
        "solver": solver.function,
        "value": solver.value,
        "positions": n,
        "exact": counts["exact"],
        "estimates": counts["estimate"],
        "undecided": counts["undecided"],
        "undecided_over_time": counts["over time"],
        "timeout": limits["timeout"],
        "max_nodes": limits["max_nodes"],
        "median_seconds": float(np.median(seconds)) if seconds else None,
        "max_seconds": float(max(seconds)) if seconds else None,
        "mean_value": float(np.mean(values)) if values else None,
    }


def bot_figures(g: quanta.Game, n: int, *, seed: int = 0, threads: int | None = None,
                bot: quanta.Bot | None = None) -> dict:
    """``bot`` (default ``MCTS(iterations=100)``) against a random player over ``n`` games of
    ``g`` in :func:`quanta.arena` (seats rotated): the ``bot``'s and ``opponent``'s names,
    ``games``, the bot's ``wins``, ``draws`` and ``losses`` shares with the 95 % interval of its
    wins (all None in a game of one player that is not cooperative: each game has one bot
    alone, with no one to beat), both ``mean_returns`` and ``games_per_second``."""
    bot = _bots.MCTS(iterations=100, seed=seed) if bot is None else bot
    opponent = _bots.Random(seed=seed)
    start = time.perf_counter()
    r = arena(g, [bot, opponent], n, seed=seed, threads=threads)
    seconds = time.perf_counter() - start
    mine, theirs = r.summary
    shares = mine.shares or (None, None, None)  # None: no game with a result (one player)
    return {
        "game": g.name,
        "bot": repr(bot),
        "opponent": repr(opponent),
        "games": n,
        "wins": shares[0],
        "draws": shares[1],
        "losses": shares[2],
        "wins_interval": list(mine.win_interval) if mine.decided else None,
        "mean_returns": [mine.mean_return, theirs.mean_return],
        "games_per_second": n / seconds if seconds > 0 else None,
    }
