"""What every reference state does the same way, whatever the game: actions checked before
they are played, action strings read back, equality and hashing by notation.

A game's state class subclasses :class:`ReferenceState` and provides ``_game`` (with ``name``
and ``num_actions``), ``is_chance``, ``legal_actions()``, ``_action_string(action)`` and
``notation()``; it may override ``_is_legal`` (a faster test than listing every action) and
``chance_outcomes`` (when the outcomes are not equally likely).
"""

from __future__ import annotations

import operator
from typing import Protocol

from quanta.exceptions import IllegalMoveError


class ReferenceGame(Protocol):
    """What :class:`ReferenceState` reads of its game."""

    @property
    def name(self) -> str: ...

    @property
    def num_actions(self) -> int: ...


class GameState(Protocol):
    """A game's state class as :class:`ReferenceState`'s methods use it: what the class provides
    (see the module docstring) and what it inherits."""

    @property
    def _game(self) -> ReferenceGame: ...

    @property
    def is_chance(self) -> bool: ...

    def legal_actions(self) -> list[int]: ...

    def _action_string(self, action: int) -> str: ...

    def notation(self) -> str: ...

    def _is_legal(self, action: int) -> bool: ...

    def _check_legal(self, action: int) -> int: ...


class ReferenceState:
    __slots__ = ()

    def _is_legal(self: GameState, action: int) -> bool:
        return action in self.legal_actions()

    def _check_legal(self: GameState, action: int) -> int:
        """``action`` as an int if it is legal here; IllegalMoveError otherwise."""
        name = self._game.name
        if isinstance(action, bool):
            raise IllegalMoveError(f"{name}: action {action!r} is not an integer")
        try:
            action = operator.index(action)
        except TypeError:
            raise IllegalMoveError(f"{name}: action {action!r} is not an integer") from None
        if not 0 <= action < self._game.num_actions:
            raise IllegalMoveError(
                f"{name}: action {action} is out of range (0..{self._game.num_actions}) "
                f"in {self.notation()}"
            )
        if not self._is_legal(action):
            raise IllegalMoveError(f"{name}: action {action} is not legal in {self.notation()}")
        return action

    def chance_outcomes(self: GameState) -> list[tuple[int, float]]:
        """[(action, probability)] at a chance node (every outcome equally likely), [] elsewhere."""
        if not self.is_chance:
            return []
        actions = self.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]

    def action_to_string(self: GameState, action: int) -> str:
        """The readable form of a legal action."""
        return self._action_string(self._check_legal(action))

    def parse_action(self: GameState, text: str) -> int:
        """The legal action whose string is ``text`` (surrounding blanks ignored)."""
        name = self._game.name
        if not isinstance(text, str):
            raise IllegalMoveError(f"{name}: action text must be a str, not {text!r}")
        wanted = text.strip()
        for action in self.legal_actions():
            if self._action_string(action) == wanted:
                return action
        raise IllegalMoveError(f"{name}: no legal action {wanted!r} in {self.notation()}")

    def __eq__(self: GameState, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._game == other._game and self.notation() == other.notation()

    def __hash__(self: GameState) -> int:
        return hash((self._game, self.notation()))

    def __repr__(self: GameState) -> str:
        return f"<{type(self).__name__} {self.notation()!r}>"
