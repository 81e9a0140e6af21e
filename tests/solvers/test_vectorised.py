"""The vectorised (public-tree) CFR against the tabular CFR, iteration for iteration."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.errors import ConfigError
from checkraise.games import build_tree, load_game
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
