"""numba Monte Carlo kernels behind :func:`checkraise.equity.equity` (sampling is described
there and in :mod:`checkraise.equity._kernels`, which holds the random-number generator).
"""

from __future__ import annotations

import numpy as np

from checkraise._numba import njit
from checkraise.equity._kernels import rng_double, rng_next
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY, rank_from_key

# ---------------------------------------------------------------------------------------
# Monte Carlo


@njit
def monte_carlo(
    pc0: np.ndarray, pc1: np.ndarray, pm: np.ndarray, prob: np.ndarray,
    alias: np.ndarray, offs: np.ndarray, uniform: np.ndarray,
    known: np.ndarray, deck: np.ndarray,
    max_samples: int, target_se: float, min_samples: int, state: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Monte Carlo showdowns: (win, tie, share sum, share^2 sum, samples, attempts).

    ``deck`` holds the cards that can still be dealt (not on the board, not dead, not held
    by a player in all of its combos). Players with ``uniform[p]`` hold a uniformly random
    hand and are dealt from the deck after the others; the others draw a combo from their
    weights through alias tables (:func:`build_alias`) and the whole deal is redrawn if two
    of them collide (see :func:`checkraise.equity.core.equity` for why this is unbiased).
    """
    n = offs.shape[0] - 1
    win = np.zeros(n)
    tie = np.zeros(n)
    ssum = np.zeros(n)
    ssq = np.zeros(n)
    pk = np.zeros(n, dtype=np.int64)
    pf = np.zeros(n, dtype=np.int64)
    rk = np.zeros(n, dtype=np.int64)
    ck = np.empty(pc0.shape[0], dtype=np.int64)
    cf = np.empty(pc0.shape[0], dtype=np.int64)
    for i in range(pc0.shape[0]):
        ck[i] = CARD_KEY[pc0[i]] + CARD_KEY[pc1[i]]
        cf[i] = CARD_FLUSH_BIT[pc0[i]] | CARD_FLUSH_BIT[pc1[i]]
    deck = deck.copy()
    nd = deck.shape[0]
    kb = known.shape[0]
    need = 5 - kb
    for p in range(n):
        if uniform[p]:
            need += 2
    dealt = np.empty(need, dtype=np.int64)
    base_key = 0
    base_fm = 0
    for i in range(kb):
        base_key += CARD_KEY[known[i]]
        base_fm |= CARD_FLUSH_BIT[known[i]]
    done = 0
    attempts = 0
    while done < max_samples:
        attempts += 1
        if done == 0 and attempts > 1_000_000:
            break
        used = 0
        ok = True
        for p in range(n):
            if uniform[p]:
                continue
            lo = offs[p]
            hi = offs[p + 1]
            if hi - lo == 1:
                a = lo
            else:
                u = rng_double(state) * (hi - lo)
                a = lo + int(u)
                if u - int(u) >= prob[a]:
                    a = alias[a]
            if pm[a] & used:
                ok = False
                break
            used |= pm[a]
            pk[p] = ck[a]
            pf[p] = cf[a]
        if not ok:
            continue
        # Partial Fisher-Yates over ``deck``: position m receives a uniformly chosen card of
        # deck[m:]. The array stays a permutation of the same cards between samples, so it
        # needs no reset; cards a ranged player took this sample are set aside and skipped.
        # Each 64-bit output gives two draws by 32-bit multiply-shift (Lemire 2019), whose
        # probabilities are off from uniform by less than 2**-32.
        m = 0
        got = 0
        spare = False
        x = np.uint64(0)
        while got < need:
            if spare:
                half = x & np.uint64(0xFFFFFFFF)
            else:
                x = rng_next(state)
                half = x >> np.uint64(32)
            spare = not spare
            j = m + np.int64((half * np.uint64(nd - m)) >> np.uint64(32))
            c = deck[j]
            deck[j] = deck[m]
            deck[m] = c
            m += 1
            if not (used >> c) & 1:
                dealt[got] = c
                got += 1
        got = 0
        for p in range(n):
            if uniform[p]:
                pk[p] = CARD_KEY[dealt[got]] + CARD_KEY[dealt[got + 1]]
                pf[p] = CARD_FLUSH_BIT[dealt[got]] | CARD_FLUSH_BIT[dealt[got + 1]]
                got += 2
        bkey = base_key
        bfm = base_fm
        for i in range(got, need):
            bkey += CARD_KEY[dealt[i]]
            bfm |= CARD_FLUSH_BIT[dealt[i]]
        best = -1
        k = 0
        winner = 0
        for p in range(n):
            rk[p] = rank_from_key(bkey + pk[p], bfm | pf[p])
            if rk[p] > best:
                best = rk[p]
                k = 1
                winner = p
            elif rk[p] == best:
                k += 1
        if k == 1:
            win[winner] += 1.0
            ssum[winner] += 1.0
            ssq[winner] += 1.0
        else:
            part = 1.0 / k
            for p in range(n):
                if rk[p] == best:
                    tie[p] += 1.0
                    ssum[p] += part
                    ssq[p] += part * part
        done += 1
        if target_se > 0.0 and done >= min_samples and (done & 1023) == 0:
            worst = 0.0
            for p in range(n):
                mean = ssum[p] / done
                var = max(ssq[p] / done - mean * mean, 0.0) * done / (done - 1)
                worst = max(worst, var / done)
            if worst <= target_se * target_se:
                break
    return win, tie, ssum, ssq, done, attempts


@njit
def monte_carlo_fixed(
    fixed_key: np.ndarray, fixed_fm: np.ndarray, n_uniform: int,
    known: np.ndarray, deck: np.ndarray, max_samples: int, target_se: float,
    min_samples: int, state: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """:func:`monte_carlo` for the common case of known hands against random hands.

    The first ``len(fixed_key)`` players hold the hands whose key and flush mask are given
    (their cards are not in ``deck``), the next ``n_uniform`` hold random hands. No deal is
    ever rejected, so the loop is just: draw, rank, tally.
    """
    nf = fixed_key.shape[0]
    n = nf + n_uniform
    win = np.zeros(n)
    tie = np.zeros(n)
    ssum = np.zeros(n)
    ssq = np.zeros(n)
    rk = np.zeros(n, dtype=np.int64)
    deck = deck.copy()
    nd = deck.shape[0]
    kb = known.shape[0]
    need = 5 - kb + 2 * n_uniform
    base_key = 0
    base_fm = 0
    for i in range(kb):
        base_key += CARD_KEY[known[i]]
        base_fm |= CARD_FLUSH_BIT[known[i]]
    done = 0
    hu_w0 = 0.0
    hu_w1 = 0.0
    hu_t = 0.0
    for _ in range(max_samples):
        # Two draws per 64-bit output, as in :func:`monte_carlo`.
        m = 0
        while m < need:
            x = rng_next(state)
            j = m + np.int64(((x >> np.uint64(32)) * np.uint64(nd - m)) >> np.uint64(32))
            c = deck[j]
            deck[j] = deck[m]
            deck[m] = c
            m += 1
            if m < need:
                lo = x & np.uint64(0xFFFFFFFF)
                j = m + np.int64((lo * np.uint64(nd - m)) >> np.uint64(32))
                c = deck[j]
                deck[j] = deck[m]
                deck[m] = c
                m += 1
        bkey = base_key
        bfm = base_fm
        for i in range(2 * n_uniform, need):
            c = deck[i]
            bkey += CARD_KEY[c]
            bfm |= CARD_FLUSH_BIT[c]
        if n == 2:
            # Heads-up needs no arrays: compare the two ranks directly.
            if nf == 2:
                r0 = rank_from_key(bkey + fixed_key[0], bfm | fixed_fm[0])
                r1 = rank_from_key(bkey + fixed_key[1], bfm | fixed_fm[1])
            elif nf == 1:
                r0 = rank_from_key(bkey + fixed_key[0], bfm | fixed_fm[0])
                a = deck[0]
                b = deck[1]
                r1 = rank_from_key(
                    bkey + CARD_KEY[a] + CARD_KEY[b], bfm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]
                )
            else:
                a = deck[0]
                b = deck[1]
                r0 = rank_from_key(
                    bkey + CARD_KEY[a] + CARD_KEY[b], bfm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]
                )
                a = deck[2]
                b = deck[3]
                r1 = rank_from_key(
                    bkey + CARD_KEY[a] + CARD_KEY[b], bfm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]
                )
            # Local counters: stores into the result arrays would have to be kept in
            # order with the deck swaps (numba cannot rule out aliasing), which is slower.
            if r0 > r1:
                hu_w0 += 1.0
            elif r1 > r0:
                hu_w1 += 1.0
            else:
                hu_t += 1.0
            done += 1
            if (
                target_se > 0.0
                and done >= min_samples
                and (done & 1023) == 0
                and _heads_up_se(hu_w0, hu_w1, hu_t, done) <= target_se
            ):
                break
            continue
        best = -1
        k = 0
        winner = 0
        for p in range(nf):
            r = rank_from_key(bkey + fixed_key[p], bfm | fixed_fm[p])
            rk[p] = r
            if r > best:
                best = r
                k = 1
                winner = p
            elif r == best:
                k += 1
        for u in range(n_uniform):
            a = deck[2 * u]
            b = deck[2 * u + 1]
            r = rank_from_key(
                bkey + CARD_KEY[a] + CARD_KEY[b], bfm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]
            )
            rk[nf + u] = r
            if r > best:
                best = r
                k = 1
                winner = nf + u
            elif r == best:
                k += 1
        if k == 1:
            win[winner] += 1.0
            ssum[winner] += 1.0
            ssq[winner] += 1.0
        else:
            x2 = 1.0 / k
            for p in range(n):
                if rk[p] == best:
                    tie[p] += 1.0
                    ssum[p] += x2
                    ssq[p] += x2 * x2
        done += 1
        if target_se > 0.0 and done >= min_samples and (done & 1023) == 0:
            worst = 0.0
            for p in range(n):
                mean = ssum[p] / done
                var = max(ssq[p] / done - mean * mean, 0.0) * done / (done - 1)
                worst = max(worst, var / done)
            if worst <= target_se * target_se:
                break
    if n == 2:
        # Shares are 1 (win) or 1/2 (tie), so the sums follow from the counts.
        win[0] = hu_w0
        win[1] = hu_w1
        tie[0] = tie[1] = hu_t
        for p in range(2):
            ssum[p] = win[p] + 0.5 * tie[p]
            ssq[p] = win[p] + 0.25 * tie[p]
    return win, tie, ssum, ssq, done, done


@njit
def _heads_up_se(w0: float, w1: float, t: float, done: int) -> float:
    worst = 0.0
    for w in (w0, w1):
        mean = (w + 0.5 * t) / done
        var = max((w + 0.25 * t) / done - mean * mean, 0.0) * done / (done - 1)
        worst = max(worst, var / done)
    return float(worst**0.5)
