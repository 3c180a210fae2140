"""The game variants the interop tests run, read from the registry and the games' options,
never listed by hand: every registered game with its default options, then each option
changed alone to each other value it takes (a flag flipped, small integers, a per-player
option given one value for everyone, and the values a text option's error message lists)."""

from __future__ import annotations

import json
import re
from typing import Any

import quanta
from quanta.exceptions import InvalidOptionError


def accepted(name: str, key: str, value: object) -> bool:
    try:
        quanta.game(name, **{key: value})
    except InvalidOptionError:
        return False
    return True


def options_of(name: str) -> list[dict[str, Any]]:
    """The default game's options (``{}``), then each option changed alone: a flag flipped,
    integers 0 to 8, and the values a text option's error message lists."""
    found: list[dict[str, Any]] = [{}]
    for key, default in quanta.game(name).options.items():
        first = default[0] if isinstance(default, tuple) else default
        if isinstance(first, bool):
            candidates: list[object] = [not first]
        elif isinstance(first, int):
            candidates = [value for value in range(9) if value != first]
        else:
            try:
                quanta.game(name, **{key: "?"})
                candidates = []
            except InvalidOptionError as error:
                listed = re.search(r"one of (\[.*?\])", str(error))
                candidates = [v for v in json.loads(listed.group(1)) if v != first] if listed else []
        found += [{key: value} for value in candidates if accepted(name, key, value)]
    return found


def variants(players: int | None = None) -> list[tuple[str, dict[str, Any]]]:
    """``(name, options)`` of each variant (only those with ``players`` players if given)."""
    return [(name, options) for name in quanta.GAMES for options in options_of(name)
            if players is None or quanta.game(name, **options).num_players == players]


def ident(variant: tuple[str, dict[str, Any]]) -> str:
    name, options = variant
    return name + "".join(f"-{k}={v}" for k, v in options.items())
