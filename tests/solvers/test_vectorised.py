"""The vectorised (public-tree) CFR against the tabular CFR, iteration for iteration."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from checkraise.errors import ConfigError
from checkraise.games import LeducPoker, build_tree, load_game
from checkraise.games.public_tree import LEAF, SHOWDOWN
from checkraise.solvers import (
    CFRPlusSolver,
    CFRSolver,
    DCFRSolver,
    LinearCFRSolver,
    Policy,
    TabularSolver,
    VectorisedCFRSolver,
    best_response_value,
    make_solver,
)
from checkraise.solvers.vectorised import ResolvingGadget, root_best_response

TABULAR: dict[str, type[TabularSolver]] = {
    "cfr": CFRSolver,
    "cfr+": CFRPlusSolver,
    "lcfr": LinearCFRSolver,
    "dcfr": DCFRSolver,
}


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "lcfr", "dcfr"])
@pytest.mark.parametrize("alternating", [True, False])
def test_same_average_policy_as_tabular(name: str, algorithm: str, alternating: bool) -> None:
    game = load_game(name)
    tree = build_tree(game)
    tabular = TABULAR[algorithm](tree, alternating=alternating)  # type: ignore[call-arg]
    vectorised = VectorisedCFRSolver(game, algorithm, alternating=alternating)
    tabular.iterate(40)
    # Batched and one-at-a-time iterations must be the same iterations.
    vectorised.iterate(25)
    for _ in range(15):
        vectorised.iterate(1)
    ours = vectorised.average_policy().on_tree(tree)
    # DCFR's halving of negative regrets amplifies rounding near zero a little.
    tolerance = 1e-7 if algorithm == "dcfr" else 1e-9
    assert np.abs(ours - tabular.average_policy().probs).max() < tolerance
    assert np.abs(vectorised.current_policy().on_tree(tree) - tabular.policy).max() < tolerance
    assert vectorised.exploitability() == pytest.approx(tabular.exploitability(), abs=1e-9)


def test_make_solver_picks_vectorised_only_where_it_exists() -> None:
    assert isinstance(make_solver("dcfr", load_game("leduc")), VectorisedCFRSolver)
    assert isinstance(make_solver("cfr", load_game("kuhn3")), CFRSolver)
    with pytest.raises(ValueError, match="no vectorised solver"):
        make_solver("es-mccfr", load_game("leduc"), vectorised=True)
    with pytest.raises(ValueError, match="unknown algorithm 'cfr-'"):
        make_solver("cfr-", load_game("leduc"))


def test_games_without_public_tree_are_refused() -> None:
    with pytest.raises(ValueError, match="players=2"):
        VectorisedCFRSolver(load_game("kuhn3"))
    with pytest.raises(ValueError, match="'xyz'"):
        VectorisedCFRSolver(load_game("kuhn"), "xyz")


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_root_best_response_adds_up_to_the_tabular_best_response(name: str) -> None:
    game = load_game(name)
    tree = build_tree(game)
    policy = Policy.random(tree, np.random.default_rng(7))
    for responder in range(2):
        per_hand = root_best_response(game, policy, responder)
        assert per_hand.shape == ((6,) if name == "leduc" else (3,))
        assert per_hand.sum() == pytest.approx(best_response_value(tree, policy, responder))


def test_root_reach_and_gadget_are_checked() -> None:
    game = load_game("kuhn")
    with pytest.raises(ConfigError, match=r"root_reach has shape \(3,\)"):
        VectorisedCFRSolver(game, root_reach=np.ones(3))
    with pytest.raises(ConfigError, match="root_reach"):
        VectorisedCFRSolver(game, root_reach=-np.ones((2, 3)))
    with pytest.raises(ConfigError, match="gadget player 2"):
        VectorisedCFRSolver(game, gadget=ResolvingGadget(2, np.zeros(3)))
    with pytest.raises(ConfigError, match=r"gadget values have shape \(4,\)"):
        VectorisedCFRSolver(game, gadget=ResolvingGadget(1, np.zeros(4)))
    with pytest.raises(ConfigError, match="responder 3"):
        root_best_response(game, Policy.uniform(build_tree(game)), 3)


@pytest.mark.parametrize("maxmargin", [False, True])
def test_gadget_ignores_its_players_own_reach(maxmargin: bool) -> None:
    """A counterfactual value leaves out the player's own reach, so the gadget player's
    reach of the root (his blueprint's) must not change the solve, even a hand's reach
    of 0: his root reach is his gadget choice alone. Maxmargin's choice is one
    information set over all hands, so any per-hand factor would change it."""
    game = load_game("leduc")
    rng = np.random.default_rng(11)
    reach = rng.uniform(0.1, 1.0, (2, 6))
    values = rng.normal(0.0, 0.3, 6)
    runs = []
    for own in (np.ones(6), np.array([1e-3, 1.0, 0.0, 0.2, 1e-6, 0.5])):
        solver = VectorisedCFRSolver(
            game, "cfr+", root_reach=np.stack([reach[0], own]),
            gadget=ResolvingGadget(1, values, maxmargin=maxmargin),
        )
        solver.iterate(50)
        runs.append((solver.average_buffer(), solver.gadget_entry, solver.gadget_average))
    for ours, theirs in zip(runs[0], runs[1], strict=True):
        assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("maxmargin", [False, True])
def test_gadget_average_is_the_weighted_mean_of_its_choices(maxmargin: bool) -> None:
    # Naive twin: CFR+ weighs iteration t by t, and iteration t walks the choice
    # the gadget player held before it.
    game = load_game("leduc")
    values = np.random.default_rng(12).normal(0.0, 0.3, 6)
    solver = VectorisedCFRSolver(game, "cfr+", gadget=ResolvingGadget(0, values, maxmargin))
    assert np.array_equal(solver.gadget_average, solver.gadget_entry)
    total = np.zeros(6)
    for t in range(1, 31):
        total += t * solver.gadget_entry
        solver.iterate(1)
    expected = total / sum(range(1, 31))
    assert np.allclose(solver.gadget_average, expected, rtol=1e-12, atol=1e-15)
    if maxmargin:
        assert solver.gadget_average.sum() == pytest.approx(1.0)


def test_depth_limited_trees_need_leaf_values_and_nothing_else_takes_them() -> None:
    limited = LeducPoker().public_tree(depth_limited=True)
    assert int((limited.kind == LEAF).sum()) == 5 and limited.num_nodes == 15
    with pytest.raises(ConfigError, match="5 depth-limit leaves and leaf_values is missing"):
        VectorisedCFRSolver(limited)
    with pytest.raises(ConfigError, match="0 depth-limit leaves and leaf_values is given"):
        VectorisedCFRSolver(LeducPoker(), leaf_values=lambda reach, p: reach[:, p])
    solver = VectorisedCFRSolver(limited, leaf_values=lambda reach, p: np.zeros((5, 6)))
    with pytest.raises(ConfigError, match="depth-limited"):
        solver.exploitability()
    bad = VectorisedCFRSolver(limited, leaf_values=lambda reach, p: np.zeros((5, 5)))
    with pytest.raises(ConfigError, match=r"leaf values of shape \(5, 5\)"):
        bad.iterate(1)


def test_leaf_values_that_pay_the_showdown_make_round_one_a_game_of_its_own() -> None:
    # If every leaf pays what a showdown of the private cards alone would pay (as if
    # the board never paired), the depth-limited tree is the one-round game whose
    # terminal values the kernel computes itself: both solves agree to rounding.
    limited = LeducPoker().public_tree(depth_limited=True)
    leaves = np.flatnonzero(limited.kind == LEAF)
    rank = np.arange(6) // 2

    def showdown(reach: np.ndarray, traverser: int) -> np.ndarray:
        # The kernel's showdown sum, term by term in its order: CFR+ cuts regrets at
        # 0, so a rounding difference would break a tie differently.
        out = np.zeros((leaves.size, 6))
        for i, node in enumerate(leaves):
            pot = float(limited.contributions[node, 0])
            for h in range(6):
                total = 0.0
                for o in range(6):
                    if o != h and rank[h] > rank[o]:
                        total += pot * float(reach[i, 1 - traverser, o])
                    elif o != h and rank[h] < rank[o]:
                        total -= pot * float(reach[i, 1 - traverser, o])
                out[i, h] = float(limited.chance_reach[node]) * total
        return out

    showdown_kind = limited.kind.copy()
    showdown_kind[leaves] = SHOWDOWN  # on board 0, the empty board: ranks alone
    twin = dataclasses.replace(limited, kind=showdown_kind)
    a = VectorisedCFRSolver(limited, "cfr+", leaf_values=showdown)
    b = VectorisedCFRSolver(twin, "cfr+")
    a.iterate(50)
    b.iterate(50)
    assert np.allclose(a.average_buffer(), b.average_buffer(), atol=1e-12)
    for p in range(2):
        assert np.allclose(a.node_best_response(p), b.node_best_response(p), atol=1e-12)
