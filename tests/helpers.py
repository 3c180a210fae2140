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
