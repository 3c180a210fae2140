"""Every game's Rust engine against its pure-Python reference (``quanta.reference.<game>``),
step by step through whole games: one test for all the games.

Each game names only its reference and its options (with how many games to play) in RUNS
below; a game registered in ``quanta.GAMES`` without an entry there fails the test."""

from __future__ import annotations

import inspect
from typing import NamedTuple

import pytest
from helpers import assert_same_generic
from hypothesis import given, settings
from hypothesis import strategies as st

import quanta
from quanta.reference import (a_quantum_leap, einstein, einstein_card, quantum_leap, quincunx,
                               repair_unit)


def fewer(divisor: int) -> int:
    """A share of the active profile's examples (never below 5) for the slow runs."""
    return max(5, settings.default.max_examples // divisor)


class Run(NamedTuple):
    reference: object  # the module, with game(**options)
    options: st.SearchStrategy  # the options of the game, drawn per example
    examples: int  # how many whole games hypothesis plays


QUINCUNX_OPTIONS = [
    dict(players=1),
    dict(players=1, excuse=True),
    dict(players=2),
    dict(players=2, excuse=True),
    dict(players=3),
    dict(players=3, excuse=True),
    dict(players=4),
    dict(players=4, excuse=True),
    dict(players=2, match=True),
    dict(players=3, match=True, excuse=True),
    dict(players=4, match=True),
    dict(players=2, setup="book"),
    dict(players=2, setup="book", excuse=True),
    dict(players=3, setup="book"),
    dict(players=3, setup="book", excuse=True),
    dict(players=2, setup="book", match=True),
    dict(players=3, setup="book", match=True, excuse=True),
]

RUNS: dict[str, list[Run]] = {
    # Every option set a few games: players 2, 3, 4, each alone and as a match.
    "a_quantum_leap": [
        Run(a_quantum_leap, st.just(dict(players=players, match=match)), fewer(6))
        for players in (2, 3, 4)
        for match in (False, True)
    ]
    # Two packs (three or four players) and partnerships (four), alone and together.
    + [
        Run(a_quantum_leap, st.just(options), fewer(6))
        for options in (
            dict(players=3, packs=2),
            dict(players=4, packs=2),
            dict(players=4, teams="partners"),
            dict(players=4, packs=2, teams="partners", match=True),
        )
    ],
    "einstein": [
        Run(
            einstein,
            st.fixed_dictionaries(
                {"setup": st.sampled_from(["random", "choose"]), "first": st.sampled_from([0, 1])}
            ),
            settings.default.max_examples,
        )
    ],
    "einstein_card": [
        Run(
            einstein_card,
            st.fixed_dictionaries(
                {
                    "setup": st.sampled_from(["random", "choose"]),
                    "first": st.sampled_from([0, 1]),
                    "hand_size": st.sampled_from([(2, 2), (2, 3), (3, 2), (1, 1), (4, 1)]),
                    "open_hands": st.sampled_from(
                        [False, True, (False, True), (True, False), (False, False)]
                    ),
                }
            ),
            settings.default.max_examples,
        )
    ],
    "quantum_leap": [
        Run(
            quantum_leap,
            st.fixed_dictionaries({"size": st.integers(2, 4), "setup": st.sampled_from("AB")}),
            settings.default.max_examples,
        ),
        # Big boards: a few games (hundreds of swap pairs, long games).
        Run(
            quantum_leap,
            st.fixed_dictionaries({"size": st.integers(5, 6), "setup": st.sampled_from("AB")}),
            max(10, settings.default.max_examples // 4),
        ),
        # Boards of other shapes: "peut être joué sur une grille hexagonale de toute
        # forme et de taille". Odd and even cell counts, with and without a centre.
        Run(
            quantum_leap,
            st.fixed_dictionaries({"board": st.one_of(
                st.builds("parallelogram {}x{}".format, st.integers(2, 5), st.integers(2, 5)),
                st.sampled_from(["parallelogram 1x3", "parallelogram 5x1"]),
                st.builds("triangle {}".format, st.integers(2, 6)),
                st.just("cells 0,0 1,0 2,0 3,0 1,1 2,1 -1,2 0,2 1,2 2,2 3,-1 4,-1"),
            ), "setup": st.sampled_from("AB")}),
            settings.default.max_examples,
        ),
        # Past 128 cells, the 256-bit sets: a hexagon of side 9 (217 cells), a long triangle.
        Run(
            quantum_leap,
            st.fixed_dictionaries({"board": st.sampled_from(["hexagon 9", "triangle 17"]),
                                   "setup": st.sampled_from("AB")}),
            max(4, settings.default.max_examples // 20),
        ),
    ],
    # Every option set a few games (rather than one run sampling them: fewer games, all sets).
    "quincunx": [Run(quincunx, st.just(options), fewer(6)) for options in QUINCUNX_OPTIONS],
    # Every player count a few whole games (a game is a few hundred steps).
    "repair_unit": [
        Run(repair_unit, st.just(dict(players=players)), fewer(4)) for players in (1, 2, 3, 4)
    ],
}

# What assert_same_generic compares already, or what cannot be compared across the two sides.
GENERIC = {
    "action_to_string", "chance_outcomes", "current_player", "game", "is_chance", "is_terminal",
    "legal_actions", "notation", "parse_action", "play", "returns",
    "resample",  # each side draws with its own generator
}  # fmt: skip

# Above this many legal actions (the swap of Quantum Leap, Einstein's arrangements) the action
# strings are spot-checked: the first, middle and last three.
ALL_STRINGS_UP_TO = 200


def spot_check(legal: list[int]) -> list[int]:
    if len(legal) <= ALL_STRINGS_UP_TO:
        return legal
    middle = len(legal) // 2
    return legal[:3] + legal[middle : middle + 3] + legal[-3:]


def plain(value):
    """Arrays as lists, so that a numpy board equals the reference's list of lists."""
    return value.tolist() if hasattr(value, "tolist") else value


def extras(s, r) -> dict[str, str | None]:
    """The methods (or properties) both states have beyond the generic ones: the game's
    accessors (board, cells, grid, hand, ...) and observation_string where the reference has
    it; each with the name of its one argument (compared at every value ARGUMENTS gives), ""
    for none, or None for a property."""
    public = lambda state: {n for n in dir(state) if not n.startswith("_")}  # noqa: E731
    found = {}
    for name in sorted((public(s) & public(r)) - GENERIC):
        theirs = getattr(r, name)
        if not callable(theirs):
            found[name] = None  # a property
            continue
        arguments = [
            p
            for p in inspect.signature(theirs).parameters.values()
            if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        assert len(arguments) <= 1, f"{name}: only methods of no argument or one compare"
        assert not arguments or arguments[0].name in ARGUMENTS, (
            f"{name}({arguments[0].name}): say in ARGUMENTS which values to compare it at")
        found[name] = arguments[0].name if arguments else ""
    return found


#: The values at which an extra of one argument is compared, by the argument's name.
ARGUMENTS = {
    "player": lambda players: range(players),
    "cell": lambda players: [c + r for r in "123" for c in "abc"],  # A Quantum Leap's cells
}


def assert_same_extras(s, r, names: dict[str, str | None], players: int) -> None:
    for name, argument in names.items():
        mine, theirs = getattr(s, name), getattr(r, name)
        if argument is None:
            assert plain(mine) == plain(theirs), (name, s.notation())
        elif argument:  # hand(player), stack(cell): at every value of the argument
            for x in ARGUMENTS[argument](players):
                assert plain(mine(x)) == plain(theirs(x)), (name, x, s.notation())
        else:
            assert plain(mine()) == plain(theirs()), (name, s.notation())


def drive_whole_game(name: str, reference, options: dict, data) -> None:
    g, rg = quanta.game(name, **options), reference.game(**options)
    s, r = g.new_state(), rg.new_state()
    names = extras(s, r)
    while True:
        legal = assert_same_generic(s, r)
        checked = spot_check(legal)
        assert [s.action_to_string(a) for a in checked] == [r.action_to_string(a) for a in checked]
        assert_same_extras(s, r, names, g.num_players)
        assert g.from_notation(s.notation()) == s
        assert rg.from_notation(r.notation()) == r
        if s.is_terminal:
            break
        a = legal[data.draw(st.integers(0, len(legal) - 1), label="choice")]
        text = s.action_to_string(a)
        assert s.parse_action(text) == a == r.parse_action(text)
        s, r = s.play(a), r.play(a)


@pytest.mark.parametrize("name", sorted(set(quanta.GAMES) | set(RUNS)))
def test_rust_and_reference_agree_through_whole_games(name):
    assert name in quanta.GAMES, f"{name} is in RUNS but not registered in quanta.GAMES"
    if name not in RUNS:
        pytest.fail(f"{name} has no entry in RUNS: name its reference and options there")
    for run in RUNS[name]:

        @settings(max_examples=run.examples)
        @given(options=run.options, data=st.data())
        def whole_games(options, data):
            drive_whole_game(name, run.reference, options, data)

        whole_games()


def test_every_game_compares_its_extras():
    """The comparison reaches the games' own accessors (the test would compare nothing more
    than the generic methods if a reference renamed them)."""
    expected = {
        "a_quantum_leap": {"display", "drawn", "hand", "hand_shown", "information_state_string",
                           "observation_string", "pattern", "scores", "second_stock", "stack",
                           "stacks", "stock"},
        "einstein": {"board"},
        "einstein_card": {"board", "discards", "hand", "heap", "observation_string"},
        "quantum_leap": {"cells"},
        "quincunx": {"grid", "hand", "lost", "observation_string", "pile", "scores"},
        "repair_unit": {"observation_string", "unseen"},
    }
    for name, runs in RUNS.items():

        @settings(max_examples=3)
        @given(options=runs[0].options)
        def check(options):
            s = quanta.game(name, **options).new_state()
            r = runs[0].reference.game(**options).new_state()
            assert set(extras(s, r)) >= expected.get(name, set()), name

        check()
