"""quanta.interop.openspiel: every registered game passes OpenSpiel's own conformance test, plays
as the bare quanta API does, and runs OpenSpiel's MCTS and MCCFR. Games and option variants are
read from quanta.GAMES and each game's options, never listed by hand."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

import quanta
from quanta.exceptions import InvalidOptionError

from variants import accepted, ident, options_of, variants

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("quanta.interop.openspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots")
outcome_sampling_mccfr = pytest.importorskip("open_spiel.python.algorithms.outcome_sampling_mccfr")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")


VARIANTS = variants()


def test_the_variants_cover_player_counts_and_text_options():
    # The generic variants above do find what the games offer: more than the defaults alone,
    # other values of the text options (set-ups) and every player count.
    assert len(VARIANTS) > 2 * len(quanta.GAMES)
    assert any(isinstance(value, str) for _, options in VARIANTS for value in options.values())
    with_players = [name for name in quanta.GAMES if "players" in quanta.game(name).options]
    for name in with_players:
        counts = {quanta.game(name, **o).num_players for n, o in VARIANTS if n == name}
        assert len(counts) >= 3, (name, counts)


@pytest.mark.parametrize("case", VARIANTS, ids=ident)
def test_openspiel_random_simulation_with_serialisation(case):
    name, options = case
    game = openspiel.load(name, **options)
    pyspiel.random_sim_test(game, num_sims=12 if options else 40, serialize=True, verbose=False)


def forgetful_state_found(g: quanta.Game) -> bool:
    rng = random.Random(0)
    for _ in range(20):
        state = g.new_state()
        while not state.is_terminal:
            if any(state.information_state_string(p) != state.observation_string(p)
                   for p in range(g.num_players)):
                return True
            state = state.play(rng.choice(state.legal_actions()))
    return False


@pytest.mark.parametrize("name", quanta.GAMES)
def test_the_game_type_and_info_say_what_quanta_says(name):
    g = quanta.game(name)
    game = pyspiel.load_game(openspiel.short_name(name))
    kind, info = game.get_type(), g.info
    assert kind.short_name == "python_quanta_" + name
    assert (kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION) == (
        info.information == "perfect")
    assert (kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC) == info.chance
    expected = {"zero_sum": "ZERO_SUM", "general_sum": "GENERAL_SUM", "cooperative": "IDENTICAL"}
    assert kind.utility.name == expected[info.utility]
    if info.information == "perfect":
        assert kind.provides_information_state_tensor
    elif not kind.provides_information_state_tensor:
        # No tensor only where the observation forgets something the player knows: some state
        # of random play has an information state other than its observation.
        assert forgetful_state_found(g)
    assert game.num_players() == g.num_players
    assert game.num_distinct_actions() == g.num_actions
    assert (game.min_utility(), game.max_utility()) == (info.min_return, info.max_return)
    assert game.max_game_length() == info.max_game_length
    assert game.observation_tensor_shape() == list(g.observation_shape)
    if info.utility == "zero_sum":
        assert game.utility_sum() == 0.0
    # The registered type spans every player count the game takes.
    registered = {t.short_name: t for t in pyspiel.registered_games()}[kind.short_name]
    counts = [n for n in range(1, 9) if accepted(name, "players", n)] or [g.num_players]
    assert (registered.min_num_players, registered.max_num_players) == (min(counts), max(counts))


@pytest.mark.parametrize("name", quanta.GAMES)
def test_a_game_string_and_pickle_give_back_the_same_game(name):
    for options in options_of(name)[:4]:
        game = openspiel.load(name, **options)
        again = pyspiel.load_game(str(game))
        assert again.quanta_game == game.quanta_game == quanta.game(name, **options)
        assert pickle.loads(pickle.dumps(game)).quanta_game == game.quanta_game


@pytest.mark.parametrize("name", quanta.GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_game_plays_as_the_bare_quanta_api(name, seed):
    rng = random.Random(seed)
    game = openspiel.load(name)
    state, bare = game.new_initial_state(), quanta.game(name).new_state()
    players = range(game.num_players())
    while True:
        assert state.current_player() == bare.current_player
        assert state.is_terminal() == bare.is_terminal
        assert str(state) == bare.notation()
        for p in players:
            assert state.observation_string(p) == bare.observation_string(p)
            assert state.information_state_string(p) == bare.information_state_string(p)
            np.testing.assert_array_equal(
                state.observation_tensor(p), bare.observation_tensor(p).reshape(-1))
        if bare.is_terminal:
            break
        assert state.legal_actions() == list(bare.legal_actions())
        if bare.is_chance:
            outcomes, expected = state.chance_outcomes(), bare.chance_outcomes()
            assert [a for a, _ in outcomes] == [a for a, _ in expected]
            assert [p for _, p in outcomes] == pytest.approx([p for _, p in expected])
        else:
            p = bare.current_player
            action = rng.choice(bare.legal_actions())
            assert state.action_to_string(p, action) == bare.action_to_string(action, p)
        action = rng.choice(bare.legal_actions())
        state.apply_action(action)
        bare = bare.play(action)
    assert state.returns() == bare.returns()
    # A pickled state is the same position with the same history.
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()


@pytest.mark.parametrize("case", VARIANTS, ids=ident)
def test_an_information_state_tensor_is_given_only_where_it_is_the_information_state(case):
    # Where the type says it provides one, a player's equal information-state strings give equal
    # tensors and different strings different tensors, over random play.
    name, options = case
    game = openspiel.load(name, **options)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    if not game.get_type().provides_information_state_tensor:
        assert observer.tensor is None
        return
    rng = random.Random(0)
    tensors: dict[tuple[int, str], bytes] = {}
    for _ in range(6):
        state = game.new_initial_state()
        for _ in range(100):
            if state.is_terminal():
                break
            for p in range(game.num_players()):
                key = (p, state.information_state_string(p))
                tensor = np.asarray(state.information_state_tensor(p), np.float32).tobytes()
                assert tensors.setdefault(key, tensor) == tensor
                observer.set_from(state, p)
                assert observer.tensor.tobytes() == tensor
            state.apply_action(rng.choice(state.legal_actions()))
    for p in range(game.num_players()):
        mine = [tensor for (q, _), tensor in tensors.items() if q == p]
        assert len(set(mine)) == len(mine) > 20


def test_bad_input_raises_quantas_typed_errors():
    with pytest.raises(InvalidOptionError, match="unknown game"):
        openspiel.load("chess")
    with pytest.raises(InvalidOptionError, match="unknown game"):
        openspiel.short_name("chess")
    name = quanta.GAMES[0]
    with pytest.raises(InvalidOptionError, match="no_such_option"):
        openspiel.load(name, no_such_option=1)
    # A bad value given through OpenSpiel's own game string is refused by quanta.
    key, value = next((k, v) for k, v in quanta.game(name).options.items() if type(v) is int)
    with pytest.raises(InvalidOptionError):
        pyspiel.load_game(f"{openspiel.short_name(name)}({key}=1000000)")
    with pytest.raises(InvalidOptionError, match="observations take no parameters"):
        openspiel.load(name).make_py_observer(None, {"x": 1})


def test_a_per_player_option_is_one_parameter_a_player():
    for name in quanta.GAMES:
        options = quanta.game(name).options
        for key, value in options.items():
            if not isinstance(value, tuple) or not isinstance(value[0], int) or isinstance(
                    value[0], bool):
                continue
            uneven = tuple(reversed(range(value[0], value[0] + len(value))))
            if not accepted(name, key, uneven):
                continue
            game = openspiel.load(name, **{key: uneven})
            assert game.quanta_game.options[key] == uneven
            parameters = game.get_parameters()
            assert [parameters[f"{key}_{p}"] for p in range(len(value))] == list(uneven)
            assert pyspiel.load_game(str(game)).quanta_game.options[key] == uneven
            return
    pytest.skip("no game has a per-player integer option")


PERFECT = [name for name in quanta.GAMES if quanta.game(name).info.information == "perfect"]


@pytest.mark.parametrize("name", PERFECT)
def test_openspiels_mcts_bot_plays_whole_games(name):
    game = openspiel.load(name)
    info = game.quanta_game.info
    rng = np.random.RandomState(7)
    for _ in range(2):
        bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=12,
                             evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
                for _ in range(game.num_players())]
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, rng)
        assert state.is_terminal()
        assert all(info.min_return <= r <= info.max_return for r in returns)
        assert list(returns) == state.quanta_state.returns()


IMPERFECT = [name for name in quanta.GAMES if quanta.game(name).info.information != "perfect"]


@pytest.mark.parametrize("name", IMPERFECT)
def test_openspiels_information_set_mcts_plays_whole_games(name):
    # ISMCTS samples the states the player cannot tell apart through resample_from_infostate
    # (quanta's resample) and checks each sample has the player's information state.
    game = openspiel.load(name)
    info = game.quanta_game.info
    rng = np.random.RandomState(3)
    bots = [ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
            for _ in range(game.num_players())]
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(outcomes, p=probabilities))
            continue
        for player in range(game.num_players()):
            sample = state.resample_from_infostate(player, sampler)
            assert sample.information_state_string(player) == state.information_state_string(
                player)
            differed += str(sample) != str(state)
            if player == state.current_player():
                assert sample.legal_actions() == state.legal_actions()
        state.apply_action(bots[state.current_player()].step(state))
    assert all(info.min_return <= r <= info.max_return for r in state.returns())
    assert differed > 0   # some samples are other states than the true one


def test_outcome_sampling_mccfr_on_einstein_a_la_card():
    game = openspiel.load("einstein_card")
    seen = []

    class Recording(outcome_sampling_mccfr.OutcomeSamplingSolver):
        """Keeps a copy of every decision state the episodes pass through."""

        def _episode(self, state, update_player, *reaches, **named):
            if not state.is_terminal() and not state.is_chance_node():
                seen.append(state.clone())
            return super()._episode(state, update_player, *reaches, **named)

    np.random.seed(0)   # OpenSpiel's MCCFR samples with numpy's global generator
    solver = Recording(game)
    for _ in range(30):
        solver.iteration()
    policy = solver.average_policy()
    assert len(seen) > 1000 and len(solver._infostates) > 100
    # At every visited state the average policy is a distribution over exactly its legal
    # actions; the regrets the iterations learnt differ between actions somewhere.
    for state in seen:
        probabilities = policy.action_probabilities(state)
        assert sorted(probabilities) == state.legal_actions()
        values = np.array(list(probabilities.values()))
        assert (values >= 0).all() and values.sum() == pytest.approx(1.0)
    regrets = [entry[0] for entry in solver._infostates.values() if len(entry[0]) > 1]
    assert sum(not np.allclose(r, r[0]) for r in regrets) >= 10


def test_import_quanta_leaves_openspiel_alone():
    # The core needs no framework: only quanta.interop.openspiel imports pyspiel.
    code = "import sys, quanta, quanta.interop; print('pyspiel' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
