"""Property tests: chips are conserved, step_back inverts step, observations hide cards.

Hands are random tables (2-10 seats, uneven stacks, antes, both rule sets, limit
and no-limit) driven by random legal actions drawn by hypothesis.
"""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from checkraise.engine import (
    Action,
    Betting,
    IllegalActionError,
    LegalActions,
    RuleSet,
    State,
    TableConfig,
)


@st.composite
def tables(draw: st.DrawFn) -> TableConfig:
    n = draw(st.integers(2, 10))
    bb = draw(st.sampled_from([2, 10, 100]))
    stacks = tuple(draw(st.lists(st.integers(1, 60 * bb), min_size=n, max_size=n)))
    rules = draw(st.sampled_from(list(RuleSet)))
    if draw(st.booleans()):
        ante = draw(st.integers(0, bb // 2))
        return TableConfig.nolimit(n, stacks=stacks, small_blind=bb // 2, big_blind=bb,
                                   ante=ante, rules=rules)
    return TableConfig.limit(n, small_blind=bb // 2, big_blind=bb, stacks=stacks, rules=rules,
                             raise_sizes=(bb, bb, 2 * bb, 2 * bb))


def choose(la: LegalActions, u: float, v: float) -> Action:
    if la.can_fold and u < 0.15:
        return Action.fold()
    if la.min_raise_to is not None and la.max_raise_to is not None and u < 0.5:
        lo, hi = la.min_raise_to, la.max_raise_to
        return Action.raise_to(lo + int(v * (hi - lo + 1)) if v < 0.9 else hi)
    return Action.call()


hands = st.tuples(tables(), st.integers(0, 2**32 - 1),
                  st.lists(st.tuples(st.floats(0, 1, exclude_max=True),
                                     st.floats(0, 1, exclude_max=True)), max_size=80))


@settings(max_examples=150, deadline=None)
@given(hands)
def test_chips_conserved_and_step_back_exact(
    hand: tuple[TableConfig, int, list[tuple[float, float]]],
) -> None:
    cfg, seed, draws = hand
    s = State(cfg, seed=seed)
    total = sum(cfg.stacks)
    snapshots = [s.copy()]
    for u, v in draws:
        if s.is_terminal:
            break
        assert sum(s.stacks) + s.pot == total
        action = choose(s.legal_actions(), u, v)
        before = s.copy()
        s.step(action)
        after = s.copy()
        s.step_back()
        assert s == before
        s.step(action)
        assert s == after
        snapshots.append(after)
    assert sum(s.stacks) + s.pot == total
    if s.is_terminal:
        pay = s.payoffs()
        assert sum(pay) == 0
        assert all(isinstance(p, int) for p in pay) or cfg.rules is RuleSet.ACPC
        assert all(isinstance(p, (int, Fraction)) for p in pay)
        assert all(f >= 0 for f in s.final_stacks())
        assert State.from_json(json.loads(json.dumps(s.to_json()))) == s
    # Walk all the way back up: every intermediate state is restored exactly.
    for snap in reversed(snapshots[:-1]):
        s.step_back()
        assert s == snap


@settings(max_examples=100, deadline=None)
@given(hands)
def test_observation_never_leaks_hidden_cards(
    hand: tuple[TableConfig, int, list[tuple[float, float]]],
) -> None:
    cfg, seed, draws = hand
    s = State(cfg, seed=seed)
    for u, v in draws:
        if s.is_terminal:
            break
        s.step(choose(s.legal_actions(), u, v))
    shown = s.shown()
    for seat in range(cfg.num_players):
        obs = s.observation(seat)
        visible = set(obs.hole_cards) | set(obs.board)
        for other, cards in enumerate(obs.shown):
            if cards is not None:
                assert other != seat and shown[other] and s.is_terminal
                visible |= set(cards)
        hidden = {c for i, h in enumerate(s.hole_cards) if i != seat and not shown[i] for c in h}
        assert not visible & hidden
        assert not hidden & set(s.board)
        assert obs.hole_cards == s.hole_cards[seat]
        assert (obs.legal is not None) == (s.current_player == seat)


@settings(max_examples=100, deadline=None)
@given(hands)
def test_legal_actions_are_exactly_what_step_accepts(
    hand: tuple[TableConfig, int, list[tuple[float, float]]],
) -> None:
    cfg, seed, draws = hand
    s = State(cfg, seed=seed)
    for u, v in draws:
        if s.is_terminal:
            break
        la = s.legal_actions()
        assert s.can_fold() == la.can_fold
        assert la.can_check == (la.call_amount == 0)
        if la.min_raise_to is None:
            assert not s.can_raise_to(s.bets[s.current_player or 0] + 1)
        else:
            assert la.max_raise_to is not None
            assert s.can_raise_to(la.min_raise_to) and s.can_raise_to(la.max_raise_to)
            assert not s.can_raise_to(la.max_raise_to + 1)
            if cfg.betting is Betting.NOLIMIT and la.min_raise_to > max(s.bets) + 1:
                assert not s.can_raise_to(la.min_raise_to - 1) or \
                    la.min_raise_to == la.max_raise_to
            before = s.copy()
            try:
                s.step(Action.raise_to(la.max_raise_to + 1))
            except IllegalActionError as exc:
                assert str(la.max_raise_to + 1) in str(exc)
            assert s == before
        s.step(choose(la, u, v))
