"""A Quantum Leap (Mal Jones): a 3x3 display of playing cards built by the players, then cards
placed on it following a numerical pattern (ascending, descending, halving, doubling), scoring
pairs, runs and triples. For 2 to 4 players.

Options: ``players`` = 2 (default), 3 or 4; ``match`` = False (default) or True (one game per
dealer, the points added up); ``packs`` = 1 (default) or 2 (three or four players: a second
stock, the same suit of the second pack); ``teams`` = ``"none"`` (default) or ``"partners"``
(four players: seats 0 and 1 against seats 2 and 3, ``returns()`` the team totals).

State extras (methods of its states, also module functions): ``display()``, ``stacks()``,
``stack(cell)``, ``pattern()``, ``hand(player)``, ``hand_shown(player)``, ``stock(player)``,
``second_stock(player)``, ``drawn()``, ``scores()``, and ``view(player=None)`` (what a player
sees, as a dict). Module helpers: :func:`score_placement`, :func:`text`, :func:`svg`,
:func:`status`, :func:`phase`. Optimisers: :func:`best_turn`, :func:`best_higgs`; the greedy
policy's decision: :func:`greedy_move`; games played by a policy: :func:`play_batch`.

Rules, notation and action names: docs/rules/a_quantum_leap.md (the optimisers: its *Best
turn and best Higgs* section; how they search: the module documentation of
rust/quanta-core/src/a_quantum_leap/solve/mod.rs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from . import _core, _svg, views
from ._core import State
from ._svg import FONT, num
from .batch import Arrays, in_pieces

__all__ = [
    "BestHiggs",
    "BestTurn",
    "Placement",
    "display",
    "drawn",
    "greedy_move",
    "hand",
    "hand_shown",
    "best_higgs",
    "best_turn",
    "pattern",
    "phase",
    "play_batch",
    "score_placement",
    "scores",
    "second_stock",
    "stack",
    "stacks",
    "status",
    "stock",
    "svg",
    "text",
]

_COLUMNS = "abc"
_RED_SUITS = "HD"
_SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


# ---- reading a state ----


def _state(state: State, what: str) -> _core.AQuantumLeapState:
    """``state`` as a state of this game; another game's raises
    :class:`~quanta.NotApplicableError` naming ``what``."""
    return _core.game_state(state, _core.AQuantumLeapState, what)


def display(state: State) -> list[list[str | None]]:
    """The top cards as 3 rows of 3 codes (row 1 first), None where a cell is empty."""
    return _state(state, "a_quantum_leap.display").display()


def stacks(state: State) -> list[list[int]]:
    """The stack heights as 3 rows of 3."""
    return _state(state, "a_quantum_leap.stacks").stacks()


def pattern(state: State) -> str | None:
    """The pattern (``opening``, ``free``, ``ascending``, ...), None before stage two."""
    return _state(state, "a_quantum_leap.pattern").pattern()


def hand(state: State, player: int) -> list[str]:
    """``player``'s hand as codes, in card-index order."""
    return _state(state, "a_quantum_leap.hand").hand(player)


def scores(state: State) -> list[int]:
    """Every player's points (in a match, the totals so far); the same values as ``returns()``."""
    return _state(state, "a_quantum_leap.scores").scores()


def stack(state: State, cell: str | tuple[int, int]) -> list[str]:
    """The codes of the cards on ``cell`` (``"b2"`` or ``(row, col)``), bottom to top."""
    return _state(state, "a_quantum_leap.stack").stack(cell)


def stock(state: State, player: int) -> list[str]:
    """``player``'s (first) stock as codes in card-index order: a set, its order is chance."""
    return _state(state, "a_quantum_leap.stock").stock(player)


def second_stock(state: State, player: int) -> list[str]:
    """Two players: ``player``'s second stock while it is not taken up, else ``[]``."""
    return _state(state, "a_quantum_leap.second_stock").second_stock(player)


def hand_shown(state: State, player: int) -> bool:
    """Whether ``player``'s hand lies face up (after a pass, until they place again)."""
    return _state(state, "a_quantum_leap.hand_shown").hand_shown(player)


def drawn(state: State) -> str | None:
    """The card drawn in stage one and waiting for its cell, None at other times."""
    return _state(state, "a_quantum_leap.drawn").drawn()


def phase(state: State) -> str:
    """The phase (docs/rules/a_quantum_leap.md, *Phases*): ``leave``, ``draw``, ``place``,
    ``higgs``, ``play`` or ``end``."""
    return _state(state, "a_quantum_leap.phase").view()["phase"]


def status(state: State) -> str:
    """One line saying what happens next, e.g. ``"game 1/1: player 0 draws"``,
    ``"game 1/1: player 0 places 7S on an outer cell"``, ``"game 1/1: player 0 places the
    Higgs"``, ``"game 1/1: player 1 to play (2 placed this turn)"``, ``"game 1/3: the suit
    left out is drawn"`` or ``"game over: player 1 wins with 36"``."""
    s = _state(state, "a_quantum_leap.status")
    return _status(s.view(), _partners(s))


def _partners(state: State) -> bool:
    return state.game.options.get("teams") == "partners"


def _status(view: views.AQuantumLeapView, partners: bool = False) -> str:
    phase, player, game = view["phase"], view["player"], f"{view['game']}/{view['games']}"
    if phase == "end" and partners:
        points = view["scores"]
        totals = [points[0] + points[1], points[2] + points[3]]
        if totals[0] == totals[1]:
            return f"game over: the teams tie with {totals[0]}"
        team = 0 if totals[0] > totals[1] else 1
        return f"game over: players {2 * team}+{2 * team + 1} win with {max(totals)}"
    if phase == "end":
        totals = view["scores"]
        best = max(totals)
        leaders = [p for p, t in enumerate(totals) if t == best]
        if len(leaders) > 1:
            return f"game over: players {', '.join(map(str, leaders))} tie with {best}"
        return f"game over: player {leaders[0]} wins with {best}"
    if phase == "leave":
        return f"game {game}: the suit left out is drawn"
    if phase == "draw":
        return f"game {game}: player {player} draws"
    if phase == "place":
        return f"game {game}: player {player} places {view['drawn'] or '?'} on an outer cell"
    if phase == "higgs":
        return f"game {game}: player {player} places the Higgs"
    return f"game {game}: player {player} to play ({view['placed']} placed this turn)"


def text(state: State, viewer: int | None = None) -> str:
    """A readable display: each cell's top card with its stack height, the hands (``*`` when
    shown after a pass) and points, the pattern, then the status line. ``viewer`` None (the
    default) sees the whole state; a player sees another's hand only while it is shown
    (``hidden`` otherwise)."""
    view = _state(state, "a_quantum_leap.text").view(viewer)
    tops, heights = view["display"], view["stacks"]
    lines = ["    " + "".join(f"{c:<7}" for c in _COLUMNS).rstrip()]
    for r in range(3):
        cells = [f"{tops[r][c]}({heights[r][c]})" if tops[r][c] else "." for c in range(3)]
        lines.append(f" {r + 1}  " + "".join(f"{c:<7}" for c in cells).rstrip())
    for p, points in enumerate(view["scores"]):
        mark = " (shown)" if view["hand_shown"][p] else ""
        held = view["hands"][p]
        cards = "hidden" if held is None else " ".join(held) or "-"
        lines.append(f"player {p}: {cards}{mark}  ({points} points)")
    lines.append(f"pattern {view['pattern'] or '-'}")
    lines.append(_status(view, _partners(state)))
    return "\n".join(lines)


# Colours of the SVG picture.
_GRID = "#555555"
_CARD = "#fdfdf6"
_CENTRE = "#eef3fb"
_RED = "#c0262d"
_BLACK = "#222222"


def svg(state: State, cell: float = 70, viewer: int | None = None) -> str:
    """A self-contained SVG picture of the position: the 3x3 display with each cell's top card
    (rank and suit sign, red or black) and stack height, the centre b2 (the Higgs) tinted, a
    caption with the pattern, a row per player with their points and hand, and the status.
    A hand is drawn face up where :func:`text` shows it to ``viewer``: ``None`` (the default)
    sees only the hands shown after a pass, a player their own hand too; the others show their
    backs. ``cell`` is the side of a cell in pixels (a positive number, else
    :class:`~quanta.InvalidOptionError`)."""
    cell = _svg.pixels("cell", cell)
    view = _state(state, "a_quantum_leap.svg").view()
    players = len(view["scores"])
    viewer = _svg.viewer(viewer, players)
    tops, heights = view["display"], view["stacks"]
    left, top = 22.0, 20.0
    grid = 3 * cell
    card_w, card_h, gap = 24.0, 32.0, 3.0
    labels = [f"player {p}: {points} points" for p, points in enumerate(view["scores"])]
    label_w = max(_svg.text_width(line) for line in labels) + 6
    hands = [hand or [] for hand in view["hands"]]  # the whole state's view: all known
    longest = max(len(hand) for hand in hands)
    partners = _partners(state)
    status = _status(view, partners)
    scores = [str(p) for p in view["scores"]]
    # Partners' points are joined by '+' (seats 0+1, 2+3), as in the notation.
    teams = f"; teams {'+'.join(scores[:2])}, {'+'.join(scores[2:])}" if partners else ""
    packs = "; 2 packs" if state.game.options.get("packs") == 2 else ""
    first = f"pattern {view['pattern'] or '-'}{teams}{packs}"
    width = max(left + grid + 12, left - 14 + label_w + longest * (card_w + gap) + 8)
    width = _svg.fit(width, left - 14, [first, status])
    rows_top = top + grid + 30
    height = rows_top + players * (card_h + 6) + 26
    out = _svg.start(width, height)
    out.append(
        f"<rect x='{num(left + cell)}' y='{num(top + cell)}' width='{num(cell)}' "
        f"height='{num(cell)}' fill='{_CENTRE}'/>"
    )
    out.extend(_svg.square_grid(left, top, cell, 3, row_numbers_x=left - 9, colour=_GRID))
    pad = cell * 0.1
    for r in range(3):
        for c in range(3):
            code = tops[r][c]
            if code is None:
                continue
            x, y, side = left + c * cell + pad, top + r * cell + pad, cell - 2 * pad
            out.extend(_card_face(x, y, side, side, code, side * 0.36, bold=True))
            out.append(
                f"<text x='{num(x + side - 3)}' y='{num(y + side - 4)}' text-anchor='end' "
                f"font-size='{num(max(side * 0.16, 1))}' {FONT} fill='{_GRID}'>"
                f"\u00d7{heights[r][c]}</text>"
            )
    out.append(_svg.caption(left - 14, top + grid + 19, first))
    for p, hand in enumerate(hands):
        y = rows_top + p * (card_h + 6)
        out.append(_svg.caption(left - 14, y + card_h / 2 + 4, labels[p]))
        face_up = view["hand_shown"][p] or viewer == p
        x = left - 14 + label_w
        for code in hand:
            if face_up:
                out.extend(_card_face(x, y, card_w, card_h, code, 11))
            else:
                out.extend(_svg.back(x, y, card_w, card_h, f"player {p}'s card"))
            x += card_w + gap
    out.append(_svg.caption(left - 14, height - 10, status))
    return _svg.finish(out)


def _card_face(
    x: float, y: float, w: float, h: float, code: str, size: float, bold: bool = False
) -> list[str]:
    """A face-up card ``code`` (``TS``, ``7H``) at (``x``, ``y``): rank and suit sign in red or
    black, ``size`` pixels high."""
    colour = _RED if code[1] in _RED_SUITS else _BLACK
    rank = "10" if code[0] == "T" else code[0]
    weight = " font-weight='bold'" if bold else ""
    return [
        f"<rect x='{num(x)}' y='{num(y)}' width='{num(w)}' height='{num(h)}' "
        f"rx='{num(min(w, h) * 0.1)}' fill='{_CARD}' stroke='{_BLACK}' stroke-width='1'/>",
        f"<text x='{num(x + w / 2)}' y='{num(y + h * 0.5 + size * 0.35)}' text-anchor='middle' "
        f"font-size='{num(size)}'{weight} {FONT} fill='{colour}'>"
        f"{rank}{_SUIT_SIGNS[code[1]]}</text>",
    ]


# ---- scoring one placement ----


@dataclass(frozen=True)
class Placement:
    """What one placement scores: ``points`` (the rule's points plus the bonuses), the
    ``bonuses`` (counts of ``pair``, ``run`` and ``triple``), the ``pattern`` after it and the
    ``rule`` it follows (None for the Higgs)."""

    points: int
    bonuses: dict[str, int] = field(default_factory=dict)
    pattern: str = "opening"
    rule: str | None = None


def score_placement(display: Sequence[Sequence[str | None]], card: str, cell: str | tuple[int, int],
                    pattern: str | None, rule: str | None = None, packs: int = 1
                    ) -> Placement:
    """Scores placing ``card`` (a code such as ``"5H"``) on ``cell`` (``(row, col)`` or a name
    such as ``"b2"``) of ``display`` (3 rows of 3 top-card codes or None, as
    ``state.display()`` gives it) under ``pattern`` (``opening``, ``free``, ``ascending``,
    ``descending``, ``halving`` or ``doubling``; None scores the Higgs, on an empty cell,
    bonuses only). ``rule`` (``ascending``, ``descending``, ``halving``, ``doubling`` or
    ``equal``) is needed only where two rules the pattern allows fit (an Ace on a 2 or a 2 on an
    Ace in ``opening``/``free``). ``packs`` is 1, or 2 in a two-pack game, where a card may be
    placed beside or on its twin.

    Raises :class:`~quanta.IllegalMoveError` when the card may not go there, and
    :class:`~quanta.InvalidOptionError` for a malformed display, card code, cell, pattern or
    rule name, ``packs`` other than 1 or 2, or more copies of a card among the top cards and
    the card placed than the packs hold (both are ``ValueError``\\ s).

    >>> d = [["3S", "QH", "5D"], ["4H", "5C", "9D"], ["4D", "5S", "KH"]]
    >>> score_placement(d, "5H", "a3", "ascending")
    Placement(points=12, bonuses={'pair': 1, 'run': 1, 'triple': 1}, pattern='ascending', \
rule='ascending')
    """
    points, pair, run, triple, after, followed = _core.a_quantum_leap_score_placement(
        display, card, cell, pattern, rule, packs
    )
    return Placement(points, {"pair": pair, "run": run, "triple": triple}, after, followed)


# ---- the best turn and the best Higgs ----

BestTurn = _core.BestTurn
BestHiggs = _core.BestHiggs


def best_turn(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
              memory_mb: int = 1024, threads: int | None = None) -> BestTurn:
    """The exact best way for the player to act (stage two, phase ``play``) to play the rest
    of the turn.

    It maximises ``points - 4 * penalty``: the points the mover scores, less the 4 that every
    opponent scores when the actions place the fifth card of the turn while another player
    has cards in hand (how much the mover's lead over every opponent grows; with partners the
    two opponents score 4 each, so ``points - 8 * penalty``: ``penalty_points``). Among
    equals it takes the fewest cards, then the lexicographically smallest sequence of action
    ids. At the start of a turn that is the whole turn; after k >= 1 placements it is the rest
    (a penalty already given is not counted again). Definitions as in
    docs/rules/a_quantum_leap.md, *Best turn and best Higgs*, and
    :func:`quanta.reference.a_quantum_leap.best_turn`.

    The result (:class:`BestTurn`, frozen): ``actions`` (a tuple of action ids: placements,
    then ``end`` unless the last card ends the game; ``(pass,)`` when nothing can be placed at
    the start of the turn), ``moves`` (their strings), ``points``, ``penalty``, ``value``
    (``points - 4 * penalty``), ``nodes``, ``seconds`` and ``exact`` (always true).

    How it searches: the module documentation of
    rust/quanta-core/src/a_quantum_leap/solve/mod.rs. ``timeout`` (seconds), ``max_nodes`` and
    ``memory_mb`` (the memo's memory) bound the work: past the first two it raises
    :class:`quanta.SearchLimitError`. Ctrl-C interrupts it; the GIL is released meanwhile.
    The search runs on one thread (``threads`` is checked like every solver's). A state not in
    phase ``play`` (a chance node, stage one, a finished game) or another game's state raises
    :class:`quanta.NotApplicableError`; a bad limit :class:`quanta.InvalidOptionError`.
    """
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.a_quantum_leap_best_turn(state, limits)


def best_higgs(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
               memory_mb: int = 1024, threads: int | None = None) -> BestHiggs:
    """The dealer's best Higgs (phase ``higgs``): the card of the hand whose bonuses score the
    most on b2, the lowest card among equals. Only the Higgs's own points count, not what it
    leaves for stage two.

    The result (:class:`BestHiggs`, frozen): ``action``, ``move`` (its string), ``card`` (its
    code), ``points``, ``nodes``, ``seconds``, ``exact``. Limits and errors as in
    :func:`best_turn` (a state not in phase ``higgs`` raises
    :class:`quanta.NotApplicableError`)."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.a_quantum_leap_best_higgs(state, limits)


def greedy_move(state: State) -> int:
    """The greedy policy's decision in a stage-two turn (phase ``play``), as ``play_batch``'s
    ``"greedy"`` plays it: at the turn's first placement the placement that scores the most (the
    lowest action id among equals), ``pass`` when nothing fits; after a placement, ``end``. A
    state in another phase raises :class:`quanta.NotApplicableError`."""
    return _core.a_quantum_leap_greedy_move(state)


def play_batch(policy: str, players: int, n: int, *, seed: int = 0, first: int = 0,
               threads: int | None = None, max_nodes: int | None = None,
               timeout: float | None = None, memory_mb: int = 1024,
               progress: bool = False) -> Arrays:
    """Plays games ``first .. first + n - 1`` of ``seed`` with ``players`` players (one game
    each, no match), every seat by ``policy``:

    * ``"random"``: every decision uniformly at random;
    * ``"greedy"``: the single placement that scores the most (the lowest action id among
      equals), then ``end``; ``pass`` when nothing fits; the best Higgs;
    * ``"best_turn"``: :func:`best_turn` every turn, each search within ``max_nodes``,
      ``timeout`` and ``memory_mb`` (None: no limit); a turn whose search passes them is played
      as ``"greedy"`` plays it and counted in ``fallbacks``; the best Higgs. A ``timeout``
      makes the result depend on the machine's speed; the node limit does not.

    Outer cells are chosen at random by every policy. Game i deals and draws from its own
    generator (row i of ``seed``), so the result depends only on the arguments, never on
    ``threads`` (None: every core). Returns numpy arrays: ``scores`` (n x players, the final
    points by seat), ``turns`` (turns with a placement), ``nodes`` (searched by best_turn) and
    ``fallbacks`` (turns played greedily past ``max_nodes``). Ctrl-C interrupts it. ``progress`` shows a bar counting
    the games, with their rate and the time left (the results are the same). A count whose
    results cannot fit in the memory here is refused before any work starts."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return in_pieces(lambda at, k: _core.a_quantum_leap_play_batch(
        policy, players, k, seed, at, limits),
        n, first, row_bytes=_game_bytes(players), progress=progress, desc=f"a_quantum_leap {policy}",
        unit="games")


def _game_bytes(players: object) -> int:
    """Bytes of a game's results in :func:`play_batch`: every seat's score, the turns, the
    nodes and the fallbacks."""
    seats = players if isinstance(players, int) and 0 < players <= 64 else 1
    return seats * 8 + 8 + 8 + 8
