"""Quantum Leap (hex capture game): the pure-Python reference rules (a test oracle; slow).

Written plainly from the rules (docs/rules/quantum_leap.md, with its rulings), independently of
the Rust engine, which implements the same contract: the same options (``size`` or ``board``,
``setup``),
action ids, action strings and notation. ``game(**options)`` makes the game.

Also here: :func:`solve` and :func:`analyze`, a plain exhaustive memoised negamax used as the
oracle for the engine's solver (small boards only).

Rules, notation and action names: docs/rules/quantum_leap.md.
"""

from __future__ import annotations

import functools

from quanta.exceptions import InvalidNotationError, InvalidOptionError

from ._state import ReferenceState

__all__ = [
    "QuantumLeapGame",
    "QuantumLeapState",
    "Geometry",
    "geometry",
    "CHANCE",
    "TERMINAL",
    "solve",
    "analyze",
    "game",
]

CHANCE = -1
TERMINAL = -4

NAME = "quantum_leap"
SIZES = range(2, 8)
SETUPS = ("A", "B")

# Direction number -> (dq, dr) in axial coordinates.
DIRECTIONS = [(+1, 0), (+1, -1), (0, -1), (-1, 0), (-1, +1), (0, +1)]
DIRECTION_NAMES = ["E", "NE", "NW", "W", "SW", "SE"]

WHITE, BLACK, EMPTY, UNDEALT = "w", "b", ".", "?"
SIDES = ("w", "b", "swap", "deal")
ROW_LETTERS = "abcdefghijklmnopqrstuvwxyz"  # 26 rows at most
MOST_CELLS = 255
BOARD_FORMS = '"hexagon N", "parallelogram AxB", "triangle N" or "cells q,r q,r ..."'


def enemy_of(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def board_cells(board: str) -> list[tuple[int, int]]:
    """The cells (q, r) of the option ``board``: ``"hexagon N"`` (|q|, |r|, |q + r| < N),
    ``"parallelogram AxB"`` (0 <= q < A, 0 <= r < B), ``"triangle N"`` (0 <= r < N,
    -r <= q <= 0) or ``"cells q,r q,r ..."``; InvalidOptionError for anything else, or for cells
    that are not a board (repeated, fewer than 3 or more than 255, more than 26 rows, not
    connected)."""
    def bad(what: str):
        return InvalidOptionError(
            f"{NAME}: option board must be {BOARD_FORMS}; {what} in {board!r}")

    if not isinstance(board, str):
        raise InvalidOptionError(f"{NAME}: option board must be a text, not {board!r}")
    words = board.split()
    numbers = [w for w in words[1:] if w.isdigit()]
    if len(words) == 2 and words[0] == "hexagon" and numbers:
        n = int(words[1])
        if not 2 <= n <= 9:
            raise bad(f"a hexagon has a side from 2 to 9, not {n}")
        cells = [(q, r) for r in range(-n + 1, n) for q in range(-n + 1, n) if abs(q + r) < n]
    elif len(words) == 2 and words[0] == "parallelogram":
        across, x, down = words[1].partition("x")
        if not (x and across.isdigit() and down.isdigit()):
            raise bad("a parallelogram is written AxB")
        a, b = int(across), int(down)
        if a > 100:
            raise bad(f"a parallelogram has rows of at most 100 cells, not {a}")
        cells = [(q, r) for r in range(b) for q in range(a)]
    elif len(words) == 2 and words[0] == "triangle" and numbers:
        cells = [(q, r) for r in range(int(words[1])) for q in range(-r, 1)]
    elif words and words[0] == "cells":
        cells = []
        for word in words[1:]:
            q_text, comma, r_text = word.partition(",")
            try:
                cell = (int(q_text), int(r_text))
            except ValueError:
                raise bad(f"{word!r} is no cell q,r") from None
            if not comma or max(abs(cell[0]), abs(cell[1])) > 100:
                raise bad(f"{word!r} is no cell q,r with whole numbers from -100 to 100")
            cells.append(cell)
    else:
        raise bad("no such shape")
    if len(set(cells)) < len(cells):
        raise bad("a cell is given twice")
    if not 3 <= len(cells) <= MOST_CELLS:
        raise bad(f"{len(cells)} cells")
    if len({r for _, r in cells}) > len(ROW_LETTERS):
        raise bad("more than 26 rows")
    reached, todo, given = {cells[0]}, [cells[0]], set(cells)
    while todo:
        q, r = todo.pop()
        for dq, dr in DIRECTIONS:
            if (q + dq, r + dr) in given and (q + dq, r + dr) not in reached:
                reached.add((q + dq, r + dr))
                todo.append((q + dq, r + dr))
    if len(reached) < len(cells):
        raise bad("the cells are not connected")
    return cells


def hexagon(size: int) -> str:
    return f"hexagon {size}"


class Geometry:
    """A board: cell numbers, axial coordinates, names, neighbours. Rows are the cells of one
    r, top (least r) first; cells are numbered row by row, left (least q) to right."""

    def __init__(self, board: str) -> None:
        cells = board_cells(board)
        self.board = board
        self.coords: list[tuple[int, int]] = sorted(cells, key=lambda qr: (qr[1], qr[0]))
        self.rows: list[list[int]] = []  # row i -> its cell numbers, left to right
        self.names: list[str] = []  # cell number -> name such as "e5"
        for cell, (q, r) in enumerate(self.coords):
            if not self.rows or r != self.coords[cell - 1][1]:
                self.rows.append([])
            self.rows[-1].append(cell)
            self.names.append(ROW_LETTERS[len(self.rows) - 1] + str(len(self.rows[-1])))
        self.num_cells = len(self.coords)
        self.index = {qr: c for c, qr in enumerate(self.coords)}  # (q, r) -> cell number
        self.by_name = {name: c for c, name in enumerate(self.names)}
        # The centre: the cell at the mean of the cells' positions, if there is one there.
        n = self.num_cells
        mean_q, rest_q = divmod(sum(q for q, _ in self.coords), n)
        mean_r, rest_r = divmod(sum(r for _, r in self.coords), n)
        self.centre = self.index.get((mean_q, mean_r)) if rest_q == rest_r == 0 else None
        # The neighbours of each cell (the up to 6 on-board cells one step away).
        self.neighbours = [
            [self.index[(q + dq, r + dr)] for dq, dr in DIRECTIONS
             if (q + dq, r + dr) in self.index]
            for q, r in self.coords
        ]

    def target(self, cell: int, direction: int, distance: int):
        """The cell ``distance`` >= 1 steps from ``cell`` in ``direction``, or None if that is
        off the board. Only the landing cell counts: on a board with a notch or a hole, a leap
        may pass over cells that are not on the board (the ruling *Passing over*)."""
        (q, r), (dq, dr) = self.coords[cell], DIRECTIONS[direction]
        return self.index.get((q + dq * distance, r + dr * distance))


@functools.lru_cache(maxsize=None)
def geometry(board: str | int) -> Geometry:
    """The board of the option ``board``, or the hexagon of side ``board`` when it is a
    number."""
    return Geometry(hexagon(board) if isinstance(board, int) else board)


# ---- the capture rule, shared by the states and the solver ----


def friendly_neighbours(geo: Geometry, cells, cell: int) -> int:
    """k: how many of the neighbours of ``cell`` hold a stone of the same colour as ``cell``."""
    return [cells[other] for other in geo.neighbours[cell]].count(cells[cell])


def jumps(geo: Geometry, cells, colour: str) -> list:
    """The jump actions (cell * 6 + direction) of ``colour``'s stones, ascending."""
    enemy = enemy_of(colour)
    actions = []
    for cell, value in enumerate(cells):
        if value != colour:
            continue
        k = friendly_neighbours(geo, cells, cell)
        if k == 0:
            continue  # an isolated stone cannot jump
        for direction in range(6):
            # The target is k cells away in that direction, and must be on the board and hostile.
            target = geo.target(cell, direction, k)
            if target is not None and cells[target] == enemy:
                actions.append(cell * 6 + direction)
    return actions


def jump_target(geo: Geometry, cells, action: int) -> int:
    """The cell where the jump ``action`` lands (the action must be a legal jump)."""
    cell, direction = divmod(action, 6)
    return geo.target(cell, direction, friendly_neighbours(geo, cells, cell))


def apply_jump(geo: Geometry, cells, action: int) -> tuple:
    """The cells after the (legal) jump ``action``: the enemy on the target is replaced by the
    jumping stone, whose origin becomes empty."""
    cell = action // 6
    target = jump_target(geo, cells, action)
    after = list(cells)
    after[target] = cells[cell]
    after[cell] = EMPTY
    return tuple(after)


class QuantumLeapGame:
    """The parameters of a game of Quantum Leap.

    Options: ``size`` = side length of the hexhex board, 2..7 (default 5: 61 cells), or
    ``board`` = any board (see :func:`board_cells`); ``setup`` = "A" (default: random deal
    with one empty cell, then Black's swap) or "B" (random deal of a full board, no swap). The
    stones are as equal in number as can be, the odd one Black's.
    """

    num_players = 2

    def __init__(self, size: int | None = None, setup: str = "A",
                 board: str | None = None) -> None:
        if board is not None and not isinstance(board, str):
            raise InvalidOptionError(f"{NAME}: option board must be a text, not {board!r}")
        if size is not None and board is not None:
            raise InvalidOptionError(f"{NAME}: give the option size or the option board, not both")
        if board is None:
            size = 5 if size is None else size
            if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
                raise InvalidOptionError(
                    f"{NAME}: option size must be an int in 2..7, not {size!r}")
        if not isinstance(setup, str) or setup not in SETUPS:
            raise InvalidOptionError(
                f"{NAME}: option setup must be one of {list(SETUPS)}, not {setup!r}"
            )
        self.geometry = geometry(hexagon(size or 5) if board is None else board)
        # A hexagon of side up to 7 is the option size; any other board, the option board.
        words = (board or "").split()
        if board is not None and words[0] == "hexagon" and int(words[1]) <= 7:
            size = int(words[1])
        self.size = size
        self.board = board
        self.setup = setup
        c = self.geometry.num_cells
        self.num_cells = c
        self.no_swap_action = 6 * c
        self.swap_base = 6 * c + 1  # swap (i, j): swap_base + i * C + j
        self.deal_base = 6 * c + 1 + c * c  # E: deal the empty cell c is E + c
        self.deal_white_action = self.deal_base + c
        self.deal_black_action = self.deal_base + c + 1
        self.num_actions = self.deal_base + c + 2
        # How many stones of each colour the deal hands out: setup A leaves one cell empty,
        # setup B none; the stones are shared as equally as can be, the odd one Black's.
        stones = c - 1 if setup == "A" else c
        self.white_stones, self.black_stones = stones // 2, stones - stones // 2

    @property
    def name(self) -> str:
        return NAME

    @property
    def options(self) -> dict:
        if self.size is not None:
            return {"setup": self.setup, "size": self.size}
        return {"board": self.board_text(), "setup": self.setup}

    def board_text(self) -> str:
        """The option ``board`` naming the board (cells one by one in the engine's order)."""
        shape, *sizes = (self.board or "").split()
        if shape == "cells":
            return "cells " + " ".join(f"{q},{r}" for q, r in self.geometry.coords)
        # Named shapes with their numbers as numbers: "parallelogram 03x2" is "parallelogram 3x2".
        return f"{shape} " + "x".join(str(int(n)) for n in sizes[0].split("x"))

    def __eq__(self, other_game: object) -> bool:
        if not isinstance(other_game, QuantumLeapGame):
            return NotImplemented
        return self.options == other_game.options

    def __hash__(self) -> int:
        return hash((tuple(self.geometry.coords), self.setup))

    def __repr__(self) -> str:
        if self.size is None:
            return f"QuantumLeapGame(board={self.board_text()!r}, setup={self.setup!r})"
        return f"QuantumLeapGame(size={self.size}, setup={self.setup!r})"

    def new_state(self) -> "QuantumLeapState":
        """The start: nothing dealt yet (a chance node)."""
        return QuantumLeapState(self, (UNDEALT,) * self.num_cells, "deal")

    def from_notation(self, text: str) -> "QuantumLeapState":
        """Reads a position written by QuantumLeapState.notation(); raises InvalidNotationError."""
        return _parse_notation(self, text)


class QuantumLeapState(ReferenceState):
    """A position (immutable). Fields:

    * ``cells``: one of 'w', 'b', '.', '?' per cell number (as in the notation).
    * ``side``: 'w' or 'b' (that player moves; in a finished game, the loser), 'swap' (Black's
      swap decision is pending) or 'deal' (the random deal is in progress).
    """

    __slots__ = ("_game", "_cells", "_side")
    _game: QuantumLeapGame
    _cells: tuple[str, ...]
    _side: str

    def __init__(self, game: QuantumLeapGame, cells, side: str) -> None:
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_cells", tuple(cells))
        object.__setattr__(self, "_side", side)

    def __setattr__(self, name, value):
        raise AttributeError("QuantumLeapState is immutable")

    # ---- basic facts about the position ----

    @property
    def game(self) -> QuantumLeapGame:
        return self._game

    def cells(self) -> list:
        """One of 'w', 'b', '.', '?' per cell number (like ``quanta.quantum_leap.cells``)."""
        return list(self._cells)

    @property
    def side(self) -> str:
        return self._side

    def stones_left_to_deal(self) -> tuple:
        """(white, black): how many stones of each colour the deal still has to hand out."""
        return (
            self._game.white_stones - self._cells.count(WHITE),
            self._game.black_stones - self._cells.count(BLACK),
        )

    def next_undealt_cell(self):
        """The lowest-numbered cell not dealt yet, or None."""
        for cell, value in enumerate(self._cells):
            if value == UNDEALT:
                return cell
        return None

    def _dealing_empty_cell(self) -> bool:
        """True at the first step of setup A's deal: the empty cell is chosen next."""
        return self._side == "deal" and self._game.setup == "A" and EMPTY not in self._cells

    def _jumps(self) -> list:
        return jumps(self._game.geometry, self._cells, self._side)

    @property
    def is_terminal(self) -> bool:
        return self._side in (WHITE, BLACK) and not self._jumps()

    @property
    def is_chance(self) -> bool:
        return self._side == "deal"

    @property
    def current_player(self) -> int:
        if self._side == "deal":
            return CHANCE
        if self._side == "swap":
            return 1  # Black decides
        if self.is_terminal:
            return TERMINAL
        return 0 if self._side == WHITE else 1

    # ---- actions ----

    def legal_actions(self) -> list:
        """The legal actions, sorted ascending; at a chance node, its outcomes."""
        g = self._game
        c = g.num_cells
        if self._side == "deal":
            if self._dealing_empty_cell():
                return [g.deal_base + cell for cell in range(c) if cell != g.geometry.centre]
            return [g.deal_white_action, g.deal_black_action]
        if self._side == "swap":
            actions = [g.no_swap_action]
            for i in range(c):
                for j in range(i + 1, c):
                    if {self._cells[i], self._cells[j]} == {WHITE, BLACK}:
                        actions.append(g.swap_base + i * c + j)
            return actions
        return self._jumps()

    def chance_outcomes(self) -> list:
        """[(action, probability)] at a chance node, [] elsewhere."""
        if not self.is_chance:
            return []
        if self._dealing_empty_cell():
            actions = self.legal_actions()
            return [(a, 1.0 / len(actions)) for a in actions]
        white_left, black_left = self.stones_left_to_deal()
        total = white_left + black_left
        return [
            (self._game.deal_white_action, white_left / total),
            (self._game.deal_black_action, black_left / total),
        ]

    def play(self, action) -> "QuantumLeapState":
        """The state after a legal action; raises IllegalMoveError otherwise."""
        action = self._check_legal(action)
        g = self._game
        c = g.num_cells
        cells = list(self._cells)

        if self._side == "deal":
            if action < g.deal_white_action:  # the empty cell (setup A's first chance event)
                cells[action - g.deal_base] = EMPTY
                return QuantumLeapState(g, cells, "deal")
            cells[self.next_undealt_cell()] = WHITE if action == g.deal_white_action else BLACK
            white_left = g.white_stones - cells.count(WHITE)
            black_left = g.black_stones - cells.count(BLACK)
            if white_left == 0 or black_left == 0:
                # One colour is used up: every cell still undealt gets the other colour.
                rest = BLACK if white_left == 0 else WHITE
                cells = [rest if value == UNDEALT else value for value in cells]
            if UNDEALT in cells:
                return QuantumLeapState(g, cells, "deal")
            return QuantumLeapState(g, cells, "swap" if g.setup == "A" else WHITE)

        if self._side == "swap":
            if action != g.no_swap_action:
                i, j = divmod(action - g.swap_base, c)
                cells[i], cells[j] = cells[j], cells[i]
            return QuantumLeapState(g, cells, WHITE)

        # A jump.
        after = apply_jump(g.geometry, self._cells, action)
        return QuantumLeapState(g, after, enemy_of(self._side))

    def returns(self) -> list:
        """[1.0, -1.0] if White has won, [-1.0, 1.0] if Black has, else [0.0, 0.0]."""
        if not self.is_terminal:
            return [0.0, 0.0]
        # The side to move cannot capture and loses.
        return [-1.0, 1.0] if self._side == WHITE else [1.0, -1.0]

    def action_to_string(self, action) -> str:
        """'c3xe3' for a jump, 'no swap', 'swap a1 c4', 'empty c3', 'white c2', 'black c2'."""
        return self._action_string(self._check_legal(action))

    def _action_string(self, action: int) -> str:
        """The string of an action already known to be legal here."""
        g = self._game
        names = g.geometry.names
        if action >= g.deal_base:
            if action == g.deal_white_action:
                return "white " + names[self.next_undealt_cell()]
            if action == g.deal_black_action:
                return "black " + names[self.next_undealt_cell()]
            return "empty " + names[action - g.deal_base]
        if action >= g.swap_base:
            i, j = divmod(action - g.swap_base, g.num_cells)
            return f"swap {names[i]} {names[j]}"
        if action == g.no_swap_action:
            return "no swap"
        cell = action // 6
        return names[cell] + "x" + names[jump_target(g.geometry, self._cells, action)]

    # ---- text ----

    def notation(self) -> str:
        rows = ["".join(self._cells[cell] for cell in row) for row in self._game.geometry.rows]
        return f"{'/'.join(rows)} {self._side}"

    def __str__(self) -> str:
        return self.notation()


def _parse_notation(game: QuantumLeapGame, text) -> QuantumLeapState:
    def bad(what: str):
        return InvalidNotationError(f"{NAME}: {what} in notation {text!r}")

    if not isinstance(text, str):
        raise InvalidNotationError(f"{NAME}: notation must be a str, not {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) != 2:
        raise bad("expected two fields '<rows> <side>' separated by a single space")
    rows_field, side = fields
    geo = game.geometry

    # The board.
    rows = rows_field.split("/")
    if len(rows) != len(geo.rows):
        board = f"size {game.size}" if game.size is not None else f"board {game.board_text()!r}"
        raise bad(
            f"expected {len(geo.rows)} rows separated by '/' for {board}, found {len(rows)}"
        )
    cells = []
    for i, (row_text, row_cells) in enumerate(zip(rows, geo.rows)):
        if len(row_text) != len(row_cells):
            raise bad(f"row {ROW_LETTERS[i]} ({row_text!r}) must have {len(row_cells)} cells")
        for char in row_text:
            if char not in (WHITE, BLACK, EMPTY, UNDEALT):
                raise bad(
                    f"invalid character {char!r} in row {ROW_LETTERS[i]} (expected w, b, . or ?)"
                )
            cells.append(char)

    # The side field.
    if side not in SIDES:
        raise bad(f"side must be 'w', 'b', 'swap' or 'deal', not {side!r}")
    if side != "deal":
        if UNDEALT in cells:
            raise bad("undealt cells ('?') are only allowed while dealing (side 'deal')")
        if side == "swap" and game.setup != "A":
            raise bad("the swap decision ('swap') only exists in setup A")
        return QuantumLeapState(game, cells, side)

    # A deal in progress: it must be a position the deal can reach.
    if UNDEALT not in cells:
        raise bad("a deal in progress ('deal') needs at least one undealt cell ('?')")
    empties = [cell for cell, value in enumerate(cells) if value == EMPTY]
    if game.setup == "A":
        if len(empties) > 1:
            raise bad("setup A's deal has at most one empty cell ('.')")
        if empties and geo.centre is not None and empties[0] == geo.centre:
            raise bad(f"the empty cell cannot be the centre ({geo.names[geo.centre]})")
        if not empties and any(value != UNDEALT for value in cells):
            raise bad(
                "in setup A the empty cell is dealt first: without a '.' every cell must be '?'"
            )
    elif empties:
        raise bad("setup B's deal has no empty cell ('.')")
    order = [cell for cell in range(geo.num_cells) if cells[cell] != EMPTY]
    first_undealt = next(n for n, cell in enumerate(order) if cells[cell] == UNDEALT)
    for cell in order[first_undealt:]:
        if cells[cell] != UNDEALT:
            raise bad(
                f"cells are dealt in increasing order, but {geo.names[cell]} is dealt while "
                f"{geo.names[order[first_undealt]]} is not"
            )
    white, black = cells.count(WHITE), cells.count(BLACK)
    if white > game.white_stones:
        raise bad(f"too many white stones dealt ({white} > {game.white_stones})")
    if black > game.black_stones:
        raise bad(f"too many black stones dealt ({black} > {game.black_stones})")
    if white == game.white_stones or black == game.black_stones:
        done, rest = ("white", "black") if white == game.white_stones else ("black", "white")
        raise bad(
            f"all {done} stones are dealt but undealt cells remain (they would have been "
            f"filled with {rest} at once)"
        )
    return QuantumLeapState(game, cells, "deal")


def game(**options) -> QuantumLeapGame:
    """The reference game with ``options`` (the same names and values as ``quanta.game``)."""
    return QuantumLeapGame(**options)


# ---- the reference solver: exhaustive memoised negamax (small boards only) ----


def _wins(geo: Geometry, cells: str, colour: str, memo: dict) -> bool:
    """Does ``colour``, to move on ``cells``, win with perfect play? (No draws: every jump
    removes a stone, so the game is finite, and a side without a capture loses.)"""
    key = cells + colour  # cells is a str here: one 'w', 'b' or '.' per cell
    known = memo.get(key)
    if known is not None:
        return known
    enemy = enemy_of(colour)
    result = False
    for action in jumps(geo, cells, colour):
        if not _wins(geo, "".join(apply_jump(geo, cells, action)), enemy, memo):
            result = True  # this jump leaves the opponent lost
            break
    memo[key] = result
    return result


def _check_decision(state: QuantumLeapState) -> None:
    if not isinstance(state, QuantumLeapState):
        raise TypeError(f"expected a reference QuantumLeapState, not {type(state).__name__}")
    if state.is_chance:
        raise ValueError(
            f"{NAME}: the solver needs a decision node, not a chance node: {state.notation()}"
        )


def solve(state: QuantumLeapState, memo=None) -> bool:
    """Does the player to act (Black at the swap decision) win with perfect play?

    False at a terminal state (the side to move has lost); ValueError at a chance node.
    ``memo`` (a dict) may be shared between calls on the same board size.
    """
    _check_decision(state)
    if memo is None:
        memo = {}
    geo = state.game.geometry
    if state.side == "swap":
        # Black wins if some swap (or no swap) leaves White, to move, lost.
        return any(
            not _wins(geo, "".join(child._cells), WHITE, memo) for child in _swap_children(state)
        )
    return _wins(geo, "".join(state._cells), state.side, memo)


def _swap_children(state: QuantumLeapState):
    for action in state.legal_actions():
        yield state.play(action)


def analyze(state: QuantumLeapState, memo=None) -> dict:
    """{action: does it win for the player who plays it} for every legal action of a decision
    node; ValueError at chance nodes and terminal states."""
    _check_decision(state)
    if state.is_terminal:
        raise ValueError(f"{NAME}: no actions to analyze in a finished game: {state.notation()}")
    if memo is None:
        memo = {}
    geo = state.game.geometry
    result = {}
    for action in state.legal_actions():
        child = state.play(action)
        # After any action, the opponent of the actor is to move (White after the swap decision).
        result[action] = not _wins(geo, "".join(child._cells), child.side, memo)
    return result
