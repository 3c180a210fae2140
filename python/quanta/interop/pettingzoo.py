"""PettingZoo environments for every quanta game (``pip install quanta[pettingzoo]``).

``env(name, **options)`` is an AEC environment of ``quanta.game(name, **options)``:

- agents ``"player_0"``, ``"player_1"``, …, one per seat; ``agent_selection`` is the player
  to act;
- observations ``{"observation": float32 array of the game's observation_shape,
  "action_mask": int8 array of num_actions}`` (the observing agent's ``observation_tensor``;
  the mask is 1 on the legal actions of the agent to act, all 0 for the others);
- actions ``Discrete(num_actions)``, the game's action numbers; an illegal action raises
  :class:`quanta.IllegalMoveError` and changes nothing;
- rewards: the change of each player's ``returns()`` over a step (the action and the chance
  outcomes after it), so an agent's rewards over a game add up to its final return — the
  win/loss (+1/-1/0) of the two-player games, the score of the scoring games, the shared
  result of the cooperative ones (``quanta.game(name).info`` says which);
- chance is resolved by the environment with its own generator, seeded by ``reset(seed=)``;
- every agent terminates when the game ends; there is no truncation (every game ends).

``vector_env(name, num_envs, ...)`` steps a batch of games in the Rust core (see
:class:`BatchEnv`).
"""

from __future__ import annotations

from typing import Any

from quanta._extras import require

require("quanta.interop.pettingzoo", "pettingzoo", "gymnasium", "pettingzoo")

import numpy as np  # noqa: E402
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import quanta
from quanta.exceptions import IllegalMoveError, NotApplicableError
from quanta.interop._spaces import RENDER_MODES, observation_box, render_text
from quanta.interop._spaces import check_seed
from quanta.interop._spaces import render_mode as _render_mode

__all__ = ["BatchEnv", "env", "raw_env", "vector_env"]


def observation_space(game: quanta.Game) -> spaces.Dict:
    """The observation space of an agent of ``game``."""
    return spaces.Dict(
        {
            "observation": observation_box(game),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        }
    )


def _agent(player: int) -> str:
    return f"player_{player}"


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped class)
    """The AEC environment of one quanta game; see the module's documentation."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "is_parallelizable": False}

    def __init__(self, name: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game = quanta.game(name, **options)
        self.render_mode = _render_mode(render_mode)
        self.metadata = {**self.metadata, "name": f"quanta_{name}_v0"}
        self.possible_agents = [_agent(p) for p in range(self.game.num_players)]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self.game) for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self.np_random, _ = seeding.np_random(None)
        self.state_: quanta.State = self.game.new_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> quanta.State:
        """The game as it stands (a decision or the end: never a chance node)."""
        return self.state_

    def _resolve_chance(self) -> None:
        """Plays chance outcomes, each drawn by its probability with the environment's
        generator, until a decision or the end."""
        s = self.state_
        while s.is_chance:
            outcomes = s.chance_outcomes()
            x = float(self.np_random.random())
            chosen = outcomes[-1][0]
            for a, p in outcomes:
                if x < p:
                    chosen = a
                    break
                x -= p
            s = s.play(chosen)
        self.state_ = s

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game; ``seed`` seeds the chance outcomes (``options`` is not used)."""
        seed = check_seed(seed)
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.state_ = self.game.new_state()
        self._resolve_chance()
        self._returns = self.state_.returns()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        player = self.state_.current_player
        if player >= 0:
            self.agent_selection = _agent(player)
        else:  # the game is over: the dead agents step in turn
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._index[agent]
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if self.state_.current_player == player:
            mask[list(self.state_.legal_actions())] = 1
        return {"observation": self.state_.observation_tensor(player), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMoveError(f"{agent} is to act: step needs an action, not None")
        self.state_ = self.state_.play(action)  # IllegalMoveError for anything but a legal action
        self._resolve_chance()
        returns = self.state_.returns()
        self._cumulative_rewards[agent] = 0.0
        for name, now, before in zip(self.possible_agents, returns, self._returns):
            self.rewards[name] = now - before
        self._returns = returns
        if self.state_.is_terminal:
            for name in self.agents:
                self.terminations[name] = True
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game as text (``"ansi"``), printed for ``"human"``."""
        return render_text(self.state_, self.render_mode)

    def close(self) -> None:
        pass


def env(name: str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The AEC environment of ``quanta.game(name, **options)``, checked for call order by
    PettingZoo's ``OrderEnforcingWrapper``."""
    return _OrderEnforcing(raw_env(name, render_mode=render_mode, **options))


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcing, its refusals typed: a ``step``, ``observe``, ``state``,
    ``render`` or ``agent_iter`` before ``reset`` raises :class:`quanta.NotApplicableError`
    (PettingZoo's own raises a bare ``AssertionError``)."""

    def _started(self, call: str) -> None:
        if not self._has_reset:
            raise NotApplicableError(f"the game has not started: call reset() before {call}()")

    def step(self, action: Any) -> None:
        self._started("step")
        super().step(action)

    def observe(self, agent: str) -> Any:
        self._started("observe")
        return super().observe(agent)

    def state(self) -> np.ndarray:
        self._started("state")
        return super().state()

    def render(self) -> Any:
        self._started("render")
        return super().render()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        self._started("agent_iter")
        return super().agent_iter(max_iter)


class BatchEnv:
    """``num_envs`` games of ``quanta.game(name, **options)`` stepped together in the Rust
    core, each always at a decision: chance is drawn by each game's own generator (game ``i``
    seeded by row ``i`` of the seed of ``reset``) and a finished game starts again at once.

    ``reset(seed)`` and ``step(actions)`` return ``(observations, rewards, terminations,
    truncations, infos)`` (``reset`` gives rewards of 0), arrays with one row per game:

    - ``observations["observation"]`` (num_envs, *observation_shape) float32 and
      ``observations["action_mask"]`` (num_envs, num_actions) int8: the view and the legal
      actions of the player to act in each game, ``infos["player"]`` (num_envs,);
    - ``rewards`` (num_envs, num_players) float64: every player's change of ``returns()``;
    - ``terminations`` (num_envs,) bool: the game ended in this step (and has started again;
      ``infos["final_returns"]`` (num_envs, num_players) holds its final returns);
    - ``truncations``: all False.

    ``actions`` holds one action per game for its player to act; an illegal one raises
    :class:`quanta.IllegalMoveError` and nothing changes.
    """

    def __init__(
        self, name: str, num_envs: int, seed: int | None = None, threads: int | None = None,
        **options: Any,
    ) -> None:
        self.game = quanta.game(name, **options)
        self.possible_agents = [_agent(p) for p in range(self.game.num_players)]
        self.single_observation_space = observation_space(self.game)
        self.single_action_space = spaces.Discrete(self.game.num_actions)
        self.batch = quanta._core.VectorGame(self.game, num_envs, seed, threads)
        self.num_envs: int = self.batch.num_envs
        self._seed = 0 if seed is None else seed

    def _out(
        self, b: dict[str, np.ndarray]
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs = {"observation": b["obs"], "action_mask": b["mask"]}
        infos = {"player": b["player"], "final_returns": b["final_returns"]}
        return (obs, b["rewards"], b["terminated"], np.zeros(self.num_envs, dtype=bool), infos)

    def reset(
        self, seed: int | None = None
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Starts every game again (``seed``: the seed the batch was made with)."""
        seed = check_seed(seed)
        return self._out(self.batch.reset(self._seed if seed is None else seed))

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        return self._out(self.batch.step(actions))

    def game_state(self, index: int) -> quanta.State:
        """Game ``index`` of the batch as it stands."""
        return self.game.from_notation(self.batch.notation(index))


def vector_env(
    name: str, num_envs: int, seed: int | None = None, threads: int | None = None,
    **options: Any,
) -> BatchEnv:
    """:class:`BatchEnv` of ``num_envs`` games of ``quanta.game(name, **options)``."""
    return BatchEnv(name, num_envs, seed=seed, threads=threads, **options)
