"""Card abstraction for the full 52-card game.

- :mod:`.isomorphism`: suit isomorphism, a dense index of each hand's class per
  street and its canonical cards (Waugh 2013); numba kernels in
  :mod:`._iso_kernels`.
"""

from __future__ import annotations

from checkraise.abstraction.isomorphism import (
    BOARD_CARDS,
    STREETS,
    HandIndexError,
    IndexRangeError,
    StreetError,
    hand_from_index,
    hand_index,
    index_batch,
    index_size,
    unindex_batch,
)

__all__ = [
    "BOARD_CARDS",
    "STREETS",
    "HandIndexError",
    "IndexRangeError",
    "StreetError",
    "hand_from_index",
    "hand_index",
    "index_batch",
    "index_size",
    "unindex_batch",
]
