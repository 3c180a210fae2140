"""The documentation site's build hook (mkdocs.yml, ``hooks:``). It adds the pages that are made
from other files at build time, so that nothing is kept twice:

- ``index.md``, the home page, is the README; ``changelog.md`` is CHANGELOG.md; ``license.md``
  is LICENSE; ``perf/benches.md`` is benches/README.md, with each figure drawn beside its table;
- ``gallery.md`` and ``gallery/<game>.svg``: a picture of a random position of every game in
  ``quanta.GAMES``, drawn by the installed package;
- ``api/<module>.md``: one page of the API reference for every public module of ``quanta``
  (read by mkdocstrings from the sources and from ``_core.pyi``, the compiled core's stub).

Links between repository files are rewritten to the pages they became; a link to a file the site
does not hold becomes the path in code (``benches/bots.py``), so that ``mkdocs build --strict``
fails only on a link that is broken in the repository too.
"""

from __future__ import annotations

import io
import itertools
import pathlib
import posixpath
import random
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "quanta"

#: Repository files that become pages of the site: repository path -> page (docs-relative).
PAGES = {
    "README.md": "index.md",
    "CHANGELOG.md": "changelog.md",
    "LICENSE": "license.md",
    "benches/README.md": "perf/benches.md",
}

#: Modules left out of the API reference: the command line (``quanta --help`` documents it) and
#: ``__main__``.
PRIVATE_MODULES = {"quanta.cli", "quanta.__main__"}


# ---- the API reference ----

def public_modules() -> list[str]:
    """Every public module of the package: the files and folders of ``python/quanta`` whose
    names start with no underscore, recursively, and ``quanta`` itself."""
    names = ["quanta"]
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(part.startswith("_") for part in parts):
            continue
        name = ".".join(parts)
        if name not in PRIVATE_MODULES and name not in names:
            names.append(name)
    return names


def api_page(module: str) -> str:
    if module == "quanta":
        extra = ("\n\nThe classes of the compiled core (`Game`, `State`, `GameInfo`, `Bot`) are "
                 "documented from its stub, `quanta/_core.pyi`: [quanta._core](quanta._core.md).")
        return f"# `{module}`\n{extra}\n\n::: {module}\n"
    return f"# `{module}`\n\n::: {module}\n"


def api_index(modules: list[str]) -> str:
    lines = ["# API reference", "",
             "Generated from the docstrings of every public module and from the stub of the "
             "compiled core (`_core.pyi`).", ""]
    for module in modules:
        lines.append(f"- [`{module}`]({module}.md)")
    lines.append("- [`quanta._core`](quanta._core.md): the compiled core's classes, from its stub")
    return "\n".join(lines) + "\n"


# ---- the gallery ----

def gallery_positions(seed: int = 1) -> list[tuple[str, str, object]]:
    """``(game, caption, state)`` for every registered game: a position some way into a random
    game (chance outcomes and moves drawn from ``seed``), and one more of each game whose
    players option gives another picture."""
    import quanta

    cases: list[tuple[str, dict]] = [(name, {}) for name in quanta.GAMES]
    for name in quanta.GAMES:
        players = quanta.game(name).options.get("players")
        if players is not None:   # the other end of the range: solitaire, or a full table
            other = 3 if players == 1 else 1 if name == "quincunx" else 4
            cases.append((name, {"players": other}))
    out = []
    for name, options in cases:
        try:
            g = quanta.game(name, **options)
        except quanta.InvalidOptionError:
            continue
        rng = random.Random(f"{seed}:{name}:{sorted(options.items())}")
        s = g.new_state()
        plies = 0
        target = rng.randrange(6, 16)
        while not s.is_terminal and plies < target:
            if s.is_chance:
                s = s.play(rng.choice([a for a, _ in s.chance_outcomes()]))
            else:
                s = s.play(rng.choice(list(s.legal_actions())))
                plies += 1
        label = ", ".join(f"{k}={v}" for k, v in options.items())
        out.append((name, f"`{name}`" + (f" ({label})" if label else ""), s))
    return out


def gallery(seed: int = 1) -> tuple[str, dict[str, str]]:
    """The gallery's page and its pictures ``{file name: svg}``."""
    lines = ["# Gallery", "",
             "A position some way into a random game of every registered game, as the package "
             "draws it (`state._repr_svg_()`, what a notebook shows; each game's module has "
             "`svg(state, ...)` with the picture's size). The pictures are drawn when the site is "
             "built, for every game in `quanta.GAMES`.", ""]
    pictures = {}
    for name, caption, state in gallery_positions(seed):
        file = f"{name}-{len([p for p in pictures if p.startswith(name + '-')])}.svg"
        pictures[file] = state._repr_svg_()
        lines += [f"## {caption}", "", f"![{name}](gallery/{file})", "",
                  f"`{state.notation()}`" if len(state.notation()) < 200 else "", ""]
    return "\n".join(lines) + "\n", pictures


# ---- the performance figures ----

def table_under(markdown: str, heading: str) -> list[dict[str, str]]:
    """The first markdown table of the section ``heading`` (a ``#`` heading's text), as rows
    of ``{column: cell}``; raises ``LookupError`` when the section or its table is missing."""
    match = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#+ |\Z)", markdown, re.M | re.S)
    if not match:
        raise LookupError(f"no section {heading!r}")
    lines = match.group(1).splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("|")), len(lines))
    rows = list(itertools.takewhile(lambda line: line.startswith("|"), lines[start:]))
    if len(rows) < 3:
        raise LookupError(f"no table under {heading!r}")
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    header, body = cells[0], cells[2:]
    return [dict(zip(header, row)) for row in body]


def number(text: str) -> float:
    """The first number in ``text``: ``'1,334,397'`` -> 1334397, ``'0.7444 s'`` -> 0.7444."""
    found = re.search(r"-?\d[\d,]*(?:\.\d+)?", text)
    if not found:
        raise ValueError(f"no number in {text!r}")
    return float(found.group().replace(",", ""))


def share_interval(text: str) -> tuple[float, float, float]:
    """``'wins 67.2 % [62.5–71.7], ...'`` -> (67.2, 62.5, 71.7)."""
    found = re.search(r"([\d.]+) ?% \[([\d.]+)[–-]([\d.]+)\]", text)
    if not found:
        raise ValueError(f"no share with an interval in {text!r}")
    return tuple(float(x) for x in found.groups())  # type: ignore[return-value]


def _svg(figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(figure)
    return re.sub(r"^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?", "", buffer.getvalue())


def plot_playouts(rows: list[dict[str, str]]) -> str:
    import matplotlib.pyplot as plt
    import numpy as np

    games = [row["game"] for row in rows]
    columns = [("batch games/s (1 thread)", "Rust batch, 1 thread (games/s)"),
               ("reference games/s", "pure-Python reference (games/s)")]
    x = np.arange(len(games))
    figure, axes = plt.subplots(figsize=(6.5, 3.2))
    for i, (column, label) in enumerate(columns):
        axes.bar(x + (i - 0.5) * 0.38, [number(row[column]) for row in rows], 0.38, label=label)
    axes.set_yscale("log")
    axes.set_xticks(x, games, rotation=20, fontsize=8)
    axes.set_ylabel("random games per second")
    axes.legend(fontsize=8)
    axes.set_title("Random playouts: the Rust batch against the reference", fontsize=10)
    return _svg(figure)


def plot_best_players(rows: list[dict[str, str]]) -> str:
    import matplotlib.pyplot as plt

    shown = []
    for row in rows:
        try:
            shown.append((f"{row['game']}: {row['bots']}", *share_interval(row["result [95 %]"])))
        except ValueError:
            continue
    labels = [re.sub(r"[`*]", "", label) for label, *_ in shown]
    labels = [label if len(label) < 70 else label[:67] + "…" for label in labels]
    figure, axes = plt.subplots(figsize=(7, 0.45 * len(shown) + 1))
    for i, (_, share, low, high) in enumerate(shown):
        axes.errorbar(share, i, xerr=[[share - low], [high - share]], fmt="o", capsize=3,
                      color="C0")
    axes.axvline(50, color="grey", linewidth=0.8, linestyle="--")
    axes.set_yticks(range(len(shown)), labels, fontsize=7)
    axes.invert_yaxis()
    axes.set_xlabel("games won by the first bot, % (95 % interval)")
    axes.set_title("The best players and the default searches (400 games a row)", fontsize=10)
    return _svg(figure)


def plot_league(rows: list[dict[str, str]]) -> str:
    import matplotlib.pyplot as plt

    shown = []
    for row in rows:
        if any(cell.startswith("superseded") for cell in row.values()):
            continue
        found = re.match(r"\s*([\d.]+) %(?: / ([\d.]+) %)?(?: / ([\d.]+) %)?",
                         row["win share or mean"])
        if not found:
            continue
        shares = [float(x) for x in found.groups() if x is not None]
        if len(shares) == 1:
            shown.append((f"{row['game']}: {row['bots']}", shares[0]))
        else:
            base = row["game"].split(" ")[0]
            for players, share in zip(re.findall(r"\d", row["game"]), shares):
                shown.append((f"{base} {players} players: {row['bots'].split(' (')[0]}", share))
    labels = [re.sub(r"[`*]", "", label) for label, _ in shown]
    figure, axes = plt.subplots(figsize=(7, 0.4 * len(shown) + 1))
    axes.barh(range(len(shown)), [share for _, share in shown], color="C2")
    axes.axvline(50, color="grey", linewidth=0.8, linestyle="--")
    axes.set_yticks(range(len(shown)), labels, fontsize=7)
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("win share of the first bot, %")
    axes.set_title("The league: each game's search against a simple player", fontsize=10)
    return _svg(figure)


def plot_card_solver(rows: list[dict[str, str]]) -> str:
    import matplotlib.pyplot as plt

    heaps = [number(row["cards a heap at most"]) for row in rows]
    figure, axes = plt.subplots(figsize=(6, 3))
    for column, style in (("median", "o-"), ("max", "s--")):
        axes.plot(heaps, [max(number(row[column]), 1e-5) for row in rows], style, label=column)
    axes.set_yscale("log")
    axes.set_xlabel("cards in each heap at most")
    axes.set_ylabel("seconds a solve (10 s limit)")
    axes.legend(fontsize=8)
    axes.set_title("EinStein a la Card: solve times with open hands", fontsize=10)
    return _svg(figure)


def quincunx_scores(path: pathlib.Path = ROOT / "benches" / "data" /
                    "quincunx_open_scores_seed0.tsv") -> list[int]:
    """The optimal scores of the solved deals ``benches/quincunx_scores.py`` recorded."""
    lines = path.read_text().splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"))) for line in lines[1:] if line.strip()]
    return [int(row["score"]) for row in rows if row["solved"] == "1" and row["lost"] == "0"]


def plot_quincunx_scores(scores: list[int]) -> str:
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3))
    axes.hist(scores, bins=40, color="C1")
    axes.set_xlabel("optimal score of a fresh solitaire deal, draw order known")
    axes.set_ylabel("deals")
    axes.set_title(f"Quincunx solitaire: {len(scores):,} deals solved exactly", fontsize=10)
    return _svg(figure)


#: Each figure: (the heading of the table in benches/README.md it is drawn from and placed
#: beside, the file, how it is drawn from the table's rows; None: from a data file).
FIGURES = [
    ("Random playouts, every game", "playouts.svg", plot_playouts),
    ("EinStein a la Card: the exact solver with open hands", "einstein_card_solver.svg",
     plot_card_solver),
    ("Quincunx solitaire: the open-deck solver", "quincunx_scores.svg", None),
    ("The bots: a league per game and their speed", "league.svg", plot_league),
    ("The best players and the default searches", "best_players.svg", plot_best_players),
]


def figures(markdown: str) -> tuple[str, dict[str, str]]:
    """benches/README.md with each figure's image placed after its table, and the figures."""
    drawn = {}
    for heading, file, draw in FIGURES:
        if draw is None:
            drawn[file] = plot_quincunx_scores(quincunx_scores())
        else:
            drawn[file] = draw(table_under(markdown, heading))
        section = re.search(rf"^#+ {re.escape(heading)}\n.*?\n((?:\|[^\n]*\n)+)", markdown,
                            re.M | re.S)
        end = section.end(1)
        markdown = (markdown[:end] + f"\n![{heading}](plots/{file})\n" + markdown[end:])
    return markdown, drawn


# ---- links ----

LINK = re.compile(r"(?<!!)\[([^\]]*)\]\(([^)\s]+)\)")


def rewrite_links(markdown: str, source: str, page: str, docs: set[str]) -> str:
    """``markdown`` of the repository file ``source`` served as ``page``: each relative link to
    a repository file is pointed at the page that file became, or written as code when the
    site does not hold it."""
    here = posixpath.dirname(source)

    def replace(match: re.Match) -> str:
        text, target = match.groups()
        if re.match(r"^[a-z]+:|^#|^/", target):
            return match.group()
        path, _, anchor = target.partition("#")
        repo = posixpath.normpath(posixpath.join(here, path))
        if repo.startswith("docs/") and repo[5:] in docs:
            site = repo[5:]
        elif repo in PAGES:
            site = PAGES[repo]
        else:
            return f"`{repo}`" if text.strip("`") == repo or not text else f"{text} (`{repo}`)"
        relative = posixpath.relpath(site, posixpath.dirname(page) or ".")
        return f"[{text}]({relative}{'#' + anchor if anchor else ''})"

    return LINK.sub(replace, markdown)


# ---- the hooks ----

def on_config(config):
    """The API reference's entry of the navigation gets a page for every public module."""
    nav = config["nav"]
    for i, entry in enumerate(nav):
        if isinstance(entry, dict) and entry.get("API reference") == "api/index.md":
            pages = [{"Overview": "api/index.md"}]
            pages += [{module: f"api/{module}.md"} for module in public_modules()]
            pages.append({"quanta._core (the core's stub)": "api/quanta._core.md"})
            nav[i] = {"API reference": pages}
    return config


def on_files(files, config):
    from mkdocs.structure.files import File

    docs = {f.src_uri for f in files}

    def add(uri: str, content: str | bytes) -> None:
        files.append(File.generated(config, uri, content=content))

    readme = (ROOT / "README.md").read_text()
    add("index.md", rewrite_links(readme, "README.md", "index.md", docs))
    changelog = (ROOT / "CHANGELOG.md").read_text()
    add("changelog.md", rewrite_links(changelog, "CHANGELOG.md", "changelog.md", docs))
    add("license.md", "# License\n\n```text\n" + (ROOT / "LICENSE").read_text() + "```\n")

    benches, plots = figures((ROOT / "benches" / "README.md").read_text())
    add("perf/benches.md", rewrite_links(benches, "benches/README.md", "perf/benches.md", docs))
    for file, svg in plots.items():
        add(f"perf/plots/{file}", svg)

    page, pictures = gallery()
    add("gallery.md", page)
    for file, svg in pictures.items():
        add(f"gallery/{file}", svg)

    modules = public_modules()
    add("api/index.md", api_index(modules))
    for module in modules:
        add(f"api/{module}.md", api_page(module))
    add("api/quanta._core.md", "# `quanta._core`\n\nThe compiled core (Rust, PyO3), documented "
        "from its stub `_core.pyi`. Its classes are imported from `quanta`.\n\n::: quanta._core\n")
    return files


def on_page_markdown(markdown, page, config, files):
    """The pages kept in docs/ link to repository files outside it as the repository does
    (``../benches/README.md``): those links are pointed at the pages those files became."""
    if page.file.generated_by:
        return markdown
    docs = {f.src_uri for f in files}
    return rewrite_links(markdown, "docs/" + page.file.src_uri, page.file.src_uri, docs)
