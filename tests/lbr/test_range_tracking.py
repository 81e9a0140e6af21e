"""LBR's range of the agent after a hand against a brute-force Bayes update."""

from __future__ import annotations

import dataclasses

import numpy as np

from checkraise.agents.base import BaseAgent
from checkraise.cards import COMBO_CARDS, NUM_COMBOS
from checkraise.engine import Action, Observation
from checkraise.lbr import LBRSettings, parse_streets
from checkraise.lbr.play import _Tally, draw_deal, lbr_config, play_hand


class HandDependent(BaseAgent):
    """Deterministic, and its action depends on the hand and the board: folds, calls,
    raises and checks all happen. Records what it saw and did."""

    def __init__(self, record: bool = True) -> None:
        super().__init__(seed=0)
        self.record = record
        self.seen: list[tuple[Observation, Action]] = []

    def __getstate__(self) -> dict[str, object]:
        # The hand-by-hand queries act on copies; only the real seat keeps a record.
        return {**self.__dict__, "record": False, "seen": []}

    def act(self, observation: Observation) -> Action:
        action = self.rule(observation)
        if self.record:
            self.seen.append((observation, action))
        return action

    @staticmethod
    def rule(observation: Observation) -> Action:
        legal = observation.legal
        assert legal is not None
        a, b = observation.hole_cards
        ranks = {a // 4, b // 4}
        board_ranks = {c // 4 for c in observation.board}
        s = a // 4 + b // 4 + (12 if len(ranks) == 1 or ranks & board_ranks else 0)
        if legal.call_amount > 0 and s < 9:
            return Action.fold()
        if s >= 22 and legal.min_raise_to is not None:
            return Action.raise_to(legal.min_raise_to)
        return Action.call()


def _brute_force(seen: list[tuple[Observation, Action]]) -> np.ndarray:
    """prior 1 x prod over the agent's decisions of P(action | hand), hand by hand."""
    out = np.ones(NUM_COMBOS)
    for i in range(NUM_COMBOS):
        hole = (int(COMBO_CARDS[i, 0]), int(COMBO_CARDS[i, 1]))
        for observation, action in seen:
            if set(hole) & set(observation.board):
                out[i] = 0.0  # a hand that holds a board card cannot be the agent's
                break
            twin = dataclasses.replace(observation, hole_cards=hole)
            if HandDependent.rule(twin) != action:
                out[i] = 0.0
                break
    return out


def test_tracked_range_equals_brute_force_bayes() -> None:
    settings = LBRSettings("fcpa", parse_streets("all"), preflop_samples=200)
    config = lbr_config()
    rng = np.random.default_rng(4)
    decisions = 0
    for k in range(12):
        deal = draw_deal(rng)
        agent = HandDependent()
        tally = _Tally()
        play_hand(agent, deal, k % 2, settings, config, rng=np.random.default_rng(k),
                  tally=tally)
        assert tally.last_range is not None
        np.testing.assert_array_equal(tally.last_range, _brute_force(agent.seen))
        decisions += len(agent.seen)
    assert decisions >= 20
