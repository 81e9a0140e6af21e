"""numba kernels of the bucketed leaf values of depth-limited turn subgames.

A row of work is one (leaf, river card) pair: ``reach[leaf]`` (1,326 weights) with the
combos holding the card removed, which ``buckets[card, combo] == -1`` marks (the card
or the board clashes). The opponent weight compatible with a hand ``h = (a, b)`` and
the card ``c`` is computed from per-card sums, not by a pass over his hands:
``m_c(h) = T - s[a] - s[b] + r(h) - (s[c] - r(a, c) - r(b, c))`` with ``T`` his total
weight and ``s[x]`` the weight of his combos holding card ``x``, where it is used: an
array of it per leaf, card and hand would be megabytes written and read back per walk.
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
def _mass(total: float, sums: np.ndarray, r: np.ndarray, pair: np.ndarray, h: int, a: int,
          b: int, c: int) -> float:
    """The weight of ``r`` compatible with hand ``h = (a, b)`` and card ``c``."""
    m: float = total - sums[a] - sums[b] + r[h]
    m -= sums[c] - r[pair[a, c]] - r[pair[b, c]]
    return m


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
                if b >= 0 and reach[i, h] != 0.0:
                    out[i, j, b] += reach[i, h]


@njit
def bucket_weights(reach: np.ndarray, other: np.ndarray, buckets: np.ndarray, cards: np.ndarray,
                   card_a: np.ndarray, card_b: np.ndarray, pair: np.ndarray, num: int,
                   out: np.ndarray) -> None:
    """``out[leaf, j, b]``: the sum over bucket ``b``'s hands ``h`` on card ``cards[j]``
    of ``reach[leaf, h]`` times the weight of ``other[leaf]`` compatible with ``h`` and
    the card (range weight times compatible opponent weight: how much each hand
    counts)."""
    sums = np.zeros(52)
    for i in range(out.shape[0]):
        r = other[i]
        total = _card_sums(r, card_a, card_b, sums)
        for j in range(buckets.shape[0]):
            c = cards[j]
            for b in range(num):
                out[i, j, b] = 0.0
            for h in range(buckets.shape[1]):
                b = buckets[j, h]
                if b >= 0 and reach[i, h] != 0.0:
                    m = _mass(total, sums, r, pair, h, card_a[h], card_b[h], c)
                    out[i, j, b] += reach[i, h] * m


@njit
def aggregate(shares: np.ndarray, other: np.ndarray, buckets_t: np.ndarray, cards: np.ndarray,
              card_a: np.ndarray, card_b: np.ndarray, pair: np.ndarray, pots: np.ndarray,
              out: np.ndarray) -> None:
    """``out[leaf, h]``: ``pot`` times the mean over the cards ``cards[j]`` of hand
    ``h``'s bucket share ``shares[leaf, j, bucket]``, weighted by the weight of
    ``other[leaf]`` compatible with ``h`` and the card (``buckets_t`` is ``(1326,
    cards)``: each hand's bucket on each card, -1 where it clashes)."""
    sums = np.zeros(52)
    for i in range(out.shape[0]):
        r = other[i]
        total = _card_sums(r, card_a, card_b, sums)
        for h in range(out.shape[1]):
            a = card_a[h]
            b = card_b[h]
            top = 0.0
            bottom = 0.0
            for j in range(buckets_t.shape[1]):
                k = buckets_t[h, j]
                if k >= 0:
                    m = _mass(total, sums, r, pair, h, a, b, cards[j])
                    top += shares[i, j, k] * m
                    bottom += m
            out[i, h] = pots[i] * top / bottom if bottom > 0.0 else 0.0
