"""Quincunx (Chris DeLeo): placing Decktet cards on a grid, for 1 to 4 players.

Rules: docs/rules/quincunx.md. Make the game with ``quanta.game("quincunx", ...)``; options:

* ``players`` = 2 (default), 3, 4, or 1 for solitaire (4x4 grid, no diagonal bonuses, lost when
  the hand runs out before the grid is full);
* ``excuse`` = False (default) or True: the Excuse (a blank) is in the deck;
* ``match`` = False (default: one round) or True: one round per dealer, totals add up (not
  with solitaire);
* ``setup`` = ``"wiki"`` (default: the start cards on the corners, and the centre with 2 or 4
  players) or ``"book"`` (the newer official version, 2 or 3 players only: one start card, hands
  of 12 / 8, every card edge to edge with a placed card, the grid grows up to 5x5).

Cards and codes
---------------
Card index 0..36 in the Decktet's order: 0-5 the Aces (Moons, Suns, Waves, Leaves, Wyrms,
Knots), 6-29 the numerals (ranks 2-9, three per rank, each with two suits), 30-35 the Crowns,
36 the Excuse. Suit letters ``M S W L Y K`` in that order. Codes: an Ace is ``A`` + its suit
(``AM``), a numeral its rank + its two suit letters in deck order (``2MK`` the Author, ``7WY``
the Cave), a Crown ``C`` + its suit (``CK`` the Windfall), the Excuse ``X``. Ranks: Ace 1,
numerals 2-9, Crown 10, the Excuse none. :data:`CARDS` lists every card with its name.

Grid and cell names
-------------------
5x5 with 2-4 players, 4x4 in solitaire; row 0 at the top, cell index = row * side + col. A cell
is named by its column letter and its row number from the top: (0, 0) = ``a1``, (2, 4) =
``e3``. The start cards lie on the corners, and on the centre ``c3`` with 2 and 4 players.
Hands: 10 (2 players), 7 (3), 6 (4), 8 (solitaire); the rest is the draw pile.

With ``setup="book"`` the grid grows on a 9x9 board (cells ``a1`` .. ``i9``, index = row * 9 +
col): the one start card lies on its centre ``e5`` (cell 40); a card may go on an empty cell
that touches a placed card edge to edge and keeps all placed cards within 5 rows and 5 columns;
the round ends with 25 cards (the 5x5 square full). Hands: 12 (2 players), 8 (3).
``grid()``, ``text()``, ``svg()``, the notation's grid field and the observations show the whole
9x9 board.

Action ids
----------
``cells`` = 25, 16 in solitaire, 81 with ``setup="book"``; ``num_actions`` = 37 * cells + 37.

* ``card * cells + cell`` places a card from the mover's hand on an empty cell (book: a cell
  as above).
* ``37 * cells + card`` is the chance outcome "this card comes", during the deal (start cells
  in increasing cell order, then each hand in full, from the player who begins on) and for a
  draw (one per neighbour summing 11 or 20, uniform over the pile, resolved before the next
  player moves; a draw from an empty pile does nothing).

Legal actions are sorted ascending. A player with an empty hand passes (is skipped).

Action strings
--------------
A placement is the card code, a space and the cell name: ``"2MK c3"``. A chance outcome is
``"deal 2MK"`` during the deal and ``"draw 2MK"`` for a draw. ``parse_action`` reads them back.

Notation
--------
``<grid> <hands> <pile> <scores> <turn> <round>``, fields separated by one space:

* grid: rows top to bottom separated by ``/``, cells by ``,``, each a card code or ``.``
  (book: the 9x9 board; its cards must hold ``e5``, be connected edge to edge and fit in 5x5);
* hands: each player's cards in card-index order joined by ``,`` (``-`` if empty), players
  separated by ``|``;
* pile: its cards in card-index order (``-`` if empty): the cards nobody has seen;
* scores: per player, the totals of the finished rounds (hand penalties included) plus this
  round's turn points, joined by ``,``;
* turn: ``deal`` (dealing), ``p`` (player p places), ``p+k`` (player p has k draws pending)
  or ``end``;
* round: ``r/rounds``, 1-based (rounds = 1, or the number of players with ``match=True``).

Examples:

* ``.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. -|- AM,AS,AW,...,CY,CK 0,0 deal 1/1``
  -- the start of a two-player game: nothing dealt, all 36 cards in the pile (written out in
  full in the real notation).
* ``AM,.,.,AS/.,.,.,./.,.,.,./AW,.,.,AL AY,AK,2MK,2SY,2WL,3MW,3SK,3LY 4MS,4WL,...,CK 0 0 1/1``
  -- solitaire after a deal of the lowest cards: the four corners, then the hand; player 0
  places.
* ``AM,3MW,.,AS/.,.,.,./.,.,.,./AW,.,.,AL AY,AK,2MK,2SY,2WL,3SK,3LY 4MS,4WL,...,CK 4 0 1/1``
  -- after ``"3MW b1"``: the Journey next to the Ace of Moons, 1 + 3 = 4 with a shared suit
  (Ace matching), +4.
* ``... 5,0 0+2 1/1`` -- player 0 made two sums of 11 or 20 and draws two cards next (chance
  nodes), then player 1 places.

Observations
------------
``observation_string(p)``: ``<grid> <p's hand> <hand sizes> <pile size> <scores> <turn>
<round>`` -- the notation with the other hands and the pile reduced to their sizes (joined
by ``|``).

``observation_tensor(p)``: float32 of shape ``(38, cells + 2)`` (book: ``(38, 83)``). Rows 0..36, one per card
index: column ``cell`` (0..cells-1) is 1 where the card lies on the grid; column ``cells`` is 1
if the card is in p's hand; column ``cells + 1`` is 1 if p has not seen it (the pile or another
player's hand). Row 37 (``n`` players): columns ``0..n`` the hand sizes, ``n..2n`` the scores,
``2n..3n`` 1 for the player to place or draw, ``3n..4n`` 1 for the observer p, then ``4n`` the
pile size, ``4n+1`` pending draws, ``4n+2`` 1 while dealing, ``4n+3`` the 0-based round,
``4n+4`` 1 when the game is over. Other entries are 0.

Returns and extras
------------------
``returns()`` are the scores (final totals at the end; solitaire: turn points minus the hand
penalty, a lost game keeps its turn points). State extras (``STATE_METHODS``): ``grid()``,
``hand(player)``, ``scores()``, ``pile()``, ``lost()``. Module helpers: :func:`score_placement`,
:func:`text`, :func:`svg`, :func:`status`.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import NamedTuple
from xml.sax.saxutils import escape

from . import _core, _svg
from ._svg import FONT, num
from .exceptions import IllegalMoveError

__all__ = [
    "CARDS",
    "Card",
    "Placement",
    "STATE_METHODS",
    "grid",
    "hand",
    "lost",
    "pile",
    "score_placement",
    "scores",
    "status",
    "svg",
    "text",
]

_COLUMNS = "abcdefghi"
_SUIT_NAMES = {"M": "Moons", "S": "Suns", "W": "Waves", "L": "Leaves", "Y": "Wyrms", "K": "Knots"}


class Card(NamedTuple):
    """One card of the Decktet: its index, code, name, rank (0 for the Excuse) and suit
    letters (deck order; empty for the Excuse)."""

    index: int
    code: str
    name: str
    rank: int
    suits: str


#: Every card by index, the Excuse last (read from the engine's table).
CARDS: tuple[Card, ...] = tuple(
    Card(i, *entry) for i, entry in enumerate(_core.quincunx_deck())
)
_BY_CODE = {card.code: card for card in CARDS}


# ---- reading a state ----


def _fields(state) -> list[str]:
    """The six notation fields: grid, hands, pile, scores, turn, round."""
    return state.notation().split(" ")


def _codes(field: str) -> list[str]:
    return [] if field == "-" else field.split(",")


def grid(state) -> list[list[str | None]]:
    """The grid as rows top to bottom, each a list of card codes or None (empty)."""
    return [
        [None if code == "." else code for code in row.split(",")]
        for row in _fields(state)[0].split("/")
    ]


def hand(state, player: int) -> list[str]:
    """``player``'s cards as codes, in card-index order."""
    hands = _fields(state)[1].split("|")
    try:
        index = None if isinstance(player, bool) else operator.index(player)
    except TypeError:
        index = None
    if index is None or not 0 <= index < len(hands):
        raise ValueError(f"player must be in 0..{len(hands)}, not {player!r}")
    return _codes(hands[index])


def pile(state) -> list[str]:
    """The cards nobody has seen (undealt, or left to draw), as codes in card-index order."""
    return _codes(_fields(state)[2])


def scores(state) -> list[int]:
    """Per player: the totals of the finished rounds (hand penalties included) plus this round's
    turn points (no penalty yet)."""
    return [int(s) for s in _fields(state)[3].split(",")]


def lost(state) -> bool:
    """True for a solitaire game lost: the hand ran out before the grid was full."""
    return (
        state.game.num_players == 1
        and state.is_terminal
        and any(code is None for row in grid(state) for code in row)
    )


def status(state) -> str:
    """One line saying what happens next, e.g. ``"round 1/1: player 0 to place"``,
    ``"round 1/1: player 1 draws 2 cards"`` (or ``a card``), ``"round 2/3: dealing"`` or
    ``"game over: player 0 wins with 31"`` (solitaire: ``"game over: won, 12 points"`` or
    ``"game over: lost, 7 points"``)."""
    fields = _fields(state)
    turn, round_text = fields[4], fields[5]
    if turn == "end":
        totals = scores(state)
        if len(totals) == 1:
            return f"game over: {'lost' if lost(state) else 'won'}, {totals[0]} points"
        best = max(totals)
        winners = [str(p) for p, t in enumerate(totals) if t == best]
        if len(winners) == 1:
            return f"game over: player {winners[0]} wins with {best}"
        return f"game over: players {', '.join(winners)} tie with {best}"
    if turn == "deal":
        return f"round {round_text}: dealing"
    player, _, draws = turn.partition("+")
    if draws:
        cards = "a card" if draws == "1" else f"{draws} cards"
        return f"round {round_text}: player {player} draws {cards}"
    return f"round {round_text}: player {player} to place"


def text(state) -> str:
    """A readable position: the grid with card codes (column letters on top, row numbers on
    the left, ``.`` for an empty cell), each hand and score, the pile's size and the status."""
    rows = grid(state)
    side = len(rows)
    lines = ["    " + "".join(f"{c:<5}" for c in _COLUMNS[:side]).rstrip()]
    for r, row in enumerate(rows):
        lines.append(f"{r + 1:>2}  " + "".join(f"{code or '.':<5}" for code in row).rstrip())
    totals = scores(state)
    for p, total in enumerate(totals):
        lines.append(f"player {p}: {' '.join(hand(state, p)) or '-'}  ({total} points)")
    lines.append(f"pile: {len(pile(state))} cards")
    lines.append(status(state))
    return "\n".join(lines)


# Colours of the SVG picture: one per suit, in the Decktet's spirit.
_SUIT_COLOURS = {
    "M": "#5a6fb0",  # Moons: blue-grey
    "S": "#d99a00",  # Suns: gold
    "W": "#1c8fb8",  # Waves: sea blue
    "L": "#3f9a3a",  # Leaves: green
    "Y": "#a0522d",  # Wyrms: brown
    "K": "#b83232",  # Knots: red
}
_GRID = "#555555"


def _rank_label(card: Card) -> str:
    return {0: "", 1: "A", 10: "C"}.get(card.rank, str(card.rank))


def svg(state, cell: float = 64.0) -> str:
    """A self-contained SVG picture: the grid with coordinates, each card as a tile showing its
    rank (A, 2-9, C), its name and its suit letters in the suits' colours; below, each hand's
    size and score and the status line."""
    rows = grid(state)
    side = len(rows)
    left, top = 20.0, 20.0
    size = cell * side
    totals = scores(state)
    width = left + size + 10
    height = top + size + 20 + 16 * (len(totals) + 1)
    out = _svg.start(width, height)
    out.extend(_svg.square_grid(left, top, cell, side, row_numbers_x=left - 8, colour=_GRID))
    pad = cell * 0.06
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            if code is None:
                continue
            card = _BY_CODE[code]
            x, y = left + c * cell + pad, top + r * cell + pad
            tile = cell - 2 * pad
            colour = _SUIT_COLOURS[card.suits[0]] if card.suits else "#999999"
            out.append(
                f"<rect x='{num(x)}' y='{num(y)}' width='{num(tile)}' height='{num(tile)}' "
                f"rx='{num(tile * 0.1)}' fill='#fbf8ef' stroke='{colour}' stroke-width='2'>"
                f"<title>{escape(card.name)} ({escape(code)})</title></rect>"
            )
            out.append(
                f"<text x='{num(x + 5)}' y='{num(y + 17)}' font-size='16' font-weight='bold' "
                f"{FONT} fill='#222222'>{_rank_label(card)}</text>"
            )
            for k, suit in enumerate(card.suits):
                out.append(
                    f"<text x='{num(x + tile - 5)}' y='{num(y + 15 + 14 * k)}' "
                    f"text-anchor='end' font-size='13' font-weight='bold' {FONT} "
                    f"fill='{_SUIT_COLOURS[suit]}'>{suit}</text>"
                )
            name = card.name.removeprefix("the ")
            out.append(
                f"<text x='{num(x + tile / 2)}' y='{num(y + tile - 6)}' text-anchor='middle' "
                f"font-size='{num(min(9.0, tile / max(len(name), 1) * 1.7))}' {FONT} "
                f"fill='#333333'>{escape(name)}</text>"
            )
    y = top + size + 18
    for p, total in enumerate(totals):
        line = f"player {p}: {len(hand(state, p))} cards, {total} points"
        out.append(_svg.caption(left, y, line))
        y += 16
    out.append(_svg.caption(left, y, status(state)))
    return _svg.finish(out)


# ---- scoring one placement ----


@dataclass(frozen=True)
class Placement:
    """What placing one card scores, by kind; ``points`` is their sum and ``draws`` the number
    of cards the placement makes its player draw (one per neighbour summing 11 or 20)."""

    basic: int
    pairs: int
    straights: int
    sets: int
    power: int
    draws: int

    @property
    def points(self) -> int:
        return self.basic + self.pairs + self.straights + self.sets + self.power

    @property
    def breakdown(self) -> dict[str, int]:
        """The five kinds of points by name: basic, pairs, straights, sets, power."""
        return {
            "basic": self.basic,
            "pairs": self.pairs,
            "straights": self.straights,
            "sets": self.sets,
            "power": self.power,
        }


def _cell(cell) -> tuple:
    """(row, col) from a cell given as (row, col) or as a name such as ``"c3"``."""
    if not isinstance(cell, str):
        return cell
    column, row = cell[:1], cell[1:]
    if column and column in _COLUMNS and row.isdigit() and row.isascii():
        return int(row) - 1, _COLUMNS.index(column)
    raise IllegalMoveError(f"quincunx: {cell!r} is not a cell name such as 'c3'")


def score_placement(grid, card: str, cell, *, solitaire: bool = False) -> Placement:
    """What placing ``card`` (a code such as ``"7WY"``) on the empty ``cell`` of ``grid`` scores.

    ``grid`` is a 4x4 or 5x5 list of rows, each entry a card code or None; ``cell`` is
    ``(row, col)`` (row 0 at the top) or a cell name such as ``"c3"``; ``solitaire=True``
    leaves straights and threes of a kind on the diagonals out (the solitaire rule). For a
    ``setup="book"`` position pass a 5x5 window of its 9x9 board holding every placed card and
    the cell: a placement scores the same there.

    Raises :class:`~quanta.InvalidNotationError` for an unknown card code or a grid that is not
    4x4 or 5x5, and :class:`~quanta.IllegalMoveError` for a cell that is off the grid or
    occupied, or a card that is on the grid already (both are ``ValueError``\\ s).

    >>> rows = [[None] * 5 for _ in range(5)]
    >>> rows[2][3] = "6MW"
    >>> score_placement(rows, "7WY", "c3").breakdown   # 6 + 7 = 13: +3
    {'basic': 3, 'pairs': 0, 'straights': 0, 'sets': 0, 'power': 0}
    """
    return Placement(*_core.quincunx_score_placement(grid, card, _cell(cell), bool(solitaire)))


#: Extra methods the generic State object exposes for this game (each takes the state first).
STATE_METHODS = {"grid": grid, "hand": hand, "scores": scores, "pile": pile, "lost": lost}

# The solitaire solvers (documented in their own module) belong to this game's namespace.
from ._quincunx_solvers import *  # noqa: E402,F403
from ._quincunx_solvers import __all__ as _solver_names  # noqa: E402

__all__ += _solver_names
