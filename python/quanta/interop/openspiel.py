"""Every quanta game as an OpenSpiel game, so ``pyspiel``'s algorithms and bots run on it.

Importing this module registers one OpenSpiel game for each game of :data:`quanta.GAMES`, named
``python_quanta_<game>`` (``python_quanta_einstein``, ...), whose parameters are the game's quanta
options::

    import pyspiel
    from quanta.interop import openspiel

    game = openspiel.load("einstein", first=1)           # checked by quanta, typed errors
    game = pyspiel.load_game("python_quanta_einstein(first=1)")   # the same game

An option whose value is one per player (EinStein a la Card's ``hand_size`` and ``open_hands``)
is one parameter a player, ``hand_size_0`` and ``hand_size_1``; :func:`load` takes the quanta
option as quanta does (``hand_size=3`` or ``hand_size=(2, 3)``).

What OpenSpiel is told comes from the quanta game's :attr:`~quanta.Game.info`: information
(perfect or imperfect), utility (``zero_sum`` is OpenSpiel's zero-sum, ``cooperative`` its
identical, ``general_sum`` its general-sum), chance (explicit-stochastic or deterministic), the
bounds of the returns and the longest game. Chance outcomes are quanta's action ids, all below
``num_actions``, so ``max_chance_outcomes`` is ``num_actions`` for a game with chance. Rewards
come at the end (OpenSpiel's terminal reward model).

Observation strings and tensors are quanta's ``observation_string`` and ``observation_tensor``;
information-state strings are quanta's ``information_state_string``. The information-state
tensor is the observation tensor, and is provided only where that is the information state
(``game.get_type().provides_information_state_tensor`` says where): in a perfect-information
game, where it is the whole position, and in a game whose information state is its observation
(quanta's two strings agree on every state of a few seeded random games, as EinStein a la Card's
and Quincunx's rules say they always do). Where the observation forgets what a player has seen
(A Quantum Leap's covered cards), no tensor would be an honest information state.

A state's ``str`` is the quanta notation (exact, one line); ``state.quanta_state`` is the quanta
state itself and ``game.quanta_game`` the quanta game. OpenSpiel serialises a state (and clones
and pickles it) through the quanta state, which is exact. ``state.resample_from_infostate(player,
sampler)`` is quanta's ``resample`` (for information-set MCTS).

:func:`bot` hands any quanta bot (:mod:`quanta.bots`) to OpenSpiel as a ``pyspiel.Bot``, so
that ``pyspiel.evaluate_bots`` and OpenSpiel's own tools can play quanta's players: each step is
the bot's ``choose``, as blind as it is everywhere else.

Needs the ``openspiel`` extra: ``pip install 'quanta[openspiel]'``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

import quanta
from quanta.exceptions import InvalidOptionError

from quanta._extras import require

require("quanta.interop.openspiel", "openspiel", "pyspiel")
import pyspiel  # noqa: E402

__all__ = ["GAME_CLASSES", "PREFIX", "QuantaBot", "QuantaGame", "QuantaState", "bot", "load",
           "short_name"]

#: What every registered game's short name starts with.
PREFIX = "python_quanta_"

_UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
    "cooperative": pyspiel.GameType.Utility.IDENTICAL,
}


def short_name(name: str) -> str:
    """The OpenSpiel short name of the quanta game ``name`` (``"python_quanta_einstein"``)."""
    if name not in quanta.GAMES:
        raise InvalidOptionError(
            f"unknown game {quanta.exceptions.quoted(name)}: expected one of {', '.join(quanta.GAMES)}"
        )
    return PREFIX + name


def load(name: str, **options: Any) -> Any:
    """The quanta game ``name`` with ``options`` (as :func:`quanta.game` takes them) as a
    ``pyspiel.Game``. An unknown game or a bad option raises
    :class:`~quanta.exceptions.InvalidOptionError` before OpenSpiel sees it."""
    game = quanta.game(name, **options)
    return pyspiel.load_game(short_name(name), _parameters(game.options))


def _parameters(options: Mapping[str, Any]) -> dict[str, int | bool | str]:
    """quanta options as OpenSpiel parameters: an option with one value a player becomes one
    parameter a player (``hand_size`` -> ``hand_size_0``, ``hand_size_1``)."""
    parameters: dict[str, int | bool | str] = {}
    for key, value in options.items():
        if isinstance(value, tuple):
            for player, item in enumerate(value):
                parameters[f"{key}_{player}"] = item
        else:
            parameters[key] = value
    return parameters


def _options(name: str, parameters: Mapping[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters back to quanta options (the inverse of :func:`_parameters`)."""
    defaults = quanta.game(name).options
    options: dict[str, Any] = {}
    for key, value in defaults.items():
        if isinstance(value, tuple):
            options[key] = tuple(
                parameters.get(f"{key}_{player}", item) for player, item in enumerate(value)
            )
        else:
            options[key] = parameters.get(key, value)
    return options


def _player_counts(name: str) -> tuple[int, int]:
    """The fewest and most players the game takes (read from its ``players`` option)."""
    default = quanta.game(name)
    if "players" not in default.options:
        return default.num_players, default.num_players
    counts = []
    for players in range(1, 17):
        try:
            counts.append(quanta.game(name, players=players).num_players)
        except InvalidOptionError:
            pass
    return min(counts), max(counts)


def _remembers_nothing_unseen(game: quanta.Game, games: int = 4, plies: int = 200) -> bool:
    """Whether the game's information state is its observation: ``information_state_string``
    equals ``observation_string`` for every player at every state of a few random games (seeded:
    the answer depends on the game alone). The rules pages say so of EinStein a la Card and
    Quincunx; A Quantum Leap's observation forgets the covered cards, and differs at once."""
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state()
        for _ in range(plies):
            for player in range(game.num_players):
                if state.information_state_string(player) != state.observation_string(player):
                    return False
            if state.is_terminal:
                break
            state = state.play(rng.choice(state.legal_actions()))
    return True


def _game_type(name: str, game: quanta.Game, players: tuple[int, int]) -> Any:
    info = game.info
    perfect = info.information == "perfect"
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"quanta {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if info.chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if perfect
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=_UTILITY[info.utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        min_num_players=players[0],
        max_num_players=players[1],
        provides_information_state_string=True,
        provides_information_state_tensor=perfect or _remembers_nothing_unseen(game),
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(quanta.game(name).options),
    )


def _game_info(game: quanta.Game) -> Any:
    info = game.info
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_actions,
        max_chance_outcomes=game.num_actions if info.chance else 0,
        num_players=game.num_players,
        min_utility=info.min_return,
        max_utility=info.max_return,
        utility_sum=0.0 if info.utility == "zero_sum" else None,
        max_game_length=info.max_game_length,
    )


class QuantaGame(pyspiel.Game):
    """A quanta game as a ``pyspiel.Game``; made by :func:`load` or ``pyspiel.load_game``. Each
    quanta game has its own subclass (:data:`GAME_CLASSES`), which OpenSpiel registers."""

    #: The quanta game's name (set by each subclass).
    name: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game = quanta.game(self.name, **_options(self.name, dict(params or {})))
        super().__init__(
            _game_type(self.name, game, (game.num_players,) * 2),
            _game_info(game),
            _parameters(game.options),
        )
        self._quanta_game = game

    @property
    def quanta_game(self) -> quanta.Game:
        """The quanta game (rebuilt from the parameters in a game OpenSpiel unpickled, which
        keeps only its parameters)."""
        game: quanta.Game | None = self.__dict__.get("_quanta_game")
        if game is None:
            game = quanta.game(self.name, **_options(self.name, self.get_parameters()))
            self._quanta_game = game
        return game

    def new_initial_state(self) -> QuantaState:
        """The start of a game (a chance node where the quanta game starts with one)."""
        return QuantaState(self, self.quanta_game.new_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer | None:
        """An observer of what a player sees now (the default, or ``perfect_recall=False``) or of
        all the player knows (``perfect_recall=True``); None for the other kinds, which quanta does
        not define (another player's private information, or public information only)."""
        if params:
            raise InvalidOptionError(
                f"quanta's observations take no parameters, not {quanta.exceptions.quoted(params)}"
            )
        if iig_obs_type is None:
            return _Observer(self, recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
            iig_obs_type.public_info
        ):
            return None
        return _Observer(self, recall=iig_obs_type.perfect_recall)


class QuantaState(pyspiel.State):
    """A quanta state as a (mutable) ``pyspiel.State``; ``quanta_state`` is the quanta state."""

    def __init__(self, game: QuantaGame, state: quanta.State) -> None:
        super().__init__(game)
        self.quanta_state = state

    def current_player(self) -> int:
        player = self.quanta_state.current_player
        if player == quanta.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == quanta.TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.quanta_state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.quanta_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.quanta_state = self.quanta_state.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.quanta_state.action_to_string(int(action), player if player >= 0 else None)

    def is_terminal(self) -> bool:
        return self.quanta_state.is_terminal

    def returns(self) -> list[float]:
        if not self.quanta_state.is_terminal:
            return [0.0] * self.quanta_state.game.num_players
        return self.quanta_state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> QuantaState:
        """A state ``player_id`` cannot tell from this one, drawn uniformly from all such states
        by quanta's ``resample``, its seed drawn from ``probability_sampler`` (a callable giving
        a number in [0, 1), as OpenSpiel's samplers are). Information-set MCTS uses it."""
        seed = int(probability_sampler() * 2**53)
        return QuantaState(self.get_game(), self.quanta_state.resample(player_id, seed))

    def __str__(self) -> str:
        return self.quanta_state.notation()


class _Observer:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``) over
    quanta's observations (``recall=False``) or information states (``recall=True``)."""

    def __init__(self, game: QuantaGame, recall: bool) -> None:
        self.recall = recall
        shape = game.quanta_game.observation_shape
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not recall or game.get_type().provides_information_state_tensor:
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: QuantaState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state.quanta_state.observation_tensor(player).reshape(-1)

    def string_from(self, state: QuantaState, player: int) -> str:
        if self.recall:
            return state.quanta_state.information_state_string(player)
        return state.quanta_state.observation_string(player)


class QuantaBot(pyspiel.Bot):
    """A quanta bot as a ``pyspiel.Bot`` on a quanta game's OpenSpiel states: its step is the
    bot's :meth:`~quanta.Bot.choose` of the quanta state."""

    def __init__(self, bot: quanta.Bot, game: QuantaGame) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.game = game

    def step(self, state: QuantaState) -> int:
        return self.bot.choose(state.quanta_state)

    def restart_at(self, state: QuantaState) -> None:
        """Nothing to forget: a quanta bot keeps no state between moves."""

    def __repr__(self) -> str:
        return f"QuantaBot({self.bot!r})"


def bot(player: quanta.Bot, game: QuantaGame) -> QuantaBot:
    """``player`` (a bot of :mod:`quanta.bots`) as a ``pyspiel.Bot`` playing ``game`` (a game
    of this module, e.g. from :func:`load`)."""
    if not isinstance(player, quanta.Bot):
        raise InvalidOptionError(f"bot needs a bot of quanta.bots, not {type(player).__name__}")
    if not isinstance(game, QuantaGame):
        raise InvalidOptionError(f"bot needs a quanta game from quanta.interop.openspiel.load, "
                                 f"not {type(game).__name__}")
    return QuantaBot(player, game)


def _register(name: str) -> type[QuantaGame]:
    # OpenSpiel keeps a class for each game (a function given instead crashes the interpreter
    # at exit).
    cls = type(
        "".join(part.title() for part in name.split("_")) + "Game",
        (QuantaGame,),
        {"name": name, "__module__": __name__, "__doc__": f"quanta's {name} as a pyspiel.Game."},
    )
    pyspiel.register_game(_game_type(name, quanta.game(name), _player_counts(name)), cls)
    globals()[cls.__name__] = cls  # (pickle finds a class by its module and name)
    return cls


#: The ``pyspiel.Game`` class of each quanta game, by quanta name.
GAME_CLASSES: dict[str, type[QuantaGame]] = {name: _register(name) for name in quanta.GAMES}
