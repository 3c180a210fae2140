"""Batch jobs in Rust threads: many games at once, the GIL released, reproducible by seed."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy.typing as npt

from . import _core
from ._core import Game

#: What a batch returns: numpy arrays by column name, one entry per game.
Arrays: TypeAlias = dict[str, npt.NDArray[Any]]


def random_playouts(
    game: Game, n: int, *, seed: int = 0, threads: int | None = None, first: int = 0
) -> Arrays:
    """Plays ``n`` games from the start with uniformly random moves (chance by its odds).

    Returns ``{"returns": float64 array (n, players), "length": int32 array (n,)}``, where
    ``length`` counts the plies of each game, chance outcomes excluded.

    Game ``i`` draws from its own generator seeded by ``(seed, i)``, so the same seed gives
    identical arrays at any ``threads`` (``None`` = all cores). ``first`` starts the run at
    game ``first`` of that sequence: ``first=0, n=2000`` equals ``first=0, n=1000`` followed
    by ``first=1000, n=1000``. The GIL is released while Rust plays; Ctrl-C interrupts.

    Bad arguments raise :class:`quanta.InvalidOptionError`: ``n`` is an integer from 0 to
    2**40, ``seed`` and ``first`` from 0 to 2**64 - 1, ``threads`` from 1 to 1024 or None.
    So does an ``n`` whose results (``players * 8 + 4`` bytes a game) cannot fit in the
    memory available, before anything is allocated: the message says how many games fit;
    play more in pieces (``first``) or as a job written to disk (:func:`quanta.jobs.playouts`).
    """
    return _core.random_playouts(game, n, seed, threads, first)


__all__ = ["Arrays", "random_playouts"]
