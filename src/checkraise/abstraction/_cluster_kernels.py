"""numba kernels behind :mod:`checkraise.abstraction.clustering`.

- Exact one-dimensional k-means over weighted points by dynamic programming
  (Wang & Song 2011, "Ckmeans.1d.dp"), each layer solved by divide and conquer over
  the monotone optimal split points, so O(k n log n).
- Earth mover's distance between one-dimensional histograms as the L1 distance between
  cumulative sums; nearest-centroid assignment with the centroids stored transposed
  (bins x k) so that the inner loop runs over centroids without reassociating a sum.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit, parallel_njit, prange

__all__ = [
    "assign_counts",
    "assign_dense",
    "kmeans1d_dp",
    "within_bucket_emd",
]


@njit
def _cost(
    cw: npt.NDArray[np.float64],
    cx: npt.NDArray[np.float64],
    cxx: npt.NDArray[np.float64],
    j: int,
    i: int,
) -> float:
    """Weighted sum of squared deviations of points j..i-1 from their mean."""
    w = cw[i] - cw[j]
    if w <= 0.0:
        return 0.0
    sx = cx[i] - cx[j]
    c = (cxx[i] - cxx[j]) - sx * sx / w
    return c if c > 0.0 else 0.0


@njit
def _layer(
    prev: npt.NDArray[np.float64],
    cur: npt.NDArray[np.float64],
    arg: npt.NDArray[np.int32],
    cw: npt.NDArray[np.float64],
    cx: npt.NDArray[np.float64],
    cxx: npt.NDArray[np.float64],
    m: int,
    n: int,
) -> None:
    # cur[i] = min_{j} prev[j] + cost(j, i) for i in m..n, with the optimal j
    # non-decreasing in i: solve the middle i, recurse left and right with narrowed j.
    stack = np.empty((256, 4), dtype=np.int64)  # depth <= 2 * log2(n) + 2
    stack[0, 0] = m
    stack[0, 1] = n
    stack[0, 2] = m - 1
    stack[0, 3] = n - 1
    top = 1
    while top > 0:
        top -= 1
        lo, hi, jlo, jhi = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        if lo > hi:
            continue
        mid = (lo + hi) // 2
        best = np.inf
        bj = jlo
        for j in range(jlo, min(jhi, mid - 1) + 1):
            c = prev[j] + _cost(cw, cx, cxx, j, mid)
            if c < best:
                best = c
                bj = j
        cur[mid] = best
        arg[mid] = bj
        stack[top, 0] = lo
        stack[top, 1] = mid - 1
        stack[top, 2] = jlo
        stack[top, 3] = bj
        top += 1
        stack[top, 0] = mid + 1
        stack[top, 1] = hi
        stack[top, 2] = bj
        stack[top, 3] = jhi
        top += 1


@njit
def kmeans1d_dp(
    x: npt.NDArray[np.float64], w: npt.NDArray[np.float64], k: int
) -> tuple[npt.NDArray[np.int64], float]:
    """Optimal k-means of sorted distinct points ``x`` with weights ``w``.

    Returns the start index of each of the ``k`` clusters (``starts[0] == 0``) and the
    total weighted within-cluster sum of squares. Requires ``1 <= k <= len(x)``.
    """
    n = x.shape[0]
    cw = np.zeros(n + 1)
    cx = np.zeros(n + 1)
    cxx = np.zeros(n + 1)
    # centre x for numerical stability of the prefix sums of squares
    mean = 0.0
    tot = 0.0
    for i in range(n):
        tot += w[i]
        mean += w[i] * x[i]
    mean /= tot
    for i in range(n):
        d = x[i] - mean
        cw[i + 1] = cw[i] + w[i]
        cx[i + 1] = cx[i] + w[i] * d
        cxx[i + 1] = cxx[i] + w[i] * d * d
    prev = np.empty(n + 1)
    for i in range(n + 1):
        prev[i] = _cost(cw, cx, cxx, 0, i)
    args = np.zeros((k, n + 1), dtype=np.int32)
    cur = np.full(n + 1, np.inf)
    for m in range(1, k):
        for i in range(n + 1):
            cur[i] = np.inf
        _layer(prev, cur, args[m], cw, cx, cxx, m + 1, n)
        prev, cur = cur, prev
    starts = np.zeros(k, dtype=np.int64)
    i = n
    for m in range(k - 1, 0, -1):
        j = args[m, i]
        starts[m] = j
        i = j
    return starts, float(prev[n])


@parallel_njit
def assign_dense(
    points: npt.NDArray[np.float32],
    cent_t: npt.NDArray[np.float32],
    labels: npt.NDArray[np.int64],
    dist: npt.NDArray[np.float64],
) -> None:
    """Nearest centroid in L1 of each row of ``points`` (rows are cumulative sums).

    ``cent_t`` holds the centroids transposed, shape (bins, k).
    """
    n, nb = points.shape
    k = cent_t.shape[1]
    for i in prange(n):
        d = np.zeros(k, dtype=np.float32)
        for b in range(nb):
            p = points[i, b]
            for c in range(k):
                d[c] += abs(p - cent_t[b, c])
        best = 0
        for c in range(1, k):
            if d[c] < d[best]:
                best = c
        labels[i] = best
        dist[i] = d[best]


@parallel_njit
def assign_counts(
    counts: npt.NDArray[np.uint8],
    total: int,
    cent_t: npt.NDArray[np.float32],
    start: int,
    stop: int,
    labels: npt.NDArray[np.uint16],
    dist: npt.NDArray[np.float32],
) -> None:
    """Like :func:`assign_dense` for rows ``start..stop`` of histogram counts summing to
    ``total``, turned into cumulative fractions on the fly (the full table of cumulative
    sums would need four times the memory).
    """
    nb = counts.shape[1]
    k = cent_t.shape[1]
    inv = np.float32(1.0 / total)
    for i in prange(start, stop):
        d = np.zeros(k, dtype=np.float32)
        acc = 0
        for b in range(nb):
            acc += counts[i, b]
            p = np.float32(acc) * inv
            for c in range(k):
                d[c] += abs(p - cent_t[b, c])
        best = 0
        for c in range(1, k):
            if d[c] < d[best]:
                best = c
        labels[i] = best
        dist[i] = d[best]


@njit
def within_bucket_emd(
    counts: npt.NDArray[np.uint8], labels: npt.NDArray[np.uint16], k: int
) -> float:
    """Mean L1 distance (EMD in bins) from each row's cumulative histogram to the mean
    cumulative histogram of its bucket; rows hold counts with equal sums."""
    n, nb = counts.shape
    total = 0
    for b in range(nb):
        total += counts[0, b]
    cent = np.zeros((k, nb))
    size = np.zeros(k)
    for i in range(n):
        acc = 0
        c = labels[i]
        size[c] += 1.0
        for b in range(nb):
            acc += counts[i, b]
            cent[c, b] += acc
    for c in range(k):
        if size[c] > 0:
            for b in range(nb):
                cent[c, b] /= size[c] * total
    dist = 0.0
    for i in range(n):
        acc = 0
        c = labels[i]
        for b in range(nb):
            acc += counts[i, b]
            dist += abs(acc / total - cent[c, b])
    return float(dist / n)
