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


@main.command()
@click.option("--games", "-n", default=100_000, show_default=True, help="Random games per game.")
@click.option("--seed", default=0, show_default=True, help="Seed of the random games.")
@click.option("--threads", type=int, default=None, help="Worker threads [default: all cores].")
@click.option(
    "--game",
    "names",
    multiple=True,
    type=click.Choice(quanta.GAMES),
    help="Analyse only this game (repeatable) [default: every game].",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def analyze(games: int, seed: int, threads: int | None, names: tuple[str, ...], quiet: bool) -> None:
    """Play random games of every game and tabulate lengths, results and speed."""
    if games < 1:
        raise click.BadParameter("must be at least 1", param_hint="--games")
    rows = []
    for name in names or quanta.GAMES:
        g = quanta.game(name)
        returns, length, seconds = _play(g, games, seed, threads, quiet)
        rows.append(_summary(g, returns, length, seconds))
    click.echo(_table(rows))


def _play(g: quanta.Game, n: int, seed: int, threads: int | None, quiet: bool):
    """Plays ``n`` random games in pieces (for the progress bar); the pieces equal one call."""
    piece = max(1, min(n, 50_000))
    returns, length, seconds = [], [], 0.0
    with tqdm(total=n, desc=g.name, unit="games", disable=quiet, leave=False) as bar:
        for first in range(0, n, piece):
            count = min(piece, n - first)
            start = time.perf_counter()
            out = random_playouts(g, count, seed=seed, threads=threads, first=first)
            seconds += time.perf_counter() - start
            returns.append(out["returns"])
            length.append(out["length"])
            bar.update(count)
    return np.concatenate(returns), np.concatenate(length), seconds


def _summary(g: quanta.Game, returns: np.ndarray, length: np.ndarray, seconds: float) -> dict:
    """Win shares count a game as won by the player with the single highest return."""
    best = returns.max(axis=1, keepdims=True)
    leaders = returns == best
    single = leaders.sum(axis=1) == 1
    wins = [(leaders[:, p] & single).mean() for p in range(g.num_players)]
    return {
        "game": g.name,
        "games": len(length),
        "mean plies": f"{length.mean():.2f}",
        "wins": " / ".join(f"{100 * w:.1f}%" for w in wins),
        "draws": f"{100 * (~single).mean():.1f}%",
        "mean returns": " / ".join(f"{r:+.3f}" for r in returns.mean(axis=0)),
        "games/s": f"{len(length) / seconds:,.0f}" if seconds > 0 else "-",
    }


def _table(rows: list[dict]) -> str:
    headers = list(rows[0])
    cells = [[str(r[h]) for h in headers] for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    line = lambda values: "  ".join(v.rjust(w) if i else v.ljust(w) for i, (v, w) in enumerate(zip(values, widths)))  # noqa: E731
    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, cells)])


if __name__ == "__main__":
    main()
