"""numba kernels that fill the per-class feature tables and look buckets up.

Tables are indexed by the suit-isomorphism indexer of
:mod:`checkraise.abstraction._iso_kernels` (street 0..3 = preflop .. river):

- :func:`fill_river` walks the canonical river boards; each board's 1,081 hole pairs
  are resolved by one sorted sweep and written at their river index. Two canonical
  boards never share a class, and pairs of one board that are suit images of each
  other write the same value, so the parallel writes never conflict.
- :func:`fill_turn` and :func:`fill_flop` unindex each class to canonical cards, add
  every next card, index the result and sum the next street's exact integers.
- :func:`fill_preflop` does the same over all 19,600 flops of each of the 169 classes.
- :func:`lookup_bucket` is the numba-callable bucket lookup of an abstraction;
  :func:`board_river_buckets` gives the river buckets of every hand on one board.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit, parallel_njit, prange
from checkraise.abstraction._ehs_kernels import (
    RIVER_DEN,
    TURN_DEN,
    hist_bin,
    river_board_values,
    river_hand_value,
)
from checkraise.abstraction._iso_kernels import index_cards, unindex_cards

__all__ = [
    "board_river_buckets",
    "fill_flop",
    "fill_preflop",
    "fill_river",
    "fill_turn",
    "lookup_bucket",
]


@parallel_njit
def fill_river(
    boards: npt.NDArray[np.uint8], start: int, stop: int, out: npt.NDArray[np.uint16]
) -> None:
    """Write ``v = 2 * wins + ties`` of every class on boards ``start..stop`` into ``out``."""
    for i in prange(start, stop):
        h0 = np.empty(1081, dtype=np.uint8)
        h1 = np.empty(1081, dtype=np.uint8)
        vals = np.empty(1081, dtype=np.uint16)
        n = river_board_values(boards[i], h0, h1, vals)
        cards = np.empty(7, dtype=np.uint8)
        for j in range(5):
            cards[2 + j] = boards[i, j]
        for p in range(n):
            cards[0] = h0[p]
            cards[1] = h1[p]
            out[index_cards(3, cards)] = vals[p]


@parallel_njit
def fill_turn(
    river: npt.NDArray[np.uint16],
    start: int,
    stop: int,
    s_out: npt.NDArray[np.uint32],
    s2_out: npt.NDArray[np.uint32],
    hist_out: npt.NDArray[np.uint8],
) -> None:
    """Per turn class ``start..stop``: sum and sum of squares of the 46 river values, and
    the histogram of river EHS (``hist_out`` row, counts summing to 46)."""
    bins = hist_out.shape[1]
    for t in prange(start, stop):
        cards = np.empty(7, dtype=np.uint8)
        unindex_cards(2, t, cards[:6])
        dead = 0
        for j in range(6):
            dead |= 1 << cards[j]
        s = np.int64(0)
        s2 = np.int64(0)
        for b in range(bins):
            hist_out[t, b] = 0
        for r in range(52):
            if (dead >> r) & 1:
                continue
            cards[6] = r
            v = np.int64(river[index_cards(3, cards)])
            s += v
            s2 += v * v
            hist_out[t, hist_bin(int(v), RIVER_DEN, bins)] += 1
        s_out[t] = s
        s2_out[t] = s2


@parallel_njit
def fill_flop(
    turn_s: npt.NDArray[np.uint32],
    turn_s2: npt.NDArray[np.uint32],
    start: int,
    stop: int,
    s_out: npt.NDArray[np.uint32],
    s2_out: npt.NDArray[np.uint64],
    hist_out: npt.NDArray[np.uint8],
) -> None:
    """Per flop class ``start..stop``: sums over the 47 turn cards of the turn sums, and the
    histogram of turn EHS (counts summing to 47)."""
    bins = hist_out.shape[1]
    for f in prange(start, stop):
        cards = np.empty(6, dtype=np.uint8)
        unindex_cards(1, f, cards[:5])
        dead = 0
        for j in range(5):
            dead |= 1 << cards[j]
        s = np.int64(0)
        s2 = np.int64(0)
        for b in range(bins):
            hist_out[f, b] = 0
        for c in range(52):
            if (dead >> c) & 1:
                continue
            cards[5] = c
            idx = index_cards(2, cards)
            ts = np.int64(turn_s[idx])
            s += ts
            s2 += np.int64(turn_s2[idx])
            hist_out[f, hist_bin(int(ts), TURN_DEN, bins)] += 1
        s_out[f] = s
        s2_out[f] = s2


@parallel_njit
def fill_preflop(
    flop_s: npt.NDArray[np.uint32],
    flop_s2: npt.NDArray[np.uint64],
    flop_den: int,
    s_out: npt.NDArray[np.int64],
    s2_out: npt.NDArray[np.float64],
    hist_out: npt.NDArray[np.int64],
) -> None:
    """Per preflop class: sums over the 19,600 flops of the flop sums (``s2`` as float, it
    would overflow 64 bits), and the histogram of flop EHS (counts summing to 19,600)."""
    bins = hist_out.shape[1]
    for p in prange(169):
        cards = np.empty(5, dtype=np.uint8)
        unindex_cards(0, p, cards[:2])
        dead = (1 << cards[0]) | (1 << cards[1])
        s = np.int64(0)
        s2 = 0.0
        for a in range(52):
            if (dead >> a) & 1:
                continue
            for b in range(a + 1, 52):
                if (dead >> b) & 1:
                    continue
                for c in range(b + 1, 52):
                    if (dead >> c) & 1:
                        continue
                    cards[2] = a
                    cards[3] = b
                    cards[4] = c
                    idx = index_cards(1, cards)
                    fs = np.int64(flop_s[idx])
                    s += fs
                    s2 += np.float64(flop_s2[idx])
                    hist_out[p, hist_bin(int(fs), flop_den, bins)] += 1
        s_out[p] = s
        s2_out[p] = s2


@njit
def lookup_bucket(
    cards: npt.NDArray[np.uint8],
    preflop: npt.NDArray[np.uint16],
    flop: npt.NDArray[np.uint16],
    turn: npt.NDArray[np.uint16],
    river_thresholds: npt.NDArray[np.int64],
) -> int:
    """Bucket of hole cards + board (2, 5, 6 or 7 valid distinct cards, unchecked).

    Preflop, flop and turn read their tables at the hand's isomorphism index; the river
    computes the hand's exact EHS numerator (990 opponent hands) and cuts it at the
    stored thresholds.
    """
    n = cards.shape[0]
    if n == 2:
        return int(preflop[index_cards(0, cards)])
    if n == 5:
        return int(flop[index_cards(1, cards)])
    if n == 6:
        return int(turn[index_cards(2, cards)])
    v = river_hand_value(cards[0], cards[1], cards[2:])
    return int(np.searchsorted(river_thresholds, v, side="right"))


@njit
def board_river_buckets(
    board: npt.NDArray[np.uint8],
    river_thresholds: npt.NDArray[np.int64],
    out: npt.NDArray[np.int16],
) -> None:
    """River buckets of all 1,081 hole pairs on one 5-card board, by one sorted sweep.

    ``out`` (52 x 52) receives the bucket of hole ``(a, b)`` at ``[a, b]`` and ``[b, a]``
    and -1 where a card is on the board or ``a == b``. Costs about as much as 10-15 single
    river lookups (see ``benchmarks/bench_abstraction.py``), so a sampler that meets
    many hands on one board should use it.
    """
    h0 = np.empty(1081, dtype=np.uint8)
    h1 = np.empty(1081, dtype=np.uint8)
    vals = np.empty(1081, dtype=np.uint16)
    n = river_board_values(board, h0, h1, vals)
    # bucket of every value 0..1980 in one merge pass: cheaper than 1,081 binary searches
    of_value = np.empty(RIVER_DEN + 1, dtype=np.int16)
    b = 0
    for v in range(RIVER_DEN + 1):
        while b < river_thresholds.shape[0] and river_thresholds[b] <= v:
            b += 1
        of_value[v] = b
    out[:, :] = -1
    for p in range(n):
        out[h0[p], h1[p]] = of_value[vals[p]]
        out[h1[p], h0[p]] = of_value[vals[p]]
