"""quanta.batch.random_playouts: the contract, reproducibility, and agreement in distribution
with playouts of the pure-Python reference."""

from __future__ import annotations

import importlib
import random

import numpy as np
import pytest
from helpers import random_step

import quanta
from quanta.batch import random_playouts


@pytest.fixture(params=quanta.GAMES)
def game(request) -> quanta.Game:
    return quanta.game(request.param)


def test_arrays_have_the_contract_shapes_and_types(game):
    out = random_playouts(game, 500, seed=3)
    assert set(out) == {"returns", "length"}
    assert out["returns"].dtype == np.float64 and out["returns"].shape == (500, game.num_players)
    assert out["length"].dtype == np.int32 and out["length"].shape == (500,)
    assert (out["length"] >= 1).all()


def test_same_seed_same_arrays_at_any_thread_count(game):
    one = random_playouts(game, 5000, seed=11, threads=1)
    two = random_playouts(game, 5000, seed=11, threads=2)
    every = random_playouts(game, 5000, seed=11)
    for key in one:
        np.testing.assert_array_equal(one[key], two[key])
        np.testing.assert_array_equal(one[key], every[key])


def test_other_seeds_give_other_games(game):
    # Lengths alone may not tell (every two-player Quincunx game has 20 placements): compare
    # the returns too.
    a = random_playouts(game, 2000, seed=1)
    b = random_playouts(game, 2000, seed=2)
    assert not all(np.array_equal(a[key], b[key]) for key in ("length", "returns"))


def test_a_run_cut_in_pieces_equals_one_run(game):
    whole = random_playouts(game, 3000, seed=5)
    parts = [random_playouts(game, 1000, seed=5, first=f) for f in (0, 1000, 2000)]
    for key in whole:
        np.testing.assert_array_equal(whole[key], np.concatenate([p[key] for p in parts]))


def test_empty_batch_and_bad_arguments(game):
    out = random_playouts(game, 0)
    assert out["returns"].shape == (0, game.num_players) and out["length"].shape == (0,)
    for kwargs in [
        {"n": -1},
        {"n": 2**70},
        {"n": 10, "threads": 0},
        {"n": 10, "threads": 10**6},
        {"n": 10, "seed": -1},
        {"n": 10, "seed": 2**64},
    ]:
        with pytest.raises(ValueError):
            random_playouts(game, **kwargs)


def test_batch_playouts_match_reference_playouts_in_distribution(game):
    """Random games of the Rust batch and of the reference rules, played with independent
    generators, must agree in mean length and mean returns (5 standard errors)."""
    n_ref = 1500
    reference = importlib.import_module(f"quanta.reference.{game.name}").game(**game.options)
    rng = random.Random(2024)
    lengths, returns = [], []
    for _ in range(n_ref):
        s, plies = reference.new_state(), 0
        while not s.is_terminal:
            plies += not s.is_chance
            s = random_step(s, rng)
        lengths.append(plies)
        returns.append(s.returns())
    lengths, returns = np.array(lengths, float), np.array(returns)
    fast = random_playouts(game, 200_000, seed=9)
    for ours, theirs in [(fast["length"], lengths), *zip(fast["returns"].T, returns.T)]:
        error = np.sqrt(ours.var() / len(ours) + theirs.var() / len(theirs))
        assert abs(ours.mean() - theirs.mean()) < 5 * error + 1e-12
