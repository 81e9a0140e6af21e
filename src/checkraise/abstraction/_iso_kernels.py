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
as rounds of their own (counts 55,190,538 and 2,428,287,420); the kernels here
are written for exactly two rounds, hole and board.

So a deal is described, up to isomorphism, by the *multiset* over the four
suits of the suit's sequence of rank sets (one 13-bit rank set per round).

* A suit's sequence of rank sets is numbered densely, given its *count vector*
  (cards of the suit per round), by mixed radix over the rounds: in round ``r``
  the suit's rank set is a ``c_r``-subset of the ranks it has not used in
  earlier rounds, numbered by its colexicographic index after squeezing out the
  used ranks (two shifts and masks: a suit has at most two hole cards). The
  number of sequences for a count vector is its *space*.
* A count vector is packed into a small *code*; the sorted tuple of the four
  suits' codes is the deal's *configuration*. The configurations of a street
  are enumerated once (Python, at import) and laid end to end: each owns a
  contiguous block of indices.
* Within a configuration, suits with equal codes form a group; a group of ``k``
  suits holds a multiset of ``k`` suit numbers out of ``space``, numbered by the
  combinatorial number system for multisets (``sum C(e_i + i - 1, i)`` over the
  sorted elements). Groups combine by mixed radix; per configuration a table
  holds each sorted position's multiplier and ``i``, so indexing has no branch
  on the group structure.

The index is dense: street ``s`` has exactly :data:`INDEX_SIZE` ``[s]`` classes.
Unindexing gives the canonical deal: suit 0 (clubs) holds the suit with the
largest code, and so on; cards within a round ascend.

Kernels for other njit code (cards are ``4 * rank + suit``; nothing is checked):

``index_cards(street, cards)``
    Index (``int``) of the deal ``cards`` (``uint8`` array, hole cards first,
    then the board in any order; at least ``2 + BOARD_CARDS[street]`` long).
``unindex_cards(street, index, out)``
    Write the canonical deal of ``index`` into ``out[: 2 + BOARD_CARDS[street]]``.
``class_size_cards(street, cards)``
    Number of deals (hole set, board set) in the class of ``cards``: the weight of
    the class when statistics over classes must count every deal once.
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
    "checked_index_batch_kernel",
    "class_size_batch_kernel",
    "class_size_cards",
    "index_batch_kernel",
    "index_cards",
    "unindex_batch_kernel",
    "unindex_cards",
]

ROUNDS: Final = ((2,), (2, 3), (2, 4), (2, 5))
BOARD_CARDS: Final = (0, 3, 4, 5)
_MAX_CODES: Final = 18  # (2 + 1) * (5 + 1) count vectors (hole, board) on the river
_MAX_SET: Final = 5  # most cards of one suit in one round
I64 = npt.NDArray[np.int64]


def _frozen(a: I64) -> I64:
    a.setflags(write=False)
    return a


def _rep(x: int, k: int) -> int:
    # C(x + k - 1, k): the number of k-multisets of x items, and the colex weight of
    # the k-th smallest element x of a multiset.
    return comb(x + k - 1, k)


def _colex(subset: tuple[int, ...]) -> int:
    return sum(comb(p, j + 1) for j, p in enumerate(sorted(subset)))


_BITS: Final = (np.arange(1 << 13)[:, None] >> np.arange(13)) & 1  # [mask, rank]
# COLEX13[m]: colex index of the rank set m among the sets of its size, the sum over its
# ranks r (the j-th smallest) of C(r, j).
_BINOM_RJ: Final = np.array([[comb(r, j) for j in range(14)] for r in range(13)], np.int64)
COLEX13: Final = _frozen(
    (_BITS * _BINOM_RJ[np.arange(13), np.cumsum(_BITS, axis=1)]).sum(axis=1).astype(np.int64)
)
# COLEX_MASK[c, i]: the c-subset of 0..12 with colex index i (colex order does not
# depend on the universe size, so one table serves every number of free ranks).
COLEX_MASK: Final = np.full((_MAX_SET + 1, comb(13, _MAX_SET)), -1, dtype=np.int64)
for _c in range(_MAX_SET + 1):
    for _subset in combinations(range(13), _c):
        COLEX_MASK[_c, _colex(_subset)] = sum(1 << p for p in _subset)
COLEX_MASK.setflags(write=False)
# SPREAD[m]: the rank set m as clubs in the card-bit layout (bit 4 * rank).
SPREAD: Final = _frozen((_BITS << (4 * np.arange(13))).sum(axis=1).astype(np.int64))
BINOM13: Final = _frozen(np.array([comb(13, c) for c in range(_MAX_SET + 1)], dtype=np.int64))


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
popcount = (
    _popcount_py if _JIT_OFF else cast(Callable[[int], int], intrinsic(_popcount_intrinsic))
)


def _code(street: int, hole_count: int, board_count: int) -> int:
    return hole_count * (BOARD_CARDS[street] + 1) + board_count


def _street_configs(street: int) -> list[tuple[int, int, int, int]]:
    """Every sorted (descending) tuple of four suit codes a deal on ``street`` can have."""
    rounds = ROUNDS[street]
    per_round = [[d for d in product(range(n + 1), repeat=4) if sum(d) == n] for n in rounds]
    configs = set()
    for deal in product(*per_round):
        board = deal[1] if len(deal) > 1 else (0, 0, 0, 0)
        codes = sorted((_code(street, deal[0][s], board[s]) for s in range(4)), reverse=True)
        configs.add((codes[0], codes[1], codes[2], codes[3]))
    return sorted(configs)


def _codes_key(c0: int, c1: int, c2: int, c3: int) -> int:
    # Multiset (colex) number of four codes c0 >= c1 >= c2 >= c3: dense in 0..C(21, 4) - 1.
    return _rep(c3, 1) + _rep(c2, 2) + _rep(c1, 3) + _rep(c0, 4)


def _build() -> dict[str, Any]:
    counts = np.zeros((4, _MAX_CODES, 2), dtype=np.int64)
    space = np.zeros((4, _MAX_CODES), dtype=np.int64)
    cfg_of = np.full((4, _rep(_MAX_CODES, 4)), -1, dtype=np.int64)
    codes: list[tuple[int, int, int, int]] = []
    offsets: list[int] = []
    mults: list[list[int]] = []
    ranks: list[list[int]] = []
    group_sizes: list[list[int]] = []
    starts, totals = [0], []
    for street in range(4):
        for ch in range(3):
            for cb in range(BOARD_CARDS[street] + 1):
                code = _code(street, ch, cb)
                counts[street, code] = (ch, cb)
                space[street, code] = comb(13, ch) * comb(13 - ch, cb)
        total = 0
        for cfg in _street_configs(street):
            cfg_of[street, _codes_key(*cfg)] = len(codes)
            # Groups of equal codes; the one at the highest positions is least significant.
            mult = [0, 0, 0, 0]
            rank = [0, 0, 0, 0]
            group_size = [0, 0, 0, 0]
            m = 1
            q = 3
            while q >= 0:
                p = q
                while p > 0 and cfg[p - 1] == cfg[q]:
                    p -= 1
                size = _rep(int(space[street, cfg[q]]), q - p + 1)
                for r in range(p, q + 1):
                    mult[r] = m
                    rank[r] = q - r + 1  # ascending order within the group: q first
                    group_size[r] = size
                m *= size
                q = p - 1
            codes.append(cfg)
            offsets.append(total)
            mults.append(mult)
            ranks.append(rank)
            group_sizes.append(group_size)
            total += m
        starts.append(len(codes))
        totals.append(total)
    # CFG_OF_BUCKET[street, index >> BUCKET_SHIFT[street]]: the configuration holding the
    # bucket's first index, so unindexing finds its configuration in a step or two.
    shifts = [max(0, t.bit_length() - 12) for t in totals]
    of_bucket = np.zeros((4, 1 << 12), dtype=np.int64)
    for street in range(4):
        at = starts[street]
        for bucket in range((totals[street] - 1 >> shifts[street]) + 1):
            first = bucket << shifts[street]
            while at + 1 < starts[street + 1] and offsets[at + 1] <= first:
                at += 1
            of_bucket[street, bucket] = at
    return {
        "BUCKET_SHIFT": np.array(shifts, dtype=np.int64),
        "CFG_OF_BUCKET": of_bucket,
        "CODE_COUNTS": counts,
        "SPACE": space,
        "CFG_OF_CODES": cfg_of,
        "CFG_CODES": np.array(codes, dtype=np.int64),
        "CFG_OFFSET": np.array(offsets, dtype=np.int64),
        "CFG_MULT": np.array(mults, dtype=np.int64),
        "CFG_RANK": np.array(ranks, dtype=np.int64),
        "CFG_GROUP_SIZE": np.array(group_sizes, dtype=np.int64),
        "CFG_GROUP_INV": 1.0 / np.array(group_sizes, dtype=np.float64),
        "CFG_START": np.array(starts, dtype=np.int64),
        "INDEX_SIZE": tuple(totals),
    }


_TABLES: Final = _build()
CODE_COUNTS: Final[I64] = _frozen(_TABLES["CODE_COUNTS"])  # [street, code]: (hole, board) counts
SPACE: Final[I64] = _frozen(_TABLES["SPACE"])  # [street, code]: rank-set pairs of one suit
CFG_OF_CODES: Final[I64] = _frozen(_TABLES["CFG_OF_CODES"])  # [street, codes key]: config
CFG_CODES: Final[I64] = _frozen(_TABLES["CFG_CODES"])  # [cfg, position]: codes, descending
CFG_OFFSET: Final[I64] = _frozen(_TABLES["CFG_OFFSET"])  # [cfg]: first index within the street
CFG_MULT: Final[I64] = _frozen(_TABLES["CFG_MULT"])  # [cfg, position]: mixed-radix weight
CFG_RANK: Final[I64] = _frozen(_TABLES["CFG_RANK"])  # [cfg, position]: i of C(x + i - 1, i)
CFG_START: Final[I64] = _frozen(_TABLES["CFG_START"])  # [street]: first config (end at +1)
# [cfg, position]: number of multisets of the position's group, and its reciprocal (which
# turns the mixed-radix divisions of unindexing into multiplications).
CFG_GROUP_SIZE: Final[I64] = _frozen(_TABLES["CFG_GROUP_SIZE"])
CFG_GROUP_INV: Final[npt.NDArray[np.float64]] = _TABLES["CFG_GROUP_INV"]
CFG_GROUP_INV.setflags(write=False)
BUCKET_SHIFT: Final[I64] = _frozen(_TABLES["BUCKET_SHIFT"])
CFG_OF_BUCKET: Final[I64] = _frozen(_TABLES["CFG_OF_BUCKET"])
INDEX_SIZE: Final[tuple[int, ...]] = _TABLES["INDEX_SIZE"]


@njit
def _rep_k(x: int, k: int) -> int:
    """C(x + k - 1, k) for k = 1..4 (products of consecutive ints divide exactly)."""
    r = x
    if k >= 2:
        r = r * (x + 1) // 2
        if k >= 3:
            r = r * (x + 2) // 3
            if k >= 4:
                r = r * (x + 3) // 4
    return r


@njit
def _rep_select(x: int, k: int) -> int:
    """:func:`_rep_k` without branches (k varies unpredictably from deal to deal)."""
    r2 = x * (x + 1) // 2
    r3 = r2 * (x + 2) // 3
    r4 = r3 * (x + 3) // 4  # below 2**57: x < 36,036 (the largest suit space)
    return x + (k >= 2) * (r2 - x) + (k >= 3) * (r3 - r2) + (k >= 4) * (r4 - r3)


@njit
def _squeeze(mask: int, p: int) -> int:
    """Drop bit position ``p`` (clear in ``mask``): the bits above it move down one."""
    below = (1 << p) - 1
    return (mask & below) | ((mask >> 1) & ~below)


@njit
def _unsqueeze(mask: int, p: int) -> int:
    """Insert a clear bit at position ``p``: the bits from ``p`` up move up one."""
    below = (1 << p) - 1
    return (mask & below) | ((mask << 1) & ~((below << 1) | 1))


@njit
def _suit_key(code_mult: int, h: int, b: int) -> int:
    """``code << 32 | number`` of a suit with hole ranks ``h`` and board ranks ``b``.

    ``code_mult`` is the street's board size plus one.
    """
    ch = popcount(h)
    # The suit's (at most two) hole ranks, lowest and highest; 13 (a no-op) when absent.
    p_lo = ctz(h | 0x2000)
    p_hi = ctz((h & (h - 1)) | 0x2000)
    free_board = _squeeze(_squeeze(b, p_hi), p_lo)
    number = int(COLEX13[h]) + int(COLEX13[free_board]) * int(BINOM13[ch])
    code = ch * code_mult + popcount(b)
    return (code << 32) | number


@njit
def _sorted_keys(street: int, cards: npt.NDArray[np.uint8]) -> tuple[int, int, int, int]:
    """The four suits' :func:`_suit_key` of the deal ``cards``, descending."""
    c = int(cards[0])
    hole = 1 << (13 * (c & 3) + (c >> 2))
    c = int(cards[1])
    hole |= 1 << (13 * (c & 3) + (c >> 2))
    board = 0
    width = street + 2 if street else 0  # board cards: 0, 3, 4, 5
    for p in range(2, 2 + width):
        c = int(cards[p])
        board |= 1 << (13 * (c & 3) + (c >> 2))
    k0 = _suit_key(width + 1, hole & 0x1FFF, board & 0x1FFF)
    k1 = _suit_key(width + 1, (hole >> 13) & 0x1FFF, (board >> 13) & 0x1FFF)
    k2 = _suit_key(width + 1, (hole >> 26) & 0x1FFF, (board >> 26) & 0x1FFF)
    k3 = _suit_key(width + 1, hole >> 39, board >> 39)
    # Sort descending: a five-comparator network of min/max (no unpredictable branches).
    k0, k1 = max(k0, k1), min(k0, k1)
    k2, k3 = max(k2, k3), min(k2, k3)
    k0, k2 = max(k0, k2), min(k0, k2)
    k1, k3 = max(k1, k3), min(k1, k3)
    k1, k2 = max(k1, k2), min(k1, k2)
    return k0, k1, k2, k3


@njit
def index_cards(street: int, cards: npt.NDArray[np.uint8]) -> int:
    """Dense isomorphism index of the deal ``cards`` on ``street`` (unchecked)."""
    # The body of _sorted_keys, repeated: as a call it costs this hot kernel a quarter.
    c = int(cards[0])
    hole = 1 << (13 * (c & 3) + (c >> 2))
    c = int(cards[1])
    hole |= 1 << (13 * (c & 3) + (c >> 2))
    board = 0
    width = street + 2 if street else 0  # board cards: 0, 3, 4, 5
    for p in range(2, 2 + width):
        c = int(cards[p])
        board |= 1 << (13 * (c & 3) + (c >> 2))
    k0 = _suit_key(width + 1, hole & 0x1FFF, board & 0x1FFF)
    k1 = _suit_key(width + 1, (hole >> 13) & 0x1FFF, (board >> 13) & 0x1FFF)
    k2 = _suit_key(width + 1, (hole >> 26) & 0x1FFF, (board >> 26) & 0x1FFF)
    k3 = _suit_key(width + 1, hole >> 39, board >> 39)
    # Sort descending: a five-comparator network of min/max (no unpredictable branches).
    k0, k1 = max(k0, k1), min(k0, k1)
    k2, k3 = max(k2, k3), min(k2, k3)
    k0, k2 = max(k0, k2), min(k0, k2)
    k1, k3 = max(k1, k3), min(k1, k3)
    k1, k2 = max(k1, k2), min(k1, k2)
    key = _rep_k(k3 >> 32, 1) + _rep_k(k2 >> 32, 2) + _rep_k(k1 >> 32, 3) + _rep_k(k0 >> 32, 4)
    cfg = int(CFG_OF_CODES[street, key])
    return (
        int(CFG_OFFSET[cfg])
        + int(CFG_MULT[cfg, 0]) * _rep_select(k0 & 0xFFFFFFFF, int(CFG_RANK[cfg, 0]))
        + int(CFG_MULT[cfg, 1]) * _rep_select(k1 & 0xFFFFFFFF, int(CFG_RANK[cfg, 1]))
        + int(CFG_MULT[cfg, 2]) * _rep_select(k2 & 0xFFFFFFFF, int(CFG_RANK[cfg, 2]))
        + int(CFG_MULT[cfg, 3]) * _rep_select(k3 & 0xFFFFFFFF, int(CFG_RANK[cfg, 3]))
    )


@njit
def class_size_cards(street: int, cards: npt.NDArray[np.uint8]) -> int:
    """Number of deals (hole set, board set) isomorphic to ``cards``, itself included.

    24 suit permutations over the stabiliser, which permutes suits holding identical
    (hole ranks, board ranks): ``24 / prod(m!)`` over the multiplicities ``m``.
    """
    k0, k1, k2, k3 = _sorted_keys(street, cards)
    run = 1
    fixed = 1
    for same in (k0 == k1, k1 == k2, k2 == k3):
        run = run + 1 if same else 1
        fixed *= run
    return 24 // fixed


@njit
def _suit_cards(street: int, code: int, number: int) -> tuple[int, int]:
    """Hole and board rank sets of the suit with ``code`` and ``number``."""
    ch = int(CODE_COUNTS[street, code, 0])
    # number = hole colex + C(13, ch) * board colex; constant divisors compile to multiplies.
    if ch == 0:
        h = 0
        rest = number
    elif ch == 1:
        rest = number // 13
        h = 1 << (number - 13 * rest)
    else:
        rest = number // 78
        h = int(COLEX_MASK[2, number - 78 * rest])
    free_board = int(COLEX_MASK[int(CODE_COUNTS[street, code, 1]), rest])
    p_lo = ctz(h | 0x2000)
    p_hi = ctz((h & (h - 1)) | 0x2000)
    return h, _unsqueeze(_unsqueeze(free_board, p_lo), p_hi)


@njit
def _emit(mask: int, out: npt.NDArray[np.uint8], pos: int) -> None:
    while mask:
        out[pos] = ctz(mask)
        pos += 1
        mask &= mask - 1


@njit
def unindex_cards(street: int, index: int, out: npt.NDArray[np.uint8]) -> None:
    """Write the canonical deal of ``index`` on ``street`` into ``out`` (unchecked)."""
    # The last configuration whose offset is <= index, from its bucket onwards.
    cfg = int(CFG_OF_BUCKET[street, index >> int(BUCKET_SHIFT[street])])
    end = int(CFG_START[street + 1])
    while cfg + 1 < end and int(CFG_OFFSET[cfg + 1]) <= index:
        cfg += 1
    rest = index - int(CFG_OFFSET[cfg])
    hole = 0
    board = 0
    q = 3
    while q >= 0:  # groups of equal codes, least significant (highest positions) first
        code = int(CFG_CODES[cfg, q])
        p = q
        while p > 0 and int(CFG_CODES[cfg, p - 1]) == code:
            p -= 1
        k = q - p + 1
        space = int(SPACE[street, code])
        size = int(CFG_GROUP_SIZE[cfg, q])
        quot = int(rest * CFG_GROUP_INV[cfg, q])  # off by at most one: rest < 2**27
        g = rest - quot * size
        if g < 0:
            quot -= 1
            g += size
        elif g >= size:
            quot += 1
            g -= size
        rest = quot
        for i in range(k, 0, -1):
            if i == 1:
                x = g
            elif i == 2:  # the largest x with x (x + 1) / 2 <= g, from the float root
                x = int((np.sqrt(8.0 * g + 1.0) - 1.0) * 0.5)
                if x * (x + 1) // 2 > g:
                    x -= 1
                elif (x + 1) * (x + 2) // 2 <= g:
                    x += 1
            else:  # the largest x with C(x + i - 1, i) <= g (space is small here)
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
            suit = p + k - i
            h, bd = _suit_cards(street, code, x)
            hole |= int(SPREAD[h]) << suit
            board |= int(SPREAD[bd]) << suit
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
def checked_index_batch_kernel(
    street: int, cards: npt.NDArray[np.uint8], out: npt.NDArray[np.int64]
) -> int:
    """Index the rows of ``cards`` into ``out`` until one is invalid; return its row or -1.

    A row is invalid when a card is above 51 or repeated.
    """
    width = 2 + (0, 3, 4, 5)[street]
    for i in range(cards.shape[0]):
        seen = 0
        for j in range(width):
            c = int(cards[i, j])
            if c >= 52 or seen >> c & 1:
                return i
            seen |= 1 << c
        out[i] = index_cards(street, cards[i])
    return -1


@njit
def class_size_batch_kernel(
    street: int, indices: npt.NDArray[np.int64], out: npt.NDArray[np.int64]
) -> None:
    """Class size (see :func:`class_size_cards`) of each index into ``out`` (unchecked)."""
    cards = np.empty(7, dtype=np.uint8)
    for i in range(indices.shape[0]):
        unindex_cards(street, indices[i], cards)
        out[i] = class_size_cards(street, cards)


@njit
def unindex_batch_kernel(
    street: int, indices: npt.NDArray[np.int64], out: npt.NDArray[np.uint8]
) -> None:
    """Canonical deal of each index into the rows of ``out`` (unchecked)."""
    for i in range(indices.shape[0]):
        unindex_cards(street, indices[i], out[i])
