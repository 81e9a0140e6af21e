"""``benchmarks/paired_matches.py --pool``: one pairing's matches on several seeds, pooled.

The oracle is each match's own ``results.json``: the pooled mean must be the deal-weighted
mean of the matches' means and the pooled interval must follow from their means, standard
deviations and deal counts (the pooled sample variance), for each of the three figures.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checkraise.cli.main import app

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "paired_matches.py"


def _match(out: Path, seed: int, deals: int, agents: tuple[str, str] = ("random", "call"),
           *extra: str) -> dict:
    result = CliRunner().invoke(app, ["match", *agents, "-n", str(deals), "--seed", str(seed),
                                      "--workers", "1", "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return json.loads((out / "results.json").read_text())


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, check=False)


def _pooled(parts: list[dict]) -> tuple[float, float]:
    """Mean and 95% half-width over all deals, from each part's mean, sd and n."""
    n = sum(p["n"] for p in parts)
    mean = sum(p["mean"] * p["n"] for p in parts) / n
    ss = sum((p["n"] - 1) * p["sd"] ** 2 + p["n"] * (p["mean"] - mean) ** 2 for p in parts)
    return mean, 1.96 * math.sqrt(ss / (n - 1)) / math.sqrt(n)


def test_pooled_figures_follow_from_each_match_s_own(tmp_path: Path) -> None:
    first = _match(tmp_path / "a", 11, 40)
    second = _match(tmp_path / "b", 12, 70)
    done = _run(str(tmp_path / "a"), str(tmp_path / "b"), "--pool", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["deals"] == 110 and report["seeds"] == [11, 12]
    assert report["agent"] == "random" and report["opponent"] == "call"
    for key, figure in (("mbb_per_hand", report), ("mbb_per_hand_allin_adjusted",
                                                   report["allin_adjusted"]),
                        ("mbb_per_hand_luck_adjusted", report["luck_adjusted"])):
        parts = [m["players"][0][key] for m in (first, second)]
        mean, half = _pooled(parts)
        assert figure["mbb_per_hand"] == pytest.approx(mean, abs=1e-6)
        assert figure["half_width"] == pytest.approx(half, rel=1e-6)


def test_pooling_refuses_repeated_seeds_and_other_pairings(tmp_path: Path) -> None:
    _match(tmp_path / "a", 11, 10)
    _match(tmp_path / "again", 11, 10)
    _match(tmp_path / "other", 12, 10, ("random", "raise"))
    _match(tmp_path / "deep", 13, 10, ("random", "call"), "--stack", "30000")
    done = _run(str(tmp_path / "a"), str(tmp_path / "again"), "--pool")
    assert done.returncode != 0 and "seeds [11, 11] repeat" in done.stderr
    done = _run(str(tmp_path / "a"), str(tmp_path / "other"), "--pool")
    assert done.returncode != 0 and "different pairings" in done.stderr
    done = _run(str(tmp_path / "a"), str(tmp_path / "deep"), "--pool")
    assert done.returncode != 0 and "different tables" in done.stderr
