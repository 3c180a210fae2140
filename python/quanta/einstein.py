"""EinStein würfelt nicht (Ingo Althöfer): a dice race-and-capture game on a 5x5 board.

Options: ``setup`` = ``"random"`` (default) or ``"choose"``; ``first`` = 0 (default) or 1.

This module holds the exact solver, :func:`solve` (the probability that the side to move wins,
with a best move for each roll) and :func:`analyze` (the value of every legal action), the bot
:func:`best_move` (the solver in endgames, a heuristic before), the strongest player
:func:`best_action` (the solver in endgames, an expectimax over the die before) with its
position estimate :func:`evaluate`, and helpers that work on any
state of this game: :func:`board` (a 5x5 ``int8`` numpy array, also ``state.board()``;
``state.view()`` is the position as a dict),
:func:`text` (a readable board), :func:`svg` (a picture for notebooks) and :func:`status`.

Rules, notation and action names: docs/rules/einstein.md (the solver and the bot: its *Solver*
section; how the solver searches: the module documentation of
rust/quanta-core/src/einstein/solve/mod.rs).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from . import _core, _svg, views
from ._core import State
from ._svg import FONT, num

__all__ = [
    "Solution",
    "analyze",
    "best_action",
    "best_move",
    "board",
    "solve",
    "text",
    "svg",
    "status",
    "evaluate",
    "SOLVER_STONES",
]

_SIZE = 5
_COLUMNS = "abcde"
_P1_LETTERS = "abcdef"


def _view(state: State, what: str, viewer: int | None = None) -> views.EinsteinView:
    """What ``viewer`` sees of ``state`` (None: everything); another game's state raises
    :class:`~quanta.NotApplicableError` naming ``what``."""
    return _core.game_state(state, _core.EinsteinState, what).view(viewer)


def board(state: State) -> npt.NDArray[np.int8]:
    """The board as a 5x5 ``int8`` array indexed ``[row, col]`` (row 0 at the top): player 0's
    stones are +1..+6, player 1's -1..-6, empty cells 0 (also ``state.board()``)."""
    return _core.game_state(state, _core.EinsteinState, "einstein.board").board()


def status(state: State) -> str:
    """One line saying what happens next, e.g. ``"player 0 to move, rolled 4"``,
    ``"player 1 to roll"``, ``"player 0 to arrange its stones"`` (``setup="choose"``),
    ``"random setup of player 0's stones"`` (``setup="random"``) or ``"player 0 wins"``."""
    return _status(_view(state, "einstein.status"), state.is_chance)


def _status(view: views.EinsteinView, chance: bool) -> str:
    player = view["player"]
    if view["phase"] == "over":
        return f"player {view['winner']} wins"
    if view["phase"] == "setup":
        if chance:
            return f"random setup of player {player}'s stones"
        return f"player {player} to arrange its stones"
    if view["phase"] == "roll":
        return f"player {player} to roll"
    return f"player {player} to move, rolled {view['die']}"


def text(state: State, viewer: int | None = None) -> str:
    """A readable board: column letters a-e on top, row numbers 1-5 on the left, stones as in the
    notation (``1``-``6`` player 0, ``a``-``f`` player 1, ``.`` empty), then the status line.
    EinStein hides nothing: ``viewer`` (None, 0 or 1) sees it all."""
    view = _view(state, "einstein.text", viewer)
    return "\n".join([*_board_lines(view["board"]), _status(view, state.is_chance)])


def _board_lines(cells: list[list[int]]) -> list[str]:
    """The lines of :func:`text`'s board (without the status)."""
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
    return lines


# Colours of the SVG picture.
_BLUE = "#1f5fbf"
_ORANGE = "#e8790c"
_BLUE_TINT = "#d6e4f7"  # e5, player 0's target
_ORANGE_TINT = "#fbe3cc"  # a1, player 1's target
_GRID = "#555555"


def svg(state: State, size: float = 250) -> str:
    """A self-contained SVG picture of the position (about ``size`` pixels wide): the grid with
    its coordinates, the two target corners tinted in the colour of the player aiming at them,
    player 0's stones blue and player 1's orange (each with its number), and a status caption.
    ``size`` must be a number of pixels above 30 (else :class:`~quanta.InvalidOptionError`)."""
    size = _svg.pixels("size", size, above=30)  # 30 px of margins
    view = _view(state, "einstein.svg")
    cells = view["board"]
    cell = (size - 30) / _SIZE  # 44 px for the default size
    left = 20.0  # room for the row numbers
    top = 20.0  # room for the column letters
    grid = cell * _SIZE
    width = left + grid + 10
    height = top + grid + 28  # room for the caption
    out = _svg.start(width, height)
    out.extend(_board_svg(cells, left, top, cell))
    out.append(_svg.caption(left - 14, top + grid + 19, _status(view, state.is_chance)))
    return _svg.finish(out)


def _board_svg(cells: list[list[int]], left: float, top: float, cell: float) -> list[str]:
    """The elements of the board (the target corners tinted, the grid with its coordinates, the
    stones) with its top left corner at (``left``, ``top``) and cells of ``cell`` pixels; the
    row numbers are centred 7 pixels left of it. EinStein a la Card draws its board with it
    too."""
    out = []
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
    return out


# ---- the solver and the bot ----


#: The exact value of a position after the setup (a frozen class made in Rust): ``value`` (the
#: probability that the player to move, or about to roll, wins with optimal play; in a finished
#: game 1 or 0 for the player the notation names, i.e. 0 for the loser), ``best_moves`` (a dict
#: roll -> best action: all six rolls before the roll, the one rolled after it, empty in a
#: finished game), ``best_move_strings`` (the same as move strings), ``nodes``, ``seconds`` and
#: ``exact`` (always true: a search out of budget raises :class:`quanta.SearchLimitError`).
Solution = _core.EinsteinSolution

#: :func:`best_move` uses the solver once each side has at most this many stones.
SOLVER_STONES = 3


def solve(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
          memory_mb: int = 1024, threads: int | None = None) -> Solution:
    """Solves ``state`` exactly: the probability that the player to move (or about to roll) wins
    when both sides play optimally, and a best move for each roll still to come.

    The value is an expectiminimax over the die (before the roll, the mean over the six rolls;
    after it, the best of that roll's moves). ``memory_mb`` bounds the transposition table (once
    full, the search goes on, still exact, only slower); ``threads`` (default: one per core)
    search together, and the answer is the same at any thread count, only ``nodes`` varies a
    little. Endgames take milliseconds; stones far from their corners are out of reach
    (figures: benches/README.md). What the answer means: docs/rules/einstein.md, *Solver*; how
    it searches: the module documentation of rust/quanta-core/src/einstein/solve/mod.rs.

    Works from any position after the setup, with the die rolled or not. Ties between equally
    good moves go to the lowest action. A finished game is answered (``value`` 1 or 0 for the
    player the notation names, no moves); a setup position or another game's state raises
    :class:`quanta.NotApplicableError`, a bad limit :class:`quanta.InvalidOptionError`, and a
    search past ``timeout`` (seconds) or ``max_nodes`` (positions expanded; exact on one
    thread, with several overshot by up to 1,024 a thread) :class:`quanta.SearchLimitError`.
    Ctrl-C interrupts it; the GIL is released meanwhile.

    >>> import quanta
    >>> s = quanta.game("einstein").from_notation("...../.a.../...../...1./..... 0 -")
    >>> solve(s).value
    1.0
    """
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.einstein_solve(state, limits)


def analyze(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
            memory_mb: int = 1024, threads: int | None = None) -> dict[int, float]:
    """The value of every legal action of a position after the setup, ``{action: value}``.

    After a roll: each move with the probability that the player who makes it wins. Before the
    roll: each roll (actions 75-80, ``roll 1`` to ``roll 6``) with the probability that the
    player about to roll wins after rolling it (their mean is :func:`solve`'s value). Empty in a
    finished game. Limits and errors as in :func:`solve`."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return dict(_core.einstein_analyze(state, limits))


def best_move(state: State, *, solver_stones: int = SOLVER_STONES, seed: int = 0,
              timeout: float | None = 5.0, max_nodes: int | None = None,
              memory_mb: int = 512, threads: int | None = None) -> int | None:
    """The bot's action in ``state`` (after a roll, or at an arrangement of ``setup="choose"``).

    - **Endgame**: once each side has at most ``solver_stones`` stones (default 3), the exact
      solver's best move for the roll (the lowest action among the best), if the solve ends
      within ``timeout`` seconds (default 5), ``max_nodes`` and ``memory_mb`` on ``threads``
      threads (``None``: every core; the move is the same at any thread count); past them the
      heuristic below moves instead (a move, never a claim about the position's value).
    - **Before that, the heuristic**: a move that wins at once if there is one, else one that
      leaves the opponent few winning rolls and gains most in expected distance
      (docs/rules/einstein.md, *The bot*); ties are broken uniformly at random by ``seed``.
    - **Arrangement** (``setup="choose"``): a uniformly random arrangement drawn with ``seed``.

    Returns None in a finished game; before a roll (a chance node) it raises
    :class:`quanta.NotApplicableError`. ``solver_stones=0`` plays the heuristic alone."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.einstein_best_move(state, solver_stones, seed, limits)


def best_action(state: State, *, seed: int = 0, timeout: float | None = 0.1,
                max_nodes: int | None = None, memory_mb: int = 512,
                threads: int | None = None) -> int:
    """The strongest player's action in ``state`` (after a roll, or at an arrangement of
    ``setup="choose"``), within ``timeout`` seconds (default 0.1) and ``max_nodes``.

    - **Endgame**: once each side has at most three stones, the exact solver's best move if it
      answers within half the time (and ``max_nodes``, ``memory_mb``, on ``threads`` threads).
    - **Otherwise**: an expectiminimax over the die (each roll 1/6, the best move after it) a
      turn deeper at a time, the positions at its depth valued by :func:`evaluate`, each search
      taking the moves best first by the last one's values; the best move of the deepest
      search (of a search stopped part-way, among the moves it valued, once it has valued the
      last search's best), ties broken at random by ``seed``. With neither ``timeout`` nor
      ``max_nodes`` it searches three turns deep.
    - **Arrangement** (``setup="choose"``): a uniformly random arrangement drawn with ``seed``.

    Given the position and the seed the action is the same, except where the clock stops a
    search. A finished game or a chance node raises :class:`quanta.NotApplicableError`; a bad
    limit :class:`quanta.InvalidOptionError`. docs/rules/einstein.md, *The strongest player*."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.einstein_best_action(state, seed, limits)


def evaluate(state: State) -> float:
    """The estimated probability that the player the notation names wins, from a race (no
    search): about to roll, the probability that it brings a stone home in no more turns than
    the opponent, each side racing as if nothing stood in its way (each roll stepping the stone
    that leaves it the fewest turns expected) and the two races independent; after a roll, the
    best move's value (1 if it wins at once, else 1 minus the opponent's estimate). A finished game gives 1 or 0
    (0: the notation names the loser); a setup raises :class:`quanta.NotApplicableError`.

    >>> import quanta
    >>> s = quanta.game("einstein").from_notation(".a.../...../6..../...1./..... 0 -")
    >>> round(evaluate(s), 3)    # rolls 1-5 move stone 1 home, a 6 moves stone 6
    0.833
    """
    return _core.einstein_evaluate(state)
