"""Repetitions in parallel: identical for 1 and 2 workers, written as they finish, resumable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkraise.arena.series import ResumeError, run_tournaments
from checkraise.arena.tournament import TournamentConfig, play_tournament

CFG = TournamentConfig(("random", "call", "raise", "random", "checkfold"), max_hands=60)


def _lines(out: Path) -> list[dict[str, object]]:
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return sorted(rows, key=lambda r: int(r["repetition"]))  # type: ignore[call-overload]


def test_same_seed_same_results_for_one_and_two_workers(tmp_path: Path) -> None:
    one = run_tournaments(CFG, seed=17, repeat=4, out=tmp_path / "w1", workers=1, logs=False)
    two = run_tournaments(CFG, seed=17, repeat=4, out=tmp_path / "w2", workers=2, logs=True)
    assert [r.to_json() for r in one.results] == [r.to_json() for r in two.results]
    assert one.summary == two.summary
    assert _lines(tmp_path / "w1") == _lines(tmp_path / "w2")
    assert json.loads((tmp_path / "w1" / "results.json").read_text()) == json.loads(
        (tmp_path / "w2" / "results.json").read_text()
    )
    # Each repetition equals the tournament played alone with the same seed.
    assert one.results[2].to_json() == play_tournament(CFG, 17, 2).to_json()
    for name in ("report.md", "chip_trend.png", "ranks.png", "mbb.png", "run.json"):
        assert (tmp_path / "w2" / name).stat().st_size > 0
    assert len(list((tmp_path / "w2" / "logs").glob("rep-*.log"))) == 4
    assert not (tmp_path / "w1" / "logs").exists()


def test_resume_keeps_finished_repetitions_and_equals_an_uninterrupted_run(
    tmp_path: Path,
) -> None:
    full = run_tournaments(CFG, seed=3, repeat=4, out=tmp_path / "full", workers=1, logs=False)
    out = tmp_path / "cut"
    run_tournaments(CFG, seed=3, repeat=2, out=out, workers=1, logs=False)
    # An interruption in the middle of writing the third line.
    with open(out / "results.jsonl", "a") as f:
        f.write('{"repetition": 2, "hands_pl')
    resumed = run_tournaments(CFG, seed=3, repeat=4, out=out, workers=2, resume=True, logs=False)
    assert resumed.resumed == 2
    assert resumed.summary == full.summary
    assert _lines(out) == _lines(tmp_path / "full")
    # Resuming a finished run plays nothing more.
    again = run_tournaments(CFG, seed=3, repeat=4, out=out, workers=1, resume=True, logs=False)
    assert again.resumed == 4 and again.summary == full.summary


def test_resume_accepts_a_run_written_with_an_agent_alias(tmp_path: Path) -> None:
    # Runs written before the hand-reading bot became "handreader" name it "fold".
    cfg = TournamentConfig(("random", "call", "raise"), max_hands=30)
    run_tournaments(cfg, seed=5, repeat=1, out=tmp_path, workers=1, logs=False)
    run = json.loads((tmp_path / "run.json").read_text())
    run["config"]["agents"][0] = "fold"
    (tmp_path / "run.json").write_text(json.dumps(run))
    renamed = TournamentConfig(("handreader", "call", "raise"), max_hands=30)
    with pytest.raises(ResumeError, match="cannot resume"):
        run_tournaments(cfg, seed=5, repeat=1, out=tmp_path, workers=1, resume=True, logs=False)
    resumed = run_tournaments(renamed, seed=5, repeat=1, out=tmp_path, workers=1, resume=True,
                              logs=False)
    assert resumed.resumed == 1


def test_resume_refuses_a_different_run(tmp_path: Path) -> None:
    run_tournaments(CFG, seed=3, repeat=1, out=tmp_path, workers=1, logs=False)
    with pytest.raises(ResumeError, match="cannot resume"):
        run_tournaments(CFG, seed=4, repeat=2, out=tmp_path, workers=1, resume=True, logs=False)


def test_progress_counts_every_hand_slot() -> None:
    ticks: list[int] = []
    run_tournaments(CFG, seed=1, repeat=3, workers=1, progress=ticks.append)
    assert sum(ticks) == 3 * CFG.max_hands
