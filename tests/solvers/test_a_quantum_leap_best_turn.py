"""A Quantum Leap: the reference's exact best-turn and best-Higgs oracles (`best_turn`,
`best_higgs` in quanta.reference.a_quantum_leap; docs/rules/a_quantum_leap.md, "Best turn and
best Higgs"). Worked cases built by notation, each expected line worked out by hand from the
rules (the arithmetic next to it); then random reachable positions checked against a
brute-force enumeration of every legal action sequence of the turn.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quanta.exceptions import InvalidOptionError, NotApplicableError
from helpers import aql_display
from quanta.reference import a_quantum_leap as ref

SUITS = "SHDC"
RANKS = "A23456789TJQK"
ALL = [r + s for s in SUITS for r in RANKS]  # card-index order
CELLS = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
OUTER = [c for c in CELLS if c != "b2"]
END, PASS = 2401, 2402


def idx(code: str) -> int:
    return SUITS.index(code[1]) * 13 + RANKS.index(code[0])


def suit_of(s: str) -> list:
    return [r + s for r in RANKS]


def codes(cards) -> str:
    return ",".join(sorted(cards, key=idx)) or "-"


def two_player(rows: str, hand0, hand1, *, pattern="ascending", turn="play:0:0", scores="0,0",
               second0=True, second1=True):
    """A two-player stage-two position of the first game (as in test_a_quantum_leap.py: S and
    D are player 0's suits, H and C player 1's) with the top cards ``rows``; every card in
    play that is neither a top card, in a hand nor in an untaken second stock lies covered."""
    tops = [c for row in rows.split("/") for c in row.split()]
    assert len(tops) == 9
    untaken = (set(suit_of("D")) if second0 else set()) | (set(suit_of("C")) if second1 else set())
    used = set(tops) | set(hand0) | set(hand1) | untaken
    assert len(used) == len(tops) + len(hand0) + len(hand1) + len(untaken), "a card twice"
    spare = [c for c in ALL if c not in used]
    owners = dict(zip(OUTER, "SHSHSHSH"), b2="S")
    display = aql_display(tops, spare, owners)
    hands = f"{codes(hand0)}|{codes(hand1)}"
    stocks = (f"-/{codes(suit_of('D')) if second0 else '-'}|"
              f"-/{codes(suit_of('C')) if second1 else '-'}")
    text = f"{display} {hands} {stocks} {pattern} {turn} 0 {scores} 1/1"
    return ref.game(players=2).from_notation(text)


def play(state, *texts):
    for t in texts:
        state = state.play(state.parse_action(t))
    return state


def turn_field(state) -> str:
    return state.notation().split(" ")[4]


def in_turn(state, p: int, k: int) -> bool:
    """Is ``p`` to act in the same turn, having placed ``k`` cards (by the notation)?"""
    return turn_field(state) == f"play:{p}:{k}"


def placed(state) -> int:
    return int(turn_field(state).split(":")[2])


def written(state, actions) -> list:
    """The actions as strings, each read in the position it is played from."""
    out = []
    for a in actions:
        out.append(state.action_to_string(a))
        state = state.play(a)
    return out


def played_out(state, actions):
    """Plays ``actions`` from ``state``, checking that the turn goes on until the last one and
    ends with it; returns (the mover's points, whether each opponent got exactly 4)."""
    p, k = state.current_player, placed(state)
    s = state
    for i, a in enumerate(actions):
        assert in_turn(s, p, k + i), "the turn ended before the last action"
        s = s.play(a)
    assert not in_turn(s, p, k + len(actions)), "the turn goes on after the last action"
    gains = [after - before for after, before in zip(s.scores(), state.scores())]
    others = {g for q, g in enumerate(gains) if q != p}
    assert others in ({0}, {4})
    return gains[p], others == {4}


def checked(state) -> ref.BestTurn:
    """best_turn, with its actions played out to the points and penalty it claims."""
    best = ref.best_turn(state)
    assert played_out(state, best.actions) == (best.points, best.penalty)
    assert best.value == best.points - 4 * best.penalty
    return best


# ---- brute force: every legal action sequence of the turn ----


def every_turn(state) -> list:
    """Every way to play the rest of the turn from ``state``: (actions, points, penalty), by
    playing every legal action until ``end``, ``pass`` or the turn (the game) ends, and
    reading the scores where it ends."""
    p = state.current_player
    out = []

    def walk(s, actions):
        for a in s.legal_actions():
            t = s.play(a)
            if a in (END, PASS) or not in_turn(t, p, placed(s) + 1):
                gains = [after - before for after, before in zip(t.scores(), state.scores())]
                others = {g for q, g in enumerate(gains) if q != p}
                assert others in ({0}, {4})
                out.append((actions + (a,), gains[p], others == {4}))
            else:
                walk(t, actions + (a,))

    walk(state, ())
    return out


def brute_best(options) -> tuple:
    """The best of ``options`` (every_turn's) by the documented order: the largest points
    - 4 x penalty, then the fewest cards, then the lexicographically smallest action ids."""
    def order(option):
        actions, points, penalty = option
        return (-(points - 4 * penalty), sum(1 for a in actions if a < END), actions)

    return min(options, key=order)


# ---- worked cases ----

# Tops of ranks 2 to 8 only, an 8 on a1: a hand of 9 T J Q K A climbs a1 one card at a time
# (ascending, 1 point each) and nothing else fits (no 9..K or Ace on top for an equal card,
# and a1's lines and neighbours never give a bonus: row a1 2 5, column a1 3 7, diagonal a1 6 3).
CLIMB = "8H 2H 5H / 3H 6H 4H / 7H 2S 3S"


def test_best_turn_stopping_early_beats_going_on():
    s = two_player(CLIMB, ["9S", "TS", "JS", "QS", "KS", "AS"], ["JH"])
    # All six go down on a1 (6 points - 4 for the fifth card = 2); four of them make 4 and
    # no penalty: stop after the Queen, with two cards that fit left in hand.
    best = checked(s)
    assert written(s, best.actions) == ["9S a1", "TS a1", "JS a1", "QS a1", "end"]
    assert (best.points, best.penalty, best.value, best.cards) == (4, False, 4, 4)


def test_best_turn_a_quantum_leap_opens_a_longer_line():
    # Ascending, a K on a1, the other tops 5 6 9 T J Q (nothing else fits A 2 4 8, and no
    # bonus at a1: row a1 5 9, column a1 6 J, diagonal a1 T Q). A on K (1), 2 on A (1, the
    # leap: ascending -> doubling), 4 on 2 (doubling, 2), 8 on 4 (2): 6 points with 4 cards.
    # Without the leap the line would stop at the 2 (no 3 in hand).
    s = two_player("KH 5H 9H / 6H TH 5S / JH 6S QH", ["AS", "2S", "4S", "8S"], ["2H"])
    best = checked(s)
    assert written(s, best.actions) == ["AS a1", "2S a1", "4S a1", "8S a1", "end"]
    assert (best.points, best.penalty) == (6, False)
    assert play(s, "AS a1", "2S a1").pattern() == "doubling"


def test_best_turn_the_fifth_cards_penalty_makes_four_cards_better():
    # 9 T J Q K climb a1, 1 point each: five cards make 5 - 4 = 1, four make 4.
    s = two_player(CLIMB, ["9S", "TS", "JS", "QS", "KS"], ["JH"])
    best = checked(s)
    assert written(s, best.actions) == ["9S a1", "TS a1", "JS a1", "QS a1", "end"]
    assert (best.points, best.penalty) == (4, False)
    # Mid-turn, after four cards, the best rest is to end; after five the penalty is given and
    # is not counted again: the sixth card is worth its point.
    assert written(play(s, "9S a1", "TS a1", "JS a1", "QS a1"),
                   ref.best_turn(play(s, "9S a1", "TS a1", "JS a1", "QS a1")).actions) == ["end"]
    s6 = two_player(CLIMB, ["9S", "TS", "JS", "QS", "KS", "AS"], ["JH"])
    after5 = play(s6, "9S a1", "TS a1", "JS a1", "QS a1", "KS a1")
    assert turn_field(after5) == "play:0:5"
    rest = checked(after5)
    assert (written(after5, rest.actions), rest.points, rest.penalty) == (["AS a1", "end"], 1,
                                                                           False)


def test_best_turn_takes_the_penalty_when_the_fifth_card_pays_for_it():
    # Player 0's diamonds are taken (second0=False), so a K of diamonds can lie on a3. Kings
    # on a2 and a3: the fifth card, the K on a1, makes the triple K-K-K down the a column:
    # 1 + 6 (its neighbour a2 is in the triple: no pair). 9 T J Q K on a1: 4 + 7 = 11 points,
    # - 4 = 7. Without the K on a1 no card reaches a bonus (the K on a2 or a3 is an equal
    # card: 0 points), so no other line comes near: the brute force agrees.
    s = two_player("8H 2H 5H / KH 6H 4H / KD 2S 3S", ["9S", "TS", "JS", "QS", "KS"], ["JH"],
                   second0=False)
    best = checked(s)
    assert written(s, best.actions) == ["9S a1", "TS a1", "JS a1", "QS a1", "KS a1", "end"]
    assert (best.points, best.penalty, best.value) == (11, True, 7)
    assert brute_best(every_turn(s)) == (best.actions, best.points, best.penalty)


@pytest.mark.parametrize("second0, second1, last",
                         [(True, False, ["end"]), (False, False, []), (False, True, ["end"])])
def test_best_turn_no_penalty_when_only_the_mover_has_cards_in_hand(second0, second1, last):
    # Player 1's hand is empty (the clubs taken, or still aside: an untaken second stock is not
    # in hand): the fifth card costs nothing, so all five climb a1: 5 points. With a second
    # stock still aside the hand running out does not end the game and the turn needs an
    # end; without either the last card ends the game.
    s = two_player(CLIMB, ["9S", "TS", "JS", "QS", "KS"], [], second0=second0, second1=second1)
    best = checked(s)
    assert written(s, best.actions) == ["9S a1", "TS a1", "JS a1", "QS a1", "KS a1"] + last
    assert (best.points, best.penalty) == (5, False)
    after = s.play(best.actions[0]).play(best.actions[1]).play(best.actions[2]) \
        .play(best.actions[3]).play(best.actions[4])
    assert after.is_terminal == (not last)


def test_best_turn_ties_go_to_fewer_cards():
    # 9S on the 8 at a1: 1 point. The 2D fits only as an equal card on b1 or b3 (0 points, no
    # bonus), before or after: 1 point with two cards ties 1 point with one. One card wins.
    s = two_player(CLIMB, ["9S", "2D"], ["JH"], second0=False)
    best = checked(s)
    assert written(s, best.actions) == ["9S a1", "end"]
    assert (best.points, best.cards) == (1, 1)
    assert ("9S a1", "2D b1", "end") in {tuple(written(s, seq)) for seq, _, _ in every_turn(s)}


def test_best_turn_equal_lines_go_to_the_smallest_action_ids():
    # 8s on a1 and c3: the 9S scores 1 on either (no bonus: c3's lines 7 2 9, 5 4 9, 8 6 9).
    # 9S a1 is id (8 x 9 + 0) x 5 + 0 = 360, 9S c3 is (8 x 9 + 8) x 5 = 400: a1.
    s = two_player("8H 2H 5H / 3H 6H 4H / 7H 2S 8D", ["9S"], ["JH"], second0=False)
    best = checked(s)
    assert best.actions == (360, END)
    assert written(s, best.actions) == ["9S a1", "end"]


def test_best_turn_a_player_who_cannot_place_passes():
    s = two_player(CLIMB, ["TS", "QS"], ["JH"])  # no 9 or J on top for T and Q, no T or Q
    best = checked(s)
    assert best == ref.BestTurn((PASS,), 0, False)
    assert written(s, best.actions) == ["pass"]


def test_best_turn_after_an_emptied_hand_is_end():
    s = play(two_player(CLIMB, ["9S"], ["JH"]), "9S a1")
    assert checked(s) == ref.BestTurn((END,), 0, False)


def test_best_turn_must_place_one_card_even_for_nothing():
    # The only placement is an equal one (0 points): the mover may not pass or end first.
    s = two_player(CLIMB, ["2D"], ["JH"], second0=False)
    best = checked(s)
    assert written(s, best.actions) == ["2D b1", "end"]
    assert (best.points, best.penalty) == (0, False)


# ---- NotApplicableError: everywhere but a stage-two turn (best_turn) or the Higgs ----


def _phases():
    """One state per phase of a two- and a three-player game, by the lowest actions."""
    seen = {}
    for players in (2, 3):
        s = ref.game(players=players).new_state()
        while True:
            phase = turn_field(s).split(":")[0]
            seen.setdefault(phase, s)
            if s.is_terminal:
                break
            s = s.play(s.legal_actions()[0])
    return seen


PHASES = _phases()


@pytest.mark.parametrize("phase", ["leave", "draw", "place", "higgs", "end"])
def test_best_turn_does_not_apply_outside_a_stage_two_turn(phase):
    with pytest.raises(NotApplicableError):
        ref.best_turn(PHASES[phase])


@pytest.mark.parametrize("phase", ["leave", "draw", "place", "play", "end"])
def test_best_higgs_does_not_apply_outside_the_higgs(phase):
    with pytest.raises(NotApplicableError):
        ref.best_higgs(PHASES[phase])


@pytest.mark.parametrize("thing", [None, "play", 3, PHASES["play"].notation()])
def test_best_turn_and_best_higgs_reject_what_is_not_a_reference_state(thing):
    for oracle in (ref.best_turn, ref.best_higgs):
        with pytest.raises(NotApplicableError) as error:
            oracle(thing)
        assert isinstance(error.value, InvalidOptionError)


# ---- the best Higgs ----


def test_best_higgs_the_queen_gives_a_triple_and_a_run():
    # The docs' Higgs Queen: display Q K 7 / 7 . 4 / 2 J Q. Three players (clubs left out:
    # the dealer 0 holds spades, 1 hearts, 2 diamonds); outer cards by the order of placement
    # (dealer, 1, 2, dealer, 1, 2, dealer, 1): the dealer's KS 7S 4S, player 1's QH 7H JH,
    # player 2's 2D QD. The QS on b2: triple Q-Q-Q on the diagonal (6) + run K-Q-J down the
    # middle column (3) = 9, no pair (both neighbouring Queens are in the triple). The best
    # other card, 7S, pairs with a2 and c1 (4); J pairs with b3 (2), 2 with a3 (2).
    dealer_hand = [c for c in suit_of("S") if c not in ("KS", "7S", "4S")]
    p1 = [c for c in suit_of("H") if c not in ("QH", "7H", "JH")]
    p2 = [c for c in suit_of("D") if c not in ("2D", "QD")]
    text = (f"QH,KS,7H/7S,.,4S/2D,JH,QD {codes(dealer_hand)}|{codes(p1)}|{codes(p2)} -|-|- - "
            f"higgs:0 0 0,0,0 1/1")
    s = ref.game(players=3).from_notation(text)
    best = ref.best_higgs(s)
    assert (best.card, best.points) == ("QS", 9)
    assert best.action == s.parse_action("higgs QS") == 2349 + 11
    assert s.play(best.action).scores() == [9, 0, 0]
    assert ref.best_higgs(s) == ref.BestHiggs(2360, "QS", 9)


def test_best_higgs_ties_go_to_the_lowest_card():
    # The docs' lowest-action game: AS,AH,2S / 2H,.,3S / 3H,4S,4H with 5S..KS in the dealer's
    # hand. No card pairs (no 5..K on the display) and no line runs through b2 (2-x-3,
    # A-x-4, A-x-4, 2-x-3 need x between): every card scores 0; the lowest is 5S.
    s = PHASES["higgs"]
    assert s.display() == [["AS", "AH", "2S"], ["2H", None, "3S"], ["3H", "4S", "4H"]]
    assert ref.best_higgs(s) == ref.BestHiggs(2349 + 4, "5S", 0)


# ---- random reachable positions against brute force ----


def random_turn(players: int, match: bool, seed: int, pick: int, most: int):
    """A random reachable stage-two state where the player to act holds at most ``most``
    cards in hand: a game played from the start by random.Random(seed), stopped at the
    ``pick``-th such state (or the last one if there are fewer); None if there is none."""
    rng = random.Random(seed)
    s = ref.game(players=players, match=match).new_state()
    found = None
    while not s.is_terminal:
        if turn_field(s).startswith("play:") and len(s.hand(s.current_player)) <= most:
            found = s
            if pick == 0:
                break
            pick -= 1
        s = s.play(rng.choice(s.legal_actions()))
    return found


@given(players=st.sampled_from([2, 3, 4]), match=st.booleans(),
       seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 30))
def test_best_turn_equals_the_brute_force_best_on_random_small_hands(players, match, seed,
                                                                     pick):
    s = random_turn(players, match, seed, pick, most=4)
    if s is None:
        return
    best = checked(s)
    options = every_turn(s)
    assert max(points - 4 * penalty for _, points, penalty in options) == best.value
    assert brute_best(options) == (best.actions, best.points, best.penalty)
    # The rest of a best turn is the best rest from where its first placement leads.
    first = best.actions[0]
    if first not in (END, PASS) and in_turn(s.play(first), s.current_player, placed(s) + 1):
        rest = ref.best_turn(s.play(first))
        assert rest.actions == best.actions[1:]
