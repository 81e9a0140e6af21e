"""The loop API shared by every solver, and the tabular solvers' common state.

Following OpenSpiel's solvers: a solver is built on a game, advanced with
:meth:`Solver.iterate`, and asked for its :meth:`Solver.average_policy` (the
policy that converges to equilibrium) and :meth:`Solver.current_policy`.
Metrics are free functions (:func:`checkraise.solvers.exploitability`); the
:meth:`Solver.exploitability` shortcut uses the fastest exact one available.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError
from checkraise.games.base import Game
from checkraise.games.tree import GameTree, build_tree
from checkraise.solvers.best_response import exploitability
from checkraise.solvers.policy import Policy

__all__ = ["Solver", "TabularSolver"]

FloatArray = npt.NDArray[np.float64]


class Solver(ABC):
    """An iterative equilibrium-finding algorithm."""

    #: Name of the algorithm as the CLI spells it.
    algorithm: ClassVar[str] = ""

    def __init__(self) -> None:
        self.iteration = 0

    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` more iterations."""
        if iterations < 0:
            raise CheckraiseError(f"iterations={iterations!r}; expected a count >= 0")
        for _ in range(iterations):
            self.iteration += 1
            self._iterate()

    def warm_up(self) -> None:
        """Compile and load the kernels by running one iteration, then forget it.

        Timings that should exclude start-up call this first; the solver's state,
        generator included, is exactly as before.
        """
        saved = {k: copy.deepcopy(v) for k, v in self.__dict__.items() if k != "tree"}
        self.iterate(1)
        self.__dict__.update(saved)

    @abstractmethod
    def _iterate(self) -> None:
        """Run iteration number ``self.iteration`` (counted from 1)."""

    @abstractmethod
    def average_policy(self) -> Policy:
        """The policy that converges to an equilibrium."""

    @abstractmethod
    def current_policy(self) -> Policy:
        """The policy the last iteration played."""

    @abstractmethod
    def exploitability(self) -> float:
        """Exploitability of :meth:`average_policy` (NashConv / players, chips)."""

    def _meta(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "iterations": self.iteration}


class TabularSolver(Solver):
    """A solver keeping regret and average-policy tables over a game's history tree.

    Parameters
    ----------
    game : Game or GameTree
        The game, or its already-built tree (sharing one tree between solvers
        saves building it again).
    """

    def __init__(self, game: Game | GameTree) -> None:
        super().__init__()
        self.tree = game if isinstance(game, GameTree) else build_tree(game)
        tree = self.tree
        shape = tree.legal.shape
        self.regrets = np.zeros(shape)
        self.cum_policy = np.zeros(shape)
        legal = tree.legal.astype(np.float64)
        self.policy = legal / legal.sum(axis=1, keepdims=True)

    def _normalised(self, table: FloatArray) -> FloatArray:
        legal = self.tree.legal
        sums = table.sum(axis=1, keepdims=True)
        uniform = legal / legal.sum(axis=1, keepdims=True)
        safe = np.where(sums > 0.0, sums, 1.0)
        return np.where(sums > 0.0, table / safe, uniform)

    def average_policy(self) -> Policy:
        return Policy.from_tree(self.tree, self._normalised(self.cum_policy), self._meta())

    def current_policy(self) -> Policy:
        return Policy.from_tree(self.tree, self.policy.copy(), self._meta())

    def exploitability(self) -> float:
        return exploitability(self.tree, self._normalised(self.cum_policy))
