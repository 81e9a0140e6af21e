"""A tournament whose repetition fails keeps the repetitions that finished, and
``resume`` then plays only the missing ones, equal to a run that never failed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import checkraise.arena.series as series
from checkraise.arena.series import run_tournaments
from checkraise.arena.tournament import TournamentConfig
from checkraise.backend import LocalBackend, WorkItemError

CFG = TournamentConfig(("random", "call", "raise"), max_hands=30)


def test_finished_repetitions_survive_a_failing_one_and_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = run_tournaments(CFG, seed=8, repeat=4, out=tmp_path / "full", workers=1, logs=False)
    real = series.play_tournament

    def flaky(config: TournamentConfig, seed: int, repetition: int, **kw: Any) -> Any:
        if repetition == 2:
            raise OSError("disk went away")
        return real(config, seed, repetition, **kw)

    monkeypatch.setattr(series, "play_tournament", flaky)
    out = tmp_path / "cut"
    with pytest.raises(WorkItemError) as info:
        run_tournaments(CFG, seed=8, repeat=4, out=out, backend=LocalBackend(1), logs=False)
    assert (info.value.index, info.value.seed) == (2, 8)
    kept = [json.loads(line)["repetition"] for line in (out / "results.jsonl").open()]
    assert kept == [0, 1]
    monkeypatch.setattr(series, "play_tournament", real)
    resumed = run_tournaments(CFG, seed=8, repeat=4, out=out, workers=2, resume=True,
                              logs=False)
    assert resumed.resumed == 2 and resumed.summary == full.summary
