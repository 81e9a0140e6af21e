"""Seeded clustering of hand features into buckets.

- :func:`kmeans_1d`: exact one-dimensional k-means of EHS values (dynamic programming,
  Wang & Song 2011), returned as thresholds so that a bucket is a binary search away;
  used for the ``ehs`` method and for the river under every method.
- :func:`equal_count_cuts`: the naive baseline, equal-count percentiles of EHS.
- :func:`emd_kmeans`: k-means on next-street equity histograms with the earth mover's
  distance, which on one-dimensional histograms is the L1 distance between cumulative
  sums (Johanson, Burch, Valenzano & Bowling 2013, "Evaluating state-space abstractions
  in extensive-form games"): k-means++ seeds and Lloyd iterations on a seeded sample,
  then every row assigned to its nearest centroid. Centroids are means of cumulative
  sums (the usual choice; the exact L1 minimiser would be a per-bin median).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from checkraise.abstraction._cluster_kernels import assign_counts, assign_dense, kmeans1d_dp
from checkraise.errors import CheckraiseError

__all__ = [
    "EmdClusters",
    "OneDimClusters",
    "emd",
    "emd_kmeans",
    "equal_count_cuts",
    "kmeans_1d",
]

# Above this many distinct values the 1-D k-means runs on equal-width groups of values
# (exact sums inside each group; a cut can only fall between groups).
MAX_1D_GROUPS = 1 << 17

# progress(phase, done, total); phases "k-means++", "Lloyd" and "assignment".
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class OneDimClusters:
    """Buckets of a one-dimensional feature given as integer numerators ``num / den``.

    ``thresholds[c - 1]`` is the smallest numerator in bucket ``c``; the bucket of a
    value is the number of thresholds at or below it.
    """

    thresholds: npt.NDArray[np.int64]
    centers: npt.NDArray[np.float64]
    den: int

    def assign(self, nums: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
        """Bucket of each numerator."""
        return np.searchsorted(self.thresholds, nums, side="right").astype(np.int64)


def _check_k(k: int, n: int) -> None:
    if k < 1 or k > 65_535:
        raise CheckraiseError(f"bucket count {k} is out of range; expected 1..65535")
    if n < 1:
        raise CheckraiseError("cannot cluster an empty set of points")


def _unique(
    nums: npt.NDArray[np.integer], counts: npt.NDArray[np.integer] | None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    nums = np.asarray(nums, dtype=np.int64)
    if counts is None:
        return np.unique(nums, return_counts=True)
    counts = np.asarray(counts, dtype=np.int64)
    if counts.shape != nums.shape or np.any(counts < 0):
        raise CheckraiseError("counts must be non-negative, one per value")
    keep = counts > 0
    u, inv = np.unique(nums[keep], return_inverse=True)
    return u, np.bincount(inv, weights=counts[keep], minlength=u.size).astype(np.int64)


def kmeans_1d(
    nums: npt.NDArray[np.integer],
    den: int,
    k: int,
    counts: npt.NDArray[np.integer] | None = None,
) -> OneDimClusters:
    """Exact weighted k-means (squared error) of the values ``nums / den``.

    Each value counts once, or ``counts[i]`` times. Equal values always share a bucket;
    with fewer than ``k`` distinct values some buckets stay empty.

    Examples
    --------
    >>> c = kmeans_1d(np.array([0, 1, 2, 10, 11, 12, 30]), 100, 3)
    >>> c.assign(np.array([0, 1, 2, 10, 11, 12, 30])).tolist()
    [0, 0, 0, 1, 1, 1, 2]
    """
    u, cnt = _unique(nums, counts)
    _check_k(k, u.size)
    if u.size > MAX_1D_GROUPS:
        g = (u * MAX_1D_GROUPS) // (int(u[-1]) + 1)
        starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
        w = np.add.reduceat(cnt, starts).astype(np.float64)
        x = np.add.reduceat(cnt * u, starts) / w / den
        first = u[starts]
    else:
        w = cnt.astype(np.float64)
        x = u / den
        first = u
    k_eff = min(k, x.size)
    cstarts, _ = kmeans1d_dp(x, w, k_eff)
    thresholds = first[cstarts[1:]].astype(np.int64)
    ends = np.r_[cstarts[1:], x.size]
    centers = np.array(
        [np.dot(w[s:e], x[s:e]) / w[s:e].sum() for s, e in zip(cstarts, ends, strict=True)]
    )
    if k_eff < k:
        # Buckets past the distinct values stay empty: thresholds above every value.
        pad = np.full(k - k_eff, np.iinfo(np.int64).max)
        thresholds = np.r_[thresholds, pad]
        centers = np.r_[centers, np.full(k - k_eff, np.nan)]
    return OneDimClusters(thresholds, centers, den)


def equal_count_cuts(
    nums: npt.NDArray[np.integer],
    den: int,
    k: int,
    counts: npt.NDArray[np.integer] | None = None,
) -> OneDimClusters:
    """Naive baseline: cut the values (each counted once or ``counts[i]`` times) at
    equal-count percentiles.

    Examples
    --------
    >>> equal_count_cuts(np.arange(8), 8, 4).assign(np.arange(8)).tolist()
    [0, 0, 1, 1, 2, 2, 3, 3]
    """
    u, cnt = _unique(nums, counts)
    _check_k(k, u.size)
    total = int(cnt.sum())
    # the value holding the (i * total // k)-th smallest element, 0-based, starts bucket i
    cum = np.cumsum(cnt)
    thresholds = u[np.searchsorted(cum, (np.arange(1, k) * total) // k, side="right")]
    labels = np.searchsorted(thresholds, u, side="right")
    sums = np.bincount(labels, weights=cnt * (u / den), minlength=k)
    sizes = np.bincount(labels, weights=cnt, minlength=k)
    with np.errstate(invalid="ignore", divide="ignore"):
        centers = sums / sizes
    return OneDimClusters(thresholds, centers, den)


def emd(p: npt.ArrayLike, q: npt.ArrayLike) -> float:
    """Earth mover's distance between two histograms over the same equal-width bins.

    Both are normalised to mass 1; the distance is in bins (divide by the number of
    bins for units of equity).

    Examples
    --------
    >>> emd([1, 0, 0], [0, 0, 1])
    2.0
    """
    a = np.asarray(p, dtype=np.float64)
    b = np.asarray(q, dtype=np.float64)
    return float(np.abs(np.cumsum(a / a.sum()) - np.cumsum(b / b.sum())).sum())


@dataclass(frozen=True)
class EmdClusters:
    """Result of :func:`emd_kmeans`: labels, centroids (cumulative sums) and each row's
    distance to its centroid (the EMD in bins)."""

    labels: npt.NDArray[np.uint16]
    centroids: npt.NDArray[np.float32]
    distances: npt.NDArray[np.float32]


def _cdf(counts: npt.NDArray[np.integer]) -> npt.NDArray[np.float32]:
    c = np.cumsum(counts, axis=1, dtype=np.float64)
    return (c / c[:, -1:]).astype(np.float32)


def _plus_plus(
    points: npt.NDArray[np.float32],
    k: int,
    rng: np.random.Generator,
    progress: Progress | None,
) -> npt.NDArray[np.float32]:
    n = points.shape[0]
    centers = np.empty((k, points.shape[1]), dtype=np.float32)
    centers[0] = points[rng.integers(n)]
    best = np.abs(points - centers[0]).sum(axis=1, dtype=np.float64)
    for c in range(1, k):
        weight = best * best
        total = weight.sum()
        pick = rng.integers(n) if total <= 0 else rng.choice(n, p=weight / total)
        centers[c] = points[pick]
        np.minimum(best, np.abs(points - centers[c]).sum(axis=1, dtype=np.float64), out=best)
        if progress is not None and (c % 16 == 0 or c == k - 1):
            progress("k-means++", c + 1, k)
    return centers


def _lloyd(
    points: npt.NDArray[np.float32],
    centers: npt.NDArray[np.float32],
    iterations: int,
    progress: Progress | None,
) -> npt.NDArray[np.float32]:
    n, nb = points.shape
    k = centers.shape[0]
    labels = np.full(n, -1, dtype=np.int64)
    new = np.empty(n, dtype=np.int64)
    dist = np.empty(n, dtype=np.float64)
    for it in range(iterations):
        assign_dense(points, np.ascontiguousarray(centers.T), new, dist)
        if progress is not None:
            progress("Lloyd", it + 1, iterations)
        if np.array_equal(new, labels):
            if progress is not None:
                progress("Lloyd", iterations, iterations)
            break
        labels[:] = new
        sizes = np.bincount(labels, minlength=k)
        for b in range(nb):
            sums = np.bincount(labels, weights=points[:, b], minlength=k)
            centers[:, b] = np.where(sizes > 0, sums / np.maximum(sizes, 1), centers[:, b])
        # An emptied centroid restarts at the rows farthest from their own centroid.
        empty = np.flatnonzero(sizes == 0)
        if empty.size:
            far = np.argsort(-dist, kind="stable")[: empty.size]
            centers[empty] = points[far]
    return centers


def emd_kmeans(
    counts: npt.NDArray[np.integer],
    k: int,
    seed: int,
    *,
    sample: int = 200_000,
    iterations: int = 30,
    chunk: int = 1 << 20,
    progress: Progress | None = None,
) -> EmdClusters:
    """k-means with EMD of the histograms in the rows of ``counts`` (equal row sums).

    Seeds and Lloyd iterations run on ``sample`` rows drawn with ``seed``; every row is
    then assigned to its nearest centroid, ``chunk`` rows at a time (``progress(done,
    total)`` after each chunk).

    Examples
    --------
    >>> h = np.array([[4, 0, 0], [3, 1, 0], [0, 0, 4], [0, 1, 3]], dtype=np.uint8)
    >>> emd_kmeans(h, 2, seed=1).labels.tolist() in ([0, 0, 1, 1], [1, 1, 0, 0])
    True
    """
    n = counts.shape[0]
    _check_k(k, n)
    if k > n:
        raise CheckraiseError(f"{k} buckets asked for {n} histograms; expected at most {n}")
    # Every row: the assignment kernel takes row 0's total for all of them.
    totals = counts.sum(axis=1, dtype=np.int64)
    if np.any(totals != totals[0]) or totals[0] <= 0:
        raise CheckraiseError("histogram rows must all hold the same positive count")
    rng = np.random.default_rng(seed)
    idx = np.sort(rng.choice(n, size=min(n, sample), replace=False))
    points = _cdf(counts[idx])
    centers = _lloyd(points, _plus_plus(points, k, rng, progress), iterations, progress)
    cent_t = np.ascontiguousarray(centers.T)
    labels = np.empty(n, dtype=np.uint16)
    dist = np.empty(n, dtype=np.float32)
    if counts.dtype == np.uint8:
        small = counts.astype(np.uint8, copy=False)
        total = int(small[0].sum())
        for start in range(0, n, chunk):
            stop = min(n, start + chunk)
            assign_counts(small, total, cent_t, start, stop, labels, dist)
            if progress is not None:
                progress("assignment", stop, n)
    else:
        lab = np.empty(n, dtype=np.int64)
        d64 = np.empty(n, dtype=np.float64)
        assign_dense(_cdf(counts), cent_t, lab, d64)
        labels[:] = lab
        dist[:] = d64
        if progress is not None:
            progress("assignment", n, n)
    return EmdClusters(labels, centers, dist)
