"""EinStein würfelt nicht (Ingo Althöfer): a dice race-and-capture game on a 5x5 board.

Options: ``setup`` = ``"random"`` (default) or ``"choose"``; ``first`` = 0 (default) or 1.

This module adds pure-Python helpers that work on any state of this game: :func:`board` (a 5x5
``int8`` numpy array, also ``state.board()``), :func:`text` (a readable board), :func:`svg` (a
picture for notebooks) and :func:`status`.

Rules, notation and action names: docs/rules/einstein.md.
"""

from __future__ import annotations

import numpy as np

from . import _core, _svg
from ._svg import FONT, num

__all__ = ["board", "text", "svg", "status", "STATE_METHODS"]

_SIZE = 5
_COLUMNS = "abcde"
_P1_LETTERS = "abcdef"


def _parse(state):
    """(cells as 5x5 list of ints, player field, die field) from ``state.notation()``."""
    rows_field, player_field, die_field = state.notation().split(" ")
    cells = []
    for row_text in rows_field.split("/"):
        row = []
        for char in row_text:
            if char == ".":
                row.append(0)
            elif char in "123456":
                row.append(int(char))
            else:
                row.append(-(_P1_LETTERS.index(char) + 1))
        cells.append(row)
    return cells, int(player_field), die_field


def board(state) -> np.ndarray:
    """The board as a 5x5 ``int8`` array indexed ``[row, col]`` (row 0 at the top): player 0's
    stones are +1..+6, player 1's -1..-6, empty cells 0."""
    return _core.einstein_board(state)


def status(state) -> str:
    """One line saying what happens next, e.g. ``"player 0 to move, rolled 4"``,
    ``"player 1 to roll"``, ``"player 0 to arrange its stones"`` (``setup="choose"``),
    ``"random setup of player 0's stones"`` (``setup="random"``) or ``"player 0 wins"``."""
    _, player, die = _parse(state)
    if state.is_terminal:
        returns = list(state.returns())
        winner = max(range(len(returns)), key=lambda p: returns[p])
        return f"player {winner} wins"
    if die == "setup":
        if state.is_chance:
            return f"random setup of player {player}'s stones"
        return f"player {player} to arrange its stones"
    if die == "-":
        return f"player {player} to roll"
    return f"player {player} to move, rolled {die}"


def text(state) -> str:
    """A readable board: column letters a-e on top, row numbers 1-5 on the left, stones as in the
    notation (``1``-``6`` player 0, ``a``-``f`` player 1, ``.`` empty), then the status line."""
    cells, _, _ = _parse(state)
    lines = ["    " + " ".join(_COLUMNS)]
    for row in range(_SIZE):
        chars = []
        for value in cells[row]:
            if value == 0:
                chars.append(".")
            elif value > 0:
                chars.append(str(value))
            else:
                chars.append(_P1_LETTERS[-value - 1])
        lines.append(f"  {row + 1} " + " ".join(chars))
    lines.append(status(state))
    return "\n".join(lines)


# Colours of the SVG picture.
_BLUE = "#1f5fbf"
_ORANGE = "#e8790c"
_BLUE_TINT = "#d6e4f7"  # e5, player 0's target
_ORANGE_TINT = "#fbe3cc"  # a1, player 1's target
_GRID = "#555555"


def svg(state, size: int = 250) -> str:
    """A self-contained SVG picture of the position (about ``size`` pixels wide): the grid with
    its coordinates, the two target corners tinted in the colour of the player aiming at them,
    player 0's stones blue and player 1's orange (each with its number), and a status caption.
    ``size`` must be a number of pixels above 30 (else :class:`~quanta.InvalidOptionError`)."""
    size = _svg.pixels("size", size, above=30)  # 30 px of margins
    cells, _, _ = _parse(state)
    cell = (size - 30) / _SIZE  # 44 px for the default size
    left = 20.0  # room for the row numbers
    top = 20.0  # room for the column letters
    grid = cell * _SIZE
    width = left + grid + 10
    height = top + grid + 28  # room for the caption
    out = _svg.start(width, height)
    # The target corners: a1 is player 1's goal, e5 player 0's.
    out.append(
        f"<rect x='{num(left)}' y='{num(top)}' width='{num(cell)}' height='{num(cell)}' "
        f"fill='{_ORANGE_TINT}'/>"
    )
    out.append(
        f"<rect x='{num(left + 4 * cell)}' y='{num(top + 4 * cell)}' width='{num(cell)}' "
        f"height='{num(cell)}' fill='{_BLUE_TINT}'/>"
    )
    out.extend(_svg.square_grid(left, top, cell, _SIZE, row_numbers_x=left - 7, colour=_GRID))
    # Stones: rounded squares with their number.
    pad = cell * 0.12
    for row in range(_SIZE):
        for col in range(_SIZE):
            value = cells[row][col]
            if value == 0:
                continue
            colour = _BLUE if value > 0 else _ORANGE
            x = left + col * cell + pad
            y = top + row * cell + pad
            side = cell - 2 * pad
            out.append(
                f"<rect x='{num(x)}' y='{num(y)}' width='{num(side)}' height='{num(side)}' "
                f"rx='{num(side * 0.2)}' fill='{colour}' stroke='#222222' stroke-width='1'/>"
            )
            out.append(
                f"<text x='{num(x + side / 2)}' y='{num(y + side / 2 + 6)}' text-anchor='middle' "
                f"font-size='18' font-weight='bold' {FONT} fill='white'>{abs(value)}</text>"
            )
    out.append(_svg.caption(left - 14, top + grid + 19, status(state)))
    return _svg.finish(out)


#: Extra methods the generic State object exposes for this game (each takes the state first).
STATE_METHODS = {"board": board}
