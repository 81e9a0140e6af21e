"""numba kernels of the tabular solvers, over a :class:`~checkraise.games.tree.GameTree`.

Arrays are the tree's own (``kind``, ``player``, ``infoset``, ``parent``,
``child_start``, ``child_count``, ``action``, ``prob``, ``returns``) and the solver's
tables indexed ``[infoset, action]``. The tree is breadth-first, so a forward sweep
over node indices sees parents before children and a backward sweep sees children
before parents. Sampling kernels take a ``numpy.random.Generator`` so results are
reproducible from the caller's seed.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
B = npt.NDArray[np.bool_]

_TERMINAL = 0
_CHANCE = 1


@njit
def reach_sweep(
    kind: I64,
    player: I64,
    infoset: I64,
    parent: I64,
    action: I64,
    prob: F64,
    policy: F64,
    reach: F64,
) -> None:
    """Fill ``reach[node, j]``: player j's (chance's, for the last column) reach of node."""
    columns = reach.shape[1]
    chance_col = columns - 1
    for j in range(columns):
        reach[0, j] = 1.0
    for node in range(1, kind.shape[0]):
        up = parent[node]
        for j in range(columns):
            reach[node, j] = reach[up, j]
        if kind[up] == _CHANCE:
            reach[node, chance_col] *= prob[node]
        else:
            reach[node, player[up]] *= policy[infoset[up], action[node]]


@njit
def cfr_sweep(
    kind: I64,
    player: I64,
    infoset: I64,
    parent: I64,
    child_start: I64,
    child_count: I64,
    action: I64,
    prob: F64,
    returns: F64,
    policy: F64,
    reach: F64,
    values: F64,
    regrets: F64,
    cum_policy: F64,
    traverser: int,
    avg_weight: float,
) -> None:
    """One full-width CFR pass: accumulate regrets and average-policy mass.

    ``traverser < 0`` updates every player (simultaneous updates) from the same
    values; otherwise only ``traverser``'s information sets are updated.
    """
    reach_sweep(kind, player, infoset, parent, action, prob, policy, reach)
    players = returns.shape[1]
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] == _TERMINAL:
            for j in range(players):
                values[node, j] = returns[node, j]
            continue
        for j in range(players):
            values[node, j] = 0.0
        start = child_start[node]
        for c in range(start, start + child_count[node]):
            w = prob[c] if kind[node] == _CHANCE else policy[infoset[node], action[c]]
            if w != 0.0:
                for j in range(players):
                    values[node, j] += w * values[c, j]
    for node in range(kind.shape[0]):
        if kind[node] == _TERMINAL or kind[node] == _CHANCE:
            continue
        actor = player[node]
        if traverser >= 0 and actor != traverser:
            continue
        counterfactual = 1.0
        for j in range(reach.shape[1]):
            if j != actor:
                counterfactual *= reach[node, j]
        own = reach[node, actor]
        info = infoset[node]
        start = child_start[node]
        for c in range(start, start + child_count[node]):
            a = action[c]
            regrets[info, a] += counterfactual * (values[c, actor] - values[node, actor])
            cum_policy[info, a] += avg_weight * own * policy[info, a]


@njit
def finish_regrets(
    regrets: F64,
    legal: B,
    infoset_player: I64,
    target: int,
    clip: bool,
    positive_factor: float,
    negative_factor: float,
) -> None:
    """Clip (regret matching+) or discount the cumulative regrets of ``target`` (all if < 0)."""
    for info in range(regrets.shape[0]):
        if target >= 0 and infoset_player[info] != target:
            continue
        for a in range(regrets.shape[1]):
            if not legal[info, a]:
                continue
            r = regrets[info, a]
            if r > 0.0:
                regrets[info, a] = r * positive_factor
            elif clip:
                regrets[info, a] = 0.0
            else:
                regrets[info, a] = r * negative_factor


@njit
def match_row(
    regrets: F64,
    legal: B,
    policy: F64,
    info: int,
) -> None:
    """Regret matching at one information set: positive regrets normalised, else uniform."""
    total = 0.0
    count = 0
    for a in range(regrets.shape[1]):
        if legal[info, a]:
            count += 1
            if regrets[info, a] > 0.0:
                total += regrets[info, a]
    for a in range(regrets.shape[1]):
        if not legal[info, a]:
            policy[info, a] = 0.0
        elif total > 0.0:
            policy[info, a] = max(regrets[info, a], 0.0) / total
        else:
            policy[info, a] = 1.0 / count


@njit
def regret_matching(
    regrets: F64,
    legal: B,
    infoset_player: I64,
    target: int,
    policy: F64,
) -> None:
    """Regret matching at every information set of ``target`` (all if < 0)."""
    for info in range(regrets.shape[0]):
        if target < 0 or infoset_player[info] == target:
            match_row(regrets, legal, policy, info)


@njit
def _sample(
    weights: F64,
    start: int,
    count: int,
    total: float,
    rng: np.random.Generator,
) -> int:
    """Index in ``start .. start+count-1`` drawn with probability ``weights[i] / total``."""
    u = rng.random() * total
    last = start
    for i in range(start, start + count):
        if weights[i] > 0.0:
            last = i
            u -= weights[i]
            if u < 0.0:
                return i
    return last


@njit
def chance_sampled_sweep(
    kind: I64,
    player: I64,
    infoset: I64,
    child_start: I64,
    child_count: I64,
    action: I64,
    prob: F64,
    returns: F64,
    policy: F64,
    reach: F64,
    values: F64,
    regrets: F64,
    cum_policy: F64,
    stack: I64,
    order: I64,
    chosen: I64,
    traverser: int,
    avg_weight: float,
    rng: np.random.Generator,
) -> None:
    """Chance-sampled CFR pass for ``traverser``: one outcome per chance node, all actions.

    Chance is sampled with its own probabilities, so the importance weights cancel
    and counterfactual reach is the product of the other players' reach only.
    """
    players = returns.shape[1]
    for j in range(players):
        reach[0, j] = 1.0
    top = 1
    stack[0] = 0
    visited = 0
    while top > 0:
        top -= 1
        node = stack[top]
        order[visited] = node
        visited += 1
        if kind[node] == _TERMINAL:
            continue
        start = child_start[node]
        count = child_count[node]
        if kind[node] == _CHANCE:
            c = _sample(prob, start, count, 1.0, rng)
            chosen[node] = c
            for j in range(players):
                reach[c, j] = reach[node, j]
            stack[top] = c
            top += 1
            continue
        info = infoset[node]
        actor = player[node]
        for c in range(start, start + count):
            for j in range(players):
                reach[c, j] = reach[node, j]
            reach[c, actor] *= policy[info, action[c]]
            stack[top] = c
            top += 1
    for k in range(visited - 1, -1, -1):
        node = order[k]
        if kind[node] == _TERMINAL:
            values[node] = returns[node, traverser]
            continue
        if kind[node] == _CHANCE:
            values[node] = values[chosen[node]]
            continue
        info = infoset[node]
        start = child_start[node]
        total = 0.0
        for c in range(start, start + child_count[node]):
            total += policy[info, action[c]] * values[c]
        values[node] = total
        if player[node] != traverser:
            continue
        counterfactual = 1.0
        for j in range(players):
            if j != traverser:
                counterfactual *= reach[node, j]
        own = reach[node, traverser]
        for c in range(start, start + child_count[node]):
            a = action[c]
            regrets[info, a] += counterfactual * (values[c] - total)
            cum_policy[info, a] += avg_weight * own * policy[info, a]


@njit
def external_sampling_sweep(
    kind: I64,
    player: I64,
    infoset: I64,
    child_start: I64,
    child_count: I64,
    action: I64,
    prob: F64,
    returns: F64,
    legal: B,
    policy: F64,
    values: F64,
    regrets: F64,
    cum_policy: F64,
    stack: I64,
    order: I64,
    chosen: I64,
    traverser: int,
    rng: np.random.Generator,
) -> None:
    """External-sampling MCCFR pass for ``traverser`` (Lanctot et al. 2009).

    Chance and the other players are sampled (one action each, from their own
    probabilities), the traverser's actions are all explored; sampled counterfactual
    values are unbiased with importance weight 1. The other players' average policy
    gets their current policy at each visited information set ("simple" averaging).
    """
    top = 1
    stack[0] = 0
    visited = 0
    while top > 0:
        top -= 1
        node = stack[top]
        order[visited] = node
        visited += 1
        if kind[node] == _TERMINAL:
            continue
        start = child_start[node]
        count = child_count[node]
        if kind[node] == _CHANCE:
            c = _sample(prob, start, count, 1.0, rng)
        elif player[node] == traverser:
            for c in range(start, start + count):
                stack[top] = c
                top += 1
            continue
        else:
            info = infoset[node]
            u = rng.random()
            c = start + count - 1
            for i in range(start, start + count):
                u -= policy[info, action[i]]
                if u < 0.0 and policy[info, action[i]] > 0.0:
                    c = i
                    break
            for a in range(policy.shape[1]):
                cum_policy[info, a] += policy[info, a]
        chosen[node] = c
        stack[top] = c
        top += 1
    for k in range(visited - 1, -1, -1):
        node = order[k]
        if kind[node] == _TERMINAL:
            values[node] = returns[node, traverser]
        elif kind[node] == _CHANCE or player[node] != traverser:
            values[node] = values[chosen[node]]
        else:
            info = infoset[node]
            start = child_start[node]
            total = 0.0
            for c in range(start, start + child_count[node]):
                total += policy[info, action[c]] * values[c]
            values[node] = total
            for c in range(start, start + child_count[node]):
                regrets[info, action[c]] += values[c] - total
    for k in range(visited):
        node = order[k]
        if kind[node] != _TERMINAL and kind[node] != _CHANCE and player[node] == traverser:
            match_row(regrets, legal, policy, infoset[node])


@njit
def outcome_sampling_sweep(
    kind: I64,
    player: I64,
    infoset: I64,
    child_start: I64,
    child_count: I64,
    action: I64,
    prob: F64,
    returns: F64,
    legal: B,
    policy: F64,
    regrets: F64,
    cum_policy: F64,
    path: I64,
    path_child: I64,
    path_others: F64,
    reach: F64,
    traverser: int,
    epsilon: float,
    rng: np.random.Generator,
) -> None:
    """Outcome-sampling MCCFR pass for ``traverser`` (Lanctot et al. 2009).

    One terminal history is sampled: chance and the other players from their own
    probabilities, the traverser from an epsilon-on-policy mixture. Regrets at the
    traverser's information sets on the path get the importance-weighted sampled
    counterfactual values; the others' average policy gets ``pi_j / q`` weighted
    current policy ("stochastically weighted averaging").
    """
    players = returns.shape[1]
    for j in range(players):
        reach[j] = 1.0
    sample_prob = 1.0
    depth = 0
    node = 0
    while kind[node] != _TERMINAL:
        start = child_start[node]
        count = child_count[node]
        if kind[node] == _CHANCE:
            node = _sample(prob, start, count, 1.0, rng)
            continue
        info = infoset[node]
        actor = player[node]
        if actor == traverser:
            legal_count = 0
            for a in range(legal.shape[1]):
                if legal[info, a]:
                    legal_count += 1
            u = rng.random()
            c = start + count - 1
            for i in range(start, start + count):
                u -= epsilon / legal_count + (1.0 - epsilon) * policy[info, action[i]]
                if u < 0.0:
                    c = i
                    break
            q = epsilon / legal_count + (1.0 - epsilon) * policy[info, action[c]]
        else:
            u = rng.random()
            c = start + count - 1
            for i in range(start, start + count):
                u -= policy[info, action[i]]
                if u < 0.0 and policy[info, action[i]] > 0.0:
                    c = i
                    break
            q = policy[info, action[c]]
            weight = reach[actor] / sample_prob
            for a in range(policy.shape[1]):
                cum_policy[info, a] += weight * policy[info, a]
        others = 1.0
        for j in range(players):
            if j != traverser:
                others *= reach[j]
        path[depth] = node
        path_child[depth] = c
        path_others[depth] = others
        depth += 1
        reach[actor] *= policy[info, action[c]]
        sample_prob *= q
        node = c
    utility = returns[node, traverser]
    tail = 1.0
    for k in range(depth - 1, -1, -1):
        node = path[k]
        c = path_child[k]
        info = infoset[node]
        taken = policy[info, action[c]]
        if player[node] == traverser:
            scaled = utility * path_others[k] / sample_prob
            value_taken = scaled * tail
            value_node = value_taken * taken
            start = child_start[node]
            for i in range(start, start + child_count[node]):
                a = action[i]
                regrets[info, a] += (value_taken if i == c else 0.0) - value_node
            match_row(regrets, legal, policy, info)
        tail *= taken



@njit
def external_sampling_run(
    kind: I64,
    player: I64,
    infoset: I64,
    child_start: I64,
    child_count: I64,
    action: I64,
    prob: F64,
    returns: F64,
    legal: B,
    policy: F64,
    values: F64,
    regrets: F64,
    cum_policy: F64,
    stack: I64,
    order: I64,
    chosen: I64,
    iterations: int,
    rng: np.random.Generator,
) -> None:
    """``iterations`` external-sampling iterations, each one pass per player."""
    for _ in range(iterations):
        for traverser in range(returns.shape[1]):
            external_sampling_sweep(
                kind, player, infoset, child_start, child_count, action, prob, returns,
                legal, policy, values, regrets, cum_policy, stack, order, chosen, traverser, rng,
            )


@njit
def outcome_sampling_run(
    kind: I64,
    player: I64,
    infoset: I64,
    child_start: I64,
    child_count: I64,
    action: I64,
    prob: F64,
    returns: F64,
    legal: B,
    policy: F64,
    regrets: F64,
    cum_policy: F64,
    path: I64,
    path_child: I64,
    path_others: F64,
    reach: F64,
    epsilon: float,
    iterations: int,
    rng: np.random.Generator,
) -> None:
    """``iterations`` outcome-sampling iterations, each one pass per player."""
    for _ in range(iterations):
        for traverser in range(returns.shape[1]):
            outcome_sampling_sweep(
                kind, player, infoset, child_start, child_count, action, prob, returns, legal,
                policy, regrets, cum_policy, path, path_child, path_others, reach, traverser,
                epsilon, rng,
            )


@njit
def chance_sampled_run(
    kind: I64,
    player: I64,
    infoset: I64,
    child_start: I64,
    child_count: I64,
    action: I64,
    prob: F64,
    returns: F64,
    legal: B,
    infoset_player: I64,
    policy: F64,
    reach: F64,
    values: F64,
    regrets: F64,
    cum_policy: F64,
    stack: I64,
    order: I64,
    chosen: I64,
    iterations: int,
    rng: np.random.Generator,
) -> None:
    """``iterations`` chance-sampled CFR iterations (alternating, uniform averaging)."""
    for _ in range(iterations):
        for traverser in range(returns.shape[1]):
            chance_sampled_sweep(
                kind, player, infoset, child_start, child_count, action, prob, returns,
                policy, reach, values, regrets, cum_policy, stack, order, chosen, traverser,
                1.0, rng,
            )
            regret_matching(regrets, legal, infoset_player, traverser, policy)
