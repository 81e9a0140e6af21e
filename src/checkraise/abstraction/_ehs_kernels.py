"""numba kernels for exact hand strength against a uniformly random opponent hand.

Scales (all integers, so that every feature is exact and bucket cuts are reproducible):

- river: ``v = 2 * wins + ties`` over the 990 opponent hands, so EHS = ``v / 1980``;
- turn: ``s = sum of v over the 46 river cards`` (EHS = ``s / 91,080``) and
  ``s2 = sum of v**2`` (E[HS^2] = ``s2 / (46 * 1980**2)``);
- flop: sums of the turn sums over the 47 turn cards (denominators ``47 * 91,080`` and
  ``47 * 46 * 1980**2``).

Averaging the river values over the next card is exact because every next card is
equally likely and leaves the same number (990) of opponent hands.

:func:`river_board_values` resolves one river board for all 1,081 hole pairs at once:
rank every pair once, sort, and count wins and ties by a sweep over equal-rank groups
with card-removal corrections (the pairs that share a card with the hero are subtracted
through per-card counters), as in :mod:`checkraise.equity._kernels`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit
from checkraise.errors import ConfigError
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY, rank_from_key

__all__ = [
    "FLOP_DEN",
    "N_OPP",
    "RIVER_DEN",
    "TURN_DEN",
    "canonical_boards",
    "flop_hand_sums",
    "hist_bin",
    "river_board_values",
    "river_hand_value",
    "turn_hand_sums",
]

N_OPP = 990  # C(45, 2) opponent hands once hole and river board are known
RIVER_DEN = 2 * N_OPP
TURN_DEN = 46 * RIVER_DEN
FLOP_DEN = 47 * TURN_DEN

# The 24 permutations of the four suits, as rows perm[old_suit] = new_suit.
_PERMS = np.array(
    [
        [a, b, c, d]
        for a in range(4)
        for b in range(4)
        for c in range(4)
        for d in range(4)
        if len({a, b, c, d}) == 4
    ],
    dtype=np.int64,
)


@njit
def hist_bin(num: int, den: int, bins: int) -> int:
    """Bin of the value ``num / den`` in ``bins`` equal-width bins of [0, 1] (1 in the last)."""
    b = (num * bins) // den
    return bins - 1 if b >= bins else int(b)


@njit
def _board_mask_under(cards: npt.NDArray[np.int64], perm: npt.NDArray[np.int64]) -> int:
    m = 0
    for c in cards:
        m |= 1 << (4 * (c >> 2) + perm[c & 3])
    return m


@njit
def _canonical_boards_kernel(k: int, perms: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
    # A board is canonical when its 52-bit card mask is the smallest over the 24 suit
    # permutations; every board is a suit permutation of exactly one canonical board.
    out = np.empty((300_000, k), dtype=np.uint8)
    n = 0
    idx = np.arange(k)
    cards = np.empty(k, dtype=np.int64)
    while True:
        for j in range(k):
            cards[j] = idx[j]
        own = 0
        for c in cards:
            own |= 1 << int(c)
        best = own
        for p in range(perms.shape[0]):
            m = _board_mask_under(cards, perms[p])
            if m < best:
                best = m
        if best == own:
            for j in range(k):
                out[n, j] = cards[j]
            n += 1
        # next k-combination of 0..51 in lexicographic order
        j = k - 1
        while j >= 0 and idx[j] == 52 - k + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, k):
            idx[t] = idx[t - 1] + 1
    return out[:n].copy()


def canonical_boards(k: int) -> npt.NDArray[np.uint8]:
    """Every ``k``-card board up to suit permutation (one representative each), shape (n, k).

    There are 1,755 flops, 16,432 turn boards and 134,459 river boards (k = 3, 4, 5).
    Representatives have the smallest card mask in their class.
    """
    if k not in (3, 4, 5):  # the kernel's output buffer is sized for the river's 134,459
        raise ConfigError(f"canonical boards of {k} cards: expected 3, 4 or 5")
    return _canonical_boards_kernel(k, _PERMS)


@njit
def river_board_values(
    board: npt.NDArray[np.uint8],
    hole0: npt.NDArray[np.uint8],
    hole1: npt.NDArray[np.uint8],
    values: npt.NDArray[np.uint16],
) -> int:
    """``v = 2 * wins + ties`` of every hole pair on a 5-card board, by one sorted sweep.

    Writes the 1,081 pairs of the 47 live cards (``hole0[i] < hole1[i]``) and their
    values; returns the number of pairs (1,081).
    """
    bkey = 0
    bfm = 0
    dead = 0
    for j in range(5):
        bkey += CARD_KEY[board[j]]
        bfm |= CARD_FLUSH_BIT[board[j]]
        dead |= 1 << board[j]
    ranks = np.empty(1081, dtype=np.int64)
    n = 0
    for b in range(52):
        if (dead >> b) & 1:
            continue
        for a in range(b):
            if (dead >> a) & 1:
                continue
            hole0[n] = a
            hole1[n] = b
            ranks[n] = rank_from_key(
                bkey + CARD_KEY[a] + CARD_KEY[b], bfm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]
            )
            n += 1
    order = np.argsort(ranks, kind="mergesort")
    less_card = np.zeros(52, dtype=np.int64)
    eq_card = np.zeros(52, dtype=np.int64)
    less_total = 0
    g = 0
    while g < n:
        r = ranks[order[g]]
        e = g
        while e < n and ranks[order[e]] == r:
            e += 1
        for t in range(g, e):
            p = order[t]
            eq_card[hole0[p]] += 1
            eq_card[hole1[p]] += 1
        eq_total = e - g
        for t in range(g, e):
            p = order[t]
            a = hole0[p]
            b = hole1[p]
            wins = less_total - less_card[a] - less_card[b]
            # pairs holding a or b: eq_a + eq_b - 1 (the hero's own pair is in both)
            ties = eq_total - (eq_card[a] + eq_card[b] - 1)
            values[p] = 2 * wins + ties
        for t in range(g, e):
            p = order[t]
            eq_card[hole0[p]] -= 1
            eq_card[hole1[p]] -= 1
            less_card[hole0[p]] += 1
            less_card[hole1[p]] += 1
        less_total += eq_total
        g = e
    return n


@njit
def river_hand_value(h0: int, h1: int, board: npt.NDArray[np.uint8]) -> int:
    """``v = 2 * wins + ties`` of one hand on a 5-card board against the 990 opponent hands."""
    bkey = 0
    bfm = 0
    dead = (1 << h0) | (1 << h1)
    for j in range(5):
        bkey += CARD_KEY[board[j]]
        bfm |= CARD_FLUSH_BIT[board[j]]
        dead |= 1 << board[j]
    hero = rank_from_key(
        bkey + CARD_KEY[h0] + CARD_KEY[h1], bfm | CARD_FLUSH_BIT[h0] | CARD_FLUSH_BIT[h1]
    )
    v = 0
    for b in range(52):
        if (dead >> b) & 1:
            continue
        kb = bkey + CARD_KEY[b]
        fb = bfm | CARD_FLUSH_BIT[b]
        for a in range(b):
            if (dead >> a) & 1:
                continue
            r = rank_from_key(kb + CARD_KEY[a], fb | CARD_FLUSH_BIT[a])
            if r < hero:
                v += 2
            elif r == hero:
                v += 1
    return v


@njit
def turn_hand_sums(
    h0: int, h1: int, board: npt.NDArray[np.uint8], bins: int, hist: npt.NDArray[np.int64]
) -> tuple[int, int]:
    """``(s, s2)`` of one hand on a 4-card board; adds its 46 river values' bins to ``hist``."""
    dead = (1 << h0) | (1 << h1)
    full = np.empty(5, dtype=np.uint8)
    for j in range(4):
        dead |= 1 << board[j]
        full[j] = board[j]
    s = 0
    s2 = 0
    for r in range(52):
        if (dead >> r) & 1:
            continue
        full[4] = r
        v = river_hand_value(h0, h1, full)
        s += v
        s2 += v * v
        hist[hist_bin(v, RIVER_DEN, bins)] += 1
    return s, s2


@njit
def flop_hand_sums(
    h0: int, h1: int, board: npt.NDArray[np.uint8], bins: int, hist: npt.NDArray[np.int64]
) -> tuple[int, int]:
    """``(s, s2)`` of one hand on a 3-card board; adds its 47 turn EHS bins to ``hist``."""
    dead = (1 << h0) | (1 << h1)
    full = np.empty(4, dtype=np.uint8)
    for j in range(3):
        dead |= 1 << board[j]
        full[j] = board[j]
    scratch = np.zeros(bins, dtype=np.int64)
    s = 0
    s2 = 0
    for t in range(52):
        if (dead >> t) & 1:
            continue
        full[3] = t
        ts, ts2 = turn_hand_sums(h0, h1, full, bins, scratch)
        s += ts
        s2 += ts2
        hist[hist_bin(ts, TURN_DEN, bins)] += 1
    return s, s2
