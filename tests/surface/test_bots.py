"""quanta.bots and quanta.arena: every kind of bot acts legally at decisions of every registered
game, the same bot on the same state gives the same action, bots pickle, bad parameters are
refused once with a typed error, and the arena's results depend only on its inputs (not on the
threads), rotate the seats, and summarise consistently."""

from __future__ import annotations

import _thread
import pickle
import random
import threading
import time

import numpy as np
import pytest

import quanta
from quanta import analysis, bots
from quanta.arenas import wilson
from quanta.solvers import SOLVERS

from helpers import random_step

ALL_KINDS = [
    bots.Random(seed=5),
    bots.Greedy(seed=5),
    bots.MCTS(iterations=40, seed=5),
    bots.ISMCTS(iterations=40, seed=5),
    bots.Solver(max_nodes=20_000, timeout=30, seed=5),
]


def decisions(name: str, count: int, seed: int) -> list[quanta.State]:
    """Decisions of `name` reached by random play from the start (chance drawn by its odds)."""
    g = quanta.game(name)
    rng = random.Random(seed)
    found: list[quanta.State] = []
    while len(found) < count:
        s = g.new_state()
        for _ in range(rng.randrange(0, 40)):
            if s.is_terminal:
                break
            s = random_step(s, rng)
        while s.is_chance:
            s = random_step(s, rng)
        if not s.is_terminal:
            found.append(s)
    return found


@pytest.mark.parametrize("name", quanta.GAMES)
@pytest.mark.parametrize("bot", ALL_KINDS, ids=lambda b: b.kind)
def test_every_bot_chooses_a_legal_action_the_same_each_call(name, bot):
    for s in decisions(name, 4, seed=hash(bot.kind) % 1000):
        action = bot.choose(s)
        assert action in s.legal_actions()
        assert bot.choose(s) == action, "same bot, same state: same action"
        twin = pickle.loads(pickle.dumps(bot))
        assert twin == bot and twin.choose(s) == action


@pytest.mark.parametrize("name", quanta.GAMES)
def test_a_bot_refuses_a_chance_node_and_a_finished_game(name):
    g = quanta.game(name)
    rng = random.Random(3)
    s = g.new_state()
    while not s.is_terminal:
        if s.is_chance:
            with pytest.raises(quanta.NotApplicableError, match="chance node"):
                bots.Random().choose(s)
        s = random_step(s, rng)
    with pytest.raises(quanta.NotApplicableError, match="game is over"):
        bots.Greedy().choose(s)


def test_the_seed_matters_and_is_part_of_the_bot():
    s = decisions("quantum_leap", 1, seed=0)[0]
    chosen = {bots.Random(seed=k).choose(s) for k in range(40)}
    assert len(chosen) > 1, "different seeds explore different legal actions"
    assert bots.Random(seed=1) != bots.Random(seed=2)
    assert bots.MCTS(iterations=10) == bots.MCTS(iterations=10)
    assert bots.MCTS(iterations=10) != bots.ISMCTS(iterations=10)
    assert hash(bots.MCTS(iterations=10)) == hash(bots.MCTS(iterations=10))


def test_a_bot_shows_and_round_trips_its_parameters():
    b = bots.MCTS(iterations=100, timeout=2.5, seed=7, exploration=0.5, memory_mb=64)
    assert repr(b) == "MCTS(iterations=100, timeout=2.5, memory_mb=64, exploration=0.5, seed=7)"
    assert b.kind == "mcts" and b.seed == 7 and b.timed
    assert b.params == {"iterations": 100, "timeout": 2.5, "max_nodes": None, "memory_mb": 64,
                        "exploration": 0.5, "rollout": None, "solver_nodes": None}
    assert bots.make("mcts", seed=7, **b.params) == b
    assert pickle.loads(pickle.dumps(b)) == b
    assert repr(bots.Solver(timeout=1)) == "Solver(timeout=1.0, seed=0)"
    assert not bots.Greedy().timed


@pytest.mark.parametrize("make, message", [
    (lambda: bots.ISMCTS(iterations=0), "iterations must be a positive integer"),
    (lambda: bots.MCTS(iterations=2.5), "iterations must be a positive integer"),
    (lambda: bots.MCTS(timeout=-1), "timeout must be a number of seconds >= 0"),
    (lambda: bots.MCTS(timeout="1"), "timeout must be a number of seconds >= 0"),
    (lambda: bots.MCTS(max_nodes=-1), "max_nodes must be an integer >= 0"),
    (lambda: bots.MCTS(timeout=1, time=2), "give the time limit once"),
    (lambda: bots.Best(timeout=-1), "timeout must be"),
    (lambda: bots.MCTS(1, 2, 3), "at most 2 parameters by position"),
    (lambda: bots.MCTS(iterations=9, exploration=float("nan")), "exploration must be a finite"),
    (lambda: bots.MCTS(iterations=9, rollout="heavy"), "rollout must be one of"),
    (lambda: bots.MCTS(iterations=9, memory_mb=0), "memory_mb must be"),
    (lambda: bots.MCTS(iterations=9, solver_nodes=0), "solver_nodes must be a positive integer"),
    (lambda: bots.ISMCTS(iterations=9, solver_nodes="many"), "solver_nodes must be"),
    (lambda: bots.Solver(max_nodes=-1), "max_nodes must be"),
    (lambda: bots.Solver(timeout=-1), "timeout must be"),
    (lambda: bots.Random(seed=-1), "seed must be"),
    (lambda: bots.make("alphabeta"), "kind must be one of"),
    (lambda: bots.make("greedy", depth=2), "takes no parameter but seed"),
    (lambda: bots.make("mcts", iterations=5, depth=2), "takes the parameters"),
])
def test_bad_parameters_are_refused_when_the_bot_is_made(make, message):
    with pytest.raises(quanta.InvalidOptionError, match=message):
        make()


@pytest.mark.parametrize("name", quanta.GAMES)
def test_arena_results_do_not_depend_on_the_threads(name):
    players = [bots.MCTS(iterations=20, seed=1), bots.Random(seed=2), bots.Greedy(seed=3)]
    one = quanta.arena(name, players, 6, seed=11, threads=1)
    two = quanta.arena(name, players, 6, seed=11, threads=2)
    assert np.array_equal(one.returns, two.returns)
    assert np.array_equal(one.seats, two.seats)
    assert np.array_equal(one.lengths, two.lengths)
    assert one.returns.shape == one.seats.shape == (6, quanta.game(name).num_players)
    assert (one.lengths > 0).all()


def test_seats_rotate_game_by_game():
    r = quanta.arena("einstein", [bots.Random(), bots.Greedy(), bots.Random(seed=1)], 6)
    # seat i of game g is played by bot (i + g) % 3
    expected = [[(i + g) % 3 for i in range(2)] for g in range(6)]
    assert r.seats.tolist() == expected
    two = quanta.arena("einstein", [bots.Random(), bots.Greedy()], 4)
    assert two.seats.tolist() == [[0, 1], [1, 0], [0, 1], [1, 0]]


def test_summary_shares_sum_to_one_and_lie_in_their_intervals():
    r = quanta.arena("einstein",
                     [bots.MCTS(iterations=30), bots.Random(), bots.Greedy()], 30, seed=4)
    assert [rec.bot for rec in r.summary] == list(r.bots)
    for rec in r.summary:
        assert rec.games == 20  # 30 games, two seats, three bots in turn
        assert rec.wins + rec.draws + rec.losses == rec.decided == rec.games
        assert sum(rec.shares) == pytest.approx(1.0)
        for share, (lo, hi) in zip(rec.shares, (rec.win_interval, rec.draw_interval,
                                                rec.loss_interval)):
            assert 0 <= lo <= share <= hi <= 1
        held = r.returns[r.seats == r.bots.index(rec.bot)]
        assert rec.mean_return == pytest.approx(held.mean())
    ratings = [rec.rating for rec in r.summary]
    assert sum(ratings) == pytest.approx(0.0, abs=1e-6)
    # the bot with the most wins is rated highest
    assert max(r.summary, key=lambda rec: rec.wins).rating == max(ratings)
    assert "rating" in str(r) and "MCTS(iterations=30, seed=0)" in str(r)


def test_a_bot_alone_has_no_result_and_a_team_wins_or_loses_together():
    # A game of one player that is not cooperative: each game has one bot, no one to beat.
    solitaire = quanta.game("quincunx", players=1)
    r = quanta.arena(solitaire, [bots.Greedy(), bots.Random()], 6, seed=2)
    for rec in r.summary:
        assert (rec.games, rec.decided, rec.shares) == (3, 0, None)
        assert rec.mean_return == pytest.approx(r.returns[r.seats == r.bots.index(rec.bot)].mean())
    assert "—" in str(r) and "draw" in str(r)
    figures = analysis.bot_figures(solitaire, 4, seed=1)
    assert (figures["wins"], figures["draws"], figures["losses"]) == (None, None, None)
    # A cooperative game: won by everyone in it when the return is positive, never drawn.
    for name in quanta.GAMES:
        g = quanta.game(name)
        if g.info.utility != "cooperative":
            continue
        r = quanta.arena(g, [bots.Greedy(), bots.Random()], 8, seed=3)
        for b, rec in enumerate(r.summary):
            mine = (r.seats == b).any(axis=1)
            won = (r.returns[:, 0] > 0) & mine
            assert (rec.wins, rec.draws, rec.losses) == (won.sum(), 0, (mine & ~won).sum())
            assert rec.decided == rec.games == mine.sum()


def test_wilson_interval():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(10, 10)[1] == 1.0


def test_arena_refuses_bad_input():
    with pytest.raises(quanta.InvalidOptionError, match="at least one bot"):
        quanta.arena("einstein", [], 3)
    with pytest.raises(quanta.InvalidOptionError, match="bots must be a list of bots"):
        quanta.arena("einstein", bots.Random(), 3)
    with pytest.raises(quanta.InvalidOptionError, match="n must be"):
        quanta.arena("einstein", [bots.Random(), bots.Random()], -1)
    with pytest.raises(quanta.InvalidOptionError, match="threads must be"):
        quanta.arena("einstein", [bots.Random(), bots.Random()], 2, threads=0)


def _games_of(name: str) -> list:
    """The game ``name`` at each player count it takes (1 to 4; its default if it has no
    ``players`` option)."""
    if "players" not in quanta.game(name).options:
        return [quanta.game(name)]
    found = []
    for players in (1, 2, 3, 4):
        try:
            found.append(quanta.game(name, players=players))
        except quanta.InvalidOptionError:
            continue
    return found


def _competitive(g) -> bool:
    return g.num_players > 1 and g.info.utility != "cooperative"


@pytest.mark.parametrize("name", [n for n in quanta.GAMES if any(map(_competitive, _games_of(n)))])
def test_one_bot_alone_in_a_game_of_more_players_is_refused_with_the_reason(name):
    """Rule: one bot cannot play a game of two or more players against
    itself (it would have no result); a solitaire or a cooperative game takes it."""
    for g in _games_of(name):
        if _competitive(g):
            with pytest.raises(quanta.InvalidOptionError, match="two or more .* no one to beat"):
                quanta.arena(g, [bots.Random()], 2)
        else:
            r = quanta.arena(g, [bots.Random()], 2)
            assert r.summary[0].games == 2


def test_ratings_are_rounded_to_a_tenth_of_a_point():
    """Rule: a rating is shown rounded (0, not 3.97551983423659e-09)."""
    seen = 0
    for seed in range(4):
        r = quanta.arena("einstein", [bots.Random(seed=1), bots.Random(seed=2),
                                      bots.Greedy(seed=3)], 12, seed=seed)
        for record in r.summary:
            assert record.rating == round(record.rating, 1), record.rating
            assert "e-" not in repr(record)
            seen += 1
    assert seen == 12


def test_ctrl_c_stops_a_long_arena():
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        quanta.arena("quantum_leap", [bots.MCTS(iterations=1_000_000), bots.Random()],
                     1000, threads=1)
    timer.join()
    assert time.perf_counter() - start < 10


def test_mcts_beats_random_at_einstein():
    """A strength guard: MCTS(200) won 33-36 of these 40 games for seeds 0-5 when written."""
    r = quanta.arena("einstein", [bots.MCTS(iterations=200), bots.Random()], 40, seed=0)
    assert r.summary[0].wins >= 24
    assert r.summary[0].rating > r.summary[1].rating


@pytest.mark.parametrize("module", [quanta.bots, quanta.arenas], ids=lambda m: m.__name__)
def test_the_module_examples_run(module):
    import doctest

    failed, tried = doctest.testmod(module)
    assert tried > 0 and failed == 0


def test_ctrl_c_stops_a_long_choice():
    s = decisions("quantum_leap", 1, seed=1)[0]
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        bots.MCTS(iterations=10**12).choose(s)
    timer.join()
    assert time.perf_counter() - start < 10


def test_a_league_plays_every_pair_the_same_at_any_shard_size(tmp_path):
    pytest.importorskip("pyarrow")
    from quanta import jobs

    players = [bots.MCTS(iterations=20), bots.Random(seed=1), bots.Greedy(seed=2)]
    tables = []
    for shard_size in (1, 2):
        job = jobs.league("einstein", players, 12, seed=5, shard_size=shard_size)
        jobs.run(job, tmp_path / str(shard_size))
        tables.append(jobs.read(tmp_path / str(shard_size)).to_pandas())
    assert tables[0].equals(tables[1])
    rows = tables[0]
    assert [(a, b) for a, b in zip(rows.bot_a, rows.bot_b)] == [(0, 1), (0, 2), (1, 2)]
    for row in rows.itertuples():
        # each row is the arena of its pair, seeded by (job seed, row)
        r = quanta.arena("einstein", [players[row.bot_a], players[row.bot_b]], 12,
                         seed=jobs.kinds.row_seed(5, row.Index))
        assert (row.wins_a, row.draws, row.wins_b) == (
            r.summary[0].wins, r.summary[0].draws, r.summary[1].wins)
        assert row.wins_a + row.draws + row.wins_b == row.games == 12
        assert row.name_a == repr(players[row.bot_a])


def test_a_league_refuses_fewer_than_two_bots_and_bad_counts():
    from quanta import jobs

    with pytest.raises(quanta.InvalidOptionError, match="two or more bots"):
        jobs.league("einstein", [bots.Random()], 3)
    with pytest.raises(quanta.InvalidOptionError, match="two or more bots"):
        jobs.league("einstein", ["random", "greedy"], 3)
    with pytest.raises(quanta.InvalidOptionError, match="games must be"):
        jobs.league("einstein", [bots.Random(), bots.Greedy()], 0)
    # Bots that never meet in a game (one player, one team) have no league.
    apart = []
    for name in quanta.GAMES:
        for options in ({}, {"players": 1}):
            try:
                g = quanta.game(name, **options)
            except quanta.InvalidOptionError:
                continue
            if g.num_players == 1 or g.info.utility == "cooperative":
                apart.append((name, options))
    assert apart
    for name, options in apart:
        with pytest.raises(quanta.InvalidOptionError, match="pits bots against each other"):
            jobs.league(name, [bots.Random(), bots.Greedy()], 3, options=options)


def test_solver_leaves_round_trip_and_are_refused_where_the_solver_gives_no_game_value():
    b = bots.MCTS(iterations=20, solver_nodes=500, seed=3)
    assert repr(b) == "MCTS(iterations=20, solver_nodes=500, seed=3)"
    assert pickle.loads(pickle.dumps(b)) == b and b.params["solver_nodes"] == 500
    refused, taken = [], []
    for name in quanta.GAMES:
        s = quanta.game(name, **SOLVERS[name].options).new_state()
        while s.is_chance:
            s = s.play(s.chance_outcomes()[0][0])
        try:
            a = b.choose(s)
        except quanta.InvalidOptionError as e:
            assert str(e).startswith("solver_nodes needs a game whose solver values a position")
            refused.append((name, str(e)))
        else:
            assert a in s.legal_actions()
            taken.append(name)
    # Each refusal names itself and every game that takes solver leaves.
    assert refused and taken
    for name, message in refused:
        assert all(t in message for t in taken + [name]), message


def test_arena_seats_partners_by_side_and_counts_each_side_once():
    """A Quantum Leap with partners: both seats of a side are one bot's, the side's return is
    the team's total, and its result counts once (a game per side, not per seat)."""
    game = quanta.game("a_quantum_leap", players=4, teams="partners")
    r = quanta.arena(game, [bots.Random(), bots.Greedy()], 6, seed=3, threads=1)
    for g in range(6):
        assert r.seats[g].tolist() == [g % 2, g % 2, 1 - g % 2, 1 - g % 2]
        assert r.returns[g, 0] == r.returns[g, 1] and r.returns[g, 2] == r.returns[g, 3]
    for record in r.summary:
        assert record.games == 6 and record.decided == 6
    assert r.summary[0].wins + r.summary[0].draws + r.summary[1].wins == 6
    # Counting seats would count every game twice.
    assert r.summary[0].wins == int(sum(
        r.returns[g][r.seats[g].tolist().index(0)] > r.returns[g][r.seats[g].tolist().index(1)]
        for g in range(6)))


def test_best_player_plays_legal_actions_with_two_packs_and_partners():
    for options in (dict(players=3, packs=2), dict(players=4, packs=2, teams="partners")):
        game = quanta.game("a_quantum_leap", **options)
        best, rng = bots.Best(timeout=0.05), random.Random(2)
        s = game.new_state()
        while not s.is_terminal:
            if s.is_chance:
                s = random_step(s, rng)
                continue
            action = best.choose(s)
            assert action in s.legal_actions()
            s = s.play(action)
