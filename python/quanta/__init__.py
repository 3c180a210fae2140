"""quanta: rules engines, batch simulation and solvers for six quantum-themed games.

>>> import quanta
>>> g = quanta.game("einstein")
>>> s = g.new_state()              # a chance node: the stones are set up at random
>>> s = s.play(s.legal_actions()[0])

``quanta.GAMES`` lists the games; ``quanta.game(name, **options)`` makes one. States are
immutable: ``play`` returns a new state. See each game's module (``quanta.einstein``, …) for
its notation, action strings and extras.
"""

from __future__ import annotations

import importlib
import types
from typing import Any

from . import exceptions
from ._core import CHANCE, TERMINAL, Game, GameInfo, State, game_names
from ._core import make_game as _make_game
from .exceptions import (
    DamagedResultError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    NotApplicableError,
    QuantaError,
    SearchLimitError,
)

#: The names of the registered games, sorted.
GAMES: tuple[str, ...] = tuple(game_names())

__version__ = "0.1.0"


def game(name: str, **options: Any) -> Game:
    """The game ``name`` with ``options`` (each game's module documents its options).

    Raises :class:`InvalidOptionError` (a ``ValueError``) for an unknown game, an unknown
    option or a bad value.
    """
    return _make_game(name, options)


def _game_module(name: str) -> types.ModuleType:
    return importlib.import_module(f"quanta.{name}")


def _state_method(state: State, name: str) -> Any:
    """Looks up a game-specific state method (e.g. ``board``) in the game's module."""
    extra = getattr(_game_module(state.game.name), "STATE_METHODS", {}).get(name)
    if extra is None:
        raise AttributeError(f"{state.game.name} state has no attribute {name!r}")
    return types.MethodType(extra, state)


def _state_dir(state: State) -> list[str]:
    """The attributes of a state: the common ones and the game's extras."""
    extras = getattr(_game_module(state.game.name), "STATE_METHODS", {})
    return sorted((set(dir(type(state))) - _EXTRAS) | set(extras))


class _Extra:
    """A game-specific state method on ``State``: the state's game's own (its module's
    ``STATE_METHODS``), or AttributeError for a game without it. Set on the class for each name
    some game has, so that ``State`` needs no ``__getattr__`` (which would slow every attribute
    read of every state)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, state: State | None, owner: type | None = None) -> Any:
        return self if state is None else _state_method(state, self.name)


_EXTRAS: frozenset[str] = frozenset()


# (The modules need the names above.)
from . import (  # noqa: E402
    a_quantum_leap,
    analysis,
    batch,
    einstein,
    einstein_card,
    quantum_leap,
    quincunx,
    repair_unit,
    solvers,
)
from .solvers import Answer, best_move, solve  # noqa: E402

_EXTRAS = frozenset(
    name
    for game_name in GAMES
    for name in getattr(_game_module(game_name), "STATE_METHODS", {})
    if name not in vars(State)
)
for _name in _EXTRAS:
    setattr(State, _name, _Extra(_name))
del _name

__all__ = [
    "Answer",
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "DamagedResultError",
    "Game",
    "GameInfo",
    "State",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidOptionError",
    "NotApplicableError",
    "QuantaError",
    "SearchLimitError",
    "a_quantum_leap",
    "analysis",
    "batch",
    "best_move",
    "einstein",
    "einstein_card",
    "exceptions",
    "game",
    "quantum_leap",
    "quincunx",
    "repair_unit",
    "solve",
    "solvers",
]
