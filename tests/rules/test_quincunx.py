"""Quincunx: the rules, each test naming the rule it checks, run against the pure-Python
reference and (once it is built) the Rust engine; then the engine against the reference, step by
step through whole games, and score_placement on random grids.

Every expected value in the rule tests is worked out by hand from docs/rules/quincunx.md (the
arithmetic is written next to it), never copied from either implementation.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import moves, play

import quanta
from quanta import CHANCE, TERMINAL, IllegalMoveError, InvalidNotationError, InvalidOptionError
from quanta.reference import quincunx as ref

ENGINE = "quincunx" in quanta.GAMES
needs_engine = pytest.mark.skipif(not ENGINE, reason="the Rust Quincunx engine is not built yet")
IMPLEMENTATIONS = ["reference", pytest.param("rust", marks=needs_engine)]

# The Decktet in its order (the deck table of docs/rules/quincunx.md), written out here
# independently of both implementations: Aces, numerals (rank + suit letters), Crowns, the
# Excuse.
CODES = [
    "AM", "AS", "AW", "AL", "AY", "AK",
    "2MK", "2SY", "2WL", "3MW", "3SK", "3LY", "4MS", "4WL", "4YK", "5ML", "5SW", "5YK",
    "6MW", "6SY", "6LK", "7ML", "7SK", "7WY", "8MS", "8WL", "8YK", "9MS", "9WY", "9LK",
    "CM", "CS", "CW", "CL", "CY", "CK",
    "X",
]
PARTS = ("basic", "pairs", "straights", "sets", "power")


# ---- the two implementations behind one face ----


@pytest.fixture(params=IMPLEMENTATIONS)
def score(request):
    """score_placement of the reference or of the engine."""
    if request.param == "reference":
        return ref.score_placement
    import quanta.quincunx

    return quanta.quincunx.score_placement


@pytest.fixture(params=IMPLEMENTATIONS)
def make(request):
    """A function making the game with given options, in the reference or in the engine."""
    if request.param == "reference":
        return ref.game
    return lambda **options: quanta.game("quincunx", **options)


def rc(name: str) -> tuple[int, int]:
    """(row, col) of a cell name: column letter, then row number from the top."""
    return int(name[1:]) - 1, "abcdefghi".index(name[0])


def grid(cells: dict, side: int = 5) -> list:
    """A side x side grid (list of rows of codes or None) with ``cells`` {name: code}."""
    rows = [[None] * side for _ in range(side)]
    for name, code in cells.items():
        row, col = rc(name)
        rows[row][col] = code
    return rows


def scored(score, cells: dict, card: str, at: str, *, side: int = 5, solitaire: bool = False):
    """The breakdown of placing ``card`` on ``at``, with the points and draws."""
    p = score(grid(cells, side), card, rc(at), solitaire=solitaire)
    result = {part: getattr(p, part) for part in PARTS}
    assert p.points == sum(result.values())
    assert dict(p.breakdown) == result
    result["draws"] = p.draws
    return result


def parts(basic=0, pairs=0, straights=0, sets=0, power=0, draws=0) -> dict:
    return dict(basic=basic, pairs=pairs, straights=straights, sets=sets, power=power, draws=draws)


# ---- scoring one placement: basic scoring ----


def test_rule_basic_sum_of_nine_or_less_loses_the_sum(score):
    # 4 next to 3: 7 -> -7.
    assert scored(score, {"c2": "3SK"}, "4MS", "c3") == parts(basic=-7)
    # Each neighbour on its own: 2 next to 3 (-5) and next to 4 (-6).
    assert scored(score, {"c2": "3MW", "b3": "4WL"}, "2MK", "c3") == parts(basic=-11)
    # Two Aces of different suits: 2 -> -2 (and, being of equal rank, a pair: +5).
    assert scored(score, {"c2": "AS"}, "AM", "c3") == parts(basic=-2, pairs=5)


def test_rule_ace_matching_gains_the_sum_when_an_ace_shares_a_suit(score):
    # Ace of Moons next to the Forest (Moons, Leaves): 1 + 5 = 6, shared suit -> +6.
    assert scored(score, {"d3": "5ML"}, "AM", "c3") == parts(basic=6)
    # The same sum without a shared suit loses: the Discovery (Suns, Waves) -> -6.
    assert scored(score, {"d3": "5SW"}, "AM", "c3") == parts(basic=-6)
    # Either card may be the Ace: the Journey (Moons, Waves) placed next to the Ace of Waves.
    assert scored(score, {"c4": "AW"}, "3MW", "c3") == parts(basic=4)
    # Both at once: the Author (2, Moons, Knots) between the Ace of Knots (+3) and the
    # Ace of Suns (-3).
    assert scored(score, {"b3": "AK", "d3": "AS"}, "2MK", "c3") == parts(basic=0)


def test_rule_a_basic_sum_of_ten_scores_zero(score):
    assert scored(score, {"c2": "6MW"}, "4MS", "c3") == parts()
    # Also with an Ace of the same suit: 1 + 9 = 10 is not "9 or less".
    assert scored(score, {"c2": "9MS"}, "AM", "c3") == parts()


@pytest.mark.parametrize(
    "neighbour, card",
    [("6LK", "5ML"), ("9MS", "2MK"), ("CS", "CM"), ("AS", "CM"), ("9WY", "CW")],
)
def test_rule_sums_of_eleven_and_twenty_draw_a_card_and_score_nothing(score, neighbour, card):
    # 5 + 6 = 11, 2 + 9 = 11, 10 + 10 = 20 (two Crowns: also a pair, +5), 1 + 10 = 11
    # (different suits: no power play); 9 + 10 = 19 is not a draw (control): +9.
    expected = {"9WY": parts(basic=9), "CS": parts(pairs=5, draws=1)}.get(neighbour, parts(draws=1))
    assert scored(score, {"b3": neighbour}, card, "c3") == expected


def test_rule_several_draws_in_one_play(score):
    # The Forest (5) with three 6s around it: three draws; the Pact (9) on its left: 14 -> +4.
    cells = {"c2": "6MW", "c4": "6LK", "d3": "6SY", "b3": "9MS"}
    assert scored(score, cells, "5ML", "c3") == parts(basic=4, draws=3)
    # The Huntress (Crown of Moons) among three Aces of other suits and a Crown: 11, 11, 11, 20.
    # The row AL CM CS is no straight (1, 10, 10) and no set; CS is a pair (+5).
    cells = {"c2": "AS", "c4": "AW", "b3": "AL", "d3": "CS"}
    assert scored(score, cells, "CM", "c3") == parts(pairs=5, draws=4)


@pytest.mark.parametrize(
    "neighbour, card, gain",
    [("7SK", "6MW", 3), ("9WY", "3MW", 2), ("CK", "9MS", 9), ("8MS", "7WY", 5)],
)
def test_rule_sums_of_twelve_to_nineteen_gain_the_sum_minus_ten(score, neighbour, card, gain):
    assert scored(score, {"c4": neighbour}, card, "c3") == parts(basic=gain)


def test_rule_diagonal_neighbours_give_no_basic_score(score):
    cells = {"b2": "3MW", "d2": "9WY", "b4": "6LK", "d4": "CS"}
    assert scored(score, cells, "5ML", "c3") == parts()


# ---- pairs ----


def test_rule_a_pair_scores_five_on_top_of_basic_scoring(score):
    # 7 next to 7: 14 -> +4, pair +5.
    assert scored(score, {"c2": "7SK"}, "7ML", "c3") == parts(basic=4, pairs=5)
    # Two pairs in two directions (not in one line): +4 +4, +5 +5.
    assert scored(score, {"c2": "7SK", "b3": "7WY"}, "7ML", "c3") == parts(basic=8, pairs=10)


def test_rule_pairs_inside_a_three_of_a_kind_do_not_count(score):
    # 7 7 [7] in the row: a set (+30), no pairs; basic 14 and 14 -> +4 +4.
    cells = {"b3": "7SK", "d3": "7WY"}
    assert scored(score, cells, "7ML", "c3") == parts(basic=8, sets=30)
    # Extending from the end: 7 7 [7]: only b3 touches c3 -> +4; no pair.
    cells = {"a3": "7SK", "b3": "7WY"}
    assert scored(score, cells, "7ML", "c3") == parts(basic=4, sets=30)
    # A pair in another direction still counts: Crowns CS [CM] CW in the row (a set, 20 + 20:
    # two draws), CL above (20: a draw, and a pair +5).
    cells = {"b3": "CS", "d3": "CW", "c2": "CL"}
    assert scored(score, cells, "CM", "c3") == parts(pairs=5, sets=30, draws=3)


# ---- straights ----


def test_rule_straight_scores_twenty_ascending_or_descending(score):
    # 7 [8] 9 in the row: 15 -> +5, 17 -> +7, straight +20.
    assert scored(score, {"b3": "7SK", "d3": "9WY"}, "8MS", "c3") == parts(basic=12, straights=20)
    # 9 [8] 7: descending left to right.
    assert scored(score, {"b3": "9WY", "d3": "7SK"}, "8MS", "c3") == parts(basic=12, straights=20)
    # At the end of the line: 7 8 [9] ascending (17 -> +7) and 9 8 [7] descending (15 -> +5).
    assert scored(score, {"a3": "7SK", "b3": "8WL"}, "9MS", "c3") == parts(basic=7, straights=20)
    assert scored(score, {"a3": "9WY", "b3": "8WL"}, "7SK", "c3") == parts(basic=5, straights=20)
    # Vertically: 2 above, 4 below the placed 3: 5 -> -5, 7 -> -7.
    assert scored(score, {"c2": "2SY", "c4": "4WL"}, "3MW", "c3") == parts(basic=-12, straights=20)


def test_rule_straight_on_a_diagonal_counts_with_two_to_four_players(score):
    # 7 on b2, 9 on d4, the 8 on c3: no orthogonal neighbour, a diagonal straight.
    assert scored(score, {"b2": "7SK", "d4": "9WY"}, "8MS", "c3") == parts(straights=20)
    # The other diagonal, descending from the bottom-left: 9 on b4, 7 on d2.
    assert scored(score, {"b4": "9WY", "d2": "7SK"}, "8MS", "c3") == parts(straights=20)


def test_rule_extending_a_run_counts_as_a_straight(score):
    # 6 7 8 [9] in the row: the run through the card has four cards: +20; 17 -> +7.
    cells = {"a3": "6MW", "b3": "7SK", "c3": "8WL"}
    assert scored(score, cells, "9MS", "d3") == parts(basic=7, straights=20)


def test_rule_straights_in_two_directions_score_twice(score):
    # Row 7 [8] 9 and column 7 [8] 9: basic 5 + 7 + 5 + 7 = 24, two straights.
    cells = {"b3": "7SK", "d3": "9WY", "c2": "7ML", "c4": "9LK"}
    assert scored(score, cells, "8MS", "c3") == parts(basic=24, straights=40)


def test_rule_the_middle_of_a_four_card_run_is_one_straight(score):
    # 6 7 [8] 9: one straight of four cards, not two overlapping ones. Basic 15, 17 -> +5 +7.
    cells = {"a3": "6MW", "b3": "7SK", "d3": "9WY"}
    assert scored(score, cells, "8MS", "c3") == parts(basic=12, straights=20)


def test_rule_a_line_reading_both_ways_is_still_one_straight(score):
    # 3 4 [5] 4 3: ascending 3-4-5 and descending 5-4-3 in the same row: +20 once.
    # Basic: 4 + 5 = 9 twice -> -18.
    cells = {"a3": "3MW", "b3": "4WL", "d3": "4MS", "e3": "3SK"}
    assert scored(score, cells, "5ML", "c3") == parts(basic=-18, straights=20)


def test_rule_no_wrap_from_crown_to_ace(score):
    # 9 10 [A]: 9, 10, 1 is no straight. Ace + Crown of another suit: 11, a draw.
    assert scored(score, {"a3": "9MS", "b3": "CM"}, "AS", "c3") == parts(draws=1)
    # 10 [A] 2: no straight either. A + 2 of Suns: 3, shared suit -> +3.
    assert scored(score, {"b3": "CM", "d3": "2SY"}, "AS", "c3") == parts(basic=3, draws=1)
    # Control: A 2 [3] is a straight. 2 + 3 = 5 -> -5.
    assert scored(score, {"a3": "AS", "b3": "2SY"}, "3MW", "c3") == parts(basic=-5, straights=20)


def test_rule_ranks_must_step_by_exactly_one(score):
    # 5 [7] 9: steps of two are no straight. 12 -> +2, 16 -> +6.
    assert scored(score, {"b3": "5ML", "d3": "9WY"}, "7SK", "c3") == parts(basic=8)
    # 6 [7] 6: up then down is no straight. 13 -> +3 twice.
    assert scored(score, {"b3": "6MW", "d3": "6SY"}, "7SK", "c3") == parts(basic=6)


def test_rule_a_gap_breaks_a_straight(score):
    # 7 . [9] ... with 8 two cells away: the empty cell between breaks the line.
    assert scored(score, {"a3": "7SK", "b3": "8WL"}, "9MS", "d3") == parts()


def test_rule_no_diagonal_straights_or_sets_in_solitaire(score):
    # 4x4: 7 on a1, 9 on c3, the 8 on b2 (no orthogonal neighbour).
    diagonal_run = {"a1": "7SK", "c3": "9WY"}
    assert scored(score, diagonal_run, "8MS", "b2", side=4, solitaire=True) == parts()
    diagonal_set = {"a1": "4MS", "c3": "4WL"}
    assert scored(score, diagonal_set, "4YK", "b2", side=4, solitaire=True) == parts()
    # The same shapes on the 5x5 grid of 2-4 players count.
    assert scored(score, diagonal_run, "8MS", "b2") == parts(straights=20)
    assert scored(score, diagonal_set, "4YK", "b2") == parts(sets=30)
    # Rows and columns still count in solitaire: 7 [8] 9 in row 2 of the 4x4 grid.
    row = {"a2": "7SK", "c2": "9WY"}
    assert scored(score, row, "8MS", "b2", side=4, solitaire=True) == parts(basic=12, straights=20)


# ---- three of a kind ----


def test_rule_three_of_a_kind_scores_thirty(score):
    # 5 [5] 5 in the column: 10 -> 0 twice, no pairs (both in the set).
    assert scored(score, {"c2": "5ML", "c4": "5YK"}, "5SW", "c3") == parts(sets=30)
    # On a diagonal: no orthogonal neighbours at all.
    assert scored(score, {"b2": "5ML", "d4": "5YK"}, "5SW", "c3") == parts(sets=30)
    # Two sets in two directions: Crowns, row CS [CM] CW and column CL [CM] CY: four 20s (four
    # draws), 60 points, no pairs.
    cells = {"b3": "CS", "d3": "CW", "c2": "CL", "c4": "CY"}
    assert scored(score, cells, "CM", "c3") == parts(sets=60, draws=4)


def test_rule_a_line_that_is_both_a_set_and_a_straight_scores_the_set_only(score):
    # 5 5 [5] 6 7 in the row: the equal run 5 5 5 and the run 5 6 7 both go through the card;
    # one bonus per line: the set (+30). Basic: 5 + 5 = 10 -> 0; 5 + 6 = 11 -> a draw.
    cells = {"a3": "5ML", "b3": "5YK", "d3": "6MW", "e3": "7SK"}
    assert scored(score, cells, "5SW", "c3") == parts(sets=30, draws=1)


# ---- power play ----

MOONS_NUMERALS = ["2MK", "3MW", "4MS", "5ML", "6MW", "7ML", "8MS", "9MS"]  # 2 + ... + 9 = 44
# Cells not touching c3 and not on a line next to it (c2 holds the partner).
FAR_CELLS = ["a1", "b1", "c1", "d1", "e1", "a5", "b5", "c5"]


def test_rule_power_play_with_no_other_card_of_the_suit_scores_zero(score):
    # Ace of Moons next to the Huntress: 11 -> a draw, power 0.
    assert scored(score, {"c2": "CM"}, "AM", "c3") == parts(draws=1)


def test_rule_power_play_scores_every_numeral_of_the_suit_up_to_44(score):
    cells = {"c2": "CM", **dict(zip(FAR_CELLS, MOONS_NUMERALS)), "e5": "2SY", "a3": "CS"}
    # The Desert (Suns, Wyrms) and the Bard (Suns) do not count for Moons.
    assert scored(score, cells, "AM", "c3") == parts(power=44, draws=1)
    # The Crown placed next to the Ace works the same way.
    cells["c2"] = "AM"
    assert scored(score, cells, "CM", "c3") == parts(power=44, draws=1)


def test_rule_power_play_counts_only_the_numerals_on_the_grid(score):
    # The Forest (5, Moons) and the Pact (9, Moons): 14. The Mill (8, Waves/Leaves) not.
    cells = {"c2": "CM", "a1": "5ML", "e5": "9MS", "a5": "8WL"}
    assert scored(score, cells, "AM", "c3") == parts(power=14, draws=1)


def test_rule_no_power_play_with_another_suits_crown_or_ace(score):
    cells = {"c2": "CS", "a1": "5ML", "e5": "9MS"}
    assert scored(score, cells, "AM", "c3") == parts(draws=1)
    # Ace next to Ace of the same suit is impossible; Crown next to another suit's Ace: none.
    cells = {"c2": "AS", "a1": "5ML", "e5": "9MS"}
    assert scored(score, cells, "CM", "c3") == parts(draws=1)


def test_rule_power_play_needs_an_orthogonal_neighbour(score):
    # The Huntress diagonal to the Ace: no basic score, no power play.
    assert scored(score, {"b2": "CM", "a1": "5ML"}, "AM", "c3") == parts()


# ---- the Excuse ----


def test_rule_placing_the_excuse_scores_nothing(score):
    # Around it: a Crown, a 7, a 1 and a 9 would give draws and points to any other card.
    cells = {"c2": "CM", "c4": "7SK", "b3": "AS", "d3": "9MS"}
    assert scored(score, cells, "X", "c3") == parts()


def test_rule_the_excuse_gives_its_neighbour_no_basic_score(score):
    # 4 next to the Excuse: no "4 + 0 = 4 -> -4", nothing; no pair either.
    assert scored(score, {"c2": "X"}, "4MS", "c3") == parts()


def test_rule_the_excuse_breaks_runs_and_sets(score):
    # 7 X [8] 9: the X breaks the line; 8 9 alone is no straight. 17 -> +7.
    assert scored(score, {"a3": "7SK", "b3": "X", "d3": "9WY"}, "8MS", "c3") == parts(basic=7)
    # 5 X [5] 5: no set, one pair (+5); 10 -> 0.
    assert scored(score, {"a3": "5ML", "b3": "X", "d3": "5YK"}, "5SW", "c3") == parts(pairs=5)


# ---- bad input ----


def test_score_placement_rejects_bad_input(score):
    with pytest.raises(ValueError):
        score(grid({"c3": "AM"}), "AS", (2, 2))  # occupied
    with pytest.raises(ValueError):
        score(grid({}), "ZZ", (2, 2))  # unknown card
    with pytest.raises(ValueError):
        score([[None] * 5] * 4, "AS", (0, 0))  # not square
    with pytest.raises(ValueError):
        score([[None] * 3] * 3, "AS", (0, 0))  # 3x3


# ---- positions for the game rules ----


def position(cells: dict, hands: list, *, turn: str, scores: str, side: int = 5,
             excuse: bool = False, rnd: str = "1/1", fill: bool = False, keep=()) -> str:
    """The notation of a position. ``cells``: {name: code, or None for a cell left empty};
    ``hands``: each player's codes. With ``fill``, every cell not named in ``cells`` gets the
    next unused card (lowest index first, never one of ``keep``). The pile is every card left."""
    deck = CODES if excuse else CODES[:36]
    names = [col + str(row + 1) for row in range(side) for col in "abcdefghi"[:side]]
    used = {c for c in cells.values() if c} | {c for h in hands for c in h}
    spare = [c for c in deck if c not in used and c not in keep]
    placed = {}
    for name in names:
        if name in cells:
            placed[name] = cells[name]
        elif fill:
            placed[name] = spare.pop(0)
        else:
            placed[name] = None
    pile = [c for c in deck if c not in used and c not in placed.values()]
    order = {c: i for i, c in enumerate(CODES)}

    def codes(cards) -> str:
        return ",".join(sorted(cards, key=order.__getitem__)) or "-"

    rows = "/".join(
        ",".join(placed[name] or "." for name in names[r * side:(r + 1) * side])
        for r in range(side)
    )
    return f"{rows} {'|'.join(codes(h) for h in hands)} {codes(pile)} {scores} {turn} {rnd}"


def unused(excluded, n: int, excuse: bool = False) -> list:
    """The first ``n`` cards of the deck not in ``excluded``."""
    deck = CODES if excuse else CODES[:36]
    return [c for c in deck if c not in excluded][:n]


# The last empty cell b1 is surrounded by 6s (a1, c1, b2), with Crowns on its diagonals a2 and c2:
# the Mountain (4) placed there scores 10, 10, 10 -> 0, no line, nothing.
LAST_CELL_AROUND = {"a1": "6MW", "c1": "6SY", "b2": "6LK", "a2": "CM", "c2": "CS", "b1": None}


# ---- hand penalties and the end of a round ----


@pytest.mark.parametrize(
    "left, penalty",
    [(["AK"], 15), (["CY"], 10), (["7WY"], 7), (["2MK", "9LK"], 11), (["X"], 0), ([], 0)],
)
def test_rule_hand_penalty_ace_15_crown_10_numeral_its_rank_excuse_0(make, left, penalty):
    g = make(players=2, excuse=True)
    text = position(LAST_CELL_AROUND, [["4MS", "AM"], left], turn="0", scores="3,-4",
                    excuse=True, fill=True)
    s = play(g.from_notation(text), "4MS b1")
    assert s.is_terminal and s.current_player == TERMINAL
    # Player 0: 3 + 0 (the placement) - 15 (the Ace of Moons left); player 1: -4 - penalty.
    assert s.scores() == [3 - 15, -4 - penalty]
    assert s.returns() == [float(3 - 15), float(-4 - penalty)]
    assert s.notation().split(" ")[4:] == ["end", "1/1"]


def test_rule_scores_before_the_end_have_no_penalty_yet(make):
    g = make(players=2, excuse=True)
    cells = dict(LAST_CELL_AROUND, d5=None)  # two empty cells: b1 and d5
    text = position(cells, [["4MS", "AM"], ["CY"]], turn="0", scores="3,-4", excuse=True,
                    fill=True)
    s = play(g.from_notation(text), "4MS b1")
    assert not s.is_terminal and s.current_player == 1
    assert s.scores() == [3, -4]


def test_rule_the_draws_of_the_placement_that_fills_the_grid_are_taken_and_cost_penalty(make):
    # The Forest (5) on b1: the Lunatic (6) on a1 -> 11, a draw; Crowns on c1 and b2 -> 15, 15
    # -> +5 +5. Row 6 [5] 10 and column 5 10: no straight. Diagonals a2, c2: Crowns again.
    g = make(players=2)
    cells = {"a1": "6MW", "c1": "CY", "b2": "CW", "a2": "CL", "c2": "CK", "b1": None}
    text = position(cells, [["5ML"], ["2MK"]], turn="0", scores="0,0", fill=True, keep=["AM"])
    pile = text.split(" ")[2].split(",")
    assert len(pile) == 36 - 24 - 2 and "AM" in pile
    s = play(g.from_notation(text), "5ML b1")
    assert s.is_chance and s.notation().split(" ")[4] == "0+1"
    assert s.scores() == [10, 0]
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == sorted(37 * 25 + CODES.index(c) for c in pile)
    assert all(p == pytest.approx(1 / len(pile)) for _, p in outcomes)
    s = play(s, "draw AM")  # the Ace of Moons comes: it costs 15
    assert s.is_terminal
    assert s.scores() == [10 - 15, -2]


def test_rule_the_game_is_one_round_without_match(make):
    g = make(players=3)
    text = position(LAST_CELL_AROUND, [["4MS"], [], ["9LK"]], turn="0", scores="0,0,0",
                    fill=True)
    s = play(g.from_notation(text), "4MS b1")
    assert s.is_terminal and s.scores() == [0, 0, -9]


# ---- passing and drawing ----


def test_rule_a_player_with_an_empty_hand_passes(make):
    # Three players, player 1 has no cards: after player 0 comes player 2, then player 0 again.
    g = make(players=3)
    corners = {"a1": "AM", "e1": "AS", "a5": "AW", "e5": "AL"}
    p0 = unused(corners.values(), 11)
    p2 = unused(list(corners.values()) + p0, 10)
    s = g.from_notation(position(corners, [p0, [], p2], turn="0", scores="0,0,0"))
    assert s.current_player == 0
    s = play(s, f"{p0[0]} c3")  # no neighbour: nothing scored, nothing drawn
    assert s.current_player == 2
    s = play(s, f"{p2[0]} b2")  # no neighbour
    assert s.current_player == 0
    assert s.scores() == [0, 0, 0]


def test_rule_drawing_from_an_empty_pile_does_nothing(make):
    # The Forest (5) on c1 next to the Lunatic (6) on c2: 11, a draw; the pile is empty.
    # Column 5 6 10 (the Huntress on c3): no straight.
    g = make(players=2)
    cells = {"a1": "AS", "e1": "AW", "c3": "CM", "a5": "AL", "e5": "AY", "c2": "6MW"}
    p0 = ["5ML"] + unused(list(cells.values()) + ["5ML"], 14)
    p1 = unused(list(cells.values()) + p0, 15)
    s = g.from_notation(position(cells, [p0, p1], turn="0", scores="0,0"))
    assert s.notation().split(" ")[2] == "-"
    s = play(s, "5ML c1")
    assert not s.is_chance and s.current_player == 1
    assert len(s.hand(0)) == 14
    assert s.notation().split(" ")[3:] == ["0,0", "1", "1/1"]


def test_rule_draws_beyond_the_pile_are_dropped(make):
    # The Huntress on c1 between the Aces of Suns (b1) and Wyrms (d1): 11 and 11, two draws;
    # the Soldier (5) below: 15 -> +5. The pile holds one card: one draw, then player 1.
    g = make(players=2)
    cells = {"a1": "2MK", "e1": "2SY", "c3": "2WL", "a5": "3MW", "e5": "3SK",
             "b1": "AS", "d1": "AY", "c2": "5YK"}
    p0 = ["CM"] + unused(list(cells.values()) + ["CM"], 13)
    p1 = unused(list(cells.values()) + p0, 13)
    text = position(cells, [p0, p1], turn="0", scores="0,0")
    pile = text.split(" ")[2].split(",")
    assert len(pile) == 1
    s = play(g.from_notation(text), "CM c1")
    assert s.is_chance and s.current_player == CHANCE
    assert s.notation().split(" ")[3:] == ["5,0", "0+1", "1/1"]
    assert s.chance_outcomes() == [(37 * 25 + CODES.index(pile[0]), 1.0)]
    assert moves(s) == [f"draw {pile[0]}"]
    s = play(s, f"draw {pile[0]}")
    assert s.current_player == 1 and len(s.hand(0)) == 14
    assert pile[0] in s.hand(0)


def test_rule_draws_go_to_the_placer_before_the_next_player_moves(make):
    # Two draws from a big pile: both chance nodes come before player 1 places.
    g = make(players=2)
    cells = {"a1": "2MK", "e1": "2SY", "c3": "2WL", "a5": "3MW", "e5": "3SK",
             "b1": "AS", "d1": "AY", "c2": "5YK"}
    p0 = ["CM"] + unused(list(cells.values()) + ["CM"], 9)
    p1 = unused(list(cells.values()) + p0, 10)
    s = play(g.from_notation(position(cells, [p0, p1], turn="0", scores="0,0")), "CM c1")
    assert s.notation().split(" ")[4] == "0+2"
    first = s.legal_actions()[0]
    s = s.play(first)
    assert s.is_chance and s.notation().split(" ")[4] == "0+1"
    s = s.play(s.legal_actions()[-1])
    assert s.current_player == 1 and len(s.hand(0)) == 10 - 1 + 2


# ---- solitaire ----


# The seed's goal in solitaire.
LOSE = "If you run out of cards before completing the spread, you lose."
# A lost game returns this: one below the lowest score a completed game can have, -222
# (docs/rules/quincunx.md, *Solitaire*).
LOST_RETURN = -223.0


def test_rule_solitaire_is_lost_when_the_hand_runs_out(make):
    # The seed: "If you run out of cards before completing the spread, you lose."
    # Two empty cells, b1 and c4; the last card goes on b1 and scores nothing, draws nothing.
    g = make(players=1)
    cells = dict(LAST_CELL_AROUND, c4=None)
    s = g.from_notation(position(cells, [["4MS"]], turn="0", scores="12", side=4, fill=True))
    s = play(s, "4MS b1")
    assert s.is_terminal and s.lost()
    # The turn points stay readable as the score; the return is the loss.
    assert s.scores() == [12]
    assert s.returns() == [LOST_RETURN]


def test_rule_solitaire_a_loss_returns_less_than_any_completed_game(make):
    # The seed: "If you run out of cards before completing the spread, you lose." A loss at
    # 101 turn points against a completed spread at -70: the completed one returns more.
    g = make(players=1)
    cells = dict(LAST_CELL_AROUND, c4=None)
    lost = play(g.from_notation(position(cells, [["4MS"]], turn="0", scores="101", side=4,
                                         fill=True)), "4MS b1")
    done = play(g.from_notation(position(LAST_CELL_AROUND, [["4MS"]], turn="0", scores="-70",
                                         side=4, fill=True)), "4MS b1")
    assert lost.lost() and not done.lost() and lost.is_terminal and done.is_terminal
    assert lost.scores() == [101] and done.scores() == [-70]
    assert lost.returns() == [LOST_RETURN] < done.returns() == [-70.0]


@needs_engine
def test_rule_solitaire_returns_range_from_the_loss_to_the_highest_score():
    # The seed: "If you run out of cards before completing the spread, you lose." The range
    # of returns: a loss (-223) below the lowest completed score; the highest score a game can
    # reach, 24 edges x 13 + 12 line bonuses x 30 + 6 power plays x 44 = 936.
    info = quanta.game("quincunx", players=1).info
    assert (info.min_return, info.max_return) == (LOST_RETURN, 24 * 13 + 12 * 30 + 6 * 44)


# Two empty cells, b1 and c4, and one card, the Diplomat (8). On b1 it draws (next to the
# Painter, 3: 11) and scores nothing (next to two 2s: 10, 10); on c4 it scores 9 + 8 + 7 -> +7,
# +5 (d4) +7 (c3) and the straight 9-8-7 on row 4, +20, but draws nothing: the game is lost.
DRAW_OR_LOSE = {"a1": "3SK", "c1": "2MK", "b2": "2SY", "b1": None, "c4": None, "b4": "9LK",
                "d4": "7SK", "c3": "9WY"}


@needs_engine
def test_rule_solitaire_players_rank_going_on_above_a_loss_of_more_points():
    # The seed: "If you run out of cards before completing the spread, you lose." Every player
    # that goes by returns draws on b1 rather than scoring 39 or more on c4 and losing.
    from quanta import bots, quincunx, solvers

    g = quanta.game("quincunx", players=1)
    s = g.from_notation(position(DRAW_OR_LOSE, [["8MS"]], turn="0", scores="0", side=4,
                                 fill=True))
    draw, lose = s.parse_action("8MS b1"), s.parse_action("8MS c4")
    assert s.play(lose).lost() and s.play(lose).scores()[0] >= 39
    assert s.play(lose).returns() < s.play(draw).returns()
    assert solvers.greedy_move(s) == draw
    assert bots.Greedy().choose(s) == draw
    assert bots.MCTS(iterations=200).choose(s) == draw
    assert bots.ISMCTS(iterations=200).choose(s) == draw
    assert quincunx.best_move(s, seed=0) == draw
    assert bots.Best().choose(s) == draw
    assert quincunx.solve_expected(s).best_action == draw


def test_rule_solitaire_goes_on_while_draws_refill_the_hand(make):
    # The Diplomat (8) on b1: the Painter (3) on a1 -> 11, a draw; 2s on c1 and b2 -> 10, 10.
    g = make(players=1)
    cells = {"a1": "3SK", "c1": "2MK", "b2": "2SY", "a2": "CM", "c2": "CS", "b1": None,
             "c4": None}
    text = position(cells, [["8MS"]], turn="0", scores="0", side=4, fill=True, keep=["CK"])
    s = play(g.from_notation(text), "8MS b1")
    assert s.is_chance and not s.is_terminal and s.scores() == [0]
    s = play(s, "draw CK")
    assert s.current_player == 0 and s.hand(0) == ["CK"] and not s.lost()


def test_rule_solitaire_won_scores_turn_points_minus_the_hand_penalty(make):
    g = make(players=1)
    text = position(LAST_CELL_AROUND, [["4MS", "AM"]], turn="0", scores="20", side=4, fill=True)
    s = play(g.from_notation(text), "4MS b1")  # scores nothing (see LAST_CELL_AROUND)
    assert s.is_terminal and not s.lost()
    assert s.returns() == [20.0 - 15]


def test_rule_solitaire_uses_a_4x4_grid_corners_and_a_hand_of_8(make):
    s = make(players=1).new_state()
    for _ in range(4 + 8):
        assert s.is_chance
        s = s.play(s.legal_actions()[0])
    assert s.current_player == 0
    assert [c for row in s.grid() for c in row] == [
        "AM", None, None, "AS", None, None, None, None, None, None, None, None,
        "AW", None, None, "AL"]
    assert s.hand(0) == CODES[4:12]
    assert len(s.legal_actions()) == 8 * 12


def test_rule_solitaire_has_no_match(make):
    with pytest.raises(InvalidOptionError):
        make(players=1, match=True)
    with pytest.raises(InvalidOptionError):
        make(players=5)
    with pytest.raises(InvalidOptionError):
        make(players=0)


# ---- setup, deal and match ----


@pytest.mark.parametrize(
    "players, starts, hand",
    [(2, ["a1", "e1", "c3", "a5", "e5"], 10), (3, ["a1", "e1", "a5", "e5"], 7),
     (4, ["a1", "e1", "c3", "a5", "e5"], 6)],
)
def test_rule_deal_start_cells_then_hands_first_player_first(make, players, starts, hand):
    s = make(players=players).new_state()
    assert s.is_chance and s.current_player == CHANCE
    assert s.chance_outcomes() == [(37 * 25 + k, pytest.approx(1 / 36)) for k in range(36)]
    assert moves(s)[0] == "deal AM"
    # Always deal the lowest card: start cells get AM, AS, ... in increasing cell order.
    for k in range(len(starts) + players * hand):
        assert s.is_chance
        assert len(s.legal_actions()) == 36 - k
        s = s.play(s.legal_actions()[0])
    rows = s.grid()
    for k, name in enumerate(starts):
        row, col = rc(name)
        assert rows[row][col] == CODES[k]
    dealt = len(starts)
    for p in range(players):
        assert s.hand(p) == CODES[dealt + p * hand: dealt + (p + 1) * hand]
    assert s.current_player == 0
    assert len(s.notation().split(" ")[2].split(",")) == 36 - dealt - players * hand


def test_rule_match_rotates_the_dealer_and_totals_carry_on(make):
    # Two players, round 1 of 2 ends: penalties (player 0 keeps the Ace of Moons: -15; player 1
    # the Calamity: -10), the grid is cleared, and round 2 is dealt with player 1 first.
    g = make(players=2, match=True)
    text = position(LAST_CELL_AROUND, [["4MS", "AM"], ["CY"]], turn="0", scores="3,-4",
                    fill=True, rnd="1/2")
    s = play(g.from_notation(text), "4MS b1")
    empty = "/".join([",".join(["."] * 5)] * 5)
    assert s.notation() == f"{empty} -|- {','.join(CODES[:36])} -12,-14 deal 2/2"
    assert s.is_chance and not s.is_terminal
    for _ in range(5 + 1):  # the start cells, then the first card of the hands
        s = s.play(s.legal_actions()[0])
    assert s.hand(1) == [CODES[5]] and s.hand(0) == []
    while s.is_chance:
        s = s.play(s.legal_actions()[0])
    assert s.current_player == 1 and len(s.hand(0)) == len(s.hand(1)) == 10


def test_rule_match_of_three_players_third_round_starts_with_player_2(make):
    g = make(players=3, match=True)
    text = position(LAST_CELL_AROUND, [["4MS"], ["AK"], []], turn="0", scores="1,2,3",
                    fill=True, rnd="2/3")
    s = play(g.from_notation(text), "4MS b1")
    assert s.notation().split(" ")[3:] == ["1,-13,3", "deal", "3/3"]
    while s.is_chance:
        s = s.play(s.legal_actions()[0])
    assert s.current_player == 2
    assert s.hand(2) == CODES[4:11]


def test_rule_the_last_round_of_a_match_ends_the_game(make):
    g = make(players=2, match=True)
    text = position(LAST_CELL_AROUND, [["CY"], ["4MS"]], turn="1", scores="3,-4", fill=True,
                    rnd="2/2")
    s = play(g.from_notation(text), "4MS b1")
    # Player 0 keeps the Calamity: 3 - 10; player 1 scores 0 and keeps nothing.
    assert s.is_terminal and s.returns() == [3.0 - 10, -4.0]


# ---- actions, notation, observation ----


def test_action_ids_and_strings(make):
    g = make(players=2)
    assert g.num_actions == 37 * 25 + 37
    corners = {"a1": "AM", "e1": "AS", "c3": "CK", "a5": "AW", "e5": "AL"}
    p0 = ["2MK"] + unused(list(corners.values()) + ["2MK"], 9)
    p1 = unused(list(corners.values()) + p0, 10)
    s = g.from_notation(position(corners, [p0, p1], turn="0", scores="0,0"))
    a = CODES.index("2MK") * 25 + 1  # b1
    assert s.action_to_string(a) == "2MK b1" and s.parse_action("2MK b1") == a
    assert s.parse_action("  2MK b1 ") == a
    assert len(s.legal_actions()) == 10 * 20 and list(s.legal_actions()) == sorted(s.legal_actions())
    with pytest.raises(IllegalMoveError):
        s.parse_action("2MK a1")  # occupied
    with pytest.raises(IllegalMoveError):
        s.play(CODES.index(p1[0]) * 25 + 1)  # not in the mover's hand
    with pytest.raises(IllegalMoveError):
        s.play(37 * 25 + 6)  # a chance outcome at a decision


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "x",
        # a card twice (AM on the grid and in the pile)
        "AM,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. -|- "
        + ",".join(CODES[:36]) + " 0,0 deal 1/1",
        # a card missing (no CK)
        ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. -|- "
        + ",".join(CODES[:35]) + " 0,0 deal 1/1",
        # an unknown code
        ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. -|- "
        + ",".join(CODES[:35] + ["CZ"]) + " 0,0 deal 1/1",
        # three hands in a two-player game
        ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. -|-|- "
        + ",".join(CODES[:36]) + " 0,0 deal 1/1",
        # round 2 of 1
        ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. -|- "
        + ",".join(CODES[:36]) + " 0,0 deal 2/1",
        # a 4x4 grid for two players
        ".,.,.,./.,.,.,./.,.,.,./.,.,.,. -|- " + ",".join(CODES[:36]) + " 0,0 deal 1/1",
    ],
)
def test_bad_notation_is_rejected(make, bad):
    with pytest.raises(InvalidNotationError):
        make(players=2).from_notation(bad)


def test_notation_with_hands_that_cannot_fill_the_grid_is_rejected(make):
    # Two players, 20 empty cells, 19 cards in hand: no real game gets there (the deal covers the
    # empty cells and each placement uses one card for one cell), and it could never end.
    starts = {"a1": "AM", "e1": "AS", "c3": "AW", "a5": "AL", "e5": "AY"}
    g = make(players=2)
    with pytest.raises(InvalidNotationError):
        g.from_notation(position(starts, [CODES[5:24], []], turn="0", scores="0,0"))
    assert g.from_notation(position(starts, [CODES[5:25], []], turn="0", scores="0,0"))


def test_the_start_notation(make):
    s = make(players=2).new_state()
    empty = "/".join([",".join(["."] * 5)] * 5)
    assert s.notation() == f"{empty} -|- {','.join(CODES[:36])} 0,0 deal 1/1"
    s = make(players=1, excuse=True).new_state()
    empty = "/".join([",".join(["."] * 4)] * 4)
    assert s.notation() == f"{empty} - {','.join(CODES)} 0 deal 1/1"


def test_observation_shows_only_the_players_own_hand(make):
    g = make(players=3)
    corners = {"a1": "AM", "e1": "AS", "a5": "AW", "e5": "AL"}
    p0 = unused(corners.values(), 7)
    p1 = unused(list(corners.values()) + p0, 7)
    p2 = unused(list(corners.values()) + p0 + p1, 7)
    pile = unused(list(corners.values()) + p0 + p1 + p2, 99)
    s = g.from_notation(position(corners, [p0, p1, p2], turn="0", scores="0,0,0"))
    for p, hand in enumerate([p0, p1, p2]):
        seen = set(re.split(r"[ ,|/:\n]+", s.observation_string(p)))
        assert set(hand) <= seen
        assert not seen & (set(p0 + p1 + p2 + pile) - set(hand))
    # Swapping a card between player 1's hand and the pile: player 0 cannot tell.
    p1_swapped = p1[1:] + [pile[0]]
    t = g.from_notation(position(corners, [p0, p1_swapped, p2], turn="0", scores="0,0,0"))
    assert t.observation_string(0) == s.observation_string(0)
    assert t.observation_string(2) == s.observation_string(2)
    assert t.observation_string(1) != s.observation_string(1)


# ---- the book setup (2-3 players, one start card, the grid grows up to 5x5) ----
#
# The table is a 9x9 board (cells a1..i9), the start card on its middle e5.

BOOK = 9


def book_position(cells: dict, hands: list, *, turn: str = "0", scores: str = "0,0",
                  **kw) -> str:
    return position(cells, hands, turn=turn, scores=scores, side=BOOK, **kw)


def book_hands(cells: dict, sizes: list) -> list:
    """Hands of the given sizes from the lowest cards not on the grid."""
    out, used = [], list(cells.values())
    for size in sizes:
        out.append(unused(used, size))
        used += out[-1]
    return out


def cells_named(actions: list) -> list:
    """The cell names of placements (card * 81 + cell) in first-seen order."""
    names = []
    for a in actions:
        row, col = divmod(a % 81, 9)
        name = "abcdefghi"[col] + str(row + 1)
        if name not in names:
            names.append(name)
    return names


@pytest.mark.parametrize("options", [dict(players=1), dict(players=4), dict(setup="bok"),
                                     dict(players=4, excuse=True)])
def test_rule_book_is_for_two_or_three_players(make, options):
    options = {"setup": "book", **options}
    with pytest.raises(InvalidOptionError):
        make(**options)


@pytest.mark.parametrize("players, hand", [(2, 12), (3, 8)])
def test_rule_book_deals_one_start_card_in_the_middle_and_hands_of_12_or_8(make, players, hand):
    g = make(players=players, setup="book")
    assert g.num_actions == 37 * 81 + 37
    s = g.new_state()
    empty = "/".join([",".join(["."] * 9)] * 9)
    zeros = ",".join(["0"] * players)
    hands = "|".join(["-"] * players)
    assert s.notation() == f"{empty} {hands} {','.join(CODES[:36])} {zeros} deal 1/1"
    assert s.chance_outcomes() == [(37 * 81 + k, pytest.approx(1 / 36)) for k in range(36)]
    for k in range(1 + players * hand):
        assert s.is_chance
        s = s.play(s.legal_actions()[0])
    rows = s.grid()
    assert len(rows) == 9 and all(len(row) == 9 for row in rows)
    assert rows[4][4] == "AM"  # the start card, face up on e5
    assert sum(code is not None for row in rows for code in row) == 1
    for p in range(players):
        assert s.hand(p) == CODES[1 + p * hand: 1 + (p + 1) * hand]
    assert len(s.pile()) == 36 - 1 - players * hand
    assert s.current_player == 0
    # The first card goes edge to edge with the start card.
    assert cells_named(s.legal_actions()) == ["e4", "d5", "f5", "e6"]
    assert len(s.legal_actions()) == 4 * hand


def test_rule_book_a_card_must_touch_a_placed_card_edge_to_edge(make):
    g = make(players=2, setup="book")
    cells = {"e5": "AM", "f5": "AS"}
    s = g.from_notation(book_position(cells, book_hands(cells, [12, 11])))
    # Orthogonal neighbours of e5 and f5 only: a diagonal contact (d4, g6) is not enough.
    assert cells_named(s.legal_actions()) == ["e4", "f4", "d5", "g5", "e6", "f6"]
    for far in ("AW d4", "AW g6", "AW a1", "AW e5"):
        with pytest.raises(IllegalMoveError):
            s.parse_action(far)
    s = play(s, "AW g5")
    assert s.grid()[4][4:7] == ["AM", "AS", "AW"]


def test_rule_book_the_grid_stays_within_a_5x5_square(make):
    g = make(players=2, setup="book")
    row = {"c5": "2MK", "d5": "2SY", "e5": "2WL", "f5": "3MW", "g5": "3SK"}
    s = g.from_notation(book_position(row, book_hands(row, [10, 10])))
    # Five columns are used up: b5 and h5 would make six; the rows may still grow.
    assert cells_named(s.legal_actions()) == ["c4", "d4", "e4", "f4", "g4",
                                              "c6", "d6", "e6", "f6", "g6"]
    # A column of three above and below: rows 3..7 used, the square is fixed.
    square = dict(row, e3="4MS", e4="4WL", e6="4YK", e7="5ML")
    s = g.from_notation(book_position(square, book_hands(square, [10, 10])))
    legal = cells_named(s.legal_actions())
    assert "e2" not in legal and "e8" not in legal and "b5" not in legal
    assert legal == ["d3", "f3", "c4", "d4", "f4", "g4", "c6", "d6", "f6", "g6", "d7", "f7"]


def test_rule_book_the_round_ends_with_25_cards(make):
    # The 5x5 square c3..g7 full but for d3 (the wiki test's b1 corner, moved): the Mountain on
    # d3 scores 10, 10, 10 -> 0 and ends the round; penalties as in the wiki game.
    around = {"c3": "6MW", "e3": "6SY", "d4": "6LK", "c4": "CM", "e4": "CS", "d3": None}
    square = [c + str(r) for r in range(3, 8) for c in "cdefg"]
    g = make(players=2, setup="book", excuse=True)
    hands = [["4MS", "AM"], ["X", "CY"]]
    used = [c for c in around.values() if c] + [c for h in hands for c in h]
    spare = unused(used, 25 - 6)
    cells = dict(around)
    for name in square:
        if name not in cells:
            cells[name] = spare.pop(0)
    s = g.from_notation(book_position(cells, hands, scores="3,-4", excuse=True))
    assert not s.is_terminal
    s = play(s, "4MS d3")
    assert s.is_terminal
    # Player 0: 3 + 0 - 15 (the Ace of Moons); player 1: -4 - 10 (Calamity) - 0 (Excuse).
    assert s.scores() == [3 - 15, -4 - 10]
    assert s.notation().split(" ")[4:] == ["end", "1/1"]


def test_rule_book_scores_lines_as_on_the_5x5_grid(make):
    # g5 gets the Chance Meeting (7): row e5-f5-g5 = 5, 6, 7 (straight +20), diagonal e3-f4-g5
    # = 7, 7, 7 (three of a kind +30), basic with f5: 7 + 6 = 13 -> +3; f4 is diagonal: no
    # basic, no pair. 53 in all.
    g = make(players=2, setup="book")
    cells = {"e5": "5SW", "f5": "6MW", "e4": "2MK", "f4": "7SK", "e3": "7WY"}
    hands = [["7ML"] + unused(list(cells.values()) + ["7ML"], 11), []]
    hands[1] = unused(list(cells.values()) + hands[0], 9)
    s = play(g.from_notation(book_position(cells, hands, scores="0,0")), "7ML g5")
    assert s.scores() == [53, 0]


def test_rule_book_match_deals_a_new_start_card(make):
    g = make(players=2, setup="book", match=True)
    around = {"c3": "6MW", "e3": "6SY", "d4": "6LK", "c4": "CM", "e4": "CS", "d3": None}
    square = [c + str(r) for r in range(3, 8) for c in "cdefg"]
    hands = [["4MS"], []]
    spare = unused([c for c in around.values() if c] + ["4MS"], 19)
    cells = dict(around)
    for name in square:
        if name not in cells:
            cells[name] = spare.pop(0)
    s = play(g.from_notation(book_position(cells, hands, scores="1,2", rnd="1/2")), "4MS d3")
    empty = "/".join([",".join(["."] * 9)] * 9)
    assert s.notation() == f"{empty} -|- {','.join(CODES[:36])} 1,2 deal 2/2"
    while s.is_chance:
        s = s.play(s.legal_actions()[0])
    assert s.grid()[4][4] == "AM" and s.current_player == 1
    assert s.hand(1) == CODES[1:13] and s.hand(0) == CODES[13:25]


@pytest.mark.parametrize(
    "cells, why",
    [
        ({"e5": "AM", "g5": "AS"}, "not connected"),
        ({"e5": "AM", "e6": "AS", "f6": "AW", "f7": "AL"}, None),  # a fine staircase
        ({c + "5": CODES[k] for k, c in enumerate("abcdef")}, "six columns"),
        ({"e" + str(r): CODES[r] for r in range(2, 8)}, "six rows"),
        ({"d5": "AM"}, "the middle empty"),
        ({"d4": "AM", "e5": "AS"}, "diagonal only"),
    ],
)
def test_book_notation_checks_the_grid_grew_edge_to_edge_within_5x5(make, cells, why):
    g = make(players=2, setup="book")
    text = book_position(cells, book_hands(cells, [12, 12]))
    if why is None:
        assert g.from_notation(text).notation() == text
    else:
        with pytest.raises(InvalidNotationError):
            g.from_notation(text)


def test_book_notation_rejects_a_wiki_grid_and_too_few_cards_in_hand(make):
    g = make(players=2, setup="book")
    wiki = position({}, [[], []], turn="deal", scores="0,0")
    with pytest.raises(InvalidNotationError):
        g.from_notation(wiki)
    cells = {"e5": "AM"}
    with pytest.raises(InvalidNotationError):  # 24 cells to fill, 23 cards in hand
        g.from_notation(book_position(cells, book_hands(cells, [12, 11])))
    assert g.from_notation(book_position(cells, book_hands(cells, [12, 12])))


# ---- score_placement: the engine against the reference on random grids ----


@st.composite
def placements(draw):
    """(grid, card, (row, col), solitaire): distinct cards on a 4x4 or 5x5 grid.
    The placed card and the cells nearest to it often come from a narrow band of ranks (or one
    suit's cards), so that pairs, straights, sets and power plays come up; other cards fill in
    anywhere."""
    side = draw(st.sampled_from([4, 5]), label="side")
    deck = CODES if draw(st.booleans(), label="excuse") else CODES[:36]
    band = draw(st.sampled_from(["all", "narrow", "narrow", "power"]), label="band")
    chosen = deck
    if band == "narrow":
        low = draw(st.integers(1, 9), label="low")
        ranks = range(low, low + draw(st.integers(1, 3), label="width"))
        rank_of = {**{c: int(c[0]) for c in deck if c[0].isdigit()}, "X": 0}
        chosen = [c for c in deck
                  if rank_of.get(c, 1 if c[0] == "A" else 10) in ranks or c == "X"]
    elif band == "power":
        suit = draw(st.sampled_from("MSWLYK"), label="suit")
        chosen = [c for c in deck if suit in c[1:] or c == "X"]
    chosen = draw(st.permutations(chosen), label="band cards")
    cells = side * side
    target = draw(st.integers(0, cells - 1), label="cell")
    tie = draw(st.permutations(range(cells)), label="tie-break")

    def distance(cell: int) -> int:
        return max(abs(cell // side - target // side), abs(cell % side - target % side))

    near = sorted((c for c in range(cells) if c != target), key=lambda c: (distance(c), tie[c]))
    k = draw(st.integers(0, min(len(chosen) - 1, cells - 1)), label="near cards")
    rows = [[None] * side for _ in range(side)]
    for card, cell in zip(chosen[1:k + 1], near):
        rows[cell // side][cell % side] = card
    others = draw(st.permutations([c for c in deck if c not in chosen[:k + 1]]), label="others")
    free = [c for c in tie if c != target and rows[c // side][c % side] is None]
    m = draw(st.integers(0, min(len(free), len(others))), label="other cards")
    for card, cell in zip(others[:m], free):
        rows[cell // side][cell % side] = card
    # Mostly the real pairings (4x4 solitaire, 5x5 with diagonals), sometimes the other two:
    # the flag alone decides whether diagonals count.
    solitaire = side == 4 if draw(st.integers(0, 3), label="usual") else draw(st.booleans())
    return rows, chosen[0], divmod(target, side), solitaire


def breakdown(p) -> tuple:
    return (p.basic, p.pairs, p.straights, p.sets, p.power, p.draws, p.points)


@needs_engine
@settings(max_examples=max(200, settings.default.max_examples * 5))
@given(placements())
def test_rust_and_reference_score_placements_alike(placement):
    import quanta.quincunx as qx

    rows, card, cell, solitaire = placement
    assert breakdown(qx.score_placement(rows, card, cell, solitaire=solitaire)) == breakdown(
        ref.score_placement(rows, card, cell, solitaire=solitaire)
    )
