"""quanta.interop.gymnasium: Gymnasium's check_env on every one-player game variant and the
registered ids, the vector environment against the single one and the bare quanta API."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from variants import ident, variants  # noqa: E402

import quanta  # noqa: E402
from quanta.interop import gymnasium as qgym  # noqa: E402

SOLO = variants(players=1)


def checked(env, **how) -> list[str]:
    """Gymnasium's check_env on ``env``; the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, **how)
    return [str(w.message) for w in caught]


def test_the_registered_games_are_among_the_one_player_variants():
    solo = [quanta.game(name, **options) for name, options in SOLO]
    for name, options in qgym.ENVS.values():
        assert quanta.game(name, **options) in solo


@pytest.mark.parametrize("variant", SOLO, ids=ident)
def test_check_env_passes_without_warnings(variant):
    name, options = variant
    # Only an environment made by gymnasium.make has the spec the render checks need: the
    # registered ids are checked with them below.
    env = qgym.QuantaEnv(quanta.game(name, **options), render_mode="ansi")
    assert checked(env, skip_render_check=True) == []
    env.reset(seed=0)
    assert env.render() == str(env.game_state)


@pytest.mark.parametrize("env_id", sorted(qgym.ENVS))
def test_the_registered_ids_pass_check_env(env_id):
    env = gymnasium.make(env_id)
    assert checked(env.unwrapped) == []
    assert isinstance(env.unwrapped, qgym.QuantaEnv)
    name, options = qgym.ENVS[env_id]
    assert env.unwrapped.game == quanta.game(name, **options)


def test_other_games_are_refused():
    for name in quanta.GAMES:
        game = quanta.game(name)
        if game.num_players != 1:
            with pytest.raises(quanta.NotApplicableError, match="one-player"):
                qgym.QuantaEnv(game)
    with pytest.raises(quanta.NotApplicableError):
        qgym.QuantaEnv("quincunx")
    with pytest.raises(quanta.InvalidOptionError):
        qgym.QuantaEnv(quanta.game("repair_unit"), illegal="ignore")
    with pytest.raises(quanta.InvalidOptionError, match="render_mode"):
        qgym.QuantaEnv(quanta.game("repair_unit"), render_mode="rgb_array")


@pytest.mark.parametrize("variant", SOLO, ids=ident)
def test_the_env_follows_the_bare_api(variant):
    """Observations, masks and rewards are the bare API's on the environment's state, the
    state moves by the action played (and chance), and the rewards add up to the return."""
    name, options = variant
    env = qgym.QuantaEnv(quanta.game(name, **options))
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        start = env.game_state.returns()[0]
        total, terminated = 0.0, False
        while not terminated:
            s = env.game_state
            np.testing.assert_array_equal(obs, s.observation_tensor(0))
            assert list(np.flatnonzero(info["action_mask"])) == list(s.legal_actions())
            a = env.action_space.sample(mask=info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(a)
            assert not truncated and not info["illegal_action"]
            total += reward
            direct = s.play(int(a))
            if not direct.is_chance:
                assert env.game_state == direct
            assert total == pytest.approx(env.game_state.returns()[0] - start)
        assert env.game_state.is_terminal
        assert total + start == pytest.approx(info["final_return"])
        with pytest.raises(quanta.NotApplicableError, match="reset"):
            env.step(a)


def test_quincunx_solitaire_rewards_rank_a_completed_spread_above_any_loss():
    """docs/rules/quincunx.md, *Solitaire*: "If you run out of cards before completing the
    spread, you lose." The rewards of a lost game add up to ``game.info.min_return``, below
    every completed game's; those of a completed game to its score."""
    env = gymnasium.make("quanta/QuincunxSolitaire-v0")
    game = env.unwrapped.game
    outcomes = set()
    for seed in range(40):
        _, info = env.reset(seed=seed)
        env.action_space.seed(seed)
        total, terminated = 0.0, False
        while not terminated:
            _, reward, terminated, _, info = env.step(env.action_space.sample(
                mask=info["action_mask"]))
            total += reward
        s = env.unwrapped.game_state
        if s.lost():
            assert total == game.info.min_return
        else:
            assert game.info.min_return < total == s.scores()[0]
        outcomes.add(s.lost())
    assert outcomes == {True, False}


def test_an_illegal_action_loses_or_raises():
    game = quanta.game("repair_unit")
    env = qgym.QuantaEnv(game)
    _, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game_state
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal_action"]
    assert info["final_return"] == game.info.min_return
    assert reward == game.info.min_return - before.returns()[0]
    assert env.game_state == before
    strict = qgym.QuantaEnv(game, illegal="raise")
    strict.reset(seed=4)
    with pytest.raises(quanta.IllegalMoveError):
        strict.step(illegal)
    assert strict.game_state == before
    for bad in ("x", 1.5, True):
        with pytest.raises(quanta.IllegalMoveError, match="an action is an integer"):
            strict.step(bad)


@pytest.mark.parametrize("variant", SOLO, ids=ident)
def test_game_0_of_the_vector_env_is_the_single_env(variant):
    """The single environment reset with a seed plays as game 0 of a vector environment
    reset with it, at any number of threads; the final observations and returns of the
    games that end are the single environment's."""
    name, options = variant
    single = qgym.QuantaEnv(quanta.game(name, **options))
    vec = qgym.make_vec(name, 8, seed=None, threads=2, **options)
    one_thread = qgym.make_vec(name, 8, threads=1, **options)
    obs, info = vec.reset(seed=9)
    obs_1, _ = one_thread.reset(seed=9)
    s_obs, s_info = single.reset(seed=9)
    rng = np.random.default_rng(2)
    ends, following = 0, True
    for _ in range(120):
        np.testing.assert_array_equal(obs, obs_1)
        if following:
            np.testing.assert_array_equal(obs[0], s_obs)
            np.testing.assert_array_equal(info["action_mask"][0], s_info["action_mask"])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        obs_1, rewards_1, terminated_1, _, info_1 = one_thread.step(actions)
        np.testing.assert_array_equal(rewards, rewards_1)
        np.testing.assert_array_equal(terminated, terminated_1)
        assert not truncated.any()
        if terminated.any():
            ends += int(terminated.sum())
            np.testing.assert_array_equal(info["_final_obs"], terminated)
            np.testing.assert_array_equal(info["final_obs"], info_1["final_obs"])
        if following:
            s_obs, s_reward, s_term, _, s_info = single.step(actions[0])
            assert rewards[0] == s_reward and terminated[0] == s_term
            if s_term:  # the single environment restarts only when asked: stop here
                np.testing.assert_array_equal(info["final_obs"][0], s_obs)
                assert info["final_return"][0] == s_info["final_return"]
                following = False
    assert not following and ends > 1


def test_the_vector_env_refuses_bad_input():
    vec = qgym.make_vec("repair_unit", 3, seed=0, illegal="raise")
    with pytest.raises(quanta.InvalidOptionError, match="actions must be"):
        vec.step([0, 1])
    _, info = vec.reset(seed=0)
    actions = [int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]]
    with pytest.raises(quanta.IllegalMoveError, match="game 0 of the batch"):
        vec.step(actions)
    with pytest.raises(quanta.InvalidOptionError, match="one integer"):
        vec.reset(seed=[1, 2, 3])
    env = qgym.QuantaEnv(quanta.game("repair_unit", players=1))
    for reset in (vec.reset, env.reset):
        for bad in (-1, 2**64, 1.5, "7", True):
            with pytest.raises(quanta.InvalidOptionError, match="seed must be an integer"):
                reset(seed=bad)
    with pytest.raises(quanta.NotApplicableError):
        qgym.make_vec("einstein", 2)


def test_gymnasium_make_vec_uses_the_rust_batch():
    vec = gymnasium.make_vec("quanta/QuincunxSolitaire-v0", num_envs=4,
                             vectorization_mode="vector_entry_point")
    assert isinstance(vec, qgym.QuantaVectorEnv) and vec.num_envs == 4
    obs, info = vec.reset(seed=0)
    assert obs.shape == (4, *quanta.game("quincunx", players=1).observation_shape)
