"""Quantum Repair Unit: each test names the rule it checks (docs/rules/repair_unit.md), then the
solvers (solve_open, win_probability, policy, rule_move)."""

from __future__ import annotations

import random

import pytest
from helpers import moves, play, random_step

import quanta
from quanta import CHANCE, TERMINAL, IllegalMoveError, InvalidNotationError, InvalidOptionError
from quanta import repair_unit as ru

SOLO = quanta.game("repair_unit")


def at(text: str, players: int = 1):
    return quanta.game("repair_unit", players=players).from_notation(text)


CODES = [r + s for r in "A23456789TJQK" for s in "SHDC"]


def removed_but(*kept: str) -> str:
    """The removed field holding every card but ``kept`` (which must leave pairs of a rank)."""
    return ",".join(c for c in CODES if c not in kept)


def dealt(players: int, cards: list[str]):
    s = quanta.game("repair_unit", players=players).new_state()
    return play(s, *cards)


# ---- Setup ----


@pytest.mark.parametrize(("players", "forecasts", "length"), [(1, 2, 3), (2, 2, 3), (3, 3, 2),
                                                               (4, 4, 2)])
def test_setup_forecast_size_three_for_one_or_two_players_two_for_three_or_four(
    players, forecasts, length
):
    g = quanta.game("repair_unit", players=players)
    s = g.new_state()
    assert s.is_chance and len(s.legal_actions()) == 52
    deals = 0
    while s.is_chance and s.notation().endswith("deal"):
        s = s.play(s.legal_actions()[-1])
        deals += 1
    assert deals == forecasts * length
    rows = s.notation().split(" ")[0].split("|")
    assert len(rows) == forecasts and all(len(r.split(",")) == length for r in rows)


def test_setup_deal_and_draws_are_chance_nodes_read_as_card_codes():
    s = SOLO.new_state()
    assert s.current_player == CHANCE
    assert s.action_to_string(s.parse_action("QS")) == "QS"
    assert s.parse_action("AS") == 0 and s.parse_action("KC") == 51
    s = play(s, "7H", "QS", "2C", "AD", "5S", "9C")
    # The setup cards are seen by everyone: the team knows them, only 46 cards are unseen.
    assert s.notation() == "7H,QS,2C|AD,5S,9C - - *46 - 0 A:draw"
    assert len(s.unseen()) == 46 and "QS" not in s.unseen()
    assert s.is_chance


# ---- The turn ----


def test_turn_step1_draw_then_step4_place_on_the_back_position():
    s = dealt(1, ["7H", "QS", "2C", "AD", "5S", "9C"])
    s = play(s, "5H")
    # No face-up card moved; the drawn 5H is face up on A3; the team may tunnel or go on.
    assert s.notation() == "7H,QS,2C+5H|AD,5S,9C - - *45 - 0 A:end"
    assert moves(s) == ["go on", "tunnel A3"]
    s = play(s, "go on")
    assert s.notation() == "7H,QS,2C+5H|AD,5S,9C - - *45 - 0 B:draw"


def test_turn_step2_face_up_cards_move_forward_front_one_onto_an_empty_target():
    s = at("7H+3D,QS+4C,2C|AD,5S,9C - 8C *43 - 0 A:move")
    s = play(s, "go on")
    assert s.notation() == "7H+4C,QS,2C+8C|AD,5S,9C 3D - *43 - 0 A:end"


def test_turn_step3_matching_values_remove_card_and_target():
    s = at("7H+3D,QS,2C|AD,5S,9C 3S 8C *43 - 0 A:move")
    s = play(s, "go on")
    assert s.notation() == "7H,QS,2C+8C|AD,5S,9C - - *43 3S,3D 0 A:end"


def test_turn_step3_not_matching_values_is_game_over():
    s = at("7H+3D,QS,2C|AD,5S,9C 4S 8C *43 - 0 A:move")
    s = play(s, "go on")
    assert s.is_terminal and s.current_player == TERMINAL
    assert s.returns() == [-1.0]
    assert s.notation().endswith(" lost")


def test_solo_alternates_between_the_two_forecasts():
    s = dealt(1, ["7H", "QS", "2C", "AD", "5S", "9C"])
    s = play(s, "5H", "go on")
    assert s.notation().endswith("B:draw")
    s = play(s, "6H", "go on")
    assert s.notation().endswith("A:start")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_plays_their_own_forecast_in_turn(players):
    g = quanta.game("repair_unit", players=players)
    s = g.new_state()
    rng = random.Random(3)
    turns = []
    while not s.is_terminal and len(turns) < 12:
        if not s.is_chance:
            forecast = s.notation().split(" ")[6][0]
            assert s.current_player == "ABCD".index(forecast)
            turns.append(s.current_player)
        s = random_step(s, rng)
    assert set(turns) == set(range(players))


# ---- Tunnelling ----


def test_tunnel_swaps_the_face_up_and_face_down_card_of_one_position_once_per_turn():
    s = at("7H+3D,QS+4C,2C|AD,5S,9C - 8C *43 - 0 A:move")
    assert moves(s) == ["go on", "tunnel A1", "tunnel A2"]
    s = play(s, "tunnel A1")
    # 7H comes face up and moves to the target at once: the turn's tunnel is used, so the
    # rest of the turn needs no decision.
    assert s.notation() == "3D+4C,QS,2C+8C|AD,5S,9C 7H - *43 - 0 B:draw"


def test_tunnel_is_allowed_at_the_start_of_the_turn_before_the_draw():
    s = at("7H+3D,QS,2C|AD,5S,9C - - *45 - 0 A:start")
    assert moves(s) == ["go on", "tunnel A1"]
    s = play(s, "tunnel A1")
    assert s.notation() == "3D+7H,QS,2C|AD,5S,9C - - *45 - 0 A:draw:t"


def test_tunnel_needs_a_face_up_card_at_the_position():
    s = at("7H+3D,QS,2C|AD,5S,9C - 8C *44 - 0 A:move")
    with pytest.raises(IllegalMoveError):
        s.parse_action("tunnel A2")


# ---- Special cards ----


def test_jack_drawn_may_look_at_the_top_card_a_chance_node_then_the_draw_is_known():
    s = at("7H,QS,2C|AD,5S,9C - - *46 - 0 A:draw")
    s = play(s, "JS")
    assert moves(s) == ["no effect", "peek"]
    s = play(s, "peek")
    assert s.is_chance and s.notation().endswith("A:move:peek")
    s = play(s, "4D")
    assert s.notation().split(" ")[3] == "4D,*44"
    s = play(s, "go on")  # B's turn: the known 4D is drawn without a chance node
    assert not s.is_chance
    assert s.notation() == "7H,QS,2C+JS|AD,5S,9C+4D - - *44 - 0 B:end"


def test_queen_swaps_a_face_down_card_of_the_forecast_with_one_of_another_forecast():
    s = at("7H,QS,2C|AD,5S,9C - - *46 - 0 A:draw")
    s = play(s, "QH")
    assert len([m for m in moves(s) if m.startswith("queen")]) == 9
    s = play(s, "queen A1 B3")
    assert s.notation() == "9C,QS,2C+QH|AD,5S,7H - - *45 - 0 A:end"


def test_king_puts_another_face_up_card_under_the_deck_and_it_comes_back_known():
    # "King: put any other face-up card at the bottom of the deck."
    s = at("7H+3D,QS,2C|AD,5S+6C,9C - - *44 - 0 A:draw")
    s = play(s, "KH")
    assert moves(s) == ["no effect", "king A1", "king B2"]
    s = play(s, "king B2")
    assert s.notation() == "7H+3D,QS,2C|AD,5S,9C - KH *43,6C - 0 A:move"
    assert "6C" not in s.unseen()


def test_king_may_take_the_target_it_is_a_face_up_card_too():
    # "King: put any other face-up card at the bottom of the deck." The target is face up.
    s = at("7H+3D,QS,2C|AD,5S+6C,9C 4S - *43 - 0 A:draw")
    s = play(s, "KH")
    assert moves(s) == ["no effect", "king A1", "king B2", "king target"]
    s = play(s, "king target")
    assert s.notation() == "7H+3D,QS,2C|AD,5S+6C,9C - KH *42,4S - 0 A:move"
    # With the 4S gone, the 3D moving in becomes the target instead of mismatching it.
    s = play(s, "go on")
    assert s.notation().split(" ")[1] == "3D" and not s.is_terminal


def test_king_never_takes_itself():
    # "any *other* face-up card": a King tunnelled up offers every face-up card but itself.
    s = at("7H+3D,KH+AH,2C|AD,5S,9C 4S 8C *42 - 0 A:move")
    s = play(s, "tunnel A2")
    assert moves(s) == ["no effect", "king A1", "king drawn", "king target"]


def test_ace_puts_itself_under_the_deck_every_time_it_is_revealed():
    # "Ace: put this card at the bottom of the deck." and "A few cards may have additional
    # effects when they are revealed by drawing or tunneling": each time, not once.
    s = at("7H,QS,2C|AD,5S,9C - - *46 - 0 A:draw")
    s = play(s, "AS")
    assert moves(s) == ["no effect", "ace"]
    s = play(s, "ace")
    assert s.notation() == "7H,QS,2C|AD,5S,9C - - *45,AS - 0 B:draw"
    # The same Ace comes round again from under the deck: it may go under a second time.
    downs = ("7H", "7S", "QS", "QH", "2C", "2D")
    s = at(f"7H,7S,QS|QH,2C,2D - - *1,AS {removed_but(*downs, 'AS', 'AH')} 0 B:draw")
    s = play(s, "AH", "no effect", "go on")
    assert s.notation().endswith(" A:move:drawn") and s.notation().split(" ")[2] == "AS"
    assert moves(s) == ["no effect", "ace"]
    s = play(s, "ace")
    assert s.notation().split(" ")[3] == "AS"


def test_an_effect_is_triggered_by_tunnelling_too():
    s = at("7H+3D,JH+AH,2C|AD,5S,9C - 8C *43 - 0 A:move")
    s = play(s, "tunnel A2")
    assert moves(s) == ["no effect", "peek"]


def test_a_card_from_under_the_deck_is_drawn_without_chance():
    kept = ("7H", "6D", "7S", "QS", "QH", "2C", "2D", "6C")
    s = at(f"7H+6D,7S,QS|QH,2C,2D - - 6C {removed_but(*kept)} 0 A:start")
    s = play(s, "go on")
    assert not s.is_chance and s.notation().split(" ")[2] == "6C"


# ---- End ----


def test_end_deck_empty_and_all_face_up_cards_matched_is_a_win():
    kept = ("7H", "3D", "7S", "QS", "QH", "2C", "2D", "3S")
    s = at(f"7H+3D,7S,QS|QH,2C,2D 3S - - {removed_but(*kept)} 0 A:move")
    s = play(s, "go on")
    assert s.is_terminal and s.returns() == [1.0]
    assert s.notation().endswith(" won")


# An Ace alone in a known deck can go round for ever: drawn, under, drawn again ...
ACE_CYCLE = ("7H,7S,QS|QH,3H,AH 3S AS - "
             + ",".join(c for c in CODES if c not in ("7H", "7S", "QS", "QH", "3H", "AH", "3S",
                                                       "AS"))
             + " 0 A:move:drawn")


def test_every_game_ends_a_turn_after_too_many_without_progress_is_lost():
    # "Ace: put this card at the bottom of the deck.", used every time it is revealed, could
    # send the Ace round for ever; once every card is known, the game is lost when IDLE_TURNS
    # turns in a row have begun with no pair removed (docs/rules/repair_unit.md, *End*).
    from quanta.reference.repair_unit import IDLE_TURNS

    s = at(ACE_CYCLE)
    seen = set()
    turns = 0
    while not s.is_terminal:
        assert moves(s) == ["no effect", "ace"]
        fields = s.notation().split(" ")
        seen.add(" ".join(fields[:5] + fields[6:]))  # the position but for the count
        s = play(s, "ace")
        turns += 1
    assert s.returns() == [-1.0] and s.notation().split(" ")[5:] == [str(IDLE_TURNS), "lost"]
    assert turns == IDLE_TURNS and len(seen) == 2  # the same two positions over and over
    # One turn short of the limit the game goes on; the count is in the notation.
    before = at(ACE_CYCLE.replace(" 0 A:move:drawn", f" {IDLE_TURNS - 2} A:move:drawn"))
    assert not play(before, "ace").is_terminal
    assert play(before, "ace", "ace").notation().endswith(f" {IDLE_TURNS} lost")


def test_progress_resets_the_idle_turns():
    # Removing a pair is progress: the count starts again.
    s = at(ACE_CYCLE.replace(" 0 A:move:drawn", " 5 A:move:drawn"))
    s = play(s, "no effect")  # the Ace lies face up on A3
    assert s.notation().split(" ")[5] == "5"
    s = play(s, "go on")  # B's turn: nothing drawn, nothing to decide; A's turn again
    assert s.notation().split(" ")[5] == "7"


def test_the_cycling_position_is_winnable_without_cycling_and_solve_open_finds_the_line():
    # The 3H under B2 can be tunnelled up by passing the Ace over it: a win the open solver
    # finds although the Ace could also go round for ever.
    s = at(ACE_CYCLE)
    sol = ru.solve_open(s, [])
    assert sol.winnable
    for a in sol.line:
        s = s.play(a)
    assert s.returns() == [1.0]


def test_the_idle_count_must_be_possible():
    with pytest.raises(InvalidNotationError):
        at(ACE_CYCLE.replace(" 0 A:move:drawn", " 1000 A:move:drawn"))  # the game is over
    with pytest.raises(InvalidNotationError):
        SOLO.from_notation("7H,QS,2C|AD,5S,9C - - *46 - 1 A:draw")  # counted only once all known
    with pytest.raises(InvalidNotationError):
        SOLO.from_notation("7H,QS,2C|AD,5S,9C - - *46 - - A:draw")  # not a count


def test_end_a_target_waiting_with_nothing_left_to_move_cannot_happen():
    # 52 cards = the face-down ones (an even number) + the target + pairs removed: impossible,
    # so a game ends lost only by a mismatch (docs/rules/repair_unit.md, *End*).
    for players in (1, 2, 3, 4):
        g = quanta.game("repair_unit", players=players)
        downs = 2 * 3 if players == 1 else players * (3 if players <= 2 else 2)
        assert downs % 2 == 0 and g.num_players == players


# ---- Notation ----


@pytest.mark.parametrize("text", [
    "7H,QS,2C|AD,5S,9C - - *46 - 0 A:start",  # nothing to decide at this start
    "7H,QS,2C|AD,5S,7H - - *46 - 0 A:draw",  # 7H twice
    "7H,QS,2C|AD,5S,9C - - *45 - 0 A:draw",  # a card missing
    "7H,QS,2C|AD,5S,9C - - *46 - - E:draw",  # no forecast E
    "7H,QS,2C|AD,5S,9C - - *44 3S 0 A:draw",  # an odd number of threes removed
    "7H,QS,2C|AD,5S,9C - - *46 - 0 A:draw x",
])  # fmt: skip
def test_notation_refuses_what_is_not_a_position(text):
    with pytest.raises(InvalidNotationError):
        SOLO.from_notation(text)


# ---- Solvers ----


def test_solve_open_line_replays_to_a_win_with_the_cards_in_that_order():
    rng = random.Random(5)
    found = 0
    for _ in range(12):
        s = SOLO.new_state()
        order = s.unseen()
        rng.shuffle(order)
        try:
            sol = ru.solve_open(s, order, max_nodes=3_000_000)
        except quanta.SearchLimitError:
            continue
        if not sol.winnable:
            continue
        found += 1
        cards, line = iter(order), iter(sol.line)
        while not s.is_terminal:
            s = s.play(s.parse_action(next(cards)) if s.is_chance else next(line))
        assert s.returns() == [1.0]
        assert next(line, None) is None
    assert found > 0


def test_solve_open_proves_a_lost_position_lost():
    # The last face-up card (3D) cannot match the target 4S, nor can 3S tunnelled up instead.
    kept = ("3S", "3D", "7H", "7S", "QS", "QH", "4H", "4S")
    s = at(f"3S+3D,7H,7S|QS,QH,4H 4S - - {removed_but(*kept)} 0 A:move")
    sol = ru.solve_open(s, [])
    assert not sol.winnable and sol.line == () and sol.exact


@pytest.mark.parametrize("order", [["QS"], "QS", None, ["XX"]], ids=repr)
def test_solve_open_order_must_be_a_permutation_of_the_unseen_cards(order):
    s = SOLO.new_state()
    with pytest.raises(InvalidOptionError, match="order must"):
        ru.solve_open(s, order)


def test_solve_open_says_when_the_order_repeats_a_card():
    s = SOLO.new_state()
    order = s.unseen()
    order[1] = order[0]
    with pytest.raises(InvalidOptionError, match="twice"):
        ru.solve_open(s, order)


def test_win_probability_is_the_share_of_won_orders_and_depends_only_on_the_seed():
    # Two cards unseen (3H, 3C): whichever comes first must follow 3D onto 3S... or not.
    kept = ("7H", "3D", "7S", "QS", "QH", "2C", "2D", "3S", "3H", "3C", "5S", "5H")
    s = at(f"7H+3D,7S,QS|QH,2C,2D 3S - *4 {removed_but(*kept)} 0 A:move")
    w = ru.win_probability(s, samples=40, seed=1)
    again = ru.win_probability(s, samples=40, seed=1, threads=1)
    assert (w.probability, w.wins, w.nodes) == (again.probability, again.wins, again.nodes)
    assert w.samples == w.decided == 40 and w.undecided == 0 and 0 <= w.probability <= 1
    assert w.wins == round(w.probability * 40)


def test_win_probability_with_no_sample_decided_is_unknown_not_zero():
    w = ru.win_probability(SOLO.new_state(), samples=6, seed=1, max_nodes=1)
    assert (w.probability, w.stderr, w.decided, w.undecided, w.wins) == (None, None, 0, 6, 0)
    assert "probability=None" in repr(w)


def test_open_batch_leaves_undecided_deals_null():
    out = ru.open_batch(1, 3, seed=2, max_nodes=1, timeout=None)
    assert out["winnable"].mask.all() and out["winnable"].tolist() == [None, None, None]
    assert out["winnable"].count() == 0


def test_policy_does_not_count_undecided_orders_as_losses():
    # Every search stopped at once: no action has a score, so the rule move is played.
    rng = random.Random(4)
    s = SOLO.new_state()
    checked = 0
    while not s.is_terminal and checked < 6:
        if not s.is_chance and len(s.legal_actions()) > 1:
            assert ru.policy(s, seed=1, samples=3, max_nodes=1) == ru.rule_move(s)
            checked += 1
        s = random_step(s, rng)


def test_memory_is_perfect_the_only_value():
    assert SOLO.options == {"players": 1, "memory": "perfect"}
    assert quanta.game("repair_unit", memory="perfect") == SOLO
    with pytest.raises(InvalidOptionError, match='"perfect" is the only value'):
        quanta.game("repair_unit", memory="short")


def test_policy_and_rule_move_choose_legal_actions():
    rng = random.Random(2)
    s = SOLO.new_state()
    checked = 0
    while not s.is_terminal and checked < 8:
        if not s.is_chance:
            assert ru.rule_move(s) in s.legal_actions()
            assert ru.policy(s, seed=checked, samples=2, max_nodes=2000) in s.legal_actions()
            checked += 1
        s = random_step(s, rng)


def test_play_batch_and_open_batch_report_every_game():
    out = ru.play_batch(1, "rule", 20, seed=3)
    assert out["won"].shape == (20,) and out["decisions"].min() >= 0
    assert (ru.play_batch(1, "rule", 20, seed=3)["won"] == out["won"]).all()
    solved = ru.open_batch(1, 4, seed=3, max_nodes=20_000, timeout=None)
    assert set(solved["winnable"].tolist()) <= {True, False, None}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_observation_shows_every_known_card_and_no_unseen_one(players):
    import re

    g = quanta.game("repair_unit", players=players)
    rng = random.Random(players)
    s = g.new_state()
    while not s.is_terminal:
        shown = set(re.findall(r"[A2-9TJQK][SHDC]", s.observation_string(0)))
        unseen = set(s.unseen())
        assert not shown & unseen
        assert len(shown) + len(unseen) == 52  # every other card is known, and where it is
        assert s.resample(0, 1) == s
        s = random_step(s, rng)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_rust_and_reference_agree_through_long_games(players):
    """Random play loses within a few turns, so test_equivalence seldom reaches the end of the
    deck. Here both sides follow whole won games (a solve_open line with the cards in a random
    order), then games that pick at random among the actions not losing at once (these reach
    the effects: Kings, Queens, Aces, Jacks' looks)."""
    from quanta.reference import repair_unit as reference

    g, rg = quanta.game("repair_unit", players=players), reference.game(players=players)
    rng = random.Random(players)
    reached, results = set(), []

    def follow(choose):
        s, r = g.new_state(), rg.new_state()
        while True:
            assert s.notation() == r.notation()
            legal = list(s.legal_actions())
            assert legal == r.legal_actions()
            strings = [s.action_to_string(a) for a in legal]
            assert strings == [r.action_to_string(a) for a in legal]
            assert s.returns() == r.returns() and s.unseen() == r.unseen()
            if s.is_terminal:
                results.append(s.notation().split(" ")[-1])
                return
            reached.update(x.split(" ")[0] for x in strings)
            a = choose(s, legal)
            s, r = s.play(a), r.play(a)

    for _ in range(4):
        order = g.new_state().unseen()
        rng.shuffle(order)
        try:
            sol = ru.solve_open(g.new_state(), order, max_nodes=2_000_000)
        except quanta.SearchLimitError:
            continue
        if sol.winnable:
            cards, line = iter(order), iter(sol.line)
            follow(lambda s, legal: s.parse_action(next(cards)) if s.is_chance else next(line))
            break
    for _ in range(4):
        follow(lambda s, legal: rng.choice(
            legal if s.is_chance
            else [a for a in legal if s.play(a).returns()[0] >= 0] or legal
        ))
    assert "won" in results
    assert {"king", "queen", "ace", "peek", "tunnel"} <= reached
