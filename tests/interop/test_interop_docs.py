"""docs/interop.md as printed: each section's Python blocks run in order, in one namespace a
section (the page's intro before the first section heading is a section too). A section whose
blocks import a framework that is not installed is skipped; CI installs every extra."""

from __future__ import annotations

import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "interop.md"


def sections() -> list[tuple[str, list[str]]]:
    """(heading, the section's Python blocks) for each level-2 section of the page."""
    found = []
    for part in re.split(r"^(?=## )", DOC.read_text(), flags=re.M):
        heading = part.splitlines()[0].lstrip("# ").strip() if part.startswith("## ") else "intro"
        blocks = re.findall(r"^```python\n(.*?)^```", part, re.M | re.S)
        if blocks:
            found.append((heading, blocks))
    return found


def imported(code: str) -> set[str]:
    """The top-level packages a block imports."""
    names = re.findall(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", code, re.M)
    return set(names)


SECTIONS = sections()


def test_the_page_has_examples():
    assert sum(len(blocks) for _, blocks in SECTIONS) >= 3


@pytest.mark.parametrize("heading, blocks", SECTIONS, ids=[h for h, _ in SECTIONS])
def test_each_sections_examples_run_in_order(heading, blocks):
    for module in sorted(set().union(*map(imported, blocks))):
        pytest.importorskip(module)
    namespace: dict[str, object] = {"__name__": f"docs_interop_{heading}"}
    for number, code in enumerate(blocks, 1):
        exec(compile(code, f"docs/interop.md, {heading}, block {number}", "exec"), namespace)
