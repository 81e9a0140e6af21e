"""Chance nodes weight each card by 1 / (cards left after the board and BOTH hands).

The spot: on the turn Js Qs Ks 2d, OOP holds the royal flush AsTs, which no river
can beat or tie, and IP holds hands that are drawing dead. IP therefore folds to
every bet, and OOP wins exactly the pot P whatever he does: betting now wins P at
once, checking wins P after the river. So OOP must be exactly indifferent between
checking and betting the turn.

Checking is worth P only if the river cards that can come beside a pair of hands
carry probabilities that add up to 1: each of the 52 - 4 - 4 = 44 cards left once
the board and both hands are removed weighs 1/44. Dividing by the cards left after
one hand (46) gives those 44 rivers 44/46 of the probability, so checking is worth
P * 44/46 and OOP strictly prefers to bet; the test computes that figure explicitly
and shows it lies far outside the tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.cards import COMBO_CARDS, combo_index, parse_card, parse_cards
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.solver import SpotSolver
from tests.naive import naive_rank

POT = 100
BOARD = "Js Qs Ks 2d"
NUTS = "AsTs"
# AA and T9s include combos that share the ace or ten of spades: card removal per pair.
IP_RANGE = "AA,QQ,T9s,22"


@pytest.fixture(scope="module")
def solver() -> SpotSolver:
    spot = Spot.from_dict({
        "board": BOARD, "pot": POT, "stack": 200,
        "ranges": {"oop": NUTS, "ip": IP_RANGE},
        "sizes": {"bet": [50], "raise": [100], "allin": False},
    })
    solver = SpotSolver(spot)
    solver.solve(accuracy=1e-4, max_iterations=1000, check_every=100)
    return solver


def _rivers(board: list[int], *hands: tuple[int, int]) -> list[int]:
    dead = set(board).union(*hands)
    return [c for c in range(52) if c not in dead]


def _ip_hands(solver: SpotSolver, nuts: tuple[int, int]) -> list[tuple[int, int]]:
    """IP's hands that can meet the nuts (the others never reach a node with them)."""
    hands = [(int(COMBO_CARDS[o][0]), int(COMBO_CARDS[o][1])) for o in solver.combos[1]]
    return [h for h in hands if not set(h) & set(nuts)]


def test_ip_is_drawing_dead_on_every_river(solver: SpotSolver) -> None:
    board = parse_cards(BOARD)
    nuts = (parse_card("As"), parse_card("Ts"))
    assert solver.combos[0].tolist() == [combo_index(*nuts)]
    ip_hands = _ip_hands(solver, nuts)
    # AsAx (3) and Ts9s never meet the nuts; 3 AA + 3 QQ + 3 T9s + 3 22 do.
    assert len(ip_hands) == 12 and len(solver.combos[1]) == 12 + 3 + 1
    for ip in ip_hands:
        for river in _rivers(board, nuts, ip):
            full = [*board, river]
            assert naive_rank([*full, *nuts]) > naive_rank([*full, *ip])


def test_nuts_are_indifferent_between_checking_and_betting(solver: SpotSolver) -> None:
    board = parse_cards(BOARD)
    nuts = (parse_card("As"), parse_card("Ts"))
    labels = solver.report("").labels
    assert labels == ("x", "b50")

    values = {}
    for action in labels:
        solver.lock("", np.eye(len(labels))[labels.index(action)])
        values[action] = float(solver.report("").ev[0])
    solver.unlock()
    assert values["b50"] == pytest.approx(POT, abs=1e-3)
    assert values["x"] == pytest.approx(POT, abs=1e-3)
    assert values["x"] == pytest.approx(values["b50"], abs=1e-3)

    # The one-hand rule, explicitly: for every IP hand, the rivers left beside both
    # hands (44) are weighted by 1 / (cards left after the board and OOP's hand, 46).
    wrong = []
    for ip in _ip_hands(solver, nuts):
        both = len(_rivers(board, nuts, ip))
        one = len(_rivers(board, nuts))
        assert (both, one) == (44, 46)
        wrong.append(POT * both / one)
    wrong_check = float(np.mean(wrong))
    assert wrong_check == pytest.approx(POT * 44 / 46)
    assert values["b50"] - wrong_check > 4.0  # the rule that divides by 46 breaks it
    assert abs(values["x"] - wrong_check) > 4.0
