"""Deep CFR: the reservoir, regret matching on advantages, the weighting, the networks.

The whole algorithm is checked by what it must reach on Kuhn poker (exploitability
below 0.05 chips per hand, computed exactly by best response); the pieces by known
values on hand-built numbers and a statistical test of the reservoir.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
from scipy import stats

from checkraise.games import KuhnPoker, LeducPoker, build_tree
from checkraise.games.base import State
from checkraise.nn._deep_cfr_kernels import run_traversals
from checkraise.nn.deep_cfr import DeepCFRConfig, DeepCFRSolver, info_tensor_table
from checkraise.nn.deep_cfr_nets import MLP, masked_softmax, regret_matching, weighted_loss
from checkraise.nn.reservoir import Reservoir
from checkraise.solvers.best_response import exploitability

# Small enough for a few seconds (about 3 CPU seconds: 2,100 full-batch Adam steps on
# reservoirs of 3,000; traversals are cheap), large enough to converge on Kuhn: seeds
# 0..4 gave exploitability 0.036, 0.041, 0.038, 0.032, 0.036.
KUHN_FAST = DeepCFRConfig(
    iterations=30, traversals=500, advantage_steps=30, policy_steps=300, memory=3000,
    learning_rate=1e-2, advantage_batch=0, policy_batch=0, seed=0,
)


def test_kuhn_reaches_low_exploitability() -> None:
    torch.set_num_threads(1)
    game = KuhnPoker()
    solver = DeepCFRSolver(game, KUHN_FAST)
    solver.run()
    value = exploitability(game, solver.policy())
    assert value < 0.05, value


def test_reservoir_is_uniform_over_everything_offered() -> None:
    # Capacity 10 out of 100 offers, 3,000 runs: each item should be kept in
    # 3000 * 10 / 100 = 300 runs. A buffer that favours late items (replace a random
    # slot with every new item) or early ones (stop when full) fails this badly.
    capacity, items, runs = 10, 100, 3000
    rng = np.array([12345], dtype=np.uint64)
    kept = np.zeros(items, dtype=np.int64)
    target = np.zeros(1, dtype=np.float32)
    for _ in range(runs):
        buf = Reservoir(capacity, 1)
        for i in range(items):
            buf.offer(i, target, 1, rng)
        assert len(buf) == capacity and buf.offered == items
        assert len(set(buf.info.tolist())) == capacity
        kept[buf.info] += 1
    chi2 = stats.chisquare(kept, np.full(items, runs * capacity / items))
    assert chi2.pvalue > 1e-3, (chi2, kept.min(), kept.max())
    # Early and late halves kept alike (the failure modes above differ most here).
    assert abs(int(kept[:50].sum()) - int(kept[50:].sum())) < 0.06 * runs * capacity


def test_reservoir_keeps_all_while_not_full() -> None:
    buf = Reservoir(5, 2)
    rng = np.array([1], dtype=np.uint64)
    for i in range(3):
        assert buf.offer(i, np.array([i, -i], dtype=np.float32), i + 1, rng)
    assert buf.info[:3].tolist() == [0, 1, 2]
    assert buf.iteration[:3].tolist() == [1.0, 2.0, 3.0]
    assert buf.target[2].tolist() == [2.0, -2.0]


def test_reservoir_rejects_bad_capacity() -> None:
    with pytest.raises(ValueError, match="capacity=0"):
        Reservoir(0, 3)


def test_regret_matching_on_advantages() -> None:
    legal = np.array([[True, True, True], [False, True, True], [True, True, False],
                      [False, True, True]])
    adv = np.array([
        [2.0, -1.0, 6.0],    # positive parts 2 and 6 -> 1/4, 3/4
        [9.0, 1.0, 3.0],     # the illegal action's 9 counts for nothing -> 1/4, 3/4
        [-3.0, -0.5, 4.0],   # no legal positive: all on the best legal (-0.5), not on 4
        [5.0, -2.0, -1.0],   # none positive among legal: argmax -1 (action 2)
    ])
    expected = [[0.25, 0.0, 0.75], [0.0, 0.25, 0.75], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    assert regret_matching(adv, legal).tolist() == expected


def test_loss_weighs_a_sample_of_iteration_t_by_t() -> None:
    out = torch.tensor([[1.0, 2.0], [0.0, 0.0]])
    target = torch.tensor([[0.0, 0.0], [3.0, 0.0]])
    mask = torch.tensor([[True, True], [True, False]])
    # Errors squared: sample 0: 1 + 4 = 5 (t = 3), sample 1: 9 (t = 7; action 1 illegal).
    weight = torch.tensor([3.0, 7.0])
    loss = weighted_loss(out, target, weight, mask)
    assert float(loss) == pytest.approx((3 * 5 + 7 * 9) / 4)
    # Doubling one sample's iteration doubles its share exactly.
    loss2 = weighted_loss(out, target, torch.tensor([6.0, 7.0]), mask)
    assert float(loss2) - float(loss) == pytest.approx(3 * 5 / 4)


def test_traversal_samples_carry_their_iteration_and_exact_regrets() -> None:
    # With every strategy fixed to "always bet", a traversal for player 0 on Kuhn
    # explores both of player 0's actions at his first decision: pass leads to
    # player 1 betting and player 0 choosing again; bet leads to a call.
    game = KuhnPoker()
    tree = build_tree(game)
    strategy = np.zeros(tree.legal.shape)
    strategy[:, 1] = 1.0
    adv = Reservoir(100, 2)
    strat = Reservoir(100, 2)
    rng = np.array([5], dtype=np.uint64)
    run_traversals(1, 0, 7, tree.kind, tree.player, tree.infoset, tree.child_start,
                   tree.child_count, tree.action, tree.prob, tree.returns, strategy, 12, rng,
                   adv.info, adv.target, adv.iteration, adv.count,
                   strat.info, strat.target, strat.iteration, strat.count)
    assert len(adv) == 2 and len(strat) == 2
    assert set(adv.iteration[:2].tolist()) == {7.0}
    keys = [tree.infoset_keys[i] for i in adv.info[:2]]
    card = keys[0][0]
    assert sorted(keys) == sorted([card, card + "pb"])
    by_key = dict(zip(keys, adv.target[:2].tolist(), strict=True))
    # At "Xpb" (strategy: call): pass loses 1, call wins or loses 2; regret = v(a) - v(call).
    opponent = next(i for i in strat.info[:2].tolist() if tree.infoset_keys[i][1:] == "b")
    other_card = int(tree.infoset_keys[opponent][0])
    win = 2.0 if int(card) > other_card else -2.0
    assert by_key[card + "pb"] == pytest.approx([-1.0 - win, 0.0])
    # At the root both lines end in a showdown for 2 (bet-call, or pass-bet-call).
    assert by_key[card] == pytest.approx([0.0, 0.0])


def test_policy_network_gives_illegal_actions_zero() -> None:
    logits = torch.tensor([[50.0, -1.0, 3.0], [0.0, 0.0, 0.0]])
    legal = torch.tensor([[False, True, True], [True, False, True]])
    probs = masked_softmax(logits, legal)
    assert probs[0, 0].item() == 0.0 and probs[1, 1].item() == 0.0
    assert probs.sum(dim=1).tolist() == pytest.approx([1.0, 1.0])
    game = LeducPoker()
    config = DeepCFRConfig(iterations=1, traversals=20, advantage_steps=2, policy_steps=3,
                           advantage_batch=0, policy_batch=0, seed=2)
    solver = DeepCFRSolver(game, config)
    solver.run()
    policy = solver.policy()
    assert np.all(policy.probs[~policy.legal] == 0.0)
    assert (~policy.legal).any()  # Leduc has illegal actions (fold when not facing a bet)


def test_tensor_table_rows_follow_the_tree() -> None:
    game = LeducPoker()
    tree = build_tree(game)
    table = info_tensor_table(game, tree)
    assert table.shape == (936, 38)
    assert len({row.tobytes() for row in table}) == 936
    i = tree.infoset_index["Qh:"]
    assert [int(j) for j in np.flatnonzero(table[i])] == [0, 2 + 3]


def test_resume_gives_the_same_run(tmp_path: Path) -> None:
    torch.set_num_threads(1)
    config = DeepCFRConfig(iterations=4, traversals=15, advantage_steps=4, policy_steps=6,
                           advantage_batch=8, policy_batch=8, memory=40, seed=9)
    whole = DeepCFRSolver(KuhnPoker(), config)
    whole.run()
    first = DeepCFRSolver(KuhnPoker(), config)
    first.run(2, checkpoint=tmp_path)
    again = DeepCFRSolver.load(tmp_path)
    assert again.iteration == 2
    again.run()
    assert np.array_equal(again.policy().probs, whole.policy().probs)
    assert again.advantage[0].offered == whole.advantage[0].offered


def test_config_rejects_bad_values() -> None:
    with pytest.raises(ValueError, match="traversals=0"):
        DeepCFRConfig(traversals=0)
    with pytest.raises(ValueError, match="learning_rate=2"):
        DeepCFRConfig(learning_rate=2)
    with pytest.raises(ValueError, match="advantage_layers"):
        DeepCFRConfig(advantage_layers=(0,))


def test_mlp_shape() -> None:
    net = MLP(11, (8, 4), 2)
    assert net(torch.zeros(3, 11)).shape == (3, 2)
    assert net.architecture == {"inputs": 11, "hidden": [8, 4], "outputs": 2}


def test_runs_on_abstract_holdem_with_a_deal_pool() -> None:
    from checkraise.games.holdem import HoldemRules
    from checkraise.games.holdem_game import HoldemCards, HoldemGame
    from checkraise.solvers.policy import Policy

    torch.set_num_threads(1)
    game = HoldemGame("tiny", HoldemRules(stack=400),
                      HoldemCards(buckets=(2, 2, 2, 2), recall=True, deals=60, deal_seed=3))
    config = DeepCFRConfig(iterations=3, traversals=50, advantage_steps=5, policy_steps=10,
                           advantage_batch=0, policy_batch=0, seed=1)
    solver = DeepCFRSolver(game, config)
    solver.run()
    assert solver.tensors.shape == (solver.tree.num_infosets, game.information_state_tensor_size)
    policy = solver.policy()
    assert np.all(policy.probs[~policy.legal] == 0.0)
    uniform = exploitability(solver.tree, Policy.uniform(solver.tree))
    assert exploitability(solver.tree, policy) < uniform


def test_sampled_deep_cfr_reaches_low_exploitability_on_kuhn() -> None:
    from checkraise.nn.deep_cfr_sampled import SampledDeepCFR
    from checkraise.solvers.policy import Policy

    torch.set_num_threads(1)
    game = KuhnPoker()
    tree = build_tree(game)
    # Python traversals cost more than the kernel's: 200 per player and iteration
    # (seeds 0..2 gave 0.040, 0.030, 0.028; about 3 CPU seconds).
    solver = SampledDeepCFR(game, replace(KUHN_FAST, traversals=200))
    solver.run()
    probs = np.zeros(tree.legal.shape)
    states: dict[str, State] = {}

    def walk(state: State) -> None:
        if state.is_terminal():
            return
        if not state.is_chance_node():
            states.setdefault(state.information_set_key(), state)
        for a in state.legal_actions():
            walk(state.child(a))

    walk(game.initial_state())
    for key, state in states.items():
        for a, p in solver.action_probabilities(state).items():
            probs[tree.infoset_index[key], a] = p
    probs /= probs.sum(axis=1, keepdims=True)
    assert solver.num_rows == 12
    value = exploitability(tree, Policy.from_tree(tree, probs))
    assert value < 0.05, value


def test_sampled_deep_cfr_runs_on_full_deck_holdem() -> None:
    from checkraise.games.holdem import HoldemRules
    from checkraise.games.holdem_game import HoldemCards, HoldemGame
    from checkraise.nn.deep_cfr_sampled import SampledDeepCFR

    torch.set_num_threads(1)
    game = HoldemGame("tiny", HoldemRules(stack=400), HoldemCards(buckets=(8, 5, 3, 2)))
    config = DeepCFRConfig(iterations=2, traversals=3, advantage_steps=2, policy_steps=2,
                           advantage_batch=0, policy_batch=0, seed=1)
    solver = SampledDeepCFR(game, config)
    solver.run()
    assert solver.num_rows > 10
    assert solver.advantage[0].offered > 0 and solver.strategy_buffer.offered > 0
    # A history whose betting is not over: the preflop after both players' deal.
    state = game.initial_state()
    while state.is_chance_node():
        state = state.child(state.chance_outcomes()[0][0])
    probs = solver.action_probabilities(state)
    assert sorted(probs) == state.legal_actions()
    assert sum(probs.values()) == pytest.approx(1.0, abs=1e-6)
