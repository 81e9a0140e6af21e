"""Showdown values by one branch-free sweep over a per-runout merged order.

The two-list sweep of :func:`checkraise.solvers.spot._kernels.showdown_values`
merges the traverser's and the opponent's sorted hands at every showdown leaf: each
step asks "is the next opponent weaker?" and skips zero reaches, and those
data-dependent branches mispredict often enough to dominate the spot solver's time.
But the merge only depends on the runout, not on the reaches, so it is done once
when the solver is built: for each river runout and traverser, one sequence of
*codes* in order of strength,

- ``o`` in ``[0, n_o)``: the opponent's hand ``o`` (adds its reach),
- ``n_o + h``: the traverser's hand ``h`` before the opponents of its strength
  (reads the reach of those strictly weaker: the hands it beats),
- ``n_o + n_t + h``: the same hand after them (reads those at most as strong),

so that a leaf is one pass over the codes with no branch at all: every code adds
``reach[code]`` (zero for the traverser's codes) to the running total and to its
two cards' sums, and writes the running total less its two cards' sums. The
traverser's codes read what they need; the opponent's write nowhere that is read.
Then ``win * beaten + lose * (compatible - at_most) + tie * (at_most - beaten)``.
The tables cost ``n_o + 2 n_t`` two-byte codes per runout and traverser.
"""

from __future__ import annotations

import numpy as np

from checkraise._numba import njit


@njit
def sweep_tables(
    order_t: np.ndarray, rank_t: np.ndarray, order_o: np.ndarray, rank_o: np.ndarray,
    cards_t: np.ndarray, cards_o: np.ndarray, seq: np.ndarray, card_a: np.ndarray,
    card_b: np.ndarray,
) -> None:
    """The merged code sequence of every runout (``seq[row]``) and each code's cards.

    ``order_*``, ``rank_*`` are the per-runout sorted hands and strengths of
    :func:`checkraise.solvers.spot._kernels.showdown_tables`; ``seq`` is
    ``(runouts, n_o + 2 n_t)`` (unsigned); ``card_a``, ``card_b`` (``n_o + 2 n_t``,
    unsigned) the two cards of each code's hand.
    """
    n_t = cards_t.shape[0]
    n_o = cards_o.shape[0]
    for o in range(n_o):
        card_a[o] = cards_o[o, 0]
        card_b[o] = cards_o[o, 1]
    for h in range(n_t):
        for j in (n_o + h, n_o + n_t + h):
            card_a[j] = cards_t[h, 0]
            card_b[j] = cards_t[h, 1]
    length = n_o + 2 * n_t
    key = np.empty(length, np.int64)
    code = np.empty(length, np.int64)
    for row in range(seq.shape[0]):
        # Within a strength: reads of "beaten", then the opponents, then "at most".
        k = 0
        for i in range(n_o):
            key[k] = 3 * np.int64(rank_o[row, i]) + 1
            code[k] = order_o[row, i]
            k += 1
        for i in range(n_t):
            key[k] = 3 * np.int64(rank_t[row, i])
            code[k] = n_o + order_t[row, i]
            k += 1
            key[k] = 3 * np.int64(rank_t[row, i]) + 2
            code[k] = n_o + n_t + order_t[row, i]
            k += 1
        idx = np.argsort(key, kind="mergesort")
        for i in range(length):
            seq[row, i] = code[idx[i]]


@njit
def showdown_sweep(
    win: float, lose: float, tie: float, reach: np.ndarray, d: int, same_t: np.ndarray,
    seq: np.ndarray, row: int, card_a: np.ndarray, card_b: np.ndarray,
    out: np.ndarray, codes: np.ndarray, per_card: np.ndarray,
) -> None:
    """Showdown values of the traverser's hands against ``reach[d]`` into ``out[d]``.

    ``seq[row]`` is the runout's row of :func:`sweep_tables`, ``card_a`` and ``card_b``
    its code cards; ``codes`` is scratch ``(2, n_o + 2 n_t)`` whose first row is
    zero past ``n_o``, and ``per_card`` scratch of 52. (Rows are passed with their
    index, not as views, which would cost reference counting.)
    """
    n_t = out.shape[1]
    n_o = reach.shape[1]
    for o in range(n_o):
        codes[0, o] = reach[d, o]
    for c in range(52):
        per_card[c] = 0.0
    acc = 0.0
    # Unsigned codes and cards: numba then indexes without the negative-index fix-up,
    # which was a third of this loop's instructions.
    for i in range(seq.shape[1]):
        x = seq[row, i]
        r = codes[0, x]
        c1 = card_a[x]
        c2 = card_b[x]
        acc += r
        # The sums kept in registers: read back from memory, the first one waited for
        # the store of the second (the compiler cannot know that c1 != c2).
        p1 = per_card[c1] + r
        per_card[c1] = p1
        p2 = per_card[c2] + r
        per_card[c2] = p2
        codes[1, x] = acc - p1 - p2
    # acc and per_card now hold the totals: the compatible mass of each hand.
    for h in range(n_t):
        c1 = card_a[n_o + h]
        c2 = card_b[n_o + h]
        s = same_t[h]
        # The opponent's copy of this very hand was subtracted twice and added once.
        back = reach[d, s] if s >= 0 else 0.0
        compat = acc - per_card[c1] - per_card[c2] + back
        beaten = codes[1, n_o + h]
        at_most = codes[1, n_o + n_t + h] + back
        out[d, h] = win * beaten + lose * (compat - at_most) + tie * (at_most - beaten)


@njit
def fold_sweep(
    payoff: float, reach: np.ndarray, d: int, same_t: np.ndarray, card_a: np.ndarray,
    card_b: np.ndarray, out: np.ndarray, per_card: np.ndarray,
) -> None:
    """``payoff`` times the opponent reach ``reach[d]`` compatible with each traverser
    hand, into ``out[d]``.

    The sums of :func:`checkraise.solvers.spot._kernels.fold_values` in the same order,
    with the unsigned code cards of :func:`sweep_tables` (``per_card`` scratch of 52).
    """
    n_t = out.shape[1]
    n_o = reach.shape[1]
    for c in range(52):
        per_card[c] = 0.0
    total = 0.0
    for o in range(n_o):
        r = reach[d, o]
        total += r
        per_card[card_a[o]] += r
        per_card[card_b[o]] += r
    for h in range(n_t):
        s = same_t[h]
        compat = total - per_card[card_a[n_o + h]] - per_card[card_b[n_o + h]]
        if s >= 0:
            compat += reach[d, s]
        out[d, h] = payoff * compat
