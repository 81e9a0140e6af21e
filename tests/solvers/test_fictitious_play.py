"""Extensive-form fictitious play: convergence and realisation-equivalent averaging."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.games import build_tree, load_game
from checkraise.solvers import FictitiousPlaySolver, Policy, expected_values


def test_kuhn_exploitability_falls() -> None:
    solver = FictitiousPlaySolver(load_game("kuhn"))
    solver.iterate(10)
    early = solver.exploitability()
    solver.iterate(290)
    assert solver.exploitability() < min(0.015, early / 4)


def test_average_is_the_mixture_of_the_iterates() -> None:
    # Realisation equivalence: against any fixed opponent, the averaged behaviour
    # policy earns exactly the mean of what the uniform start and each best
    # response earn. A naive per-infoset average of behaviour policies fails this.
    tree = build_tree(load_game("kuhn"))
    solver = FictitiousPlaySolver(tree)
    opponent = Policy.random(tree, np.random.default_rng(9)).probs
    mine = tree.infoset_player == 0

    def value_against_opponent(probs: np.ndarray) -> float:
        mixed = np.where(mine[:, None], probs, opponent)
        return float(expected_values(tree, mixed)[0])

    earned = [value_against_opponent(solver.policy)]
    for _ in range(12):
        solver.iterate(1)
        earned.append(value_against_opponent(solver.policy))
    assert value_against_opponent(solver.average_policy().probs) == pytest.approx(
        np.mean(earned), abs=1e-12
    )
