"""Every Python block of the README runs on its own, as printed (a reader copies one block into
a fresh interpreter), and the results its comments state are what the code gives."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_has_python_examples():
    assert len(_blocks()) >= 3


@pytest.mark.parametrize("index", range(len(_blocks())))
def test_each_readme_block_runs_on_its_own(index):
    block = _blocks()[index]
    namespace: dict = {"__name__": f"readme_block_{index}"}
    exec(compile(block, f"README.md python block {index + 1}", "exec"), namespace)


def _literal(text: str):
    """The longest start of ``text`` that is a Python literal (``'-8: 7 + Ace'`` gives -8),
    or None when none is."""
    for end in range(len(text), 0, -1):
        start = text[:end].strip()
        if start.endswith(","):
            continue  # "'a', read back" states 'a', not the tuple ('a',)
        try:
            return (ast.literal_eval(start),)
        except (ValueError, SyntaxError):
            continue
    return None


def _stated(line: str) -> list[tuple[str, object]]:
    """``[(expression, value)]`` when the line's comment states its expression's value:
    ``expr   # value ...`` where the value is a Python literal; a ``print(...)`` states the
    value printed."""
    code, sep, comment = line.partition("  # ")
    code = code.strip()
    if not sep or not code or re.match(r"^[\w.\[\], ]+ = ", code) or code.startswith("for "):
        return []
    literal = _literal(comment.strip())
    if literal is None:
        return []
    if code.startswith("print(") and code.endswith(")"):
        code = code[len("print("):-1]
    return [(code, literal[0])]


def _matches(got, stated) -> bool:
    """``got`` is what the README states; a list ending in ``...`` states its first items."""
    if isinstance(stated, (list, tuple)) and isinstance(got, (list, tuple)):
        if stated and stated[-1] is Ellipsis:
            stated, got = stated[:-1], got[:len(stated) - 1]
        return len(got) == len(stated) and all(map(_matches, got, stated))
    return got == stated


def test_the_values_the_readme_states_are_the_values_the_code_gives():
    checked = 0
    for index, block in enumerate(_blocks()):
        namespace: dict = {}
        lines = block.splitlines()
        for n, line in enumerate(lines):
            for code, value in _stated(line):
                exec(compile("\n".join(lines[:n]), "README", "exec"), namespace)
                got = eval(code, namespace)
                assert _matches(got, value), (index, code, got, value)
                checked += 1
    assert checked >= 3
