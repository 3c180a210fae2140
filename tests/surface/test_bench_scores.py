"""benches/quincunx_scores.py: the file of optimal open-deck scores that runs extend.

The collection takes hours over several runs, so what matters is that a run goes on where the
last stopped, redoes only what a larger node cap may now solve, and reads a deal's last line."""

from __future__ import annotations

import argparse

import pytest
from helpers import bench_script


@pytest.fixture(scope="module")
def scores():
    with bench_script("quincunx_scores") as module:
        yield module


def args(path, **over):
    base = dict(deals=3, seed=0, max_nodes=500, threads=1, chunk=2, file=str(path),
                commit="test", table_only=False)
    base.update(over)
    return argparse.Namespace(**base)


def data_lines(path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text().splitlines()[1:]]


def test_a_run_goes_on_where_the_file_stops_and_skips_deals_past_its_cap(scores, tmp_path):
    path = tmp_path / "scores.tsv"
    scores.collect(args(path, deals=2))
    first = data_lines(path)
    assert [row[0] for row in first] == ["0", "1"]
    # 500 nodes cannot solve a fresh deal: written unsolved, with the nodes spent, and
    # undecided: neither a loss nor a score.
    assert all(row[1] == "0" and row[2:4] == ["", ""] and int(row[4]) >= 500 for row in first)
    assert all(r["lost"] is None and r["score"] is None for r in scores.read(path).values())
    scores.collect(args(path, deals=3))
    assert [row[0] for row in data_lines(path)] == ["0", "1", "2"]
    # The same cap again: nothing left to do.
    scores.collect(args(path, deals=3))
    assert len(data_lines(path)) == 3
    # A larger cap takes the unsolved deals again.
    assert scores.to_do(scores.read(path), 3, 10**6) == [0, 1, 2]


def test_the_last_line_of_a_deal_counts(scores, tmp_path):
    path = tmp_path / "scores.tsv"
    path.write_text("\t".join(scores.FIELDS) + "\n"
                    "0\t0\t0\t0\t500\t0.1\ta\n"
                    "1\t0\t0\t0\t500\t0.1\ta\n"
                    "0\t1\t0\t203\t3500000\t4.2\tb\n")
    rows = scores.read(path)
    assert rows[0]["solved"] and rows[0]["score"] == 203 and rows[0]["commit"] == "b"
    # An unsolved line claims nothing, whatever it holds in lost and score.
    assert not rows[1]["solved"] and rows[1]["lost"] is None and rows[1]["score"] is None
    assert scores.to_do(rows, 3, 10**6) == [1, 2]


def test_deals_to_do_are_grouped_into_consecutive_runs(scores):
    assert scores.runs([0, 1, 2, 5, 6, 9]) == [(0, 3), (5, 2), (9, 1)]
    assert scores.runs([]) == []



def test_the_score_table_counts_only_solved_deals(scores, tmp_path, capsys):
    # Deal 1 is undecided: the table's deals, shares and mean leave it out rather than count
    # it as a loss scoring 0.
    path = tmp_path / "scores.tsv"
    path.write_text("\t".join(scores.FIELDS) + "\n"
                    "0\t1\t0\t200\t10\t0.1\ta\n"
                    "1\t0\t\t\t500\t0.1\ta\n"
                    "2\t1\t1\t100\t10\t0.1\ta\n")
    scores.table(args(path, deals=3, width=50))
    text = capsys.readouterr().out
    assert "Past the node cap: 1 deals (1)" in text
    assert "Optimal scores of 2 solved fresh deals (66.7% of 3)" in text
    assert "| all | 2 | 50.0% | 150.0 | 100 |" in text
