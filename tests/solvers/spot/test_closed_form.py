"""The river game with a closed-form equilibrium: a polarised range against a bluff-catcher.

OOP holds the nuts (AA) or air (54o) on 2c 3d 7h 8s Kh, IP only QQ, which beats the
air and loses to the nuts. OOP may check or bet B into a pot P; IP may only check
behind, or fold or call the bet. Every equilibrium of this classic polarised game
(Chen & Ankenman, "The Mathematics of Poker") has:

- OOP bets every nut hand and enough air that bluffs are B / (P + 2B) of his bets
  (IP is then indifferent between calling and folding);
- IP calls P / (P + B) of the time (the bluffs are then indifferent, worth 0);
- OOP's value: nuts win P + B * P / (P + B), air wins 0, so the game is worth
  ``nuts share * (P + B P / (P + B))`` to OOP, and ``P`` minus that to IP.

None of the 12 combos of 54o or 6 of AA shares a card with the 6 combos of QQ,
so every OOP hand meets the same 6 IP hands and the nuts share is 6 / 18.
"""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.ranges import Range
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.solver import SpotSolver

POT = 100
NUTS_SHARE = 6 / 18


def _solver(bet: int) -> SpotSolver:
    spot = Spot.from_dict({
        "board": "2c 3d 7h 8s Kh", "pot": POT, "stack": 300,
        "ranges": {"oop": "AA,54o", "ip": "QQ"},
        "sizes": {"bet": [bet], "raise": [], "allin": False, "river": {"ip": {"bet": []}}},
    })
    solver = SpotSolver(spot)
    solver.solve(accuracy=0.002, max_iterations=4000, check_every=200)
    return solver


@pytest.mark.parametrize("percent", [50, 100])
def test_polarised_river_matches_the_closed_form(percent: int) -> None:
    bet = POT * percent // 100
    solver = _solver(percent)
    assert solver.exploitability() < 0.002

    root = solver.report("")
    assert root.labels == ("x", f"b{bet}")
    # The bet is the whole tree: no raise, and IP cannot bet after a check.
    assert solver.strategy_at("x")[0] == ("x",)
    nuts = np.isin(root.combos, np.flatnonzero(Range("AA").weights))
    air = np.isin(root.combos, np.flatnonzero(Range("54o").weights))
    assert nuts.sum() == 6 and air.sum() == 12 and (nuts | air).all()

    betting = root.reach * root.strategy[:, 1]
    bluff_share = betting[air].sum() / betting.sum()
    assert bluff_share == pytest.approx(bet / (POT + 2 * bet), abs=2e-4)
    # The nuts never check: checking wins P, betting wins more.
    assert root.strategy[nuts, 1] == pytest.approx(1.0, abs=1e-4)

    facing = solver.report(f"b{bet}")
    assert facing.labels == ("f", "c")
    call = facing.frequencies[1]
    assert call == pytest.approx(POT / (POT + bet), abs=2e-4)
    # Below the root a report reads the ranges that reach the node: QQ beats exactly
    # the bluffs among OOP's bets, and every hand he checks (air only).
    assert facing.equity == pytest.approx(np.full(6, bet / (POT + 2 * bet)), abs=2e-4)
    assert solver.report("x").equity == pytest.approx(np.ones(6), abs=1e-4)

    value = NUTS_SHARE * (POT + bet * POT / (POT + bet))
    v_oop, v_ip = solver.expected_values()
    assert v_oop == pytest.approx(value, abs=2e-3)
    assert v_ip == pytest.approx(POT - value, abs=2e-3)
    # Per hand: the nuts earn P + B * call, a bluff earns 0.
    assert root.ev[nuts] == pytest.approx(POT + bet * POT / (POT + bet), abs=2e-2)
    assert root.ev[air] == pytest.approx(0.0, abs=2e-2)
