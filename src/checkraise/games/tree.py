"""A game's whole history tree, flattened once into arrays.

Tabular solvers walk the tree thousands of times; building it once through the
:class:`~checkraise.games.base.Game` interface and keeping it as an arena of nodes
in breadth-first order (children contiguous, parents before children) lets the
numba kernels sweep it forwards for reach probabilities and backwards for values,
and gives every information set a dense index for policy and regret tables.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError
from checkraise.games.base import Game, State

__all__ = ["CHANCE_KIND", "DECISION_KIND", "TERMINAL_KIND", "GameTree", "build_tree"]

TERMINAL_KIND = 0
CHANCE_KIND = 1
DECISION_KIND = 2

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class GameTree:
    """Every history of a game, breadth-first (node 0 is the root).

    Attributes
    ----------
    kind : int array per node
        TERMINAL_KIND, CHANCE_KIND or DECISION_KIND.
    player : int array per node
        The player to act at decision nodes, -1 elsewhere.
    infoset : int array per node
        The information-set index at decision nodes, -1 elsewhere.
    parent, child_start, child_count : int arrays per node
        Children of a node are ``child_start .. child_start + child_count - 1``.
    action : int array per node
        The action (or chance outcome) that leads to a node from its parent.
    prob : float array per node
        The chance probability of the edge into a node (1 below a decision node).
    returns : float array (nodes, players)
        Returns at terminal nodes, zero elsewhere.
    infoset_keys : tuple of str
        Key of each information set, in index order (first reached breadth-first).
    infoset_player : int array per information set
    legal : bool array (infosets, num_distinct_actions)
        The legal actions of each information set.
    """

    kind: IntArray
    player: IntArray
    infoset: IntArray
    parent: IntArray
    child_start: IntArray
    child_count: IntArray
    action: IntArray
    prob: FloatArray
    returns: FloatArray
    infoset_keys: tuple[str, ...]
    infoset_player: IntArray
    legal: BoolArray
    num_players: int
    game_name: str
    game_params: dict[str, Any] = field(default_factory=dict)
    infoset_index: dict[str, int] = field(default_factory=dict)

    @property
    def num_nodes(self) -> int:
        """Number of histories."""
        return int(self.kind.shape[0])

    @property
    def num_infosets(self) -> int:
        """Number of information sets of all players."""
        return len(self.infoset_keys)

    @property
    def num_actions(self) -> int:
        """The game's number of distinct player actions."""
        return int(self.legal.shape[1])

    def children(self, node: int) -> range:
        """The children of ``node``."""
        start = int(self.child_start[node])
        return range(start, start + int(self.child_count[node]))


def build_tree(game: Game, max_nodes: int = 5_000_000) -> GameTree:
    """Enumerate every history of ``game`` breadth-first.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker
    >>> tree = build_tree(KuhnPoker())
    >>> tree.num_nodes, tree.num_infosets
    (58, 12)
    """
    num_actions = game.num_distinct_actions
    states: list[State] = []
    kind: list[int] = []
    player: list[int] = []
    infoset: list[int] = []
    parent: list[int] = []
    child_start: list[int] = []
    child_count: list[int] = []
    action: list[int] = []
    prob: list[float] = []
    returns: list[list[float]] = []
    keys: list[str] = []
    key_index: dict[str, int] = {}
    infoset_player: list[int] = []
    legal_rows: list[list[int]] = []

    queue: deque[tuple[State, int, int, float]] = deque([(game.initial_state(), -1, -1, 1.0)])
    while queue:
        state, parent_index, edge, edge_prob = queue.popleft()
        index = len(states)
        if index >= max_nodes:
            raise CheckraiseError(f"{game!r} has more than max_nodes={max_nodes} histories")
        states.append(state)
        parent.append(parent_index)
        action.append(edge)
        prob.append(edge_prob)
        child_start.append(index + 1 + len(queue))
        if state.is_terminal():
            kind.append(TERMINAL_KIND)
            player.append(-1)
            infoset.append(-1)
            returns.append(list(state.returns()))
            child_count.append(0)
            continue
        returns.append([0.0] * game.num_players)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            kind.append(CHANCE_KIND)
            player.append(-1)
            infoset.append(-1)
            child_count.append(len(outcomes))
            queue.extend((state.child(a), index, a, p) for a, p in outcomes)
            continue
        actor = state.current_player()
        key = state.information_set_key()
        actions = state.legal_actions()
        if key not in key_index:
            key_index[key] = len(keys)
            keys.append(key)
            infoset_player.append(actor)
            legal_rows.append(actions)
        elif legal_rows[key_index[key]] != actions or infoset_player[key_index[key]] != actor:
            raise CheckraiseError(f"information set {key!r} has inconsistent histories")
        kind.append(DECISION_KIND)
        player.append(actor)
        infoset.append(key_index[key])
        child_count.append(len(actions))
        queue.extend((state.child(a), index, a, 1.0) for a in actions)

    legal = np.zeros((len(keys), num_actions), dtype=np.bool_)
    for i, row in enumerate(legal_rows):
        legal[i, row] = True
    counts = np.array(child_count, dtype=np.int64)
    starts = np.where(counts > 0, np.array(child_start, dtype=np.int64), 0)
    return GameTree(
        kind=np.array(kind, dtype=np.int64),
        player=np.array(player, dtype=np.int64),
        infoset=np.array(infoset, dtype=np.int64),
        parent=np.array(parent, dtype=np.int64),
        child_start=starts,
        child_count=counts,
        action=np.array(action, dtype=np.int64),
        prob=np.array(prob, dtype=np.float64),
        returns=np.array(returns, dtype=np.float64).reshape(len(states), game.num_players),
        infoset_keys=tuple(keys),
        infoset_player=np.array(infoset_player, dtype=np.int64),
        legal=legal,
        num_players=game.num_players,
        game_name=game.name,
        game_params=dict(game.params),
        infoset_index=key_index,
    )
