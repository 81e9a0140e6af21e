"""7-card hand evaluation (temporary straightforward version; replaced by the fast kernel)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from checkraise.cards import parse_cards

__all__ = ["CATEGORY_NAMES", "category", "evaluate"]

CATEGORY_NAMES = (
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


def _rank5(cards: Sequence[int]) -> int:
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    flush = len({c & 3 for c in cards}) == 1
    distinct = sorted(counts, reverse=True)
    high = -1
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            high = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            high = 3
    if high >= 0:
        key: tuple[int, ...] = (8 if flush else 4, high)
    elif shape[0] == 4:
        key = (7, groups[0][0], groups[1][0])
    elif shape[:2] == [3, 2]:
        key = (6, groups[0][0], groups[1][0])
    elif flush:
        key = (5, *ranks)
    else:
        cat = {3: 3, 2: 2 if shape[:2] == [2, 2] else 1, 1: 0}[shape[0]]
        key = (cat, *(r for r, _ in groups))
    value = key[0]
    for r in (*key[1:], 0, 0, 0, 0, 0)[:5]:
        value = value * 13 + r
    return value


def evaluate(cards: Iterable[int | str] | str) -> int:
    """Rank of the best five of 5-7 cards; higher wins, equal ranks tie."""
    cs = parse_cards(cards)
    if not 5 <= len(cs) <= 7:
        raise ValueError(f"evaluate needs 5, 6 or 7 cards, got {len(cs)}")
    return max(_rank5(five) for five in combinations(cs, 5))


def category(rank: int) -> int:
    """Category 0..8 (high card .. straight flush) of a rank from :func:`evaluate`."""
    return rank // 13**5
