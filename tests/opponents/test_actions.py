"""Action understanding: size classes, preflop raise counts, street summaries, choices."""

from __future__ import annotations

import pytest

from checkraise.engine import Action, State, TableConfig
from checkraise.opponents.actions import (
    FACING_POSTFLOP,
    OPEN_POSTFLOP,
    ActionClass,
    postflop_size_class,
    summarize,
    understand,
)

C = Action.call()
F = Action.fold()


def r(n: int) -> Action:
    return Action.raise_to(n)


@pytest.mark.parametrize(
    "added,pot,expected",
    [(1, 100, "half"), (59.99, 100, "half"), (60, 100, "three_quarter"),
     (100, 100, "three_quarter"), (100.01, 100, "pot"), (500, 100, "pot")],
)
def test_size_class_boundaries(added: float, pot: float, expected: str) -> None:
    assert postflop_size_class(added, pot).value == expected


def test_preflop_raise_count_and_postflop_sizes_with_pot_arithmetic() -> None:
    cfg = TableConfig.nolimit(3, stacks=10_000)  # blinds 50/100, seat 2 acts first
    hist = [
        (2, 0, r(300)),  # open: raise
        (0, 0, r(900)),  # 3-bet
        (1, 0, r(2700)),  # 4-bet
        (2, 0, F), (0, 0, r(6000)),  # 5-bet is still "4-bet+"
        (1, 0, C),
        # flop: pot = 300 + 6000 + 6000 = 12,300; seat 0 bets 3,000: 3000/12300 = 0.24
        (0, 1, r(9000)),
        # seat 1 raises all-in to 10,000: owes 3,000, adds 1,000 over 12,300 + 3,000 + 3,000
        (1, 1, r(10_000)),
        (0, 1, C),
    ]
    acts = understand(cfg, hist)
    assert [a.cls.value for a in acts] == [
        "raise", "three_bet", "four_bet", "fold", "four_bet", "call", "half", "half", "call"]
    bet = acts[6]
    assert (bet.pot, bet.to_call, bet.players) == (12_300, 0, 2)
    assert bet.fraction == pytest.approx(3000 / 12_300)
    assert bet.choices == OPEN_POSTFLOP
    raise_ = acts[7]
    assert (raise_.pot, raise_.to_call) == (15_300, 3000)
    assert raise_.fraction == pytest.approx(1000 / 18_300)
    assert raise_.choices == FACING_POSTFLOP
    assert acts[0].choices == (ActionClass.FOLD, ActionClass.CALL, ActionClass.RAISE)
    assert acts[1].choices[-1] is ActionClass.THREE_BET


def test_check_raise_counts_as_raise_and_bb_option_is_a_check() -> None:
    cfg = TableConfig.nolimit(3, stacks=10_000)
    hist = [(2, 0, C), (0, 0, C), (1, 0, C),  # BB checks his option
            (0, 1, C), (1, 1, r(200)), (2, 1, C), (0, 1, r(1000)), (1, 1, F), (2, 1, F)]
    acts = understand(cfg, hist)
    assert acts[2].cls is ActionClass.CHECK and not acts[2].facing
    summary = summarize(acts)
    # Totals for the hand: seat 1 bets to 200 (100 over a pot of 300: 0.33, half pot);
    # seat 0 check-raises to 1,000: 800 beyond the 200 level over 500 + 100 to call = 1.33.
    assert summary[(0, 1)].cls is ActionClass.POT
    assert summary[(0, 1)].fraction == pytest.approx(800 / 600)
    assert summary[(1, 1)].cls is ActionClass.HALF  # bet, then folded: the bet summarises
    assert summary[(2, 1)].cls is ActionClass.CALL
    assert summary[(0, 0)].cls is ActionClass.CALL  # the small blind completes


def test_understand_agrees_with_the_engine_pot_on_random_hands() -> None:
    from checkraise.agents.baselines import RandomAgent

    for seed in range(20):
        state = State(TableConfig.nolimit(4, stacks=5000), seed=seed)
        agent = RandomAgent(seed=seed)
        pots = []
        while not state.is_terminal:
            pots.append((state.pot, state.legal_actions().call_amount))
            state.step(agent.act(state.observation(state.current_player)))
        acts = understand(state.config, state.observation(0).history)
        assert [(a.pot, a.to_call) for a in acts] == pots


def test_bad_history_entry_is_rejected() -> None:
    with pytest.raises(ValueError, match="seat 7"):
        understand(TableConfig.nolimit(2), [(7, 0, C)])
