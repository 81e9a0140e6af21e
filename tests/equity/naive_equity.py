"""Brute-force twins of the equity engine: Python loops over every deal, exact fractions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, product

from tests.naive import naive_rank

Hand = tuple[int, int]


@cache
def _rank(cards: tuple[int, ...]) -> tuple[int, ...]:
    return naive_rank(list(cards))


def random_hand() -> dict[Hand, Fraction]:
    """A uniformly random hand: every one of the 1,326 two-card sets at weight 1."""
    return {hand: Fraction(1) for hand in combinations(range(52), 2)}


def naive_equity(
    players: Sequence[dict[Hand, Fraction]],
    board: Sequence[int],
    dead: Sequence[int] = (),
    rank: Callable[[tuple[int, ...]], object] | None = None,
) -> tuple[list[Fraction], list[Fraction], list[Fraction]]:
    """(win, tie, equity) of each player: every non-colliding deal weighted by prod(weights).

    ``rank`` maps seven sorted cards to a comparable value (default: :func:`naive_rank`).
    """
    rank_of = _rank if rank is None else rank
    n = len(players)
    win = [Fraction(0)] * n
    tie = [Fraction(0)] * n
    share = [Fraction(0)] * n
    total = Fraction(0)
    out = set(board) | set(dead)
    for deal in product(*(list(p.items()) for p in players)):
        cards = [c for hand, _ in deal for c in hand]
        if len(set(cards)) < len(cards) or set(cards) & out:
            continue
        weight = Fraction(1)
        for _, w in deal:
            weight *= w
        if weight == 0:
            continue
        rest = [c for c in range(52) if c not in out and c not in cards]
        for runout in combinations(rest, 5 - len(board)):
            full = tuple(board) + runout
            ranks = [rank_of(tuple(sorted(hand + full))) for hand, _ in deal]
            best = max(ranks)
            k = ranks.count(best)
            total += weight
            for p in range(n):
                if ranks[p] == best:
                    if k == 1:
                        win[p] += weight
                    else:
                        tie[p] += weight
                    share[p] += weight / k
    return [w / total for w in win], [t / total for t in tie], [s / total for s in share]
