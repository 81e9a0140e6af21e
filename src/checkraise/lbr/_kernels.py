"""Numba kernel of LBR's win probability against a weighted range.

:func:`wp_vs_range` returns ``P(win) + P(tie) / 2`` of a hand against an opponent
whose hand is drawn from a weighted range, both checking to the showdown, over the
missing board cards. The joint law is ``weights[h] * (uniform runout disjoint from
h and the known cards)``. With at most two cards to come the runouts are
enumerated (1,081 on the flop, 46 or fewer on the turn, one on the river); with more
(preflop) ``samples`` runouts are drawn with the xoshiro256** state passed in, and
every live range hand is ranked on each, so the only sampling is over boards.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit
from checkraise.equity._kernels import rng_below
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY, rank_from_key

I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]
U64 = npt.NDArray[np.uint64]


@njit
def _score_board(
    bkey: int, bfm: int, used: int, hkey: int, hfm: int, live: I64, combos: U8, w: F64,
) -> tuple[float, float]:
    """(weighted score, weight) of the hero against the live combos on one full board."""
    hero = rank_from_key(bkey + hkey, bfm | hfm)
    score = 0.0
    total = 0.0
    for k in range(live.size):
        i = live[k]
        a = np.int64(combos[i, 0])
        b = np.int64(combos[i, 1])
        if (used >> a) & 1 or (used >> b) & 1:
            continue
        r = rank_from_key(bkey + CARD_KEY[a] + CARD_KEY[b],
                          bfm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b])
        wi = w[i]
        total += wi
        if hero > r:
            score += wi
        elif hero == r:
            score += 0.5 * wi
    return score, total


@njit
def wp_vs_range(
    h0: int, h1: int, board: I64, n_board: int, w: F64, combos: U8, samples: int, state: U64,
) -> float:
    """``P(win) + P(tie)/2`` of ``h0 h1`` against range ``w`` (see the module docstring).

    Returns ``-1.0`` when no range hand fits with the known cards.
    """
    used = (1 << h0) | (1 << h1)
    bkey0 = 0
    bfm0 = 0
    for i in range(n_board):
        used |= 1 << board[i]
        bkey0 += CARD_KEY[board[i]]
        bfm0 |= CARD_FLUSH_BIT[board[i]]
    hkey = CARD_KEY[h0] + CARD_KEY[h1]
    hfm = CARD_FLUSH_BIT[h0] | CARD_FLUSH_BIT[h1]
    n_live = 0
    live = np.empty(w.size, dtype=np.int64)
    for i in range(w.size):
        a = np.int64(combos[i, 0])
        b = np.int64(combos[i, 1])
        if w[i] > 0.0 and not (used >> a) & 1 and not (used >> b) & 1:
            live[n_live] = i
            n_live += 1
    live = live[:n_live]
    if n_live == 0:
        return -1.0
    deck = np.empty(52, dtype=np.int64)
    m = 0
    for c in range(52):
        if not (used >> c) & 1:
            deck[m] = c
            m += 1
    missing = 5 - n_board
    score = 0.0
    total = 0.0
    if missing == 0:
        score, total = _score_board(bkey0, bfm0, used, hkey, hfm, live, combos, w)
    elif missing == 1:
        for i in range(m):
            c = deck[i]
            s, t = _score_board(bkey0 + CARD_KEY[c], bfm0 | CARD_FLUSH_BIT[c], used | (1 << c),
                                hkey, hfm, live, combos, w)
            score += s
            total += t
    elif missing == 2:
        for i in range(m):
            c = deck[i]
            for j in range(i + 1, m):
                d = deck[j]
                s, t = _score_board(
                    bkey0 + CARD_KEY[c] + CARD_KEY[d],
                    bfm0 | CARD_FLUSH_BIT[c] | CARD_FLUSH_BIT[d],
                    used | (1 << c) | (1 << d), hkey, hfm, live, combos, w,
                )
                score += s
                total += t
    else:
        for _ in range(samples):
            bkey = bkey0
            bfm = bfm0
            u = used
            # A partial Fisher-Yates shuffle leaves a uniform runout in front.
            for i in range(missing):
                j = i + rng_below(state, m - i)
                t0 = deck[i]
                deck[i] = deck[j]
                deck[j] = t0
                bkey += CARD_KEY[deck[i]]
                bfm |= CARD_FLUSH_BIT[deck[i]]
                u |= 1 << deck[i]
            s, t = _score_board(bkey, bfm, u, hkey, hfm, live, combos, w)
            score += s
            total += t
    if total <= 0.0:
        return -1.0
    return score / total
