"""numba kernels of abstract HUNL: the buckets and the winner of a deal."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit, parallel_njit, prange
from checkraise.abstraction._ehs_kernels import river_hand_value
from checkraise.abstraction._iso_kernels import index_cards
from checkraise.abstraction._table_kernels import board_river_buckets
from checkraise.evaluator._kernels import rank7

__all__ = ["combo_buckets", "deal_buckets", "pool_buckets", "river_buckets_from_values"]

I64 = npt.NDArray[np.int64]


@njit
def deal_buckets(
    deal: npt.NDArray[np.uint8],
    buckets: I64,
    preflop: npt.NDArray[np.uint16],
    flop: npt.NDArray[np.uint16],
    turn: npt.NDArray[np.uint16],
    river_thresholds: I64,
    coarse: I64,
    recall: bool,
    nb: I64,
    river_table: npt.NDArray[np.uint8],
) -> int:
    """Fill ``buckets[2, 4]`` of a deal (hole 0, hole 1, board); return the winner (2 = tie).

    A bucket is the abstraction's bucket mapped through ``coarse[street]``; with
    ``recall`` it is the index of the whole sequence of buckets so far (``nb`` holds
    the table sizes per street, products of the per-street counts). A non-empty
    ``river_table`` holds the river bucket of every river class (see
    :meth:`checkraise.games.holdem_game.HoldemCards.river_table`), read instead of
    ranking 990 opponent hands.
    """
    hand = np.empty(7, dtype=np.uint8)
    raw = np.empty(4, dtype=np.int64)
    for i in range(5):
        hand[2 + i] = deal[4 + i]
    for p in range(2):
        hand[0] = deal[2 * p]
        hand[1] = deal[2 * p + 1]
        raw[0] = preflop[index_cards(0, hand[:2])]
        raw[1] = flop[index_cards(1, hand[:5])]
        raw[2] = turn[index_cards(2, hand[:6])]
        if river_table.shape[0] > 0:
            raw[3] = river_table[index_cards(3, hand)]
        else:
            v = river_hand_value(hand[0], hand[1], hand[2:])
            raw[3] = np.searchsorted(river_thresholds, v, side="right")
        acc = 0
        for s in range(4):
            c = int(coarse[s, raw[s]])
            acc = acc * (nb[s] // nb[s - 1]) + c if (recall and s > 0) else c
            buckets[p, s] = acc
    r0 = rank7(deal[0], deal[1], deal[4], deal[5], deal[6], deal[7], deal[8])
    r1 = rank7(deal[2], deal[3], deal[4], deal[5], deal[6], deal[7], deal[8])
    return 0 if r0 > r1 else 1 if r1 > r0 else 2


@parallel_njit
def pool_buckets(
    deals: npt.NDArray[np.uint8],
    out: I64,
    winner: I64,
    preflop: npt.NDArray[np.uint16],
    flop: npt.NDArray[np.uint16],
    turn: npt.NDArray[np.uint16],
    river_thresholds: I64,
    coarse: I64,
    recall: bool,
    nb: I64,
) -> None:
    """:func:`deal_buckets` of every row of ``deals`` (``out[N, 2, 4]``, ``winner[N]``)."""
    for i in prange(deals.shape[0]):
        b = np.zeros((2, 4), dtype=np.int64)
        winner[i] = deal_buckets(
            deals[i],
            b,
            preflop,
            flop,
            turn,
            river_thresholds,
            coarse,
            recall,
            nb,
            np.zeros(0, dtype=np.uint8),
        )
        for p in range(2):
            for s in range(4):
                out[i, p, s] = b[p, s]


@njit
def combo_buckets(
    street: int,
    board: npt.NDArray[np.uint8],
    combos: npt.NDArray[np.uint8],
    preflop: npt.NDArray[np.uint16],
    flop: npt.NDArray[np.uint16],
    turn: npt.NDArray[np.uint16],
    river_thresholds: I64,
    coarse: I64,
    recall: bool,
    nb: I64,
    out: I64,
) -> None:
    """The bucket on ``street`` of every combo (``combos[n, 2]``) on ``board`` (-1 if dead).

    Same numbers as :func:`deal_buckets`; the river buckets of all hands come from one
    sorted sweep of the board.
    """
    dead = np.int64(0)
    for j in range(board.shape[0]):
        dead |= np.int64(1) << np.int64(board[j])
    river = np.full((52, 52), -1, dtype=np.int16)
    if street == 3:
        board_river_buckets(board, river_thresholds, river)
    hand = np.empty(7, dtype=np.uint8)
    for j in range(board.shape[0]):
        hand[2 + j] = board[j]
    for i in range(combos.shape[0]):
        a = combos[i, 0]
        b = combos[i, 1]
        if (dead >> np.int64(a)) & 1 or (dead >> np.int64(b)) & 1:
            out[i] = -1
            continue
        hand[0] = a
        hand[1] = b
        acc = 0
        first = 0 if recall else street
        for s in range(first, street + 1):
            if s == 0:
                raw = int(preflop[index_cards(0, hand[:2])])
            elif s == 1:
                raw = int(flop[index_cards(1, hand[:5])])
            elif s == 2:
                raw = int(turn[index_cards(2, hand[:6])])
            else:
                raw = int(river[a, b])
            c = int(coarse[s, raw])
            acc = acc * (nb[s] // nb[s - 1]) + c if (recall and s > 0) else c
        out[i] = acc


@parallel_njit
def river_buckets_from_values(
    values: npt.NDArray[np.uint16], thresholds: I64, out: npt.NDArray[np.uint8]
) -> None:
    """``out[i]`` = the bucket of river value ``values[i]`` (cut at ``thresholds``)."""
    # the same cut as deal_buckets' own lookup, once per value 0..1980
    of_value = np.searchsorted(thresholds, np.arange(1981), side="right").astype(np.uint8)
    for i in prange(values.shape[0]):
        out[i] = of_value[values[i]]
