"""Two-player games as public trees with private hands held in arrays.

A public tree has one node per public history (actions and board cards everyone
sees); what a player privately holds is an index into a list of ``num_hands``
hands, and every quantity a solver keeps (reach, counterfactual values, regrets)
becomes a vector over those hands. This is the layout of Johanson et al. (2011),
"Accelerating best response calculation in large extensive games", and of
postflop-solver: an arena of nodes in breadth-first order with offsets into flat
buffers, no graph of objects. Kuhn and Leduc build one; abstracted hold'em subgames
can build one with the same :class:`PublicTreeBuilder`.

Card removal is expressed with card bitmasks: two hands clash when their masks
overlap, and a hand is impossible on a board whose mask it overlaps. The chance
probability of a public history for a compatible pair of hands is
``chance_scale`` times the product of the chance edges' probabilities.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError

__all__ = [
    "CHANCE_NODE", "DECISION", "FOLD", "LEAF", "SHOWDOWN", "PublicTree", "PublicTreeBuilder",
]

FOLD = 0
SHOWDOWN = 1
CHANCE_NODE = 2
DECISION = 3
#: A depth limit: the tree stops here and a value function stands for the rest.
LEAF = 4

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class PublicTree:
    """A two-player public tree in breadth-first order (node 0 is the root).

    Attributes
    ----------
    kind, player, parent, child_start, child_count, edge, board : int arrays per node
        ``kind`` is FOLD, SHOWDOWN, CHANCE_NODE, DECISION or LEAF (a depth limit of a
        lookahead, whose values a solver is given); ``player`` the actor
        (the folder at a FOLD); children of a node are the contiguous nodes
        ``child_start .. child_start + child_count - 1``; ``edge`` the action (or board
        index) that leads to a node; ``board`` the board index in force at a node.
    chance_reach : float array per node
        ``chance_scale`` times the chance edges' probabilities from the root.
    contributions : float array (nodes, 2)
        Chips each player has put in, at terminal nodes and leaves.
    decision_offset : int array per node
        Start of a decision node's block of ``num_hands * child_count`` entries in
        the flat regret/strategy buffers (``-1`` elsewhere); entry
        ``offset + hand * child_count + i`` belongs to the node's ``i``-th child.
    compatible : bool array (hands, hands)
        Whether two hands can be held at the same time.
    hand_possible : bool array (boards, hands)
        Whether a hand can be held with a board.
    strength : int array (boards, hands)
        Showdown strength, higher wins.
    keys : per node, per hand, the information-set key (``None`` where impossible).
    num_actions : int
        The game's number of distinct actions (edges of decision nodes are below it).
    """

    kind: IntArray
    player: IntArray
    parent: IntArray
    child_start: IntArray
    child_count: IntArray
    edge: IntArray
    board: IntArray
    chance_reach: FloatArray
    contributions: FloatArray
    decision_offset: IntArray
    buffer_size: int
    compatible: BoolArray
    hand_possible: BoolArray
    strength: IntArray
    hand_names: tuple[str, ...]
    keys: tuple[tuple[str | None, ...], ...]
    num_actions: int
    game_name: str
    game_params: dict[str, Any] = field(default_factory=dict)

    @property
    def num_nodes(self) -> int:
        """Number of public nodes."""
        return int(self.kind.shape[0])

    @property
    def num_hands(self) -> int:
        """Number of private hands per player."""
        return int(self.compatible.shape[0])

    @property
    def decision_nodes(self) -> IntArray:
        """Indices of the decision nodes."""
        return np.flatnonzero(self.kind == DECISION).astype(np.int64)

    def children(self, node: int) -> range:
        """The children of ``node``."""
        start = int(self.child_start[node])
        return range(start, start + int(self.child_count[node]))


@dataclass
class _Node:
    kind: int
    player: int
    parent: int
    edge: int
    prob: float
    board: int
    contributions: tuple[float, float] = (0.0, 0.0)
    keys: tuple[str | None, ...] = ()
    children: list[int] = field(default_factory=list)


class PublicTreeBuilder:
    """Collects a public tree node by node (any order), then lays it out breadth-first.

    Parameters
    ----------
    num_hands : int
        Private hands per player.
    hand_names : sequence of str
        A label per hand.
    hand_cards : int array
        Card bitmask of each hand.
    chance_scale : float
        Probability of the deal of any one compatible pair of hands.
    strength : int array (boards, hands)
        Showdown strength of each hand on each board.
    board_cards : int array
        Card bitmask of each board (index 0 is the board at the root).
    board_names : sequence of str
        A label per board.
    """

    def __init__(
        self,
        num_hands: int,
        hand_names: Sequence[str],
        hand_cards: IntArray,
        chance_scale: float,
        strength: IntArray,
        board_cards: IntArray,
        board_names: Sequence[str],
    ) -> None:
        if len(hand_names) != num_hands or hand_cards.shape != (num_hands,):
            raise CheckraiseError(f"expected {num_hands} hand names and card masks")
        if strength.shape != (board_cards.shape[0], num_hands):
            raise CheckraiseError(
                f"strength has shape {strength.shape}; expected "
                f"{(board_cards.shape[0], num_hands)}"
            )
        self.num_hands = num_hands
        self.hand_names = tuple(hand_names)
        self.hand_cards = hand_cards
        self.chance_scale = chance_scale
        self.strength = strength
        self.board_cards = board_cards
        self.board_names = tuple(board_names)
        self._nodes: list[_Node] = []

    def hand_possible(self, board: int) -> list[bool]:
        """Which hands do not clash with board ``board``."""
        mask = int(self.board_cards[board])
        return [(int(c) & mask) == 0 for c in self.hand_cards]

    def _add(self, node: _Node) -> int:
        if (node.parent < 0) != (not self._nodes):
            raise CheckraiseError("the first node added must be the root, and only it")
        index = len(self._nodes)
        self._nodes.append(node)
        if node.parent >= 0:
            self._nodes[node.parent].children.append(index)
        return index

    def _board_of(self, parent: int) -> int:
        return 0 if parent < 0 else self._nodes[parent].board

    def add_decision(
        self,
        parent: int,
        edge: int,
        player: int,
        actions: Sequence[int],
        keys: Sequence[str | None],
        prob: float = 1.0,
        board: int | None = None,
    ) -> int:
        """Add a decision node of ``player``; ``keys`` names each hand's information set.

        ``actions`` is informational; the node's children are the nodes later added
        with it as parent, in the order they are added.
        """
        board = self._board_of(parent) if board is None else board
        possible = self.hand_possible(board)
        cleaned = tuple(k if ok else None for k, ok in zip(keys, possible, strict=True))
        return self._add(_Node(DECISION, player, parent, edge, prob, board, keys=cleaned))

    def add_chance(self, parent: int, edge: int, prob: float = 1.0) -> int:
        """Add a chance node whose children deal new boards."""
        return self._add(_Node(CHANCE_NODE, -1, parent, edge, prob, self._board_of(parent)))

    def add_leaf(
        self, parent: int, edge: int, contributions: Sequence[float], prob: float = 1.0
    ) -> int:
        """Add a depth-limit leaf (the public state there, chips put in so far)."""
        c0, c1 = contributions
        return self._add(_Node(LEAF, -1, parent, edge, prob, self._board_of(parent), (c0, c1)))

    def add_fold(
        self,
        parent: int,
        edge: int,
        folder: int,
        contributions: Sequence[float],
        prob: float = 1.0,
        board: int | None = None,
    ) -> int:
        """Add a terminal where ``folder`` gave up; the other player wins the pot."""
        board = self._board_of(parent) if board is None else board
        c0, c1 = contributions
        return self._add(_Node(FOLD, folder, parent, edge, prob, board, (c0, c1)))

    def add_showdown(
        self,
        parent: int,
        edge: int,
        board: int,
        contributions: Sequence[float],
        prob: float = 1.0,
    ) -> int:
        """Add a showdown on board ``board``; the stronger hand wins the pot."""
        c0, c1 = contributions
        return self._add(_Node(SHOWDOWN, -1, parent, edge, prob, board, (c0, c1)))

    def build(
        self, game_name: str, game_params: dict[str, Any], num_actions: int
    ) -> PublicTree:
        """Lay the collected nodes out breadth-first."""
        if not self._nodes:
            raise CheckraiseError("an empty public tree has no root")
        order: list[int] = []
        queue = deque([0])
        while queue:
            old = queue.popleft()
            order.append(old)
            queue.extend(self._nodes[old].children)
        new_of = {old: new for new, old in enumerate(order)}
        n = len(order)
        kind = np.empty(n, np.int64)
        player = np.empty(n, np.int64)
        parent = np.full(n, -1, np.int64)
        child_start = np.zeros(n, np.int64)
        child_count = np.zeros(n, np.int64)
        edge = np.zeros(n, np.int64)
        board = np.zeros(n, np.int64)
        chance_reach = np.zeros(n, np.float64)
        contributions = np.zeros((n, 2), np.float64)
        decision_offset = np.full(n, -1, np.int64)
        keys: list[tuple[str | None, ...]] = []
        offset = 0
        for new, old in enumerate(order):
            node = self._nodes[old]
            kind[new] = node.kind
            player[new] = node.player
            edge[new] = node.edge
            board[new] = node.board
            contributions[new] = node.contributions
            if node.parent >= 0:
                parent[new] = new_of[node.parent]
                chance_reach[new] = chance_reach[parent[new]] * node.prob
            else:
                chance_reach[new] = self.chance_scale * node.prob
            child_count[new] = len(node.children)
            if node.children:
                child_start[new] = new_of[node.children[0]]
            if node.kind == DECISION:
                if len(node.children) < 1:
                    raise CheckraiseError(f"decision node {old} has no children")
                decision_offset[new] = offset
                offset += self.num_hands * len(node.children)
            keys.append(node.keys)
        cards = self.hand_cards
        compatible = (cards[:, None] & cards[None, :]) == 0
        hand_possible = (self.board_cards[:, None] & cards[None, :]) == 0
        return PublicTree(
            kind=kind,
            player=player,
            parent=parent,
            child_start=child_start,
            child_count=child_count,
            edge=edge,
            board=board,
            chance_reach=chance_reach,
            contributions=contributions,
            decision_offset=decision_offset,
            buffer_size=offset,
            compatible=compatible,
            hand_possible=hand_possible,
            strength=self.strength.astype(np.int64),
            hand_names=self.hand_names,
            keys=tuple(keys),
            num_actions=num_actions,
            game_name=game_name,
            game_params=game_params,
        )
