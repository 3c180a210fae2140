"""The repository holds to docs/adding_a_game.md: every registered game has each of its rooms,
and each registry names it. The two tables of that page are read here, so the page and the
check cannot drift apart."""

from __future__ import annotations

import pathlib
import re

import pytest

import quanta

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "adding_a_game.md").read_text()


def table(heading: str) -> list[str]:
    """The paths in the first column of the table under ``heading``."""
    section = PAGE.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [re.match(r"\| `([^`]+)`", row).group(1) for row in rows]


ROOMS = table("Its own rooms")
REGISTRIES = table("One line in each registry")


def camel(name: str) -> str:
    """``a_quantum_leap`` -> ``AQuantumLeap``: how class names spell a game."""
    return "".join(part.capitalize() for part in name.split("_"))


def test_the_page_lists_rooms_and_registries():
    assert len(ROOMS) >= 8 and all("<game>" in room for room in ROOMS)
    assert len(REGISTRIES) >= 6 and all("<game>" not in r for r in REGISTRIES)


@pytest.mark.parametrize("game", quanta.GAMES)
def test_every_registered_game_has_its_rooms(game):
    missing = [room for room in ROOMS if not (ROOT / room.replace("<game>", game)).is_file()]
    assert missing == []


@pytest.mark.parametrize("game", quanta.GAMES)
def test_every_registry_names_every_registered_game(game):
    named = re.compile(rf"\b{game}\b|{camel(game)}")
    missing = [r for r in REGISTRIES if not named.search((ROOT / r).read_text())]
    assert missing == []


def test_a_game_folder_in_the_core_is_a_registered_game():
    # No half-added game: a folder of the core with a mod.rs and notation.rs is a game, and
    # every game is registered.
    core = ROOT / "rust" / "quanta-core" / "src"
    folders = {p.parent.name for p in core.glob("*/notation.rs")}
    assert folders == set(quanta.GAMES)


# ---- the core's layers ----

CORE = ROOT / "rust" / "quanta-core" / "src"


def core_code() -> dict[str, str]:
    """Every core source file's code (what comes before its test module, comments left out), by
    its path from ``src/``; ``tests.rs`` files are test code and left out."""
    def code(text: str) -> str:
        lines = text.split("#[cfg(test)]\nmod tests {")[0].splitlines()
        return "\n".join(line for line in lines if not line.lstrip().startswith("//"))
    return {str(p.relative_to(CORE)): code(p.read_text())
            for p in sorted(CORE.rglob("*.rs")) if p.name != "tests.rs"}


def test_nothing_in_the_core_imports_the_registry_and_only_the_registry_the_erased_layer():
    """The registry is the top of the core; the erased layer serves only it (and the bindings):
    no game or bot module looks a game up by name or erases a type. The same check runs in
    cargo test (rust/quanta-core/tests/layers.rs)."""
    code = core_code()
    assert [f for f, c in code.items() if "crate::registry" in c] == []
    assert [f for f, c in code.items() if "crate::erased" in c] == ["registry.rs"]
    typed = [f for f in code if f.split("/")[0] in quanta.GAMES or f.startswith("bots/")]
    assert len(typed) > 20
    assert [f for f in code if "downcast" in code[f]] == ["erased.rs"]


def test_every_game_declares_its_knowledge_on_its_type():
    """Each game's module implements the Knowledge trait (its solver, evaluator and best
    player), and the bindings' list of best players names every registered game."""
    code = core_code()
    for game in quanta.GAMES:
        impls = [f for f, c in code.items() if f.startswith(f"{game}/") and "Knowledge for" in c]
        assert impls, f"{game} implements no Knowledge"
    assert set(quanta.bots.BEST_PLAYERS) == set(quanta.GAMES)
    assert all(quanta.bots.BEST_PLAYERS.values())


@pytest.mark.parametrize("game", quanta.GAMES)
def test_each_rules_page_states_the_games_best_player_and_default_search(game):
    """docs/rules/<game>.md says what the registry declares: the best player and the rollout
    of MCTS() and ISMCTS() with no options."""
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    section = page.split("\n## Bots\n", 1)[1].split("\n## ", 1)[0]
    flat = " ".join(section.split())
    assert quanta.bots.BEST_PLAYERS[game] in flat
    assert f'rollout="{quanta.bots.ROLLOUTS[game]}"' in flat
