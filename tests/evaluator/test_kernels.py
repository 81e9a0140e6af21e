"""The numba-callable kernels other modules build on, and the tables behind them."""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from checkraise._numba import njit
from checkraise.evaluator import _tables as tables
from checkraise.evaluator import evaluate_batch, evaluate_ints
from checkraise.evaluator._kernels import (
    CARD_FLUSH_BIT,
    CARD_KEY,
    category_of,
    is_flush_key,
    rank5,
    rank6,
    rank7,
    rank_from_key,
)


@njit
def _rank_hands_with_shared_board(board: np.ndarray, holes: np.ndarray, out: np.ndarray) -> None:
    # The incremental pattern of the _kernels docstring: board sums reused per hand.
    key = 0
    fm = 0
    for c in board:
        key += CARD_KEY[c]
        fm |= CARD_FLUSH_BIT[c]
    for i in range(holes.shape[0]):
        a, b = holes[i, 0], holes[i, 1]
        out[i] = rank_from_key(
            key + CARD_KEY[a] + CARD_KEY[b], fm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]
        )


def _random_hands(seed: int, n: int, k: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (n, 1)), axis=1)[:, :k]


def test_rank_keys_give_distinct_sums() -> None:
    sums = [
        sum(int(tables.RANK_KEYS[r]) for r in ranks)
        for size in range(8)
        for ranks in combinations_with_replacement(range(13), size)
        if all(ranks.count(r) <= 4 for r in ranks)
    ]
    assert len(sums) == 76155
    assert len(set(sums)) == len(sums)
    assert max(sums) < 1 << tables.HASH_BITS


def test_table_shapes_and_footprint() -> None:
    assert np.count_nonzero(tables.HASH_RANK) == 6175 + 18395 + 49205
    assert tables.CATEGORY_FLOORS.tolist() == [1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453]
    footprint = sum(
        a.nbytes
        for a in (tables.HASH_RANK, tables.ROW_OFFSETS, tables.FLUSH_RANK, tables.CATEGORY_OF_RANK)
    )
    assert footprint < 400_000


def test_scalar_kernels_equal_batch() -> None:
    for k, kernel in ((5, rank5), (6, rank6), (7, rank7)):
        hands = _random_hands(k, 3000, k)
        expected = evaluate_batch(hands).tolist()
        assert [kernel(*map(int, h)) for h in hands] == expected
        keys = [sum(int(CARD_KEY[c]) for c in h) for h in hands]
        masks = [sum(int(CARD_FLUSH_BIT[c]) for c in h) for h in hands]
        assert [rank_from_key(key, fm) for key, fm in zip(keys, masks, strict=True)] == expected
        assert [category_of(r) for r in expected] == [_cat(r) for r in expected]


def _cat(rank: int) -> int:
    return int(np.searchsorted(tables.CATEGORY_FLOORS, rank, side="right")) - 1


def test_is_flush_key() -> None:
    flush = [0, 4, 8, 12, 20, 1, 2]  # five clubs
    assert is_flush_key(sum(int(CARD_KEY[c]) for c in flush))
    assert not is_flush_key(sum(int(CARD_KEY[c]) for c in [0, 4, 8, 12, 21, 1, 2]))


def test_incremental_kernel_from_njit_code() -> None:
    hands = _random_hands(11, 2000, 9)
    board = np.ascontiguousarray(hands[0, :5])
    rest = [c for c in range(52) if c not in board.tolist()]
    holes = np.array([(a, b) for i, a in enumerate(rest) for b in rest[i + 1 :]], np.uint8)
    out = np.zeros(len(holes), dtype=np.int64)
    _rank_hands_with_shared_board(board, holes, out)
    full = np.concatenate((np.tile(board, (len(holes), 1)), holes), axis=1)
    assert out.tolist() == evaluate_batch(full).tolist()


def test_python_path_equals_kernels() -> None:
    # evaluate_ints reads the tables from Python, the kernels from numba's compiled
    # constants: they agree only if both see the same tables.
    for k in (5, 6, 7):
        hands = _random_hands(20 + k, 5000, k)
        assert [evaluate_ints(h.tolist()) for h in hands] == evaluate_batch(hands).tolist()
