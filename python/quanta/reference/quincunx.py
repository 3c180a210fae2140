"""Quincunx (Decktet, Chris DeLeo): the pure-Python reference rules (a test oracle; slow).

Written plainly from the rules (docs/rules/quincunx.md, with its rulings and its table of the
deck), independently of the Rust engine, which implements the same contract: the same options
(``players``, ``excuse``, ``match``, ``setup``), action ids, action strings and notation.
``game(**options)`` makes the game.

:func:`score_placement` scores one placement with its breakdown.

Rules, notation and action names: docs/rules/quincunx.md.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import NamedTuple

from quanta.exceptions import InvalidNotationError, InvalidOptionError

from ._state import ReferenceState

__all__ = [
    "CARDS",
    "CHANCE",
    "TERMINAL",
    "Card",
    "Placement",
    "QuincunxGame",
    "QuincunxState",
    "card_by_code",
    "cell_name",
    "game",
    "hand_penalty",
    "score_placement",
]

CHANCE = -1
TERMINAL = -4

NAME = "quincunx"

# ---- the deck ----

SUITS = "MSWLYK"  # Moons Suns Waves Leaves Wyrms Knots, in the deck's order
SUIT_NAMES = {"M": "Moons", "S": "Suns", "W": "Waves", "L": "Leaves", "Y": "Wyrms", "K": "Knots"}


class Card(NamedTuple):
    # The card's place in the deck; the field hides tuple.index, which no card needs.
    index: int  # type: ignore[assignment]
    code: str
    rank: int  # Ace 1, numerals 2-9, Crown 10, Excuse 0 (no rank)
    name: str
    suits: str  # suit letters in deck order; "" for the Excuse

    @property
    def is_ace(self) -> bool:
        return self.rank == 1

    @property
    def is_crown(self) -> bool:
        return self.rank == 10

    @property
    def is_numeral(self) -> bool:
        return 2 <= self.rank <= 9

    @property
    def is_excuse(self) -> bool:
        return self.rank == 0


# The Decktet as listed in docs/rules/quincunx.md (same order, same ranks and suits), written out
# here so that the reference reads no file. Code = Ace "A"+suit, numeral rank + its two suits,
# Crown "C"+suit, Excuse "X".
CARDS = (
    Card(0, "AM", 1, "Ace of Moons", "M"),
    Card(1, "AS", 1, "Ace of Suns", "S"),
    Card(2, "AW", 1, "Ace of Waves", "W"),
    Card(3, "AL", 1, "Ace of Leaves", "L"),
    Card(4, "AY", 1, "Ace of Wyrms", "Y"),
    Card(5, "AK", 1, "Ace of Knots", "K"),
    Card(6, "2MK", 2, "the Author", "MK"),
    Card(7, "2SY", 2, "the Desert", "SY"),
    Card(8, "2WL", 2, "the Origin", "WL"),
    Card(9, "3MW", 3, "the Journey", "MW"),
    Card(10, "3SK", 3, "the Painter", "SK"),
    Card(11, "3LY", 3, "the Savage", "LY"),
    Card(12, "4MS", 4, "the Mountain", "MS"),
    Card(13, "4WL", 4, "the Sailor", "WL"),
    Card(14, "4YK", 4, "the Battle", "YK"),
    Card(15, "5ML", 5, "the Forest", "ML"),
    Card(16, "5SW", 5, "the Discovery", "SW"),
    Card(17, "5YK", 5, "the Soldier", "YK"),
    Card(18, "6MW", 6, "the Lunatic", "MW"),
    Card(19, "6SY", 6, "the Penitent", "SY"),
    Card(20, "6LK", 6, "the Market", "LK"),
    Card(21, "7ML", 7, "the Chance Meeting", "ML"),
    Card(22, "7SK", 7, "the Castle", "SK"),
    Card(23, "7WY", 7, "the Cave", "WY"),
    Card(24, "8MS", 8, "the Diplomat", "MS"),
    Card(25, "8WL", 8, "the Mill", "WL"),
    Card(26, "8YK", 8, "the Betrayal", "YK"),
    Card(27, "9MS", 9, "the Pact", "MS"),
    Card(28, "9WY", 9, "the Darkness", "WY"),
    Card(29, "9LK", 9, "the Merchant", "LK"),
    Card(30, "CM", 10, "the Huntress", "M"),
    Card(31, "CS", 10, "the Bard", "S"),
    Card(32, "CW", 10, "the Sea", "W"),
    Card(33, "CL", 10, "the End", "L"),
    Card(34, "CY", 10, "the Calamity", "Y"),
    Card(35, "CK", 10, "the Windfall", "K"),
    Card(36, "X", 0, "the Excuse", ""),
)
EXCUSE = 36
NUM_CARDS = len(CARDS)  # 37: action ids leave room for the Excuse in every game
BY_CODE = {card.code: card.index for card in CARDS}


def card_by_code(code: str) -> int:
    """The index of the card with this code; ValueError for an unknown code."""
    if not isinstance(code, str) or code not in BY_CODE:
        raise ValueError(f"{NAME}: unknown card code {code!r}")
    return BY_CODE[code]


# Solitaire (docs/rules/quincunx.md, *Solitaire*): "If you run out of cards before completing
# the spread, you lose." A lost game returns -223, one below the lowest score a completed game
# can have (-222); its turn points stay in the scores.
LOST_RETURN = -223


def hand_penalty(card: int) -> int:
    """What a card left in hand at the end of a round costs: Ace 15, Crown 10, numeral its
    rank, Excuse nothing."""
    rank = CARDS[card].rank
    return 15 if rank == 1 else rank


def cell_name(cell: int, side: int) -> str:
    """a1 for cell 0; column letter, then row number counted from the top."""
    row, col = divmod(cell, side)
    return LETTERS[col] + str(row + 1)


LETTERS = "abcdefghi"


# ---- scoring one placement ----


@dataclass(frozen=True)
class Placement:
    """What placing one card scores. ``points`` is the sum of the five parts; ``draws`` is the
    number of cards the player must draw (one per neighbour with a basic sum of 11 or 20)."""

    basic: int = 0
    pairs: int = 0
    straights: int = 0
    sets: int = 0
    power: int = 0
    draws: int = 0

    @property
    def points(self) -> int:
        return self.basic + self.pairs + self.straights + self.sets + self.power

    @property
    def breakdown(self) -> dict:
        return {
            "basic": self.basic,
            "pairs": self.pairs,
            "straights": self.straights,
            "sets": self.sets,
            "power": self.power,
        }


ORTHOGONAL = [(-1, 0), (1, 0), (0, -1), (0, 1)]  # up, down, left, right
# Line directions: row, column, and the two diagonals (these last two never in solitaire).
LINES = [(0, 1), (1, 0), (1, 1), (1, -1)]


def basic_score(card: Card, neighbour: Card) -> tuple:
    """(points, draws) of the basic scoring between the placed card and one orthogonal
    neighbour (neither of them the Excuse)."""
    total = card.rank + neighbour.rank
    if total <= 9:
        ace_matching = (card.is_ace or neighbour.is_ace) and set(card.suits) & set(neighbour.suits)
        return (total if ace_matching else -total), 0
    if total == 10:
        return 0, 0
    if total in (11, 20):
        return 0, 1  # draw a card, no points
    return total - 10, 0  # 12..19


def _score(cells, side: int, diagonals: bool, card: int, cell: int) -> Placement:
    """Scores card ``card`` placed on the empty ``cell`` of ``cells`` (card index or None per
    cell). ``diagonals``: do straights and sets count on diagonal lines (not in solitaire)."""
    placed = CARDS[card]
    if placed.is_excuse:
        return Placement()  # the Excuse scores nothing at all
    row, col = divmod(cell, side)

    def card_at(r: int, c: int):
        """The card on (r, c), or None when that is off the grid, empty or the Excuse (which
        gives no basic score and breaks every run)."""
        if not (0 <= r < side and 0 <= c < side):
            return None
        if (r, c) == (row, col):
            return placed
        index = cells[r * side + c]
        if index is None or CARDS[index].is_excuse:
            return None
        return CARDS[index]

    neighbours = []  # (position, card) of the orthogonal neighbours that take part in scoring
    for d_row, d_col in ORTHOGONAL:
        neighbour = card_at(row + d_row, col + d_col)
        if neighbour is not None:
            neighbours.append(((row + d_row, col + d_col), neighbour))

    # Basic scoring, one neighbour at a time.
    basic = draws = 0
    for _, neighbour in neighbours:
        points, draw = basic_score(placed, neighbour)
        basic += points
        draws += draw

    def walk(d_row: int, d_col: int, step: int) -> list:
        """The positions reached from the placed card going (d_row, d_col), one cell at a time,
        while each card's rank is the previous one's plus ``step``."""
        reached: list[tuple[int, int]] = []
        rank = placed.rank
        r, c = row + d_row, col + d_col
        while True:
            there = card_at(r, c)
            if there is None or there.rank != rank + step:
                return reached
            reached.append((r, c))
            rank = there.rank
            r, c = r + d_row, c + d_col

    # Straights and sets: at most one bonus per line direction through the card.
    straights = sets = 0
    in_sets = set()  # positions of the cards in the sets this placement makes
    for d_row, d_col in LINES if diagonals else LINES[:2]:
        same = walk(-d_row, -d_col, 0) + walk(d_row, d_col, 0)
        if len(same) + 1 >= 3:
            sets += 30
            in_sets.update(same)
            continue  # a line that makes a set does not also make a straight
        ascending = walk(-d_row, -d_col, -1) + walk(d_row, d_col, +1)
        descending = walk(-d_row, -d_col, +1) + walk(d_row, d_col, -1)
        if max(len(ascending), len(descending)) + 1 >= 3:
            straights += 20

    # Pairs: each orthogonal neighbour of the same rank, unless it is part of a set just made.
    pairs = 0
    for position, neighbour in neighbours:
        if neighbour.rank == placed.rank and position not in in_sets:
            pairs += 5

    # Power play: an Ace next to the Crown of its suit, or a Crown next to the Ace of its suit,
    # scores the ranks of the numerals of that suit on the grid.
    power = 0
    if placed.is_ace or placed.is_crown:
        suit = placed.suits
        partner_rank = 10 if placed.is_ace else 1
        if any(n.rank == partner_rank and n.suits == suit for _, n in neighbours):
            power = sum(
                CARDS[index].rank
                for index in cells
                if index is not None and CARDS[index].is_numeral and suit in CARDS[index].suits
            )

    return Placement(basic, pairs, straights, sets, power, draws)


def _read_cell(cell, side: int) -> int:
    """A cell given as (row, col) or as a name like "c3"; its index."""
    if isinstance(cell, str):
        names = {cell_name(x, side): x for x in range(side * side)}
        if cell not in names:
            raise ValueError(f"{NAME}: no cell {cell!r} on a {side}x{side} grid")
        return names[cell]
    try:
        row, col = cell
        row, col = operator.index(row), operator.index(col)
    except (TypeError, ValueError):
        raise ValueError(
            f"{NAME}: a cell is (row, col) or a name like 'c3', not {cell!r}"
        ) from None
    if not (0 <= row < side and 0 <= col < side):
        raise ValueError(f"{NAME}: cell {cell!r} is off the {side}x{side} grid")
    return row * side + col


def score_placement(grid, card, cell, *, solitaire: bool = False) -> Placement:
    """Scores placing ``card`` (a code such as "7WY") on the empty ``cell`` ((row, col), or a
    name like "c3") of ``grid``: a 4x4 or 5x5 list of rows, each entry a card code or None.
    ``solitaire``: straights and sets never count on diagonals.

    Raises ValueError for a bad grid, an unknown card, a card already on the grid, or a cell
    that is off the grid or occupied."""
    try:
        rows = [list(row) for row in grid]
    except TypeError:
        raise ValueError(f"{NAME}: the grid must be a list of rows") from None
    side = len(rows)
    if side not in (4, 5) or any(len(row) != side for row in rows):
        raise ValueError(f"{NAME}: the grid must be 4x4 or 5x5, not {[len(r) for r in rows]}")
    cells = []
    for row in rows:
        for entry in row:
            cells.append(None if entry is None else card_by_code(entry))
    placed = [c for c in cells if c is not None]
    if len(set(placed)) != len(placed):
        raise ValueError(f"{NAME}: a card appears twice on the grid")
    index = card_by_code(card)
    if index in placed:
        raise ValueError(f"{NAME}: card {card} is already on the grid")
    x = _read_cell(cell, side)
    if cells[x] is not None:
        raise ValueError(f"{NAME}: cell {cell_name(x, side)} is occupied")
    return _score(cells, side, not solitaire, index, x)


# ---- the game ----

HAND_SIZES = {1: 8, 2: 10, 3: 7, 4: 6}
BOOK_HAND_SIZES = {2: 12, 3: 8}
BOOK_SIDE = 9  # the book's grid grows on a 9x9 table, the start card in its middle
BOOK_SQUARE = 5  # ... within a 5x5 square


class QuincunxGame:
    """The parameters of a game of Quincunx.

    Options: ``players`` 1 (solitaire), 2 (default), 3 or 4; ``excuse`` (the Excuse is in the
    deck; default False); ``match`` (one round per dealer instead of one round; default False;
    not with solitaire); ``setup`` = "wiki" (the only one so far).
    """

    def __init__(self, players: int = 2, excuse: bool = False, match: bool = False,
                 setup: str = "wiki") -> None:
        if isinstance(players, bool) or not isinstance(players, int) or players not in HAND_SIZES:
            raise InvalidOptionError(
                f"{NAME}: option players must be 1, 2, 3 or 4, not {players!r}"
            )
        if not isinstance(excuse, bool):
            raise InvalidOptionError(f"{NAME}: option excuse must be a bool, not {excuse!r}")
        if not isinstance(match, bool):
            raise InvalidOptionError(f"{NAME}: option match must be a bool, not {match!r}")
        if match and players == 1:
            raise InvalidOptionError(f"{NAME}: solitaire is always one round (no match)")
        if setup not in ("wiki", "book"):
            raise InvalidOptionError(
                f"{NAME}: option setup must be 'wiki' or 'book', not {setup!r}"
            )
        if setup == "book" and players not in BOOK_HAND_SIZES:
            raise InvalidOptionError(
                f"{NAME}: setup 'book' is for 2 or 3 players, not players={players}"
            )
        self.players = players
        self.excuse = excuse
        self.match = match
        self.setup = setup
        self.book = setup == "book"
        self.solitaire = players == 1
        self.rounds = players if match else 1
        if self.book:
            self.side = BOOK_SIDE
            self.cells = self.side * self.side
            self.hand_size = BOOK_HAND_SIZES[players]
            self.start_cells = [self.cells // 2]  # the middle of the table: e5
            self.grid_size = BOOK_SQUARE * BOOK_SQUARE
        else:
            self.side = 4 if self.solitaire else 5
            self.cells = self.side * self.side
            self.hand_size = HAND_SIZES[players]
            corners = [0, self.side - 1, self.cells - self.side, self.cells - 1]
            centre = [self.cells // 2] if players in (2, 4) else []
            self.start_cells = sorted(corners + centre)
            self.grid_size = self.cells
        self.deck = frozenset(range(NUM_CARDS if excuse else NUM_CARDS - 1))
        self.chance_base = NUM_CARDS * self.cells  # "card k comes" = chance_base + k
        self.num_actions = NUM_CARDS * self.cells + NUM_CARDS

    name = NAME

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def options(self) -> dict:
        return {"excuse": self.excuse, "match": self.match, "players": self.players,
                "setup": self.setup}

    def dealer(self, round_number: int) -> int:
        """The dealer of round ``round_number`` (0-based): the last player for the first round,
        then each player on the previous dealer's left."""
        return (self.players - 1 + round_number) % self.players

    def first_player(self, round_number: int) -> int:
        """Play begins with the player on the dealer's left."""
        return (self.dealer(round_number) + 1) % self.players

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, QuincunxGame):
            return NotImplemented
        return self.options == other.options

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.options.items())))

    def __repr__(self) -> str:
        return (f"QuincunxGame(players={self.players}, excuse={self.excuse}, "
                f"match={self.match}, setup={self.setup!r})")

    def new_state(self) -> "QuincunxState":
        """The start: nothing dealt yet (a chance node)."""
        return QuincunxState(
            self,
            grid=(None,) * self.cells,
            hands=(frozenset(),) * self.players,
            scores=(0,) * self.players,
            phase="deal",
            player=0,
            pending=0,
            round_number=0,
        )

    def from_notation(self, text: str) -> "QuincunxState":
        """Reads a position written by QuincunxState.notation(); InvalidNotationError if bad."""
        return _parse_notation(self, text)


class QuincunxState(ReferenceState):
    """A position (immutable). Fields:

    * ``grid``: one card index or None per cell.
    * ``hands``: one frozenset of card indices per player.
    * ``scores``: per player, the totals of the finished rounds plus this round's turn points.
    * ``phase``: "deal" (the deal is under way), "place" (``player`` places a card),
      "draw" (``player`` has ``pending`` draws to take) or "end".
    * ``round_number``: 0-based.

    The pile is every card of the deck on neither the grid nor a hand (during the deal: the
    cards not dealt yet); it is a set, never an order.
    """

    __slots__ = ("_game", "_grid", "_hands", "_scores", "_phase", "_player", "_pending", "_round")
    _game: QuincunxGame
    _grid: tuple[int | None, ...]
    _hands: tuple[frozenset[int], ...]
    _scores: tuple[int, ...]
    _phase: str
    _player: int
    _pending: int
    _round: int

    def __init__(self, game: QuincunxGame, grid, hands, scores, phase: str, player: int,
                 pending: int, round_number: int) -> None:
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_grid", tuple(grid))
        object.__setattr__(self, "_hands", tuple(frozenset(h) for h in hands))
        object.__setattr__(self, "_scores", tuple(scores))
        object.__setattr__(self, "_phase", phase)
        object.__setattr__(self, "_player", player)
        object.__setattr__(self, "_pending", pending)
        object.__setattr__(self, "_round", round_number)

    def __setattr__(self, name, value):
        raise AttributeError("QuincunxState is immutable")

    # ---- facts about the position ----

    @property
    def game(self) -> QuincunxGame:
        return self._game

    def grid(self) -> list:
        """Rows top to bottom, each entry a card code or None."""
        side = self._game.side
        return [
            [None if c is None else CARDS[c].code for c in self._grid[r * side:(r + 1) * side]]
            for r in range(side)
        ]

    def hand(self, player: int) -> list:
        """The player's cards, as codes in card-index order."""
        return [CARDS[c].code for c in sorted(self._hands[player])]

    def pile_cards(self) -> list:
        """Indices of the cards in the pile (nobody has seen them), ascending."""
        seen = {c for c in self._grid if c is not None}
        for hand in self._hands:
            seen |= hand
        return sorted(self._game.deck - seen)

    def pile(self) -> list:
        """The pile's cards as codes in card-index order."""
        return [CARDS[c].code for c in self.pile_cards()]

    def scores(self) -> list:
        return list(self._scores)

    def grid_full(self) -> bool:
        return _full(self._game, self._grid)

    def lost(self) -> bool:
        """Solitaire only: the hand ran out before the grid was full."""
        return self._game.solitaire and self._phase == "end" and not self.grid_full()

    @property
    def round_number(self) -> int:
        return self._round

    @property
    def is_terminal(self) -> bool:
        return self._phase == "end"

    @property
    def is_chance(self) -> bool:
        return self._phase in ("deal", "draw")

    @property
    def current_player(self) -> int:
        if self._phase == "end":
            return TERMINAL
        if self.is_chance:
            return CHANCE
        return self._player

    def _deal_slot(self):
        """Where the next card of the deal goes: ("cell", index) or ("hand", player); None once
        everything is dealt. Start cells first, in increasing order, then the hands, beginning
        with the player who moves first, each hand in full."""
        g = self._game
        for cell in g.start_cells:
            if self._grid[cell] is None:
                return ("cell", cell)
        first = g.first_player(self._round)
        for k in range(g.players):
            player = (first + k) % g.players
            if len(self._hands[player]) < g.hand_size:
                return ("hand", player)
        return None

    # ---- actions ----

    def legal_actions(self) -> list:
        """The legal actions, ascending; at a chance node its outcomes (a card from the pile)."""
        g = self._game
        if self._phase == "end":
            return []
        if self.is_chance:
            return [g.chance_base + c for c in self.pile_cards()]
        free = [x for x in range(g.cells) if _may_place(g, self._grid, x)]
        return sorted(c * g.cells + x for c in self._hands[self._player] for x in free)

    def _is_legal(self, action: int) -> bool:
        """``action in self.legal_actions()``, without listing them all."""
        g = self._game
        if self._phase == "end" or not 0 <= action < g.num_actions:
            return False
        if self.is_chance:
            return action >= g.chance_base and action - g.chance_base in self.pile_cards()
        card, cell = divmod(action, g.cells)
        return card in self._hands[self._player] and _may_place(g, self._grid, cell)

    def play(self, action) -> "QuincunxState":
        """The state after a legal action; IllegalMoveError otherwise."""
        action = self._check_legal(action)
        g = self._game
        grid = list(self._grid)
        hands = [set(h) for h in self._hands]
        scores = list(self._scores)

        if self._phase == "deal":
            card = action - g.chance_base
            kind, where = self._deal_slot()
            if kind == "cell":
                grid[where] = card
            else:
                hands[where].add(card)
            after = QuincunxState(g, grid, hands, scores, "deal", 0, 0, self._round)
            if after._deal_slot() is None:  # everything dealt: the first player places
                return QuincunxState(g, grid, hands, scores, "place",
                                     g.first_player(self._round), 0, self._round)
            return after

        if self._phase == "draw":
            player = self._player
            hands[player].add(action - g.chance_base)
            pending = self._pending - 1
            if pending > 0:
                return QuincunxState(g, grid, hands, scores, "draw", player, pending, self._round)
            return _after_turn(g, grid, hands, scores, player, self._round)

        # A placement.
        player = self._player
        card, cell = divmod(action, g.cells)
        placement = _score(self._grid, g.side, not g.solitaire, card, cell)
        scores[player] += placement.points
        grid[cell] = card
        hands[player].remove(card)
        # One draw per 11 or 20; drawing from an empty pile does nothing.
        pile_size = len(g.deck) - sum(c is not None for c in grid) - sum(len(h) for h in hands)
        pending = min(placement.draws, pile_size)
        if pending > 0:
            return QuincunxState(g, grid, hands, scores, "draw", player, pending, self._round)
        return _after_turn(g, grid, hands, scores, player, self._round)

    def returns(self) -> list:
        """Each player's points so far (at the end: the final totals, hand penalties included);
        a lost solitaire game returns ``LOST_RETURN``."""
        if self.lost():
            return [float(LOST_RETURN)]
        return [float(s) for s in self._scores]

    def action_to_string(self, action) -> str:
        """``"2MK c3"`` for a placement, ``"deal 2MK"`` / ``"draw 2MK"`` at a chance node."""
        return self._action_string(self._check_legal(action))

    def _action_string(self, action: int) -> str:
        g = self._game
        if action >= g.chance_base:
            verb = "deal" if self._phase == "deal" else "draw"
            return f"{verb} {CARDS[action - g.chance_base].code}"
        card, cell = divmod(action, g.cells)
        return f"{CARDS[card].code} {cell_name(cell, g.side)}"

    # ---- text ----

    def _turn_field(self) -> str:
        if self._phase == "deal":
            return "deal"
        if self._phase == "end":
            return "end"
        if self._phase == "draw":
            return f"{self._player}+{self._pending}"
        return str(self._player)

    def notation(self) -> str:
        """``<grid> <hands> <pile> <scores> <turn> <round>``: rows joined by '/', cells by ',',
        '.' for an empty cell; hands joined by '|', each in card-index order, '-' if empty; the
        pile likewise ('-' if empty); the scores; ``deal``, ``<p>``, ``<p>+<k>`` (k draws
        pending) or ``end``; ``<round>/<rounds>``, 1-based."""
        g = self._game
        hands = "|".join(_codes(sorted(h)) for h in self._hands)
        scores = ",".join(str(s) for s in self._scores)
        return (f"{_grid_field(self._grid, g.side)} {hands} {_codes(self.pile_cards())} {scores} "
                f"{self._turn_field()} {self._round + 1}/{g.rounds}")

    def observation_string(self, player: int) -> str:
        """What ``player`` knows: ``<grid> <own hand> <hand sizes> <pile size> <scores> <turn>
        <round>`` (hand sizes of every player joined by '|'; own hand as in the notation)."""
        g = self._game
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < g.players:
            raise ValueError(f"{NAME}: no player {player!r}")
        sizes = "|".join(str(len(h)) for h in self._hands)
        scores = ",".join(str(s) for s in self._scores)
        return (f"{_grid_field(self._grid, g.side)} {_codes(sorted(self._hands[player]))} "
                f"{sizes} {len(self.pile_cards())} {scores} {self._turn_field()} "
                f"{self._round + 1}/{g.rounds}")

    def __str__(self) -> str:
        g = self._game
        lines = ["    " + "".join(f"{c:<5}" for c in LETTERS[:g.side])]
        for r in range(g.side):
            cells = self._grid[r * g.side:(r + 1) * g.side]
            lines.append(f"{r + 1:>2}  " + "".join(
                f"{'.' if c is None else CARDS[c].code:<5}" for c in cells).rstrip())
        for p in range(g.players):
            lines.append(f"player {p}: {' '.join(self.hand(p)) or '-'}  ({self._scores[p]} points)")
        lines.append(f"pile: {len(self.pile_cards())} cards; turn {self._turn_field()}; "
                     f"round {self._round + 1}/{g.rounds}")
        return "\n".join(lines)


def _full(g: QuincunxGame, grid) -> bool:
    """The round is over: every cell holds a card (book setup: 25 cards, a full 5x5 square)."""
    return sum(c is not None for c in grid) == g.grid_size


def _fits_square(positions) -> bool:
    """These (row, col) positions fit in a 5x5 square."""
    rows = [r for r, _ in positions]
    cols = [c for _, c in positions]
    return max(rows) - min(rows) < BOOK_SQUARE and max(cols) - min(cols) < BOOK_SQUARE


def _may_place(g: QuincunxGame, grid, cell: int) -> bool:
    """A card may go on ``cell``: it is empty and, with the book setup, it touches a placed card
    edge to edge and the placed cards and it fit in a 5x5 square."""
    if grid[cell] is not None:
        return False
    if not g.book:
        return True
    row, col = divmod(cell, g.side)
    touches = any(
        0 <= row + dr < g.side and 0 <= col + dc < g.side
        and grid[(row + dr) * g.side + col + dc] is not None
        for dr, dc in ORTHOGONAL
    )
    placed = [divmod(x, g.side) for x in range(g.cells) if grid[x] is not None]
    return touches and _fits_square(placed + [(row, col)])


def _book_grid_problem(g: QuincunxGame, grid):
    """Why ``grid`` cannot be a book grid (None if it can): the cards grow from the start card
    in the middle, each placed edge to edge with an earlier one, within a 5x5 square."""
    placed = {divmod(x, g.side) for x in range(g.cells) if grid[x] is not None}
    if not placed:
        return None
    middle = divmod(g.start_cells[0], g.side)
    if middle not in placed:
        return f"the start card's cell {cell_name(g.start_cells[0], g.side)} is empty"
    if not _fits_square(placed):
        return "the placed cards do not fit in a 5x5 square"
    seen, todo = {middle}, [middle]
    while todo:
        r, c = todo.pop()
        for dr, dc in ORTHOGONAL:
            if (r + dr, c + dc) in placed and (r + dr, c + dc) not in seen:
                seen.add((r + dr, c + dc))
                todo.append((r + dr, c + dc))
    if seen != placed:
        return "a placed card is not connected edge to edge with the start card"
    return None


def _codes(cards) -> str:
    return ",".join(CARDS[c].code for c in cards) or "-"


def _grid_field(grid, side: int) -> str:
    return "/".join(
        ",".join("." if c is None else CARDS[c].code for c in grid[r * side:(r + 1) * side])
        for r in range(side)
    )


def _after_turn(g: QuincunxGame, grid, hands, scores, player: int, round_number: int):
    """The state once a placement and its draws are done: the round ends when the grid is full
    (every player loses their hand penalty; in a match the next round is dealt); a solitaire
    player with an empty hand has lost; otherwise the next player clockwise who holds cards
    places (players with an empty hand pass)."""
    if _full(g, grid):
        for p in range(g.players):
            scores[p] -= sum(hand_penalty(c) for c in hands[p])
        if round_number + 1 < g.rounds:
            return QuincunxState(g, (None,) * g.cells, (frozenset(),) * g.players, scores,
                                 "deal", 0, 0, round_number + 1)
        return QuincunxState(g, grid, hands, scores, "end", 0, 0, round_number)
    for k in range(1, g.players + 1):
        following = (player + k) % g.players
        if hands[following]:
            return QuincunxState(g, grid, hands, scores, "place", following, 0, round_number)
    # Nobody holds a card and the grid is not full: only in solitaire (with 2-4 players the
    # hands always cover the empty cells), and the solitaire is lost.
    assert g.solitaire
    return QuincunxState(g, grid, hands, scores, "end", 0, 0, round_number)


def _parse_notation(g: QuincunxGame, text) -> QuincunxState:
    def bad(what: str):
        return InvalidNotationError(f"{NAME}: {what} in notation {text!r}")

    def read_codes(field: str, what: str) -> list:
        if field == "-":
            return []
        cards = []
        for code in field.split(","):
            if code not in BY_CODE:
                raise bad(f"unknown card code {code!r} in {what}")
            cards.append(BY_CODE[code])
        if cards != sorted(set(cards)):
            raise bad(f"{what} must list distinct cards in card-index order")
        return cards

    def read_int(field: str, what: str) -> int:
        digits = field[1:] if field.startswith("-") else field
        if not digits.isdigit() or not digits.isascii():
            raise bad(f"{what} must be an integer, not {field!r}")
        return int(field)

    if not isinstance(text, str):
        raise InvalidNotationError(f"{NAME}: notation must be a str, not {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) != 6:
        raise bad("expected six fields '<grid> <hands> <pile> <scores> <turn> <round>'")
    grid_field, hands_field, pile_field, scores_field, turn_field, round_field = fields

    # The grid.
    rows = grid_field.split("/")
    if len(rows) != g.side:
        raise bad(f"the grid needs {g.side} rows separated by '/'")
    grid: list[int | None] = []
    for row in rows:
        entries = row.split(",")
        if len(entries) != g.side:
            raise bad(f"each row needs {g.side} cells separated by ','")
        for entry in entries:
            if entry == ".":
                grid.append(None)
            elif entry in BY_CODE:
                grid.append(BY_CODE[entry])
            else:
                raise bad(f"unknown card code {entry!r} on the grid")

    # Hands, pile: every card of the deck exactly once among grid, hands and pile.
    hand_fields = hands_field.split("|")
    if len(hand_fields) != g.players:
        raise bad(f"expected {g.players} hands separated by '|'")
    hands = [read_codes(h, f"player {p}'s hand") for p, h in enumerate(hand_fields)]
    pile = read_codes(pile_field, "the pile")
    everything = [c for c in grid if c is not None] + [c for h in hands for c in h] + pile
    if len(everything) != len(set(everything)):
        raise bad("a card appears twice")
    if set(everything) != g.deck:
        missing = sorted(g.deck - set(everything))
        if missing:
            raise bad(f"cards missing: {_codes(missing)}")
        raise bad("the Excuse is not in this game's deck (option excuse=False)")

    # Scores.
    score_fields = scores_field.split(",")
    if len(score_fields) != g.players:
        raise bad(f"expected {g.players} scores separated by ','")
    scores = [read_int(s, "a score") for s in score_fields]

    # Round.
    parts = round_field.split("/")
    if len(parts) != 2 or not all(p.isdigit() and p.isascii() for p in parts):
        raise bad("the round must be written '<round>/<rounds>'")
    round_number, rounds = int(parts[0]) - 1, int(parts[1])
    if rounds != g.rounds:
        raise bad(f"this game has {g.rounds} round(s), not {rounds}")
    if not 0 <= round_number < rounds:
        raise bad(f"round {parts[0]} out of 1..{rounds}")

    if g.book:
        problem = _book_grid_problem(g, grid)
        if problem:
            raise bad(problem)
    full = _full(g, grid)
    starts_filled = all(grid[c] is not None for c in g.start_cells)
    hand_sets = [frozenset(h) for h in hands]

    # The turn.
    if turn_field == "deal":
        # What is dealt must be a beginning of the deal order: the start cells in increasing
        # order, then each hand in full, from the player who moves first on.
        if any(grid[x] is not None for x in range(g.cells) if x not in g.start_cells):
            raise bad("during the deal only start cells hold cards")
        filled = [grid[x] is not None for x in g.start_cells]
        if filled != sorted(filled, reverse=True):
            raise bad("the start cells are dealt in increasing cell order")
        first = g.first_player(round_number)
        sizes = [len(hands[(first + k) % g.players]) for k in range(g.players)]
        if any(sizes) and not all(filled):
            raise bad("the hands are dealt after the start cells")
        for k, size in enumerate(sizes):
            if size > g.hand_size:
                raise bad(f"a hand of {size} cards during the deal (hands have {g.hand_size})")
            if k > 0 and size > 0 and sizes[k - 1] < g.hand_size:
                raise bad("each hand is dealt in full before the next player's")
        if all(filled) and sizes == [g.hand_size] * g.players:
            raise bad("the deal is complete: the turn field must name the player to move")
        return QuincunxState(g, grid, hand_sets, scores, "deal", 0, 0, round_number)
    if turn_field == "end":
        if round_number != rounds - 1:
            raise bad("the game ends only in its last round")
        if not full and not (g.solitaire and not hands[0]):
            raise bad("a finished game has a full grid (or, in solitaire, an empty hand)")
        return QuincunxState(g, grid, hand_sets, scores, "end", 0, 0, round_number)

    player_text, plus, pending_text = turn_field.partition("+")
    if not (player_text.isdigit() and player_text.isascii()) or int(player_text) >= g.players:
        raise bad(f"the turn must be 'deal', 'end', '<player>' or '<player>+<draws>', "
                  f"not {turn_field!r}")
    player = int(player_text)
    if not starts_filled:
        raise bad("the start cells are filled once the deal is over")
    empty_cells = g.grid_size - sum(c is not None for c in grid)
    if not g.solitaire and sum(len(h) for h in hands) < empty_cells:
        # With 2-4 players the deal gives at least as many cards as there are empty cells, and a
        # placement takes one card and fills one cell: the hands always cover the empty cells.
        raise bad(f"the hands hold fewer cards than the {empty_cells} empty cells")
    if plus:
        if not (pending_text.isdigit() and pending_text.isascii()) or int(pending_text) < 1:
            raise bad(f"pending draws must be a positive number, not {pending_text!r}")
        pending = int(pending_text)
        if pending > len(pile):
            raise bad(f"{pending} draws pending but only {len(pile)} cards in the pile")
        if pending > 4:
            raise bad("a placement has at most four neighbours, hence at most four draws")
        return QuincunxState(g, grid, hand_sets, scores, "draw", player, pending, round_number)
    if full:
        raise bad("the grid is full: the round is over")
    if not hands[player]:
        raise bad(f"player {player} has no card to place")
    return QuincunxState(g, grid, hand_sets, scores, "place", player, 0, round_number)


def game(**options) -> QuincunxGame:
    """The reference game with ``options`` (the same names and values as ``quanta.game``)."""
    return QuincunxGame(**options)
