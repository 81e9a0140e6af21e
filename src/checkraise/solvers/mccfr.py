"""Monte Carlo CFR with external sampling and with outcome sampling.

Lanctot, Waugh, Zinkevich & Bowling (2009), "Monte Carlo sampling for regret
minimization in extensive games". One iteration runs one sampled traversal per
player (alternating). External sampling samples chance and the other players and
explores all of the traverser's actions; outcome sampling samples one terminal
history, the traverser's actions from an epsilon-exploring mixture, and weights
the sampled values by the inverse sampling probability. Both update regrets with
plain regret matching; average policies are accumulated at the non-traversing
players' visited information sets (simple averaging for external sampling,
stochastically weighted averaging for outcome sampling).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

import numpy as np

from checkraise.errors import CheckraiseError
from checkraise.games.base import Game
from checkraise.games.tree import GameTree
from checkraise.solvers import _kernels
from checkraise.solvers.base import TabularSolver

__all__ = ["ExternalSamplingMCCFRSolver", "OutcomeSamplingMCCFRSolver"]


class _MCCFRBase(TabularSolver):
    """Regret tables, work buffers and the seeded generator of the sampling solvers."""

    def __init__(self, game: Game | GameTree, seed: int = 0) -> None:
        super().__init__(game)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        n = self.tree.num_nodes
        self._values = np.zeros(n)
        self._stack = np.zeros(n, dtype=np.int64)
        self._order = np.zeros(n, dtype=np.int64)
        self._chosen = np.zeros(n, dtype=np.int64)

    def iterate(self, iterations: int = 1) -> None:
        # One kernel call for the whole batch: a call costs more than a Kuhn iteration.
        if iterations < 0:
            raise CheckraiseError(f"iterations={iterations!r}; expected a count >= 0")
        self._run(iterations)
        self.iteration += iterations

    def _iterate(self) -> None:
        self._run(1)

    @abstractmethod
    def _run(self, iterations: int) -> None:
        """Run ``iterations`` sampled iterations in one kernel call."""

    def _meta(self) -> dict[str, Any]:
        meta = super()._meta()
        meta["seed"] = self.seed
        return meta


class ExternalSamplingMCCFRSolver(_MCCFRBase):
    """External-sampling MCCFR, seeded.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker
    >>> solver = ExternalSamplingMCCFRSolver(KuhnPoker(), seed=1)
    >>> solver.iterate(2000)
    >>> solver.exploitability() < 0.05
    True
    """

    algorithm = "es-mccfr"

    def _run(self, iterations: int) -> None:
        tree = self.tree
        _kernels.external_sampling_run(
            tree.kind, tree.player, tree.infoset, tree.child_start, tree.child_count,
            tree.action, tree.prob, tree.returns, tree.legal, self.policy, self._values,
            self.regrets, self.cum_policy, self._stack, self._order, self._chosen,
            iterations, self.rng,
        )


class OutcomeSamplingMCCFRSolver(_MCCFRBase):
    """Outcome-sampling MCCFR with exploration ``epsilon`` (default 0.6), seeded.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker
    >>> solver = OutcomeSamplingMCCFRSolver(KuhnPoker(), seed=1)
    >>> solver.iterate(5000)
    >>> solver.exploitability() < 0.1
    True
    """

    algorithm = "os-mccfr"

    def __init__(self, game: Game | GameTree, seed: int = 0, epsilon: float = 0.6) -> None:
        super().__init__(game, seed)
        if not 0.0 < epsilon <= 1.0:
            raise CheckraiseError(f"epsilon={epsilon!r}; expected 0 < epsilon <= 1")
        self.epsilon = epsilon
        depth = self.tree.num_nodes
        self._path = np.zeros(depth, dtype=np.int64)
        self._path_child = np.zeros(depth, dtype=np.int64)
        self._path_others = np.zeros(depth)
        self._reach = np.zeros(self.tree.num_players)

    def _run(self, iterations: int) -> None:
        tree = self.tree
        _kernels.outcome_sampling_run(
            tree.kind, tree.player, tree.infoset, tree.child_start, tree.child_count,
            tree.action, tree.prob, tree.returns, tree.legal, self.policy, self.regrets,
            self.cum_policy, self._path, self._path_child, self._path_others, self._reach,
            self.epsilon, iterations, self.rng,
        )
