"""``checkraise nn river generate|train|eval``: the pipeline end to end, bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.cli_helpers import PNG_SIGNATURE, bad_cli, run_cli


def test_generate_train_eval(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, test, model = tmp_path / "data", tmp_path / "test", tmp_path / "m.npz"
    fast = ["--accuracy", "20", "--max-iterations", "5", "--chunk-size", "2"]
    code, out, err = run_cli(["nn", "river", "generate", "--situations", "4", "--out", str(data),
                              "--seed", "3", *fast, "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["written"] == 4 and "--situations 4" in report["command"]
    code, out, err = run_cli(["nn", "river", "generate", "--situations", "2", "--out", str(test),
                              "--seed", "4", *fast, "--json"], capsys)
    assert code == 0, err
    code, out, err = run_cli(["nn", "river", "train", "--data", str(data), "--out", str(model),
                              "--epochs", "2", "--hidden", "8", "--batch-size", "2", "--json"],
                             capsys)
    assert code == 0, err
    report = json.loads(out)
    assert model.exists() and report["epochs"] == 2 and report["valid_mae"] >= 0.0
    assert Path(report["plot"]).read_bytes().startswith(PNG_SIGNATURE)
    code, out, err = run_cli(["nn", "river", "eval", "--data", str(test), "--model", str(model),
                              "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    errors = report["river"]["errors"]
    assert report["river"]["situations"] == 2
    # the bucket oracle is the best any bucketed predictor can do
    assert errors["bucket oracle (exact bucket means)"] <= errors["network"]


def test_bad_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = bad_cli(["nn", "river", "generate", "--situations", "0", "--out",
                    str(tmp_path / "d")], capsys)
    assert "--situations 0" in line
    line = bad_cli(["nn", "river", "generate", "--situations", "2", "--accuracy", "-1",
                    "--out", str(tmp_path / "d")], capsys)
    assert "accuracy=-1" in line
    line = bad_cli(["nn", "river", "train", "--data", str(tmp_path / "none"), "--out",
                    str(tmp_path / "m.npz")], capsys)
    assert "does not exist" in line
    line = bad_cli(["nn", "river", "train", "--data", str(tmp_path), "--out",
                    str(tmp_path / "m.npz"), "--hidden", "8,x"], capsys)
    assert "--hidden '8,x'" in line
    line = bad_cli(["nn", "river", "eval", "--data", str(tmp_path), "--model",
                    str(tmp_path / "missing.npz")], capsys)
    assert "missing.npz" in line


def test_turn_network_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fast = ["--accuracy", "50", "--max-iterations", "3", "--chunk-size", "2", "--street", "turn"]
    for folder, seed in (("data", "3"), ("test", "4")):
        code, out, err = run_cli(["nn", "river", "generate", "--situations", "2", "--out",
                                  str(tmp_path / folder), "--seed", seed, *fast, "--json"],
                                 capsys)
        assert code == 0, err
        assert json.loads(out)["street"] == "turn"
    model = tmp_path / "turn.npz"
    code, out, err = run_cli(["nn", "river", "train", "--data", str(tmp_path / "data"),
                              "--out", str(model), "--epochs", "1", "--hidden", "8",
                              "--batch-size", "2", "--json"], capsys)
    assert code == 0, err
    code, out, err = run_cli(["nn", "river", "eval", "--data", str(tmp_path / "test"),
                              "--model", str(model), "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["street"] == "turn" and report["river"]["situations"] == 2
    errors = report["river"]["errors"]
    assert errors["bucket oracle (exact bucket means)"] <= errors["network"]
    # a turn network is not asked about river situations, nor used for turn spots
    river = tmp_path / "river"
    code, _, err = run_cli(["nn", "river", "generate", "--situations", "1", "--out", str(river),
                            "--accuracy", "50", "--max-iterations", "3"], capsys)
    assert code == 0, err
    line = bad_cli(["nn", "river", "eval", "--data", str(river), "--model", str(model)], capsys)
    assert "holds river situations" in line and "turn network" in line
    line = bad_cli(["nn", "river", "eval", "--data", str(tmp_path / "test"), "--model",
                    str(model), "--turn-spots", "1"], capsys)
    assert "--turn-spots needs a river network" in line
    line = bad_cli(["nn", "river", "eval", "--data", str(tmp_path / "test"), "--model",
                    str(model), "--flop-spots", "-1"], capsys)
    assert "invalid --flop-spots -1" in line
    # ... but for flop spots, which it values at the end of the flop
    from checkraise.nn.river_eval import evaluate_depth_limited
    from checkraise.nn.river_values import RiverValueFunction

    flop = evaluate_depth_limited(RiverValueFunction(model), 1, seed=5, accuracy=1000,
                                  max_iterations=2)
    assert flop["street"] == "flop" and flop["spots"] == 1
    assert np.isfinite(flop["value_gap_pct"]) and 0 <= flop["strategy_gap"] <= 1
    line = bad_cli(["nn", "river", "generate", "--situations", "1", "--out",
                    str(tmp_path / "f"), "--street", "flop"], capsys)
    assert "street='flop'" in line
