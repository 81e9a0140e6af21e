"""Showdown ranking in plain Python: the best five of 5-7 cards as one comparable int.

The engine compares the hands at a showdown, a handful of calls per hand, so it needs
no table: it reads the category and the tie-breaking ranks from the rank counts and
the suits, and so does not load numba and the evaluator's tables (half a second
before the first showdown of a program that only replays or plays hands). The order
is the evaluator's (:func:`checkraise.evaluator.evaluate`; the test holds the two
equal on every five-card class and on random seven-card hands), but the numbers are
not its dense ranks: only comparisons between them mean anything.

The key is ``category * 13**5`` plus the deciding ranks as base-13 digits, most
significant first (category 0 = high card .. 8 = straight flush, rank 0 = deuce);
with at most seven cards a flush excludes four of a kind and a full house.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = ["rank_key"]

_CATEGORY: Final = 13**5
_WHEEL: Final = (1 << 12) | 0b1111  # A-2-3-4-5


def _straight_high(mask: int) -> int:
    """Top rank of the best straight in a 13-bit rank mask, or -1."""
    for top in range(12, 3, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top
    return 3 if mask & _WHEEL == _WHEEL else -1


def _digits(ranks: Sequence[int]) -> int:
    value = 0
    for r in ranks:
        value = value * 13 + r
    return value


def rank_key(cards: Sequence[int]) -> int:
    """Comparable value of the best five of 5-7 distinct card ints; higher wins.

    Examples
    --------
    >>> from checkraise.cards import parse_cards
    >>> royal = rank_key(parse_cards("As Ks Qs Js Ts 2c 3d"))
    >>> wheel = rank_key(parse_cards("Ah 2d 3c 4s 5h 9d Jc"))
    >>> six_high = rank_key(parse_cards("2h 3d 4c 5s 6h 9d Jc"))
    >>> royal > six_high > wheel > rank_key(parse_cards("Ah Ad Kc Kd 7s 7h 2c"))
    True
    """
    counts = [0] * 13
    suits = [0, 0, 0, 0]
    for c in cards:
        counts[c >> 2] += 1
        suits[c & 3] += 1
    for suit in range(4):
        if suits[suit] >= 5:
            mask = 0
            for c in cards:
                if c & 3 == suit:
                    mask |= 1 << (c >> 2)
            high = _straight_high(mask)
            if high >= 0:
                return 8 * _CATEGORY + high
            return 5 * _CATEGORY + _digits([r for r in range(12, -1, -1) if mask >> r & 1][:5])
    by_count: list[list[int]] = [[], [], [], [], []]  # ranks by count, highest rank first
    mask = 0
    for r in range(12, -1, -1):
        if counts[r]:
            by_count[counts[r]].append(r)
            mask |= 1 << r
    quads, trips, pairs, singles = by_count[4], by_count[3], by_count[2], by_count[1]
    if quads:
        kicker = max(r for r in range(13) if counts[r] and r != quads[0])
        return 7 * _CATEGORY + quads[0] * 13 + kicker
    if trips and (len(trips) > 1 or pairs):
        pair = max(trips[1:] + pairs)
        return 6 * _CATEGORY + trips[0] * 13 + pair
    high = _straight_high(mask)
    if high >= 0:
        return 4 * _CATEGORY + high
    if trips:
        return 3 * _CATEGORY + _digits([trips[0], *singles[:2]])
    if len(pairs) >= 2:
        kicker = max([*pairs[2:], *singles[:1]])
        return 2 * _CATEGORY + _digits([pairs[0], pairs[1], kicker])
    if pairs:
        return _CATEGORY + _digits([pairs[0], *singles[:3]])
    return _digits(singles[:5])
