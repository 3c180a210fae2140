"""Quantum Repair Unit: a cooperative memory card game with one 52-card pack, for 1 to 4
players, with solvers for the game whose card order is known.

Options: ``players`` = 1 (default; two forecasts played alternately) to 4; ``memory`` =
``"perfect"`` (the default and only value: the team remembers every card it has seen).

Cards are written as in a 52-card pack: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` and suit ``S H D C``
(``QS``, ``TH``). The team remembers every card it has seen, so the state holds nothing the
team does not know; what it does not know is the order of the unseen cards, which is chance:
the deal, a draw of an unseen card and a Jack's look at an unseen top card are chance nodes
whose outcomes read as the card's code (``state.parse_action("QS")``). The game therefore
declares perfect information (like a dice game); ``state.resample(p, seed)`` returns the state
itself, and the solvers draw random orders of ``state.unseen()`` themselves.

State extras (methods of its states): ``unseen()`` (also a module function) and
``view(player=None)`` (the position as a dict). Module helpers: :func:`text`, :func:`svg`,
:func:`status`. Solvers (Rust): :func:`solve_open`, :func:`win_probability`, the best player
:func:`best_action` and its position evaluator :func:`evaluate`, :func:`policy`,
:func:`rule_move`, and the batches :func:`open_batch` and :func:`play_batch`.

Rules, notation, action names and every ruling: docs/rules/repair_unit.md (the solvers: its
*Solvers* section; how they search: the module documentation of
rust/quanta-core/src/repair_unit/solve/mod.rs).
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

import numpy as np

from . import _core, _svg, views
from ._core import State
from ._svg import FONT, num
from .batch import Arrays, in_pieces

__all__ = [
    "OpenSolution",
    "WinProbability",
    "open_batch",
    "play_batch",
    "best_action",
    "evaluate",
    "policy",
    "rule_move",
    "solve_open",
    "status",
    "svg",
    "text",
    "unseen",
    "win_probability",
]

#: Whether the team can win with the order known (a frozen class made in Rust): ``winnable``,
#: ``line`` (a tuple of the team's actions that wins, chance excluded; empty when not
#: winnable), ``nodes``, ``seconds``, ``exact`` (always true: a search past its limits raises
#: :class:`quanta.SearchLimitError` instead).
OpenSolution = _core.RepairUnitOpenSolution
#: The estimate of :func:`win_probability` (a frozen class made in Rust): ``probability`` (wins
#: over the decided samples; None when no sample was decided), ``stderr`` (None with fewer
#: than two decided), ``samples``, ``wins``, ``decided`` (samples whose solve answered),
#: ``undecided`` (samples whose solve hit a limit, left out), ``nodes``, ``seconds``.
WinProbability = _core.RepairUnitWinProbability


def unseen(state: State) -> list[str]:
    """The codes of the cards whose places the team does not know (the deck below its known
    top and above the cards put under it; before and during the deal, the undealt cards), in
    card order (``AS AH AD AC 2S ...``)."""
    return _view_state(state, "repair_unit.unseen").unseen()


def _view_state(state: State, what: str) -> _core.RepairUnitState:
    """``state`` as a state of this game; another game's raises
    :class:`~quanta.NotApplicableError` naming ``what``."""
    return _core.game_state(state, _core.RepairUnitState, what)


def solve_open(state: State, order: Sequence[str], *,
               timeout: float | None = None, max_nodes: int | None = None,
               memory_mb: int = 1024, threads: int | None = None) -> OpenSolution:
    """Whether the team can win from ``state`` when the unseen cards come in ``order`` (card
    codes, first drawn first, the deal included; a permutation of ``state.unseen()``, else
    :class:`quanta.InvalidOptionError` saying what was expected), with a winning ``line``.

    The answer is exact and depends only on the input (docs/rules/repair_unit.md, *Solvers*;
    how it searches: the module documentation of
    rust/quanta-core/src/repair_unit/solve/mod.rs). ``timeout``
    (seconds), ``max_nodes`` and ``memory_mb`` (the table of lost positions) limit it: past one
    it raises :class:`quanta.SearchLimitError`. ``threads`` is accepted for the common signature
    (the search is sequential). Ctrl-C interrupts it; the GIL is released."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.repair_unit_solve_open(state, order, limits)


def win_probability(state: State, samples: int = 1000, seed: int = 0, *,
                    timeout: float | None = None,
                    max_nodes: int | None = None, memory_mb: int = 256,
                    threads: int | None = None) -> WinProbability:
    """The chance that a team knowing the order would win from ``state``: :func:`solve_open`
    over ``samples`` uniformly random orders of ``state.unseen()`` (sample ``i`` shuffled by a
    generator seeded from ``(seed, i)``; the answer depends on nothing else), with its standard
    error. The limits apply to each sample's solve; a sample past them is counted in
    ``undecided`` and left out of the estimate, which is over the ``decided`` samples only:
    with none decided, ``probability`` and ``stderr`` are None (unknown, not 0). Samples run
    on ``threads`` (None: every core)."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return _core.repair_unit_win_probability(
        state, samples, seed, limits
    )


def policy(state: State, seed: int = 0, *, samples: int = 16, horizon: int = 10,
           max_nodes: int | None = 20_000, timeout: float | None = None, memory_mb: int = 64,
           threads: int | None = None) -> int:
    """A move for the real game, where the order of the unseen cards is unknown, by
    determinised search: ``samples`` random orders of ``state.unseen()`` are drawn (from
    ``seed``); each legal action is scored by how many of them the team survives after it,
    knowing that order, until ``horizon`` more unseen cards have come (or the game is won): a
    :func:`solve_open` search cut at that horizon, within ``max_nodes``/``timeout``. An order
    whose search passes those limits is undecided: it is left out of that action's score, not
    counted as a loss, and the score is the share of the *decided* orders survived. The action
    with the highest share is played, ties going to :func:`rule_move`'s choice, then to the
    lowest action; with no order decided for any action, the rule move is played. A Jack's
    look is scored as no effect (it shows nothing once an order is fixed). Returns the action;
    :class:`quanta.NotApplicableError` when the team has no decision."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    action, _ = _core.repair_unit_policy(
        state, seed, samples, horizon, limits
    )
    return action


def best_action(state: State, seed: int = 0, *, threads: int | None = None) -> int:
    """The best player's move (Rust ``repair_unit::solve::best_action``), from what the team
    knows: 16 sampled orders of ``state.unseen()`` (from ``seed``), the same for every action;
    each action scored by the mean share of a horizon of 8 more unseen cards that an open
    search (20,000 nodes each) shows the team can survive after it; the best mean is played,
    ties going to :func:`rule_move`'s choice. A Jack's look is always taken; once every card is
    known, a winning line's move (an open solve within 1,000,000 nodes). Node caps, not time:
    the move depends only on the position and ``seed``, at any ``threads``.
    :class:`quanta.NotApplicableError` when the team has no decision."""
    return _core.repair_unit_best_action(state, seed, dict(memory_mb=64, threads=threads))


def evaluate(state: State, seed: int = 0, *, threads: int | None = None) -> float:
    """A leaf value for a tree search over the real game: the team's return estimated from what
    it knows, in [-1, 1]. A finished game gives its return; with every card known, +1 or -1
    where an open solve decides within 1,000,000 nodes; otherwise 2 x the mean share of the
    horizon survived (as :func:`best_action` scores an action) - 1: a horizon-cut estimate, not
    a probability of winning."""
    return _core.repair_unit_evaluate(state, seed, dict(memory_mb=64, threads=threads))


def rule_move(state: State) -> int:
    """A simple rule-based player's move, looking only at the turn's forecast front and the
    target: before the move, a front face-up card that would not match the target is tunnelled
    when the face-down card there would match; a Queen brings a face-down card matching the
    target to the front from another forecast; a King puts a front card that would not match
    under the deck; an Ace goes under the deck while a target of another rank waits; a Jack
    looks at the top; otherwise go on / no effect. :class:`quanta.NotApplicableError` when the
    team has no decision."""
    return _core.repair_unit_rule_move(state)


def open_batch(players: int = 1, n: int = 1000, *, seed: int = 0, first: int = 0,
               threads: int | None = None, timeout: float | None = 1.0,
               max_nodes: int | None = None, memory_mb: int = 256,
               progress: bool = False) -> Arrays:
    """:func:`solve_open` from the start over ``n`` fresh deals (deal ``i``: the whole pack in
    the order a generator seeded from ``(seed, first + i)`` shuffles it), in Rust threads: a
    dict of arrays ``winnable`` (a ``numpy.ma.MaskedArray`` of bool: True winnable, False
    not, masked where the solve passed a limit and the answer is unknown), ``nodes``,
    ``seconds`` (each deal's own solve time). ``progress`` shows a bar counting
    the deals, with their rate and the time left (the results are the same). A count whose
    results cannot fit in the memory here is refused before any work starts."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    out = in_pieces(lambda at, k: _core.repair_unit_open_batch(
        players, seed, k, at, limits),
        n, first, row_bytes=1 + 1 + 1 + 8 + 8, progress=progress, desc="repair_unit open")
    decided = out.pop("decided")
    out["winnable"] = np.ma.masked_array(out["winnable"], mask=~decided)
    return out


def play_batch(players: int = 1, player: str = "rule", n: int = 1000, *, seed: int = 0,
               first: int = 0, samples: int = 16, horizon: int = 10,
               max_nodes: int | None = 20_000, timeout: float | None = None,
               memory_mb: int = 256, threads: int | None = None,
               progress: bool = False) -> Arrays:
    """Plays ``n`` fresh games with ``player`` (``"best"`` as :func:`best_action` with
    ``samples`` orders, ``horizon`` and ``max_nodes`` for each search; ``"policy"`` as
    :func:`policy` with
    ``samples``, ``horizon`` and the limits ``max_nodes``, ``timeout`` and ``memory_mb`` for
    each move's search, ``"rule"`` as :func:`rule_move`, ``"random"``: uniformly random legal
    actions), the cards of game ``i`` drawn from a generator seeded from ``(seed, first + i)``:
    a dict of arrays ``won`` (bool) and ``decisions`` (int32). A ``timeout`` makes the moves
    depend on the machine's speed; the node limit does not. ``progress`` shows a bar counting
    the games, with their rate and the time left (the results are the same). A count whose
    results cannot fit in the memory here is refused before any work starts."""
    limits = dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb, threads=threads)
    return in_pieces(lambda at, k: _core.repair_unit_play_batch(
        players, player, seed, k, at, samples, horizon, limits),
        n, first, row_bytes=1 + 4, progress=progress, desc=f"repair_unit {player}",
        unit="games")


# ---- reading a state (its view: quanta._core.RepairUnitState.view) ----


def _deck(view: views.RepairUnitView) -> list[str]:
    """The deck top first: its known top, ``*n`` for the n unseen cards, the cards under."""
    top = [view["top"]] if view["top"] else []
    unseen = [f"*{view['unseen']}"] if view["unseen"] else []
    return [*top, *unseen, *view["under"]]


def status(state: State) -> str:
    """One line: ``"dealing"``, ``"won"``, ``"lost"``, or whose turn and what is decided next,
    e.g. ``"forecast A: tunnel or go on (before the draw)"``."""
    return _status(_view_state(state, "repair_unit.status").view())


def _status(view: views.RepairUnitView) -> str:
    step, pending = view["phase"], view["pending"]
    if step in ("deal", "won", "lost"):
        return {"deal": "dealing", "won": "won", "lost": "lost"}[step]
    where = {"start": "before the draw", "draw": "drawing", "move": "before the move",
             "end": "after placing"}[step]
    if pending == "peek":
        what = "a Jack looks at the top of the deck"
    elif pending == "drawn":
        what = "the drawn card's effect"
    elif pending:
        what = f"the effect of the card tunnelled on {pending}"
    elif step == "draw":
        what = "a card is drawn"
    else:
        what = "tunnel or go on"
    return f"forecast {view['forecast']}: {what} ({where})"


def text(state: State, viewer: int | None = None) -> str:
    """A readable position: each forecast front first (``down+up`` per position, ``-`` not
    dealt), the target, the drawn card, the deck (known top, ``*n`` unseen cards, the cards put
    under it), the removed cards and the turns without progress, and the status line::

        A  7H+3D  QS  2C
        B  AD  5S  9C
        target -   drawn -   deck *46
        forecast A: tunnel or go on (before the draw)

    The team shares all it knows: ``viewer`` (None or a player) sees it all.
    """
    view = _view_state(state, "repair_unit.text").view(viewer)
    lines = []
    for k, places in enumerate(view["forecasts"]):
        cells = [(down or "-") + (f"+{up}" if up else "") for down, up in places]
        lines.append(f"{chr(ord('A') + k)}  " + "  ".join(cells))
    deck = ",".join(_deck(view)) or "-"
    lines.append(f"target {view['target'] or '-'}   drawn {view['drawn'] or '-'}   deck {deck}")
    if view["removed"] or view["idle"]:
        lines.append(f"removed {','.join(view['removed']) or '-'}   idle turns {view['idle']}")
    lines.append(_status(view))
    return "\n".join(lines)


_SUIT_COLOURS = {"S": "#222222", "C": "#222222", "H": "#c0392b", "D": "#c0392b"}
_SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
_TABLE = "#2e7d4f"


def _card(x: float, y: float, w: float, code: str | None, face_up: bool, label: str = ""
          ) -> list[str]:
    """A card at (x, y): face up with its rank and suit, face down (its known code small, as
    the team remembers it) or an empty outline (``code`` None)."""
    h = w * 1.4
    if code is None:
        return [
            f"<rect x='{num(x)}' y='{num(y)}' width='{num(w)}' height='{num(h)}' rx='4' "
            f"fill='none' stroke='#9fd3b0' stroke-dasharray='4 3'/>"
        ]
    title = f"<title>{escape(label)}{escape(code)}</title>"
    if not face_up:
        return [
            f"<rect x='{num(x)}' y='{num(y)}' width='{num(w)}' height='{num(h)}' rx='4' "
            f"fill='#3b5b92' stroke='#1d2f52'>{title}</rect>",
            f"<text x='{num(x + w / 2)}' y='{num(y + h / 2 + 4)}' text-anchor='middle' "
            f"font-size='{num(w * 0.28)}' {FONT} fill='#dfe8f7'>{escape(code)}</text>",
        ]
    colour = _SUIT_COLOURS[code[1]]
    rank = "10" if code[0] == "T" else code[0]
    return [
        f"<rect x='{num(x)}' y='{num(y)}' width='{num(w)}' height='{num(h)}' rx='4' "
        f"fill='#fdfdf8' stroke='#555555'>{title}</rect>",
        f"<text x='{num(x + w / 2)}' y='{num(y + h * 0.45)}' text-anchor='middle' "
        f"font-size='{num(w * 0.42)}' font-weight='bold' {FONT} fill='{colour}'>{rank}</text>",
        f"<text x='{num(x + w / 2)}' y='{num(y + h * 0.82)}' text-anchor='middle' "
        f"font-size='{num(w * 0.42)}' {FONT} fill='{colour}'>{_SUIT_SIGNS[code[1]]}</text>",
    ]


def svg(state: State, card: float = 40.0) -> str:
    """A self-contained SVG picture: each forecast as a row from the target outwards (face-down
    cards blue with their remembered code, face-up cards overlapping them), the target, the
    drawn card, the deck (its known top, the count of unseen cards, the known cards under it)
    and the status line. ``card`` is a card's width in pixels (a positive number, else
    :class:`~quanta.InvalidOptionError`)."""
    w = _svg.pixels("card", card)
    h = w * 1.4
    view = _view_state(state, "repair_unit.svg").view()
    forecasts = view["forecasts"]
    length = len(forecasts[0])
    left, top, gap = 20.0, 20.0, w * 0.35
    label_w = 24.0
    row_h = h * 1.3 + gap
    col_x = [left + label_w + w * 1.5 + gap + i * (w + gap) for i in range(length)]
    deck = _deck(view)
    deck_w = max(1, len(deck)) * (w * 0.55) + w
    rx = col_x[-1] + w + 2 * gap  # the drawn card's and the deck's column
    captions = [f"removed: {' '.join(view['removed'])}"] if view["removed"] else []
    status = _status(view)
    width = max(rx + deck_w + 20, rx + _svg.text_width("deck (top first)", 11) + 20)
    width = _svg.fit(width, left, [*captions, status])
    height = top + len(forecasts) * row_h + 70
    out = _svg.start(width, height)
    out.append(
        f"<rect x='5' y='5' width='{num(width - 10)}' height='{num(height - 45)}' rx='10' "
        f"fill='{_TABLE}'/>"
    )
    for k, places in enumerate(forecasts):
        y = top + k * row_h
        name = chr(ord("A") + k)
        out.append(
            f"<text x='{num(left)}' y='{num(y + h / 2 + 5)}' font-size='16' font-weight='bold' "
            f"{FONT} fill='white'>{name}</text>"
        )
        for i, (down, up) in enumerate(places):
            x = col_x[i]
            out.extend(_card(x, y, w, down, False, f"{name}{i + 1} face down: "))
            if up:
                out.extend(_card(x + w * 0.15, y + h * 0.3, w, up, True, f"{name}{i + 1}: "))
    # The target sits left of the forecasts' fronts; the drawn card and the deck to the right.
    ty = top + (len(forecasts) * row_h - h) / 2 - gap
    tx = left + label_w
    out.append(
        f"<text x='{num(tx + w / 2)}' y='{num(ty - 4)}' text-anchor='middle' font-size='11' "
        f"{FONT} fill='white'>target</text>"
    )
    out.extend(_card(tx, ty, w, view["target"], True, "target: "))
    out.append(
        f"<text x='{num(rx)}' y='{num(top + 10)}' font-size='11' {FONT} fill='white'>drawn</text>"
    )
    out.extend(_card(rx, top + 14, w, view["drawn"], True, "drawn: "))
    dy = top + 14 + h + 22
    out.append(
        f"<text x='{num(rx)}' y='{num(dy - 4)}' font-size='11' {FONT} fill='white'>deck "
        f"(top first)</text>"
    )
    for k, item in enumerate(deck):
        x = rx + k * w * 0.55
        if item.startswith("*"):
            out.append(
                f"<rect x='{num(x)}' y='{num(dy)}' width='{num(w)}' height='{num(h)}' rx='4' "
                f"fill='#3b5b92' stroke='#1d2f52'><title>{item[1:]} unseen cards</title></rect>"
            )
            out.append(
                f"<text x='{num(x + w / 2)}' y='{num(dy + h / 2 + 5)}' text-anchor='middle' "
                f"font-size='{num(w * 0.35)}' {FONT} fill='white'>{escape(item[1:])}?</text>"
            )
        else:
            out.extend(_card(x, dy, w, item, True, "deck: "))
    y = top + len(forecasts) * row_h + 10
    for line in captions:
        out.append(_svg.caption(left, y + 12, line))
    out.append(_svg.caption(left, height - 12, status))
    return _svg.finish(out)
