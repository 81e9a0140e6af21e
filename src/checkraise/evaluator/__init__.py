"""Hand ranks of 5, 6 or 7 cards: scalar, batch and best-five.

Rank encoding
-------------
A rank is a dense ``int`` from 1 (7-5-4-3-2 offsuit, the worst five-card hand)
to 7,462 (a royal flush): one value per class of equivalent five-card hands
(Cactus Kev's 7,462 classes). Higher is better, equal ranks tie, and ranks of
5, 6 and 7 cards compare with each other (a hand of 6 or 7 cards is worth its
best five). The category is a threshold: ranks ``CATEGORY_FLOORS[c]`` up to
``CATEGORY_FLOORS[c + 1] - 1`` are category ``c`` (0 = high card .. 8 =
straight flush), i.e. high card 1..1277, pair 1278..4137, two pair 4138..4995,
three of a kind 4996..5853, straight 5854..5863, flush 5864..7140, full house
7141..7296, four of a kind 7297..7452, straight flush 7453..7462.

The kernels (additive card keys plus a perfect hash; see
:mod:`checkraise.evaluator._tables`) live in :mod:`checkraise.evaluator._kernels`,
which also documents the numba-callable building blocks for other kernels.

Examples
--------
>>> r = evaluate("As Ks Qs Js Ts 2c 3d")
>>> r, CATEGORY_NAMES[category(r)]
(7462, 'straight flush')
>>> evaluate(["Ah", "Ad", "Kc", "Kd", "7s"]) > evaluate("Ah Ad Qc Qd 7s")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

from checkraise.cards import CardError, format_card, format_cards, parse_cards
from checkraise.errors import ConfigError
from checkraise.evaluator import _kernels, _tables

__all__ = [
    "CATEGORY_FLOORS",
    "CATEGORY_NAMES",
    "NUM_RANKS",
    "best_five",
    "categories",
    "category",
    "evaluate",
    "evaluate_batch",
    "evaluate_ints",
]

CATEGORY_NAMES: Final = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
"""Name of each category, indexed 0 (high card) .. 8 (straight flush)."""

NUM_RANKS: Final = _tables.NUM_RANKS
"""Number of distinct ranks (7,462); ranks run from 1 to ``NUM_RANKS``."""

CATEGORY_FLOORS: Final[tuple[int, ...]] = tuple(int(x) for x in _tables.CATEGORY_FLOORS)
"""Lowest rank of each category 0..8."""

# Plain Python lists: indexing them is the cheapest lookup from interpreted code.
# Only the 52 card ints are keys, so anything else (negative, 52+, strings) misses.
_KEY_OF_CARD: Final = {c: int(k) for c, k in enumerate(_tables.CARD_KEY)}
_CARD_FLUSH_BIT: Final = [int(x) for x in _tables.CARD_FLUSH_BIT]
_HASH_RANK: Final = _tables.HASH_RANK.tolist()
_ROW_OFFSETS: Final = _tables.ROW_OFFSETS.tolist()
_FLUSH_RANK: Final = _tables.FLUSH_RANK.tolist()
_CATEGORY_OF_RANK: Final = _tables.CATEGORY_OF_RANK.tolist()
_HASH_MASK: Final = (1 << _tables.HASH_BITS) - 1
_COL_MASK: Final = (1 << _tables.HASH_SHIFT) - 1
_MULT: Final = _tables.HASH_MULT
_SHIFT: Final = _tables.HASH_SHIFT
_SUIT_SHIFT: Final = _tables.SUIT_SHIFT


def _bad_card(card: object) -> ValueError:
    return ValueError(f"invalid card {card!r}: expected an int 0..51 (4 * rank + suit)")


def evaluate_ints(cards: Sequence[int]) -> int:
    """Rank of 5, 6 or 7 distinct card ints, without parsing (the fast scalar path).

    Parameters
    ----------
    cards
        Card ints ``4 * rank + suit`` (a tuple, list or 1-d array).

    Returns
    -------
    int
        Dense rank 1..7,462, higher is better.

    Raises
    ------
    ValueError
        For a card outside 0..51, a repeated card or fewer than 5 / more than 7 cards.

    Examples
    --------
    >>> evaluate_ints((51, 47, 43, 39, 35))
    7462
    """
    try:
        key = sum(map(_KEY_OF_CARD.__getitem__, cards))
    except (KeyError, TypeError):
        raise _bad_card(next(c for c in cards if c not in _KEY_OF_CARD)) from None
    n = len(cards)
    if not 5 <= n <= 7:
        # Every card is known to be 0..51 here, so the message can show it as text.
        raise CardError(f"evaluate needs 5, 6 or 7 cards, got {n}: {format_cards(cards)!r}")
    if len(set(cards)) != n:
        twice = next(c for c in cards if list(cards).count(c) > 1)
        raise CardError(
            f"card {format_card(twice)} (int {twice}) is repeated in {format_cards(cards)!r}: "
            f"expected {n} distinct cards"
        )
    top = ((key >> _SUIT_SHIFT) + 0x3333) & 0x8888
    if top:
        suit = (top > 0x8) + (top > 0x80) + (top > 0x800)
        fm = 0
        for c in cards:
            fm |= _CARD_FLUSH_BIT[c]
        return int(_FLUSH_RANK[(fm >> (16 * suit)) & 0x1FFF])
    mixed = (key * _MULT) & _HASH_MASK
    return int(_HASH_RANK[(mixed & _COL_MASK) + _ROW_OFFSETS[mixed >> _SHIFT]])


def evaluate(cards: str | Iterable[int | str]) -> int:
    """Rank of the best five of 5, 6 or 7 cards; higher wins, equal ranks tie.

    Parameters
    ----------
    cards
        Card ints, card strings (``["As", "Kd", ...]``) or one string
        (``"As Kd Qh Jc Ts"``, ``"AsKdQhJcTs"``).

    Returns
    -------
    int
        Dense rank 1..7,462 (see the module docstring).

    Raises
    ------
    ValueError
        Naming a bad or repeated card, or a wrong number of cards.

    Examples
    --------
    >>> evaluate("7c 5d 4h 3s 2c")
    1
    >>> evaluate([51, 50, 47, 46, 43, 0, 5]) == evaluate("As Ah Ks Kh Qs 2c 3d")
    True
    """
    if isinstance(cards, (tuple, list)) and cards and type(cards[0]) is int:
        return evaluate_ints(cards)
    parsed = parse_cards(cards)
    if not 5 <= len(parsed) <= 7:
        raise CardError(
            f"evaluate needs 5, 6 or 7 cards, got {len(parsed)}: {format_cards(parsed)!r}"
        )
    return evaluate_ints(parsed)


def category(rank: int) -> int:
    """Category 0 (high card) .. 8 (straight flush) of a rank.

    Examples
    --------
    >>> CATEGORY_NAMES[category(evaluate("Ah Ad Kc Kd 7s"))]
    'two pair'
    """
    if not 1 <= rank <= NUM_RANKS:
        raise ConfigError(f"invalid rank {rank!r}: expected an int 1..{NUM_RANKS}")
    return int(_CATEGORY_OF_RANK[rank])


def categories(ranks: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """Category of each rank in an array (vectorised :func:`category`).

    Examples
    --------
    >>> categories([1, 7462]).tolist()
    [0, 8]
    """
    arr = np.asarray(ranks)
    if arr.size and (arr.min() < 1 or arr.max() > NUM_RANKS):
        bad = arr[(arr < 1) | (arr > NUM_RANKS)].flat[0]
        raise ConfigError(f"invalid rank {bad!r}: expected 1..{NUM_RANKS}")
    result: npt.NDArray[np.int8] = _tables.CATEGORY_OF_RANK[arr]
    return result


def evaluate_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Rank of each row of an ``(n, k)`` array of card ints, ``k`` in 5..7.

    Parameters
    ----------
    cards
        Integer array of shape ``(n, 5)``, ``(n, 6)`` or ``(n, 7)``; ``uint8``
        C-contiguous input is used without a copy.

    Returns
    -------
    numpy.ndarray
        ``int32`` array of ``n`` ranks.

    Raises
    ------
    ValueError
        Naming the first row with a card outside 0..51 or a repeated card, or a
        bad shape or dtype.

    Examples
    --------
    >>> evaluate_batch(np.array([[51, 47, 43, 39, 35, 0, 1]], dtype=np.uint8)).tolist()
    [7462]
    """
    arr = np.asarray(cards)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise CardError(f"cards must have shape (n, 5..7), got {arr.shape}")
    if arr.dtype != np.uint8:
        if not np.issubdtype(arr.dtype, np.integer):
            raise CardError(f"cards must be integers, got dtype {arr.dtype}")
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            row = int(np.flatnonzero(((arr < 0) | (arr > 51)).any(axis=1))[0])
            raise CardError(f"invalid card in row {row}: {arr[row].tolist()} (expected 0..51)")
        arr = arr.astype(np.uint8)
    arr = np.ascontiguousarray(arr)
    out = np.empty(arr.shape[0], dtype=np.int32)
    bad = _kernels.checked_rank_batch(arr, out)
    if bad >= 0:
        raise CardError(
            f"invalid cards in row {bad}: {arr[bad].tolist()} (expected distinct ints 0..51)"
        )
    return out


def best_five(cards: str | Iterable[int | str]) -> tuple[int, ...]:
    """The five cards that make the hand's rank, strongest groups first.

    Examples
    --------
    >>> from checkraise.cards import format_cards
    >>> format_cards(best_five("2c 3d Ts Js Qs Ks As"))
    'As Ks Qs Js Ts'
    >>> format_cards(best_five("Kd 7s Kc 7h 7c 2d 3s"))
    '7s 7h 7c Kd Kc'
    """
    cs = parse_cards(cards)
    target = evaluate(cs)
    for five in combinations(cs, 5):
        if evaluate_ints(five) == target:
            ranks = [c >> 2 for c in five]
            return tuple(sorted(five, key=lambda c: (-ranks.count(c >> 2), -c)))
    raise AssertionError(f"no five of {[format_card(c) for c in cs]} reach rank {target}")
