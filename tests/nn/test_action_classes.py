"""Action classes on hand-computed sizes: the boundaries belong to the smaller class."""

from __future__ import annotations

import pytest

from checkraise.engine import Action, State, TableConfig
from checkraise.errors import CheckraiseError
from checkraise.nn.action_classes import ACTION_CLASSES, action_class, representative


def _facing_bet() -> State:
    # 50/100 blinds, 10,000 stacks: the button calls, the big blind checks, the flop
    # comes; the big blind bets 100 into 200. The button faces 100 with 300 in the pot.
    s = State(TableConfig.nolimit(2, 10_000, 50, 100),
              hole_cards=[(0, 1), (2, 3)], board=(10, 20, 30, 40, 50))
    s.step(Action.call())
    s.step(Action.call())
    s.step(Action.raise_to(200))
    return s


def test_sizes_relative_to_the_pot_after_calling() -> None:
    s = _facing_bet()
    obs = s.observation(s.current_player)
    assert obs.to_call == 100 and obs.pot == 300
    # pot after the call = 400; the increment above the call is raise_to - 100 - 100
    cases = {440: "raise-small", 400 + 40: "raise-small", 441: "raise-medium",
             680: "raise-medium", 681: "raise-large", 9_999: "raise-large", 10_000: "all-in"}
    # 440: increment 240 = 0.6 of 400 (small, boundary); 680: 480 = 1.2 (medium, boundary)
    for amount, name in cases.items():
        assert ACTION_CLASSES[action_class(obs, Action.raise_to(amount))] == name, amount


def test_representatives_are_legal_and_of_their_class() -> None:
    s = _facing_bet()
    obs = s.observation(s.current_player)
    got = [representative(obs, k) for k in range(len(ACTION_CLASSES))]
    assert [str(a) for a in got] == ["f", "c", "r400", "r600", "r1000", "r10000"]
    first = State(TableConfig.nolimit(2, 150, 50, 100), hole_cards=[(0, 1), (2, 3)])
    first.step(Action.raise_to(150))  # the button is all in; the big blind cannot raise
    obs2 = first.observation(first.current_player)
    assert [representative(obs2, k) for k in (2, 3, 4, 5)] == [None] * 4


def test_bad_input_is_named() -> None:
    s = _facing_bet()
    waiting = s.observation(1 - s.current_player)
    with pytest.raises(CheckraiseError, match="not to act"):
        action_class(waiting, Action.raise_to(500))
    with pytest.raises(CheckraiseError, match=r"action class 6; expected 0\.\.5"):
        representative(s.observation(s.current_player), 6)


def test_a_class_with_legal_sizes_has_a_representative() -> None:
    # Button 360 chips, big blind 10,000: call, check, the big blind bets 100 into 200.
    # The button faces 100 with 300 in the pot (400 after calling); its all-in is r360
    # (increment 160 = 0.4 pot), so r300..r359 are small raises, r360 the all-in. The
    # half-pot target r400 clamps to the all-in, yet the small class has legal sizes.
    s = State(TableConfig.nolimit(2, (360, 10_000), 50, 100),
              hole_cards=[(0, 1), (2, 3)], board=(10, 20, 30, 40, 50))
    s.step(Action.call())
    s.step(Action.call())
    s.step(Action.raise_to(200))
    obs = s.observation(s.current_player)
    assert obs.legal is not None and obs.legal.max_raise_to == 360
    assert ACTION_CLASSES[action_class(obs, Action.raise_to(330))] == "raise-small"
    small = representative(obs, 2)
    assert small is not None and action_class(obs, small) == 2
    assert obs.legal.min_raise_to <= small.amount < 360
    assert [representative(obs, k) for k in (3, 4)] == [None, None]
    assert str(representative(obs, 5)) == "r360"
