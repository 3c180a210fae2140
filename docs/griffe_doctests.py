"""A Griffe extension for the API reference (mkdocs.yml, mkdocstrings' ``extensions``): the
interpreter sessions in quanta's docstrings (``>>>`` lines and their output, as doctest writes
them) are fenced as ``pycon`` code, so that Markdown shows them as code instead of reading
``s.chance_outcomes()[0][0]`` as a link."""

from __future__ import annotations

from typing import Any

import griffe


def fence_sessions(text: str) -> str:
    """``text`` with each run of ``>>>`` lines (with their ``...`` continuations and output, up
    to a blank line) put in a fenced ``pycon`` block at the run's indentation."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.lstrip().startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[:len(line) - len(line.lstrip())]
        block = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        if out and out[-1].strip():
            out.append("")
        out += [f"{indent}```pycon", *[indent + b for b in block], f"{indent}```"]
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_sessions(obj.docstring.value)
