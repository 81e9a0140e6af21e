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

The same solver re-solves subgames (:mod:`checkraise.solvers.subgame`): a public
tree rooted inside a game, ``root_reach`` the players' reach of its root, and
optionally a :class:`ResolvingGadget` above the root (Burch, Johanson & Bowling
2014, "Solving imperfect information games using decomposition", the CFR-D
re-solving gadget), whose player may take a fixed value per hand instead of
entering; :func:`root_best_response` gives the counterfactual best-response
values such a gadget is given in safe re-solving.

A depth-limited tree (DeepStack's lookahead, Moravcik et al. 2017) ends in LEAF
nodes; the solver is then given ``leaf_values``, a function of both players' reach
at the leaves that returns the traverser's counterfactual values there (a value
network, or an exact solve of what lies below), called once per player per
iteration between the forward and the backward sweep.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError, ConfigError, one_of
from checkraise.games.base import Game
from checkraise.games.public_tree import DECISION, LEAF, PublicTree
from checkraise.solvers import _public_kernels as kernels
from checkraise.solvers.base import Solver
from checkraise.solvers.policy import Policy

__all__ = [
    "VECTORISED_ALGORITHMS",
    "LeafValues",
    "ResolvingGadget",
    "VectorisedCFRSolver",
    "public_exploitability",
    "root_best_response",
]

FloatArray = npt.NDArray[np.float64]

#: ``leaf_values(reach, traverser)``: ``reach`` (leaves, 2, hands) is both players'
#: reach of each LEAF node (in the order of ``np.flatnonzero(tree.kind == LEAF)``);
#: the result (leaves, hands) is the traverser's counterfactual value of each hand
#: there, in the tree's units (weighted by chance and the other player's reach).
LeafValues = Callable[[FloatArray, int], FloatArray]

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


@dataclass(frozen=True, eq=False)
class ResolvingGadget:
    """The CFR-D re-solving gadget above a subgame's root.

    Parameters
    ----------
    player : int
        The player (the opponent of the one being re-solved) who chooses, hand by
        hand, between ``values[hand]`` and entering the subgame.
    values : float array (hands,)
        His value per hand if he does not enter, in the tree's counterfactual units
        (weighted by chance and the other player's root reach).
    maxmargin : bool
        The Maxmargin gadget instead (Moravcik et al. 2016; Brown & Sandholm 2017):
        he chooses which hand enters and is paid its value minus ``values``, so the
        re-solved player maximises the smallest margin ``values - value``.
    """

    player: int
    values: FloatArray
    maxmargin: bool = False


def _root_reach(tree: PublicTree, root_reach: FloatArray | None) -> FloatArray:
    possible = tree.hand_possible[int(tree.board[0])].astype(np.float64)
    if root_reach is None:
        return np.stack([possible, possible])
    reach = np.asarray(root_reach, dtype=np.float64)
    if reach.shape != (2, tree.num_hands) or not np.all(np.isfinite(reach)) or np.any(reach < 0):
        raise ConfigError(
            f"root_reach has shape {reach.shape} (or a negative or non-finite entry); "
            f"expected finite probabilities >= 0 of shape (2, {tree.num_hands})"
        )
    # Hands the root's board rules out cannot be held, whatever the caller says.
    masked: FloatArray = reach * possible
    return masked


def _check_gadget(tree: PublicTree, gadget: ResolvingGadget) -> FloatArray:
    if gadget.player not in (0, 1):
        raise ConfigError(f"gadget player {gadget.player!r}; expected 0 or 1")
    values = np.asarray(gadget.values, dtype=np.float64)
    if values.shape != (tree.num_hands,) or not np.all(np.isfinite(values)):
        raise ConfigError(
            f"gadget values have shape {values.shape} (or a non-finite entry); "
            f"expected {tree.num_hands} finite values"
        )
    return values


class _Buffers:
    """Work arrays sized for one public tree, and the root reach its walks start from."""

    def __init__(self, tree: PublicTree, root_reach: FloatArray | None = None) -> None:
        self.reach = np.zeros((tree.num_nodes, 2, tree.num_hands))
        self.cfv = np.zeros((tree.num_nodes, tree.num_hands))
        self.root = _root_reach(tree, root_reach)
        self.entry = self.root.copy()
        self.leaf_cfv = np.zeros((tree.num_nodes, tree.num_hands))


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
            tree.hand_possible, tree.strength, buffers.root, policy, buffers.reach, buffers.cfv,
            responder, buffers.leaf_cfv,
        )
    )


def _no_leaves(tree: PublicTree) -> None:
    if np.any(tree.kind == LEAF):
        raise ConfigError(
            "the tree is depth-limited (it has LEAF nodes); its best response needs the "
            "leaf values: use VectorisedCFRSolver(..., leaf_values=...).node_best_response"
        )


def _exploitability(tree: PublicTree, policy: FloatArray, buffers: _Buffers) -> float:
    _no_leaves(tree)
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


def public_exploitability(
    game: Game | PublicTree, policy: Policy, root_reach: FloatArray | None = None
) -> float:
    """Exploitability (NashConv / 2) of ``policy``, by public-tree best response.

    ``root_reach`` (2, hands) gives the players' reach of the root when the tree is
    a subgame; the result is then in the whole game's units.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker, build_tree
    >>> round(public_exploitability(KuhnPoker(), Policy.uniform(build_tree(KuhnPoker()))), 4)
    0.4583
    """
    tree = _public_tree_of(game)
    buffers = _Buffers(tree, root_reach)
    return _exploitability(tree, _buffer_from_policy(tree, policy), buffers)


def root_best_response(
    game: Game | PublicTree,
    policy: Policy,
    responder: int,
    root_reach: FloatArray | None = None,
) -> FloatArray:
    """``responder``'s counterfactual best-response value of each hand at the root.

    The other player follows ``policy`` and reaches the root with
    ``root_reach[1 - responder]`` (default: every possible hand with probability 1);
    values are weighted by chance and that reach, not by the responder's own.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker, build_tree
    >>> uniform = Policy.uniform(build_tree(KuhnPoker()))
    >>> (root_best_response(KuhnPoker(), uniform, 1) * 6).round(4).tolist()
    [-1.5, 0.5, 3.5]
    """
    if responder not in (0, 1):
        raise ConfigError(f"responder {responder!r}; expected 0 or 1")
    tree = _public_tree_of(game)
    _no_leaves(tree)
    buffers = _Buffers(tree, root_reach)
    _best_response_value(tree, _buffer_from_policy(tree, policy), responder, buffers)
    values: FloatArray = buffers.cfv[0].copy()
    return values


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
    root_reach : float array (2, hands), optional
        Each player's reach of the root (a subgame's ranges, chance excluded);
        default 1 for every hand the root's board allows.
    gadget : ResolvingGadget, optional
        Re-solve safely: ``gadget.player`` may take ``gadget.values`` per hand
        instead of entering; his ``root_reach`` row is then ignored, his reach of
        the root being his gadget choice alone (his probability of entering, or
        with Maxmargin which hand enters).
    leaf_values : LeafValues, optional
        The value function at the LEAF nodes of a depth-limited tree (required
        exactly when the tree has leaves). Iterations then alternate in Python
        around the numba sweeps, the leaf values computed in between.

    Examples
    --------
    >>> from checkraise.games import LeducPoker
    >>> solver = VectorisedCFRSolver(LeducPoker(), "cfr+")
    >>> solver.iterate(1000)
    >>> solver.exploitability() < 1e-3
    True
    """

    def __init__(
        self,
        game: Game | PublicTree,
        algorithm: str = "cfr+",
        alternating: bool = True,
        *,
        root_reach: FloatArray | None = None,
        gadget: ResolvingGadget | None = None,
        leaf_values: LeafValues | None = None,
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
        self.leaves = np.flatnonzero(self.tree.kind == LEAF).astype(np.int64)
        if (leaf_values is None) != (self.leaves.size == 0):
            raise ConfigError(
                f"the tree has {self.leaves.size} depth-limit leaves and leaf_values is "
                f"{'missing' if leaf_values is None else 'given'}; expected leaf values "
                "exactly for a depth-limited tree"
            )
        self.leaf_values = leaf_values
        self.regret_matching_plus, self.discount, self.average_exponent = VECTORISED_ALGORITHMS[
            algorithm
        ]
        self.policy = _uniform_buffer(self.tree)
        self.regrets = np.zeros(self.tree.buffer_size)
        self.cum_policy = np.zeros(self.tree.buffer_size)
        self._buffers = _Buffers(self.tree, root_reach)
        self.gadget = gadget
        hands = self.tree.num_hands
        self._gadget_values = np.zeros(hands)
        if gadget is not None:
            self._gadget_values = _check_gadget(self.tree, gadget)
            # The gadget player's reach of the root is his gadget choice alone: his
            # blueprint reach of it is dropped (every possible hand counts 1), since a
            # counterfactual value leaves out the player's own reach. For Maxmargin
            # this is what makes the solve one zero-sum game: the choice of hand is a
            # single information set over all his hands, paid root_cfv - values
            # unweighted, so a per-hand factor in the reach the other player meets
            # would give the two players different games. The CFR-D gadget would only
            # be rescaled per hand by a positive factor (each hand's take-or-enter is
            # its own information set, and regret matching ignores a positive scale),
            # but a hand the blueprint never brings here would lose its protection.
            self._buffers.root[gadget.player] = self.tree.hand_possible[
                int(self.tree.board[0])
            ].astype(np.float64)
        self._gadget_regrets = np.zeros((2, hands))
        self._gadget_enter = np.full(hands, 0.5)
        self._gadget_average = np.zeros(hands)
        self._gadget_weight = 0.0
        if gadget is not None and gadget.maxmargin:
            possible = self._buffers.root[gadget.player]
            self._gadget_enter = possible / possible.sum()

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
        if self.leaves.size:
            self._run_with_leaves(first, iterations, alpha, beta)
            return
        kernels.public_run(
            tree.kind, tree.player, tree.child_start, tree.child_count, tree.board,
            tree.chance_reach, tree.contributions, tree.decision_offset, tree.compatible,
            tree.hand_possible, tree.strength, buffers.root, self.policy, buffers.reach,
            buffers.cfv, self.regrets, self.cum_policy, self.alternating,
            self.regret_matching_plus, self.discount is not None, alpha, beta,
            self.average_exponent, first, iterations,
            -1 if self.gadget is None else self.gadget.player, self._gadget_values,
            self._gadget_regrets, self._gadget_enter, self._gadget_average,
            self.gadget is not None and self.gadget.maxmargin, buffers.entry,
            buffers.leaf_cfv,
        )
        self._count_weights(first, iterations)

    def _count_weights(self, first: int, iterations: int) -> None:
        # The kernel's weight of iteration t, summed to normalise the gadget's average.
        self._gadget_weight += sum(
            float(t) ** self.average_exponent for t in range(first, first + iterations)
        )

    def _fill_leaves(self, traverser: int) -> None:
        """The traverser's leaf values for the reach now in the buffers."""
        assert self.leaf_values is not None
        reach = self._buffers.reach[self.leaves]
        values = np.asarray(self.leaf_values(reach, traverser), dtype=np.float64)
        if values.shape != (self.leaves.size, self.tree.num_hands):
            raise ConfigError(
                f"leaf values of shape {values.shape}; expected "
                f"{(self.leaves.size, self.tree.num_hands)}"
            )
        self._buffers.leaf_cfv[self.leaves] = values

    def _run_with_leaves(self, first: int, iterations: int, alpha: float, beta: float) -> None:
        """The kernel's iteration (alternating or simultaneous), step by step, with the
        leaf values filled in after each forward sweep."""
        tree, b = self.tree, self._buffers
        gadget_player = -1 if self.gadget is None else self.gadget.player
        maxmargin = self.gadget is not None and self.gadget.maxmargin
        hands = tree.num_hands

        def forward() -> None:
            kernels.entry_reach(b.root, gadget_player, self._gadget_enter, b.entry)
            kernels.public_reach(
                tree.kind, tree.player, tree.child_start, tree.child_count, tree.board,
                tree.decision_offset, tree.hand_possible, b.entry, self.policy, b.reach,
            )

        def sweep(p: int, weight: float, positive: float, negative: float) -> None:
            self._fill_leaves(p)
            kernels.public_cfr_sweep(
                tree.kind, tree.player, tree.child_start, tree.child_count, tree.board,
                tree.chance_reach, tree.contributions, tree.decision_offset, tree.compatible,
                tree.hand_possible, tree.strength, self.policy, b.reach, b.cfv, self.regrets,
                self.cum_policy, p, weight, b.leaf_cfv,
            )
            if p == gadget_player:
                kernels.gadget_update(
                    b.cfv[0], self._gadget_values, self._gadget_regrets, self._gadget_enter,
                    self._gadget_average, weight, b.root[p], maxmargin,
                    self.regret_matching_plus, positive, negative,
                )

        def finish(p: int, positive: float, negative: float) -> None:
            kernels.public_finish(
                tree.kind, tree.player, tree.child_count, tree.decision_offset, self.regrets,
                self.policy, hands, p, self.regret_matching_plus, positive, negative,
            )

        for t in range(first, first + iterations):
            positive = negative = 1.0
            if self.discount is not None:
                positive = t**alpha / (t**alpha + 1.0)
                negative = t**beta / (t**beta + 1.0)
            weight = float(t) ** self.average_exponent
            if self.alternating:
                for p in range(2):
                    forward()
                    sweep(p, weight, positive, negative)
                    finish(p, positive, negative)
            else:
                forward()
                for p in range(2):
                    sweep(p, weight, positive, negative)
                for p in range(2):
                    finish(p, positive, negative)
        self._count_weights(first, iterations)

    def _average_entry(self) -> FloatArray:
        entry = self._buffers.root.copy()
        if self.gadget is not None:
            entry[self.gadget.player] *= self.gadget_average
        return entry

    def average_reach(self) -> FloatArray:
        """Both players' reach of every node (nodes, 2, hands) under the average policy,
        from the root reach (the gadget player's being his average gadget choice)."""
        tree = self.tree
        reach = np.zeros((tree.num_nodes, 2, tree.num_hands))
        kernels.public_reach(
            tree.kind, tree.player, tree.child_start, tree.child_count, tree.board,
            tree.decision_offset, tree.hand_possible, self._average_entry(),
            self.average_buffer(), reach,
        )
        return reach

    def node_best_response(
        self, responder: int, leaf_cfv: FloatArray | None = None
    ) -> FloatArray:
        """``responder``'s counterfactual best-response values at every node (nodes, hands)
        against the average policy of the other player, who reaches the root with his
        root reach; leaves take ``leaf_cfv`` (leaves, hands) if given, else the leaf
        values at both players' :meth:`average_reach`."""
        if responder not in (0, 1):
            raise ConfigError(f"responder {responder!r}; expected 0 or 1")
        tree, b = self.tree, self._buffers
        policy = self.average_buffer()
        entry = self._average_entry()
        if self.leaves.size and leaf_cfv is not None:
            given = np.asarray(leaf_cfv, dtype=np.float64)
            if given.shape != (self.leaves.size, tree.num_hands):
                raise ConfigError(f"leaf_cfv of shape {given.shape}; expected "
                                  f"{(self.leaves.size, tree.num_hands)}")
            b.leaf_cfv[self.leaves] = given
        elif self.leaves.size:
            b.reach[:] = self.average_reach()
            self._fill_leaves(responder)
        kernels.public_best_response(
            tree.kind, tree.player, tree.child_start, tree.child_count, tree.board,
            tree.chance_reach, tree.contributions, tree.decision_offset, tree.compatible,
            tree.hand_possible, tree.strength, entry, policy, b.reach, b.cfv, responder,
            b.leaf_cfv,
        )
        values: FloatArray = b.cfv.copy()
        return values

    @property
    def gadget_entry(self) -> FloatArray:
        """The gadget player's current probability of entering, per hand (0.5 before
        the first iteration; all 0.5 without a gadget); with Maxmargin, which hand
        enters (a distribution over his possible hands)."""
        return self._gadget_enter.copy()

    @property
    def gadget_average(self) -> FloatArray:
        """The gadget player's average choice over the iterations, weighted as the
        average policy is (:attr:`gadget_entry` before the first iteration): with
        the average policy, his side of the gadget game's approximate equilibrium."""
        if self._gadget_weight <= 0.0:
            return self.gadget_entry
        average: FloatArray = self._gadget_average / self._gadget_weight
        return average

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
        """NashConv / 2 of the average policy; on a subgame, for the root reach given
        (the gadget player's row counts every possible hand) and without the gadget."""
        return _exploitability(self.tree, self.average_buffer(), self._buffers)

    def _meta(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm_name,
            "iterations": self.iteration,
            "alternating": self.alternating,
            "solver": "vectorised",
        }
