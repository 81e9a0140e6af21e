"""All 2,598,960 five-card hands against the naive evaluator in tests/naive.py."""

from __future__ import annotations

from itertools import chain, combinations

import numpy as np
import numpy.typing as npt
import pytest
from tests.naive import naive_rank5, naive_value_order

from checkraise.evaluator import NUM_RANKS, categories, evaluate_batch

# Category counts of five-card hands (high card .. straight flush, royals included).
FIVE_CARD_COUNTS = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]


@pytest.fixture(scope="module")
def all_fives() -> npt.NDArray[np.uint8]:
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.uint8)
    return flat.reshape(-1, 5)


def test_category_counts_and_distinct_ranks(all_fives: npt.NDArray[np.uint8]) -> None:
    ranks = evaluate_batch(all_fives)
    assert len(ranks) == 2598960
    assert np.bincount(categories(ranks), minlength=9).tolist() == FIVE_CARD_COUNTS
    assert len(np.unique(ranks)) == NUM_RANKS == 7462


def test_order_equals_naive(all_fives: npt.NDArray[np.uint8]) -> None:
    # naive_rank5 depends only on the sorted ranks and whether the suits are all
    # equal, so every hand of a class gets the naive value of one representative.
    # Requiring (a) one rank per class and (b) rank == naive place of the class
    # pins the order of all 2,598,960 hands to the naive order.
    ranks = evaluate_batch(all_fives)
    rank_digits = (all_fives >> 2).astype(np.int64)  # rows are ascending already
    flush = ((all_fives & 3) == (all_fives[:, :1] & 3)).all(axis=1)
    cls = rank_digits @ (13 ** np.arange(5)) + flush * 13**5
    _, first, inverse = np.unique(cls, return_index=True, return_inverse=True)
    assert len(first) == 7462
    assert np.array_equal(ranks, ranks[first][inverse])
    order = naive_value_order()
    naive = np.array([order[naive_rank5(all_fives[i].tolist())] for i in first])
    assert np.array_equal(ranks[first], naive)


def test_random_hands_directly_against_naive(all_fives: npt.NDArray[np.uint8]) -> None:
    rng = np.random.default_rng(5)
    sample = all_fives[rng.choice(len(all_fives), 20000, replace=False)]
    order = naive_value_order()
    ranks = evaluate_batch(sample)
    naive = [order[naive_rank5(hand.tolist())] for hand in sample]
    assert ranks.tolist() == naive
