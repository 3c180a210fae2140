"""Quantum Leap (Néstor Romeral Andrés, 2013): a capture game on a hexhex board, with an exact
solver.

Options: ``size`` = 5 (default) or any side from 2 to 7, or ``board`` = any board:
``"hexagon 9"``, ``"parallelogram 3x4"``, ``"triangle 5"`` or the cells one by one,
``"cells 0,0 1,0 0,1 ..."`` (axial coordinates q,r); ``setup`` = ``"A"`` (default) or ``"B"``.

This module holds the solver, :func:`solve` (whether the side to act wins, with a best move)
and :func:`analyze` (the value of every legal action), and pure-Python helpers that work on any
state of this game: :func:`cells` (one ``'w'``/``'b'``/``'.'``/``'?'`` per cell number, also
``state.cells()``; ``state.view()`` is the position as a dict), :func:`cell_names`, :func:`text` (a readable board), :func:`svg` (a picture
for notebooks) and :func:`status`.

Rules, notation and action names: docs/rules/quantum_leap.md (the solver: its *Solver*
section; how it searches: the module documentation of
rust/quanta-core/src/quantum_leap/solve/mod.rs).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from . import _core, _svg, views
from ._core import State
from ._svg import FONT, num

__all__ = [
    "Solution",
    "analyze",
    "cells",
    "cell_names",
    "solve",
    "text",
    "svg",
    "status",
]

_ROW_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _view(state: State, what: str, viewer: int | None = None) -> views.QuantumLeapView:
    """What ``viewer`` sees of ``state`` (None: everything); another game's state raises
    :class:`~quanta.NotApplicableError` naming ``what``."""
    return _core.game_state(state, _core.QuantumLeapState, what).view(viewer)


def _row_cells(coords: list[tuple[int, int]]) -> list[list[int]]:
    """The cell numbers row by row (cells of one r, numbered left to right)."""
    rows: list[list[int]] = []
    for cell, (_, r) in enumerate(coords):
        if cell == 0 or r != coords[cell - 1][1]:
            rows.append([])
        rows[-1].append(cell)
    return rows


def _rows(view: views.QuantumLeapView) -> list[str]:
    """The cells row by row, each row a string of its cells' characters."""
    cells = view["cells"]
    return ["".join(cells[c] for c in row) for row in _row_cells(view["coords"])]


def _names(coords: list[tuple[int, int]]) -> list[str]:
    """The cell names, by cell number: row letter and place in the row from the left."""
    return [f"{_ROW_LETTERS[i]}{place}" for i, row in enumerate(_row_cells(coords))
            for place in range(1, len(row) + 1)]


def cells(state: State) -> list[str]:
    """The contents of every cell, by cell number: ``'w'`` (white stone), ``'b'`` (black stone),
    ``'.'`` (empty) or ``'?'`` (not dealt yet)."""
    return _core.game_state(state, _core.QuantumLeapState, "quantum_leap.cells").cells()


def cell_names(size: int | State) -> list[str]:
    """The names of the cells, by cell number (a1, a2, ...): of the hexagonal board of side
    ``size``, or of the board of a state (any board)."""
    if isinstance(size, State):
        return _names(_view(size, "quantum_leap.cell_names")["coords"])
    names: list[str] = []
    for i in range(2 * size - 1):
        length = size + i if i < size else 3 * size - 2 - i
        names.extend(f"{_ROW_LETTERS[i]}{position}" for position in range(1, length + 1))
    return names


def status(state: State) -> str:
    """One line saying what happens next: ``"White to move"``, ``"Black to move"``, ``"Black to
    swap or not"``, ``"dealing: next cell c2"``, ``"dealing: the empty cell"`` or, in a finished
    game, ``"White wins"`` / ``"Black wins"``."""
    return _status(_view(state, "quantum_leap.status"), state)


def _status(view: views.QuantumLeapView, state: State) -> str:
    board = view["cells"]
    if view["phase"] == "deal":
        if view["setup"] == "A" and "." not in board:
            return "dealing: the empty cell"
        return f"dealing: next cell {_names(view['coords'])[board.index('?')]}"
    if view["phase"] == "swap":
        return "Black to swap or not"
    if view["phase"] == "over":
        return "White wins" if state.returns()[0] > 0 else "Black wins"
    return "White to move" if view["player"] == 0 else "Black to move"


def text(state: State, viewer: int | None = None) -> str:
    """A readable board: one line per row with its letter, rows indented so the board shows,
    cells as in the notation (``w`` white, ``b`` black, ``.`` empty, ``?`` not dealt yet), then
    the status line. Size 2, ``ww/.bb/wb w``::

        a   w w
        b  . b b
        c   w b
        White to move

    Quantum Leap hides nothing: ``viewer`` (None, 0 or 1) sees it all.
    """
    view = _view(state, "quantum_leap.text", viewer)
    rows, coords = _rows(view), view["coords"]
    # A cell at (q, r) is drawn 2q + r columns from the left (a row is half a cell right of the
    # one above it at the same q); on a hexagon this indents each row by its missing cells.
    column = [2 * q + r for q, r in coords]
    left = min(column)
    lines, cell = [], 0
    for i, row in enumerate(rows):
        line = [" "] * (max(column) - left + 1)
        for char in row:
            line[column[cell] - left] = char
            cell += 1
        lines.append(f"{_ROW_LETTERS[i]}  {''.join(line).rstrip()}")
    lines.append(_status(view, state))
    return "\n".join(lines)


# Colours of the SVG picture.
_BOARD = "#ead9b5"
_CENTRE = "#dcc597"
_GRID = "#8c7350"
_UNDEALT = "#c4c4c4"
_UNDEALT_MARK = "#8a8a8a"
_WHITE_STONE = "#fbfbf8"
_BLACK_STONE = "#222222"
_NEXT = "#c0392b"  # outline of the next cell to deal


def svg(state: State, radius: float = 21.0) -> str:
    """A self-contained SVG picture of the position: the board of pointy-top hexagons (each
    ``radius`` pixels from centre to corner; about 350 px wide for size 5), the centre cell
    (where the board has one) a little darker, white and black stones as circles, empty cells bare, cells not dealt yet
    grey with a ``?`` (the next one to deal outlined in red), every cell's name in small print,
    and a status caption. ``radius`` must be a positive number of pixels (else
    :class:`~quanta.InvalidOptionError`)."""
    radius = _svg.pixels("radius", radius)
    view = _view(state, "quantum_leap.svg")
    rows, coords = _rows(view), view["coords"]
    names = _names(coords)
    centre = _centre(coords)
    step_x = math.sqrt(3) * radius  # distance between neighbouring cells of a row
    step_y = 1.5 * radius  # distance between rows
    margin = 12.0
    caption_height = 26.0
    across = [q + r / 2 for q, r in coords]  # in cells from the left
    r_top, r_bottom = coords[0][1], coords[-1][1]
    board_width = (max(across) - min(across) + 1) * step_x
    board_height = (r_bottom - r_top) * step_y + 2 * radius
    width = max(board_width + 2 * margin, 190.0)
    height = margin + board_height + caption_height
    centre_x = width / 2 - step_x * (max(across) + min(across)) / 2
    centre_y = margin + radius - r_top * step_y
    label_size = max(6.5, radius * 0.36)

    def hexagon(x: float, y: float) -> str:
        corners = []
        for k in range(6):
            angle = math.radians(60 * k - 90)  # pointy top: the first corner straight up
            corner_x = x + radius * math.cos(angle)
            corner_y = y + radius * math.sin(angle)
            corners.append(f"{num(corner_x)},{num(corner_y)}")
        return " ".join(corners)

    def label(x: float, y: float, content: str, colour: str, font_size: float) -> str:
        return (
            f"<text x='{num(x)}' y='{num(y + font_size * 0.35)}' text-anchor='middle' "
            f"font-size='{num(font_size)}' {FONT} fill='{colour}'>{escape(content)}</text>"
        )

    out = _svg.start(width, height)
    # While dealing stones (not setup A's empty cell), the first '?' cell is dealt next.
    empty_cell_next = view["setup"] == "A" and not any("." in row for row in rows)
    dealing = view["phase"] == "deal" and not empty_cell_next
    highlight = None
    number = 0
    for row in rows:
        for char in row:
            q, r = coords[number]
            x = centre_x + step_x * (q + r / 2)
            y = centre_y + step_y * r
            name = names[number]
            number += 1
            if char == "?":
                fill = _UNDEALT
                if dealing and highlight is None:
                    highlight = (x, y)
            elif (q, r) == centre:
                fill = _CENTRE
            else:
                fill = _BOARD
            out.append(
                f"<polygon points='{hexagon(x, y)}' fill='{fill}' stroke='{_GRID}' "
                f"stroke-width='1'/>"
            )
            if char in "wb":
                white = char == "w"
                out.append(
                    f"<circle cx='{num(x)}' cy='{num(y)}' r='{num(radius * 0.7)}' "
                    f"fill='{_WHITE_STONE if white else _BLACK_STONE}' stroke='#111111' "
                    f"stroke-width='1.2'/>"
                )
                out.append(label(x, y, name, "#9a9a9a" if white else "#b0b0b0", label_size))
            elif char == "?":
                out.append(label(x, y - radius * 0.18, "?", _UNDEALT_MARK, radius * 0.75))
                out.append(label(x, y + radius * 0.5, name, "#6e6e6e", label_size * 0.9))
            else:
                out.append(label(x, y, name, _GRID, label_size))
    if highlight is not None:  # the next cell to deal, outlined on top of its neighbours
        x, y = highlight
        out.append(
            f"<polygon points='{hexagon(x, y)}' fill='none' stroke='{_NEXT}' stroke-width='2.5'/>"
        )
    out.append(_svg.caption(margin, margin + board_height + 18, _status(view, state)))
    return _svg.finish(out)


def _centre(coords: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The cell at the mean of the cells' positions, where there is one."""
    n = len(coords)
    q, r = sum(c[0] for c in coords), sum(c[1] for c in coords)
    return (q // n, r // n) if q % n == 0 and r % n == 0 and (q // n, r // n) in coords else None


# ---- the solver ----


#: The exact value of a decision node (a frozen class made in Rust): ``win`` (the player to
#: act wins with perfect play), ``best_action`` (a winning action when ``win``; otherwise the
#: move the solver tried last, or ``None`` in a finished game), ``best_move`` (its string),
#: ``nodes``, ``seconds`` and ``exact`` (always true: a search out of budget raises
#: :class:`quanta.SearchLimitError` instead of guessing).
Solution = _core.Solution


def solve(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
          memory_mb: int = 1024, threads: int | None = None) -> Solution:
    """Solves ``state`` exactly: does the player to act win with perfect play, and how.

    Works for White or Black to move and for Black's swap decision (the best swap, or "no
    swap"). ``memory_mb`` bounds the transposition tables. ``timeout`` (seconds) and
    ``max_nodes`` bound the work:
    past them it raises :class:`quanta.SearchLimitError` (with ``nodes`` and ``seconds``).
    Ctrl-C interrupts it; the GIL is released meanwhile. A finished game is answered (the side
    to move has lost: ``win`` false, no best move); a chance node (the deal) or another game's
    state raises :class:`quanta.NotApplicableError`, and a bad limit
    :class:`quanta.InvalidOptionError`.

    ``threads`` (``None``: every core) share out the search of big positions near the root.
    The answer (``win`` and ``best_action``: the first winning action in an order that depends
    on the position alone) is the same at any thread count; ``nodes`` and ``seconds`` are not,
    and with more than one thread ``max_nodes`` is checked now and then rather than exactly.
    What the answer means: docs/rules/quantum_leap.md, *Solver*; how it searches: the module
    documentation of rust/quanta-core/src/quantum_leap/solve/mod.rs.

    >>> import quanta
    >>> g = quanta.game("quantum_leap", size=2)
    >>> s = g.from_notation("wb/w.b/wb w")
    >>> solve(s).best_move
    'b1xb3'
    """
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.quantum_leap_solve(state, limits)


def analyze(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
            memory_mb: int = 1024, threads: int | None = None) -> dict[int, bool]:
    """The value of every legal action of a decision node: ``{action: wins}``, where ``wins``
    says whether the action wins for the player who takes it. Limits and ``threads`` as in
    :func:`solve`."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return dict(_core.quantum_leap_analyze(state, limits))
