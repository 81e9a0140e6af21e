"""The action abstraction on spots worked out by hand: sizes, masks, continuous amounts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from checkraise.engine import Action, State
from checkraise.envs import ActionAbstraction, EnvActionError, EnvConfig


def _spot(betting: str, **options: Any) -> tuple[ActionAbstraction, State]:
    config = EnvConfig(**{"stacks": 1000, **options})
    state = State(config.table, seed=0)
    for text in betting.split():
        state.step(Action.parse(text))
    return ActionAbstraction(config), state


def _engine(abstraction: ActionAbstraction, state: State, action: Any) -> tuple[str, bool]:
    engine, legal = abstraction.to_engine(state, action)
    return str(engine), legal


def test_opening_sizes_are_pot_fractions_after_calling() -> None:
    # Small blind 50 of 100 to call: the pot after calling is 200, the highest bet 100.
    abstraction, state = _spot("")
    assert abstraction.mask(state).tolist() == [1, 1, 1, 1, 1, 1]
    assert [_engine(abstraction, state, a)[0] for a in range(6)] == [
        "f", "c", "r200", "r300", "r500", "r1000"]


def test_facing_a_raise_and_a_size_that_would_be_all_in() -> None:
    # Big blind facing 300: pot 400, 200 to call, pot after calling 600, highest bet 300:
    # half pot 300 + 300 = 600, pot 900, two pots 1,500 > the stack of 1,000.
    abstraction, state = _spot("r300")
    assert abstraction.mask(state).tolist() == [1, 1, 1, 1, 0, 1]
    assert [_engine(abstraction, state, a) for a in (2, 3, 5)] == [
        ("r600", True), ("r900", True), ("r1000", True)]
    assert _engine(abstraction, state, 4) == ("c", False)  # masked: played as a call


def test_a_small_fraction_is_lifted_to_the_minimum_raise() -> None:
    abstraction, state = _spot("", bet_fractions=(0.1,))  # 100 + 20 < the minimum 200
    assert abstraction.mask(state).tolist() == [1, 1, 1, 1]
    assert _engine(abstraction, state, 2) == ("r200", True)


def test_no_fold_when_checking_is_free_and_no_raise_when_not_allowed() -> None:
    abstraction, state = _spot("c")  # the small blind limped: the big blind may check
    assert abstraction.mask(state).tolist() == [0, 1, 1, 1, 1, 1]
    assert _engine(abstraction, state, 0) == ("c", False)
    abstraction, state = _spot("r1000", stacks=(1000, 300))  # all-in over a short stack
    assert abstraction.mask(state).tolist() == [1, 1, 0, 0, 0, 0]
    assert _engine(abstraction, state, 5) == ("c", False)


def test_continuous_raises_cover_the_legal_range() -> None:
    abstraction, state = _spot("r300", action_format="continuous")  # raise-to 500..1000
    assert abstraction.mask(state).tolist() == [1, 1, 1]
    x = np.array([0.0], dtype=np.float32)
    assert _engine(abstraction, state, (2, x)) == ("r500", True)
    assert _engine(abstraction, state, (2, x + 0.5)) == ("r750", True)
    assert _engine(abstraction, state, (2, x + 1)) == ("r1000", True)
    assert _engine(abstraction, state, (1, x + 1)) == ("c", True)
    abstraction, state = _spot("r1000", stacks=(1000, 300), action_format="continuous")
    assert abstraction.mask(state).tolist() == [1, 1, 0]
    assert _engine(abstraction, state, (2, x)) == ("c", False)


@pytest.mark.parametrize(("options", "action", "message"), [
    ({}, 6, r"action 6: expected an int 0\.\.5"),
    ({}, -1, r"action -1: expected an int 0\.\.5"),
    ({}, True, r"action True: expected an int 0\.\.5"),
    ({}, 2.0, r"action 2.0: expected an int 0\.\.5"),
    ({"action_format": "continuous"}, (3, [0.5]), "expected a kind 0..2"),
    ({"action_format": "continuous"}, (2, [1.5]), r"raise position x in \[0, 1\]"),
    ({"action_format": "continuous"}, 2, "expected a pair"),
])
def test_actions_outside_the_space_are_refused(options: dict[str, Any], action: Any,
                                               message: str) -> None:
    abstraction, state = _spot("", **options)
    before = state.copy()
    with pytest.raises(EnvActionError, match=message):
        abstraction.to_engine(state, action)
    assert state == before
