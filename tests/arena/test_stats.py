"""Arena statistics against textbook formulas computed independently."""

from __future__ import annotations

import itertools
import math
import statistics

import numpy as np
import pytest

from checkraise.arena.stats import (
    ActionCounts,
    Estimate,
    chip_volatility,
    estimate,
    mbb_per_hand,
    pool_estimates,
    rank_summary,
    ratio_mbb_per_hand,
    shared_ranks,
)


def test_estimate_matches_the_statistics_module() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(3.0, 2.0, size=57).tolist()
    e = estimate(x)
    assert e.mean == pytest.approx(statistics.fmean(x))
    assert e.sd == pytest.approx(statistics.stdev(x))
    z = statistics.NormalDist().inv_cdf(0.975)
    assert e.half_width == pytest.approx(z * statistics.stdev(x) / math.sqrt(57))
    assert e.low < e.mean < e.high


def test_estimate_edge_cases() -> None:
    assert estimate([7.0]).n == 1 and math.isnan(estimate([7.0]).half_width)
    assert estimate([7.0]).to_json()["half_width"] is None
    assert estimate([2, 2, 2]).half_width == 0.0
    with pytest.raises(ValueError, match="at least one value"):
        estimate([])


def test_pooled_estimates_are_the_estimate_of_all_the_samples() -> None:
    rng = np.random.default_rng(7)
    chunks = [rng.normal(mu, sd, size=n).tolist()
              for mu, sd, n in ((5.0, 2.0, 13), (-40.0, 9.0, 2), (0.5, 30.0, 101))]
    pooled = pool_estimates([estimate(c) for c in chunks])
    everything = [x for c in chunks for x in c]
    z = statistics.NormalDist().inv_cdf(0.975)
    assert pooled.n == len(everything)
    assert pooled.mean == pytest.approx(statistics.fmean(everything), rel=1e-12)
    assert pooled.sd == pytest.approx(statistics.stdev(everything), rel=1e-12)
    assert pooled.half_width == pytest.approx(
        z * statistics.stdev(everything) / math.sqrt(len(everything)), rel=1e-12)
    one, alone = estimate(chunks[2]), pool_estimates([estimate(chunks[2])])
    assert (alone.mean, alone.sd, alone.n) == (one.mean, pytest.approx(one.sd), one.n)


def test_pooling_refuses_nothing_and_parts_without_a_spread() -> None:
    with pytest.raises(ValueError, match="no estimates to pool"):
        pool_estimates([])
    with pytest.raises(ValueError, match=r"part 2, estimate 3\.0 of 1 samples with sd nan"):
        pool_estimates([estimate([1.0, 2.0]), estimate([3.0])])
    with pytest.raises(ValueError, match=r"part 1, .* expected at least two samples, a finite "
                                         "mean"):
        pool_estimates([Estimate(math.nan, 1.0, 1.0, 5), estimate([1.0, 2.0])])


def test_mbb_scales_chips_by_the_big_blind() -> None:
    e = mbb_per_hand([40, -20, 10], big_blind=40)
    assert e.mean == pytest.approx(1000 * 10 / 40)
    with pytest.raises(ValueError, match="big_blind 0"):
        mbb_per_hand([1.0], big_blind=0)


def test_ratio_rate_pools_units_of_unequal_length() -> None:
    chips, hands = [-4000, 800, 400, 2800], [3, 400, 200, 397]
    e = ratio_mbb_per_hand(chips, hands, big_blind=40)
    assert e.mean == pytest.approx(1000 * sum(chips) / sum(hands) / 40)
    assert e.mean == 0.0
    # With equal lengths the ratio estimate is the plain mean of per-hand rates.
    rng = np.random.default_rng(3)
    x = rng.normal(0, 100, size=30)
    plain = estimate(1000 * x / 50 / 40)
    pooled = ratio_mbb_per_hand(x, [50] * 30, big_blind=40)
    assert pooled.mean == pytest.approx(plain.mean)
    assert pooled.half_width == pytest.approx(plain.half_width)
    with pytest.raises(ValueError, match="equal"):
        ratio_mbb_per_hand([1.0], [1.0, 2.0], big_blind=40)


def test_chip_volatility_is_the_sum_of_squared_changes() -> None:
    rng = np.random.default_rng(2)
    c = rng.integers(0, 5000, size=100).tolist()
    assert chip_volatility(c) == sum((b - a) ** 2 for a, b in itertools.pairwise(c))
    assert chip_volatility([2000]) == 0


def test_shared_ranks_average_ties() -> None:
    assert shared_ranks([(3,), (1,), (2,)]) == [1.0, 3.0, 2.0]
    assert shared_ranks([(5,), (5,), (5,)]) == [2.0, 2.0, 2.0]
    assert shared_ranks([(9, 0), (9, 1), (1, 0), (1, 0)]) == [2.0, 1.0, 3.5, 3.5]


def test_rank_summary_counts_and_win_shares() -> None:
    ranks = [[1, 2, 3], [2.5, 2.5, 1], [1.5, 1.5, 3]]
    s = rank_summary(ranks, 3)
    assert s[0]["rank_counts"] == [1.5, 1.0, 0.5]
    assert s[2]["rank_counts"] == [1.0, 0.0, 2.0]
    assert s[0]["win_rate"] == pytest.approx(0.5)
    for k in range(3):  # every place is filled once per repetition
        assert sum(p["rank_counts"][k] for p in s) == pytest.approx(3)
    assert s[1]["mean_rank"]["mean"] == pytest.approx((2 + 2.5 + 1.5) / 3)


def test_action_counts_tracker_stats() -> None:
    a = ActionCounts()
    a.record_hand([(0, "raise", 40), (1, "call", 100), (2, "raise", 0)])  # PFR, VPIP
    a.record_hand([(0, "call", 0), (1, "call", 0), (2, "fold", 80)])  # checked the big blind
    a.record_hand([(0, "call", 20), (1, "call", 0)])  # VPIP only
    a.record_hand([(0, "fold", 40)])
    d = a.to_json()
    assert (d["hands"], d["decisions"]) == (4, 9)
    assert (d["folds"], d["checks"], d["calls"], d["raises"]) == (2, 3, 2, 2)
    assert d["vpip_pct"] == pytest.approx(50.0) and d["pfr_pct"] == pytest.approx(25.0)
    assert d["aggression_factor"] == pytest.approx(1.0)
    assert d["fold_pct"] + d["check_pct"] + d["call_pct"] + d["raise_pct"] == pytest.approx(100)
    b = ActionCounts.from_json(d)
    b.add(a)
    assert b.to_json()["hands"] == 8 and b.to_json()["vpip_pct"] == pytest.approx(50.0)
    assert ActionCounts().to_json()["aggression_factor"] is None
