"""numba kernels of the hand evaluator, callable from other njit code.

The table design (additive card keys, a row-displacement perfect hash for rank
multisets, a 13-bit-mask table for flushes) is described in
:mod:`checkraise.evaluator._tables`. Ranks are dense ints 1..7,462, higher is
better, equal ranks tie; :data:`CATEGORY_OF_RANK` maps a rank to its category
0 (high card) .. 8 (straight flush).

Kernels for other modules (stable signatures; all arguments and results are
``int``, cards are ``4 * rank + suit``):

``rank5(c0, c1, c2, c3, c4)``, ``rank6(c0, .., c5)``, ``rank7(c0, .., c6)``
    Rank of the best five of 5, 6 or 7 distinct cards.
``CARD_KEY[c]`` and ``CARD_FLUSH_BIT[c]`` (``int64`` arrays of 52)
    Per-card building blocks for incremental evaluation: a hand's *key* is the
    sum of its cards' ``CARD_KEY`` and its *flush mask* the sum (or bitwise or)
    of their ``CARD_FLUSH_BIT``. Partial sums over a shared board can be reused:
    ``key = board_key + CARD_KEY[a] + CARD_KEY[b]``.
``rank_from_key(key, flush_mask)``
    Rank of the 5, 6 or 7 cards whose key and flush mask are given.
``is_flush_key(key)``
    Whether the cards of ``key`` hold 5 or more of one suit (only then is
    ``flush_mask`` read, so loops may compute it lazily and call
    ``rank_from_key(key, 0)`` when this is False).
``rank_nonflush(key)`` / ``rank_flush(key, flush_mask)``
    The two branches of ``rank_from_key``.
``category_of(rank)``
    Category 0..8 of a rank.

Example of an incremental loop inside another kernel::

    board_key = CARD_KEY[b0] + CARD_KEY[b1] + CARD_KEY[b2] + CARD_KEY[b3] + CARD_KEY[b4]
    board_fm = CARD_FLUSH_BIT[b0] | ... | CARD_FLUSH_BIT[b4]
    for a, b in hole_pairs:
        r = rank_from_key(board_key + CARD_KEY[a] + CARD_KEY[b],
                          board_fm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b])

Batch kernels: :func:`rank_batch` (rows of 5..7 valid cards, unchecked),
:func:`checked_rank_batch` (any bytes; reports the first bad row, used by
:func:`checkraise.evaluator.evaluate_batch`) and :func:`enumerate7_histogram`
(every 7-card hand, by nested loops with incremental partial keys).

The scalar kernels do no checking: a card outside 0..51 reads out of bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from numba.core import config as numba_config
from numba.core import types
from numba.extending import intrinsic

from checkraise._numba import njit
from checkraise.evaluator._tables import (
    BYTE_FLUSH_BIT,
    BYTE_KEY,
    CARD_FLUSH_BIT,
    CARD_KEY,
    CATEGORY_OF_RANK,
    FLUSH_RANK,
    HASH_BITS,
    HASH_MULT,
    HASH_RANK,
    HASH_SHIFT,
    POISON_SHIFT,
    ROW_OFFSETS,
    SUIT_SHIFT,
)

__all__ = [
    "CARD_FLUSH_BIT",
    "CARD_KEY",
    "category_of",
    "checked_rank_batch",
    "enumerate7_histogram",
    "is_flush_key",
    "rank5",
    "rank6",
    "rank7",
    "rank_batch",
    "rank_flush",
    "rank_from_key",
    "rank_nonflush",
]

_HASH_MASK = (1 << HASH_BITS) - 1
_COL_MASK = (1 << HASH_SHIFT) - 1
# Adding 3 to each 4-bit suit counter sets its top bit exactly when the count is >= 5.
_SUIT_BIAS = 0x3333
_SUIT_TOP = 0x8888


@njit
def is_flush_key(key: int) -> bool:
    """Whether the cards summed in ``key`` hold five or more of one suit."""
    return (((key >> SUIT_SHIFT) + _SUIT_BIAS) & _SUIT_TOP) != 0


@njit
def rank_nonflush(key: int) -> int:
    """Rank of a hand without a flush, from its key (the rank-key sum in the low bits)."""
    mixed = ((key & _HASH_MASK) * HASH_MULT) & _HASH_MASK
    return int(HASH_RANK[(mixed & _COL_MASK) + ROW_OFFSETS[mixed >> HASH_SHIFT]])


@njit
def rank_flush(key: int, flush_mask: int) -> int:
    """Rank of a hand known to hold a flush, from its key and suit-major flush mask."""
    top = ((key >> SUIT_SHIFT) + _SUIT_BIAS) & _SUIT_TOP
    # Only one suit can reach five of seven cards: top is 0x8, 0x80, 0x800 or 0x8000.
    suit = int(top > 0x8) + int(top > 0x80) + int(top > 0x800)
    return int(FLUSH_RANK[(flush_mask >> (16 * suit)) & 0x1FFF])


@njit
def rank_from_key(key: int, flush_mask: int) -> int:
    """Rank of 5..7 cards from the sums of their ``CARD_KEY`` and ``CARD_FLUSH_BIT``."""
    if is_flush_key(key):
        return rank_flush(key, flush_mask)
    return rank_nonflush(key)


def _popcount_intrinsic(typingctx: object, x: object) -> tuple[object, object]:
    sig = types.int64(types.int64)

    def codegen(context: object, builder: Any, signature: object, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


def _popcount_py(x: int) -> int:
    return int(x).bit_count()


# Under NUMBA_DISABLE_JIT (coverage runs) kernels run as Python and need a Python twin.
_popcount = (
    _popcount_py
    if getattr(numba_config, "DISABLE_JIT", False)
    else cast(Callable[[int], int], intrinsic(_popcount_intrinsic))
)
"""Number of set bits of an int64 (LLVM ``ctpop``: one instruction on x86-64)."""


# The flush mask is or-ed unconditionally: a branch-free mask lets the compiler
# schedule the loads early, which measured faster than building it only for flushes.
@njit
def rank5(c0: int, c1: int, c2: int, c3: int, c4: int) -> int:
    """Rank of five distinct cards."""
    key = CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4]
    fm = (
        CARD_FLUSH_BIT[c0]
        | CARD_FLUSH_BIT[c1]
        | CARD_FLUSH_BIT[c2]
        | CARD_FLUSH_BIT[c3]
        | CARD_FLUSH_BIT[c4]
    )
    return rank_from_key(key, fm)


@njit
def rank6(c0: int, c1: int, c2: int, c3: int, c4: int, c5: int) -> int:
    """Rank of the best five of six distinct cards."""
    key = CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4] + CARD_KEY[c5]
    fm = (
        CARD_FLUSH_BIT[c0]
        | CARD_FLUSH_BIT[c1]
        | CARD_FLUSH_BIT[c2]
        | CARD_FLUSH_BIT[c3]
        | CARD_FLUSH_BIT[c4]
        | CARD_FLUSH_BIT[c5]
    )
    return rank_from_key(key, fm)


@njit
def rank7(c0: int, c1: int, c2: int, c3: int, c4: int, c5: int, c6: int) -> int:
    """Rank of the best five of seven distinct cards."""
    key = (
        CARD_KEY[c0]
        + CARD_KEY[c1]
        + CARD_KEY[c2]
        + CARD_KEY[c3]
        + CARD_KEY[c4]
        + CARD_KEY[c5]
        + CARD_KEY[c6]
    )
    fm = (
        CARD_FLUSH_BIT[c0]
        | CARD_FLUSH_BIT[c1]
        | CARD_FLUSH_BIT[c2]
        | CARD_FLUSH_BIT[c3]
        | CARD_FLUSH_BIT[c4]
        | CARD_FLUSH_BIT[c5]
        | CARD_FLUSH_BIT[c6]
    )
    return rank_from_key(key, fm)


@njit
def category_of(rank: int) -> int:
    """Category 0 (high card) .. 8 (straight flush) of a rank 1..7,462."""
    return int(CATEGORY_OF_RANK[rank])


@njit
def rank_batch(cards: npt.NDArray[np.uint8], out: npt.NDArray[np.int32]) -> None:
    """Write the rank of each row of ``cards`` (shape (n, 5..7), valid cards) into ``out``."""
    n, k = cards.shape
    if k == 7:
        for i in range(n):
            out[i] = rank7(
                cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3],
                cards[i, 4], cards[i, 5], cards[i, 6],
            )  # fmt: skip
    elif k == 6:
        for i in range(n):
            out[i] = rank6(
                cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4], cards[i, 5]
            )
    else:
        for i in range(n):
            out[i] = rank5(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4])


@njit
def _byte_sums(cards: npt.NDArray[np.uint8], i: int, k: int) -> tuple[int, int]:
    """(key, flush mask) of the ``k`` bytes of row ``i``."""
    key = 0
    fm = 0
    for j in range(k):
        key += BYTE_KEY[cards[i, j]]
        fm |= BYTE_FLUSH_BIT[cards[i, j]]
    return key, fm


@njit
def _row_is_bad(key: int, fm: int, k: int) -> int:
    # Bytes above 51 carry a poison bit in BYTE_KEY (and no flush bit); a repeated
    # card leaves fewer than k bits set in the or of the flush bits.
    return (key >> POISON_SHIFT) | (_popcount(fm) ^ k)


@njit
def checked_rank_batch(cards: npt.NDArray[np.uint8], out: npt.NDArray[np.int32]) -> int:
    """Like :func:`rank_batch` for any bytes; returns the first bad row or -1.

    A row is bad when it holds a byte above 51 or the same card twice; its
    ``out`` entry is then meaningless (every lookup stays in bounds).
    """
    n, k = cards.shape
    bad = 0
    if k == 7:
        # Written out: the hot case, about twice as fast as the generic loop below.
        for i in range(n):
            c0, c1, c2, c3 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3]
            c4, c5, c6 = cards[i, 4], cards[i, 5], cards[i, 6]
            key = (
                BYTE_KEY[c0] + BYTE_KEY[c1] + BYTE_KEY[c2] + BYTE_KEY[c3]
                + BYTE_KEY[c4] + BYTE_KEY[c5] + BYTE_KEY[c6]
            )  # fmt: skip
            fm = (
                BYTE_FLUSH_BIT[c0] | BYTE_FLUSH_BIT[c1] | BYTE_FLUSH_BIT[c2] | BYTE_FLUSH_BIT[c3]
                | BYTE_FLUSH_BIT[c4] | BYTE_FLUSH_BIT[c5] | BYTE_FLUSH_BIT[c6]
            )  # fmt: skip
            bad |= (key >> POISON_SHIFT) | (_popcount(fm) ^ 7)
            out[i] = rank_from_key(key, fm)
    else:
        for i in range(n):
            key, fm = _byte_sums(cards, i, k)
            bad |= _row_is_bad(key, fm, k)
            out[i] = rank_from_key(key, fm)
    if bad == 0:
        return -1
    for i in range(n):
        key, fm = _byte_sums(cards, i, k)
        if _row_is_bad(key, fm, k):
            return i
    return -1


@njit
def enumerate7_histogram() -> npt.NDArray[np.int64]:
    """How many of the 133,784,560 seven-card hands have each rank (index = rank).

    Walks the hands in lexicographic order with the key and flush mask of each
    prefix kept in the enclosing loops, so the innermost loop adds one card.
    """
    counts = np.zeros(7463, dtype=np.int64)
    for a in range(52):
        ka, fa = CARD_KEY[a], CARD_FLUSH_BIT[a]
        for b in range(a + 1, 52):
            kb, fb = ka + CARD_KEY[b], fa | CARD_FLUSH_BIT[b]
            for c in range(b + 1, 52):
                kc, fc = kb + CARD_KEY[c], fb | CARD_FLUSH_BIT[c]
                for d in range(c + 1, 52):
                    kd, fd = kc + CARD_KEY[d], fc | CARD_FLUSH_BIT[d]
                    for e in range(d + 1, 52):
                        ke, fe = kd + CARD_KEY[e], fd | CARD_FLUSH_BIT[e]
                        for f in range(e + 1, 52):
                            kf, ff = ke + CARD_KEY[f], fe | CARD_FLUSH_BIT[f]
                            for g in range(f + 1, 52):
                                counts[rank_from_key(kf + CARD_KEY[g], ff | CARD_FLUSH_BIT[g])] += 1
    return counts
