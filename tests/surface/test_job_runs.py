"""Jobs left running for days: killed at random moments, started twice at once, their part
files swapped or strayed, every row failed, run on a Dask cluster whose scheduler and workers
are separate processes (one killed mid-job) and stopped with Ctrl-C. Each compares with a
clean run of the same job."""

from __future__ import annotations

import json
import os
import pathlib
import random
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

import quanta
from quanta import jobs
from quanta.cli import main
from quanta.exceptions import DirectoryInUseError, InvalidOptionError

pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyarrow.parquet")
pytest.importorskip("filelock")

#: A table job whose deals take a fraction of a second each (solitaire deals from 8 empty
#: cells), parts sized to a fraction of a second: many parts in a few seconds.
TABLE = ["job", "table", "quincunx_open", "-p", "empty=8", "--seed", "5", "--threads", "1",
         "--checkpoint", "0.3", "-q"]
#: Seconds any wait of these tests gives up after (a bound on a hung test, never a claim).
BOUND = 180


def command(*args: str) -> list[str]:
    return [sys.executable, "-c", "from quanta.cli import main; main()", *args]


def parts(directory: pathlib.Path) -> list[pathlib.Path]:
    return sorted(directory.glob("part-*.parquet"))


def kept(directory: pathlib.Path) -> int:
    return sum(pa.parquet.read_metadata(p).num_rows for p in parts(directory))


def wait_for(condition, process=None) -> None:
    deadline = time.monotonic() + BOUND
    while not condition():
        assert process is None or process.poll() is None, "the run ended before the event"
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.01)


def clean_run(tmp_path: pathlib.Path, deals: int) -> pathlib.Path:
    out = tmp_path / "clean"
    result = CliRunner().invoke(main, [*TABLE, "--deals", str(deals), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def same_rows(a: pathlib.Path, b: pathlib.Path) -> bool:
    return jobs.read(a).drop(["seconds"]).equals(jobs.read(b).drop(["seconds"]))


# ---- no lost work ----


def test_a_job_killed_at_random_moments_mid_part_keeps_its_parts_and_ends_as_a_clean_run(
        tmp_path):
    # 500 deals take about 11 s on one core of the release build: three kills, each within a
    # second of a part appearing, cannot let the job finish.
    deals = 500
    moments = random.Random().sample(range(0, 1000), 3)  # ms after a part appears
    out = tmp_path / "killed"
    for moment in moments:
        before = kept(out) if out.exists() else 0
        process = subprocess.Popen(command(*TABLE, "--deals", str(deals), "--out", str(out)),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for(lambda: out.exists() and kept(out) > before, process)
        time.sleep(moment / 1000)
        process.kill()
        process.wait()
        assert process.returncode == -signal.SIGKILL, (moments, "killed mid-job")
        assert kept(out) > before, (moments, "each run keeps the parts it finished")
    on_disk = kept(out)
    assert on_disk < deals, (moments, "killed mid-job")
    result = CliRunner().invoke(main, [*TABLE, "--deals", str(deals), "--out", str(out),
                                       "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ran"] == deals - on_disk, "only the rows not on disk are computed"
    assert report["taken_over"] and report["taken_over"]["host"] == socket.gethostname(), (
        "the lock of the killed run is taken over")
    assert same_rows(out, clean_run(tmp_path, deals))


def test_a_rerun_with_another_part_size_keeps_what_is_on_disk(tmp_path):
    deals = 12
    out = tmp_path / "out"
    first = CliRunner().invoke(main, [*TABLE, "--deals", str(deals), "--out", str(out),
                                      "--shard-size", "5"])
    assert first.exit_code == 0, first.output
    for part in parts(out)[1:]:
        part.unlink()
    again = CliRunner().invoke(main, [*TABLE, "--deals", str(deals), "--out", str(out),
                                      "--shard-size", "2", "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["ran"] == deals - 1
    assert same_rows(out, clean_run(tmp_path, deals))


# ---- an owned directory ----


def test_two_runs_started_at_once_one_runs_the_other_is_refused_naming_it(tmp_path):
    deals = 30
    out = tmp_path / "shared"
    runs = [subprocess.Popen(command(*TABLE, "--deals", str(deals), "--out", str(out),
                                     "--json"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    results = [(p.wait(BOUND), *p.communicate()) for p in runs]
    codes = sorted(code for code, _, _ in results)
    assert codes in ([0, 0], [0, 2]), results
    ran = [json.loads(out_text)["ran"] for code, out_text, _ in results if code == 0]
    assert sum(ran) == deals, "no row computed twice (the later run found them done)"
    for code, _, err in results:
        if code == 2:
            [line] = err.strip().splitlines()
            assert line.startswith(f"Error: {out} is in use by process ") and " on " in line
            assert "started" in line
    assert same_rows(out, clean_run(tmp_path, deals))


def test_a_held_directory_is_refused_with_its_holder_and_changes_nothing(tmp_path):
    job = jobs.playouts("einstein", 100)
    out = tmp_path / "held"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import pathlib, sys; from quanta.jobs import store; "
         "out = pathlib.Path(sys.argv[1]); out.mkdir();\n"
         "with store.lock(out):\n    print('held', flush=True); sys.stdin.read()", str(out)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(DirectoryInUseError, match=rf"is in use by process {holder.pid} on "
                                                      rf"{socket.gethostname()}, started "):
            jobs.run(job, out)
        assert sorted(p.name for p in out.iterdir()) == ["_lock", "_lock.json"]
    finally:
        holder.communicate("")
    assert jobs.run(job, out).taken_over is None, "a lock released in order is no stale one"
    assert jobs.read(out).num_rows == 100


# ---- each part carries its identity ----


def test_swapped_part_files_are_never_read_as_each_other_and_are_redone(tmp_path):
    job = jobs.playouts("einstein", 5000, seed=2, shard_size=1000)
    jobs.run(job, tmp_path / "clean")
    out = tmp_path / "swapped"
    jobs.run(job, out)
    full = [p for p in parts(out) if pa.parquet.read_metadata(p).num_rows == 1000]
    assert len(full) >= 2
    a, b = full[0], full[1]
    a.rename(tmp_path / "a")
    b.rename(a)
    (tmp_path / "a").rename(b)
    with pytest.raises(quanta.DamagedResultError, match=rf"{a.name} in .* \(it holds rows "):
        jobs.read(out)
    report = jobs.run(job, out)
    assert (report.redone, report.ran) == (2, 2000)
    assert jobs.read(out).equals(jobs.read(tmp_path / "clean"))


def test_a_stray_part_is_refused_by_read_and_removed_by_run(tmp_path):
    job = jobs.playouts("einstein", 300, seed=2)
    out = tmp_path / "out"
    jobs.run(job, out)
    clean = jobs.read(out)
    shutil.copy(parts(out)[0], out / "part-00007.parquet")
    with pytest.raises(quanta.DamagedResultError, match="part-00007.parquet in .* damaged"):
        jobs.read(out)
    report = jobs.run(job, out)
    assert (report.redone, report.ran, report.done) == (1, 0, 300)
    assert jobs.read(out).equals(clean)


# ---- honest endings ----


def test_a_job_whose_every_row_failed_exits_non_zero_counting_the_failures(tmp_path):
    file = tmp_path / "positions.txt"
    file.write_text("not a position\nnor this\n")
    out = tmp_path / "failed"
    result = CliRunner().invoke(main, ["job", "solve", "einstein", str(file), "--out",
                                       str(out), "-q"])
    assert result.exit_code == 1, result.output
    assert result.output.strip().endswith(
        "0 finished, 0 undecided, 2 failed (2 InvalidNotationError)")
    result = CliRunner().invoke(main, ["job", "solve", "einstein", str(file), "--out",
                                       str(out), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert (report["finished"], report["undecided"], report["failed"]) == (
        0, 0, {"InvalidNotationError": 2})


def test_the_closing_line_counts_finished_undecided_and_failed_rows(tmp_path):
    file = tmp_path / "positions.txt"
    file.write_text("...../.a.../...../...1./..... 0 -\nnonsense\n"
                    "12.../3..../...../....c/...ba 0 -\n")
    result = CliRunner().invoke(main, ["job", "solve", "einstein", str(file), "--max-nodes",
                                       "1000", "--out", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0, result.output
    assert "3 of 3 rows done" in result.output
    assert result.output.strip().endswith(
        "1 finished, 1 undecided, 1 failed (1 InvalidNotationError)")


@pytest.mark.parametrize("out", ["", "."])
def test_the_working_directory_is_no_jobs_directory(out, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidOptionError, match="out"):
        jobs.run(jobs.playouts("einstein", 10), out)
    result = CliRunner().invoke(main, ["job", "playouts", "einstein", "--games", "10",
                                       "--out", out])
    assert result.exit_code == 2 and result.output.startswith("Error: ")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_holding_other_files_is_refused_and_left_as_it_was(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = CliRunner().invoke(main, ["job", "playouts", "einstein", "--games", "10",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "holds files that are not a job's ('notes.txt')" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("call", [
    lambda: quanta.quincunx.solve_open_batch(0, 10**12),
    lambda: quanta.quincunx.fill_open_batch(0, 10**12),
    lambda: quanta.quincunx.play_batch("greedy", 0, 10**12),
    lambda: quanta.repair_unit.open_batch(1, 10**12),
    lambda: quanta.repair_unit.play_batch(1, "rule", 10**12),
    lambda: quanta.a_quantum_leap.play_batch("random", 2, 10**12),
])
def test_every_batch_solver_refuses_a_count_it_cannot_hold_before_any_work(call):
    with pytest.raises(InvalidOptionError, match=r"^n: .* fit: compute them in pieces"):
        call()


def test_a_batch_solvers_progress_computes_the_same_rows(capsys):
    plain = quanta.quincunx.solve_open_batch(3, 9, empty=7)
    shown = quanta.quincunx.solve_open_batch(3, 9, empty=7, progress=True)
    # The bar counts deals out of the total; whether it is drawn again before it closes
    # (leave=False clears it) depends on the clock, so only its start is certain.
    err = capsys.readouterr().err
    assert "/9 " in err and "deals" in err, "a bar counting the deals"
    # The answers; the nodes a deal took may depend on how the threads share the work.
    for key in ("solved", "lost", "score"):
        assert shown[key].tolist() == plain[key].tolist(), key
    assert quanta.repair_unit.play_batch(1, "rule", 50, progress=True)["won"].tolist() == (
        quanta.repair_unit.play_batch(1, "rule", 50)["won"].tolist())


def test_solve_shows_its_progress_once_a_search_is_long(monkeypatch):
    import quanta.cli

    monkeypatch.setattr(quanta.cli, "SEARCH_QUIET", 0.0)
    result = CliRunner().invoke(main, ["solve", "einstein",
                                                       "...../.a.../...../...1./..... 0 -"])
    assert result.exit_code == 0
    assert "searching" in result.stderr


# ---- Dask as a user runs it ----


def _live_in_group(group: int) -> list[str]:
    """The processes of ``group`` that are not zombies."""
    out = []
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            out.append(stat.parent.name)
    return out


@pytest.mark.skipif(not pathlib.Path("/proc/self/stat").exists(),
                    reason="a terminal's process group and /proc: Linux")
def test_ctrl_c_stops_a_local_cluster_job_in_one_line_and_shuts_the_cluster_down(tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "stopped"
    process = subprocess.Popen(
        command(*TABLE, "--deals", "400", "--local-cluster", "2", "--out", str(out)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    wait_for(lambda: bool(parts(out)), process)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
    _, err = process.communicate(timeout=BOUND)
    assert process.returncode == 130
    assert err.strip().splitlines() == [f"Stopped: {out} keeps the rows finished so far; run "
                                        f"the same command again to go on."]
    wait_for(lambda: not _live_in_group(process.pid))


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "dask", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def test_a_cluster_of_separate_processes_survives_a_killed_worker(tmp_path):
    pytest.importorskip("distributed")
    deals = 40
    expected = clean_run(tmp_path, deals)
    file = tmp_path / "scheduler.json"
    started = [_start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                      "--scheduler-file", str(file))]
    try:
        wait_for(file.exists)
        for _ in range(2):
            started.append(_start("worker", "--scheduler-file", str(file), "--nthreads", "1",
                                  "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"))
        address = json.loads(file.read_text())["address"]
        from distributed import Client

        with Client(address, timeout=BOUND) as client:
            client.wait_for_workers(2, timeout=BOUND)
        out = tmp_path / "cluster"
        job = jobs.table("quincunx_open", deals, seed=5, empty=8)
        with jobs.dask_executor(scheduler=address) as executor:
            import threading

            at_kill = []

            def kill_a_worker() -> None:
                wait_for(lambda: bool(parts(out)))
                started[1].kill()
                at_kill.append(kept(out))

            killer = threading.Thread(target=kill_a_worker)
            killer.start()
            report = jobs.run(job, out, executor=executor, threads=1, checkpoint=0.3)
            killer.join()
        assert at_kill[0] < deals, "a worker was killed mid-job"
        assert report.done == deals
        assert same_rows(out, expected)
    finally:
        for process in started:
            process.kill()
            process.wait()
