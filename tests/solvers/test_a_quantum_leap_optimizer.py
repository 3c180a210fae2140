"""A Quantum Leap: the Rust optimiser (`quanta.a_quantum_leap.best_turn`, `best_higgs`) against
the reference's exact oracles (docs/rules/a_quantum_leap.md, "Best turn and best Higgs") on
random reachable positions with small hands; its answers replayed on the engine; its typed
errors; the policy batch (`play_batch`)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import quanta
from quanta import a_quantum_leap as aql
from quanta.exceptions import InvalidOptionError, NotApplicableError, SearchLimitError
from quanta.reference import a_quantum_leap as ref

END, PASS = 2401, 2402
#: The oracle is exponential in the hand: positions where the mover holds at most this many.
MOST_CARDS = 6


def random_position(players: int, seed: int, phase: str = "play", most: int = MOST_CARDS,
                    **options):
    """A position in ``phase`` reached by random play from a random deal of the game of
    ``players`` and ``options`` (for ``play``: the mover holding at most ``most`` cards), or
    None when the game ended without one."""
    rng = random.Random(seed)
    s = quanta.game("a_quantum_leap", players=players, **options).new_state()
    found = []
    while not s.is_terminal:
        if s.is_chance:
            actions, weights = zip(*s.chance_outcomes())
            s = s.play(rng.choices(actions, weights)[0])
            continue
        turn = s.notation().split(" ")[4]
        if turn.startswith(phase) and (
            phase != "play" or len(aql.hand(s, s.current_player)) <= most
        ):
            found.append(s)
        s = s.play(rng.choice(s.legal_actions()))
    return rng.choice(found) if found else None


def reference_state(s):
    return ref.game(players=s.game.options["players"]).from_notation(s.notation())


def replay(s, actions):
    """The state after ``actions`` and what they gave: (mover's points, penalty)."""
    p = s.current_player
    before = aql.scores(s)
    for a in actions:
        assert a in s.legal_actions()
        s = s.play(a)
    after = aql.scores(s)
    others = {after[q] - before[q] for q in range(len(before)) if q != p}
    assert others in ({0}, {4})
    return s, after[p] - before[p], others == {4}


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_best_turn_equals_the_reference_oracle(players, seed):
    s = random_position(players, seed)
    if s is None:
        return
    mine = aql.best_turn(s)
    theirs = ref.best_turn(reference_state(s))
    # The tie-break (value, then cards, then the smallest id sequence) makes the answer unique.
    assert mine.actions == theirs.actions, s.notation()
    assert (mine.points, mine.penalty) == (theirs.points, theirs.penalty)
    assert mine.value == theirs.value
    assert mine.exact and mine.nodes >= 1 and mine.seconds >= 0


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_the_actions_end_the_turn_with_the_points_reported(players, seed):
    s = random_position(players, seed, most=9)
    if s is None:
        return
    p = s.current_player
    best = aql.best_turn(s)
    after, points, penalty = replay(s, best.actions)
    assert (points, penalty) == (best.points, best.penalty)
    assert best.moves == tuple(m for m in _strings(s, best.actions))
    # The turn is over: another player acts, or the game went on past the turn.
    turn = after.notation().split(" ")[4]
    assert after.is_terminal or not turn.startswith(f"play:{p}:") or best.actions[-1] in (
        END, PASS)
    if best.actions[-1] not in (END, PASS):
        # The last card ended the game: nobody holds cards.
        assert after.is_terminal or turn in ("leave",) or turn.startswith("draw")
    assert best.value >= 0 or best.actions == (PASS,)


def _strings(s, actions):
    for a in actions:
        yield s.action_to_string(a)
        s = s.play(a)


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_best_higgs_equals_the_reference_oracle(players, seed):
    s = random_position(players, seed, phase="higgs")
    if s is None:
        return
    mine = aql.best_higgs(s)
    theirs = ref.best_higgs(reference_state(s))
    assert (mine.action, mine.card, mine.points) == (theirs.action, theirs.card, theirs.points)
    assert mine.move == f"higgs {mine.card}"
    after, points, _ = replay(s, [mine.action])
    assert points == mine.points


def test_mid_turn_the_rest_of_the_turn_is_optimised():
    for seed in range(200):
        s = random_position(4, seed)
        if s is None:
            continue
        best = aql.best_turn(s)
        if len(best.actions) < 3:
            continue
        rest = s.play(best.actions[0])
        tail = aql.best_turn(rest)
        assert tail.actions == best.actions[1:]
        assert tail.actions == ref.best_turn(reference_state(rest)).actions
        return
    pytest.skip("no turn of three actions among the positions drawn")


def test_where_it_does_not_apply():
    g = quanta.game("a_quantum_leap", players=3)
    start = g.new_state()  # the suit left out: a chance node
    with pytest.raises(NotApplicableError, match="phase play"):
        aql.best_turn(start)
    with pytest.raises(NotApplicableError, match="phase higgs"):
        aql.best_higgs(start)
    higgs = random_position(3, 1, phase="higgs")
    with pytest.raises(NotApplicableError):
        aql.best_turn(higgs)
    play = random_position(3, 1)
    with pytest.raises(NotApplicableError):
        aql.best_higgs(play)
    s = play
    while not s.is_terminal:
        s = s.play(s.legal_actions()[0]) if not s.is_chance else s.play(
            s.chance_outcomes()[0][0])
    with pytest.raises(NotApplicableError):
        aql.best_turn(s)
    other = quanta.game("quantum_leap", size=3).new_state()
    for f in (aql.best_turn, aql.best_higgs):
        with pytest.raises(NotApplicableError, match="a_quantum_leap"):
            f(other)
        with pytest.raises(NotApplicableError):
            f("not a state")


@pytest.mark.parametrize("kwargs", [
    {"timeout": -1}, {"max_nodes": -1}, {"memory_mb": 0}, {"threads": 0}, {"max_nodes": 1.5},
    {"memory_mb": "big"},
])
def test_bad_limits_raise_invalid_option(kwargs):
    s = random_position(2, 3)
    with pytest.raises(InvalidOptionError):
        aql.best_turn(s, **kwargs)
    with pytest.raises(InvalidOptionError):
        aql.best_higgs(random_position(2, 3, phase="higgs"), **kwargs)


def test_a_node_limit_raises_search_limit():
    s = random_position(4, 5, most=11)
    with pytest.raises(SearchLimitError) as e:
        aql.best_turn(s, max_nodes=0)
    assert e.value.nodes >= 1


def test_results_are_frozen_and_compare_by_value():
    s = random_position(2, 7)
    a, b = aql.best_turn(s), aql.best_turn(s)
    assert a.actions == b.actions and a.moves == b.moves
    with pytest.raises(AttributeError):
        a.points = 1
    assert repr(a).startswith("BestTurn(moves=(")
    assert type(a).__module__ == "quanta.a_quantum_leap"


def test_play_batch_is_reproducible_and_checks_its_arguments():
    one = aql.play_batch("greedy", 3, 20, seed=4, threads=1)
    two = aql.play_batch("greedy", 3, 20, seed=4, threads=2)
    assert (one["scores"] == two["scores"]).all()
    assert one["scores"].shape == (20, 3)
    best = aql.play_batch("best_turn", 4, 3, seed=4, max_nodes=100_000)
    assert best["scores"].shape == (3, 4) and (best["nodes"] > 0).all()
    random_games = aql.play_batch("random", 2, 50, seed=1)
    assert (random_games["scores"] >= 0).all()
    with pytest.raises(InvalidOptionError):
        aql.play_batch("clever", 2, 1)
    with pytest.raises(InvalidOptionError):
        aql.play_batch("greedy", 5, 1)
    with pytest.raises(InvalidOptionError):
        aql.play_batch("greedy", 2, -1)


# ---- two packs and partners ----

VARIANTS = [dict(players=3, packs=2), dict(players=4, packs=2),
            dict(players=4, teams="partners"), dict(players=4, packs=2, teams="partners")]


@pytest.mark.parametrize("options", VARIANTS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("seed", range(6))
def test_best_turn_equals_the_reference_oracle_with_two_packs_and_partners(options, seed):
    s = random_position(seed=seed, **options)
    if s is None:
        pytest.skip("no small hand in this game")
    mine = aql.best_turn(s)
    theirs = ref.best_turn(ref.game(**options).from_notation(s.notation()))
    assert (mine.actions, mine.points, mine.penalty, mine.value) == (
        theirs.actions, theirs.points, theirs.penalty, theirs.value)


def test_best_turn_with_partners_counts_a_penalty_as_eight():
    """"four points are awarded to each opponent": with partners both opponents score 4, so
    the fifth card's triple (1 + 6) no longer pays for it. a1 climbs 9 T J Q on the 8H (1
    each: 4), then the KS makes K-K-K down the a column (1 + 6): 11 points, less 4 against
    every opponent: 7 without partners. With them it is 11 - 8 = 3, and the best of four
    cards wins: 9S on a1 (1), KS on the KH at a2 (equal: 0, the pattern free), TS on the 5H
    (doubling: 2), QS on the 6H (doubling: 2): 5, no bonus on the way."""
    rows = ["8H", "2H", "5H", "KH", "6H", "4H", "KD", "2S", "3S"]
    hands = [["9S", "TS", "JS", "QS", "KS"], ["JH"], ["JD"], ["JC"]]
    spare = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    for c in rows + [c for h in hands for c in h]:
        spare.remove(c)
    stacks = []
    for owner in "SHDCSSHDC":  # a1 b1 c1 a2 b2 c2 a3 b3 c3: the placing order, b2 the Higgs
        bottom = next(c for c in spare if c[1] == owner)
        spare.remove(bottom)
        stacks.append([bottom])
    stacks[0] += spare
    for stack, top in zip(stacks, rows):
        stack.append(top)
    display = "/".join(",".join("".join(st) for st in stacks[r * 3:r * 3 + 3]) for r in range(3))
    hand_text = "|".join(",".join(h) for h in hands)
    for teams, scores, cards, value in [("none", "0,0,0,0", 5, 7), ("partners", "0+0,0+0", 4, 5)]:
        text = f"{display} {hand_text} -|-|-|- ascending play:0:0 0 {scores} 1/1"
        for best in (aql.best_turn(quanta.game("a_quantum_leap", players=4, teams=teams)
                                   .from_notation(text)),
                     ref.best_turn(ref.game(players=4, teams=teams).from_notation(text))):
            placed = sum(1 for a in best.actions if a < 2340)
            assert (placed, best.value) == (cards, value), teams
            assert best.penalty_points == (8 if teams == "partners" else 4)
