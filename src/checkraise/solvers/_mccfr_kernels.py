"""numba kernels of the blueprint trainer: external-sampling MCCFR on abstract HUNL.

One traversal (Lanctot et al. 2009, external sampling; the survey's
``traverse_mccfr``) samples a whole deal first (both hands and the five board
cards: chance is public or private, and sampling it up front is the same as
sampling it where it falls), reads both positions' buckets per street, and walks
the betting tree with an explicit stack (numba cannot cache recursive functions):
at the traverser's nodes every action is explored, at the opponent's one action is
sampled from the current strategy and that strategy is added to the average.

Tables are flat: the information set (decision ``d``, bucket ``b``) owns
``offset[d] + b * stride[d] .. + num_children[d]`` (the layout is
:class:`checkraise.solvers.blueprint.Layout`'s). Regrets are ``int32``
with a floor (Pluribus, Brown & Sandholm 2019): a regret never falls below
``floor``, so an action can come back. Negative-regret pruning skips, on pruned
traversals, the traverser's actions whose regret is below ``prune_below`` unless
the node is on the river or the action ends the hand.

Workers (``prange``) each run their iterations against the shared tables plus
their own delta tables; :func:`merge` adds the deltas in worker order, so a run is
the same for a given seed and number of workers, whatever the thread timing.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit, parallel_njit, prange
from checkraise.games._holdem_kernels import deal_buckets

__all__ = [
    "average_strategy",
    "merge",
    "normalise_rows",
    "positive_regret_sum",
    "run_workers",
    "splitmix",
]

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F32 = npt.NDArray[np.float32]
U64 = npt.NDArray[np.uint64]

DECISION = 0
FOLD = 1
SHOWDOWN = 2
MAX_DEPTH = 96
INT32_MAX = 2147483647


@njit
def splitmix(state: U64, w: int) -> int:
    """Next 64-bit word of worker ``w``'s splitmix64 stream (``state[w]`` advances)."""
    z = state[w] + np.uint64(0x9E3779B97F4A7C15)
    state[w] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return int((z ^ (z >> np.uint64(31))) >> np.uint64(11))  # 53 bits


@njit
def _clamped(r: np.int64, floor: int) -> np.int64:
    """A regret held within ``[floor, int32 max]`` (the floor lets an action come back)."""
    if r < floor:
        return np.int64(floor)
    if r > INT32_MAX:
        return np.int64(INT32_MAX)
    return r


@njit
def _uniform(state: U64, w: int) -> float:
    return splitmix(state, w) * (1.0 / 9007199254740992.0)


@njit
def _live_deal(
    state: U64,
    w: int,
    deck: npt.NDArray[np.uint8],
    buckets: I64,
    preflop: npt.NDArray[np.uint16],
    flop: npt.NDArray[np.uint16],
    turn: npt.NDArray[np.uint16],
    river_thresholds: I64,
    coarse: I64,
    recall: bool,
    nb: I64,
    river_table: npt.NDArray[np.uint8],
) -> int:
    """Shuffle the first 9 cards of ``deck`` into place and bucket them."""
    for i in range(9):
        j = i + splitmix(state, w) % (52 - i)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    return deal_buckets(
        deck[:9], buckets, preflop, flop, turn, river_thresholds, coarse, recall, nb, river_table
    )


@njit
def _strategy(
    reg: I32, dreg: I32, use_delta: bool, base: int, n: int, out: npt.NDArray[np.float64]
) -> None:
    """Regret matching at one information set (uniform when no regret is positive)."""
    total = 0.0
    for a in range(n):
        r = np.int64(reg[base + a])
        if use_delta:
            r += dreg[base + a]
        x = float(r) if r > 0 else 0.0
        out[a] = x
        total += x
    if total > 0.0:
        for a in range(n):
            out[a] /= total
    else:
        for a in range(n):
            out[a] = 1.0 / n


@njit
def _traverse(
    trav: int,
    buckets: I64,
    winner: int,
    kind: I64,
    player: I64,
    street: I64,
    committed: I64,
    first_child: I64,
    num_children: I64,
    offset: I64,
    stride: I64,
    reg: I32,
    dreg: I32,
    cum: F32,
    dcum: F32,
    use_delta: bool,
    prune: bool,
    prune_below: int,
    floor: int,
    state: U64,
    w: int,
    st_node: I64,
    st_next: I64,
    st_vals: npt.NDArray[np.float64],
    st_sig: npt.NDArray[np.float64],
    st_skip: npt.NDArray[np.bool_],
    sig: npt.NDArray[np.float64],
    log: I64,
    log_len: I64,
) -> int:
    """One external-sampling traversal for position ``trav``; returns the number of nodes met.

    With ``use_delta`` every row written is logged as ``base * 16 + actions`` in ``log``
    (``log_len[0]`` entries; past its capacity ``log_len[0]`` becomes capacity + 1 and
    the merge falls back to sweeping the whole table).
    """
    depth = 0
    st_node[0] = 0
    st_next[0] = -1
    met = 0
    value = 0.0
    while depth >= 0:
        n = st_node[depth]
        if st_next[depth] == -1:
            met += 1
            k = kind[n]
            if k != DECISION:
                if k == FOLD:
                    folder = player[n]
                    value = float(-committed[n, trav] if folder == trav else committed[n, 1 - trav])
                elif winner == 2:
                    value = 0.0
                else:
                    value = float(committed[n, 1 - trav] if winner == trav else -committed[n, trav])
                depth -= 1
                if depth >= 0:
                    st_vals[depth, st_next[depth] - 1] = value
                continue
            p = player[n]
            na = num_children[n]
            base = offset[n] + buckets[p, street[n]] * stride[n]
            if p != trav:
                _strategy(reg, dreg, use_delta, base, na, sig)
                u = _uniform(state, w)
                chosen = na - 1
                acc = 0.0
                for a in range(na):
                    acc += sig[a]
                    if u < acc:
                        chosen = a
                        break
                for a in range(na):
                    if use_delta:
                        dcum[base + a] += np.float32(sig[a])
                    else:
                        cum[base + a] += np.float32(sig[a])
                if use_delta:
                    _log_row(log, log_len, base, na)
                st_node[depth] = first_child[n] + chosen  # a tail call: the frame is reused
                continue
            _strategy(reg, dreg, use_delta, base, na, sig)
            for a in range(na):
                st_sig[depth, a] = sig[a]
                skip = False
                if prune and street[n] < 3 and kind[first_child[n] + a] == DECISION:
                    r = np.int64(reg[base + a])
                    if use_delta:
                        r += dreg[base + a]
                    skip = bool(r < prune_below)
                st_skip[depth, a] = skip
            st_next[depth] = 0
        i = st_next[depth]
        na = num_children[n]
        while i < na and st_skip[depth, i]:
            i += 1
        if i < na:
            st_next[depth] = i + 1
            depth += 1
            st_node[depth] = first_child[n] + i
            st_next[depth] = -1
            continue
        # every explored child is back: value and regret update
        p = player[n]
        base = offset[n] + buckets[p, street[n]] * stride[n]
        v = 0.0
        for a in range(na):
            if not st_skip[depth, a]:
                v += st_sig[depth, a] * st_vals[depth, a]
        for a in range(na):
            if st_skip[depth, a]:
                continue
            d = np.int64(round(st_vals[depth, a] - v))
            if use_delta:
                new = _clamped(np.int64(reg[base + a]) + dreg[base + a] + d, floor)
                dreg[base + a] = np.int32(new - reg[base + a])
            else:
                reg[base + a] = np.int32(_clamped(np.int64(reg[base + a]) + d, floor))
        if use_delta:
            _log_row(log, log_len, base, na)
        value = v
        depth -= 1
        if depth >= 0:
            st_vals[depth, st_next[depth] - 1] = value
    return met


@njit
def _log_row(log: I64, log_len: I64, base: int, na: int) -> None:
    k = log_len[0]
    if k < log.shape[0]:
        log[k] = base * 16 + na
        log_len[0] = k + 1
    else:
        log_len[0] = log.shape[0] + 1


@njit
def _pool_deal(state: U64, w: int, pool_buckets: I64, pool_winner: I64, buckets: I64) -> int:
    i = splitmix(state, w) % pool_winner.shape[0]
    for p in range(2):
        for s in range(4):
            buckets[p, s] = pool_buckets[i, p, s]
    return int(pool_winner[i])


@parallel_njit
def run_workers(
    counts: I64,
    state: U64,
    kind: I64,
    player: I64,
    street: I64,
    committed: I64,
    first_child: I64,
    num_children: I64,
    offset: I64,
    stride: I64,
    reg: I32,
    dreg: I32,
    cum: F32,
    dcum: F32,
    prune_from: int,
    prune_prob: float,
    prune_below: int,
    floor: int,
    preflop: npt.NDArray[np.uint16],
    flop: npt.NDArray[np.uint16],
    turn: npt.NDArray[np.uint16],
    river_thresholds: I64,
    coarse: I64,
    recall: bool,
    nb: I64,
    river_table: npt.NDArray[np.uint8],
    pool_buckets: I64,
    pool_winner: I64,
    first_iteration: int,
    log: I64,
    log_len: I64,
) -> int:
    """Run ``counts[w]`` iterations on worker ``w``; returns the nodes met.

    One iteration samples one deal and runs one traversal per position on it (an
    unbiased sample for each; sharing it halves the cost of dealing and bucketing).
    With one worker the tables are updated in place; with more, worker ``w`` writes
    ``dreg[w]`` and ``dcum[w]`` and logs the rows it wrote in ``log[w]`` (merged
    afterwards by :func:`merge`, which clears the logs). Pruning is
    tried from iteration ``prune_from`` on, on a ``prune_prob`` share of traversals.
    """
    workers = counts.shape[0]
    met = np.zeros(workers, dtype=np.int64)
    use_delta = workers > 1
    for w in prange(workers):
        deck = np.arange(52).astype(np.uint8)
        buckets = np.zeros((2, 4), dtype=np.int64)
        st_node = np.zeros(MAX_DEPTH, dtype=np.int64)
        st_next = np.zeros(MAX_DEPTH, dtype=np.int64)
        width = max(1, int(num_children.max()))
        st_vals = np.zeros((MAX_DEPTH, width))
        st_sig = np.zeros((MAX_DEPTH, width))
        st_skip = np.zeros((MAX_DEPTH, width), dtype=np.bool_)
        sig = np.zeros(width)
        wr = dreg[w] if use_delta else dreg[0]
        wc = dcum[w] if use_delta else dcum[0]
        m = 0
        for it in range(counts[w]):
            if pool_winner.shape[0] > 0:
                winner = _pool_deal(state, w, pool_buckets, pool_winner, buckets)
            else:
                winner = _live_deal(
                    state,
                    w,
                    deck,
                    buckets,
                    preflop,
                    flop,
                    turn,
                    river_thresholds,
                    coarse,
                    recall,
                    nb,
                    river_table,
                )
            for trav in range(2):
                prune = first_iteration + it >= prune_from and _uniform(state, w) < prune_prob
                m += _traverse(
                    trav,
                    buckets,
                    winner,
                    kind,
                    player,
                    street,
                    committed,
                    first_child,
                    num_children,
                    offset,
                    stride,
                    reg,
                    wr,
                    cum,
                    wc,
                    use_delta,
                    prune,
                    prune_below,
                    floor,
                    state,
                    w,
                    st_node,
                    st_next,
                    st_vals,
                    st_sig,
                    st_skip,
                    sig,
                    log[w],
                    log_len[w : w + 1],
                )
        met[w] = m
    return int(met.sum())


@parallel_njit
def _merge_all(reg: I32, dreg: I32, cum: F32, dcum: F32, floor: int) -> None:
    workers = dreg.shape[0]
    n = reg.shape[0]
    chunk = 1 << 16
    for c in prange((n + chunk - 1) // chunk):
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            _merge_entry(reg, dreg, cum, dcum, floor, workers, i)


@njit
def _merge_entry(
    reg: I32, dreg: I32, cum: F32, dcum: F32, floor: int, workers: int, i: int
) -> None:
    r = np.int64(reg[i])
    x = np.float64(cum[i])
    for w in range(workers):
        r += dreg[w, i]
        x += dcum[w, i]
        dreg[w, i] = 0
        dcum[w, i] = 0.0
    reg[i] = np.int32(_clamped(r, floor))
    cum[i] = np.float32(x)


@njit
def merge(reg: I32, dreg: I32, cum: F32, dcum: F32, floor: int, log: I64, log_len: I64) -> None:
    """Add every worker's deltas to the tables and clear them and the logs.

    Each entry becomes its value plus the workers' deltas in worker order, floored,
    whichever way the entries are visited: along the logged rows when every log is
    complete (a batch writes a small part of the tables), else over the whole table.
    """
    workers = dreg.shape[0]
    complete = True
    for w in range(workers):
        if log_len[w] > log.shape[1]:
            complete = False
    if not complete:
        _merge_all(reg, dreg, cum, dcum, floor)
    else:
        for w in range(workers):
            for k in range(log_len[w]):
                base = log[w, k] // 16
                for a in range(log[w, k] % 16):
                    _merge_entry(reg, dreg, cum, dcum, floor, workers, base + a)
    for w in range(workers):
        log_len[w] = 0


@njit
def average_strategy(
    cum: F32, reg: I32, offset: I64, stride: I64, num_children: I64, sizes: I64, out: F32
) -> None:
    """Normalised average strategy; an information set never averaged falls back to its
    current (regret-matching) strategy, and to uniform if that is empty too."""
    sig = np.zeros(max(1, int(num_children.max())))
    for d in range(offset.shape[0]):
        na = num_children[d]
        for b in range(sizes[d]):
            base = offset[d] + b * stride[d]
            total = 0.0
            for a in range(na):
                total += cum[base + a]
            if total > 0.0:
                for a in range(na):
                    out[base + a] = np.float32(cum[base + a] / total)
            else:
                _strategy(reg, reg, False, base, na, sig)
                for a in range(na):
                    out[base + a] = np.float32(sig[a])


@njit
def normalise_rows(strategy: F32, offset: I64, stride: I64, num_children: I64, sizes: I64) -> None:
    """Scale every information set's row to sum 1 (uniform where it sums to 0)."""
    for d in range(offset.shape[0]):
        na = num_children[d]
        for b in range(sizes[d]):
            base = offset[d] + b * stride[d]
            total = 0.0
            for a in range(na):
                total += strategy[base + a]
            for a in range(na):
                strategy[base + a] = np.float32(
                    strategy[base + a] / total if total > 0 else 1.0 / na
                )


@njit
def positive_regret_sum(reg: I32, offset: I64, stride: I64, num_children: I64, sizes: I64) -> float:
    """Sum over information sets of the largest positive regret."""
    total = 0.0
    for d in range(offset.shape[0]):
        na = num_children[d]
        for b in range(sizes[d]):
            base = offset[d] + b * stride[d]
            best = 0
            for a in range(na):
                if reg[base + a] > best:
                    best = reg[base + a]
            total += best
    return total
