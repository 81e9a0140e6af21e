"""Baseline agents: each takes the action it promises, and only legal ones."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.agents import make_agent
from checkraise.arena.ring import deal_deck
from checkraise.arena.table import play_hand
from checkraise.engine import Action, ActionKind, Observation, State, TableConfig


def _facing_raise() -> State:
    """Heads-up, the big blind faces a raise to 300 with 20,000 stacks."""
    state = State(TableConfig.nolimit(2), seed=3)
    state.step(Action.raise_to(300))
    return state


def _obs(state: State) -> Observation:
    seat = state.current_player
    assert seat is not None
    return state.observation(seat)


@pytest.mark.parametrize("spec", ["random", "call", "raise", "allin", "checkfold"])
def test_baselines_only_play_legal_actions_in_six_handed_games(spec: str) -> None:
    # play_hand raises AgentError on any illegal action; mixed stacks create short all-ins.
    rng = np.random.default_rng(11)
    for h in range(40):
        stacks = tuple(int(x) for x in rng.integers(30, 3000, size=6))
        agents = [make_agent(spec, seed=h * 6 + s) for s in range(6)]
        agents[h % 6] = make_agent("random", seed=h)
        hand = play_hand(agents, TableConfig.nolimit(6, stacks, 10, 20), deal_deck(1, h), h)
        assert sum(hand.payoffs) == 0


def test_call_raise_allin_checkfold_pick_the_named_action() -> None:
    obs = _obs(_facing_raise())
    assert obs.legal is not None
    assert make_agent("call").act(obs) == Action.call()
    assert make_agent("raise").act(obs) == Action.raise_to(obs.legal.min_raise_to or -1)
    assert make_agent("raise").act(obs).amount == 500  # 300 + the raise of 200
    assert make_agent("allin").act(obs) == Action.raise_to(20000)
    assert make_agent("checkfold").act(obs) == Action.fold()


def test_checkfold_checks_when_free() -> None:
    state = State(TableConfig.nolimit(2), seed=3)
    state.step(Action.call())  # the small blind limps: the big blind may check
    assert make_agent("checkfold").act(_obs(state)) == Action.call()


def test_raisers_call_when_raising_is_closed() -> None:
    # Seat 0 is all-in for less than a full raise: seat 1 may only call or fold.
    state = State(TableConfig.nolimit(2, stacks=(150, 1000)), seed=2)
    state.step(Action.raise_to(150))
    obs = _obs(state)
    assert obs.legal is not None and obs.legal.min_raise_to is None
    assert make_agent("raise").act(obs) == Action.call()
    assert make_agent("allin").act(obs) == Action.call()


def test_random_agent_follows_the_example_player_distribution() -> None:
    obs = _obs(_facing_raise())
    assert obs.legal is not None
    lo, hi = obs.legal.min_raise_to, obs.legal.max_raise_to
    assert lo is not None and hi is not None
    agent = make_agent("random", seed=42)
    actions = [agent.act(obs) for _ in range(6000)]
    kinds = [a.kind for a in actions]
    freq = {k: kinds.count(k) / len(kinds) for k in ActionKind}
    # Binomial standard errors are at most 0.0065 here; allow 4 of them.
    assert abs(freq[ActionKind.FOLD] - 0.06) < 0.013
    assert abs(freq[ActionKind.CHECK_CALL] - 0.47) < 0.026
    assert abs(freq[ActionKind.RAISE] - 0.47) < 0.026
    sizes = np.array([a.amount for a in actions if a.kind is ActionKind.RAISE])
    assert sizes.min() >= lo and sizes.max() <= hi
    # Uniform on [lo, hi]: mean at the midpoint, sd (hi - lo) / sqrt(12).
    sd = (hi - lo) / np.sqrt(12)
    assert abs(sizes.mean() - (lo + hi) / 2) < 4 * sd / np.sqrt(len(sizes))


def test_random_agent_never_folds_when_it_can_check_and_is_reproducible() -> None:
    state = State(TableConfig.nolimit(2), seed=3)
    state.step(Action.call())
    obs = _obs(state)
    a, b = make_agent("random", seed=9), make_agent("random", seed=9)
    first = [a.act(obs) for _ in range(300)]
    assert first == [b.act(obs) for _ in range(300)]
    assert Action.fold() not in first
    assert make_agent("random", seed=10).act(obs) is not None
