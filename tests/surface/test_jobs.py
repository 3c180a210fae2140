"""Batch jobs (quanta.jobs and `quanta job`): rows seeded by their number alone, Parquet results
that do not depend on the part sizes, the threads or the executor, every table kind declared in
the registry with the schema its rows have, bad rows kept with their error, and a real Dask
LocalCluster of two worker processes. Kills, locks, part identity and endings:
tests/surface/test_job_runs.py."""

from __future__ import annotations

import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import quanta
from quanta import jobs
from quanta.cli import main
from quanta.exceptions import InvalidOptionError

pa = pytest.importorskip("pyarrow")


def rows(out) -> list[dict]:
    return jobs.read(out).to_pylist()


def parts(directory) -> list[Path]:
    return sorted(directory.glob("part-*.parquet"))


# ---- what a part holds ----


def test_playout_rows_are_random_playouts_of_the_job_seed_from_their_first_row():
    job = jobs.playouts("einstein", 2500, seed=9, shard_size=1000)
    table = jobs.run_rows(job, 2000, 2500).to_pydict()
    direct = quanta.batch.random_playouts(quanta.game("einstein"), 500, seed=9, first=2000)
    assert table["game"] == list(range(2000, 2500))
    assert table["length"] == direct["length"].tolist()
    assert table["return_0"] == direct["returns"][:, 0].tolist()
    winner = np.where(direct["returns"][:, 0] > direct["returns"][:, 1], 0, 1)
    assert table["winner"] == winner.tolist(), "EinStein has no draws: the seat with +1"


def test_the_winner_column_says_draw_when_the_top_return_is_shared():
    out = jobs.run_rows(jobs.playouts("quincunx", 400, seed=1, shard_size=400), 0, 400).to_pydict()
    returns = np.array([out["return_0"], out["return_1"]]).T
    tied = returns[:, 0] == returns[:, 1]
    assert (np.array(out["winner"])[tied] == -1).all()
    assert (np.array(out["winner"])[~tied] == returns[~tied].argmax(axis=1)).all()


def test_game_options_travel_with_the_job():
    job = jobs.playouts("quantum_leap", 10, options={"size": 3}, shard_size=10)
    assert job.params["options"]["size"] == 3
    assert jobs.Job.from_dict(json.loads(json.dumps(job.to_dict()))) == job
    assert jobs.playouts("quantum_leap", 10, options={"size": 3}, shard_size=3) == job, (
        "the part size only regroups the rows: it is not the job's identity")


# ---- running: executors, resumption ----


def test_the_results_do_not_depend_on_the_executor_or_the_threads(tmp_path):
    job = jobs.playouts("a_quantum_leap", 3000, seed=4, shard_size=700)
    jobs.run(job, tmp_path / "local", threads=1)
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        jobs.run(job, tmp_path / "pool", executor=pool, threads=2)
    expected = rows(tmp_path / "local")
    assert len(expected) == 3000
    assert rows(tmp_path / "pool") == expected
    names = sorted(p.name for p in (tmp_path / "pool").iterdir())
    assert names[:2] == ["_lock", "_manifest.json"], "the lock stays, unheld, for the next run"
    assert all(n.startswith("part-") for n in names[2:])


def test_a_second_run_computes_only_the_rows_of_a_missing_part(tmp_path):
    job = jobs.playouts("einstein", 5000, seed=2, shard_size=1000)
    first = jobs.run(job, tmp_path)
    assert (first.ran, first.done, first.rows) == (5000, 5000, 5000)
    before = rows(tmp_path)
    missing = parts(tmp_path)[-2]
    lost = missing.stat().st_size and pa.parquet.read_metadata(missing).num_rows
    missing.unlink()
    again = jobs.run(job, tmp_path)
    assert (again.ran, again.done) == (lost, 5000)
    assert rows(tmp_path) == before


def test_a_rerun_with_another_shard_size_finishes_the_same_job(tmp_path):
    job = jobs.playouts("einstein", 5000, seed=2, shard_size=1000)
    jobs.run(job, tmp_path / "clean")
    jobs.run(job, tmp_path / "mixed")
    for part in parts(tmp_path / "mixed")[1::2]:
        part.unlink()
    again = jobs.run(jobs.playouts("einstein", 5000, seed=2, shard_size=7), tmp_path / "mixed")
    assert 0 < again.ran < 5000 and again.done == 5000
    assert jobs.read(tmp_path / "mixed").equals(jobs.read(tmp_path / "clean"))


def test_a_directory_of_another_job_is_refused(tmp_path):
    jobs.run(jobs.playouts("einstein", 100, seed=1, shard_size=50), tmp_path)
    with pytest.raises(InvalidOptionError, match="another job"):
        jobs.run(jobs.playouts("einstein", 100, seed=2, shard_size=50), tmp_path)
    assert len(rows(tmp_path)) == 100


def test_a_directory_begun_when_shards_were_seeded_by_their_number_is_another_job(tmp_path):
    # Format 1 seeded shard i from (seed, i); its rows would not match the rows seeded by
    # their own number that a run adds now.
    job = jobs.playouts("einstein", 100, seed=1, shard_size=50)
    jobs.run(job, tmp_path)
    manifest = tmp_path / jobs.MANIFEST
    held = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({"manifest": {**held["manifest"], "format": 1}}))
    parts(tmp_path)[-1].unlink()
    with pytest.raises(InvalidOptionError, match="another job"):
        jobs.run(job, tmp_path)


def _parts(directory) -> list[str]:
    return sorted(p.name for p in directory.glob("part-*.parquet"))


def test_a_job_killed_with_sigkill_resumes_without_losing_or_repeating_a_row(tmp_path):
    killed, clean = tmp_path / "killed", tmp_path / "clean"
    args = ["job", "playouts", "einstein", "--games", "600000", "--shard-size", "5000",
            "--seed", "3", "--threads", "1", "-q"]
    command = [sys.executable, "-c", "from quanta.cli import main; main()", *args]
    process = subprocess.Popen([*command, "--out", str(killed)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(_parts(killed)) < 3 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    done = _parts(killed)
    assert process.returncode == -signal.SIGKILL, process.stderr.read()
    kept = sum(pa.parquet.read_metadata(p).num_rows for p in killed.glob("part-*.parquet"))
    assert 3 <= len(done) and kept < 600_000, "killed in the middle of the job"
    result = CliRunner().invoke(main, [*args, "--out", str(killed), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ran"] == 600_000 - kept and report["done"] == 600_000
    assert CliRunner().invoke(main, [*args, "--out", str(clean)]).exit_code == 0
    resumed = jobs.read(killed)
    assert resumed.num_rows == 600_000
    assert resumed.column("game").to_pylist() == list(range(600_000))
    assert resumed.equals(jobs.read(clean))


# ---- solve jobs and tables ----


def test_a_solve_job_answers_each_position_and_keeps_bad_rows_with_their_error(tmp_path):
    g = quanta.game("einstein")
    won = "...../.a.../...../...1./..... 0 -"  # stone 1 steps onto e5 on any roll
    over = "...../...../...../...../....1 1 -"  # player 0 is on e5: the game is over
    far = "12.../3..../...../....c/...ba 0 -"  # three a side far back: past 1,000 nodes
    file = tmp_path / "positions.txt"
    file.write_text(f"# a comment\n{won}\n\nnot a position\n{over}\n{far}\n")
    job = jobs.solve("einstein", file, max_nodes=1000, shard_size=2)
    assert job.rows == 4
    jobs.run(job, tmp_path / "out")
    got = rows(tmp_path / "out")
    assert [r["position"] for r in got] == [0, 1, 2, 3]
    assert [r["notation"] for r in got] == [won, "not a position", over, far]
    assert got[0]["value"] == quanta.einstein.solve(g.from_notation(won)).value == 1.0
    assert got[0]["best"].split() == [f"{d}:d4e5" for d in range(1, 7)]
    assert got[0]["exact"] is True and got[0]["error"] == ""
    assert got[1]["error"].startswith("InvalidNotationError") and got[1]["value"] is None
    assert got[2]["error"] == "InvalidOptionError: the game is over in this position: nothing to solve"
    # Undecided within the limit: no value (never a 0 or a loss), the reason in `error`.
    assert got[3]["error"].startswith("SearchLimitError: einstein solver: node limit reached")
    assert got[3]["value"] is None and got[3]["exact"] is False and got[3]["nodes"] >= 1000


def test_a_solve_job_refuses_bad_arguments_when_it_is_made(tmp_path):
    with pytest.raises(InvalidOptionError, match="timeout"):
        jobs.solve("einstein", ["...../.a.../...../...1./..... 0 -"], timeout=-1)
    with pytest.raises(InvalidOptionError, match="not a file"):
        jobs.solve("einstein", tmp_path / "missing.txt")
    with pytest.raises(InvalidOptionError, match="at least one"):
        jobs.solve("einstein", [])
    with pytest.raises(InvalidOptionError):
        jobs.playouts("chess", 10)
    with pytest.raises(InvalidOptionError, match="games"):
        jobs.playouts("einstein", 0)
    with pytest.raises(InvalidOptionError, match="table must be one of"):
        jobs.table("chess", 10)
    with pytest.raises(InvalidOptionError, match="takes"):
        jobs.table("quincunx_open", 10, colour="red")


@pytest.mark.parametrize("name, deals, params, message", [
    ("quincunx_open", 10, {"empty": 13}, "parameter empty must be an integer from 0 to 12, not 13"),
    ("quincunx_open", 10, {"excuse": "yes"}, "parameter excuse must be True or False, not 'yes'"),
    ("quincunx_open", 10, {"timeout": -1}, "parameter timeout must be a number of seconds"),
    ("quincunx_open", 10, {"max_nodes": [5]}, r"parameter max_nodes must be a number of nodes"),
    ("quincunx_open", None, {}, "needs the number of deals"),
    ("quincunx_open", 0, {}, "deals must be an integer from 1"),
    ("repair_unit_open", 10, {"players": 5}, "parameter players must be an integer from 1 to 4"),
    ("repair_unit_open", 10, {"memory_mb": 0}, "parameter memory_mb must be a number of megabytes"),
    ("quantum_leap", 10, {"setup": "C"}, r"parameter setup must be one of \["),
    ("quantum_leap_every_deal", None, {"size": 4}, "size must be an integer from 2 to 3, not 4"),
    ("quantum_leap_every_deal", 5, {}, "solves every deal: give no number of deals"),
])
def test_a_bad_table_parameter_is_refused_in_rust_saying_what_was_expected(
        name, deals, params, message):
    with pytest.raises(InvalidOptionError, match=message):
        jobs.table(name, deals, **params)


#: Parameters under which each table kind runs fast and the same at any thread count; a kind
#: in the registry without an entry here fails the tests below.
FAST = {"quincunx_open": {"empty": 6}, "repair_unit_open": {"max_nodes": 200_000, "timeout": None},
        "quantum_leap": {"size": 3}, "quantum_leap_every_deal": {"size": 2}}


def test_every_table_kind_is_declared_in_the_registry_beside_a_game_and_documented():
    assert set(jobs.TABLES) == set(FAST), "a table kind without FAST parameters"
    docs = (Path(__file__).parents[2] / "docs" / "jobs.md").read_text()
    for name, kind in jobs.TABLES.items():
        assert kind.game in quanta.GAMES, name
        assert f"`{name}`" in docs, f"{name} is not in docs/jobs.md"
        assert kind.columns and all(dtype in {"bool", "int32", "int64", "uint64", "float64",
                                              "string"} for _, dtype, _ in kind.columns)
        assert set(kind.params) >= {"timeout", "max_nodes", "memory_mb"}, name


@pytest.mark.parametrize("name", sorted(FAST))
def test_a_tables_rows_have_its_declared_schema_whatever_the_part_sizes_or_threads(
        name, tmp_path):
    kind = jobs.TABLES[name]
    deals = None if kind.fixed_rows else 5
    one = jobs.table(name, deals, seed=11, shard_size=1, **FAST[name])
    three = jobs.table(name, deals, seed=11, shard_size=3, **FAST[name])
    jobs.run(one, tmp_path / "one", threads=1)
    jobs.run(three, tmp_path / "three", threads=1)
    jobs.run(three, tmp_path / "two_threads", threads=2)
    table = jobs.read(tmp_path / "one")
    assert table.num_rows == one.rows
    assert [(f.name, str(f.type), f.nullable) for f in table.schema] == [
        (c, {"float64": "double"}.get(t, t), nullable) for c, t, nullable in kind.columns]
    for c, _, nullable in kind.columns:
        assert nullable or table.column(c).null_count == 0, c
    # The rows depend on the seed and their numbers only (nodes and seconds of a parallel
    # solve aside).
    assert jobs.read(tmp_path / "three").drop(["seconds"]).equals(table.drop(["seconds"]))
    assert jobs.read(tmp_path / "two_threads").drop(["seconds", "nodes"]).equals(
        table.drop(["seconds", "nodes"]))
    if kind.seeded:
        other = jobs.run_rows(jobs.table(name, deals, seed=12, shard_size=5, **FAST[name]), 0, 5)
        assert not other.drop(["seconds", "nodes"]).equals(table.drop(["seconds", "nodes"]))


def test_the_quincunx_open_table_is_the_solitaire_batch_of_the_job_seed():
    job = jobs.table("quincunx_open", 6, seed=5, shard_size=3, empty=7)
    shard = jobs.run_rows(job, 3, 6).to_pydict()
    direct = quanta.quincunx.solve_open_batch(5, 3, first=3, empty=7, memory_mb=256)
    assert all(shard["solved"])
    assert shard["deal"] == [3, 4, 5]
    assert shard["score"] == direct["score"].tolist()
    assert shard["lost"] == direct["lost"].tolist()


def test_the_quantum_leap_table_solves_dealt_boards():
    shard = jobs.run_rows(jobs.table("quantum_leap", 3, size=2, shard_size=3), 0, 3).to_pydict()
    g = quanta.game("quantum_leap", size=2)
    for notation, win in zip(shard["notation"], shard["win"]):
        state = g.from_notation(notation)
        assert not state.is_chance
        assert win == quanta.quantum_leap.solve(state).win


def test_a_quantum_leap_table_takes_board_or_size_not_both():
    """A board names its own size: both at once is refused, not one silently preferred."""
    with pytest.raises(InvalidOptionError, match="board or size, not both"):
        jobs.run_rows(jobs.table("quantum_leap", 3, size=2, board="triangle 4", shard_size=3),
                      0, 3)
    with pytest.raises(InvalidOptionError, match="board or size, not both"):
        jobs.table("quantum_leap_every_deal", size=2, board="triangle 3")
    rows = jobs.run_rows(jobs.table("quantum_leap", 2, board="triangle 4", shard_size=2), 0, 2)
    g = quanta.game("quantum_leap", board="triangle 4")
    assert all(g.from_notation(n) for n in rows.to_pydict()["notation"])


# ---- Dask ----


def test_a_job_on_a_local_cluster_of_two_worker_processes_equals_the_local_run(tmp_path):
    pytest.importorskip("distributed")
    job = jobs.playouts("quincunx", 4000, seed=8, shard_size=500)
    jobs.run(job, tmp_path / "local")
    with jobs.dask_executor(local_cluster=2) as executor:
        report = jobs.run(job, tmp_path / "dask", executor=executor, threads=1)
    assert report.ran == 4000
    assert jobs.read(tmp_path / "dask").equals(jobs.read(tmp_path / "local"))


# ---- the command line ----


def test_job_commands_refuse_bad_arguments_in_one_line_with_status_2(tmp_path):
    for args in (["job", "playouts", "einstein", "--games", "0", "--out", str(tmp_path)],
                 ["job", "playouts", "einstein", "--games", "5", "-o", "nonsense",
                  "--out", str(tmp_path)],
                 ["job", "playouts", "einstein", "--games", "5", "-o", "colour=3",
                  "--out", str(tmp_path)],
                 ["job", "playouts", "einstein", "--games", "5", "--out", str(tmp_path),
                  "--scheduler", "tcp://x:1", "--local-cluster", "2"],
                 ["job", "table", "quincunx_open", "--deals", "5", "-p", "empty=13",
                  "--out", str(tmp_path)],
                 ["job", "table", "quantum_leap_every_deal", "--deals", "5",
                  "--out", str(tmp_path)],
                 ["solve", "einstein", "not a position"],
                 ["solve", "einstein", "...../...../...../...../....1 1 -"],
                 ["play", "einstein", "--as", "2"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("Error: "), (args, result.output)


def test_solve_prints_the_answer_and_json_for_machines():
    notation = "...../.a.../...../...1./..... 0 -"
    result = CliRunner().invoke(main, ["solve", "einstein", notation, "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["value"] == 1.0 and answer["best"].split()[0] == "1:d4e5"
    result = CliRunner().invoke(main, ["solve", "einstein", "12.../3..../...../....c/...ba 0 -",
                                       "--max-nodes", "100"])
    assert result.exit_code == 1 and "limit" in result.output


def test_play_takes_moves_in_notation_and_explains_a_bad_one():
    g = quanta.game("quantum_leap", size=2)
    result = CliRunner().invoke(main, ["play", "quantum_leap", "-o", "size=2", "--as", "1"],
                                input="?\nzz9\nquit\n")
    assert result.exit_code == 0, result.output
    assert "lists your moves" in result.output, "a bad move is explained"
    assert "your move (player 1)" in result.output
    assert g.num_players == 2


# ---- every deal of a small Quantum Leap board ----


def _every_deal_by_the_chance_tree(setup: str) -> dict:
    """White's chances on side 2 from the game's own deal (every chance outcome with its
    probability), each dealt board solved: what the symmetry-reduced table must give."""
    g = quanta.game("quantum_leap", size=2, setup=setup)
    totals = {"no swap": 0.0, "swap": 0.0, "start": 0.0}
    stack = [(g.new_state(), 1.0)]
    deals = 0
    while stack:
        state, p = stack.pop()
        if state.is_chance:
            stack.extend((state.play(a), p * q) for a, q in state.chance_outcomes())
            continue
        deals += 1
        if setup == "A":
            white = quanta.quantum_leap.solve(state.play(state.parse_action("no swap"))).win
            totals["no swap"] += p * white
            totals["swap"] += p * (not quanta.quantum_leap.solve(state).win)
        else:
            totals["start"] += p * quanta.quantum_leap.solve(state).win
    keys = ["no swap", "swap"] if setup == "A" else ["start"]
    return {"deals": deals, **{k: totals[k] for k in keys}}


@pytest.mark.parametrize("setup", ["A", "B"])
def test_every_deal_counted_once_per_symmetry_class_gives_the_chance_trees_odds(setup, tmp_path):
    job = jobs.table("quantum_leap_every_deal", size=2, setup=setup, shard_size=5)
    jobs.run(job, tmp_path)
    got = jobs.first_player_wins(jobs.read(tmp_path))
    expected = _every_deal_by_the_chance_tree(setup)
    assert got["deals"] == expected["deals"] == (120 if setup == "A" else 35)
    assert got["classes"] == job.rows < got["deals"] / 4, "symmetric deals solved once"
    for key in expected:
        if key != "deals":
            assert got[key] == pytest.approx(expected[key], abs=1e-12), key


def test_every_side_3_deal_is_in_one_class_of_the_every_deal_table():
    # Setup A: the empty cell (any but the centre), then White's 9 stones among the other 18;
    # setup B: White's 9 stones among the 19 cells. A class is at most a deal's 12 images.
    for setup, deals in (("A", 18 * 48620), ("B", 92378)):
        job = jobs.table("quantum_leap_every_deal", setup=setup)
        assert deals / 12 <= job.rows < deals / 11, setup
        if setup == "B":
            shard = jobs.run_rows(job, 0, 1000, threads=1).column("weight").to_pylist()
            assert 1 <= min(shard) and max(shard) <= 12


# ---- the games with hidden order: Quantum Repair Unit ----


def test_the_repair_unit_table_is_the_open_batch_of_the_job_seed():
    job = jobs.table("repair_unit_open", 4, seed=3, shard_size=2, max_nodes=200_000)
    shard = jobs.run_rows(job, 2, 4).to_pydict()
    direct = quanta.repair_unit.open_batch(1, 2, seed=3, first=2, max_nodes=200_000,
                                           memory_mb=256)
    assert shard["deal"] == [2, 3]
    assert shard["winnable"] == direct["winnable"].tolist()
    assert shard["nodes"] == direct["nodes"].tolist()


def test_an_undecided_repair_unit_deal_is_a_null_in_the_table(tmp_path):
    job = jobs.table("repair_unit_open", 2, seed=3, shard_size=2, max_nodes=1, timeout=None)
    jobs.run(job, tmp_path)
    table = jobs.read(tmp_path)
    assert str(table.schema.field("winnable").type) == "bool"
    assert table.column("winnable").to_pylist() == [None, None]


def test_a_repair_unit_solve_row_is_the_seeded_win_probability_and_the_policys_move(tmp_path):
    g = quanta.game("repair_unit")
    state = g.new_state()
    while state.is_chance:
        state = state.play(state.legal_actions()[0])
    # At the deal 2,000 nodes an order decide none of the 32 orders: the row is undecided,
    # with no value (not the 0 an estimate over no order would give) and no move.
    job = jobs.solve("repair_unit", [state.notation()], max_nodes=64_000)
    jobs.run(job, tmp_path / "deal")
    [row] = rows(tmp_path / "deal")
    assert row["value"] is None and row["best"] is None and row["exact"] is False
    assert row["error"].startswith("SearchLimitError: ") and "none of the 32" in row["error"]
    assert row["nodes"] > 0
    # Later in the game every order is decided: the row holds the seeded probability.
    while quanta.repair_unit.win_probability(state, 32, 0, max_nodes=2000).undecided:
        state = state.play(quanta.repair_unit.rule_move(state))
        while state.is_chance:
            state = state.play(state.legal_actions()[0])
    job = jobs.solve("repair_unit", [state.notation()], max_nodes=64_000)
    jobs.run(job, tmp_path / "late")
    [row] = rows(tmp_path / "late")
    assert row["error"] == "", row["error"]
    expected = quanta.repair_unit.win_probability(state, 32, 0, max_nodes=2000)
    assert row["value"] == expected.probability and row["exact"] is True
    assert row["best"] in [state.action_to_string(a) for a in state.legal_actions()]


# ---- inputs that never hurt, results that heal ----


def test_a_playout_part_too_big_for_memory_is_refused_when_the_job_is_made():
    with pytest.raises(InvalidOptionError, match=r"^shard_size: .* games fit: give a smaller "
                                                 r"shard_size"):
        jobs.playouts("einstein", 2**40, shard_size=2**40)
    assert jobs.playouts("einstein", 2**40).shard_size == 10**6, "the default fits"


def test_a_huge_bad_parameter_comes_back_as_a_short_message(tmp_path):
    big = "x" * 1_000_000
    for call in (lambda: jobs.table("quincunx_open", 10, excuse=big),
                 lambda: jobs.table(big, 10),
                 lambda: jobs.playouts(big, 10),
                 lambda: jobs.playouts("einstein", 10, options={"setup": big}),
                 lambda: jobs.playouts("einstein", big)):
        with pytest.raises(InvalidOptionError) as e:
            call()
        assert len(str(e.value)) < 400, str(e.value)[:500]
    jobs.run(jobs.solve("einstein", [big]), tmp_path)
    [row] = rows(tmp_path)
    assert row["error"].startswith("InvalidNotationError") and len(row["error"]) < 400


def test_the_rows_of_a_cooperative_game_say_whether_the_team_won(monkeypatch):
    g = quanta.game("repair_unit", players=2)
    assert g.info.utility == "cooperative"
    job = jobs.playouts("repair_unit", 3000, options={"players": 2}, seed=5, shard_size=3000)
    shard = jobs.run_rows(job, 0, 3000).to_pydict()
    assert "winner" not in shard, "no seat wins alone in a cooperative game"
    seed = int(np.random.SeedSequence(5, spawn_key=(0,)).generate_state(1, np.uint64)[0])
    direct = quanta.batch.random_playouts(g, 3000, seed=seed)
    assert shard["won"] == (direct["returns"][:, 0] > 0).tolist()
    assert (direct["returns"][:, 0] == direct["returns"][:, 1]).all(), "the seats share a return"
    # Random play seldom wins Quantum Repair Unit: the column read off won and lost teams.
    returns = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, 1.0]])
    monkeypatch.setattr(jobs.kinds, "random_playouts", lambda g, n, **_: {
        "returns": returns, "length": np.array([9, 4, 7], dtype=np.int32)})
    shard = jobs.run_rows(jobs.playouts("repair_unit", 3, options={"players": 2}), 0, 3)
    assert shard.column_names == ["game", "length", "return_0", "return_1", "won"]
    assert shard.column("won").to_pylist() == [True, False, True]
    assert shard.schema.field("won").type == pa.bool_()


def _cut_short(path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _corrupt(path) -> None:
    """Flips bits in the middle of the file: the footer and the row count still read."""
    data = bytearray(path.read_bytes())
    for i in range(len(data) // 3, len(data) // 3 + 40):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))


def test_a_run_started_again_redoes_a_part_cut_short_and_a_corrupted_one(tmp_path):
    job = jobs.playouts("einstein", 5000, seed=2, shard_size=1000)
    jobs.run(job, tmp_path / "clean")
    jobs.run(job, tmp_path / "damaged")
    short, corrupted = parts(tmp_path / "damaged")[-3], parts(tmp_path / "damaged")[-1]
    lost = sum(pa.parquet.read_metadata(p).num_rows for p in (short, corrupted))
    _cut_short(short)
    _corrupt(corrupted)
    assert pa.parquet.read_metadata(corrupted).num_rows > 0, "the footer still reads"
    with pytest.raises(quanta.DamagedResultError, match=rf"^{short.name} in .* is damaged"):
        jobs.read(tmp_path / "damaged")
    report = jobs.run(job, tmp_path / "damaged")
    assert (report.ran, report.redone, report.done) == (lost, 2, 5000)
    assert jobs.read(tmp_path / "damaged").equals(jobs.read(tmp_path / "clean"))
    assert jobs.run(job, tmp_path / "damaged").redone == 0


def test_reading_a_corrupted_part_names_it(tmp_path):
    job = jobs.playouts("einstein", 3000, seed=2, shard_size=1000)
    jobs.run(job, tmp_path)
    last = parts(tmp_path)[-1]
    _corrupt(last)
    with pytest.raises(quanta.DamagedResultError, match=rf"^{last.name} in .* damaged"):
        jobs.read(tmp_path)
    assert issubclass(quanta.DamagedResultError, quanta.QuantaError)


def test_a_part_of_another_job_is_never_read_and_is_redone(tmp_path):
    job = jobs.playouts("einstein", 3000, seed=2, shard_size=1000)
    jobs.run(job, tmp_path / "job")
    clean = jobs.read(tmp_path / "job")
    other = tmp_path / "other"
    jobs.run(jobs.playouts("einstein", 3000, seed=3, shard_size=1000), other)
    # The same rows of another seed, under the name of this job's part.
    victim = parts(tmp_path / "job")[0]
    source = [p for p in parts(other) if p.name == victim.name]
    assert source, "both runs cut their rows alike"
    source[0].replace(victim)
    with pytest.raises(quanta.DamagedResultError, match="holds rows of another job"):
        jobs.read(tmp_path / "job")
    assert jobs.run(job, tmp_path / "job").redone == 1
    assert jobs.read(tmp_path / "job").equals(clean)


def test_a_refused_run_leaves_no_directory_and_the_corrected_one_runs(tmp_path):
    out = tmp_path / "deep" / "out"
    job = jobs.playouts("einstein", 100, shard_size=50)
    for bad in ({"executor": "a pool"}, {"threads": 0}):
        with pytest.raises(InvalidOptionError):
            jobs.run(job, out, **bad)
        assert not (tmp_path / "deep").exists(), bad
    # A job made by hand with a parameter that only its parts read.
    made = jobs.Job("table", {**jobs.table("quincunx_open", 4).params, "excuse": "yes"}, 4, 2)
    with pytest.raises(InvalidOptionError, match="excuse must be True or False"):
        jobs.run(made, out)
    assert not (tmp_path / "deep").exists()
    # A part that fails on the executor before any is written.
    with concurrent.futures.ThreadPoolExecutor(1) as pool, pytest.raises(RuntimeError):
        jobs.run(job, out, executor=_Failing(pool))
    assert not (tmp_path / "deep").exists()
    assert jobs.run(jobs.table("quincunx_open", 4, shard_size=2, empty=5), out).ran == 4


class _Failing(concurrent.futures.Executor):
    """An executor whose every task fails (a worker lost before it wrote anything)."""

    def __init__(self, pool):
        self.pool = pool

    def submit(self, fn, /, *args, **kwargs):
        return self.pool.submit(_fail)


def _fail():
    raise RuntimeError("the worker was lost")


def test_a_positions_file_that_is_not_utf8_is_refused_naming_the_file_and_the_byte(tmp_path):
    file = tmp_path / "positions.txt"
    file.write_bytes(b"...../.a.../...../...1./..... 0 -\n\xff\xfe\n")
    with pytest.raises(InvalidOptionError, match=r"positions\.txt' is not UTF-8 text \(byte "
                                                 r"34 is"):
        jobs.solve("einstein", file)


def test_a_scheduler_that_does_not_answer_is_refused_within_the_timeout():
    pytest.importorskip("distributed")
    for address in ("not an address", "tcp://"):
        with pytest.raises(InvalidOptionError, match="scheduler must be a Dask scheduler's"):
            with jobs.dask_executor(scheduler=address):
                pass
    with pytest.raises(InvalidOptionError, match=r"no Dask scheduler answered at "
                                                 r"'tcp://127\.0\.0\.1:1' within 1 s"):
        with jobs.dask_executor(scheduler="tcp://127.0.0.1:1", timeout=1):
            pass


def test_a_job_of_a_game_with_tuple_options_resumes(tmp_path):
    # hand_size and open_hands are tuples in g.options and lists in the manifest's JSON: the
    # same job started again is still the same job.
    job = jobs.playouts("einstein_card", 20, options={"hand_size": (2, 3)}, shard_size=10)
    first = jobs.run(job, tmp_path / "card")
    again = jobs.run(job, tmp_path / "card")
    assert (first.ran, again.ran, again.done) == (20, 0, 20)
