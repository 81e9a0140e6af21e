"""Slow, obviously correct twins of the hand-reading kernels."""

from __future__ import annotations

from itertools import combinations

from tests.naive import naive_rank


def naive_pwin(hand: tuple[int, int], board: list[int]) -> float:
    """Equity of ``hand`` against every opponent hand over every runout (ties shared)."""
    dead = set(hand) | set(board)
    deck = [c for c in range(52) if c not in dead]
    total = 0.0
    count = 0
    for runout in combinations(deck, 5 - len(board)):
        full = list(board) + list(runout)
        mine = naive_rank(list(hand) + full)
        rest = [c for c in deck if c not in runout]
        for opp in combinations(rest, 2):
            theirs = naive_rank(list(opp) + full)
            total += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            count += 1
    return total / count
