"""EinStein würfelt nicht (Ingo Althöfer): a dice race-and-capture game on a 5x5 board.

Rules: docs/rules/einstein.md. Make the game with ``quanta.game("einstein")``; options:
``setup`` = ``"random"`` (default; each side's arrangement is a chance event, uniform over the
720 arrangements) or ``"choose"`` (each player arranges their own stones, player 1 after seeing
player 0's); ``first`` = 0 (default) or 1 (who moves first once both sides are set up).

Board and cell names
--------------------
Row 0 is the top row, column 0 the left column; cell index = row * 5 + col. A cell is named by
its column letter a-e (left to right) and row digit 1-5 (top to bottom): (0, 0) = a1,
(1, 2) = c2, (4, 4) = e5::

        a b c d e
      1 1 2 3 . .      player 0 ("blue") starts on a1 b1 c1 a2 b2 a3, steps right, down or
      2 4 5 . . .      diagonally down-right, and aims at e5;
      3 6 . . . f      player 1 ("orange") starts on e5 d5 c5 e4 d4 e3, steps left, up or
      4 . . . e d      diagonally up-left, and aims at a1.
      5 . . c b a

Phases: player 0's arrangement, then player 1's (always in this order), then the player
``first`` rolls (a chance node with 6 outcomes) and moves; then the other player rolls and moves,
and so on. A roll of n moves stone n, or, if it is gone, the nearest existing higher or the
nearest existing lower stone (the player chooses). Stepping onto any stone removes it. A player
wins on reaching the target corner or by removing every enemy stone.

Action ids (``num_actions`` = 801)
----------------------------------
* 0..74 — a move: ``from_cell * 3 + dir``; dir 0/1/2 = right/down/diagonal for player 0,
  left/up/diagonal for player 1 (the directions of the player to move).
* 75..80 — die roll n: ``75 + (n - 1)``.
* 81..800 — arrangement k: ``81 + k``, where k in 0..719 indexes the permutations of 123456 in
  lexicographic order (k = 0: 123456, k = 1: 123465, k = 719: 654321). The arrangement puts
  ``perm[i]`` on start cell i of the side being set up, in the start-cell order listed above
  (a1 b1 c1 a2 b2 a3 for player 0, e5 d5 c5 e4 d4 e3 for player 1).

Action strings
--------------
A move is the from-cell name then the to-cell name (``"a1b2"``); a roll is ``"roll 4"``; an
arrangement is ``"setup "`` plus its six digits (``"setup 123456"``). ``parse_action`` reads them
back (surrounding blanks ignored).

Notation
--------
``<five rows top to bottom, separated by '/'> <player> <die>``. Each row has 5 characters:
``.`` empty, ``1``-``6`` player 0's stones, ``a``-``f`` player 1's stones 1-6. The die field is
``1``-``6`` (rolled, the player must move), ``-`` (not rolled yet; also every finished game) or
``setup`` (an arrangement is pending; the player field says whose). After a move the player field
names the other player; in a finished game it names the loser (the player who would move next).
Examples:

* ``...../...../...../...../..... 0 setup`` — the start: player 0's arrangement is next.
* ``123../45.../6..../...../..... 1 setup`` — player 0 arranged 123456; player 1's turn to set up.
* ``123../45.../6...f/...ed/..cba 0 4`` — both sides set up with 123456; player 0 rolled a 4
  and must move stone 4 (on a2): ``a2b2``, ``a2a3`` (capturing its own 6) or ``a2b3``.

This module adds pure-Python helpers that work on any state of this game: :func:`board` (a
numpy array), :func:`text` (a readable board) and :func:`svg` (a picture for notebooks).
"""

from __future__ import annotations

import numpy as np

from . import _svg
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
    cells, _, _ = _parse(state)
    return np.array(cells, dtype=np.int8)


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
    player 0's stones blue and player 1's orange (each with its number), and a status caption."""
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
