"""numba kernels behind :mod:`checkraise.equity` (enumeration, Monte Carlo, hand-strength sweeps).

Players are passed flat: combo cards ``pc0``/``pc1``, card masks ``pm``, combo ids ``pid``
and weights ``pw`` of every player's live combos concatenated, with ``offs[p]:offs[p + 1]``
the slice of player ``p``. Board runouts are enumerated (or sampled) by the caller.

Heads-up range-vs-range showdowns use the sorted sweep with card-removal corrections of
postflop-solver (b-inary/postflop-solver, ``evaluation.rs``): sort both players' live combos
by rank once per board, then for each combo of one player the weight of opposing combos that
it beats is a prefix sum minus the prefix sums of the combos that share one of its two cards,
plus the identical combo counted twice (inclusion-exclusion). That is O(n log n) per board
instead of O(n^2) pairs.

Hands are ranked incrementally with the evaluator's additive keys: a board's key and flush
mask are summed once per runout and each hole pair adds its own two cards'.

Random numbers come from xoshiro256** (Blackman & Vigna, 2018) with its state passed in, so
results depend only on the seed.
"""

from __future__ import annotations

import numpy as np

from checkraise._numba import njit
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY, rank_from_key

# ---------------------------------------------------------------------------------------
# random numbers


@njit
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit
def xoshiro_next(
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:
    """(output, new state) of one xoshiro256** step on a state held in four scalars.

    Hot loops keep the state in local variables and store it back once: a state array
    has to be reloaded after every store to another array (numba cannot rule out
    aliasing), which put the generator on the critical path of the Monte Carlo loop.
    """
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit
def rng_next(s: np.ndarray) -> np.uint64:
    """Next 64-bit output of xoshiro256** with state ``s`` (4 uint64, updated in place)."""
    result, s[0], s[1], s[2], s[3] = xoshiro_next(s[0], s[1], s[2], s[3])
    return result


@njit
def rng_double(s: np.ndarray) -> float:
    """Uniform double in ``[0, 1)`` with 53 random bits."""
    return float(rng_next(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit
def rng_below(s: np.ndarray, n: int) -> int:
    """Integer in ``[0, n)`` by scaling a 53-bit double: each value's probability is off
    from 1/n by less than 2**-53 (far below any Monte Carlo error), and it costs one step."""
    return int(rng_double(s) * n)


@njit
def build_alias(
    w: np.ndarray, offs: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Walker/Vose alias tables for each segment ``offs[p]:offs[p + 1]`` of weights ``w``.

    Drawing ``i`` uniformly in a segment and keeping it with probability ``prob[i]``, else
    taking ``alias[i]`` (a global index), samples the segment proportionally to ``w`` in
    O(1) (Vose, "A linear algorithm for generating random numbers with a given
    distribution", IEEE TSE 1991).
    """
    prob = np.ones(w.shape[0])
    alias = np.arange(w.shape[0])
    for p in range(offs.shape[0] - 1):
        lo = offs[p]
        hi = offs[p + 1]
        n = hi - lo
        total = 0.0
        for i in range(lo, hi):
            total += w[i]
        scaled = np.empty(n)
        small = np.empty(n, dtype=np.int64)
        large = np.empty(n, dtype=np.int64)
        ns = 0
        nl = 0
        for i in range(n):
            scaled[i] = w[lo + i] * n / total
            if scaled[i] < 1.0:
                small[ns] = i
                ns += 1
            else:
                large[nl] = i
                nl += 1
        while ns > 0 and nl > 0:
            ns -= 1
            sm = small[ns]
            lg = large[nl - 1]
            prob[lo + sm] = scaled[sm]
            alias[lo + sm] = lo + lg
            scaled[lg] = scaled[lg] + scaled[sm] - 1.0
            if scaled[lg] < 1.0:
                nl -= 1
                small[ns] = lg
                ns += 1
        # Leftovers are 1 up to rounding.
        for t in range(nl):
            prob[lo + large[t]] = 1.0
        for t in range(ns):
            prob[lo + small[t]] = 1.0
    return prob, alias


# ---------------------------------------------------------------------------------------
# enumeration helpers


@njit
def combinations(deck: np.ndarray, k: int) -> np.ndarray:
    """All ``k``-subsets of ``deck`` as ``int8`` rows, lexicographic; one empty row if k=0."""
    n = deck.shape[0]
    total = 1
    for i in range(k):
        total = total * (n - i) // (i + 1)
    out = np.empty((total, k), dtype=np.int8)
    idx = np.arange(k)
    for row in range(total):
        for j in range(k):
            out[row, j] = deck[idx[j]]
        j = k - 1
        while j >= 0 and idx[j] == n - k + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, k):
            idx[t] = idx[t - 1] + 1
    return out


@njit
def _rank_hole(c0: int, c1: int, bkey: int, bfm: int) -> int:
    return rank_from_key(
        bkey + CARD_KEY[c0] + CARD_KEY[c1], bfm | CARD_FLUSH_BIT[c0] | CARD_FLUSH_BIT[c1]
    )


@njit
def _fill_board(
    known: np.ndarray, runout: np.ndarray, out: np.ndarray
) -> tuple[int, int, int]:
    # Returns the board's card mask, key and flush mask.
    mask = 0
    key = 0
    fm = 0
    k = known.shape[0]
    for i in range(k + runout.shape[0]):
        c = int(known[i]) if i < k else int(runout[i - k])
        out[i] = c
        mask |= 1 << c
        key += CARD_KEY[c]
        fm |= CARD_FLUSH_BIT[c]
    return mask, key, fm


# ---------------------------------------------------------------------------------------
# exact enumeration


@njit
def showdown_orders(
    holes: np.ndarray, known: np.ndarray, deck: np.ndarray, dense: bool
) -> np.ndarray:
    """The order of the hands ``holes`` (``k`` rows of two cards) on the completions of
    the board ``known`` by cards of ``deck``.

    Hand ``i`` beats ``b_i`` of the others (ties beat nobody); the order's code is the
    sum of ``b_i * k**i``, which keeps exactly what a showdown's payout depends on: who
    beats whom, and who ties. ``dense``: how many completions give each code (an array
    of ``k**k``); else the code of each completion, in the order of :func:`combinations`.
    """
    k = holes.shape[0]
    draw = 5 - known.shape[0]
    n = deck.shape[0]
    size = 1
    for _ in range(k):
        size *= k
    total = 1
    for i in range(draw):
        total = total * (n - i) // (i + 1)
    out = np.zeros(size if dense else total, dtype=np.int64)
    ck = np.empty(k, dtype=np.int64)
    cf = np.empty(k, dtype=np.int64)
    for i in range(k):
        ck[i] = CARD_KEY[holes[i, 0]] + CARD_KEY[holes[i, 1]]
        cf[i] = CARD_FLUSH_BIT[holes[i, 0]] | CARD_FLUSH_BIT[holes[i, 1]]
    # Level d of keys and fms: the known cards plus the first d drawn, so that each
    # completion adds one card to its parent's sums. The walk is exact_equity_steps's,
    # written out again: as a shared helper (arrays passed per step, each a reference
    # count) both ran three times slower.
    keys = np.zeros(draw + 1, dtype=np.int64)
    fms = np.zeros(draw + 1, dtype=np.int64)
    for i in range(known.shape[0]):
        keys[0] += CARD_KEY[known[i]]
        fms[0] |= CARD_FLUSH_BIT[known[i]]
    ranks = np.empty(k, dtype=np.int64)
    pos = np.zeros(draw + 1, dtype=np.int64)
    row = 0
    d = 0
    while d >= 0:
        if d == draw:
            for i in range(k):
                ranks[i] = rank_from_key(keys[d] + ck[i], fms[d] | cf[i])
            code = 0
            scale = 1
            for i in range(k):
                beaten = 0
                for j in range(k):
                    if ranks[j] < ranks[i]:
                        beaten += 1
                code += beaten * scale
                scale *= k
            if dense:
                out[code] += 1
            else:
                out[row] = code
            row += 1
            d -= 1
            if d >= 0:
                pos[d] += 1
            continue
        if pos[d] > n - (draw - d):
            d -= 1
            if d >= 0:
                pos[d] += 1
            continue
        c = deck[pos[d]]
        keys[d + 1] = keys[d] + CARD_KEY[c]
        fms[d + 1] = fms[d] | CARD_FLUSH_BIT[c]
        if d + 1 < draw:
            pos[d + 1] = pos[d] + 1
        d += 1
    return out


@njit
def _showdown_hu_pairs(
    n_a: int, n_b: int, r: np.ndarray, w: np.ndarray, m: np.ndarray,
    la: np.ndarray, lb: np.ndarray, acc: np.ndarray,
) -> None:
    # acc = [win_a, tie, win_b, total]
    for ii in range(n_a):
        i = la[ii]
        for jj in range(n_b):
            j = lb[jj]
            if m[i] & m[j]:
                continue
            t = w[i] * w[j]
            acc[3] += t
            if r[i] > r[j]:
                acc[0] += t
            elif r[i] == r[j]:
                acc[1] += t
            else:
                acc[2] += t


@njit
def _showdown_hu_sweep(
    n_a: int, n_b: int, r: np.ndarray, w: np.ndarray,
    c0: np.ndarray, c1: np.ndarray, cid: np.ndarray,
    la: np.ndarray, lb: np.ndarray, acc: np.ndarray, same_w: np.ndarray,
) -> None:
    ra = np.empty(n_a, dtype=np.int64)
    rb = np.empty(n_b, dtype=np.int64)
    for ii in range(n_a):
        ra[ii] = r[la[ii]]
    for jj in range(n_b):
        rb[jj] = r[lb[jj]]
    oa = np.argsort(ra)
    ob = np.argsort(rb)
    card_lt = np.zeros(52)
    card_le = np.zeros(52)
    card_tot = np.zeros(52)
    tot_b = 0.0
    for jj in range(n_b):
        j = lb[jj]
        card_tot[c0[j]] += w[j]
        card_tot[c1[j]] += w[j]
        tot_b += w[j]
        same_w[cid[j]] = w[j]
    sum_lt = 0.0
    sum_le = 0.0
    p = 0
    q = 0
    for t in range(n_a):
        i = la[oa[t]]
        ri = r[i]
        while p < n_b and rb[ob[p]] < ri:
            j = lb[ob[p]]
            sum_lt += w[j]
            card_lt[c0[j]] += w[j]
            card_lt[c1[j]] += w[j]
            p += 1
        while q < n_b and rb[ob[q]] <= ri:
            j = lb[ob[q]]
            sum_le += w[j]
            card_le[c0[j]] += w[j]
            card_le[c1[j]] += w[j]
            q += 1
        same = same_w[cid[i]]
        lt = sum_lt - card_lt[c0[i]] - card_lt[c1[i]]
        le = sum_le - card_le[c0[i]] - card_le[c1[i]] + same
        tot = tot_b - card_tot[c0[i]] - card_tot[c1[i]] + same
        acc[0] += w[i] * lt
        acc[1] += w[i] * (le - lt)
        acc[2] += w[i] * (tot - le)
        acc[3] += w[i] * tot
    for jj in range(n_b):
        same_w[cid[lb[jj]]] = 0.0


@njit
def _resolve_runout(
    n: int, bmask: int, bkey: int, bfm: int, weight: float,
    pc0: np.ndarray, pc1: np.ndarray, pm: np.ndarray, pid: np.ndarray,
    pw: np.ndarray, offs: np.ndarray, ck: np.ndarray, cf: np.ndarray,
    r: np.ndarray, live: np.ndarray, cnt: np.ndarray, start: np.ndarray,
    acc: np.ndarray, same_w: np.ndarray, idx: np.ndarray, used: np.ndarray,
    wprod: np.ndarray, chosen: np.ndarray,
    win: np.ndarray, tie: np.ndarray, share: np.ndarray,
) -> float:
    # One full board: rank every live combo once, then resolve all assignments.
    # Returns the joint weight of the deals on this board.
    pos = 0
    for p in range(n):
        start[p] = pos
        for i in range(offs[p], offs[p + 1]):
            if pm[i] & bmask:
                continue
            r[i] = rank_from_key(bkey + ck[i], bfm | cf[i])
            live[pos] = i
            pos += 1
        cnt[p] = pos - start[p]
    total = 0.0
    if n == 2:
        acc[:] = 0.0
        la = live[start[0] : start[0] + cnt[0]]
        lb = live[start[1] : start[1] + cnt[1]]
        if cnt[0] * cnt[1] <= 512:
            _showdown_hu_pairs(cnt[0], cnt[1], r, pw, pm, la, lb, acc)
        else:
            _showdown_hu_sweep(cnt[0], cnt[1], r, pw, pc0, pc1, pid, la, lb, acc, same_w)
        win[0] += acc[0]
        win[1] += acc[2]
        tie[0] += acc[1]
        tie[1] += acc[1]
        share[0] += acc[0] + 0.5 * acc[1]
        share[1] += acc[2] + 0.5 * acc[1]
        return float(acc[3])
    # Three or more players: depth-first over the non-colliding assignments.
    depth = 0
    idx[0] = -1
    used[0] = bmask
    wprod[0] = weight
    while depth >= 0:
        idx[depth] += 1
        if idx[depth] >= cnt[depth]:
            depth -= 1
            continue
        j = live[start[depth] + idx[depth]]
        if pm[j] & used[depth]:
            continue
        wj = wprod[depth] * pw[j]
        chosen[depth] = j
        if depth < n - 1:
            used[depth + 1] = used[depth] | pm[j]
            wprod[depth + 1] = wj
            depth += 1
            idx[depth] = -1
            continue
        best = -1
        k = 0
        for p in range(n):
            rp = r[chosen[p]]
            if rp > best:
                best = rp
                k = 1
            elif rp == best:
                k += 1
        total += wj
        for p in range(n):
            if r[chosen[p]] == best:
                if k == 1:
                    win[p] += wj
                else:
                    tie[p] += wj
                share[p] += wj / k
    return total


@njit
def exact_equity(
    pc0: np.ndarray, pc1: np.ndarray, pm: np.ndarray, pid: np.ndarray,
    pw: np.ndarray, offs: np.ndarray, known: np.ndarray, deck: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, int]:
    """Exact (win, tie, equity share) weight sums per player, total weight, runouts.

    Every completion of the board ``known`` by cards of ``deck`` (the cards not on the
    board, not dead and not held by a player in all of its combos) is paired with every
    non-colliding assignment of one live combo per player; each such deal has weight
    ``prod(pw)``. Every non-colliding assignment has the same number of completions, so
    this is the exact joint distribution. One call of :func:`exact_equity_steps` over
    all runouts.
    """
    n = offs.shape[0] - 1
    win = np.zeros(n)
    tie = np.zeros(n)
    share = np.zeros(n)
    walk = np.zeros(5 - known.shape[0] + 2, dtype=np.int64)
    total, runouts = exact_equity_steps(
        pc0, pc1, pm, pid, pw, offs, known, deck, walk, win, tie, share, 0.0, -1
    )
    return win, tie, share, total, runouts


@njit
def exact_equity_steps(
    pc0: np.ndarray, pc1: np.ndarray, pm: np.ndarray, pid: np.ndarray,
    pw: np.ndarray, offs: np.ndarray, known: np.ndarray, deck: np.ndarray,
    walk: np.ndarray, win: np.ndarray, tie: np.ndarray, share: np.ndarray,
    total: float, max_runouts: int,
) -> tuple[float, int]:
    """Resumable :func:`exact_equity`: enumerate up to ``max_runouts`` runouts (all if < 0).

    Adds into ``win``, ``tie`` and ``share`` and returns the new ``total`` and the number of
    runouts done in this call. ``walk`` (``k + 2`` ints for ``k`` board cards to come,
    zeros at the start) holds where the enumeration stands: the deck positions of the
    drawn cards and, last, the depth, which is -1 once every runout is done. A run split
    into several calls adds the same numbers in the same order as one call, so its results
    are identical to the last bit (the split only lets the caller report progress).
    Completions are walked by nested loops that keep partial board keys; when every
    player holds one combo (hand against hand) the showdown is done inline.
    """
    n = offs.shape[0] - 1
    total_combos = offs[n]
    r = np.zeros(total_combos, dtype=np.int64)
    live = np.empty(total_combos, dtype=np.int64)
    cnt = np.zeros(n, dtype=np.int64)
    start = np.zeros(n, dtype=np.int64)
    acc = np.zeros(4)
    same_w = np.zeros(1326)
    idx = np.zeros(n, dtype=np.int64)
    used = np.zeros(n + 1, dtype=np.int64)
    wprod = np.ones(n + 1)
    chosen = np.zeros(n, dtype=np.int64)
    ck = np.empty(total_combos, dtype=np.int64)
    cf = np.empty(total_combos, dtype=np.int64)
    for i in range(total_combos):
        ck[i] = CARD_KEY[pc0[i]] + CARD_KEY[pc1[i]]
        cf[i] = CARD_FLUSH_BIT[pc0[i]] | CARD_FLUSH_BIT[pc1[i]]
    single = total_combos == n
    single_w = 1.0
    for i in range(total_combos):
        single_w *= pw[i]
    rk = np.zeros(n, dtype=np.int64)
    # Partial sums of the board: level d holds the known cards plus the first d drawn.
    k = 5 - known.shape[0]
    nd = deck.shape[0]
    keys = np.zeros(k + 1, dtype=np.int64)
    fms = np.zeros(k + 1, dtype=np.int64)
    masks = np.zeros(k + 1, dtype=np.int64)
    for i in range(known.shape[0]):
        keys[0] += CARD_KEY[known[i]]
        fms[0] |= CARD_FLUSH_BIT[known[i]]
        masks[0] |= 1 << known[i]
    pos = walk[: k + 1]
    d = walk[k + 1]
    # Resuming: rebuild the partial sums of the levels above the current depth.
    for i in range(max(d, 0)):
        c = deck[pos[i]]
        keys[i + 1] = keys[i] + CARD_KEY[c]
        fms[i + 1] = fms[i] | CARD_FLUSH_BIT[c]
        masks[i + 1] = masks[i] | (1 << c)
    runouts = 0
    while d >= 0:
        if d == k:
            if runouts == max_runouts:
                break
            runouts += 1
            if single:
                best = -1
                ties = 0
                for p in range(n):
                    rk[p] = rank_from_key(keys[k] + ck[p], fms[k] | cf[p])
                    if rk[p] > best:
                        best = rk[p]
                        ties = 1
                    elif rk[p] == best:
                        ties += 1
                for p in range(n):
                    if rk[p] == best:
                        if ties == 1:
                            win[p] += single_w
                        else:
                            tie[p] += single_w
                        share[p] += single_w / ties
                total += single_w
            else:
                total += _resolve_runout(
                    n, masks[k], keys[k], fms[k], 1.0, pc0, pc1, pm, pid, pw, offs, ck, cf,
                    r, live, cnt, start, acc, same_w, idx, used, wprod, chosen, win, tie, share,
                )
            d -= 1
            if d >= 0:
                pos[d] += 1
            continue
        if pos[d] > nd - (k - d):
            d -= 1
            if d >= 0:
                pos[d] += 1
            continue
        c = deck[pos[d]]
        keys[d + 1] = keys[d] + CARD_KEY[c]
        fms[d + 1] = fms[d] | CARD_FLUSH_BIT[c]
        masks[d + 1] = masks[d] | (1 << c)
        if d + 1 < k:
            pos[d + 1] = pos[d] + 1
        d += 1
    walk[k + 1] = d
    return total, runouts
