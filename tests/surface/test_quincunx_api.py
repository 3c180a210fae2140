"""quanta.quincunx: the Python surface of the engine -- accessors, score_placement, typed errors,
rendering, solitaire and match flows, and what observations hide.

Expected values are worked out by hand from docs/rules/quincunx.md (the arithmetic is written
next to each), or follow from the rules along random games (score_placement against the
engine's own turn scores, hand penalties from the card codes)."""

from __future__ import annotations

import copy
import dataclasses
import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from helpers import play

import quanta
import quanta.quincunx as qx
from quanta import IllegalMoveError, InvalidNotationError

BASIC = [
    "AM", "AS", "AW", "AL", "AY", "AK",
    "2MK", "2SY", "2WL", "3MW", "3SK", "3LY", "4MS", "4WL", "4YK", "5ML", "5SW", "5YK",
    "6MW", "6SY", "6LK", "7ML", "7SK", "7WY", "8MS", "8WL", "8YK", "9MS", "9WY", "9LK",
    "CM", "CS", "CW", "CL", "CY", "CK",
]  # fmt: skip


def penalty(code: str) -> int:
    """What a card left in hand costs, read off its code: Ace 15, Crown 10, Excuse 0, numeral
    its rank (the code's digit)."""
    return {"A": 15, "C": 10, "X": 0}.get(code[0], None) if not code[0].isdigit() else int(code[0])


def empty_grid(side: int = 5) -> list:
    return [[None] * side for _ in range(side)]


def with_cards(cells: dict, side: int = 5) -> list:
    """A grid with ``cells`` {(row, col): code}."""
    rows = empty_grid(side)
    for (r, c), code in cells.items():
        rows[r][c] = code
    return rows


def two_player_dealt(hand0: list, hand1: list, pile: list) -> str:
    """The notation of a two-player position right after the deal, whose start cards are the
    lowest five (a1 AM, e1 AS, c3 AW, a5 AL, e5 AY); player 0 to place."""

    def cards(codes: list) -> str:
        return ",".join(sorted(codes, key=BASIC.index))

    grid = "AM,.,.,.,AS/.,.,.,.,./.,.,AW,.,./.,.,.,.,./AL,.,.,.,AY"
    return f"{grid} {cards(hand0)}|{cards(hand1)} {cards(pile)} 0,0 0 1/1"


# After a deal of the lowest cards: player 0 holds the next ten, player 1 the ten after, and
# eleven cards are left in the pile.
DEALT = two_player_dealt(BASIC[5:15], BASIC[15:25], BASIC[25:])


@pytest.fixture
def dealt():
    return quanta.game("quincunx").from_notation(DEALT)


# ---- accessors ----


def test_accessors_read_the_position(dealt):
    assert dealt.grid() == [
        ["AM", None, None, None, "AS"],
        [None] * 5,
        [None, None, "AW", None, None],
        [None] * 5,
        ["AL", None, None, None, "AY"],
    ]
    assert dealt.hand(0) == ["AK", "2MK", "2SY", "2WL", "3MW", "3SK", "3LY", "4MS", "4WL", "4YK"]
    assert dealt.hand(1) == BASIC[15:25]
    assert dealt.pile() == ["8WL", "8YK", "9MS", "9WY", "9LK", "CM", "CS", "CW", "CL", "CY", "CK"]
    assert dealt.scores() == [0, 0]
    assert dealt.lost() is False
    for bad in [2, -1, "0", True]:
        with pytest.raises(ValueError):
            dealt.hand(bad)
    for name in ["grid", "hand", "scores", "pile", "lost", "view"]:
        assert name in dir(dealt)


def test_accessors_follow_a_placement(dealt):
    # The Journey (3, Moons and Waves) on b1, next to the Ace of Moons on a1: 1 + 3 = 4 and a
    # shared suit: +4 (Ace matching). Then player 1 is to place.
    s = play(dealt, "3MW b1")
    assert s.grid()[0][:2] == ["AM", "3MW"]
    assert "3MW" not in s.hand(0) and len(s.hand(0)) == 9
    assert s.scores() == [4, 0]
    assert s.current_player == 1
    assert dealt.scores() == [0, 0] and dealt.hand(0)[4] == "3MW"  # the old state is unchanged


def test_deck_table_matches_the_codes():
    assert [c.code for c in qx.CARDS] == BASIC + ["X"]
    assert [c.index for c in qx.CARDS] == list(range(37))
    author = qx.CARDS[6]
    assert (author.name, author.rank, author.suits) == ("the Author", 2, "MK")
    assert (qx.CARDS[35].name, qx.CARDS[35].rank, qx.CARDS[35].suits) == ("the Windfall", 10, "K")
    assert (qx.CARDS[36].rank, qx.CARDS[36].suits) == (0, "")


# ---- rendering ----


def test_text_shows_grid_hands_scores_and_status(dealt):
    out = qx.text(dealt)
    assert str(dealt) == out
    lines = out.splitlines()
    assert lines[0].split() == ["a", "b", "c", "d", "e"]
    assert lines[1].split() == ["1", "AM", ".", ".", ".", "AS"]
    assert lines[3].split() == ["3", ".", ".", "AW", ".", "."]
    assert "player 0: AK 2MK" in out and "(0 points)" in out
    assert "pile: 11 cards" in out
    assert lines[-1] == "round 1/1: player 0 to place"


def test_svg_shows_card_names_and_suits(dealt):
    picture = qx.svg(play(dealt, "3MW b1"))
    root = ET.fromstring(picture)
    texts = [t.text for t in root.iter() if t.tag.endswith("text")]
    assert "Journey" in texts and "Ace of Moons" in texts
    assert "M" in texts and "W" in texts  # suit letters of the Journey
    assert dealt._repr_svg_().startswith("<svg")


def test_status_at_the_end_names_the_winner():
    g = quanta.game("quincunx", players=1)
    s = g.from_notation("AM,.,.,AS/.,.,.,./.,.,.,./AW,.,.,AL 2MK "
                        + ",".join(c for c in BASIC if c not in {"AM", "AS", "AW", "AL", "2MK"})
                        + " 0 0 1/1")
    s = play(s, "2MK b1")  # the Author next to the Ace of Moons: +3; the hand is empty: lost
    assert qx.status(s) == "game over: lost, 3 points"


# ---- score_placement ----


def test_score_placement_basic_sum_twelve_to_nineteen_gains_sum_minus_ten():
    # The Cave (7) on c3 with the Lunatic (6) on d3: 13 -> +3.
    p = qx.score_placement(with_cards({(2, 3): "6MW"}), "7WY", (2, 2))
    assert (p.points, p.draws) == (3, 0)
    assert p.breakdown == {"basic": 3, "pairs": 0, "straights": 0, "sets": 0, "power": 0}


def test_score_placement_cell_by_name_or_row_and_column():
    rows = with_cards({(2, 3): "6MW"})
    assert qx.score_placement(rows, "7WY", "c3") == qx.score_placement(rows, "7WY", (2, 2))


def test_score_placement_ace_matching():
    # The Ace of Knots next to the Betrayal (8, Wyrms and Knots): 9, shared suit -> +9; next to
    # the Pact (9, Moons and Suns) below: 10 -> 0.
    p = qx.score_placement(with_cards({(0, 1): "8YK", (1, 0): "9MS"}), "AK", (0, 0))
    assert p.basic == 9 and p.points == 9


def test_score_placement_eleven_and_twenty_draw():
    # The Sea (Crown, 10) between the Ace of Suns (11) and the Bard (Crown: 20, and a pair).
    p = qx.score_placement(with_cards({(0, 0): "AS", (0, 2): "CS"}), "CW", (0, 1))
    assert (p.draws, p.basic, p.pairs, p.points) == (2, 0, 5, 5)


def test_score_placement_straight_three_of_a_kind_and_pair():
    # Row 3 4 [5]: a straight (+20), 4 + 5 = 9 -> -9. Column: the Discovery (5) above: a pair
    # (+5) and 10 -> 0.
    rows = with_cards({(2, 0): "3MW", (2, 1): "4MS", (1, 2): "5SW"})
    p = qx.score_placement(rows, "5ML", (2, 2))
    assert p.breakdown == {"basic": -9, "pairs": 5, "straights": 20, "sets": 0, "power": 0}
    # Three 5s in the column: three of a kind (+30), no pair inside it.
    rows[0][2] = "5YK"
    p = qx.score_placement(rows, "5ML", (2, 2))
    assert (p.sets, p.pairs, p.straights) == (30, 0, 20)
    assert p.points == 30 + 20 - 9


def test_score_placement_no_diagonals_in_solitaire():
    rows = with_cards({(0, 0): "3MW", (1, 1): "4MS"}, side=4)
    assert qx.score_placement(rows, "5ML", (2, 2), solitaire=True).straights == 0
    assert qx.score_placement(rows, "5ML", (2, 2)).straights == 20


def test_score_placement_power_play():
    # The Ace of Leaves beside the End (Crown of Leaves): 11 -> a draw, and the Leaves numerals
    # on the grid count: the Origin 2 + the Market 6 = 8 (the Moons-only Journey does not).
    rows = with_cards({(0, 1): "CL", (3, 3): "2WL", (4, 0): "6LK", (4, 4): "3MW"})
    p = qx.score_placement(rows, "AL", (0, 0))
    assert (p.power, p.draws, p.points) == (8, 1, 8)


def test_score_placement_excuse_scores_nothing():
    p = qx.score_placement(with_cards({(0, 1): "CL", (1, 0): "CS"}), "X", (0, 0))
    assert p.points == 0 and p.draws == 0


def test_placement_is_a_frozen_dataclass():
    p = qx.score_placement(empty_grid(), "AM", (0, 0))
    assert dataclasses.is_dataclass(p)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.basic = 3


@pytest.mark.parametrize(
    "grid, card, cell, error",
    [
        (with_cards({(2, 2): "AM"}), "AS", (2, 2), IllegalMoveError),  # occupied
        (with_cards({(2, 2): "AM"}), "AM", (0, 0), IllegalMoveError),  # already on the grid
        (with_cards({(2, 2): "AM", (0, 1): "AM"}), "AS", (0, 0), IllegalMoveError),  # twice
        (empty_grid(), "AS", (5, 0), IllegalMoveError),  # off the grid
        (empty_grid(), "AS", (0, -1), IllegalMoveError),
        (empty_grid(), "AS", "f1", IllegalMoveError),  # no such cell name
        (empty_grid(), "AS", "apple", IllegalMoveError),
        (empty_grid(), "AS", None, IllegalMoveError),
        (empty_grid(), "ZZ", (0, 0), InvalidNotationError),  # unknown card
        (empty_grid(), 7, (0, 0), InvalidNotationError),
        (with_cards({(1, 1): "2KM"}), "AS", (0, 0), InvalidNotationError),  # unknown on the grid
        ([[None] * 5] * 4, "AS", (0, 0), InvalidNotationError),  # not square
        ([[None] * 3] * 3, "AS", (0, 0), InvalidNotationError),  # 3x3
        ([[None] * 6] * 6, "AS", (0, 0), InvalidNotationError),  # 6x6
        ("AM,.,.", "AS", (0, 0), InvalidNotationError),  # not a list of rows
        ([[1] * 5] * 5, "AS", (0, 0), InvalidNotationError),
    ],
)
def test_score_placement_errors_are_typed_value_errors_and_change_nothing(grid, card, cell, error):
    before = copy.deepcopy(grid)
    with pytest.raises(error):
        qx.score_placement(grid, card, cell)
    assert issubclass(error, ValueError)
    assert grid == before


def test_illegal_play_and_bad_notation_are_typed_and_change_nothing(dealt):
    before = dealt.notation()
    with pytest.raises(IllegalMoveError):
        dealt.parse_action("2MK a1")  # a1 is occupied
    with pytest.raises(IllegalMoveError):
        dealt.parse_action("5ML b1")  # player 1's card
    with pytest.raises(IllegalMoveError):
        dealt.play(6 * 25 + 0)  # the Author on a1
    with pytest.raises(IllegalMoveError):
        dealt.play(37 * 25 + 25)  # a draw at a decision
    assert dealt.notation() == before
    g = dealt.game
    for bad in [DEALT.replace("AK,", "", 1), DEALT.replace("AK,", "AK,AK,", 1),
                DEALT.replace(" 0 1/1", " 0+1 2/1"), DEALT.replace("AM,", "ZZ,", 1)]:
        with pytest.raises(InvalidNotationError):
            g.from_notation(bad)


# ---- flows ----


def turn_of(state) -> str:
    return state.notation().split(" ")[4]


def round_of(state) -> str:
    return state.notation().split(" ")[5]


def random_action(state, rng: random.Random) -> int:
    if state.is_chance:
        actions, weights = zip(*state.chance_outcomes())
        return rng.choices(actions, weights)[0]
    return rng.choice(state.legal_actions())


def scoring_window(rows: list, cell: str):
    """The grid and the cell to hand to score_placement: the grid itself, or for the book
    setup's 9x9 board a 5x5 window of it holding every placed card and ``cell`` (the rules
    score a book grid as the 5x5 grid it grows into)."""
    row, col = int(cell[1:]) - 1, "abcdefghi".index(cell[0])
    if len(rows) != 9:
        return rows, (row, col)
    placed = [(r, c) for r in range(9) for c in range(9) if rows[r][c] is not None]
    top = min(min(r for r, _ in placed + [(row, col)]), 4)
    left = min(min(c for _, c in placed + [(row, col)]), 4)
    window = [line[left:left + 5] for line in rows[top:top + 5]]
    assert sum(code is not None for line in window for code in line) == len(placed)
    return window, (row - top, col - left)


def play_checking_scores(state, rng: random.Random, solitaire: bool = False):
    """Plays ``state`` to the end at random, checking every step against the rules: a placement
    adds score_placement's points to its player and is followed by its draws (no more than the
    pile holds); a draw puts the card in the placer's hand; when a round ends every player loses
    the penalty of the cards left in hand; the returns are the scores but for a lost solitaire
    game. Returns the final state, the player who began each round and the number of
    placements."""
    firsts, placements = [], 0
    while not state.is_terminal:
        before, action = state, random_action(state, rng)
        state = before.play(action)
        text, turn = before.action_to_string(action), turn_of(before)
        expected = before.scores()
        hands = [before.hand(p) for p in range(before.game.num_players)]
        if turn.isdigit():
            placements += 1
            card, cell = text.split(" ")
            rows, at = scoring_window(before.grid(), cell)
            placement = qx.score_placement(rows, card, at, solitaire=solitaire)
            expected[int(turn)] += placement.points
            hands[int(turn)].remove(card)
            draws = min(placement.draws, len(before.pile()))
            if draws:
                assert turn_of(state) == f"{turn}+{draws}"
        elif turn != "deal":
            assert text.startswith("draw ")
            hands[int(turn.split("+")[0])].append(text.split(" ")[1])
        else:
            assert text.startswith("deal ")
            if turn_of(state) != "deal":
                firsts.append(state.current_player)
        if state.is_terminal or round_of(state) != round_of(before):
            expected = [e - sum(penalty(c) for c in h) for e, h in zip(expected, hands)]
        assert state.scores() == expected, (before.notation(), text)
        # A lost solitaire game returns -223, below every completed game (its turn points
        # stay in the scores).
        returns = [-223.0] if solitaire and state.lost() else [float(e) for e in expected]
        assert state.returns() == returns
    return state, firsts, placements


def test_solitaire_flow_won_and_lost_games():
    g = quanta.game("quincunx", players=1)
    assert (g.num_players, g.num_actions, g.observation_shape) == (1, 37 * 16 + 37, (38, 18))
    rng = random.Random(11)
    outcomes = set()
    for _ in range(60):
        end, firsts, placements = play_checking_scores(g.new_state(), rng, solitaire=True)
        full = all(code is not None for row in end.grid() for code in row)
        assert end.lost() == (not full)
        assert firsts == [0]
        # 16 cells, 4 dealt face up: a won game has 12 placements, a lost one fewer and an
        # empty hand.
        if end.lost():
            assert placements < 12 and end.hand(0) == []
        else:
            assert placements == 12
        outcomes.add(end.lost())
    assert outcomes == {True, False}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_match_rotates_the_dealer_and_carries_totals(players):
    g = quanta.game("quincunx", players=players, match=True)
    assert g.options["match"] is True
    rng = random.Random(players)
    end, firsts, _ = play_checking_scores(g.new_state(), rng)
    # Round r is dealt by player (n - 1 + r) % n; the player on the dealer's left begins.
    assert firsts == list(range(players))
    assert round_of(end) == f"{players}/{players}"


def test_a_single_round_without_match():
    g = quanta.game("quincunx", players=4)
    end, firsts, placements = play_checking_scores(g.new_state(), random.Random(4))
    assert firsts == [0] and round_of(end) == "1/1"
    assert placements == 25 - 5  # corners and centre dealt face up


# ---- observations ----


def test_observation_hides_the_other_hands_and_the_pile(dealt):
    g = dealt.game
    theirs = set(dealt.hand(1)) | set(dealt.pile())
    words = set(dealt.observation_string(0).replace("|", " ").replace(",", " ").split())
    assert set(dealt.hand(0)) <= words and not words & theirs
    # Player 1's Forest and the pile's Windfall swap places: player 0 sees no difference.
    swapped = g.from_notation(two_player_dealt(BASIC[5:15], BASIC[16:25] + ["CK"],
                                               ["5ML"] + BASIC[25:35]))
    assert swapped.hand(1) != dealt.hand(1)
    assert swapped.observation_string(0) == dealt.observation_string(0)
    np.testing.assert_array_equal(swapped.observation_tensor(0), dealt.observation_tensor(0))
    assert swapped.observation_string(1) != dealt.observation_string(1)


def test_observation_tensor_layout(dealt):
    t = dealt.observation_tensor(0)
    assert t.shape == (38, 27) and t.dtype == np.float32
    index = {c: i for i, c in enumerate(BASIC)}
    assert t[index["AM"], 0] == 1 and t[index["AY"], 24] == 1  # on a1 and e5
    assert t[index["AM"], :25].sum() == 1
    for code in dealt.hand(0):
        assert (t[index[code], 25], t[index[code], 26]) == (1, 0)  # in my hand
    for code in dealt.hand(1) + dealt.pile():
        assert (t[index[code], 25], t[index[code], 26]) == (0, 1)  # unseen
    assert t[36].sum() == 0  # no Excuse in this game
    # hand sizes 10 10, scores 0 0, player 0 to place, observer 0, pile 11, no draws, not
    # dealing, round 0, not over.
    assert t[37, :13].tolist() == [10, 10, 0, 0, 1, 0, 1, 0, 11, 0, 0, 0, 0]


# ---- the book setup ----


@pytest.mark.parametrize("players, hand", [(2, 12), (3, 8)])
def test_book_games_score_as_the_5x5_grid_they_grow_into(players, hand):
    g = quanta.game("quincunx", players=players, setup="book", excuse=players == 3)
    assert g.options["setup"] == "book"
    assert (g.num_actions, g.observation_shape) == (37 * 81 + 37, (38, 83))
    rng = random.Random(players)
    for _ in range(5):
        end, firsts, placements = play_checking_scores(g.new_state(), rng)
        assert firsts == [0]
        assert placements == 24  # one start card, then 24 placements fill the 5x5 square
        rows = end.grid()
        used = [(r, c) for r in range(9) for c in range(9) if rows[r][c] is not None]
        assert len(used) == 25 and rows[4][4] is not None
        assert {max(r for r, _ in used) - min(r for r, _ in used),
                max(c for _, c in used) - min(c for _, c in used)} == {4}


def test_book_match_rotates_the_dealer():
    g = quanta.game("quincunx", players=3, setup="book", match=True)
    end, firsts, _ = play_checking_scores(g.new_state(), random.Random(7))
    assert firsts == [0, 1, 2] and round_of(end) == "3/3"


def test_book_text_svg_and_observation_show_the_9x9_board():
    g = quanta.game("quincunx", setup="book")
    s = g.new_state()
    while s.is_chance:
        s = s.play(s.legal_actions()[0])
    s = play(s, "AS f5")
    # The example of docs/rules/quincunx.md: 1 + 1 = 2 with no shared suit, -2; a pair, +5.
    empty = ",".join(["."] * 9)
    assert s.notation() == (
        "/".join([empty] * 4 + [".,.,.,.,AM,AS,.,.,."] + [empty] * 4)
        + " AW,AL,AY,AK,2MK,2SY,2WL,3MW,3SK,3LY,4MS|4WL,4YK,5ML,5SW,5YK,6MW,6SY,6LK,7ML,7SK,"
        "7WY,8MS 8WL,8YK,9MS,9WY,9LK,CM,CS,CW,CL,CY,CK 3,0 1 1/1"
    )
    rows = s.grid()
    assert len(rows) == 9 and rows[4][4:6] == ["AM", "AS"]
    lines = qx.text(s).splitlines()
    assert lines[0].split() == list("abcdefghi")
    assert lines[5].split() == ["5", ".", ".", ".", ".", "AM", "AS", ".", ".", "."]
    assert "pile: 11 cards" in qx.text(s)
    root = ET.fromstring(qx.svg(s))
    texts = [t.text for t in root.iter() if t.tag.endswith("text")]
    assert "Ace of Moons" in texts and "i" in texts and "9" in texts
    t = s.observation_tensor(0)
    assert t.shape == (38, 83)
    assert t[0, 40] == 1 and t[1, 41] == 1  # AM on e5 (cell 40), AS on f5 (cell 41)
    assert s.observation_string(1).split(" ")[0] == s.notation().split(" ")[0]


@pytest.mark.parametrize("players", [2, 3])
def test_book_games_keep_the_api_contract(players):
    # The contract checks of tests/contract/test_contract.py run on the default game of each name; run
    # them on the book setup too.
    from contract import test_contract as contract  # tests/ is on the path (conftest.py)

    g = quanta.game("quincunx", players=players, setup="book", excuse=True)
    for check in (
        contract.test_game_parameters,
        contract.test_states_along_random_games_keep_the_contract,
        contract.test_illegal_actions_raise_and_change_nothing,
        contract.test_every_state_is_of_its_games_state_class,
        contract.test_the_view_of_nobody_is_everything_and_a_players_view_hides_no_more_than_it_must,
        contract.test_observations_have_the_declared_shape,
        contract.test_svg_is_well_formed,
        contract.test_garbage_notation_is_an_invalid_notation_error,
    ):
        check(g)


def test_rule_resample_deals_the_unseen_cards_uniformly_hands_keeping_their_sizes():
    """Player 0 cannot tell the pile from player 1's hand: each card player 0 has not seen
    lands in player 1's hand with probability (its size) / (cards unseen)."""
    g = quanta.game("quincunx", players=2)
    s = g.new_state()
    while s.is_chance:
        s = s.play(s.legal_actions()[0])
    other, pile = s.hand(1), s.pile()
    unseen = other + pile
    share = len(other) / len(unseen)
    counts = dict.fromkeys(unseen, 0)
    samples = 2000
    for seed in range(samples):
        r = s.resample(0, seed)
        assert r.hand(0) == s.hand(0) and r.grid() == s.grid()
        assert len(r.hand(1)) == len(other)
        for card in r.hand(1):
            counts[card] += 1
    # Binomial(2000, share): five standard deviations either side.
    sd = (samples * share * (1 - share)) ** 0.5
    assert all(abs(c - samples * share) < 5 * sd for c in counts.values()), counts


def test_rule_states_differing_only_in_an_unseen_card_look_alike_to_the_player():
    """Swapping a card between player 1's hand and the pile changes nothing player 0 sees,
    and changes what player 1 sees."""
    g = quanta.game("quincunx", players=2)
    s = g.new_state()
    while s.is_chance:
        s = s.play(s.legal_actions()[0])
    held, waiting = s.hand(1)[0], s.pile()[0]
    grid, hands, pile, *rest = s.notation().split(" ")
    h0, h1 = hands.split("|")
    swap = {held: waiting, waiting: held}
    h1 = ",".join(sorted((swap.get(c, c) for c in h1.split(",")), key=qx_index))
    pile = ",".join(sorted((swap.get(c, c) for c in pile.split(",")), key=qx_index))
    t = g.from_notation(" ".join([grid, f"{h0}|{h1}", pile, *rest]))
    assert t != s
    assert t.observation_string(0) == s.observation_string(0)
    assert t.information_state_string(0) == s.information_state_string(0)
    assert (t.observation_tensor(0) == s.observation_tensor(0)).all()
    assert t.observation_string(1) != s.observation_string(1)
    assert (t.observation_tensor(1) != s.observation_tensor(1)).any()


def qx_index(code: str) -> int:
    return next(card.index for card in quanta.quincunx.CARDS if card.code == code)
