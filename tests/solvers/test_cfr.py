"""The tabular CFR family on games whose answers are known, and against OpenSpiel."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

from checkraise.games import GameTree, build_tree, load_game
from checkraise.solvers import (
    CFRPlusSolver,
    CFRSolver,
    ChanceSampledCFRSolver,
    DCFRSolver,
    LinearCFRSolver,
    TabularSolver,
    VectorisedCFRSolver,
    expected_values,
    exploitability,
    nash_conv,
)
from tests.solvers.openspiel_policy import from_openspiel, to_openspiel

KUHN_VALUE = -1.0 / 18.0


@pytest.fixture(scope="module")
def kuhn() -> GameTree:
    return build_tree(load_game("kuhn"))


@pytest.fixture(scope="module")
def leduc() -> GameTree:
    return build_tree(load_game("leduc"))


@pytest.mark.parametrize(
    ("solver_class", "iterations"),
    [(CFRSolver, 4000), (CFRPlusSolver, 1000), (DCFRSolver, 1000), (LinearCFRSolver, 1000)],
)
def test_kuhn_value_and_exploitability(
    kuhn: GameTree, solver_class: type[TabularSolver], iterations: int
) -> None:
    solver = solver_class(kuhn)
    solver.iterate(iterations)
    policy = solver.average_policy()
    assert expected_values(kuhn, policy)[0] == pytest.approx(KUHN_VALUE, abs=1e-3)
    assert exploitability(kuhn, policy) < 1e-3


def test_kuhn_policy_lies_in_the_published_equilibrium_family(kuhn: GameTree) -> None:
    # Kuhn (1950): player 0 bets the jack with some alpha in [0, 1/3], the king with
    # 3 alpha, never opens with the queen, and calls with the queen with alpha + 1/3;
    # player 1 bluffs the jack 1/3 after a check and calls with the queen 1/3.
    solver = CFRPlusSolver(kuhn)
    solver.iterate(3000)
    policy = solver.average_policy()

    def bet(key: str) -> float:
        return policy.action_probabilities(key)[1]

    alpha = bet("0")
    assert 0.0 <= alpha <= 1.0 / 3.0 + 1e-3
    assert bet("2") == pytest.approx(3 * alpha, abs=0.01)
    assert bet("1") == pytest.approx(0.0, abs=0.01)
    assert bet("1pb") == pytest.approx(alpha + 1.0 / 3.0, abs=0.01)
    assert bet("0p") == pytest.approx(1.0 / 3.0, abs=0.01)
    assert bet("1b") == pytest.approx(1.0 / 3.0, abs=0.01)
    assert bet("2b") == pytest.approx(1.0, abs=0.01)
    assert bet("0b") == pytest.approx(0.0, abs=0.01)


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [(CFRPlusSolver, pyspiel.CFRPlusSolver), (CFRSolver, pyspiel.CFRSolver)],
)
def test_leduc_100_iterations_equal_openspiel(leduc: GameTree, ours: type, theirs: type) -> None:
    # Deterministic algorithms with the same update order give the same policy.
    solver = ours(leduc)
    solver.iterate(100)
    policy = solver.average_policy()
    game = pyspiel.load_game("leduc_poker")
    reference = theirs(game)
    for _ in range(100):
        reference.evaluate_and_update_policy()
    expected = openspiel_exploitability.exploitability(game, reference.average_policy())
    assert exploitability(leduc, policy) == pytest.approx(expected, abs=1e-6)
    theirs_policy = from_openspiel("leduc", reference.average_policy(), policy)
    assert np.abs(theirs_policy.probs - policy.probs).max() < 1e-6


def test_leduc_value_cfr_plus(leduc: GameTree) -> None:
    # Published value of Leduc for player 0: about -0.0856.
    solver = VectorisedCFRSolver(load_game("leduc"), "cfr+")
    solver.iterate(1000)
    policy = solver.average_policy()
    assert expected_values(leduc, policy)[0] == pytest.approx(-0.0856, abs=2e-3)
    assert exploitability(leduc, policy) < 1e-3


def test_three_player_kuhn_reaches_the_published_family() -> None:
    # Szafron, Gibson & Sturtevant (2013): in three-player Kuhn poker's equilibrium
    # family player 1 (index 0) never opens with a bet and player 2's value is
    # always -1/48, while the others' values vary across the family.
    tree = build_tree(load_game("kuhn3"))
    solver = CFRPlusSolver(tree)
    solver.iterate(1000)
    policy = solver.average_policy()
    ours = nash_conv(tree, policy)
    game, theirs = to_openspiel("kuhn3", policy)
    assert ours == pytest.approx(openspiel_exploitability.nash_conv(game, theirs), abs=1e-9)
    assert ours < 1e-3
    assert expected_values(tree, policy)[1] == pytest.approx(-1.0 / 48.0, abs=1e-3)
    for card in "0123":
        assert policy.action_probabilities(card)[1] < 1e-3


def test_simultaneous_updates_converge(kuhn: GameTree) -> None:
    solver = CFRSolver(kuhn, alternating=False)
    solver.iterate(2000)
    assert solver.exploitability() < 1e-2
    assert solver.average_policy().meta["alternating"] is False


def test_chance_sampled_cfr_converges_and_is_seeded(kuhn: GameTree) -> None:
    first = ChanceSampledCFRSolver(kuhn, seed=7)
    first.iterate(50000)
    second = ChanceSampledCFRSolver(kuhn, seed=7)
    second.iterate(50000)
    assert np.array_equal(first.cum_policy, second.cum_policy)
    policy = first.average_policy()
    assert exploitability(kuhn, policy) < 5e-3
    assert expected_values(kuhn, policy)[0] == pytest.approx(KUHN_VALUE, abs=5e-3)


def test_negative_iterations_are_rejected(kuhn: GameTree) -> None:
    with pytest.raises(ValueError, match="iterations=-1"):
        CFRSolver(kuhn).iterate(-1)
