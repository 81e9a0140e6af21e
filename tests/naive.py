"""Slow, obviously correct twins of checkraise's fast functions.

Tests check the fast kernels against these on random and exhaustive inputs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, permutations
from typing import Any

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


def naive_rank5(cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """(category, tie-breakers...) of exactly five cards; tuples compare like hands."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    suits = {c & 3 for c in cards}
    counts = Counter(ranks)
    # Groups ordered by count then rank: e.g. full house -> (trip rank, pair rank).
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    flush = len(suits) == 1
    distinct = sorted(counts, reverse=True)
    straight_high = -1
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            straight_high = 3  # the wheel, five-high
    if straight_high >= 0 and flush:
        return (8, straight_high)
    if shape == [4, 1]:
        return (7, groups[0][0], groups[1][0])
    if shape == [3, 2]:
        return (6, groups[0][0], groups[1][0])
    if flush:
        return (5, *ranks)
    if straight_high >= 0:
        return (4, straight_high)
    if shape == [3, 1, 1]:
        return (3, *(r for r, _ in groups))
    if shape == [2, 2, 1]:
        return (2, *(r for r, _ in groups))
    if shape == [2, 1, 1, 1]:
        return (1, *(r for r, _ in groups))
    return (0, *ranks)


def naive_rank(cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Best five-card value of 5, 6 or 7 cards."""
    return max(naive_rank5(five) for five in combinations(cards, 5))


def naive_value_order() -> dict[tuple[int, ...], int]:
    """Every distinct :func:`naive_rank5` value mapped to its place 1.. (weakest first).

    A five-card value depends only on the multiset of ranks and on whether the
    suits are all equal, so one hand per (multiset, flush) class covers them all.
    """
    values = set()
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        # Suits 0,1,2,3,0 along the sorted ranks: equal ranks get different suits, no flush.
        values.add(naive_rank5([4 * r + i % 4 for i, r in enumerate(ranks)]))
        if len(set(ranks)) == 5:
            values.add(naive_rank5([4 * r for r in ranks]))
    return {value: place for place, value in enumerate(sorted(values), start=1)}


SUIT_PERMUTATIONS = tuple(permutations(range(4)))


def naive_iso_canon(cards: tuple[int, ...] | list[int]) -> tuple[tuple[int, ...], ...]:
    """Canonical form of a deal (2 hole cards, then the board) under suit permutations.

    The hole cards and the board are each a set, so each is sorted; the form is the
    least, over all 24 relabellings of the suits, of the (hole, board) pair of tuples.
    """
    rounds = (cards[:2], cards[2:])
    return min(
        tuple(tuple(sorted(4 * (c >> 2) + perm[c & 3] for c in part)) for part in rounds)
        for perm in SUIT_PERMUTATIONS
    )


def naive_iso_orbit_size(cards: tuple[int, ...] | list[int]) -> int:
    """Number of different deals (hole set, board set) a suit relabelling makes of ``cards``."""
    rounds = (cards[:2], cards[2:])
    return len(
        {
            tuple(frozenset(4 * (c >> 2) + perm[c & 3] for c in part) for part in rounds)
            for perm in SUIT_PERMUTATIONS
        }
    )


def naive_river_ehs(hole: tuple[int, int] | list[int], board: list[int]) -> Fraction:
    """Exact EHS on a 5-card board: every opponent hand ranked with the evaluator."""
    import numpy as np

    from checkraise.evaluator import evaluate, evaluate_batch

    hero = evaluate([*hole, *board])
    rest = [c for c in range(52) if c not in hole and c not in board]
    opponents = [[*opp, *board] for opp in combinations(rest, 2)]
    ranks = evaluate_batch(np.array(opponents, dtype=np.uint8))
    wins = int((ranks < hero).sum())
    ties = int((ranks == hero).sum())
    return (wins + Fraction(ties, 2)) / len(opponents)


def naive_next_street(
    hole: tuple[int, int] | list[int], board: list[int], bins: int
) -> tuple[Fraction, Fraction, list[int]]:
    """(E[HS], E[HS^2], histogram) over every runout of a 3- or 4-card board.

    E[HS] and E[HS^2] average river EHS over all runouts to the river; the histogram
    counts, over the next card only, that card's E[HS] (river EHS on the turn) in
    ``bins`` equal-width bins of [0, 1] (an EHS of exactly 1 in the last bin).
    """
    rest = [c for c in range(52) if c not in hole and c not in board]
    hist = [0] * bins
    total = Fraction(0)
    total2 = Fraction(0)
    runs = 0
    for nxt in rest:
        if len(board) == 4:
            e = naive_river_ehs(hole, [*board, nxt])
            e2 = e * e
            total += e
            total2 += e2
            runs += 1
        else:
            e, e2, _ = naive_next_street(hole, [*board, nxt], bins)
            total += e
            total2 += e2
            runs += 1
        hist[min(int(e * bins), bins - 1)] += 1
    return total / runs, total2 / runs, hist


def naive_fold_values(
    payoff: float, reach_o: list[float], cards_t: list[tuple[int, int]],
    cards_o: list[tuple[int, int]],
) -> list[float]:
    """``payoff`` times the opponent weight that shares no card with each hand (pair by pair)."""
    out = []
    for mine in cards_t:
        total = 0.0
        for theirs, weight in zip(cards_o, reach_o, strict=True):
            if not set(mine) & set(theirs):
                total += weight
        out.append(payoff * total)
    return out


def naive_showdown_values(
    win: float, lose: float, tie: float, reach_o: list[float],
    cards_t: list[tuple[int, int]], cards_o: list[tuple[int, int]],
    rank_t: list[int], rank_o: list[int],
) -> list[float]:
    """Each hand's showdown payoff against every opponent hand it can meet (pair by pair)."""
    out = []
    for mine, r_mine in zip(cards_t, rank_t, strict=True):
        total = 0.0
        for theirs, r_theirs, weight in zip(cards_o, rank_o, reach_o, strict=True):
            if set(mine) & set(theirs):
                continue  # a card both cannot hold, the very same hand included
            if r_mine > r_theirs:
                total += win * weight
            elif r_mine < r_theirs:
                total += lose * weight
            else:
                total += tie * weight
        out.append(total)
    return out


def naive_es_traversal(
    tree: Any,
    offset: Sequence[int],
    stride: Sequence[int],
    regrets: Sequence[int],
    trav: int,
    buckets: Sequence[Sequence[int]],
    winner: int,
    prune_below: int | None = None,
    floor: int = -(2**31),
) -> tuple[float, dict[int, int], dict[int, float], int]:
    """One external-sampling MCCFR traversal of a ``BettingTree`` for position ``trav``,
    by plain recursion, where every opponent information set met plays a pure strategy.

    Regret matching gives each information set's strategy (uniform if no regret is
    positive); the traverser explores every action (except, with ``prune_below``, those
    whose regret is below it, unless on the river or ending the hand), the opponent
    plays his one action. Returns the traverser's value, the new regrets by table
    index (``R + round(v(a) - v)``, floored), the opponent's strategy added to the
    sums by table index, and the number of nodes met. The row of bucket ``b`` at node
    ``n`` starts at ``offset[n] + b * stride[n]`` in the flat tables.
    """
    new_regrets: dict[int, int] = {}
    sums: dict[int, float] = {}
    met = 0

    def strategy(base: int, n: int) -> list[float]:
        pos = [max(int(regrets[base + a]), 0) for a in range(n)]
        total = sum(pos)
        return [x / total for x in pos] if total > 0 else [1.0 / n] * n

    def value(node: int) -> float:
        nonlocal met
        met += 1
        kind = int(tree.kind[node])
        c = [int(x) for x in tree.committed[node]]
        if kind == 1:  # a fold: the other position takes the pot
            taker = 1 - int(tree.player[node])
            return float((c[0] + c[1]) * (taker == trav) - c[trav])
        if kind == 2:  # a showdown
            share = 0.5 if winner == 2 else float(winner == trav)
            return share * (c[0] + c[1]) - c[trav]
        p = int(tree.player[node])
        kids = list(tree.children(node))
        n = len(kids)
        base = int(offset[node]) + int(buckets[p][int(tree.street[node])]) * int(stride[node])
        sigma = strategy(base, n)
        if p != trav:
            assert sorted(sigma) == [0.0] * (n - 1) + [1.0], "the opponent must play pure"
            for a in range(n):
                sums[base + a] = sums.get(base + a, 0.0) + sigma[a]
            return value(kids[sigma.index(1.0)])
        explored = [
            prune_below is None
            or int(tree.street[node]) == 3
            or int(tree.kind[kids[a]]) != 0
            or int(regrets[base + a]) >= prune_below
            for a in range(n)
        ]
        values = {a: value(kids[a]) for a in range(n) if explored[a]}
        v = sum(sigma[a] * values[a] for a in values)
        for a, va in values.items():
            new_regrets[base + a] = max(int(regrets[base + a]) + round(va - v), floor)
        return v

    v = value(0)
    return v, new_regrets, sums, met
