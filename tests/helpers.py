"""Small helpers shared by the test files."""

from __future__ import annotations

import random


def random_step(state, rng: random.Random):
    """The state after one uniformly random action, or a chance outcome drawn by its odds.
    Works for Rust states and reference states alike."""
    if state.is_chance:
        actions, weights = zip(*state.chance_outcomes())
        return state.play(rng.choices(actions, weights)[0])
    return state.play(rng.choice(state.legal_actions()))


def moves(state) -> list[str]:
    """The legal actions' strings, in action order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state, *texts: str):
    """The state after the actions written `texts`."""
    for t in texts:
        state = state.play(state.parse_action(t))
    return state
