"""DeepFool's Monte Carlo CFR traversals with the policy network as the strategy (torch-free).

External-sampling MCCFR (Lanctot et al. 2009) as the DeepFool design uses it, with the
policy network in place of the regret tables: a traversal deals one hand (the sampled
chance outcome) and walks it for one *traverser*. At the traverser's decisions every
legal action class is expanded (its representative action,
:func:`~checkraise.nn.action_classes.representative`); the other seats' actions are
sampled from the current strategy. At each expanded decision the sampled
counterfactual value of every class ``v(a)`` and of the node ``v = sum_a sigma(a) v(a)``
give the regrets ``r(a) = v(a) - v``; the regret-matched strategy
``max(r, 0) / sum max(r, 0)`` (uniform over the legal classes when no regret is
positive) is the *label* of the decision, and the network is then fitted to the labels
with the KL loss, which plays the part of the regret tables' update. (The DeepFool
report's pseudo-code swaps the traverser's and the others' branches; its prose, and
external sampling, expand the traverser's, which is what is done here.)

Two phases, as in the design: a *fast* phase whose strategy is the rule agent
(:mod:`checkraise.nn.deepfool_rules`, no network query at all), then standard MCCFR
whose strategy is the network (:class:`~checkraise.nn.deepfool_policy.NumpyPolicy`,
weights shipped to each work item). Budget: a traversal expands the traverser's first
``expand_depth`` decisions on a path and samples its later ones from the strategy (no
label there); ``expand_depth`` large gives plain external sampling, at a cost
exponential in the traverser's decisions per hand.

The walk uses the engine's :class:`~checkraise.engine.State` with ``step`` and its O(1)
``step_back``, so no copies; values are the traverser's chips won or lost in big blinds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.backend.base import Progress
from checkraise.engine.observation import Observation
from checkraise.engine.state import State
from checkraise.errors import ConfigError
from checkraise.nn.action_classes import representative
from checkraise.nn.deepfool_data import BIG_BLIND, random_table, rule_decision
from checkraise.nn.deepfool_encoding import NUM_CLASSES, Encoded, encode, stack_encoded
from checkraise.nn.deepfool_policy import NumpyPolicy

__all__ = ["StrategyFn", "TraversalConfig", "TraversalItem", "TraversalResult", "regret_matching",
           "traversal_item", "traverse"]

StrategyFn = Callable[[Observation, Encoded], npt.NDArray[np.float64]]


@dataclass(frozen=True)
class TraversalConfig:
    """Settings of the traversals: seats, expanded traverser decisions, rule samples."""

    seats: int = 6
    expand_depth: int = 2
    rule_samples: int = 100

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= 10 or self.expand_depth < 1 or self.rule_samples < 1:
            raise ConfigError(
                f"traversal seats={self.seats!r}, expand_depth={self.expand_depth!r}, "
                f"rule_samples={self.rule_samples!r}: expected 2..10 seats, "
                "expand_depth >= 1, rule_samples >= 1"
            )


def regret_matching(values: npt.NDArray[np.float64], sigma: npt.NDArray[np.float64],
                    mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """The regret-matched strategy for action values ``values`` under strategy ``sigma``.

    Examples
    --------
    >>> import numpy as np
    >>> m = np.array([True, True, False, False, False, True])
    >>> v = np.array([0.0, 2.0, 0.0, 0.0, 0.0, -4.0])
    >>> # node value 0.5*0 + 0.25*2 + 0.25*(-4) = -0.5: regrets 0.5, 2.5, -3.5
    >>> [round(float(x), 4) for x in regret_matching(v, np.array([0.5, 0.25, 0, 0, 0, 0.25]), m)]
    [0.1667, 0.8333, 0.0, 0.0, 0.0, 0.0]
    """
    node = float(sigma @ values)
    regret = np.where(mask, values - node, 0.0)
    pos = np.maximum(regret, 0.0)
    total = pos.sum()
    if total > 1e-12:
        return np.asarray(pos / total, dtype=np.float64)
    return np.asarray(mask / mask.sum(), dtype=np.float64)


@dataclass
class TraversalResult:
    """Labels collected by traversals, and counts."""

    encodings: list[Encoded] = field(default_factory=list)
    labels: list[npt.NDArray[np.float64]] = field(default_factory=list)
    regrets: list[npt.NDArray[np.float64]] = field(default_factory=list)
    nodes: int = 0
    traversals: int = 0


def traverse(state: State, traverser: int, strategy: StrategyFn, rng: np.random.Generator,
             expand_depth: int, out: TraversalResult, depth: int = 0) -> float:
    """The traverser's sampled value (big blinds) below ``state``; labels go to ``out``.

    ``state`` is walked with ``step``/``step_back`` and left as it was found.
    """
    out.nodes += 1
    if state.is_terminal:
        return float(state.payoffs()[traverser]) / BIG_BLIND
    seat = state.current_player
    assert seat is not None
    obs = state.observation(seat)
    enc = encode(obs)
    sigma = strategy(obs, enc)
    if seat == traverser and depth < expand_depth:
        values = np.zeros(NUM_CLASSES)
        for k in (int(x) for x in np.flatnonzero(enc.mask)):
            action = representative(obs, k)
            assert action is not None
            state.step(action)
            values[k] = traverse(state, traverser, strategy, rng, expand_depth, out, depth + 1)
            state.step_back()
        node = float(sigma @ values)
        out.encodings.append(enc)
        out.labels.append(regret_matching(values, sigma, enc.mask))
        out.regrets.append(np.where(enc.mask, values - node, 0.0))
        return node
    k = int(rng.choice(NUM_CLASSES, p=sigma / sigma.sum()))  # float32 rows drift from 1
    action = representative(obs, k)
    assert action is not None
    state.step(action)
    value = traverse(state, traverser, strategy, rng, expand_depth, out, depth)
    state.step_back()
    return value


@dataclass(frozen=True)
class TraversalItem:
    """A block of traversals with its own seed (a backend work item).

    ``weights`` are the network's arrays for standard MCCFR, ``None`` for the fast
    phase (the rule agent's strategy); ``output`` is the network's kind (``policy`` or
    ``regret``, see :class:`~checkraise.nn.deepfool_net.NetConfig`).
    """

    seed: int
    traversals: int
    config: TraversalConfig
    weights: dict[str, Any] | None = None
    output: str = "policy"


def traversal_item(item: TraversalItem, progress: Progress
                   ) -> tuple[dict[str, npt.NDArray[np.generic]], npt.NDArray[np.float32],
                              dict[str, int]]:
    """Run one :class:`TraversalItem`: the labelled decisions' arrays, labels and counts.

    The arrays hold the decisions' encodings and, under ``regrets``, their sampled
    regrets (big blinds, 0 on illegal classes).
    """
    cfg = item.config
    rng = np.random.default_rng(item.seed)
    if item.weights is None:
        samples = cfg.rule_samples

        def strategy(obs: Observation, enc: Encoded) -> npt.NDArray[np.float64]:
            return rule_decision(obs, enc, rng, samples)
    else:
        policy = NumpyPolicy(item.weights, item.output)

        def strategy(obs: Observation, enc: Encoded) -> npt.NDArray[np.float64]:
            return policy.probs(enc)

    out = TraversalResult()
    for i in range(item.traversals):
        state = State(random_table(rng, cfg.seats), seed=int(rng.integers(2**31)))
        traverse(state, i % cfg.seats, strategy, rng, cfg.expand_depth, out)
        out.traversals += 1
        progress(1)
    labels = np.asarray(out.labels, dtype=np.float32).reshape(-1, NUM_CLASSES)
    stats = {"traversals": out.traversals, "nodes": out.nodes, "labels": len(out.labels)}
    arrays = stack_encoded(out.encodings).arrays()
    arrays["regrets"] = np.asarray(out.regrets, dtype=np.float32).reshape(-1, NUM_CLASSES)
    return arrays, labels, stats
