"""quanta.interop.pettingzoo: PettingZoo's own tests on every game variant, and the AEC and
batch environments checked against the bare quanta API."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from variants import ident, variants  # noqa: E402

import quanta  # noqa: E402
from quanta.interop import pettingzoo as qpz  # noqa: E402

VARIANTS = variants()

#: The warnings of PettingZoo's api_test that no environment of this shape can avoid: a dict
#: observation with an action mask (PettingZoo's form for masks) is "not a NumPy array" and its
#: space not a Box for any environment outside PettingZoo's own list of games, and an agent that has just finished (as every agent does
#: when the game ends) has an all-zero mask: nothing is left to do. A two-dimensional
#: observation with a negative entry (a score below 0) is taken for an image.
INHERENT = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
    "Action mask numpy array is all zeros (no legal actions).",
    "The observation contains negative numbers and is in the shape of a graphical observation. "
    "This might be a bad thing.",
)


@pytest.mark.parametrize("variant", VARIANTS, ids=ident)
def test_api_test_and_seed_test(variant):
    name, options = variant
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(qpz.env(name, **options), num_cycles=200)
    others = {str(w.message) for w in caught} - set(INHERENT)
    assert others == set()
    seed_test(lambda: qpz.env(name, **options), num_cycles=200)


@pytest.mark.parametrize("variant", VARIANTS, ids=ident)
def test_the_aec_env_follows_the_bare_api(variant):
    """Random games through the environment: each observation, mask, reward and termination is
    what the bare API says of the environment's state, the state moves by the action played
    (and chance), and each agent's rewards add up to its final return."""
    name, options = variant
    env = qpz.raw_env(name, **options)
    rng = np.random.default_rng(3)
    for seed in range(2):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(2000):
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            s = env.game_state
            p = int(agent.split("_")[1])
            assert not s.is_chance
            np.testing.assert_array_equal(obs["observation"], s.observation_tensor(p))
            if terminated:
                assert s.is_terminal
                env.step(None)
                continue
            assert s.current_player == p and not truncated
            assert list(np.flatnonzero(obs["action_mask"])) == list(s.legal_actions())
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(a)
            after, direct = env.game_state, s.play(a)
            if not direct.is_chance:
                assert after == direct
        assert not env.agents
        final = env.game_state.returns()
        assert [totals[a] for a in env.possible_agents] == pytest.approx(final)


def test_an_illegal_action_raises_and_changes_nothing():
    env = qpz.raw_env("einstein")
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game_state
    with pytest.raises(quanta.IllegalMoveError):
        env.step(illegal)
    for bad in (None, 1.5, "x", 10**6):
        with pytest.raises(quanta.IllegalMoveError):
            env.step(bad)
    assert env.game_state == before


def test_render_shows_the_game():
    env = qpz.env("quincunx", render_mode="ansi", players=3)
    env.reset(seed=0)
    assert env.render() == str(env.unwrapped.game_state)
    with pytest.raises(quanta.InvalidOptionError):
        qpz.env("quincunx", render_mode="rgb_array")


@pytest.mark.parametrize("variant", VARIANTS, ids=ident)
def test_the_batch_follows_the_bare_api(variant):
    """Each game of a batch moves by its action (and chance) as the bare API says, its
    observation, mask and player are the bare API's, its rewards are the change of returns,
    and a game's rows are the same in a batch of another size on another number of threads."""
    name, options = variant
    big = qpz.vector_env(name, 6, seed=5, threads=2, **options)
    small = qpz.vector_env(name, 3, seed=5, threads=1, **options)
    obs, rewards, *_ , infos = big.reset()
    obs_s, *_ = small.reset()
    rng = np.random.default_rng(0)
    states = [big.game_state(i) for i in range(6)]
    ended = 0
    for _ in range(150):
        np.testing.assert_array_equal(obs["observation"][:3], obs_s["observation"])
        for i, s in enumerate(states):
            p = s.current_player
            assert infos["player"][i] == p
            np.testing.assert_array_equal(obs["observation"][i], s.observation_tensor(p))
            assert list(np.flatnonzero(obs["action_mask"][i])) == list(s.legal_actions())
        actions = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
        obs, rewards, terminations, truncations, infos = big.step(actions)
        obs_s, *_ = small.step(actions[:3])
        assert not truncations.any()
        for i, s in enumerate(states):
            direct = s.play(actions[i])
            if terminations[i]:
                ended += 1
                np.testing.assert_allclose(infos["final_returns"][i] - s.returns(), rewards[i])
            else:
                now = big.game_state(i)
                if not direct.is_chance:
                    assert now == direct
                np.testing.assert_allclose(np.subtract(now.returns(), s.returns()), rewards[i])
        states = [big.game_state(i) for i in range(6)]
    assert ended > 0


def test_the_batch_refuses_bad_actions():
    batch = qpz.vector_env("einstein", 2, seed=0)
    obs, *_ = batch.reset()
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    legal = int(np.flatnonzero(obs["action_mask"][0])[0])
    before = [batch.batch.notation(i) for i in range(2)]
    with pytest.raises(quanta.IllegalMoveError, match="game 1 of the batch"):
        batch.step([legal, illegal])
    assert [batch.batch.notation(i) for i in range(2)] == before
    for bad in ([legal], [[legal, legal]], ["a", "b"], [0.5, 1.5]):
        with pytest.raises(quanta.InvalidOptionError, match="actions must be"):
            batch.step(bad)
    with pytest.raises(quanta.InvalidOptionError, match="num_envs"):
        qpz.vector_env("einstein", 0)
    for reset in (batch.reset, qpz.env("einstein").reset):
        for bad in (-1, 2**64, 1.5, "7", True):
            with pytest.raises(quanta.InvalidOptionError, match="seed must be an integer"):
                reset(seed=bad)
