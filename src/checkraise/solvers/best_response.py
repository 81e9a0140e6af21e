"""Exact best response, NashConv and exploitability on the full history tree.

The best response to a fixed profile is computed as in Johanson et al. (2011),
"Accelerating best response calculation in large extensive games", in its simplest
history-by-history form: the responder's choice at an information set ``I`` is the
action maximising ``sum over h in I of pi_-i(h) * v(h a)``, where ``pi_-i`` is the
reach probability of the other players and chance, and ``v`` is evaluated with the
responder's (memoised) choices further down. Perfect recall makes this recursion
well founded. NashConv is ``sum_i (BR_i - u_i)``; exploitability is NashConv divided
by the number of players, OpenSpiel's convention (Lanctot et al. 2017), which for
two-player zero-sum games is the mean gain of the two best responses.

This module is the slow, general reference; :mod:`checkraise.solvers.vectorised`
has the fast public-tree version for two-player poker games.
"""

from __future__ import annotations

import sys

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError
from checkraise.games.base import Game
from checkraise.games.tree import CHANCE_KIND, DECISION_KIND, TERMINAL_KIND, GameTree, build_tree
from checkraise.solvers.policy import Policy

__all__ = [
    "best_response",
    "best_response_value",
    "expected_values",
    "exploitability",
    "nash_conv",
]

FloatArray = npt.NDArray[np.float64]


def _as_tree(game: Game | GameTree) -> GameTree:
    return game if isinstance(game, GameTree) else build_tree(game)


def _as_probs(tree: GameTree, policy: Policy | FloatArray) -> FloatArray:
    if isinstance(policy, Policy):
        return policy.on_tree(tree)
    probs = np.asarray(policy, dtype=np.float64)
    if probs.shape != tree.legal.shape:
        raise CheckraiseError(f"policy array has shape {probs.shape}; expected {tree.legal.shape}")
    return probs


def expected_values(game: Game | GameTree, policy: Policy | FloatArray) -> FloatArray:
    """Each player's expected return when everyone follows ``policy``.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker, build_tree
    >>> tree = build_tree(KuhnPoker())
    >>> expected_values(tree, Policy.uniform(tree)).round(4).tolist()
    [0.125, -0.125]
    """
    tree = _as_tree(game)
    probs = _as_probs(tree, policy)
    reach = np.zeros(tree.num_nodes)
    reach[0] = 1.0
    for node in range(1, tree.num_nodes):
        up = int(tree.parent[node])
        if tree.kind[up] == CHANCE_KIND:
            reach[node] = reach[up] * tree.prob[node]
        else:
            reach[node] = reach[up] * probs[tree.infoset[up], tree.action[node]]
    terminal = tree.kind == TERMINAL_KIND
    values: FloatArray = reach[terminal] @ tree.returns[terminal]
    return values


def best_response(
    game: Game | GameTree, policy: Policy | FloatArray, player: int
) -> tuple[float, dict[int, int]]:
    """The value of a best response of ``player`` to ``policy`` and its choice per infoset.

    Returns ``(value, {infoset index: action})``; the others play ``policy``. Ties
    go to the lowest action.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker, build_tree
    >>> tree = build_tree(KuhnPoker())
    >>> value, choice = best_response(tree, Policy.uniform(tree), 1)
    >>> round(value, 4), choice[tree.infoset_index["2b"]]
    (0.4167, 1)
    """
    tree = _as_tree(game)
    probs = _as_probs(tree, policy)
    if not 0 <= player < tree.num_players:
        raise CheckraiseError(f"player {player!r} is not in 0..{tree.num_players - 1}")
    kind, parent, infoset, action = tree.kind, tree.parent, tree.infoset, tree.action
    owner = tree.player
    # Reach of everyone but the responder, chance included.
    others = np.zeros(tree.num_nodes)
    others[0] = 1.0
    for node in range(1, tree.num_nodes):
        up = int(parent[node])
        if kind[up] == CHANCE_KIND:
            others[node] = others[up] * tree.prob[node]
        elif owner[up] != player:
            others[node] = others[up] * probs[infoset[up], action[node]]
        else:
            others[node] = others[up]
    members: dict[int, list[int]] = {}
    for found in np.flatnonzero((kind == DECISION_KIND) & (owner == player)):
        members.setdefault(int(infoset[found]), []).append(int(found))

    value = np.full(tree.num_nodes, np.nan)
    choice: dict[int, int] = {}
    child_start, child_count = tree.child_start, tree.child_count

    def node_value(node: int) -> float:
        cached = value[node]
        if cached == cached:  # not NaN
            return float(cached)
        start, count = int(child_start[node]), int(child_count[node])
        if kind[node] == TERMINAL_KIND:
            result = float(tree.returns[node, player])
        elif kind[node] == CHANCE_KIND:
            result = sum(float(tree.prob[c]) * node_value(c) for c in range(start, start + count))
        elif owner[node] != player:
            row = probs[infoset[node]]
            result = 0.0
            for c in range(start, start + count):
                p = float(row[action[c]])
                if p > 0.0:
                    result += p * node_value(c)
        else:
            best = best_action(int(infoset[node]))
            result = node_value(start + int(np.searchsorted(action[start : start + count], best)))
        value[node] = result
        return result

    def best_action(info: int) -> int:
        if info in choice:
            return choice[info]
        nodes = members[info]
        legal = np.flatnonzero(tree.legal[info])
        totals = np.zeros(legal.size)
        for node in nodes:
            weight = float(others[node])
            start = int(child_start[node])
            for i in range(legal.size):
                child_value = node_value(start + i)
                totals[i] += weight * child_value
        choice[info] = int(legal[int(np.argmax(totals))])
        return choice[info]

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        root = node_value(0)
        for info in members:
            best_action(info)
    finally:
        sys.setrecursionlimit(limit)
    return root, choice


def best_response_value(game: Game | GameTree, policy: Policy | FloatArray, player: int) -> float:
    """Expected return of ``player``'s best response to ``policy``."""
    return best_response(game, policy, player)[0]


def nash_conv(game: Game | GameTree, policy: Policy | FloatArray) -> float:
    """``sum_i (best response value_i - expected value_i)``, zero exactly at a Nash equilibrium.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker, build_tree
    >>> tree = build_tree(KuhnPoker())
    >>> round(nash_conv(tree, Policy.uniform(tree)), 4)
    0.9167
    """
    tree = _as_tree(game)
    probs = _as_probs(tree, policy)
    on_policy = expected_values(tree, probs)
    return float(
        sum(best_response_value(tree, probs, p) - on_policy[p] for p in range(tree.num_players))
    )


def exploitability(game: Game | GameTree, policy: Policy | FloatArray) -> float:
    """NashConv divided by the number of players (chips per hand).

    Examples
    --------
    >>> from checkraise.games import KuhnPoker, build_tree
    >>> tree = build_tree(KuhnPoker())
    >>> round(exploitability(tree, Policy.uniform(tree)), 4)
    0.4583
    """
    tree = _as_tree(game)
    return nash_conv(tree, policy) / tree.num_players
