"""Lookup tables of the hand evaluator, built at import in a few milliseconds.

Design
------
Every card contributes a 64-bit *key*: the low 32 bits hold a per-rank key
:data:`RANK_KEYS` and bits 32..47 hold one 4-bit counter per suit. The keys in
:data:`RANK_KEYS` were found by a greedy search (each key the smallest integer
larger than the previous one such that every multiset of at most 7 ranks, each
rank at most 4 times, still has a distinct sum), so the sum of the card keys of
a hand identifies its multiset of ranks, and the suit counters tell whether 5 or
more cards share a suit. The same idea drives SKPokerEval (K. Shackleton) and
OMPEval (H. Hautala); the numbers and code here are our own.

* Non-flush hands: the rank sum (< 2**25) is mixed by a multiplication modulo
  2**25 (a bijection, since the multiplier is odd), split into a row (high bits)
  and a column (low bits) and looked up in a perfect hash by *row displacement*
  (Tarjan and Yao, "Storing a sparse table", CACM 22(11), 1979): the table index
  is ``column + OFFSETS[row]``, with the offsets chosen first-fit, rows with
  most keys first. The 73,775 rank multisets of 5, 6 and 7 cards fit in about
  74,300 slots (``uint16``) plus 16,384 offsets (``int32``).
* Flushes: once a suit has 5 or more cards, the hand's value is decided by that
  suit's 13-bit rank mask alone (with at most 7 cards nothing beats the flush),
  looked up in an 8,192-entry table.

Ranks are dense: 1 (7-5-4-3-2 offsuit) .. 7,462 (royal flush), higher is better,
the 7,462 classes of five-card hands counted by Cactus Kev (K. Suffecool,
"Cactus Kev's Poker Hand Evaluator", 2006). A category is a threshold on the
rank: see :data:`CATEGORY_FLOORS`.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit

__all__ = [
    "BYTE_FLUSH_BIT",
    "BYTE_KEY",
    "CARD_FLUSH_BIT",
    "CARD_KEY",
    "CATEGORY_FLOORS",
    "CATEGORY_OF_RANK",
    "FLUSH_RANK",
    "HASH_BITS",
    "HASH_MULT",
    "HASH_RANK",
    "HASH_SHIFT",
    "NUM_RANKS",
    "POISON_SHIFT",
    "RANK_KEYS",
    "ROW_OFFSETS",
    "SUIT_SHIFT",
]

RANK_KEYS: Final = np.array(
    [1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520],
    dtype=np.int64,
)
"""Key of each rank 2..A; sums over rank multisets (<= 7 cards, <= 4 per rank) are distinct."""

SUIT_SHIFT: Final = 32
HASH_BITS: Final = 25
HASH_SHIFT: Final = 10
# Any odd multiplier gives a perfect hash (a bijection mod 2**25); this one packs the
# table with no empty slot at HASH_SHIFT = 10. Changing anything here changes the tables
# that numba bakes into the cached kernels: touch _kernels.py to invalidate its cache.
HASH_MULT: Final = 12345677
NUM_RANKS: Final = 7462

_POW13: Final = 13**5


@njit
def _encode(category: int, digits: npt.NDArray[np.int64], n: int) -> int:
    # (category, tie-breakers...) as one integer that orders like the tuple.
    value = category
    for i in range(5):
        value = value * 13 + (digits[i] if i < n else 0)
    return value


@njit
def _straight_high(present: int) -> int:
    for high in range(12, 3, -1):
        run = 0x1F << (high - 4)
        if present & run == run:
            return high
    if present & 0x100F == 0x100F:
        return 3
    return -1


@njit
def _nonflush_value(counts: npt.NDArray[np.int64]) -> int:
    """Value of the best five of a multiset of 5..7 ranks (no flush possible)."""
    digits = np.zeros(5, dtype=np.int64)
    present = 0
    quad = trip = pair1 = pair2 = -1
    for r in range(12, -1, -1):
        c = counts[r]
        if c:
            present |= 1 << r
        if c >= 4 and quad < 0:
            quad = r
        elif c >= 3 and trip < 0:
            trip = r
        elif c >= 2:
            if pair1 < 0:
                pair1 = r
            elif pair2 < 0:
                pair2 = r
    if quad >= 0:
        digits[0] = quad
        n = 1
        for r in range(12, -1, -1):
            if r != quad and counts[r]:
                digits[1] = r
                n = 2
                break
        return _encode(7, digits, n)
    if trip >= 0:
        # A second trip or a pair completes the full house.
        best = -1
        for r in range(12, -1, -1):
            if r != trip and counts[r] >= 2:
                best = r
                break
        if best >= 0:
            digits[0] = trip
            digits[1] = best
            return _encode(6, digits, 2)
    high = _straight_high(present)
    if high >= 0:
        digits[0] = high
        return _encode(4, digits, 1)
    if trip >= 0:
        category, lead, skip1, skip2 = 3, 1, trip, trip
        digits[0] = trip
    elif pair2 >= 0:
        category, lead, skip1, skip2 = 2, 2, pair1, pair2
        digits[0] = pair1
        digits[1] = pair2
    elif pair1 >= 0:
        category, lead, skip1, skip2 = 1, 1, pair1, pair1
        digits[0] = pair1
    else:
        category, lead, skip1, skip2 = 0, 0, -1, -1
    n = lead
    for r in range(12, -1, -1):
        if n == 5:
            break
        if counts[r] and r != skip1 and r != skip2:
            digits[n] = r
            n += 1
    size = 5 if category == 0 else (4 if category == 1 else 3)
    return _encode(category, digits, min(n, size))


@njit
def _flush_value(mask: int) -> int:
    """Value of the best five of a suit's rank mask with 5..7 bits."""
    digits = np.zeros(5, dtype=np.int64)
    high = _straight_high(mask)
    if high >= 0:
        digits[0] = high
        return _encode(8, digits, 1)
    n = 0
    for r in range(12, -1, -1):
        if n < 5 and mask >> r & 1:
            digits[n] = r
            n += 1
    return _encode(5, digits, 5)


@njit
def _multisets(size: int) -> npt.NDArray[np.int64]:
    """Count vectors (rows of 13) of every multiset of ``size`` ranks, <= 4 per rank."""
    out = np.zeros((60000, 13), dtype=np.int64)
    ranks = np.zeros(size, dtype=np.int64)
    n = 0
    while True:
        counts = np.zeros(13, dtype=np.int64)
        ok = True
        for r in ranks:
            counts[r] += 1
            if counts[r] > 4:
                ok = False
        if ok:
            out[n] = counts
            n += 1
        # Next non-decreasing sequence (odometer).
        i = size - 1
        while i >= 0 and ranks[i] == 12:
            i -= 1
        if i < 0:
            break
        v = ranks[i] + 1
        for j in range(i, size):
            ranks[j] = v
    return out[:n]


@njit
def _find_free(nxt: npt.NDArray[np.int64], i: int) -> int:
    root = i
    while nxt[root] != root:
        root = nxt[root]
    while nxt[i] != root:
        nxt[i], i = root, nxt[i]
    return root


@njit
def _displace(
    rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64], num_rows: int, width: int
) -> tuple[npt.NDArray[np.int64], int]:
    """Row offsets of a first-fit displacement; returns (offsets, table size)."""
    count = np.zeros(num_rows, dtype=np.int64)
    for r in rows:
        count[r] += 1
    start = np.zeros(num_rows + 1, dtype=np.int64)
    for r in range(num_rows):
        start[r + 1] = start[r] + count[r]
    fill = start[:-1].copy()
    by_row = np.zeros(len(rows), dtype=np.int64)
    for i in range(len(rows)):
        by_row[fill[rows[i]]] = cols[i]
        fill[rows[i]] += 1
    capacity = len(rows) + 2 * width + 1
    taken = np.zeros(capacity, dtype=np.bool_)
    # nxt[i] leads to the smallest free slot >= i (union-find with path compression).
    nxt = np.arange(capacity + 1)
    offsets = np.zeros(num_rows, dtype=np.int64)
    size = 0
    for r in np.argsort(-count, kind="mergesort"):
        if count[r] == 0:
            break
        row_cols = np.sort(by_row[start[r] : start[r + 1]])
        slot = _find_free(nxt, 0)
        while True:
            offset = slot - row_cols[0]
            fits = True
            for c in row_cols[1:]:
                if taken[c + offset]:
                    fits = False
                    break
            if fits:
                break
            slot = _find_free(nxt, slot + 1)
        for c in row_cols:
            taken[c + offset] = True
            nxt[c + offset] = c + offset + 1
            size = max(size, c + offset + 1)
        offsets[r] = offset
    return offsets, size


@njit
def _build(
    rank_keys: npt.NDArray[np.int64], mult: int, bits: int, shift: int
) -> tuple[
    npt.NDArray[np.uint16], npt.NDArray[np.int32], npt.NDArray[np.uint16], npt.NDArray[np.int64]
]:
    # The 7,462 distinct values of five-card hands, sorted: a value's index + 1 is its rank.
    five = _multisets(5)
    values = np.zeros(len(five) + 1287, dtype=np.int64)
    for i in range(len(five)):
        values[i] = _nonflush_value(five[i])
    n = len(five)
    for mask in range(1 << 13):
        pop = 0
        for r in range(13):
            pop += mask >> r & 1
        if pop == 5:
            values[n] = _flush_value(mask)
            n += 1
    ordered = np.unique(values)

    flush_rank = np.zeros(1 << 13, dtype=np.uint16)
    for mask in range(1 << 13):
        pop = 0
        for r in range(13):
            pop += mask >> r & 1
        if pop >= 5:
            flush_rank[mask] = np.searchsorted(ordered, _flush_value(mask)) + 1

    sets = np.concatenate((five, _multisets(6), _multisets(7)))
    keys = np.zeros(len(sets), dtype=np.int64)
    for i in range(len(sets)):
        for r in range(13):
            keys[i] += sets[i, r] * rank_keys[r]
    mixed = (keys * mult) & ((1 << bits) - 1)
    rows = mixed >> shift
    cols = mixed & ((1 << shift) - 1)
    offsets, size = _displace(rows, cols, 1 << (bits - shift), 1 << shift)
    # Padding of one row width: any 25-bit mixed key, even from invalid cards, indexes in bounds.
    hash_rank = np.zeros(size + (1 << shift), dtype=np.uint16)
    for i in range(len(sets)):
        hash_rank[cols[i] + offsets[rows[i]]] = (
            np.searchsorted(ordered, _nonflush_value(sets[i])) + 1
        )
    floors = np.zeros(9, dtype=np.int64)
    for c in range(9):
        floors[c] = np.searchsorted(ordered, c * _POW13) + 1
    return hash_rank, offsets.astype(np.int32), flush_rank, floors


def _frozen(a: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
    a.setflags(write=False)
    return a


_hash, _offsets, _flush, _floors = _build(RANK_KEYS, HASH_MULT, HASH_BITS, HASH_SHIFT)

HASH_RANK: Final[npt.NDArray[np.uint16]] = _frozen(_hash)  # type: ignore[assignment]
"""Rank of each non-flush rank multiset at its perfect-hash slot (0 = unused or padding)."""
ROW_OFFSETS: Final[npt.NDArray[np.int32]] = _frozen(_offsets)  # type: ignore[assignment]
"""Displacement of each hash row into :data:`HASH_RANK`."""
FLUSH_RANK: Final[npt.NDArray[np.uint16]] = _frozen(_flush)  # type: ignore[assignment]
"""Rank of a flush by its 13-bit rank mask (0 for masks with fewer than 5 bits)."""
CATEGORY_FLOORS: Final[npt.NDArray[np.int64]] = _frozen(_floors)  # type: ignore[assignment]
"""Lowest rank of each category 0 (high card) .. 8 (straight flush)."""
CATEGORY_OF_RANK: Final[npt.NDArray[np.int8]] = _frozen(  # type: ignore[assignment]
    (np.searchsorted(_floors, np.arange(NUM_RANKS + 1), side="right") - 1).astype(np.int8)
)
"""Category of each rank 0..7,462 (index 0 is unused and maps to -1)."""

_suits = np.arange(52) & 3
_ranks = np.arange(52) >> 2
CARD_KEY: Final[npt.NDArray[np.int64]] = _frozen(  # type: ignore[assignment]
    RANK_KEYS[_ranks] + (np.int64(1) << (SUIT_SHIFT + 4 * _suits))
)
"""Additive key of each card: rank key plus one in its suit's 4-bit counter."""
CARD_FLUSH_BIT: Final[npt.NDArray[np.int64]] = _frozen(  # type: ignore[assignment]
    np.int64(1) << (16 * _suits + _ranks)
)
"""Bit of each card in a suit-major rank mask (suit ``s`` owns bits ``16*s .. 16*s+12``)."""

POISON_SHIFT: Final = 56
BYTE_KEY: Final[npt.NDArray[np.int64]] = _frozen(  # type: ignore[assignment]
    np.concatenate((CARD_KEY, np.full(256 - 52, np.int64(1) << POISON_SHIFT)))
)
""":data:`CARD_KEY` for every byte; bytes 52..255 add a poison bit at :data:`POISON_SHIFT`."""
BYTE_FLUSH_BIT: Final[npt.NDArray[np.int64]] = _frozen(  # type: ignore[assignment]
    np.concatenate((CARD_FLUSH_BIT, np.zeros(256 - 52, dtype=np.int64)))
)
""":data:`CARD_FLUSH_BIT` for every byte (0 for bytes 52..255)."""
