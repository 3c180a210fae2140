"""A job's directory: its manifest, its lock, and its part files, each of which carries its
identity (the job's fingerprint and its row range) in its Parquet metadata.

Nothing here knows one kind of job from another: the kinds are in :mod:`quanta.jobs.kinds`.
"""

from __future__ import annotations

import collections
import contextlib
import datetime
import hashlib
import json
import os
import pathlib
import re
import socket
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .._extras import install
from ..exceptions import DamagedResultError, DirectoryInUseError, InvalidOptionError, quoted

#: The manifest's name in a job's directory (a leading ``_`` keeps Parquet readers off it).
MANIFEST = "_manifest.json"
#: The lock a run holds on its directory (released by the system when the run's process ends,
#: however it ends) and the record of its holder beside it.
LOCK = "_lock"
HOLDER = "_lock.json"
#: The manifest's format: 3 since a part is named by its rows and carries its identity (2 cut
#: a job in shards of a fixed size, 1 seeded rows by shard): a directory made under an older
#: format is another job's, never finished with other rows.
FORMAT = 3
#: The keys of a part's Parquet metadata.
FINGERPRINT_KEY = b"quanta.job"
ROWS_KEY = b"quanta.rows"
OUTCOME_KEY = b"quanta.outcome"

_PART = re.compile(r"^part-(\d{13})-(\d{13})\.parquet$")


def parquet():
    try:
        # pyarrow ships no type information (unused-ignore: where pyarrow-stubs is installed).
        import pyarrow  # type: ignore[import-untyped, unused-ignore]
        import pyarrow.parquet  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise ImportError(
            f"quanta.jobs writes Parquet with pyarrow: {install('jobs')}"
        ) from None
    return pyarrow, pyarrow.parquet


def identity(job_dict: dict) -> dict:
    """What names a job (its manifest's ``job``): everything but how its rows are grouped in
    files, as JSON reads it back (a game's tuple options become lists)."""
    keep = {k: v for k, v in job_dict.items() if k != "shard_size"}
    return json.loads(json.dumps({"format": FORMAT, **keep}))


def fingerprint(ident: dict) -> str:
    """The job's fingerprint: a hash of its identity, written into every part."""
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()


def part_name(start: int, stop: int) -> str:
    """Part files are named by their rows, so that the names sort in row order."""
    return f"part-{start:013d}-{stop:013d}.parquet"


# ---- what the rows came to ----


@dataclass
class Outcome:
    """Rows ``finished`` (answered), ``undecided`` (stopped by a limit: null, never a value),
    and ``failed`` (by error type)."""

    finished: int = 0
    undecided: int = 0
    failed: dict = field(default_factory=dict)

    def add(self, other: Outcome) -> None:
        self.finished += other.finished
        self.undecided += other.undecided
        for error, n in other.failed.items():
            self.failed[error] = self.failed.get(error, 0) + n

    def to_dict(self) -> dict:
        return {"finished": self.finished, "undecided": self.undecided,
                "failed": dict(sorted(self.failed.items()))}

    @classmethod
    def of(cls, table) -> Outcome:
        """The outcome of rows: with an ``error`` column, a row is failed by the error type it
        names, undecided where that is a ``SearchLimitError``, finished where it is empty;
        without one, a row holding a null (a table's deal left undecided by its limits) is
        undecided, every other finished."""
        pa, _ = parquet()
        import pyarrow.compute as pc  # type: ignore[import-untyped, unused-ignore]

        if table.num_rows == 0:
            return cls()
        if "error" in table.column_names:
            errors = collections.Counter(
                e.partition(":")[0] for e in table.column("error").to_pylist() if e)
            undecided = errors.pop("SearchLimitError", 0)
            return cls(table.num_rows - undecided - sum(errors.values()), undecided,
                       dict(errors))
        nulls = pa.array([False] * table.num_rows)
        for column in table.columns:
            if column.null_count:
                nulls = pc.or_(nulls, pc.is_null(column))
        undecided = int(pc.sum(nulls).as_py() or 0)
        return cls(table.num_rows - undecided, undecided)

    @classmethod
    def from_dict(cls, d: dict) -> Outcome:
        return cls(d["finished"], d["undecided"], dict(d["failed"]))


# ---- the lock ----


#: Seconds a refused run waits for the holder of a directory to write who it is.
HOLDER_WAIT = 2.0


def holder_text(holder: dict | None) -> str:
    if not holder:
        return "another run (it has not yet written who it is)"
    return (f"process {holder.get('pid')} on {holder.get('host')}, started "
            f"{holder.get('started')}")


def _read_json(path: pathlib.Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


@contextlib.contextmanager
def lock(out: pathlib.Path) -> Iterator[dict | None]:
    """Holds ``out`` for this run: a lock the system releases when the process ends (so a run
    killed at any moment leaves none that stays), and beside it the holder's host, process and
    start time. Yields the record a killed run left (its lock now taken over), or None.
    A directory another live run holds raises :class:`quanta.DirectoryInUseError` naming it."""
    try:
        from filelock import FileLock, Timeout
    except ImportError:
        raise ImportError(f"quanta.jobs holds a job's directory with filelock: "
                          f"{install('jobs')}") from None
    held = FileLock(str(out / LOCK), timeout=0, thread_local=False)
    try:
        held.acquire()
    except Timeout:
        # The holder writes who it is right after it takes the lock: give it a moment.
        holder = None
        deadline = time.monotonic() + HOLDER_WAIT
        while True:
            found = _read_json(out / HOLDER)
            holder = found if isinstance(found, dict) else None
            if holder is not None or time.monotonic() >= deadline:
                break
            time.sleep(0.02)
        raise DirectoryInUseError(
            f"{out} is in use by {holder_text(holder)}: wait for that run to end or stop it, "
            f"then run again") from None
    except OSError as e:  # PermissionError, a read-only disk: no lock file can be made
        raise _unwritable(out, e) from None
    try:
        stale = _read_json(out / HOLDER)
        me = {"host": socket.gethostname(), "pid": os.getpid(),
              "started": datetime.datetime.now(datetime.timezone.utc).isoformat(
                  timespec="seconds")}
        write_atomically(out / HOLDER, lambda p: p.write_text(json.dumps(me)))
        try:
            yield stale if isinstance(stale, dict) else None
        finally:
            with contextlib.suppress(OSError):
                (out / HOLDER).unlink()
    finally:
        held.release()


# ---- files ----


def write_atomically(path: pathlib.Path, write: Callable[[pathlib.Path], object]) -> None:
    """Writes through a hidden temporary file, its name unique to this writer, renamed into
    place: a reader (or a run started again after a kill) sees the whole file or none of it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _ours(name: str) -> bool:
    """The names a job's directory holds (the tables, the manifest, the lock, temporaries)."""
    return name in (MANIFEST, LOCK, HOLDER) or name.startswith((".part-", "._")) or (
        name.startswith("part-") and name.endswith(".parquet"))


def check_out(out: str | os.PathLike) -> pathlib.Path:
    """``out`` as a job's directory may be: refused when empty, when it is the working
    directory, or when it is a file."""
    if not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
        raise InvalidOptionError(f"out must be a directory for the job's files, not "
                                 f"{quoted(out)}")
    path = pathlib.Path(out)
    if path.resolve() == pathlib.Path.cwd().resolve():
        raise InvalidOptionError(f"out: {quoted(os.fspath(out))} is the working directory; give "
                                 f"a directory of the job's own, e.g. a new one inside it")
    if path.exists() and not path.is_dir():
        raise InvalidOptionError(f"out: {quoted(str(path))} is a file, not a directory")
    return path


@contextlib.contextmanager
def open_directory(job_dict: dict, out: pathlib.Path) -> Iterator[tuple[dict | None, list]]:
    """Makes ``out`` the directory of the job and holds it: the manifest written there, or
    found to name the same job. Refuses a directory of another job, or one holding files that
    are not a job's. Yields the stale holder taken over (or None) and what it created (the
    manifest and the directories, innermost first), which the caller removes again when the
    job stops before its first part."""
    spec = {"manifest": identity(job_dict)}
    manifest = out / MANIFEST
    if out.is_dir() and not manifest.exists():
        others = sorted(p.name for p in out.iterdir() if not _ours(p.name))
        if others:
            raise InvalidOptionError(
                f"out: {out} holds files that are not a job's ({quoted(others[0])}"
                f"{f' and {len(others) - 1:,} more' if len(others) > 1 else ''}); give a new "
                f"or empty directory")
    created = [p for p in [out, *out.parents] if not p.exists()]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:  # a file in the way, no permission, a read-only disk
        raise _unwritable(out, e) from None
    try:
        with lock(out) as stale:
            if manifest.exists():
                held = _read_json(manifest)
                if held != spec:
                    raise InvalidOptionError(
                        f"{out} holds the results of another job (see its {MANIFEST}); give "
                        f"another output directory, or remove that one to start afresh")
            else:
                try:
                    write_atomically(manifest,
                                     lambda p: p.write_text(json.dumps(spec, indent=1)))
                except OSError as e:
                    raise _unwritable(out, e) from None
                created.insert(0, manifest)
            yield stale, created
    except BaseException:
        if created and not any(out.glob("part-*.parquet")):
            remove_created(out, created)  # stopped before its first part: as if never started
        raise


def _unwritable(out: pathlib.Path, e: OSError) -> InvalidOptionError:
    """The typed error for an output directory that cannot be made or written."""
    return InvalidOptionError(
        f"out must be a directory quanta can make and write, but {quoted(str(out))} cannot be: "
        f"{e.strerror or e}" + (f" ({quoted(str(e.filename))})" if e.filename else ""))


def remove_created(out: pathlib.Path, created: list[pathlib.Path]) -> None:
    """Removes what :func:`open_directory` created (a directory only while it is empty)."""
    for name in (LOCK, HOLDER):
        with contextlib.suppress(OSError):
            (out / name).unlink()
    for path in created:
        with contextlib.suppress(OSError):
            if path.is_dir():
                for tmp in path.glob(".*.tmp"):
                    tmp.unlink()
                path.rmdir()
            else:
                path.unlink()


def write_part(out: pathlib.Path, fp: str, table, start: int, stop: int) -> Outcome:
    """Writes rows ``start..stop`` of the job of fingerprint ``fp`` as their part file, their
    identity and outcome in its metadata, with page checksums."""
    _, pq = parquet()
    outcome = Outcome.of(table)
    meta = dict(table.schema.metadata or {})
    meta.update({FINGERPRINT_KEY: fp.encode(), ROWS_KEY: f"{start}-{stop}".encode(),
                 OUTCOME_KEY: json.dumps(outcome.to_dict()).encode()})
    tagged = table.replace_schema_metadata(meta)
    write_atomically(out / part_name(start, stop),
                     lambda p: pq.write_table(tagged, p, write_page_checksum=True))
    return outcome


@dataclass(frozen=True)
class Part:
    path: pathlib.Path
    start: int
    stop: int
    outcome: Outcome


def _check_part(path: pathlib.Path, fp: str, rows: int, full: bool) -> tuple[Part | None, str]:
    """The part at ``path`` if it is whole and this job's, else None and what is wrong."""
    pa, pq = parquet()
    m = _PART.match(path.name)
    if not m:
        return None, "its name is not part-START-STOP.parquet"
    start, stop = int(m.group(1)), int(m.group(2))
    if not 0 <= start < stop <= rows:
        return None, f"its rows {start:,}-{stop:,} are not within the job's {rows:,}"
    try:
        file = pq.ParquetFile(path, page_checksum_verification=True)
        meta = file.schema_arrow.metadata or {}
        if meta.get(FINGERPRINT_KEY, b"").decode() != fp:
            return None, "it holds rows of another job"
        if meta.get(ROWS_KEY, b"").decode() != f"{start}-{stop}":
            return None, (f"it holds rows {meta.get(ROWS_KEY, b'?').decode()}, not the "
                          f"{start}-{stop} its name says")
        if file.metadata.num_rows != stop - start:
            return None, (f"it holds {file.metadata.num_rows:,} rows, not the part's "
                          f"{stop - start:,}")
        outcome = Outcome.from_dict(json.loads(meta[OUTCOME_KEY]))
        if full:
            file.read()
    except (OSError, ValueError, KeyError, TypeError, pa.ArrowException) as e:
        return None, str(e) or type(e).__name__
    return Part(path, start, stop, outcome), ""


def scan(out: pathlib.Path, fp: str, rows: int, *, remove: bool,
         full: bool = True) -> tuple[list[Part], int]:
    """The whole parts of ``out`` in row order, and how many others it held: cut short,
    corrupted, another job's or another part's rows, or overlapping a part kept. With
    ``remove`` those are deleted (for the rows to be done again); without, the first raises
    :class:`quanta.DamagedResultError` naming it."""
    parts: list[Part] = []
    bad = 0
    for path in sorted(out.glob("part-*.parquet")):
        part, problem = _check_part(path, fp, rows, full)
        if part is not None and parts and part.start < parts[-1].stop:
            problem = (f"its rows {part.start:,}-{part.stop:,} overlap those of "
                       f"{parts[-1].path.name}")
            part = None
        if part is not None:
            parts.append(part)
            continue
        if not remove:
            raise DamagedResultError(f"{path.name} in {out} is damaged ({problem}); run the "
                                     f"job again on {out} to redo it")
        path.unlink()
        bad += 1
    return parts, bad


def gaps(parts: list[Part], rows: int) -> list[range]:
    """The rows of a job of ``rows`` rows that ``parts`` (in row order) do not hold."""
    out, at = [], 0
    for part in parts:
        if part.start > at:
            out.append(range(at, part.start))
        at = part.stop
    if at < rows:
        out.append(range(at, rows))
    return out


def read_manifest(out: pathlib.Path) -> dict:
    if not (out / MANIFEST).exists():
        raise InvalidOptionError(f"{out} is not a job's directory (no {MANIFEST})")
    held = _read_json(out / MANIFEST)
    if not isinstance(held, dict) or not isinstance(held.get("manifest"), dict):
        raise DamagedResultError(f"{out / MANIFEST} is damaged: it does not name a job of "
                                 f"this version of quanta")
    return held["manifest"]


def read(out: str | os.PathLike):
    """The rows of a job's directory as one ``pyarrow.Table`` in row order (the parts finished
    so far). A part file cut short or corrupted (its footer, its row count or a page checksum
    wrong), holding another job's rows or rows other than its name says, raises
    :class:`quanta.DamagedResultError` naming the file; :func:`quanta.jobs.run` on the same
    directory redoes it."""
    pa, pq = parquet()
    out = pathlib.Path(out)
    ident = read_manifest(out)
    parts, _ = scan(out, fingerprint(ident), int(ident.get("rows", 0)), remove=False,
                    full=False)
    if not parts:
        return pa.table({})
    tables = []
    for part in parts:
        try:
            table = pq.read_table(part.path, page_checksum_verification=True)
        except (OSError, pa.ArrowException) as e:
            raise DamagedResultError(f"{part.path.name} in {out} is damaged "
                                     f"({str(e) or type(e).__name__}); run the job again on "
                                     f"{out} to redo it") from None
        tables.append(table.replace_schema_metadata(None))
    return pa.concat_tables(tables)
