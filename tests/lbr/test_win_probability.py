"""LBR's win probability against a range: exact from the flop on, seeded Monte Carlo preflop."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from tests.naive import naive_rank

from checkraise.cards import COMBO_CARDS, NUM_COMBOS
from checkraise.equity import equity
from checkraise.equity.preflop import preflop_entry
from checkraise.errors import ConfigError
from checkraise.lbr import win_probability
from checkraise.ranges import Range


def _naive_wp(hole: list[int], board: list[int], weights: np.ndarray) -> float:
    """Every (range hand, runout) pair weighted by the hand's weight, ranked naively."""
    known = set(hole) | set(board)
    score = total = 0.0
    deck = [c for c in range(52) if c not in known]
    for i in np.flatnonzero(weights):
        a, b = int(COMBO_CARDS[i, 0]), int(COMBO_CARDS[i, 1])
        if a in known or b in known:
            continue
        rest = [c for c in deck if c not in (a, b)]
        for runout in combinations(rest, 5 - len(board)):
            full = board + list(runout)
            mine, theirs = naive_rank(hole + full), naive_rank([a, b, *full])
            score += weights[i] * (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
            total += weights[i]
    return score / total


@pytest.mark.parametrize("street", [5, 4])
def test_river_and_turn_match_naive_enumeration(street: int) -> None:
    rng = np.random.default_rng(street)
    for _ in range(3):
        cards = [int(c) for c in rng.choice(52, size=2 + street, replace=False)]
        hole, board = cards[:2], cards[2:]
        weights = np.zeros(NUM_COMBOS)
        picked = rng.choice(NUM_COMBOS, size=12, replace=False)
        weights[picked] = rng.uniform(0.1, 1.0, size=12)
        assert win_probability(hole, board, weights) == pytest.approx(
            _naive_wp(hole, board, weights), abs=1e-12)


def test_flop_matches_exact_equity_of_a_weighted_range() -> None:
    weights = Range("QQ+,AKs,T9s:0.5,76o:0.25").weights
    hole, board = [0, 5], [12, 30, 47]
    got = win_probability(hole, board, weights)
    want = equity([hole, Range.from_array(weights)], board=board, method="exact").equity[0]
    assert got == pytest.approx(want, abs=1e-12)


def test_preflop_monte_carlo_is_seeded_and_close() -> None:
    hole = [48, 49]  # AcAd
    want = preflop_entry(48, 49).equity(1)  # the exact 169-class table
    a = win_probability(hole, [], np.ones(NUM_COMBOS), samples=2000,
                        rng=np.random.default_rng(1))
    b = win_probability(hole, [], np.ones(NUM_COMBOS), samples=2000,
                        rng=np.random.default_rng(1))
    assert a == b
    assert abs(a - want) < 0.01


def test_an_empty_range_is_an_error() -> None:
    weights = Range("AsAh").weights
    with pytest.raises(ConfigError, match="no hand"):
        win_probability([51, 50], [0, 1, 2], weights)  # As and Ah are LBR's own cards
