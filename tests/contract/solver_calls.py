"""Every game's own solver functions (the rich extras beside ``quanta.solve``), each on a
position it cannot decide in one node, for the limit tests of test_bad_input.py and
test_undecided.py. The registered solvers need no list: those tests take them from
``quanta.solvers.SOLVERS``. ``test_every_solver_function_of_a_game_is_listed`` (in
test_undecided.py) fails when a game's module gains a function with search limits that is not
here."""

from __future__ import annotations

import importlib
import inspect
import random

import quanta
from quanta import NotApplicableError, SearchLimitError
from quanta import a_quantum_leap as aql
from quanta import einstein as ein
from quanta import einstein_card as ec
from quanta import quantum_leap as ql
from quanta import quincunx as qx
from quanta import repair_unit as ru

from helpers import random_step

LIMITS = ("timeout", "max_nodes", "memory_mb", "threads")


def reached(game, wanted, seed: int = 0):
    """The first decision state of random play from ``game``'s start (seeded) for which
    ``wanted`` holds."""
    rng = random.Random(seed)
    while True:
        s = game.new_state()
        while not s.is_terminal:
            if not s.is_chance and wanted(s):
                return s
            s = random_step(s, rng)


def applies(solver):
    """Whether ``solver`` applies to a state (its limits aside)."""
    def wanted(s) -> bool:
        try:
            solver(s, max_nodes=0)
        except NotApplicableError:
            return False
        except SearchLimitError:
            pass
        return True
    return wanted


def dealt(game):
    """``game``'s start with every chance outcome the first one."""
    s = game.new_state()
    while s.is_chance:
        s = s.play(s.legal_actions()[0])
    return s


# ---- positions that need real search ----

#: EinStein, four stones a side, player 1 to roll: millions of positions.
EINSTEIN = quanta.game("einstein").from_notation("..32./....d/e.6.c/...f./...5. 1 -")
EINSTEIN_ROLLED = EINSTEIN.play(EINSTEIN.parse_action("roll 1"))
EINSTEIN_CARD = reached(quanta.game("einstein_card", open_hands=True), applies(ec.solve))
QUANTUM_LEAP = reached(quanta.game("quantum_leap", size=5, setup="B"), lambda s: True)
#: A random deal (dealt lowest first, no line fills the grid, which the fill search sees at
#: once), and a shuffled draw order.
SOLITAIRE = reached(quanta.game("quincunx", players=1), lambda s: True)
PILE = random.Random(1).sample(SOLITAIRE.pile(), len(SOLITAIRE.pile()))
REPAIR = dealt(quanta.game("repair_unit"))
AQL = quanta.game("a_quantum_leap", players=4)
AQL_PLAY = reached(AQL, lambda s: applies(aql.best_turn)(s) and len(aql.hand(s, s.current_player)) >= 8)
AQL_HIGGS = reached(AQL, applies(aql.best_higgs))

#: The solvers: past their limits they raise SearchLimitError.
SOLVERS = {
    "a_quantum_leap.best_higgs": lambda **kw: aql.best_higgs(AQL_HIGGS, **kw),
    "a_quantum_leap.best_turn": lambda **kw: aql.best_turn(AQL_PLAY, **kw),
    "einstein.analyze": lambda **kw: ein.analyze(EINSTEIN, **kw),
    "einstein.solve": lambda **kw: ein.solve(EINSTEIN, **kw),
    "einstein_card.analyze": lambda **kw: ec.analyze(EINSTEIN_CARD, **kw),
    "einstein_card.solve": lambda **kw: ec.solve(EINSTEIN_CARD, **kw),
    "quantum_leap.analyze": lambda **kw: ql.analyze(QUANTUM_LEAP, **kw),
    "quantum_leap.solve": lambda **kw: ql.solve(QUANTUM_LEAP, **kw),
    "quincunx.best_move": lambda **kw: qx.best_move(SOLITAIRE, samples=2, **kw),
    "quincunx.fill_open": lambda **kw: qx.fill_open(SOLITAIRE, PILE, **kw),
    "quincunx.solve_expected": lambda **kw: qx.solve_expected(SOLITAIRE, **kw),
    "quincunx.solve_open": lambda **kw: qx.solve_open(SOLITAIRE, PILE, **kw),
    "repair_unit.solve_open": lambda **kw: ru.solve_open(REPAIR, REPAIR.unseen(), **kw),
}
#: The bots: they always move, the solver's answer used only when it came within the limits.
BOTS = {
    "einstein.best_action": lambda **kw: ein.best_action(EINSTEIN_ROLLED, **kw),
    "einstein.best_move": lambda **kw: ein.best_move(EINSTEIN_ROLLED, solver_stones=6, **kw),
    "repair_unit.policy": lambda **kw: ru.policy(REPAIR, **kw),
}
#: Estimates and batches: a sample or deal past the limits is left out or masked, not raised.
BATCHES = {
    "a_quantum_leap.play_batch": lambda **kw: aql.play_batch("best_turn", 2, 1, **kw),
    "quincunx.fill_open_batch": lambda **kw: qx.fill_open_batch(0, 1, **kw),
    "quincunx.solve_open_batch": lambda **kw: qx.solve_open_batch(0, 1, **kw),
    "repair_unit.open_batch": lambda **kw: ru.open_batch(1, 1, **kw),
    "repair_unit.play_batch": lambda **kw: ru.play_batch(1, "policy", 1, **kw),
    "repair_unit.win_probability": lambda **kw: ru.win_probability(REPAIR, samples=1, **kw),
}
ALL = {**SOLVERS, **BOTS, **BATCHES}
def functions_with_limits() -> dict[str, tuple[str, ...]]:
    """Every public function of every registered game's module that takes a search limit (a node
    or time limit), with the limits of :data:`LIMITS` it takes."""
    found = {}
    for name in quanta.GAMES:
        module = importlib.import_module(f"quanta.{name}")
        for attr in dir(module):
            f = getattr(module, attr)
            if attr.startswith("_") or isinstance(f, type) or not inspect.isfunction(f):
                continue
            parameters = inspect.signature(f).parameters
            if "max_nodes" in parameters or "timeout" in parameters:
                found[f"{name}.{attr}"] = tuple(p for p in LIMITS if p in parameters)
    return found
