"""The API contract (README.md, "The API"), checked for every registered game along random games."""

from __future__ import annotations

import copy
import pickle
import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from helpers import random_step

import quanta
from quanta import CHANCE, TERMINAL, IllegalMoveError, InvalidNotationError, InvalidOptionError


def random_states(game: quanta.Game, seed: int, games: int = 5):
    """Every state along a few uniformly random games (chance by its odds)."""
    rng = random.Random(seed)
    for _ in range(games):
        s = game.new_state()
        yield s
        while not s.is_terminal:
            s = random_step(s, rng)
            yield s


@pytest.fixture(params=quanta.GAMES)
def game(request) -> quanta.Game:
    return quanta.game(request.param)


def test_games_are_registered_sorted_and_named():
    assert quanta.GAMES == tuple(sorted(quanta.GAMES))
    assert "einstein" in quanta.GAMES
    for name in quanta.GAMES:
        assert quanta.game(name).name == name


def test_unknown_game_or_option_is_an_invalid_option_error(game):
    with pytest.raises(InvalidOptionError):
        quanta.game("no such game")
    with pytest.raises(InvalidOptionError, match="unknown option"):
        quanta.game(game.name, no_such_option=1)
    with pytest.raises(ValueError):  # the contract: option errors are ValueErrors too
        quanta.game(game.name, no_such_option=1)


def test_game_parameters(game):
    assert game.num_players >= 1 and game.num_actions >= 1
    assert isinstance(game.options, dict) and game.options
    # Every option is reported, and the defaults rebuild the same game.
    assert quanta.game(game.name, **game.options) == game
    assert pickle.loads(pickle.dumps(game)) == game
    assert eval(repr(game), {"quanta": quanta}) == game


def test_states_along_random_games_keep_the_contract(game):
    for s in random_states(game, seed=1):
        # notation and pickle round trips are exact
        assert game.from_notation(s.notation()) == s
        assert pickle.loads(pickle.dumps(s)) == s
        assert hash(game.from_notation(s.notation())) == hash(s)
        assert copy.deepcopy(s) == s
        legal = s.legal_actions()
        assert legal == sorted(set(legal))
        assert all(0 <= a < game.num_actions for a in legal)
        if s.is_terminal:
            assert s.current_player == TERMINAL
            assert legal == [] and s.chance_outcomes() == []
            assert len(s.returns()) == game.num_players
        elif s.is_chance:
            assert s.current_player == CHANCE
            outcomes = s.chance_outcomes()
            assert [a for a, _ in outcomes] == legal
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert all(p > 0 for _, p in outcomes)
        else:
            assert 0 <= s.current_player < game.num_players
            assert legal, "a player to move always has an action"
            assert s.chance_outcomes() == []
        for a in legal[:8]:
            text = s.action_to_string(a)
            assert s.parse_action(text) == a
        assert isinstance(str(s), str) and str(s)


def test_illegal_actions_raise_and_change_nothing(game):
    for s in random_states(game, seed=2, games=2):
        before = s.notation()
        legal = set(s.legal_actions())
        for a in [-1, game.num_actions, 2**70, *range(min(game.num_actions, 120))]:
            if a in legal:
                continue
            with pytest.raises(IllegalMoveError):
                s.play(a)
            assert s.notation() == before
        for bad in ["1.5", None, "a1b2 and more", 1.0, True]:
            with pytest.raises(IllegalMoveError):
                s.play(bad)


def test_dir_lists_the_common_methods_and_the_games_extras(game):
    s = game.new_state()
    extras = getattr(__import__(f"quanta.{game.name}", fromlist=["x"]), "STATE_METHODS", {})
    for name in ["play", "legal_actions", "notation", *extras]:
        assert name in dir(s)
        assert callable(getattr(s, name))


def test_observations_have_the_declared_shape(game):
    for s in random_states(game, seed=3, games=1):
        for p in range(game.num_players):
            t = s.observation_tensor(p)
            assert t.dtype == np.float32 and t.shape == game.observation_shape
            assert isinstance(s.observation_string(p), str)
        with pytest.raises(ValueError):
            s.observation_tensor(game.num_players)


def test_svg_is_well_formed(game):
    for s in list(random_states(game, seed=4, games=1))[::7]:
        root = ET.fromstring(s._repr_svg_())
        assert root.tag.endswith("svg")


def test_garbage_notation_is_an_invalid_notation_error(game):
    for text in ["", " ", "x", "\x00", game.new_state().notation() + " extra"]:
        with pytest.raises(InvalidNotationError):
            game.from_notation(text)
