"""numba kernels of the suit-isomorphism hand indexer (after Waugh 2013).

Source: K. Waugh, "A fast and optimal hand isomorphism algorithm", AAAI
workshop on computer poker, 2013. This is an independent implementation of the
paper's idea, with its own table layout.

Idea
----
A deal is split into *rounds* whose cards form sets: the hole cards (2) and
the board (3, 4 or 5 cards). Two deals are isomorphic when a permutation of the
four suits maps the hole cards of one onto those of the other and the board
onto the board.

The board is one round on every street because that is what the published
class counts (169; 1,286,792; 13,960,050; 123,156,254) count and all a
hand-strength feature depends on. Waugh's paper also indexes the turn and river
as rounds of their own (counts 55,190,538 and 2,428,287,420); the tables below
handle any round structure, only :data:`ROUNDS` would change.

So a deal is described, up to isomorphism, by the *multiset* over the four
suits of the suit's sequence of rank sets (one 13-bit rank set per round).

* A suit's sequence of rank sets is numbered densely, given its *count vector*
  (cards of the suit per round), by mixed radix over the rounds: in round ``r``
  the suit's rank set is a ``c_r``-subset of the ranks it has not used in
  earlier rounds, numbered by its colexicographic index after squeezing out the
  used ranks. The number of sequences for a count vector is its *space*.
* A count vector is packed into a small *code*; the sorted tuple of the four
  suits' codes is the deal's *configuration*. The configurations of a street
  are enumerated once (Python, at import) and laid end to end: each owns a
  contiguous block of indices.
* Within a configuration, suits with equal codes form a group; a group of ``k``
  suits holds a multiset of ``k`` suit numbers out of ``space``, numbered by the
  combinatorial number system for multisets (``sum C(e_i + i - 1, i)`` over the
  sorted elements). Groups combine by mixed radix.

The index is dense: street ``s`` has exactly :data:`INDEX_SIZE` ``[s]`` classes.
Unindexing gives the canonical deal: suit 0 (clubs) holds the suit with the
largest code, and so on; cards within a round ascend.

Kernels for other njit code (cards are ``4 * rank + suit``; nothing is checked):

``index_cards(street, cards)``
    Index (``int``) of the deal ``cards`` (``uint8`` array, hole cards first,
    then the board in any order; at least ``2 + BOARD_CARDS[street]`` long).
``unindex_cards(street, index, out)``
    Write the canonical deal of ``index`` into ``out[: 2 + BOARD_CARDS[street]]``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, product
from math import comb
from typing import Any, Final, cast

import numpy as np
import numpy.typing as npt
from numba.core import config as numba_config
from numba.core import types
from numba.extending import intrinsic

from checkraise._numba import njit

__all__ = [
    "BOARD_CARDS",
    "INDEX_SIZE",
    "ROUNDS",
    "index_batch_kernel",
    "index_cards",
    "unindex_batch_kernel",
    "unindex_cards",
]

ROUNDS: Final = ((2,), (2, 3), (2, 4), (2, 5))
BOARD_CARDS: Final = (0, 3, 4, 5)
_MAX_CODES: Final = 18  # (2+1) * (5+1) count vectors on the river
_MAX_SET: Final = 5  # most cards of one suit in one round
I64 = npt.NDArray[np.int64]


def _frozen(a: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
    a.setflags(write=False)
    return a


# BINOM[n, k] = C(n, k) for the rank sets: n <= 13, k <= 5.
BINOM: Final = _frozen(
    np.array([[comb(n, k) for k in range(_MAX_SET + 1)] for n in range(14)], np.int64)
)
NROUNDS: Final = _frozen(np.array([len(r) for r in ROUNDS], dtype=np.int64))


def _colex_masks() -> npt.NDArray[np.int64]:
    # COLEX_MASK[c, i]: the c-subset of 0..12 whose colex index is i (colex order does not
    # depend on the universe size, so one table serves every number of free ranks).
    table = np.full((_MAX_SET + 1, comb(13, _MAX_SET)), -1, dtype=np.int64)
    for c in range(_MAX_SET + 1):
        for subset in combinations(range(13), c):
            i = sum(comb(p, j + 1) for j, p in enumerate(subset))
            table[c, i] = sum(1 << p for p in subset)
    return table


def _nth_unused() -> npt.NDArray[np.int8]:
    # NTH_UNUSED[used, p]: the p-th rank (from 0) not in the rank mask used.
    table = np.full((1 << 13, 13), -1, dtype=np.int8)
    for used in range(1 << 13):
        free = [r for r in range(13) if not used >> r & 1]
        table[used, : len(free)] = free
    return table


COLEX_MASK: Final = _frozen(_colex_masks())
NTH_UNUSED: Final = _frozen(_nth_unused())


def _ctz_intrinsic(typingctx: object, x: object) -> tuple[object, object]:
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: object, args: Any) -> Any:
        # Flag false: the result for 0 is defined (64), though no caller passes 0.
        return builder.cttz(args[0], context.get_constant(types.boolean, False))

    return sig, codegen


def _popcount_intrinsic(typingctx: object, x: object) -> tuple[object, object]:
    sig = types.int64(types.int64)

    def codegen(context: object, builder: Any, signature: object, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


def _ctz_py(x: int) -> int:
    return (int(x) & -int(x)).bit_length() - 1


def _popcount_py(x: int) -> int:
    return int(x).bit_count()


# One machine instruction each when compiled; Python twins under NUMBA_DISABLE_JIT (coverage).
_JIT_OFF: Final = bool(getattr(numba_config, "DISABLE_JIT", False))
ctz = _ctz_py if _JIT_OFF else cast(Callable[[int], int], intrinsic(_ctz_intrinsic))
popcount = _popcount_py if _JIT_OFF else cast(Callable[[int], int], intrinsic(_popcount_intrinsic))


def _space(counts: tuple[int, ...]) -> int:
    free, size = 13, 1
    for c in counts:
        size *= comb(free, c)
        free -= c
    return size


def _rep(x: int, k: int) -> int:
    # Number of k-multisets of x items = C(x + k - 1, k); also the multiset colex weight.
    return comb(x + k - 1, k)


def _street_tables(
    street: int,
) -> tuple[I64, I64, I64, list[int], list[tuple[int, int, int, int]], list[int]]:
    rounds = ROUNDS[street]
    radix = np.zeros(2, dtype=np.int64)
    mult = 1
    for r in range(len(rounds) - 1, -1, -1):
        radix[r] = mult
        mult *= rounds[r] + 1
    counts = np.zeros((_MAX_CODES, 2), dtype=np.int64)
    space = np.zeros(_MAX_CODES, dtype=np.int64)
    for vec in product(*(range(n + 1) for n in rounds)):
        code = sum(c * int(radix[r]) for r, c in enumerate(vec))
        counts[code, : len(vec)] = vec
        space[code] = _space(vec)
    # Every way to deal each round's cards to the four suits, as sorted code tuples.
    per_round = [[d for d in product(range(n + 1), repeat=4) if sum(d) == n] for n in rounds]
    configs: set[tuple[int, int, int, int]] = set()
    for deal in product(*per_round):
        codes = [sum(deal[r][s] * int(radix[r]) for r in range(len(rounds))) for s in range(4)]
        a, b, c, d = sorted(codes, reverse=True)
        configs.add((a, b, c, d))
    ordered = sorted(configs, key=lambda t: (t[0] << 24) | (t[1] << 16) | (t[2] << 8) | t[3])
    keys, sizes = [], []
    for cfg in ordered:
        keys.append((cfg[0] << 24) | (cfg[1] << 16) | (cfg[2] << 8) | cfg[3])
        size = 1
        for code in set(cfg):
            size *= _rep(int(space[code]), cfg.count(code))
        sizes.append(size)
    return radix, counts, space, keys, ordered, sizes


def _all_tables() -> tuple[I64, I64, I64, I64, I64, I64, I64, tuple[int, ...]]:
    radix = np.zeros((4, 2), dtype=np.int64)
    counts = np.zeros((4, _MAX_CODES, 2), dtype=np.int64)
    space = np.zeros((4, _MAX_CODES), dtype=np.int64)
    keys: list[int] = []
    codes: list[tuple[int, int, int, int]] = []
    offsets: list[int] = []
    starts = [0]
    totals = []
    for street in range(4):
        radix[street], counts[street], space[street], k, cfgs, sizes = _street_tables(street)
        keys += k
        codes += cfgs
        total = 0
        for size in sizes:
            offsets.append(total)
            total += size
        starts.append(len(keys))
        totals.append(total)
    return (
        radix,
        counts,
        space,
        np.array(keys, dtype=np.int64),
        np.array(codes, dtype=np.int64),
        np.array(offsets, dtype=np.int64),
        np.array(starts, dtype=np.int64),
        tuple(totals),
    )


(
    CODE_RADIX,  # [street, round]: weight of a round's count in a suit's code
    CODE_COUNTS,  # [street, code, round]: the count vector of a code
    SPACE,  # [street, code]: number of rank-set sequences of one suit with that code
    CFG_KEY,  # [cfg]: packed sorted codes, ascending within a street
    CFG_CODES,  # [cfg, 4]: the four codes, descending
    CFG_OFFSET,  # [cfg]: first index of the configuration within its street
    CFG_START,  # [street]: first configuration of the street (and the end, at street + 1)
    INDEX_SIZE,
) = _all_tables()
for _table in (CODE_RADIX, CODE_COUNTS, SPACE, CFG_KEY, CFG_CODES, CFG_OFFSET, CFG_START):
    _table.setflags(write=False)


@njit
def _rep_k(x: int, k: int) -> int:
    """C(x + k - 1, k): the weight of a multiset element and the count of k-multisets."""
    if k == 1:
        return x
    if k == 2:
        return x * (x + 1) // 2
    if k == 3:
        return x * (x + 1) * (x + 2) // 6
    return x * (x + 1) * (x + 2) * (x + 3) // 24


@njit
def _suit_key(street: int, shift: int, hole: int, board: int) -> int:
    """``code << 32 | number`` of one suit, whose rank sets sit at bit ``shift`` of the masks."""
    h = (hole >> shift) & 0x1FFF
    ch = popcount(h)
    # Hole ranks: colex index among all 13 ranks.
    number = 0
    j = 0
    rest = h
    while rest:
        low = rest & -rest
        j += 1
        number += int(BINOM[ctz(low), j])
        rest ^= low
    if street == 0:
        return (ch << 32) | number
    b = (board >> shift) & 0x1FFF
    cb = popcount(b)
    # Board ranks: colex index among the ranks left after the suit's hole cards.
    colex = 0
    j = 0
    rest = b
    while rest:
        low = rest & -rest
        j += 1
        colex += int(BINOM[ctz(low) - popcount(h & (low - 1)), j])
        rest ^= low
    code = ch * int(CODE_RADIX[street, 0]) + cb
    return (code << 32) | (number + colex * int(BINOM[13, ch]))


@njit
def _feed(
    street: int, key: int, prev: int, i: int, acc: int, total: int, mult: int
) -> tuple[int, int, int, int, int]:
    """Add one suit (in ascending key order) to the running mixed-radix index."""
    code = key >> 32
    x = key & 0xFFFFFFFF
    if code != prev:
        if prev >= 0:
            total += mult * acc
            mult *= _rep_k(int(SPACE[street, prev]), i)
        i = 0
        acc = 0
    i += 1
    acc += _rep_k(x, i)
    return code, i, acc, total, mult


@njit
def index_cards(street: int, cards: npt.NDArray[np.uint8]) -> int:
    """Dense isomorphism index of the deal ``cards`` on ``street`` (unchecked)."""
    c = int(cards[0])
    hole = 1 << (13 * (c & 3) + (c >> 2))
    c = int(cards[1])
    hole |= 1 << (13 * (c & 3) + (c >> 2))
    board = 0
    for p in range(2, 2 + (0, 3, 4, 5)[street]):
        c = int(cards[p])
        board |= 1 << (13 * (c & 3) + (c >> 2))
    k0 = _suit_key(street, 0, hole, board)
    k1 = _suit_key(street, 13, hole, board)
    k2 = _suit_key(street, 26, hole, board)
    k3 = _suit_key(street, 39, hole, board)
    # Sort descending (a five-comparator network).
    if k0 < k1:
        k0, k1 = k1, k0
    if k2 < k3:
        k2, k3 = k3, k2
    if k0 < k2:
        k0, k2 = k2, k0
    if k1 < k3:
        k1, k3 = k3, k1
    if k1 < k2:
        k1, k2 = k2, k1
    key = ((k0 >> 32) << 24) | ((k1 >> 32) << 16) | ((k2 >> 32) << 8) | (k3 >> 32)
    lo = int(CFG_START[street])
    hi = int(CFG_START[street + 1]) - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if int(CFG_KEY[mid]) < key:
            lo = mid + 1
        else:
            hi = mid
    prev, i, acc, total, mult = _feed(street, k3, -1, 0, 0, 0, 1)
    prev, i, acc, total, mult = _feed(street, k2, prev, i, acc, total, mult)
    prev, i, acc, total, mult = _feed(street, k1, prev, i, acc, total, mult)
    prev, i, acc, total, mult = _feed(street, k0, prev, i, acc, total, mult)
    return int(CFG_OFFSET[lo]) + total + mult * acc


@njit
def _suit_cards(street: int, suit: int, code: int, number: int) -> tuple[int, int]:
    """Card masks (bit ``4 * rank + suit``) of hole and board of suit ``number`` with ``code``."""
    ch = int(CODE_COUNTS[street, code, 0])
    h = COLEX_MASK[ch, number % int(BINOM[13, ch])]
    hole = 0
    rest = h
    while rest:
        low = rest & -rest
        hole |= 1 << (4 * ctz(low) + suit)
        rest ^= low
    if street == 0:
        return hole, 0
    cb = int(CODE_COUNTS[street, code, 1])
    rest = COLEX_MASK[cb, number // int(BINOM[13, ch])]
    board = 0
    while rest:
        low = rest & -rest
        rank = int(NTH_UNUSED[h, ctz(low)])
        board |= 1 << (4 * rank + suit)
        rest ^= low
    return hole, board


@njit
def _emit(mask: int, out: npt.NDArray[np.uint8], pos: int) -> None:
    while mask:
        low = mask & -mask
        out[pos] = ctz(low)
        pos += 1
        mask ^= low


@njit
def unindex_cards(street: int, index: int, out: npt.NDArray[np.uint8]) -> None:
    """Write the canonical deal of ``index`` on ``street`` into ``out`` (unchecked)."""
    lo = int(CFG_START[street])
    hi = int(CFG_START[street + 1]) - 1
    while lo < hi:  # the last configuration whose offset is <= index
        mid = (lo + hi + 1) >> 1
        if int(CFG_OFFSET[mid]) <= index:
            lo = mid
        else:
            hi = mid - 1
    cfg = lo
    rest = index - int(CFG_OFFSET[cfg])
    hole = 0
    board = 0
    q = 3
    while q >= 0:  # groups of equal codes, least significant (smallest code) first
        code = int(CFG_CODES[cfg, q])
        p = q
        while p > 0 and int(CFG_CODES[cfg, p - 1]) == code:
            p -= 1
        k = q - p + 1
        space = int(SPACE[street, code])
        size = _rep_k(space, k)
        g = rest % size
        rest //= size
        for i in range(k, 0, -1):
            if i == 1:
                x = g
            else:  # the largest x with C(x + i - 1, i) <= g
                a = 0
                b = space - 1
                while a < b:
                    mid = (a + b + 1) >> 1
                    if _rep_k(mid, i) <= g:
                        a = mid
                    else:
                        b = mid - 1
                x = a
            g -= _rep_k(x, i)
            sh, sb = _suit_cards(street, p + k - i, code, x)
            hole |= sh
            board |= sb
        q = p - 1
    _emit(hole, out, 0)
    _emit(board, out, 2)


@njit
def index_batch_kernel(street: int, cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Indices of each row of ``cards`` (unchecked)."""
    out = np.empty(cards.shape[0], dtype=np.int64)
    for i in range(cards.shape[0]):
        out[i] = index_cards(street, cards[i])
    return out


@njit
def unindex_batch_kernel(
    street: int, indices: npt.NDArray[np.int64], out: npt.NDArray[np.uint8]
) -> None:
    """Canonical deal of each index into the rows of ``out`` (unchecked)."""
    for i in range(indices.shape[0]):
        unindex_cards(street, indices[i], out[i])
