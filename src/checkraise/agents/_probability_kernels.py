"""numba kernel of the agents' action probabilities: every combo against one random hand.

:func:`wins_ties_vs_random` counts, for each of the 1,326 combos at once, the (runout,
opponent hand) pairs it wins and ties over every completion of a 3-, 4- or 5-card
board: each runout ranks its live combos once, then one sorted sweep with card-removal
corrections (the showdown of postflop-solver and of :mod:`checkraise.equity`) counts,
for each combo, the opponent hands below and equal to it that share no card with it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit
from checkraise.equity._kernels import combinations
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY, rank_from_key

I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]


@njit
def wins_ties_vs_random(board: I64, combo_cards: U8) -> tuple[I64, I64, I64]:
    """``(wins, ties, pairs)`` per combo against one uniformly random hand.

    ``board`` holds 3, 4 or 5 known cards; ``combo_cards`` is
    :data:`checkraise.cards.COMBO_CARDS`. ``pairs[i]`` is the number of (runout,
    opponent hand) pairs with no card in common with combo ``i`` or each other
    (0 for a combo that touches the board); the losses are ``pairs - wins - ties``.
    """
    nc = combo_cards.shape[0]
    used = 0
    bkey0 = 0
    bfm0 = 0
    for i in range(board.shape[0]):
        used |= 1 << board[i]
        bkey0 += CARD_KEY[board[i]]
        bfm0 |= CARD_FLUSH_BIT[board[i]]
    deck = np.empty(52 - board.shape[0], dtype=np.int64)
    m = 0
    for c in range(52):
        if not (used >> c) & 1:
            deck[m] = c
            m += 1
    runouts = combinations(deck, 5 - board.shape[0])
    wins = np.zeros(nc, dtype=np.int64)
    ties = np.zeros(nc, dtype=np.int64)
    pairs = np.zeros(nc, dtype=np.int64)
    live = np.empty(nc, dtype=np.int64)
    ranks = np.empty(nc, dtype=np.int64)
    card_lt = np.zeros(52, dtype=np.int64)
    card_le = np.zeros(52, dtype=np.int64)
    card_all = np.zeros(52, dtype=np.int64)
    for t in range(runouts.shape[0]):
        mask = used
        bkey = bkey0
        bfm = bfm0
        for j in range(runouts.shape[1]):
            c = runouts[t, j]
            mask |= 1 << c
            bkey += CARD_KEY[c]
            bfm |= CARD_FLUSH_BIT[c]
        n = 0
        for i in range(nc):
            a = combo_cards[i, 0]
            b = combo_cards[i, 1]
            if (mask >> a) & 1 or (mask >> b) & 1:
                continue
            live[n] = i
            ranks[n] = rank_from_key(bkey + CARD_KEY[a] + CARD_KEY[b],
                                     bfm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b])
            n += 1
        order = np.argsort(ranks[:n], kind="mergesort")
        card_lt[:] = 0
        card_le[:] = 0
        card_all[:] = 0
        for k in range(n):
            i = live[k]
            card_all[combo_cards[i, 0]] += 1
            card_all[combo_cards[i, 1]] += 1
        below = 0  # live combos ranked strictly below the current group
        k = 0
        while k < n:
            r = ranks[order[k]]
            end = k
            while end < n and ranks[order[end]] == r:
                end += 1
            # card_le counts the group's own combos: add them before reading the ties.
            for g in range(k, end):
                i = live[order[g]]
                card_le[combo_cards[i, 0]] += 1
                card_le[combo_cards[i, 1]] += 1
            for g in range(k, end):
                i = live[order[g]]
                a = combo_cards[i, 0]
                b = combo_cards[i, 1]
                # A combo sharing card a or b is counted once in card_x[a] + card_x[b];
                # only combo i itself shares both (ranked r: in card_le, not in card_lt),
                # so +1 makes le the hands ranked <= r that share no card with i.
                lt = below - card_lt[a] - card_lt[b]
                le = end - card_le[a] - card_le[b] + 1
                wins[i] += lt
                ties[i] += le - lt
                pairs[i] += n - card_all[a] - card_all[b] + 1
            for g in range(k, end):
                i = live[order[g]]
                card_lt[combo_cards[i, 0]] += 1
                card_lt[combo_cards[i, 1]] += 1
            below = end
            k = end
    return wins, ties, pairs
