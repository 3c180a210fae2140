"""Solvers for solitaire Quincunx (``quanta.game("quincunx", players=1)``), re-exported by
:mod:`quanta.quincunx`.

Every solver takes a solitaire state where the player is to place a card (or a finished game);
a chance node (the deal, a pending draw), a game of 2-4 players or another game's state raises
:class:`quanta.NotApplicableError` (a ``ValueError``). They
rank a full grid above any loss, then go by the final score: the turn points less the hand
penalty (a lost game keeps its turn points; its hand is empty).

* :func:`solve_open` -- the best line when the draw order is known (exact branch and bound).
* :func:`fill_open` -- whether any line fills the grid when the draw order is known, and one
  that does (its first question alone, much faster).
* :func:`solve_expected` -- exact expectimax over the draws when the order is unknown.
* :func:`best_move` -- a policy for any position: solves sampled draw orders (seeded).
* :func:`greedy_move` -- the baseline: most immediate points.
* :func:`solve_open_batch`, :func:`fill_open_batch`, :func:`play_batch` -- the same over many
  fresh deals, in Rust threads.

Limits: every solver takes ``timeout`` (seconds), ``max_nodes``, ``memory_mb`` (the
transposition tables of the call together, their growth included: the samples of
:func:`best_move` solved at once share it; besides them each solver thread keeps at most about
30 MB of memoised bounds of single lines, which depend on ranks alone and serve all its solves)
and ``threads`` (``None``: every core; :func:`fill_open` and :func:`solve_expected` search on
one thread and only check it). Past a limit a solver raises :class:`quanta.SearchLimitError`
with ``nodes`` and ``seconds``; a batch writes the deal as undecided (``solved`` false, its
``lost`` and ``score`` masked). Bad limits raise :class:`quanta.InvalidOptionError`, checked as
for every solver. Ctrl-C interrupts any of them; the GIL is released while Rust works.

What each answers: docs/rules/quincunx.md, *Solitaire solvers*; how each searches: the module
documentation of rust/quanta-core/src/quincunx/solve/mod.rs.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import _core
from ._core import State
from .batch import Arrays

__all__ = [
    "ExpectedSolution",
    "FillSolution",
    "OpenSolution",
    "best_move",
    "fill_open",
    "fill_open_batch",
    "greedy_move",
    "play_batch",
    "solve_expected",
    "solve_open",
    "solve_open_batch",
]


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
    return _core.quincunx_solve_open(state, pile, (timeout, max_nodes, memory_mb, threads))


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
    return _core.quincunx_fill_open(state, pile, (timeout, max_nodes, memory_mb, threads))


def solve_expected(state: State, *, timeout: float | None = None, max_nodes: int | None = None,
                   memory_mb: int = 1024, threads: int | None = None) -> ExpectedSolution:
    """Expectimax over every draw from ``state`` (each draw uniform over the unseen cards):
    the play that fills the grid most often, then scores most on average (see
    :class:`ExpectedSolution`). Exact, so only for late positions: the work grows fast with
    the empty cells and the pile; past ``timeout``/``max_nodes`` it raises
    :class:`quanta.SearchLimitError`. The search runs on one thread (``threads`` is checked
    like every solver's)."""
    return _core.quincunx_solve_expected(state, (timeout, max_nodes, memory_mb, threads))


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
    return _core.quincunx_best_move(state, samples, seed, candidates, effort,
                                    (timeout, max_nodes, memory_mb, threads))


def greedy_move(state: State) -> int | None:
    """The baseline policy: the placement with the most immediate points; ties go to the one
    that draws more cards, then to the lowest action number. ``None`` when the game is over."""
    return _core.quincunx_greedy_move(state)


def solve_open_batch(seed: int, n: int, *, first: int = 0, excuse: bool = False,
                     empty: int = 12, threads: int | None = None, one_at_a_time: bool = False,
                     timeout: float | None = None, max_nodes: int | None = None,
                     memory_mb: int = 256) -> Arrays:
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
    and ``out["score"].count()`` counts them."""
    return _core.quincunx_solve_open_batch(seed, n, first, excuse, empty, one_at_a_time,
                                           (timeout, max_nodes, memory_mb, threads))


def fill_open_batch(seed: int, n: int, *, first: int = 0, excuse: bool = False,
                    threads: int | None = None, timeout: float | None = None,
                    max_nodes: int | None = None, memory_mb: int = 256) -> Arrays:
    """:func:`fill_open` of fresh deals ``first .. first+n-1`` of ``seed`` (dealt as in
    :func:`solve_open_batch`), in Rust threads. Returns numpy arrays, one entry per deal:
    ``solved`` (bool), ``winnable`` (bool, a ``numpy.ma`` masked array), ``nodes`` (uint64) and
    ``seconds`` (float64). The limits apply to each deal: a deal past them is undecided,
    ``solved`` false and ``winnable`` masked."""
    rows = _core.quincunx_fill_open_batch(seed, n, first, excuse, (timeout, max_nodes, memory_mb, threads))
    return {"solved": rows["solved"], "winnable": ~rows["lost"],
            "nodes": rows["nodes"], "seconds": rows["seconds"]}


def play_batch(policy: str, seed: int, n: int, *, first: int = 0, excuse: bool = False,
               threads: int | None = None, samples: int = 8, candidates: int | None = 8,
               effort: int | None = 2000) -> Arrays:
    """Plays fresh deals ``first .. first+n-1`` of ``seed`` (dealt as in
    :func:`solve_open_batch`) to the end with ``policy``: ``"greedy"`` (:func:`greedy_move`) or
    ``"best_move"`` (:func:`best_move` with ``samples``, ``candidates`` and ``effort``, seeded
    per deal and turn). The policy never sees the draw order. Returns numpy arrays ``lost``,
    ``score`` (final; masked arrays as in :func:`solve_open_batch`, with nothing masked),
    ``nodes`` and ``seconds`` per deal (and ``solved``, always true)."""
    return _core.quincunx_play_batch(policy, seed, n, first, excuse, threads, samples,
                                     candidates, effort)
