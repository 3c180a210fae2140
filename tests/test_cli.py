"""The `quanta` command."""

from click.testing import CliRunner

import quanta
from quanta.cli import main


def test_analyze_tabulates_every_game():
    result = CliRunner().invoke(main, ["analyze", "--games", "3000", "--quiet"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split()[:3] == ["game", "games", "mean"]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == set(quanta.GAMES)
    assert all(row[1] == "3000" for row in rows.values())


def test_analyze_numbers_come_from_the_batch():
    result = CliRunner().invoke(main, ["analyze", "--games", "2000", "--game", "einstein", "-q", "--seed", "4"])
    out = quanta.batch.random_playouts(quanta.game("einstein"), 2000, seed=4)
    row = result.output.splitlines()[2].split()
    assert float(row[2]) == round(float(out["length"].mean()), 2)
    wins0 = (out["returns"][:, 0] > out["returns"][:, 1]).mean()
    assert row[3] == f"{100 * wins0:.1f}%"


def test_analyze_rejects_bad_arguments():
    assert CliRunner().invoke(main, ["analyze", "--games", "0"]).exit_code != 0
    assert CliRunner().invoke(main, ["analyze", "--game", "chess"]).exit_code != 0
