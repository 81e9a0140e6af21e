"""Exact best response and exploitability against OpenSpiel's, and the public-tree version."""

from __future__ import annotations

import numpy as np
import pytest
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

from checkraise.games import build_tree, load_game
from checkraise.solvers import (
    Policy,
    best_response,
    expected_values,
    exploitability,
    nash_conv,
    public_exploitability,
)
from tests.solvers.openspiel_policy import to_openspiel


@pytest.mark.parametrize("name", ["kuhn", "kuhn3", "leduc"])
@pytest.mark.parametrize("seed", [1, 2])
def test_nash_conv_of_random_policies_equals_openspiel(name: str, seed: int) -> None:
    tree = build_tree(load_game(name))
    policy = Policy.random(tree, np.random.default_rng(seed))
    game, theirs = to_openspiel(name, policy)
    assert nash_conv(tree, policy) == pytest.approx(
        openspiel_exploitability.nash_conv(game, theirs), abs=1e-9
    )
    if tree.num_players == 2:
        assert exploitability(tree, policy) == pytest.approx(
            openspiel_exploitability.exploitability(game, theirs), abs=1e-9
        )


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_public_tree_best_response_equals_history_tree(name: str) -> None:
    game = load_game(name)
    tree = build_tree(game)
    public = game.public_tree()  # type: ignore[attr-defined]
    for seed in (3, 4):
        policy = Policy.random(tree, np.random.default_rng(seed))
        assert public_exploitability(public, policy) == pytest.approx(
            exploitability(tree, policy), abs=1e-12
        )


def test_best_response_to_uniform_kuhn_by_hand() -> None:
    # Against a uniformly random first player, player 1 holding the king (card 2)
    # should bet after a check and call a bet; with the jack, fold to a bet.
    tree = build_tree(load_game("kuhn"))
    value, choice = best_response(tree, Policy.uniform(tree), 1)
    index = tree.infoset_index
    assert choice[index["2p"]] == 1 and choice[index["2b"]] == 1 and choice[index["0b"]] == 0
    # The best response's value is at least the on-policy value, by definition.
    assert value >= expected_values(tree, Policy.uniform(tree))[1]


def test_values_sum_to_zero_and_player_is_checked() -> None:
    tree = build_tree(load_game("kuhn3"))
    policy = Policy.random(tree, np.random.default_rng(0))
    assert expected_values(tree, policy).sum() == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match="player 3"):
        best_response(tree, policy, 3)
