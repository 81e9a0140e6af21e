"""``checkraise nn deepcfr``: a tiny run, resuming it, and clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli_helpers import bad_cli, run_cli

TINY = ["--iterations", "2", "--traversals", "10", "--advantage-steps", "2",
        "--policy-steps", "3", "--batch", "0"]


def test_tiny_run_prints_exploitability_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    code, stdout, err = run_cli(["nn", "deepcfr", "kuhn", *TINY, "--out", str(out), "--json"],
                                capsys)
    assert code == 0, err
    result = json.loads(stdout)
    assert result["iterations"] == 2
    assert result["nash_conv"] == pytest.approx(2 * result["exploitability"])
    assert 0.0 < result["exploitability"] < 1.0 and result["seconds"] > 0
    assert (out / "policy.npz").exists() and (out / "checkpoint.npz").exists()
    # Going on to 3 iterations from the checkpoint.
    more = ["--iterations", "3", *TINY[2:]]
    code, stdout, err = run_cli(
        ["nn", "deepcfr", "kuhn", *more, "--out", str(out), "--resume", "--json"], capsys)
    assert code == 0, err
    assert json.loads(stdout)["iterations"] == 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nn", "deepcfr", "chess"], "unknown game 'chess'"),
        (["nn", "deepcfr", "kuhn", "--iterations", "0"], "iterations=0"),
        (["nn", "deepcfr", "kuhn", "--traversals", "-3"], "traversals=-3"),
        (["nn", "deepcfr", "kuhn", "--memory", "0"], "memory=0"),
        (["nn", "deepcfr", "kuhn", "--learning-rate", "5"], "learning_rate=5"),
        (["nn", "deepcfr", "kuhn", "--seed", "-1"], "--seed -1"),
        (["nn", "deepcfr", "kuhn", "--resume"], "--resume needs --out"),
    ],
)
def test_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert message in bad_cli(argv, capsys)


def test_resume_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    line = bad_cli(["nn", "deepcfr", "kuhn", *TINY, "--out", str(empty), "--resume"], capsys)
    assert "no checkpoint.npz" in line
    out = tmp_path / "run"
    code, _, err = run_cli(["nn", "deepcfr", "kuhn", *TINY, "--out", str(out), "--json"], capsys)
    assert code == 0, err
    line = bad_cli(["nn", "deepcfr", "kuhn", *TINY, "--out", str(out)], capsys)
    assert "pass --resume" in line
    other = [*TINY[:2], "--traversals", "11", *TINY[4:]]
    line = bad_cli(["nn", "deepcfr", "kuhn", *other, "--out", str(out), "--resume"], capsys)
    assert "traversals=10" in line and "traversals=11" in line
    line = bad_cli(["nn", "deepcfr", "leduc", *TINY, "--out", str(out), "--resume"], capsys)
    assert "for kuhn, not leduc" in line
