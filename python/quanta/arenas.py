"""``quanta.arena`` (this module: ``quanta.arenas``): bots against each other, many games at once in the Rust core.

>>> import quanta
>>> from quanta import bots
>>> r = quanta.arena("einstein", [bots.MCTS(iterations=50), bots.Random()], 10, seed=1)
>>> r.returns.shape, r.seats[:2].tolist()
((10, 2), [[0, 1], [1, 0]])
>>> sum(r.summary[0].shares) == 1.0
True

**Seats.** With ``k`` bots, seat ``i`` of game ``g`` is played by bot ``(i + g) % k``: the bots
take turns in every seat, game by game. Fewer bots than seats: a bot plays several seats of a
game; more bots than seats: some sit a game out.

**Partners.** In a partnership game (A Quantum Leap with ``teams="partners"``) the sides take
the place of the seats: side ``i`` of game ``g`` (seats 0 and 1 are side 0, seats 2 and 3 side
1) is played by bot ``(i + g) % k`` in both its seats, and a side's result (its seats share one
return, the team's total) is counted once: in ``games``, the mean return and the wins, draws
and losses. ``returns`` and ``seats`` still have a column per seat.

**Win, draw, loss.** In each game a bot takes part in, its result is the best return among the
seats it holds. It *wins* when that is the game's highest return and no other bot's seat
reached it; it *draws* when another bot's seat reached it too; it *loses* otherwise. In a
two-player game this is the usual win/draw/loss. A game with no other bot in it (a game of one
player, say) has no one to beat and gives no result: the bot's record counts it in ``games``
and its mean return, not in ``decided``. A cooperative game (``g.info.utility ==
"cooperative"``: one team, one return) is won by every bot in it when the return is positive
and lost otherwise, never drawn.

**Ratings.** With two bots or more, each bot gets an Elo-style rating: a Bradley-Terry model
fitted (by its minorization-maximization iteration) to every pair of bots' results in the games
both played (a draw half a win each, and one draw between every pair added as a prior so that
an unbeaten bot has a finite rating), scaled as Elo (400 log10) with mean 0, rounded to a tenth
of a point. One bot alone in a game of more players (not cooperative) is refused: it would
hold every seat, with no one to beat.

The results depend only on the game, the bots, ``n`` and ``seed``, never on ``threads``
(except with a bot stopped by the clock: ``bot.timed``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np

import quanta

from ._core import Bot
from .exceptions import InvalidOptionError
from ._core import arena as _arena

__all__ = ["ArenaResult", "BotRecord", "arena", "wilson"]

#: The normal quantile of a two-sided 95 % interval.
_Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a share of ``successes`` in ``n``;
    (0, 1) when ``n`` is 0."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # The bounds are 0 and 1 exactly for shares of 0 and 1 (rounding would leave them off).
    low = 0.0 if successes == 0 else max(0.0, center - half)
    high = 1.0 if successes == n else min(1.0, center + half)
    return (min(low, p), max(high, p))


@dataclass(frozen=True)
class BotRecord:
    """One bot's record in an arena (see the module's docs for win, draw and loss)."""

    bot: Bot
    #: Games it took part in.
    games: int
    #: Its mean return over the seats it held (NaN if none).
    mean_return: float
    wins: int
    draws: int
    losses: int
    #: 95 % Wilson intervals of the win, draw and loss shares.
    win_interval: tuple[float, float]
    draw_interval: tuple[float, float]
    loss_interval: tuple[float, float]
    #: Elo-style rating (mean 0 over the bots); None with a single bot.
    rating: float | None

    @property
    def decided(self) -> int:
        """Games with a result (``wins + draws + losses``): all but those it played with no
        other bot in a game that is not cooperative."""
        return self.wins + self.draws + self.losses

    @property
    def shares(self) -> tuple[float, float, float] | None:
        """The win, draw and loss shares of its games with a result (``decided``); None when
        it has none."""
        n = self.decided
        return (self.wins / n, self.draws / n, self.losses / n) if n else None


@dataclass(frozen=True)
class ArenaResult:
    """What :func:`arena` played."""

    game: str
    bots: tuple[Bot, ...]
    #: ``n × players`` float64: each seat's return in each game.
    returns: np.ndarray = field(repr=False)
    #: ``n × players`` uint32: the bot (its index in ``bots``) in each seat.
    seats: np.ndarray = field(repr=False)
    #: ``n`` int32: decisions per game (chance outcomes excluded).
    lengths: np.ndarray = field(repr=False)
    #: One record per bot, in the order of ``bots``.
    summary: tuple[BotRecord, ...]
    #: With ``record=True``: each game's actions from its start, chance outcomes included, so
    #: that any game can be replayed (``state = state.play(a)`` for each); otherwise None.
    actions: tuple[tuple[int, ...], ...] | None = field(default=None, repr=False)

    def __str__(self) -> str:
        n = len(self.lengths)
        mean_length = float(self.lengths.mean()) if n else float("nan")
        lines = [f"{self.game}: {n} games, {mean_length:.1f} decisions on average"]
        rated = len(self.bots) > 1
        header = f"  {'bot':<38} {'games':>6} {'mean':>7} {'win':>17} {'draw':>17} {'loss':>17}"
        lines.append(header + ("   rating" if rated else ""))
        for r in self.summary:
            name = repr(r.bot)
            if len(name) > 38:
                name = name[:37] + "…"
            shares = r.shares
            cells = ["—"] * 3 if shares is None else [
                f"{share:5.1%} [{lo:4.0%},{hi:4.0%}]"
                for share, (lo, hi) in zip(shares, (r.win_interval, r.draw_interval,
                                                    r.loss_interval))
            ]
            line = (f"  {name:<38} {r.games:>6} {r.mean_return:>+7.3f} "
                    + " ".join(f"{c:>17}" for c in cells))
            if rated and r.rating is not None:
                line += f" {r.rating:>+8.0f}"
            lines.append(line)
        return "\n".join(lines)


def _bradley_terry(wins: np.ndarray, iterations: int = 1000) -> np.ndarray:
    """Elo-style ratings (mean 0) from ``wins[a, b]``, the (half-counted for draws) games bot
    ``a`` won against ``b``; one draw between every pair is added as a prior."""
    k = len(wins)
    w = wins + 0.5 * (1 - np.eye(k))
    games = w + w.T
    strength = np.ones(k)
    for _ in range(iterations):
        total = w.sum(axis=1)
        denominator = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = total / denominator
        new /= math.exp(np.log(new).mean())
        if np.allclose(new, strength, rtol=1e-10, atol=0):
            strength = new
            break
        strength = new
    ratings = 400 * np.log10(strength)
    return ratings - ratings.mean()


def _summary(bots: tuple[Bot, ...], returns: np.ndarray, seats: np.ndarray,
             cooperative: bool) -> tuple[BotRecord, ...]:
    k = len(bots)
    n = len(returns)
    top = returns.max(axis=1) if n else np.zeros(0)
    best, present = [], []
    records = []
    for b in range(k):
        mine = seats == b
        has = mine.any(axis=1)
        own_best = np.where(mine, returns, -np.inf).max(axis=1) if n else np.zeros(0)
        others = np.where(mine, -np.inf, returns).max(axis=1) if n else np.zeros(0)
        if cooperative:
            win = has & (own_best > 0)
            draw = np.zeros_like(has)
            loss = has & ~win
        else:
            with_others = has & (~mine).any(axis=1)
            at_top = with_others & (own_best == top)
            win = at_top & (others < top)
            draw = at_top & ~win
            loss = with_others & ~at_top
        games = int(has.sum())
        decided = int((win | draw | loss).sum())
        held = returns[mine]
        best.append(own_best)
        present.append(has)
        records.append(BotRecord(
            bot=bots[b], games=games,
            mean_return=float(held.mean()) if held.size else float("nan"),
            wins=int(win.sum()), draws=int(draw.sum()), losses=int(loss.sum()),
            win_interval=wilson(int(win.sum()), decided),
            draw_interval=wilson(int(draw.sum()), decided),
            loss_interval=wilson(int(loss.sum()), decided),
            rating=None,
        ))
    if k > 1:
        pair_wins = np.zeros((k, k))
        for a in range(k):
            for b in range(k):
                if a != b:
                    both = present[a] & present[b]
                    pair_wins[a, b] = ((best[a] > best[b]) & both).sum() \
                        + 0.5 * ((best[a] == best[b]) & both).sum()
        # Rounded to a tenth of a point (no -0.0): the fit's last digits are noise, and a
        # rating of 0 reads as 0, not 3.97551983423659e-09.
        records = [replace(r, rating=round(float(x), 1) + 0.0)
                   for r, x in zip(records, _bradley_terry(pair_wins))]
    return tuple(records)


def arena(game: quanta.Game | str, bots: Sequence[Bot], n: int, *, seed: int = 0,
          threads: int | None = None, record: bool = False) -> ArenaResult:
    """Plays ``n`` games of ``game`` (a game or its name) from the start between ``bots``
    (from :mod:`quanta.bots`), seats rotated game by game, on ``threads`` Rust threads (None:
    every core) with the GIL released; Ctrl-C interrupts it. Each decision is the acting bot's
    ``choose`` in that state, exactly as a caller gets it; the chance outcomes are drawn from
    ``seed``. With ``record`` the result keeps every game's actions. See the module's docs
    for the seats, the results and the ratings."""
    if isinstance(game, str):
        game = quanta.game(game)
    if (isinstance(game, quanta.Game) and isinstance(bots, (list, tuple)) and len(bots) == 1
            and game.num_players > 1 and game.info.utility != "cooperative"):
        raise InvalidOptionError(
            f"bots must be two or more for {game.name} with {game.num_players} players: one "
            f"bot would hold every seat, with no one to beat and no result (give it an "
            f"opponent, e.g. quanta.bots.Random())"
        )
    columns = _arena(game, bots, n, seed, threads, record)  # refuses anything but a list of bots
    recorded = columns.get("actions")
    returns, seats = columns["returns"], columns["seats"]
    players = tuple(bots)
    # One column per side: a partnership's seats share one result, counted once.
    sides = [int(side) for side in columns["sides"]]
    counted = [seat for seat, side in enumerate(sides) if side not in sides[:seat]]
    return ArenaResult(game=game.name, bots=players, returns=returns, seats=seats,
                       lengths=columns["length"],
                       summary=_summary(players, returns[:, counted], seats[:, counted],
                                        game.info.utility == "cooperative"),
                       actions=None if recorded is None else tuple(map(tuple, recorded)))
