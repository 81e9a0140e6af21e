"""numba kernels of Deep CFR on a game listed as a tree: traversals and the reservoir.

One traversal is external sampling (Lanctot et al. 2009) as Deep CFR uses it (Brown,
Lerer, Gross & Sandholm 2019, Algorithm 2): at the traverser's decisions every
legal action is explored and the sampled instantaneous regrets ``v(a) - v`` are
offered to his advantage reservoir; at the other player's decisions his current
strategy is offered to the strategy reservoir and one action is drawn from it;
chance draws one outcome. The walk is iterative (an explicit stack): numba cannot
cache recursive functions.

The strategies come in as a table, one row per information set: during one
player's traversals of an iteration the networks do not change, so the caller
evaluates them once on every information set (exactly what a per-node forward pass
would give). Samples store the information set's row number, not its tensor: the
tensor table is built once and gathered at training time.

Reservoir sampling (Vitter 1985, Algorithm R): the ``c``-th item offered (from 0)
goes to slot ``c`` while the buffer has room, else to a uniform slot of ``0..c``,
kept only if that slot is below the capacity; so every item offered so far is in
the buffer with the same probability ``capacity / (c + 1)``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit
from checkraise.games.tree import CHANCE_KIND, TERMINAL_KIND
from checkraise.solvers._mccfr_kernels import splitmix

__all__ = ["reservoir_slot", "run_traversals"]

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
U64 = npt.NDArray[np.uint64]

_SCALE = 1.0 / 9007199254740992.0  # 2**-53: splitmix's 53-bit words to [0, 1)


@njit
def _uniform(rng: U64) -> float:
    return splitmix(rng, 0) * _SCALE


@njit
def reservoir_slot(count: I64, capacity: int, rng: U64) -> int:
    """The slot for the next item offered to a reservoir (-1: not kept); counts it."""
    c = count[0]
    count[0] = c + 1
    if c < capacity:
        return int(c)
    j = int(_uniform(rng) * (c + 1))
    return j if j < capacity else -1


@njit
def _sample_row(row: F64, start: int, n: int, action: I64, rng: U64) -> int:
    """A child of ``start .. start + n - 1`` drawn with the probabilities ``row[action]``."""
    u = _uniform(rng)
    acc = 0.0
    for j in range(n):
        acc += row[action[start + j]]
        if u < acc:
            return start + j
    # Rounding left the sum a hair under u: take the last action with any weight.
    for j in range(n - 1, -1, -1):
        if row[action[start + j]] > 0.0:
            return start + j
    return start + n - 1


@njit
def run_traversals(
    count: int,
    traverser: int,
    iteration: int,
    kind: I64,
    player: I64,
    infoset: I64,
    child_start: I64,
    child_count: I64,
    action: I64,
    prob: F64,
    returns: F64,
    strategy: F64,
    max_depth: int,
    rng: U64,
    adv_info: I32,
    adv_target: F32,
    adv_iter: F32,
    adv_count: I64,
    strat_info: I32,
    strat_target: F32,
    strat_iter: F32,
    strat_count: I64,
) -> None:
    """``count`` external-sampling traversals for ``traverser`` at ``iteration``.

    ``strategy[i]`` is the current strategy at information set ``i`` (zero on illegal
    actions). The advantage samples go to ``adv_*`` (the traverser's reservoir), the
    strategy samples to ``strat_*``; ``*_count`` is each reservoir's offer counter.
    """
    num_actions = strategy.shape[1]
    adv_cap = adv_info.shape[0]
    strat_cap = strat_info.shape[0]
    stack_node = np.zeros(max_depth + 1, dtype=np.int64)
    stack_next = np.zeros(max_depth + 1, dtype=np.int64)
    values = np.zeros((max_depth + 1, num_actions), dtype=np.float64)
    for _ in range(count):
        depth = 0
        stack_node[0] = 0
        stack_next[0] = 0
        ret = 0.0
        while depth >= 0:
            node = stack_node[depth]
            k = kind[node]
            start = child_start[node]
            n = child_count[node]
            if k == TERMINAL_KIND:
                ret = returns[node, traverser]
                depth -= 1
                continue
            if k == CHANCE_KIND or player[node] != traverser:
                if stack_next[depth] == 1:
                    depth -= 1  # the child's value passes through
                    continue
                stack_next[depth] = 1
                if k == CHANCE_KIND:
                    u = _uniform(rng)
                    child = start + n - 1
                    acc = 0.0
                    for j in range(n):
                        acc += prob[start + j]
                        if u < acc:
                            child = start + j
                            break
                else:
                    info = infoset[node]
                    slot = reservoir_slot(strat_count, strat_cap, rng)
                    if slot >= 0:
                        strat_info[slot] = info
                        strat_iter[slot] = iteration
                        for a in range(num_actions):
                            strat_target[slot, a] = strategy[info, a]
                    child = _sample_row(strategy[info], start, n, action, rng)
                depth += 1
                stack_node[depth] = child
                stack_next[depth] = 0
                continue
            # The traverser's decision: explore every action, then offer the regrets.
            j = stack_next[depth]
            if j > 0:
                values[depth, j - 1] = ret
            if j < n:
                stack_next[depth] = j + 1
                depth += 1
                stack_node[depth] = start + j
                stack_next[depth] = 0
                continue
            info = infoset[node]
            value = 0.0
            for c in range(n):
                value += strategy[info, action[start + c]] * values[depth, c]
            slot = reservoir_slot(adv_count, adv_cap, rng)
            if slot >= 0:
                adv_info[slot] = info
                adv_iter[slot] = iteration
                for a in range(num_actions):
                    adv_target[slot, a] = 0.0
                for c in range(n):
                    adv_target[slot, action[start + c]] = values[depth, c] - value
            ret = value
            depth -= 1
