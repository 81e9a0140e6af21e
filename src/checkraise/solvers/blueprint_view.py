"""A blueprint's strategy at a betting line, per hand class (the 13×13 grid).

Each combo plays the row of its bucket; its weight at the line is the probability
that the actor's own strategy takes the line with that combo (through its buckets
on the streets of the line, on the given board), zero where it clashes with the
board. Classes are reach-weighted means, drawn by :mod:`checkraise.solvers.spot.grid`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise.errors import ConfigError
from checkraise.games.holdem import CALL, DECISION, FOLD_ACTION, STREET_NAMES
from checkraise.solvers.blueprint import Blueprint
from checkraise.solvers.spot.grid import ClassTable

__all__ = ["BOARD_CARDS", "action_labels", "blueprint_table"]

BOARD_CARDS = (0, 3, 4, 5)
FloatArray = npt.NDArray[np.float64]


def action_labels(bp: Blueprint, node: int) -> tuple[str, ...]:
    """``f``, ``x`` or ``c``, and ``r<to>`` (ACPC totals) for the actions at ``node``."""
    tree = bp.game.tree
    c = tree.committed[node]
    facing = max(c) > c[int(tree.player[node])]
    out = []
    for k in tree.children(node):
        kind = int(tree.act_kind[k])
        if kind == FOLD_ACTION:
            out.append("f")
        elif kind == CALL:
            out.append("c" if facing else "x")
        else:
            out.append(f"r{int(tree.act_to[k])}")
    return tuple(out)


def blueprint_table(
    bp: Blueprint, line: str, board: tuple[int, ...] = ()
) -> tuple[ClassTable, FloatArray, int]:
    """``(table, frequencies, node)``: the strategy at ``line`` per class.

    ``board`` must hold the cards of the line's street (none preflop).
    """
    from checkraise.cards import CLASS_NAMES, COMBO_CLASS

    tree = bp.game.tree
    node = tree.find(line)
    if tree.kind[node] != DECISION:
        raise ConfigError(f"line {line!r} ends the hand; expected a line where someone acts")
    street = int(tree.street[node])
    if len(board) != BOARD_CARDS[street] or len(set(board)) != len(board):
        raise ConfigError(
            f"board of {len(board)} cards for a {STREET_NAMES[street]} line {line!r}; expected "
            f"{BOARD_CARDS[street]} distinct cards"
        )
    actor = int(tree.player[node])
    reach = np.ones(COMBO_CLASS.shape[0])
    path = []
    n = node
    while n > 0:
        path.append(n)
        n = int(tree.parent[n])
    by_street: dict[int, npt.NDArray[np.int64]] = {}
    for child in reversed(path):
        up = int(tree.parent[child])
        if int(tree.player[up]) != actor:
            continue
        s = int(tree.street[up])
        if s not in by_street:
            by_street[s] = bp.game.cards.combo_buckets(s, board)
        rows = bp.rows(up, by_street[s])
        reach *= rows[:, child - int(tree.first_child[up])]
    buckets = bp.game.cards.combo_buckets(street, board)
    reach[buckets < 0] = 0.0
    strategy = bp.rows(node, buckets)
    classes = np.asarray(COMBO_CLASS, np.int64)
    class_reach = np.bincount(classes, reach, minlength=169).astype(np.float64)
    size = np.bincount(classes, minlength=169).astype(np.float64)
    na = strategy.shape[1]
    cls_strategy = np.full((169, na), np.nan)
    for k in range(na):
        num = np.bincount(classes, reach * strategy[:, k], minlength=169)
        cls_strategy[:, k] = np.where(
            class_reach > 0, num / np.where(class_reach > 0, class_reach, 1.0), np.nan
        )
    total = reach.sum()
    freq = (reach @ strategy) / total if total > 0 else np.zeros(na)
    nan = np.full(169, np.nan)
    table = ClassTable(
        action_labels(bp, node),
        tuple(CLASS_NAMES),
        class_reach,
        np.minimum(class_reach / size, 1.0),
        cls_strategy,
        nan,
        nan.copy(),
    )
    return table, freq, node
