"""The game variants the interop tests run: every registered game with its default options,
with each other number of players its ``players`` option takes, and with each yes/no option
turned the other way — read from the registry and the games' options."""

from __future__ import annotations

from typing import Any

import quanta


def variants(players: int | None = None) -> list[tuple[str, dict[str, Any]]]:
    """``(name, options)`` of each variant (only those with ``players`` players if given)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name in quanta.GAMES:
        defaults = quanta.game(name).options
        tries: list[dict[str, Any]] = [{}]
        if "players" in defaults:
            tries += [{"players": p} for p in range(1, 5) if p != defaults["players"]]
        tries += [{k: not v} for k, v in defaults.items() if isinstance(v, bool)]
        for options in tries:
            try:
                game = quanta.game(name, **options)
            except quanta.InvalidOptionError:
                continue
            if players is None or game.num_players == players:
                out.append((name, options))
    return out


def ident(variant: tuple[str, dict[str, Any]]) -> str:
    name, options = variant
    return name + "".join(f"-{k}={v}" for k, v in options.items())
