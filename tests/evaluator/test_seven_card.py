"""Seven-card (and six-card) ranks: the full enumeration and random hands against naive."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from tests.naive import naive_rank, naive_value_order

from checkraise.evaluator import categories, evaluate_batch
from checkraise.evaluator._kernels import enumerate7_histogram

# Known counts over all 133,784,560 seven-card hands, straight flush .. high card.
SEVEN_CARD_COUNTS = [
    41584, 224848, 3473184, 4047644, 6180020, 6461620, 31433400, 58627800, 23294460,
]  # fmt: skip


def random_hands(rng: np.random.Generator, n: int, k: int) -> npt.NDArray[np.uint8]:
    """``n`` uniformly random hands of ``k`` distinct cards."""
    return rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (n, 1)), axis=1)[:, :k]


def test_enumeration_category_counts() -> None:
    hist = enumerate7_histogram()
    assert hist.sum() == 133784560
    assert hist[0] == 0
    by_category = np.bincount(categories(np.arange(1, 7463)), weights=hist[1:], minlength=9)
    assert by_category[::-1].astype(np.int64).tolist() == SEVEN_CARD_COUNTS
    # Seven cards can never be worth some five-card classes (e.g. 7-5-4-3-2 offsuit).
    assert np.count_nonzero(hist) == 4824
    assert hist[1] == 0


def test_random_seven_and_six_card_hands_against_naive() -> None:
    rng = np.random.default_rng(7)
    order = naive_value_order()
    for k, n in ((7, 2000), (6, 2000)):
        hands = random_hands(rng, n, k)
        naive = [order[naive_rank(hand.tolist())] for hand in hands]
        assert evaluate_batch(hands).tolist() == naive


def test_flush_heavy_hands_against_naive() -> None:
    # Random hands are rarely flushes; build hands with 5-7 cards of one suit.
    rng = np.random.default_rng(8)
    order = naive_value_order()
    hands = []
    for _ in range(1500):
        n_suited = int(rng.integers(5, 8))
        suit = int(rng.integers(4))
        suited = [4 * int(r) + suit for r in rng.choice(13, n_suited, replace=False)]
        others = [c for c in rng.permutation(52).tolist() if c & 3 != suit][: 7 - n_suited]
        hands.append(suited + others)
    arr = np.array(hands, dtype=np.uint8)
    assert evaluate_batch(arr).tolist() == [order[naive_rank(h)] for h in hands]
