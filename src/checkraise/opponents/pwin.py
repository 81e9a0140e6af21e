"""P_win of every one of the 1,326 combos against one random hand, once per board.

The default model of the hand-reading design (Li, Jiang, Chen, Bao, "Game in multiplayer
no-limit Texas Hold'em based on hands prediction", Chinese Journal of Computers 40(12),
2017) scores a hand by its win probability P_win against random hands on the current
board. Here P_win is the equity (ties shared) against one uniformly random opponent hand
with the board run out to the river, the same quantity as
:attr:`checkraise.equity.HandStrength.equity`, computed for all combos at once:

* preflop: the exact heads-up column of the shipped 169-class table
  (:func:`checkraise.equity.preflop.preflop_table`);
* river and turn: exact, every runout, one sorted sweep per runout
  (:func:`checkraise.opponents._kernels.pwin_all`);
* flop: exact over the 1,081 turn-river runouts by default, or ``flop_runouts`` runouts
  drawn without replacement with a seed fixed by the board (the hand-reading bot uses 150
  to keep a decision within a few milliseconds; the standard error of one combo's value
  is then below 0.02).

Tables are cached per (board, runouts) in a small LRU cache, so a board's table is
computed once and reused by every prediction on it. Combos that share a card with the
board get ``nan``.

Examples
--------
>>> from checkraise.cards import parse_cards, combo_index
>>> t = pwin_table(parse_cards("Ah Kh Qh Jh 2c"))
>>> round(float(t[combo_index(*parse_cards("Th 3d"))]), 3)
1.0
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from checkraise.cards import (
    CLASS_NAMES,
    COMBO_CARDS,
    COMBO_CLASS,
    CardError,
    format_card,
    parse_cards,
)
from checkraise.errors import ConfigError
from checkraise.opponents import _kernels as K

__all__ = ["pwin_table"]

FloatArray = npt.NDArray[np.float64]
_COMBOS = COMBO_CARDS.astype(np.int64)


def pwin_table(
    board: Iterable[int | str] | str = (), flop_runouts: int | None = None
) -> FloatArray:
    """P_win (equity vs one random hand) of each combo on ``board``; ``nan`` on dead combos.

    Parameters
    ----------
    board
        0, 3, 4 or 5 cards.
    flop_runouts
        On a flop, average over this many turn-river runouts (seeded by the board)
        instead of all 1,081; ignored on other streets.

    Returns
    -------
    numpy.ndarray
        Shape (1326,), read-only; the cached array is shared, do not modify it.

    Examples
    --------
    >>> t = pwin_table()
    >>> round(float(np.nanmax(t)), 4), round(float(np.nanmin(t)), 4)
    (0.852, 0.323)
    """
    cards = parse_cards(board) if isinstance(board, str) else [
        c if isinstance(c, int) else parse_cards(c)[0] for c in board
    ]
    if len(set(cards)) != len(cards) or len(cards) not in (0, 3, 4, 5):
        raise CardError(
            f"board {' '.join(format_card(int(c)) for c in cards)!r} must have 0, 3, 4 or 5 "
            "distinct cards"
        )
    key = tuple(sorted(int(c) for c in cards))
    if len(key) != 3 or flop_runouts is None or flop_runouts >= 1081:
        flop_runouts = 0
    elif flop_runouts < 1:
        raise ConfigError(f"flop_runouts must be at least 1, got {flop_runouts}")
    return _cached(key, flop_runouts)


@lru_cache(maxsize=256)
def _cached(board: tuple[int, ...], flop_runouts: int) -> FloatArray:
    if not board:
        from checkraise.equity.preflop import preflop_table

        table = preflop_table()
        by_class = np.array([table[name].equity(1) for name in CLASS_NAMES])
        out: FloatArray = by_class[np.asarray(COMBO_CLASS, dtype=np.int64)]
    else:
        deck = [c for c in range(52) if c not in board]
        runouts = np.array(list(itertools.combinations(deck, 5 - len(board))), dtype=np.int8)
        if flop_runouts:
            seed = sum(c << (6 * i) for i, c in enumerate(board))
            pick = np.random.default_rng(seed).choice(len(runouts), flop_runouts, replace=False)
            runouts = runouts[np.sort(pick)]
        runouts = runouts.reshape(len(runouts), 5 - len(board))
        out = K.pwin_all(_COMBOS, np.array(board, dtype=np.int64), runouts)
    out.setflags(write=False)
    return out
