"""The vectorised (public-tree) CFR against the tabular CFR, iteration for iteration."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.games import build_tree, load_game
from checkraise.solvers import (
    CFRPlusSolver,
    CFRSolver,
    DCFRSolver,
    LinearCFRSolver,
    TabularSolver,
    VectorisedCFRSolver,
    make_solver,
)

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
