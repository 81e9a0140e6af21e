"""Vectorised CFR on a public tree: one walk per iteration updates every hand at once.

The public-tree formulation of CFR (Johanson, Bard, Lanctot, Gibson & Bowling
2012, "Efficient Nash equilibrium approximation through Monte Carlo
counterfactual regret minimization", "vector-form" CFR; also postflop-solver):
reach probabilities and counterfactual values are vectors over private hands,
terminal values are hand-versus-range sums with card removal, and one iteration is
a forward sweep (reach) and a backward sweep (values, regrets, average) per
player, all inside one numba kernel over the tree's flat arrays.

The update order is the tabular solvers' (alternating players, regret matching(+),
optional discounting, average weight ``t^gamma``), so for the same iterations the
average policy equals :mod:`checkraise.solvers.cfr`'s to rounding. The best
response here is exact and equally vectorised: at the responder's nodes each hand
keeps its best child value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError, one_of
from checkraise.games.base import Game
from checkraise.games.public_tree import DECISION, PublicTree
from checkraise.solvers import _public_kernels as kernels
from checkraise.solvers.base import Solver
from checkraise.solvers.policy import Policy

__all__ = ["VECTORISED_ALGORITHMS", "VectorisedCFRSolver", "public_exploitability"]

FloatArray = npt.NDArray[np.float64]

#: algorithm -> (regret matching+, (alpha, beta) discount or None, average exponent)
VECTORISED_ALGORITHMS: dict[str, tuple[bool, tuple[float, float] | None, float]] = {
    "cfr": (False, None, 0.0),
    "cfr+": (True, None, 1.0),
    "lcfr": (False, (1.0, 1.0), 1.0),
    "dcfr": (False, (1.5, 0.0), 2.0),
}


def _public_tree_of(game: Game | PublicTree) -> PublicTree:
    if isinstance(game, PublicTree):
        return game
    build = getattr(game, "public_tree", None)
    if build is None:
        raise CheckraiseError(f"{game!r} has no public-tree form; use a tabular solver")
    tree = build()
    if not isinstance(tree, PublicTree):
        raise CheckraiseError(f"{game!r}.public_tree() returned {type(tree).__name__}")
    return tree


class _Buffers:
    """Work arrays sized for one public tree."""

    def __init__(self, tree: PublicTree) -> None:
        self.reach = np.zeros((tree.num_nodes, 2, tree.num_hands))
        self.cfv = np.zeros((tree.num_nodes, tree.num_hands))


def _uniform_buffer(tree: PublicTree) -> FloatArray:
    policy = np.zeros(tree.buffer_size)
    for node in tree.decision_nodes:
        count = int(tree.child_count[node])
        start = int(tree.decision_offset[node])
        policy[start : start + count * tree.num_hands] = 1.0 / count
    return policy


def _best_response_value(
    tree: PublicTree, policy: FloatArray, responder: int, buffers: _Buffers
) -> float:
    return float(
        kernels.public_best_response(
            tree.kind, tree.player, tree.child_start, tree.child_count, tree.board,
            tree.chance_reach, tree.contributions, tree.decision_offset, tree.compatible,
            tree.hand_possible, tree.strength, policy, buffers.reach, buffers.cfv, responder,
        )
    )


def _exploitability(tree: PublicTree, policy: FloatArray, buffers: _Buffers) -> float:
    # Two-player zero-sum: the on-policy values cancel in NashConv.
    total = sum(_best_response_value(tree, policy, p, buffers) for p in range(2))
    return total / 2.0


def _buffer_from_policy(tree: PublicTree, policy: Policy) -> FloatArray:
    buffer = _uniform_buffer(tree)
    for node in tree.decision_nodes:
        count = int(tree.child_count[node])
        offset = int(tree.decision_offset[node])
        actions = tree.edge[tree.child_start[node] : tree.child_start[node] + count]
        for hand, key in enumerate(tree.keys[node]):
            if key is not None:
                row = policy.row(key)
                buffer[offset + hand * count : offset + (hand + 1) * count] = row[actions]
    return buffer


def public_exploitability(game: Game | PublicTree, policy: Policy) -> float:
    """Exploitability (NashConv / 2) of ``policy``, by public-tree best response.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker, build_tree
    >>> round(public_exploitability(KuhnPoker(), Policy.uniform(build_tree(KuhnPoker()))), 4)
    0.4583
    """
    tree = _public_tree_of(game)
    return _exploitability(tree, _buffer_from_policy(tree, policy), _Buffers(tree))


class VectorisedCFRSolver(Solver):
    """CFR, CFR+, linear CFR or DCFR over a two-player public tree, all hands at once.

    Parameters
    ----------
    game : Game or PublicTree
        A game with a ``public_tree()`` method (Kuhn, Leduc), or the tree itself.
    algorithm : {"cfr", "cfr+", "lcfr", "dcfr"}
        The regret and averaging rules, as in :mod:`checkraise.solvers.cfr`.
    alternating : bool
        Alternating (default) or simultaneous updates.

    Examples
    --------
    >>> from checkraise.games import LeducPoker
    >>> solver = VectorisedCFRSolver(LeducPoker(), "cfr+")
    >>> solver.iterate(1000)
    >>> solver.exploitability() < 1e-3
    True
    """

    def __init__(
        self, game: Game | PublicTree, algorithm: str = "cfr+", alternating: bool = True
    ) -> None:
        super().__init__()
        if algorithm not in VECTORISED_ALGORITHMS:
            raise CheckraiseError(
                f"vectorised algorithm {algorithm!r}; expected one of "
                f"{one_of(VECTORISED_ALGORITHMS)}"
            )
        self.algorithm_name = algorithm
        self.tree = _public_tree_of(game)
        self.alternating = alternating
        self.regret_matching_plus, self.discount, self.average_exponent = VECTORISED_ALGORITHMS[
            algorithm
        ]
        self.policy = _uniform_buffer(self.tree)
        self.regrets = np.zeros(self.tree.buffer_size)
        self.cum_policy = np.zeros(self.tree.buffer_size)
        self._buffers = _Buffers(self.tree)

    @property
    def algorithm_label(self) -> str:
        """The algorithm's CLI name."""
        return self.algorithm_name

    def iterate(self, iterations: int = 1) -> None:
        # The whole batch runs inside one kernel call.
        if iterations < 0:
            raise CheckraiseError(f"iterations={iterations!r}; expected a count >= 0")
        self._run(self.iteration + 1, iterations)
        self.iteration += iterations

    def _iterate(self) -> None:
        self._run(self.iteration, 1)

    def _run(self, first: int, iterations: int) -> None:
        alpha, beta = self.discount if self.discount is not None else (1.0, 1.0)
        tree, buffers = self.tree, self._buffers
        kernels.public_run(
            tree.kind, tree.player, tree.child_start, tree.child_count, tree.board,
            tree.chance_reach, tree.contributions, tree.decision_offset, tree.compatible,
            tree.hand_possible, tree.strength, self.policy, buffers.reach, buffers.cfv,
            self.regrets, self.cum_policy, self.alternating, self.regret_matching_plus,
            self.discount is not None, alpha, beta, self.average_exponent, first, iterations,
        )

    def average_buffer(self) -> FloatArray:
        """The average policy in the flat buffer layout."""
        tree = self.tree
        result = _uniform_buffer(tree)
        for node in tree.decision_nodes:
            count = int(tree.child_count[node])
            offset = int(tree.decision_offset[node])
            block = self.cum_policy[offset : offset + count * tree.num_hands].reshape(-1, count)
            sums = block.sum(axis=1, keepdims=True)
            rows = np.where(sums > 0.0, block / np.where(sums > 0.0, sums, 1.0), 1.0 / count)
            result[offset : offset + count * tree.num_hands] = rows.ravel()
        return result

    def _to_policy(self, buffer: FloatArray) -> Policy:
        tree = self.tree
        keys: list[str] = []
        rows: list[FloatArray] = []
        legal_rows: list[npt.NDArray[np.bool_]] = []
        for node in np.flatnonzero(tree.kind == DECISION):
            count = int(tree.child_count[node])
            offset = int(tree.decision_offset[node])
            actions = tree.edge[tree.child_start[node] : tree.child_start[node] + count]
            for hand, key in enumerate(tree.keys[node]):
                if key is None:
                    continue
                row = np.zeros(tree.num_actions)
                row[actions] = buffer[offset + hand * count : offset + (hand + 1) * count]
                legal = np.zeros(tree.num_actions, dtype=np.bool_)
                legal[actions] = True
                keys.append(key)
                rows.append(row)
                legal_rows.append(legal)
        return Policy(
            tuple(keys), np.array(rows), np.array(legal_rows), tree.game_name,
            dict(tree.game_params), self._meta(),
        )

    def average_policy(self) -> Policy:
        return self._to_policy(self.average_buffer())

    def current_policy(self) -> Policy:
        return self._to_policy(self.policy.copy())

    def exploitability(self) -> float:
        return _exploitability(self.tree, self.average_buffer(), self._buffers)

    def _meta(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm_name,
            "iterations": self.iteration,
            "alternating": self.alternating,
            "solver": "vectorised",
        }
