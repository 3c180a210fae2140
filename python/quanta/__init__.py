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

from typing import Any

from . import exceptions
from ._core import CHANCE, TERMINAL, Game, GameInfo, State, game_names
from ._core import make_game as _make_game
from .exceptions import (
    DamagedResultError,
    DirectoryInUseError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    NotApplicableError,
    QuantaError,
    SearchLimitError,
)

#: The names of the registered games, sorted.
GAMES: tuple[str, ...] = tuple(game_names())

#: The distribution's name on PyPI: ``pip install quanta-games``.
DISTRIBUTION = "quanta-games"


def _version() -> str:
    """The installed distribution's version; the version lives in one place, Cargo.toml's
    ``[workspace.package] version``, which the build writes into the metadata. Imported from a
    checkout that is not installed (``PYTHONPATH=python``), it is read from that Cargo.toml."""
    import importlib.metadata
    import pathlib
    import re

    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        cargo = pathlib.Path(__file__).resolve().parents[2] / "Cargo.toml"
        section = ""
        for line in cargo.read_text().splitlines() if cargo.is_file() else []:
            if line.startswith("["):
                section = line.strip()
            found = re.match(r'version = "([^"]+)"', line)
            if section == "[workspace.package]" and found:
                return found.group(1)
        return "0+unknown"


#: The package's version (PEP 440), as the installed metadata states it.
__version__: str = _version()


def game(name: str, **options: Any) -> Game:
    """The game ``name`` with ``options`` (each game's module documents its options).

    Raises :class:`InvalidOptionError` (a ``ValueError``) for an unknown game, an unknown
    option or a bad value.
    """
    for key, value in options.items():
        if isinstance(value, str) and not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: no text the core could read
                raise InvalidOptionError(
                    f"{name}: option {key} must be text that can be written in UTF-8 (no lone "
                    f"surrogates), not {exceptions.quoted(value)}"
                ) from None
    return _make_game(name, options)


# (The modules need the names above.)
from . import (  # noqa: E402
    a_quantum_leap,
    analysis,
    arenas,
    batch,
    bots,
    einstein,
    einstein_card,
    quantum_leap,
    quincunx,
    repair_unit,
    solvers,
    views,
)
from ._core import Bot  # noqa: E402
from .arenas import ArenaResult, arena  # noqa: E402
from .solvers import Answer, best_move, solve  # noqa: E402

__all__ = [
    "Answer",
    "ArenaResult",
    "Bot",
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "DamagedResultError",
    "DirectoryInUseError",
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
    "arena",
    "arenas",
    "batch",
    "best_move",
    "bots",
    "einstein",
    "einstein_card",
    "exceptions",
    "game",
    "quantum_leap",
    "quincunx",
    "repair_unit",
    "solve",
    "solvers",
    "views",
]
