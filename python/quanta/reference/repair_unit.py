"""Quantum Repair Unit: the pure-Python reference rules (a test oracle; slow).

Written plainly from the rules (docs/rules/repair_unit.md, with its rulings), independently of
the Rust engine, which implements the same contract: the options ``players`` and ``memory``,
action ids, action strings and notation. ``game(**options)`` makes the game.
"""

from __future__ import annotations

import random

from quanta.exceptions import InvalidNotationError, InvalidOptionError

from ._state import ReferenceState

__all__ = ["CHANCE", "TERMINAL", "RepairUnitGame", "RepairUnitState", "game"]

CHANCE = -1
TERMINAL = -4
NAME = "repair_unit"

RANKS = "A23456789TJQK"
SUITS = "SHDC"
#: Every card by index (rank * 4 + suit): AS AH AD AC 2S ... KC.
CODES = [r + s for r in RANKS for s in SUITS]
INDEX = {c: i for i, c in enumerate(CODES)}

# Action ids (docs/rules/repair_unit.md, *Actions*).
GO_ON, TUNNEL, NO_EFFECT, PEEK, ACE_UNDER, KING_AT, KING_DRAWN, QUEEN_SWAP, KING_TARGET = (
    52, 53, 56, 57, 58, 59, 71, 72, 108,
)
NUM_ACTIONS = 109
#: Once every card is known, the turns in a row without a pair removed after which the game
#: is lost (docs/rules/repair_unit.md, *End*).
IDLE_TURNS = 1000


def rank(code: str) -> str:
    return code[0]


def place_name(f: int, i: int) -> str:
    return f"{'ABCD'[f]}{i + 1}"


class RepairUnitGame:
    def __init__(self, players: int = 1, memory: str = "perfect"):
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
            raise InvalidOptionError(f"repair_unit: players must be 1 to 4, not {players!r}")
        if memory != "perfect":
            raise InvalidOptionError(
                f'repair_unit: option memory: "perfect" is the only value supported, not '
                f"{memory!r}"
            )
        self.players = players
        self.name = NAME
        self.num_players = players
        self.num_actions = NUM_ACTIONS
        # Solo plays two forecasts; the forecast is 3 long for 1-2 players, 2 for 3-4.
        self.forecasts = 2 if players == 1 else players
        self.length = 3 if players <= 2 else 2

    def __eq__(self, other):
        return isinstance(other, RepairUnitGame) and other.players == self.players

    def __hash__(self):
        return hash((NAME, self.players))

    def new_state(self) -> RepairUnitState:
        return RepairUnitState(self)

    def from_notation(self, text: str) -> RepairUnitState:
        return RepairUnitState.parse(self, text)


def game(**options) -> RepairUnitGame:
    return RepairUnitGame(**options)


class RepairUnitState(ReferenceState):
    __slots__ = (
        "_game", "down", "up", "target", "drawn", "top", "unknown", "queue", "removed",
        "idle", "active", "step", "pending", "tunnelled",
    )  # fmt: skip
    _game: RepairUnitGame

    def __init__(self, g: RepairUnitGame):
        self._game = g
        # down[f][i] / up[f][i]: position i (0 = front) of forecast f; None = no card.
        self.down: list[list[str | None]] = [[None] * g.length for _ in range(g.forecasts)]
        self.up: list[list[str | None]] = [[None] * g.length for _ in range(g.forecasts)]
        self.target: str | None = None
        self.drawn: str | None = None
        self.top: str | None = None  # the deck's top, once a Jack showed it
        self.unknown = set(CODES)  # the cards nobody has seen
        self.queue: list[str] = []  # the cards put under the deck, next first
        self.removed: set[str] = set()
        self.idle = 0  # turns begun with every card known since a pair was removed
        self.active = 0
        self.step = "deal"  # deal, start, draw, move, end, won, lost
        # None, "drawn", "peek" or the position (int) of a tunnelled card
        self.pending: str | int | None = None
        self.tunnelled = False

    def copy(self) -> RepairUnitState:
        s = RepairUnitState(self._game)
        s.down = [row[:] for row in self.down]
        s.up = [row[:] for row in self.up]
        s.target, s.drawn, s.top = self.target, self.drawn, self.top
        s.unknown = set(self.unknown)
        s.queue = self.queue[:]
        s.removed = set(self.removed)
        s.idle = self.idle
        s.active, s.step, s.pending, s.tunnelled = (
            self.active, self.step, self.pending, self.tunnelled,
        )  # fmt: skip
        return s

    # ---- the contract ----

    @property
    def game(self):
        return self._game

    @property
    def is_terminal(self) -> bool:
        return self.step in ("won", "lost")

    @property
    def is_chance(self) -> bool:
        return not self.is_terminal and (self.step in ("deal", "draw") or self.pending == "peek")

    @property
    def current_player(self) -> int:
        if self.is_terminal:
            return TERMINAL
        if self.is_chance:
            return CHANCE
        return 0 if self._game.players == 1 else self.active

    def returns(self) -> list:
        value = {"won": 1.0, "lost": -1.0}.get(self.step, 0.0)
        return [value] * self._game.players

    def unseen(self) -> list:
        return sorted(self.unknown, key=INDEX.__getitem__)

    def observation_string(self, player: int) -> str:
        return self.notation()

    def information_state_string(self, player: int) -> str:
        return self.notation()

    def effect_card(self):
        if self.pending == "drawn":
            return self.drawn
        if isinstance(self.pending, int):
            return self.up[self.active][self.pending]
        return None

    def effect_options(self) -> list:
        card = self.effect_card()
        if card is None:
            return []
        g, a = self._game, self.active
        out = []
        if rank(card) == "J" and self.top is None and self.unknown:
            out.append(PEEK)
        elif rank(card) == "A":
            out.append(ACE_UNDER)
        elif rank(card) == "K":
            # Any other face-up card: in a forecast, the drawn card, the target.
            for f in range(g.forecasts):
                for i in range(g.length):
                    other = self.up[f][i]
                    itself = f == a and self.pending == i
                    if other is not None and not itself:
                        out.append(KING_AT + f * 3 + i)
            if self.drawn is not None and self.pending != "drawn":
                out.append(KING_DRAWN)
            if self.target is not None:
                out.append(KING_TARGET)
        elif rank(card) == "Q":
            for i in range(g.length):
                for f in range(g.forecasts):
                    if f != a:
                        out.extend(QUEEN_SWAP + (i * 4 + f) * 3 + j for j in range(g.length))
        return out

    def legal_actions(self) -> list:
        if self.is_terminal:
            return []
        if self.is_chance:
            return sorted(INDEX[c] for c in self.unknown)
        if self.pending is None:
            a = self.active
            tunnels = [TUNNEL + i for i in range(self._game.length) if self.up[a][i] is not None]
            return [GO_ON, *tunnels]
        return [NO_EFFECT, *self.effect_options()]

    def _action_string(self, action: int) -> str:
        g, a = self._game, self.active
        if action < 52:
            return CODES[action]
        if action == GO_ON:
            return "go on"
        if TUNNEL <= action < TUNNEL + 3:
            return f"tunnel {place_name(a, action - TUNNEL)}"
        if action == NO_EFFECT:
            return "no effect"
        if action == PEEK:
            return "peek"
        if action == ACE_UNDER:
            return "ace"
        if KING_AT <= action < KING_DRAWN:
            k = action - KING_AT
            return f"king {place_name(k // 3, k % 3)}"
        if action == KING_DRAWN:
            return "king drawn"
        if action == KING_TARGET:
            return "king target"
        k = action - QUEEN_SWAP
        i, f, j = k // 12, k // 3 % 4, k % 3
        assert f != a and f < g.forecasts
        return f"queen {place_name(a, i)} {place_name(f, j)}"

    def play(self, action) -> RepairUnitState:
        action = self._check_legal(action)
        s = self.copy()
        s._apply(action)
        return s

    # ---- the rules ----

    def deck_empty(self) -> bool:
        return self.top is None and not self.unknown and not self.queue

    def has_face_up(self, f: int) -> bool:
        return any(c is not None for c in self.up[f])

    def _apply(self, action: int):
        g, a = self._game, self.active
        if self.is_chance:
            card = CODES[action]
            self.unknown.discard(card)
            if self.step == "deal":
                # Setup cards go face down forecast by forecast, front first.
                slots = [(f, i) for f in range(g.forecasts) for i in range(g.length)]
                empty = [(f, i) for f, i in slots if self.down[f][i] is None]
                f, i = empty[0]
                self.down[f][i] = card
                if len(empty) == 1:
                    self.step = "start"
            elif self.pending == "peek":
                if self.unknown:
                    self.top = card
                else:
                    self.queue.insert(0, card)
                self.pending = None
            else:  # an unseen card is drawn
                self.draw(card)
        elif action == GO_ON:
            self.leave_point()
        elif TUNNEL <= action < TUNNEL + 3:
            i = action - TUNNEL
            self.up[a][i], self.down[a][i] = self.down[a][i], self.up[a][i]
            self.tunnelled = True
            self.pending = i
        elif action == NO_EFFECT:
            self.pending = None
        elif action == PEEK:
            self.pending = "peek"
            return
        elif action == ACE_UNDER:
            card = self.effect_card()
            if self.pending == "drawn":
                self.drawn = None
            else:
                assert isinstance(self.pending, int), "the effect card lies face up here"
                self.up[a][self.pending] = None
            self.put_under(card)
        elif KING_AT <= action < KING_DRAWN:
            k = action - KING_AT
            sent, self.up[k // 3][k % 3] = self.up[k // 3][k % 3], None
            assert sent is not None, "the King sends a face-up card under the deck"
            self.put_under(sent)
        elif action == KING_DRAWN:
            sent, self.drawn = self.drawn, None
            assert sent is not None, "the King sends the drawn card under the deck"
            self.put_under(sent)
        elif action == KING_TARGET:
            sent, self.target = self.target, None
            assert sent is not None, "the King sends the target under the deck"
            self.put_under(sent)
        else:
            k = action - QUEEN_SWAP
            i, f, j = k // 12, k // 3 % 4, k % 3
            self.down[a][i], self.down[f][j] = self.down[f][j], self.down[a][i]
            self.pending = None
        self.go_on()

    def put_under(self, card: str):
        self.queue.append(card)
        self.pending = None

    def draw(self, card: str):
        self.drawn = card
        self.step = "move"
        self.pending = "drawn"

    def leave_point(self):
        """The team goes on from a tunnel point without tunnelling (or cannot tunnel)."""
        g, a = self._game, self.active
        if self.step == "start":
            self.step = "draw"
        elif self.step == "move":
            # Step 2 and 3: the face-up cards move forward; the front one onto the target.
            front = self.up[a][0]
            if front is not None:
                if self.target is None:
                    self.target = front
                elif rank(self.target) == rank(front):
                    self.removed |= {self.target, front}
                    self.target = None
                    self.idle = 0
                else:
                    self.over("lost")
                    return
            self.up[a] = self.up[a][1:] + [None]
            # Step 4: the drawn card goes face up on the back position.
            self.up[a][g.length - 1], self.drawn = self.drawn, None
            self.step = "end"
        elif self.step == "end":
            if self.deck_empty() and not any(self.has_face_up(f) for f in range(g.forecasts)):
                self.over("won" if self.target is None else "lost")
                return
            if not self.unknown:  # every card known: a turn without a pair removed counts
                self.idle += 1
                if self.idle == IDLE_TURNS:
                    self.over("lost")
                    return
            self.active = (a + 1) % g.forecasts
            self.tunnelled = False
            self.step = "start"

    def over(self, result: str):
        self.step = result
        self.active = 0
        self.pending = None
        self.tunnelled = False

    def go_on(self):
        """Plays on every step that needs no decision and no chance."""
        while True:
            if self.pending == "peek" or self.step in ("deal", "won", "lost"):
                return
            if self.pending is not None:
                if self.effect_options():
                    return
                self.pending = None
            if self.step == "draw":
                if self.top is not None:
                    card, self.top = self.top, None
                elif self.unknown:
                    return
                elif self.queue:
                    card = self.queue.pop(0)
                else:
                    self.step = "move"
                    continue
                self.draw(card)
                continue
            if not self.tunnelled and self.has_face_up(self.active):
                return
            self.leave_point()

    # ---- notation ----

    def notation(self) -> str:
        g = self._game
        rows = []
        for f in range(g.forecasts):
            places = []
            for i in range(g.length):
                place = self.down[f][i] or "-"
                if (up := self.up[f][i]) is not None:
                    place += "+" + up
                places.append(place)
            rows.append(",".join(places))
        deck = ([self.top] if self.top else []) + (
            [f"*{len(self.unknown)}"] if self.unknown else []
        ) + self.queue
        sort = lambda cards: ",".join(sorted(cards, key=INDEX.__getitem__)) or "-"  # noqa: E731
        if self.step in ("deal", "won", "lost"):
            turn = self.step
        else:
            turn = f"{'ABCD'[self.active]}:{self.step}"
            if self.tunnelled:
                turn += ":t"
            if self.pending in ("drawn", "peek"):
                turn += ":" + self.pending
            elif isinstance(self.pending, int):
                turn += ":" + place_name(self.active, self.pending)
        return " ".join([
            "|".join(rows), self.target or "-", self.drawn or "-", ",".join(deck) or "-",
            sort(self.removed), str(self.idle), turn,
        ])  # fmt: skip

    @classmethod
    def parse(cls, g: RepairUnitGame, text: str) -> RepairUnitState:
        """Reads the notation; the Rust engine's checks are the contract, this reads well
        formed text (and refuses the rest) without repeating every one of them."""
        if not isinstance(text, str):
            raise InvalidNotationError("repair_unit: notation must be text")
        fields = text.split(" ")
        if len(fields) != 7:
            raise InvalidNotationError(f"repair_unit: expected seven fields in {text!r}")
        s = cls(g)
        try:
            rows = fields[0].split("|")
            assert len(rows) == g.forecasts
            for f, row in enumerate(rows):
                places = row.split(",")
                assert len(places) == g.length
                for i, place in enumerate(places):
                    down, _, up = place.partition("+")
                    s.down[f][i] = None if down == "-" else down
                    s.up[f][i] = up or None
            s.target = None if fields[1] == "-" else fields[1]
            s.drawn = None if fields[2] == "-" else fields[2]
            deck = [] if fields[3] == "-" else fields[3].split(",")
            stars = [k for k, x in enumerate(deck) if x.startswith("*")]
            if stars:
                s.top = deck[0] if stars[0] == 1 else None
                s.queue = deck[stars[0] + 1 :]
            else:
                s.queue = deck
            s.removed = set() if fields[4] == "-" else set(fields[4].split(","))
            s.idle = int(fields[5])
            assert 0 <= s.idle <= IDLE_TURNS
            listed = [c for row in s.down + s.up for c in row if c] + [
                c for c in (s.target, s.drawn, s.top) if c
            ] + s.queue + sorted(s.removed)
            assert all(c in INDEX for c in listed) and len(set(listed)) == len(listed)
            s.unknown = set(CODES) - set(listed)
            turn = fields[6]
            if turn in ("deal", "won", "lost"):
                s.step = turn
            else:
                parts = turn.split(":")
                s.active = "ABCD".index(parts[0])
                s.step = parts[1]
                rest = parts[2:]
                if rest and rest[0] == "t":
                    s.tunnelled, rest = True, rest[1:]
                if rest:
                    s.pending = rest[0] if rest[0] in ("drawn", "peek") else int(rest[0][1]) - 1
        except (AssertionError, ValueError, IndexError, KeyError) as e:
            raise InvalidNotationError(f"repair_unit: cannot read {text!r}") from e
        if s.notation() != text:
            raise InvalidNotationError(f"repair_unit: not a notation: {text!r}")
        return s

    def resample(self, player: int, seed: int) -> RepairUnitState:
        random.Random(seed)  # nothing is hidden from the team: the state itself
        return self.copy()
