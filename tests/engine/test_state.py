"""Hand-worked hands: blinds, minimum raises, incomplete all-ins, side pots, odd chips, undo.

Every expected number below was worked out by hand from the rules (ACPC.md and
the casino rules in ``checkraise.engine.config``), not printed by the engine.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from checkraise.cards import parse_cards
from checkraise.engine import (
    Action,
    IllegalActionError,
    RuleSet,
    State,
    TableConfig,
)


def hu(stacks: tuple[int, int] = (1000, 1000), **kw: object) -> State:
    return State(TableConfig.nolimit(2, stacks=stacks), seed=3, **kw)  # type: ignore[arg-type]


def test_heads_up_blinds_order_and_fold() -> None:
    s = hu()
    assert s.contributions == (50, 100)
    assert s.current_player == 0  # the button posts the small blind and acts first preflop
    la = s.legal_actions()
    assert (la.can_fold, la.can_check, la.call_amount) == (True, False, 50)
    assert (la.min_raise_to, la.max_raise_to) == (200, 1000)
    s.raise_to(300)
    s.fold()
    assert s.is_terminal and s.current_player is None
    assert s.payoffs() == (100, -100)
    assert s.uncalled() == (0, 200)
    assert s.winnings() == (200, 0)
    assert s.final_stacks() == (1100, 900)


def test_heads_up_postflop_big_blind_acts_first() -> None:
    s = hu()
    s.check_call()
    assert s.current_player == 1
    s.check_call()
    assert s.round == 1 and len(s.board) == 3
    assert s.current_player == 1
    assert s.acpc_betting() == "cc/"


def test_min_raise_tracks_largest_raise() -> None:
    s = State(TableConfig.nolimit(3, stacks=10000), seed=1)
    assert s.current_player == 2
    s.raise_to(350)  # raise by 250
    la = s.legal_actions()
    assert s.current_player == 0 and la.call_amount == 300 and la.min_raise_to == 600
    s.check_call()
    s.raise_to(1000)  # BB raises by 650
    assert s.current_player == 2
    assert s.legal_actions().min_raise_to == 1650


@pytest.mark.parametrize("rules", [RuleSet.CASINO, RuleSet.ACPC])
def test_incomplete_all_in_reopens_only_in_acpc(rules: RuleSet) -> None:
    cfg = TableConfig.nolimit(3, stacks=(450, 10000, 10000), small_blind=50, big_blind=100,
                              rules=rules)
    s = State(cfg, seed=2)
    s.raise_to(400)  # seat 2 raises by 300
    s.raise_to(450)  # seat 0 all-in: raise by 50, incomplete
    la = s.legal_actions()  # seat 1 has not acted yet: may raise either way
    assert s.current_player == 1 and la.min_raise_to is not None
    s.check_call()
    la = s.legal_actions()
    assert s.current_player == 2 and la.call_amount == 50
    if rules is RuleSet.CASINO:
        assert la.min_raise_to is None and la.max_raise_to is None
        with pytest.raises(IllegalActionError, match="raising is not allowed"):
            s.raise_to(1000)
    else:
        # Dealer rule: min raise-to = max(2*200-100... , 2*400-100=700, 2*450-400=500) = 700.
        assert (la.min_raise_to, la.max_raise_to) == (700, 10000)


def test_side_pots_and_uncalled_bet() -> None:
    cfg = TableConfig.nolimit(3, stacks=(100, 300, 1000), small_blind=5, big_blind=10)
    holes = [parse_cards("AsAh"), parse_cards("KsKh"), parse_cards("QsQh")]
    s = State(cfg, hole_cards=holes, board=parse_cards("2c7d9hJc3d"))
    s.raise_to(1000)
    s.check_call()
    s.check_call()
    assert s.is_terminal and s.board == tuple(parse_cards("2c7d9hJc3d"))
    assert s.acpc_betting() == "r1000cc///"
    assert s.uncalled() == (2, 700)
    assert s.winnings() == (300, 400, 0)
    assert s.payoffs() == (200, 100, -300)


@pytest.mark.parametrize(("rules", "expected"), [
    (RuleSet.CASINO, (-5, 3, 2)),
    (RuleSet.ACPC, (-5, Fraction(5, 2), Fraction(5, 2))),
])
def test_odd_chip(rules: RuleSet, expected: tuple[object, ...]) -> None:
    cfg = TableConfig.nolimit(3, stacks=1000, small_blind=5, big_blind=10, rules=rules)
    s = State(cfg, board=parse_cards("TsJsQsKsAs"))
    s.check_call()  # seat 2 limps
    s.fold()  # small blind folds
    s.check_call()  # big blind checks
    for _ in range(3):
        assert s.current_player == 1  # first seat left of the button still in
        s.check_call()
        s.check_call()
    assert s.is_terminal
    # 25 chips split between seats 1 and 2; casino gives the odd chip to seat 1,
    # the first winner left of the button (seat 2).
    assert s.payoffs() == expected
    assert all(type(v) is int for v in s.payoffs()) == (rules is RuleSet.CASINO)


def test_illegal_actions_leave_state_unchanged() -> None:
    s = State(TableConfig.nolimit(3, stacks=1000), seed=5)
    before = s.copy()
    with pytest.raises(IllegalActionError) as info:
        s.raise_to(150)
    msg = str(info.value)
    assert "150" in msg and "200..1000" in msg
    with pytest.raises(IllegalActionError):
        s.step(Action.raise_to(1001))
    assert s == before
    s.check_call()
    s.check_call()
    assert s.current_player == 1
    with pytest.raises(IllegalActionError, match="nothing to call"):
        s.fold()
    assert not s.can_fold() and s.can_check_call() and s.can_raise_to(200)
    assert not s.can_raise_to(199)


def test_step_back_undoes_deal_and_fold() -> None:
    s = hu()
    start = s.copy()
    s.check_call()
    mid = s.copy()
    s.check_call()
    assert s.round == 1
    s.step_back()
    assert s == mid and s.board == () and s.current_player == 1
    s.raise_to(400)
    s.fold()
    s.step_back()
    s.step_back()
    s.step_back()
    assert s == start
    with pytest.raises(IllegalActionError):
        s.step_back()


def test_short_big_blind_all_in_runs_out() -> None:
    s = State(TableConfig.nolimit(2, stacks=(1000, 30)), seed=9)
    assert s.contributions == (50, 30)
    assert s.is_terminal and len(s.board) == 5
    assert s.uncalled() == (0, 20)
    assert sum(s.payoffs()) == 0 and s.payoffs()[1] in (-30, 30)


def test_antes_are_dead_money() -> None:
    cfg = TableConfig.nolimit(3, stacks=1000, small_blind=5, big_blind=10, ante=2)
    s = State(cfg, seed=4)
    assert s.pot == 21 and s.contributions == (7, 12, 2) and s.bets == (5, 10, 0)
    assert s.stacks == (993, 988, 998)
    la = s.legal_actions()
    assert (la.call_amount, la.min_raise_to, la.max_raise_to) == (10, 20, 998)
    s.fold()
    s.fold()
    assert s.payoffs() == (-7, 9, -2)


def test_limit_caps_raises() -> None:
    cfg = TableConfig.limit(2, small_blind=5, big_blind=10, rules=RuleSet.ACPC)
    s = State(cfg, seed=0)
    assert s.legal_actions().min_raise_to == 20
    s.step(Action.raise_to(0))  # bare ACPC "r": the fixed raise
    assert s.bets == (20, 10)
    s.raise_to(30)
    s.raise_to(40)
    la = s.legal_actions()
    assert la.min_raise_to is None and la.call_amount == 10  # 3 raises preflop is the cap
    s.check_call()
    assert s.acpc_betting() == "rrrc/"
    assert s.legal_actions().min_raise_to == 50


def test_serialisation_round_trips() -> None:
    s = State(TableConfig.nolimit(3, stacks=(500, 800, 2000)), seed=11)
    s.raise_to(300)
    s.check_call()
    s.check_call()
    s.check_call()
    s.raise_to(500)
    again = State.from_json(s.to_json())
    assert again == s
    text = s.to_pokerstars(names=["a", "b", "c"])
    assert "c: raises 200 to 300" in text and "*** FLOP ***" in text
    ms = s.acpc_matchstate(1, 7)
    assert ms.startswith("MATCHSTATE:1:7:r300cc/cr500:|") and ms.count("|") == 2


def test_observation_hides_other_cards() -> None:
    s = hu()
    obs = s.observation(0)
    assert obs.hole_cards == s.hole_cards[0]
    assert obs.shown == (None, None)
    assert obs.legal is not None and s.observation(1).legal is None
    s.step(Action.raise_to(1000))
    s.step(Action.call())
    assert s.observation(0).shown == (None, s.hole_cards[1])
