"""A Quantum Leap: the rules, each test naming the rule it checks, run against both the Rust
engine and the pure-Python reference; then notation round trips along random games and the
hidden-information layer.

Every expected value in the rule tests is worked out by hand from docs/rules/a_quantum_leap.md
(the arithmetic is written next to it), never copied from the implementation.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import types

import quanta
from quanta.exceptions import IllegalMoveError, InvalidNotationError, InvalidOptionError
from helpers import aql_display
from quanta.reference import a_quantum_leap as reference

#: The Rust engine behind the reference's module-level names.
ENGINE = types.SimpleNamespace(
    game=lambda **options: quanta.game("a_quantum_leap", **options),
    score_placement=quanta.a_quantum_leap.score_placement,
    CHANCE=quanta.CHANCE,
    TERMINAL=quanta.TERMINAL,
)
ref = reference  # the implementation under test; the fixture below sets it for each test


@pytest.fixture(autouse=True, params=["reference", "rust"])
def implementation(request):
    """Every test runs on both implementations."""
    global ref
    ref = reference if request.param == "reference" else ENGINE
    yield request.param
    ref = reference


def test_score_placement_takes_a_twin_with_two_packs():
    """Rule (two packs): "The four suits have no significance in the play of game": a card may
    go beside or on its twin, which counts as an equal rank; a pack holds one of each card."""
    d = [["5H", "QH", "5D"], ["4H", "5C", "9D"], ["4D", "5S", "KH"]]
    with pytest.raises(InvalidOptionError, match="one pack holds one"):
        ref.score_placement(d, "5H", "a3", "ascending")
    # 4H on its twin at a2 scores as 4S there would: suits do not count.
    twin = ref.score_placement(d, "4H", "a2", "free", rule="equal", packs=2)
    assert twin == ref.score_placement(d, "4S", "a2", "free", rule="equal", packs=2)
    assert twin.rule == "equal"
    three = [["5H", "5H", "5D"], ["4H", "5C", "9D"], ["4D", "5S", "KH"]]
    with pytest.raises(InvalidOptionError, match="two packs hold two"):
        ref.score_placement(three, "5H", "c3", "opening", packs=2)
    for bad in (0, 3, "2", True, None):
        with pytest.raises(InvalidOptionError, match="packs must be 1 or 2"):
            ref.score_placement(d, "6H", "a3", "ascending", packs=bad)


SUITS = "SHDC"
RANKS = "A23456789TJQK"
ALL = [r + s for s in SUITS for r in RANKS]  # card-index order
CELLS = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
OUTER = [c for c in CELLS if c != "b2"]
RULES = ["ascending", "descending", "halving", "doubling", "equal"]


def idx(code: str) -> int:
    """The card index by the docs' formula: suit index x 13 + rank - 1."""
    return SUITS.index(code[1]) * 13 + RANKS.index(code[0])


def suit_of(s: str) -> list:
    return [r + s for r in RANKS]


def codes(cards) -> str:
    return ",".join(sorted(cards, key=idx)) or "-"


def disp(text: str) -> list:
    """'3S QH 5D / 4H . 9D / ...' -> 3 rows of 3 codes or None."""
    return [[None if c == "." else c for c in row.split()] for row in text.split("/")]


def bonus(pair=0, run=0, triple=0) -> dict:
    return {"pair": pair, "run": run, "triple": triple}


def two_player(rows: str, hand0, hand1, *, pattern="ascending", turn="play:0:0", passes=0,
               scores="0,0", second0=True, second1=True, shown=(False, False), game="1/1",
               match=False):
    """A two-player stage-two position of the first game (player 0 dealt: S and D are player
    0's first and second suits, H and C player 1's) with the top cards ``rows``. Each stack gets
    a bottom card of the right suit (outer cells a1 b1 c1 a2 c2 a3 b3 c3 alternately S and H,
    the Higgs on b2 an S), and every card in play that is neither a top card, in a hand nor in
    an untaken second stock lies covered under the top of a1."""
    tops = [c for row in rows.split("/") for c in row.split()]
    assert len(tops) == 9
    untaken = (set(suit_of("D")) if second0 else set()) | (set(suit_of("C")) if second1 else set())
    used = set(tops) | set(hand0) | set(hand1) | untaken
    assert len(used) == len(tops) + len(hand0) + len(hand1) + len(untaken), "a card twice"
    spare = [c for c in ALL if c not in used]
    owners = dict(zip(OUTER, "SHSHSHSH"), b2="S")
    display = aql_display(tops, spare, owners)
    hands = "|".join(("*" if shown[p] else "") + codes(h) for p, h in enumerate([hand0, hand1]))
    stocks = (f"-/{codes(suit_of('D')) if second0 else '-'}|"
              f"-/{codes(suit_of('C')) if second1 else '-'}")
    text = f"{display} {hands} {stocks} {pattern} {turn} {passes} {scores} {game}"
    return ref.game(players=2, match=match).from_notation(text)


def moves(state) -> list:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state, *texts):
    for t in texts:
        state = state.play(state.parse_action(t))
    return state


def lowest(state):
    return state.play(state.legal_actions()[0])


def turn_field(state) -> str:
    return state.notation().split(" ")[4]


# ---- the worked examples of the printed rules ----


def test_rule_worked_example_twelve_points_for_one_five():
    # Left column 3, 4, 4; 5s on b2, c1 and b3. A 5 on the 4 at a3, ascending: 1 point,
    # run a1-a2-a3 3-4-5 (3), triple a3-b2-c1 (6), pair with b3 (2; b2 is in the triple): 12.
    d = disp("3S QH 5D / 4H 5C 9D / 4D 5S KH")
    p = ref.score_placement(d, "5H", "a3", "ascending")
    assert (p.points, p.bonuses, p.pattern) == (12, bonus(pair=1, run=1, triple=1), "ascending")
    # The same card as the first of stage two: only ascending fits a 5 on a 4.
    assert ref.score_placement(d, "5H", (2, 0), "opening").points == 12


@pytest.mark.parametrize(
    "rows, cell, pair",
    [
        ("7S 8H 8D / 3C 4S 8C / TS JH KD", "a1", 0),  # (A): b1 in the triple, no other 8 near
        ("8S 7H 8D / 3C 4S 8C / TS JH KD", "b1", 1),  # (B): c2 touches b1 at a corner
        ("8S 8D 7H / 3C 4S 8C / TS JH KD", "c1", 1),  # (C): c2 is below c1
    ],
)
def test_rule_worked_example_the_third_eight_at_a_b_or_c(rows, cell, pair):
    # The 8 goes on a 7 (ascending, 1 point); bonuses: the top-row triple (6), plus at (B) or
    # (C) the pair with the 8 on c2 (2).
    p = ref.score_placement(disp(rows), "8H" if "8H" not in rows else "8S", cell, "ascending")
    assert p.bonuses == bonus(pair=pair, triple=1)
    assert p.points - 1 == 6 + 2 * pair


def test_rule_worked_example_wests_ten_points():
    d = disp("3S KH 5D / 5C . 7S / 7D 6C 7C")
    # The Higgs 3 on b2 pairs with the 3 on a1: 2 points (no run or triple through b2).
    higgs = ref.score_placement(d, "3H", "b2", None)
    assert (higgs.points, higgs.bonuses, higgs.pattern) == (2, bonus(pair=1), "opening")
    d[1][1] = "3H"
    # A 6 on the 5 at c1 opens ascending: 1 point, no bonus (row 3-K-6, column 6-7-7,
    # diagonal 6-3-7).
    six = ref.score_placement(d, "6H", "c1", "opening")
    assert (six.points, six.bonuses, six.pattern) == (1, bonus(), "ascending")
    d[0][2] = "6H"
    # A 7 on the 6 at b3: 1 + triple 7-7-7 on the bottom row (6) + pair with c2 (2) = 9.
    seven = ref.score_placement(d, "7H", "b3", six.pattern)
    assert (seven.points, seven.bonuses) == (9, bonus(pair=1, triple=1))
    assert six.points + seven.points == 10


def test_rule_worked_example_easts_quantum_leap():
    # Under ascending: K on Q, A (as 14) on K, 2 on A (as 1): a point each, no bonus; the last
    # switches the pattern to doubling.
    d = disp("3S QH 5D / 4H 9C 9D / 4D TS KH")
    pattern, total = "ascending", 0
    for card, after in [("KS", "ascending"), ("AC", "ascending"), ("2D", "doubling")]:
        p = ref.score_placement(d, card, "b1", pattern)
        assert (p.bonuses, p.pattern, p.rule) == (bonus(), after, "ascending")
        total += p.points
        d[0][1], pattern = card, p.pattern
    assert total == 3
    # The next player must double or play an equal card: a 3 on the 2 (ascending) is no longer
    # legal, a 4 on the 2 (doubling) is, and so is a 2 on the 2.
    with pytest.raises(IllegalMoveError):
        ref.score_placement(d, "3C", "b1", pattern)
    # 4 on 2 doubles: 2 + the run 3-4-5 along the top row (3) + the pair with a2's 4 (2) = 7.
    four = ref.score_placement(d, "4C", "b1", pattern)
    assert (four.points, four.rule, four.bonuses) == (7, "doubling", bonus(pair=1, run=1))
    assert ref.score_placement(d, "2C", "b1", pattern).pattern == "free"


def test_rule_worked_example_the_higgs_queen():
    d = disp("QS KH 7C / 7H . 4D / 2S JH QD")
    # Q on b2: triple Q-Q-Q on the diagonal (6) + run K-Q-J in the middle column (3) = 9; both
    # neighbouring Queens are in the triple, so no pair.
    q = ref.score_placement(d, "QH", "b2", None)
    assert (q.points, q.bonuses) == (9, bonus(run=1, triple=1))
    # A 7 there instead: pairs with a2 and c1 (4), no line.
    assert ref.score_placement(d, "7D", "b2", None).bonuses == bonus(pair=2)
    assert ref.score_placement(d, "7D", "b2", None).points == 4


def test_rule_worked_example_opening_doubling_then_equal_then_free():
    # West doubles: 6 on 3, Q on 6 (pair of Queens in the left column), 8 on 4: 2 + 4 + 2 = 8.
    d = disp("3S 9H TD / 3H 2C KD / QC 4H JS")
    p = ref.score_placement(d, "6S", "a2", "opening")
    assert (p.points, p.pattern) == (2, "doubling")
    d[1][0] = "6S"
    p = ref.score_placement(d, "QS", "a2", p.pattern)
    assert (p.points, p.bonuses) == (4, bonus(pair=1))
    d[1][0] = "QS"
    p = ref.score_placement(d, "8S", "b3", p.pattern)
    assert (p.points, p.pattern) == (2, "doubling")
    d[2][1] = "8S"
    # North cannot double (no 2, 5, 7 or 9 doubles to a card on top... whatever is in hand):
    # a 9 on the 9 at b1 (equal: 0 points, the pattern becomes free), then a T on that 9,
    # ascending: 1 + the pair with the T on c1 (2) = 3.
    p = ref.score_placement(d, "9C", "b1", p.pattern)
    assert (p.points, p.bonuses, p.pattern) == (0, bonus(), "free")
    d[0][1] = "9C"
    p = ref.score_placement(d, "TC", "b1", p.pattern)
    assert (p.points, p.bonuses, p.pattern) == (3, bonus(pair=1), "ascending")


# ---- placing rules and points ----


@pytest.mark.parametrize(
    "placed, below, fitting",
    [
        ("5", "4", {"ascending"}),
        ("3", "4", {"descending"}),
        ("2", "4", {"halving"}),
        ("8", "4", {"doubling"}),
        ("4", "4", {"equal"}),
        ("A", "K", {"ascending"}),  # A as 14
        ("K", "A", {"descending"}),  # A as 14
        ("2", "A", {"ascending", "doubling"}),  # A as 1
        ("A", "2", {"descending", "halving"}),  # A as 1
        ("7", "A", {"halving"}),  # 7 = 14 / 2
        ("A", "7", {"doubling"}),  # 14 = 2 x 7
        ("A", "A", {"equal"}),
        ("Q", "A", set()),
        ("3", "A", set()),
        ("9", "5", set()),
    ],
)
def test_rule_the_ace_is_one_and_fourteen_when_placing(placed, below, fitting):
    d = disp(f"{below}S 9H TD / 3H 2C KC / QC 4H JS")
    found = set()
    for rule in RULES:
        try:
            ref.score_placement(d, placed + "D", "a1", "free", rule)
            found.add(rule)
        except IllegalMoveError:
            pass
    assert found == fitting


@pytest.mark.parametrize("rule, points", [("ascending", 1), ("descending", 1), ("halving", 2),
                                          ("doubling", 2)])
def test_rule_rule_one_scores_one_rule_two_scores_two(rule, points):
    below = {"ascending": "5", "descending": "7", "halving": "Q", "doubling": "3"}[rule]
    d = disp(f"{below}S 9H TD / 3H 2C KD / QC 4H JS")
    p = ref.score_placement(d, "6D", "a1", "free")
    assert (p.points, p.rule, p.pattern) == (points, rule, rule)


def test_rule_equal_scores_nothing_not_even_bonuses_and_makes_the_pattern_free():
    # A 7 on the 7 at c1 completes the top-row triple: as an equal placement it scores nothing.
    eq = ref.score_placement(disp("7S 7H 7C / 3H 2C 9C / QC 4H JS"), "7D", "c1", "ascending")
    assert (eq.points, eq.bonuses, eq.pattern, eq.rule) == (0, bonus(), "free", "equal")
    # The same triple made ascending (7 on 6) scores 1 + 6 + the pair with c2's 7 (2) = 9.
    asc = ref.score_placement(disp("7S 7H 6D / 3H 2C 7C / QC 4H JS"), "7D", "c1", "ascending")
    assert (asc.points, asc.bonuses, asc.pattern) == (9, bonus(pair=1, triple=1), "ascending")


def test_rule_opening_allows_rules_one_and_two_only():
    d = disp("4S 9H TD / 3H 2C KD / QC 4H JS")
    for card, rule in [("5D", "ascending"), ("3D", "descending"), ("2D", "halving"),
                       ("8D", "doubling")]:
        assert ref.score_placement(d, card, "a1", "opening").pattern == rule
    with pytest.raises(IllegalMoveError):
        ref.score_placement(d, "4D", "a1", "opening")  # equal: not as the first card
    assert ref.score_placement(d, "4D", "a1", "free").rule == "equal"


@pytest.mark.parametrize("pattern", ["ascending", "descending", "halving", "doubling"])
def test_rule_an_established_pattern_allows_only_its_rule_or_equal(pattern):
    d = disp("4S 9H TD / 3H 2C KD / QC 4H JS")
    allowed = {}
    for card, rule in [("5D", "ascending"), ("3D", "descending"), ("2D", "halving"),
                       ("8D", "doubling"), ("4D", "equal")]:
        try:
            allowed[rule] = ref.score_placement(d, card, "a1", pattern).pattern
        except IllegalMoveError:
            pass
    assert allowed == {pattern: pattern, "equal": "free"}


def test_rule_free_allows_every_rule():
    d = disp("4S 9H TD / 3H 2C KD / QC 4H JS")
    got = {ref.score_placement(d, card, "a1", "free").rule for card in ("5D", "3D", "2D", "8D",
                                                                         "4D")}
    assert got == set(RULES)


@pytest.mark.parametrize(
    "pattern, placed, below, points, after",
    [
        ("ascending", "2", "A", 1, "doubling"),
        ("doubling", "2", "A", 2, "ascending"),
        ("descending", "A", "2", 1, "halving"),
        ("halving", "A", "2", 2, "descending"),
    ],
)
def test_rule_quantum_leap_switches_the_pattern(pattern, placed, below, points, after):
    d = disp(f"{below}S 9H TD / 3H 5C KD / QC 4H JS")
    p = ref.score_placement(d, placed + "D", "a1", pattern)
    assert (p.points, p.pattern) == (points, after)


def test_rule_no_quantum_leap_with_the_ace_as_fourteen():
    # A on K ascends and stays ascending; 7 on A halves and stays halving.
    d = disp("KS 9H TD / 3H 5C KD / QC 4H JS")
    assert ref.score_placement(d, "AD", "a1", "ascending").pattern == "ascending"
    d = disp("AS 9H TD / 3H 5C KD / QC 4H JS")
    assert ref.score_placement(d, "7D", "a1", "halving").pattern == "halving"


def test_rule_in_opening_and_free_an_ace_two_placement_names_its_rule():
    d = disp("AS 9H TD / 3H 5C KD / QC 4H JS")
    for pattern in ("opening", "free"):
        with pytest.raises(IllegalMoveError, match="needs a rule"):
            ref.score_placement(d, "2D", "a1", pattern)
        # The rule chosen sets the points, and the leap switches away from it.
        asc = ref.score_placement(d, "2D", "a1", pattern, "ascending")
        dbl = ref.score_placement(d, "2D", "a1", pattern, "doubling")
        assert (asc.points, asc.pattern) == (1, "doubling")
        assert (dbl.points, dbl.pattern) == (2, "ascending")


# ---- bonuses ----


def test_rule_pairs_count_side_and_corner_neighbours():
    # 5C on the 4C in the centre; 5s on a1 (corner), b1 (side) and c2 (side): 3 pairs, no line
    # (row 2-5-5, column 5-5-J, diagonals 5-5-K and 9-5-8): 1 + 6 = 7.
    d = disp("5S 5H 9C / 2D 4C 5D / 8S JH KD")
    p = ref.score_placement(d, "5C", "b2", "ascending")
    assert (p.points, p.bonuses) == (7, bonus(pair=3))
    # A corner card's only diagonal neighbour, the centre: 1 pair.
    d = disp("4S 9H TD / 3H 5C KD / QC 8H JS")
    assert ref.score_placement(d, "5D", "a1", "ascending").bonuses == bonus(pair=1)
    # Cells that do not touch (a1 and c1, two apart) make no pair.
    d = disp("4S 9H 5D / 3H 8C KD / QC 8H JS")
    assert ref.score_placement(d, "5H", "a1", "ascending").bonuses == bonus()


def test_rule_pairs_leave_out_only_the_members_of_a_triple_the_card_makes():
    # 9s on a1 and b1 make the triple with the 9 on c1; the 9 on c2 is a pair (2); 1+6+2 = 9.
    d = disp("9S 9H 8D / 3H 5C 9C / QC 4H JS")
    p = ref.score_placement(d, "9D", "c1", "ascending")
    assert (p.points, p.bonuses) == (9, bonus(pair=1, triple=1))
    # Without the triple (a1 not a 9) the b1 neighbour is a pair too: 1 + 2 + 2 = 5.
    d = disp("2S 9H 8D / 3H 5C 9C / QC 4H JS")
    assert ref.score_placement(d, "9D", "c1", "ascending").bonuses == bonus(pair=2)


@pytest.mark.parametrize(
    "a1, b1, below, card, rule, run",
    [
        ("7S", "8H", "8D", "9D", "ascending", 1),  # 7-8-9
        ("9S", "8H", "8D", "7D", "descending", 1),  # 9-8-7
        ("QS", "KH", "KD", "AD", "ascending", 1),  # Q-K-A: the Ace as 14
        ("AS", "2H", "2D", "3D", "ascending", 1),  # A-2-3: the Ace as 1
        ("KS", "AH", "AD", "2D", "ascending", 1),  # K-A-2 through the Ace
        ("AS", "KH", "KD", "QD", "descending", 1),  # A-K-Q
        ("2S", "AH", "AD", "KD", "descending", 1),  # 2-A-K
        ("KS", "AH", "2D", "2C", "equal", 0),  # K-A-2 again, but equal: no bonus at all
        ("8S", "TH", "TD", "9D", "descending", 0),  # 8-10-9 is no run
        ("2S", "AH", "AD", "2D", "ascending", 0),  # 2-A-2 is no run
    ],
)
def test_rule_runs_step_by_one_along_the_line_through_the_ace(a1, b1, below, card, rule, run):
    # The top row a1 b1 c1, the card placed on c1 (column c: x-5-J and diagonal x-6-T never
    # run).
    d = disp(f"{a1} {b1} {below} / 3C 6C 5H / TC 4H JS")
    p = ref.score_placement(d, card, "c1", "free", rule)
    assert p.bonuses["run"] == run
    assert p.rule == rule


def test_rule_bonuses_add_up_several_runs():
    # 5 on the 4 in the centre: row 4-5-6, column 6-5-4 and diagonal a1-c3 4-5-6 run, the
    # other diagonal 9-5-K does not; no 5 around. 1 + 3 x 3 = 10.
    d = disp("4S 6H 9C / 4H 4C 6D / KS 4D 6S")
    p = ref.score_placement(d, "5D", "b2", "ascending")
    assert (p.points, p.bonuses) == (10, bonus(run=3))


# ---- score_placement errors ----


@pytest.mark.parametrize(
    "display, card, cell, pattern, rule",
    [
        ("4S 9H TD / 3H 2C KD / QC 4H JS", "9D", "a1", "ascending", None),  # 9 on 4
        ("4S 9H TD / 3H 2C KD / QC 4H JS", "5D", "a1", "descending", None),  # wrong rule
        ("4S 9H TD / 3H 2C KD / QC 4H JS", "5D", "a1", "ascending", "doubling"),  # named wrong
        ("AS 9H TD / 3H 2C KD / QC 4H JS", "2D", "a1", "free", None),  # rule needed
        ("4S 9H TD / 3H . KD / QC 4H JS", "5D", "b2", "ascending", None),  # on an empty cell
        ("4S 9H TD / 3H 2C KD / QC 4H JS", "5D", "b2", None, None),  # the Higgs on a card
        ("4S 9H TD / 3H . KD / QC 4H JS", "5D", "b2", None, "ascending"),  # Higgs with a rule
    ],
)
def test_score_placement_raises_illegal_move_error(display, card, cell, pattern, rule):
    with pytest.raises(IllegalMoveError):
        ref.score_placement(disp(display), card, cell, pattern, rule)


@pytest.mark.parametrize(
    "display, card, cell, pattern, rule",
    [
        ("4S 9H / 3H 2C / QC 4H", "5D", "a1", "ascending", None),  # not 3x3
        ("4S 9H TD / 3H 2C KD / QC 4H XX", "5D", "a1", "ascending", None),  # bad code
        ("4S 9H TD / 3H 2C KD / QC 4H JS", "5Z", "a1", "ascending", None),  # bad card
        ("4S 9H TD / 3H 2C KD / QC 4H JS", "9H", "a1", "ascending", None),  # already shown
        ("4S 9H TD / 3H 2C KD / QC 4H JS", "5D", "d1", "ascending", None),  # bad cell
        ("4S 9H TD / 3H 2C KD / QC 4H JS", "5D", (3, 0), "ascending", None),  # off the display
        ("4S 9H TD / 3H 2C KD / QC 4H JS", "5D", "a1", "upwards", None),  # bad pattern
        ("4S 9H TD / 3H 2C KD / QC 4H JS", "5D", "a1", "ascending", "up"),  # bad rule
        ("4S 9H TD / 3H 4S KD / QC 4H JS", "5D", "a1", "ascending", None),  # a card twice
    ],
)
def test_score_placement_rejects_malformed_arguments(display, card, cell, pattern, rule):
    with pytest.raises(InvalidOptionError):
        ref.score_placement(disp(display), card, cell, pattern, rule)


# ---- stage one ----


@pytest.mark.parametrize(
    "players, game_field, placers, dealer",
    [
        (2, "1/1", [0, 1, 0, 1, 0, 1, 0, 1], 0),
        (3, "1/1", [0, 1, 2, 0, 1, 2, 0, 1], 0),
        (4, "1/1", [0, 1, 2, 3, 0, 1, 2, 3], 0),
        (3, "2/3", [1, 2, 0, 1, 2, 0, 1, 2], 1),
        (4, "4/4", [3, 0, 1, 2, 3, 0, 1, 2], 3),
    ],
)
def test_rule_stage_one_order_dealer_then_clockwise_then_the_higgs(players, game_field,
                                                                   placers, dealer):
    g = ref.game(players=players, match=game_field != "1/1")
    if game_field == "1/1":
        s = g.new_state()
    else:
        empty = "|".join(["-"] * players)
        if players == 3:
            s = g.from_notation(f".,.,./.,.,./.,.,. {empty} {empty} - leave 0 "
                                f"{','.join(['0'] * players)} {game_field}")
        else:
            stocks = "|".join(codes(suit_of(SUITS[(q - dealer) % 4])) for q in range(players))
            s = g.from_notation(f".,.,./.,.,./.,.,. {empty} {stocks} - draw:{dealer} 0 "
                                f"{','.join(['0'] * players)} {game_field}")
    seen = []
    while not turn_field(s).startswith("higgs"):
        if not s.is_chance:
            seen.append(s.current_player)
            assert "b2" not in moves(s), "the centre is the Higgs'"
        s = lowest(s)
    assert seen == placers
    assert s.current_player == dealer and all(m.startswith("higgs ") for m in moves(s))
    assert s.scores() == [0] * players, "outer cards score nothing"
    # Every player took the rest of their stock into hand: 13 less the outer cards placed.
    assert [len(s.hand(q)) for q in range(players)] == [13 - placers.count(q)
                                                        for q in range(players)]
    s = lowest(s)
    assert s.pattern() == "opening"
    assert s.current_player == (dealer + 1) % players, "the dealer's left opens stage two"
    assert len(s.hand(dealer)) == 13 - placers.count(dealer) - 1


def test_rule_three_players_leave_one_suit_out_at_random():
    s = ref.game(players=3).new_state()
    assert s.is_chance and s.current_player == ref.CHANCE
    assert [(s.action_to_string(a), p) for a, p in s.chance_outcomes()] == [
        ("leave out S", 0.25), ("leave out H", 0.25), ("leave out D", 0.25), ("leave out C", 0.25)]
    s = play(s, "leave out H")
    # The other suits in S H D C order go to the dealer (0) and on clockwise.
    assert [s.stock(q) for q in range(3)] == [suit_of("S"), suit_of("D"), suit_of("C")]
    assert "H" not in s.notation().replace(" 1/1", "").split(" ", 1)[1].replace("-", "")


def test_rule_two_players_hold_two_suits_and_four_players_one():
    s = ref.game(players=2).new_state()
    assert [s.stock(q) for q in range(2)] == [suit_of("S"), suit_of("H")]
    assert [s.second_stock(q) for q in range(2)] == [suit_of("D"), suit_of("C")]
    s = ref.game(players=4).new_state()
    assert [s.stock(q) for q in range(4)] == [suit_of(x) for x in "SHDC"]


def test_rule_a_draw_is_uniform_over_the_stock_and_only_the_drawer_sees_it():
    s = ref.game(players=2).new_state()
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == [2403 + idx(c) for c in suit_of("S")]
    assert all(p == pytest.approx(1 / 13) for _, p in outcomes)
    a = s.parse_action("draw 7S")
    assert [s.action_to_string(a, p) for p in (0, 1)] == ["draw 7S", "draw ?"]
    t = s.play(a)
    assert t.current_player == 0 and turn_field(t) == "place:0:7S"
    assert moves(t) == OUTER
    assert "7S" not in t.observation_string(1) and "7S" in t.observation_string(0)


def test_rule_the_higgs_scores_bonuses_only_for_the_dealer():
    s = play(ref.game(players=2).new_state(),
             "draw AS", "a1", "draw 5H", "b1", "draw 2S", "c1", "draw 2H", "a2",
             "draw 3S", "c2", "draw 3H", "a3", "draw 4S", "b3", "draw 4H", "c3")
    assert s.display() == [["AS", "5H", "2S"], ["2H", None, "3S"], ["3H", "4S", "4H"]]
    assert s.scores() == [0, 0], "outer cards score nothing, pairs or not (2S-2H, 3S-3H...)"
    assert moves(s) == ["higgs " + c for c in suit_of("S")[4:]]
    # 5S on b2 pairs with the 5H on b1 (2); lines 2-5-3, 5-5-4, A-5-4, 2-5-3: nothing else;
    # no placing point.
    assert play(s, "higgs 5S").scores() == [2, 0]
    assert play(s, "higgs 9S").scores() == [0, 0]


# ---- stage two turns ----


T_C = "8H 2C TC / 3C 5C KC / QC 4C JC"  # clubs on top: player 1's second stock is taken


def test_rule_a_player_who_can_place_must_place_at_least_one_card():
    s = two_player("8H 9H TH / 3H 5S KS / QS 4H JS", ["9S", "2S"], ["6H"], pattern="ascending")
    # 9S ascends on the 8H or equals the 9H; 2S fits nothing (no A or 2 on top). No end, no
    # pass before a placement.
    assert moves(s) == ["9S a1", "9S b1"]
    s = play(s, "9S a1")
    # After a placement the player may stop (here nothing else fits).
    assert moves(s) == ["end"]


def test_rule_a_player_who_cannot_place_passes_and_the_hand_is_shown_until_they_place():
    s = two_player("8H 9H TH / 3H 5S KS / QS 4H JS", ["2S"], ["JH", "6H"], pattern="ascending")
    assert moves(s) == ["pass"]
    s = play(s, "pass")
    assert s.current_player == 1 and s.hand_shown(0)
    assert s.observation_string(1).split(" ")[2] == "*2S|6H,JH"  # player 0's hand face up
    assert s.notation().split(" ")[5] == "1"
    # Player 1 places a J on the T (ascending) and ends; player 0 still cannot place: the
    # hand stays shown through another pass.
    s = play(s, "JH c1", "end")
    assert moves(s) == ["pass"] and s.hand_shown(0)
    assert s.observation_string(1).split(" ")[2].startswith("*2S")
    # A shown hand whose player can place again (2S on the AH): once placed, hidden again.
    s = two_player("8H 9H TH / 3H 5S KS / QS 4H AH", ["2S", "7S"], ["JH", "6H"],
                   pattern="ascending", shown=(True, False))
    assert s.observation_string(1).split(" ")[2] == "*2S,7S|6H,JH"
    s = play(s, "2S c3")
    assert not s.hand_shown(0)
    assert s.observation_string(1).split(" ")[2] == "#1|6H,JH"


def test_rule_the_pattern_carries_over_from_player_to_player():
    s = two_player("8H 9H TH / 3H 6S KS / QS 5H 7S", ["4S", "JS"], ["2H", "JH", "6H"],
                   pattern="halving")
    # Halving: 4 on 8 halves; a J halves nothing and equals nothing.
    assert moves(s) == ["4S a1"]
    s = play(s, "4S a1", "end")
    # Player 1 must halve or play equal: 2 on the 4 (a1), 6 on the Q (a3), 6 on the 6 (b2,
    # equal); J on T would ascend: not allowed. In id order: 2H (14) a1, 6H (18) b2, 6H a3.
    assert moves(s) == ["2H a1", "6H b2", "6H a3"]


def test_rule_placement_actions_name_the_rule_only_where_two_fit():
    s = two_player("8H 2H TH / 3H AH KS / QS 4H JS", ["AS", "2S"], ["6H"], pattern="free")
    assert moves(s) == [
        "AS b1 descending",  # (0 * 9 + 1) * 5 + 1 = 6
        "AS b1 halving",  # 7
        "AS b2",  # A on A, equal: 24
        "AS c2",  # A on K, ascending only: 25
        "2S b1",  # 2 on 2, equal: (1 * 9 + 1) * 5 + 4 = 54
        "2S a2",  # 2 on 3, descending: (9 + 3) * 5 + 1 = 61
        "2S b2 ascending",  # 65
        "2S b2 doubling",  # 68
        "2S b3",  # 2 on 4, halving: (9 + 7) * 5 + 2 = 82
    ]
    assert list(s.legal_actions()) == [6, 7, 24, 25, 54, 61, 65, 68, 82]


def test_rule_more_than_four_cards_in_a_turn_gives_each_opponent_four_points():
    s = two_player(T_C, ["9S", "TS", "JS", "QS", "KS", "AS"], ["2H"], pattern="ascending",
                   second1=False, scores="10,20")
    s = play(s, "9S a1", "TS a1", "JS a1", "QS a1")
    assert s.scores()[1] == 20, "four cards: no penalty"
    s = play(s, "KS a1")
    assert s.scores()[1] == 24, "the fifth card: +4 to the opponent"
    s = play(s, "AS a1")  # A on K, ascending
    assert s.scores()[1] == 24, "once per turn"
    assert turn_field(s) == "play:0:6"


def test_rule_more_than_four_cards_penalises_every_opponent():
    # Three players, clubs left out: S H D to players 0 1 2. Stage one, each card on the lowest
    # free outer cell: a1 8S, b1 2H, c1 2D, a2 3S, c2 3H, a3 3D, b3 4S, c3 4H.
    s = play(ref.game(players=3).new_state(), "leave out C")
    for draw in ["draw 8S", "draw 2H", "draw 2D", "draw 3S", "draw 3H", "draw 3D", "draw 4S",
                 "draw 4H"]:
        s = lowest(play(s, draw))
    # The Higgs 5S: no 5 near, lines 3-5-3, 2-5-4, 8-5-4, 2-5-3: nothing.
    s = play(s, "higgs 5S")
    assert s.scores() == [0, 0, 0] and s.current_player == 1
    # Player 1 climbs c3: 5H (1 + pair with b2's 5S 2 + run 3-4-5 on the bottom row 3 = 6),
    # then 6H, 7H, 8H (1 each: no pair, no line), then 9H, the fifth card: 1, and 4 to each
    # opponent.
    s = play(s, "5H c3", "6H c3", "7H c3", "8H c3")
    assert s.scores() == [0, 9, 0]
    s = play(s, "9H c3")
    assert s.scores() == [4, 10, 4]


def test_rule_no_penalty_when_only_the_placer_holds_cards():
    # Player 1's hand is empty and the second stock taken: player 0 alone holds cards.
    s = two_player(T_C, ["9S", "TS", "JS", "QS", "KS"], [], pattern="ascending",
                   second1=False, scores="10,20")
    s = play(s, "9S a1", "TS a1", "JS a1", "QS a1", "KS a1")
    assert s.scores()[1] == 20


# Diamonds on top: player 0's second stock is taken, player 1's clubs may still be aside.
T_D = "8H 2D TD / 3D 5D KD / QD 4D JD"


def test_rule_the_penalty_lapses_when_only_the_placer_has_cards_in_hand():
    """The rules: "Using more than four cards in a turn of play incurs a penalty: four points
    are awarded to each opponent. Note: when only one player remains with cards in hand this
    rule no longer applies." and "an unused second stock in a two player game does not count
    as 'in hand'"."""
    # Player 1's hand is empty, the clubs still aside: only player 0 has cards in hand.
    s = two_player(T_D, ["9S", "TS", "JS", "QS", "KS"], [], pattern="ascending",
                   second0=False, second1=True, scores="10,20")
    assert s.hand(1) == [] and len(s.second_stock(1)) == 13
    s = play(s, "9S a1", "TS a1", "JS a1", "QS a1", "KS a1")
    assert s.scores()[1] == 20, "no penalty: the second stock aside is not in hand"
    # The same with one card in player 1's hand (clubs still aside): the penalty applies.
    s = two_player(T_D, ["9S", "TS", "JS", "QS", "KS"], ["2H"], pattern="ascending",
                   second0=False, second1=True, scores="10,20")
    s = play(s, "9S a1", "TS a1", "JS a1", "QS a1")
    assert s.scores()[1] == 20, "four cards: no penalty"
    s = play(s, "KS a1")
    assert s.scores()[1] == 24, "the fifth card while player 1 has a card in hand: +4"


def test_rule_two_players_take_the_second_stock_at_the_start_of_the_next_turn():
    s = two_player(T_C, ["9S"], ["7H"], pattern="ascending", second1=False)
    s = play(s, "9S a1")
    # The hand is empty mid-turn: the second stock stays aside; the only action is to end.
    assert s.hand(0) == [] and len(s.second_stock(0)) == 13
    assert moves(s) == ["end"]
    s = play(s, "end")
    assert s.current_player == 1 and len(s.second_stock(0)) == 13
    assert s.observation_string(1).split(" ")[3] == "0/13|0/0"
    s = play(s, "pass")  # 7H: no 6 on top, no 7
    # Player 0's turn begins: the diamonds come into hand first.
    assert s.current_player == 0 and s.hand(0) == suit_of("D") and s.second_stock(0) == []
    assert s.observation_string(1).split(" ")[3] == "0/0|0/0"
    assert turn_field(s) == "play:0:0"


def test_rule_players_holding_no_cards_are_skipped():
    s = two_player(T_C, ["9S", "TS"], [], pattern="ascending", second1=False)
    s = play(s, "9S a1", "end")
    assert turn_field(s) == "play:0:0", "player 1 holds nothing: player 0 again"


def test_rule_the_game_ends_when_no_player_holds_cards():
    s = two_player(T_C, ["9S"], [], pattern="ascending", second0=False, second1=False,
                   scores="3,4")
    s = play(s, "9S a1")  # 9 on 8, ascending: 1 point; no 9 near, no line: 4
    assert s.is_terminal and s.current_player == ref.TERMINAL
    assert s.returns() == [4.0, 4.0]
    assert list(s.legal_actions()) == []


def test_rule_the_game_ends_when_every_player_holding_cards_passes_in_succession():
    s = two_player(T_C, ["7S"], ["7H"], pattern="ascending", second0=False, second1=False,
                   scores="5,6")
    s = play(s, "pass")
    assert not s.is_terminal and s.current_player == 1
    s = play(s, "pass")
    assert s.is_terminal and s.returns() == [5.0, 6.0]
    # With one player holding cards, that player's pass ends the game.
    s = two_player(T_C, ["7S"], [], pattern="ascending", second0=False, second1=False)
    assert play(s, "pass").is_terminal


def test_rule_a_placement_breaks_a_run_of_passes():
    s = two_player(T_C, ["7S", "9S"], ["7H"], pattern="ascending", second0=False,
                   second1=False, turn="play:1:0")
    s = play(s, "pass")
    assert s.notation().split(" ")[5] == "1"
    s = play(s, "9S a1", "end")
    assert s.notation().split(" ")[5] == "0" and not s.is_terminal
    s = play(s, "pass")
    assert not s.is_terminal and s.current_player == 0


def test_rule_match_one_game_per_dealer_totals_kept():
    s = two_player(T_C, ["9S"], [], pattern="ascending", second0=False, second1=False,
                   scores="30,40", game="1/2", match=True)
    s = play(s, "9S a1")
    # Game 2: player 1 deals (spades first, diamonds second) and draws first; totals 31, 40.
    assert not s.is_terminal and s.is_chance
    assert s.notation().split(" ")[4:] == ["draw:1", "0", "31,40", "2/2"]
    assert s.stock(1) == suit_of("S") and s.second_stock(1) == suit_of("D")
    assert s.stock(0) == suit_of("H") and s.second_stock(0) == suit_of("C")
    assert s.display() == [[None] * 3] * 3
    while s.pattern() is None:
        s = lowest(s)
    assert s.current_player == 0, "the new dealer's left opens stage two"
    while not s.is_terminal:
        s = lowest(s)
    assert s.returns() == [float(x) for x in s.scores()]
    assert s.scores()[0] >= 31 and s.scores()[1] >= 40


def test_rule_no_match_is_a_single_game():
    s = two_player(T_C, ["9S"], [], pattern="ascending", second0=False, second1=False)
    assert play(s, "9S a1").is_terminal


# ---- ids, strings, options ----


def test_action_ids_follow_the_documented_layout():
    g = ref.game()
    assert g.num_actions == 2459 and g.name == "a_quantum_leap" and g.num_players == 2
    assert g.options == {"match": False, "packs": 1, "players": 2, "teams": "none"}
    # Two packs and partners keep the action ids: a hand never holds both copies of a card.
    assert ref.game(players=4, packs=2, teams="partners").num_actions == 2459
    s = two_player("4H 2H TH / 3H AH KS / QS 4S JS", ["5S", "AS", "2S"], ["6H"], pattern="free")
    # 5S (index 4) on a1 (cell 0) ascending: (4 * 9 + 0) * 5 + 0 = 180.
    assert s.parse_action("5S a1") == 180
    # AS (0) on b1 (1) halving: (0 * 9 + 1) * 5 + 2 = 7.
    assert s.parse_action("AS b1 halving") == 7 and s.action_to_string(7) == "AS b1 halving"
    # 2S (1) on b2 (4) doubling: (1 * 9 + 4) * 5 + 3 = 68.
    assert s.parse_action("2S b2 doubling") == 68
    assert list(s.legal_actions()) == sorted(s.legal_actions())
    t = ref.game().new_state()
    assert t.parse_action("draw 7S") == 2403 + 6
    t = t.play(2409)
    assert t.parse_action("c3") == 2340 + 8
    assert ref.game(players=3).new_state().parse_action("leave out C") == 2458


def test_parse_action_reads_a_rule_named_where_none_is_needed():
    s = two_player("4H 2H TH / 3H AH KS / QS 4S JS", ["5S"], ["6H"], pattern="free")
    assert s.parse_action("5S a1 ascending") == s.parse_action("5S a1") == 180
    with pytest.raises(IllegalMoveError):
        s.parse_action("5S a1 doubling")


def test_end_and_pass_ids():
    s = two_player(T_C, ["7S"], ["6H"], pattern="ascending", second1=False)
    assert list(s.legal_actions()) == [2402]
    s = two_player(T_C, ["9S"], ["6H"], pattern="ascending", second1=False)
    assert list(play(s, "9S a1").legal_actions()) == [2401]
    t = play(ref.game().new_state(), "draw AS", "a1", "draw AH", "b1", "draw 2S", "c1",
             "draw 2H", "a2", "draw 3S", "c2", "draw 3H", "a3", "draw 4S", "b3", "draw 4H", "c3")
    # The Higgs: 2349 + card; the dealer holds 5S..KS (indices 4..12).
    assert list(t.legal_actions()) == list(range(2349 + 4, 2349 + 13))


@pytest.mark.parametrize("options", [{"players": 1}, {"players": 5}, {"players": "2"},
                                     {"players": True}, {"match": 1}, {"match": "yes"}])
def test_bad_options_are_invalid_option_errors(options):
    with pytest.raises(InvalidOptionError):
        ref.game(**options)


def test_illegal_actions_are_illegal_move_errors():
    s = ref.game().new_state()
    for bad in (-1, 2459, 0, 2401, 2402, 2403 + 13, "0", 1.5, True):
        with pytest.raises(IllegalMoveError):
            s.play(bad)
    with pytest.raises(IllegalMoveError):
        s.parse_action("draw 7H")  # a heart is not in the dealer's stock


GOOD = ("QH,5H6H7H6S5S4S,7S8H/AH2H2S,QS,9H/8S,JSJHTHTS,3S4H3H AS,9S,KS|*KH "
        "-/AD,2D,3D,4D,5D,6D,7D,8D,9D,TD,JD,QD,KD|-/AC,2C,3C,4C,5C,6C,7C,8C,9C,TC,JC,QC,KC "
        "descending play:0:0 1 9,11 1/1")


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t + " x",  # nine fields
        lambda t: t.replace(" 1/1", " 1/2"),  # not a match
        lambda t: t.replace("AS,9S,KS", "AS,KS,9S"),  # not in card-index order
        lambda t: t.replace("AS,9S,KS", "AS,9S,KS,KH"),  # a card twice
        lambda t: t.replace("AS,9S,KS", "AS,9S"),  # a card missing
        lambda t: t.replace("*KH", "*-"),  # an empty hand shown
        lambda t: t.replace("descending", "opening"),  # opening with tall stacks
        lambda t: t.replace("descending", "sideways"),
        lambda t: t.replace("play:0:0", "play:2:0"),  # no player 2
        lambda t: t.replace("play:0:0", "play:0:1"),  # a placement after a pass
        lambda t: t.replace(" 1 9,11", " 2 9,11"),  # everybody passed: over
        lambda t: t.replace("play:0:0", "end"),  # not over
        lambda t: t.replace("AS,9S,KS|*KH", "AS,9S,KS,KH|-").replace(
            "QH,5H6H", "QH,5H6H"),  # a heart in player 0's hand
        lambda t: t.replace("-/AD,2D", "-/2D"),  # a partial second stock
        lambda t: t.replace("5H6H7H6S5S4S", "6S5H6H7H5S4S"),  # five spades at the bottom
        lambda t: t.replace("9,11", "9,-1"),
        lambda t: t.replace("8S,JSJHTHTS", "8S,JSJHTHT"),  # half a card
    ],
)
def test_bad_notation_is_an_invalid_notation_error(change):
    g = ref.game()
    assert g.from_notation(GOOD).notation() == GOOD
    with pytest.raises(InvalidNotationError):
        g.from_notation(change(GOOD))


@pytest.mark.parametrize(
    "players, text",
    [
        # Clubs left out: S H D to players 0 1 2. The first outer card must be player 0's.
        (3, ".,AH,./.,.,./.,.,. -|-|- AS,2S,3S,4S,5S,6S,7S,8S,9S,TS,JS,QS,KS|"
            "2H,3H,4H,5H,6H,7H,8H,9H,TH,JH,QH,KH|AD,2D,3D,4D,5D,6D,7D,8D,9D,TD,JD,QD,KD - draw:1 "
            "0 0,0,0 1/1"),
        # The same with the first card a spade is fine but the placer is player 1, not 2.
        (3, ".,AS,./.,.,./.,.,. -|-|- 2S,3S,4S,5S,6S,7S,8S,9S,TS,JS,QS,KS|"
            "AH,2H,3H,4H,5H,6H,7H,8H,9H,TH,JH,QH,KH|AD,2D,3D,4D,5D,6D,7D,8D,9D,TD,JD,QD,KD - "
            "draw:2 0 0,0,0 1/1"),
        # Two players have no suit to leave out.
        (2, ".,.,./.,.,./.,.,. -|- -/-|-/- - leave 0 0,0 1/1"),
        # The Higgs is the dealer's.
        (2, "AS,AH,2S/2H,.,3S/3H,4S,4H 5S,6S,7S,8S,9S,TS,JS,QS,KS|5H,6H,7H,8H,9H,TH,JH,QH,KH "
            "-/AD,2D,3D,4D,5D,6D,7D,8D,9D,TD,JD,QD,KD|-/AC,2C,3C,4C,5C,6C,7C,8C,9C,TC,JC,QC,KC "
            "- higgs:1 0 0,0 1/1"),
    ],
)
def test_bad_stage_one_notation_is_rejected(players, text):
    with pytest.raises(InvalidNotationError):
        ref.game(players=players).from_notation(text)
    good = text.replace("draw:2", "draw:1").replace("higgs:1", "higgs:0")
    if good != text:
        assert ref.game(players=players).from_notation(good).notation() == good


def test_the_start_notation():
    assert ref.game(players=3).new_state().notation() == (
        ".,.,./.,.,./.,.,. -|-|- -|-|- - leave 0 0,0,0 1/1")
    four = ref.game(players=4, match=True).new_state().notation()
    assert four == (".,.,./.,.,./.,.,. -|-|-|- " + "|".join(codes(suit_of(x)) for x in "SHDC")
                    + " - draw:0 0 0,0,0,0 1/4")


def test_state_extras():
    s = ref.game().from_notation(GOOD)
    assert s.display() == [["QH", "4S", "8H"], ["2S", "QS", "9H"], ["8S", "TS", "3H"]]
    assert s.stacks() == [[1, 6, 2], [3, 1, 1], [1, 4, 3]]
    assert s.pattern() == "descending" and s.scores() == [9, 11]
    assert s.hand(0) == ["AS", "9S", "KS"] and s.hand(1) == ["KH"]
    assert s.stack("b1") == ["5H", "6H", "7H", "6S", "5S", "4S"]
    assert ref.game().new_state().pattern() is None


# ---- random games: notation and views ----


def _check_views(g, s, data):
    n = g.num_players
    for p in range(n):
        obs = s.observation_string(p)
        info = s.information_state_string(p)
        assert len(obs.split(" ")) == 9 and len(info.split(" ")) == 8
        # The observation's tops and heights follow from the information state's stacks.
        stacks = [c for row in info.split(" ")[0].split("/") for c in row.split(",")]
        tops = [c for row in obs.split(" ")[0].split("/") for c in row.split(",")]
        heights = [c for row in obs.split(" ")[1].split("/") for c in row.split(",")]
        assert tops == ["." if x == "." else x[-2:] for x in stacks]
        assert heights == ["0" if x == "." else str(len(x) // 2) for x in stacks]
        seed = data.draw(st.integers(0, 2**64 - 1), label="seed")
        r = s.resample(p, seed)
        assert r.information_state_string(p) == info and r.observation_string(p) == obs
        assert r.current_player == s.current_player
        assert g.from_notation(r.notation()) == r
        if s.current_player == p:
            assert r.legal_actions() == s.legal_actions()


@given(players=st.sampled_from([2, 3, 4]), match=st.booleans(), data=st.data())
def test_notation_round_trips_along_random_games(players, match, data):
    g = ref.game(players=players, match=match)
    s = g.new_state()
    while True:
        assert g.from_notation(s.notation()) == s
        assert s.returns() == [float(x) for x in s.scores()]
        if s.is_terminal:
            break
        legal = list(s.legal_actions())
        assert legal == sorted(set(legal)) and all(0 <= a < g.num_actions for a in legal)
        if s.is_chance:
            assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1)
        a = legal[data.draw(st.integers(0, len(legal) - 1), label="action")]
        assert s.parse_action(s.action_to_string(a)) == a
        if data.draw(st.integers(0, 9), label="check views") == 0:
            _check_views(g, s, data)
        s = s.play(a)


# ---- hidden information ----


def test_rule_observation_hides_covered_cards_and_other_hands_but_not_the_information_state():
    # Player 1 holds 2H (AH lies covered) or AH (2H covered): player 0 cannot see the
    # difference now, but saw the covered card placed.
    a = two_player("8H 9H TH / 3H 5S KS / QS 4H JS", ["9S"], ["6H", "2H"], pattern="ascending")
    b = two_player("8H 9H TH / 3H 5S KS / QS 4H JS", ["9S"], ["6H", "AH"], pattern="ascending")
    assert b != a
    assert b.observation_string(0) == a.observation_string(0)
    assert b.information_state_string(0) != a.information_state_string(0)
    assert b.observation_string(1) != a.observation_string(1)


def test_rule_another_players_drawn_card_is_unseen_and_resampled_uniformly():
    s = play(ref.game().new_state(), "draw 7S")
    stock = s.stock(0)
    t = ref.game().from_notation(s.notation().replace("place:0:7S", "place:0:3S").replace(
        "AS,2S,3S,4S,5S,6S,8S", "AS,2S,4S,5S,6S,7S,8S"))
    assert t.observation_string(1) == s.observation_string(1)
    assert t.information_state_string(1) == s.information_state_string(1)
    assert t.observation_string(0) != s.observation_string(0)
    # Player 1's resample: the drawn card uniform over the 13 spades.
    counts = {}
    samples = 1300
    for seed in range(samples):
        r = s.resample(1, seed)
        assert r.information_state_string(1) == s.information_state_string(1)
        assert sorted(r.stock(0) + [r.drawn()], key=idx) == suit_of("S")
        counts[r.drawn()] = counts.get(r.drawn(), 0) + 1
    assert set(counts) == set(stock) | {"7S"}
    sd = (samples * (1 / 13) * (12 / 13)) ** 0.5
    assert all(abs(c - samples / 13) < 5 * sd for c in counts.values()), counts
    # The drawer knows the card: no change; the same seed gives the same state.
    assert all(s.resample(0, seed) == s for seed in range(20))
    assert s.resample(1, 5) == s.resample(1, 5)


def test_rule_resample_changes_nothing_a_player_can_deduce():
    # In stage two every hand follows from the display and the public deal of the suits.
    s = ref.game().from_notation(GOOD)
    for p in (0, 1):
        assert all(s.resample(p, seed) == s for seed in range(20))


def test_bad_player_and_seed_are_invalid_option_errors():
    s = ref.game().new_state()
    for bad in (-1, 2, 1.0, "0", True, None):
        with pytest.raises(InvalidOptionError):
            s.observation_string(bad)
        with pytest.raises(InvalidOptionError):
            s.resample(bad, 0)
    for bad in (-1, 2**64, 1.5, None, "1"):
        with pytest.raises(InvalidOptionError):
            s.resample(0, bad)


# ---- two packs and partnerships ----
#
# The seed, "Partnership games and using two packs of cards": "Using two packs of cards will
# provide a game of longer duration when three or four people play. It is suggested that the
# procedure for taking up the second pack of cards should follow the principle used for the two
# player game. It is also suggested that partners should sit next to each other as this will
# allow one player to set up a tactic which may require more than four cards to complete."


def four_player(rows: str, hands, *, aside=(True, True, True, True), packs=2, teams="none",
                pattern="ascending", turn="play:0:0", scores=None):
    """A four-player stage-two position of the first game (player 0 dealt: S H D C to players
    0 1 2 3; with two packs each player's second stock is the same suit again) with the top
    cards ``rows``. Outer bottoms follow the order of placement (a1 b1 c1 a2 c2 a3 b3 c3: S H D
    C S H D C), the Higgs on b2 is an S, and every other card of the two packs that is neither
    on top, in a hand nor in a second stock still aside lies covered under the top of a1."""
    tops = [c for row in rows.split("/") for c in row.split()]
    spare = [c for c in ALL for _ in range(packs)]
    for c in tops + [c for h in hands for c in h] + [
            c for p, s in enumerate("SHDC") if aside[p] and packs == 2 for c in suit_of(s)]:
        spare.remove(c)  # ValueError: more copies than the packs hold
    owners = dict(zip(OUTER, "SHDCSHDC"), b2="S")
    display = aql_display(tops, spare, owners)
    hand_text = "|".join(codes(h) for h in hands)
    if packs == 2:
        stocks = "|".join("-/" + (codes(suit_of(s)) if aside[p] else "-")
                          for p, s in enumerate("SHDC"))
    else:
        stocks = "-|-|-|-"
    if scores is None:
        scores = "0+0,0+0" if teams == "partners" else "0,0,0,0"
    text = f"{display} {hand_text} {stocks} {pattern} {turn} 0 {scores} 1/1"
    return ref.game(players=4, packs=packs, teams=teams).from_notation(text)


@pytest.mark.parametrize("options", [{"packs": 0}, {"packs": 3}, {"packs": "2"},
                                     {"packs": True}, {"packs": 2, "players": 2},
                                     {"teams": "partners"}, {"teams": "partners", "players": 3},
                                     {"teams": "pairs", "players": 4}, {"teams": True}])
def test_bad_pack_and_team_options_are_invalid_option_errors(options):
    """Two packs are for "when three or four people play"; partners are two pairs of four."""
    with pytest.raises(InvalidOptionError):
        ref.game(**options)


def test_rule_two_packs_give_each_player_the_same_suit_again_as_a_second_stock():
    """"the procedure for taking up the second pack of cards should follow the principle used
    for the two player game": "each will use one complete suit of cards before taking up the
    second suit"."""
    s = ref.game(players=4, packs=2).new_state()
    spades, hearts, diamonds, clubs = (codes(suit_of(x)) for x in "SHDC")
    assert s.notation().split(" ")[2] == (f"{spades}/{spades}|{hearts}/{hearts}|"
                                          f"{diamonds}/{diamonds}|{clubs}/{clubs}")
    assert [s.second_stock(p) for p in range(4)] == [suit_of(x) for x in "SHDC"]
    # Three players: the suit left out is left out of both packs.
    s = play(ref.game(players=3, packs=2).new_state(), "leave out H")
    assert [s.stock(p) for p in range(3)] == [suit_of(x) for x in "SDC"]
    assert [s.second_stock(p) for p in range(3)] == [suit_of(x) for x in "SDC"]
    assert s.observation_string(1).split(" ")[3] == "13/13|13/13|13/13"


def test_rule_two_packs_stage_one_and_the_higgs_use_the_first_pack_only():
    """The Higgs: "the dealer picks up his remaining cards and chooses a card from those
    remaining in hand" -- the first stock; the second pack's stock stays aside."""
    s = ref.game(players=4, packs=2).new_state()
    while s.current_player != 0 or s.notation().split(" ")[4] != "higgs:0":
        s = lowest(s)
    # Each outer card was the lowest of its placer's first stock: AS AH AD AC 2S 2H 2D 2C.
    assert s.hand(0) == suit_of("S")[2:] and s.second_stock(0) == suit_of("S")
    assert list(s.legal_actions()) == [2349 + idx(c) for c in suit_of("S")[2:]]


def test_rule_two_packs_the_second_stock_is_taken_up_at_the_start_of_the_next_turn():
    """"when the last card of the first stock is placed the second stock may be taken up and
    used on the player's next turn of play" -- with two packs as with two players."""
    s = four_player("8S 2H TD / 3C 5S KH / QD 4C JS", [["9S"], ["7H"], ["7D"], ["7C"]])
    s = play(s, "9S a1")  # 9 on 8, ascending
    assert s.hand(0) == [] and s.second_stock(0) == suit_of("S")
    assert moves(s) == ["end"], "the hand is empty mid-turn: the second stock stays aside"
    s = play(s, "end", "pass", "pass", "pass")  # the 7s fit nothing under ascending
    assert s.current_player == 0 and s.hand(0) == suit_of("S") and s.second_stock(0) == []
    # The second pack's spades: TS ascends on the 9S on a1.
    assert "TS a1" in moves(s)


def test_rule_two_packs_a_card_and_its_twin_are_alike_on_the_display():
    """"Placing Rule 3; a card is placed on top of an equal valued card in the display" and
    "an adjacent 'pair' of equal ranked cards": the second pack's 7S on the first pack's 7S is
    an equal placement, and beside it a pair."""
    base = "7S 2H TD / 3C 5S KH / QD 4C JS"
    s = four_player(base, [["7S", "6S"], ["9H"], ["9D"], ["9C"]], aside=(False, True, True, True),
                    pattern="free")
    assert "7S a1 equal" not in moves(s) and "7S a1" in moves(s)
    after = play(s, "7S a1")
    assert after.pattern() == "free" and after.scores() == [0, 0, 0, 0]
    assert after.stack("a1")[-2:] == ["7S", "7S"]
    assert ref.game(players=4, packs=2).from_notation(after.notation()) == after
    # The twin beside: the second 7S ascending on the 6H at b1 pairs with the 7S on a1 (2)
    # and scores 1 for the rule.
    s = four_player("7S 6H TD / 3C 5S KH / QD 4C JS", [["7S"], ["9H"], ["9D"], ["9C"]],
                    aside=(False, True, True, True), pattern="ascending")
    after = play(s, "7S b1")
    assert after.scores()[0] == 1 + 2  # ascending 1, pair with a1's 7S 2


def test_rule_partners_sit_next_to_each_other_and_share_their_points():
    """"partners should sit next to each other" and "the player or team with the highest
    score wins the match": seats 0 and 1 are partners, 2 and 3 the other team; each team's
    total is both partners' return."""
    s = four_player("8S 2H TD / 3C 5S KH / QD 4C JS", [["9S"], ["9H"], ["7D"], ["7C"]],
                    packs=1, teams="partners", scores="3+4,10+0")
    assert s.returns() == [7.0, 7.0, 10.0, 10.0]
    s = play(s, "9S a1", "end")
    assert s.current_player == 1, "the partner plays next"
    assert s.notation().split(" ")[6] == "4+4,10+0"  # 9S on 8S: 1 point, no bonus
    assert s.returns() == [8.0, 8.0, 10.0, 10.0]


def test_rule_the_penalty_in_a_team_game_goes_to_each_opponent_not_the_partner():
    """"Using more than four cards in a turn of play incurs a penalty: four points are awarded
    to each opponent" -- the two players of the other team, 8 for their team."""
    s = four_player("8S 2H TD / 3C 5S KH / QD 4C 9D", [["9S", "TS", "JS", "QS", "KS"], ["9H"],
                    ["7D"], ["7C"]], packs=1, teams="partners", scores="10+20,30+40")
    s = play(s, "9S a1", "TS a1", "JS a1", "QS a1")
    assert s.scores() == [14, 20, 30, 40]
    s = play(s, "KS a1")  # the fifth card: K on Q, ascending, 1 point
    assert s.scores() == [15, 20, 34, 44]
    assert s.returns() == [35.0, 35.0, 78.0, 78.0]


def test_rule_a_partners_hand_is_hidden_from_the_other_partner():
    """Partners "sit next to each other", not in each other's hands: no table talk."""
    a = four_player("8S 2H TD / 3C 5S KH / QD 4C JS", [["9S"], ["9H", "7H"], ["7D"], ["7C"]],
                    packs=1, teams="partners")
    b = four_player("8S 2H TD / 3C 5S KH / QD 4C JS", [["9S"], ["9H", "6H"], ["7D"], ["7C"]],
                    packs=1, teams="partners")
    assert a.observation_string(0).split(" ")[2] == "9S|#2|#1|#1"
    assert b.observation_string(0) == a.observation_string(0)
    assert b.observation_string(1) != a.observation_string(1)
