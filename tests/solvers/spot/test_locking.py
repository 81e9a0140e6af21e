"""Node locking: the locked strategy comes back exactly, and the rest best-responds to it.

The spot is the polarised river of ``test_closed_form`` with a pot-sized bet: OOP holds
6 combos of nuts (AA) and 12 of air (54o), IP only QQ. Locked to call every bet, IP
can no longer be bluffed: OOP's best response bets every nut hand (wins P + B) and
never bluffs (a bluff loses B, a check loses nothing), worth ``6/18 * (P + B)``.
"""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.ranges import Range
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.solver import SpotSolver

POT = BET = 100
SPOT = Spot.from_dict({
    "board": "2c 3d 7h 8s Kh", "pot": POT, "stack": 300,
    "ranges": {"oop": "AA,54o", "ip": "QQ"},
    "sizes": {"bet": [100], "raise": [], "allin": False, "river": {"ip": {"bet": []}}},
})
ALWAYS_CALL = [0.0, 1.0]


def _air(solver: SpotSolver) -> np.ndarray:
    return np.isin(solver.combos[0], np.flatnonzero(Range("54o").weights))


def test_locked_call_is_kept_and_oop_best_responds() -> None:
    solver = SpotSolver(SPOT)
    solver.lock("b100", ALWAYS_CALL)
    solver.solve(accuracy=0.001, max_iterations=2000, check_every=100)

    labels, average = solver.strategy_at("b100")
    assert labels == ("f", "c")
    assert (average == np.array(ALWAYS_CALL)).all()  # exactly, not approximately
    assert (solver.strategy_at("b100", average=False)[1] == np.array(ALWAYS_CALL)).all()

    value = solver.expected_values()[0]
    best = solver.best_response_values()[0]
    assert best == pytest.approx(value, abs=1e-2)
    assert value == pytest.approx(6 / 18 * (POT + BET), abs=1e-2)
    root = solver.strategy_at("")[1]
    assert root[_air(solver), 1] == pytest.approx(0.0, abs=1e-3)  # no bluffs
    assert root[~_air(solver), 1] == pytest.approx(1.0, abs=1e-3)


def test_the_check_fails_when_oop_ignores_the_lock() -> None:
    """Lock only after solving the unlocked game: OOP still bluffs, and the BR sees it."""
    solver = SpotSolver(SPOT)
    solver.solve(accuracy=0.001, max_iterations=2000, check_every=100)
    solver.lock("b100", ALWAYS_CALL)
    gap = solver.best_response_values()[0] - solver.expected_values()[0]
    # At equilibrium OOP bluffs 3 of his 12 air combos (bluffs = B/(P+2B) = 1/3 of
    # 6 + 3 bets), each losing B to the locked call that a best response avoids.
    assert gap == pytest.approx(3 / 18 * BET, abs=0.05)


def test_locking_some_hands_leaves_the_others_free() -> None:
    """Half of QQ locked to call: the free half must fold, keeping IP's call at P/(P+B)."""
    solver = SpotSolver(SPOT)
    queens = solver.combos[1]
    locked = queens[::2]
    solver.lock("b100", ALWAYS_CALL, combos=locked)
    solver.solve(accuracy=0.001, max_iterations=3000, check_every=100)
    average = solver.strategy_at("b100")[1]
    is_locked = np.isin(queens, locked)
    assert is_locked.sum() == 3
    assert (average[is_locked] == np.array(ALWAYS_CALL)).all()
    # If the free half called at all, OOP would stop bluffing and calls would lose.
    assert average[~is_locked, 1] == pytest.approx(0.0, abs=2e-3)
    assert solver.best_response_values()[0] == pytest.approx(solver.expected_values()[0],
                                                              abs=1e-2)
