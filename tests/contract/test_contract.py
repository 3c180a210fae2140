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


#: Option sets checked besides every game's defaults: variants with rules of their own (A
#: Quantum Leap's second pack, and partners whose hands are hidden from each other).
VARIANTS = [
    ("a_quantum_leap", dict(players=3, packs=2)),
    ("a_quantum_leap", dict(players=4, packs=2, teams="partners")),
]


@pytest.fixture(params=[(name, {}) for name in quanta.GAMES] + VARIANTS,
                ids=lambda p: p[0] + "".join(f"-{k}={v}" for k, v in p[1].items()))
def game(request) -> quanta.Game:
    name, options = request.param
    return quanta.game(name, **options)


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
        legal = list(s.legal_actions())
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


def test_every_state_is_of_its_games_state_class(game):
    # Each game's states are instances of one subclass of State (its extras are its methods),
    # however they are made: new_state, play, from_notation, resample, pickle, copy.
    s = game.new_state()
    cls = type(s)
    assert cls is not quanta.State and issubclass(cls, quanta.State)
    assert cls.__name__.lower().removesuffix("state") == game.name.replace("_", "")
    seen = [s, game.from_notation(s.notation()), pickle.loads(pickle.dumps(s)), copy.copy(s)]
    for later in random_states(game, seed=5, games=1):
        seen += [later, later.resample(0, 1)]
        if not later.is_terminal:
            seen.append(later.play(later.legal_actions()[0]))
    assert {type(x) for x in seen} == {cls}
    for name in ["play", "legal_actions", "notation", "view"]:
        assert name in dir(s)
        assert callable(getattr(s, name))
    other = [c for c in (type(quanta.game(n).new_state()) for n in quanta.GAMES) if c is not cls]
    assert len(other) == len(quanta.GAMES) - 1


def test_the_view_of_nobody_is_everything_and_a_players_view_hides_no_more_than_it_must(game):
    # view() (everything) and each player's view have the same keys; a player's view differs
    # only where it is None (hidden): what a player sees agrees with the whole state.
    for s in random_states(game, seed=11, games=2):
        whole = s.view()
        assert whole == s.view(None)
        for p in range(game.num_players):
            mine = s.view(p)
            assert mine.keys() == whole.keys()
            for key, value in mine.items():
                if isinstance(value, list) and value and key in ("hands", "heaps"):
                    for theirs, all_of in zip(value, whole[key]):
                        assert theirs is None or theirs == all_of
                elif value is not None:
                    assert value == whole[key], key
        with pytest.raises(InvalidOptionError):
            s.view(game.num_players)


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


# ---- game facts and the information-state layer ----

#: Where each card a player cannot see lies, per game with hidden information: a dict from the
#: card to its place, for the cards `player` has not seen. A game that declares hidden
#: information must be listed here, so that its resample is checked card by card.
def _quincunx_unseen_places(state, player):
    places = {card: "pile" for card in state.pile()}
    for other in range(state.game.num_players):
        if other != player:
            places.update({card: f"hand {other}" for card in state.hand(other)})
    return places


def _a_quantum_leap_unseen_places(state, player):
    # Every hand and stock follows from the display and the public deal of the suits; the one
    # card a player may not know is another player's drawn card in stage one, which could be
    # any card of that player's stock (docs/rules/a_quantum_leap.md, *Hidden information*).
    fields = state.notation().split(" ")
    stocks, (kind, *rest) = fields[2], fields[4].split(":")
    if kind != "place" or int(rest[0]) == player:
        return {}
    drawer = int(rest[0])
    stock = stocks.split("|")[drawer].split("/")[0]
    places = {card: f"stock {drawer}" for card in stock.split(",") if card != "-"}
    places[rest[1]] = f"drawn by {drawer}"
    return places


def _einstein_card_unseen_places(state, player):
    # The other player's hand and heap hold the cards the player has not seen; its own heap is
    # known (its 18 cards less its hand and discards), and so is everything when the other hand
    # is open. The two copies of a number are alike, so a card maps to where its unseen copies
    # lie.
    other = 1 - player
    if state.game.options["open_hands"][other] or not state.hand(other) or not state.heap(other):
        return {}  # nothing unseen, or one place only
    where: dict[str, list[str]] = {}
    for place, cards in [(f"hand {other}", state.hand(other)), (f"heap {other}", state.heap(other))]:
        for card in cards:
            where.setdefault(card, []).append(place)
    return {card: "+".join(sorted(places)) for card, places in where.items()}


UNSEEN_PLACES = {
    "a_quantum_leap": _a_quantum_leap_unseen_places,
    "einstein_card": _einstein_card_unseen_places,
    "quincunx": _quincunx_unseen_places,
    # The team remembers every card it has seen: the unseen ones are in the deck, their order
    # not decided yet (each draw is a chance node), so the game declares perfect information
    # and resample returns the state itself (docs/rules/repair_unit.md, *What the team knows*).
    "repair_unit": lambda state, player: {card: "deck" for card in state.unseen()},
}


def test_game_info_states_the_facts_and_random_games_keep_within_them(game):
    info = game.info
    assert info.information in ("perfect", "imperfect")
    assert info.utility in ("zero_sum", "general_sum", "cooperative")
    assert info.min_return <= info.max_return
    assert info == game.info and repr(info).startswith("GameInfo(")
    out = quanta.batch.random_playouts(game, 2000, seed=11)
    assert out["length"].max() <= info.max_game_length
    assert info.min_return <= out["returns"].min() and out["returns"].max() <= info.max_return
    if info.utility == "zero_sum":
        assert np.allclose(out["returns"].sum(axis=1), 0)
    if info.utility == "cooperative":
        assert (out["returns"] == out["returns"][:, :1]).all()
    if info.information == "imperfect":
        assert game.name in UNSEEN_PLACES, "a hidden-information game lists its unseen cards"


def test_a_perfect_information_game_shows_every_player_everything(game):
    if game.info.information != "perfect":
        pytest.skip("hidden information: see the resample tests")
    for s in random_states(game, seed=5, games=1):
        for p in range(game.num_players):
            assert s.observation_string(p) == s.information_state_string(p) == s.notation()
            assert s.resample(p, 7) == s


def test_resample_keeps_all_that_the_player_knows(game):
    """A resampled state differs from the real one only in what the player cannot see: the
    player's observation (string and tensor) and information state are the same, as are the
    turn and, on the player's own turn, the legal actions."""
    for s in list(random_states(game, seed=6, games=2))[::3]:
        for p in range(game.num_players):
            for seed in range(3):
                r = s.resample(p, seed)
                assert r.game == s.game
                assert game.from_notation(r.notation()) == r
                assert r.observation_string(p) == s.observation_string(p)
                assert r.information_state_string(p) == s.information_state_string(p)
                assert (r.observation_tensor(p) == s.observation_tensor(p)).all()
                assert r.current_player == s.current_player
                if s.current_player == p:
                    assert r.legal_actions() == s.legal_actions()
                assert s.resample(p, seed) == r, "the same seed gives the same state"


def test_resample_moves_every_unseen_card_and_no_seen_one(game):
    """Over many seeds every card the player has not seen turns up in more than one of the
    places it could be, and the player's own cards never move."""
    if game.info.information == "perfect":
        pytest.skip("nothing is hidden")
    unseen_places = UNSEEN_PLACES[game.name]
    checked = 0
    for s in list(random_states(game, seed=8, games=2))[::5]:
        for p in range(game.num_players):
            places = unseen_places(s, p)
            if len(set(places.values())) < 2:
                continue  # one place only (e.g. solitaire: everything unseen is in the pile)
            seen = {card: set() for card in places}
            for seed in range(200):
                r = s.resample(p, seed)
                assert set(unseen_places(r, p)) == set(places), "the same cards stay unseen"
                for card, place in unseen_places(r, p).items():
                    seen[card].add(place)
            assert all(len(where) > 1 for where in seen.values()), seen
            checked += 1
    assert checked > 0


def test_another_players_deal_or_draw_shows_no_card_to_the_player(game):
    if game.info.information == "perfect":
        pytest.skip("every action is public")
    for s in random_states(game, seed=9, games=1):
        if not s.is_chance:
            continue
        for a in s.legal_actions()[:5]:
            full = s.action_to_string(a)
            views = [s.action_to_string(a, p) for p in range(game.num_players)]
            assert full in views or all(v == views[0] for v in views)
            for v in views:
                assert v == full or "?" in v
