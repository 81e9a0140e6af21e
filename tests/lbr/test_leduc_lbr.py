"""LBR on Leduc hold'em against the exact best response (checkraise.solvers.best_response)."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.games import LeducPoker, build_tree
from checkraise.games.leduc import CALL
from checkraise.lbr.leduc import leduc_lbr_choices, leduc_lbr_value
from checkraise.solvers import make_solver
from checkraise.solvers.best_response import best_response_value
from checkraise.solvers.policy import Policy

TREE = build_tree(LeducPoker())


def _always_call() -> Policy:
    probs = np.zeros(TREE.legal.shape)
    probs[:, CALL] = 1.0
    return Policy.from_tree(TREE, probs)


def _policies() -> list[Policy]:
    rng = np.random.default_rng(17)
    solver = make_solver("cfr+", LeducPoker())
    for _ in range(30):
        solver.iterate()
    return [Policy.uniform(TREE), solver.average_policy(),
            *(Policy.random(TREE, rng) for _ in range(4))]


@pytest.mark.parametrize("player", [0, 1])
def test_lbr_never_beats_the_best_response(player: int) -> None:
    for policy in _policies():
        lbr = leduc_lbr_value(policy, player)
        br = best_response_value(TREE, policy, player)
        assert lbr <= br + 1e-12


@pytest.mark.parametrize("player", [0, 1])
def test_lbr_equals_the_best_response_against_always_call(player: int) -> None:
    # Against a caller each bet adds (P(win) - P(lose)) times its size given what is
    # known when it is made, so the one-step choice is the globally best one.
    policy = _always_call()
    assert leduc_lbr_value(policy, player) == pytest.approx(
        best_response_value(TREE, policy, player), abs=1e-12)


def test_lbr_raises_exactly_the_favourites_against_a_caller() -> None:
    choices = leduc_lbr_choices(_always_call(), 0)
    # Second round: the pair always raises, the unpaired jack never does.
    assert choices["Js:cc/Jh:"] == 2
    assert choices["Js:cc/Kh:"] == 1
    # First round: a king (wins against J and Q unless they pair) raises, a jack checks.
    assert choices["Ks:"] == 2
    assert choices["Js:"] == 1
