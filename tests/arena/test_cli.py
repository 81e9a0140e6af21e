"""`checkraise match` and `checkraise tournament` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkraise.cli.main import main


def test_match_json_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m"
    code = main(["match", "call", "call", "--hands", "30", "--seed", "1", "--workers", "1",
                 "--json", "--out", str(out)])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rotations"] == 2 and data["hands_played"] == 60
    assert [p["name"] for p in data["players"]] == ["call", "call#2"]
    assert data["players"][0]["mbb_per_hand"]["mean"] == 0.0
    for name in ("results.json", "report.md", "mbb.png", "logs/rotation-0.log",
                 "logs/rotation-1.txt"):
        assert (out / name).stat().st_size > 0
    assert "| call | 0.0 | [0.0, 0.0] | 0 |" in (out / "report.md").read_text()


def test_match_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "raise", "checkfold", "--hands", "20", "--workers", "1",
                 "--blinds", "5/10", "--stack", "1000", "--no-duplicate"]) == 0
    text = capsys.readouterr().out
    # checkfold folds to every raise: it loses its blinds, 5 or 10 a hand, 7.5 on average.
    assert "checkfold" in text and "-750.0 mbb/hand" in text and "x 1 seatings" in text


def test_tournament_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--agents", "allin,checkfold", "--repeat", "2", "--hands", "20",
                 "--workers", "1", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["repetitions"] == 2
    shover, folder = data["players"]
    assert shover["win_rate"] == 1.0 and folder["chips_remaining"]["mean"] == 2000 - 600


def test_tournament_report_and_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "-a", "random,call", "-a", "raise", "--repeat", "2", "--hands", "30",
            "--workers", "1", "--out", str(tmp_path), "--no-logs"]
    assert main(args) == 0
    assert "report:" in capsys.readouterr().out
    report = (tmp_path / "report.md").read_text()
    assert "## Rank distribution" in report and "| raise |" in report
    assert main([*args, "--resume", "--repeat", "3"]) == 0
    assert "(2 resumed)" in capsys.readouterr().out
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 3


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["match", "call", "nosuchbot", "--hands", "5"], "unknown agent 'nosuchbot'"),
        (["match", "call", "call", "--blinds", "50-100"], "invalid blinds '50-100'"),
        (["match", "call", "--hands", "5"], "invalid number of agents 1"),
        (["tournament", "-a", "call,call", "--resume"], "--resume needs --out"),
        (["tournament", "-a", "call,random:pfold=x"], "agent 'random:pfold=x' could not be built"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


def test_demo_runs_a_short_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--out", str(tmp_path), "--repeat", "2", "--hands", "40",
                 "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "straight flush" in out and f"report: {tmp_path / 'report.md'}" in out
    data = json.loads((tmp_path / "results.json").read_text())
    assert [p["name"] for p in data["players"]] == [
        "handreader", "heuristic", "equity", "call", "raise", "random"
    ]
    assert (tmp_path / "chip_trend.png").stat().st_size > 0
