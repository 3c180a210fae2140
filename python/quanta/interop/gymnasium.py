"""Gymnasium environments for the one-player quanta games (``pip install quanta[gymnasium]``).

``QuantaEnv(game)`` is a ``gymnasium.Env`` of any one-player game (``quanta.game("quincunx",
players=1)``, ``quanta.game("repair_unit", players=1)``); another game raises
:class:`quanta.NotApplicableError`. Importing this module registers

- ``"quanta/QuincunxSolitaire-v0"``: Quincunx solitaire, the reward being the score, a lost
  game returning less than any completed one (``game.info.min_return``, docs/rules/quincunx.md);
- ``"quanta/RepairUnitSolo-v0"``: solo Quantum Repair Unit, the reward being the result (+1
  for a repair, -1 for a failure);

for ``gymnasium.make`` (keyword arguments become game options) and
``gymnasium.make_vec`` (``vectorization_mode="vector_entry_point"`` steps the batch in Rust).

- Observation: the game's ``observation_tensor(0)`` (float32, ``observation_shape``).
- Action: ``Discrete(num_actions)``; ``info["action_mask"]`` (int8, 1 on the legal actions)
  and ``env.action_masks()`` give the legal ones: ``env.action_space.sample(mask=...)``.
- Reward: the change of ``returns()[0]`` over a step (the action and the chance outcomes after
  it), so the rewards of a game add up to its final return.
- Illegal action: with ``illegal="lose"`` (the default) the game ends at once
  (``terminated``), the return becoming the game's lowest (``game.info.min_return``) and
  ``info["illegal_action"]`` True; with ``illegal="raise"`` it raises
  :class:`quanta.IllegalMoveError` and changes nothing.
- Chance is drawn in the core with the environment's generator, seeded by
  ``reset(seed=...)``: an environment reset with seed ``s`` plays as game 0 of a
  :class:`QuantaVectorEnv` reset with ``s``.
"""

from __future__ import annotations

import operator
from typing import Any

from quanta._extras import require

require("quanta.interop.gymnasium", "gymnasium", "gymnasium")

import gymnasium  # noqa: E402
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

import quanta
from quanta._core import VectorGame
from quanta.exceptions import IllegalMoveError, InvalidOptionError, NotApplicableError
from quanta.interop._spaces import RENDER_MODES, observation_box, render_text
from quanta.interop._spaces import check_seed
from quanta.interop._spaces import render_mode as _render_mode

__all__ = ["ENVS", "QuantaEnv", "QuantaVectorEnv", "make_vec"]

#: The registered environments: id → (game name, options).
ENVS: dict[str, tuple[str, dict[str, Any]]] = {
    "quanta/QuincunxSolitaire-v0": ("quincunx", {"players": 1}),
    "quanta/RepairUnitSolo-v0": ("repair_unit", {"players": 1}),
}


def _one_player(game: Any) -> quanta.Game:
    if not isinstance(game, quanta.Game):
        raise NotApplicableError(
            f"a Gymnasium environment needs a game made by quanta.game(name, ...), not "
            f"{quanta._core.quote(game)}"
        )
    if game.num_players != 1:
        raise NotApplicableError(
            f"a Gymnasium environment needs a one-player game; {game.name} here has "
            f"{game.num_players} players (PettingZoo's quanta.interop.pettingzoo.env takes "
            f"games of any number of players)"
        )
    return game


def _spaces(game: quanta.Game) -> tuple[spaces.Box, spaces.Discrete]:
    return (
        observation_box(game),
        spaces.Discrete(game.num_actions),
    )


class QuantaEnv(gymnasium.Env[np.ndarray, np.int64]):
    """The Gymnasium environment of a one-player quanta game; see the module's documentation."""

    # render_fps: how fast a viewer should show the text frames (the games are turn-based).
    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self, game: quanta.Game, render_mode: str | None = None, illegal: str = "lose"
    ) -> None:
        self.game = _one_player(game)
        self.render_mode = _render_mode(render_mode)
        self.observation_space, self.action_space = _spaces(self.game)
        self._illegal = _illegal(illegal)
        self._batch = VectorGame(self.game, 1, 0, 1, illegal)
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._notation: str | None = None  # the game as it stands, read into _state when asked
        self._state = self.game.new_state()
        self._done = True

    @property
    def game_state(self) -> quanta.State:
        """The game as it stands: a decision, or how it ended (after an illegal action that
        lost, the position it was played in)."""
        if self._notation is not None:
            self._state = self.game.from_notation(self._notation)
            self._notation = None
        return self._state

    def action_masks(self) -> np.ndarray:
        """1 on the legal actions (all 0 once the game is over)."""
        return self._mask.copy()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts a new game; ``seed`` seeds the chance outcomes (``options`` is not used)."""
        seed = check_seed(seed)
        super().reset(seed=seed)
        core_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        b = self._batch.reset(core_seed)
        self._mask = b["mask"][0]
        self._notation = self._batch.notation(0)
        self._done = False
        return b["obs"][0], {"action_mask": self._mask.copy()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise NotApplicableError("the game is over: call reset() before step()")
        try:
            if isinstance(action, (bool, np.bool_)):
                raise TypeError
            a = operator.index(action)
        except TypeError:
            raise IllegalMoveError(
                f"{self.game.name}: an action is an integer from 0 to {self.game.num_actions - 1}, "
                f"not {quanta._core.quote(action)}"
            ) from None
        legal = 0 <= a < self.game.num_actions and self._mask[a] == 1
        if not 0 <= a < self.game.num_actions:
            if self._illegal == "raise":
                raise IllegalMoveError(
                    f"{self.game.name}: an action is an integer from 0 to "
                    f"{self.game.num_actions - 1}, not {quanta._core.quote(action)}"
                )
            a = -1  # out of range, whatever its size: lost as any illegal action
        b = self._batch.step(np.array([a], dtype=np.int64))
        reward = float(b["rewards"][0, 0])
        info: dict[str, Any] = {"illegal_action": not legal}
        if b["terminated"][0]:
            obs = b["final_obs"][0]
            self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
            self._notation = b["final_notation"][0]
            info["final_return"] = float(b["final_returns"][0, 0])
            terminated = True
        else:
            obs = b["obs"][0]
            self._mask = b["mask"][0]
            self._notation = self._batch.notation(0)
            terminated = False
        self._done = terminated
        info["action_mask"] = self._mask.copy()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, False, info

    def render(self) -> str | None:
        """The game as text (``"ansi"``), printed for ``"human"``."""
        return render_text(self.game_state, self.render_mode)


class QuantaVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of a one-player quanta game stepped together in the Rust core.

    Autoreset is ``SAME_STEP``: a game that ends in a step starts again in that step; its
    last observation is ``infos["final_obs"]`` and its final return
    ``infos["final_return"]`` (rows where ``infos["_final_obs"]`` is True). ``infos
    ["action_mask"]`` (num_envs, num_actions) int8 holds the legal actions. Each game draws
    chance with its own generator, row ``i`` of the seed of ``reset``: game ``i`` plays the same
    in a batch of any size and at any number of ``threads``, and game 0 plays as a
    :class:`QuantaEnv` reset with the same seed.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self, game: quanta.Game, num_envs: int, threads: int | None = None,
        illegal: str = "lose",
    ) -> None:
        self.game = _one_player(game)
        self._batch = VectorGame(self.game, num_envs, 0, threads, _illegal(illegal))
        self._started = False
        self.num_envs = self._batch.num_envs
        self.single_observation_space, self.single_action_space = _spaces(self.game)
        self.observation_space = observation_box(self.game, (self.num_envs,))
        self.action_space = spaces.MultiDiscrete(
            np.full(self.num_envs, self.game.num_actions, dtype=np.int64)
        )
        self._mask = np.zeros((self.num_envs, self.game.num_actions), dtype=np.int8)

    def action_masks(self) -> np.ndarray:
        return self._mask.copy()

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(seed, list):
            raise InvalidOptionError(
                "seed must be one integer for the whole batch (game i draws from row i of it)"
            )
        seed = check_seed(seed)
        super().reset(seed=seed)
        core_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        b = self._batch.reset(core_seed)
        self._mask = b["mask"]
        self._started = True
        return b["obs"], {"action_mask": self._mask.copy()}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise NotApplicableError("the games have not started: call reset() before step()")
        b = self._batch.step(actions)
        self._mask = b["mask"]
        terminated = b["terminated"]
        infos: dict[str, Any] = {"action_mask": self._mask.copy()}
        if terminated.any():
            final_obs = np.zeros((self.num_envs, *self.game.observation_shape), dtype=np.float32)
            final_obs[b["ended"]] = b["final_obs"]
            infos["final_obs"] = final_obs
            infos["_final_obs"] = terminated.copy()
            infos["final_return"] = b["final_returns"][:, 0]
            infos["_final_return"] = terminated.copy()
        return (
            b["obs"], b["rewards"][:, 0].copy(), terminated,
            np.zeros(self.num_envs, dtype=bool), infos,
        )


def _illegal(value: object) -> str:
    """``illegal`` checked: ``"lose"`` or ``"raise"``, else :class:`quanta.InvalidOptionError`."""
    if isinstance(value, str) and value in ("lose", "raise"):
        return value
    raise InvalidOptionError(f'illegal must be "raise" or "lose", not {quanta._core.quote(value)}')


def make_vec(
    name: str, num_envs: int, seed: int | None = None, threads: int | None = None,
    illegal: str = "lose", **options: Any,
) -> QuantaVectorEnv:
    """A :class:`QuantaVectorEnv` of ``quanta.game(name, **options)`` (one player), reset with
    ``seed`` when it is given."""
    env = QuantaVectorEnv(quanta.game(name, **options), num_envs, threads, illegal)
    if seed is not None:
        env.reset(seed=seed)
    return env


def _entry(name: str, options: dict[str, Any]) -> Any:
    def make(render_mode: str | None = None, illegal: str = "lose", **extra: Any) -> QuantaEnv:
        return QuantaEnv(quanta.game(name, **{**options, **extra}), render_mode, illegal)

    return make


def _vector_entry(name: str, options: dict[str, Any]) -> Any:
    def make(num_envs: int = 1, threads: int | None = None, illegal: str = "lose",
             **extra: Any) -> QuantaVectorEnv:
        return QuantaVectorEnv(quanta.game(name, **{**options, **extra}), num_envs, threads,
                               illegal)

    return make


for _id, (_name, _options) in ENVS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            _id,
            entry_point=_entry(_name, _options),
            vector_entry_point=_vector_entry(_name, _options),
            disable_env_checker=False,
        )
