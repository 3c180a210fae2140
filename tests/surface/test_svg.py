"""The games' SVG pictures: what a Quincunx picture shows of the hands, the captions' counts,
and the checked size options (cell / size / radius)."""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET

import pytest
from helpers import random_step
from hypothesis import given, settings
from hypothesis import strategies as st

import quanta
import quanta.einstein
import quanta.einstein_card
import quanta.quantum_leap
import quanta.quincunx as qx
import quanta.repair_unit
from quanta import InvalidOptionError

SVG = "{http://www.w3.org/2000/svg}"


def fewer(divisor: int) -> int:
    """A share of the active profile's examples (never below 5) for the slow tests."""
    return max(5, settings.default.max_examples // divisor)


def texts(picture: str) -> list[str]:
    """The content of every ``<text>`` element of the picture, parsed as XML."""
    return [el.text or "" for el in ET.fromstring(picture).iter(f"{SVG}text")]


def words(picture: str) -> set[str]:
    """Every run of capitals and digits in any text of the picture, tooltips included (where a
    card code would show)."""
    return set(re.findall(r"[A-Z0-9]+", " ".join(ET.fromstring(picture).itertext())))


def states_of_a_game(game, seed: int):
    """The states of one random game of ``game``, from the start to the end."""
    rng = random.Random(seed)
    s = game.new_state()
    yield s
    while not s.is_terminal:
        s = random_step(s, rng)
        yield s


def cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


# ---- Quincunx: the hand shown in solitaire, hidden with 2 to 4 players ----


@settings(max_examples=fewer(4))
@given(seed=st.integers(0, 2**32 - 1), excuse=st.booleans())
def test_quincunx_solitaire_picture_shows_the_hand(seed, excuse):
    g = quanta.game("quincunx", players=1, excuse=excuse)
    seen = 0
    for s in states_of_a_game(g, seed):
        shown = texts(qx.svg(s))
        for code in s.hand(0):
            assert code in shown, (s.notation(), code)
            seen += 1
        assert f"player 0: {cards(len(s.hand(0)))}, {s.scores()[0]} points" in shown
    assert seen > 0


@settings(max_examples=fewer(4))
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), excuse=st.booleans())
def test_quincunx_picture_hides_the_hands_of_two_to_four_players(seed, players, excuse):
    g = quanta.game("quincunx", players=players, excuse=excuse)
    hidden = 0
    for s in states_of_a_game(g, seed):
        picture = qx.svg(s)
        on_picture, shown = words(picture), texts(picture)
        for p in range(players):
            for code in s.hand(p):
                assert code not in on_picture, (s.notation(), p, code)
                hidden += 1
            size = f"player {p}: {cards(len(s.hand(p)))}, {s.scores()[p]} points"
            assert size in shown, (s.notation(), shown)
    assert hidden > 0


# ---- "1 card", not "1 cards" ----

BASIC = [c.code for c in qx.CARDS if c.code != "X"]


def test_quincunx_a_hand_of_one_card_is_captioned_in_the_singular():
    g = quanta.game("quincunx", players=1)
    corners = {"AM", "AS", "AW", "AL", "2MK"}
    s = g.from_notation(
        "AM,.,.,AS/.,.,.,./.,.,.,./AW,.,.,AL 2MK "
        + ",".join(c for c in BASIC if c not in corners)
        + " 0 0 1/1"
    )
    assert s.hand(0) == ["2MK"]
    assert "player 0: 1 card, 0 points" in texts(qx.svg(s))
    assert not re.search(r"\b1 cards", qx.svg(s) + qx.text(s))


def test_quincunx_counts_of_one_are_singular_in_text_and_svg_along_games():
    """Hands and piles of one card happen along four-player games: every count printed in the
    text and the picture agrees in number with it."""
    seen = {"hand": 0, "pile": 0}
    g = quanta.game("quincunx", players=4)
    for seed in range(6):
        for s in states_of_a_game(g, seed):
            text, shown = qx.text(s), texts(qx.svg(s))
            pile = len(s.pile())
            assert f"pile: {cards(pile)}" in text.splitlines()
            seen["pile"] += pile == 1
            for p in range(4):
                n = len(s.hand(p))
                assert f"player {p}: {cards(n)}, {s.scores()[p]} points" in shown
                seen["hand"] += n == 1
            assert not re.search(r"\b1 cards\b", text + "\n".join(shown))
    assert seen["hand"] > 0 and seen["pile"] > 0


# ---- the size options: checked once, in _svg.pixels ----

PICTURES = {
    # game, the svg function, its size option, the smallest value it refuses
    "a_quantum_leap": (quanta.a_quantum_leap.svg, "cell", 0),
    "einstein": (quanta.einstein.svg, "size", 30),
    "einstein_card": (quanta.einstein_card.svg, "size", 30),
    "quantum_leap": (quanta.quantum_leap.svg, "radius", 0),
    "quincunx": (qx.svg, "cell", 0),
    "repair_unit": (quanta.repair_unit.svg, "card", 0),
}

BAD_SIZES = [-3, -0.5, 0, 0.0, math.nan, math.inf, -math.inf, 10**400, 1e300, "x", "64", None,
             True, [64], 2j]  # fmt: skip


def test_every_game_has_a_checked_picture_size():
    assert set(PICTURES) == set(quanta.GAMES)


@pytest.mark.parametrize("value", BAD_SIZES, ids=repr)
@pytest.mark.parametrize("name", sorted(PICTURES))
def test_a_bad_picture_size_is_an_invalid_option_error(name, value):
    svg, option, _ = PICTURES[name]
    s = quanta.game(name).new_state()
    with pytest.raises(InvalidOptionError, match=rf"^{option} must be a .*number of pixels") as e:
        svg(s, **{option: value})
    assert isinstance(e.value, ValueError)


def test_the_message_says_what_is_expected():
    s = quanta.game("quincunx").new_state()
    with pytest.raises(InvalidOptionError) as e:
        qx.svg(s, cell=-3)
    assert str(e.value) == "cell must be a positive number of pixels, not -3"
    with pytest.raises(InvalidOptionError) as e:
        quanta.einstein.svg(quanta.game("einstein").new_state(), size=20)
    assert str(e.value) == "size must be a number of pixels above 30, not 20"


@settings(max_examples=fewer(2))
@given(data=st.data(), name=st.sampled_from(sorted(PICTURES)))
def test_a_picture_size_is_any_positive_number_and_nothing_else(data, name):
    svg, option, floor = PICTURES[name]
    s = quanta.game(name).new_state()
    value = data.draw(st.one_of(st.floats(), st.integers(-(10**6), 10**6)), label=option)
    if floor < value <= 100_000:
        root = ET.fromstring(svg(s, **{option: value}))
        assert root.tag == f"{SVG}svg"
        for attribute in ("width", "height"):
            assert 0 < float(root.get(attribute)) < math.inf
    else:
        with pytest.raises(InvalidOptionError, match=f"^{option} must be"):
            svg(s, **{option: value})


def test_a_quantum_leap_picture_shows_partners_and_two_packs():
    """A partnership game's caption joins partners' points and names the winning team; a
    two-pack game says so."""
    game = quanta.game("a_quantum_leap", players=4, packs=2, teams="partners")
    rng = random.Random(5)
    s = game.new_state()
    while not s.is_terminal:
        s = random_step(s, rng)
    a, b, c, d = s.scores()
    caption = " ".join(texts(s._repr_svg_()))
    assert f"points {a}+{b}, {c}+{d}; 2 packs" in caption
    if a + b != c + d:
        winners = "0+1" if a + b > c + d else "2+3"
        assert f"players {winners} win with {max(a + b, c + d)}" in caption
    assert "2 packs" not in " ".join(texts(quanta.game("a_quantum_leap").new_state()._repr_svg_()))
