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
def _base(total: float, sums: np.ndarray, r: np.ndarray, h: int, a: int, b: int) -> float:
    """The part of the weight of ``r`` compatible with hand ``h = (a, b)`` that no card
    changes: ``T - s[a] - s[b] + r(h)``."""
    m: float = total - sums[a] - sums[b] + r[h]
    return m


@njit
def _on_card(sums: np.ndarray, r: np.ndarray, pair: np.ndarray, a: int, b: int, c: int) -> float:
    """What card ``c`` takes off it: ``s[c] - r(a, c) - r(b, c)``."""
    m: float = sums[c] - r[pair[a, c]] - r[pair[b, c]]
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
def leaf_masses(reach: np.ndarray, buckets_t: np.ndarray, cards: np.ndarray,
                card_a: np.ndarray, card_b: np.ndarray, pair: np.ndarray, mass0: np.ndarray,
                mass1: np.ndarray, weight0: np.ndarray, weight1: np.ndarray) -> None:
    """Both players' bucket sums of the leaves' reaches ``(n, 2, 1326)`` in one pass, each
    ``(n, cards, B)``: ``mass{p}[leaf, j, b]``, the weight of player ``p``'s reach in
    bucket ``b`` on card ``cards[j]`` (as :func:`bucket_reach`), and
    ``weight{p}[leaf, j, b]``, the sum over those hands ``h`` of ``p``'s weight times the
    opponent's weight compatible with ``h`` and the card (how much each hand counts);
    ``buckets_t`` is ``(1326, cards)``, each hand's bucket on each card.

    Hand by hand, then card by card: a hand's weights and the part of its compatible
    weights that does not depend on the card are read once. Every sum still adds its
    terms in the order of the hands, as a pass per card would.
    """
    sums = np.zeros((2, 52))
    totals = np.zeros(2)
    for i in range(reach.shape[0]):
        for o in range(2):
            totals[o] = _card_sums(reach[i, o], card_a, card_b, sums[o])
        mass0[i] = 0.0
        mass1[i] = 0.0
        weight0[i] = 0.0
        weight1[i] = 0.0
        for h in range(buckets_t.shape[0]):
            r0 = reach[i, 0, h]
            r1 = reach[i, 1, h]
            if r0 == 0.0 and r1 == 0.0:
                continue
            a = card_a[h]
            d = card_b[h]
            base0 = _base(totals[1], sums[1], reach[i, 1], h, a, d)
            base1 = _base(totals[0], sums[0], reach[i, 0], h, a, d)
            for j in range(buckets_t.shape[1]):
                b = buckets_t[h, j]
                if b < 0:
                    continue
                c = cards[j]
                if r0 != 0.0:
                    mass0[i, j, b] += r0
                    weight0[i, j, b] += r0 * (base0 - _on_card(sums[1], reach[i, 1], pair,
                                                               a, d, c))
                if r1 != 0.0:
                    mass1[i, j, b] += r1
                    weight1[i, j, b] += r1 * (base1 - _on_card(sums[0], reach[i, 0], pair,
                                                               a, d, c))


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
            base = _base(total, sums, r, h, a, b)
            top = 0.0
            bottom = 0.0
            for j in range(buckets_t.shape[1]):
                k = buckets_t[h, j]
                if k >= 0:
                    m = base - _on_card(sums, r, pair, a, b, cards[j])
                    top += shares[i, j, k] * m
                    bottom += m
            out[i, h] = pots[i] * top / bottom if bottom > 0.0 else 0.0
