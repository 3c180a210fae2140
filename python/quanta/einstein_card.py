"""EinStein a la Card (Ingo Althöfer): EinStein würfelt nicht played with cards instead of the
die, with six special cards (Murphy Light, Full Murphy, Da Capo, Dirac, Heisenberg,
Schroedinger).

Options: ``setup`` = ``"random"`` (default) or ``"choose"``; ``first`` = 0 (default) or 1;
``hand_size`` = 2 (default; one integer for both players or a pair, e.g. ``(2, 3)`` for the
handicap); ``open_hands`` = False (default) or True for both players, or a pair, e.g.
``(False, True)``: player 1's hand is open, shown to player 0 (the other handicap: the
stronger player plays with open cards).

State extras (methods of its states, also module functions): ``board()`` (a 5x5 ``int8``
array as in EinStein), ``hand(player)``, ``heap(player)`` (the cards left, in card order: their
order is never seen) and ``discards(player)`` (in the order played), each a list of card names
(``"3"``, ``"Heisenberg"``, ...), and ``view(player=None)`` (what a player sees, as a dict). Module helpers: :data:`CARDS`, :func:`status`, :func:`text` and
:func:`svg` (``viewer`` picks whose hand shows). With both hands open (``open_hands=True``)
the exact solver :func:`solve` (the expected return of the player to act, and a best action)
and :func:`analyze` (the value of every legal action).

Rules, notation, action names and every ruling: docs/rules/einstein_card.md (the solver: its
*Solver* section; how it searches: the module documentation of
rust/quanta-core/src/einstein_card/solve/mod.rs).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from . import _core, _svg, views
from ._core import State
from ._svg import FONT, num
from .einstein import _board_lines, _board_svg
from .exceptions import InvalidOptionError, quoted

__all__ = ["CARDS", "Solution", "analyze", "board", "discards", "hand", "heap",
           "solve", "status", "svg", "text"]

#: Each card's notation code and name, in card order.
CARDS: dict[str, str] = {
    "1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6",
    "L": "Murphy Light", "F": "Full Murphy", "C": "Da Capo", "D": "Dirac",
    "H": "Heisenberg", "S": "Schroedinger",
}  # fmt: skip


def _state(state: State, what: str) -> _core.EinsteinCardState:
    """``state`` as a state of this game; another game's raises
    :class:`~quanta.NotApplicableError` naming ``what``."""
    return _core.game_state(state, _core.EinsteinCardState, what)


def board(state: State) -> npt.NDArray[np.int8]:
    """The board as a 5x5 ``int8`` array indexed ``[row, col]``: player 0's stones +1..+6,
    player 1's -1..-6, empty cells 0 (as :func:`quanta.einstein.board`)."""
    return _state(state, "einstein_card.board").board()


def hand(state: State, player: int) -> list[str]:
    """``player``'s hand as card names, in card order (the whole state: hidden or not)."""
    return _state(state, "einstein_card.hand").hand(player)


def heap(state: State, player: int) -> list[str]:
    """The cards left in ``player``'s heap, in card order."""
    return _state(state, "einstein_card.heap").heap(player)


def discards(state: State, player: int) -> list[str]:
    """The cards ``player`` has played, in order."""
    return _state(state, "einstein_card.discards").discards(player)


def status(state: State) -> str:
    """One line saying what happens next, e.g. ``"player 0 to play a card"``, ``"player 1 to
    name a stone of player 0 (Murphy Light)"``, ``"player 0 to pick j (Heisenberg rolled 4)"``
    or ``"player 1 wins"`` / ``"draw: every card played"``."""
    return _status(_state(state, "einstein_card.status").view(), state)


def _status(view: views.EinsteinCardView, state: State) -> str:
    p, o = view["player"], 1 - view["player"]
    kind, number, cell = view["phase"], view["number"], view["cell"]
    if kind == "over":
        winner = [r > 0 for r in state.returns()]
        return f"player {winner.index(True)} wins" if any(winner) else "draw: every card played"
    if kind == "move":
        return f"player {p} to move as a {number}"
    return {
        "setup": f"player {p} to arrange its stones"
        if not state.is_chance
        else f"random setup of player {p}'s stones",
        "deal": f"dealing player {p}'s hand",
        "play": f"player {p} to play a card",
        "draw": f"player {p} draws a card",
        "murphy": f"player {o} to name a stone of player {p} (Murphy Light)"
        if cell is None
        else f"player {p} to step the stone on {cell} (Murphy Light)",
        "full": f"player {o} to move for player {p} (Full Murphy)",
        "dirac": f"player {p} to step any stone (Dirac)",
        "heisenberg": f"player {p} rolls (Heisenberg)"
        if number is None
        else f"player {p} to pick j (Heisenberg rolled {number})",
        "schroedinger": f"player {p} to mark a stone (Schroedinger)"
        if cell is None
        else f"player {p} rolls for the stone on {cell} (Schroedinger)",
    }[kind]


def text(state: State, viewer: int | None = None) -> str:
    """A readable position: the board as in :func:`quanta.einstein.text`, each player's hand,
    heap size and discards, then the status line. ``viewer`` None (the default) sees the whole
    state; 0 or 1 sees what that player may (another hand, unless open, as ``?`` per card)."""
    view = _state(state, "einstein_card.text").view(viewer)
    lines = _board_lines(view["board"])
    for p in (0, 1):
        held = view["hands"][p]
        if held is None:
            held = ["?"] * view["hand_sizes"][p]
        lines.append(
            f"player {p}: hand {', '.join(held) or '-'}; "
            f"heap {view['heap_sizes'][p]}; played {', '.join(view['discards'][p]) or '-'}"
        )
    lines.append(_status(view, state))
    return "\n".join(lines)


_CARD_FACE = {0: "#1f5fbf", 1: "#e8790c"}  # the players' colours, as on the board
_CARD_BACK = "#8a8a8a"
_SHORT = {"Murphy Light": "ML", "Full Murphy": "FM", "Da Capo": "DC", "Dirac": "Di",
          "Heisenberg": "He", "Schroedinger": "Sc"}  # fmt: skip


def _card(x: float, y: float, w: float, h: float, name: str | None, player: int) -> list[str]:
    """A card: its face (short label, full name as tooltip) or, for ``None``, its back."""
    fill = _CARD_FACE[player] if name is not None else _CARD_BACK
    out = [
        f"<rect x='{num(x)}' y='{num(y)}' width='{num(w)}' height='{num(h)}' rx='3' "
        f"fill='{fill}' stroke='#222222' stroke-width='1'>"
        + (f"<title>{name}</title>" if name is not None else "")
        + "</rect>"
    ]
    if name is not None:
        out.append(
            f"<text x='{num(x + w / 2)}' y='{num(y + h / 2 + 5)}' text-anchor='middle' "
            f"font-size='13' font-weight='bold' {FONT} fill='white'>{_SHORT.get(name, name)}</text>"
        )
    return out


def svg(state: State, size: float = 250, viewer: int | None = None) -> str:
    """A self-contained SVG picture: EinStein's board (about ``size`` pixels wide), under it a
    row per player with the last card they played and their hand as ``viewer`` may see it
    (``None``, the default: only the open hands of ``open_hands``; 0 or 1: that player's own
    hand too; hidden cards show their backs), each heap's size, and a status caption. ``size``
    must be a number of pixels above 30 (else :class:`~quanta.InvalidOptionError`)."""
    size = _svg.pixels("size", size, above=30)
    if viewer is not None and (isinstance(viewer, bool) or viewer not in (0, 1)):
        raise InvalidOptionError(f"viewer must be None, 0 or 1, not {quoted(viewer)}")
    view = _state(state, "einstein_card.svg").view()
    open_hands = state.game.options["open_hands"]
    assert isinstance(open_hands, tuple), "g.options reports open_hands as a pair"
    cell = (size - 30) / 5
    left, top = 20.0, 20.0
    grid = cell * 5
    card_w, card_h, gap = 30.0, 40.0, 6.0
    rows_top = top + grid + 12
    longest = max(view["hand_sizes"])
    cards_width = left - 14 + (card_w + 3 * gap) + longest * (card_w + gap) + 10
    captions = [
        f"player {p}: last played {played[-1] if played else '-'}; "
        f"heap {view['heap_sizes'][p]}; hand {len(view['hands'][p] or [])}"
        for p, played in enumerate(view["discards"])
    ]
    status = _status(view, state)
    width = _svg.fit(max(left + grid + 10, cards_width), left - 14, [*captions, status])
    height = rows_top + 2 * (card_h + 22) + 24
    out = _svg.start(width, height)
    out.extend(_board_svg(view["board"], left, top, cell))
    for p in (0, 1):
        y = rows_top + p * (card_h + 22)
        played, held = view["discards"][p], view["hands"][p] or []
        shown = open_hands[p] or viewer == p
        out.append(_svg.caption(left - 14, y + 11, captions[p]))
        x = left - 14
        if played:
            out.extend(_card(x, y + 16, card_w, card_h, played[-1], p))
        x += card_w + 3 * gap
        for name in held:
            out.extend(_card(x, y + 16, card_w, card_h, name if shown else None, p))
            x += card_w + gap
    out.append(_svg.caption(left - 14, height - 8, status))
    return _svg.finish(out)


# ---- the solver (both hands open) ----


#: The exact value of a decision node with both hands open (a frozen class made in Rust):
#: ``value`` (the expected return of the player to act with optimal play by both sides, in
#: [-1, 1]: +1 a win, -1 a loss, 0 a draw; in a finished game the return of the player the
#: notation names), ``best_action`` (the lowest action of the highest value; None in a finished
#: game), ``best_move`` (its string), ``nodes``, ``seconds`` and ``exact`` (always true: a
#: search out of budget raises :class:`quanta.SearchLimitError`).
Solution = _core.EinsteinCardSolution


def solve(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
          memory_mb: int = 1024, threads: int | None = None) -> Solution:
    """Solves a position of a game with both hands open (``open_hands=True``) exactly: the
    expected return of the player to act when both sides play optimally, and a best action.

    The value is for the player to act (``state.current_player``: the opponent of the card's
    player while Murphy Light's stone is named and Full Murphy's step is made), in [-1, 1]: +1
    a win, -1 a loss, 0 a draw (every card played without a winner), so it is the probability
    of winning less that of losing. Every draw is a chance event with the odds of the copies
    left in the heap (the heap's order is never part of a position), every Heisenberg or
    Schroedinger roll one of 1/6 a face; the player to move takes the best action for itself.
    ``memory_mb`` bounds the transposition table (once full it overwrites and goes on, still
    exact, only slower); ``threads`` threads (default: one per core) search together, and the
    answer is the same at any thread count (only ``nodes`` varies a little). The best action
    is the lowest of those of the highest value. What the answer means:
    docs/rules/einstein_card.md, *Solver*; how it searches: the module documentation of
    rust/quanta-core/src/einstein_card/solve/mod.rs.

    A finished game is answered (``value`` the return of the player the notation names,
    ``best_action`` None). A position in which a hand is hidden raises
    :class:`quanta.NotApplicableError` (with hidden hands use a bot:
    :func:`quanta.bots.Best`, or an information-set search over
    ``state.resample``), as do a chance node (a draw or a roll: solve each outcome's position),
    the setup, the deal and another game's state; a bad limit raises
    :class:`quanta.InvalidOptionError`, and a search past ``timeout`` (seconds) or
    ``max_nodes`` (positions expanded; exact on one thread, with several overshot by up to
    1,024 a thread) :class:`quanta.SearchLimitError`. Ctrl-C interrupts it; the GIL is released
    meanwhile.

    >>> import quanta
    >>> g = quanta.game("einstein_card", open_hands=True)
    >>> s = g.from_notation("...../.a.../...../...1./..... 0 play 12|34 "
    ...                     "123445566LFCDHS|112235566LFCDHS 3|4")
    >>> solve(s).best_move
    'play 1'
    """
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.einstein_card_solve(state, limits)


def analyze(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
            memory_mb: int = 1024, threads: int | None = None) -> dict[int, float]:
    """The value of every legal action of a decision node with both hands open, ``{action:
    value}``: the expected return of the player to act (in [-1, 1], as :func:`solve`'s value)
    when it takes the action and both sides then play optimally; the highest of them is
    :func:`solve`'s value. Empty in a finished game. Limits and errors as in :func:`solve`."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return dict(_core.einstein_card_analyze(state, limits))

