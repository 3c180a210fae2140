"""The kinds of job, each declared once in :data:`KINDS`: how its parameters are checked, its
rows' schema, and its kernel (rows ``start..stop`` of a job as a ``pyarrow.Table``). The
makers (:func:`playouts`, :func:`solve`, :func:`table`, :func:`league`) build a :class:`Job`
of each kind; nothing else in :mod:`quanta.jobs` tells one kind from another.
"""

from __future__ import annotations

import json
import os
import pathlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import numpy as np

import quanta

from .. import _core, solvers
from ..batch import random_playouts
from ..exceptions import InvalidOptionError, QuantaError, quoted
from ..solvers import SOLVERS
from .store import parquet

# ---- jobs ----


@dataclass(frozen=True)
class Job:
    """A kind of work (one of :data:`KINDS`), its parameters, its ``rows`` and its ``seed``
    (row ``i`` is seeded from ``seed`` and ``i``): what names the job. ``shard_size`` is the
    most rows one part file holds (the run sizes parts from their measured cost, up to it); it
    only regroups the same rows, so it is not part of the job's identity: a run started again
    with another one finishes the same job."""

    kind: str
    params: dict
    rows: int
    shard_size: int = field(compare=False)
    seed: int = 0

    def to_dict(self) -> dict:
        return {"kind": self.kind, "params": self.params, "rows": self.rows,
                "shard_size": self.shard_size, "seed": self.seed}

    @classmethod
    def from_dict(cls, d: dict) -> Job:
        return cls(d["kind"], d["params"], d["rows"], d["shard_size"], d["seed"])


@dataclass(frozen=True)
class JobKind:
    """A kind of job: ``rows`` (the row it makes, for the docs and the help), ``check`` (reads
    the parameters as every part will, raising the typed error of the first thing wrong),
    ``schema`` (the columns of its rows, a ``pyarrow.Schema``) and ``kernel`` (rows
    ``start..stop`` on ``threads`` Rust threads, as a table of that schema)."""

    name: str
    rows: str
    check: Callable[[Job], None]
    schema: Callable[[Job], Any]
    kernel: Callable[[Job, int, int, "int | None"], Any]


def count(value, name: str, low: int = 1, high: int = 2**40) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not (
            low <= value <= high):
        raise InvalidOptionError(f"{name} must be an integer from {low} to {high}, not "
                                 f"{quoted(value)}")
    return int(value)


def _seed(value) -> int:
    return count(value, "seed", 0, 2**64 - 1)


def _game(name, options) -> quanta.Game:
    if not isinstance(name, str):
        raise InvalidOptionError(f"game must be a name from {list(quanta.GAMES)}, not "
                                 f"{quoted(name)}")
    if options is not None and not isinstance(options, dict):
        raise InvalidOptionError(f"options must be a dict of the game's options, not "
                                 f"{quoted(options)}")
    return quanta.game(name, **(options or {}))


def _job_game(job: Job) -> quanta.Game:
    return quanta.game(job.params["game"], **job.params["options"])


def _typed(columns: dict, schema):
    pa, _ = parquet()
    return pa.table(columns, schema=schema)


def _schema(types: dict):
    pa, _ = parquet()
    return pa.schema([(name, pa.type_for_alias(t)) for name, t in types.items()])


def _columns(rows: list[dict], names: Iterable[str]) -> dict:
    """Rows (dicts with the same keys) as columns."""
    return {k: [row[k] for row in rows] for k in names}


def _deals(start: int, stop: int) -> np.ndarray:
    return np.arange(start, stop, dtype=np.int64)


def row_seed(seed: int, row: int) -> int:
    """The seed of row ``row`` of a job seeded ``seed`` (splitmix64 of the two)."""
    mask = 2**64 - 1
    z = (seed + (row + 1) * 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


# ---- playouts ----


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

    A part's games are held in memory while it runs: a ``shard_size`` (the most games in one
    part) whose results cannot fit in the memory available raises
    :class:`quanta.InvalidOptionError` (saying how many fit) when the job is made."""
    g = _game(game, options)
    job = Job("playouts", {"game": g.name, "options": dict(g.options)},
              count(games, "games"), count(shard_size, "shard_size"), _seed(seed))
    check(job)
    return job


def _check_playouts(job: Job) -> None:
    """Refuses a part of playouts too big for the memory here: a part holds its games'
    results twice (the arrays played, then the table written: game number, length, returns and
    winner), about ``2 * (players * 8 + 4) + 9`` bytes a game."""
    g = _game(job.params["game"], job.params["options"])
    _core.check_fits("shard_size", min(job.rows, job.shard_size), "games",
                     2 * (g.num_players * 8 + 4) + 9,
                     "give a smaller shard_size (the job's games go on in more parts)")


def _playouts_schema(job: Job):
    g = _job_game(job)
    types = {"game": "int64", "length": "int32",
             **{f"return_{seat}": "float64" for seat in range(g.num_players)}}
    types.update({"won": "bool"} if g.info.utility == "cooperative" else {"winner": "int8"})
    return _schema(types)


def _winners(returns: np.ndarray) -> np.ndarray:
    top = returns.max(axis=1, keepdims=True)
    single = (returns == top).sum(axis=1) == 1
    return np.where(single, returns.argmax(axis=1), -1).astype(np.int8)


def _playouts_kernel(job: Job, start: int, stop: int, threads: int | None):
    g = _job_game(job)
    out = random_playouts(g, stop - start, seed=job.seed, first=start, threads=threads)
    columns = {"game": _deals(start, stop), "length": out["length"]}
    for seat in range(g.num_players):
        columns[f"return_{seat}"] = out["returns"][:, seat]
    if g.info.utility == "cooperative":  # one team: every seat wins (+1) or none does
        columns["won"] = out["returns"][:, 0] > 0
    else:
        columns["winner"] = _winners(out["returns"])
    return _typed(columns, _playouts_schema(job))


# ---- league ----


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
                         "games": count(games, "games")},
              pairs, count(shard_size, "shard_size"), _seed(seed))
    check(job)
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


def _check_league(job: Job) -> None:
    _league_game(job.params["game"], job.params["options"])
    count(job.params["games"], "games")
    _league_kernel(job, 0, 0, None)


def _league_kernel(job: Job, start: int, stop: int, threads: int | None):
    p = job.params
    g = _job_game(job)
    bots = [quanta.Bot(b["kind"], b["seed"], b["params"]) for b in p["bots"]]
    pairs = [(a, b) for a in range(len(bots)) for b in range(a + 1, len(bots))]
    rows: list[dict] = []
    for row in range(start, stop):
        a, b = pairs[row]
        r = quanta.arena(g, [bots[a], bots[b]], p["games"], seed=row_seed(job.seed, row),
                         threads=threads)
        first, second = r.summary
        rows.append({"bot_a": a, "bot_b": b, "name_a": repr(bots[a]), "name_b": repr(bots[b]),
                     "games": p["games"], "wins_a": first.wins, "draws": first.draws,
                     "wins_b": second.wins, "mean_return_a": first.mean_return,
                     "mean_return_b": second.mean_return,
                     "mean_length": float(r.lengths.mean())})
    return _typed(_columns(rows, _LEAGUE_COLUMNS), _schema(_LEAGUE_COLUMNS))


# ---- solve ----


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
        try:
            lines = list(positions)
        except TypeError:  # not iterable: None, a number
            raise InvalidOptionError(
                f"positions must be notations (a list of str) or a file of them, not "
                f"{quoted(positions)}") from None
        if not all(isinstance(x, str) for x in lines):
            raise InvalidOptionError("positions must be notations (str), one per position")
    return [x.strip() for x in lines if x.strip() and not x.lstrip().startswith("#")]


def solve(game: str, positions: Iterable[str] | str | os.PathLike, *,
          options: dict | None = None, timeout: float | None = None,
          max_nodes: int | None = None, memory_mb: int = 1024, shard_size: int = 100) -> Job:
    """Each of ``positions`` (notations, or a file of them one a line; blank lines and lines
    starting with ``#`` skipped) answered by the game's solver (:data:`SOLVERS`) within the
    limits, each solve on the part's threads.

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
    _core.check_limits(dict(timeout=timeout, max_nodes=max_nodes, memory_mb=memory_mb))
    lines = _read_positions(positions)
    if not lines:
        raise InvalidOptionError("positions must hold at least one notation")
    limits = {"timeout": timeout, "max_nodes": max_nodes, "memory_mb": memory_mb}
    job = Job("solve", {"game": g.name, "options": dict(g.options), "positions": lines,
                        "limits": limits}, len(lines), count(shard_size, "shard_size"), 0)
    check(job)
    return job


#: The types of a solve job's columns, built row by row (a part whose rows all failed has
#: the same schema as any other, so the parts read as one table).
_SOLVE_COLUMNS = {"position": "int64", "notation": "string", "value": "float64",
                  "best": "string", "nodes": "int64", "seconds": "float64", "exact": "bool",
                  "error": "string"}


def _check_solve(job: Job) -> None:
    if not isinstance(job.params["positions"], list) or len(job.params["positions"]) != job.rows:
        raise InvalidOptionError("a solve job's positions are a list of notations, one a row")
    _game(job.params["game"], job.params["options"])


def _error(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


def _solve_kernel(job: Job, start: int, stop: int, threads: int | None):
    p = job.params
    g = _job_game(job)
    out: list[dict] = []
    for i in range(start, stop):
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
    return _typed(_columns(out, _SOLVE_COLUMNS), _schema(_SOLVE_COLUMNS))


# ---- table ----


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
    part sizes. ``shard_size`` is the most deals in one part."""
    if not isinstance(name, str) or name not in TABLES:
        raise InvalidOptionError(f"table must be one of {sorted(TABLES)}, not {quoted(name)}")
    checked, rows = _core.table_params(name, params, deals)
    job = Job("table", {"table": name, **checked}, rows, count(shard_size, "shard_size"),
              _seed(seed))
    check(job)
    return job


def _table_params(job: Job) -> tuple[str, dict]:
    params = dict(job.params)
    return params.pop("table"), params


def _check_table(job: Job) -> None:
    name, params = _table_params(job)
    if name not in TABLES:
        raise InvalidOptionError(f"table must be one of {sorted(TABLES)}, not {quoted(name)}")
    _, rows = _core.table_params(name, params, None if TABLES[name].fixed_rows else job.rows)
    if rows != job.rows:
        raise InvalidOptionError(f"table {name} has {rows:,} rows with these parameters, not "
                                 f"{job.rows:,}")


def _table_schema(job: Job):
    pa, _ = parquet()
    name, _ = _table_params(job)
    return pa.schema([pa.field(column, pa.type_for_alias(dtype), nullable=nullable)
                      for column, dtype, nullable in TABLES[name].columns])


def _table_kernel(job: Job, start: int, stop: int, threads: int | None):
    """Rows ``start..stop`` of a table job, computed in Rust, as a ``pyarrow.Table`` of the
    declared columns (non-null ones marked so)."""
    pa, _ = parquet()
    name, params = _table_params(job)
    schema = _table_schema(job)
    arrays = [pa.array(values, type=f.type, mask=None if valid is None else ~valid)
              for (_, values, valid), f in zip(
                  _core.table_rows(name, params, start, stop, job.seed, threads), schema)]
    return pa.table(arrays, schema=schema)


def first_player_wins(rows) -> dict:
    """From the rows of a ``quantum_leap_every_deal`` table (a pyarrow.Table or what
    :func:`quanta.jobs.read` gives): the exact probability that White, the first player, wins
    with perfect play, over all deals (each equally likely): ``{"no swap": p, "swap": p}`` for
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


# ---- the table of kinds ----


#: The kinds of job, by name.
KINDS: dict[str, JobKind] = {kind.name: kind for kind in [
    JobKind("playouts", "random game of any game and options",
            _check_playouts, _playouts_schema, _playouts_kernel),
    JobKind("solve", "position of a file, answered by the game's solver",
            _check_solve, lambda job: _schema(_SOLVE_COLUMNS), _solve_kernel),
    JobKind("table", "fresh deal, or class of deals, of a perfect-play table",
            _check_table, _table_schema, _table_kernel),
    JobKind("league", "pair of bots playing a match",
            _check_league, lambda job: _schema(_LEAGUE_COLUMNS), _league_kernel),
]}


def check(job: Job) -> None:
    """Everything a part of ``job`` needs, checked before anything runs or is written: its
    kind, the counts, that the manifest can hold the job (plain JSON values), and the
    parameters as its kind reads them. Raises the typed error of the first thing wrong, so a
    refused job leaves nothing behind."""
    if not isinstance(job, Job):
        raise InvalidOptionError(f"job must be a quanta.jobs.Job, not {quoted(job)}")
    if job.kind not in KINDS:
        raise InvalidOptionError(f"kind must be one of {list(KINDS)}, not {quoted(job.kind)}")
    count(job.rows, "rows")
    count(job.shard_size, "shard_size")
    _seed(job.seed)
    try:
        json.dumps(job.to_dict(), allow_nan=False)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"a job's parameters are plain values (numbers, text, lists) "
                                 f"that its manifest holds as JSON, not "
                                 f"{quoted(job.params)}") from None
    try:
        KINDS[job.kind].check(job)
    except (KeyError, TypeError) as e:
        raise InvalidOptionError(f"not a job that quanta.jobs makes (its parameters lack or "
                                 f"mistype {quoted(str(e))}); make one with "
                                 f"{', '.join(f'jobs.{k}' for k in KINDS)}") from None


def run_rows(job: Job | dict, start: int, stop: int, threads: int | None = None):
    """Rows ``start..stop`` of ``job`` as a ``pyarrow.Table`` of its kind's schema: what an
    executor runs (a plain function of plain arguments, so it travels to other processes and
    machines)."""
    job = job if isinstance(job, Job) else Job.from_dict(job)
    return KINDS[job.kind].kernel(job, start, stop, threads)
