"""DeepStack's continual re-solving on Leduc, and its exact exploitability.

Moravcik et al. (2017), "DeepStack: expert-level artificial intelligence in heads-up
no-limit poker" (Science; supplement sections "Continual re-solving" and
"Sound reasoning"). The agent never holds a whole strategy. It keeps its own
range and the opponent's counterfactual values, and at each of its decisions
re-solves a depth-limited lookahead from them:

- in the first round, to the end of the round, the values at each leaf being the
  situation values (a value network, or an exact solve) averaged over the board
  cards with card removal;
- in the second round, to the end of the game, exactly;
- with the CFR-D re-solving gadget (Burch, Johanson & Bowling 2014) on the
  opponent's counterfactual values, so the opponent can do no better against the
  re-solved strategy than those values (up to the solve's error).

It acts by the re-solved average strategy, updates its range by it, and carries
the opponent's counterfactual best-response values against that strategy at the
node it reaches next (after the board card, the values the leaf evaluator gave for
that board, averaged over the re-solve's iterations as DeepStack does: the values
the average strategy was computed against). At the game root both ranges are
uniform and there is no gadget; a player who first acts after the opponent
re-solves the root (or, at a new round where the opponent acts first, the round's
first node) to get the values there.

The agent is deterministic given the public history, so :func:`continual_resolving_policy`
plays every public history in both seats, records its strategy for every private
card, and the exploitability of that :class:`~checkraise.solvers.policy.Policy`
is exact (:func:`checkraise.solvers.best_response.exploitability`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Protocol

import numpy as np
import numpy.typing as npt

from checkraise.errors import ConfigError
from checkraise.games.leduc import LeducPoker, LeducState
from checkraise.games.public_tree import (
    CHANCE_NODE,
    DECISION,
    FOLD,
    LEAF,
    SHOWDOWN,
    PublicTree,
)
from checkraise.games.tree import GameTree, build_tree
from checkraise.nn.values_data import DEAL_WEIGHT, NUM_CARDS, encode, solve_situation
from checkraise.solvers.best_response import exploitability
from checkraise.solvers.policy import Policy
from checkraise.solvers.subgame import combine
from checkraise.solvers.vectorised import ResolvingGadget, VectorisedCFRSolver

__all__ = [
    "ContinualResolver",
    "ContinualResolvingAgent",
    "DeepStackResult",
    "ExactValues",
    "LookaheadLeaves",
    "NetworkValues",
    "Resolve",
    "SituationValues",
    "Traced",
    "continual_resolving_policy",
    "evaluate",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Rounds = tuple[tuple[int, ...], ...]
History = tuple[int, Rounds]
#: One re-solve as traced: its history, the opponent values it started from, the
#: re-solve, and the earlier re-solve whose lookahead the history was in (if any).
Traced = tuple[History, "FloatArray | None", "Resolve", "Resolve | None"]


class SituationValues(Protocol):
    """Pot-normalised values (n, 2, 6) of second-round situations: boards (n,), pots
    (n,), ranges (n, 2, 6) each summing to 1 over the cards the board leaves."""

    def __call__(self, boards: IntArray, pots: FloatArray, ranges: FloatArray) -> FloatArray:
        ...


class NetworkValues:
    """Situation values from a value network (a callable on encoded inputs)."""

    def __init__(self, network: Callable[[FloatArray], FloatArray]) -> None:
        self.network = network

    def __call__(self, boards: IntArray, pots: FloatArray, ranges: FloatArray) -> FloatArray:
        inputs = np.stack([encode(int(b), float(p), r)
                           for b, p, r in zip(boards, pots, ranges, strict=True)])
        out: FloatArray = np.asarray(self.network(inputs)).reshape(-1, 2, NUM_CARDS)
        return out


class ExactValues:
    """Situation values by solving each situation (what the network is trained on).

    Parameters
    ----------
    iterations : int
        CFR+ iterations per situation.
    """

    def __init__(self, iterations: int) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ConfigError(f"iterations={iterations!r}; expected a whole number >= 1")
        self.iterations = iterations

    def __call__(self, boards: IntArray, pots: FloatArray, ranges: FloatArray) -> FloatArray:
        return np.stack([solve_situation(int(b), round(float(p)), r, self.iterations)
                         for b, p, r in zip(boards, pots, ranges, strict=True)])


class LookaheadLeaves:
    """The leaf values of a depth-limited Leduc lookahead (a ``LeafValues``).

    A leaf ends the first round with ``pot`` chips in. For board ``b`` the players'
    reaches ``q_p`` restricted to the cards ``b`` leaves have masses ``S_p``; the
    situation values ``v`` of the normalised ranges give, in the tree's units,
    ``cfv_p[b, h] = S_{1-p} * pot * v_p[h] / 120`` (120 deals of two private cards
    and a board), and the leaf's value is the sum over the boards ``b != h``.
    A player who brings no card to a board is given the uniform range there.
    """

    def __init__(self, tree: PublicTree, values: SituationValues) -> None:
        self.leaves = np.flatnonzero(tree.kind == LEAF)
        self.pots = tree.contributions[self.leaves].sum(axis=1)
        self.values = values
        self._key = b""
        self._cached = np.zeros((self.leaves.size, NUM_CARDS, 2, NUM_CARDS))
        # Each player's values over the solve's iterations, weighted by the call's
        # index as CFR+ weighs its average strategy (DeepStack carries these).
        self._sum = np.zeros((2, self.leaves.size, NUM_CARDS, NUM_CARDS))
        self._weight = np.zeros(2)
        self._calls = np.zeros(2, dtype=np.int64)

    def board_values(self, reach: FloatArray) -> FloatArray:
        """Both players' values per leaf and board (leaves, boards, 2, hands), tree units."""
        key = reach.tobytes()
        if key == self._key:
            return self._cached
        count = self.leaves.size
        boards = np.tile(np.arange(NUM_CARDS), count)
        pots = np.repeat(self.pots, NUM_CARDS)
        possible = 1.0 - np.eye(NUM_CARDS)  # [board, hand]
        masked = reach[:, None, :, :] * possible[None, :, None, :]  # (L, B, 2, H)
        mass = masked.sum(axis=3)
        uniform = possible[None, :, None, :] / (NUM_CARDS - 1)
        ranges = np.where(mass[..., None] > 0.0,
                          masked / np.where(mass > 0.0, mass, 1.0)[..., None], uniform)
        v = self.values(boards, pots, ranges.reshape(-1, 2, NUM_CARDS)).reshape(
            count, NUM_CARDS, 2, NUM_CARDS)
        scale = mass[:, :, ::-1] * self.pots[:, None, None] / DEAL_WEIGHT  # S of the other
        result: FloatArray = v * scale[..., None] * possible[None, :, None, :]
        self._key, self._cached = key, result
        return result

    def __call__(self, reach: FloatArray, traverser: int) -> FloatArray:
        values = self.board_values(reach)[:, :, traverser, :]
        self._calls[traverser] += 1
        weight = float(self._calls[traverser])
        self._sum[traverser] += weight * values
        self._weight[traverser] += weight
        out: FloatArray = values.sum(axis=1)
        return out

    def averaged(self, player: int) -> FloatArray:
        """``player``'s values per leaf and board (leaves, boards, hands) averaged over
        the calls so far (linearly weighted, as CFR+'s average strategy)."""
        if self._weight[player] <= 0.0:
            raise ConfigError(f"no leaf values of player {player} computed yet")
        out: FloatArray = self._sum[player] / self._weight[player]
        return out


@cache
def _lookahead_tree(board: int, rounds: Rounds, depth_limited: bool) -> PublicTree:
    cards = [c for c in range(NUM_CARDS) if c != board][:2]
    root = LeducState((cards[0], cards[1]), board, rounds)
    return LeducPoker().public_tree(root, depth_limited=depth_limited and len(rounds) == 1)


@cache
def _histories(board: int, rounds: Rounds, depth_limited: bool) -> dict[History, int]:
    """Public history -> node of a lookahead tree."""
    tree = _lookahead_tree(board, rounds, depth_limited)
    found: dict[History, int] = {(board, rounds): 0}
    pending = [(0, board, rounds)]
    while pending:
        node, at, path = pending.pop()
        for child in tree.children(node):
            edge = int(tree.edge[child])
            if tree.kind[node] == CHANCE_NODE:
                below, card = (*path, ()), edge - 1
            else:
                below, card = (*path[:-1], (*path[-1], edge)), at
            found[(card, below)] = child
            pending.append((child, card, below))
    return found


@dataclass(frozen=True, eq=False)
class Resolve:
    """One re-solve: its lookahead, average strategy, the average reach of every node,
    the opponent's best-response values at every node, and per leaf and board both
    players' values (tree units; empty in the second round)."""

    seat: int
    tree: PublicTree
    nodes: dict[History, int]
    strategy: FloatArray
    reach: FloatArray
    opponent_values: FloatArray
    leaf_values: FloatArray
    leaf_index: dict[int, int]

    def policy(self) -> Policy:
        """The re-solved average strategy of both players on the lookahead's keys."""
        rows: dict[str, FloatArray] = {}
        legal: dict[str, npt.NDArray[np.bool_]] = {}
        tree = self.tree
        for node in np.flatnonzero(tree.kind == DECISION):
            _record(self, int(node), rows)
            mask = np.zeros(tree.num_actions, dtype=np.bool_)
            mask[tree.edge[list(tree.children(int(node)))]] = True
            legal.update({key: mask for key in tree.keys[node] if key is not None})
        keys = tuple(rows)
        return Policy(keys, np.array([rows[k] for k in keys]), np.array([legal[k] for k in keys]),
                      tree.game_name, dict(tree.game_params))


class ContinualResolver:
    """Re-solves Leduc lookaheads the DeepStack way.

    Parameters
    ----------
    values : SituationValues
        The leaf evaluator of first-round lookaheads.
    iterations : int
        CFR+ iterations of each re-solve.
    progress : callable, optional
        Called with the number of re-solves so far after each.
    depth_limited : bool
        First-round lookaheads stop at the end of the round (DeepStack); without,
        they reach the end of the game (a check: no leaf evaluator at all).
    """

    def __init__(
        self,
        values: SituationValues,
        iterations: int,
        progress: Callable[[int], None] | None = None,
        depth_limited: bool = True,
    ) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ConfigError(f"iterations={iterations!r}; expected a whole number >= 1")
        self.values = values
        self.iterations = iterations
        self.resolves = 0
        self.progress = progress
        self.depth_limited = depth_limited

    def resolve(
        self,
        board: int,
        rounds: Rounds,
        seat: int,
        our_range: FloatArray,
        opponent_values: FloatArray | None,
    ) -> Resolve:
        """Re-solve from the public history ``(board, rounds)`` for ``seat``.

        ``our_range`` is our reach of the history per card; ``opponent_values`` the
        opponent's counterfactual values there (``None`` at the game root: both
        ranges uniform, no gadget).
        """
        tree = _lookahead_tree(board, rounds, self.depth_limited)
        reach = np.ones((2, NUM_CARDS))
        reach[seat] = our_range
        gadget = None if opponent_values is None else ResolvingGadget(1 - seat, opponent_values)
        leaves = LookaheadLeaves(tree, self.values) if np.any(tree.kind == LEAF) else None
        solver = VectorisedCFRSolver(tree, "cfr+", root_reach=reach, gadget=gadget,
                                     leaf_values=leaves)
        solver.iterate(self.iterations)
        self.resolves += 1
        if self.progress is not None:
            self.progress(self.resolves)
        average = solver.average_reach()
        leaf_values = np.zeros((0, NUM_CARDS, 2, NUM_CARDS))
        leaf_index: dict[int, int] = {}
        if leaves is not None:
            # DeepStack carries the opponent's values averaged over the re-solve's
            # iterations, the values the average strategy was computed against.
            leaf_values = np.stack([leaves.averaged(p) for p in range(2)], axis=2)
            leaf_index = {int(n): i for i, n in enumerate(leaves.leaves)}
            opponent = solver.node_best_response(
                1 - seat, leaf_values[:, :, 1 - seat, :].sum(axis=1))
        else:
            opponent = solver.node_best_response(1 - seat)
        return Resolve(seat, tree, _histories(board, rounds, self.depth_limited),
                       solver.average_buffer(),
                       average, opponent, leaf_values, leaf_index)


def _record(resolve: Resolve, node: int, rows: dict[str, FloatArray]) -> None:
    tree = resolve.tree
    count = int(tree.child_count[node])
    offset = int(tree.decision_offset[node])
    actions = tree.edge[tree.child_start[node] : tree.child_start[node] + count]
    for hand, key in enumerate(tree.keys[node]):
        if key is None:
            continue
        row = np.zeros(tree.num_actions)
        row[actions] = resolve.strategy[offset + hand * count : offset + (hand + 1) * count]
        rows[key] = row


def _walk(
    resolver: ContinualResolver,
    seat: int,
    board: int,
    rounds: Rounds,
    resolve: Resolve | None,
    our_range: FloatArray,
    opponent_values: FloatArray | None,
    rows: dict[str, FloatArray],
    trace: list[Traced] | None,
) -> None:
    cards = [c for c in range(NUM_CARDS) if c != board][:2]
    actor = LeducState((cards[0], cards[1]), board, rounds).current_player()
    if resolve is None or actor == seat:
        parent = resolve
        resolve = resolver.resolve(board, rounds, seat, our_range, opponent_values)
        if trace is not None:
            trace.append(((board, rounds), opponent_values, resolve, parent))
    tree = resolve.tree
    node = resolve.nodes[(board, rounds)]
    if tree.kind[node] != DECISION:
        raise ConfigError(f"history {(board, rounds)!r} is not a decision")
    if actor == seat:
        _record(resolve, node, rows)
    for child in tree.children(node):
        kind = int(tree.kind[child])
        if kind in (FOLD, SHOWDOWN):
            continue
        below = (*rounds[:-1], (*rounds[-1], int(tree.edge[child])))
        if kind == CHANCE_NODE:
            for dealt in tree.children(child):
                card = int(tree.edge[dealt]) - 1
                _walk(resolver, seat, card, (*below, ()), resolve, resolve.reach[dealt, seat],
                      resolve.opponent_values[dealt], rows, trace)
            continue
        if kind == LEAF:
            leaf = resolve.leaf_index[child]
            for card in range(NUM_CARDS):
                mine = resolve.reach[child, seat] * (np.arange(NUM_CARDS) != card)
                theirs = resolve.leaf_values[leaf, card, 1 - seat]
                _walk(resolver, seat, card, (*below, ()), None, mine, theirs, rows, trace)
            continue
        _walk(resolver, seat, board, below, resolve, resolve.reach[child, seat],
              resolve.opponent_values[child], rows, trace)


class ContinualResolvingAgent:
    """One seat of Leduc played by continual re-solving, a hand at a time.

    It keeps only the last re-solve: our range and the opponent's values at any
    later history are read from it (through a leaf, from the leaf evaluator's
    values for the board dealt), and each of our decisions re-solves from there.

    Parameters
    ----------
    values : SituationValues
        The leaf evaluator.
    iterations : int
        CFR+ iterations per re-solve.
    seat : int
        0 (acts first in both rounds) or 1.
    """

    def __init__(self, values: SituationValues, iterations: int, seat: int) -> None:
        if seat not in (0, 1):
            raise ConfigError(f"seat {seat!r}; expected 0 or 1")
        self.resolver = ContinualResolver(values, iterations)
        self.seat = seat
        self._last: Resolve | None = None
        self._at: History | None = None

    def begin_hand(self) -> None:
        """Forget the previous hand."""
        self._last = None
        self._at = None

    def _resolve(self, board: int, rounds: Rounds, our_range: FloatArray,
                 values: FloatArray | None) -> Resolve:
        self._last = self.resolver.resolve(board, rounds, self.seat, our_range, values)
        self._at = (board, rounds)
        return self._last

    def strategy(self, board: int, rounds: Rounds) -> FloatArray:
        """Our action probabilities (6 cards, 3 actions) at the public history
        ``(board, rounds)`` where we are to act (board -1 in the first round)."""
        seat = self.seat
        last = self._last
        if last is not None and self._at == (board, rounds):
            return self._rows(last)  # asked again at the same decision
        if last is None:
            last = self._resolve(-1, ((),), np.ones(NUM_CARDS), None)
            if rounds == ((),):
                return self._rows(last)
        if (board, rounds) not in last.nodes:
            # The first round ended in a leaf of the last lookahead; the board is out.
            leaf = last.nodes[(-1, (rounds[0],))]
            mine = last.reach[leaf, seat] * (np.arange(NUM_CARDS) != board)
            theirs = last.leaf_values[last.leaf_index[leaf], board, 1 - seat]
            start: Rounds = (rounds[0], ())
            last = self._resolve(board, start, mine, theirs)
            if rounds == start:
                return self._rows(last)
        node = last.nodes[(board, rounds)]
        resolve = self._resolve(board, rounds, last.reach[node, seat], last.opponent_values[node])
        return self._rows(resolve)

    @staticmethod
    def _rows(resolve: Resolve) -> FloatArray:
        rows: dict[str, FloatArray] = {}
        _record(resolve, 0, rows)
        out = np.zeros((NUM_CARDS, resolve.tree.num_actions))
        for card, key in enumerate(resolve.tree.keys[0]):
            if key is not None:
                out[card] = rows[key]
        return out

    def act(self, card: int, board: int, rounds: Rounds, rng: np.random.Generator) -> int:
        """An action for private card ``card`` at ``(board, rounds)``, drawn with ``rng``."""
        row = self.strategy(board, rounds)[card]
        return int(rng.choice(row.size, p=row / row.sum()))


@cache
def _full_tree() -> GameTree:
    return build_tree(LeducPoker())


def continual_resolving_policy(
    values: SituationValues,
    iterations: int,
    trace: list[Traced] | None = None,
    progress: Callable[[int], None] | None = None,
    depth_limited: bool = True,
) -> tuple[Policy, int]:
    """The agent's strategy at every information set of Leduc, and the re-solves it took.

    Every public history is played in both seats; ``trace`` (if given) receives each
    re-solve with the history and the opponent values it started from;
    ``progress(done)`` is called after each re-solve.
    """
    resolver = ContinualResolver(values, iterations, progress, depth_limited)
    rows: dict[str, FloatArray] = {}
    for seat in range(2):
        _walk(resolver, seat, -1, ((),), None, np.ones(NUM_CARDS), None, rows, trace)
    base = Policy.uniform(_full_tree())
    missing = set(base.keys) - set(rows)
    if missing:
        raise ConfigError(f"the walk left {len(missing)} information sets without a strategy")
    policy = combine(base, rows, {"algorithm": "continual-resolving", "iterations": iterations})
    return policy, resolver.resolves


@dataclass(frozen=True)
class DeepStackResult:
    """Exploitability (chips per hand, NashConv / 2) of the agent and of CFR+."""

    exploitability: float
    cfr_plus: float
    iterations: int
    resolves: int
    seconds: float


def evaluate(
    values: SituationValues, iterations: int, progress: Callable[[int], None] | None = None
) -> DeepStackResult:
    """The agent's exact exploitability, beside vectorised CFR+ on the whole game run
    for the same number of iterations as one re-solve."""
    start = time.perf_counter()
    policy, resolves = continual_resolving_policy(values, iterations, progress=progress)
    agent = exploitability(_full_tree(), policy)
    seconds = time.perf_counter() - start
    reference = VectorisedCFRSolver(LeducPoker(), "cfr+")
    reference.iterate(iterations)
    return DeepStackResult(agent, reference.exploitability(), iterations, resolves, seconds)
