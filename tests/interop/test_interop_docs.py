"""docs/interop.md as printed: its ```python blocks run in order in one interpreter, each
framework's blocks only where that framework is installed (a block needs the frameworks it
imports)."""

from __future__ import annotations

import importlib.util
import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "interop.md"

#: The frameworks a block may import, by the top-level module it imports.
FRAMEWORKS = ("pettingzoo", "gymnasium", "pyspiel", "open_spiel")


def blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(), re.M | re.S)


def needs(code: str) -> set[str]:
    """The frameworks ``code`` imports, directly or through quanta.interop's modules."""
    out = set()
    for name in FRAMEWORKS:
        if re.search(rf"^\s*(import|from)\s+(quanta\.interop\.)?{name}\b", code, re.M) or \
                re.search(rf"^\s*from\s+quanta\.interop\s+import\s+.*\b{name}\b", code, re.M):
            out.add(name)
    if "openspiel" in code:
        out.add("pyspiel")
    return out


def test_every_block_needs_a_framework_it_names():
    assert len(blocks()) >= 3
    for code in blocks():
        assert needs(code), code


def test_the_examples_run_in_order_as_printed(capsys):
    namespace: dict[str, object] = {}
    ran = 0
    for number, code in enumerate(blocks()):
        missing = [m for m in needs(code) if importlib.util.find_spec(m) is None]
        if missing:
            continue
        exec(compile(code, f"{DOC.name} block {number}", "exec"), namespace)
        ran += 1
    if ran == 0:
        pytest.skip("none of the frameworks of docs/interop.md is installed")
    assert capsys.readouterr().out.strip()
