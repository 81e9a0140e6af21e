"""``checkraise solve``: the written policies checked against game theory and OpenSpiel.

Oracles: Kuhn poker's value for the first player is -1/18; OpenSpiel's own best
response measures the exploitability of the policy files the command writes; and
in a two-player zero-sum game the value of a profile is within NashConv
(= 2 x exploitability) of the game value.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from open_spiel.python.algorithms import exploitability as openspiel_exploitability
from open_spiel.python.algorithms.expected_game_score import policy_value
from open_spiel.python.policy import UniformRandomPolicy

from checkraise.cli.main import main
from checkraise.solvers import Policy
from tests.games.openspiel_twin import openspiel_game
from tests.solvers.openspiel_policy import to_openspiel

KUHN_VALUE = -1 / 18


def _openspiel_check(name: str, path: Path) -> tuple[float, float]:
    """(exploitability, first player's value) of a written policy file, by OpenSpiel."""
    game, theirs = to_openspiel(name, Policy.load(path))
    value = policy_value(game.new_initial_state(), [theirs, theirs])[0]
    return openspiel_exploitability.exploitability(game, theirs), value


def test_kuhn_policy_file_reaches_the_game_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["solve", "kuhn", "--algo", "cfr+", "--iterations", "300", "--out",
                 str(tmp_path), "--json", "--points", "3"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert json.loads((tmp_path / "solve.json").read_text()) == result
    (run,) = result["runs"]
    expl, value = _openspiel_check("kuhn", Path(run["policy"]))
    assert expl == pytest.approx(result["exploitability"], abs=1e-9)
    # CFR+ on Kuhn: far below the 1e-2 a few hundred iterations are known to reach.
    assert expl < 1e-2
    assert abs(value - KUHN_VALUE) <= 2 * expl + 1e-12
    assert run["values"][0] == pytest.approx(value, abs=1e-9)
    assert run["values"][0] == pytest.approx(-run["values"][1])


def test_leduc_json_policy_and_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["solve", "leduc", "--algo", "cfr+", "--iterations", "200", "--out", str(tmp_path),
         "--json", "--points", "5"]
    )
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["seconds"] > 0
    expl, value = _openspiel_check("leduc", tmp_path / "policy-cfrplus.npz")
    assert expl == pytest.approx(result["exploitability"], abs=1e-9)
    assert expl < 0.05  # uniform play is about 2.4 chips exploitable
    # Leduc's value for the first player is about -0.0856 (OpenSpiel's solvers agree).
    assert abs(value - result["runs"][0]["values"][0]) < 1e-9
    assert abs(value + 0.0856) <= 2 * expl
    assert (tmp_path / "exploitability.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert result["runs"][0]["trace"]["iterations"][-1] == 200


def test_kuhn_compare_draws_every_algorithm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    algorithms = "cfr,cfr+,dcfr,es-mccfr,os-mccfr,xfp"
    code = main(
        ["solve", "kuhn", "--compare", algorithms, "--iterations", "50", "--out", str(tmp_path),
         "--json", "--points", "4"]
    )
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert [run["algorithm"] for run in result["runs"]] == algorithms.split(",")
    game = openspiel_game("kuhn")
    uniform = openspiel_exploitability.exploitability(game, UniformRandomPolicy(game))
    assert uniform == pytest.approx(11 / 24)  # 0.458..., Kuhn's well-known figure
    for run in result["runs"]:
        expl, value = _openspiel_check("kuhn", Path(run["policy"]))
        assert expl == pytest.approx(run["exploitability"], abs=1e-9), run["algorithm"]
        # Every algorithm has learnt something in 50 iterations, the full-width ones a lot.
        bound = uniform if "mccfr" in run["algorithm"] else 0.1 * uniform
        assert expl < bound, (run["algorithm"], expl)
        assert abs(value - KUHN_VALUE) <= 2 * expl + 1e-12, run["algorithm"]
    assert (tmp_path / "exploitability.png").exists()


def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "poker", "--iterations", "1"]) == 2
    assert "unknown game 'poker'" in capsys.readouterr().err
    assert main(["solve", "kuhn", "--algo", "cfr++"]) == 2
    assert "unknown algorithm 'cfr++'" in capsys.readouterr().err
