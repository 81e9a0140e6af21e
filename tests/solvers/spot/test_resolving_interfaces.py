"""The spot solver's interfaces for subgame solving: leaf values and the re-solving gadget."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.cards import COMBO_CARDS
from checkraise.evaluator import evaluate
from checkraise.ranges import Range
from checkraise.solvers.spot import _kernels as K
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.solver import Gadget, Leaf, SpotSolver

TURN = {
    "board": "Qs Jh 2h 4d", "pot": 100, "stack": 200,
    "ranges": {"oop": "AA,KK,QJs,T9s,98s", "ip": "QQ,JJ,AKs,87s,A5s"},
    "sizes": {"bet": [50, 100], "raise": [100], "allin": True,
              "river": {"bet": [], "raise": [], "allin": False}},
}


def _check_down(board: list[int]):  # type: ignore[no-untyped-def]
    """Leaf values by brute force: each hand's share of the pot over the river cards."""
    masks = [(1 << int(a)) | (1 << int(b)) for a, b in COMBO_CARDS]
    board_mask = sum(1 << c for c in board)
    strength = {
        river: {
            c: evaluate([*board, river, int(COMBO_CARDS[c][0]), int(COMBO_CARDS[c][1])])
            for c in range(1326) if not masks[c] & (board_mask | (1 << river))
        }
        for river in range(52) if not board_mask >> river & 1
    }

    def values(leaf: Leaf, trav: int, reach: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        other = 1 - trav
        out = np.zeros(1326)
        rivals = [int(o) for o in np.flatnonzero(reach[other] > 0)]
        for h in leaf.combos[trav]:
            won = seen = 0.0
            for o in rivals:
                if masks[h] & masks[o]:
                    continue
                for river, ranks in strength.items():
                    if (masks[h] | masks[o]) >> river & 1:
                        continue
                    a, b = ranks[h], ranks[o]
                    won += reach[other][o] * (1.0 if a > b else 0.5 if a == b else 0.0)
                    seen += reach[other][o]
            out[h] = leaf.pot * won / seen if seen else 0.0
        return out

    return values


def test_leaf_values_of_a_check_down_give_the_full_trees_solution() -> None:
    # The river has no bets, so the value at the end of the turn is the check-down
    # equity: a depth-limited solve fed those values must follow the full solve
    # iteration for iteration.
    spot = Spot.from_dict(TURN)
    full = SpotSolver(spot)
    limited = SpotSolver(spot, leaf_values=_check_down([int(c) for c in spot.board]))
    assert limited.tree.num_nodes < full.tree.num_nodes
    for _ in range(3):
        full.iterate(1)
        limited.iterate(1)
        np.testing.assert_allclose(limited.regret[0][:40], full.regret[0][:40], atol=1e-9)
    full.iterate(17)
    limited.iterate(17)
    np.testing.assert_allclose(limited.expected_values(), full.expected_values(), atol=1e-9)
    np.testing.assert_allclose(limited.exploitability(), full.exploitability(), atol=1e-9)


def test_leaf_values_with_the_wrong_shape_are_refused() -> None:
    solver = SpotSolver(Spot.from_dict(TURN), leaf_values=lambda leaf, t, r: np.zeros(5))
    with pytest.raises(ValueError, match="1,326"):
        solver.iterate(1)


RIVER = {
    "board": "Qs Jh 2h 4d 7c", "pot": 100, "stack": 100,
    "ranges": {"oop": "AA,KK,QJs,T9s,98s,65s", "ip": "QQ,JJ,AKs,KQs,87s,A5s"},
    "sizes": {"bet": [50, 100], "raise": [], "allin": False},
}


def _per_hand(solver: SpotSolver, values: np.ndarray, player: int) -> np.ndarray:
    mass = np.zeros(solver.hands[player])
    K.fold_values(1.0, solver.initial_reach[1 - player], solver.cards[player],
                  solver.cards[1 - player], solver.same[player], mass)
    return values / mass


def test_gadget_bounds_below_reach_change_nothing_and_above_reach_are_taken() -> None:
    spot = Spot.from_dict(RIVER)
    plain = SpotSolver(spot)
    plain.iterate(500)
    low = SpotSolver(spot, gadget=Gadget(1, np.full(1326, -1e6)))
    low.iterate(500)
    # The gadget player never opts out, so the strategies solve the plain subgame:
    # judged there, both approach its one value, each within its exploitability.
    judge = SpotSolver(spot)
    for p in range(2):
        judge.cum[p][:] = low.cum[p]
    slack = (plain.exploitability() + judge.exploitability()) / 100.0 * spot.pot
    assert judge.exploitability() < 0.05
    assert abs(judge.expected_values()[0] - plain.expected_values()[0]) <= slack
    assert low._gadget_strategy(average=True)[0].max() < 0.01
    high = SpotSolver(spot, gadget=Gadget(1, np.full(1326, 1e6)))
    high.iterate(200)
    ip = _per_hand(high, high.root_values(K.MODE_AVERAGE)[1], 1)
    np.testing.assert_allclose(ip, 1e6, rtol=1e-6)


def _best_responses_of_ip(spot: Spot, oop_cum: np.ndarray) -> np.ndarray:
    """IP's best-response value per hand against the OOP strategy in ``oop_cum``."""
    judge = SpotSolver(spot)
    judge.cum[0][:] = oop_cum
    return _per_hand(judge, judge.root_values(K.MODE_BEST_RESPONSE)[1], 1)


def test_safe_resolve_never_gives_the_opponent_more_than_his_bounds() -> None:
    # Bounds: what each IP hand gets against an OOP strategy that was solved for an
    # IP range with few 87s and A5s, so OOP can hold every IP hand to them. Solving
    # the subgame plainly gives some IP hand far more; the gadget must not.
    spot = Spot.from_dict(RIVER)
    skewed = SpotSolver(spot, reach=(spot.weights(0), Range("QQ,JJ,AKs,KQs,87s:0.05,A5s:0.05")
                                     .weights))
    skewed.iterate(1000)
    bounds = _best_responses_of_ip(spot, skewed.cum[0])
    plain = SpotSolver(spot)
    plain.iterate(1000)
    assert np.max(_best_responses_of_ip(spot, plain.cum[0]) - bounds) > 5.0
    values = np.full(1326, 1e6)
    values[plain.combos[1]] = bounds
    safe = SpotSolver(spot, gadget=Gadget(1, values))
    safe.iterate(1000)
    assert np.max(_best_responses_of_ip(spot, safe.cum[0]) - bounds) < 0.05


def test_gadget_is_checked() -> None:
    spot = Spot.from_dict(RIVER)
    with pytest.raises(ValueError, match="gadget player"):
        SpotSolver(spot, gadget=Gadget(2, np.zeros(1326)))
    with pytest.raises(ValueError, match="1,326"):
        SpotSolver(spot, gadget=Gadget(0, np.zeros(3)))
