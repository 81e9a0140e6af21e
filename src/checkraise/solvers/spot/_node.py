"""Per-node vector kernels of the spot solver: strategies, node values, updates.

Each works on one node's rows for all of one player's hands at once (the
action-major blocks of the regret and strategy-sum buffers, and the walk's
per-depth work rows), as the small vector helpers of postflop-solver do. They take
few arrays per call, because numba counts a reference to each argument
atomically, and index with unsigned integers (:data:`U`), because numba compiles
a negative-index fix-up into every signed index, which kept these loops scalar
(about three times slower).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from checkraise._numba import njit
from checkraise.solvers._public_kernels import discount_regret

Pair = tuple[Any, ...]
"""A per-player pair of arrays (numba UniTuple)."""

_U = np.uint64
"""Hot loops index with unsigned integers (all of them: numba types a signed and an
unsigned integer's sum as a float), so that no negative-index fix-up is compiled in."""


@njit
def lock_of(starts: np.ndarray, block: int) -> int:
    if starts.shape[0] == 0:
        return -1
    i = int(np.searchsorted(starts, block))
    if i < starts.shape[0] and starts[i] == block:
        return i
    return -1


@njit
def strategy(
    regret: np.ndarray, cum: np.ndarray, block: int, count: int, hands: int, average: bool,
    lock_starts: np.ndarray, lock_offsets: np.ndarray, lock_mask: np.ndarray,
    lock_values: np.ndarray, out: np.ndarray,
) -> None:
    """The current (regret matching) or average strategy at one node, ``[action, hand]``.

    A locked hand plays its locked strategy whatever the regrets or sums say.
    """
    out3 = out.reshape((1, count, hands))
    row_strategy(cum if average else regret, block, count, hands, out3, 0, np.empty(hands))
    lock_overlay(0, block, count, hands, (lock_starts, lock_starts),
                  (lock_offsets, lock_offsets), (lock_mask, lock_mask),
                  (lock_values, lock_values), out3, 0)


@njit
def zero_row(rows: np.ndarray, d: int, n: int) -> None:
    ud = _U(d)
    for h in range(_U(n)):
        rows[ud, h] = 0.0


@njit
def row_strategy(
    src: np.ndarray, block: int, count: int, hands: int, out: np.ndarray, d: int,
    total: np.ndarray,
) -> None:
    # Few arrays per call (numba counts a reference to each argument, atomically), so
    # the locks are laid over by a call of their own, only when there are any.
    # Action-major loops over contiguous hands, so that they vectorise; ``total`` is
    # scratch, as an allocation per node cost more than the loops on small nodes.
    # Unsigned indices: numba then leaves out its negative-index fix-up, which kept
    # these loops scalar (three times slower).
    ub = _U(block)
    un = _U(hands)
    ud = _U(d)
    for h in range(un):
        total[h] = 0.0
    for i in range(_U(count)):
        row = ub + i * un
        for h in range(un):
            v = src[row + h]
            if v > 0.0:
                total[h] += v
    for h in range(un):
        total[h] = 1.0 / total[h] if total[h] > 0.0 else 0.0
    uniform = 1.0 / count
    for i in range(_U(count)):
        row = ub + i * un
        for h in range(un):
            v = src[row + h]
            if total[h] == 0.0:
                out[ud, i, h] = uniform
            else:
                out[ud, i, h] = v * total[h] if v > 0.0 else 0.0


@njit
def lock_overlay(
    actor: int, block: int, count: int, hands: int, lock_starts: Pair, lock_offsets: Pair,
    lock_mask: Pair, lock_values: Pair, out: np.ndarray, d: int,
) -> None:
    """Locked hands of the node at ``block`` play their locked strategy in ``out[d]``."""
    lock = lock_of(lock_starts[actor], block)
    if lock >= 0:
        first = lock_offsets[actor][lock]
        mask = lock_mask[actor]
        values = lock_values[actor]
        for h in range(hands):
            if mask[lock * hands + h]:
                for i in range(count):
                    out[d, i, h] = values[first + i * hands + h]


@njit
def best_values(d: int, count: int, n_t: int, child_values: np.ndarray,
                 value: np.ndarray) -> None:
    """The traverser's best child value per hand (a best response's node value)."""
    ud = _U(d)
    un = _U(n_t)
    for h in range(un):
        value[ud, h] = child_values[ud, 0, h]
    for i in range(_U(1), _U(count)):
        for h in range(un):
            value[ud, h] = max(value[ud, h], child_values[ud, i, h])


@njit
def locked_values(
    d: int, block: int, count: int, n_t: int, lock_starts: np.ndarray, lock_mask: np.ndarray,
    sigma: np.ndarray, child_values: np.ndarray, value: np.ndarray,
) -> None:
    """In a best response, the traverser's locked hands keep their locked strategy's value."""
    lock = lock_of(lock_starts, block)
    if lock >= 0:
        for h in range(n_t):
            if lock_mask[lock * n_t + h]:
                total = 0.0
                for i in range(count):
                    total += sigma[d, i, h] * child_values[d, i, h]
                value[d, h] = total


@njit
def expected_values(d: int, count: int, n_t: int, sigma: np.ndarray,
                     child_values: np.ndarray, value: np.ndarray) -> None:
    """The traverser's node value per hand under his strategy ``sigma[d]``."""
    ud = _U(d)
    un = _U(n_t)
    for h in range(un):
        value[ud, h] = sigma[ud, 0, h] * child_values[ud, 0, h]
    for i in range(_U(1), _U(count)):
        for h in range(un):
            value[ud, h] += sigma[ud, i, h] * child_values[ud, i, h]


@njit
def update_regrets(
    d: int, block: int, count: int, n_t: int, child_values: np.ndarray, value: np.ndarray,
    r: np.ndarray, clip: bool, positive: float, negative: float,
) -> None:
    """Add each action's regret at the node to ``r`` and discount."""
    ud = _U(d)
    un = _U(n_t)
    ub = _U(block)
    for i in range(_U(count)):
        row = ub + i * un
        for h in range(un):
            r[row + h] = discount_regret(
                r[row + h] + (child_values[ud, i, h] - value[ud, h]), clip, positive, negative)


@njit
def update_sums(d: int, block: int, count: int, n_t: int, rt: np.ndarray, sigma: np.ndarray,
                 s: np.ndarray, weight: float, skip: bool) -> None:
    """Add the traverser's reach-weighted strategy at the node to the sums ``s``.

    With ``skip``, where none of his hands gets, the sums would only gain zeros: they
    are left alone, which saves reading and writing them (the walk is memory-bound).
    """
    ud = _U(d)
    un = _U(n_t)
    if skip:
        for h in range(un):
            if rt[ud, h] != 0.0:
                break
        else:
            return
    ub = _U(block)
    for i in range(_U(count)):
        row = ub + i * un
        for h in range(un):
            s[row + h] += weight * rt[ud, h] * sigma[ud, i, h]
