"""numba kernels of the vectorised (public-tree) CFR and best response.

Arrays are a :class:`~checkraise.games.public_tree.PublicTree`'s. Per-node
quantities are vectors over private hands: ``reach[node, player, hand]`` and
``cfv[node, hand]`` (the traverser's counterfactual values). Strategy, regret and
average buffers are flat; a decision node's block starts at ``decision_offset``
and holds ``hand * child_count + i`` for its ``i``-th child.

``root_reach[player, hand]`` is each player's reach of the root: 1 for every
possible hand in a whole game, the players' reach of a subgame's root when the
tree is a subgame (the chance part stays in ``chance_reach``). A re-solving
gadget (Burch, Johanson & Bowling 2014) sits above the root when
``gadget_player`` is 0 or 1: that player chooses, hand by hand, between taking
``gadget_values[hand]`` and entering the tree, so his root reach is his
probability of entering (``gadget_enter``; his ``root_reach`` row is then 1 on every
possible hand, as his own reach is no part of a counterfactual value), learnt by
regret matching on ``gadget_regrets[0 = take, 1 = enter, hand]``. With
``gadget_maxmargin`` it is instead the Maxmargin gadget (Moravcik et al. 2016;
Brown & Sandholm 2017): that player picks which hand enters (``gadget_enter`` is then
a distribution over his possible hands, regrets in ``gadget_regrets[1]``) and is paid
his value minus ``gadget_values``, so the other player maximises the smallest margin.
``gadget_average`` sums the choices, weighted as the average policy.

A depth-limited tree has LEAF nodes (kind 4, no children): the walk stops there and
the backward sweeps read the traverser's counterfactual values from
``leaf_cfv[node]``, which the caller fills between :func:`public_reach` and the sweep
(a value function of both players' reach at the leaf, e.g. DeepStack's network).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
B = npt.NDArray[np.bool_]

_FOLD = 0
_SHOWDOWN = 1
_CHANCE = 2
_LEAF = 4


@njit
def public_reach(
    kind: I64,
    player: I64,
    child_start: I64,
    child_count: I64,
    board: I64,
    decision_offset: I64,
    hand_possible: B,
    root_reach: F64,
    policy: F64,
    reach: F64,
) -> None:
    """Both players' reach of every node, for every hand, under ``policy``."""
    hands = reach.shape[2]
    for p in range(2):
        for h in range(hands):
            reach[0, p, h] = root_reach[p, h]
    for node in range(kind.shape[0]):
        if kind[node] <= _SHOWDOWN or kind[node] == _LEAF:
            continue
        start = child_start[node]
        count = child_count[node]
        if kind[node] == _CHANCE:
            for i in range(count):
                c = start + i
                for p in range(2):
                    for h in range(hands):
                        ok = hand_possible[board[c], h]
                        reach[c, p, h] = reach[node, p, h] if ok else 0.0
            continue
        actor = player[node]
        other = 1 - actor
        offset = decision_offset[node]
        for i in range(count):
            c = start + i
            for h in range(hands):
                reach[c, actor, h] = reach[node, actor, h] * policy[offset + h * count + i]
                reach[c, other, h] = reach[node, other, h]


@njit
def terminal_values(
    node: int,
    kind: I64,
    player: I64,
    board: I64,
    chance_reach: F64,
    contributions: F64,
    compatible: B,
    hand_possible: B,
    strength: I64,
    reach: F64,
    cfv: F64,
    traverser: int,
) -> None:
    """Counterfactual values of the traverser's hands at a fold or showdown."""
    hands = cfv.shape[1]
    other = 1 - traverser
    scale = chance_reach[node]
    win = contributions[node, other]
    lose = contributions[node, traverser]
    b = board[node]
    for h in range(hands):
        if not hand_possible[b, h]:
            cfv[node, h] = 0.0
            continue
        total = 0.0
        if kind[node] == _FOLD:
            for o in range(hands):
                if compatible[h, o]:
                    total += reach[node, other, o]
            total *= -lose if player[node] == traverser else win
        else:
            mine = strength[b, h]
            for o in range(hands):
                if compatible[h, o]:
                    theirs = strength[b, o]
                    if mine > theirs:
                        total += win * reach[node, other, o]
                    elif mine < theirs:
                        total -= lose * reach[node, other, o]
        cfv[node, h] = scale * total


@njit
def public_cfr_sweep(
    kind: I64,
    player: I64,
    child_start: I64,
    child_count: I64,
    board: I64,
    chance_reach: F64,
    contributions: F64,
    decision_offset: I64,
    compatible: B,
    hand_possible: B,
    strength: I64,
    policy: F64,
    reach: F64,
    cfv: F64,
    regrets: F64,
    cum_policy: F64,
    traverser: int,
    avg_weight: float,
    leaf_cfv: F64,
) -> None:
    """Backward sweep for ``traverser``: values, then regret and average updates."""
    hands = cfv.shape[1]
    for node in range(kind.shape[0] - 1, -1, -1):
        k = kind[node]
        if k <= _SHOWDOWN:
            terminal_values(
                node, kind, player, board, chance_reach, contributions, compatible,
                hand_possible, strength, reach, cfv, traverser,
            )
            continue
        if k == _LEAF:
            for h in range(hands):
                cfv[node, h] = leaf_cfv[node, h]
            continue
        start = child_start[node]
        count = child_count[node]
        if k == _CHANCE or player[node] != traverser:
            for h in range(hands):
                total = 0.0
                for i in range(count):
                    total += cfv[start + i, h]
                cfv[node, h] = total
            continue
        offset = decision_offset[node]
        for h in range(hands):
            row = offset + h * count
            total = 0.0
            for i in range(count):
                total += policy[row + i] * cfv[start + i, h]
            cfv[node, h] = total
            own = avg_weight * reach[node, traverser, h]
            for i in range(count):
                regrets[row + i] += cfv[start + i, h] - total
                cum_policy[row + i] += own * policy[row + i]


@njit
def discount_regret(r: float, clip: bool, positive: float, negative: float) -> float:
    """The regret rule of the CFR family after an update: positive regrets times
    ``positive``; negative ones cut to 0 (CFR+) or times ``negative`` (DCFR's beta)."""
    if r > 0.0:
        return r * positive
    if clip:
        return 0.0
    return r * negative


@njit
def public_finish(
    kind: I64,
    player: I64,
    child_count: I64,
    decision_offset: I64,
    regrets: F64,
    policy: F64,
    hands: int,
    target: int,
    clip: bool,
    positive_factor: float,
    negative_factor: float,
) -> None:
    """Clip or discount ``target``'s regrets, then regret matching, hand by hand."""
    for node in range(kind.shape[0]):
        if kind[node] != 3 or player[node] != target:
            continue
        count = child_count[node]
        offset = decision_offset[node]
        for h in range(hands):
            row = offset + h * count
            total = 0.0
            for i in range(count):
                r = discount_regret(regrets[row + i], clip, positive_factor, negative_factor)
                regrets[row + i] = r
                if r > 0.0:
                    total += r
            for i in range(count):
                if total > 0.0:
                    policy[row + i] = max(regrets[row + i], 0.0) / total
                else:
                    policy[row + i] = 1.0 / count


@njit
def entry_reach(root_reach: F64, gadget_player: int, gadget_enter: F64, entry: F64) -> None:
    """The root reach the walk starts from: the gadget player's scaled by entering."""
    hands = entry.shape[1]
    for p in range(2):
        for h in range(hands):
            entry[p, h] = root_reach[p, h]
            if p == gadget_player:
                entry[p, h] *= gadget_enter[h]


@njit
def maxmargin_update(
    root_cfv: F64,
    gadget_values: F64,
    gadget_regrets: F64,
    gadget_enter: F64,
    possible: F64,
    clip: bool,
    positive_factor: float,
    negative_factor: float,
) -> None:
    """Regret matching over which possible hand enters, paid value minus alternative."""
    hands = root_cfv.shape[0]
    mixed = 0.0
    for h in range(hands):
        mixed += gadget_enter[h] * (root_cfv[h] - gadget_values[h])
    total = 0.0
    count = 0.0
    for h in range(hands):
        if possible[h] <= 0.0:
            continue
        count += 1.0
        r = discount_regret(
            gadget_regrets[1, h] + root_cfv[h] - gadget_values[h] - mixed, clip,
            positive_factor, negative_factor,
        )
        gadget_regrets[1, h] = r
        total += max(r, 0.0)
    for h in range(hands):
        if possible[h] <= 0.0:
            gadget_enter[h] = 0.0
        elif total > 0.0:
            gadget_enter[h] = max(gadget_regrets[1, h], 0.0) / total
        else:
            gadget_enter[h] = 1.0 / count


@njit
def gadget_update(
    root_cfv: F64,
    gadget_values: F64,
    gadget_regrets: F64,
    gadget_enter: F64,
    gadget_average: F64,
    avg_weight: float,
    possible: F64,
    maxmargin: bool,
    clip: bool,
    positive_factor: float,
    negative_factor: float,
) -> None:
    """Regrets of taking the gadget value or entering, then regret matching, per hand.

    ``root_cfv`` are the gadget player's counterfactual values of entering, in the
    same units as ``gadget_values`` (weighted by chance and the other player's reach).
    ``gadget_average`` accumulates the choice this iteration's walk used, with the
    weight the average policy's update used for the tree below it.
    """
    for h in range(gadget_enter.shape[0]):
        gadget_average[h] += avg_weight * gadget_enter[h]
    if maxmargin:
        maxmargin_update(
            root_cfv, gadget_values, gadget_regrets, gadget_enter, possible, clip,
            positive_factor, negative_factor,
        )
        return
    for h in range(root_cfv.shape[0]):
        enter = gadget_enter[h]
        take_value = gadget_values[h]
        enter_value = root_cfv[h]
        mixed = enter * enter_value + (1.0 - enter) * take_value
        take = discount_regret(
            gadget_regrets[0, h] + take_value - mixed, clip, positive_factor, negative_factor
        )
        into = discount_regret(
            gadget_regrets[1, h] + enter_value - mixed, clip, positive_factor, negative_factor
        )
        gadget_regrets[0, h] = take
        gadget_regrets[1, h] = into
        total = max(take, 0.0) + max(into, 0.0)
        gadget_enter[h] = max(into, 0.0) / total if total > 0.0 else 0.5


@njit
def public_iteration(
    kind: I64,
    player: I64,
    child_start: I64,
    child_count: I64,
    board: I64,
    chance_reach: F64,
    contributions: F64,
    decision_offset: I64,
    compatible: B,
    hand_possible: B,
    strength: I64,
    root_reach: F64,
    policy: F64,
    reach: F64,
    cfv: F64,
    regrets: F64,
    cum_policy: F64,
    alternating: bool,
    clip: bool,
    positive_factor: float,
    negative_factor: float,
    avg_weight: float,
    gadget_player: int,
    gadget_values: F64,
    gadget_regrets: F64,
    gadget_enter: F64,
    gadget_average: F64,
    gadget_maxmargin: bool,
    entry: F64,
    leaf_cfv: F64,
) -> None:
    """One whole CFR iteration (both players) on the public tree.

    The gadget (if ``gadget_player`` is 0 or 1) is updated with its player's
    values, like any node of his.
    """
    hands = cfv.shape[1]
    if alternating:
        for p in range(2):
            entry_reach(root_reach, gadget_player, gadget_enter, entry)
            public_reach(
                kind, player, child_start, child_count, board, decision_offset,
                hand_possible, entry, policy, reach,
            )
            public_cfr_sweep(
                kind, player, child_start, child_count, board, chance_reach, contributions,
                decision_offset, compatible, hand_possible, strength, policy, reach, cfv,
                regrets, cum_policy, p, avg_weight, leaf_cfv,
            )
            if p == gadget_player:
                gadget_update(
                    cfv[0], gadget_values, gadget_regrets, gadget_enter, gadget_average,
                    avg_weight, root_reach[p], gadget_maxmargin, clip, positive_factor,
                    negative_factor,
                )
            public_finish(
                kind, player, child_count, decision_offset, regrets, policy, hands, p,
                clip, positive_factor, negative_factor,
            )
        return
    entry_reach(root_reach, gadget_player, gadget_enter, entry)
    public_reach(
        kind, player, child_start, child_count, board, decision_offset, hand_possible,
        entry, policy, reach,
    )
    for p in range(2):
        public_cfr_sweep(
            kind, player, child_start, child_count, board, chance_reach, contributions,
            decision_offset, compatible, hand_possible, strength, policy, reach, cfv,
            regrets, cum_policy, p, avg_weight, leaf_cfv,
        )
        if p == gadget_player:
            gadget_update(
                cfv[0], gadget_values, gadget_regrets, gadget_enter, gadget_average,
                avg_weight, root_reach[p], gadget_maxmargin, clip, positive_factor,
                negative_factor,
            )
    for p in range(2):
        public_finish(
            kind, player, child_count, decision_offset, regrets, policy, hands, p,
            clip, positive_factor, negative_factor,
        )


@njit
def public_best_response(
    kind: I64,
    player: I64,
    child_start: I64,
    child_count: I64,
    board: I64,
    chance_reach: F64,
    contributions: F64,
    decision_offset: I64,
    compatible: B,
    hand_possible: B,
    strength: I64,
    root_reach: F64,
    policy: F64,
    reach: F64,
    cfv: F64,
    responder: int,
    leaf_cfv: F64,
) -> float:
    """Value of ``responder``'s best response to ``policy`` (the other player's part).

    At the responder's nodes each hand independently takes its best action: an
    information set is exactly (public node, hand). ``cfv[0]`` is left holding each
    hand's counterfactual best-response value at the root.
    """
    public_reach(
        kind, player, child_start, child_count, board, decision_offset, hand_possible,
        root_reach, policy, reach,
    )
    hands = cfv.shape[1]
    for node in range(kind.shape[0] - 1, -1, -1):
        k = kind[node]
        if k <= _SHOWDOWN:
            terminal_values(
                node, kind, player, board, chance_reach, contributions, compatible,
                hand_possible, strength, reach, cfv, responder,
            )
            continue
        if k == _LEAF:
            for h in range(hands):
                cfv[node, h] = leaf_cfv[node, h]
            continue
        start = child_start[node]
        count = child_count[node]
        best_of = k != _CHANCE and player[node] == responder
        for h in range(hands):
            total = cfv[start, h]
            for i in range(1, count):
                if best_of:
                    total = max(total, cfv[start + i, h])
                else:
                    total += cfv[start + i, h]
            cfv[node, h] = total
    # The responder's own reach of the root weighs his counterfactual values
    # (1 for every possible hand at a whole game's root).
    value = 0.0
    for h in range(hands):
        value += root_reach[responder, h] * cfv[0, h]
    return value


@njit
def public_run(
    kind: I64,
    player: I64,
    child_start: I64,
    child_count: I64,
    board: I64,
    chance_reach: F64,
    contributions: F64,
    decision_offset: I64,
    compatible: B,
    hand_possible: B,
    strength: I64,
    root_reach: F64,
    policy: F64,
    reach: F64,
    cfv: F64,
    regrets: F64,
    cum_policy: F64,
    alternating: bool,
    clip: bool,
    discounted: bool,
    alpha: float,
    beta: float,
    gamma: float,
    first: int,
    iterations: int,
    gadget_player: int,
    gadget_values: F64,
    gadget_regrets: F64,
    gadget_enter: F64,
    gadget_average: F64,
    gadget_maxmargin: bool,
    entry: F64,
    leaf_cfv: F64,
) -> None:
    """Iterations ``first .. first + iterations - 1`` in one call."""
    for t in range(first, first + iterations):
        positive = 1.0
        negative = 1.0
        if discounted:
            positive = t**alpha / (t**alpha + 1.0)
            negative = t**beta / (t**beta + 1.0)
        public_iteration(
            kind, player, child_start, child_count, board, chance_reach, contributions,
            decision_offset, compatible, hand_possible, strength, root_reach, policy, reach,
            cfv, regrets, cum_policy, alternating, clip, positive, negative, float(t) ** gamma,
            gadget_player, gadget_values, gadget_regrets, gadget_enter, gadget_average,
            gadget_maxmargin, entry, leaf_cfv,
        )
