"""``checkraise nn opponent generate|train|eval`` end to end on a tiny folder, and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import PNG_SIGNATURE, bad_cli, run_cli

pytest.importorskip("torch")


def test_generate_train_eval(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    code, out, _ = run_cli(["nn", "opponent", "generate", "--out", str(data), "--chunks", "2",
                            "--hands-per-chunk", "40", "--seed", "2", "--json"], capsys)
    assert code == 0
    figures = json.loads(out)
    assert figures["chunks_written"] == 2 and figures["decisions_written"] > 80
    code, out, _ = run_cli(["nn", "opponent", "generate", "--out", str(data), "--chunks", "2",
                            "--hands-per-chunk", "40", "--seed", "2", "--json"], capsys)
    assert json.loads(out)["chunks_written"] == 0  # complete: nothing rewritten
    model = tmp_path / "m.npz"
    test = "call,random:pfold=0.2,pcall=0.6,praise=0.2"
    code, out, _ = run_cli(["nn", "opponent", "train", "--data", str(data), "--out", str(model),
                            "--test", test, "--epochs", "1", "--max-train", "64",
                            "--channels", "2,2", "--json"], capsys)
    assert code == 0
    trained = json.loads(out)
    assert len(trained["held_loss"]) == 1
    assert (tmp_path / "m.png").read_bytes().startswith(PNG_SIGNATURE)
    code, out, _ = run_cli(["nn", "opponent", "eval", "--data", str(data), "--model", str(model),
                            "--test", test, "--json"], capsys)
    assert code == 0
    report = json.loads(out)
    assert set(report["scores"]) == {"majority", "situation", "markov1", "markov2", "cnn"}
    assert sorted(report["test_bots"]) == ["call", "random:pfold=0.2,pcall=0.6,praise=0.2"]
    assert all(0.0 <= s["accuracy"] <= 1.0 for s in report["scores"].values())
    assert report["per_bot"]["call"]["majority"]["n"] > 0
    code, out, _ = run_cli(["nn", "opponent", "eval", "--data", str(data), "--no-cnn",
                            "--test", test], capsys)
    assert code == 0 and "markov2" in out and "cnn" not in out


def test_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "no manifest.json" in bad_cli(
        ["nn", "opponent", "eval", "--data", str(tmp_path), "--no-cnn"], capsys)
    data = tmp_path / "d"
    run_cli(["nn", "opponent", "generate", "--out", str(data), "--chunks", "1",
             "--hands-per-chunk", "5", "--json"], capsys)
    assert "not in the data" in bad_cli(
        ["nn", "opponent", "eval", "--data", str(data), "--no-cnn", "--test", "raise"], capsys)
    assert "--channels" in bad_cli(
        ["nn", "opponent", "train", "--data", str(data), "--out", str(tmp_path / "m.npz"),
         "--channels", "16"], capsys)
    assert "other settings" in bad_cli(
        ["nn", "opponent", "generate", "--out", str(data), "--seed", "5",
         "--hands-per-chunk", "5"], capsys)
