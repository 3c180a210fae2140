"""Batch jobs in Rust threads: many games at once, the GIL released, reproducible by seed."""

from __future__ import annotations

import numpy as np

from . import _core
from ._core import Game


def random_playouts(
    game: Game, n: int, *, seed: int = 0, threads: int | None = None
) -> dict[str, np.ndarray]:
    """Plays ``n`` games from the start with uniformly random moves (chance by its odds).

    Returns ``{"returns": float64 array (n, players), "length": int32 array (n,)}``, where
    ``length`` counts the plies of each game, chance outcomes excluded. Game ``i`` draws from
    its own generator seeded by ``(seed, i)``, so the same seed gives identical arrays at any
    ``threads`` (``None`` = all cores). Ctrl-C interrupts it.
    """
    if n < 0:
        raise ValueError(f"n must be non-negative, not {n}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in 0..2**64, not {seed}")
    return _core.random_playouts(game, n, seed, threads)


__all__ = ["random_playouts"]
