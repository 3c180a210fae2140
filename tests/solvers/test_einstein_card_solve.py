"""The exact solver of EinStein a la Card with both hands open (quanta.einstein_card.solve and
analyze), checked against a plain expectiminimax over the pure-Python reference rules."""

from __future__ import annotations

import random

import pytest

import quanta
import quanta.einstein_card as ec
from quanta import NotApplicableError, SearchLimitError
from quanta.reference import einstein_card as reference
from quanta.bots import Best
from quanta.solvers import SOLVERS, greedy_move

CODES = "123456LFCDHS"
FULL = "112233445566LFCDHS"
HIDDEN = ("the a la Card solver needs both hands open (open_hands=True): with hidden hands use "
          "a bot (quanta.bots.Best, or information-set search)")


def notation(rows: str, player: int, phase: str, hands: tuple[str, str],
             played: tuple[str, str]) -> str:
    """The position with every card neither in a hand nor played in its player's heap."""
    heaps = []
    for p in (0, 1):
        rest = list(FULL)
        for card in hands[p].strip("-") + played[p].strip("-"):
            rest.remove(card)
        heaps.append("".join(rest) or "-")
    return (f"{rows} {player} {phase} {hands[0]}|{hands[1]} {heaps[0]}|{heaps[1]} "
            f"{played[0]}|{played[1]}")


def at(text: str, open_hands: object = True) -> quanta.State:
    return quanta.game("einstein_card", open_hands=open_hands).from_notation(text)


def plain_value(state, seen: dict) -> float:
    """Player 0's expected return with optimal play, by a plain expectiminimax over the
    reference rules: the player to move takes the best for itself, chance is weighted by its
    odds."""
    text = state.notation()
    if text in seen:
        return seen[text]
    if state.is_terminal:
        value = state.returns()[0]
    elif state.is_chance:
        value = sum(p * plain_value(state.play(a), seen) for a, p in state.chance_outcomes())
    else:
        values = [plain_value(state.play(a), seen) for a in state.legal_actions()]
        value = max(values) if state.current_player == 0 else min(values)
    seen[text] = value
    return value


def reference_values(text: str) -> dict[int, float]:
    """Each legal action's value for the player to act, by :func:`plain_value`."""
    r = reference.game(open_hands=True).from_notation(text)
    sign = 1 if r.current_player == 0 else -1
    seen: dict = {}
    return {a: sign * plain_value(r.play(a), seen) for a in r.legal_actions()}


def random_endgame(rng: random.Random, stones: int, heap: int) -> str:
    """A position at which a card is played: ``stones`` stones a side on random cells off both
    corners, hands of one or two cards, at most ``heap`` cards in each heap, the rest played
    in a random order; either player to play."""
    board = ["."] * 25
    cells = rng.sample(range(1, 24), 2 * stones)
    for side, letters in enumerate(["123456", "abcdef"]):
        for cell, letter in zip(cells[side * stones:(side + 1) * stones],
                                rng.sample(letters, stones)):
            board[cell] = letter
    rows = "/".join("".join(board[r * 5:r * 5 + 5]) for r in range(5))
    fields = []
    for _ in (0, 1):
        cards = rng.sample(FULL, len(FULL))
        hand = rng.randint(1, 2)
        kept = hand + rng.randint(0, heap)
        fields.append(("".join(sorted(cards[:hand], key=CODES.index)),
                       "".join(sorted(cards[hand:kept], key=CODES.index)) or "-",
                       "".join(cards[kept:]) or "-"))
    (h0, p0, d0), (h1, p1, d1) = fields
    return f"{rows} {rng.randrange(2)} play {h0}|{h1} {p0}|{p1} {d0}|{d1}"


ENDGAMES = [random_endgame(random.Random(seed), 1 + seed % 3, seed % 3) for seed in range(40)]


@pytest.mark.parametrize("text", ENDGAMES)
def test_values_equal_a_plain_expectiminimax_over_the_reference(text):
    expected = reference_values(text)
    s = at(text)
    values = ec.analyze(s)
    assert sorted(values) == sorted(expected)
    for a, v in values.items():
        assert v == pytest.approx(expected[a], abs=1e-9), s.action_to_string(a)
    sol = ec.solve(s)
    best = max(expected.values())
    assert sol.value == pytest.approx(best, abs=1e-9)
    optimal = {a for a, v in expected.items() if v >= best - 1e-9}
    assert sol.best_action in optimal
    assert sol.best_move == s.action_to_string(sol.best_action)
    assert sol.exact


def compact(rows: str, player: int, phase: str, hands: tuple[str, str],
            heaps: tuple[str, str], last: tuple[str, str]) -> str:
    """The position with the given hands and heaps, every other card played, ``last`` the
    cards each player played last (in order)."""
    played = []
    for p in (0, 1):
        rest = list(FULL)
        for card in hands[p] + heaps[p] + last[p]:
            rest.remove(card)
        played.append("".join(rest) + last[p])
    return (f"{rows} {player} {phase} {hands[0] or '-'}|{hands[1] or '-'} "
            f"{heaps[0] or '-'}|{heaps[1] or '-'} {played[0]}|{played[1]}")


@pytest.mark.parametrize("player, phase, hands, last", [
    (0, "murphy", ("2", "3"), ("L", "1")),      # the opponent names the stone
    (0, "murphy-c2", ("2", "3"), ("L", "1")),   # the player steps it
    (0, "full", ("2", "3"), ("F", "1")),        # the opponent makes the step
    (1, "dirac", ("2", "3"), ("1", "D")),
    (0, "heisenberg-3", ("2", "3"), ("H", "1")),
    (1, "schroedinger", ("2", "3"), ("1", "S")),
    (0, "play", ("2C", "3"), ("4", "1")),       # Da Capo copies the opponent's 1
])
def test_each_special_card_is_valued_as_the_reference_plays_it(player, phase, hands, last):
    # Each side one step from its corner (1 on d4, a on b2), a stone more each (2 on c2, b on e4).
    text = compact("...../.a2../...../...1b/.....", player, phase, hands, ("4", "5"), last)
    expected = reference_values(text)
    values = ec.analyze(at(text))
    assert values.keys() == expected.keys()
    for a, v in values.items():
        assert v == pytest.approx(expected[a], abs=1e-9), a
        assert str(v) != "-0.0", "a draw is 0"


def test_answers_are_the_same_at_one_and_two_threads():
    rng = random.Random(5)
    for _ in range(6):
        s = at(random_endgame(rng, 3, 2))
        one, two = ec.solve(s, threads=1), ec.solve(s, threads=2)
        assert (one.value, one.best_action) == (two.value, two.best_action)
        assert ec.analyze(s, threads=1) == ec.analyze(s, threads=2)


def test_a_search_past_its_limits_is_undecided():
    s = at(random_endgame(random.Random(6), 3, 2))
    for limits in ({"max_nodes": 0}, {"timeout": 0}):
        with pytest.raises(SearchLimitError) as e:
            ec.solve(s, **limits)
        assert e.value.nodes is not None
        with pytest.raises(SearchLimitError):
            ec.analyze(s, **limits)
    a = quanta.solve(s, max_nodes=0)
    assert (a.value, a.best, a.best_action, a.exact) == (None, None, None, False)
    assert "node limit" in (a.reason or "")


@pytest.mark.parametrize("hidden", [False, (True, False), (False, True)])
def test_a_hidden_hand_is_refused_with_what_to_use_instead(hidden):
    text = notation("1..../...../..a../...../.....", 0, "play", ("12", "34"), ("-", "-"))
    s = at(text, open_hands=hidden)
    for call in (ec.solve, ec.analyze):
        with pytest.raises(NotApplicableError, match="needs both hands open") as e:
            call(s)
        assert HIDDEN in str(e.value)


def test_a_chance_node_the_deal_and_another_game_are_refused():
    draw = at(notation("1..../...../..a../...../.....", 0, "draw", ("2", "34"), ("1", "-")))
    roll = at(notation("1..../...../..a../...../.....", 0, "heisenberg", ("2", "34"), ("H", "-")))
    marked = at(notation("1..../...../..a../...../.....", 0, "schroedinger-c3", ("2", "34"),
                         ("S", "-")))
    g = quanta.game("einstein_card", open_hands=True)
    deal = g.new_state()
    while deal.notation().split(" ")[2] != "deal":
        deal = deal.play(deal.chance_outcomes()[0][0])
    for s in (draw, roll, marked, deal, g.new_state()):
        assert s.is_chance
        for call in (ec.solve, ec.analyze):
            with pytest.raises(NotApplicableError):
                call(s)
    with pytest.raises(NotApplicableError, match="einstein_card"):
        ec.solve(quanta.game("einstein").new_state())


def test_a_finished_game_is_answered_for_the_player_the_notation_names():
    won = at(notation("...../...../..a../...../....1", 0, "-", ("2", "34"), ("1", "-")))
    sol = ec.solve(won)
    assert (sol.value, sol.best_action, sol.best_move, sol.exact) == (1.0, None, None, True)
    lost = at(notation("...../...../..a../...../....1", 1, "-", ("2", "34"), ("1", "5")))
    assert ec.solve(lost).value == -1.0
    assert ec.analyze(won) == {}


def test_murphy_light_is_valued_for_the_opponent_who_names_the_stone():
    # Player 0 played Murphy Light with nothing left to play; player 1 names the stone: d4
    # would step onto e5, a1 cannot win, and then no card is left (a draw).
    text = notation("2..../...../..a../...1./.....", 0, "murphy", ("-", "-"),
                    ("12233445566FCDHS1L", FULL))
    s = at(text)
    assert s.current_player == 1
    named = {s.action_to_string(a): v for a, v in ec.analyze(s).items()}
    assert named == {"stone a1": 0.0, "stone d4": -1.0}
    sol = ec.solve(s)
    assert (sol.value, sol.best_move) == (0.0, "stone a1")
    # The best player names a1 too, where the greedy player sees no difference.
    for seed in range(4):
        assert Best(seed=seed).choose(s) == sol.best_action
    assert {greedy_move(s, seed) for seed in range(16)} == set(s.legal_actions())


def test_the_best_player_solves_open_hands_and_searches_blind_with_hidden_ones():
    rng = random.Random(8)
    for _ in range(4):
        text = random_endgame(rng, 2, 1)
        s = at(text)
        assert Best().choose(s) == ec.solve(s).best_action
        hidden = at(text, open_hands=False)
        search = quanta.bots.ISMCTS(timeout=None, max_nodes=500, seed=3)
        assert Best(timeout=None, max_nodes=500, seed=3).choose(hidden) == search.choose(hidden)


def test_the_solver_is_registered_for_open_hands():
    solver = SOLVERS["einstein_card"]
    assert solver.options == {"open_hands": True}
    assert "expected return" in solver.value
    s = at(random_endgame(random.Random(9), 2, 1))
    a = quanta.solve(s)
    sol = ec.solve(s)
    assert (a.value, a.best_action, a.best, a.exact) == (sol.value, sol.best_action,
                                                          sol.best_move, True)
