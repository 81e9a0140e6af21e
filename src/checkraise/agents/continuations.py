"""Continuation strategies at the leaves of a depth-limited turn subgame.

Brown, Sandholm & Amos (2018), "Depth-limited solving for imperfect-information games"
(NeurIPS): where a depth-limited subgame ends, the rest of the game is not one value
per hand but a choice: the opponent picks, at each leaf and with each of his hands,
which of ``k`` continuation strategies he plays from there on, while we play our
blueprint; solving the subgame with that choice in the tree makes our strategy robust
to all ``k``. Ours are the paper's four: the blueprint and the blueprint biased
towards folding, calling or raising (each such action five times as likely,
renormalised: :func:`checkraise.agents.blueprint.bias_rows`).

**Values at the bucket level.** The blueprint plays the river by its card
abstraction's river buckets, so for one blueprint river node (the abstract node the
leaf's line reaches, found as the blueprint bot reads real play) and one continuation
the river is summarised by one matrix ``M[b, g]``: our share of the pot (chips won
from the river's start on, over its pot) when our hand is in bucket ``b`` and his in
``g``, summed over the river's terminal nodes with both players' probabilities of
reaching them. A showdown is won by the higher bucket (a river bucket is a band of
exact hand strength, EHS) and split within one: the one approximation here, beside
those of the blueprint itself. The opponent's share is ``1 - M[b, g]`` (the pot goes
to someone). Matrices are computed once per abstract node and seat, and kept by the
``resolve`` bot across its decisions.

At a leaf, as with the river network (:class:`~checkraise.nn.river_values.
BucketLeafValues`), each river card is dealt, the other player's reach is summed per
bucket, and the traverser's share per bucket is ``M`` applied to it; the hand values
follow with the per-pair chance weighting. ``leaf=safe`` gives each leaf of the
subgame's choice nodes its continuation (:attr:`~checkraise.solvers.spot.Leaf.choice`);
``leaf=model`` mixes the ``k`` by a probability over the opponent's strategies
(:class:`ContinuationPosterior`, Bayes over his observed actions across hands: the
survey's exploitative version). A continuation is a whole strategy, the blueprint
biased, so his actions on every street are evidence of which one he plays (an
opponent biased before the river only is outside the model, and is read as biased).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from checkraise.agents.blueprint import BIASES, BlueprintAgent, bias_rows
from checkraise.cards import NUM_COMBOS
from checkraise.errors import ConfigError
from checkraise.games.holdem import DECISION, FOLD
from checkraise.nn.river_values import BucketLeafValues

if TYPE_CHECKING:
    from checkraise.agents.subgame import StreetStart
    from checkraise.engine import Observation, State
    from checkraise.solvers.spot.solver import Leaf

__all__ = ["ContinuationLeafValues", "ContinuationPosterior", "continuation_matrices",
           "observe_hand", "river_bucket_count", "showdown_matrix"]

FloatArray = npt.NDArray[np.float64]


def showdown_matrix(num: int, win: float = 1.0, lose: float = 0.0) -> FloatArray:
    """Our share per bucket pair at a showdown: ``win`` above, ``lose`` below, the mean
    within a bucket.

    Examples
    --------
    >>> showdown_matrix(3).tolist()
    [[0.5, 0.0, 0.0], [1.0, 0.5, 0.0], [1.0, 1.0, 0.5]]
    """
    b = np.arange(num)
    return np.where(b[:, None] > b[None, :], win,
                    np.where(b[:, None] < b[None, :], lose, 0.5 * (win + lose)))


def continuation_matrices(blueprint: BlueprintAgent, node: int | None, us: int,
                          biases: Sequence[str] = BIASES) -> FloatArray:
    """Our share of the pot per bucket pair ``(len(biases), B, B)``, one matrix per
    continuation of the opponent, from the blueprint's river decision ``node`` on with
    us at abstract position ``us`` (``None``: no river betting is left, a showdown).
    """
    tree = blueprint.tree
    game = blueprint.blueprint
    num = river_bucket_count(blueprint)
    if node is None:
        return np.repeat(showdown_matrix(num)[None], len(biases), axis=0)
    base = tree.committed[node].astype(np.float64)
    pot = float(base.sum())
    them = 1 - us
    every = np.arange(num)
    out = np.zeros((len(biases), num, num))
    sd = showdown_matrix(num, 1.0, 0.0)
    for i, bias in enumerate(biases):
        stack: list[tuple[int, FloatArray, FloatArray]] = [(node, np.ones(num), np.ones(num))]
        while stack:
            n, mine, theirs = stack.pop()
            kind = int(tree.kind[n])
            if kind == DECISION:
                actor = int(tree.player[n])
                kids = list(tree.children(n))
                rows = game.rows(n, every)
                total = rows.sum(axis=1, keepdims=True)
                rows = np.where(total > 0, rows / np.where(total > 0, total, 1.0),
                                1.0 / len(kids))
                if actor != us:
                    rows = bias_rows(rows, tree.act_kind[kids], bias)
                for j, child in enumerate(kids):
                    if actor == us:
                        stack.append((child, mine * rows[:, j], theirs))
                    else:
                        stack.append((child, mine, theirs * rows[:, j]))
                continue
            extra = tree.committed[n].astype(np.float64) - base
            reach = np.outer(mine, theirs)
            if kind == FOLD:
                share = -extra[us] / pot if int(tree.player[n]) == us else (
                    (pot + extra[them]) / pot)
                out[i] += share * reach
            else:  # a showdown: both in for the same
                win, lose = (pot + extra[them]) / pot, -extra[us] / pot
                out[i] += reach * (lose + (win - lose) * sd)
    return out


#: Matrices a cache keeps (each 4 x B x B floats: 1.3 MB for 200 buckets).
_CACHE_SIZE = 128


def river_bucket_count(blueprint: BlueprintAgent) -> int:
    """The blueprint's number of river buckets (a blueprint with perfect recall, whose
    information sets are bucket sequences, has no bucket-level river: refused)."""
    cards = blueprint.game.cards
    if cards.recall:
        raise ConfigError("continuation values read the blueprint's river by bucket; this "
                          "blueprint has perfect recall (bucket sequences): expected one without")
    return int(cards.buckets[3])


def _leaf_state(start: StreetStart, labels: Sequence[str]) -> State:
    """The engine state (stand-in hole cards) after ``labels`` of the street from ``start``."""
    from checkraise.agents.subgame import _label_action

    state = start.state.copy()
    for label in labels:
        seat = state.current_player
        assert seat is not None
        state.step(_label_action(label, start.base[seat], state.observation(seat)))
    return state


class ContinuationLeafValues(BucketLeafValues):
    """Leaf values of a depth-limited turn subgame from the ``k`` continuation strategies.

    Parameters
    ----------
    start : StreetStart
        The turn subgame's start.
    readers : (BlueprintAgent, BlueprintAgent)
        The blueprint of each engine seat (as in the ``resolve`` bot): they locate each
        leaf's river node as the blueprint bot reads real play.
    me : int
        Our engine seat; the opponent chooses continuations.
    weights : array or None
        ``None``: each leaf plays the continuation of its :attr:`Leaf.choice` (the
        subgame has the opponent's choice nodes: ``leaf=safe``); else a probability
        over the ``k`` continuations mixed at every leaf (``leaf=model``).
    cache : dict or None
        Matrices by (blueprint river node, our abstract position), shared with other
        subgames of the same blueprint (the ``resolve`` bot keeps one).
    """

    def __init__(self, start: StreetStart, readers: tuple[BlueprintAgent, BlueprintAgent],
                 me: int, weights: FloatArray | None = None,
                 cache: dict[tuple[int, int], FloatArray] | None = None) -> None:
        blueprint = readers[me]
        cards = blueprint.game.cards
        super().__init__(start.board, lambda board: cards.combo_buckets(3, board),
                         river_bucket_count(blueprint))
        if weights is not None:
            weights = np.asarray(weights, dtype=np.float64)
            if weights.shape != (len(BIASES),) or weights.min() < 0 or weights.sum() <= 0:
                raise ConfigError(f"weights {weights!r}; expected {len(BIASES)} "
                                  "probabilities of the continuations")
            weights = weights / weights.sum()
        self.start = start
        self.readers = readers
        self.me = me
        self.mine = 0 if me == start.oop_seat else 1  # our spot player
        self.weights = weights
        self._cache = {} if cache is None else cache
        self._by_line: dict[str, FloatArray] = {}

    @property
    def choices(self) -> int:
        """Leaves per end of the street the subgame's tree needs (``k``, or 1 when mixed)."""
        return len(BIASES) if self.weights is None else 1

    def matrices(self, line: str) -> FloatArray:
        """The ``k`` matrices of the river after the turn ``line`` (cached)."""
        labels = [t for t in line.split() if not t.startswith("k")]
        key = " ".join(labels)
        found = self._by_line.get(key)
        if found is None:
            state = _leaf_state(self.start, labels)
            node = -1  # no river betting: a showdown
            seat = state.current_player
            if not state.is_terminal and seat is not None and state.round == 3:
                node = self.readers[seat].locate(state.observation(seat))
            us = 0 if self.me == state.config.button else 1  # abstract position 0: button
            found = self._cache.get((node, us))
            if found is None:
                found = continuation_matrices(self.readers[self.me],
                                              None if node < 0 else node, us)
                if len(self._cache) >= _CACHE_SIZE:
                    self._cache.pop(next(iter(self._cache)))  # the oldest
                self._cache[(node, us)] = found
            self._by_line[key] = found
        return found

    def bucket_shares(self, leaves: Sequence[Leaf], trav: int, reach: FloatArray,
                      ) -> FloatArray:
        other = self.reach_per_bucket(reach[:, 1 - trav])  # (n, cards, B)
        total = other.sum(axis=2, keepdims=True)
        other = other / np.where(total > 0, total, 1.0)
        mixed: dict[str, FloatArray] = {}
        out = np.empty_like(other)
        for i, leaf in enumerate(leaves):
            mats = self.matrices(leaf.line)
            if self.weights is None:
                m = mats[leaf.choice]
            else:
                if leaf.line not in mixed:
                    mixed[leaf.line] = np.tensordot(self.weights, mats, axes=1)
                m = mixed[leaf.line]
            # ours: M applied to his buckets; his: 1 - M applied to ours
            out[i] = other[i] @ m.T if trav == self.mine else 1.0 - other[i] @ m
        return out


class ContinuationPosterior:
    """A probability over the opponent's ``k`` continuation strategies, by Bayes.

    The likelihood of a hand under strategy ``i`` (the blueprint biased by ``i``) is
    the probability that ``i`` takes all of his actions in it, summed over the hands
    he could hold: his range tracked from the start of the hand by ``i`` itself
    (:func:`observe_hand`), whose total weight at the end is that probability (times
    the same count of hands the board leaves for every ``i``). Every action keeps a
    floor of :data:`FLOOR` under every strategy, so that one action a strategy never
    takes (a misread size) does not rule it out for good. Starts uniform; kept across
    hands.
    """

    FLOOR = 1e-3

    def __init__(self) -> None:
        self.log_weights = np.zeros(len(BIASES))
        self.hands = 0

    @property
    def weights(self) -> FloatArray:
        """The probabilities of the ``k`` continuations."""
        w = np.exp(self.log_weights - self.log_weights.max())
        out: FloatArray = w / w.sum()
        return out

    def update(self, log_likelihoods: FloatArray) -> None:
        """Multiply the weights by the likelihoods of one hand (given as logs)."""
        self.log_weights = self.log_weights + np.asarray(log_likelihoods, dtype=np.float64)
        self.hands += 1


def observe_hand(posterior: ContinuationPosterior, observation: Observation,
                 readers: tuple[BlueprintAgent, BlueprintAgent], seat: int) -> int:
    """Update ``posterior`` with the actions of engine ``seat`` in the finished hand of
    ``observation`` (anyone's final view); the number of his actions read (0: no
    update).

    For each continuation ``i`` his range is tracked from a uniform start by the
    blueprint biased by ``i`` (the rows ``readers[seat]`` reads, as the blueprint bot
    reads play); its final total weight is the hand's likelihood under ``i``.
    """
    from checkraise.agents.range_tracking import board_live
    from checkraise.engine import State

    config = observation.config
    state = State(config, hole_cards=[None, None], board=observation.board, seed=0)
    weights = np.ones((len(BIASES), NUM_COMBOS))
    read = 0
    for actor, _rnd, action in observation.history:
        if actor == seat:
            obs = state.observation(actor)
            rows, kinds, child = readers[actor].read_rows(obs, action)
            live = board_live(obs.board)
            for i, bias in enumerate(BIASES):
                p = bias_rows(rows, kinds, bias)[:, child]
                weights[i] *= np.where(live, np.maximum(p, posterior.FLOOR), 0.0)
            # keep the numbers in range: the same factor for every i changes no ratio
            weights /= max(float(weights.sum(axis=1).max()), 1e-300)
            read += 1
        state.step(action)
    if read:
        live = board_live(state.board)
        totals = (weights * live).sum(axis=1)
        posterior.update(np.log(np.maximum(totals, 1e-300)))
    return read
