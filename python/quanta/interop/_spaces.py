"""What the PettingZoo and Gymnasium modules share: the observation space of a game, the
checks of a render mode and of a seed, and the rendering."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

import quanta
from quanta.exceptions import InvalidOptionError

#: Observation entries are flags, counts and scores; the spaces bound them by float32's range.
BOUND = float(np.finfo(np.float32).max)

#: The render modes of every environment: the game as text.
RENDER_MODES = ["ansi", "human"]


def observation_box(game: quanta.Game, batch: tuple[int, ...] = ()) -> spaces.Box:
    """The space of ``game``'s observation tensors (of ``batch`` of them)."""
    return spaces.Box(-BOUND, BOUND, (*batch, *game.observation_shape), np.float32)


def render_mode(value: object) -> str | None:
    """``value`` if it is a render mode (or None), else the typed error."""
    if value is None or value in RENDER_MODES:
        return value
    raise InvalidOptionError(
        f"render_mode must be None, 'ansi' or 'human', not {quanta._core.quote(value)}"
    )


def render_text(state: quanta.State, mode: str | None) -> str | None:
    """The game as text: returned for ``"ansi"``, printed for ``"human"``."""
    text = str(state)
    if mode == "human":
        print(text)
        return None
    return text


def check_seed(value: object) -> int | None:
    """``value`` if it is a seed (an integer from 0 to 2**64 - 1) or None, else the typed
    error (before the frameworks' own seeding sees it)."""
    if value is None or (isinstance(value, (int, np.integer)) and not isinstance(value, bool)
                         and 0 <= value < 2**64):
        return None if value is None else int(value)
    raise InvalidOptionError(
        f"seed must be an integer from 0 to 2**64 - 1, or None, not {quanta._core.quote(value)}"
    )
