"""numba kernels of the hand-reading module: P_win of every combo on a board, Algorithm 1.

* :func:`pwin_all` - the win probability (ties shared) of each of the 1,326 combos against
  one uniformly random opponent hand, with the board completed by the given runouts. Per
  runout all live combos are ranked once and sorted; a sweep over the sorted ranks with
  per-card counters gives, for each combo, how many opposing combos it beats and ties,
  minus those that share one of its cards (the card-removal correction of
  postflop-solver's showdown evaluation, b-inary/postflop-solver ``evaluation.rs``).
  With ``b`` board cards and ``r`` runout cards the opponent always has
  ``C(50 - b - r, 2)`` live combos, so averaging the per-runout equities is exact.
* :func:`win_rate` - Algorithm 1 of Li, Jiang, Chen and Bao (Chinese Journal of Computers
  40(12), 2017): ``N`` deals with each opponent's combo drawn from his predicted
  distribution (cumulative search), the whole deal redrawn when two hands share a card
  (rejection keeps the joint law proportional to the product of the weights), the board
  completed uniformly, and our share of the pot at showdown counted.
* :func:`paper_categories` - the hand categories of :mod:`checkraise.opponents.categories`
  for every combo on one board (made hands from the evaluator, draws from rank and suit
  counts).

Random numbers are xoshiro256** (:mod:`checkraise.equity._kernels`) with explicit state.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit
from checkraise.equity._kernels import rng_double
from checkraise.evaluator._kernels import CARD_FLUSH_BIT, CARD_KEY, category_of, rank_from_key

Arr = npt.NDArray[Any]


_RADIX_BITS = 7
_RADIX = 1 << _RADIX_BITS


@njit
def _radix_order(
    ranks: Arr, m: int, order: Arr, tmp: Arr, counts: Arr,
) -> None:
    """Stable order of ``ranks[:m]`` (values below 2**14) into ``order[:m]``: two counting
    passes of 7 bits, much cheaper than a comparison sort for the ~1,000 combos per board."""
    for i in range(m):
        tmp[i] = i
    src = tmp
    dst = order
    for shift in (0, _RADIX_BITS):
        counts[:] = 0
        for i in range(m):
            counts[((ranks[src[i]] >> shift) & (_RADIX - 1)) + 1] += 1
        for d in range(_RADIX):
            counts[d + 1] += counts[d]
        for i in range(m):
            d = (ranks[src[i]] >> shift) & (_RADIX - 1)
            dst[counts[d]] = src[i]
            counts[d] += 1
        src, dst = dst, src
    # After two passes the sorted indices are back in ``tmp``'s buffer role swap: copy out.
    if src is not order:
        for i in range(m):
            order[i] = src[i]


@njit
def pwin_all(
    combo_cards: Arr,
    board: Arr,
    runouts: Arr,
) -> Arr:
    """Equity of every combo against one random hand; ``nan`` where a combo hits the board.

    ``combo_cards`` is the ``(1326, 2)`` table, ``board`` the 0-5 known cards and
    ``runouts`` the ``(R, 5 - len(board))`` completions to average over.
    """
    n = combo_cards.shape[0]
    kb = board.shape[0]
    bmask = 0
    bkey = 0
    bfm = 0
    for i in range(kb):
        bmask |= 1 << board[i]
        bkey += CARD_KEY[board[i]]
        bfm |= CARD_FLUSH_BIT[board[i]]
    eq_sum = np.zeros(n)
    eq_cnt = np.zeros(n)
    ranks = np.empty(n, dtype=np.int64)
    live = np.empty(n, dtype=np.int64)
    below = np.zeros(52, dtype=np.int64)
    group = np.zeros(52, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    tmp = np.empty(n, dtype=np.int64)
    counts = np.empty(_RADIX + 1, dtype=np.int64)
    for r in range(runouts.shape[0]):
        mask = bmask
        key = bkey
        fm = bfm
        for j in range(runouts.shape[1]):
            c = int(runouts[r, j])
            mask |= 1 << c
            key += CARD_KEY[c]
            fm |= CARD_FLUSH_BIT[c]
        m = 0
        for i in range(n):
            a = int(combo_cards[i, 0])
            b = int(combo_cards[i, 1])
            if (mask >> a) & 1 or (mask >> b) & 1:
                continue
            live[m] = i
            ranks[m] = rank_from_key(
                key + CARD_KEY[a] + CARD_KEY[b], fm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]
            )
            m += 1
        if m == 0:
            continue
        _radix_order(ranks, m, order, tmp, counts)
        # Every live combo avoids the same number of cards, so every combo faces the same
        # number of live opposing combos: m minus those sharing either of its two cards.
        free = 50 - kb - runouts.shape[1]
        opp = free * (free - 1) // 2
        below[:] = 0
        total_below = 0
        s = 0
        while s < m:
            e = s
            rs = ranks[order[s]]
            while e < m and ranks[order[e]] == rs:
                e += 1
            for t in range(s, e):
                i = live[order[t]]
                group[combo_cards[i, 0]] += 1
                group[combo_cards[i, 1]] += 1
            size = e - s
            for t in range(s, e):
                i = live[order[t]]
                a = combo_cards[i, 0]
                b = combo_cards[i, 1]
                wins = total_below - below[a] - below[b]
                ties = size - group[a] - group[b] + 1
                eq_sum[i] += (wins + 0.5 * ties) / opp
                eq_cnt[i] += 1.0
            for t in range(s, e):
                i = live[order[t]]
                a = combo_cards[i, 0]
                b = combo_cards[i, 1]
                group[a] -= 1
                group[b] -= 1
                below[a] += 1
                below[b] += 1
            total_below += size
            s = e
    out = np.empty(n)
    for i in range(n):
        out[i] = eq_sum[i] / eq_cnt[i] if eq_cnt[i] > 0 else np.nan
    return out


@njit
def _draw(cdf: Arr, row: int, state: Arr) -> int:
    u = rng_double(state) * cdf[row, cdf.shape[1] - 1]
    a = 0
    b = cdf.shape[1] - 1
    while a < b:
        mid = (a + b) >> 1
        if cdf[row, mid] > u:
            b = mid
        else:
            a = mid + 1
    return a


@njit
def win_rate(
    h0: int,
    h1: int,
    board: Arr,
    cdf: Arr,
    combo_cards: Arr,
    samples: int,
    state: Arr,
) -> tuple[float, float, int]:
    """(wins, pot share, deals) of ``h0 h1`` against opponents drawn from ``cdf`` rows.

    ``cdf[p]`` is the cumulative sum of opponent ``p``'s 1,326 weights (zero on combos that
    hit our cards or the board). A win is beating every opponent; the pot share adds ``1/k``
    on a ``k``-way tie for best. Gives up after ``100 * samples`` rejected deals.
    """
    q = cdf.shape[0]
    kb = board.shape[0]
    base = (1 << h0) | (1 << h1)
    bkey = 0
    bfm = 0
    for i in range(kb):
        base |= 1 << board[i]
        bkey += CARD_KEY[board[i]]
        bfm |= CARD_FLUSH_BIT[board[i]]
    okey = np.empty(q, dtype=np.int64)
    ofm = np.empty(q, dtype=np.int64)
    wins = 0.0
    share = 0.0
    done = 0
    rejected = 0
    while done < samples and rejected < 100 * samples:
        used = base
        ok = True
        for p in range(q):
            i = _draw(cdf, p, state)
            a = int(combo_cards[i, 0])
            b = int(combo_cards[i, 1])
            cm = (1 << a) | (1 << b)
            if used & cm:
                ok = False
                break
            used |= cm
            okey[p] = CARD_KEY[a] + CARD_KEY[b]
            ofm[p] = CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]
        if not ok:
            rejected += 1
            continue
        key = bkey
        fm = bfm
        for _ in range(5 - kb):
            c = int(rng_double(state) * 52)
            while (used >> c) & 1:
                c = int(rng_double(state) * 52)
            used |= 1 << c
            key += CARD_KEY[c]
            fm |= CARD_FLUSH_BIT[c]
        mine = rank_from_key(key + CARD_KEY[h0] + CARD_KEY[h1], fm | CARD_FLUSH_BIT[h0]
                             | CARD_FLUSH_BIT[h1])
        best = 0
        ties = 0
        for p in range(q):
            r = rank_from_key(key + okey[p], fm | ofm[p])
            if r > best:
                best = r
                ties = 1
            elif r == best:
                ties += 1
        if mine > best:
            wins += 1.0
            share += 1.0
        elif mine == best:
            share += 1.0 / (ties + 1)
        done += 1
    return wins, share, done


@njit
def categories(combo_cards: Arr, board: Arr) -> Arr:
    """Hand category 0..8 of each combo with the 3-5 ``board`` cards; -1 where they collide."""
    n = combo_cards.shape[0]
    mask = 0
    key = 0
    fm = 0
    for i in range(board.shape[0]):
        mask |= 1 << board[i]
        key += CARD_KEY[board[i]]
        fm |= CARD_FLUSH_BIT[board[i]]
    out = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        a = int(combo_cards[i, 0])
        b = int(combo_cards[i, 1])
        if (mask >> a) & 1 or (mask >> b) & 1:
            continue
        r = rank_from_key(
            key + CARD_KEY[a] + CARD_KEY[b], fm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]
        )
        out[i] = category_of(r)
    return out


@njit
def _straight_in(ranks: int) -> bool:
    """Whether the 13-bit rank mask holds five ranks in a row (the ace also plays low)."""
    m = ((ranks << 1) | ((ranks >> 12) & 1)) & 0x3FFF
    return (m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4)) != 0


@njit
def paper_categories(combo_cards: Arr, board: Arr, big: int) -> Arr:
    """Category of each combo in :mod:`checkraise.opponents.categories`; -1 on a collision.

    Preflop (no board) 0..3 by pair and ``big`` rank; after the flop the evaluator's 0..8,
    with high-card hands on the flop and turn refined to 9 (flush draw) or 10 (straight
    draw: at least two ranks make a straight that the board and that rank alone do not).
    """
    n = combo_cards.shape[0]
    nb = board.shape[0]
    mask = 0
    key = 0
    fm = 0
    board_ranks = 0
    suits = np.zeros(4, dtype=np.int64)
    for i in range(nb):
        mask |= 1 << board[i]
        key += CARD_KEY[board[i]]
        fm |= CARD_FLUSH_BIT[board[i]]
        board_ranks |= 1 << (board[i] // 4)
        suits[board[i] % 4] += 1
    out = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        a = int(combo_cards[i, 0])
        b = int(combo_cards[i, 1])
        if (mask >> a) & 1 or (mask >> b) & 1:
            continue
        ra = a // 4
        rb = b // 4
        if nb == 0:
            if ra == rb:
                out[i] = 2 + (ra >= big)
            else:
                out[i] = int(min(ra, rb) >= big)
            continue
        cat = category_of(rank_from_key(
            key + CARD_KEY[a] + CARD_KEY[b], fm | CARD_FLUSH_BIT[a] | CARD_FLUSH_BIT[b]))
        if cat > 0 or nb == 5:
            out[i] = cat
            continue
        sa = a % 4
        sb = b % 4
        if suits[sa] + 1 + (sb == sa) == 4 or suits[sb] + 1 + (sb == sa) == 4:
            out[i] = 9
            continue
        ranks = board_ranks | (1 << ra) | (1 << rb)
        outs = 0
        for r in range(13):
            if _straight_in(ranks | (1 << r)) and not _straight_in(board_ranks | (1 << r)):
                outs += 1
        out[i] = 10 if outs >= 2 else 0
    return out
