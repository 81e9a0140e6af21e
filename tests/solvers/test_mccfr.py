"""Monte Carlo CFR (external and outcome sampling) on Kuhn poker."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.games import GameTree, build_tree, load_game
from checkraise.solvers import (
    ExternalSamplingMCCFRSolver,
    OutcomeSamplingMCCFRSolver,
    expected_values,
    exploitability,
)


@pytest.fixture(scope="module")
def kuhn() -> GameTree:
    return build_tree(load_game("kuhn"))


def test_external_sampling_solves_kuhn(kuhn: GameTree) -> None:
    solver = ExternalSamplingMCCFRSolver(kuhn, seed=11)
    solver.iterate(3_000_000)
    policy = solver.average_policy()
    assert expected_values(kuhn, policy)[0] == pytest.approx(-1.0 / 18.0, abs=1e-3)
    assert exploitability(kuhn, policy) < 1e-3


def test_outcome_sampling_approaches_equilibrium(kuhn: GameTree) -> None:
    solver = OutcomeSamplingMCCFRSolver(kuhn, seed=5)
    solver.iterate(1000)
    early = solver.exploitability()
    solver.iterate(300_000)
    late = solver.exploitability()
    assert late < 0.01 < early
    assert expected_values(kuhn, solver.average_policy())[0] == pytest.approx(-1 / 18, abs=5e-3)


@pytest.mark.parametrize("solver_class", [ExternalSamplingMCCFRSolver, OutcomeSamplingMCCFRSolver])
def test_same_seed_same_run(kuhn: GameTree, solver_class: type) -> None:
    # One batch of 500 or 500 single iterations: the same stream of samples.
    first = solver_class(kuhn, seed=3)
    first.iterate(500)
    second = solver_class(kuhn, seed=3)
    for _ in range(500):
        second.iterate(1)
    assert np.array_equal(first.regrets, second.regrets)
    other = solver_class(kuhn, seed=4)
    other.iterate(500)
    assert not np.array_equal(first.regrets, other.regrets)


def test_three_player_kuhn_and_leduc_improve() -> None:
    three = ExternalSamplingMCCFRSolver(load_game("kuhn3"), seed=0)
    three.iterate(100_000)
    assert three.exploitability() < 0.01
    leduc = ExternalSamplingMCCFRSolver(load_game("leduc"), seed=0)
    leduc.iterate(20_000)
    # Uniform play is exploitable by 2.37 chips a hand.
    assert leduc.exploitability() < 0.3


def test_epsilon_is_checked(kuhn: GameTree) -> None:
    with pytest.raises(ValueError, match="epsilon=0"):
        OutcomeSamplingMCCFRSolver(kuhn, epsilon=0.0)
