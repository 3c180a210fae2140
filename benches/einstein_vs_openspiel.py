"""EinStein würfelt nicht: quanta's players against OpenSpiel's C++ MCTSBot on OpenSpiel's game.

    python benches/einstein_vs_openspiel.py --games 400 --seconds 0.1 --player best_move
    python benches/einstein_vs_openspiel.py --calibrate 200     # OpenSpiel's simulations/s

Each game is played on two states kept at the same position: OpenSpiel's
``einstein_wurfelt_nicht`` and quanta's ``einstein`` with ``setup="random"``, ``first=1``
(OpenSpiel's player 1, who starts bottom right, moves first). Every action, the chance outcomes
included, is drawn or chosen on one side and translated to the other (:class:`Lockstep`), and
after each step the positions are compared: the board, whose turn it is (or that chance acts),
the roll and its legal moves, the end and the winner. The rule sets agree once ``first=1`` is
set; OpenSpiel writes player 1's arrangement in the reverse order of quanta's start cells, which
the translation turns round (docs/rules/einstein.md, *The same game elsewhere*).

The chance outcomes are drawn with a ``random.Random`` seeded by ``--seed`` and the game's
number, so each quanta player meets the same setups and rolls as far as the moves agree. Seats
rotate: in even games quanta is player 1 and moves first, in odd games it is player 0.

OpenSpiel's side is ``pyspiel.MCTSBot`` (C++) with ``RandomRolloutEvaluator(1, seed)``,
``uct_c`` 2 and the MCTS-solver on (one rollout, ``uct_c`` and the solver as OpenSpiel's MCTS
example sets them), ``max_memory_mb`` 1000, stopped by its wall-clock limit ``--seconds`` (``max_simulations`` a million; or a
fixed count with ``--simulations``). A fresh bot per game, seeded with the game's number.
``--calibrate N`` times N moves of the bot at ``--simulations`` (default 1,000) in positions
from random play and prints the simulations per second, and how many fit in ``--seconds``.

quanta's players (``--player``, repeatable), each given ``--seconds`` a move (or
``--quanta-seconds``, to see what more time is worth):

* ``best_move``: ``quanta.einstein.best_move(state, seed=, timeout=, threads=1)``, the exact
  solver with at most three stones a side, a one-roll heuristic before;
* ``mcts``: ``quanta.bots.MCTS(time=, seed=)``, UCT with random rollouts;
* ``mcts_solver``: the same with ``solver_nodes=--solver-nodes``;
* ``best_action``: ``quanta.einstein.best_action(state, seed=, timeout=, threads=1)``,
  EinStein's strongest player (the solver in endgames, an expectimax with the race estimate
  before).

Every quanta player searches on one thread, as OpenSpiel's bot does.

It prints one markdown row per player: games, quanta's wins, its share with the 95 % Wilson
interval, and each side's mean seconds per move (the moves it chose, forced ones included).
OpenSpiel (``pip install open_spiel``) is needed.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time

import numpy as np

import quanta
from quanta import bots
from quanta.arenas import wilson

try:
    import pyspiel
except ImportError:  # OpenSpiel is not a dependency of quanta
    pyspiel = None

#: Both libraries number the arrangements of 1..6 in lexicographic order.
ARRANGEMENTS = list(itertools.permutations(range(1, 7)))
ARRANGEMENT_NUMBER = {arrangement: k for k, arrangement in enumerate(ARRANGEMENTS)}
#: quanta's first roll and first arrangement action (docs/rules/einstein.md, *Actions*).
ROLL_1 = 75
ARRANGEMENT_0 = 81
#: OpenSpiel's move: ((row * 5 + col) * 6 + direction) * 2 + capture, a direction being the
#: step (rows, cols): player 0's first three, player 1's last three.
OPENSPIEL_STEPS = [(1, 1), (1, 0), (0, 1), (-1, 0), (-1, -1), (0, -1)]


def openspiel_move(action: int) -> tuple[int, int]:
    """An OpenSpiel move as (from cell, to cell), cells numbered row * 5 + col."""
    cell, direction = divmod(action // 2, 6)
    rows, cols = OPENSPIEL_STEPS[direction]
    return cell, cell + rows * 5 + cols


def quanta_move(state, action: int) -> tuple[int, int]:
    """A quanta move as (from cell, to cell), read from its name (e.g. ``a2b3``)."""
    name = state.action_to_string(action)
    return tuple((int(name[i + 1]) - 1) * 5 + "abcde".index(name[i]) for i in (0, 2))


def openspiel_board(state) -> np.ndarray:
    """OpenSpiel's board as quanta's ``board()`` gives it: player 0's stones +1..+6, player
    1's -1..-6 (OpenSpiel's black and white), empty 0."""
    board = np.zeros((5, 5), dtype=np.int8)
    for row, line in enumerate(str(state).split()):
        for col, cell in enumerate(line[1:-1].split("||")):
            if cell != "__":
                board[row, col] = int(cell[1]) * (1 if cell[0] == "b" else -1)
    return board


class Lockstep:
    """OpenSpiel's state and quanta's at the same position, moved by actions of either."""

    def __init__(self, openspiel_game, quanta_game):
        self.openspiel = openspiel_game.new_initial_state()
        self.quanta = quanta_game.new_state()
        self.die = None  # the last roll
        self.check()

    def chance_to_quanta(self, action: int) -> int:
        """quanta's chance outcome for OpenSpiel's ``action``: an arrangement (player 1's cells
        are listed in the reverse order) or a roll."""
        view = self.quanta.view()
        if view["phase"] == "setup":
            arrangement = ARRANGEMENTS[action]
            if view["player"] == 1:
                arrangement = arrangement[::-1]
            return ARRANGEMENT_0 + ARRANGEMENT_NUMBER[arrangement]
        return ROLL_1 + action

    def moves(self) -> dict[tuple[int, int], tuple[int, int]]:
        """The legal moves, (from, to) -> (OpenSpiel action, quanta action); both libraries
        must list the same steps."""
        theirs = {openspiel_move(a): a for a in self.openspiel.legal_actions()}
        ours = {quanta_move(self.quanta, a): a for a in self.quanta.legal_actions()}
        assert theirs.keys() == ours.keys(), (self.describe(), sorted(theirs), sorted(ours))
        return {step: (theirs[step], ours[step]) for step in ours}

    def play_openspiel(self, action: int) -> None:
        """Plays OpenSpiel's ``action`` (a chance outcome or a move) on both states."""
        if self.openspiel.is_chance_node():
            ours = self.chance_to_quanta(action)
            if self.quanta.view()["phase"] != "setup":
                self.die = action + 1
        else:
            ours = self.moves()[openspiel_move(action)][1]
        self.step(action, ours)

    def play_quanta(self, action: int) -> None:
        """Plays quanta's move ``action`` on both states."""
        self.step(self.moves()[quanta_move(self.quanta, action)][0], action)

    def step(self, theirs: int, ours: int) -> None:
        self.openspiel.apply_action(theirs)
        self.quanta = self.quanta.play(ours)
        self.check()

    def check(self) -> None:
        """Asserts that the two states show the same position."""
        o, q = self.openspiel, self.quanta
        view = q.view()
        assert np.array_equal(openspiel_board(o), q.board()), self.describe()
        assert o.is_terminal() == q.is_terminal, self.describe()
        if o.is_terminal():
            assert list(o.returns()) == list(q.returns()), self.describe()
            return
        assert o.is_chance_node() == q.is_chance, self.describe()
        if not o.is_chance_node():
            assert view["phase"] == "move", self.describe()
            assert o.current_player() == view["player"], self.describe()
            assert view["die"] == self.die, self.describe()
            self.moves()  # the roll lets the same stones make the same steps

    def describe(self) -> str:
        return f"OpenSpiel:\n{self.openspiel}quanta: {self.quanta.notation()}"


def quanta_player(name: str, seconds: float, solver_nodes: int):
    """``choose(state, seed) -> action`` of the quanta player ``name``."""
    if name == "best_move":
        return lambda state, seed: quanta.einstein.best_move(state, seed=seed, timeout=seconds,
                                                            threads=1)
    if name == "best_action":
        return lambda state, seed: quanta.einstein.best_action(state, seed=seed,
                                                              timeout=seconds, threads=1)
    if name == "mcts":
        return lambda state, seed: bots.MCTS(time=seconds, seed=seed).choose(state)
    if name == "mcts_solver":
        return lambda state, seed: bots.MCTS(time=seconds, seed=seed,
                                             solver_nodes=solver_nodes).choose(state)
    raise SystemExit(f"unknown player {name!r}")


def openspiel_bot(game, seed: int, seconds: float | None, simulations: int | None):
    """OpenSpiel's C++ MCTSBot with random rollouts, stopped by the clock or a count."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    if simulations is None:
        return pyspiel.MCTSBot(game, evaluator, 2.0, 1_000_000, 1000, True, seed, False,
                               pyspiel.ChildSelectionPolicy.UCT, seconds)
    return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)


def play_game(number: int, choose, args, openspiel_game, quanta_game) -> dict:
    """Game ``number``: quanta's ``choose`` against OpenSpiel's bot; quanta is player 1 (who
    moves first) in even games, player 0 in odd ones."""
    seat = 1 - number % 2
    rng = random.Random(args.seed * 1_000_003 + number)
    bot = openspiel_bot(openspiel_game, number, args.seconds, args.simulations)
    game = Lockstep(openspiel_game, quanta_game)
    clock = {"quanta": 0.0, "openspiel": 0.0}
    moves = {"quanta": 0, "openspiel": 0}
    while not game.openspiel.is_terminal():
        if game.openspiel.is_chance_node():
            actions, odds = zip(*game.openspiel.chance_outcomes())
            game.play_openspiel(rng.choices(actions, odds)[0])
            continue
        side = "quanta" if game.openspiel.current_player() == seat else "openspiel"
        start = time.perf_counter()
        if side == "quanta":
            action = choose(game.quanta, number * 1000 + moves[side])
        else:
            action = bot.step(game.openspiel)
        clock[side] += time.perf_counter() - start
        moves[side] += 1
        if side == "quanta":
            game.play_quanta(action)
        else:
            game.play_openspiel(action)
    return {"won": game.quanta.returns()[seat] > 0, "clock": clock, "moves": moves}


def calibrate(args, openspiel_game) -> None:
    """Times ``--calibrate`` moves of the bot at a fixed simulation count, in positions from
    random play (every fifth decision of random games)."""
    simulations = args.simulations or 1000
    rng = random.Random(args.seed)
    seconds = steps = 0.0
    bot_seed = 0
    while steps < args.calibrate:
        state = openspiel_game.new_initial_state()
        decision = 0
        while not state.is_terminal() and steps < args.calibrate:
            if state.is_chance_node():
                actions, odds = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, odds)[0])
                continue
            decision += 1
            if decision % 5 == 0 and len(state.legal_actions()) > 1:
                bot_seed += 1
                bot = openspiel_bot(openspiel_game, bot_seed, None, simulations)
                start = time.perf_counter()
                bot.step(state)
                seconds += time.perf_counter() - start
                steps += 1
            state.apply_action(rng.choice(state.legal_actions()))
    rate = simulations * steps / seconds
    print(f"OpenSpiel MCTSBot, {simulations:,} simulations a move, {int(steps)} moves with a "
          f"choice: {seconds / steps:.4f} s a move, {rate:,.0f} simulations/s, "
          f"{rate * args.seconds:,.0f} simulations in {args.seconds} s")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=0.1, help="each side's time a move")
    parser.add_argument("--quanta-seconds", type=float, default=None,
                        help="quanta's time a move, if not --seconds")
    parser.add_argument("--player", action="append", choices=["best_move", "best_action",
                                                              "mcts", "mcts_solver"])
    parser.add_argument("--solver-nodes", type=int, default=1000)
    parser.add_argument("--simulations", type=int, default=None,
                        help="OpenSpiel's simulations a move instead of its clock")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--calibrate", type=int, default=0, metavar="MOVES")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="print the running score every N games (to stderr)")
    args = parser.parse_args(argv)
    if pyspiel is None:
        raise SystemExit("this benchmark needs OpenSpiel: pip install open_spiel")
    openspiel_game = pyspiel.load_game("einstein_wurfelt_nicht")
    if args.calibrate:
        calibrate(args, openspiel_game)
        return
    quanta_game = quanta.game("einstein", setup="random", first=1)
    opponent = (f"MCTSBot({args.simulations} simulations)" if args.simulations
                else f"MCTSBot({args.seconds} s)")
    print("| quanta player | opponent | games | quanta wins | share | 95 % interval | "
          "quanta s/move | OpenSpiel s/move |")
    print("|---|---|---:|---:|---:|---|---:|---:|")
    for name in args.player or ["best_move"]:
        choose = quanta_player(name, args.quanta_seconds or args.seconds, args.solver_nodes)
        wins = 0
        clock = {"quanta": 0.0, "openspiel": 0.0}
        moves = {"quanta": 0, "openspiel": 0}
        for number in range(args.games):
            result = play_game(number, choose, args, openspiel_game, quanta_game)
            wins += result["won"]
            for side in clock:
                clock[side] += result["clock"][side]
                moves[side] += result["moves"][side]
            if args.progress and (number + 1) % args.progress == 0:
                print(f"{name}: {wins}/{number + 1}", file=sys.stderr, flush=True)
        lo, hi = wilson(wins, args.games)
        label = f"{name}(solver_nodes={args.solver_nodes})" if name == "mcts_solver" else name
        print(f"| {label} | {opponent} | {args.games} | {wins} | {wins / args.games:.1%} | "
              f"{lo:.1%}-{hi:.1%} | {clock['quanta'] / moves['quanta']:.4f} | "
              f"{clock['openspiel'] / moves['openspiel']:.4f} |", flush=True)


if __name__ == "__main__":
    main()
