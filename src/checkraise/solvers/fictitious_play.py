"""Extensive-form fictitious play (XFP).

Heinrich, Lanctot & Silver (2015), "Fictitious self-play in extensive-form games":
each iteration every player computes an exact, full-width best response to the
current average profile, and the average moves towards it with step ``1 / (t + 1)``.
Averaging behaviour strategies directly would be wrong; the mix must be
realisation-equivalent, so at an information set ``I`` of player ``i`` the
average is ``sum_t x_t(I) pi_t(I, a) / sum_t x_t(I)``, with ``x_t(I)`` player
``i``'s own probability of reaching ``I`` under the ``t``-th strategy. Iteration 0's
strategy is uniform; later ones are the (pure) best responses.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from checkraise.games.base import Game
from checkraise.games.tree import DECISION_KIND, GameTree
from checkraise.solvers import _kernels
from checkraise.solvers.base import TabularSolver
from checkraise.solvers.best_response import best_response

__all__ = ["FictitiousPlaySolver"]

FloatArray = npt.NDArray[np.float64]


class FictitiousPlaySolver(TabularSolver):
    """Extensive-form fictitious play with exact best responses.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker
    >>> solver = FictitiousPlaySolver(KuhnPoker())
    >>> solver.iterate(100)
    >>> solver.exploitability() < 0.03
    True
    """

    algorithm = "xfp"

    def __init__(self, game: Game | GameTree) -> None:
        super().__init__(game)
        tree = self.tree
        # One history per information set is enough to read the owner's reach of it.
        self._witness = np.full(tree.num_infosets, -1, dtype=np.int64)
        for node in np.flatnonzero(tree.kind == DECISION_KIND)[::-1]:
            self._witness[tree.infoset[node]] = node
        self._reach = np.zeros((tree.num_nodes, tree.num_players + 1))
        self._accumulate(self.policy)

    def _accumulate(self, strategy: FloatArray) -> None:
        tree = self.tree
        _kernels.reach_sweep(
            tree.kind, tree.player, tree.infoset, tree.parent, tree.action, tree.prob,
            strategy, self._reach,
        )
        own = self._reach[self._witness, tree.infoset_player]
        self.cum_policy += own[:, None] * strategy

    def _iterate(self) -> None:
        tree = self.tree
        average = self._normalised(self.cum_policy)
        responses = np.zeros_like(average)
        for player in range(tree.num_players):
            _, choice = best_response(tree, average, player)
            for info, action in choice.items():
                responses[info, action] = 1.0
        self.policy = responses
        self._accumulate(responses)
