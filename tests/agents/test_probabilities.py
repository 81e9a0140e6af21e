"""Action probabilities for every hand: fast paths against the hand-by-hand fallback, Bayes."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from tests.agents.probability_states import decisions

from checkraise.agents import make_agent
from checkraise.agents.base import BaseAgent
from checkraise.agents.baselines import EquityAgent, RandomAgent
from checkraise.agents.human import HumanAgent
from checkraise.agents.probabilities import (
    ActionProbabilityError,
    HandActionProbabilities,
    action_probabilities,
    hand_by_hand_probabilities,
    live_combos,
    update_range,
)
from checkraise.cards import COMBO_CARDS
from checkraise.engine import Action, ActionKind, Observation, State, TableConfig
from checkraise.ranges import Range, RangeError


def _dead_rows(obs: Observation) -> np.ndarray:
    # Written out card by card, apart from live_combos' mask arithmetic.
    dead = set(obs.board)
    for seat, cards in enumerate(obs.shown):
        if cards is not None and seat != obs.seat:
            dead |= set(cards)
    return np.array([int(a) in dead or int(b) in dead for a, b in COMBO_CARDS])


def _check_rows(hap: HandActionProbabilities, obs: Observation) -> None:
    dead = _dead_rows(obs)
    assert np.all(hap.probs[dead] == 0.0)
    np.testing.assert_allclose(hap.probs[~dead].sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert np.all(hap.probs >= 0.0)
    assert obs.legal is not None
    for a in hap.actions:  # every listed action is legal here
        if a.kind is ActionKind.RAISE:
            assert obs.legal.min_raise_to is not None and obs.legal.max_raise_to is not None
            assert obs.legal.min_raise_to <= a.amount <= obs.legal.max_raise_to
        elif a.kind is ActionKind.FOLD:
            assert obs.legal.can_fold


@pytest.fixture(scope="module")
def states() -> list[Any]:
    # Heads-up and six-handed, all streets, short all-ins from short stacks included.
    every = decisions(1, 30) + decisions(2, 12, seats=6) + decisions(3, 20, stacks=900)
    return every[::15]


@pytest.mark.parametrize("spec", ["call", "raise", "allin", "checkfold"])
def test_baseline_fast_paths_equal_the_hand_by_hand_fallback(spec: str, states: list[Any]) -> None:
    agent = make_agent(spec, seed=1)
    streets = set()
    for d in states:
        fast = action_probabilities(agent, d.obs)
        slow = hand_by_hand_probabilities(agent, d.obs)
        assert fast.exact and slow.exact
        assert fast.actions == slow.actions
        np.testing.assert_array_equal(fast.probs, slow.probs)
        _check_rows(fast, d.obs)
        streets.add(len(d.obs.board))
    assert streets == {0, 3, 4, 5}
    assert len(states) > 30
    assert any(d.obs.legal.min_raise_to is None for d in states)  # raising closed


def test_the_fast_path_is_the_agents_own_method() -> None:
    # A fast path that lies is what action_probabilities returns: it is really used.
    class Liar(BaseAgent):
        def act(self, observation: Observation) -> Action:
            return Action.call()

        def action_probabilities(self, observation: Observation) -> HandActionProbabilities:
            probs = live_combos(observation).astype(float)[:, None]
            return HandActionProbabilities((Action.fold(),), probs, exact=True, note="lie")

    state = State(TableConfig.nolimit(2), seed=1)
    state.raise_to(300)
    hap = action_probabilities(Liar(), state.observation(1))
    assert hap.actions == (Action.fold(),) and hap.note == "lie"


def test_dead_hands_have_zero_rows_and_others_sum_to_one(states: list[Any]) -> None:
    postflop = [d for d in states if d.obs.board][:6]
    for d in postflop:
        for agent in (make_agent("call"), RandomAgent(seed=5)):
            hap = action_probabilities(agent, d.obs)
            _check_rows(hap, d.obs)
            assert int((hap.probs.sum(axis=1) > 0).sum()) == {3: 1176, 4: 1128, 5: 1081}[
                len(d.obs.board)
            ]


def test_shown_cards_are_dead() -> None:
    state = State(TableConfig.nolimit(2), seed=4)
    state.raise_to(300)
    obs = dataclasses.replace(state.observation(1), shown=((0, 1), None))
    hap = action_probabilities(make_agent("call"), obs)
    rows = hap.probs.sum(axis=1)
    assert rows[np.isin(COMBO_CARDS, [0, 1]).any(axis=1)].sum() == 0
    assert rows.sum() == 1326 - 1 - 2 * 50  # combos touching card 0 or card 1


def test_a_stochastic_agent_without_a_fast_path_is_reported_inexact(states: list[Any]) -> None:
    d = next(d for d in states if len(d.obs.board) == 5)
    for agent in (RandomAgent(seed=2), EquityAgent(seed=2, samples=5)):
        hap = action_probabilities(agent, d.obs)
        assert hap.exact is False
        assert "stochastic" in hap.note and "no fast path" in hap.note
        assert set(np.unique(hap.probs)) <= {0.0, 1.0}  # one sampled action per hand
        _check_rows(hap, d.obs)


def test_a_deterministic_agent_without_a_fast_path_is_exact(states: list[Any]) -> None:
    class PairRaiser(BaseAgent):
        """Raises the minimum with a pair, otherwise checks or calls."""

        deterministic = True

        def act(self, observation: Observation) -> Action:
            a, b = observation.hole_cards
            legal = observation.legal
            assert legal is not None
            if a // 4 == b // 4 and legal.min_raise_to is not None:
                return Action.raise_to(legal.min_raise_to)
            return Action.call()

    for d in states[:20]:
        legal = d.obs.legal
        hap = action_probabilities(PairRaiser(), d.obs)
        assert hap.exact
        dead = _dead_rows(d.obs)
        pair = COMBO_CARDS[:, 0] // 4 == COMBO_CARDS[:, 1] // 4
        if legal.min_raise_to is None:
            assert hap.actions == (Action.call(),)
            continue
        raise_col = hap.probs[:, hap.actions.index(Action.raise_to(legal.min_raise_to))]
        np.testing.assert_array_equal(raise_col, (pair & ~dead).astype(float))


def test_the_fallback_samples_what_the_agent_itself_would_do_next(states: list[Any]) -> None:
    # Every copy starts from the agent's random state: the real hand's row is its next act.
    for d in [d for d in states if d.obs.legal.min_raise_to is not None][:5]:
        agent = RandomAgent(seed=9)
        hap = action_probabilities(agent, d.obs)
        combo = next(
            i for i, (a, b) in enumerate(COMBO_CARDS) if {int(a), int(b)} == set(d.obs.hole_cards)
        )
        taken = agent.act(d.obs)
        assert hap.probs[combo, hap.actions.index(taken)] == 1.0


def test_begin_hand_args_are_passed_again_with_each_hand() -> None:
    class Remembers(BaseAgent):
        """Acts on the cards begin_hand gave it (raises with aces), not on the observation's."""

        deterministic = True

        def begin_hand(self, seat: int, config: TableConfig, hole: tuple[int, ...], n: int) -> None:
            self.aces = any(c // 4 == 12 for c in hole)

        def act(self, observation: Observation) -> Action:
            return Action.raise_to(300) if self.aces else Action.call()

    config = TableConfig.nolimit(2)
    state = State(config, seed=1, hole_cards=[(0, 1), (2, 3)])
    agent = Remembers()
    agent.begin_hand(0, config, (0, 1), 7)
    obs = state.observation(0)
    without = action_probabilities(agent, obs)
    assert without.actions == (Action.call(),)  # every copy remembers the real deuces
    hap = action_probabilities(agent, obs, begin_hand_args=(0, config, (0, 1), 7))
    aces = (COMBO_CARDS // 4 == 12).any(axis=1)
    np.testing.assert_array_equal(hap.probs[:, hap.actions.index(Action.raise_to(300))], aces)


def test_refusals_name_the_problem() -> None:
    state = State(TableConfig.nolimit(2), seed=1)
    with pytest.raises(ActionProbabilityError, match="not that seat's turn"):
        action_probabilities(make_agent("call"), state.observation(1))
    with pytest.raises(ActionProbabilityError, match="asks a person"):
        action_probabilities(HumanAgent(ask=lambda _: "c"), state.observation(0))

    class Illegal(BaseAgent):
        def act(self, observation: Observation) -> Action:
            return Action.raise_to(50)

    with pytest.raises(ActionProbabilityError, match="illegal action r50"):
        action_probabilities(Illegal(), state.observation(0))

    class BadRows(BaseAgent):
        def act(self, observation: Observation) -> Action:
            return Action.call()

        def action_probabilities(self, observation: Observation) -> HandActionProbabilities:
            return HandActionProbabilities((Action.call(),), np.full((1326, 1), 0.5), exact=True)

    with pytest.raises(ActionProbabilityError, match="not distributions"):
        action_probabilities(BadRows(), state.observation(0))
    with pytest.raises(ActionProbabilityError, match="shape"):
        HandActionProbabilities((Action.call(),), np.ones((1326, 2)), exact=True)


# ---------------------------------------------------------------------- Bayes


def _brute_force_bayes(
    prior: np.ndarray, actions: list[Action], probs: np.ndarray, taken: Action
) -> np.ndarray:
    """P(hand | taken) by Bayes' rule, one hand at a time, actions compared field by field."""
    posterior = np.zeros(len(prior))
    for hand in range(len(prior)):
        likelihood = 0.0
        for k, action in enumerate(actions):
            if action.kind == taken.kind and action.amount == taken.amount:
                likelihood += probs[hand, k]
        posterior[hand] = prior[hand] * likelihood
    evidence = sum(posterior)
    return posterior / evidence


def test_update_range_is_bayes_rule() -> None:
    rng = np.random.default_rng(5)
    actions = [Action.fold(), Action.call(), Action.raise_to(300), Action.raise_to(700)]
    for _ in range(5):
        probs = rng.dirichlet(np.full(len(actions), 0.4), size=1326)
        probs[rng.random(1326) < 0.1] = 0.0  # dead hands
        prior = rng.random(1326) * (rng.random(1326) < 0.7)
        hap = HandActionProbabilities(tuple(actions), probs, exact=True)
        for taken in (Action.fold(), Action.raise_to(300), Action.raise_to(700)):
            new = update_range(prior, hap, taken)
            np.testing.assert_allclose(
                new / new.sum(), _brute_force_bayes(prior, actions, probs, taken), rtol=1e-12
            )
    # Not renormalised: weights stay reach probabilities.
    assert update_range(np.ones(1326), hap, Action.call()).sum() == pytest.approx(
        probs[:, 1].sum()
    )


def test_update_range_in_a_hand_tracks_the_raisers_range() -> None:
    # Heads-up preflop: a minimum-raiser raises every hand, so a raise leaves the range as it was.
    state = State(TableConfig.nolimit(2), seed=8)
    obs = state.observation(0)
    prior = Range("22+,A2s+").weights
    hap = action_probabilities(make_agent("raise"), obs)
    np.testing.assert_array_equal(update_range(Range("22+,A2s+"), hap, Action.raise_to(200)), prior)
    with pytest.raises(ActionProbabilityError, match="r300 is not among"):
        update_range(prior, hap, Action.raise_to(300))
    with pytest.raises(RangeError, match="1326 finite non-negative"):
        update_range(np.ones(10), hap, Action.raise_to(200))
    with pytest.raises(RangeError, match="1326 finite non-negative"):
        update_range(-np.ones(1326), hap, Action.raise_to(200))
