"""Every Python block of the README runs on its own, as printed (a reader copies one block into
a fresh interpreter), and the results its comments state are what the code gives."""

from __future__ import annotations

import ast
import pathlib
import re
import subprocess

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


def _commands() -> list[str]:
    """The set-up commands the README opens with: its first block, a shell block."""
    first = re.search(r"```(\w*)\n(.*?)```", README.read_text(), flags=re.S)
    assert first.group(1) == "sh"
    return first.group(2).splitlines()


def test_the_readme_opens_with_two_commands_run_and_test():
    run, test = _commands()
    assert run.endswith("&& quanta analyze")
    assert test.startswith("pip install '.[test]' && pytest")
    # CI runs the test command as printed (with the lockfile enforced), and stops with its
    # status when it fails (tests/surface/test_release.py runs that).
    ci = (README.parent / ".ci" / "run").read_text().splitlines()
    assert test.replace("cargo test", "cargo test --locked") + " || exit $?" in ci


def test_the_first_command_installs_the_distribution_the_package_is_named():
    # The wheel's file name starts with the distribution's name, `-` written `_` (PEP 427).
    import quanta
    run, _ = _commands()
    assert f"dist/{quanta.DISTRIBUTION.replace('-', '_')}-*.whl" in run
    pyproject = (README.parent / "pyproject.toml").read_text()
    assert re.search(rf'^name = "{quanta.DISTRIBUTION}"$', pyproject, re.M)


def _first_screen() -> tuple[str, str, str]:
    """The README up to its first section: (what comes before the commands, the commands'
    block, what follows up to the first ``##`` heading)."""
    head = README.read_text().split("\n## ", 1)[0]
    before, rest = head.split("```sh\n", 1)
    commands, after = rest.split("```\n", 1)
    return before, commands, after


def test_the_first_screen_says_what_quanta_is_then_the_commands_then_a_tour_of_ten_lines():
    before, commands, after = _first_screen()
    title, _, prose = before.strip().partition("\n\n")
    assert title == "# quanta"
    # Two sentences: two full stops that end a sentence (none inside a name or a number).
    assert len(re.findall(r"[.!?](?=\s|$)", prose.strip())) == 2, prose
    assert len(commands.splitlines()) == 2
    blocks = re.findall(r"```(\w*)\n(.*?)```", after, flags=re.S)
    assert [language for language, _ in blocks] == ["python"], blocks
    assert len(blocks[0][1].splitlines()) == 10
    # The tour is one of the blocks the tests above run and check.
    assert blocks[0][1] in _blocks()
    # The measured set-up times live in docs/install.md, not on the first screen.
    assert not re.search(r"\d+ (min|s)\b.*measured|measured.*\d+ (min|s)\b", before + after)
    install = (README.parent / "docs" / "install.md").read_text()
    assert re.search(r"\d+ min \d+ s measured", install)
    assert "docs/install.md" in after


def test_the_first_command_installs_the_wheel_or_else_builds_from_the_clone(tmp_path):
    """The first command's shell logic, with `pip` and `quanta` standing in: a wheel in
    dist/ is installed and nothing is built; without one, `pip install .` builds it."""
    run, _ = _commands()
    fake = tmp_path / "bin"
    fake.mkdir()
    # pip installs a wheel that exists (and a directory: the source build) and fails otherwise.
    (fake / "pip").write_text('#!/bin/sh\necho "pip $*" >>log\n'
                              '[ "$1" = install ] && [ -e "$2" ] || { echo missing >&2; exit 1; }\n')
    (fake / "quanta").write_text('#!/bin/sh\necho "quanta $*" >>log\n')
    for script in fake.iterdir():
        script.chmod(0o755)
    env = {"PATH": f"{fake}:/usr/bin:/bin"}

    def calls(clone: pathlib.Path) -> list[str]:
        subprocess.run(["sh", "-c", run], cwd=clone, env=env, check=True)
        return (clone / "log").read_text().splitlines()

    bare = tmp_path / "clone"
    bare.mkdir()
    assert calls(bare) == ["pip install dist/quanta_games-*.whl", "pip install .", "quanta analyze"]

    with_wheel = tmp_path / "with_wheel"
    (with_wheel / "dist").mkdir(parents=True)
    wheel = "quanta_games-0.1.0-cp310-abi3-manylinux_2_17_x86_64.whl"
    (with_wheel / "dist" / wheel).write_bytes(b"")
    assert calls(with_wheel) == [f"pip install dist/{wheel}", "quanta analyze"]

    # The wheel is where .ci/wheel puts it.
    assert re.search(r"--out dist\b", (README.parent / ".ci" / "wheel").read_text())
