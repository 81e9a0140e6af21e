"""DeepFool's traversals: values and regret-matched labels on a spot computable by hand."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.engine import Action, Observation, State, TableConfig
from checkraise.errors import ConfigError
from checkraise.nn.action_classes import ALL_IN, CHECK_CALL, FOLD, LARGE, MEDIUM, SMALL
from checkraise.nn.deepfool_encoding import Encoded
from checkraise.nn.deepfool_mccfr import (
    StrategyFn,
    TraversalConfig,
    TraversalItem,
    TraversalResult,
    regret_matching,
    traversal_item,
    traverse,
)


def _river_spot() -> State:
    # Heads-up, blinds 20/40, stacks 1,000 (big blind 40 = 1 unit of value). Both limp
    # and check to the river; the big blind (seat 1) holds Ah Ad on 2c 3d 7h 9s Jc and
    # acts first on the river with 80 in the pot; seat 0 holds 4c 5d and loses.
    s = State(TableConfig.nolimit(2, 1000, 20, 40),
              hole_cards=[(8, 13), (50, 49)], board=(0, 5, 22, 31, 36))
    s.step(Action.call())
    s.step(Action.call())
    for _ in range(4):  # flop and turn: check, check
        s.step(Action.call())
    assert s.round == 3 and s.current_player == 1
    return s


def _calling(seat: int) -> StrategyFn:
    """``seat`` always checks or calls; the other seat (the traverser) plays uniformly."""
    def strategy(obs: Observation, enc: Encoded) -> np.ndarray:
        if obs.seat == seat:
            p = np.zeros(6)
            p[CHECK_CALL] = 1.0
            return p
        return enc.mask / enc.mask.sum()
    return strategy


def test_values_and_label_on_a_river_spot_by_hand() -> None:
    s = _river_spot()
    before = (s.history[:], s.current_player)
    out = TraversalResult()
    value = traverse(s, 1, _calling(0), np.random.default_rng(0), 1, out)
    assert (s.history[:], s.current_player) == before  # left as it was found
    # Against a caller the winner gains what he puts in: checking wins the 40 he put
    # in preflop (= 1 big blind); a bet of size b into 80 wins 40 + b. The representative
    # sizes: 1/2 pot = 40, 1 pot = 80, 2 pots = 160, all-in 960 (he has 960 behind).
    v = {CHECK_CALL: 1.0, SMALL: 2.0, MEDIUM: 3.0, LARGE: 5.0, ALL_IN: 25.0}
    assert len(out.labels) == 1
    enc = out.encodings[0]
    assert not enc.mask[FOLD] and all(enc.mask[k] for k in v)
    assert value == pytest.approx(sum(v.values()) / 5)
    node = sum(v.values()) / 5  # 7.2
    regrets = {k: x - node for k, x in v.items()}
    positive = {k: max(r, 0.0) for k, r in regrets.items()}
    want = np.zeros(6)
    for k, r in positive.items():
        want[k] = r / sum(positive.values())
    assert np.allclose(out.labels[0], want)
    assert want[ALL_IN] == 1.0  # only the all-in beats the uniform mix here
    assert np.allclose(out.regrets[0], [0] + [regrets[k] for k in sorted(regrets)])


def test_losing_hand_regrets_by_hand() -> None:
    s = _river_spot()
    s.step(Action.call())  # the big blind checks; seat 0 (the loser) to act, unexpanded
    out = TraversalResult()
    # seat 0 traverses: every bet loses 40 + b against a caller, checking loses 40:
    # values -1, -2, -3, -5, -25; uniform node value -7.2; positive regrets 6.2, 5.2,
    # 4.2, 2.2 (all-in: -17.8), so the label is those over their sum 17.8.
    value = traverse(s, 0, _calling(1), np.random.default_rng(0), 1, out)
    assert value == pytest.approx(-7.2)
    assert np.allclose(out.labels[0], np.array([0, 6.2, 5.2, 4.2, 2.2, 0]) / 17.8)


def test_regret_matching_without_positive_regret_is_uniform() -> None:
    m = np.array([False, True, True, False, False, False])
    got = regret_matching(np.array([0, 3.0, 3.0, 0, 0, 0]), np.array([0, 0.5, 0.5, 0, 0, 0]), m)
    assert got.tolist() == [0, 0.5, 0.5, 0, 0, 0]


def test_items_are_reproducible_and_label_every_expanded_decision() -> None:
    item = TraversalItem(seed=4, traversals=3, config=TraversalConfig(expand_depth=1,
                                                                      rule_samples=20))
    a, labels, stats = traversal_item(item, lambda n: None)
    b, labels2, _ = traversal_item(item, lambda n: None)
    assert np.array_equal(labels, labels2) and np.array_equal(a["history"], b["history"])
    assert stats["traversals"] == 3 and stats["labels"] == len(labels) == 3
    assert np.allclose(labels.sum(axis=1), 1.0)
    assert (labels[~a["mask"]] == 0).all()


def test_bad_settings() -> None:
    with pytest.raises(ConfigError, match="expand_depth=0"):
        TraversalConfig(expand_depth=0)
