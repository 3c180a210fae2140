"""`quanta/_core.pyi` matches the Rust extension exactly: every class, function, property and
signature (mypy.stubtest); what the stub names and the module lacks, or the reverse, fails."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

import quanta

ALLOWLIST = pathlib.Path(__file__).with_name("stubtest_allowlist.txt")


def test_the_stub_of_the_extension_matches_the_module(tmp_path):
    pytest.importorskip("mypy.stubtest")
    package = pathlib.Path(quanta.__file__).parent
    assert (package / "_core.pyi").exists(), "the stub ships with the package"
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "quanta._core", "--allowlist", str(ALLOWLIST)],
        # An empty working directory: mypy must find the installed package, and nothing there
        # (a checkout's python/, or the standard library beside site-packages) may shadow it.
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
