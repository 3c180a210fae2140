"""Quantum Leap on boards of any shape (the option ``board``): the shapes, the set-up
on odd and even boards, leaps across a notch, bad boards, the solver against the reference's
oracle, and a board past 128 cells.

The seed: "Quantum Leap est un jeu de société pour 2 joueurs qui peut être joué sur une grille
hexagonale de toute forme et de taille." """

from __future__ import annotations

import random

import pytest

import quanta
import quanta.quantum_leap as ql
from quanta import InvalidOptionError
from quanta.reference import quantum_leap as ref

NOTCHED = "cells 0,0 1,0 2,0 3,0 1,1 2,1 -1,2 0,2 1,2 2,2 3,-1 4,-1"


def board(text: str, setup: str = "A") -> quanta.Game:
    return quanta.game("quantum_leap", board=text, setup=setup)


def dealt(game: quanta.Game, rng: random.Random) -> quanta.State:
    s = game.new_state()
    while s.is_chance:
        actions, weights = zip(*s.chance_outcomes())
        s = s.play(rng.choices(actions, weights)[0])
    return s


@pytest.mark.parametrize("text, cells, rows", [
    ("hexagon 2", 7, [2, 3, 2]),
    ("hexagon 9", 217, [9, 10, 11, 12, 13, 14, 15, 16, 17, 16, 15, 14, 13, 12, 11, 10, 9]),
    ("parallelogram 3x2", 6, [3, 3]),
    ("parallelogram 2x4", 8, [2, 2, 2, 2]),
    ("triangle 4", 10, [1, 2, 3, 4]),
    (NOTCHED, 12, [2, 4, 2, 4]),
])
def test_a_board_of_any_shape_and_size(text, cells, rows):
    """"peut être joué sur une grille hexagonale de toute forme et de taille": the named shapes
    and cells given one by one, row by row from the top, each row read left to right."""
    g = board(text)
    start = g.new_state()
    assert [len(row) for row in start.notation().split()[0].split("/")] == rows
    assert len(ql.cells(start)) == cells == sum(rows)
    names = ql.cell_names(start)
    assert names[0] == "a1" and names[-1] == f"{chr(ord('a') + len(rows) - 1)}{rows[-1]}"
    assert g.num_actions == 6 * cells + 1 + cells * cells + cells + 2


def test_the_options_name_one_board_each_way():
    assert board("hexagon 5").options == quanta.game("quantum_leap", size=5).options
    assert board("hexagon 9").options == {"board": "hexagon 9", "setup": "A"}
    assert board("triangle 4", "B").options == {"board": "triangle 4", "setup": "B"}
    # Cells given in any order are the board of their rows, read back in the engine's order.
    g = board("cells 0,1 1,0 0,0")
    assert g.options["board"] == "cells 0,0 1,0 0,1"
    assert quanta.game("quantum_leap", **g.options).options == g.options
    assert ref.game(board="cells 0,1 1,0 0,0").options == g.options
    # A named shape's numbers are read as numbers, and written back plainly.
    for text, plain in (("parallelogram 03x2", "parallelogram 3x2"), ("triangle 04", "triangle 4")):
        assert board(text).options["board"] == plain
        assert ref.game(board=text).options == board(text).options


@pytest.mark.parametrize("text, setup, white, black, empty", [
    ("triangle 4", "A", 4, 5, 1),  # 10 cells: one empty, nine stones, the odd one Black's
    ("triangle 4", "B", 5, 5, 0),
    ("parallelogram 3x3", "A", 4, 4, 1),  # 9 cells: as on the hexagons
    ("parallelogram 3x3", "B", 4, 5, 0),
    ("parallelogram 2x3", "A", 2, 3, 1),
    ("parallelogram 2x3", "B", 3, 3, 0),
])
def test_the_set_up_on_odd_and_even_boards(text, setup, white, black, empty):
    """"Répartir au hasard la réserve de pierres (30 de chaque couleur) sur le plateau cellules
    (61), de sorte que chaque cellule ne contient qu'une seule pierre et qu'il y a qu'une place
    de libre de laissée." On a board of an even number of cells the stones cannot be equal and
    leave one cell free: the ruling keeps the one free cell and gives Black the odd stone."""
    rng = random.Random(text + setup)
    for _ in range(5):
        s = dealt(board(text, setup), rng)
        cells = ql.cells(s)
        assert (cells.count("w"), cells.count("b"), cells.count(".")) == (white, black, empty)
        assert s.view()["phase"] == ("swap" if setup == "A" else "move")


@pytest.mark.parametrize("text, centre", [
    ("triangle 4", "c2"), ("parallelogram 3x3", "b2"), ("hexagon 9", "i9"),
    ("triangle 3", None), ("parallelogram 2x3", None), ("parallelogram 3x4", None),
])
def test_the_empty_cell_is_anywhere_but_the_centre_where_there_is_one(text, centre):
    """"Cet espace libre peut être n'importe où sauf sur l'espace central": the centre is the
    cell at the mean of the cells' positions; a board without one has the empty cell anywhere."""
    start = board(text).new_state()
    names = ql.cell_names(start)
    empties = [start.action_to_string(a).split()[1] for a, _ in start.chance_outcomes()]
    assert sorted(empties) == sorted(n for n in names if n != centre)
    assert sum(p for _, p in start.chance_outcomes()) == pytest.approx(1.0)
    r = ref.game(board=text)
    assert (r.geometry.names[r.geometry.centre] if r.geometry.centre is not None else None) \
        == centre


def test_black_may_swap_two_stones_on_any_board():
    """"Avant le début de la partie, Noir peut échanger les positions de deux pierres
    quelconques sur la planche.\""""
    g = board("triangle 3")
    s = g.from_notation("./wb/wbb swap")
    moves = [s.action_to_string(a) for a in s.legal_actions()]
    assert moves[0] == "no swap" and len(moves) == 1 + 2 * 3
    after = s.play(s.parse_action("swap b1 c2"))
    assert after.notation() == "./bb/wwb w"


def test_a_leap_passes_over_cells_off_the_board():
    """"Les pierres peuvent sauter d'autres pierres": only the landing cell must be on the
    board, so on a notched board a stone leaps over the notch (the ruling *Passing over*)."""
    notched = "cells 1,-1 2,-1 3,-1 0,0 1,0 3,0"  # row b has no cell at (2, 0)
    s = board(notched).from_notation("wbb/wwb w")  # b2 = (1, 0) has two white neighbours
    assert "b2xb3" in [s.action_to_string(a) for a in s.legal_actions()]  # over (2, 0)
    r = ref.game(board=notched).from_notation("wbb/wwb w")
    assert r.legal_actions() == list(s.legal_actions())


@pytest.mark.parametrize("options, what", [
    ({"board": "square 4"}, "no such shape"),
    ({"board": "hexagon 10"}, "a hexagon has a side from 2 to 9"),
    ({"board": "parallelogram 3"}, "a parallelogram is written AxB"),
    ({"board": "parallelogram 1x2"}, "3 to 255 cells"),
    ({"board": "triangle 27"}, "a triangle has a side from 2 to 26"),
    ({"board": "cells 0,0 1,0 5,5"}, "not connected"),
    ({"board": "cells 0,0 1,0 1,0"}, "given twice"),
    ({"board": "cells 0,0 1;0 2,0"}, "no cell q,r"),
    ({"board": "parallelogram 16x16"}, "3 to 255 cells"),
    ({"board": 5}, "must be a text"),
    ({"board": "triangle 4", "size": 3}, "not both"),
])
def test_a_bad_board_says_what_a_board_must_be(options, what):
    with pytest.raises(InvalidOptionError, match=what):
        quanta.game("quantum_leap", **options)
    with pytest.raises(InvalidOptionError):
        ref.game(**options)


@pytest.mark.parametrize("text", ["parallelogram 2x3", "triangle 3", "parallelogram 3x3",
                                  "triangle 4", NOTCHED])
@pytest.mark.parametrize("setup", ["A", "B"])
def test_the_solver_agrees_with_the_oracle_on_other_boards(text, setup):
    rng = random.Random(f"{text} {setup}")
    g, r = board(text, setup), ref.game(board=text, setup=setup)
    memo: dict = {}
    for _ in range(6):
        s = dealt(g, rng)
        while True:
            mirror = r.from_notation(s.notation())
            if s.is_terminal:
                assert not ql.solve(s).win and not ref.solve(mirror, memo)
                break
            assert ql.solve(s).win == ref.solve(mirror, memo), s.notation()
            assert ql.analyze(s) == ref.analyze(mirror, memo), s.notation()
            s = s.play(rng.choice(s.legal_actions()))


def test_a_board_past_128_cells_plays_and_solves_to_the_end():
    """A hexagon of side 9 (217 cells) on 256-bit sets: a random game to the end, its last
    positions solved exactly and checked against the oracle."""
    rng = random.Random(9)
    g, r = board("hexagon 9", "B"), ref.game(board="hexagon 9", setup="B")
    s = dealt(g, rng)
    history = [s]
    while not s.is_terminal:
        s = s.play(rng.choice(s.legal_actions()))
        history.append(s)
    memo: dict = {}
    for late in history[-6:]:
        expected = ref.solve(r.from_notation(late.notation()), memo)
        assert ql.solve(late, max_nodes=10_000_000).win == expected


def test_pictures_of_other_boards():
    """The text and the SVG draw the board's own cells: a triangle's rows, its centre."""
    import xml.etree.ElementTree as ET

    s = board("triangle 4").from_notation("./ww/wwb/bbbb swap")
    assert ql.text(s).splitlines()[:4] == ["a     .", "b    w w", "c   w w b", "d  b b b b"]
    root = ET.fromstring(ql.svg(s))
    polygons = [p for p in root.iter() if p.tag.endswith("polygon")]
    assert len(polygons) == 10
    assert sum(p.get("fill") == "#dcc597" for p in polygons) == 1  # the centre, c2
    assert len(ET.fromstring(ql.svg(board("parallelogram 2x3").new_state())).findall(
        ".//{*}polygon")) == 6
