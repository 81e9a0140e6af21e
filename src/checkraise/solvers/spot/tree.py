"""The betting tree of a spot, as a flat arena of nodes with storage offsets.

The arena holds the *betting* tree only: a chance node (the turn or the river card)
has a single child, the subtree that follows any card, and storage for the
strategies below it is laid out once per card. A decision node ``n`` of player
``p`` reached through the chance outcomes ``k1, k2`` (the index of the dealt card
among the cards left) owns the block of ``child_count[n] * hands[p]`` numbers that
starts at::

    offset[n, p] + base,  base = sum over the chance nodes c above n of
                                 offset[c, p] + k_c * stride[c, p]

in player ``p``'s regret and strategy buffers (``[action, hand]`` within the block).
Offsets inside a chance child count from zero, so the betting tree has a few dozen to a
few thousand nodes whatever the number of runouts, and the kernels add the bases as they
walk down (the layout of postflop-solver's arena, with the card-by-card copies left
implicit).

Betting follows the ACPC rules of :mod:`checkraise.engine`: a raise is at least the
last bet or raise of the street and at least one big blind, a bet of the whole stack
is always allowed, and amounts are street totals (``b30`` bets 30 on this street,
``r90`` raises to 90 on this street).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError, ConfigError
from checkraise.solvers.spot.config import STREETS, BetSizes, Spot

__all__ = ["CHANCE", "DECISION", "FOLD", "LEAF", "SHOWDOWN", "SpotTree", "build_tree"]

FOLD = 0
SHOWDOWN = 1
CHANCE = 2
DECISION = 3
LEAF = 4  # the end of the first street in a depth-limited tree: values come from outside

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

_MAX_NODES = 2_000_000


@dataclass(frozen=True)
class SpotTree:
    """The flat betting tree (node 0 is the root).

    Attributes
    ----------
    kind, player, parent, child_start, child_count, street : int arrays per node
        ``player`` is the actor at a decision node and the folder at a fold.
    commit : float array per node
        At a fold, the chips the folder put in since the spot started; at a
        showdown, a chance node or a leaf, what each player put in (they are equal).
    offset : int array (nodes, 2)
        Storage offset of a decision node's block in its actor's buffers, or of a
        chance node's per-card blocks in each player's buffers.
    stride : int array (nodes, 2)
        At a chance node, each player's storage for one card's subtree.
    outcomes : int array per node
        At a chance node, the number of cards that can come (cards not on the board).
    labels : tuple of str
        The action leading to each node (``x``, ``c``, ``f``, ``b30``, ``r90``,
        ``a`` is never used: all-in shows its amount), ``""`` for the root and for
        a chance node's child.
    storage : tuple of int
        Each player's buffer length for ``hands = (n0, n1)``.
    """

    kind: IntArray
    player: IntArray
    parent: IntArray
    child_start: IntArray
    child_count: IntArray
    street: IntArray
    commit: FloatArray
    offset: IntArray
    stride: IntArray
    outcomes: IntArray
    labels: tuple[str, ...]
    storage: tuple[int, int]
    max_depth: int
    max_actions: int

    @property
    def num_nodes(self) -> int:
        """Nodes of the betting tree."""
        return int(self.kind.shape[0])

    def children(self, node: int) -> range:
        """The children of ``node``."""
        start = int(self.child_start[node])
        return range(start, start + int(self.child_count[node]))

    def step(self, node: int, token: str, line: str) -> int:
        """The child of decision ``node`` reached by the action ``token`` of ``line``.

        Raises
        ------
        CheckraiseError
            When the hand is over or the action is not available, naming the ones that are.
        """
        if self.kind[node] != DECISION:
            raise CheckraiseError(f"line {line!r}: the hand is over before {token!r}")
        for child in self.children(node):
            if self.labels[child] == token:
                return child
        options = ", ".join(self.labels[c] for c in self.children(node))
        raise CheckraiseError(
            f"line {line!r}: no action {token!r} here; expected one of {options}"
        )

    def find(self, line: str) -> int:
        """The node reached by the action line ``"b30 c"`` (chance steps are skipped).

        Raises
        ------
        CheckraiseError
            When an action is not available, naming the ones that are.
        """
        node = 0
        for token in line.split():
            while self.kind[node] == CHANCE:
                node = int(self.child_start[node])
            node = self.step(node, token, line)
        return node


@dataclass
class _Street:
    """Betting state within a street."""

    street: int
    pot: int  # chips in the middle at the start of the street
    stack: int  # each player's chips behind at the start of the street
    committed: int  # each player's chips put in since the spot started, at street start
    bets: tuple[int, int]
    last_raise: int
    raises: int
    lead_into: bool  # OOP's first bet here is a donk bet


class _Builder:
    def __init__(self, spot: Spot, hands: tuple[int, int], depth_limited: bool,
                 leaf_choices: tuple[int, int] | None = None) -> None:
        self.spot = spot
        self.depth_limited = depth_limited
        self.leaf_choices = leaf_choices
        self.hands = hands
        self.kind: list[int] = []
        self.player: list[int] = []
        self.parent: list[int] = []
        self.child_start: list[int] = []
        self.child_count: list[int] = []
        self.street: list[int] = []
        self.commit: list[float] = []
        self.labels: list[str] = []
        self.outcomes: list[int] = []
        self.max_depth = 0

    def new(self, kind: int, player: int, parent: int, street: int, commit: float,
            label: str, outcomes: int = 0) -> int:
        if len(self.kind) >= _MAX_NODES:
            raise CheckraiseError(
                f"the betting tree has more than {_MAX_NODES:,} nodes; use fewer bet sizes "
                "or a lower raise_cap"
            )
        self.kind.append(kind)
        self.player.append(player)
        self.parent.append(parent)
        self.child_start.append(0)
        self.child_count.append(0)
        self.street.append(street)
        self.commit.append(commit)
        self.labels.append(label)
        self.outcomes.append(outcomes)
        return len(self.kind) - 1

    # -------------------------------------------------------------- actions
    def actions(self, s: _Street, actor: int) -> list[tuple[str, int]]:
        """(label, street total after the action) for the actor, in a fixed order."""
        mine, theirs = s.bets[actor], s.bets[1 - actor]
        facing = theirs - mine
        out: list[tuple[str, int]] = [("f", -1), ("c", theirs)] if facing > 0 else [("x", mine)]
        allin_total = s.stack  # street total of a player who puts everything in
        if theirs >= allin_total or (facing > 0 and s.raises >= self.spot.raise_cap):
            return out
        sizes: BetSizes = self.spot.sizes[s.street][actor]
        pot = s.pot + s.bets[0] + s.bets[1]
        totals: set[int] = set()
        if theirs == 0:
            percents = sizes.donk if (actor == 0 and s.lead_into and sizes.donk) else sizes.bet
            for pct in percents:
                totals.add(self.clamp(s, round(pct / 100.0 * pot), 0))
        else:
            for pct in sizes.raise_:
                totals.add(self.clamp(s, theirs + round(pct / 100.0 * (pot + facing)), theirs))
        if sizes.allin:
            totals.add(allin_total)
        letter = "b" if theirs == 0 else "r"
        out.extend((f"{letter}{t}", t) for t in sorted(totals))
        return out

    def clamp(self, s: _Street, total: int, theirs: int) -> int:
        """Raise ``total`` to the ACPC minimum, and to all-in past the stack or threshold."""
        minimum = theirs + max(s.last_raise, self.spot.big_blind)
        total = max(total, minimum)
        if total >= s.stack:
            return s.stack
        behind = s.stack - total
        pot_after_call = s.pot + 2 * total
        if behind < self.spot.allin_threshold * pot_after_call:
            return s.stack
        return total

    # -------------------------------------------------------------- building
    def street_node(self, node: int, s: _Street, actor: int, depth: int) -> None:
        """Fill decision ``node`` of ``actor`` and its subtree."""
        self.max_depth = max(self.max_depth, depth)
        acts = self.actions(s, actor)
        first = len(self.kind)
        mine, theirs = s.bets[actor], s.bets[1 - actor]
        committed = s.committed
        for label, _total in acts:
            if label == "f":
                self.new(FOLD, actor, node, s.street, committed + mine, label)
            else:
                self.new(DECISION, -1, node, s.street, 0.0, label)
        self.child_start[node] = first
        self.child_count[node] = len(acts)
        for i, (label, total) in enumerate(acts):
            child = first + i
            if label == "f":
                continue
            bets = (total, theirs) if actor == 0 else (theirs, total)
            if label == "c" or (label == "x" and actor == 1):
                # IP's check follows OOP's; a call closes the street on the caller's bettor.
                last_bettor = 1 - actor if label == "c" else -1
                self.close_street(child, s, bets[0], depth + 1, last_bettor)
                continue
            if label == "x":
                self.player[child] = 1
                self.street_node(child, s, 1, depth + 1)
                continue
            raised = total - theirs
            nxt = _Street(s.street, s.pot, s.stack, s.committed, bets,
                          max(s.last_raise, raised), s.raises + (1 if theirs > 0 else 0),
                          s.lead_into)
            self.player[child] = 1 - actor
            self.street_node(child, nxt, 1 - actor, depth + 1)

    def close_street(self, node: int, s: _Street, total: int, depth: int,
                     last_bettor: int) -> None:
        """``node`` ends the street with both players in for ``total``."""
        self.max_depth = max(self.max_depth, depth)
        committed = s.committed + total
        allin = total >= s.stack
        if s.street == len(STREETS) - 1:
            self.kind[node] = SHOWDOWN
            self.commit[node] = committed
            return
        board_len = 3 + s.street
        self.commit[node] = committed
        if self.depth_limited and self.leaf_choices is not None and not allin:
            # The chooser picks how the rest of the game is played: one leaf per choice.
            chooser, count = self.leaf_choices
            self.kind[node] = DECISION
            self.player[node] = chooser
            first = len(self.kind)
            for i in range(count):
                self.new(LEAF, -1, node, s.street, committed, f"k{i}")
            self.child_start[node] = first
            self.child_count[node] = count
            self.max_depth = max(self.max_depth, depth + 1)
            return
        if self.depth_limited:
            self.kind[node] = LEAF
            return
        self.kind[node] = CHANCE
        self.outcomes[node] = 52 - board_len
        child = self.new(DECISION, 0, node, s.street + 1, 0.0, "")
        self.child_start[node] = child
        self.child_count[node] = 1
        nxt = _Street(s.street + 1, s.pot + 2 * total, s.stack - total, committed, (0, 0),
                      0, 0, last_bettor == 1)
        if allin:
            self.close_street(child, nxt, 0, depth + 1, -1)
        else:
            self.street_node(child, nxt, 0, depth + 1)


def build_tree(
    spot: Spot, hands: tuple[int, int], depth_limited: bool = False,
    first_outcomes: int | None = None, leaf_choices: tuple[int, int] | None = None,
) -> SpotTree:
    """The betting tree of ``spot`` with storage laid out for ``hands`` per player.

    ``first_outcomes`` is the number of cards stored at the first layer of chance
    nodes (the others being suit-isomorphic to them); default: every card.

    ``depth_limited`` ends the tree with :data:`LEAF` nodes where the first street
    ends (before the next card), for solving with values given at the leaves. With
    ``leaf_choices = (player, k)`` each such end is instead a decision of ``player``
    between ``k`` leaves labelled ``k0`` ... (Brown, Sandholm & Amos 2018: he picks
    which of ``k`` continuation strategies the rest of the game is played by); an
    all-in end stays one leaf, as no betting is left to play.

    Examples
    --------
    >>> spot = Spot.from_dict({"board": "Qs Jh 2h 4d 7c", "pot": 100, "stack": 100,
    ...                        "ranges": {"oop": "AA", "ip": "KK"},
    ...                        "sizes": {"bet": [50], "raise": [], "allin": False}})
    >>> tree = build_tree(spot, (6, 6))
    >>> [tree.labels[c] for c in tree.children(0)]
    ['x', 'b50']
    >>> [tree.labels[c] for c in tree.children(tree.find("b50"))]
    ['f', 'c']
    """
    if leaf_choices is not None and (not depth_limited or leaf_choices[0] not in (0, 1)
                                     or leaf_choices[1] < 1):
        raise ConfigError(f"leaf_choices={leaf_choices!r}; expected (player 0 or 1, k >= 1) "
                          "in a depth-limited tree")
    b = _Builder(spot, hands, depth_limited, leaf_choices)
    street = spot.first_street
    root = b.new(DECISION, 0, -1, street, 0.0, "")
    start = _Street(street, spot.pot, spot.stack, 0, (0, 0), 0, 0, False)
    b.street_node(root, start, 0, 0)
    n = len(b.kind)
    kind = np.array(b.kind, np.int64)
    child_start = np.array(b.child_start, np.int64)
    child_count = np.array(b.child_count, np.int64)
    outcomes = np.array(b.outcomes, np.int64)
    player = np.array(b.player, np.int64)
    offset = np.zeros((n, 2), np.int64)
    stride = np.zeros((n, 2), np.int64)

    def layout(node: int, counters: list[int], first: bool) -> None:
        k = kind[node]
        if k == DECISION:
            p = player[node]
            offset[node, p] = counters[p]
            counters[p] += int(child_count[node]) * hands[p]
        elif k == CHANCE:
            sub = [0, 0]
            layout(int(child_start[node]), sub, False)
            cards = first_outcomes if first and first_outcomes is not None else outcomes[node]
            for p in range(2):
                stride[node, p] = sub[p]
                offset[node, p] = counters[p]
                counters[p] += int(cards) * sub[p]
            return
        for c in range(child_start[node], child_start[node] + child_count[node]):
            layout(int(c), counters, first)

    totals = [0, 0]
    layout(0, totals, True)
    return SpotTree(
        kind=kind, player=player, parent=np.array(b.parent, np.int64),
        child_start=child_start, child_count=child_count,
        street=np.array(b.street, np.int64), commit=np.array(b.commit, np.float64),
        offset=offset, stride=stride, outcomes=outcomes, labels=tuple(b.labels),
        storage=(totals[0], totals[1]), max_depth=b.max_depth + 1,
        max_actions=int(child_count.max()),
    )
