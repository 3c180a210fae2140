"""A Quantum Leap (Mal Jones): the pure-Python reference rules, a plain and slow test oracle for
the engine, with :func:`score_placement` to score one placement with its bonuses.

Rules, notation and action names: docs/rules/a_quantum_leap.md.
"""

from __future__ import annotations

import functools
import operator
import random
from dataclasses import dataclass, field

from quanta.exceptions import (
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    NotApplicableError,
)

from ._state import ReferenceState

__all__ = [
    "CHANCE",
    "TERMINAL",
    "NUM_ACTIONS",
    "PATTERNS",
    "RULES",
    "Placement",
    "AQuantumLeapGame",
    "AQuantumLeapState",
    "card_code",
    "card_index",
    "cell_name",
    "game",
    "score_placement",
]

CHANCE = -1
TERMINAL = -4

NAME = "a_quantum_leap"

# ---- cards and cells ----

SUITS = "SHDC"  # suit index 0..3
RANKS = "A23456789TJQK"  # rank 1..13
NUM_CARDS = 52


def card_index(code: str) -> int:
    """Card index = suit index (S H D C) x 13 + rank - 1; ValueError for an unknown code."""
    if not isinstance(code, str) or len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise ValueError(f"{NAME}: unknown card code {code!r}")
    return SUITS.index(code[1]) * 13 + RANKS.index(code[0])


def card_code(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def rank(card: int) -> int:
    """1 (Ace) .. 13 (King)."""
    return card % 13 + 1


def suit(card: int) -> int:
    return card // 13


def suit_cards(s: int) -> frozenset:
    return frozenset(range(s * 13, s * 13 + 13))


CELL_NAMES = [c + r for r in "123" for c in "abc"]  # cell index = row * 3 + col
CENTRE = 4  # b2
OUTER = [c for c in range(9) if c != CENTRE]


def cell_name(cell: int) -> str:
    return CELL_NAMES[cell]


# The eight lines: three rows, three columns, two diagonals (cells in reading order).
LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
]


def neighbours(cell: int) -> list:
    """The up to 8 cells touching ``cell`` orthogonally or diagonally."""
    row, col = divmod(cell, 3)
    return [
        r * 3 + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if 0 <= r < 3 and 0 <= c < 3 and (r, c) != (row, col)
    ]


# ---- the placing rules ----

RULES = ("ascending", "descending", "halving", "doubling", "equal")  # rule index 0..4
PATTERNS = ("opening", "free", "ascending", "descending", "halving", "doubling")
RULE_POINTS = {"ascending": 1, "descending": 1, "halving": 2, "doubling": 2, "equal": 0}
# The rules a pattern allows.
ALLOWED = {
    "opening": ("ascending", "descending", "halving", "doubling"),
    "free": RULES,
    "ascending": ("ascending", "equal"),
    "descending": ("descending", "equal"),
    "halving": ("halving", "equal"),
    "doubling": ("doubling", "equal"),
}
# The quantum leap: A on 2 or 2 on A under a rule 1 or rule 2 switches the pattern.
LEAP = {"ascending": "doubling", "doubling": "ascending",
        "descending": "halving", "halving": "descending"}


def values(r: int) -> tuple:
    """The values of a rank: the Ace is 1 and 14 at once."""
    return (1, 14) if r == 1 else (r,)


def fits(rule: str, placed: int, below: int) -> bool:
    """Does a card of rank ``placed`` on a card of rank ``below`` follow ``rule``?"""
    if rule == "equal":
        return placed == below
    pairs = [(x, y) for x in values(placed) for y in values(below)]
    if rule == "ascending":
        return any(x == y + 1 for x, y in pairs)
    if rule == "descending":
        return any(x == y - 1 for x, y in pairs)
    if rule == "halving":
        return any(2 * x == y for x, y in pairs)
    return any(x == 2 * y for x, y in pairs)  # doubling


def is_leap(placed: int, below: int) -> bool:
    return {placed, below} == {1, 2}


def pattern_after(rule: str, placed: int, below: int) -> str:
    if rule == "equal":
        return "free"
    return LEAP[rule] if is_leap(placed, below) else rule


def successor(r: int) -> int:
    """The next rank up, round the Ace: K -> A -> 2."""
    return r % 13 + 1


def is_run(ranks) -> bool:
    a, b, c = ranks
    return (b == successor(a) and c == successor(b)) or (a == successor(b) and b == successor(c))


def bonuses(tops, card: int, cell: int) -> dict:
    """The bonuses of ``card`` put on ``cell`` of the top cards ``tops`` (9 card indices or
    None): {"pair": n, "run": n, "triple": n}."""
    after = list(tops)
    after[cell] = card
    triples = runs = 0
    in_triple: set[int] = set()
    for line in LINES:
        if cell not in line or any(after[c] is None for c in line):
            continue
        ranks = [rank(after[c]) for c in line]
        if ranks[0] == ranks[1] == ranks[2]:
            triples += 1
            in_triple.update(line)
        elif is_run(ranks):
            runs += 1
    pairs = sum(
        1
        for n in neighbours(cell)
        if after[n] is not None and rank(after[n]) == rank(card) and n not in in_triple
    )
    return {"pair": pairs, "run": runs, "triple": triples}


def bonus_points(b: dict) -> int:
    return 2 * b["pair"] + 3 * b["run"] + 6 * b["triple"]


@dataclass(frozen=True)
class Placement:
    """What one placement scores: ``points`` (the rule's points plus the bonuses), the
    ``bonuses`` (counts of ``pair``, ``run`` and ``triple``), the ``rule`` it follows (None for
    the Higgs) and the ``pattern`` after it."""

    points: int
    bonuses: dict = field(default_factory=dict)
    pattern: str = "opening"
    rule: str | None = None


@functools.lru_cache(maxsize=None)
def _legal_rules(pattern: str, placed: int, below: int) -> tuple[str, ...]:
    """The rules ``pattern`` allows that a rank ``placed`` on a rank ``below`` follows."""
    return tuple(r for r in ALLOWED[pattern] if fits(r, placed, below))


def _score(tops, card: int, cell: int, pattern, rule) -> Placement:
    """Scores a placement already known to be legal (tops: card indices or None)."""
    if pattern is None:  # the Higgs: bonuses only
        b = bonuses(tops, card, cell)
        return Placement(bonus_points(b), b, "opening", None)
    below = rank(tops[cell])
    if rule == "equal":
        return Placement(0, {"pair": 0, "run": 0, "triple": 0}, "free", rule)
    b = bonuses(tops, card, cell)
    return Placement(RULE_POINTS[rule] + bonus_points(b), b,
                     pattern_after(rule, rank(card), below), rule)


def _read_cell(cell) -> int:
    if isinstance(cell, str):
        if cell not in CELL_NAMES:
            raise InvalidOptionError(f"{NAME}: no cell {cell!r} (cells are a1..c3)")
        return CELL_NAMES.index(cell)
    try:
        row, col = cell
        row, col = operator.index(row), operator.index(col)
    except (TypeError, ValueError):
        raise InvalidOptionError(
            f"{NAME}: a cell is (row, col) or a name like 'b2', not {cell!r}") from None
    if not (0 <= row < 3 and 0 <= col < 3):
        raise InvalidOptionError(f"{NAME}: cell {cell!r} is off the 3x3 display")
    return row * 3 + col


def score_placement(display, card, cell, pattern, rule=None, packs=1) -> Placement:
    """Scores placing ``card`` (a code such as "5H") on ``cell`` ((row, col) or a name such as
    "b2") of ``display`` (3 rows of 3 top-card codes or None, as ``state.display()`` gives it)
    under ``pattern`` (one of PATTERNS, or None for the Higgs: the card goes on an empty cell
    and scores bonuses only). ``rule`` (one of RULES) is needed only where more than one rule
    the pattern allows fits. ``packs`` is 1, or 2 in a two-pack game, where a card and its twin
    may both be seen.

    Raises IllegalMoveError when the card may not go there under the pattern (or the named
    rule does not fit, or the rule is missing but needed); InvalidOptionError for malformed
    arguments (display shape, card code, cell, pattern or rule name, packs other than 1 or 2,
    more copies of a card among the top cards and the card placed than the packs hold)."""
    if isinstance(packs, bool) or not isinstance(packs, int) or packs not in (1, 2):
        raise InvalidOptionError(f"{NAME}: packs must be 1 or 2, not {packs!r}")
    try:
        rows = [list(r) for r in display]
    except TypeError:
        raise InvalidOptionError(f"{NAME}: the display must be 3 rows of 3 cells") from None
    if len(rows) != 3 or any(len(r) != 3 for r in rows):
        raise InvalidOptionError(f"{NAME}: the display must be 3 rows of 3 cells")
    tops: list[int | None] = []
    for entry in (e for r in rows for e in r):
        if entry is None:
            tops.append(None)
        else:
            try:
                tops.append(card_index(entry))
            except ValueError as error:
                raise InvalidOptionError(str(error)) from None
    try:
        placed = card_index(card)
    except ValueError as error:
        raise InvalidOptionError(str(error)) from None
    seen = [t for t in tops if t is not None] + [placed]
    for c in seen:
        if seen.count(c) > packs:
            held = "one pack holds one" if packs == 1 else "two packs hold two"
            raise InvalidOptionError(
                f"{NAME}: card {card_code(c)} is seen more often than {held}")
    x = _read_cell(cell)
    if pattern is not None and pattern not in PATTERNS:
        raise InvalidOptionError(f"{NAME}: unknown pattern {pattern!r}")
    if rule is not None and rule not in RULES:
        raise InvalidOptionError(f"{NAME}: unknown rule {rule!r}")
    if pattern is None:
        if tops[x] is not None:
            raise IllegalMoveError(
                f"{NAME}: the Higgs goes on an empty cell; {cell_name(x)} is not")
        if rule is not None:
            raise IllegalMoveError(f"{NAME}: the Higgs follows no placing rule")
        return _score(tops, placed, x, None, None)
    top = tops[x]
    if top is None:
        raise IllegalMoveError(f"{NAME}: {cell_name(x)} is empty: a card goes on top of a card")
    legal = _legal_rules(pattern, rank(placed), rank(top))
    if not legal:
        raise IllegalMoveError(
            f"{NAME}: {card} may not go on {card_code(top)} under pattern {pattern}")
    if rule is None:
        if len(legal) > 1:
            raise IllegalMoveError(
                f"{NAME}: {card} on {card_code(top)} under pattern {pattern} needs a rule: "
                f"{' or '.join(legal)}")
        rule = legal[0]
    elif rule not in legal:
        raise IllegalMoveError(
            f"{NAME}: {card} on {card_code(top)} does not follow {rule} "
            f"under pattern {pattern}")
    return _score(tops, placed, x, pattern, rule)


# ---- action ids ----

PLACE_BASE = 0  # ((card * 9) + cell) * 5 + rule: 0..2339
CELL_BASE = 52 * 9 * 5  # 2340 + cell: stage one, the placer chooses the outer cell
HIGGS_BASE = CELL_BASE + 9  # 2349 + card
END = HIGGS_BASE + 52  # 2401
PASS = END + 1  # 2402
DRAW_BASE = PASS + 1  # 2403 + card (chance)
LEAVE_BASE = DRAW_BASE + 52  # 2455 + suit (chance, three players)
NUM_ACTIONS = LEAVE_BASE + 4  # 2459


def placement_action(card: int, cell: int, rule: str) -> int:
    return (card * 9 + cell) * 5 + RULES.index(rule)


# ---- the game ----


class AQuantumLeapGame:
    """The parameters of a game: ``players`` 2 (default), 3 or 4; ``match`` (one game per
    dealer, totals kept; default False); ``packs`` 1 (default) or 2 (three or four players:
    everyone also gets the same suit of the second pack, a second stock taken up as two
    players take up theirs); ``teams`` "none" (default) or "partners" (four players: seats 0
    and 1 against seats 2 and 3, who sit next to each other). Player 0 deals the first game;
    in a match game g (0-based) is dealt by player g."""

    name = NAME
    num_actions = NUM_ACTIONS

    def __init__(self, players: int = 2, match: bool = False, packs: int = 1,
                 teams: str = "none") -> None:
        if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 3, 4):
            raise InvalidOptionError(f"{NAME}: option players must be 2, 3 or 4, not {players!r}")
        if not isinstance(match, bool):
            raise InvalidOptionError(f"{NAME}: option match must be a bool, not {match!r}")
        if isinstance(packs, bool) or not isinstance(packs, int) or packs not in (1, 2):
            raise InvalidOptionError(f"{NAME}: option packs must be 1 or 2, not {packs!r}")
        if teams not in ("none", "partners"):
            raise InvalidOptionError(
                f"{NAME}: option teams must be 'none' or 'partners', not {teams!r}")
        if packs == 2 and players == 2:
            raise InvalidOptionError(f"{NAME}: two packs are for three or four players")
        if teams == "partners" and players != 4:
            raise InvalidOptionError(f"{NAME}: partners need four players")
        self.players = players
        self.match = match
        self.packs = packs
        self.teams = teams
        self.games = players if match else 1

    @property
    def second_stocks(self) -> bool:
        """Two players, or two packs: everyone has a second stock."""
        return self.players == 2 or self.packs == 2

    def opponents(self, player: int) -> list:
        """The players ``player`` plays against: everyone else, or the other partnership."""
        if self.teams == "partners":
            return [q for q in range(4) if q // 2 != player // 2]
        return [q for q in range(self.players) if q != player]

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def options(self) -> dict:
        return {"match": self.match, "packs": self.packs, "players": self.players,
                "teams": self.teams}

    def dealer(self, game_number: int) -> int:
        return game_number % self.players

    def suits_in_play(self, left_out) -> list:
        return [s for s in range(4) if s != left_out]

    def first_suit(self, game_number: int, left_out, player: int) -> int:
        """The suits in play, in the order S H D C, go to the dealer and on clockwise (with two
        players, the first two are the first stocks, the last two the second stocks)."""
        return self.suits_in_play(left_out)[(player - self.dealer(game_number)) % self.players]

    def second_suit(self, game_number: int, left_out, player: int):
        if self.packs == 2:  # the same suit again, from the second pack
            return self.first_suit(game_number, left_out, player)
        if self.players != 2:
            return None
        return (player - self.dealer(game_number)) % 2 + 2

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AQuantumLeapGame):
            return NotImplemented
        return self.options == other.options

    def __hash__(self) -> int:
        return hash((NAME, self.players, self.match, self.packs, self.teams))

    def __repr__(self) -> str:
        return (f"AQuantumLeapGame(players={self.players}, match={self.match}, "
                f"packs={self.packs}, teams={self.teams!r})")

    def new_state(self) -> "AQuantumLeapState":
        return _start_of_game(self, 0, (0,) * self.players)

    def from_notation(self, text: str) -> "AQuantumLeapState":
        return _parse_notation(self, text)


def _start_of_game(g: AQuantumLeapGame, game_number: int, scores) -> "AQuantumLeapState":
    """A new game: empty display; with three players the suit left out is drawn first,
    otherwise each player's stock(s) are dealt and the dealer draws."""
    empty: tuple[frozenset[int], ...] = (frozenset(),) * g.players
    if g.players == 3:
        return AQuantumLeapState(g, game_number, ((),) * 9, empty, empty, empty,
                                 (False,) * g.players, None, "leave", 0, None, 0, 0, scores)
    return _dealt(g, game_number, None, scores)


def _dealt(g, game_number, left_out, scores) -> "AQuantumLeapState":
    stocks = tuple(suit_cards(g.first_suit(game_number, left_out, p)) for p in range(g.players))
    if g.second_stocks:
        seconds = tuple(suit_cards(g.second_suit(game_number, left_out, p))
                        for p in range(g.players))
    else:
        seconds = (frozenset(),) * g.players
    return AQuantumLeapState(g, game_number, ((),) * 9, (frozenset(),) * g.players, stocks,
                             seconds, (False,) * g.players, None, "draw",
                             g.dealer(game_number), None, 0, 0, scores)


class AQuantumLeapState(ReferenceState):
    """A position (immutable).

    * ``stacks``: per cell (a1 b1 c1 a2 .. c3) the cards bottom to top.
    * ``hands``, ``stocks`` (first stocks), ``seconds`` (two players: the untaken second
      stocks): one frozenset of card indices per player. Stocks are sets: their order is
      decided by the draws (chance), one card at a time.
    * ``shown``: per player, the hand lies face up after a pass (until that player places).
    * ``pattern``: None in stage one, else one of PATTERNS.
    * ``phase``: "leave" (three players: the suit left out is drawn), "draw" (``player``
      draws the top card of their stock), "place" (``player`` chooses the outer cell for
      ``drawn``), "higgs" (the dealer places the Higgs), "play" (stage two: ``player`` acts,
      having placed ``placed`` cards this turn), "end".
    * ``passes``: passes in succession since the last placement.
    * ``scores``: totals over the match so far.
    """

    __slots__ = ("_game", "_number", "_stacks", "_hands", "_stocks", "_seconds", "_shown",
                 "_pattern", "_phase", "_player", "_drawn", "_placed", "_passes", "_scores")
    _game: AQuantumLeapGame
    _number: int
    _stacks: tuple[tuple[int, ...], ...]
    _hands: tuple[frozenset[int], ...]
    _stocks: tuple[frozenset[int], ...]
    _seconds: tuple[frozenset[int], ...]
    _shown: tuple[bool, ...]
    _pattern: str | None
    _phase: str
    _player: int
    _drawn: int | None
    _placed: int
    _passes: int
    _scores: tuple[int, ...]

    def __init__(self, game, number, stacks, hands, stocks, seconds, shown, pattern, phase,
                 player, drawn, placed, passes, scores) -> None:
        set_ = object.__setattr__
        set_(self, "_game", game)
        set_(self, "_number", number)
        set_(self, "_stacks", tuple(tuple(s) for s in stacks))
        set_(self, "_hands", tuple(frozenset(h) for h in hands))
        set_(self, "_stocks", tuple(frozenset(s) for s in stocks))
        set_(self, "_seconds", tuple(frozenset(s) for s in seconds))
        set_(self, "_shown", tuple(bool(s) for s in shown))
        set_(self, "_pattern", pattern)
        set_(self, "_phase", phase)
        set_(self, "_player", player)
        set_(self, "_drawn", drawn)
        set_(self, "_placed", placed)
        set_(self, "_passes", passes)
        set_(self, "_scores", tuple(scores))

    def __setattr__(self, name, value):
        raise AttributeError("AQuantumLeapState is immutable")

    def _replace(self, **changes) -> "AQuantumLeapState":
        fields = {name[1:]: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        return AQuantumLeapState(**fields)

    # ---- facts ----

    @property
    def game(self) -> AQuantumLeapGame:
        return self._game

    @property
    def game_number(self) -> int:
        """0-based number of the game within the match."""
        return self._number

    @property
    def dealer(self) -> int:
        return self._game.dealer(self._number)

    def display(self) -> list:
        """3 rows of 3 top-card codes, None where a cell is empty."""
        return [[card_code(s[-1]) if s else None for s in self._stacks[r * 3:r * 3 + 3]]
                for r in range(3)]

    def stacks(self) -> list:
        """3 rows of 3 stack heights."""
        return [[len(s) for s in self._stacks[r * 3:r * 3 + 3]] for r in range(3)]

    def stack(self, cell) -> list:
        """The codes of the cards on ``cell`` (index, (row, col) or name), bottom to top."""
        x = cell if isinstance(cell, int) else _read_cell(cell)
        return [card_code(c) for c in self._stacks[x]]

    def pattern(self):
        return self._pattern

    def hand(self, player: int) -> list:
        """The player's hand, as codes in card-index order."""
        return [card_code(c) for c in sorted(self._hands[self._check_player(player)])]

    def stock(self, player: int) -> list:
        """The player's (first) stock, codes in card-index order (a set: not yet ordered)."""
        return [card_code(c) for c in sorted(self._stocks[self._check_player(player)])]

    def second_stock(self, player: int) -> list:
        """Two players: the untaken second stock, codes in card-index order."""
        return [card_code(c) for c in sorted(self._seconds[self._check_player(player)])]

    def hand_shown(self, player: int) -> bool:
        return self._shown[self._check_player(player)]

    def drawn(self):
        """The card drawn in stage one and waiting for its cell (a code), or None."""
        return None if self._drawn is None else card_code(self._drawn)

    def scores(self) -> list:
        return list(self._scores)

    def holds_cards(self, player: int) -> bool:
        return bool(self._hands[player] or self._seconds[player])

    @property
    def is_terminal(self) -> bool:
        return self._phase == "end"

    @property
    def is_chance(self) -> bool:
        return self._phase in ("leave", "draw")

    @property
    def current_player(self) -> int:
        if self._phase == "end":
            return TERMINAL
        if self.is_chance:
            return CHANCE
        return self._player

    def returns(self) -> list:
        """Each player's points; with partners, each partnership's total for both."""
        if self._game.teams == "partners":
            return [float(self._scores[q - q % 2] + self._scores[q - q % 2 + 1])
                    for q in range(4)]
        return [float(s) for s in self._scores]

    def _check_player(self, player) -> int:
        """``player`` as an int; InvalidOptionError unless it is an integer in 0..n-1."""
        n = self._game.players
        value = None
        if not isinstance(player, bool) and type(player).__name__ != "bool_":
            try:
                value = operator.index(player)
            except TypeError:
                value = None
        if value is None or not 0 <= value < n:
            raise InvalidOptionError(
                f"{NAME}: player must be an integer from 0 to {n - 1}, not {player!r}")
        return value

    def _tops(self) -> list:
        return [s[-1] if s else None for s in self._stacks]

    # ---- actions ----

    def _placements(self) -> list:
        """Stage two: every legal (card, cell, rule) of the player to act, as action ids."""
        tops = self._tops()
        actions = []
        for card in self._hands[self._player]:
            for cell in range(9):
                for rule in _legal_rules(self._pattern, rank(card), rank(tops[cell])):
                    actions.append(placement_action(card, cell, rule))
        return actions

    def legal_actions(self) -> list:
        phase = self._phase
        if phase == "end":
            return []
        if phase == "leave":
            return [LEAVE_BASE + s for s in range(4)]
        if phase == "draw":
            return sorted(DRAW_BASE + c for c in self._stocks[self._player])
        if phase == "place":
            return [CELL_BASE + c for c in OUTER if not self._stacks[c]]
        if phase == "higgs":
            return sorted(HIGGS_BASE + c for c in self._hands[self._player])
        placements = self._placements()
        if self._placed == 0:
            return sorted(placements) if placements else [PASS]
        return sorted(placements + [END])

    def _is_legal(self, action: int) -> bool:
        """``action in self.legal_actions()``, without listing them all."""
        if self._phase != "play" or action >= CELL_BASE:
            return action in self.legal_actions()
        card_cell, rule_index = divmod(action, 5)
        card, cell = divmod(card_cell, 9)
        return card in self._hands[self._player] and RULES[rule_index] in self._rules_for(
            card, cell)

    def play(self, action) -> "AQuantumLeapState":
        action = self._check_legal(action)
        g = self._game
        phase, p = self._phase, self._player
        if phase == "leave":
            return _dealt(g, self._number, action - LEAVE_BASE, self._scores)
        if phase == "draw":
            card = action - DRAW_BASE
            stocks = list(self._stocks)
            stocks[p] = stocks[p] - {card}
            return self._replace(stocks=stocks, phase="place", drawn=card)
        if phase == "place":
            stacks = list(self._stacks)
            assert self._drawn is not None, "a card is drawn in phase place"
            stacks[action - CELL_BASE] = (self._drawn,)
            filled = sum(1 for c in OUTER if stacks[c])
            if filled < 8:
                nxt = (self.dealer + filled) % g.players
                return self._replace(stacks=stacks, phase="draw", player=nxt, drawn=None)
            # The display's outer ring is full: every player takes the rest of their (first)
            # stock into hand, and the dealer places the Higgs.
            return self._replace(stacks=stacks, hands=self._stocks,
                                 stocks=(frozenset(),) * g.players, phase="higgs",
                                 player=self.dealer, drawn=None)
        if phase == "higgs":
            card = action - HIGGS_BASE
            result = _score(self._tops(), card, CENTRE, None, None)
            stacks = list(self._stacks)
            stacks[CENTRE] = (card,)
            hands = list(self._hands)
            hands[p] = hands[p] - {card}
            scores = list(self._scores)
            scores[p] += result.points
            after = self._replace(stacks=stacks, hands=hands, scores=scores, pattern="opening")
            return after._next_turn((self.dealer + 1) % g.players)
        # Stage two.
        if action == PASS:
            shown = list(self._shown)
            shown[p] = True
            passes = self._passes + 1
            after = self._replace(shown=shown, passes=passes)
            holders = sum(1 for q in range(g.players) if self.holds_cards(q))
            if passes >= holders:
                return after._game_over()
            return after._next_turn((p + 1) % g.players)
        if action == END:
            return self._next_turn((p + 1) % g.players)
        card_cell, rule_index = divmod(action, 5)
        card, cell = divmod(card_cell, 9)
        rule = RULES[rule_index]
        result = _score(self._tops(), card, cell, self._pattern, rule)
        stacks = list(self._stacks)
        stacks[cell] = stacks[cell] + (card,)
        hands = list(self._hands)
        hands[p] = hands[p] - {card}
        shown = list(self._shown)
        shown[p] = False
        scores = list(self._scores)
        scores[p] += result.points
        placed = self._placed + 1
        if placed == 5:
            # More than four cards in a turn: four points to every opponent (a partner is
            # none), unless only this player still has cards in hand (an untaken second stock
            # is not in hand).
            if any(hands[q] for q in range(g.players) if q != p):
                for q in g.opponents(p):
                    scores[q] += 4
        after = self._replace(stacks=stacks, hands=hands, shown=shown, scores=scores,
                              pattern=result.pattern, placed=placed, passes=0)
        if not any(after.holds_cards(q) for q in range(g.players)):
            return after._game_over()
        return after

    def _next_turn(self, start: int) -> "AQuantumLeapState":
        """The turn passes to the first player from ``start`` on (clockwise) who holds cards; a
        player whose hand is empty takes up their second stock first."""
        g = self._game
        for k in range(g.players):
            q = (start + k) % g.players
            if self.holds_cards(q):
                hands, seconds = list(self._hands), list(self._seconds)
                if not hands[q]:
                    hands[q], seconds[q] = seconds[q], frozenset()
                return self._replace(hands=hands, seconds=seconds, phase="play", player=q,
                                     placed=0)
        return self._game_over()  # not reached: the caller checks that someone holds cards

    def _game_over(self) -> "AQuantumLeapState":
        g = self._game
        if self._number + 1 < g.games:
            return _start_of_game(g, self._number + 1, self._scores)
        return self._replace(phase="end", player=0, placed=0)

    # ---- action strings ----

    def _rules_for(self, card: int, cell: int) -> tuple[str, ...]:
        return _legal_rules(self._pattern, rank(card), rank(self._tops()[cell]))

    def _action_string(self, action: int, player=None) -> str:
        if action >= LEAVE_BASE:
            return f"leave out {SUITS[action - LEAVE_BASE]}"
        if action >= DRAW_BASE:
            if player is not None and player != self._player:
                return "draw ?"
            return f"draw {card_code(action - DRAW_BASE)}"
        if action == PASS:
            return "pass"
        if action == END:
            return "end"
        if action >= HIGGS_BASE:
            return f"higgs {card_code(action - HIGGS_BASE)}"
        if action >= CELL_BASE:
            return cell_name(action - CELL_BASE)
        card_cell, rule_index = divmod(action, 5)
        card, cell = divmod(card_cell, 9)
        text = f"{card_code(card)} {cell_name(cell)}"
        if len(self._rules_for(card, cell)) > 1:
            text += " " + RULES[rule_index]
        return text

    def action_to_string(self, action, player=None) -> str:
        """The action's text; as ``player`` sees it when given (another player's draw shows no
        card: ``draw ?``)."""
        if player is not None:
            player = self._check_player(player)
        return self._action_string(self._check_legal(action), player)

    def parse_action(self, text: str) -> int:
        """The legal action written ``text``; a placement may also name its rule where one
        rule only is legal."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"{NAME}: action text must be a str, not {text!r}")
        wanted = text.strip()
        for action in self.legal_actions():
            written = self._action_string(action)
            if written == wanted:
                return action
            if action < CELL_BASE and len(written.split(" ")) == 2 \
                    and f"{written} {RULES[action % 5]}" == wanted:
                return action
        raise IllegalMoveError(f"{NAME}: no legal action {wanted!r} in {self.notation()}")

    # ---- text ----

    def _turn_field(self, viewer=None) -> str:
        phase, p = self._phase, self._player
        if phase in ("leave", "end"):
            return phase
        if phase in ("draw", "higgs"):
            return f"{phase}:{p}"
        if phase == "place":
            assert self._drawn is not None, "a card is drawn in phase place"
            card = "?" if viewer is not None and viewer != p else card_code(self._drawn)
            return f"place:{p}:{card}"
        return f"play:{p}:{self._placed}"

    def _common_tail(self, viewer=None) -> str:
        pattern = self._pattern or "-"
        if self._game.teams == "partners":  # partners joined by '+'
            scores = ",".join(f"{self._scores[t]}+{self._scores[t + 1]}" for t in (0, 2))
        else:
            scores = ",".join(str(s) for s in self._scores)
        return (f"{pattern} {self._turn_field(viewer)} {self._passes} {scores} "
                f"{self._number + 1}/{self._game.games}")

    def notation(self) -> str:
        """``<display> <hands> <stocks> <pattern> <turn> <passes> <scores> <game>``; see
        docs/rules/a_quantum_leap.md."""
        display = "/".join(",".join(_stack_text(s) for s in self._stacks[r * 3:r * 3 + 3])
                           for r in range(3))
        hands = "|".join(("*" if self._shown[p] else "") + _codes(self._hands[p])
                         for p in range(self._game.players))
        if self._game.second_stocks:
            stocks = "|".join(f"{_codes(self._stocks[p])}/{_codes(self._seconds[p])}"
                              for p in range(self._game.players))
        else:
            stocks = "|".join(_codes(s) for s in self._stocks)
        return f"{display} {hands} {stocks} {self._common_tail()}"

    def _hands_view(self, viewer: int) -> str:
        parts = []
        for q in range(self._game.players):
            mark = "*" if self._shown[q] else ""
            if q == viewer or self._shown[q]:
                parts.append(mark + _codes(self._hands[q]))
            else:
                parts.append(f"#{len(self._hands[q])}")
        return "|".join(parts)

    def _stock_sizes(self) -> str:
        if self._game.second_stocks:
            return "|".join(f"{len(self._stocks[p])}/{len(self._seconds[p])}"
                            for p in range(self._game.players))
        return "|".join(str(len(s)) for s in self._stocks)

    def observation_string(self, player: int) -> str:
        """What ``player`` sees now: ``<tops> <heights> <hands> <stock sizes> <pattern> <turn>
        <passes> <scores> <game>``; see docs/rules/a_quantum_leap.md."""
        p = self._check_player(player)
        tops = "/".join(",".join(card_code(s[-1]) if s else "." for s in
                                 self._stacks[r * 3:r * 3 + 3]) for r in range(3))
        heights = "/".join(",".join(str(len(s)) for s in self._stacks[r * 3:r * 3 + 3])
                           for r in range(3))
        return (f"{tops} {heights} {self._hands_view(p)} {self._stock_sizes()} "
                f"{self._common_tail(p)}")

    def information_state_string(self, player: int) -> str:
        """All that ``player`` knows: ``<stacks> <hands> <stock sizes> <pattern> <turn> <passes>
        <scores> <game>`` -- the observation with every stack in full (the covered cards were
        seen as they were placed)."""
        p = self._check_player(player)
        display = "/".join(",".join(_stack_text(s) for s in self._stacks[r * 3:r * 3 + 3])
                           for r in range(3))
        return f"{display} {self._hands_view(p)} {self._stock_sizes()} {self._common_tail(p)}"

    def resample(self, player: int, seed: int) -> "AQuantumLeapState":
        """A state ``player`` cannot tell from this one, uniformly at random among all such
        states. Every hand and stock follows from the display and the public deal of the suits,
        so the one thing a player may not know is the card another player has just drawn in
        stage one: it is redrawn from that player's stock and the drawn card together."""
        p = self._check_player(player)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise InvalidOptionError(
                f"{NAME}: seed must be an integer from 0 to 2**64-1, not {seed!r}")
        if self._phase != "place" or self._player == p:
            return self
        q = self._player
        assert self._drawn is not None, "a card is drawn in phase place"
        pool = sorted(self._stocks[q] | {self._drawn})
        card = random.Random(seed).choice(pool)
        stocks = list(self._stocks)
        stocks[q] = frozenset(pool) - {card}
        return self._replace(stocks=stocks, drawn=card)

    def __str__(self) -> str:
        lines = ["    a      b      c"]
        for r in range(3):
            cells = []
            for s in self._stacks[r * 3:r * 3 + 3]:
                cells.append(f"{card_code(s[-1])}({len(s)})" if s else ".")
            lines.append(f" {r + 1}  " + "".join(f"{c:<7}" for c in cells).rstrip())
        for q in range(self._game.players):
            shown = " (shown)" if self._shown[q] else ""
            lines.append(f"player {q}: {' '.join(self.hand(q)) or '-'}{shown}  "
                         f"({self._scores[q]} points)")
        lines.append(f"pattern {self._pattern or '-'}; turn {self._turn_field()}; "
                     f"game {self._number + 1}/{self._game.games}")
        return "\n".join(lines)


def _codes(cards) -> str:
    return ",".join(card_code(c) for c in sorted(cards)) or "-"


def _stack_text(stack) -> str:
    return "".join(card_code(c) for c in stack) or "."


# ---- reading notation ----


def _parse_notation(g: AQuantumLeapGame, text) -> AQuantumLeapState:
    def bad(what: str):
        return InvalidNotationError(f"{NAME}: {what} in notation {text!r}")

    def read_int(value: str, what: str) -> int:
        if not (value.isascii() and value.isdigit()):
            raise bad(f"{what} must be a non-negative integer, not {value!r}")
        return int(value)

    def read_card(code: str, what: str) -> int:
        try:
            return card_index(code)
        except ValueError:
            raise bad(f"unknown card code {code!r} in {what}") from None

    def read_set(value: str, what: str) -> frozenset:
        if value == "-":
            return frozenset()
        cards = [read_card(c, what) for c in value.split(",")]
        if cards != sorted(set(cards)):
            raise bad(f"{what} must list distinct cards in card-index order")
        return frozenset(cards)

    if not isinstance(text, str):
        raise InvalidNotationError(f"{NAME}: notation must be a str, not {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) != 8:
        raise bad("expected eight fields '<display> <hands> <stocks> <pattern> <turn> <passes> "
                  "<scores> <game>'")
    display_f, hands_f, stocks_f, pattern_f, turn_f, passes_f, scores_f, game_f = fields
    n = g.players

    # The game number.
    parts = game_f.split("/")
    if len(parts) != 2:
        raise bad("the game field must be '<game>/<games>'")
    number, games = read_int(parts[0], "the game number") - 1, read_int(parts[1], "games")
    if games != g.games:
        raise bad(f"this match has {g.games} game(s), not {games}")
    if not 0 <= number < games:
        raise bad(f"game {parts[0]} out of 1..{games}")
    dealer = g.dealer(number)

    # The display.
    rows = display_f.split("/")
    if len(rows) != 3 or any(len(r.split(",")) != 3 for r in rows):
        raise bad("the display needs 3 rows of 3 cells ('/' between rows, ',' between cells)")
    stacks: list[tuple[int, ...]] = []
    for cell_text in (c for r in rows for c in r.split(",")):
        if cell_text == ".":
            stacks.append(())
            continue
        if len(cell_text) % 2:
            raise bad(f"a stack is card codes written one after another, not {cell_text!r}")
        stacks.append(tuple(read_card(cell_text[i:i + 2], "the display")
                            for i in range(0, len(cell_text), 2)))

    # Hands (a leading '*': shown after a pass).
    hand_texts = hands_f.split("|")
    if len(hand_texts) != n:
        raise bad(f"expected {n} hands separated by '|'")
    hands, shown = [], []
    for q, h in enumerate(hand_texts):
        is_shown = h.startswith("*")
        hand = read_set(h[1:] if is_shown else h, f"player {q}'s hand")
        if is_shown and not hand:
            raise bad(f"player {q}'s hand is empty and cannot be shown")
        hands.append(hand)
        shown.append(is_shown)

    # Stocks.
    stock_texts = stocks_f.split("|")
    if len(stock_texts) != n:
        raise bad(f"expected {n} stocks separated by '|'")
    stocks, seconds = [], []
    for q, s in enumerate(stock_texts):
        if g.second_stocks:
            halves = s.split("/")
            if len(halves) != 2:
                raise bad(f"with {'two players' if n == 2 else 'two packs'} each stock entry "
                          f"is '<first>/<second>'")
            stocks.append(read_set(halves[0], f"player {q}'s stock"))
            seconds.append(read_set(halves[1], f"player {q}'s second stock"))
        else:
            stocks.append(read_set(s, f"player {q}'s stock"))
            seconds.append(frozenset())

    # Pattern, passes, scores.
    if pattern_f == "-":
        pattern = None
    elif pattern_f in PATTERNS:
        pattern = pattern_f
    else:
        raise bad(f"unknown pattern {pattern_f!r}")
    passes = read_int(passes_f, "passes")
    if g.teams == "partners":
        teams = scores_f.split(",")
        if len(teams) != 2 or any(len(t.split("+")) != 2 for t in teams):
            raise bad("with partners the scores are '<p0>+<p1>,<p2>+<p3>' (partners joined by "
                      "'+')")
        score_texts = [x for t in teams for x in t.split("+")]
    else:
        score_texts = scores_f.split(",")
    if len(score_texts) != n:
        raise bad(f"expected {n} scores separated by ','")
    scores = [read_int(s, "a score") for s in score_texts]
    if any(s > 1_000_000 for s in scores):
        raise bad("a score above 1000000")

    # The turn.
    turn = turn_f.split(":")
    kind = turn[0]
    player, drawn, placed = 0, None, 0

    def read_player(value: str) -> int:
        q = read_int(value, "the player")
        if q >= n:
            raise bad(f"no player {q}")
        return q

    if kind in ("leave", "end") and len(turn) == 1:
        pass
    elif kind in ("draw", "higgs") and len(turn) == 2:
        player = read_player(turn[1])
    elif kind == "place" and len(turn) == 3:
        player = read_player(turn[1])
        drawn = read_card(turn[2], "the turn")
    elif kind == "play" and len(turn) == 3:
        player = read_player(turn[1])
        placed = read_int(turn[2], "the cards placed this turn")
    else:
        raise bad(f"the turn must be leave, draw:<p>, place:<p>:<card>, higgs:<p>, "
                  f"play:<p>:<placed> or end, not {turn_f!r}")
    phase = {"leave": "leave", "end": "end", "draw": "draw", "higgs": "higgs",
             "place": "place", "play": "play"}[kind]

    # Every card at most once (two packs: twice).
    everywhere = [c for s in stacks for c in s] + [c for h in hands for c in h] \
        + [c for s in stocks for c in s] + [c for s in seconds for c in s] \
        + ([drawn] if drawn is not None else [])
    if any(everywhere.count(c) > g.packs for c in set(everywhere)):
        raise bad("a card appears twice" if g.packs == 1
                  else "a card appears three times (two packs hold two of each)")
    present = set(everywhere)

    if phase == "leave":
        if n != 3:
            raise bad("only a three-player game leaves a suit out")
        if present or pattern is not None or passes or any(shown):
            raise bad("before the suit left out is drawn nothing is dealt")
        return AQuantumLeapState(g, number, stacks, hands, stocks, seconds, shown, None,
                                 "leave", 0, None, 0, 0, scores)

    # Which suits are in play, and whose they are.
    if n == 3:
        absent = [s for s in range(4) if not present & suit_cards(s)]
        if len(absent) != 1:
            raise bad("a three-player game leaves exactly one suit out")
        left_out = absent[0]
    else:
        left_out = None
    in_play = set().union(*(suit_cards(s) for s in g.suits_in_play(left_out)))
    if present != in_play or any(everywhere.count(c) != g.packs for c in present):
        raise bad("every card of the suits in play must be somewhere, once" if g.packs == 1
                  else "every card of the suits in play must be somewhere, twice (two packs)")
    first = [suit_cards(g.first_suit(number, left_out, q)) for q in range(n)]
    second = [suit_cards(g.second_suit(number, left_out, q)) if g.second_stocks else frozenset()
              for q in range(n)]
    for q in range(n):
        own = first[q] | second[q]
        if not hands[q] <= own:
            raise bad(f"player {q}'s hand holds a card of another player's suit")
        if not stocks[q] <= first[q]:
            raise bad(f"player {q}'s stock holds a card of another suit")
        if seconds[q] not in (frozenset(), second[q]):
            raise bad(f"player {q}'s second stock must be the whole suit "
                      f"{SUITS[g.second_suit(number, left_out, q)] if g.second_stocks else ''} "
                      f"or '-'")
    if drawn is not None and drawn not in first[player]:
        raise bad(f"player {player} cannot have drawn a card of another suit")

    heights = [len(s) for s in stacks]
    outer_filled = sum(1 for c in OUTER if heights[c])

    if phase in ("draw", "place", "higgs"):  # stage one
        if pattern is not None or passes or any(shown):
            raise bad("stage one has no pattern, passes or shown hands")
        if heights[CENTRE] or any(h > 1 for h in heights):
            raise bad("in stage one each outer cell holds at most one card and the centre none")
        if any(seconds[q] != second[q] for q in range(n)):
            raise bad("the second stocks are untouched in stage one")
        # The outer cards were placed by the dealer and on clockwise: placement i by
        # (dealer + i) mod n. Each player's cards on the display are their own suit's.
        made = [sum(1 for c in OUTER if stacks[c] and stacks[c][0] in first[q]) for q in range(n)]
        expected = [sum(1 for i in range(outer_filled) if (dealer + i) % n == q)
                    for q in range(n)]
        if made != expected:
            raise bad("the outer cards do not match the order of placement (dealer first, "
                      "then clockwise)")
        if phase == "higgs":
            if outer_filled != 8 or player != dealer:
                raise bad("the dealer places the Higgs once the eight outer cards lie")
            if any(stocks):
                raise bad("the first stocks are in hand when the Higgs is placed")
        else:
            if outer_filled == 8:
                raise bad("the outer ring is full: the dealer places the Higgs")
            if player != (dealer + outer_filled) % n:
                raise bad(f"outer placement {outer_filled + 1} is made by player "
                          f"{(dealer + outer_filled) % n}")
            if any(hands):
                raise bad("hands are taken up after the eight outer cards")
            if (phase == "place") != (drawn is not None):
                raise bad("a drawn card waits only in the 'place' turn")
        return AQuantumLeapState(g, number, stacks, hands, stocks, seconds, shown, None, phase,
                                 player, drawn, 0, 0, scores)

    # Stage two (or the end).
    if any(h == 0 for h in heights):
        raise bad("in stage two every cell holds a card")
    if any(stocks):
        raise bad("the first stocks are in hand in stage two")
    if pattern is None:
        raise bad("stage two has a pattern")
    if (pattern == "opening") != all(h == 1 for h in heights):
        raise bad("the pattern is 'opening' exactly until the first stage-two placement")
    holders = [q for q in range(n) if hands[q] or seconds[q]]
    # The bottom cards are stage one's: the outer ones placed in turn from the dealer on, the
    # centre the dealer's Higgs.
    made = [sum(1 for c in OUTER if stacks[c][0] in first[q]) for q in range(n)]
    if made != [sum(1 for i in range(8) if (dealer + i) % n == q) for q in range(n)]:
        raise bad("the bottom outer cards do not match the order of placement (dealer first, "
                  "then clockwise)")
    if stacks[CENTRE][0] not in first[dealer]:
        raise bad("the bottom card of the centre is the dealer's Higgs")
    if phase == "end":
        if number != games - 1:
            raise bad("only the last game of a match ends it")
        if holders and passes < len(holders):
            raise bad("a game ends when nobody holds cards or everybody has passed")
        if passes > n:
            raise bad(f"at most {n} passes in succession")
        return AQuantumLeapState(g, number, stacks, hands, stocks, seconds, shown, pattern,
                                 "end", 0, None, 0, passes, scores)
    if not holders:
        raise bad("nobody holds cards: the game is over")
    if placed == 0:
        if player not in holders:
            raise bad(f"player {player} holds no card and takes no turn")
        if not hands[player]:
            raise bad(f"player {player} takes up the second stock at the start of the turn")
    else:
        if passes:
            raise bad("a placement ends a run of passes")
        if shown[player]:
            raise bad("a shown hand is taken back when its player places")
        if placed > 52:
            raise bad("too many cards placed in one turn")
        if pattern == "opening":
            raise bad("a placement has set the pattern")
    if passes >= len(holders):
        raise bad("every player holding cards has passed: the game is over")
    return AQuantumLeapState(g, number, stacks, hands, stocks, seconds, shown, pattern, "play",
                             player, None, placed, passes, scores)


def game(**options) -> AQuantumLeapGame:
    """The reference game with ``options`` (the same names and values as ``quanta.game``)."""
    return AQuantumLeapGame(**options)


# ---- the best turn and the best Higgs: exact, plain search (a test oracle) ----
#
# What is optimised, the tie-breaks and where it applies: docs/rules/a_quantum_leap.md,
# "Best turn and best Higgs". Everything is measured by playing the actions with
# AQuantumLeapState.play and reading the scores, so the search trusts the rules above and
# nothing else.

__all__ += ["BestHiggs", "BestTurn", "best_higgs", "best_turn"]


@dataclass(frozen=True)
class BestTurn:
    """The best way to play the rest of the mover's turn from a state.

    * ``actions``: the action ids, in order from the state. The last is ``end`` unless the
      turn ends by itself (the game ends with the last card); ``(pass,)`` when the mover can
      place nothing at the start of the turn.
    * ``points``: what the mover scores with them.
    * ``penalty``: whether they place the fifth card of the turn while another player has
      cards in hand, so that every opponent scores 4.
    * ``penalty_points``: what the penalty costs the mover's side: 4, or 8 with partners (both
      opponents score 4).
    """

    actions: tuple
    points: int
    penalty: bool
    penalty_points: int = 4

    @property
    def value(self) -> int:
        """``points - penalty_points * penalty``: how much the mover's lead over every opponent
        (with partners: the other partnership) grows."""
        return self.points - self.penalty_points * self.penalty

    @property
    def cards(self) -> int:
        """The number of cards the actions place."""
        return sum(1 for a in self.actions if a < CELL_BASE)

    def order(self) -> tuple:
        """The sort key: the best turn is the smallest (largest value, then fewest cards,
        then the lexicographically smallest list of action ids)."""
        return (-self.value, self.cards, self.actions)


@dataclass(frozen=True)
class BestHiggs:
    """The dealer's best Higgs: the ``action`` id, the ``card`` (a code) and the ``points``
    its bonuses score."""

    action: int
    card: str
    points: int


def _not_applicable(what: str, state) -> NotApplicableError:
    if isinstance(state, AQuantumLeapState):
        return NotApplicableError(f"{NAME}: {what}, not in {state.notation()}")
    return NotApplicableError(f"{NAME}: {what}; {type(state).__name__} is not a reference "
                              f"A Quantum Leap state")


def _gains(before: AQuantumLeapState, after: AQuantumLeapState, p: int) -> tuple:
    """What one action gave: (the mover's points, whether the opponents got the penalty).
    Read from the scores (in a match they carry over into the next game)."""
    points = after._scores[p] - before._scores[p]
    opponents = {after._scores[q] - before._scores[q] for q in before._game.opponents(p)}
    assert opponents in ({0}, {4}), "only the penalty gives points to the opponents"
    if before._game.teams == "partners":
        assert after._scores[p ^ 1] == before._scores[p ^ 1], "a partner gets no penalty"
    return points, opponents == {4}


def best_turn(state) -> BestTurn:
    """The exact best way for the player to act (stage two, phase ``play``) to play the rest
    of the turn: the largest ``points - 4 * penalty`` (8 with partners: both opponents score
    4), then the fewest cards, then the
    lexicographically smallest sequence of action ids. At the start of a turn that is the
    whole turn; after k >= 1 placements it is the rest (points and penalty from here on: a
    penalty already given at the fifth card is not counted again).

    A plain depth-first search over every legal action of the turn, played with
    :meth:`AQuantumLeapState.play` and scored by the scores it leaves, memoised on what
    decides the rest of the turn: the top cards, the mover's hand, the pattern and the cards
    placed so far (counted up to 5; the other players' cards do not change during the turn).
    Exponential in the hand: fine for a few cards, minutes for ten or more.

    Raises NotApplicableError for anything but a reference state in phase ``play``: a chance
    node (``leave``, ``draw``), stage one (``place``, ``higgs``: see :func:`best_higgs`), a
    finished game, or another object."""
    if not isinstance(state, AQuantumLeapState) or state._phase != "play":
        raise _not_applicable("best_turn applies to a stage-two turn (phase play)", state)
    p = state._player
    cost = 4 * len(state._game.opponents(p)) if state._game.teams == "partners" else 4
    # memo[position] = (-value, cards, first action, points, penalty) of the best rest of the
    # turn from that position. Options at one position differ in their first action, and the
    # rest after it is the best rest from the position it leads to, so comparing these
    # triples (-value, cards, first action) is comparing the whole sequences as documented.
    memo: dict[tuple, tuple[int, int, int, int, bool]] = {}

    def position(s: AQuantumLeapState) -> tuple:
        return (bytes(s._tops()), s._hands[p], s._pattern, min(s._placed, 5))

    def continues(s: AQuantumLeapState, after: AQuantumLeapState) -> bool:
        """Is p still to act in the same turn after a placement (the game has not ended)?"""
        return after._phase == "play" and after._player == p and after._placed == s._placed + 1

    def search(s: AQuantumLeapState) -> tuple:
        key = position(s)
        if key not in memo:
            best = None
            for action in s.legal_actions():
                if action in (END, PASS):
                    option = (0, 0, action, 0, False)
                else:
                    after = s.play(action)
                    points, penalty = _gains(s, after, p)
                    if continues(s, after):
                        rest_value, rest_cards, _, rest_points, rest_penalty = search(after)
                        points, penalty = points + rest_points, penalty or rest_penalty
                        cards = 1 + rest_cards
                    else:
                        cards = 1
                    option = (-(points - cost * penalty), cards, action, points, penalty)
                if best is None or option[:3] < best[:3]:
                    best = option
            assert best is not None, "END or PASS is legal in every stage-two position"
            memo[key] = best
        return memo[key]

    negative_value, _, _, points, penalty = search(state)
    actions, s = [], state
    while True:  # follow the best first actions from position to position
        action = memo[position(s)][2]
        actions.append(action)
        if action in (END, PASS):
            break
        after = s.play(action)
        if not continues(s, after):
            break
        s = after
    result = BestTurn(tuple(actions), points, penalty, cost)
    assert result.value == -negative_value
    return result


def best_higgs(state) -> BestHiggs:
    """The dealer's best Higgs (phase ``higgs``): the card of the hand whose bonuses score the
    most on b2; among equals the lowest action id (the lowest card index). Only the Higgs's
    own points count, not what it leaves for stage two.

    Raises NotApplicableError for anything but a reference state in phase ``higgs``."""
    if not isinstance(state, AQuantumLeapState) or state._phase != "higgs":
        raise _not_applicable("best_higgs applies to the dealer's Higgs (phase higgs)", state)
    p = state._player
    best = None
    for action in state.legal_actions():  # ascending ids: the first of equals is kept
        points, _ = _gains(state, state.play(action), p)
        if best is None or points > best.points:
            best = BestHiggs(action, card_code(action - HIGGS_BASE), points)
    assert best is not None, "the dealer holds the Higgs candidates in phase higgs"
    return best
