"""The equity-threshold baseline: raises with equity, calls on pot odds, folds otherwise."""

from __future__ import annotations

from checkraise.agents import make_agent
from checkraise.cards import parse_cards
from checkraise.engine import Action, ActionKind, Observation, State, TableConfig


def _obs(state: State) -> Observation:
    seat = state.current_player
    assert seat is not None
    return state.observation(seat)


def test_equity_agent_thresholds() -> None:
    config = TableConfig.nolimit(2)
    # Big blind with aces facing a raise: raise again (about a pot).
    aces = State(config, hole_cards=[parse_cards("7c2d"), parse_cards("AhAd")], seed=1)
    aces.step(Action.raise_to(300))
    agent = make_agent("equity", seed=1)
    action = agent.act(_obs(aces))
    assert action.kind is ActionKind.RAISE and action.amount == 300 + 600
    # Big blind with 7-2 offsuit facing an all-in: pot odds 19,900 / 40,000 need 49.75%.
    trash = State(config, hole_cards=[parse_cards("AhAd"), parse_cards("7c2d")], seed=1)
    trash.step(Action.raise_to(20000))
    assert agent.act(_obs(trash)) == Action.fold()
    # Facing a min-raise, 7-2 (34.6% vs a random hand) gets 3:1 and calls.
    cheap = State(config, hole_cards=[parse_cards("AhAd"), parse_cards("7c2d")], seed=1)
    cheap.step(Action.raise_to(200))
    assert agent.act(_obs(cheap)) == Action.call()


def test_equity_agent_postflop_uses_the_board() -> None:
    config = TableConfig.nolimit(2)
    # Nut flush on the flop: bets; a dead hand on the same board checks.
    state = State(
        config,
        hole_cards=[parse_cards("AhKh"), parse_cards("2c3d")],
        board=parse_cards("Qh7h2h 9s 4c"),
    )
    state.step(Action.call())
    state.step(Action.call())  # flop; the big blind (seat 1) acts first
    agent = make_agent("equity", seed=4)
    assert agent.act(_obs(state)) == Action.call()  # 2c3d: bottom pair, below the raise bar
    state.step(Action.call())
    assert agent.act(_obs(state)).kind is ActionKind.RAISE
