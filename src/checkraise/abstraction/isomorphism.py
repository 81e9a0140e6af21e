"""Suit isomorphism: a dense index of each hand's class per street, and back.

Two deals (hole cards, board) are *isomorphic* when a permutation of the four
suits maps the hole cards of one onto those of the other and its board onto the
other's board; they have the same strength against every opponent and runout.
Per street the classes are numbered densely ``0 .. index_size(street) - 1``:

========  ===========  =================
street    board cards  classes
========  ===========  =================
preflop   0            169
flop      3            1,286,792
turn      4            13,960,050
river     5            123,156,254
========  ===========  =================

The hole cards form a set and so does the board (dealing order does not
matter). The algorithm follows Waugh (2013), "A fast and optimal hand
isomorphism algorithm"; the numba kernels, callable from other njit code, are
in :mod:`checkraise.abstraction._iso_kernels` (``index_cards``,
``unindex_cards``).

Examples
--------
>>> hand_index(0, "AsAh") == hand_index(0, "AdAc")
True
>>> hand_index(1, "AsKs", "Qs7h2d") == hand_index(1, "AhKh", "Qh7c2s")
True
>>> hand_from_index(0, hand_index(0, "AhKh"))
((44, 48), ())
>>> index_size(3)
123156254
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from checkraise.abstraction import _iso_kernels as _k
from checkraise.cards import NUM_CARDS, format_card, parse_cards
from checkraise.errors import CheckraiseError, one_of

__all__ = [
    "BOARD_CARDS",
    "STREETS",
    "HandIndexError",
    "IndexRangeError",
    "StreetError",
    "check_deal",
    "class_size",
    "class_size_batch",
    "hand_from_index",
    "hand_index",
    "index_batch",
    "index_size",
    "unindex_batch",
]

STREETS: Final = ("preflop", "flop", "turn", "river")
BOARD_CARDS: Final = (0, 3, 4, 5)


class StreetError(CheckraiseError):
    """A street was not one of the ints 0..3 (preflop, flop, turn, river)."""


class HandIndexError(CheckraiseError):
    """Cards to index were invalid: out of range, repeated, or the wrong number."""


class IndexRangeError(CheckraiseError):
    """A class index was outside ``0 .. index_size(street) - 1``."""


def _street(street: int) -> int:
    if isinstance(street, bool) or not isinstance(street, (int, np.integer)):
        raise StreetError(f"invalid street {street!r}: expected an int 0..3 ({one_of(STREETS)})")
    if not 0 <= int(street) < 4:
        raise StreetError(f"invalid street {street!r}: expected an int 0..3 ({one_of(STREETS)})")
    return int(street)


def index_size(street: int) -> int:
    """Number of suit-isomorphism classes on ``street`` (0 preflop .. 3 river).

    Examples
    --------
    >>> [index_size(s) for s in range(4)]
    [169, 1286792, 13960050, 123156254]
    """
    return int(_k.INDEX_SIZE[_street(street)])


def _parse(cards: Sequence[int] | str, what: str) -> list[int]:
    try:
        return parse_cards(cards, unique=False)
    except ValueError as exc:
        raise HandIndexError(f"invalid {what} {cards!r}: {exc}") from None


def check_deal(
    street: int, hole: Sequence[int] | str, board: Sequence[int] | str
) -> list[int]:
    """The hole cards then the board of a valid deal on ``street``, as card ints.

    Raises :class:`HandIndexError` naming the cards (as text) that do not fit.
    """
    hole_cards = _parse(hole, "hole cards")
    board_cards = _parse(board, "board")
    if len(hole_cards) != 2:
        raise HandIndexError(
            f"invalid hole cards {hole!r}: expected 2 cards, got {len(hole_cards)}"
        )
    want = BOARD_CARDS[street]
    if len(board_cards) != want:
        raise HandIndexError(
            f"invalid board {board!r} for the {STREETS[street]}: "
            f"expected {want} cards, got {len(board_cards)}"
        )
    deal = hole_cards + board_cards
    seen: set[int] = set()
    for card in deal:
        if card in seen:
            raise HandIndexError(f"card {format_card(card)} given twice in {hole!r} + {board!r}")
        seen.add(card)
    return deal


def hand_index(street: int, hole: Sequence[int] | str, board: Sequence[int] | str = ()) -> int:
    """Class index of the hand ``hole`` on ``board`` (cards as ints or text like ``"AsKd"``).

    Raises :class:`StreetError` for a bad street and :class:`HandIndexError`
    for bad, repeated or too few/many cards (the board must have
    ``BOARD_CARDS[street]`` cards).

    Examples
    --------
    >>> hand_index(3, "2c2d", "3c3d4h5s6h") == hand_index(3, "2d2c", "6s5h4s3d3c")
    True
    """
    s = _street(street)
    deal = check_deal(s, hole, board)
    return int(_k.index_cards(s, np.array(deal, dtype=np.uint8)))


def hand_from_index(street: int, index: int) -> tuple[tuple[int, int], tuple[int, ...]]:
    """Canonical ``(hole, board)`` of class ``index`` on ``street``, each ascending.

    ``hand_index(street, *hand_from_index(street, i)) == i`` for every valid ``i``.

    Examples
    --------
    >>> from checkraise.cards import format_cards
    >>> hole, board = hand_from_index(1, 0)
    >>> hand_index(1, hole, board)
    0
    """
    s = _street(street)
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        raise IndexRangeError(f"invalid index {index!r}: expected an int")
    size = int(_k.INDEX_SIZE[s])
    if not 0 <= int(index) < size:
        raise IndexRangeError(
            f"invalid index {index!r} for the {STREETS[s]}: expected 0..{size - 1}"
        )
    out = np.zeros(7, dtype=np.uint8)
    _k.unindex_cards(s, int(index), out)
    cards = [int(c) for c in out[: 2 + BOARD_CARDS[s]]]
    return (cards[0], cards[1]), tuple(cards[2:])


def index_batch(street: int, cards: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Class indices of the rows of ``cards``, an ``(n, 2 + BOARD_CARDS[street])`` int array.

    Each row is hole cards then board. Rows are checked (cards 0..51, no
    repeats); :class:`HandIndexError` names the first bad row.

    Examples
    --------
    >>> index_batch(0, [[51, 50], [49, 48], [51, 47]]).tolist()  # AsAh, AdAc, AsKs
    [90, 90, 168]
    """
    s = _street(street)
    width = 2 + BOARD_CARDS[s]
    arr = np.asarray(cards)
    if arr.ndim != 2 or arr.shape[1] != width or not np.issubdtype(arr.dtype, np.integer):
        raise HandIndexError(
            f"invalid cards array of shape {arr.shape} and dtype {arr.dtype} for the "
            f"{STREETS[s]}: expected an integer array of shape (n, {width})"
        )
    if arr.dtype != np.uint8 and arr.size and (arr.min() < 0 or arr.max() >= NUM_CARDS):
        _raise_bad_row(arr, int(np.flatnonzero(((arr < 0) | (arr >= NUM_CARDS)).any(axis=1))[0]))
    rows = np.ascontiguousarray(arr, dtype=np.uint8)
    out = np.empty(rows.shape[0], dtype=np.int64)
    # The kernel checks each row (cards below 52, none repeated) as it indexes it.
    bad_row = _k.checked_index_batch_kernel(s, rows, out)
    if bad_row >= 0:
        _raise_bad_row(arr, bad_row)
    return out


def _raise_bad_row(arr: npt.NDArray[np.integer], row: int) -> None:
    cards = arr[row].tolist()
    if any(not 0 <= c < NUM_CARDS for c in cards):
        raise HandIndexError(f"invalid cards in row {row} ({cards}): expected ints 0..51")
    raise HandIndexError(f"repeated card in row {row} ({cards})")


def _indices(street: int, indices: npt.ArrayLike) -> npt.NDArray[np.int64]:
    idx = np.asarray(indices)
    if idx.ndim != 1 or not (idx.size == 0 or np.issubdtype(idx.dtype, np.integer)):
        raise IndexRangeError(
            f"invalid indices of shape {idx.shape} and dtype {idx.dtype}: "
            "expected a one-dimensional integer array"
        )
    size = int(_k.INDEX_SIZE[street])
    bad = np.flatnonzero((idx < 0) | (idx >= size))
    if bad.size:
        raise IndexRangeError(
            f"invalid index {idx[bad[0]]!r} at position {bad[0]} for the {STREETS[street]}: "
            f"expected 0..{size - 1}"
        )
    return np.ascontiguousarray(idx, dtype=np.int64)


def unindex_batch(street: int, indices: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Canonical deals of ``indices`` as an ``(n, 2 + BOARD_CARDS[street])`` uint8 array.

    Each row is the two hole cards ascending, then the board ascending.
    :class:`IndexRangeError` names the first index out of range.

    Examples
    --------
    >>> unindex_batch(0, [168]).tolist()  # Kc Ac
    [[44, 48]]
    """
    s = _street(street)
    idx = _indices(s, indices)
    out = np.zeros((idx.shape[0], 2 + BOARD_CARDS[s]), dtype=np.uint8)
    _k.unindex_batch_kernel(s, idx, out)
    return out


def class_size(street: int, index: int) -> int:
    """Number of deals (hole-card set, board set) in class ``index`` of ``street``.

    The class's weight when a statistic over classes (a k-means, a percentile) must
    count every deal once: it is 24 divided by the number of suit permutations that
    leave the deal unchanged. The sizes of a street's classes add up to all its deals.

    Examples
    --------
    >>> class_size(0, hand_index(0, "AsAh")), class_size(0, hand_index(0, "AsKs"))
    (6, 4)
    >>> class_size(0, hand_index(0, "AsKh"))
    12
    """
    return int(class_size_batch(street, [index])[0])


def class_size_batch(street: int, indices: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """:func:`class_size` of each of ``indices`` (a one-dimensional int array).

    Examples
    --------
    >>> int(class_size_batch(0, range(169)).sum())  # all 1,326 two-card combos
    1326
    """
    s = _street(street)
    idx = _indices(s, indices)
    out = np.empty(idx.shape[0], dtype=np.int64)
    _k.class_size_batch_kernel(s, idx, out)
    return out
