"""Blind means blind on every surface: a bot that may see only its seat acts on the acting
player's information state alone. Two states that player cannot tell apart (a state and its
``resample``) get the same action from ``Bot.choose``, from the arena and from the OpenSpiel
adapter's bot, for every game with hidden information (read from the registry)."""

from __future__ import annotations

import random

import pytest
from helpers import random_step

import quanta
from quanta import bots

HIDDEN = [name for name in quanta.GAMES if quanta.game(name).info.information == "imperfect"]

#: Every blind kind of bot, small enough for a test; the best player bounded by nodes (a
#: bound by time would make its action depend on the machine).
BLIND = [bots.Random(seed=3), bots.Greedy(seed=3), bots.ISMCTS(iterations=60, seed=3),
         bots.Best(timeout=None, max_nodes=300, seed=3)]


def decisions(game: quanta.Game, seed: int, most: int = 8) -> list[quanta.State]:
    """Up to ``most`` decisions along seeded random games, spread over the games."""
    rng = random.Random(seed)
    found: list[quanta.State] = []
    for _ in range(40):
        s = game.new_state()
        while not s.is_terminal:
            if not s.is_chance and rng.random() < 0.15:
                found.append(s)
            s = random_step(s, rng)
        if len(found) >= most:
            break
    return found[:most]


def twins(s: quanta.State, seeds=range(2)) -> list[quanta.State]:
    """States the player to act cannot tell from ``s`` (its resamples) that differ from it."""
    p = s.current_player
    out = [s.resample(p, k) for k in seeds]
    for t in out:
        assert t.information_state_string(p) == s.information_state_string(p)
    return [t for t in out if t != s]


def test_every_blind_kind_is_declared_blind_and_the_others_are_not():
    assert all(b.blind for b in BLIND)
    assert not bots.MCTS().blind and not bots.Solver().blind
    assert {b.kind for b in BLIND} == {k for k in bots.KINDS if bots.make(k).blind}


@pytest.mark.parametrize("name", HIDDEN)
@pytest.mark.parametrize("bot", BLIND, ids=repr)
def test_a_blind_bot_chooses_the_same_in_states_its_seat_cannot_tell_apart(name, bot):
    """Bot.choose: the action depends only on the bot and the acting player's information
    state, not on the hidden cards."""
    compared = 0
    for s in decisions(quanta.game(name), seed=5):
        action = bot.choose(s)
        for t in twins(s):
            assert bot.choose(t) == action, (s.notation(), t.notation())
            compared += 1
    if compared == 0:
        # A Quantum Leap: the stocks are drawn as chance and the hands follow from the suits,
        # so at a decision no card is both hidden from the player to act and already placed.
        pytest.skip(f"{name}: the player to act knows every card already dealt")


@pytest.mark.parametrize("name", HIDDEN)
def test_a_bot_that_sees_everything_may_choose_otherwise(name):
    """The contrast that makes the tests above able to fail: MCTS reads the hidden cards, and
    its generator is seeded by the whole state, so some pair of twins gets two actions."""
    bot = bots.MCTS(iterations=60, seed=3)
    differs = any(bot.choose(t) != bot.choose(s)
                  for s in decisions(quanta.game(name), seed=5, most=12) for t in twins(s, range(4)))
    if not differs:
        pytest.skip(f"{name}: MCTS happened to agree on every pair sampled")


@pytest.mark.parametrize("name", HIDDEN)
def test_the_arena_plays_each_decision_as_choose_does_and_as_blindly(name):
    """An arena game replayed from its record: every decision is the acting bot's ``choose``
    in that state, and the same in the state's resamples."""
    game = quanta.game(name)
    players = [bots.Random(seed=1), bots.ISMCTS(iterations=30, seed=2), bots.Greedy(seed=4)]
    r = quanta.arena(game, players, 3, seed=9, threads=1, record=True)
    assert r.actions is not None and len(r.actions) == 3
    checked = 0
    for g, actions in enumerate(r.actions):
        s = game.new_state()
        for a in actions:
            if not s.is_chance:
                bot = players[r.seats[g][s.current_player]]
                assert bot.choose(s) == a
                if checked < 30:
                    for t in twins(s, range(1)):
                        assert bot.choose(t) == a, (s.notation(), t.notation())
                        checked += 1
            s = s.play(a)
        assert s.is_terminal
        assert list(r.returns[g]) == s.returns()
    if checked == 0:
        pytest.skip(f"{name}: the player to act knows every card already dealt")


@pytest.mark.parametrize("name", HIDDEN)
def test_the_openspiel_adapters_bot_is_as_blind(name):
    openspiel = pytest.importorskip("quanta.interop.openspiel")
    game = openspiel.load(name)
    bot = bots.ISMCTS(iterations=40, seed=7)
    adapted = openspiel.bot(bot, game)
    for s in decisions(game.quanta_game, seed=2, most=5):
        action = adapted.step(openspiel.QuantaState(game, s))
        assert action == bot.choose(s)
        for t in twins(s):
            assert adapted.step(openspiel.QuantaState(game, t)) == action
