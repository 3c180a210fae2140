"""Running a job: here (one part after another on Rust threads), on any
``concurrent.futures.Executor``, or on a Dask cluster; the rows of each part written as soon
as they are done, parts sized from their measured cost so that a kill loses little work."""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import pathlib
import time
from dataclasses import dataclass, field
from typing import Iterator

from .. import _core
from .._extras import install
from ..batch import Sizer
from ..exceptions import InvalidOptionError, quoted
from . import store
from .kinds import Job, check, count, run_rows

#: Seconds of work a part is sized to take (from the measured cost of the rows before it): a
#: run killed at any moment loses the parts it was computing, each about this long.
CHECKPOINT = 20.0


@dataclass(frozen=True)
class Report:
    """What :func:`run` did and what the job's directory now holds: the job's ``rows``,
    ``done`` (rows on disk, whole), ``ran`` (rows computed now) in ``parts`` part files,
    ``seconds`` of wall time, ``redone`` (part files found cut short, corrupted, or not this
    job's or not their rows, removed and their rows done again), ``taken_over`` (the holder a
    killed run left in the lock, or None); and of the rows on disk, ``finished``,
    ``undecided`` (stopped by a limit: null, never a value) and ``failed`` (by error type)."""

    out: pathlib.Path
    rows: int
    done: int
    ran: int
    parts: int
    seconds: float
    redone: int = 0
    finished: int = 0
    undecided: int = 0
    failed: dict = field(default_factory=dict)
    taken_over: dict | None = None

    @property
    def all_failed(self) -> bool:
        """Every row of the job is done and failed."""
        return self.done == self.rows and sum(self.failed.values()) == self.rows

    def to_dict(self) -> dict:
        return {"out": str(self.out), "rows": self.rows, "done": self.done, "ran": self.ran,
                "parts": self.parts, "seconds": self.seconds, "redone": self.redone,
                "finished": self.finished, "undecided": self.undecided,
                "failed": dict(sorted(self.failed.items())), "taken_over": self.taken_over}

    def summary(self) -> str:
        """The closing line of a run, for a person."""
        failed = sum(self.failed.values())
        kinds = ", ".join(f"{n:,} {e}" for e, n in sorted(self.failed.items()))
        redone = f"; {self.redone} damaged or stray part(s) redone" if self.redone else ""
        if self.taken_over:
            redone += (f"; took over the lock of a run that stopped "
                       f"({store.holder_text(self.taken_over)})")
        left = "" if self.done == self.rows else f" ({self.rows - self.done:,} rows to go)"
        return (f"{self.out}: {self.done:,} of {self.rows:,} rows done{left}, {self.ran:,} "
                f"now in {self.seconds:.1f} s{redone}: {self.finished:,} finished, "
                f"{self.undecided:,} undecided, {failed:,} failed"
                f"{f' ({kinds})' if kinds else ''}")


def _part(spec: dict, start: int, stop: int, threads: int | None):
    """Rows ``start..stop`` and the seconds they took where they ran."""
    began = time.perf_counter()
    table = run_rows(spec, start, stop, threads)
    return table, time.perf_counter() - began


def _chunks(todo: list[range], sizer: Sizer) -> Iterator[tuple[int, int]]:
    """The rows of ``todo`` cut into parts of the sizer's size at the time each is asked."""
    for gap in todo:
        at = gap.start
        while at < gap.stop:
            stop = min(gap.stop, at + sizer.size())
            yield at, stop
            at = stop


def _slots(executor) -> int:
    """How many parts ``executor`` runs at once: a Dask client's threads, a pool's workers."""
    client = getattr(executor, "_client", None)
    if client is not None:
        with contextlib.suppress(Exception):
            return max(1, sum(client.nthreads().values()))
    return max(1, getattr(executor, "_max_workers", None) or os.cpu_count() or 1)


def run(job: Job, out: str | os.PathLike, *, executor: concurrent.futures.Executor | None = None,
        threads: int | None = None, progress: bool = False,
        checkpoint: float = CHECKPOINT) -> Report:
    """Runs the rows of ``job`` that ``out`` does not hold yet, writing each part there as it
    finishes (``part-START-STOP.parquet``, each carrying the job's fingerprint and its rows in
    its metadata, next to ``_manifest.json``, which names the job).

    Parts are sized from the measured cost of the rows before them to about ``checkpoint``
    seconds (at most ``job.shard_size`` rows), so a run killed at any moment loses at most
    the parts it was computing. Started again on the same ``out`` (after a crash or
    ``kill -9``), it computes only the rows missing, whatever the part sizes before, and
    redoes any part file it finds cut short, corrupted, of another job or not holding the
    rows its name says (counted in ``Report.redone``).

    ``executor``: None runs the parts here, one after another, each on ``threads`` Rust
    threads (None: every core); any ``concurrent.futures.Executor`` (a process pool, or Dask's
    from :func:`dask_executor`) runs them where it likes, each on ``threads``; this process
    writes every file. The run holds ``out`` while it runs: a second run on it raises
    :class:`quanta.DirectoryInUseError` naming the holder, and a lock left by a killed run is
    taken over (``Report.taken_over``). A directory holding another job, or other files, and
    ``out`` naming the working directory raise :class:`quanta.InvalidOptionError`. The job,
    the executor and the threads are checked before ``out`` is made, and a run stopped before
    its first part removes what it made. ``progress`` shows a bar counting rows, with their
    rate and the time left.
    """
    store.parquet()  # pyarrow is there, before anything is checked or made
    check(job)
    if threads is not None:
        _core.check_limits(dict(threads=threads))
    if executor is not None and not isinstance(executor, concurrent.futures.Executor):
        raise InvalidOptionError(f"executor must be a concurrent.futures.Executor or None (this "
                                 f"process), not {quoted(executor)}")
    if isinstance(checkpoint, bool) or not isinstance(checkpoint, (int, float)) or not (
            0 < checkpoint < 1e9):
        raise InvalidOptionError(f"checkpoint must be a number of seconds above 0, not "
                                 f"{quoted(checkpoint)}")
    out = store.check_out(out)
    spec = job.to_dict()
    fp = store.fingerprint(store.identity(spec))
    start = time.perf_counter()
    with store.open_directory(spec, out) as (stale, _):
        parts, redone = store.scan(out, fp, job.rows, remove=True)
        outcome = store.Outcome()
        for part in parts:
            outcome.add(part.outcome)
        done = sum(p.stop - p.start for p in parts)
        todo = store.gaps(parts, job.rows)
        ran = written = 0

        def write(rows: tuple[int, int], table) -> None:
            nonlocal ran, written
            outcome.add(store.write_part(out, fp, table, *rows))
            ran += rows[1] - rows[0]
            written += 1
            bar.update(rows[1] - rows[0])

        from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]  # as in quanta.cli

        with tqdm(total=job.rows, initial=done, unit="rows", desc=str(out), leave=False,
                  disable=not progress, dynamic_ncols=True, smoothing=0.1) as bar:
            # A first part of a row a thread keeps every thread busy while its cost is learnt.
            sizer = Sizer(job.shard_size, checkpoint,
                          1 if executor is not None else threads or os.cpu_count() or 1)
            if executor is None:
                for rows in _chunks(todo, sizer):
                    table, seconds = _part(spec, *rows, threads)
                    write(rows, table)
                    sizer.observe(rows[1] - rows[0], seconds)
            else:
                _on_executor(executor, spec, _chunks(todo, sizer), sizer, threads, write)
    return Report(out, job.rows, done + ran, ran, written, time.perf_counter() - start,
                  redone, outcome.finished, outcome.undecided, dict(outcome.failed), stale)


def _on_executor(executor, spec: dict, chunks: Iterator[tuple[int, int]], sizer: Sizer,
                 threads: int | None, write) -> None:
    """Keeps every slot of ``executor`` busy with parts, one more waiting, writing each as it
    comes back."""
    slots = _slots(executor) + 1
    running: dict = {}
    try:
        while True:
            for rows in chunks:
                running[executor.submit(_part, spec, *rows, threads)] = rows
                if len(running) >= slots:
                    break
            if not running:
                return
            finished, _ = concurrent.futures.wait(
                running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                rows = running.pop(future)
                table, seconds = future.result()
                write(rows, table)
                sizer.observe(rows[1] - rows[0], seconds)
    finally:
        for future in running:
            future.cancel()


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
    :class:`quanta.InvalidOptionError`. Interrupted (Ctrl-C), it closes the client and the
    local cluster without Dask's own reports of the tasks it cancels."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError(f"Dask executors need dask.distributed: "
                          f"{install('dask')}") from None
    if (scheduler is None) == (local_cluster is None):
        raise InvalidOptionError("give either a scheduler address or a local cluster size")
    wait = SCHEDULER_TIMEOUT if timeout is None else timeout
    if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 0 < wait < 1e6:
        raise InvalidOptionError(f"timeout must be a number of seconds above 0, not "
                                 f"{quoted(timeout)}")
    cluster = None
    if local_cluster is not None:
        workers = count(local_cluster, "local_cluster", 1, 1024)
        with _workers_ignore_interrupts():
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=logging.ERROR)
        client = Client(cluster)
    else:
        client = _connect(Client, scheduler, wait)
    try:
        yield client.get_executor()
    except KeyboardInterrupt:
        _quiet_dask()
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextlib.contextmanager
def _workers_ignore_interrupts() -> Iterator[None]:
    """Worker processes started inside ignore SIGINT (a terminal's Ctrl-C goes to the whole
    process group; the run here stops them), so that Ctrl-C stops a job with one line."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _quiet_dask() -> None:
    """Dask's loggers keep what the cancelled tasks and closed connections would report."""
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


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
