"""Analysis at scale: batch jobs cut into shards, written as a Parquet dataset, resumable.

A :class:`Job` is a kind and its parameters, cut into shards of ``shard_size`` rows:

- :func:`playouts`: random games of any game and options, one row per game (its length, every
  seat's return, the winning seat, or in a cooperative game whether the team won);
- :func:`solve`: positions (one notation a line), each answered by the game's solver within
  the given limits, one row per position;
- :func:`table`: the tables the solvers make possible, each kind declared once beside its
  game's line of the Rust registry (:data:`TABLES`: its parameters, its columns, its kernel):
  ``quincunx_open`` (the solitaire's open-deck optimum), ``repair_unit_open`` (whether a deal
  can be won with the order known), ``quantum_leap`` (the exact value of a dealt board), one
  row per fresh deal, and ``quantum_leap_every_deal`` (every deal of a small board, up to
  symmetry);
- :func:`league`: every pair of bots (:mod:`quanta.bots`) playing a match of ``games`` games in
  :func:`quanta.arena`, one row per pair (its wins, draws, mean returns).

:func:`run` computes the shards that are not on disk yet and writes each as it comes, so the
same call after a crash or ``kill -9`` finishes the job without losing or repeating a row, and
redoes any part file it finds cut short or corrupted.
Row ``i`` of a job with seed ``s`` draws from its own generator, seeded by ``(s, i)`` alone (the
row kernel's, as :func:`quanta.batch.random_playouts` with ``first``): a result depends on the
job alone, never on the shard size, on how many shards run at once, on which executor, on how
many workers or threads (only where a time limit cuts a solve does the machine's speed count).
A bad row (a malformed notation, a finished position, a solve past its limits) keeps its error
in the ``error`` column and the job goes on.

Shards run in this process by default (Rust threads inside each shard), on any
``concurrent.futures.Executor``, or on a Dask cluster (:func:`dask_executor`). The results
are a directory of Parquet files (``part-00000.parquet``, … and ``_manifest.json``) that
pandas, polars, DuckDB and :func:`read` take as one table.

Needs pyarrow (``pip install 'quanta[jobs]'``); Dask needs ``'quanta[dask]'``. Usage:
docs/jobs.md.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import json
import os
import pathlib
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import numpy as np

import quanta

from . import _core
from .batch import random_playouts
from .exceptions import DamagedResultError, InvalidOptionError, QuantaError, quoted
from . import solvers
from .solvers import SOLVERS

__all__ = [
    "Job",
    "Report",
    "KINDS",
    "SOLVERS",
    "TABLES",
    "TableKind",
    "dask_executor",
    "first_player_wins",
    "league",
    "playouts",
    "read",
    "run",
    "run_shard",
    "solve",
    "table",
]

#: The kinds of job.
KINDS = ("playouts", "solve", "table", "league")

#: The manifest's name in a job's directory (a leading ``_`` keeps Parquet readers off it).
MANIFEST = "_manifest.json"
#: The manifest's format: 2 since row ``i`` is seeded by ``(seed, i)`` (1 seeded by shard), so
#: a directory half made under format 1 is another job's, never finished with other rows.
_FORMAT = 2


def _parquet():
    try:
        # pyarrow ships no type information (unused-ignore: where pyarrow-stubs is installed).
        import pyarrow  # type: ignore[import-untyped, unused-ignore]
        import pyarrow.parquet  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise ImportError(
            "quanta.jobs writes Parquet with pyarrow: pip install 'quanta[jobs]'"
        ) from None
    return pyarrow, pyarrow.parquet


# ---- jobs ----


@dataclass(frozen=True)
class Job:
    """A kind of work, its parameters, and how it is cut: ``rows`` rows in shards of
    ``shard_size`` (the last one shorter), row ``i`` seeded from ``seed`` and ``i``."""

    kind: str
    params: dict
    rows: int
    shard_size: int
    seed: int = 0

    @property
    def shards(self) -> int:
        return -(-self.rows // self.shard_size)

    def shard_rows(self, index: int) -> range:
        """The row numbers of shard ``index``."""
        start = index * self.shard_size
        return range(start, min(start + self.shard_size, self.rows))

    def to_dict(self) -> dict:
        return {"kind": self.kind, "params": self.params, "rows": self.rows,
                "shard_size": self.shard_size, "seed": self.seed}

    @classmethod
    def from_dict(cls, d: dict) -> Job:
        return cls(d["kind"], d["params"], d["rows"], d["shard_size"], d["seed"])


def _count(value, name: str, low: int = 1, high: int = 2**40) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not (
            low <= value <= high):
        raise InvalidOptionError(f"{name} must be an integer from {low} to {high}, not "
                                 f"{quoted(value)}")
    return int(value)


def _seed(value) -> int:
    return _count(value, "seed", 0, 2**64 - 1)


def _game(name, options) -> quanta.Game:
    if not isinstance(name, str):
        raise InvalidOptionError(f"game must be a name from {list(quanta.GAMES)}, not "
                                 f"{quoted(name)}")
    if options is not None and not isinstance(options, dict):
        raise InvalidOptionError(f"options must be a dict of the game's options, not "
                                 f"{quoted(options)}")
    return quanta.game(name, **(options or {}))


def playouts(game: str, games: int, *, options: dict | None = None, seed: int = 0,
             shard_size: int = 1_000_000) -> Job:
    """``games`` random games of ``game`` (with ``options``) from the start, uniformly random
    moves and chance by its odds, as in :func:`quanta.batch.random_playouts`.

    Rows: ``game`` (the game's number in the job), ``length`` (plies, chance excluded),
    ``return_0`` … (every seat's return: the score in games that keep one, such as
    Quincunx and A Quantum Leap; +1/-1 in EinStein and Quantum Leap), and ``winner`` (the seat
    with the single highest return, -1 for a draw) — or, in a cooperative game
    (``g.info.utility == "cooperative"``: Quantum Repair Unit), ``won`` instead: whether the
    team won (every seat's return is +1), since the seats win or lose together.

    A shard's games are held in memory while it runs: a ``shard_size`` whose results cannot
    fit in the memory available raises :class:`quanta.InvalidOptionError` (saying how many
    fit) when the job is made."""
    g = _game(game, options)
    job = Job("playouts", {"game": g.name, "options": dict(g.options)},
              _count(games, "games"), _count(shard_size, "shard_size"), _seed(seed))
    _check_shard(job)
    return job


def league(game: str, bots: list[quanta.Bot], games: int, *, options: dict | None = None,
           seed: int = 0, shard_size: int = 1) -> Job:
    """Every pair of ``bots`` (two or more, from :mod:`quanta.bots`) plays a match of ``games``
    games of ``game`` (with ``options``) in :func:`quanta.arena`, seats rotated game by game,
    the first bot of the pair in seat 0 of the match's first game.

    Rows, one per pair ``(a, b)`` with ``a < b`` in the order of ``bots``: ``bot_a``, ``bot_b``
    (indices), ``name_a``, ``name_b`` (the bots' reprs), ``games``, ``wins_a``, ``draws``,
    ``wins_b`` (as :mod:`quanta.arenas` counts them), ``mean_return_a``, ``mean_return_b`` and
    ``mean_length``. Row ``i``'s match is seeded by ``(seed, i)`` alone. A bot stopped by the
    clock (``bot.timed``) makes the results depend on the machine. A game where bots do not
    play against each other (one player, or a cooperative game) is refused: run
    :func:`quanta.arena` for its bots' mean returns."""
    g = _league_game(game, options)
    if (not isinstance(bots, (list, tuple)) or len(bots) < 2
            or not all(isinstance(b, quanta.Bot) for b in bots)):
        raise InvalidOptionError(f"bots must be a list of two or more bots from quanta.bots, "
                                 f"not {quoted(bots)}")
    specs = [{"kind": b.kind, "seed": b.seed, "params": b.params} for b in bots]
    pairs = len(bots) * (len(bots) - 1) // 2
    job = Job("league", {"game": g.name, "options": dict(g.options), "bots": specs,
                         "games": _count(games, "games")},
              pairs, _count(shard_size, "shard_size"), _seed(seed))
    _check_shard(job)
    return job


def _league_game(game: str, options: dict | None) -> quanta.Game:
    """The game of a league, refused where bots do not play against each other."""
    g = _game(game, options)
    if g.num_players == 1 or g.info.utility == "cooperative":
        raise InvalidOptionError(
            f"a league pits bots against each other, and {g.name} with these options has "
            f"{'one player' if g.num_players == 1 else 'one team'}: run quanta.arena for "
            f"each bot's mean return instead")
    return g


#: The types of a league job's columns.
_LEAGUE_COLUMNS = {"bot_a": "int32", "bot_b": "int32", "name_a": "string", "name_b": "string",
                   "games": "int64", "wins_a": "int64", "draws": "int64", "wins_b": "int64",
                   "mean_return_a": "float64", "mean_return_b": "float64",
                   "mean_length": "float64"}


def _row_seed(seed: int, row: int) -> int:
    """The seed of row ``row`` of a job seeded ``seed`` (splitmix64 of the two)."""
    mask = 2**64 - 1
    z = (seed + (row + 1) * 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def _league_rows(job: Job, index: int, threads: int | None) -> dict:
    p = job.params
    g = quanta.game(p["game"], **p["options"])
    bots = [quanta.Bot(b["kind"], b["seed"], b["params"]) for b in p["bots"]]
    pairs = [(a, b) for a in range(len(bots)) for b in range(a + 1, len(bots))]
    rows: list[dict] = []
    for row in job.shard_rows(index):
        a, b = pairs[row]
        r = quanta.arena(g, [bots[a], bots[b]], p["games"], seed=_row_seed(job.seed, row),
                         threads=threads)
        first, second = r.summary
        rows.append({"bot_a": a, "bot_b": b, "name_a": repr(bots[a]), "name_b": repr(bots[b]),
                     "games": p["games"], "wins_a": first.wins, "draws": first.draws,
                     "wins_b": second.wins, "mean_return_a": first.mean_return,
                     "mean_return_b": second.mean_return,
                     "mean_length": float(r.lengths.mean())})
    return _columns(rows) or {name: [] for name in _LEAGUE_COLUMNS}


def _playout_shard_fits(job: Job, g: quanta.Game) -> None:
    """Refuses a shard of playouts too big for the memory here: a shard holds its games'
    results twice (the arrays played, then the table written: game number, length, returns and
    winner), about ``2 * (players * 8 + 4) + 9`` bytes a game."""
    rows = min(job.rows, job.shard_size)
    _core.check_fits("shard_size", rows, "games", 2 * (g.num_players * 8 + 4) + 9,
                     "give a smaller shard_size (the job's games go on in more shards)")


def _read_positions(positions) -> list[str]:
    if isinstance(positions, (str, os.PathLike)):
        path = pathlib.Path(positions)
        if not path.is_file():
            raise InvalidOptionError(f"positions must be a file of notations, one a line; "
                                     f"{quoted(str(path))} is not a file")
        try:
            lines = path.read_bytes().decode("utf-8").splitlines()
        except UnicodeDecodeError as e:
            raise InvalidOptionError(
                f"positions: {quoted(str(path))} is not UTF-8 text (byte {e.start:,} is not "
                f"part of a UTF-8 character); notations are text, one a line") from None
        except OSError as e:
            raise InvalidOptionError(f"positions: cannot read {quoted(str(path))}: "
                                     f"{e.strerror or e}") from None
    else:
        lines = list(positions)
        if not all(isinstance(x, str) for x in lines):
            raise InvalidOptionError("positions must be notations (str), one per position")
    return [x.strip() for x in lines if x.strip() and not x.lstrip().startswith("#")]


def solve(game: str, positions: Iterable[str] | str | os.PathLike, *,
          options: dict | None = None, timeout: float | None = None,
          max_nodes: int | None = None, memory_mb: int = 1024, shard_size: int = 100) -> Job:
    """Each of ``positions`` (notations, or a file of them one a line; blank lines and lines
    starting with ``#`` skipped) answered by the game's solver (:data:`SOLVERS`) within the
    limits, each solve on the shard's threads.

    Rows: ``position`` (its number), ``notation``, ``value`` (from the player to act's view:
    the win probability in EinStein, 1/0 for a win/loss in Quantum Leap, the chance to fill
    the grid in Quincunx, points less 4 per penalty in A Quantum Leap, the expected return in
    EinStein a la Card with both hands open), ``best`` (the best
    line or move, as action strings), ``nodes``, ``seconds``, ``exact``, ``error`` (empty
    unless the row failed: malformed notation, a finished position, a solve past its limits,
    a Quantum Repair Unit estimate with orders undecided within them; ``value`` and ``best``
    are then null, and ``exact`` false for a solve past its limits)."""
    g = _game(game, options)
    if g.name not in SOLVERS:
        raise InvalidOptionError(f"{g.name} has no solver; the games with one are "
                                 f"{sorted(SOLVERS)}")
    _core.check_limits(timeout, max_nodes, memory_mb, None)
    lines = _read_positions(positions)
    if not lines:
        raise InvalidOptionError("positions must hold at least one notation")
    limits = {"timeout": timeout, "max_nodes": max_nodes, "memory_mb": memory_mb}
    return Job("solve", {"game": g.name, "options": dict(g.options), "positions": lines,
                         "limits": limits}, len(lines), _count(shard_size, "shard_size"), 0)


def table(name: str, deals: int | None = None, *, seed: int = 0, shard_size: int = 1000,
          **params: Any) -> Job:
    """A perfect-play table: ``name`` is one of :data:`TABLES`, each declared once in Rust
    beside its game (``TABLES[name].params``: the parameters and their defaults, checked
    there; ``TABLES[name].columns``: the rows' columns, the Parquet schema).

    - ``quincunx_open``: ``deals`` fresh deals of the Quincunx solitaire solved with the draw
      order known (:func:`quanta.quincunx.solve_open_batch`); params ``excuse`` (False),
      ``empty`` (12: the fresh deal; fewer plays the deal greedily until that many cells are
      empty), ``timeout``, ``max_nodes``, ``memory_mb`` (256). Rows: ``deal``, ``solved``,
      ``lost``, ``score``, ``nodes``, ``seconds``; a deal past the limits is undecided:
      ``solved`` false, ``lost`` and ``score`` null.
    - ``quantum_leap``: ``deals`` Quantum Leap boards dealt at random and solved
      (:func:`quanta.quantum_leap.solve`); params ``size`` (3), ``setup`` ("A"),
      ``timeout``, ``max_nodes``, ``memory_mb`` (1024). Rows: ``deal``, ``notation``, ``win``
      (the player to act wins), ``best``, ``nodes``, ``seconds``, ``error``; a deal past the
      limits has ``win`` and ``best`` null and its ``SearchLimitError`` in ``error``.
    - ``repair_unit_open``: ``deals`` fresh Quantum Repair Unit deals solved with the card
      order known (:func:`quanta.repair_unit.open_batch`); params ``players`` (1),
      ``timeout`` (1.0 s a deal), ``max_nodes``, ``memory_mb`` (256). Rows: ``deal``,
      ``winnable`` (a nullable bool: null where undecided within the limits), ``nodes``,
      ``seconds``.
    - ``quantum_leap_every_deal``: **every** deal of a Quantum Leap board of side ``size`` (2
      or 3) with ``setup`` "A" or "B", each class of deals the board's 12 symmetries map onto
      one another solved once (``deals`` is not given). Rows: ``deal`` (the class's number),
      ``board`` (its smallest member's board), ``weight`` (the deals in the class; all deals
      are equally likely), ``white_wins`` (White, the first player, wins: setup A after
      Black's ``no swap``, setup B from the start), ``black_swap_wins`` (setup A: Black wins
      by the best swap decision; empty for B), ``nodes``, ``seconds``, ``error`` (a class past
      the limits keeps ``white_wins`` null and says so there).
      :func:`first_player_wins` reads the exact probabilities off the table.

    Deal ``i`` of a fresh-deal table is dealt by the generator of ``(seed, i)``, whatever the
    shard size."""
    if not isinstance(name, str) or name not in TABLES:
        raise InvalidOptionError(f"table must be one of {sorted(TABLES)}, not {quoted(name)}")
    checked, rows = _core.table_params(name, params, deals)
    job = Job("table", {"table": name, **checked}, rows, _count(shard_size, "shard_size"),
              _seed(seed))
    _check_shard(job)
    return job


def first_player_wins(rows) -> dict:
    """From the rows of a ``quantum_leap_every_deal`` table (a pyarrow.Table or what
    :func:`read` gives): the exact probability that White, the first player, wins with
    perfect play, over all deals (each equally likely): ``{"no swap": p, "swap": p}`` for
    setup A (White's chance when Black never swaps, and when Black decides the swap best),
    ``{"start": p}`` for setup B; ``deals`` and ``classes`` counted."""
    d = rows.to_pydict() if hasattr(rows, "to_pydict") else rows
    if any(d["error"]):
        raise InvalidOptionError("the table has unsolved rows: every row must be solved")
    weight = np.array(d["weight"], dtype=np.int64)
    total = int(weight.sum())
    white = np.array(d["white_wins"], dtype=bool)
    out: dict = {"deals": total, "classes": len(weight)}
    if all(x is None for x in d["black_swap_wins"]):
        out["start"] = float(weight[white].sum() / total)
    else:
        black = np.array(d["black_swap_wins"], dtype=bool)
        out["no swap"] = float(weight[white].sum() / total)
        out["swap"] = float(weight[~black].sum() / total)
    return out


# ---- the rows of one shard ----


def _winners(returns: np.ndarray) -> np.ndarray:
    top = returns.max(axis=1, keepdims=True)
    single = (returns == top).sum(axis=1) == 1
    return np.where(single, returns.argmax(axis=1), -1).astype(np.int8)


def _playout_rows(job: Job, index: int, threads: int | None) -> dict:
    p = job.params
    g = quanta.game(p["game"], **p["options"])
    rows = job.shard_rows(index)
    out = random_playouts(g, len(rows), seed=job.seed, first=rows.start, threads=threads)
    columns = {"game": _deals(rows),
               "length": out["length"]}
    for seat in range(g.num_players):
        columns[f"return_{seat}"] = out["returns"][:, seat]
    if g.info.utility == "cooperative":  # one team: every seat wins (+1) or none does
        columns["won"] = out["returns"][:, 0] > 0
    else:
        columns["winner"] = _winners(out["returns"])
    return columns


def _columns(rows: list[dict]) -> dict:
    """Rows (dicts with the same keys) as columns."""
    return {k: [row[k] for row in rows] for k in rows[0]} if rows else {}


def _deals(rows: range) -> np.ndarray:
    return np.arange(rows.start, rows.stop, dtype=np.int64)


def _error(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


def _solve_rows(job: Job, index: int, threads: int | None) -> dict:
    p = job.params
    g = quanta.game(p["game"], **p["options"])
    rows = job.shard_rows(index)
    out: list[dict] = []
    for i in rows:
        text = p["positions"][i]
        row: dict[str, Any] = dict.fromkeys(_SOLVE_COLUMNS)
        row.update(position=i, notation=text)
        try:
            state = g.from_notation(text)
            if state.is_terminal:
                raise InvalidOptionError("the game is over in this position: nothing to solve")
            a = solvers.solve(state, threads=threads, **p["limits"])
            row.update(value=a.value, best=a.best, nodes=a.nodes, seconds=a.seconds,
                       exact=a.exact,
                       error="" if a.value is not None else f"SearchLimitError: {a.reason}")
        except QuantaError as e:
            row.update(nodes=getattr(e, "nodes", None), seconds=getattr(e, "seconds", None),
                       exact=False if isinstance(e, quanta.SearchLimitError) else None,
                       error=_error(e))
        out.append(row)
    return _columns(out)


@dataclass(frozen=True)
class TableKind:
    """A kind of table as its game's registry line declares it (in Rust): ``params`` (name ->
    default), ``columns`` (``(name, dtype, nullable)``: the Parquet schema), ``fixed_rows``
    (its parameters fix its rows: every deal of a board, no ``deals``), ``seeded`` (its rows
    depend on the seed: fresh deals)."""

    name: str
    game: str
    doc: str
    params: dict
    columns: tuple
    fixed_rows: bool
    seeded: bool


#: The tables a ``table`` job makes, by name, from the registry.
TABLES: dict[str, TableKind] = {
    name: TableKind(name, game, doc, {p: default for p, default, _ in params},
                    tuple(columns), fixed_rows, seeded)
    for name, game, doc, params, columns, fixed_rows, seeded in _core.tables()
}


def _table_params(job: Job) -> tuple[str, dict]:
    params = dict(job.params)
    return params.pop("table"), params


def _table_rows(job: Job, index: int, threads: int | None):
    """The rows of shard ``index`` of a table job, computed in Rust, as a ``pyarrow.Table`` of
    the declared columns (non-null ones marked so)."""
    pa, _ = _parquet()
    name, params = _table_params(job)
    rows = job.shard_rows(index)
    arrays, fields = [], []
    for (column, values, valid), (_, dtype, nullable) in zip(
            _core.table_rows(name, params, rows.start, rows.stop, job.seed, threads),
            TABLES[name].columns):
        kind = pa.type_for_alias(dtype)
        arrays.append(pa.array(values, type=kind, mask=None if valid is None else ~valid))
        fields.append(pa.field(column, kind, nullable=nullable))
    return pa.table(arrays, schema=pa.schema(fields))


def _check_shard(job: Job) -> None:
    """Everything a shard of ``job`` needs, checked before anything runs or is written: the
    counts, that the manifest can hold the job (plain JSON values), that a playout shard fits
    in memory, and the parameters themselves, read by an empty shard computed here (the
    solvers and batches read their arguments as they would for every row). Raises the typed
    error of the first thing wrong, so a refused job leaves nothing behind."""
    if job.kind not in KINDS:
        raise InvalidOptionError(f"kind must be one of {list(KINDS)}, not {quoted(job.kind)}")
    _count(job.rows, "rows")
    _count(job.shard_size, "shard_size")
    _seed(job.seed)
    try:
        json.dumps(job.to_dict(), allow_nan=False)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"a job's parameters are plain values (numbers, text, lists) "
                                 f"that its manifest holds as JSON, not "
                                 f"{quoted(job.params)}") from None
    empty = dataclasses.replace(job, rows=0)
    try:
        if job.kind == "playouts":
            _playout_shard_fits(job, _game(job.params["game"], job.params["options"]))
            _playout_rows(empty, 0, None)
        elif job.kind == "table":
            name, params = _table_params(job)
            if name not in TABLES:
                raise InvalidOptionError(f"table must be one of {sorted(TABLES)}, not "
                                         f"{quoted(name)}")
            _, rows = _core.table_params(
                name, params, None if TABLES[name].fixed_rows else job.rows)
            if rows != job.rows:
                raise InvalidOptionError(f"table {name} has {rows:,} rows with these "
                                         f"parameters, not {job.rows:,}")
        elif job.kind == "league":
            _league_game(job.params["game"], job.params["options"])
            _count(job.params["games"], "games")
            _league_rows(empty, 0, None)
        elif not isinstance(job.params["positions"], list):
            raise InvalidOptionError("a solve job's positions are a list of notations")
    except (KeyError, TypeError) as e:
        raise InvalidOptionError(f"not a job that quanta.jobs makes (its parameters lack or "
                                 f"mistype {quoted(str(e))}); make one with "
                                 f"jobs.playouts, jobs.solve, jobs.table or jobs.league"
                                 ) from None


def run_shard(job: Job | dict, index: int, threads: int | None = None):
    """The rows of shard ``index`` as a ``pyarrow.Table``: what an executor runs (a plain
    function of plain arguments, so it travels to other processes and machines)."""
    pa, _ = _parquet()
    job = job if isinstance(job, Job) else Job.from_dict(job)
    if job.kind == "playouts":
        return pa.table(_playout_rows(job, index, threads))
    if job.kind == "solve":
        return _typed(pa, _solve_rows(job, index, threads), _SOLVE_COLUMNS)
    if job.kind == "league":
        return _typed(pa, _league_rows(job, index, threads), _LEAGUE_COLUMNS)
    return _table_rows(job, index, threads)


#: The types of a solve job's columns, built row by row (a shard whose rows all failed has
#: the same schema as any other, so the shards read as one table).
_SOLVE_COLUMNS = {"position": "int64", "notation": "string", "value": "float64",
                  "best": "string", "nodes": "int64", "seconds": "float64", "exact": "bool",
                  "error": "string"}
def _typed(pa, columns: dict, types: dict):
    schema = pa.schema([(name, pa.type_for_alias(t)) for name, t in types.items()])
    return pa.table(columns, schema=schema)


# ---- running a job ----


@dataclass(frozen=True)
class Report:
    """What :func:`run` did: ``shards`` in all, ``ran`` now, ``skipped`` (already on disk and
    whole), ``rows`` written now, ``seconds`` of wall time, and ``redone``: how many of the
    shards run now had a part file on disk that was cut short or corrupted (counted in
    ``ran``)."""

    out: pathlib.Path
    shards: int
    ran: int
    skipped: int
    rows: int
    seconds: float
    redone: int = 0

    def to_dict(self) -> dict:
        return {"out": str(self.out), "shards": self.shards, "ran": self.ran,
                "skipped": self.skipped, "redone": self.redone, "rows": self.rows,
                "seconds": self.seconds}


def _part(index: int) -> str:
    return f"part-{index:05d}.parquet"


def _write_atomically(path: pathlib.Path, write: Callable[[pathlib.Path], object]) -> None:
    """Writes through a hidden temporary file renamed into place: a reader (or a run started
    again after a kill) sees the whole file or none of it."""
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    os.replace(tmp, path)


def _open_directory(job: Job, out: pathlib.Path) -> list[pathlib.Path]:
    """Makes ``out`` the directory of ``job``: the manifest written there, or found to name
    the same job. Returns what it created (the manifest and the directories, innermost
    first), which :func:`run` removes again when the job stops before its first part."""
    # As the manifest reads back: JSON holds a game's tuple options (hand_size=(2, 3)) as lists.
    spec = json.loads(json.dumps({"format": _FORMAT, "job": job.to_dict(),
                                  "shards": job.shards}))
    manifest = out / MANIFEST
    if out.exists() and not out.is_dir():
        raise InvalidOptionError(f"out: {quoted(str(out))} is a file, not a directory")
    if manifest.exists():
        try:
            held = json.loads(manifest.read_text())
        except (ValueError, OSError):
            held = None
        if held != spec:
            raise InvalidOptionError(
                f"{out} holds the results of another job (see its {MANIFEST}); give another "
                f"output directory, or remove that one to start afresh")
        return []
    created = [p for p in [out, *out.parents] if not p.exists()]
    out.mkdir(parents=True, exist_ok=True)
    _write_atomically(manifest, lambda p: p.write_text(json.dumps(spec, indent=1)))
    return [manifest, *created]


def _remove_created(created: list[pathlib.Path]) -> None:
    """Removes what :func:`_open_directory` created (a directory only while it is empty)."""
    for path in created:
        with contextlib.suppress(OSError):
            if path.is_dir():
                for tmp in path.glob(".part-*.tmp"):
                    tmp.unlink()
                path.rmdir()
            else:
                path.unlink()


def _damage(path: pathlib.Path, rows: int) -> str | None:
    """What is wrong with the part file at ``path`` that should hold ``rows`` rows, or None
    when it reads back whole: its footer, its row count, every page (checked against the
    page checksums it was written with)."""
    pa, pq = _parquet()
    try:
        file = pq.ParquetFile(path, page_checksum_verification=True)
        if file.metadata.num_rows != rows:
            return f"it holds {file.metadata.num_rows:,} rows, not the shard's {rows:,}"
        file.read()
    except (OSError, pa.ArrowException) as e:
        return str(e) or type(e).__name__
    return None


def _part_index(path: pathlib.Path) -> int | None:
    stem = path.name[len("part-"):-len(".parquet")]
    return int(stem) if stem.isdigit() else None


def run(job: Job, out: str | os.PathLike, *, executor: concurrent.futures.Executor | None = None,
        threads: int | None = None, progress: bool = False) -> Report:
    """Runs the shards of ``job`` that ``out`` does not hold yet and writes each one there as
    it comes (``part-NNNNN.parquet``, next to ``_manifest.json``, which names the job).

    ``executor``: None runs the shards here, one after another, each on ``threads`` Rust
    threads (None: every core); any ``concurrent.futures.Executor`` (a process pool, or Dask's
    from :func:`dask_executor`) runs them where it likes, each on ``threads``. Started again on
    the same ``out`` (after a crash or ``kill -9``), it skips the finished shards and redoes
    any part file it finds cut short or corrupted (counted in ``Report.redone``); a directory
    holding another job raises :class:`quanta.InvalidOptionError`. The job, the executor and
    the threads are checked before ``out`` is made, and a run stopped before its first part
    removes what it made, so a corrected call runs on the same ``out``. ``progress`` shows a
    bar.
    """
    _, pq = _parquet()
    if not isinstance(job, Job):
        raise InvalidOptionError(f"job must be a quanta.jobs.Job, not {quoted(job)}")
    if threads is not None:
        _core.check_limits(None, None, 1, threads)
    if executor is not None and not isinstance(executor, concurrent.futures.Executor):
        raise InvalidOptionError(f"executor must be a concurrent.futures.Executor or None (this "
                                 f"process), not {quoted(executor)}")
    _check_shard(job)
    out = pathlib.Path(out)
    created = _open_directory(job, out)
    start = time.perf_counter()
    rows = 0
    try:
        todo, redone = [], 0
        for i in range(job.shards):
            path = out / _part(i)
            if path.exists() and _damage(path, len(job.shard_rows(i))) is not None:
                path.unlink()  # cut short or corrupted: done again below
                redone += 1
            if not path.exists():
                todo.append(i)

        def write(index: int, shard) -> None:
            nonlocal rows
            _write_atomically(out / _part(index),
                              lambda p: pq.write_table(shard, p, write_page_checksum=True))
            rows += shard.num_rows

        from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]  # as in quanta.cli

        with tqdm(total=job.shards, initial=job.shards - len(todo), unit="shards",
                  disable=not progress, leave=False) as bar:
            if redone and progress:
                bar.write(f"{out}: {redone} damaged part file(s) to redo", file=sys.stderr)
            if executor is None:
                for i in todo:
                    write(i, run_shard(job, i, threads))
                    bar.update()
            else:
                spec = job.to_dict()
                futures = {executor.submit(run_shard, spec, i, threads): i for i in todo}
                try:
                    for future in concurrent.futures.as_completed(futures):
                        write(futures[future], future.result())
                        bar.update()
                finally:
                    for future in futures:
                        future.cancel()
    except BaseException:
        if created and not any(out.glob("part-*.parquet")):
            _remove_created(created)  # stopped before its first part: as if never started
        raise
    return Report(out, job.shards, len(todo), job.shards - len(todo), rows,
                  time.perf_counter() - start, redone)


def read(out: str | os.PathLike):
    """The rows of a job's directory as one ``pyarrow.Table``, shard by shard in order (only
    finished shards; see the manifest for the job). A part file cut short or corrupted (its
    footer, its row count or a page checksum wrong) raises
    :class:`quanta.DamagedResultError` naming the file; :func:`run` on the same directory
    redoes it."""
    pa, pq = _parquet()
    out = pathlib.Path(out)
    if not (out / MANIFEST).exists():
        raise InvalidOptionError(f"{out} is not a job's directory (no {MANIFEST})")
    try:
        job = Job.from_dict(json.loads((out / MANIFEST).read_text())["job"])
    except (ValueError, KeyError, TypeError, OSError):
        raise DamagedResultError(f"{out / MANIFEST} is damaged: it does not name a job") from None
    parts = sorted(out.glob("part-*.parquet"))
    if not parts:
        return pa.table({})
    tables = []
    for path in parts:
        index = _part_index(path)
        expected = len(job.shard_rows(index)) if index is not None else None
        try:
            table = pq.read_table(path, page_checksum_verification=True)
        except (OSError, pa.ArrowException) as e:
            problem = str(e) or type(e).__name__
        else:
            if expected is None or table.num_rows == expected:
                tables.append(table)
                continue
            problem = f"it holds {table.num_rows:,} rows, not the shard's {expected:,}"
        raise DamagedResultError(f"{path.name} in {out} is damaged ({problem}); run the job "
                                 f"again on {out} to redo it")
    return pa.concat_tables(tables)


#: Seconds :func:`dask_executor` waits to reach a scheduler before it gives up.
SCHEDULER_TIMEOUT = 10.0


@contextlib.contextmanager
def dask_executor(scheduler: str | None = None, local_cluster: int | None = None, *,
                  timeout: float | None = None) -> Iterator[concurrent.futures.Executor]:
    """A ``concurrent.futures.Executor`` on Dask: the cluster whose scheduler listens at
    ``scheduler`` (``"tcp://host:8786"``), or a ``LocalCluster`` of ``local_cluster`` worker
    processes started here (one thread each) and closed on exit.

    A scheduler address that is malformed, or that does not answer within ``timeout``
    seconds (default :data:`SCHEDULER_TIMEOUT`, 10 s), raises
    :class:`quanta.InvalidOptionError`."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError("Dask executors need dask.distributed: "
                          "pip install 'quanta[dask]'") from None
    if (scheduler is None) == (local_cluster is None):
        raise InvalidOptionError("give either a scheduler address or a local cluster size")
    wait = SCHEDULER_TIMEOUT if timeout is None else timeout
    if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 0 < wait < 1e6:
        raise InvalidOptionError(f"timeout must be a number of seconds above 0, not "
                                 f"{quoted(timeout)}")
    cluster = None
    if local_cluster is not None:
        workers = _count(local_cluster, "local_cluster", 1, 1024)
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0")
        client = Client(cluster)
    else:
        client = _connect(Client, scheduler, wait)
    try:
        yield client.get_executor()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _connect(client_class, scheduler, timeout: float):
    """A Dask client of the scheduler at ``scheduler``, or the typed error saying why not."""
    expected = "a Dask scheduler's address such as 'tcp://host:8786'"
    if not isinstance(scheduler, str):
        raise InvalidOptionError(f"scheduler must be {expected}, not {quoted(scheduler)}")
    from distributed.comm import parse_address, parse_host_port

    try:
        protocol, location = parse_address(scheduler, strict=False)
        if protocol in ("tcp", "tls"):
            parse_host_port(location)
    except (ValueError, TypeError) as e:
        raise InvalidOptionError(f"scheduler must be {expected}, not {quoted(scheduler)} "
                                 f"({e})") from None
    try:
        return client_class(scheduler, timeout=timeout)
    except (OSError, ValueError, TimeoutError) as e:
        raise InvalidOptionError(f"no Dask scheduler answered at {quoted(scheduler)} within "
                                 f"{timeout:g} s ({type(e).__name__}: "
                                 f"{quoted(str(e))})") from None
