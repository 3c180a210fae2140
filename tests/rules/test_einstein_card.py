"""EinStein a la Card: each rule of docs/rules/einstein_card.md (each test names the rule it
checks), the hidden hands (observations and resampling) and the picture."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from helpers import moves, play, random_step

import quanta
import quanta.einstein_card as ec
from quanta import CHANCE, InvalidNotationError, InvalidOptionError
from quanta.reference import einstein_card as reference

FULL = "112233445566LFCDHS"
START = "123../45.../6...f/...ed/..cba"


def heap_of(hand: str, played: str) -> str:
    rest = list(FULL)
    for card in hand.strip("-") + played.strip("-"):
        rest.remove(card)
    return "".join(rest) or "-"


def notation(rows, player, phase, hands=("-", "-"), played=("-", "-")) -> str:
    heaps = [heap_of(hands[p], played[p]) for p in (0, 1)]
    return f"{rows} {player} {phase} {hands[0]}|{hands[1]} {heaps[0]}|{heaps[1]} {played[0]}|{played[1]}"


def at(rows, player, phase, hands=("-", "-"), played=("-", "-"), **options):
    text = notation(rows, player, phase, hands, played)
    return quanta.game("einstein_card", **options).from_notation(text)


def both(rows, player, phase, hands=("-", "-"), played=("-", "-"), **options):
    """The position in the engine and in the reference."""
    text = notation(rows, player, phase, hands, played)
    return (quanta.game("einstein_card", **options).from_notation(text),
            reference.game(**options).from_notation(text))  # fmt: skip


def phase(state) -> str:
    return state.notation().split(" ")[2]


# ---- the cards and the turn ----


def test_rule_each_player_has_eighteen_cards_two_of_each_number_one_of_each_special():
    s = quanta.game("einstein_card").new_state()
    for p in (0, 1):
        assert Counter(s.heap(p)) == Counter(
            ["1", "2", "3", "4", "5", "6"] * 2
            + ["Murphy Light", "Full Murphy", "Da Capo", "Dirac", "Heisenberg", "Schroedinger"]
        )


def test_rule_a_draw_is_a_chance_event_with_the_odds_of_the_copies_left():
    s = play(quanta.game("einstein_card", setup="choose").new_state(), "setup 123456", "setup 123456")
    assert s.is_chance and phase(s) == "deal"
    odds = {s.action_to_string(a): p for a, p in s.chance_outcomes()}
    assert odds["draw 3"] == pytest.approx(2 / 18) and odds["draw Dirac"] == pytest.approx(1 / 18)
    s = play(s, "draw Dirac")
    odds = {s.action_to_string(a): p for a, p in s.chance_outcomes()}
    assert "draw Dirac" not in odds and odds["draw 3"] == pytest.approx(2 / 17)


@pytest.mark.parametrize("sizes", [(2, 2), (2, 3), (3, 1)])
def test_rule_hand_size_per_player_is_dealt_player_0_first(sizes):
    g = quanta.game("einstein_card", hand_size=sizes)
    s, rng = g.new_state(), random.Random(0)
    while phase(s) != "play":
        s = random_step(s, rng)
    assert [len(s.hand(p)) for p in (0, 1)] == list(sizes)
    assert [len(s.heap(p)) for p in (0, 1)] == [18 - n for n in sizes]
    assert s.current_player == 0


def test_rule_play_one_card_resolve_it_then_draw_one_and_the_turn_passes():
    s = at(START, 0, "play", ("3F", "12"))
    s = play(s, "play 3")
    assert s.discards(0) == ["3"] and s.hand(0) == ["Full Murphy"] and phase(s) == "3"
    s = play(s, "c1d2")
    assert s.is_chance and phase(s) == "draw"
    s = play(s, "draw Dirac")
    assert s.hand(0) == ["Full Murphy", "Dirac"] and s.current_player == 1 and phase(s) == "play"


def test_rule_no_draw_once_the_heap_is_empty():
    s = at("1..../...../...../...../....a", 0, "play", ("3", "12"), (FULL.replace("3", "", 1), "-"))
    s = play(s, "play 3", "a1b1")
    assert phase(s) == "play" and s.current_player == 1 and s.hand(0) == []


def test_rule_all_36_cards_played_without_a_winner_is_a_draw():
    rest = FULL.replace("6", "", 1)
    s = at("1..../...../...../...../....a", 1, "play", ("-", "6"), (FULL, rest))
    s = play(s, "play 6", "e5d5")
    assert s.is_terminal and s.returns() == [0.0, 0.0]


def test_rule_the_played_card_is_public_and_a_draw_of_the_other_player_is_hidden():
    s = at(START, 0, "play", ("3F", "12"))
    a = s.parse_action("play 3")
    assert s.action_to_string(a, 1) == "play 3"
    s = play(s, "play 3", "c1d2")
    draw = s.parse_action("draw Dirac")
    assert s.action_to_string(draw, 0) == "draw Dirac"
    assert s.action_to_string(draw, 1) == "draw ?"
    open_hands = at(START, 0, "3", ("F", "12"), ("3", "-"), open_hands=True)
    open_hands = play(open_hands, "c1d2")
    assert open_hands.action_to_string(open_hands.parse_action("draw Dirac"), 1) == "draw Dirac"


# ---- the special cards ----


def test_rule_number_card_moves_as_a_roll_with_the_nearest_stone_rule():
    s, r = both("1...5/...../...../...../....a", 0, "play", ("3F", "12"))
    s, r = play(s, "play 3"), play(r, "play 3")
    assert moves(s) == moves(r) == ["a1b1", "a1a2", "a1b2", "e1e2"]


def test_rule_murphy_light_the_opponent_names_the_stone_the_player_picks_its_step():
    s, r = both("1...5/...../...../...../....a", 0, "play", ("LF", "12"))
    for state in (s, r):
        named = play(state, "play Murphy Light")
        assert named.current_player == 1, "the opponent decides"
        assert moves(named) == ["stone a1", "stone e1"]
        stepped = play(named, "stone e1")
        assert stepped.current_player == 0 and moves(stepped) == ["e1e2"]


def test_rule_full_murphy_the_opponent_chooses_stone_and_step():
    s, r = both("1...5/...../...../...../....a", 0, "play", ("LF", "12"))
    for state in (s, r):
        full = play(state, "play Full Murphy")
        assert full.current_player == 1
        assert moves(full) == ["a1b1", "a1a2", "a1b2", "e1e2"], "player 0's steps, player 1's choice"
        after = play(full, "e1e2")
        assert after.board()[1][4] == 5 and after.is_chance  # player 0 draws next


def test_rule_full_murphy_a_step_onto_the_players_corner_wins_for_the_player():
    s = at("....a/...../...../....1/.....", 0, "play", ("2F", "12"))
    s = play(s, "play Full Murphy")
    s = play(s, "e4e5")
    assert s.is_terminal and s.returns() == [1.0, -1.0]


def test_rule_da_capo_resolves_as_the_opponents_last_card():
    s = at(START, 0, "play", ("1C", "12"), ("F", "4"))
    assert phase(play(s, "play Da Capo")) == "4"
    s = at(START, 0, "play", ("1C", "12"), ("F", "H"))
    after = play(s, "play Da Capo")
    assert phase(after) == "heisenberg" and after.is_chance, "special cards are copied too"


def test_rule_da_capo_after_the_opponents_da_capo_resolves_as_ones_own_last_card():
    s, r = both(START, 0, "play", ("1C", "12"), ("L", "C"))
    for state in (s, r):
        after = play(state, "play Da Capo")
        assert phase(after) == "murphy" and after.current_player == 1


def test_rule_da_capo_is_not_playable_without_a_card_to_copy():
    s, r = both(START, 0, "play", ("1C", "12"))
    assert moves(s) == moves(r) == ["play 1"]
    s, r = both(START, 0, "play", ("1C", "12"), ("-", "C"))
    assert moves(s) == moves(r) == ["play 1"]


def test_ruling_a_hand_of_only_da_capo_with_nothing_to_copy_plays_it_without_effect():
    s, r = both(START, 0, "play", ("C", "12"), hand_size=1)
    for state in (s, r):
        assert moves(state) == ["play Da Capo"]
        after = play(state, "play Da Capo")
        assert after.notation().split(" ")[0] == START, "no stone moves"
        assert phase(after) == "draw" and after.discards(0) == ["Da Capo"]


def test_rule_dirac_any_step_of_any_own_stone():
    s, r = both("1...5/...../..3../...../....a", 0, "play", ("FD", "12"))
    for state in (s, r):
        after = play(state, "play Dirac")
        assert after.current_player == 0
        assert moves(after) == ["a1b1", "a1a2", "a1b2", "e1e2", "c3d3", "c3c4", "c3d4"]


@pytest.mark.parametrize(("roll", "choices"), [(1, [1, 2]), (3, [2, 3, 4]), (6, [5, 6])])
def test_rule_heisenberg_roll_i_then_pick_j_among_i_minus_1_i_i_plus_1(roll, choices):
    s, r = both("1...5/...../...../...../....a", 0, "play", ("FH", "12"))
    for state in (s, r):
        rolled = play(state, "play Heisenberg")
        assert rolled.current_player == CHANCE
        assert [p for _, p in rolled.chance_outcomes()] == pytest.approx([1 / 6] * 6)
        rolled = play(rolled, f"roll {roll}")
        assert rolled.current_player == 0 and moves(rolled) == [f"j={j}" for j in choices]
        moved = play(rolled, f"j={choices[0]}")
        assert phase(moved) == str(choices[0])


def test_rule_schroedinger_marks_any_stone_then_4_to_6_removes_it_and_1_to_3_does_nothing():
    s, r = both("1...5/...../...../...../...ba", 0, "play", ("FS", "12"))
    for state in (s, r):
        marked = play(state, "play Schroedinger")
        assert marked.current_player == 0
        assert moves(marked) == ["stone a1", "stone e1", "stone d5", "stone e5"], "either side's"
        rolled = play(marked, "stone d5")
        assert rolled.is_chance and len(rolled.chance_outcomes()) == 6
        for roll in (1, 2, 3):
            assert play(rolled, f"roll {roll}").board()[4][3] == -2
        for roll in (4, 5, 6):
            assert play(rolled, f"roll {roll}").board()[4][3] == 0
        assert phase(play(rolled, "roll 5")) == "draw", "no stone moves"


@pytest.mark.parametrize(("cell", "returns"), [("e5", [1.0, -1.0]), ("a1", [-1.0, 1.0])])
def test_rule_schroedinger_a_side_left_without_stones_loses_at_once(cell, returns):
    s, r = both("1..../...../...../...../....a", 0, "play", ("FS", "12"))
    for state in (s, r):
        after = play(state, "play Schroedinger", f"stone {cell}", "roll 6")
        assert after.is_terminal and after.returns() == returns


def test_rule_captures_and_wins_are_einsteins():
    s = at("12.../...../...../...../....a", 0, "play", ("1F", "12"))
    after = play(s, "play 1", "a1b1")
    assert after.board()[0].tolist() == [0, 1, 0, 0, 0], "a step onto an own stone removes it"
    s = at("1..../.a.../...../...../.....", 0, "play", ("1F", "12"))
    after = play(s, "play 1", "a1b2")
    assert after.is_terminal and after.returns() == [1.0, -1.0]


# ---- options ----


def test_options_are_checked():
    for bad in [dict(hand_size=0), dict(hand_size=(2,)), dict(hand_size=(2, 19)),
                dict(hand_size="2"), dict(open_hands=1), dict(setup="x"), dict(first=2)]:  # fmt: skip
        with pytest.raises(InvalidOptionError):
            quanta.game("einstein_card", **bad)
    g = quanta.game("einstein_card", hand_size=3)
    assert g.options["hand_size"] == (3, 3)


@pytest.mark.parametrize("bad", [(True,), (True, False, True), (1, 0), (True, 1), "yes", 1, None,
                                 (), ("True", "False")])  # fmt: skip
def test_open_hands_takes_a_bool_or_a_pair_of_bools_only(bad):
    with pytest.raises(InvalidOptionError, match="open_hands") as engine:
        quanta.game("einstein_card", open_hands=bad)
    assert "true or false" in str(engine.value).lower() or "tuple of ints or of bools" in str(
        engine.value), "the message says what is expected"
    with pytest.raises(InvalidOptionError, match="open_hands"):
        reference.game(open_hands=bad)


@pytest.mark.parametrize(("given", "pair"), [(None, (False, False)), (False, (False, False)),
                                             (True, (True, True)), ((False, True), (False, True)),
                                             ([True, False], (True, False))])  # fmt: skip
def test_open_hands_is_reported_as_a_pair(given, pair):
    options = {} if given is None else {"open_hands": given}
    g = quanta.game("einstein_card", **options)
    assert g.options["open_hands"] == pair
    assert reference.game(**options).options["open_hands"] == pair
    assert eval(repr(g), {"quanta": quanta}) == g == quanta.game("einstein_card", open_hands=pair)
    assert (g == quanta.game("einstein_card", open_hands=pair[::-1])) == (pair == pair[::-1])


def test_notation_rejects_impossible_positions():
    g = quanta.game("einstein_card")
    good = notation(START, 0, "play", ("3F", "12"))
    g.from_notation(good)
    for bad in [
        good.replace("3F|12", "33F|12"),  # a card too many
        good.replace("3F|12", "F3|12"),  # hand out of card order
        good.replace(" play ", " 7 "),
        good.replace(" play ", " murphy-e5 "),  # no stone of player 0 there
        good.replace(" play ", " - "),  # over without a winner while cards remain
        good.replace(" play ", " heisenberg-0 "),
        notation(START, 0, "play", ("-", "12"), ("3F", "-")),  # nothing to play
    ]:
        with pytest.raises(InvalidNotationError):
            g.from_notation(bad)
        with pytest.raises(InvalidNotationError):
            reference.game().from_notation(bad)


# ---- hidden information ----


def test_observation_shows_own_hand_board_discards_and_counts_only():
    s = at(START, 0, "play", ("3F", "12"), ("-", "-"))
    assert s.observation_string(0) == f"{START} 0 play 3F|?? 16|16 -|-"
    assert s.observation_string(1) == f"{START} 0 play ??|12 16|16 -|-"
    opened = at(START, 0, "play", ("3F", "12"), open_hands=True)
    assert opened.observation_string(0) == f"{START} 0 play 3F|12 16|16 -|-"


def test_observations_are_equal_for_states_differing_only_in_what_the_player_cannot_see():
    a = at(START, 0, "play", ("3F", "12"), ("-", "-"))
    b = at(START, 0, "play", ("3F", "LS"), ("-", "-"))  # player 1's hand differs
    assert a.observation_string(0) == b.observation_string(0)
    assert (a.observation_tensor(0) == b.observation_tensor(0)).all()
    assert a.observation_string(1) != b.observation_string(1)
    assert (a.observation_tensor(1) != b.observation_tensor(1)).any()
    c = at(START, 0, "play", ("3D", "12"), ("-", "-"))  # player 0's hand differs
    assert (a.observation_tensor(0) != c.observation_tensor(0)).any()
    assert (a.observation_tensor(1) == c.observation_tensor(1)).all()


def test_resample_keeps_the_observation_and_spreads_the_unseen_cards_uniformly():
    """Player 0 holds 3F and sees 16 of player 1's cards nowhere: over many seeds each card
    kind lands in player 1's hand of 2 as often as the odds say (2/16 a copy)."""
    s = at(START, 0, "play", ("3F", "12"), ("-", "-"))
    seeds = 3000
    in_hand = Counter()
    for seed in range(seeds):
        r = s.resample(0, seed)
        assert r.observation_string(0) == s.observation_string(0)
        assert r.hand(0) == s.hand(0) and r.heap(0) == s.heap(0)
        in_hand.update(r.hand(1))
    for card, copies in Counter(FULL).items():
        name = ec.CARDS[card]
        expected = seeds * 2 * copies / 18
        sigma = (seeds * 2 * copies / 18) ** 0.5
        assert abs(in_hand[name] - expected) < 5 * sigma, (name, in_hand[name], expected)
    assert s.resample(0, 5) == s.resample(0, 5)
    assert len({s.resample(0, seed).notation() for seed in range(50)}) > 20


def test_resample_with_open_hands_changes_nothing():
    s = at(START, 0, "play", ("3F", "12"), open_hands=True)
    assert all(s.resample(p, seed) == s for p in (0, 1) for seed in range(5))


# ---- the handicap: one open hand ----

HANDICAP = "The stronger player acts with open cards."


def test_rule_handicap_the_stronger_player_acts_with_open_cards():
    """The rules' second handicap setting: "The stronger player acts with open cards." With
    ``open_hands=(False, True)`` player 1 is the stronger one: their hand is shown to player 0,
    and player 0's hand stays hidden from player 1, in the observation, the information state
    and the tensor."""
    s, r = both(START, 0, "play", ("3F", "12"), open_hands=(False, True))
    for state in (s, r):
        assert state.observation_string(0) == f"{START} 0 play 3F|12 16|16 -|-", HANDICAP
        assert state.observation_string(1) == f"{START} 0 play ??|12 16|16 -|-"
    assert s.information_state_string(0) == s.observation_string(0)
    assert s.information_state_string(1) == s.observation_string(1)
    # The tensor's hand entries (300 + q * 12 + k): player 0 sees both hands, player 1 only
    # their own (card 0 is the 1, card 1 the 2, card 2 the 3, card 7 Full Murphy).
    hands = lambda p: s.observation_tensor(p)[300:324].reshape(2, 12)  # noqa: E731
    mine, theirs = [0.0] * 12, [0.0] * 12
    mine[2] = mine[7] = 1.0
    theirs[0] = theirs[1] = 1.0
    assert hands(0).tolist() == [mine, theirs]
    assert hands(1).tolist() == [[0.0] * 12, theirs]
    # The other way round: player 0's hand open, player 1's closed.
    flipped = at(START, 0, "play", ("3F", "12"), open_hands=(True, False))
    assert flipped.observation_string(0) == f"{START} 0 play 3F|?? 16|16 -|-"
    assert flipped.observation_string(1) == f"{START} 0 play 3F|12 16|16 -|-"


def test_handicap_the_closed_hand_stays_hidden_from_the_open_handed_player():
    """Two states differing only in player 0's (closed) hand look the same to player 1, the
    open-handed player, and differ to player 0; two differing only in player 1's open hand
    look different to both."""
    options = dict(open_hands=(False, True))
    a = at(START, 0, "play", ("3F", "12"), **options)
    b = at(START, 0, "play", ("3D", "12"), **options)  # player 0's closed hand differs
    c = at(START, 0, "play", ("3F", "LS"), **options)  # player 1's open hand differs
    for view in ("observation_string", "information_state_string"):
        assert getattr(a, view)(1) == getattr(b, view)(1)
        assert getattr(a, view)(0) != getattr(b, view)(0)
        assert getattr(a, view)(0) != getattr(c, view)(0), "the open hand is seen"
        assert getattr(a, view)(1) != getattr(c, view)(1)
    assert (a.observation_tensor(1) == b.observation_tensor(1)).all()
    assert (a.observation_tensor(0) != c.observation_tensor(0)).any()


def test_handicap_draws_show_only_for_the_open_hand():
    # Player 1's hand open: player 1's draw shows to player 0, player 0's draw stays hidden from
    # player 1.
    options = dict(open_hands=(False, True))
    s, r = both(START, 0, "3", ("F", "12"), ("3", "-"), **options)
    for state in (s, r):
        after = play(state, "c1d2")
        draw = after.parse_action("draw Dirac")
        assert after.action_to_string(draw, 1) == "draw ?"
        assert after.action_to_string(draw, 0) == "draw Dirac"
    s, r = both(START, 1, "1", ("3F", "2"), ("-", "1"), **options)
    for state in (s, r):
        after = play(state, "e5e4")
        draw = after.parse_action("draw Dirac")
        assert after.action_to_string(draw, 0) == "draw Dirac", "player 1's hand is open"
        assert after.action_to_string(draw, 1) == "draw Dirac"


def test_handicap_resample_redraws_only_the_hand_the_player_cannot_see():
    """With player 1's hand open, player 0 knows everything: player 1's hand, and so player
    1's heap (their 18 cards less hand and discards). Player 1 cannot see player 0's hand:
    resampling for player 1 keeps player 1's own cards and redraws player 0's from the 16
    player 1 has not seen."""
    s = at(START, 0, "play", ("3F", "12"), open_hands=(False, True))
    assert all(s.resample(0, seed) == s for seed in range(20))
    hands = set()
    for seed in range(60):
        r = s.resample(1, seed)
        assert r.observation_string(1) == s.observation_string(1)
        assert r.information_state_string(1) == s.information_state_string(1)
        assert (r.observation_tensor(1) == s.observation_tensor(1)).all()
        assert r.hand(1) == s.hand(1) and r.heap(1) == s.heap(1), "the open hand stays"
        assert len(r.hand(0)) == 2
        hands.add(tuple(r.hand(0)))
    assert len(hands) > 10, "player 0's closed hand is redrawn"


def test_svg_shows_the_open_hand_to_everyone():
    s = at(START, 0, "play", ("3H", "LS"), ("F", "2"), open_hands=(False, True))
    for viewer in (None, 0, 1):
        root = ET.fromstring(ec.svg(s, viewer=viewer))
        titles = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title"))
        assert "Murphy Light" in titles and "Schroedinger" in titles, "player 1's open hand"
        assert ("Heisenberg" in titles) == (viewer == 0), "player 0's closed hand"


# ---- text and picture ----


def test_str_and_svg_show_the_board_the_last_cards_and_only_the_visible_hands():
    s = at(START, 0, "play", ("3H", "LS"), ("F", "2"))
    text = str(s)
    assert "player 0: hand 3, Heisenberg" in text and "player 0 to play a card" in text
    hidden = ec.svg(s)
    root = ET.fromstring(hidden)
    titles = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title"))
    assert "Full Murphy" in titles and "Heisenberg" not in titles and "Schroedinger" not in titles
    mine = ET.fromstring(ec.svg(s, viewer=0))
    titles = " ".join(t.text or "" for t in mine.iter("{http://www.w3.org/2000/svg}title"))
    assert "Heisenberg" in titles and "Schroedinger" not in titles
    assert s._repr_svg_() == hidden
    with pytest.raises(InvalidOptionError):
        ec.svg(s, viewer=2)
    assert re.search(r"last played Full Murphy", hidden)


OPTIONS = st.fixed_dictionaries(
    {
        "setup": st.sampled_from(["random", "choose"]),
        "first": st.sampled_from([0, 1]),
        "hand_size": st.sampled_from([(2, 2), (2, 3), (3, 2), (1, 4)]),
        "open_hands": st.sampled_from([False, True, (False, True), (True, False)]),
    }
)


@settings(max_examples=10)
@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_resample_keeps_what_the_player_knows_with_every_option(options, seed):
    """Along a random game with any options: a resampled state shows the player the same
    observation (string and tensor) and, on their turn, the same legal actions; the player's
    own cards never move, and the other hand keeps its size; nothing moves when the other hand
    is open."""
    g, rng = quanta.game("einstein_card", **options), random.Random(seed)
    open_hands = g.options["open_hands"]
    s = g.new_state()
    while not s.is_terminal:
        for p in (0, 1):
            r = s.resample(p, rng.randrange(2**32))
            assert r.observation_string(p) == s.observation_string(p)
            assert (r.observation_tensor(p) == s.observation_tensor(p)).all()
            assert r.hand(p) == s.hand(p) and r.heap(p) == s.heap(p)
            assert len(r.hand(1 - p)) == len(s.hand(1 - p))
            if open_hands[1 - p]:
                assert r == s
            if s.current_player == p:
                assert r.legal_actions() == s.legal_actions()
        s = random_step(s, rng)
