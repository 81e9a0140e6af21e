"""The walk skips what no opponent hand reaches, and that changes no number.

In a CFR walk the traverser's subtree goes on below a line the opponent never takes
(his own hands still get there, and their averages are updated), but a fold or a
showdown there is worth nothing and the opponent's strategy there moves no reach,
so the walk skips both. Its slow twin is the same solver with the skip switched off:
both must end with bit-identical regrets and strategy sums. IP is locked never to bet
after a check, so everything below "x b.." is unreached by IP while OOP's hands get
there (his raises and calls are still walked), on a turn spot (river cards dealt).
The other way round, OOP's strategy sums are left alone where none of his hands gets:
OOP is locked never to bet first, so below "b.." only IP's hands are.
"""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.solver import SpotSolver

SPOT = Spot.from_dict({
    "board": "Qs Jh 2h 4d", "pot": 60, "stack": 200,
    "ranges": {"oop": "AQ,JJ,T9s,65s,KQo", "ip": "QQ,AJs,KTs,98s,A5s"},
    "sizes": {"bet": [50], "raise": [100], "allin": True},
})


def _solver(skip: bool, precision: str) -> SpotSolver:
    solver = SpotSolver(SPOT, precision=precision)
    solver._skip_unreached = skip
    labels = solver.strategy_at("x")[0]
    assert labels[0] == "x" and len(labels) >= 2
    never_bet = np.zeros(len(labels))
    never_bet[0] = 1.0
    solver.lock("x", never_bet)
    check = np.zeros(len(solver.strategy_at("")[0]))
    check[0] = 1.0
    solver.lock("", check)
    return solver


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_skipping_unreached_leaves_changes_no_number(precision: str) -> None:
    fast, slow = _solver(True, precision), _solver(False, precision)
    for solver in (fast, slow):
        solver.iterate(25)
    for p in range(2):
        assert np.array_equal(fast.regret[p], slow.regret[p])
        assert np.array_equal(fast.cum[p], slow.cum[p])
    # OOP's hands did reach the lines IP never takes, and IP's the ones OOP never takes.
    for line in ("x b30", "b30"):
        labels, below = fast.strategy_at(line)
        assert len(labels) >= 2 and np.isfinite(below).all()
    assert fast.exploitability() == slow.exploitability()
