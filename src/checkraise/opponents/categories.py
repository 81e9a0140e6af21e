"""Hand categories of the hand-reading paper: 4 before the flop, 11 after it.

Li, Jiang, Chen and Bao ("Game in multiplayer no-limit Texas Hold'em based on hands
prediction", Chinese Journal of Computers 40(12), 2017) measure a prediction by the hand
*category* it names, and compare it with a Markov model over categories (Li Ruobin 2013,
:mod:`checkraise.analysis.markov`). We do not have the paper's exact lists, so ours are:

**Preflop** (:data:`PREFLOP_CATEGORIES`), by the two hole cards alone:

0. *small high card* - two unpaired cards, at least one below a ten;
1. *big high card* - two unpaired cards, both ten or higher (AK .. JT, suited or not);
2. *small pair* - 22 .. 99;
3. *big pair* - TT .. AA.

**Flop, turn and river** (:data:`POSTFLOP_CATEGORIES`), with the board of the street:

0-8. the made hand of the hole cards and the board together, as the evaluator ranks it
   (:data:`checkraise.evaluator.CATEGORY_NAMES`: high card, pair, two pair, three of a
   kind, straight, flush, full house, four of a kind, straight flush). The board counts:
   on a paired board every hand has at least a pair, on a board of five to a straight
   every hand has a straight;
9. *flush draw* - a high-card hand (no pair, nothing better) on the flop or turn holding
   four cards of one suit, at least one of them a hole card;
10. *straight draw* - a high-card hand on the flop or turn, not a flush draw, for which at
   least two card ranks would make a straight that the board and that card alone do not
   make: an open-ended draw or a double gutshot (eight outs). A lone gutshot, and the
   one-ended A-2-3-4 (only a five helps), stay *high card*.

Draws refine only the high-card hands, so the categories partition the hands and a made
hand keeps its category whatever it draws to; on the river nothing is a draw.

Examples
--------
>>> from checkraise.cards import parse_cards
>>> POSTFLOP_CATEGORIES[hand_category(parse_cards("9h 8h"), parse_cards("Th 7c 2h"))]
'flush draw'
>>> PREFLOP_CATEGORIES[hand_category(parse_cards("Ts Tc"), ())]
'big pair'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from checkraise.cards import COMBO_CARDS, CardError, format_cards
from checkraise.evaluator import CATEGORY_NAMES, category, evaluate_ints
from checkraise.opponents import _kernels as K

__all__ = [
    "BIG_CARD",
    "FLUSH_DRAW",
    "POSTFLOP_CATEGORIES",
    "PREFLOP_CATEGORIES",
    "STRAIGHT_DRAW",
    "category_table",
    "hand_category",
    "num_categories",
]

BIG_CARD: Final = 8
"""Rank index of the ten (0 = deuce): cards of this rank or higher are big."""
PREFLOP_CATEGORIES: Final = ("small high card", "big high card", "small pair", "big pair")
POSTFLOP_CATEGORIES: Final = (*CATEGORY_NAMES, "flush draw", "straight draw")
FLUSH_DRAW: Final = 9
STRAIGHT_DRAW: Final = 10
_COMBOS = COMBO_CARDS.astype(np.int64)


def num_categories(street: int) -> int:
    """Number of categories on ``street`` (0 preflop: 4; 1-3: 11).

    Examples
    --------
    >>> [num_categories(s) for s in range(4)]
    [4, 11, 11, 11]
    """
    return len(PREFLOP_CATEGORIES) if street == 0 else len(POSTFLOP_CATEGORIES)


def _has_straight(ranks: set[int]) -> bool:
    # The ace also plays low, under the deuce (the wheel A-2-3-4-5).
    low = ranks | ({-1} if 12 in ranks else set())
    return any(all(r + k in low for k in range(5)) for r in range(-1, 9))


def hand_category(hole: Sequence[int], board: Sequence[int]) -> int:
    """Category of the two ``hole`` cards with ``board`` (0, 3, 4 or 5 cards; module docstring).

    Examples
    --------
    >>> from checkraise.cards import parse_cards
    >>> POSTFLOP_CATEGORIES[hand_category(parse_cards("Ah 2c"), parse_cards("3d 4s 5h"))]
    'straight'
    >>> POSTFLOP_CATEGORIES[hand_category(parse_cards("9c 8d"), parse_cards("Th 7c 2h"))]
    'straight draw'
    """
    cards = [int(c) for c in (*hole, *board)]
    if len(hole) != 2 or len(board) not in (0, 3, 4, 5) or len(set(cards)) != len(cards) \
            or not all(0 <= c < 52 for c in cards):
        raise CardError(f"hand {format_cards(hole)!r} on board {format_cards(board)!r}: expected "
                        "two hole cards and 0, 3, 4 or 5 board cards, all distinct")
    if not board:
        r0, r1 = hole[0] // 4, hole[1] // 4
        big = min(r0, r1) >= BIG_CARD if r0 != r1 else r0 >= BIG_CARD
        return (2 if r0 == r1 else 0) + int(big)
    made = category(evaluate_ints(cards))
    if made > 0 or len(board) == 5:
        return made
    for suit in range(4):
        if sum(c % 4 == suit for c in cards) == 4 and any(c % 4 == suit for c in hole):
            return FLUSH_DRAW
    ranks = {c // 4 for c in cards}
    board_ranks = {c // 4 for c in board}
    outs = [r for r in range(13)
            if _has_straight(ranks | {r}) and not _has_straight(board_ranks | {r})]
    return STRAIGHT_DRAW if len(outs) >= 2 else 0


def category_table(board: Sequence[int]) -> npt.NDArray[np.int64]:
    """Category of each of the 1,326 combos on ``board`` (-1 where a combo hits the board).

    Cached per board; the array is shared and read-only.

    Examples
    --------
    >>> t = category_table(())
    >>> np.bincount(t).tolist()  # small/big high card, small/big pair
    [1088, 160, 48, 30]
    """
    cards = tuple(sorted(int(c) for c in board))
    if len(cards) not in (0, 3, 4, 5) or len(set(cards)) != len(cards) \
            or not all(0 <= c < 52 for c in cards):
        raise CardError(f"board {list(board)!r}: expected 0, 3, 4 or 5 distinct cards 0..51")
    return _table(cards)


@lru_cache(maxsize=512)
def _table(board: tuple[int, ...]) -> npt.NDArray[np.int64]:
    out: npt.NDArray[np.int64] = K.paper_categories(_COMBOS, np.array(board, dtype=np.int64),
                                                     BIG_CARD)
    out.setflags(write=False)
    return out
