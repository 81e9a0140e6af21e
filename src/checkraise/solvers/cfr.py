"""Tabular counterfactual regret minimisation and its descendants.

- CFR: Zinkevich, Johanson, Bowling & Piccione (2007), "Regret minimization in
  games with incomplete information"; simultaneous or alternating updates.
- CFR+: Tammelin (2014), "Solving large imperfect information games using CFR+":
  regret matching+ (cumulative regrets clipped at zero), alternating updates,
  average weighted by iteration number.
- Linear CFR and discounted CFR: Brown & Sandholm (2019), "Solving imperfect-
  information games via discounted regret minimization": after iteration ``t``
  positive regrets are scaled by ``t^a / (t^a + 1)``, negative ones by
  ``t^b / (t^b + 1)``, and iteration ``t``'s policy enters the average with weight
  ``t^g`` (linear CFR is ``a = b = g = 1``; DCFR defaults to 1.5, 0, 2).
- Chance-sampled CFR: Lanctot, Waugh, Zinkevich & Bowling (2009), "Monte Carlo
  sampling for regret minimization in extensive games": one chance outcome per
  chance node per pass, all actions explored.

All share :class:`_CFRBase`; the public classes only choose its parameters, as
OpenSpiel's ``CFRPlusSolver`` does. With alternating updates an iteration updates
player 0, re-derives player 0's policy, then updates player 1 against it, and so
on, which is the order OpenSpiel's ``CFRSolver``/``CFRPlusSolver`` use, so their
results agree with OpenSpiel's to rounding.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from checkraise.errors import CheckraiseError
from checkraise.games.base import Game
from checkraise.games.tree import GameTree
from checkraise.solvers import _kernels
from checkraise.solvers.base import TabularSolver

__all__ = [
    "CFRPlusSolver",
    "CFRSolver",
    "ChanceSampledCFRSolver",
    "DCFRSolver",
    "LinearCFRSolver",
]


class _CFRBase(TabularSolver):
    """Full-width (or chance-sampled) CFR with configurable regret and average rules."""

    def __init__(
        self,
        game: Game | GameTree,
        *,
        alternating: bool = True,
        regret_matching_plus: bool = False,
        discount: tuple[float, float] | None = None,
        average_exponent: float = 0.0,
        chance_sampling: bool = False,
        seed: int | None = None,
    ) -> None:
        super().__init__(game)
        if chance_sampling and not alternating:
            raise CheckraiseError("chance-sampled CFR needs alternating=True")
        self.alternating = alternating
        self.regret_matching_plus = regret_matching_plus
        self.discount = discount
        self.average_exponent = average_exponent
        self.chance_sampling = chance_sampling
        self.rng = np.random.default_rng(seed)
        tree = self.tree
        players = tree.num_players
        self._reach = np.zeros((tree.num_nodes, players + 1))
        self._values = np.zeros((tree.num_nodes, players))
        self._node_values = np.zeros(tree.num_nodes)
        self._stack = np.zeros(tree.num_nodes, dtype=np.int64)
        self._order = np.zeros(tree.num_nodes, dtype=np.int64)
        self._chosen = np.zeros(tree.num_nodes, dtype=np.int64)

    def _factors(self) -> tuple[float, float]:
        if self.discount is None:
            return 1.0, 1.0
        t = float(self.iteration)
        alpha, beta = self.discount
        return t**alpha / (t**alpha + 1.0), t**beta / (t**beta + 1.0)

    def _pass(self, traverser: int, weight: float) -> None:
        tree = self.tree
        if self.chance_sampling:
            _kernels.chance_sampled_sweep(
                tree.kind, tree.player, tree.infoset, tree.child_start, tree.child_count,
                tree.action, tree.prob, tree.returns, self.policy, self._reach,
                self._node_values, self.regrets, self.cum_policy, self._stack, self._order,
                self._chosen, traverser, weight, self.rng,
            )
        else:
            _kernels.cfr_sweep(
                tree.kind, tree.player, tree.infoset, tree.parent, tree.child_start,
                tree.child_count, tree.action, tree.prob, tree.returns, self.policy,
                self._reach, self._values, self.regrets, self.cum_policy, traverser, weight,
            )

    def _finish(self, target: int) -> None:
        positive, negative = self._factors()
        tree = self.tree
        if self.regret_matching_plus or self.discount is not None:
            _kernels.finish_regrets(
                self.regrets, tree.legal, tree.infoset_player, target,
                self.regret_matching_plus, positive, negative,
            )
        _kernels.regret_matching(self.regrets, tree.legal, tree.infoset_player, target, self.policy)

    def _iterate(self) -> None:
        weight = float(self.iteration) ** self.average_exponent
        if self.alternating:
            for player in range(self.tree.num_players):
                self._pass(player, weight)
                self._finish(player)
        else:
            self._pass(-1, weight)
            self._finish(-1)

    def _meta(self) -> dict[str, Any]:
        meta = super()._meta()
        meta["alternating"] = self.alternating
        return meta


class CFRSolver(_CFRBase):
    """Vanilla CFR: regret matching, uniform averaging.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker
    >>> solver = CFRSolver(KuhnPoker())
    >>> solver.iterate(200)
    >>> solver.exploitability() < 0.01
    True
    """

    algorithm = "cfr"

    def __init__(self, game: Game | GameTree, alternating: bool = True) -> None:
        super().__init__(game, alternating=alternating)


class CFRPlusSolver(_CFRBase):
    """CFR+: regret matching+, alternating updates, linearly weighted average.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker
    >>> solver = CFRPlusSolver(KuhnPoker())
    >>> solver.iterate(300)
    >>> solver.exploitability() < 1e-3
    True
    """

    algorithm = "cfr+"

    def __init__(self, game: Game | GameTree, alternating: bool = True) -> None:
        super().__init__(
            game, alternating=alternating, regret_matching_plus=True, average_exponent=1.0
        )


class LinearCFRSolver(_CFRBase):
    """Linear CFR: regrets and average both weighted by iteration number."""

    algorithm = "lcfr"

    def __init__(self, game: Game | GameTree, alternating: bool = True) -> None:
        super().__init__(
            game, alternating=alternating, discount=(1.0, 1.0), average_exponent=1.0
        )


class DCFRSolver(_CFRBase):
    """Discounted CFR with parameters (alpha, beta, gamma), by default (1.5, 0, 2)."""

    algorithm = "dcfr"

    def __init__(
        self,
        game: Game | GameTree,
        alpha: float = 1.5,
        beta: float = 0.0,
        gamma: float = 2.0,
        alternating: bool = True,
    ) -> None:
        super().__init__(
            game, alternating=alternating, discount=(alpha, beta), average_exponent=gamma
        )
        self.alpha, self.beta, self.gamma = alpha, beta, gamma


class ChanceSampledCFRSolver(_CFRBase):
    """Chance-sampled CFR (vanilla regret matching, uniform averaging), seeded."""

    algorithm = "cs-cfr"

    def __init__(self, game: Game | GameTree, seed: int = 0) -> None:
        super().__init__(game, chance_sampling=True, seed=seed)
        self.seed = seed

    def iterate(self, iterations: int = 1) -> None:
        # One kernel call for the whole batch: a call costs more than a Kuhn iteration.
        if iterations < 0:
            raise CheckraiseError(f"iterations={iterations!r}; expected a count >= 0")
        tree = self.tree
        _kernels.chance_sampled_run(
            tree.kind, tree.player, tree.infoset, tree.child_start, tree.child_count,
            tree.action, tree.prob, tree.returns, tree.legal, tree.infoset_player,
            self.policy, self._reach, self._node_values, self.regrets, self.cum_policy,
            self._stack, self._order, self._chosen, iterations, self.rng,
        )
        self.iteration += iterations

    def _meta(self) -> dict[str, Any]:
        meta = super()._meta()
        meta["seed"] = self.seed
        return meta
