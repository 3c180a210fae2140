"""Batch jobs in Rust threads: many games at once, the GIL released, reproducible by seed."""

from __future__ import annotations

import os
import time
from typing import Any, Callable, TypeAlias

import numpy as np
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


class Sizer:
    """How many rows to compute at a time so that each piece takes about ``target`` seconds,
    from the measured cost of the rows before it: ``first`` rows at first, then at most 16
    times the rows of the last piece measured, never more than ``most``. A rise in cost is
    believed at once, a fall half-way, so that rows of varying cost seldom overrun."""

    def __init__(self, most: int, target: float, first: int = 1) -> None:
        self.most, self.target = max(1, most), target
        self._size = max(1, min(first, self.most))
        self._per_row: float | None = None

    def size(self) -> int:
        return self._size

    def observe(self, rows: int, seconds: float) -> None:
        per_row = max(seconds, 1e-9) / max(rows, 1)
        if self._per_row is not None:
            per_row = max(per_row, (self._per_row + per_row) / 2)
        self._per_row = per_row
        self._size = max(1, min(self.most, int(self.target / per_row), rows * 16))


def _joined(pieces: list[Arrays]) -> Arrays:
    """Pieces of a batch (dicts of arrays, rows first) as one."""
    out: Arrays = {}
    for key, first in pieces[0].items():
        join = np.ma.concatenate if isinstance(first, np.ma.MaskedArray) else np.concatenate
        out[key] = join([piece[key] for piece in pieces])
    return out


def in_pieces(call: Callable[[int, int], Arrays], n: int, first: int, *, row_bytes: int,
              progress: bool, desc: str, unit: str = "deals") -> Arrays:
    """A batch of rows ``first .. first+n-1`` computed by ``call(first, n)``: refused before
    any work when its results (``row_bytes`` a row) cannot fit in the memory here, and with
    ``progress`` computed in pieces sized to about half a second each (the rows are the same:
    a row depends on its number alone), under a bar counting rows with their rate and the
    time left."""
    if isinstance(n, int) and not isinstance(n, bool) and n > 0:
        _core.check_fits("n", n, unit, row_bytes,
                         f"compute them in pieces (first=), or as a job written to disk "
                         f"(quanta.jobs)")
    if not progress or not isinstance(n, int) or not isinstance(first, int) or n <= 0:
        return call(first, n)
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    sizer = Sizer(n, 0.5, os.cpu_count() or 1)
    pieces, at = [], 0
    with tqdm(total=n, unit=unit, desc=desc, leave=False, dynamic_ncols=True) as bar:
        while at < n:
            rows = min(sizer.size(), n - at)
            began = time.perf_counter()
            pieces.append(call(first + at, rows))
            sizer.observe(rows, time.perf_counter() - began)
            bar.update(rows)
            at += rows
    return _joined(pieces)


__all__ = ["Arrays", "random_playouts"]
