"""EinStein a la Card: the pure-Python reference rules (a test oracle; slow on purpose).

Written plainly from the rules (docs/rules/einstein_card.md, with its rulings), independently of
the Rust engine, with the same options, action ids, action strings, notation and observation.
The board, its steps, captures, wins and the nearest-stone rule are the EinStein reference's
(``reference/einstein.py``). ``game(**options)`` makes the game.
"""

from __future__ import annotations

from quanta.exceptions import InvalidNotationError, InvalidOptionError

from . import einstein as board
from ._state import ReferenceState

__all__ = ["EinsteinCardGame", "EinsteinCardState", "CHANCE", "TERMINAL"]

CHANCE = -1
TERMINAL = -4

CODES = "123456LFCDHS"  # card order
NAMES = ["1", "2", "3", "4", "5", "6", "Murphy Light", "Full Murphy", "Da Capo", "Dirac",
         "Heisenberg", "Schroedinger"]  # fmt: skip
FULL_HEAP = "112233445566LFCDHS"  # a player's 18 cards

ROLL_BASE = board.ROLL_BASE  # 75: roll n
SETUP_BASE = board.SETUP_BASE  # 81: arrangement k
PLAY_BASE = board.NUM_ACTIONS  # 801: play card k
DRAW_BASE = PLAY_BASE + 12  # 813: draw card k
STONE_BASE = DRAW_BASE + 12  # 825: stone on cell c
J_BASE = STONE_BASE + 25  # 850: j = n
NUM_ACTIONS = J_BASE + 6  # 856



def sort_cards(cards) -> str:
    return "".join(sorted(cards, key=CODES.index))


def cell_index(name: str):
    if len(name) == 2 and name[0] in "abcde" and name[1] in "12345":
        return (int(name[1]) - 1) * 5 + "abcde".index(name[0])
    return None


def cell_text(index: int) -> str:
    return board.cell_name(*divmod(index, 5))


class EinsteinCardGame:
    """The parameters: ``setup`` ("random"/"choose"), ``first`` (0/1), ``hand_size`` (an int
    for both or a pair), ``open_hands`` (a bool for both or a pair: whose hand the opponent
    sees)."""

    name = "einstein_card"
    num_players = 2
    num_actions = NUM_ACTIONS

    def __init__(self, setup="random", first=0, hand_size=2, open_hands=False) -> None:
        if setup not in ("random", "choose"):
            raise InvalidOptionError(f"einstein_card: bad setup {setup!r}")
        if first not in (0, 1) or isinstance(first, bool):
            raise InvalidOptionError(f"einstein_card: bad first {first!r}")
        if isinstance(hand_size, int) and not isinstance(hand_size, bool):
            hand_size = (hand_size, hand_size)
        hand_size = tuple(hand_size)
        if len(hand_size) != 2 or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 18 for n in hand_size
        ):
            raise InvalidOptionError(f"einstein_card: bad hand_size {hand_size!r}")
        if isinstance(open_hands, bool):
            open_hands = (open_hands, open_hands)
        if not (isinstance(open_hands, (tuple, list)) and len(open_hands) == 2
                and all(isinstance(b, bool) for b in open_hands)):
            raise InvalidOptionError(
                f"einstein_card: open_hands must be True or False or a pair of them, "
                f"not {open_hands!r}")
        open_hands = tuple(open_hands)
        self.setup, self.first, self.hand_size, self.open_hands = setup, first, hand_size, open_hands

    @property
    def options(self) -> dict:
        return {"first": self.first, "hand_size": self.hand_size, "open_hands": self.open_hands,
                "setup": self.setup}  # fmt: skip

    def __eq__(self, other) -> bool:
        return isinstance(other, EinsteinCardGame) and self.options == other.options

    def __hash__(self) -> int:
        return hash(tuple(self.options.items()))

    def new_state(self) -> "EinsteinCardState":
        return EinsteinCardState(self, [0] * 25, 0, "setup", ["", ""], [FULL_HEAP] * 2, ["", ""])

    def from_notation(self, text: str) -> "EinsteinCardState":
        return _parse(self, text)


class EinsteinCardState(ReferenceState):
    """A position (immutable): the board (25 ints), ``player`` (whose card is resolved),
    ``phase`` (the notation's phase field), each hand and heap as a sorted string of card codes
    and each discard pile as the codes in play order."""

    __slots__ = ("_game", "_cells", "_player", "_phase", "_hands", "_heaps", "_discards")
    _game: EinsteinCardGame
    _cells: tuple[int, ...]
    _player: int
    _phase: str
    _hands: tuple[str, ...]
    _heaps: tuple[str, ...]
    _discards: tuple[str, ...]

    def __init__(self, game, cells, player, phase, hands, heaps, discards) -> None:
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_cells", tuple(cells))
        object.__setattr__(self, "_player", player)
        object.__setattr__(self, "_phase", phase)
        object.__setattr__(self, "_hands", tuple(hands))
        object.__setattr__(self, "_heaps", tuple(heaps))
        object.__setattr__(self, "_discards", tuple(discards))

    def __setattr__(self, name, value):
        raise AttributeError("EinsteinCardState is immutable")

    @property
    def game(self):
        return self._game

    def _with(self, **changes) -> "EinsteinCardState":
        fields = dict(cells=self._cells, player=self._player, phase=self._phase,
                      hands=self._hands, heaps=self._heaps, discards=self._discards)  # fmt: skip
        fields.update(changes)
        return EinsteinCardState(self._game, **fields)

    def _shows(self, owner: int, viewer) -> bool:
        """Whether ``viewer`` (None: nobody in particular, the full notation) sees ``owner``'s
        hand: always their own; another's only when it is open."""
        return viewer is None or viewer == owner or self._game.open_hands[owner]

    # ---- who acts ----

    def winner(self):
        if self._phase in ("setup", "deal"):
            return None
        for p in (0, 1):
            if board.has_won(self._cells, p):
                return p
        return None

    @property
    def is_terminal(self) -> bool:
        return self._phase == "-"

    @property
    def current_player(self) -> int:
        kind, _, detail = self._phase.partition("-")
        if self.is_terminal:
            return TERMINAL
        if kind == "setup":
            return CHANCE if self._game.setup == "random" else self._player
        if kind in ("deal", "draw"):
            return CHANCE
        if kind == "heisenberg" and not detail:  # the roll
            return CHANCE
        if kind == "schroedinger" and detail:  # the roll on the marked stone
            return CHANCE
        if kind in ("murphy", "full") and not detail:  # the opponent decides
            return 1 - self._player
        return self._player

    @property
    def is_chance(self) -> bool:
        return self.current_player == CHANCE

    # ---- Da Capo ----

    def da_capo_copy(self):
        """The card code Da Capo plays as now, or None."""
        theirs = self._discards[1 - self._player]
        if theirs and theirs[-1] != "C":
            return theirs[-1]
        if theirs:  # the opponent's last card was Da Capo: the player's own last card
            mine = self._discards[self._player]
            if mine and mine[-1] != "C":
                return mine[-1]
        return None

    # ---- actions ----

    def legal_actions(self) -> list:
        p, phase = self._player, self._phase
        kind, _, detail = phase.partition("-")
        if phase == "-":
            return []
        if kind == "setup":
            return [SETUP_BASE + k for k in range(720)]
        if kind in ("deal", "draw"):
            return [DRAW_BASE + CODES.index(c) for c in sort_cards(set(self._heaps[p]))]
        if kind == "play":
            hand = sort_cards(set(self._hands[p]))
            playable = [c for c in hand if c != "C" or self.da_capo_copy() is not None]
            return [PLAY_BASE + CODES.index(c) for c in (playable or hand)]
        if phase in list("123456"):
            return board.number_moves(self._cells, p, int(phase))
        if kind == "murphy" and detail:
            row, col = divmod(cell_index(detail), 5)
            return board.stone_moves(p, row, col)
        if kind == "murphy":
            return [STONE_BASE + row * 5 + col for row, col in board.stones_of(self._cells, p).values()]
        if kind in ("full", "dirac"):
            return sorted(
                a for row, col in board.stones_of(self._cells, p).values()
                for a in board.stone_moves(p, row, col)
            )  # fmt: skip
        if kind == "heisenberg" and detail:
            i = int(detail)
            return [J_BASE + j - 1 for j in (i - 1, i, i + 1) if 1 <= j <= 6]
        if kind == "schroedinger" and not detail:
            return [STONE_BASE + c for c, v in enumerate(self._cells) if v != 0]
        return [ROLL_BASE + n for n in range(6)]  # Heisenberg's or Schroedinger's roll

    def chance_outcomes(self) -> list:
        if not self.is_chance:
            return []
        if self._phase in ("deal", "draw"):
            heap = self._heaps[self._player]
            return [(a, heap.count(CODES[a - DRAW_BASE]) / len(heap)) for a in self.legal_actions()]
        return super().chance_outcomes()

    def _end_turn(self, cells, hands, heaps, discards) -> "EinsteinCardState":
        """After the card's effect: over if someone has won; else draw, or pass the turn."""
        p = self._player
        if board.has_won(cells, 0) or board.has_won(cells, 1):
            return self._with(cells=cells, hands=hands, heaps=heaps, discards=discards, phase="-")
        if heaps[p]:
            return self._with(cells=cells, hands=hands, heaps=heaps, discards=discards, phase="draw")
        return self._with(cells=cells, hands=hands, heaps=heaps, discards=discards)._next_turn()

    def _next_turn(self) -> "EinsteinCardState":
        nxt = 1 - self._player
        return self._with(player=nxt, phase="play" if self._hands[nxt] else "-")

    def _effect(self, code) -> str:
        """The phase that starts the effect of card `code` (None: no effect)."""
        return {"L": "murphy", "F": "full", "D": "dirac", "H": "heisenberg",
                "S": "schroedinger"}.get(code, code)  # fmt: skip

    def play(self, action) -> "EinsteinCardState":
        action = self._check_legal(action)
        p, phase = self._player, self._phase
        kind, _, detail = phase.partition("-")
        cells, hands, heaps, discards = list(self._cells), list(self._hands), list(self._heaps), list(self._discards)
        if kind == "setup":
            cells = board.arranged(cells, p, action - SETUP_BASE)
            if p == 0:
                return self._with(cells=cells, player=1)
            return self._with(cells=cells, player=0, phase="deal")
        if kind in ("deal", "draw"):
            code = CODES[action - DRAW_BASE]
            heaps[p] = heaps[p].replace(code, "", 1)
            hands[p] = sort_cards(hands[p] + code)
            after = self._with(hands=hands, heaps=heaps)
            if kind == "draw":
                return after._next_turn()
            if len(hands[p]) < self._game.hand_size[p]:
                return after
            if p == 0:
                return after._with(player=1)
            return after._with(player=self._game.first, phase="play")
        if kind == "play":
            code = CODES[action - PLAY_BASE]
            resolved = self.da_capo_copy() if code == "C" else code
            hands[p] = hands[p].replace(code, "", 1)
            discards[p] = discards[p] + code
            if resolved is None:
                return self._end_turn(cells, hands, heaps, discards)
            return self._with(hands=hands, discards=discards, phase=self._effect(resolved))
        if action < ROLL_BASE:  # a step of the player's stone (whoever chose it)
            return self._end_turn(board.step(cells, p, action), hands, heaps, discards)
        if kind == "murphy":
            return self._with(phase="murphy-" + cell_text(action - STONE_BASE))
        if kind == "schroedinger" and not detail:
            return self._with(phase="schroedinger-" + cell_text(action - STONE_BASE))
        if kind == "heisenberg" and not detail:
            return self._with(phase=f"heisenberg-{action - ROLL_BASE + 1}")
        if kind == "heisenberg":
            return self._with(phase=str(action - J_BASE + 1))
        # Schroedinger's roll: 4-6 removes the marked stone.
        if action - ROLL_BASE + 1 >= 4:
            cells[cell_index(detail)] = 0
        return self._end_turn(cells, hands, heaps, discards)

    def returns(self) -> list:
        if not self.is_terminal:
            return [0.0, 0.0]
        w = self.winner()
        return [0.0, 0.0] if w is None else ([1.0, -1.0] if w == 0 else [-1.0, 1.0])

    def action_to_string(self, action, player=None) -> str:
        text = self._action_string(self._check_legal(action))
        hidden = self._phase in ("deal", "draw") and not self._shows(self._player, player)
        return "draw ?" if hidden else text

    def _action_string(self, action: int) -> str:
        if action >= J_BASE:
            return f"j={action - J_BASE + 1}"
        if action >= STONE_BASE:
            return "stone " + cell_text(action - STONE_BASE)
        if action >= DRAW_BASE:
            return "draw " + NAMES[action - DRAW_BASE]
        if action >= PLAY_BASE:
            return "play " + NAMES[action - PLAY_BASE]
        if action >= SETUP_BASE:
            return board.arrangement_string(action - SETUP_BASE)
        if action >= ROLL_BASE:
            return f"roll {action - ROLL_BASE + 1}"
        return board.step_string(self._player, action)

    # ---- text ----

    def _write(self, viewer) -> str:
        def hand(p):
            if not self._shows(p, viewer):
                return "?" * len(self._hands[p]) or "-"
            return self._hands[p] or "-"

        def heap(p):
            return str(len(self._heaps[p])) if viewer is not None else self._heaps[p] or "-"

        return " ".join([
            board.write_rows(self._cells), str(self._player), self._phase,
            f"{hand(0)}|{hand(1)}", f"{heap(0)}|{heap(1)}",
            f"{self._discards[0] or '-'}|{self._discards[1] or '-'}",
        ])  # fmt: skip

    def notation(self) -> str:
        return self._write(None)

    def observation_string(self, player: int) -> str:
        return self._write(player)

    def board(self) -> list:
        return [list(self._cells[r * 5:(r + 1) * 5]) for r in range(5)]

    def hand(self, player: int) -> list:
        return [NAMES[CODES.index(c)] for c in self._hands[player]]

    def heap(self, player: int) -> list:
        return [NAMES[CODES.index(c)] for c in self._heaps[player]]

    def discards(self, player: int) -> list:
        return [NAMES[CODES.index(c)] for c in self._discards[player]]

    def __str__(self) -> str:
        return self.notation()


def _parse(game: EinsteinCardGame, text) -> EinsteinCardState:
    def bad(what: str):
        return InvalidNotationError(f"einstein_card: {what} in notation {text!r}")

    if not isinstance(text, str):
        raise InvalidNotationError("einstein_card: notation must be a str")
    fields = text.split(" ")
    if len(fields) != 6:
        raise bad("expected six fields")
    rows, player, phase, hands, heaps, discards = fields
    cells, seen = board.parse_rows(rows, bad)
    if player not in ("0", "1"):
        raise bad("player must be 0 or 1")
    p = int(player)
    kind, dash, detail = phase.partition("-")
    simple = ("setup", "deal", "play", "murphy", "full", "dirac", "heisenberg", "schroedinger", "draw")
    ok = (
        (not dash and (kind in simple or kind in list("123456")))
        or phase == "-"
        or (kind in ("murphy", "schroedinger") and cell_index(detail) is not None)
        or (kind == "heisenberg" and detail in list("123456"))
    )
    if not ok:
        raise bad(f"{phase!r} is not a phase")

    def pair(field):
        parts = field.split("|")
        if len(parts) != 2:
            raise bad("expected two lists split by '|'")
        out = []
        for part in parts:
            part = "" if part == "-" else part
            if any(c not in CODES for c in part):
                raise bad("not a card code")
            out.append(part)
        return out

    hands, heaps, discards = pair(hands), pair(heaps), pair(discards)
    for q in (0, 1):
        if hands[q] != sort_cards(hands[q]) or heaps[q] != sort_cards(heaps[q]):
            raise bad("hands and heaps list their cards in card order")
        if sort_cards(hands[q] + heaps[q] + discards[q]) != FULL_HEAP:
            raise bad(f"player {q}'s cards must be its 18")
    state = EinsteinCardState(game, cells, p, phase, hands, heaps, discards)
    if phase == "setup":
        board.check_setup(cells, seen, p, bad)
        if any(hands) or any(discards):
            raise bad("no card is dealt before the setup")
        return state
    if phase == "deal":
        for q in (0, 1):
            for row, col in board.START_CELLS[q]:
                value = cells[row * 5 + col]
                if value == 0 or board.stone_owner(value) != q:
                    raise bad("every stone stands on its start cells during the deal")
        size = game.hand_size
        dealing = (len(hands[0]) < size[0] and not hands[1]) if p == 0 else (
            len(hands[0]) == size[0] and len(hands[1]) < size[1])
        if any(discards) or not dealing:
            raise bad("the hands are dealt player 0's first")
    won = [board.has_won(cells, q) for q in (0, 1)]
    if all(won):
        raise bad("both sides have won")
    all_played = not any(hands) and not any(heaps)
    if any(won) != (phase == "-") and not (phase == "-" and all_played):
        raise bad("a game is over exactly when a side has won or every card has been played")
    if phase == "play" and not hands[p]:
        raise bad("the player to play has no card")
    if phase == "draw" and not heaps[p]:
        raise bad("the player to draw has no heap")
    if kind == "murphy" and detail:
        v = cells[cell_index(detail)]
        if v == 0 or (v > 0) != (p == 0):
            raise bad("Murphy Light's named cell holds no stone of the player")
    if kind == "schroedinger" and detail and cells[cell_index(detail)] == 0:
        raise bad("Schroedinger's marked cell is empty")
    return state


def game(**options) -> EinsteinCardGame:
    """The reference game with ``options`` (the same names and values as ``quanta.game``)."""
    return EinsteinCardGame(**options)
