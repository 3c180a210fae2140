"""Analysis at scale: batch jobs written as a Parquet dataset part by part, resumable.

A :class:`Job` is a kind and its parameters, ``rows`` rows in all. Its kinds are declared once,
in :data:`KINDS` (:mod:`quanta.jobs.kinds`: each kind's parameters, rows, schema and kernel):

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

:func:`run` computes the rows that are not on disk yet, in parts sized from their measured
cost to about :data:`CHECKPOINT` seconds, and writes each part as it finishes
(:mod:`quanta.jobs.execute`), so the same call after a crash or ``kill -9`` finishes the job
having lost at most the parts that were running, without repeating a row. Each part carries
the job's fingerprint and its rows in its metadata; the directory, its manifest and its lock
are :mod:`quanta.jobs.store`. Row ``i`` of a job with seed ``s`` draws from its own generator,
seeded by ``(s, i)`` alone (the row kernel's, as :func:`quanta.batch.random_playouts` with
``first``): a result depends on the job alone, never on how its rows are cut into parts, on
which executor, on how many workers or threads (only where a time limit cuts a solve does the
machine's speed count). A bad row (a malformed notation, a finished position, a solve past its
limits) keeps its error in the ``error`` column and the job goes on.

Parts run in this process by default (Rust threads inside each part), on any
``concurrent.futures.Executor``, or on a Dask cluster (:func:`dask_executor`). The results
are a directory of Parquet files (``part-START-STOP.parquet``, … and ``_manifest.json``)
that pandas, polars, DuckDB and :func:`read` take as one table.

Needs pyarrow (``pip install 'quanta[jobs]'``); Dask needs ``'quanta[dask]'``. Usage:
docs/jobs.md.
"""

from __future__ import annotations

from ..solvers import SOLVERS
from .execute import CHECKPOINT, SCHEDULER_TIMEOUT, Report, dask_executor, run
from .kinds import (
    KINDS,
    TABLES,
    Job,
    JobKind,
    TableKind,
    first_player_wins,
    league,
    playouts,
    run_rows,
    solve,
    table,
)
from .store import MANIFEST, read

__all__ = [
    "CHECKPOINT",
    "Job",
    "JobKind",
    "KINDS",
    "MANIFEST",
    "Report",
    "SCHEDULER_TIMEOUT",
    "SOLVERS",
    "TABLES",
    "TableKind",
    "dask_executor",
    "first_player_wins",
    "league",
    "playouts",
    "read",
    "run",
    "run_rows",
    "solve",
    "table",
]
