"""The documentation site (mkdocs.yml, docs/hooks.py): every public module has its API page,
every registered game its rules page in the navigation and its picture in the gallery, each
plot finds the table it is drawn from, links between repository files land on the pages those
files became, docs/bots.md's examples give what they state, and CI builds the site in strict
mode with the docs extra alone."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import quanta
from test_readme import _matches, _stated

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_hooks():
    spec = importlib.util.spec_from_file_location("quanta_docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hooks = load_hooks()


def test_every_public_module_has_an_api_page():
    modules = hooks.public_modules()
    for name in ["quanta", "quanta.bots", "quanta.jobs", "quanta.interop.gymnasium",
                 "quanta.reference.einstein", *(f"quanta.{game}" for game in quanta.GAMES)]:
        assert name in modules, name
    assert not [m for m in modules if re.search(r"\._|^quanta\.cli$", m)], modules
    # Each name is importable as a module (the reference cannot document a name that is not).
    for name in modules:
        if name.startswith("quanta.interop."):
            continue   # the frameworks are extras: mkdocstrings reads these statically
        assert importlib.util.find_spec(name) is not None, name
    assert "::: quanta.bots" in hooks.api_page("quanta.bots")


def test_the_navigation_holds_every_rules_page_and_the_guide():
    yaml = pytest.importorskip("yaml")

    class Loader(yaml.SafeLoader):
        pass
    Loader.add_multi_constructor("", lambda loader, suffix, node: None)   # !!python/name tags
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)
    flat = str(config["nav"])
    for game in quanta.GAMES:
        assert f"rules/{game}.md" in flat, game
    for page in ["index.md", "install.md", "bots.md", "jobs.md", "interop.md",
                 "adding_a_game.md", "gallery.md", "perf/benches.md", "api/index.md",
                 "changelog.md"]:
        assert page in flat, page
    for page in (ROOT / "docs" / "perf").glob("*.md"):
        assert f"perf/{page.name}" in flat, page.name
    # Every problem is a warning and --strict turns warnings into failures.
    assert set(config["validation"].values()) == {"warn"}


def test_the_gallery_draws_every_registered_game():
    page, pictures = hooks.gallery()
    drawn = {file.rsplit("-", 1)[0] for file in pictures}
    assert drawn == set(quanta.GAMES)
    for file, svg in pictures.items():
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg") and root.get("viewBox"), file
        assert f"(gallery/{file})" in page


@pytest.mark.parametrize("heading,file,draw", hooks.FIGURES)
def test_each_plot_finds_its_table_or_data(heading, file, draw):
    markdown = (ROOT / "benches" / "README.md").read_text()
    if draw is None:
        scores = hooks.quincunx_scores()
        assert len(scores) >= 1000 and 100 < sum(scores) / len(scores) < 300
        return
    rows = hooks.table_under(markdown, heading)
    assert len(rows) >= 3, heading


def test_the_table_readers_read_numbers_and_intervals():
    assert hooks.number("1,334,397") == 1334397
    assert hooks.number("0.7444 s") == 0.7444
    assert hooks.share_interval("wins 67.2 % [62.5–71.7], mean 208.4") == (67.2, 62.5, 71.7)
    with pytest.raises(ValueError):
        hooks.share_interval("0 of 1,000 each")
    with pytest.raises(LookupError):
        hooks.table_under("# A\n\nno table\n", "A")
    rows = hooks.table_under("## T\n\n| a | b |\n|---|--:|\n| x | 1 |\n| y | 2 |\n\n## U\n", "T")
    assert rows == [{"a": "x", "b": "1"}, {"a": "y", "b": "2"}]


def test_each_figure_is_placed_beside_its_table():
    pytest.importorskip("matplotlib")
    markdown, drawn = hooks.figures((ROOT / "benches" / "README.md").read_text())
    assert set(drawn) == {file for _, file, _ in hooks.FIGURES}
    for heading, file, _ in hooks.FIGURES:
        section = markdown.split(f" {heading}\n", 1)[1]
        table_end = re.search(r"^\|.*\n(?!\|)", section, re.M).end()
        assert section[table_end:].lstrip().startswith(f"![{heading}](plots/{file})"), heading
        assert "<svg" in drawn[file] and "<path" in drawn[file], file


def test_links_point_at_the_pages_their_files_became():
    docs = {"perf/bots.md", "perf/einstein.md", "jobs.md", "install.md"}
    rewrite = hooks.rewrite_links
    assert rewrite("[b](../../benches/README.md#x)", "docs/perf/bots.md", "perf/bots.md",
                   docs) == "[b](benches.md#x)"
    assert rewrite("[e](../docs/perf/einstein.md)", "benches/README.md", "perf/benches.md",
                   docs) == "[e](einstein.md)"
    assert rewrite("[i](docs/install.md)", "README.md", "index.md", docs) == "[i](install.md)"
    assert rewrite("[j](../jobs.md)", "docs/perf/bots.md", "perf/bots.md", docs) == \
        "[j](../jobs.md)"
    # A file the site does not hold is named in code, never a dead link.
    assert rewrite("[the script](../benches/bots.py)", "docs/jobs.md", "jobs.md", docs) == \
        "the script (`benches/bots.py`)"
    assert rewrite("[x](https://example.org/a.md) [y](#z)", "README.md", "index.md", docs) == \
        "[x](https://example.org/a.md) [y](#z)"


def test_the_bots_page_examples_give_what_they_state():
    text = (ROOT / "docs" / "bots.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    checked = 0
    for block in blocks:
        namespace: dict = {}
        exec(compile(block, "docs/bots.md", "exec"), namespace)
        lines = block.splitlines()
        for n, line in enumerate(lines):
            for code, value in _stated(line):
                exec(compile("\n".join(lines[:n]), "docs/bots.md", "exec"), namespace)
                got = eval(code, namespace)
                assert _matches(got, value), (code, got, value)
                checked += 1
    assert checked >= 3


def test_ci_builds_the_site_with_the_docs_extra_alone_after_the_tests(tmp_path):
    tomllib = pytest.importorskip("tomllib")
    run = (ROOT / ".ci" / "run").read_text().splitlines()
    tests = next(i for i, line in enumerate(run) if line.startswith("pip install '.[test]'"))
    assert ".ci/docs" in run[tests + 1:]
    script = (ROOT / ".ci" / "docs").read_text()
    assert "mkdocs build --strict" in script
    installs = [line for line in script.splitlines() if line.startswith("pip install")]
    assert installs and all(" -r " in line for line in installs), installs   # no second build
    # The requirements .ci/docs installs are the docs extra's.
    reader = re.search(r"python - <<'PY'.*?\n(.*?)\nPY\n", script, re.S).group(1)
    done = subprocess.run([sys.executable, "-c", reader], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["docs"]
    assert done.stdout.split() == extra
    assert any(r.startswith("mkdocs-material") for r in extra)
    assert any(r.startswith("mkdocstrings[python]") for r in extra)


def test_the_site_builds_in_strict_mode(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    pytest.importorskip("matplotlib")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                           "-d", str(tmp_path / "site")], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={**__import__("os").environ,
                                                       "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    site = tmp_path / "site"
    for page in ["index.html", "gallery/index.html", "perf/benches/index.html",
                 "api/quanta.bots/index.html", "api/quanta._core/index.html",
                 "changelog/index.html", "license/index.html"]:
        assert (site / page).is_file(), page
    assert "class Game" in (site / "api" / "quanta._core" / "index.html").read_text() or \
        "Game" in (site / "api" / "quanta._core" / "index.html").read_text()
