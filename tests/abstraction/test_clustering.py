"""Clustering: exact 1-D k-means against brute force, EMD against a transport plan,
known synthetic clusters recovered, same seed same buckets."""

from __future__ import annotations

from itertools import combinations, pairwise, permutations

import numpy as np
import pytest

from checkraise.abstraction._cluster_kernels import (
    assign_counts,
    kmeans1d_dp,
    within_bucket_emd,
)
from checkraise.abstraction.clustering import emd, emd_kmeans, equal_count_cuts, kmeans_1d
from checkraise.errors import CheckraiseError


def _brute_sse(x: np.ndarray, w: np.ndarray, k: int) -> float:
    best = np.inf
    n = x.size
    for cuts in combinations(range(1, n), k - 1):
        edges = [0, *cuts, n]
        sse = 0.0
        for a, b in pairwise(edges):
            m = np.dot(w[a:b], x[a:b]) / w[a:b].sum()
            sse += float(np.dot(w[a:b], (x[a:b] - m) ** 2))
        best = min(best, sse)
    return best


def test_kmeans1d_dp_is_optimal() -> None:
    rng = np.random.default_rng(1)
    for _ in range(40):
        n = int(rng.integers(2, 10))
        k = int(rng.integers(1, n + 1))
        x = np.sort(rng.choice(1000, n, replace=False)).astype(np.float64) / 1000
        w = rng.integers(1, 6, n).astype(np.float64)
        _, sse = kmeans1d_dp(x, w, k)
        assert sse == pytest.approx(_brute_sse(x, w, k), rel=1e-9, abs=1e-12)


def test_kmeans_1d_recovers_separated_clusters() -> None:
    rng = np.random.default_rng(2)
    centres = np.array([100, 4000, 9000, 15000])
    truth = rng.integers(0, 4, 5000)
    nums = centres[truth] + rng.integers(-50, 51, truth.size)
    got = kmeans_1d(nums, 20000, 4).assign(nums)
    assert np.array_equal(got, truth)  # centres ascend, so bucket c is cluster c


def test_kmeans_1d_counts_equal_repeats() -> None:
    values = np.array([1, 5, 6, 20, 21, 40])
    counts = np.array([3, 1, 2, 5, 1, 2])
    a = kmeans_1d(values, 50, 3, counts)
    b = kmeans_1d(np.repeat(values, counts), 50, 3)
    assert np.array_equal(a.thresholds, b.thresholds)


def test_equal_count_cuts_with_counts() -> None:
    # 10 values of 0, 10 of 1, 10 of 2 into 3 buckets: one value each
    c = equal_count_cuts(np.array([0, 1, 2]), 2, 3, np.array([10, 10, 10]))
    assert c.assign(np.array([0, 1, 2])).tolist() == [0, 1, 2]


def _transport_emd(p: np.ndarray, q: np.ndarray) -> float:
    """North-west corner plan between two histograms on a line, cost |i - j| per unit."""
    p = p / p.sum()
    q = q / q.sum()
    supply = list(p)
    demand = list(q)
    i = j = 0
    cost = 0.0
    while i < len(supply) and j < len(demand):
        moved = min(supply[i], demand[j])
        cost += moved * abs(i - j)
        supply[i] -= moved
        demand[j] -= moved
        if supply[i] <= 1e-15:
            i += 1
        else:
            j += 1
    return cost


def _brute_emd(p: np.ndarray, q: np.ndarray) -> float:
    """Cheapest plan by exhaustive search over unit moves (integer histograms, tiny)."""
    src = [i for i, c in enumerate(p) for _ in range(int(c))]
    dst = [j for j, c in enumerate(q) for _ in range(int(c))]
    best = min(
        sum(abs(a - b) for a, b in zip(src, perm, strict=True)) for perm in permutations(dst)
    )
    return best / len(src)


def test_emd_equals_direct_transport() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        total = int(rng.integers(1, 7))  # equal masses in whole units, searched exhaustively
        p = rng.multinomial(total, np.full(4, 0.25))
        q = rng.multinomial(total, np.full(4, 0.25))
        assert emd(p, q) == pytest.approx(_brute_emd(p, q))
    for _ in range(50):
        p = rng.random(6)
        q = rng.random(6)
        assert emd(p, q) == pytest.approx(_transport_emd(p, q))


def test_assign_counts_distance_is_emd_to_centroid() -> None:
    rng = np.random.default_rng(4)
    counts = np.stack([rng.multinomial(46, rng.dirichlet(np.ones(8))) for _ in range(50)])
    counts = counts.astype(np.uint8)
    cent = np.stack([rng.multinomial(46, rng.dirichlet(np.ones(8))) for _ in range(5)])
    cent_cdf = (np.cumsum(cent, axis=1) / 46).astype(np.float32)
    labels = np.empty(50, dtype=np.uint16)
    dist = np.empty(50, dtype=np.float32)
    assign_counts(counts, 46, np.ascontiguousarray(cent_cdf.T), 0, 50, labels, dist)
    for i in range(50):
        d = [emd(counts[i], cent[c]) for c in range(5)]
        assert d[labels[i]] == pytest.approx(min(d), abs=1e-5)  # float32 may split near-ties
        assert dist[i] == pytest.approx(min(d), abs=1e-5)


def _synthetic(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Four known clusters of 47-count histograms over 16 bins: weak, strong, draws (weak
    or strong next street) and middling made hands (the same mean as the draws). Each
    row moves at most 4 of its 47 units by one bin, so every row is far nearer (in EMD)
    to its own cluster's shape than to any other."""
    rng = np.random.default_rng(seed)
    shapes = np.zeros((4, 16), dtype=np.int64)
    shapes[0, 1:3] = [24, 23]
    shapes[1, 13:15] = [24, 23]
    shapes[2, [1, 14]] = [24, 23]
    shapes[3, 7:9] = [24, 23]
    truth = rng.integers(0, 4, 3000)
    counts = shapes[truth].copy()
    for row in counts:
        for _ in range(int(rng.integers(0, 5))):
            src = int(rng.choice(np.flatnonzero(row)))
            dst = min(15, max(0, src + int(rng.choice([-1, 1]))))
            row[src] -= 1
            row[dst] += 1
    return counts.astype(np.uint8), truth


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    pairs = set(zip(a.tolist(), b.tolist(), strict=True))
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


def test_emd_kmeans_recovers_known_clusters() -> None:
    counts, truth = _synthetic(5)
    res = emd_kmeans(counts, 4, seed=7, sample=1000)
    assert _same_partition(res.labels, truth)


def test_emd_kmeans_same_seed_same_buckets() -> None:
    counts, _ = _synthetic(6)
    a = emd_kmeans(counts, 12, seed=3, sample=500)
    b = emd_kmeans(counts, 12, seed=3, sample=500)
    assert np.array_equal(a.labels, b.labels)
    assert np.array_equal(a.centroids, b.centroids)


def test_within_bucket_emd_matches_direct() -> None:
    counts, truth = _synthetic(8)
    labels = truth.astype(np.uint16)
    direct = []
    for c in range(4):
        rows = counts[truth == c]
        mean_cdf = (np.cumsum(rows, axis=1) / 47).mean(axis=0)
        direct += [np.abs(np.cumsum(r) / 47 - mean_cdf).sum() for r in rows]
    assert within_bucket_emd(counts, labels, 4) == pytest.approx(np.mean(direct))


def test_bad_cluster_requests_raise() -> None:
    counts, _ = _synthetic(9)
    with pytest.raises(CheckraiseError, match="at most"):
        emd_kmeans(counts[:3], 4, seed=1)
    with pytest.raises(CheckraiseError, match="out of range"):
        kmeans_1d(np.arange(5), 5, 0)
    uneven = counts[:10].copy()
    uneven[0, 0] += 1
    with pytest.raises(CheckraiseError, match="same positive count"):
        emd_kmeans(uneven, 2, seed=1)


def test_emd_kmeans_wide_counts_take_the_dense_path() -> None:
    # preflop histograms count 19,600 flops: too many for uint8, clustered densely
    counts, truth = _synthetic(10)
    wide = counts.astype(np.int64) * 400
    res = emd_kmeans(wide, 4, seed=2, sample=1000)
    assert _same_partition(res.labels, truth)


def test_bucket_stats_match_per_bucket_numpy() -> None:
    from checkraise.abstraction.build import _bucket_stats, _mean_std

    rng = np.random.default_rng(11)
    labels = rng.integers(0, 5, 400)
    x = rng.random(400)
    stats = _bucket_stats(labels, x, 6)  # bucket 5 stays empty
    for c in range(5):
        assert stats["size"][c] == (labels == c).sum()
        assert stats["std"][c] == pytest.approx(x[labels == c].std())
        assert stats["min"][c] == x[labels == c].min()
        assert stats["max"][c] == x[labels == c].max()
    assert stats["size"][5] == 0
    want = sum((labels == c).sum() * x[labels == c].std() for c in range(5)) / 400
    assert _mean_std(stats) == pytest.approx(want)
