"""Quantum Leap (hex capture game): the Rust engine against the pure-Python reference, the rules,
the solver against the reference's exhaustive oracle, bad input, and the pictures."""

from __future__ import annotations

import itertools
import random
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import assert_same_generic, moves, play, random_step

import quanta
import quanta.quantum_leap as ql
from quanta import CHANCE, TERMINAL, IllegalMoveError, InvalidNotationError, InvalidOptionError
from quanta.exceptions import SearchLimitError
from quanta.reference import quantum_leap as ref

SETUPS = st.sampled_from(["A", "B"])


def fewer(divisor: int) -> int:
    """A share of the active profile's examples (never below 10) for the slow tests."""
    return max(10, settings.default.max_examples // divisor)


def game(size: int = 5, setup: str = "A") -> quanta.Game:
    return quanta.game("quantum_leap", size=size, setup=setup)


def at(notation: str, size: int, setup: str = "A") -> quanta.State:
    return game(size, setup).from_notation(notation)




def num_cells(size: int) -> int:
    return 3 * size * (size - 1) + 1


def deal(s: quanta.State, rng: random.Random) -> quanta.State:
    """Plays the chance events of `s` by their odds until a decision (or the end)."""
    while s.is_chance:
        s = random_step(s, rng)
    return s


# ---- the engine against the reference, step by step ----


def assert_same(s: quanta.State, r: ref.QuantumLeapState) -> None:
    legal = assert_same_generic(s, r)
    # Jumps and deal outcomes in full; the swap (hundreds of pairs on big boards) spot-checked.
    checked = legal if len(legal) <= 200 else legal[:3] + legal[len(legal) // 2 :][:3] + legal[-3:]
    assert [s.action_to_string(a) for a in checked] == [r.action_to_string(a) for a in checked]
    assert s.cells() == r.cells() == ql.cells(s)


@given(size=st.integers(2, 5), setup=SETUPS, data=st.data())
def test_rust_and_reference_agree_on_any_position_given_by_notation(size, setup, data):
    """Any stones, either side to move (or Black's swap in setup A), then one step each."""
    c = num_cells(size)
    cells = data.draw(st.lists(st.sampled_from("wb."), min_size=c, max_size=c), label="cells")
    side = data.draw(st.sampled_from(["w", "b", "swap"] if setup == "A" else ["w", "b"]), label="side")
    r = ref.QuantumLeapState(ref.QuantumLeapGame(size, setup), cells, side)
    s = game(size, setup).from_notation(r.notation())
    assert_same(s, r)
    legal = s.legal_actions()
    if legal:
        a = legal[data.draw(st.integers(0, len(legal) - 1), label="choice")]
        assert_same(s.play(a), r.play(a))


# ---- rules, each test naming the rule it checks ----
#
# Side 3 (centre c3) and side 4 (centre d4), names and axial coordinates (q, r):
#
#        a1  a2  a3                       a1  a2  a3  a4            (row a: r = -3, q = 0..3)
#      b1  b2  b3  b4                   b1  b2  b3  b4  b5          (row b: r = -2, q = -1..3)
#    c1  c2  c3  c4  c5               c1  c2  c3  c4  c5  c6        (row c: r = -1, q = -2..3)
#      d1  d2  d3  d4               d1  d2  d3  d4  d5  d6  d7      (row d: r = 0, q = -3..3)
#        e1  e2  e3                   e1  e2  e3  e4  e5  e6        (row e: r = 1, q = -3..2)
#                                       f1  f2  f3  f4  f5          (row f: r = 2, q = -3..1)
#                                         g1  g2  g3  g4            (row g: r = 3, q = -3..0)
#
# Directions: 0 E (+1, 0), 1 NE (+1, -1), 2 NW (0, -1), 3 W (-1, 0), 4 SW (-1, +1), 5 SE (0, +1).

DIRECTIONS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


def axial(size: int) -> list[tuple[int, int]]:
    """Cell number -> (q, r), from the rules page (independent of engine and reference)."""
    n = size
    out = []
    for i in range(2 * n - 1):
        r = i - (n - 1)
        out.extend((q, r) for q in range(max(-(n - 1), -(n - 1) - r), min(n - 1, n - 1 - r) + 1))
    return out


@pytest.mark.parametrize(
    "row_c, k, expected",
    [
        # d4 (white) with 1, 2 or 3 white neighbours among c3, c4, d3; black on d5, d6, d7
        # (E, 1-3 cells away) and on e3, e4 (its SW and SE neighbours, which never count).
        ("......", 1, ["d4xd5", "d4xe3", "d4xe4"]),
        ("..w...", 2, ["d4xd6"]),
        ("..ww..", 3, ["d4xd7"]),
    ],
)
def test_rule_jump_length_is_the_number_of_friendly_neighbours(row_c, k, expected):
    s = at(f"..../...../{row_c}/..wwbbb/..bb../...../.... w", 4)
    assert [m for m in moves(s) if m.startswith("d4")] == expected
    d4 = 18  # 4 + 5 + 6 cells above it, then d1 d2 d3
    assert s.parse_action(expected[0]) == d4 * 6 + 0  # eastwards, k cells


@given(size=st.integers(2, 5), data=st.data())
def test_rule_jump_length_is_the_number_of_friendly_neighbours_on_any_position(size, data):
    """Every capture is exactly k cells in a straight line onto an enemy, k the friendly
    neighbours of the stone before it moves; and every such landing is a legal capture."""
    c = num_cells(size)
    cells = data.draw(st.lists(st.sampled_from("wwbb."), min_size=c, max_size=c))
    colour = data.draw(st.sampled_from("wb"))
    enemy = "b" if colour == "w" else "w"
    coords = axial(size)
    index = {qr: n for n, qr in enumerate(coords)}
    expected = []
    for cell, (q, r) in enumerate(coords):
        if cells[cell] != colour:
            continue
        around = [index[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in index]
        k = sum(cells[other] == colour for other in around)
        for d, (dq, dr) in enumerate(DIRECTIONS):
            target = index.get((q + k * dq, r + k * dr))
            if k and target is not None and cells[target] == enemy:
                expected.append((cell * 6 + d, target))
    rows, start = [], 0
    for i in range(2 * size - 1):
        length = size + i if i < size else 3 * size - 2 - i
        rows.append("".join(cells[start : start + length]))
        start += length
    s = at(f"{'/'.join(rows)} {colour}", size)
    assert list(s.legal_actions()) == [a for a, _ in expected]
    assert s.is_terminal == (not expected)
    for action, target in expected:
        after = s.play(action).cells()
        assert after[target] == colour and after[action // 6] == "."


def test_rule_jumps_pass_over_friends_enemies_and_empty_cells():
    # d4 (white, k = 3: c3, c4, d3). NW: over c3 (white) and b2 (empty) onto a1. W: over d3 and
    # d2 (white, white) onto d1. E: over d5 (black) and d6 (empty) onto d7. SE: over e4 (empty)
    # and f4 (black) onto g4.
    s = at("b.../...../..ww../bwwwb.b/....../...b./...b w", 4)
    assert [m for m in moves(s) if m.startswith("d4")] == ["d4xd7", "d4xa1", "d4xd1", "d4xg4"]
    # The cells passed over keep their stones; only the landing cell's stone is captured.
    assert play(s, "d4xd7").notation() == "b.../...../..ww../bww.b.w/....../...b./...b b"
    assert play(s, "d4xd1").notation() == "b.../...../..ww../www.b.b/....../...b./...b b"
    assert play(s, "d4xg4").notation() == "b.../...../..ww../bww.b.b/....../...b./...w b"


def test_rule_a_jump_must_land_on_an_enemy_stone():
    # c3 and c4 are white (k = 1 each), b3 is black; every other cell is empty.
    s = at(".../..b./..ww./..../... w", 3)
    assert moves(s) == ["c3xb3", "c4xb3"]
    assert list(s.legal_actions()) == [9 * 6 + 1, 10 * 6 + 2]
    for not_a_capture in [9 * 6 + 0, 9 * 6 + 2, 9 * 6 + 5]:  # onto c4 (friend), b2, d3 (empty)
        with pytest.raises(IllegalMoveError):
            s.play(not_a_capture)
    # Black to move in the same position: b3 has no black neighbour, so Black has lost.
    assert at(".../..b./..ww./..../... b", 3).is_terminal


def test_rule_a_stone_without_friendly_neighbours_cannot_move():
    # a1 is white and alone (its neighbour a2 is black); the pair c3-c4 can capture c5.
    assert moves(at("wb./..../..wwb/..../... w", 3)) == ["c4xc5"]
    # c3 is White's only stone, ringed by black: k = 0, so White has no capture and has lost.
    s = at(".../.bb./.bwb./.bb./... w", 3)
    assert list(s.legal_actions()) == [] and s.is_terminal and s.current_player == TERMINAL
    assert s.returns() == [-1.0, 1.0]
    with pytest.raises(IllegalMoveError):
        s.play(9 * 6 + 0)


def test_rule_a_jump_must_land_on_the_board():
    # a1 (k = 2: a2, b2) jumps E over a2 onto a3, b2 (k = 2: a1, a2) jumps SW onto d1. Not moves:
    # a2 (k = 2) east or west (off the board: no clipping onto a3 or a1), c5 (k = 1) east (no
    # wrapping onto the next row's d1), d4 (k = 1) east (no wrapping onto e1).
    s = at("wwb/.w../....w/b..w/b.. w", 3)
    assert moves(s) == ["a1xa3", "b2xd1"]
    for off_board in [1 * 6 + 0, 1 * 6 + 3, 11 * 6 + 0, 11 * 6 + 1, 15 * 6 + 0]:
        with pytest.raises(IllegalMoveError):
            s.play(off_board)
    # c3 with six white neighbours has k = 6: every landing cell is off the side-3 board.
    ring = at("bbb/bwwb/bwwwb/bwwb/bbb w", 3)
    assert [m for m in moves(ring) if m.startswith("c3")] == []
    assert moves(ring)  # the ring stones themselves can capture


def test_rule_a_capture_removes_the_enemy_and_empties_the_origin():
    # The worked example of the rules page.
    s = at(".w./wwb./.bw.b/..b./w.b w", 3)
    assert moves(s) == ["a2xb3", "b1xc2", "b2xe3", "c3xb3", "c3xc2", "c3xd3"]
    assert list(s.legal_actions()) == [11, 23, 29, 55, 57, 59]
    after = play(s, "b2xe3")
    assert after.notation() == ".w./w.b./.bw.b/..b./w.w b"
    assert after.cells().count("w") == s.cells().count("w")
    assert after.cells().count("b") == s.cells().count("b") - 1


@given(size=st.integers(2, 4), setup=SETUPS, seed=st.integers(0, 2**32))
def test_rule_every_move_removes_exactly_one_enemy_stone_and_there_are_no_draws(size, setup, seed):
    rng = random.Random(seed)
    s = deal(game(size, setup).new_state(), rng)
    if s.notation().endswith(" swap"):
        s = s.play(rng.choice(s.legal_actions()))
    plies = 0
    while not s.is_terminal:
        mover = "w" if s.current_player == 0 else "b"
        enemy = "b" if mover == "w" else "w"
        before = s.cells()
        s = s.play(rng.choice(s.legal_actions()))
        plies += 1
        assert s.cells().count(mover) == before.count(mover)
        assert s.cells().count(enemy) == before.count(enemy) - 1
        assert s.cells().count(".") == before.count(".") + 1
    assert plies < num_cells(size)
    loser = 0 if s.notation().endswith(" w") else 1
    assert s.returns()[loser] == -1.0 and s.returns()[1 - loser] == 1.0


def test_rule_the_player_who_cannot_capture_loses():
    for notation, returns in [
        (".../.bb./.bwb./.bb./... w", [-1.0, 1.0]),  # White to move, no capture
        (".../.ww./.wbw./.ww./... b", [1.0, -1.0]),  # Black to move, no capture
        ("ww/.../.. b", [1.0, -1.0]),  # Black has no stone at all
    ]:
        s = at(notation, 3 if notation.count("/") == 4 else 2)
        assert s.is_terminal and s.current_player == TERMINAL
        assert s.returns() == returns
        assert list(s.legal_actions()) == [] and s.chance_outcomes() == []
    # Not over while a capture exists, even a single one.
    s = at("wb./..../..wwb/..../... w", 3)
    assert not s.is_terminal and s.returns() == [0.0, 0.0] and s.current_player == 0


def test_rule_the_last_player_to_capture_wins():
    # White's b2xe3 leaves Black's stones b3, c2, c5, d3 without a black neighbour.
    s = play(at(".w./wwb./.bw.b/..b./w.b w", 3), "b2xe3")
    assert s.is_terminal and s.returns() == [1.0, -1.0]
    assert s.notation().endswith(" b")  # the side field names the loser
    # Black's a1xb1 (k = 1: a2) captures White's last stone.
    s = at("bb/w../.. b", 2)
    assert moves(s) == ["a1xb1"]
    s = play(s, "a1xb1")
    assert s.notation() == ".b/b../.. w"
    assert s.is_terminal and s.returns() == [-1.0, 1.0]


def test_rule_black_moves_after_white_and_white_after_black():
    s = at(".w./wwb./.bw.b/..b./w.b w", 3)
    s = play(s, "a2xb3")
    assert s.current_player == 1 and s.notation().endswith(" b")
    assert list(at(".w./wwb./.bw.b/..b./w.b b", 3).legal_actions()) == [86]  # d3xc3
    s = play(at(".w./wwb./.bw.b/..b./w.b b", 3), "d3xc3")
    assert s.current_player == 0 and s.notation().endswith(" w")


# The swap (setup A): side 2, 3 white stones (a1 a2 b2 = cells 0 1 3) and 3 black (b1 c1 c2 =
# cells 2 5 6), b3 (4) empty. C = 7: no swap is 42, swap i<j is 43 + 7i + j.
SWAP_POSITION = "ww/bw./bb swap"
WHITE_BLACK_PAIRS = [(0, 2), (0, 5), (0, 6), (1, 2), (1, 5), (1, 6), (2, 3), (3, 5), (3, 6)]


def test_rule_swap_is_one_white_black_pair_or_none():
    s = at(SWAP_POSITION, 2)
    assert s.current_player == 1 and not s.is_chance and not s.is_terminal
    assert list(s.legal_actions()) == [42] + [43 + 7 * i + j for i, j in WHITE_BLACK_PAIRS]
    assert moves(s)[:4] == ["no swap", "swap a1 b1", "swap a1 c1", "swap a1 c2"]
    assert "swap b1 b2" in moves(s)  # the lower-numbered cell first
    same_colour = [(0, 1), (0, 3), (1, 3), (2, 5), (2, 6), (5, 6)]
    with_the_empty_cell = [(0, 4), (2, 4), (4, 5)]
    for i, j in same_colour + with_the_empty_cell:
        with pytest.raises(IllegalMoveError):
            s.play(43 + 7 * i + j)


@given(size=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_rule_swap_count_is_white_stones_times_black_stones_plus_one(size, seed):
    s = deal(game(size, "A").new_state(), random.Random(seed))
    assert s.notation().endswith(" swap")
    half = (num_cells(size) - 1) // 2
    assert len(s.legal_actions()) == 1 + half * half


def test_rule_after_the_swap_white_moves():
    s = at(SWAP_POSITION, 2)
    for a in s.legal_actions():
        after = s.play(a)
        assert after.notation().split(" ")[1] == "w"
        assert after.current_player == (TERMINAL if after.is_terminal else 0)
    assert play(s, "no swap").notation() == "ww/bw./bb w"
    assert play(s, "swap a1 b1").notation() == "bw/ww./bb w"
    assert play(s, "swap b2 c2").notation() == "ww/bb./bw w"


@pytest.mark.parametrize("size", range(2, 8))
def test_rule_setup_a_empty_cell_is_never_the_centre(size):
    c = num_cells(size)
    e = 6 * c + 1 + c * c
    centre = (c - 1) // 2  # the middle cell in number order is the centre
    s = game(size, "A").new_state()
    assert s.is_chance and s.current_player == CHANCE
    rows = ["?" * (size + i if i < size else 3 * size - 2 - i) for i in range(2 * size - 1)]
    assert s.notation() == "/".join(rows) + " deal"
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == [e + cell for cell in range(c) if cell != centre]
    assert all(p == pytest.approx(1 / (c - 1)) for _, p in outcomes)
    with pytest.raises(IllegalMoveError):
        s.play(e + centre)
    assert s.action_to_string(e) == "empty a1"


@pytest.mark.parametrize("size", range(2, 8))
def test_rule_setup_a_deals_half_the_other_cells_to_each_colour(size):
    rng = random.Random(size)
    c = num_cells(size)
    for _ in range(5):
        s = deal(game(size, "A").new_state(), rng)
        cells = s.cells()
        assert cells.count("w") == cells.count("b") == (c - 1) // 2
        assert cells.count(".") == 1 and cells[(c - 1) // 2] != "."
        assert s.notation().endswith(" swap") and s.current_player == 1


@pytest.mark.parametrize("size", range(2, 8))
def test_rule_setup_b_fills_the_board_one_more_black_and_no_swap(size):
    rng = random.Random(size)
    c = num_cells(size)
    g = game(size, "B")
    s = g.new_state()
    assert list(s.legal_actions()) == [6 * c + 1 + c * c + c, 6 * c + 1 + c * c + c + 1]  # no empty cell
    for _ in range(5):
        s = deal(g.new_state(), rng)
        cells = s.cells()
        assert cells.count("w") == (c - 1) // 2 and cells.count("b") == (c + 1) // 2
        assert "." not in cells
        assert s.notation().endswith(" w")  # White moves at once, no swap decision
        assert 6 * c not in s.legal_actions()
        with pytest.raises(IllegalMoveError):
            s.play(6 * c)  # "no swap" does not exist here
    with pytest.raises(InvalidNotationError):
        g.from_notation(s.notation().replace(" w", " swap"))


@pytest.mark.parametrize(
    "size, setup, notation, white, black, next_cell",
    [
        # Side 2, setup A (3 + 3): 2 white and 1 black dealt -> 1 white, 2 black left.
        (2, "A", "ww/b?./?? deal", 1, 2, "b2"),
        (2, "A", "wb/??./?? deal", 2, 2, "b1"),
        (2, "A", "??/??./?? deal", 3, 3, "a1"),
        # Side 3, setup B (9 + 10): 3 white and 2 black dealt -> 6 white, 8 black left.
        (3, "B", "wwb/bw??/?????/????/??? deal", 6, 8, "b3"),
        (3, "B", "???/????/?????/????/??? deal", 9, 10, "a1"),
        # Side 3, setup A (9 + 9), e1 empty: 8 white and 1 black dealt -> 1 white, 8 black left.
        (3, "A", "wbw/wwww/ww???/????/.?? deal", 1, 8, "c3"),
    ],
)
def test_rule_deal_odds_are_proportional_to_the_stones_left(size, setup, notation, white, black, next_cell):
    s = at(notation, size, setup)
    c = num_cells(size)
    e = 6 * c + 1 + c * c
    assert s.is_chance and s.current_player == CHANCE
    assert s.chance_outcomes() == [
        (e + c, pytest.approx(white / (white + black))),
        (e + c + 1, pytest.approx(black / (white + black))),
    ]
    assert moves(s) == [f"white {next_cell}", f"black {next_cell}"]


def test_rule_deal_example_of_the_rules_page():
    s = game(2, "A").new_state()
    for text, p in [("empty b3", 1 / 6), ("white a1", 1 / 2), ("white a2", 2 / 5),
                    ("black b1", 3 / 4), ("white b2", 1 / 3)]:
        a = s.parse_action(text)
        assert dict(s.chance_outcomes())[a] == pytest.approx(p)
        s = s.play(a)
    # White's three stones are dealt: c1 and c2 are black in the same step.
    assert s.notation() == SWAP_POSITION


def test_rule_deal_skips_the_empty_cell_and_fills_the_forced_cells_at_once():
    s = at("wb/wb./?? deal", 2)  # b3 is the empty cell: c1 is next
    assert moves(s) == ["white c1", "black c1"]
    assert play(s, "white c1").notation() == "wb/wb./wb swap"
    assert play(s, "black c1").notation() == "wb/wb./bw swap"
    # Setup B: once Black's 4 stones are out, the rest is white with no further chance event.
    s = at("bb/bw?/?? deal", 2, "B")
    assert play(s, "black b3").notation() == "bb/bwb/ww w"


# ---- the solver against the reference's exhaustive oracle ----

ORACLE_MEMO: dict = {}  # shared by every oracle call (keys are cells + colour, any board size)


def check_solver(s: quanta.State, r: ref.QuantumLeapState) -> None:
    win = ref.solve(r, ORACLE_MEMO)
    values = ref.analyze(r, ORACLE_MEMO)
    solution = ql.solve(s)
    assert solution.win == win, s.notation()
    assert solution.exact and solution.nodes >= 0 and solution.seconds >= 0
    analysis = ql.analyze(s)
    assert list(analysis) == list(s.legal_actions())
    assert analysis == values, s.notation()
    assert win == any(values.values())
    best = solution.best_action
    assert best in s.legal_actions()  # never None: every position checked here has an action
    assert solution.best_move == s.action_to_string(best)
    if win:
        assert ref.solve(r.play(best), ORACLE_MEMO) is False  # the opponent is lost after it
        assert values[best]


def test_solver_agrees_with_the_oracle_on_every_side_2_position():
    g, rg = game(2, "A"), ref.QuantumLeapGame(2, "A")
    checked = 0
    for cells in itertools.product("wb.", repeat=7):
        rows = f"{''.join(cells[:2])}/{''.join(cells[2:5])}/{''.join(cells[5:])}"
        for side in ["w", "b", "swap"]:
            s = g.from_notation(f"{rows} {side}")
            if s.is_terminal:
                assert ref.solve(rg.from_notation(s.notation()), ORACLE_MEMO) is False
                continue
            check_solver(s, rg.from_notation(s.notation()))
            checked += 1
    assert checked > 4000


def test_solver_on_the_swap_decision():
    s = at(SWAP_POSITION, 2)
    r = ref.QuantumLeapGame(2, "A").from_notation(SWAP_POSITION)
    check_solver(s, r)
    solution = ql.solve(s)
    assert solution.best_action in s.legal_actions()
    after = s.play(solution.best_action)
    assert after.current_player in (0, TERMINAL) and after.notation().endswith(" w")
    if solution.win:  # the chosen swap (or no swap) leaves White, to move, lost
        assert after.is_terminal or not ql.solve(after).win


def test_solver_docstring_example():
    s = at("wb/w.b/wb w", 2)
    solution = ql.solve(s)
    assert solution.win and solution.best_move == "b1xb3"
    assert ql.analyze(s) == {0: False, 12: True, 30: False}


@settings(max_examples=fewer(2))
@given(setup=SETUPS, data=st.data())
def test_solver_agrees_with_the_oracle_on_side_3_positions_after_a_deal(setup, data):
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    s = deal(game(3, setup).new_state(), rng)
    rg = ref.QuantumLeapGame(3, setup)
    # Random decisions (the swap too) until at most 14 stones are left: the oracle stays fast
    # (about 0.1 s for 14 stones, ten times more for 16).
    while not s.is_terminal and 19 - s.cells().count(".") > 14:
        legal = s.legal_actions()
        s = s.play(legal[data.draw(st.integers(0, len(legal) - 1), label="choice")])
    if s.is_terminal:
        assert ref.solve(rg.from_notation(s.notation())) is False
        return
    check_solver(s, rg.from_notation(s.notation()))


@given(size=st.integers(3, 5), data=st.data())
def test_solver_agrees_with_the_oracle_on_sparse_boards(size, data):
    """Few stones far apart: the solver splits these into independent regions."""
    c = num_cells(size)
    placed = data.draw(st.dictionaries(st.integers(0, c - 1), st.sampled_from("wb"), min_size=2, max_size=14))
    cells = [placed.get(cell, ".") for cell in range(c)]
    side = data.draw(st.sampled_from(["w", "b", "swap"]))
    r = ref.QuantumLeapState(ref.QuantumLeapGame(size, "A"), cells, side)
    s = game(size, "A").from_notation(r.notation())
    if s.is_terminal:
        assert ref.solve(r, ORACLE_MEMO) is False
        return
    check_solver(s, r)


def early_side_5_position() -> quanta.State:
    s = deal(game(5, "B").new_state(), random.Random(5))
    assert s.current_player == 0 and s.cells().count(".") == 0
    return s


def test_solver_raises_search_limit_error_past_max_nodes():
    s = early_side_5_position()
    with pytest.raises(SearchLimitError) as info:
        ql.solve(s, max_nodes=1000)
    assert info.value.nodes >= 1000 and info.value.seconds >= 0
    with pytest.raises(SearchLimitError):
        ql.analyze(s, max_nodes=1000)


def test_solver_answer_is_the_same_at_any_thread_count():
    # With threads the search shares out its captures near the root; the action it returns is
    # still the first winning one in an order fixed by the position, and every value agrees.
    g = game(5, "B")
    rng = random.Random(7)
    solved = 0
    while solved < 3:
        s = deal(g.new_state(), rng)
        for _ in range(25):
            if not s.is_terminal:
                s = s.play(rng.choice(s.legal_actions()))
        if s.is_terminal:
            continue
        one, two = ql.solve(s, threads=1), ql.solve(s, threads=2)
        assert (one.win, one.best_action) == (two.win, two.best_action), s.notation()
        assert ql.analyze(s, threads=1) == ql.analyze(s, threads=2), s.notation()
        solved += 1


def test_solver_node_limit_is_exact_with_one_thread():
    s = early_side_5_position()
    for limit in [1, 1000, 4321]:
        with pytest.raises(SearchLimitError) as info:
            ql.solve(s, max_nodes=limit, threads=1)
        assert info.value.nodes == limit + 1


def test_solver_raises_search_limit_error_at_timeout_zero():
    s = early_side_5_position()
    with pytest.raises(SearchLimitError) as info:
        ql.solve(s, timeout=0)
    assert info.value.nodes > 0


def test_solver_refuses_chance_nodes_and_answers_finished_games():
    """A batch job meets finished positions: the side to move has lost and has no move."""
    for size in [2, 5]:
        g = game(size)
        with pytest.raises(quanta.NotApplicableError, match="chance node"):
            ql.solve(g.new_state())
        with pytest.raises(quanta.NotApplicableError, match="chance node"):
            ql.analyze(g.new_state())
    partial = at("ww/b?./?? deal", 2)
    with pytest.raises(quanta.NotApplicableError):
        ql.solve(partial)
    finished = at(".../.bb./.bwb./.bb./... w", 3)
    assert finished.is_terminal
    assert ql.analyze(finished) == {}
    answer = ql.solve(finished)
    assert (answer.win, answer.best_action, answer.best_move, answer.exact) == (False, None, None, True)


def test_solver_rejects_bad_limits():
    s = at("wb/w.b/wb w", 2)
    for bad in [
        {"timeout": -1},
        {"timeout": -0.5},
        {"timeout": float("nan")},
        {"memory_mb": 0},
        {"memory_mb": 2**40},
        {"max_nodes": -1},
        {"threads": 0},
        {"threads": -1},
        {"threads": 1.5},
        {"threads": True},
    ]:
        with pytest.raises(ValueError):
            ql.solve(s, **bad)
        with pytest.raises(ValueError):
            ql.analyze(s, **bad)
    # Limits too large to matter are no limits, not errors.
    assert ql.solve(s, timeout=1e300).win == ql.solve(s).win
    assert ql.solve(s, timeout=float("inf"), max_nodes=2**63).win == ql.solve(s).win


# ---- options, notation errors, junk ----


def test_options_and_their_errors():
    assert game(5).options == {"size": 5, "setup": "A"}
    assert quanta.game("quantum_leap").options == {"size": 5, "setup": "A"}
    for size in range(2, 8):
        c = num_cells(size)
        assert game(size).num_actions == 6 * c + 1 + c * c + c + 2
    assert [game(n).num_actions for n in (2, 3, 5)] == [101, 497, 4151]
    for bad in [{"size": 1}, {"size": 8}, {"size": "5"}, {"size": True}, {"size": 5.0},
                {"setup": "C"}, {"setup": "a"}, {"setup": 1}, {"colour": "w"}]:
        with pytest.raises(InvalidOptionError):
            quanta.game("quantum_leap", **bad)
        if "colour" not in bad:
            with pytest.raises(InvalidOptionError):
                ref.QuantumLeapGame(**bad)


@pytest.mark.parametrize(
    "size, setup, text, what",
    [
        (2, "A", "wb/w.b/wb", "expected <rows> <side>"),
        (2, "A", "", "expected <rows> <side>"),
        (2, "A", "wb/w.b w", "size 2 has 3 rows, not 2"),
        (2, "A", " wb/w.b/wb w", "size 2 has 3 rows, not 1"),
        (2, "A", ".../..b./..ww./..../... w", "size 2 has 3 rows, not 5"),
        (2, "A", "wb/w./wb w", "row 2 must have 3 cells"),
        (3, "A", "wb./..../...../..../.... w", "row 5 must have 3 cells"),
        (2, "A", "wb/wxb/wb w", "'x' at b2 is not w, b, . or ?"),
        (2, "A", "Wb/w.b/wb w", "'W' at a1"),
        (2, "A", "wb/w?b/wb w", "only appear during the deal"),
        (2, "A", "wb/w.b/wb white", "side must be w, b, swap or deal"),
        (2, "A", "wb/w.b/wb  w", "side must be w, b, swap or deal"),
        (2, "B", "wb/wbb/wb swap", "setup B has no swap"),
        (2, "A", "wb/w.b/wb deal", "a deal in progress has undealt"),
        (2, "B", "w?/??./?? deal", "setup B deals no empty cell"),
        (2, "A", ".?/??./?? deal", "setup A deals one empty cell"),
        (2, "A", "??/?.?/?? deal", "the empty cell may not be the centre"),
        (3, "A", "???/????/??.??/????/??? deal", "the empty cell may not be the centre"),
        (2, "A", "w?/???/?? deal", "setup A deals the empty cell first"),
        (2, "A", "?w/??./?? deal", "cells are dealt in order"),
        (2, "B", "w?/b??/?? deal", "cells are dealt in order"),
        (2, "A", "ww/ww./?? deal", "4 stones dealt, the stock has 3"),
        (2, "B", "bb/bbb/?? deal", "5 stones dealt, the stock has 4"),
        (2, "A", "ww/w?./?? deal", "a colour is used up"),
        (2, "B", "bb/bb?/?? deal", "a colour is used up"),
    ],
)
def test_bad_notation_names_what_is_wrong(size, setup, text, what):
    with pytest.raises(InvalidNotationError, match=re.escape(what)):
        at(text, size, setup)
    with pytest.raises(InvalidNotationError):
        ref.QuantumLeapGame(size, setup).from_notation(text)


JUNK = st.one_of(
    st.integers(), st.booleans(), st.text(), st.text(alphabet="wb.?/ dealswpx12345"), st.floats(), st.none()
)


@given(junk=JUNK)
def test_random_input_gets_only_the_typed_errors(junk):
    g = game(3)
    states = [
        g.new_state(),
        at("wbw/wwww/ww???/????/.?? deal", 3),
        at("bww/bbbw/bbwww/wbbb/ww. swap", 3),
        at(".w./wwb./.bw.b/..b./w.b w", 3),
        at(".../.bb./.bwb./.bb./... w", 3),
    ]
    for s in states:
        before = s.notation()
        try:
            s.play(junk)
        except IllegalMoveError:
            pass
        if isinstance(junk, str):  # non-text is the next test's business
            try:
                s.parse_action(junk)
            except IllegalMoveError:
                pass
        assert s.notation() == before
    if isinstance(junk, str):
        try:
            g.from_notation(junk)
        except InvalidNotationError:
            pass


@pytest.mark.parametrize("junk", [None, 5, 1.5, b"c3xb3", ["c3xb3"]])
def test_non_text_given_as_text_gets_the_typed_errors(junk):
    """parse_action and from_notation raise IllegalMoveError / InvalidNotationError for a
    non-str too, as the reference does (the contract: bad input raises only the typed errors)."""
    g, s = game(3), at(".w./wwb./.bw.b/..b./w.b w", 3)
    with pytest.raises(IllegalMoveError):
        s.parse_action(junk)
    with pytest.raises(InvalidNotationError):
        g.from_notation(junk)
    with pytest.raises(IllegalMoveError):
        ref.QuantumLeapGame(3).from_notation(s.notation()).parse_action(junk)
    with pytest.raises(InvalidNotationError):
        ref.QuantumLeapGame(3).from_notation(junk)


# ---- text and pictures ----


def picture_states() -> list[quanta.State]:
    states = [at("ww/.bb/wb w", 2), at("ww/b?./?? deal", 2), at(SWAP_POSITION, 2),
              play(at(".w./wwb./.bw.b/..b./w.b w", 3), "b2xe3")]
    for size in [5, 7]:
        rng = random.Random(size)
        s = game(size).new_state()
        states.append(s)
        s = s.play(rng.choice(s.legal_actions()))  # the empty cell
        s = s.play(s.legal_actions()[0])
        states.append(s)
        s = deal(s, rng)
        states.append(s)  # the swap decision
        for _ in range(3):
            if s.is_terminal:
                break
            s = s.play(rng.choice(s.legal_actions()))
            states.append(s)
    return states


def test_text_shows_the_board_and_what_happens_next():
    assert ql.text(at("ww/.bb/wb w", 2)) == "a   w w\nb  . b b\nc   w b\nWhite to move"
    statuses = [ql.text(s).splitlines()[-1] for s in picture_states()[:4]]
    assert statuses == ["White to move", "dealing: next cell b2", "Black to swap or not", "White wins"]
    assert ql.status(game(5).new_state()) == "dealing: the empty cell"
    assert ql.status(game(5, "B").new_state()) == "dealing: next cell a1"
    assert ql.status(at("bb/w../.. b", 2)) == "Black to move"
    for s in picture_states():
        lines = ql.text(s).splitlines()
        size = (len(lines)) // 2
        rows = s.notation().split(" ")[0].split("/")
        assert len(lines) == 2 * size and len(rows) == 2 * size - 1
        for line, row in zip(lines, rows):
            assert line.split() == [line[0]] + list(row)
        assert str(s) == ql.text(s)


def test_svg_is_well_formed_and_shows_every_cell_and_stone():
    for s in picture_states():
        picture = ql.svg(s)
        root = ET.fromstring(picture)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert float(root.get("width")) > 0 and float(root.get("height")) > 0
        ns = "{http://www.w3.org/2000/svg}"
        cells = s.cells()
        # While stones are dealt (not setup A's empty cell), the next cell is outlined on top.
        empty_cell_next = s.game.options["setup"] == "A" and "." not in cells
        dealing_stones = s.is_chance and not empty_cell_next
        assert len(root.findall(f"{ns}polygon")) == len(cells) + (1 if dealing_stones else 0)
        assert len(root.findall(f"{ns}circle")) == cells.count("w") + cells.count("b")
        texts = [t.text for t in root.findall(f"{ns}text")]
        assert texts[-1] == ql.status(s)
        assert set(ql.cell_names((len(s.notation().split("/")) + 1) // 2)) <= set(texts)
        assert s._repr_svg_() == picture
