"""Batch jobs in Rust threads: many games at once, the GIL released, reproducible by seed."""

from __future__ import annotations

import numpy as np

from . import _core
from ._core import Game


def random_playouts(
    game: Game, n: int, *, seed: int = 0, threads: int | None = None, first: int = 0
) -> dict[str, np.ndarray]:
    """Plays ``n`` games from the start with uniformly random moves (chance by its odds).

    Returns ``{"returns": float64 array (n, players), "length": int32 array (n,)}``, where
    ``length`` counts the plies of each game, chance outcomes excluded.

    Game ``i`` draws from its own generator seeded by ``(seed, i)``, so the same seed gives
    identical arrays at any ``threads`` (``None`` = all cores). ``first`` starts the run at
    game ``first`` of that sequence: ``first=0, n=2000`` equals ``first=0, n=1000`` followed
    by ``first=1000, n=1000``. The GIL is released while Rust plays; Ctrl-C interrupts.
    """
    if not isinstance(n, int) or not 0 <= n < 2**40:
        raise ValueError(f"n must be an integer from 0 to 2**40, not {n!r}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in 0..2**64, not {seed}")
    if not 0 <= first < 2**64:
        raise ValueError(f"first must be in 0..2**64, not {first}")
    if threads is not None and not 1 <= threads <= 1024:
        raise ValueError(f"threads must be from 1 to 1024 (or None for all cores), not {threads}")
    return _core.random_playouts(game, n, seed, threads, first)


__all__ = ["random_playouts"]
