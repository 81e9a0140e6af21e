"""``checkraise nn values generate|train|eval``: the pipeline end to end, bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from checkraise.nn.io import save_model
from tests.cli_helpers import PNG_SIGNATURE, bad_cli, run_cli


def test_generate_train_eval(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, model = tmp_path / "data", tmp_path / "m.npz"
    code, out, err = run_cli(["nn", "values", "generate", "--game", "leduc", "--situations", "6",
                              "--out", str(data), "--iterations", "20", "--chunk-size", "4",
                              "--seed", "3", "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["chunks"] == 2 and "--situations 6" in report["command"]
    code, out, err = run_cli(["nn", "values", "train", "--data", str(data), "--out", str(model),
                              "--epochs", "2", "--hidden", "8", "--batch-size", "2", "--json"],
                             capsys)
    assert code == 0, err
    report = json.loads(out)
    assert model.exists() and report["epochs"] == 2
    assert Path(report["plot"]).read_bytes().startswith(PNG_SIGNATURE)
    code, out, err = run_cli(["nn", "values", "eval", "--model", str(model), "--iterations", "3",
                              "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["resolves"] == 217
    # A 6-situation network at 3 iterations per re-solve: far from equilibrium, but a
    # real exploitability (between 0 and always-raise's few chips).
    assert 0.0 < report["exploitability"] < 5.0 and 0.0 < report["cfr_plus"] < 5.0


def test_bad_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = bad_cli(["nn", "values", "generate", "--situations", "0", "--out",
                    str(tmp_path / "d")], capsys)
    assert "--situations 0" in line
    line = bad_cli(["nn", "values", "generate", "--game", "kuhn", "--situations", "2", "--out",
                    str(tmp_path / "d")], capsys)
    assert "kuhn" in line
    line = bad_cli(["nn", "values", "train", "--data", str(tmp_path / "none"), "--out",
                    str(tmp_path / "m.npz")], capsys)
    assert "does not exist" in line
    other = save_model(tmp_path / "other.npz", {"w": np.zeros(2)}, {}, kind="deep-cfr-policy")
    line = bad_cli(["nn", "values", "eval", "--model", str(other)], capsys)
    assert "leduc-cfv" in line and "deep-cfr-policy" in line
    line = bad_cli(["nn", "values", "eval", "--iterations", "-1"], capsys)
    assert "--iterations -1" in line
    assert not (tmp_path / "d").exists()
