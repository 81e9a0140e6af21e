"""numba kernels of the bucketed leaf values of depth-limited turn subgames.

A row of work is one (leaf, river card) pair: ``reach[leaf]`` (1,326 weights) with the
combos holding the card removed, which ``buckets[card, combo] == -1`` marks (the card
or the board clashes). The opponent weight compatible with a hand ``h = (a, b)`` and
the card ``c`` is computed from per-card sums, not by a pass over his hands:
``m_c(h) = T - s[a] - s[b] + r(h) - (s[c] - r(a, c) - r(b, c))`` with ``T`` his total
weight and ``s[x]`` the weight of his combos holding card ``x``.
"""

from __future__ import annotations

import numpy as np

from checkraise._numba import njit


@njit
def _card_sums(reach: np.ndarray, card_a: np.ndarray, card_b: np.ndarray,
               sums: np.ndarray) -> float:
    total = 0.0
    for x in range(52):
        sums[x] = 0.0
    for o in range(reach.shape[0]):
        r = reach[o]
        total += r
        sums[card_a[o]] += r
        sums[card_b[o]] += r
    return total


@njit
def card_masses(reach: np.ndarray, buckets: np.ndarray, cards: np.ndarray,
                card_a: np.ndarray, card_b: np.ndarray, pair: np.ndarray,
                out: np.ndarray) -> None:
    """``out[leaf, j, h]``: the weight of ``reach[leaf]`` (the other player's) compatible
    with hand ``h`` and river card ``cards[j]`` (0 where ``buckets[j, h]`` is -1)."""
    n = reach.shape[0]
    k = cards.shape[0]
    sums = np.zeros(52)
    for i in range(n):
        r = reach[i]
        total = _card_sums(r, card_a, card_b, sums)
        for j in range(k):
            c = cards[j]
            for h in range(r.shape[0]):
                if buckets[j, h] < 0:
                    out[i, j, h] = 0.0
                    continue
                a = card_a[h]
                b = card_b[h]
                m = total - sums[a] - sums[b] + r[h]
                m -= sums[c] - r[pair[a, c]] - r[pair[b, c]]
                out[i, j, h] = m


@njit
def bucket_reach(reach: np.ndarray, buckets: np.ndarray, num: int, out: np.ndarray) -> None:
    """``out[leaf, j, b]``: the weight of ``reach[leaf]`` in bucket ``b`` on card ``j``
    (combos the card or board clashes with count nowhere)."""
    for i in range(out.shape[0]):
        for j in range(buckets.shape[0]):
            for b in range(num):
                out[i, j, b] = 0.0
            for h in range(buckets.shape[1]):
                b = buckets[j, h]
                if b >= 0:
                    out[i, j, b] += reach[i, h]


@njit
def bucket_weights(reach: np.ndarray, masses: np.ndarray, buckets: np.ndarray, num: int,
                   out: np.ndarray) -> None:
    """``out[leaf, j, b]``: the sum over bucket ``b``'s hands on card ``j`` of
    ``reach[leaf, h] * masses[leaf, j, h]`` (range weight times compatible opponent
    weight: how much each hand counts)."""
    for i in range(out.shape[0]):
        for j in range(buckets.shape[0]):
            for b in range(num):
                out[i, j, b] = 0.0
            for h in range(buckets.shape[1]):
                b = buckets[j, h]
                if b >= 0:
                    out[i, j, b] += reach[i, h] * masses[i, j, h]


@njit
def aggregate(shares: np.ndarray, masses: np.ndarray, buckets: np.ndarray, pots: np.ndarray,
              out: np.ndarray) -> None:
    """``out[leaf, h]``: ``pot`` times the mean over the cards of hand ``h``'s bucket share
    ``shares[leaf, j, bucket]``, weighted by ``masses[leaf, j, h]``."""
    n = out.shape[0]
    k = buckets.shape[0]
    for i in range(n):
        for h in range(out.shape[1]):
            top = 0.0
            bottom = 0.0
            for j in range(k):
                b = buckets[j, h]
                if b >= 0:
                    m = masses[i, j, h]
                    top += shares[i, j, b] * m
                    bottom += m
            out[i, h] = pots[i] * top / bottom if bottom > 0.0 else 0.0
