"""The `quanta` command."""

import gc
import json
import random
import weakref

import numpy as np
import pytest
from click.testing import CliRunner
from helpers import random_step

import quanta
import quanta.analysis
import quanta.cli
import quanta.solvers
from quanta.cli import main


def test_analyze_tabulates_every_game():
    result = CliRunner().invoke(main, ["analyze", "--games", "3000", "--quiet", "--solves", "0", "--bot-games", "0"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split()[:3] == ["game", "games", "mean"]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == set(quanta.GAMES)
    assert all(row[1] == "3000" for row in rows.values())


def test_analyze_numbers_come_from_the_batch():
    result = CliRunner().invoke(main, ["analyze", "--games", "2000", "--game", "einstein", "-q", "--seed", "4", "--solves", "0", "--bot-games", "0"])
    out = quanta.batch.random_playouts(quanta.game("einstein"), 2000, seed=4)
    row = result.output.splitlines()[2].split()
    assert float(row[2]) == round(float(out["length"].mean()), 2)
    wins0 = (out["returns"][:, 0] > out["returns"][:, 1]).mean()
    assert row[3] == f"{100 * wins0:.1f}%"


def test_analyze_rejects_bad_arguments():
    assert CliRunner().invoke(main, ["analyze", "--games", "0"]).exit_code != 0
    assert CliRunner().invoke(main, ["analyze", "--game", "chess"]).exit_code != 0


BAD_ARGUMENTS = [
    ("--threads", "0", "from 1 to 1024"),
    ("--threads", "-1", "from 1 to 1024"),
    ("--threads", str(10**9), "from 1 to 1024"),
    ("--threads", "x", "from 1 to 1024"),
    ("--seed", "-1", "from 0 to 2**64-1"),
    ("--seed", str(2**64), "from 0 to 2**64-1"),
    ("--seed", "x", "from 0 to 2**64-1"),
    ("--games", "0", "from 1 to 2**40"),
    ("--games", "-5", "from 1 to 2**40"),
    ("--games", str(10**30), "from 1 to 2**40"),
]


@pytest.mark.parametrize(("option", "value", "expected"), BAD_ARGUMENTS)
def test_analyze_explains_a_bad_number_in_one_line(option, value, expected, monkeypatch):
    # Refused before any game is played (10**30 games would otherwise run for ever).
    monkeypatch.setattr(quanta.analysis, "random_playouts",
                        lambda *a, **k: pytest.fail("played games"))
    result = CliRunner().invoke(main, ["analyze", "-q", "--games", "10", option, value])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # a usage error, not a crash
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, result.output
    assert f"'{option}'" in errors[0]
    assert f"must be an integer {expected}, not {value}" in errors[0]


def _expected_row(name: str, n: int, seed: int) -> list[str]:
    """The row for ``name`` (without games/s) from one call, by the rule analyze states: the
    single highest return wins, else a draw; a cooperative team wins together or loses."""
    out = quanta.batch.random_playouts(quanta.game(name), n, seed=seed)
    returns, length = out["returns"], out["length"]
    if quanta.game(name).info.utility == "cooperative":  # the team wins or loses together
        leaders = returns > 0
        single = np.ones(len(length), dtype=bool)
    else:
        leaders = returns == returns.max(axis=1, keepdims=True)
        single = leaders.sum(axis=1) == 1
    wins = [(leaders[:, p] & single).mean() for p in range(returns.shape[1])]
    return [
        name,
        str(n),
        f"{length.mean():.2f}",
        " / ".join(f"{100 * w:.1f}%" for w in wins),
        f"{100 * (~single).mean():.1f}%",
        " / ".join(f"{r:+.3f}" for r in returns.mean(axis=0)),
    ]


def test_analyze_folds_its_pieces_into_the_figures_of_one_call(monkeypatch):
    # Small pieces, so that 2,500 games are folded from four pieces of each game.
    monkeypatch.setattr(quanta.analysis, "PIECE", 700)
    result = CliRunner().invoke(main, ["analyze", "--games", "2500", "--seed", "11", "-q", "--solves", "0", "--bot-games", "0"])
    assert result.exit_code == 0, result.output
    header, rule, *lines = result.output.splitlines()
    starts = [0] + [i + 2 for i in range(len(rule)) if rule[i : i + 2] == "  "]
    cells = lambda line: [line[a:b].strip() for a, b in zip(starts, starts[1:])]  # noqa: E731
    assert cells(header) == ["game", "games", "mean plies", "wins", "draws", "mean returns"]
    expected = [_expected_row(name, 2500, 11) for name in quanta.GAMES]
    assert [cells(line) for line in lines] == expected


def test_analyze_keeps_no_piece_it_has_counted(monkeypatch):
    """Memory stays constant in the number of games: when a piece is played, the pieces before
    it are gone (a run that kept every game's arrays would keep them all)."""
    pieces: list[weakref.ref] = []
    alive_before: list[int] = []

    def fake_playouts(game, n, *, seed, threads, first):
        gc.collect()
        alive_before.append(sum(ref() is not None for ref in pieces))
        returns = np.zeros((n, game.num_players))
        returns[:, first // n % game.num_players] = 1.0
        out = {"returns": returns, "length": np.full(n, 7, dtype=np.int32)}
        pieces.extend([weakref.ref(returns), weakref.ref(out["length"])])
        return out

    monkeypatch.setattr(quanta.analysis, "random_playouts", fake_playouts)
    n = str(8 * quanta.analysis.PIECE)
    result = CliRunner().invoke(main, ["analyze", "-n", n, "--game", "einstein", "-q"])
    assert result.exit_code == 0, result.output
    assert len(alive_before) == 8
    assert max(alive_before) == 0
    row = result.output.splitlines()[2].split()
    assert row[1:5] == [n, "7.00", "50.0%", "/"]


def test_analyze_counts_a_repeated_game_once_in_the_order_first_given():
    games = ["--game", "quincunx", "--game", "einstein", "--game", "quincunx", "--game", "einstein"]
    result = CliRunner().invoke(main, ["analyze", "-q", "-n", "50", "--solves", "0", "--bot-games", "0", *games])
    assert result.exit_code == 0, result.output
    assert [line.split()[0] for line in result.output.splitlines()[2:]] == ["quincunx", "einstein"]


def test_analyze_names_games_as_arguments_and_reports_each_solver():
    result = CliRunner().invoke(main, ["analyze", "einstein", "quantum_leap", "--game", "einstein",
                                       "-n", "200", "--solves", "6", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [r["game"] for r in report["playouts"]] == ["einstein", "quantum_leap"]
    assert [r["game"] for r in report["solvers"]] == ["einstein", "quantum_leap (size=3)"]
    for r in report["solvers"]:
        assert r["positions"] == 6 and r["exact"] + r["estimates"] + r["undecided"] == 6
        assert r["median_seconds"] <= r["max_seconds"]
        assert r["value"] == quanta.solvers.SOLVERS[r["game"].split()[0]].value
    # Quantum Leap's side-3 endgames solve at once, each a win (1) or a loss (0) for the
    # player to act: the mean is a share of sixths.
    ql = report["solvers"][1]
    assert ql["exact"] == 6 and round(6 * ql["mean_value"], 9) in range(7)
    text = CliRunner().invoke(main, ["analyze", "quantum_leap", "-n", "100", "--solves", "3", "-q"])
    assert "solver" in text.output and "quantum_leap (size=3)" in text.output
    assert quanta.solvers.SOLVERS["quantum_leap"].value in text.output, "what the value means"


def test_analyze_counts_undecided_positions_apart_and_gives_them_no_value():
    # A node budget far too small to decide: every position is undecided, none over time, and
    # no mean value comes out (an undecided position is not a loss or a 0).
    result = CliRunner().invoke(main, ["analyze", "einstein", "-n", "100", "--solves", "4",
                                       "--solve-max-nodes", "1", "--json"])
    assert result.exit_code == 0, result.output
    [r] = json.loads(result.output)["solvers"]
    assert (r["exact"], r["estimates"], r["undecided"]) == (0, 0, 4)
    assert r["undecided_over_time"] == 0 and r["mean_value"] is None
    result = CliRunner().invoke(main, ["analyze", "einstein", "-n", "100", "--solves", "3",
                                       "--solve-timeout", "1e-9", "--json"])
    [r] = json.loads(result.output)["solvers"]  # a position decided at once may still count
    assert r["undecided"] == r["undecided_over_time"] >= 1
    assert r["exact"] + r["undecided"] == 3


def test_analyze_counts_a_cooperative_game_as_won_or_lost_by_the_whole_team():
    result = CliRunner().invoke(main, ["analyze", "repair_unit", "-n", "3000", "--solves", "0",
                                       "--json", "--seed", "2"])
    assert result.exit_code == 0, result.output
    [row] = json.loads(result.output)["playouts"]
    out = quanta.batch.random_playouts(quanta.game("repair_unit"), 3000, seed=2)
    assert row["wins"] == [float((out["returns"][:, 0] > 0).mean())]
    assert row["draws"] == 0.0, "a team never draws: a loss is not a draw"


# ---- quanta solve and quanta play: the library's answers and moves ----


def _decision(g: quanta.Game, seed: int, want) -> quanta.State:
    """The first decision of a seeded random game of ``g`` where ``want(state)`` holds."""
    rng = random.Random(seed)
    for _ in range(200):
        s = g.new_state()
        while not s.is_terminal:
            if not s.is_chance and want(s):
                return s
            s = random_step(s, rng)
    raise AssertionError("no such position")


def _aql_phase(phase: str, most_cards: int = 13):
    return lambda s: (quanta.a_quantum_leap.phase(s) == phase
                      and len(quanta.a_quantum_leap.hand(s, s.current_player)) <= most_cards)


def _ql_win(s) -> bool:
    return quanta.quantum_leap.solve(s).win


#: Positions where the best player answers well within its time (its solver or its own
#: policy decides, so its move does not depend on the machine): options and the kind of
#: position.
DECIDED_IN_TIME = {
    "einstein": ({}, lambda s: True),
    "einstein_card open hands": ({"open_hands": True},
                                 lambda s: len(s.heap(0)) + len(s.heap(1)) <= 4),
    "quantum_leap": ({"size": 3}, _ql_win),
    "a_quantum_leap higgs": ({}, _aql_phase("higgs")),
    "a_quantum_leap turn": ({}, _aql_phase("play", 4)),
    "quincunx solitaire": ({"players": 1}, lambda s: True),
    "repair_unit": ({"players": 2}, lambda s: True),
}


def _options(options: dict) -> list[str]:
    return [x for k, v in options.items()
            for x in ("-o", f"{k}={str(v).lower() if isinstance(v, bool) else v}")]


@pytest.mark.parametrize("case", sorted(c for c in DECIDED_IN_TIME if "solitaire" not in c))
def test_the_computer_in_play_is_the_best_player(case):
    """quanta play's computer is quanta.bots.Best with --think seconds a move and --seed."""
    name = case.split()[0]
    options, want = DECIDED_IN_TIME[case]
    g = quanta.game(name, **options)
    seed = 2
    s = _decision(g, seed, want)
    me = (s.current_player + 1) % g.num_players  # the computer is to act
    args = ["play", name, "--as", str(me), "--position", s.notation(), "--seed", str(seed),
            "--think", "20"] + _options(options)
    result = CliRunner().invoke(main, args, input="quit\n")
    assert result.exit_code == 0, result.output
    said = next(line for line in result.output.splitlines()
                if line.startswith(f"  player {s.current_player}: "))
    expected = quanta.bots.Best(timeout=20, seed=seed).choose(s)
    assert said.split(": ", 1)[1] == s.action_to_string(expected, me)


@pytest.mark.parametrize("case", ["quincunx solitaire", "repair_unit"])
def test_a_hint_is_the_best_players_move(case):
    """'hint' shows the best player's move in your place, whichever bot you play against."""
    name = case.split()[0]
    options, want = DECIDED_IN_TIME[case]
    g = quanta.game(name, **options)
    s = _decision(g, 3, want)
    args = ["play", name, "--as", str(s.current_player), "--position", s.notation(),
            "--seed", "9", "--think", "20", "--bot", "random"] + _options(options)
    result = CliRunner().invoke(main, args, input="hint\nquit\n")
    assert result.exit_code == 0, result.output
    said = next(line for line in result.output.splitlines() if line.startswith("  hint: "))
    hint = quanta.bots.Best(timeout=20, seed=9).choose(s)
    assert said == f"  hint: {s.action_to_string(hint)}"


def test_solve_answers_an_a_quantum_leap_higgs_position_with_the_best_higgs():
    s = _decision(quanta.game("a_quantum_leap"), 4, _aql_phase("higgs"))
    result = CliRunner().invoke(main, ["solve", "a_quantum_leap", s.notation(), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    best = quanta.a_quantum_leap.best_higgs(s)
    assert (out["value"], out["best"], out["exact"]) == (best.points, best.move, True)


def test_solve_past_its_limit_is_undecided_with_no_value_and_status_1():
    notation = "12.../3..../...../....c/...ba 0 -"
    result = CliRunner().invoke(main, ["solve", "einstein", notation, "--max-nodes", "10",
                                       "--json"])
    assert result.exit_code == 1, result.output
    out = json.loads(result.output)
    assert out["value"] is None and out["exact"] is False and "node limit" in out["reason"]
    text = CliRunner().invoke(main, ["solve", "einstein", notation, "--max-nodes", "10"])
    assert text.exit_code == 1 and "value    undecided: " in text.output


# ---- quanta job: files and addresses it cannot use are one line, status 2 ----


def _one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), "a usage error, not a crash"
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


def test_job_solve_refuses_a_file_that_is_not_utf8_in_one_line(tmp_path):
    pytest.importorskip("pyarrow")
    file = tmp_path / "positions.txt"
    file.write_bytes("...../.a.../...../...1./..... 0 -\n".encode() + b"caf\xe9\n")
    result = CliRunner().invoke(main, ["job", "solve", "einstein", str(file), "--out",
                                       str(tmp_path / "out")])
    line = _one_error_line(result)
    assert "positions.txt" in line and "not UTF-8" in line and "byte 37" in line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("address", ["not an address", "tcp://", "tcp://127.0.0.1:1"])
def test_job_refuses_a_scheduler_it_cannot_reach_in_one_line(address, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from quanta import jobs

    monkeypatch.setattr(jobs.execute, "SCHEDULER_TIMEOUT", 1.0)  # the test's own, shorter wait
    result = CliRunner().invoke(main, ["job", "playouts", "einstein", "--games", "10",
                                       "--scheduler", address, "--out", str(tmp_path / "out")])
    line = _one_error_line(result)
    assert repr(address) in line
    assert ("within 1 s" if address.endswith(":1") else "scheduler must be") in line
    assert not (tmp_path / "out").exists()


def test_job_scheduler_help_states_the_connect_timeout():
    result = CliRunner().invoke(main, ["job", "playouts", "--help"])
    assert "within 10 s" in " ".join(result.output.split())
    from quanta import jobs

    assert jobs.SCHEDULER_TIMEOUT == 10.0


def test_a_refused_job_leaves_no_directory_and_the_corrected_command_runs(tmp_path):
    pytest.importorskip("pyarrow")
    out = str(tmp_path / "table")
    args = ["job", "table", "quincunx_open", "--deals", "4", "--shard-size", "2", "-p",
            "empty=5", "--out", out, "-q"]
    result = CliRunner().invoke(main, [*args, "-p", "excuse=maybe"])
    assert "excuse must be True or False" in _one_error_line(result)
    assert not (tmp_path / "table").exists()
    result = CliRunner().invoke(main, [*args, "-p", "excuse=false", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["ran"] == 4


def _solitaire(name: str) -> bool:
    return quanta.game(name).num_players == 1


@pytest.mark.parametrize("name", quanta.GAMES)
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_play_against_a_named_bot_plays_that_bots_move(name, kind):
    """`quanta play --bot KIND`: the computer's move is the bot's choice (seeded by --seed)."""
    options = {"players": 2} if _solitaire(name) else {}  # someone to play against
    g = quanta.game(name, **options)
    s = _decision(g, 5, lambda s: True)
    me = (s.current_player + 1) % g.num_players
    args = ["play", name, "--as", str(me), "--position", s.notation(), "--seed", "3",
            "--bot", kind]
    args += [x for k, v in options.items() for x in ("-o", f"{k}={v}")]
    result = CliRunner().invoke(main, args, input="quit\n")
    assert result.exit_code == 0, result.output
    said = next(line for line in result.output.splitlines()
                if line.startswith(f"  player {s.current_player}: "))
    expected = quanta.bots.make(kind, seed=3).choose(s)
    assert said.split(": ", 1)[1] == s.action_to_string(expected, me)


def test_analyze_plays_mcts_against_random_as_the_arena_does():
    result = CliRunner().invoke(main, ["analyze", "einstein", "-q", "--games", "10",
                                       "--solves", "0", "--bot-games", "12", "--seed", "2",
                                       "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)["bots"]
    r = quanta.arena("einstein", [quanta.bots.MCTS(iterations=100, seed=2),
                                  quanta.bots.Random(seed=2)], 12, seed=2)
    assert row["wins"] == r.summary[0].wins / 12
    assert row["mean_returns"] == [r.summary[0].mean_return, r.summary[1].mean_return]
    assert row["bot"] == "MCTS(iterations=100, seed=2)"
    off = CliRunner().invoke(main, ["analyze", "einstein", "-q", "-n", "10", "--solves", "0",
                                    "--bot-games", "0", "--json"])
    assert json.loads(off.output)["bots"] == []


def test_job_league_writes_the_rows_of_jobs_league(tmp_path):
    pytest.importorskip("pyarrow")
    from quanta import jobs

    out = tmp_path / "league"
    result = CliRunner().invoke(main, ["job", "league", "einstein", "--bot",
                                       "mcts:iterations=30,seed=2", "--bot", "random",
                                       "-n", "8", "--seed", "3", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    job = jobs.league("einstein", [quanta.bots.MCTS(iterations=30, seed=2),
                                   quanta.bots.Random()], 8, seed=3)
    jobs.run(job, tmp_path / "library")
    assert jobs.read(out).equals(jobs.read(tmp_path / "library"))
    bad = CliRunner().invoke(main, ["job", "league", "einstein", "--bot", "mcts:iterations=0",
                                    "--bot", "random", "-n", "8", "--out", str(out)])
    assert bad.exit_code == 2 and "iterations must be a positive integer" in bad.output


# ---- a CLI that guides ----


def test_a_position_of_another_size_names_the_option_to_add():
    """Rule: a position the game reads only with another option says which ``-o`` to add."""
    result = CliRunner().invoke(main, ["solve", "quantum_leap", ".w./wwb./.bw.b/..b./w.b w"])
    assert result.exit_code == 2
    assert "add -o size=3" in result.output, result.output
    fixed = CliRunner().invoke(main, ["solve", "quantum_leap", ".w./wwb./.bw.b/..b./w.b w",
                                      "-o", "size=3", "--json"])
    assert fixed.exit_code in (0, 1), fixed.output
    assert json.loads(fixed.output)["notation"] == ".w./wwb./.bw.b/..b./w.b w"


def test_an_einstein_card_position_with_hidden_hands_names_the_open_hands_option():
    """Rule: the a la Card solver's refusal of hidden hands names ``-o open_hands=...``, not a
    Python function."""
    s = quanta.game("einstein_card").new_state()
    while s.is_chance:
        s = s.play(s.chance_outcomes()[0][0])
    result = CliRunner().invoke(main, ["solve", "einstein_card", s.notation(),
                                       "--max-nodes", "100"])
    assert result.exit_code == 2
    assert "-o open_hands=true" in result.output, result.output
    assert "quanta.bots" not in result.output


def test_the_end_of_the_input_ends_play_quietly_with_status_0():
    """Rule: end of input (EOF) at the prompt is the player leaving: no "Aborted.", exit 0."""
    result = CliRunner().invoke(main, ["play", "einstein", "--think", "0.01"], input="")
    assert result.exit_code == 0, result.output
    assert "Aborted" not in result.output
