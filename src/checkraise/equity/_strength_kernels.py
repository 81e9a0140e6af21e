"""numba kernels for one hand against a random hand, runout by runout, and the exact
preflop table (see :mod:`checkraise.equity.strength` and :mod:`checkraise.equity.preflop`).

Both resolve a board against *every* opponent hand: the hand-strength sweep loops over the
live opponent combos; the preflop table ranks all 1,081 combos on a board once and uses the
card-removal sweep of :mod:`checkraise.equity._kernels`, with boards taken up to suit
permutation.
"""

from __future__ import annotations

import numpy as np

from checkraise._numba import njit
from checkraise.equity._kernels import _fill_board, _rank_hole
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY, rank5, rank6

# ---------------------------------------------------------------------------------------
# one hand against a uniformly random hand, runout by runout


@njit
def _rank_partial(c0: int, c1: int, b: np.ndarray, k: int) -> int:
    if k == 3:
        return rank5(c0, c1, b[0], b[1], b[2])
    return rank6(c0, c1, b[0], b[1], b[2], b[3])


@njit
def vs_random_runouts(
    h0: int, h1: int, known: np.ndarray, dead_mask: int, runouts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per runout: (wins, ties, opponents) of hand ``h0 h1`` against every opponent combo.

    Also returns Billings' hand-potential table ``hp[now, final]`` (0 ahead, 1 tied,
    2 behind) counted over (opponent combo, runout) pairs when 3 or 4 board cards are known.
    """
    kb = known.shape[0]
    taken = dead_mask | (1 << h0) | (1 << h1)
    for i in range(kb):
        taken |= 1 << known[i]
    n_opp = 0
    oc0 = np.empty(1326, dtype=np.int64)
    oc1 = np.empty(1326, dtype=np.int64)
    for hi in range(52):
        if (taken >> hi) & 1:
            continue
        for lo in range(hi):
            if (taken >> lo) & 1:
                continue
            oc0[n_opp] = lo
            oc1[n_opp] = hi
            n_opp += 1
    now = np.zeros(n_opp, dtype=np.int64)
    hp = np.zeros((3, 3))
    with_potential = kb in (3, 4)
    if with_potential:
        hero_now = _rank_partial(h0, h1, known, kb)
        for o in range(n_opp):
            opp = _rank_partial(oc0[o], oc1[o], known, kb)
            now[o] = 0 if hero_now > opp else (1 if hero_now == opp else 2)
    n_ro = runouts.shape[0]
    wins = np.zeros(n_ro)
    ties = np.zeros(n_ro)
    opps = np.zeros(n_ro)
    board = np.empty(5, dtype=np.int64)
    for ro in range(n_ro):
        bmask, bkey, bfm = _fill_board(known, runouts[ro], board)
        hero = _rank_hole(h0, h1, bkey, bfm)
        for o in range(n_opp):
            if ((bmask >> oc0[o]) & 1) or ((bmask >> oc1[o]) & 1):
                continue
            opp = _rank_hole(oc0[o], oc1[o], bkey, bfm)
            final = 0 if hero > opp else (1 if hero == opp else 2)
            opps[ro] += 1.0
            if final == 0:
                wins[ro] += 1.0
            elif final == 1:
                ties[ro] += 1.0
            if with_potential:
                hp[now[o], final] += 1.0
    return wins, ties, opps, hp


# ---------------------------------------------------------------------------------------
# the 169-class heads-up preflop table, exactly


@njit
def preflop_vs_random_exact(
    combo_class: np.ndarray, perms: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact (win, tie, lose) counts of each preflop class against one random hand.

    Enumerates the 2,598,960 five-card boards up to suit permutation (``perms``: the 24
    permutations of the four suits): a board that is the smallest mask of its orbit stands
    for the whole orbit, whose class totals are the same because a class is closed under
    suit permutation. On each such board every live combo is ranked once and resolved
    against all others with the card-removal sweep (all weights 1).
    """
    n_cls = 169
    win = np.zeros(n_cls)
    tie = np.zeros(n_cls)
    lose = np.zeros(n_cls)
    images = np.empty(24, dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    r = np.empty(1326, dtype=np.int64)
    c0 = np.empty(1326, dtype=np.int64)
    c1 = np.empty(1326, dtype=np.int64)
    cls = np.empty(1326, dtype=np.int64)
    for b0 in range(52):
        for b1 in range(b0 + 1, 52):
            for b2 in range(b1 + 1, 52):
                for b3 in range(b2 + 1, 52):
                    for b4 in range(b3 + 1, 52):
                        board[0] = b0
                        board[1] = b1
                        board[2] = b2
                        board[3] = b3
                        board[4] = b4
                        mask = 0
                        bkey = 0
                        bfm = 0
                        for i in range(5):
                            mask |= 1 << board[i]
                            bkey += CARD_KEY[board[i]]
                            bfm |= CARD_FLUSH_BIT[board[i]]
                        smallest = True
                        for g in range(24):
                            m = 0
                            for i in range(5):
                                c = board[i]
                                m |= 1 << (4 * (c >> 2) + perms[g, c & 3])
                            images[g] = m
                            if m < mask:
                                smallest = False
                                break
                        if not smallest:
                            continue
                        mult = float(np.unique(images).shape[0])
                        n = 0
                        for hi in range(52):
                            if (mask >> hi) & 1:
                                continue
                            for lo in range(hi):
                                if (mask >> lo) & 1:
                                    continue
                                c0[n] = lo
                                c1[n] = hi
                                cls[n] = combo_class[hi * (hi - 1) // 2 + lo]
                                r[n] = _rank_hole(lo, hi, bkey, bfm)
                                n += 1
                        order = np.argsort(r[:n])
                        card_lt = np.zeros(52)
                        card_le = np.zeros(52)
                        sum_lt = 0.0
                        sum_le = 0.0
                        p = 0
                        q = 0
                        for t in range(n):
                            i = order[t]
                            while p < n and r[order[p]] < r[i]:
                                j = order[p]
                                sum_lt += 1.0
                                card_lt[c0[j]] += 1.0
                                card_lt[c1[j]] += 1.0
                                p += 1
                            while q < n and r[order[q]] <= r[i]:
                                j = order[q]
                                sum_le += 1.0
                                card_le[c0[j]] += 1.0
                                card_le[c1[j]] += 1.0
                                q += 1
                            lt = sum_lt - card_lt[c0[i]] - card_lt[c1[i]]
                            le = sum_le - card_le[c0[i]] - card_le[c1[i]] + 1.0
                            # 990 = opponents from the 45 cards left after board and hand.
                            win[cls[i]] += mult * lt
                            tie[cls[i]] += mult * (le - lt)
                            lose[cls[i]] += mult * (990.0 - le)
    return win, tie, lose
