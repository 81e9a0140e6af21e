"""Continuation strategies at depth-limited leaves: matrices, leaf values, choices, posterior.

Oracles: a recursive walk of the blueprint's river for one pair of buckets (the matrix
code walks all pairs at once with outer products); per-bucket loops; the spot solver
without choice nodes (identical leaves make the choice irrelevant); a match against
the blueprint biased one way (the posterior must find the bias).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from tests.agents.test_resolve import _turn_observation

from checkraise.agents.blueprint import BIASES, BlueprintAgent, bias_rows
from checkraise.agents.continuations import (
    ContinuationLeafValues,
    ContinuationPosterior,
    continuation_matrices,
    observe_hand,
    river_bucket_count,
    showdown_matrix,
)
from checkraise.agents.resolve import ResolveAgent
from checkraise.agents.subgame import street_start
from checkraise.arena.match import play_match
from checkraise.cards import NUM_COMBOS
from checkraise.engine import State, TableConfig
from checkraise.errors import ConfigError
from checkraise.games.holdem import DECISION, FOLD
from checkraise.solvers.spot import Spot, SpotSolver

CONFIG = TableConfig.nolimit(2, stacks=20000)


def _pair_share(bp: BlueprintAgent, node: int, us: int, b: int, g: int, bias: str,
                pot: float, base: np.ndarray) -> float:
    """Our expected share for our bucket b against his bucket g, by recursion."""
    tree = bp.tree
    kind = int(tree.kind[node])
    extra = tree.committed[node] - base
    if kind == FOLD:
        return float(-extra[us] / pot if int(tree.player[node]) == us
                     else (pot + extra[1 - us]) / pot)
    if kind != DECISION:
        if b == g:
            return 0.5
        return float((pot + extra[1 - us]) / pot if b > g else -extra[us] / pot)
    actor = int(tree.player[node])
    kids = list(tree.children(node))
    row = np.asarray(bp.blueprint.row(node, b if actor == us else g), np.float64)
    row = row / row.sum() if row.sum() > 0 else np.full(len(kids), 1.0 / len(kids))
    if actor != us:
        row = bias_rows(row[None], tree.act_kind[kids], bias)[0]
    return sum(float(p) * _pair_share(bp, child, us, b, g, bias, pot, base)
               for p, child in zip(row, kids, strict=True) if p > 0)


def test_matrices_equal_a_recursive_walk_pair_by_pair() -> None:
    bp = BlueprintAgent(file="small")
    tree = bp.tree
    node = tree.find("cc/r200c/r400c/")  # a river decision after some betting
    assert int(tree.street[node]) == 3 and int(tree.kind[node]) == DECISION
    for us in (0, 1):
        mats = continuation_matrices(bp, node, us)
        assert mats.shape == (4, river_bucket_count(bp), river_bucket_count(bp))
        base = tree.committed[node]
        pot = float(base.sum())
        for i, bias in enumerate(BIASES):
            for b, g in ((199, 0), (0, 199), (120, 80), (57, 57), (150, 160)):
                want = _pair_share(bp, node, us, b, g, bias, pot, base)
                assert mats[i, b, g] == pytest.approx(want, abs=1e-9), (us, bias, b, g)


def test_no_river_betting_is_a_showdown_by_bucket() -> None:
    bp = BlueprintAgent(file="small")
    mats = continuation_matrices(bp, None, 0)
    num = river_bucket_count(bp)
    assert np.array_equal(mats[2], showdown_matrix(num))
    assert mats[0, 5, 3] == 1.0 and mats[0, 3, 5] == 0.0 and mats[0, 4, 4] == 0.5


def _subgame_leaf_values(seed: int) -> tuple[Any, Any]:
    obs, hole = _turn_observation(seed)
    readers = (BlueprintAgent(file="small", seed=1), BlueprintAgent(file="small", seed=1))
    for s in range(2):
        readers[s].begin_hand(s, CONFIG, hole if s == obs.seat else (0, 1), seed)
    start = street_start(obs)
    return ContinuationLeafValues(start, readers, obs.seat), obs


def test_leaf_shares_are_the_matrix_on_the_other_players_buckets() -> None:
    values, _ = _subgame_leaf_values(21)
    rng = np.random.default_rng(4)
    reach = rng.random((1, 2, NUM_COMBOS))
    from checkraise.solvers.spot.solver import Leaf

    leaf = Leaf(node=0, line="x x", board=values.board, pot=100.0, committed=0.0,
                stack=100.0, combos=(np.arange(3), np.arange(3)), choice=2)
    m = values.matrices("x x")[2]
    for trav in (0, 1):
        got = values.bucket_shares([leaf], trav, reach)[0]
        j = 7  # one river card
        other = np.zeros(values.num)
        for h in range(NUM_COMBOS):
            b = values.buckets[j, h]
            if b >= 0:
                other[b] += reach[0, 1 - trav, h]
        other /= other.sum()
        want = m @ other if trav == values.mine else 1.0 - other @ m
        np.testing.assert_allclose(got[j], want, rtol=1e-10, atol=1e-12)


def _turn_spot() -> Spot:
    return Spot.from_dict({"board": "Ks 7h 2c 9d", "pot": 100, "stack": 300,
                           "ranges": {"oop": "AA,KQ,76s", "ip": "QQ,JTs,A2s"},
                           "sizes": {"bet": [50], "raise": [], "allin": True}})


class _Fixed:
    """Leaf values: a fixed share per combo, plus ``bonus`` to the chooser on choice 2."""

    def __init__(self, bonus: float, chooser: int) -> None:
        rng = np.random.default_rng(9)
        self.share = rng.random(NUM_COMBOS)
        self.bonus = bonus
        self.chooser = chooser

    def __call__(self, leaf: Any, trav: int, reach: Any) -> np.ndarray:
        extra = self.bonus if leaf.choice == 2 else 0.0
        sign = 1.0 if trav == self.chooser else -1.0
        return leaf.pot * (self.share + sign * extra)


def test_identical_continuations_leave_the_game_as_it_was() -> None:
    spot = _turn_spot()
    plain = SpotSolver(spot, leaf_values=_Fixed(0.0, 1))
    chosen = SpotSolver(spot, leaf_values=_Fixed(0.0, 1), leaf_choices=(1, 4))
    leaves = [n for n in range(chosen.tree.num_nodes) if chosen.tree.kind[n] == 4]
    choice = [n for n in leaves if chosen.tree.labels[n].startswith("k")]
    allin = len(leaves) - len(choice)  # an all-in end stays one leaf
    assert allin > 0 and len(choice) % 4 == 0
    assert len(choice) // 4 + allin == plain.tree.kind.tolist().count(4)
    plain.iterate(200)
    chosen.iterate(200)
    np.testing.assert_allclose(plain.expected_values(), chosen.expected_values(), atol=1e-6)


def test_the_chooser_picks_the_continuation_best_for_him() -> None:
    spot = _turn_spot()
    solver = SpotSolver(spot, leaf_values=_Fixed(0.2, 1), leaf_choices=(1, 4))
    solver.iterate(300)
    names, rows = solver.strategy_at("x x")  # IP chooses after check, check
    assert names == ("k0", "k1", "k2", "k3")
    reach = solver.locate("x x").reach[1]  # hands of his that get there
    assert reach.sum() > 0
    assert float((reach * rows[:, 2]).sum() / reach.sum()) > 0.95
    with pytest.raises(ConfigError, match="leaf_choices need leaf_values"):
        SpotSolver(spot, leaf_choices=(1, 4))


@pytest.mark.parametrize("bias", ["call", "raise"])
def test_the_posterior_finds_the_continuation_the_opponent_plays(bias: str) -> None:
    posterior = ContinuationPosterior()
    for hand in range(120):
        bots = [BlueprintAgent(file="small", seed=hand),
                BlueprintAgent(file="small", bias=bias, seed=hand + 1)]
        readers = (BlueprintAgent(file="small", seed=7), BlueprintAgent(file="small", seed=7))
        state = State(CONFIG, seed=1000 + hand)
        for s in range(2):
            bots[s].begin_hand(s, CONFIG, state.hole_cards[s], hand)
            readers[s].begin_hand(s, CONFIG, state.hole_cards[s], hand)
        while not state.is_terminal:
            p = state.current_player
            assert p is not None
            state.step(bots[p].act(state.observation(p)))
        observe_hand(posterior, state.observation(0), readers, 1)
    assert BIASES[int(np.argmax(posterior.weights))] == bias
    assert posterior.weights.max() > 0.9


@pytest.mark.parametrize("leaf", ["safe", "model"])
def test_depth_mode_with_continuations_plays_legally(leaf: str) -> None:
    result = play_match(f"resolve:mode=depth,leaf={leaf},seconds=0.5,accuracy=5",
                        "random:pfold=0.02,praise=0.3", hands=6, seed=8, workers=1)
    assert len(result.deal_chips) == 6


def test_bad_leaf_and_bias_options_name_the_value() -> None:
    with pytest.raises(ConfigError, match="leaf='tree'"):
        ResolveAgent(mode="depth", leaf="tree")
    with pytest.raises(ConfigError, match="bias='check'"):
        BlueprintAgent(file="small", bias="check")
