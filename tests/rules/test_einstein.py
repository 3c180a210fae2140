"""EinStein würfelt nicht: the Rust engine against the pure-Python reference, and the rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import assert_same_generic, moves, play

import quanta
from quanta import IllegalMoveError, InvalidNotationError, InvalidOptionError
from quanta.reference import einstein as ref


def assert_same(s: quanta.State, r: ref.EinsteinState) -> None:
    legal = assert_same_generic(s, r)
    if len(legal) <= 6:  # moves and rolls; arrangements are spot-checked below
        assert [s.action_to_string(a) for a in legal] == [r.action_to_string(a) for a in legal]
    assert s.board().tolist() == r.board()


@given(data=st.data())
def test_rust_and_reference_agree_from_any_reachable_position(data):
    """Positions given by notation (either side to move, any die) behave the same in both."""
    g, rg = quanta.game("einstein"), ref.EinsteinGame()
    s = g.new_state()
    for _ in range(data.draw(st.integers(0, 60), label="plies")):
        if s.is_terminal:
            break
        legal = s.legal_actions()
        s = s.play(legal[data.draw(st.integers(0, len(legal) - 1))])
    r = rg.from_notation(s.notation())
    assert_same(s, r)
    assert g.from_notation(s.notation()) == s


# ---- rules, each test naming the rule it checks ----

def at(notation: str, **options) -> quanta.State:
    return quanta.game("einstein", **options).from_notation(notation)




def test_rule_the_rolled_stone_moves_right_down_or_diagonally():
    assert moves(at("..1../...../...../...../....a 0 1")) == ["c1d1", "c1c2", "c1d2"]


def test_rule_player_1_moves_left_up_or_diagonally_up_left():
    s = at("1..../...../..a../...../..... 1 1")
    assert moves(s) == ["c3b3", "c3c2", "c3b2"]


def test_rule_nearest_higher_and_lower_when_both_neighbours_exist():
    # Player 0 has stones 2 and 5; a roll of 3 (or 4) lets either of them move.
    s = at("2...5/...../...../...../....a 0 3")
    assert set(moves(s)) == {"a1b1", "a1a2", "a1b2", "e1e2"}
    assert set(moves(at("2...5/...../...../...../....a 0 4"))) == set(moves(s))


def test_rule_nearest_stone_when_only_one_side_exists():
    # Only stones 4 and 5 remain: a roll of 1 moves 4 (nearest higher), a roll of 6 moves 5.
    assert set(moves(at("4...5/...../...../...../....a 0 1"))) == {"a1b1", "a1a2", "a1b2"}
    assert set(moves(at("4...5/...../...../...../....a 0 6"))) == {"e1e2"}


def test_rule_nearest_means_by_number_not_by_distance_on_the_board():
    # Stones 1 and 6 remain, 3 rolled: both are nearest (nothing in between), whatever the cells.
    s = at("1..../...../...../...../...6a 0 3")
    assert set(moves(s)) == {"a1b1", "a1a2", "a1b2", "d5e5"}


def test_rule_the_rolled_stone_present_means_no_choice_of_stone():
    assert set(moves(at("123../...../...../...../....a 0 2"))) == {"b1c1", "b1b2", "b1c2"}


def test_rule_capturing_ones_own_stone_removes_it():
    s = play(at("12.../...../...../...../....a 0 1"), "a1b1")
    assert s.notation() == ".1.../...../...../...../....a 1 -"


def test_rule_capturing_an_enemy_stone_removes_it():
    s = play(at("1..../.b.../...../...../....a 0 1"), "a1b2")
    assert s.notation() == "...../.1.../...../...../....a 1 -"
    assert not s.is_terminal


def test_rule_capture_is_never_forced():
    s = at("1..../.b.../...../...../....a 0 1")
    assert set(moves(s)) == {"a1b1", "a1a2", "a1b2"}


def test_rule_reaching_the_opposite_corner_wins():
    s = play(at("....a/...../...../....1/..... 0 1"), "e4e5")
    assert s.is_terminal and s.returns() == [1.0, -1.0]
    s = play(at("...../.a.../...../...../...3. 1 1"), "b2a1")
    assert s.is_terminal and s.returns() == [-1.0, 1.0]


def test_rule_removing_every_enemy_stone_wins():
    s = play(at("1..../.a.../...../...../..... 0 1"), "a1b2")
    assert s.is_terminal and s.returns() == [1.0, -1.0]


def test_rule_no_passing_a_rolled_player_always_has_a_move():
    # A stone on the last column can still step down; one on the last row can still step right.
    assert moves(at("....1/...../...../...../....a 0 1")) == ["e1e2"]
    assert moves(at("...../...../...../...../1...a 0 1")) == ["a5b5"]
    with pytest.raises(IllegalMoveError):
        at("....1/...../...../...../....a 0 1").play(-1)


def test_rule_each_turn_starts_with_a_die_roll_chance_node():
    s = at("1..../...../...../...../....a 0 -")
    assert s.is_chance and s.chance_outcomes() == [(75 + n, pytest.approx(1 / 6)) for n in range(6)]
    assert [s.action_to_string(a) for a in s.legal_actions()] == [f"roll {n}" for n in range(1, 7)]
    assert s.play(s.parse_action("roll 4")).notation() == "1..../...../...../...../....a 0 4"


def test_rule_random_setup_is_a_uniform_chance_event_per_side():
    s = quanta.game("einstein").new_state()
    assert s.is_chance and s.notation() == "...../...../...../...../..... 0 setup"
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 720 and all(p == pytest.approx(1 / 720) for _, p in outcomes)
    s = s.play(s.parse_action("setup 654321"))
    assert s.notation() == "654../32.../1..../...../..... 1 setup"
    s = s.play(s.parse_action("setup 123456"))
    assert s.notation() == "654../32.../1...f/...ed/..cba 0 -"


def test_rule_choose_setup_lets_each_player_arrange_player_1_second():
    s = quanta.game("einstein", setup="choose", first=1).new_state()
    assert s.current_player == 0 and len(s.legal_actions()) == 720
    s = s.play(s.parse_action("setup 123456"))
    assert s.current_player == 1
    s = s.play(s.parse_action("setup 123456"))
    assert s.is_chance and s.notation().endswith(" 1 -")  # then `first` rolls


# ---- options, accessors, bad input ----

def test_options_and_their_errors():
    assert quanta.game("einstein").options == {"setup": "random", "first": 0}
    for bad in [{"setup": "mirror"}, {"first": 2}, {"first": "0"}, {"setup": 1}, {"dice": 2}]:
        with pytest.raises(InvalidOptionError):
            quanta.game("einstein", **bad)


def test_board_is_a_signed_int8_array():
    b = at("123../45.../6...f/...ed/..cba 0 -").board()
    assert b.dtype == np.int8 and b.shape == (5, 5)
    assert b[0].tolist() == [1, 2, 3, 0, 0] and b[4].tolist() == [0, 0, -3, -2, -1]


@pytest.mark.parametrize(
    "text, what",
    [
        ("a..../...../...../...../....1 0 -", "both sides have won"),
        ("...../...../...../...../..... 0 -", "both sides have won"),
        ("1...1/...../...../...../....a 0 -", "twice"),
        ("1..../...../...../...../....a 0 7", "die"),
        ("1..../...../...../...../....a 2 -", "player"),
        ("1..../...../...../....a 0 -", "5 rows"),
        ("1..x./...../...../...../....a 0 -", "'x'"),
        ("1..../...../...../...../..... 1 3", "over"),
        ("1..../...../...../...../..... 0 setup", "empty"),
        ("12345/6..../...../...../..... 1 setup", "start cells"),
    ],
)
def test_bad_notation_names_what_is_wrong(text, what):
    with pytest.raises(InvalidNotationError, match=what):
        at(text)
    with pytest.raises(InvalidNotationError):
        ref.EinsteinGame().from_notation(text)


@given(st.one_of(st.integers(), st.text(), st.binary(), st.floats(), st.none()))
def test_random_input_gets_only_the_typed_errors(junk):
    g = quanta.game("einstein")
    for s in [g.new_state(), at("123../45.../6...f/...ed/..cba 0 4"), at("1..../...../...../...../....a 1 -")]:
        before = s.notation()
        try:
            s.play(junk)
        except IllegalMoveError:
            pass
        if isinstance(junk, str):
            try:
                s.parse_action(junk)
            except IllegalMoveError:
                pass
            try:
                g.from_notation(junk)
            except InvalidNotationError:
                pass
        assert s.notation() == before
