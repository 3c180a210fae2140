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
    assert f"teams {a}+{b}, {c}+{d}; 2 packs" in caption
    if a + b != c + d:
        winners = "0+1" if a + b > c + d else "2+3"
        assert f"players {winners} win with {max(a + b, c + d)}" in caption
    assert "2 packs" not in " ".join(texts(quanta.game("a_quantum_leap").new_state()._repr_svg_()))


# ---- every text inside its picture ----

#: A conservative width of one character of the pictures' sans-serif font, in ems (Helvetica's
#: and Arial's widest letters but W and M stay under it; digits are 0.56).
EM_PER_CHAR = 0.6
#: How far a line of text reaches above and below its baseline, in ems.
ASCENT, DESCENT = 0.8, 0.25


def overflowing_texts(picture: str) -> list[str]:
    """Each ``<text>`` of the picture whose estimated box (``EM_PER_CHAR`` a character, from its
    anchor) is not inside the viewBox, described with its box and the viewBox."""
    root = ET.fromstring(picture)
    x0, y0, width, height = (float(v) for v in root.get("viewBox").split())
    out = []
    for el in root.iter(f"{SVG}text"):
        content = "".join(el.itertext())
        size = float(el.get("font-size"))
        x, y = float(el.get("x")), float(el.get("y"))
        extent = EM_PER_CHAR * size * len(content)
        anchor = el.get("text-anchor", "start")
        first = {"start": x, "middle": x - extent / 2, "end": x - extent}[anchor]
        box = (first, y - ASCENT * size, first + extent, y + DESCENT * size)
        if box[0] < x0 or box[1] < y0 or box[2] > x0 + width or box[3] > y0 + height:
            out.append(f"{content!r} at {tuple(round(v, 1) for v in box)} in {width}x{height}")
    return out


def picture_variants() -> list[tuple[str, dict]]:
    """Every registered game with its default options and each option changed alone (the
    interop tests' variants, read from the registry), so every player count is drawn."""
    from interop.variants import variants

    return variants()


def viewers(state) -> list[int | None]:
    """The viewers a game's ``svg`` takes: ``None`` and each player, if it has a viewer."""
    import inspect

    draw = getattr(quanta, state.game.name).svg
    if "viewer" in inspect.signature(draw).parameters:
        return [None, *range(state.game.num_players)]
    return [None]


@pytest.mark.parametrize("variant", picture_variants(), ids=lambda v: v[0] + "".join(
    f"-{k}={v}" for k, v in v[1].items()))
def test_every_text_lies_inside_its_picture(variant):
    """Rule: every caption and label lies inside the viewBox, estimated at 0.6 em a character,
    on every state of random games of each variant, for each viewer."""
    import importlib

    name, options = variant
    draw = importlib.import_module(f"quanta.{name}").svg
    g = quanta.game(name, **options)
    for seed in range(3):
        for s in states_of_a_game(g, seed):
            for viewer in viewers(s):
                picture = draw(s) if viewer is None else draw(s, viewer=viewer)
                assert overflowing_texts(picture) == [], (s.notation(), viewer)


def backs_of(picture: str, player: int) -> int:
    """How many face-down cards of ``player`` the picture draws (each titled with its owner)."""
    tips = [el.text for el in ET.fromstring(picture).iter(f"{SVG}title")]
    return tips.count(f"player {player}'s card")


@pytest.mark.parametrize("name, players", [("a_quantum_leap", 2), ("a_quantum_leap", 4),
                                           ("quincunx", 2), ("quincunx", 3)])
def test_hands_are_drawn_where_the_text_view_shows_them(name, players):
    """Rule: the picture draws each hand the text view lists: face up the
    viewer's own (and any hand shown to all), face down the others, one back per card."""
    import importlib

    module = importlib.import_module(f"quanta.{name}")
    g = quanta.game(name, players=players)
    faces = 0
    for seed in range(2):
        for s in states_of_a_game(g, seed):
            for viewer in [None, *range(players)]:
                picture = module.svg(s, viewer=viewer)
                seen = s.view(viewer)["hands"] if viewer is not None else None
                shown = texts(picture)
                for p in range(players):
                    hand = s.hand(p)
                    visible = (viewer == p) or bool(
                        name == "a_quantum_leap" and s.hand_shown(p))
                    if viewer is not None:
                        assert (seen[p] is not None) == visible or seen[p] == [], (p, viewer)
                    assert backs_of(picture, p) == (0 if visible else len(hand)), (
                        s.notation(), p, viewer)
                    if visible:
                        for code in hand:
                            label = (code.replace("T", "10")[:-1]
                                     + {"S": "\u2660", "H": "\u2665", "D": "\u2666",
                                        "C": "\u2663"}[code[-1]]
                                     if name == "a_quantum_leap" else code)
                            assert label in shown, (s.notation(), p, viewer, code)
                            faces += 1
    assert faces > 0
