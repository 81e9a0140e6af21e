"""numba kernels of the spot solver: one recursive walk per player and iteration.

The walk carries two vectors down the betting tree, the traverser's own reach and
the opponent's reach (each over that player's hands), and brings one vector back
up, the traverser's counterfactual values. Nothing per node is kept but the
regrets and the strategy sums, so memory is what the strategies need.

Terminal values come from a sorted sweep with card-removal corrections (O(n) per
terminal once the hands are sorted by strength on each river board):
a hand's opponents that hold one of its cards are subtracted by per-card sums, and
the opponent holding the very same two cards is never counted, as it ties. The walk
runs the same sums as one branch-free pass over an order of both players' hands merged
once per runout (:mod:`._sweep`); ``showdown_values`` stays as its two-list twin.

The work at a decision node (regret matching, node values, regret and sum
updates) is done by the vector kernels of :mod:`._node`.

Parallel runs split the walk at the first layer of chance nodes: a first pass
records the reaches that arrive there, the cards below are solved as independent
tasks over the cores (their storage blocks are disjoint), and a last pass brings
the values back up and updates the upper nodes. The sum over cards runs in card
order in both cases, so one core and two give the same numbers.

Arrays: ``nodes[node, column]`` (see the ``_KIND`` ... constants), ``commit``;
per player ``cards[p]`` (hands, 2), ``same[p]`` (index of the same combo in the
other player's list or -1), ``seq[p]`` (boards, codes) and ``codes`` (each code's two
cards, per player) the merged showdown orders of :mod:`._sweep`, ``regret[p]`` and
``cum[p]`` the flat buffers, and the lock tables.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from checkraise._numba import njit, parallel_njit, prange
from checkraise.evaluator._kernels import rank7
from checkraise.solvers.spot._node import (
    best_values,
    expected_values,
    lock_overlay,
    locked_values,
    row_strategy,
    update_regrets,
    update_sums,
    zero_row,
)
from checkraise.solvers.spot._sweep import fold_sweep, showdown_sweep

Pair = tuple[Any, ...]
"""A per-player pair of arrays (numba UniTuple), or a bundle of work arrays."""

_U = np.uint64
"""Hot loops index with unsigned integers (all of them: numba types a signed and an
unsigned integer's sum as a float), so that no negative-index fix-up is compiled in."""

# columns of the nodes table
_KIND = 0
_PLAYER = 1
_START = 2
_COUNT = 3
_OFF = 4  # 4, 5: offset per player
_STRIDE = 6  # 6, 7: stride per player
_OUTCOMES = 8
_SLOT = 9  # split slot of a first-layer chance node, else -1
NODE_COLUMNS = 10

_FOLD = 0
_SHOWDOWN = 1
_CHANCE = 2
_LEAF = 4

# params
P_POT = 0
P_POSITIVE = 1
P_NEGATIVE = 2
P_CLIP = 3
P_AVG_WEIGHT = 4
P_MODE = 5
P_PHASE = 6
P_SKIP = 7  # 1: skip the leaves and opponent strategies no opponent hand reaches
NUM_PARAMS = 8

MODE_CFR = 0  # update regrets and strategy sums of the traverser
MODE_BEST_RESPONSE = 1  # traverser best-responds to the average strategy
MODE_AVERAGE = 2  # both play the average strategy (values only)

PHASE_ALL = 0  # walk everything
PHASE_COLLECT = 1  # stop at first-layer chance nodes, record the reaches there
PHASE_FINISH = 2  # take first-layer chance values from the task results


@njit
def board_index(turn: int, river: int) -> int:
    """Row of the showdown tables for the dealt turn and river (-1 if not dealt)."""
    return (turn + 1) * 53 + (river + 1)


@njit
def showdown_tables(
    board: np.ndarray, boards: np.ndarray, cards: np.ndarray, order: np.ndarray,
    rank: np.ndarray,
) -> None:
    """Hands sorted by strength on each river board (hands clashing with it rank 0)."""
    n = cards.shape[0]
    strength = np.empty(n, np.int64)
    full = np.empty(7, np.int64)
    for k in range(board.shape[0]):
        full[k] = board[k]
    for b in range(boards.shape[0]):
        m = board.shape[0]
        mask = 0
        for k in range(m):
            mask |= 1 << board[k]
        for k in range(boards.shape[1]):
            if boards[b, k] >= 0:
                full[m] = boards[b, k]
                mask |= 1 << boards[b, k]
                m += 1
        for h in range(n):
            c1 = cards[h, 0]
            c2 = cards[h, 1]
            if (mask >> c1) & 1 or (mask >> c2) & 1:
                strength[h] = 0
            else:
                strength[h] = rank7(full[0], full[1], full[2], full[3], full[4], c1, c2)
        idx = np.argsort(strength, kind="mergesort")
        for i in range(n):
            order[b, i] = idx[i]
            rank[b, i] = strength[idx[i]]


@njit
def _compatible_total(
    reach_o: np.ndarray, cards_o: np.ndarray, per_card: np.ndarray
) -> float:
    total = 0.0
    for c in range(52):
        per_card[c] = 0.0
    for o in range(reach_o.shape[0]):
        r = reach_o[o]
        total += r
        per_card[cards_o[o, 0]] += r
        per_card[cards_o[o, 1]] += r
    return total


@njit
def fold_values(
    payoff: float, reach_o: np.ndarray, cards_t: np.ndarray, cards_o: np.ndarray,
    same_t: np.ndarray, out: np.ndarray,
) -> None:
    """``payoff`` times the opponent reach compatible with each traverser hand."""
    _fold(payoff, reach_o, cards_t, cards_o, same_t, out, np.empty((2, 52)))


@njit
def _fold(
    payoff: float, reach_o: np.ndarray, cards_t: np.ndarray, cards_o: np.ndarray,
    same_t: np.ndarray, out: np.ndarray, scratch: np.ndarray,
) -> None:
    per_card = scratch[0]
    total = _compatible_total(reach_o, cards_o, per_card)
    for h in range(out.shape[0]):
        s = same_t[h]
        compat = total - per_card[cards_t[h, 0]] - per_card[cards_t[h, 1]]
        if s >= 0:
            compat += reach_o[s]
        out[h] = payoff * compat


@njit
def showdown_values(
    win: float, lose: float, tie: float, reach_o: np.ndarray, cards_t: np.ndarray,
    cards_o: np.ndarray, same_t: np.ndarray, order_t: np.ndarray, rank_t: np.ndarray,
    order_o: np.ndarray, rank_o: np.ndarray, out: np.ndarray,
) -> None:
    """Showdown values by two sorted sweeps (wins upward, losses downward)."""
    _showdown(win, lose, tie, reach_o, cards_t, cards_o, same_t, order_t, rank_t, order_o,
              rank_o, out, np.empty((2, 52)))


@njit
def _showdown(
    win: float, lose: float, tie: float, reach_o: np.ndarray, cards_t: np.ndarray,
    cards_o: np.ndarray, same_t: np.ndarray, order_t: np.ndarray, rank_t: np.ndarray,
    order_o: np.ndarray, rank_o: np.ndarray, out: np.ndarray, scratch: np.ndarray,
) -> None:
    swept = scratch[0]
    per_card = scratch[1]
    n_t = out.shape[0]
    n_o = reach_o.shape[0]
    swept[:] = 0.0
    acc = 0.0
    j = 0
    for i in range(n_t):
        s = rank_t[i]
        while j < n_o and rank_o[j] < s:
            o = order_o[j]
            r = reach_o[o]
            if r != 0.0:
                acc += r
                swept[cards_o[o, 0]] += r
                swept[cards_o[o, 1]] += r
            j += 1
        h = order_t[i]
        out[h] = acc - swept[cards_t[h, 0]] - swept[cards_t[h, 1]]
    # the rest of the opponent's hands complete the totals
    per_card[:] = swept
    total = acc
    while j < n_o:
        o = order_o[j]
        r = reach_o[o]
        if r != 0.0:
            total += r
            per_card[cards_o[o, 0]] += r
            per_card[cards_o[o, 1]] += r
        j += 1
    swept[:] = 0.0
    acc = 0.0
    j = n_o - 1
    for i in range(n_t - 1, -1, -1):
        s = rank_t[i]
        while j >= 0 and rank_o[j] > s:
            o = order_o[j]
            r = reach_o[o]
            if r != 0.0:
                acc += r
                swept[cards_o[o, 0]] += r
                swept[cards_o[o, 1]] += r
            j -= 1
        h = order_t[i]
        c1 = cards_t[h, 0]
        c2 = cards_t[h, 1]
        losing = acc - swept[c1] - swept[c2]
        compat = total - per_card[c1] - per_card[c2]
        if same_t[h] >= 0:
            compat += reach_o[same_t[h]]
        winning = out[h]
        out[h] = win * winning + lose * losing + tie * (compat - winning - losing)


# frame columns of the explicit walk stack
_F_NODE = 0
_F_I = 1  # next child (decision) or outcome index k (chance)
_F_CARD = 2  # card dealt to the child being walked (chance)
_F_BASE = 3  # 3, 4: storage bases per player
_F_TURN = 5
_F_RIVER = 6
_F_DEALT = 7
FRAME_COLUMNS = 8


@njit
def make_buffers(depth: int, actions: int, n_t: int, n_o: int) -> Pair:
    """Work arrays of one walker: a frame and reach/value vectors per depth."""
    width = max(n_t, n_o)
    return (
        np.zeros((depth, FRAME_COLUMNS), np.int64),
        np.zeros((depth, n_t)),
        np.zeros((depth, n_o)),
        np.zeros((depth, n_t)),
        np.zeros((depth, actions, n_t)),
        np.zeros((depth, actions, width)),
        np.zeros((depth, 4, n_t)),
        np.zeros(52),
        np.zeros((2, n_o + 2 * n_t)),
        np.zeros(width),
    )


@njit
def suit_ranks(dealt: int, suit: int) -> int:
    """The ranks of ``suit`` among the cards of mask ``dealt``, as a 13-bit mask."""
    mask = 0
    for r in range(13):
        if (dealt >> (4 * r + suit)) & 1:
            mask |= 1 << r
    return mask


@njit
def iso_suit(dealt: int, card: int, iso_pairs: np.ndarray) -> int:
    """A lower suit whose cards play exactly like ``card``'s suit here, or -1.

    Suits ``s < t`` are interchangeable when the board holds the same ranks in
    both and swapping them maps both ranges onto themselves (``iso_pairs[4s+t]``);
    the card of rank r in suit t then leads to the game of rank r in suit s with
    the two suits swapped in every hand.
    """
    t = card & 3
    if t == 0:
        return -1
    mine = suit_ranks(dealt, t)
    for s in range(t):
        if iso_pairs[4 * s + t] and suit_ranks(dealt, s) == mine:
            return s
    return -1


@njit
def walk(
    root: int, trav: int, base0: int, base1: int, turn: int, river: int, dealt: int,
    reach_t: np.ndarray, reach_o: np.ndarray, out: np.ndarray,
    nodes: np.ndarray, commit: np.ndarray, board_row: np.ndarray, cards: Pair,
    same: Pair, seq: Pair, codes: Pair, regret: Pair, cum: Pair, lock_starts: Pair,
    lock_offsets: Pair, lock_mask: Pair, lock_values: Pair, params: np.ndarray,
    task_reach: np.ndarray, task_info: np.ndarray, results: np.ndarray, iso_pairs: np.ndarray,
    perm: Pair, first_slot: np.ndarray, buffers: Pair,
) -> None:
    """The traverser's counterfactual values at ``root`` into ``out``.

    A depth-first walk with an explicit stack (numba cannot cache recursive
    functions): frame ``d`` holds a node, its runout and which child is being
    walked; ``reach_t[d]``, ``reach_o[d]`` the reaches arriving at it and
    ``value[d]`` the values it returns.
    """
    frame, rt, ro, value, child_values, sigma, iso_values, per_card, code_work, total = buffers
    card_a = codes[2 * trav]
    card_b = codes[2 * trav + 1]
    same_t = same[trav]
    seq_t = seq[trav]
    regret_t = regret[trav]
    cum_t = cum[trav]
    perm_t = perm[trav]
    n_t = out.shape[0]
    n_o = reach_o.shape[0]
    un_t = _U(n_t)
    un_o = _U(n_o)
    other = 1 - trav
    cards_t = cards[trav]
    cards_o = cards[other]
    pot = params[P_POT]
    phase = params[P_PHASE]
    mode = int(params[P_MODE])
    skip = params[P_SKIP] != 0.0
    clip = params[P_CLIP] != 0.0
    positive = params[P_POSITIVE]
    negative = params[P_NEGATIVE]
    weight = params[P_AVG_WEIGHT]
    # Rows are read in place and arrays picked out of tuples once, here: every view or
    # tuple item taken in the loop costs two atomic reference counts (a tenth of the time).
    src_t = cum[trav] if mode != MODE_CFR else regret[trav]
    src_o = cum[other] if mode != MODE_CFR else regret[other]
    locked = False
    for p in range(2):
        locked = locked or lock_starts[p].shape[0] > 0
    # A best response needs the traverser's own strategy only where some of it is
    # locked, or to hand his reach to outside leaf values (collected on the way down).
    own_strategy = mode != MODE_BEST_RESPONSE or locked or phase == PHASE_COLLECT
    frame[0, _F_NODE] = root
    frame[0, _F_BASE] = base0
    frame[0, _F_BASE + 1] = base1
    frame[0, _F_TURN] = turn
    frame[0, _F_RIVER] = river
    frame[0, _F_DEALT] = dealt
    rt[0, :] = reach_t
    ro[0, :] = reach_o
    d = 0
    entered = True
    while True:
        node = frame[d, _F_NODE]
        kind = nodes[node, _KIND]
        done = False
        if entered:
            entered = False
            # Nothing below matters when no opponent hand gets here, except that CFR
            # still averages the traverser's strategy where his own hands do.
            ud = _U(d)
            reached = False
            for o in range(un_o):
                if ro[ud, o] != 0.0:
                    reached = True
                    break
            live = reached or phase == PHASE_COLLECT
            if not live and mode == MODE_CFR:
                for h in range(un_t):
                    if rt[ud, h] != 0.0:
                        live = True
                        break
            if not live:
                zero_row(value, d, n_t)
                done = True
            elif skip and not reached and kind <= _SHOWDOWN:  # a fold or a showdown
                # CFR walks on where only the traverser's hands get (for his averages),
                # but a leaf no opponent hand reaches is worth nothing: skip its sweep.
                zero_row(value, d, n_t)
                done = True
            elif kind == _FOLD:
                c = commit[node]
                payoff = -c if nodes[node, _PLAYER] == trav else pot + c
                fold_sweep(payoff, ro, d, same_t, card_a, card_b, value, per_card)
                done = True
            elif kind == _SHOWDOWN:
                c = commit[node]
                row = board_row[board_index(frame[d, _F_TURN], frame[d, _F_RIVER])]
                showdown_sweep(
                    pot + c, -c, 0.5 * pot, ro, d, same_t, seq_t, row,
                    card_a, card_b, value, code_work, per_card,
                )
                done = True
            elif kind == _LEAF:
                # Values from outside: recorded on the way down, read on the way up.
                slot = nodes[node, _SLOT]
                if phase == PHASE_COLLECT:
                    task_reach[slot, 0, :n_t] = rt[d]
                    task_reach[slot, 1, :n_o] = ro[d]
                    for j in range(5):
                        task_info[slot, j] = frame[d, _F_BASE + j]
                    zero_row(value, d, n_t)
                else:
                    value[d, :] = results[slot, 0, :n_t]
                done = True
            elif kind == _CHANCE:
                slot = nodes[node, _SLOT]
                zero_row(value, d, n_t)
                frame[d, _F_I] = 0
                frame[d, _F_CARD] = -1
                if slot >= 0 and phase == PHASE_COLLECT:
                    task_reach[slot, 0, :n_t] = rt[d]
                    task_reach[slot, 1, :n_o] = ro[d]
                    for j in range(5):
                        task_info[slot, j] = frame[d, _F_BASE + j]
                    done = True
                elif slot >= 0 and phase == PHASE_FINISH:
                    for k in range(nodes[node, _OUTCOMES]):
                        for h in range(n_t):
                            value[d, h] += results[slot, k, h]
                    factor = 1.0 / (nodes[node, _OUTCOMES] - 4)
                    for h in range(n_t):
                        value[d, h] *= factor
                    done = True
            else:
                actor = nodes[node, _PLAYER]
                count = nodes[node, _COUNT]
                block = frame[d, _F_BASE + actor] + nodes[node, _OFF + actor]
                # Two calls rather than one on a chosen array: choosing one counts a reference.
                if actor == trav:
                    if own_strategy:
                        row_strategy(src_t, block, count, n_t, sigma, d, total)
                elif skip and not reached:
                    # The opponent's children get zero reach whatever his strategy (the
                    # row of sigma is stale but finite): it need not be computed.
                    pass
                else:
                    row_strategy(src_o, block, count, n_o, sigma, d, total)
                if locked:
                    lock_overlay(actor, block, count, n_t if actor == trav else n_o,
                                  lock_starts, lock_offsets, lock_mask, lock_values, sigma, d)
                frame[d, _F_I] = 0
                zero_row(value, d, n_t)
        else:
            # back from the child at depth d + 1
            i = frame[d, _F_I]
            ud = _U(d)
            uc = ud + _U(1)
            if kind == _CHANCE:
                card = frame[d, _F_CARD]
                us = _U(card & 3)
                for h in range(un_t):
                    iso_values[ud, us, h] = value[uc, h]
                    if (cards_t[h, 0] != card) & (cards_t[h, 1] != card):
                        value[ud, h] += value[uc, h]
            elif nodes[node, _PLAYER] == trav:
                ui = _U(i)
                for h in range(un_t):
                    child_values[ud, ui, h] = value[uc, h]
            else:
                for h in range(un_t):
                    value[ud, h] += value[uc, h]
            frame[d, _F_I] = i + 1
        if not done and kind == _CHANCE:
            dealt_here = frame[d, _F_DEALT]
            card = frame[d, _F_CARD] + 1
            while card < 52:
                if (dealt_here >> card) & 1:
                    card += 1
                    continue
                s = iso_suit(dealt_here, card, iso_pairs)
                if s < 0:
                    break
                # The same game as this rank's card of suit s, seen with the suits swapped.
                pair = _U(4 * s + (card & 3))
                ud = _U(d)
                us = _U(s)
                for h in range(un_t):
                    if (cards_t[h, 0] != card) & (cards_t[h, 1] != card):
                        value[ud, h] += iso_values[ud, us, perm_t[pair, h]]
                frame[d, _F_I] += 1
                card += 1
            if card < 52:
                k = frame[d, _F_I]
                if nodes[node, _SLOT] >= 0:
                    k = first_slot[card]  # the first chance layer stores canonical cards only
                frame[d, _F_CARD] = card
                e = d + 1
                frame[e, _F_NODE] = nodes[node, _START]
                for p in range(2):
                    frame[e, _F_BASE + p] = (
                        frame[d, _F_BASE + p] + nodes[node, _OFF + p] + k * nodes[node, _STRIDE + p]
                    )
                if frame[d, _F_TURN] < 0:
                    frame[e, _F_TURN] = card
                    frame[e, _F_RIVER] = frame[d, _F_RIVER]
                else:
                    frame[e, _F_TURN] = frame[d, _F_TURN]
                    frame[e, _F_RIVER] = card
                frame[e, _F_DEALT] = dealt_here | (1 << card)
                ud = _U(d)
                ue = _U(e)
                for h in range(un_t):
                    hit = (cards_t[h, 0] == card) | (cards_t[h, 1] == card)
                    rt[ue, h] = 0.0 if hit else rt[ud, h]
                for o in range(un_o):
                    hit = (cards_o[o, 0] == card) | (cards_o[o, 1] == card)
                    ro[ue, o] = 0.0 if hit else ro[ud, o]
                d = e
                entered = True
                continue
            factor = 1.0 / (nodes[node, _OUTCOMES] - 4)
            ud = _U(d)
            for h in range(un_t):
                value[ud, h] *= factor
            done = True
        if not done:
            # a decision node: walk the next child, or finish
            i = frame[d, _F_I]
            count = nodes[node, _COUNT]
            actor = nodes[node, _PLAYER]
            if i < count:
                e = d + 1
                for j in range(FRAME_COLUMNS):
                    frame[e, j] = frame[d, j]
                frame[e, _F_NODE] = nodes[node, _START] + i
                ud = _U(d)
                ue = _U(e)
                ui = _U(i)
                if actor == trav:
                    if own_strategy:
                        for h in range(un_t):
                            rt[ue, h] = rt[ud, h] * sigma[ud, ui, h]
                    for o in range(un_o):
                        ro[ue, o] = ro[ud, o]
                else:
                    for h in range(un_t):
                        rt[ue, h] = rt[ud, h]
                    for o in range(un_o):
                        ro[ue, o] = ro[ud, o] * sigma[ud, ui, o]
                d = e
                entered = True
                continue
            if actor == trav:
                # The traverser's node value and updates, in calls that take few arrays each.
                block = frame[d, _F_BASE + trav] + nodes[node, _OFF + trav]
                if mode == MODE_BEST_RESPONSE:
                    best_values(d, count, n_t, child_values, value)
                    if locked:
                        locked_values(d, block, count, n_t, lock_starts[trav], lock_mask[trav],
                                       sigma, child_values, value)
                else:
                    expected_values(d, count, n_t, sigma, child_values, value)
                if mode == MODE_CFR and phase != PHASE_COLLECT:
                    update_regrets(d, block, count, n_t, child_values, value, regret_t, clip,
                                    positive, negative)
                    update_sums(d, block, count, n_t, rt, sigma, cum_t, weight, skip)
        # return to the parent
        if d == 0:
            out[:] = value[0]
            return
        d -= 1


@parallel_njit
def run_tasks(
    task_slot: np.ndarray, task_k: np.ndarray, task_card: np.ndarray, chance_node: np.ndarray,
    chunks: int, depth: int, actions: int, trav: int, n_t: int, n_o: int,
    nodes: np.ndarray, commit: np.ndarray, board_row: np.ndarray, cards: Pair, same: Pair,
    seq: Pair, codes: Pair, regret: Pair, cum: Pair, lock_starts: Pair,
    lock_offsets: Pair, lock_mask: Pair, lock_values: Pair, params: np.ndarray,
    task_reach: np.ndarray, task_info: np.ndarray, results: np.ndarray, iso_pairs: np.ndarray,
    perm: Pair, first_slot: np.ndarray,
) -> None:
    """Every (first-layer chance node, card) below the collected reaches, over the cores.

    Task ``t`` goes to chunk ``t % chunks``; each chunk has its own walker buffers.
    """
    cards_t = cards[trav]
    cards_o = cards[1 - trav]
    for chunk in prange(chunks):
        buffers = make_buffers(depth, actions, n_t, n_o)
        child_t = np.empty(n_t)
        child_o = np.empty(n_o)
        for t in range(chunk, task_slot.shape[0], chunks):
            slot = task_slot[t]
            node = chance_node[slot]
            k = task_k[t]
            card = task_card[t]
            for h in range(n_t):
                hit = (cards_t[h, 0] == card) | (cards_t[h, 1] == card)
                child_t[h] = 0.0 if hit else task_reach[slot, 0, h]
            for o in range(n_o):
                hit = (cards_o[o, 0] == card) | (cards_o[o, 1] == card)
                child_o[o] = 0.0 if hit else task_reach[slot, 1, o]
            stored = first_slot[card]
            b0 = task_info[slot, 0] + nodes[node, _OFF] + stored * nodes[node, _STRIDE]
            b1 = task_info[slot, 1] + nodes[node, _OFF + 1] + stored * nodes[node, _STRIDE + 1]
            turn = task_info[slot, 2]
            river = task_info[slot, 3]
            if turn < 0:
                turn = card
            else:
                river = card
            out = results[slot, k, :n_t]
            walk(
                nodes[node, _START], trav, b0, b1, turn, river, task_info[slot, 4] | (1 << card),
                child_t, child_o, out, nodes, commit, board_row, cards, same, seq, codes,
                regret, cum, lock_starts, lock_offsets, lock_mask, lock_values, params,
                task_reach, task_info, results, iso_pairs, perm, first_slot, buffers,
            )
            for h in range(n_t):
                if cards_t[h, 0] == card or cards_t[h, 1] == card:
                    out[h] = 0.0


@njit
def equity_sums(
    reach_o: np.ndarray, cards_t: np.ndarray, cards_o: np.ndarray, same_t: np.ndarray,
    order_t: np.ndarray, rank_t: np.ndarray, order_o: np.ndarray, rank_o: np.ndarray,
    runouts: np.ndarray, board_row: np.ndarray, wins: np.ndarray, mass: np.ndarray,
) -> None:
    """Showdown shares (win 1, tie 1/2) and compatible opponent mass over the runouts."""
    n_t = wins.shape[0]
    live = np.empty(reach_o.shape[0])
    sd = np.empty(n_t)
    fold = np.empty(n_t)
    wins[:] = 0.0
    mass[:] = 0.0
    for r in range(runouts.shape[0]):
        a = runouts[r, 0]
        b = runouts[r, 1]
        for o in range(reach_o.shape[0]):
            hit = False
            for c in (a, b):
                if c >= 0 and (cards_o[o, 0] == c or cards_o[o, 1] == c):
                    hit = True
            live[o] = 0.0 if hit else reach_o[o]
        row = board_row[board_index(a, b)]
        showdown_values(1.0, 0.0, 0.5, live, cards_t, cards_o, same_t, order_t[row],
                        rank_t[row], order_o[row], rank_o[row], sd)
        fold_values(1.0, live, cards_t, cards_o, same_t, fold)
        for h in range(n_t):
            hit = False
            for c in (a, b):
                if c >= 0 and (cards_t[h, 0] == c or cards_t[h, 1] == c):
                    hit = True
            if not hit:
                wins[h] += sd[h]
                mass[h] += fold[h]
