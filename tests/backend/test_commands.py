"""`match`, `tournament`, `tune` and `lbr` give identical JSON with --backend local --workers 1,
--backend local --workers 2 and --backend ray (a local 2-CPU Ray instance); a failing
work item reaches the command line with its index and seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from checkraise.backend import Backend
from checkraise.cli.main import main
from checkraise.errors import ConfigError

pytestmark = pytest.mark.xdist_group("ray")

BACKENDS = (
    ["--backend", "local", "--workers", "1"],
    ["--backend", "local", "--workers", "2"],
    ["--backend", "ray", "--workers", "2"],
)


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def test_match_json_is_the_same_on_every_backend(
    ray_backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = [
        _json(["match", "random", "raise", "call", "--hands", "40", "--seed", "3", "--json",
               *b], capsys)
        for b in BACKENDS
    ]
    assert runs[0] == runs[1] == runs[2]
    assert runs[0]["hands_played"] == 120
    assert any(p["total_chips"] != 0 for p in runs[0]["players"])


def test_lbr_json_is_the_same_on_every_backend(
    ray_backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    # Four work items of two deals: LBR against the heuristic bot's exact fast path.
    runs = [
        _json(["lbr", "heuristic", "--hands", "16", "--block", "2", "--seed", "4", "--json",
               *b], capsys)
        for b in BACKENDS
    ]
    assert runs[0] == runs[1] == runs[2]
    assert runs[0]["mbb_per_game"]["n"] == 16 and runs[0]["lbr_decisions"] > 0


def test_tournament_json_is_the_same_on_every_backend(
    ray_backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = [
        _json(["tournament", "-a", "random,call,raise", "--hands", "40", "--repeat", "3",
               "--seed", "5", "--json", *b], capsys)
        for b in BACKENDS
    ]
    assert runs[0] == runs[1] == runs[2]
    assert runs[0]["repetitions"] == 3


def test_tune_json_log_and_profile_are_the_same_on_every_backend(
    ray_backend: Backend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 12,000 pool deals and 6,000 held-out deals are three and two blocks of work items.
    runs = []
    for i, b in enumerate(BACKENDS):
        out = tmp_path / str(i)
        data = _json(["tune", "--out", str(out), "--sweeps", "1", "--steps", "3", "--batches",
                      "4", "--batch-size", "300", "--pool", "12000", "--samples", "20",
                      "--params", "flop.*", "--check-deals", "6000", "--seed", "2", "--json",
                      *b], capsys)
        del data["files"]
        runs.append((data, (out / "tune_log.jsonl").read_text(),
                     (out / "profile.json").read_text()))
    assert runs[0] == runs[1] == runs[2]
    data = runs[0][0]
    # Something was tuned and measured, so the comparison above is not of empty runs.
    assert data["accepted"] > 0 and data["tuned_vs_start_mbb"]["mean"] != 0


@pytest.mark.parametrize(
    ("error", "status", "shown"),
    [
        (ConfigError("bad model file"), 2, "checkraise: error: work item 1 (seed 3) failed: "
                                           "ConfigError: bad model file"),
        (RuntimeError("a bug"), 1, "internal error"),
    ],
)
def test_a_failing_work_item_reaches_the_command_line_with_index_and_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], error: Exception,
    status: int, shown: str,
) -> None:
    import checkraise.arena.ring as ring

    real = ring.play_rotation

    def flaky(config: Any, seed: int, rotation: int, **kw: Any) -> Any:
        if rotation == 1:
            raise error
        return real(config, seed, rotation, **kw)

    monkeypatch.setattr(ring, "play_rotation", flaky)
    code = main(["match", "call", "raise", "--hands", "5", "--seed", "3", "--workers", "1",
                 "--json"])
    err = capsys.readouterr().err
    assert code == status
    assert shown in err
    if status == 1:
        assert "work item 1 (seed 3) failed: RuntimeError: a bug" in err
