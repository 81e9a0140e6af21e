"""numba Monte Carlo kernels behind :func:`checkraise.equity.equity` (sampling is described
there and in :mod:`checkraise.equity._kernels`, which holds the random-number generator).
"""

from __future__ import annotations

import numpy as np

from checkraise._numba import njit
from checkraise.equity._kernels import rng_double, rng_next, xoshiro_next
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY, rank_from_key

# ---------------------------------------------------------------------------------------
# Monte Carlo


@njit
def monte_carlo(
    pc0: np.ndarray, pc1: np.ndarray, pm: np.ndarray, prob: np.ndarray,
    alias: np.ndarray, offs: np.ndarray, uniform: np.ndarray,
    known: np.ndarray, deck: np.ndarray,
    max_samples: int, target_se: float, min_samples: int, state: np.ndarray,
    min_attempts: int, attempts_per_sample: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Monte Carlo showdowns: (win, tie, share sum, share^2 sum, samples, attempts).

    ``deck`` holds the cards that can still be dealt (not on the board, not dead, not held
    by a player in all of its combos). Players with ``uniform[p]`` hold a uniformly random
    hand and are dealt from the deck after the others; the others draw a combo from their
    weights through alias tables (:func:`build_alias`) and the whole deal is redrawn if two
    of them collide (see :func:`checkraise.equity.core.equity` for why this is unbiased).
    Sampling gives up early when :func:`gave_up` says so (too few deals accepted).
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
        if gave_up(attempts, done, min_attempts, attempts_per_sample):
            break
        attempts += 1
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
def gave_up(attempts: int, done: int, min_attempts: int, attempts_per_sample: int) -> bool:
    """Whether the rejection sampler stops: past ``min_attempts`` attempts, it needs more
    than ``attempts_per_sample`` of them per accepted deal.

    The test only reads counts, never the generator, so a run that does not give up draws
    the same numbers and gives the same result as without it. It bounds the attempts by
    ``max(min_attempts, attempts_per_sample * (samples + 1))``.
    """
    return attempts >= min_attempts and attempts >= attempts_per_sample * (done + 1)


_WORD_BITS = 56
_WORD_MASK = (1 << _WORD_BITS) - 1
_BATCH = 7


@njit
def deal_plan(nd: int, need: int, first: int) -> tuple[np.ndarray, np.ndarray]:
    """Multipliers and acceptance thresholds for dealing positions ``first .. need - 1``.

    The deck array holds ``nd`` cards; position ``i`` of the deal is drawn from the
    ``nd - i`` cards at ``i ..`` (partial Fisher-Yates), positions before ``first`` keep
    their card. Positions are grouped in batches of seven, each drawn from one 56-bit
    random word (see :func:`_deal_batch`): ``mult[i]`` is ``nd - i`` for a dealt position
    and 1 for the others, ``thr[b]`` is ``2**56 mod prod(mult[7b:7b+7])``.
    """
    nb = max((need + _BATCH - 1) // _BATCH, 1)
    mult = np.ones(nb * _BATCH, dtype=np.uint64)
    thr = np.zeros(nb, dtype=np.uint64)
    for b in range(nb):
        prod = 1
        for i in range(b * _BATCH, (b + 1) * _BATCH):
            if first <= i < need:
                mult[i] = nd - i
                prod *= nd - i
        thr[b] = np.uint64((1 << _WORD_BITS) % prod)
    return mult, thr


@njit
def _batch_mults(mult: np.ndarray, b: int) -> tuple[np.uint64, ...]:
    o = b * _BATCH
    return (
        mult[o], mult[o + 1], mult[o + 2], mult[o + 3], mult[o + 4], mult[o + 5], mult[o + 6]
    )


@njit
def _deal_batch(
    dk: np.ndarray, m: np.uint64, ks: tuple[np.uint64, ...], thr: np.uint64,
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64,
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, int, int, int, int, int, int, int, int]:
    """Partial Fisher-Yates steps ``m .. m + 6`` of ``dk`` from one random word.

    Batched ranged integers (Brackett-Rozinsky & Lemire, "Batched ranged random integer
    generation", Software: Practice and Experience 2024): with ``r`` a uniform 56-bit
    word, multiplying by ``n_0`` and splitting at bit 56 gives digit ``j_0`` and a new
    remainder, and so on for ``n_1 .. n_6``. The digits are the mixed-radix digits of
    ``floor(r N / 2**56)`` with ``N = prod n_i`` and the last remainder is ``r N mod 2**56``,
    so accepting only remainders of at least ``2**56 mod N`` makes the digits exactly
    uniform and independent (Lemire, "Fast random integer generation in an interval",
    ACM TOMACS 2019). ``N <= 52**7 < 2**40``: a word is redrawn with probability below
    2**-16, and one word deals seven cards. Padding positions have ``n_i = 1``: digit 0,
    a swap of a card with itself. ``ks`` holds the seven multipliers (``mult[m:m + 7]`` of
    :func:`deal_plan`), passed as values so that a caller can keep them out of its loop.
    Returns the new generator state, the number of redrawn
    words and the seven cards now at ``m .. m + 6`` (callers that use them from here
    rather than reloading them from ``dk`` avoid loads that the processor must order
    behind the swaps' stores).
    """
    k0, k1, k2, k3, k4, k5, k6 = ks
    top = np.uint64(_WORD_BITS)
    low = np.uint64(_WORD_MASK)
    redrawn = 0
    while True:
        x, s0, s1, s2, s3 = xoshiro_next(s0, s1, s2, s3)
        r = (x >> np.uint64(64 - _WORD_BITS)) * k0
        j0 = m + (r >> top)
        r = (r & low) * k1
        j1 = m + np.uint64(1) + (r >> top)
        r = (r & low) * k2
        j2 = m + np.uint64(2) + (r >> top)
        r = (r & low) * k3
        j3 = m + np.uint64(3) + (r >> top)
        r = (r & low) * k4
        j4 = m + np.uint64(4) + (r >> top)
        r = (r & low) * k5
        j5 = m + np.uint64(5) + (r >> top)
        r = (r & low) * k6
        j6 = m + np.uint64(6) + (r >> top)
        if (r & low) >= thr:
            break
        redrawn += 1
    # Swap step i exchanges positions m + i and j_i >= m + i; position m + i is never
    # read again by a later step, so its new card is stored once at the end.
    c0 = dk[j0]
    dk[j0] = dk[m]
    c1 = dk[j1]
    dk[j1] = dk[m + np.uint64(1)]
    c2 = dk[j2]
    dk[j2] = dk[m + np.uint64(2)]
    c3 = dk[j3]
    dk[j3] = dk[m + np.uint64(3)]
    c4 = dk[j4]
    dk[j4] = dk[m + np.uint64(4)]
    c5 = dk[j5]
    dk[j5] = dk[m + np.uint64(5)]
    c6 = dk[j6]
    dk[j6] = dk[m + np.uint64(6)]
    dk[m] = c0
    dk[m + np.uint64(1)] = c1
    dk[m + np.uint64(2)] = c2
    dk[m + np.uint64(3)] = c3
    dk[m + np.uint64(4)] = c4
    dk[m + np.uint64(5)] = c5
    dk[m + np.uint64(6)] = c6
    return s0, s1, s2, s3, redrawn, c0, c1, c2, c3, c4, c5, c6


@njit
def _fixed_setup(
    fixed_key: np.ndarray, fixed_fm: np.ndarray, n_uniform: int, known: np.ndarray,
    deck: np.ndarray, n_batches: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Deck, card tables and the layout of a deal for the fixed-hand kernels.

    Returns ``dk`` (the deck as bytes, padded for the batches, with a blank card 52 in its
    last slot), ``ck``/``cf`` (:data:`CARD_KEY`/:data:`CARD_FLUSH_BIT` with the blank's
    zeros appended), each player's constant key and flush mask (known board plus own hand
    for a fixed player, known board alone for a random one), the deal positions of each
    player's two hole cards and the five positions of the board to come. Positions that
    hold no card (a fixed player's holes, board cards already known) point at the blank,
    so every player and the board are summed by the same loads with no branch or loop.
    """
    nf = fixed_key.shape[0]
    n = nf + n_uniform
    nd = deck.shape[0]
    # Padding positions after the deck are only ever swapped with themselves.
    dk = np.zeros(max(nd, n_batches * _BATCH) + 1, dtype=np.uint8)
    dk[:nd] = deck
    blank = dk.shape[0] - 1
    dk[blank] = 52
    ck, cf = _key_tables()
    base_key = 0
    base_fm = 0
    for i in range(known.shape[0]):
        base_key += CARD_KEY[known[i]]
        base_fm |= CARD_FLUSH_BIT[known[i]]
    key0 = np.full(n, base_key, dtype=np.int64)
    fm0 = np.full(n, base_fm, dtype=np.int64)
    hole_at = np.full((n, 2), blank, dtype=np.int64)
    for p in range(nf):
        key0[p] += fixed_key[p]
        fm0[p] |= fixed_fm[p]
    for u in range(n_uniform):
        hole_at[nf + u, 0] = 2 * u
        hole_at[nf + u, 1] = 2 * u + 1
    board_at = np.full(5, blank, dtype=np.int64)
    for i in range(5 - known.shape[0]):
        board_at[i] = 2 * n_uniform + i
    return dk, ck, cf, key0, fm0, hole_at, board_at


@njit
def _key_tables() -> tuple[np.ndarray, np.ndarray]:
    ck = np.zeros(53, dtype=np.int64)
    cf = np.zeros(53, dtype=np.int64)
    ck[:52] = CARD_KEY
    cf[:52] = CARD_FLUSH_BIT
    return ck, cf


@njit
def heads_up_deck(known: np.ndarray, deck: np.ndarray) -> np.ndarray:
    """The deck array of :func:`monte_carlo_heads_up`: a blank (52) per known board card,
    then the live cards, as bytes."""
    kb = known.shape[0]
    dk = np.empty(kb + deck.shape[0], dtype=np.uint8)
    dk[:kb] = 52
    dk[kb:] = deck
    return dk


@njit
def monte_carlo_heads_up(
    fixed_key: np.ndarray, fixed_fm: np.ndarray, known: np.ndarray, dk: np.ndarray,
    max_samples: int, target_se: float, min_samples: int, state: np.ndarray,
    mult: np.ndarray, thr: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Heads-up :func:`monte_carlo_fixed` when player 0 holds a known hand (the hot case).

    Every sample deals seven positions from one random word (:func:`_deal_batch`) into a
    fixed layout: positions 0-4 are the board (the first ``len(known)`` hold blanks,
    card 52 with key 0, put there by :func:`heads_up_deck` and never moved, as
    ``mult = deal_plan(len(dk), 7, len(known))`` gives them multiplier 1), positions 5-6
    are player 1's hand, dealt and ignored when ``fixed_key`` holds player 1's hand too.
    A fixed layout lets the dealt cards stay in registers and the loop stay small;
    outcomes are counted in locals, branch-free (who wins is unpredictable).
    """
    ck, cf = _key_tables()
    nf = fixed_key.shape[0]
    base_key = 0
    base_fm = 0
    for i in range(known.shape[0]):
        base_key += CARD_KEY[known[i]]
        base_fm |= CARD_FLUSH_BIT[known[i]]
    k0 = base_key + fixed_key[0]
    f0 = base_fm | fixed_fm[0]
    k1 = base_key + (fixed_key[1] if nf == 2 else 0)
    f1 = base_fm | (fixed_fm[1] if nf == 2 else 0)
    held = 0 if nf == 2 else -1
    dk = dk.copy()
    th = thr[0]
    ks = _batch_mults(mult, 0)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    redrawn = 0
    done = 0
    w0 = 0
    t = 0
    for _ in range(max_samples):
        s0, s1, s2, s3, red, c0, c1, c2, c3, c4, c5, c6 = _deal_batch(
            dk, np.uint64(0), ks, th, s0, s1, s2, s3
        )
        redrawn += red
        bkey = ck[c0] + ck[c1] + ck[c2] + ck[c3] + ck[c4]
        bfm = cf[c0] | cf[c1] | cf[c2] | cf[c3] | cf[c4]
        r0 = rank_from_key(k0 + bkey, f0 | bfm)
        r1 = rank_from_key(
            k1 + bkey + ((ck[c5] + ck[c6]) & held), f1 | bfm | ((cf[c5] | cf[c6]) & held)
        )
        w0 += int(r0 > r1)
        t += int(r0 == r1)
        done += 1
        if (
            target_se > 0.0
            and done >= min_samples
            and (done & 1023) == 0
            and _heads_up_se(float(w0), float(done - w0 - t), float(t), done) <= target_se
        ):
            break
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    # Shares are 1 (win) or 1/2 (tie), so the sums follow from the counts.
    win = np.array([float(w0), float(done - w0 - t)])
    tie = np.array([float(t), float(t)])
    return win, tie, win + 0.5 * tie, win + 0.25 * tie, done, done + redrawn


@njit
def monte_carlo_fixed(
    fixed_key: np.ndarray, fixed_fm: np.ndarray, n_uniform: int,
    known: np.ndarray, deck: np.ndarray, max_samples: int, target_se: float,
    min_samples: int, state: np.ndarray, mult: np.ndarray, thr: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """:func:`monte_carlo` for the common case of known hands against random hands.

    The first ``len(fixed_key)`` players hold the hands whose key and flush mask are given
    (their cards are not in ``deck``), the next ``n_uniform`` hold random hands. No deal is
    ever rejected, so the loop is just: draw, rank, tally. A sample deals the random hands
    (positions ``2u, 2u + 1``) and then the rest of the board as one uniformly random
    ordered selection from ``deck``, by :func:`_deal_batch` with the plan ``mult, thr``
    of :func:`deal_plan`. The last result counts samples plus redrawn random words.
    """
    nf = fixed_key.shape[0]
    n = nf + n_uniform
    dk, ck, cf, key0, fm0, hole_at, board_at = _fixed_setup(
        fixed_key, fixed_fm, n_uniform, known, deck, thr.shape[0]
    )
    nb = thr.shape[0]
    win = np.zeros(n)
    tie = np.zeros(n)
    ssum = np.zeros(n)
    ssq = np.zeros(n)
    rk = np.zeros(n, dtype=np.int64)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    redrawn = 0
    done = 0
    for _ in range(max_samples):
        for b in range(nb):
            dealt = _deal_batch(
                dk, np.uint64(b * _BATCH), _batch_mults(mult, b), thr[b], s0, s1, s2, s3
            )
            s0, s1, s2, s3 = dealt[0], dealt[1], dealt[2], dealt[3]
            redrawn += dealt[4]
        bkey = 0
        bfm = 0
        for i in range(5):
            c = dk[board_at[i]]
            bkey += ck[c]
            bfm |= cf[c]
        best = -1
        k = 0
        winner = 0
        for p in range(n):
            h0 = dk[hole_at[p, 0]]
            h1 = dk[hole_at[p, 1]]
            r = rank_from_key(
                key0[p] + bkey + ck[h0] + ck[h1], fm0[p] | bfm | cf[h0] | cf[h1]
            )
            rk[p] = r
            if r > best:
                best = r
                k = 1
                winner = p
            elif r == best:
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
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return win, tie, ssum, ssq, done, done + redrawn


@njit
def _heads_up_se(w0: float, w1: float, t: float, done: int) -> float:
    worst = 0.0
    for w in (w0, w1):
        mean = (w + 0.5 * t) / done
        var = max((w + 0.25 * t) / done - mean * mean, 0.0) * done / (done - 1)
        worst = max(worst, var / done)
    return float(worst**0.5)
