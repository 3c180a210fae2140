"""The whole installed package type-checks and matches its stubs (mypy.stubtest over `quanta`):
`quanta/_core.pyi` names exactly the classes, functions, properties and signatures of the Rust
extension, and the Python modules pass mypy under the settings of pyproject.toml's [tool.mypy]
(every public module fully annotated). What a stub names and the module lacks, or the reverse,
or a type error anywhere in the package, fails."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

import quanta

TESTS = pathlib.Path(__file__).parent
ALLOWLIST = TESTS / "stubtest_allowlist.txt"
CONFIG = TESTS.parents[1] / "pyproject.toml"


def test_the_package_type_checks_and_matches_its_stubs(tmp_path):
    pytest.importorskip("mypy.stubtest")
    package = pathlib.Path(quanta.__file__).parent
    assert (package / "_core.pyi").exists(), "the stub ships with the package"
    assert (package / "py.typed").exists(), "the package says it is typed"
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "quanta", "--allowlist", str(ALLOWLIST),
         "--mypy-config-file", str(CONFIG)],
        # An empty working directory: mypy must find the installed package, and nothing there
        # (a checkout's python/, or the standard library beside site-packages) may shadow it.
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
