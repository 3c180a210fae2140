"""docs/jobs.md as printed: every example runs, in order, in one empty directory, and no two
examples write the same output directory. The counts are cut down (the doc says so and by
how much); the `pip install` lines and the line for a cluster of one's own are skipped."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "jobs.md"

#: What the test cuts down, in this order (the doc states the same list).
SCALED = [
    ("10000000", "20000"),
    ("10_000_000", "20_000"),
    ("1000000", "2000"),
    ("500_000", "5_000"),
    ("--deals 100000", "--deals 2"),
    ("quantum_leap_every_deal -p setup=A", "quantum_leap_every_deal -p setup=A -p size=2"),
]
#: Lines not run: installs, and the one that needs a cluster of one's own.
SKIPPED = (re.compile(r"^pip install "), re.compile(r"# a cluster of your own$"))


def examples() -> list[tuple[str, str]]:
    """The doc's code blocks, (language, code), in order."""
    return re.findall(r"^```(sh|python)\n(.*?)^```", DOC.read_text(), re.M | re.S)


def scaled(code: str) -> str:
    for text, small in SCALED:
        code = code.replace(text, small)
    return code


def runnable(language: str, code: str) -> str:
    lines = [line for line in scaled(code).splitlines()
             if not any(p.search(line.strip()) for p in SKIPPED)]
    if language == "sh":
        lines = [re.sub(r"^quanta ", f"{sys.executable} -m quanta.cli ", line) for line in lines]
        lines = [re.sub(r"^python ", f"{sys.executable} ", line) for line in lines]
    return "\n".join(lines) + "\n"


def test_every_scaling_the_doc_states_applies_to_its_examples():
    text = "\n".join(code for _, code in examples())
    for original, _ in SCALED:
        assert original in text, f"the doc no longer has {original!r}: update SCALED and the doc"
    doc = " ".join(DOC.read_text().split())
    assert ("10,000,000 games to 20,000, 1,000,000 to 2,000, 500,000 games a part to 5,000, "
            "100,000 deals to 2, and the every-deal table on side 2") in doc


def test_no_two_examples_write_the_same_directory():
    outs = []
    for _, code in examples():
        outs += re.findall(r"--out (\S+)", code)
        outs += re.findall(r"jobs\.run\([^,]+, \"([^\"]+)\"", code)
    assert len(outs) >= 8
    assert len(outs) == len(set(outs)), sorted(outs)


def test_the_examples_run_in_order_as_printed(tmp_path):
    pytest.importorskip("pyarrow")
    pytest.importorskip("distributed")
    pytest.importorskip("pandas")
    pytest.importorskip("duckdb")
    blocks = examples()
    assert [language for language, _ in blocks].count("python") >= 3
    for number, (language, code) in enumerate(blocks):
        script = runnable(language, code)
        if not script.strip():
            continue
        if language == "sh":
            command = ["bash", "-e", "-o", "pipefail", "-c", script]
        else:
            path = tmp_path / f".example-{number}.py"
            path.write_text(script)
            command = [sys.executable, str(path)]
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True,
                              timeout=1800, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, (f"example {number} failed:\n{script}\n"
                                      f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    assert (tmp_path / "endgames" / "_manifest.json").exists()
    assert list((tmp_path / "einstein-10m-dask").glob("part-*.parquet"))


def test_the_doc_covers_every_kind_of_job_and_every_option_of_its_command():
    from click.testing import CliRunner

    from quanta import jobs
    from quanta.cli import main

    text = DOC.read_text()
    for kind in jobs.KINDS:
        assert f"| `{kind}` |" in text, f"docs/jobs.md has no row for the {kind} jobs"
        help_text = CliRunner().invoke(main, ["job", kind, "--help"]).output
        options = set(re.findall(r"(--[a-z][a-z-]+)", help_text)) - {"--help"}
        assert options, kind
        missing = sorted(o for o in options if f"`{o}" not in text and f" {o} " not in text)
        assert missing == [], (kind, missing)
    for command, rest in re.findall(r"^quanta job (\w+)(.*)$", text, re.M):
        help_text = CliRunner().invoke(main, ["job", command, "--help"]).output
        for option in re.findall(r"(--[a-z][a-z-]+)", rest):
            assert option in help_text, (command, option)
