"""Quincunx (Chris DeLeo): placing Decktet cards on a grid, for 1 to 4 players, with solitaire
solvers.

Options: ``players`` = 2 (default), 3, 4 or 1 (solitaire); ``excuse`` = False (default) or True;
``match`` = False (default) or True; ``setup`` = ``"wiki"`` (default) or ``"book"``.

State extras (methods of its states, also module functions): ``grid()``, ``hand(player)``,
``scores()``, ``pile()``, ``lost()``, and ``view(player=None)`` (what a player sees, as a
dict). Module helpers: :data:`CARDS` (every card with its code, rank, name and suits),
:func:`score_placement`, :func:`text`, :func:`svg`, :func:`status`.

Solitaire solvers (``players=1``): :func:`solve_open` (the best line when the draw order is
known), :func:`fill_open` (whether any line fills the grid with the order known, and one that
does), :func:`solve_expected` (exact expectimax over the draws with the order unknown),
:func:`best_move` (a policy: solves sampled draw orders, seeded), :func:`greedy_move` (the
baseline: most immediate points), and over many fresh deals in Rust threads
:func:`solve_open_batch`, :func:`fill_open_batch` and :func:`play_batch`. They take a solitaire
state where the player is to place a card (or a finished game); a chance node, a game of 2-4
players or another game's state raises :class:`quanta.NotApplicableError`. They rank a full grid
above any loss, then go by the final score (the turn points less the hand penalty; for a lost
game, as for ``scores()``, its turn points).

Limits: every solver takes ``timeout`` (seconds), ``max_nodes``, ``memory_mb`` (the
transposition tables of the call together: the samples of :func:`best_move` solved at once share
it; besides them each solver thread keeps at most about 30 MB of memoised bounds of single
lines) and ``threads`` (``None``: every core; :func:`fill_open` and :func:`solve_expected`
search on one thread and only check it). Past a limit a solver raises
:class:`quanta.SearchLimitError` with ``nodes`` and ``seconds``; a batch writes the deal as
undecided (``solved`` false, its ``lost`` and ``score`` masked). Ctrl-C interrupts any of them;
the GIL is released while Rust works.

Rules, notation and action names: docs/rules/quincunx.md (the solvers: its *Solitaire solvers*
section; how they search: the module documentation of rust/quanta-core/src/quincunx/solve/mod.rs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple
from xml.sax.saxutils import escape

from . import _core, _svg, views
from ._core import State
from ._svg import FONT, num
from .batch import Arrays, in_pieces
from .exceptions import IllegalMoveError, quoted

__all__ = [
    "CARDS",
    "Card",
    "ExpectedSolution",
    "FillSolution",
    "OpenSolution",
    "Placement",
    "best_move",
    "fill_open",
    "fill_open_batch",
    "greedy_move",
    "grid",
    "hand",
    "lost",
    "pile",
    "play_batch",
    "score_placement",
    "scores",
    "solve_expected",
    "solve_open",
    "solve_open_batch",
    "status",
    "svg",
    "text",
]

_COLUMNS = "abcdefghi"
_SUIT_NAMES = {"M": "Moons", "S": "Suns", "W": "Waves", "L": "Leaves", "Y": "Wyrms", "K": "Knots"}


class Card(NamedTuple):
    """One card of the Decktet: its index, code, name, rank (0 for the Excuse) and suit
    letters (deck order; empty for the Excuse)."""

    # The card's place in the deck; the field hides tuple.index, which no card needs.
    index: int  # type: ignore[assignment]
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


def _state(state: State, what: str) -> _core.QuincunxState:
    """``state`` as a state of this game; another game's raises
    :class:`~quanta.NotApplicableError` naming ``what``."""
    return _core.game_state(state, _core.QuincunxState, what)


def grid(state: State) -> list[list[str | None]]:
    """The grid as rows top to bottom, each a list of card codes or None (empty)."""
    return _state(state, "quincunx.grid").grid()


def hand(state: State, player: int) -> list[str]:
    """``player``'s cards as codes, in card-index order."""
    return _state(state, "quincunx.hand").hand(player)


def pile(state: State) -> list[str]:
    """The cards nobody has seen (undealt, or left to draw), as codes in card-index order."""
    return _state(state, "quincunx.pile").pile()


def scores(state: State) -> list[int]:
    """Per player: the totals of the finished rounds (hand penalties included) plus this round's
    turn points (no penalty yet). A lost solitaire game keeps its turn points here; its
    ``returns()`` are the loss, below every completed game's."""
    return _state(state, "quincunx.scores").scores()


def lost(state: State) -> bool:
    """True for a solitaire game lost: the hand ran out before the grid was full."""
    return _state(state, "quincunx.lost").lost()


def status(state: State) -> str:
    """One line saying what happens next, e.g. ``"round 1/1: player 0 to place"``,
    ``"round 1/1: player 1 draws 2 cards"`` (or ``a card``), ``"round 2/3: dealing"`` or
    ``"game over: player 0 wins with 31"`` (solitaire: ``"game over: won, 12 points"`` or
    ``"game over: lost, 7 points"``)."""
    return _status(_state(state, "quincunx.status").view())


def _status(view: views.QuincunxView) -> str:
    phase, round_text = view["phase"], f"{view['round']}/{view['rounds']}"
    if phase == "end":
        totals = view["scores"]
        if len(totals) == 1:
            return f"game over: {'lost' if view['lost'] else 'won'}, {totals[0]} points"
        best = max(totals)
        winners = [str(p) for p, t in enumerate(totals) if t == best]
        if len(winners) == 1:
            return f"game over: player {winners[0]} wins with {best}"
        return f"game over: players {', '.join(winners)} tie with {best}"
    if phase == "deal":
        return f"round {round_text}: dealing"
    player, draws = view["player"], view["draws"]
    if phase == "draw":
        cards = "a card" if draws == 1 else f"{draws} cards"
        return f"round {round_text}: player {player} draws {cards}"
    return f"round {round_text}: player {player} to place"


def text(state: State, viewer: int | None = None) -> str:
    """A readable position: the grid with card codes (column letters on top, row numbers on
    the left, ``.`` for an empty cell), each hand and score, the pile's size and the status.
    ``viewer`` None (the default) sees the whole state; a player sees the other hands as ``?``
    per card."""
    view = _state(state, "quincunx.text").view(viewer)
    rows = view["grid"]
    side = len(rows)
    lines = ["    " + "".join(f"{c:<5}" for c in _COLUMNS[:side]).rstrip()]
    for r, row in enumerate(rows):
        lines.append(f"{r + 1:>2}  " + "".join(f"{code or '.':<5}" for code in row).rstrip())
    for p, total in enumerate(view["scores"]):
        held = view["hands"][p]
        if held is None:
            held = ["?"] * view["hand_sizes"][p]
        lines.append(f"player {p}: {' '.join(held) or '-'}  ({total} points)")
    lines.append(f"pile: {_cards(view['pile_size'])}")
    lines.append(_status(view))
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


def _cards(count: int) -> str:
    """``"1 card"``, ``"0 cards"``, ``"7 cards"``."""
    return f"{count} card" if count == 1 else f"{count} cards"


def svg(state: State, cell: float = 64.0, viewer: int | None = None) -> str:
    """A self-contained SVG picture: the grid with coordinates, each card as a tile showing its
    rank (A, 2-9, C), its name and its suit letters in the suits' colours; below, each hand's
    size and score with the hand as a row of small tiles, and the status line. A hand is drawn
    face up (each tile with its code) where :func:`text` shows it to ``viewer``: in solitaire
    always, else only ``viewer``'s own (``None``, the default: nobody's); the others show their
    backs. ``cell`` must be a positive number of pixels (else
    :class:`~quanta.InvalidOptionError`)."""
    cell = _svg.pixels("cell", cell)
    view = _state(state, "quincunx.svg").view()
    rows = view["grid"]
    side = len(rows)
    left, top = 20.0, 20.0
    size = cell * side
    totals = view["scores"]
    viewer = _svg.viewer(viewer, len(totals))
    small, gap = max(cell * 0.6, 30.0), 4.0
    per_row = max(1, int((size + gap) // (small + gap)))
    hands = [hand or [] for hand in view["hands"]]  # the whole state's view: all known
    lines = [f"player {p}: {_cards(view['hand_sizes'][p])}, {total} points"
             for p, total in enumerate(totals)]  # fmt: skip
    status = _status(view)
    hand_rows = sum(-(-len(hand) // per_row) for hand in hands)
    width = _svg.fit(left + size + 10, left, [*lines, status])
    height = top + size + 20 + 16 * (len(totals) + 1) + hand_rows * (small * 0.6 + gap)
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
    for p, line in enumerate(lines):
        out.append(_svg.caption(left, y, line))
        y += 16
        face_up = len(totals) == 1 or viewer == p
        for k, code in enumerate(hands[p]):
            x = left + (k % per_row) * (small + gap)
            tile_y = y - 10 + (k // per_row) * (small * 0.6 + gap)
            if not face_up:
                out.extend(_svg.back(x, tile_y, small, small * 0.6, f"player {p}'s card"))
                continue
            card = _BY_CODE[code]
            colour = _SUIT_COLOURS[card.suits[0]] if card.suits else "#999999"
            out.append(
                f"<rect x='{num(x)}' y='{num(tile_y)}' width='{num(small)}' "
                f"height='{num(small * 0.6)}' rx='{num(small * 0.08)}' fill='#fbf8ef' "
                f"stroke='{colour}' stroke-width='1.5'><title>{escape(card.name)} "
                f"({escape(code)})</title></rect>"
            )
            out.append(
                f"<text x='{num(x + small / 2)}' y='{num(tile_y + small * 0.3 + 4)}' "
                f"text-anchor='middle' font-size='12' font-weight='bold' {FONT} "
                f"fill='#222222'>{escape(code)}</text>"
            )
        y += -(-len(hands[p]) // per_row) * (small * 0.6 + gap)
    out.append(_svg.caption(left, y, status))
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


def _cell(cell: str | tuple[int, int]) -> tuple[int, int]:
    """(row, col) from a cell given as (row, col) or as a name such as ``"c3"``."""
    if not isinstance(cell, str):
        return cell
    column, row = cell[:1], cell[1:]
    if column and column in _COLUMNS and row.isdigit() and row.isascii():
        return int(row) - 1, _COLUMNS.index(column)
    raise IllegalMoveError(f"quincunx: {quoted(cell)} is not a cell name such as 'c3'")


def score_placement(grid: Sequence[Sequence[str | None]], card: str, cell: str | tuple[int, int],
                    *, solitaire: bool = False) -> Placement:
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
    return Placement(*_core.quincunx_score_placement(grid, card, _cell(cell), solitaire))


# ---- the solitaire solvers (the module docstring says what they take and how they stop) ----

#: The best line with the draw order known (a frozen class made in Rust). ``lost``: even the
#: best line runs out of cards before the grid is full. ``score``: the line's final score
#: (points so far included, hand penalty deducted). ``line``: its placements, as actions (the
#: draws follow from the order). ``nodes`` and ``seconds`` measure the work; ``exact`` is
#: always true (a search out of budget raises instead).
OpenSolution = _core.OpenSolution

#: Whether the grid can be filled with the draw order known (a frozen class made in Rust).
#: ``winnable``: some line fills the grid before the cards run out. ``line``: one such line
#: (placements as actions), ``None`` when there is none. ``nodes``, ``seconds``, ``exact`` as
#: above.
FillSolution = _core.FillSolution

#: The exact value of a position with the draw order unknown (a frozen class made in Rust).
#: Objective, in this order: the highest probability of filling the grid (``p_win``), then the
#: highest expected final score (``score``; a lost game counts with its turn points). Win
#: probabilities within 1e-9 of each other count as equal. ``p_loss = 1 - p_win``.
#: ``best_action`` is the placement to make (``None`` when the game is over), ``best_move``
#: its string; ``actions`` maps every legal placement to its ``(p_win, expected final score)``.
ExpectedSolution = _core.ExpectedSolution


def solve_open(state: State, pile: Sequence[str], *,
               timeout: float | None = None, max_nodes: int | None = None,
               memory_mb: int = 1024, threads: int | None = None) -> OpenSolution:
    """The best line from ``state`` when the pile comes in the order ``pile`` (card codes, the
    top first; a permutation of ``state.pile()``, else :class:`quanta.InvalidNotationError`).

    A full grid beats any loss; then the highest final score. Exact either way (when no line
    fills the grid, the best loss). The final grids are searched on ``threads`` threads
    (``None``: every core); the answer, line included, is the same at any thread count (of
    equal grids, the one making the fewest draws, then the first by its cards cell by cell).
    How it searches: the module documentation of rust/quanta-core/src/quincunx/solve/mod.rs;
    what it costs: ``benches/README.md``.
    """
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.quincunx_solve_open(state, pile, limits)


def fill_open(state: State, pile: Sequence[str], *,
              timeout: float | None = None, max_nodes: int | None = None,
              memory_mb: int = 1024, threads: int | None = None) -> FillSolution:
    """Whether some line from ``state`` fills the grid when the pile comes in the order
    ``pile`` (card codes, top first, as for :func:`solve_open`), and one line that does.

    The first question of :func:`solve_open` alone (a full grid beats any loss), without the
    score, and far cheaper. ``memory_mb`` caps the memory of the positions it remembers. The
    search runs on one thread (``threads`` is checked like every solver's); past
    ``timeout``/``max_nodes`` it raises :class:`quanta.SearchLimitError`. How it searches: the
    module documentation of rust/quanta-core/src/quincunx/solve/mod.rs.
    """
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.quincunx_fill_open(state, pile, limits)


def solve_expected(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
                   memory_mb: int = 1024, threads: int | None = None) -> ExpectedSolution:
    """Expectimax over every draw from ``state`` (each draw uniform over the unseen cards):
    the play that fills the grid most often, then scores most on average (see
    :class:`ExpectedSolution`). Exact, so only for late positions: the work grows fast with
    the empty cells and the pile; past ``timeout``/``max_nodes`` it raises
    :class:`quanta.SearchLimitError`. The search runs on one thread (``threads`` is checked
    like every solver's)."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.quincunx_solve_expected(state, limits)


def best_move(state: State, *, samples: int = 8, seed: int = 0, candidates: int | None = 8,
              effort: int | None = 2000, threads: int | None = None,
              timeout: float | None = None, max_nodes: int | None = None,
              memory_mb: int = 256) -> int | None:
    """A strong placement for any solitaire position with the draw order unknown (``None``
    when the game is over).

    It draws ``samples`` orders of the pile from ``seed``, solves every candidate placement
    open under each order, and picks the placement that fills the grid in the most samples,
    then has the highest mean final score, then the lowest action number (perfect-information
    Monte Carlo: it optimises the average of the open-deck optimum, which is optimistic about
    what the player knows). ``candidates`` keeps that many placements, the best by immediate
    points (draws counting while the hand is short of the empty cells; ``None``: all), and
    ``effort`` caps each open solve at that many nodes, past which it counts the best line it
    found (``None``: exact solves, slow with many empty cells). The same ``seed`` gives the
    same move at any ``threads``.
    """
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.quincunx_best_move(state, samples, seed, candidates, effort,
                                    limits)


def greedy_move(state: State) -> int | None:
    """The baseline policy: the placement with the most immediate points; ties go to the one
    that draws more cards, then to the lowest action number. ``None`` when the game is over."""
    return _core.quincunx_greedy_move(state)


def solve_open_batch(seed: int, n: int, *, first: int = 0, excuse: bool = False,
                     empty: int = 12, threads: int | None = None, one_at_a_time: bool = False,
                     timeout: float | None = None, max_nodes: int | None = None,
                     memory_mb: int = 256, progress: bool = False) -> Arrays:
    """Solves fresh deals ``first .. first+n-1`` of ``seed`` open, in Rust threads: several
    deals at a time, or with ``one_at_a_time`` one deal after another, each solve on all the
    ``threads`` (its ``seconds`` are then those of a solve alone on them).

    Deal ``i``: the deck shuffled by the generator of row ``i`` (the same at any thread
    count), its first four cards on the corners, the next eight the hand, the rest the pile in
    draw order; with ``empty`` below 12 it is first played by :func:`greedy_move` until that
    many cells are empty (or the game ends), and solved from there.

    Returns numpy arrays, one entry per deal: ``solved`` (bool), ``lost`` (bool: no line fills
    the grid) and ``score`` (int32: the optimal final score) as ``numpy.ma`` masked arrays,
    ``nodes`` (uint64) and ``seconds`` (float64). The limits apply to each deal: a deal past
    them is undecided, ``solved`` false and its ``lost`` and ``score`` masked (it claims
    neither a loss nor a score), so ``out["score"].mean()`` is the mean over the solved deals
    and ``out["score"].count()`` counts them. ``progress`` shows a bar counting
    the deals, with their rate and the time left (the results are the same). A count whose
    results cannot fit in the memory here is refused before any work starts."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return in_pieces(lambda at, k: _core.quincunx_solve_open_batch(
        seed, k, at, excuse, empty, one_at_a_time, limits),
        n, first, row_bytes=_SOLVED_BYTES, progress=progress, desc="quincunx solve_open")


def fill_open_batch(seed: int, n: int, *, first: int = 0, excuse: bool = False,
                    threads: int | None = None, timeout: float | None = None,
                    max_nodes: int | None = None, memory_mb: int = 256,
                    progress: bool = False) -> Arrays:
    """:func:`fill_open` of fresh deals ``first .. first+n-1`` of ``seed`` (dealt as in
    :func:`solve_open_batch`), in Rust threads. Returns numpy arrays, one entry per deal:
    ``solved`` (bool), ``winnable`` (bool, a ``numpy.ma`` masked array), ``nodes`` (uint64) and
    ``seconds`` (float64). The limits apply to each deal: a deal past them is undecided,
    ``solved`` false and ``winnable`` masked. ``progress`` shows a bar counting
    the deals, with their rate and the time left (the results are the same). A count whose
    results cannot fit in the memory here is refused before any work starts."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    rows = in_pieces(lambda at, k: _core.quincunx_fill_open_batch(
        seed, k, at, excuse, limits),
        n, first, row_bytes=_SOLVED_BYTES, progress=progress, desc="quincunx fill_open")
    return {"solved": rows["solved"], "winnable": ~rows["lost"],
            "nodes": rows["nodes"], "seconds": rows["seconds"]}


def play_batch(policy: str, seed: int, n: int, *, first: int = 0, excuse: bool = False,
               threads: int | None = None, samples: int = 8, candidates: int | None = 8,
               effort: int | None = 2000, progress: bool = False) -> Arrays:
    """Plays fresh deals ``first .. first+n-1`` of ``seed`` (dealt as in
    :func:`solve_open_batch`) to the end with ``policy``: ``"greedy"`` (:func:`greedy_move`) or
    ``"best_move"`` (:func:`best_move` with ``samples``, ``candidates`` and ``effort``, seeded
    per deal and turn). The policy never sees the draw order. Returns numpy arrays ``lost``,
    ``score`` (final; masked arrays as in :func:`solve_open_batch`, with nothing masked),
    ``nodes`` and ``seconds`` per deal (and ``solved``, always true). ``progress`` shows a bar counting
    the deals, with their rate and the time left (the results are the same). A count whose
    results cannot fit in the memory here is refused before any work starts."""
    return in_pieces(lambda at, k: _core.quincunx_play_batch(
        policy, seed, k, at, excuse, threads, samples, candidates, effort),
        n, first, row_bytes=_SOLVED_BYTES, progress=progress, desc=f"quincunx {policy}")


#: Bytes of a solitaire batch's results a deal: ``solved``, ``lost`` and their masks, ``score``,
#: ``nodes``, ``seconds``.
_SOLVED_BYTES = 1 + 2 * 1 + 1 + 4 + 8 + 8
