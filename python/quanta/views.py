"""What a player sees of a state: the dicts each game's ``state.view(player=None)`` returns
(built in Rust; a ``TypedDict`` per game for type checkers). ``player`` None sees everything;
a player sees what the rules show them (another's hidden hand is None).

Each game's ``text`` and ``svg`` draw from its view.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = [
    "AQuantumLeapView",
    "EinsteinCardView",
    "EinsteinView",
    "QuantumLeapView",
    "QuincunxView",
    "RepairUnitView",
]


class EinsteinView(TypedDict):
    board: list[list[int]]
    player: int
    phase: Literal["setup", "roll", "move", "over"]
    die: int | None
    winner: int | None

class EinsteinCardView(TypedDict):
    board: list[list[int]]
    player: int
    phase: Literal[
        "setup", "deal", "play", "move", "murphy", "full", "dirac", "heisenberg",
        "schroedinger", "draw", "over",
    ]
    number: int | None
    cell: str | None
    hands: list[list[str] | None]
    heaps: list[list[str] | None]
    hand_sizes: list[int]
    heap_sizes: list[int]
    discards: list[list[str]]

class QuantumLeapView(TypedDict):
    size: int | None
    board: str
    coords: list[tuple[int, int]]
    setup: Literal["A", "B"]
    cells: list[str]
    phase: Literal["deal", "swap", "move", "over"]
    player: int | None

class AQuantumLeapView(TypedDict):
    display: list[list[str | None]]
    stacks: list[list[int]]
    pattern: str | None
    hands: list[list[str] | None]
    hand_shown: list[bool]
    scores: list[int]
    phase: Literal["leave", "draw", "place", "higgs", "play", "end"]
    player: int
    placed: int
    drawn: str | None
    game: int
    games: int

class QuincunxView(TypedDict):
    grid: list[list[str | None]]
    hands: list[list[str] | None]
    hand_sizes: list[int]
    scores: list[int]
    pile_size: int
    phase: Literal["deal", "place", "draw", "end"]
    player: int | None
    draws: int
    round: int
    rounds: int
    lost: bool

class RepairUnitView(TypedDict):
    forecasts: list[list[list[str | None]]]
    target: str | None
    drawn: str | None
    top: str | None
    unseen: int
    under: list[str]
    removed: list[str]
    idle: int
    phase: Literal["deal", "start", "draw", "move", "end", "won", "lost"]
    forecast: str
    tunnelled: bool
    pending: str | None
