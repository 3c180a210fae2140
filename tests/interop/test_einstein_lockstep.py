"""benches/einstein_vs_openspiel.py: OpenSpiel's einstein_wurfelt_nicht and quanta's EinStein
kept at the same position, every action translated both ways."""

from __future__ import annotations

import random

import pytest
from helpers import bench_script

pyspiel = pytest.importorskip("pyspiel")


@pytest.fixture(scope="module")
def bench():
    with bench_script("einstein_vs_openspiel") as module:
        yield module


@pytest.fixture(scope="module")
def games():
    import quanta

    return (pyspiel.load_game("einstein_wurfelt_nicht"),
            quanta.game("einstein", setup="random", first=1))


def play_random(bench, games, seed: int):
    """A random game, OpenSpiel choosing the chance outcomes and the odd moves, quanta the
    even ones; every step is checked by the lockstep."""
    rng = random.Random(seed)
    game = bench.Lockstep(*games)
    moves = 0
    while not game.openspiel.is_terminal():
        if game.openspiel.is_chance_node():
            game.play_openspiel(rng.choice(game.openspiel.legal_actions()))
            continue
        if moves % 2:
            game.play_openspiel(rng.choice(game.openspiel.legal_actions()))
        else:
            game.play_quanta(rng.choice(game.quanta.legal_actions()))
        moves += 1
    return game


def test_random_games_stay_in_lockstep_to_the_same_winner(bench, games):
    winners = set()
    for seed in range(30):
        game = play_random(bench, games, seed)
        assert game.quanta.is_terminal
        winners.add(int(game.quanta.returns()[1] > 0))
    assert winners == {0, 1}


def test_player_ones_arrangement_read_in_quanta_order_is_caught(bench, games, monkeypatch):
    # Without turning player 1's arrangement round the boards differ after the setup.
    monkeypatch.setattr(bench.Lockstep, "chance_to_quanta",
                        lambda self, action: (bench.ARRANGEMENT_0 + action
                                              if self.quanta.view()["phase"] == "setup"
                                              else bench.ROLL_1 + action))
    with pytest.raises(AssertionError):
        play_random(bench, games, 0)


def test_player_zero_moving_first_is_caught(bench, games):
    import quanta

    with pytest.raises(AssertionError):
        play_random(bench, (games[0], quanta.game("einstein", first=0)), 0)
