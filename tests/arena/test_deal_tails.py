"""The tail figures of a match's deals: the bootstrap interval and the share of the
largest deals (:mod:`checkraise.arena.stats`), and ``benchmarks/deal_tails.py``.

Oracles: scipy's bootstrap, skewness and kurtosis, a slow sort for the largest deals,
and the archived match's own ``results.json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as scipy_stats

from checkraise.arena.stats import bootstrap_interval, estimate, largest_shares
from checkraise.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "deal_tails.py"
ARCHIVE = ROOT / "docs" / "results" / "issue16" / "safe_small_431109"


def test_bootstrap_interval_agrees_with_scipys_on_a_heavy_tailed_sample() -> None:
    rng = np.random.default_rng(5)
    # mostly 0, a few huge values of either sign: a match decided by its all-ins
    x = np.where(rng.random(3000) < 0.05, rng.standard_t(2, 3000) * 5000, 0.0)
    low, high = bootstrap_interval(x, resamples=20_000, seed=1)
    ref = scipy_stats.bootstrap((x,), np.mean, n_resamples=20_000, method="percentile",
                                confidence_level=0.95, random_state=2).confidence_interval
    width = ref.high - ref.low
    # two Monte Carlo runs of 20,000 resamples: their ends agree to a few % of the width
    assert abs(low - ref.low) < 0.05 * width and abs(high - ref.high) < 0.05 * width
    assert low < x.mean() < high
    assert bootstrap_interval(x, resamples=500, seed=3) == bootstrap_interval(
        x, resamples=500, seed=3)


def test_bootstrap_interval_of_a_normal_sample_is_near_the_normal_interval() -> None:
    x = np.random.default_rng(6).normal(10.0, 3.0, 4000)
    low, high = bootstrap_interval(x, seed=4)
    e = estimate(x)
    assert abs(low - e.low) < 0.05 * e.half_width and abs(high - e.high) < 0.05 * e.half_width


def test_bootstrap_interval_refuses_what_it_cannot_do() -> None:
    with pytest.raises(ConfigError, match="bootstrap of no samples"):
        bootstrap_interval([])
    with pytest.raises(ConfigError, match="invalid resamples 50: expected 100 or more"):
        bootstrap_interval([1.0, 2.0], resamples=50)
    with pytest.raises(ConfigError, match="invalid seed -1: expected 0 or more"):
        bootstrap_interval([1.0, 2.0], seed=-1)


def _largest_naive(x: list[float], k: int) -> tuple[float, float]:
    ranked = sorted(range(len(x)), key=lambda i: (-abs(x[i]), i))
    top = set(ranked[:k])
    rest = [v for i, v in enumerate(x) if i not in top]
    return sum(x[i] for i in top) / len(x), sum(rest) / len(rest)


def test_largest_shares_match_a_slow_sort_and_add_up_to_the_mean() -> None:
    rng = np.random.default_rng(7)
    x = [float(v) for v in rng.integers(-9, 10, 200)]  # many ties in size
    for k, share, rest in largest_shares(x, [1, 5, 37, 199]):
        want_share, want_rest = _largest_naive(x, k)
        assert share == pytest.approx(want_share) and rest == pytest.approx(want_rest)
        assert share + rest * (len(x) - k) / len(x) == pytest.approx(np.mean(x))
    with pytest.raises(ConfigError, match="invalid count 4 of largest samples: expected 1 "
                                          "to 3"):
        largest_shares([1.0, 2.0, 3.0, 4.0], [4])


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, check=False)


def test_the_script_on_an_archived_match_gives_its_reported_figure() -> None:
    done = _run(str(ARCHIVE), "--json", "--resamples", "2000", "--top", "1,50")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    results = json.loads((ARCHIVE / "results.json").read_text())
    want = results["players"][0]["mbb_per_hand_luck_adjusted"]
    assert data["player"] == results["players"][0]["name"]
    assert data["deals"] == want["n"] == 5238
    for key in ("mean", "ci95_low", "ci95_high"):
        assert data["normal"][key] == pytest.approx(want[key], rel=1e-9)
    # the deals themselves, for scipy's moments: the largest one's share is exact
    biggest = data["largest"][0]
    assert data["largest"][0]["share_of_mean"] + biggest["mean_of_rest"] * 5237 / 5238 == (
        pytest.approx(want["mean"]))
    assert data["bootstrap"]["ci95_low"] < want["mean"] < data["bootstrap"]["ci95_high"]
    assert 0 < data["not_zero"] < 5238  # in step: most deals come out even


def test_the_scripts_moments_are_scipys(tmp_path: Path) -> None:
    from checkraise.arena.journal import pool

    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import deal_tails
    finally:
        sys.path.remove(str(SCRIPT.parent))
    x, _ = deal_tails.deal_values(pool([ARCHIVE / "logs"]), "dealt", None)
    got = deal_tails.summary(x, [10], 200, 0)
    assert got["skewness"] == pytest.approx(scipy_stats.skew(x))
    assert got["excess_kurtosis"] == pytest.approx(scipy_stats.kurtosis(x))
    assert got["not_zero"] == int(np.sum(x != 0))


def test_the_script_names_what_is_wrong(tmp_path: Path) -> None:
    for args, message in [
        ([str(ARCHIVE), "--player", "nobody"], "--player 'nobody': not in the match"),
        ([str(ARCHIVE), "--top", "ten"], "--top 'ten': expected whole numbers"),
        ([str(ARCHIVE), "--top", "6000"], "invalid count 6000 of largest samples"),
        ([str(ARCHIVE), "--resamples", "10"], "invalid resamples 10"),
        ([str(ARCHIVE), "--seed", "-1"], "invalid seed -1"),
        ([str(tmp_path / "none")], str(tmp_path / "none")),
    ]:
        done = _run(*args)
        assert done.returncode != 0 and message in done.stderr, (args, done.stderr)
