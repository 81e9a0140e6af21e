"""``checkraise predict`` and ``checkraise predict-eval`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkraise.cli.main import main
from checkraise.histories import EXAMPLE

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


def test_predict_on_pokerstars_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "h.txt"
    path.write_text(EXAMPLE)
    assert main(["predict", str(path), "--top", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    players = out["players"]
    assert len(players) == 3 and all(len(p["top"]) == 3 for p in players)
    for p in players:
        assert p["top"][0]["p"] >= p["top"][1]["p"] >= p["top"][2]["p"]
    assert main(["predict", str(path), "--observer", "A", "--top", "2"]) == 0
    text = capsys.readouterr().out
    assert "AKQJT98765432" in text and text.count("\n  A ") == 2  # two grids


def test_predict_draws_one_range_chart_per_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "h.txt"
    path.write_text(EXAMPLE)
    assert main(["predict", str(path), "--json", "--out", str(tmp_path / "charts")]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    pngs = sorted((tmp_path / "charts").glob("range-*.png"))
    assert [Path(p["png"]) for p in players] == [tmp_path / "charts" / f"range-{p['player']}.png"
                                                  for p in players]
    assert len(pngs) == len(players) == 3
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)


def test_predict_errors_name_the_bad_value(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "h.txt"
    path.write_text(EXAMPLE)
    assert main(["predict", str(path), "--hand", "4"]) == 2
    assert "--hand 4" in capsys.readouterr().err
    assert main(["predict", str(path), "--observer", "Zed"]) == 2
    assert "Zed" in capsys.readouterr().err


@pytest.mark.skipif(not (DATA / "acpc").is_dir(), reason="shared data not present")
def test_predict_on_an_acpc_log(capsys: pytest.CaptureFixture[str]) -> None:
    log = DATA / "acpc" / "example_vs_example.nolimit.2p.log"
    game = DATA / "acpc" / "holdem.nolimit.2p.reverse_blinds.game"
    assert main(["predict", str(log), "--game", str(game), "--hand", "2", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["players"]) == 2


@pytest.mark.skipif(not (DATA / "pluribus").is_dir(), reason="shared data not present")
def test_predict_eval_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(DATA / "pluribus" / "pluribus_99.txt")]
    assert main(["predict-eval", *files, "--limit", "15", "--flop-runouts", "100", "--json",
                 "--out", str(tmp_path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 15
    assert {r["predictor"] for r in report["rows"]} == {"uniform", "model", "adapted"}
    assert (tmp_path / "predict_eval.json").exists()
