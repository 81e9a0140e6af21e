"""``checkraise solve``: JSON output, files under --out, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkraise.cli.main import main
from checkraise.games import LeducPoker
from checkraise.solvers import Policy, exploitability


def test_leduc_json_policy_and_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["solve", "leduc", "--algo", "cfr+", "--iterations", "200", "--out", str(tmp_path),
         "--json", "--points", "5"]
    )
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["seconds"] > 0
    policy = Policy.load(tmp_path / "policy-cfrplus.npz")
    assert exploitability(LeducPoker(), policy) == pytest.approx(result["exploitability"])
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
    for run in result["runs"]:
        assert Path(run["policy"]).exists()
    assert (tmp_path / "exploitability.png").exists()


def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "poker", "--iterations", "1"]) == 2
    assert "unknown game 'poker'" in capsys.readouterr().err
    assert main(["solve", "kuhn", "--algo", "cfr++"]) == 2
    assert "unknown algorithm 'cfr++'" in capsys.readouterr().err
