"""Exploitability falls as the solver iterates; float32 and two threads change nothing that
matters.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.solver import SpotSolver

RIVER = Spot.from_dict({
    "board": "Qs Jh 2h 4d 7c", "pot": 20, "stack": 60,
    "ranges": {"oop": "AA,KK,QJs,T9s,A5s,AKo,76s", "ip": "AQ,JJ,98s,AKs,KQ,33"},
    "sizes": {"bet": [50, 100], "raise": [100], "allin": True},
})
TURN = Spot.from_dict({
    "board": "Qs Jh 2h 4d", "pot": 20, "stack": 40,
    "ranges": {"oop": "AhKh,Qd9d,7c6c,KK", "ip": "AcQc,JdTd,5s5c,AhQh"},
    "sizes": {"bet": [50], "raise": [100], "allin": False}, "raise_cap": 1,
})


@pytest.mark.parametrize("algorithm", ["dcfr", "cfr+"])
def test_exploitability_decreases_over_checkpoints(algorithm: str) -> None:
    solver = SpotSolver(RIVER, algorithm=algorithm)
    start = solver.exploitability()  # the uniform strategies
    seen = [start]
    for checkpoint in (10, 40, 160, 640):
        solver.iterate(checkpoint - solver.iteration)
        seen.append(solver.exploitability())
    assert all(b < a for a, b in pairwise(seen)), seen
    assert start > 10.0 and seen[-1] < 0.05
    # The report agrees with the definition: mean best-response gain, % of the pot.
    br = solver.best_response_values()
    assert seen[-1] == pytest.approx(100 * (br[0] + br[1] - 20) / 2 / 20, rel=1e-12)


def test_float32_matches_float64() -> None:
    wide = SpotSolver(RIVER, precision="float64")
    narrow = SpotSolver(RIVER, precision="float32")
    assert narrow.regret[0].dtype == np.float32 and wide.regret[0].dtype == np.float64
    assert narrow.regret[0].nbytes * 2 == wide.regret[0].nbytes
    lines = ("", "b10", "x b20", "b20 r60")
    for solver in (wide, narrow):
        solver.iterate(50)
    # Early on, rounding has not moved any strategy.
    for line in lines:
        labels, a = wide.strategy_at(line)
        assert narrow.strategy_at(line)[0] == labels
        np.testing.assert_allclose(narrow.strategy_at(line)[1], a, atol=1e-4)
    # Later the two may settle on different mixes of hands that are indifferent, but
    # the values of the game and the distance from equilibrium stay the same.
    for solver in (wide, narrow):
        solver.iterate(250)
    assert narrow.expected_values() == pytest.approx(wide.expected_values(), abs=1e-4)
    assert narrow.exploitability() == pytest.approx(wide.exploitability(), abs=5e-3)
    assert wide.exploitability() < 0.05


def test_two_threads_give_the_one_thread_values() -> None:
    one = SpotSolver(TURN, threads=1)
    two = SpotSolver(TURN, threads=2)
    for solver in (one, two):
        solver.iterate(40)
    assert two._slots.size > 1  # several chance nodes split over the threads
    for p in range(2):
        np.testing.assert_allclose(two.regret[p], one.regret[p], rtol=0, atol=1e-12)
        np.testing.assert_allclose(two.cum[p], one.cum[p], rtol=0, atol=1e-12)
    assert two.expected_values() == pytest.approx(one.expected_values(), abs=1e-12)
    assert two.best_response_values() == pytest.approx(one.best_response_values(), abs=1e-12)
    assert two.exploitability() == pytest.approx(one.exploitability(), abs=1e-12)
    assert one.exploitability() < 5.0  # the walk did learn something


class _Clock:
    """A fake ``time`` module whose clock moves only when told to."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


@pytest.mark.parametrize(("budget", "steps"), [(5.0, 1), (6.5, 2), (9.0, 3)])
def test_solve_does_not_begin_a_step_that_would_end_past_max_seconds(
        monkeypatch: pytest.MonkeyPatch, budget: float, steps: int) -> None:
    # Each step of 10 iterations takes 3 s on the fake clock: the solver must stop when
    # the next step would end past the budget, never run past it (old rule: it began a
    # step whenever time was left, and a budget of 5 s ran until 6 s).
    from checkraise.solvers.spot import solver as solver_module

    clock = _Clock()
    monkeypatch.setattr(solver_module, "time", clock)
    solver = SpotSolver(RIVER)
    iterate = solver.iterate

    def slow_iterate(n: int) -> None:
        iterate(n)
        clock.now += 3.0

    monkeypatch.setattr(solver, "iterate", slow_iterate)
    solver.solve(accuracy=1e-9, max_iterations=1000, max_seconds=budget, check_every=10)
    assert solver.iteration == 10 * steps
    assert clock.now <= budget or steps == 1
