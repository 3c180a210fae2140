"""The ``quanta`` command."""

from __future__ import annotations

import time

import click
import numpy as np
from tqdm import tqdm

import quanta
from quanta.batch import random_playouts


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(quanta.__version__, prog_name="quanta")
def main() -> None:
    """Rules engines, batch simulation and solvers for the quanta games."""


class _Integer(click.IntRange):
    """An integer from ``low`` to ``high``; anything else is a one-line usage error (exit 2)
    that says what is expected, e.g. "must be an integer from 1 to 1024, not 0"."""

    name = "integer"

    def __init__(self, low: int, high: int, high_text: str | None = None) -> None:
        super().__init__(low, high)
        self.expected = f"an integer from {low} to {high_text or high}"

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"must be {self.expected}, not {value}", param, ctx)

    def get_metavar(self, *args, **kwargs) -> str:
        return "INTEGER"


@main.command()
@click.option(
    "--games",
    "-n",
    type=_Integer(1, 2**40, "2**40"),
    default=100_000,
    show_default=True,
    help="Random games per game.",
)
@click.option(
    "--seed",
    type=_Integer(0, 2**64 - 1, "2**64-1"),
    default=0,
    show_default=True,
    help="Seed of the random games.",
)
@click.option(
    "--threads",
    type=_Integer(1, 1024),
    default=None,
    help="Worker threads [default: all cores].",
)
@click.option(
    "--game",
    "names",
    multiple=True,
    type=click.Choice(quanta.GAMES),
    help="Analyse only this game (repeatable; a repeat counts once) [default: every game].",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def analyze(games: int, seed: int, threads: int | None, names: tuple[str, ...], quiet: bool) -> None:
    """Play random games of every game and tabulate lengths, results and speed."""
    rows = []
    for name in dict.fromkeys(names or quanta.GAMES):
        g = quanta.game(name)
        rows.append(_summary(g, *_play(g, games, seed, threads, quiet)))
    click.echo(_table(rows))


# Games per call of random_playouts: the progress bar's step, and all the memory analyze needs.
_PIECE = 50_000


class _Tally:
    """Running sums over played games, so memory stays the same at any number of games.

    A game counts as won by the player with the single highest return, else as a draw."""

    def __init__(self, players: int) -> None:
        self.games = 0
        self.plies = 0
        self.wins = [0] * players
        self.draws = 0
        self.returns = [0.0] * players

    def add(self, returns: np.ndarray, length: np.ndarray) -> None:
        leaders = returns == returns.max(axis=1, keepdims=True)
        single = leaders.sum(axis=1) == 1
        self.games += len(length)
        self.plies += int(length.sum(dtype=np.int64))
        self.draws += int((~single).sum())
        for p, total in enumerate(returns.sum(axis=0)):
            self.wins[p] += int((leaders[:, p] & single).sum())
            self.returns[p] += float(total)


def _play(g: quanta.Game, n: int, seed: int, threads: int | None, quiet: bool):
    """Plays ``n`` random games in pieces (for the progress bar and constant memory) and folds
    each piece into a :class:`_Tally`; the pieces are the games of one call."""
    piece = max(1, min(n, _PIECE))
    tally, seconds = _Tally(g.num_players), 0.0
    with tqdm(total=n, desc=g.name, unit="games", disable=quiet, leave=False) as bar:
        for first in range(0, n, piece):
            count = min(piece, n - first)
            start = time.perf_counter()
            out = random_playouts(g, count, seed=seed, threads=threads, first=first)
            seconds += time.perf_counter() - start
            tally.add(out["returns"], out["length"])
            del out
            bar.update(count)
    return tally, seconds


def _summary(g: quanta.Game, tally: _Tally, seconds: float) -> dict:
    n = tally.games
    return {
        "game": g.name,
        "games": n,
        "mean plies": f"{tally.plies / n:.2f}",
        "wins": " / ".join(f"{100 * w / n:.1f}%" for w in tally.wins),
        "draws": f"{100 * tally.draws / n:.1f}%",
        "mean returns": " / ".join(f"{r / n:+.3f}" for r in tally.returns),
        "games/s": f"{n / seconds:,.0f}" if seconds > 0 else "-",
    }


def _table(rows: list[dict]) -> str:
    headers = list(rows[0])
    cells = [[str(r[h]) for h in headers] for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    line = lambda values: "  ".join(v.rjust(w) if i else v.ljust(w) for i, (v, w) in enumerate(zip(values, widths)))  # noqa: E731
    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, cells)])


if __name__ == "__main__":
    main()
