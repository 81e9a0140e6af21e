"""The spot solver against the tabular solvers on the same spot written as a ``games/`` game.

:mod:`tests.solvers.spot.spot_game` builds the spot's whole history tree from the
rules (its own betting, real card removal when dealing the hands, a chance node per
turn and river card, naive showdowns). Two checks per spot (a river spot with a raise,
all-in and split pots, a turn spot, and a turn spot with a minimum bet, the all-in
threshold and rivers dealt after an all-in):

1. The spot solver's average strategy, copied into the game information set by
   information set, has the same expected values and the same best-response values
   in the game (computed by the slow history-by-history best response) as the spot
   solver reports: its sweeps, chance weighting and best response are exact. The
   copy also checks that both trees offer the same actions everywhere.
2. The game's value from tabular DCFR and CFR+ equals the spot solver's: the true
   value lies within each solver's best-response bracket, and the brackets meet.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt
import pytest

from checkraise.cards import parse_cards
from checkraise.games.tree import GameTree, build_tree
from checkraise.solvers.best_response import best_response_value, expected_values
from checkraise.solvers.cfr import CFRPlusSolver, DCFRSolver
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.solver import SpotSolver
from tests.solvers.spot.spot_game import FOLD, SpotGame


@dataclass(frozen=True)
class Case:
    board: str
    oop: str
    ip: str
    bets: tuple[int, ...]
    raises: tuple[int, ...]
    allin: bool
    raise_cap: int
    pot: int = 20
    stack: int = 40
    big_blind: int = 1
    allin_threshold: float = 0.0


CASES = {
    # A bet, one raise and all-in; AKo against AKs splits the pot.
    "river": Case("Qs Jh 2h 4d 7c", "AA,KK,QJs,T9s,A5s,AKo", "AQ,JJ,98s,AKs", (50,), (100,),
                  True, 1),
    # Draws (flush, straight, overcards) against made hands, three hands each.
    "turn": Case("Qs Jh 2h 4d", "AhKh,Qd9d,7c6c", "AcQc,JdTd,5s5c", (50,), (), False, 0),
    # A 4-chip minimum bet, the all-in threshold (a raise to 50 leaves 10 behind, less
    # than 0.67 of the pot once called: all-in 60), and rivers dealt after an all-in.
    "turn all-in": Case("Qs Jh 2h 4d", "AhKh,Qd9d", "AcQc,8h7h", (10, 50), (100,), True,
                        1, stack=60, big_blind=4, allin_threshold=0.67),
}


@cache
def _setup(name: str) -> tuple[SpotGame, GameTree, SpotSolver]:
    c = CASES[name]
    game = SpotGame(tuple(parse_cards(c.board)), c.pot, c.stack, c.oop, c.ip, c.bets,
                    c.raises, c.allin, c.raise_cap, c.big_blind, c.allin_threshold)
    spot = Spot.from_dict({
        "board": c.board, "pot": c.pot, "stack": c.stack, "raise_cap": c.raise_cap,
        "big_blind": c.big_blind, "allin_threshold": c.allin_threshold,
        "ranges": {"oop": c.oop, "ip": c.ip},
        "sizes": {"bet": list(c.bets), "raise": list(c.raises), "allin": c.allin},
    })
    solver = SpotSolver(spot)
    solver.solve(accuracy=0.05, max_iterations=600, check_every=50)
    return game, build_tree(game), solver


def test_the_all_in_case_has_its_sizes() -> None:
    solver = _setup("turn all-in")[2]
    # 10% of 20 is 2 chips, raised to the 4-chip minimum; 50% is 10.
    assert solver.strategy_at("")[0] == ("x", "b4", "b10", "b60")
    assert solver.strategy_at("b10")[0] == ("f", "c", "r60")  # 10 + 40 = 50: all-in
    # River pot 40, 50 behind: 10% is 4; 50% is 20, leaving 30 < 0.67 * 80: all-in.
    assert solver.strategy_at("b10 c 3c")[0] == ("x", "b4", "b50")


def _copy_policy(game: SpotGame, tree: GameTree, solver: SpotSolver) -> npt.NDArray[np.float64]:
    """The spot solver's average strategy as a policy table of the game tree."""
    probs = np.zeros(tree.legal.shape)
    lines: dict[str, tuple[tuple[str, ...], npt.NDArray[np.float64]]] = {}
    for i, key in enumerate(tree.infoset_keys):
        seat_text, hand_text, line = key.split("|")
        seat, hand = int(seat_text), int(hand_text)
        if line not in lines:
            lines[line] = solver.strategy_at(line)
        labels, strategy = lines[line]
        actions = np.flatnonzero(tree.legal[i])
        facing = FOLD in actions
        mine = [game.label(int(a), facing) for a in actions]
        assert sorted(mine) == sorted(labels), f"{line!r}: game {mine}, solver {labels}"
        row = strategy[int(np.searchsorted(solver.combos[seat], hand))]
        assert solver.combos[seat][np.searchsorted(solver.combos[seat], hand)] == hand
        for action, label in zip(actions, mine, strict=True):
            probs[i, action] = row[labels.index(label)]
    return probs


@pytest.mark.parametrize("name", sorted(CASES))
def test_copied_strategy_has_the_same_values_in_the_game(name: str) -> None:
    game, tree, solver = _setup(name)
    half = game.pot / 2
    probs = _copy_policy(game, tree, solver)
    ev = expected_values(tree, probs) + half
    assert ev.tolist() == pytest.approx(list(solver.expected_values()), abs=1e-9)
    br = [best_response_value(tree, probs, p) + half for p in range(2)]
    assert br == pytest.approx(list(solver.best_response_values()), abs=1e-9)
    # Not a vacuous match: the strategies are mixed and the best responses gain.
    assert br[0] > ev[0] and br[1] > ev[1]


def test_the_river_case_has_split_pots() -> None:
    tree = _setup("river")[1]
    terminal = tree.returns[tree.child_count == 0]
    assert (np.abs(terminal).sum(axis=1) == 0).any()


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("algorithm", [DCFRSolver, CFRPlusSolver])
def test_tabular_cfr_finds_the_same_game_value(name: str, algorithm: type) -> None:
    game, tree, solver = _setup(name)
    half = game.pot / 2
    tabular = algorithm(tree)
    tabular.iterate(300)
    policy = tabular.average_policy()
    value = float(expected_values(tree, policy)[0]) + half
    low = -best_response_value(tree, policy, 1) + half  # OOP's value is at least this
    high = best_response_value(tree, policy, 0) + half
    spot_br = solver.best_response_values()
    spot_low, spot_high = game.pot - spot_br[1], spot_br[0]
    assert low <= value <= high and spot_low <= solver.expected_values()[0] <= spot_high
    # The true value lies in both brackets, so they overlap; both are narrow.
    assert max(low, spot_low) <= min(high, spot_high) + 1e-12
    assert high - low < 0.05 and spot_high - spot_low < 0.05
    assert value == pytest.approx(solver.expected_values()[0], abs=0.03)
