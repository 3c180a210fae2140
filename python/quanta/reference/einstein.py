"""EinStein würfelt nicht: the pure-Python reference rules (a test oracle; slow on purpose).

Written plainly from the rules (docs/rules/einstein.md, with its rulings), independently of the
Rust engine, which implements the same contract: the same options (``setup``, ``first``), action
ids, action strings and notation. ``game(**options)`` makes the game.

Rules, notation and action names: docs/rules/einstein.md.
"""

from __future__ import annotations

import itertools

from quanta.exceptions import InvalidNotationError, InvalidOptionError

from ._state import ReferenceState

__all__ = ["EinsteinGame", "EinsteinState", "CHANCE", "TERMINAL"]

CHANCE = -1
TERMINAL = -4

SIZE = 5
NUM_CELLS = SIZE * SIZE

NUM_MOVE_ACTIONS = NUM_CELLS * 3  # 75
ROLL_BASE = NUM_MOVE_ACTIONS  # 75: roll n is ROLL_BASE + n - 1
SETUP_BASE = ROLL_BASE + 6  # 81: arrangement k is SETUP_BASE + k
NUM_ACTIONS = SETUP_BASE + 720  # 801

# All arrangements of the stones 1..6, in lexicographic order (index k <-> permutation).
PERMUTATIONS = list(itertools.permutations(range(1, 7)))

# Start cells, as (row, col), in the order in which an arrangement fills them.
START_CELLS = {
    0: [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)],
    1: [(4, 4), (4, 3), (4, 2), (3, 4), (3, 3), (2, 4)],
}
# Step directions (d_row, d_col), indexed by the direction number of a move action.
DIRECTIONS = {
    0: [(0, +1), (+1, 0), (+1, +1)],  # right, down, diagonal down-right
    1: [(0, -1), (-1, 0), (-1, -1)],  # left, up, diagonal up-left
}
# The corner each player tries to reach.
TARGET = {0: (4, 4), 1: (0, 0)}

SETUP_OPTIONS = ("random", "choose")

P1_LETTERS = "abcdef"  # player 1's stones 1..6 in the notation


def cell_name(row: int, col: int) -> str:
    """a1 for (0, 0), e5 for (4, 4): column letter, then row number."""
    return "abcde"[col] + str(row + 1)


def on_board(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def other(player: int) -> int:
    return 1 - player


def stone_owner(value: int) -> int:
    """The player owning a (non-zero) board value: positive is player 0, negative player 1."""
    return 0 if value > 0 else 1


def stone_value(player: int, number: int) -> int:
    """The board value of `player`'s stone `number`: +number for player 0, -number for player 1."""
    return number if player == 0 else -number


# ---- the board, shared with EinStein a la Card (reference/einstein_card.py) ----
# A board is a tuple of 25 ints, index row * 5 + col: +n player 0's stone n, -n player 1's, 0.


def stones_of(cells, player: int) -> dict:
    """{stone number: (row, col)} of the player's stones on the board."""
    found = {}
    for index, value in enumerate(cells):
        if value != 0 and stone_owner(value) == player:
            found[abs(value)] = divmod(index, SIZE)
    return found


def has_won(cells, player: int) -> bool:
    """A stone of `player` on its target corner, or no stone of the opponent left."""
    target_row, target_col = TARGET[player]
    value = cells[target_row * SIZE + target_col]
    on_target = value != 0 and stone_owner(value) == player
    return on_target or len(stones_of(cells, other(player))) == 0


def stone_moves(player: int, row: int, col: int) -> list:
    """The move actions of the stone on (row, col), for its owner `player`."""
    actions = []
    for direction, (d_row, d_col) in enumerate(DIRECTIONS[player]):
        if on_board(row + d_row, col + d_col):
            actions.append((row * SIZE + col) * 3 + direction)
    return actions


def nearest_stones(own: dict, n: int) -> list:
    """The stone numbers a side with stones `own` may move for the number n: n itself if it is
    on the board, otherwise the nearest existing higher and the nearest existing lower."""
    if n in own:
        return [n]
    higher = [m for m in own if m > n]
    lower = [m for m in own if m < n]
    choice = []
    if higher:
        choice.append(min(higher))  # the nearest existing higher stone
    if lower:
        choice.append(max(lower))  # the nearest existing lower stone
    return choice


def number_moves(cells, player: int, n: int) -> list:
    """The move actions of `player` for the number n (the nearest-stone rule), sorted."""
    own = stones_of(cells, player)
    actions = []
    for number in nearest_stones(own, n):
        actions.extend(stone_moves(player, *own[number]))
    return sorted(actions)


def step(cells, player: int, action: int) -> list:
    """The board after `player`'s stone steps by `action`; whatever stood on the target cell
    (own or enemy) is removed."""
    cells = list(cells)
    from_cell, direction = divmod(action, 3)
    d_row, d_col = DIRECTIONS[player][direction]
    row, col = divmod(from_cell, SIZE)
    to_cell = (row + d_row) * SIZE + (col + d_col)
    cells[to_cell] = cells[from_cell]
    cells[from_cell] = 0
    return cells


def step_string(player: int, action: int) -> str:
    """'b2c3': the cells a move action of `player` goes from and to."""
    from_cell, direction = divmod(action, 3)
    row, col = divmod(from_cell, SIZE)
    d_row, d_col = DIRECTIONS[player][direction]
    return cell_name(row, col) + cell_name(row + d_row, col + d_col)


def arranged(cells, player: int, k: int) -> list:
    """The board with `player`'s stones put on its start cells in arrangement k."""
    cells = list(cells)
    for (row, col), number in zip(START_CELLS[player], PERMUTATIONS[k]):
        cells[row * SIZE + col] = stone_value(player, number)
    return cells


def arrangement_string(k: int) -> str:
    return "setup " + "".join(str(n) for n in PERMUTATIONS[k])


def write_rows(cells) -> str:
    """The five rows of the notation, '/' between them."""
    rows = []
    for row in range(SIZE):
        chars = []
        for col in range(SIZE):
            value = cells[row * SIZE + col]
            if value == 0:
                chars.append(".")
            elif value > 0:
                chars.append(str(value))
            else:
                chars.append(P1_LETTERS[-value - 1])
        rows.append("".join(chars))
    return "/".join(rows)


def parse_rows(rows_field: str, bad) -> tuple:
    """(cells, {player: set of stone numbers}) from the rows field; `bad(what)` makes the error."""
    rows = rows_field.split("/")
    if len(rows) != SIZE:
        raise bad(f"expected {SIZE} rows separated by '/', found {len(rows)}")
    cells = []
    seen: dict[int, set[int]] = {0: set(), 1: set()}
    for row_number, row_text in enumerate(rows, start=1):
        if len(row_text) != SIZE:
            raise bad(f"row {row_number} ({row_text!r}) must have {SIZE} characters")
        for char in row_text:
            if char == ".":
                value = 0
            elif char in "123456":
                value = int(char)
            elif char in P1_LETTERS:
                value = -(P1_LETTERS.index(char) + 1)
            else:
                raise bad(f"invalid character {char!r} in row {row_number}")
            if value != 0:
                owner = stone_owner(value)
                if abs(value) in seen[owner]:
                    raise bad(f"player {owner}'s stone {char!r} appears more than once")
                seen[owner].add(abs(value))
            cells.append(value)
    return cells, seen


def check_setup(cells, seen, player: int, bad) -> None:
    """The board before `player`'s arrangement: empty for player 0; player 0's six stones on
    its start cells and nothing else for player 1."""
    if player == 0:
        if any(cells):
            raise bad("the board must be empty before player 0's arrangement")
    else:
        if seen[1]:
            raise bad("player 1's stones cannot be on the board before its arrangement")
        start = {row * SIZE + col for row, col in START_CELLS[0]}
        occupied = {index for index, value in enumerate(cells) if value != 0}
        if occupied != start or len(seen[0]) != 6:
            raise bad("player 0's six stones must exactly fill its start cells a1 b1 c1 a2 b2 a3")


class EinsteinGame:
    """The parameters of a game of EinStein würfelt nicht.

    Options: ``setup`` = "random" (each side's arrangement is a chance event) or "choose" (each
    player picks their own arrangement); ``first`` = 0 or 1 (who moves first after the setup).
    """

    name = "einstein"
    num_players = 2
    num_actions = NUM_ACTIONS

    def __init__(self, setup: str = "random", first: int = 0) -> None:
        if not isinstance(setup, str) or setup not in SETUP_OPTIONS:
            raise InvalidOptionError(
                f"einstein: option setup must be one of {list(SETUP_OPTIONS)}, not {setup!r}"
            )
        if isinstance(first, bool) or not isinstance(first, int) or first not in (0, 1):
            raise InvalidOptionError(f"einstein: option first must be 0 or 1, not {first!r}")
        self.setup = setup
        self.first = first

    @property
    def options(self) -> dict:
        return {"first": self.first, "setup": self.setup}

    def __eq__(self, other_game: object) -> bool:
        if not isinstance(other_game, EinsteinGame):
            return NotImplemented
        return self.options == other_game.options

    def __hash__(self) -> int:
        return hash((self.setup, self.first))

    def __repr__(self) -> str:
        return f"EinsteinGame(setup={self.setup!r}, first={self.first})"

    def new_state(self) -> "EinsteinState":
        """The start: empty board, player 0's arrangement is next."""
        empty = tuple(0 for _ in range(NUM_CELLS))
        return EinsteinState(self, empty, in_setup=True, player=0, die=None)

    def from_notation(self, text: str) -> "EinsteinState":
        """Reads a position written by EinsteinState.notation(); raises InvalidNotationError."""
        return _parse_notation(self, text)


class EinsteinState(ReferenceState):
    """A position (immutable). Fields:

    * ``cells``: 25 ints, index row * 5 + col; +n player 0's stone n, -n player 1's, 0 empty.
    * ``in_setup``: True while arrangements are pending; ``player`` then names whose is next.
    * ``player``: the player field of the notation (whose arrangement / roll / move is next;
      in a finished game, the player who would move next, i.e. the loser).
    * ``die``: None when not rolled, else 1..6.
    """

    __slots__ = ("_game", "_cells", "_in_setup", "_player", "_die")
    _game: EinsteinGame
    _cells: tuple[int, ...]
    _in_setup: bool
    _player: int
    _die: int | None

    def __init__(self, game: EinsteinGame, cells, in_setup: bool, player: int, die) -> None:
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_cells", tuple(cells))
        object.__setattr__(self, "_in_setup", in_setup)
        object.__setattr__(self, "_player", player)
        object.__setattr__(self, "_die", die)

    def __setattr__(self, name, value):
        raise AttributeError("EinsteinState is immutable")

    # ---- basic facts about the position ----

    @property
    def game(self) -> EinsteinGame:
        return self._game

    def stone_at(self, row: int, col: int) -> int:
        return self._cells[row * SIZE + col]

    def stones(self, player: int) -> dict:
        """{stone number: (row, col)} of the player's stones on the board."""
        return stones_of(self._cells, player)

    def has_won(self, player: int) -> bool:
        """A stone of `player` on its target corner, or no stone of the opponent left.

        Only meaningful after the setup phase."""
        return has_won(self._cells, player)

    def winner(self):
        """The winning player, or None while the game goes on (always None during the setup)."""
        if self._in_setup:
            return None
        for player in (0, 1):
            if self.has_won(player):
                return player
        return None

    @property
    def is_terminal(self) -> bool:
        return self.winner() is not None

    @property
    def is_chance(self) -> bool:
        return self.current_player == CHANCE

    @property
    def current_player(self) -> int:
        if self.is_terminal:
            return TERMINAL
        if self._in_setup:
            return CHANCE if self._game.setup == "random" else self._player
        if self._die is None:
            return CHANCE  # the die must be rolled
        return self._player

    # ---- actions ----

    def movable_stones(self) -> list:
        """The numbers of the stones the player may move with the rolled die (play phase only)."""
        assert self._die is not None, "the die is rolled in the play phase"
        return nearest_stones(self.stones(self._player), self._die)

    def legal_actions(self) -> list:
        """The legal actions, sorted ascending; at a chance node, its outcomes."""
        if self.is_terminal:
            return []
        if self._in_setup:
            return [SETUP_BASE + k for k in range(len(PERMUTATIONS))]
        if self._die is None:
            return [ROLL_BASE + n - 1 for n in range(1, 7)]
        return number_moves(self._cells, self._player, self._die)

    def play(self, action) -> "EinsteinState":
        """The state after a legal action; raises IllegalMoveError otherwise."""
        action = self._check_legal(action)
        cells = list(self._cells)

        if action >= SETUP_BASE:
            # An arrangement of the side self._player: perm[i] goes on its start cell i.
            player = self._player
            cells = arranged(cells, player, action - SETUP_BASE)
            if player == 0:
                return EinsteinState(self._game, cells, in_setup=True, player=1, die=None)
            return EinsteinState(self._game, cells, in_setup=False, player=self._game.first, die=None)

        if action >= ROLL_BASE:
            die = action - ROLL_BASE + 1
            return EinsteinState(self._game, cells, in_setup=False, player=self._player, die=die)

        # A move: the stone steps; whatever stood on the target cell (own or enemy) is removed.
        cells = step(cells, self._player, action)
        return EinsteinState(self._game, cells, in_setup=False, player=other(self._player), die=None)

    def returns(self) -> list:
        """[1.0, -1.0] if player 0 has won, [-1.0, 1.0] if player 1 has, else [0.0, 0.0]."""
        winner = self.winner()
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def action_to_string(self, action) -> str:
        """'a1b2' for a move, 'roll 4' for a roll, 'setup 123456' for an arrangement."""
        return self._action_string(self._check_legal(action))

    def _action_string(self, action: int) -> str:
        """The string of an action already known to be legal here."""
        if action >= SETUP_BASE:
            return arrangement_string(action - SETUP_BASE)
        if action >= ROLL_BASE:
            return f"roll {action - ROLL_BASE + 1}"
        return step_string(self._player, action)

    # ---- text ----

    def notation(self) -> str:
        if self._in_setup:
            die = "setup"
        elif self._die is None:
            die = "-"
        else:
            die = str(self._die)
        return f"{write_rows(self._cells)} {self._player} {die}"

    def board(self) -> list:
        """5 lists of 5 ints: player 0's stones +1..+6, player 1's -1..-6, 0 empty."""
        return [list(self._cells[row * SIZE:(row + 1) * SIZE]) for row in range(SIZE)]

    def __str__(self) -> str:
        return self.notation()


def _parse_notation(game: EinsteinGame, text) -> EinsteinState:
    def bad(what: str):
        return InvalidNotationError(f"einstein: {what} in notation {text!r}")

    if not isinstance(text, str):
        raise InvalidNotationError(f"einstein: notation must be a str, not {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) != 3:
        raise bad("expected three fields '<rows> <player> <die>' separated by single spaces")
    rows_field, player_field, die_field = fields

    # The board.
    cells, seen = parse_rows(rows_field, bad)

    # The player.
    if player_field not in ("0", "1"):
        raise bad(f"player must be 0 or 1, not {player_field!r}")
    player = int(player_field)

    # The die / phase.
    if die_field == "setup":
        check_setup(cells, seen, player, bad)
        return EinsteinState(game, cells, in_setup=True, player=player, die=None)

    if die_field == "-":
        die = None
    elif die_field in ("1", "2", "3", "4", "5", "6"):
        die = int(die_field)
    else:
        raise bad(f"die must be 1-6, '-' or 'setup', not {die_field!r}")

    state = EinsteinState(game, cells, in_setup=False, player=player, die=die)
    if state.has_won(0) and state.has_won(1):
        raise bad("both players have won")
    if state.is_terminal and die is not None:
        raise bad("the die must be '-' in a finished game")
    return state


def game(**options) -> EinsteinGame:
    """The reference game with ``options`` (the same names and values as ``quanta.game``)."""
    return EinsteinGame(**options)
