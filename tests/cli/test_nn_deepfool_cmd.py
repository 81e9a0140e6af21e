"""``checkraise nn deepfool pretrain|train`` on tiny budgets: files, JSON, resume, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli_helpers import PNG_SIGNATURE
from tests.cli_helpers import bad_cli as _bad
from tests.cli_helpers import run_cli as _run

from checkraise.nn.deepfool_net import load_net

PRE = ["nn", "deepfool", "pretrain", "--hands", "3", "--heldout", "2", "--steps", "4",
       "--hidden", "8", "--samples", "20", "--workers", "1", "--seed", "2"]
TRAIN = ["nn", "deepfool", "train", "--fast-rounds", "1", "--traversals", "2", "--items", "2",
         "--steps", "2", "--expand-depth", "1", "--workers", "1", "--seed", "3"]


def test_pretrain_then_train_then_resume(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    pre = tmp_path / "pre"
    code, out, _ = _run([*PRE, "--out", str(pre), "--json"], capsys)
    assert code == 0
    summary = json.loads(out)
    assert summary["train_decisions"] > 0 and 0 <= summary["heldout_agreement"] <= 1
    assert (pre / "pretrain_curves.png").read_bytes().startswith(PNG_SIGNATURE)
    net, header = load_net(pre / "pretrained.npz")
    assert header["command"].startswith("checkraise nn deepfool pretrain")
    assert net.config.hidden == 8

    run = tmp_path / "run"
    init = ["--init", str(pre / "pretrained.npz"), "--out", str(run)]
    code, out, _ = _run([*TRAIN, *init, "--rounds", "2", "--json"], capsys)
    assert code == 0 and json.loads(out)["round"] == 2
    rows = [json.loads(x) for x in (run / "progress.jsonl").read_text().splitlines()]
    assert [r["phase"] for r in rows] == ["fast", "mccfr"]
    assert (run / "train_curves.png").read_bytes().startswith(PNG_SIGNATURE)
    # a run in the folder is continued only with --resume, to its (new) total of rounds
    line = _bad([*TRAIN, *init, "--rounds", "3"], capsys)
    assert "--resume" in line
    code, out, _ = _run([*TRAIN, *init, "--rounds", "3", "--resume", "--json"], capsys)
    assert code == 0
    rows = [json.loads(x) for x in (run / "progress.jsonl").read_text().splitlines()]
    assert [r["round"] for r in rows] == [1, 2, 3]
    assert load_net(run / "deepfool.npz")[1]["phase"] == "mccfr"


def test_bad_options_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = _bad([*TRAIN, "--rounds", "1", "--fast-rounds", "2", "--out", str(tmp_path / "a")],
                capsys)
    assert "fast_rounds=2" in line
    line = _bad([*TRAIN, "--init", str(tmp_path / "none.npz"), "--out", str(tmp_path / "b")],
                capsys)
    assert "none.npz" in line
    line = _bad([*TRAIN, "--resume", "--out", str(tmp_path / "c")], capsys)
    assert "--resume" in line
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
