"""The gymnasium environment: seeding, rewards that add up, opponents by spec, bad options."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import gymnasium
import numpy as np
import pytest

from checkraise.agents import base
from checkraise.agents.base import AgentSpecError, register_agent
from checkraise.agents.baselines import CheckFoldAgent
from checkraise.engine import Action, Observation, TableConfig
from checkraise.envs import GYM_ID, EnvActionError, NoLimitHoldemEnv, decode_history, holdem_v0
from checkraise.errors import CheckraiseError, ConfigError
from tests.envs.helpers import field_slices, plane_cards


def _run(env: NoLimitHoldemEnv, seed: int, episodes: int, policy_seed: int
         ) -> list[tuple[Any, ...]]:
    """Play ``episodes`` episodes with random legal actions; everything the env returned."""
    rng = np.random.default_rng(policy_seed)
    out: list[tuple[Any, ...]] = []
    obs, info = env.reset(seed=seed)
    for _ in range(episodes):
        out.append((obs.tolist(), info["seat"]))
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, _, info = env.step(action)
            out.append((obs.tolist(), reward, done, info.get("payoffs")))
        obs, info = env.reset()
    return out


def test_same_seed_same_cards_and_same_opponents_play() -> None:
    env = NoLimitHoldemEnv(opponents="random", num_players=3, stacks=1500)
    first = _run(env, seed=11, episodes=25, policy_seed=1)
    again = _run(env, seed=11, episodes=25, policy_seed=1)
    other_env = NoLimitHoldemEnv(opponents="random", num_players=3, stacks=1500)
    assert _run(other_env, seed=11, episodes=25, policy_seed=1) == first == again
    assert _run(env, seed=12, episodes=25, policy_seed=1) != first


def test_the_issues_example_seats_the_hand_reader_and_the_heuristic_bot() -> None:
    env = gymnasium.make(GYM_ID, num_players=3, opponents="fold,heuristic", seed=1)
    raw = env.unwrapped
    assert isinstance(raw, NoLimitHoldemEnv)
    _, info = env.reset()
    assert [type(a).__name__ for a in raw._opponents] == ["HandReadingAgent", "HeuristicAgent"]
    done = False
    while not done:  # the learner checks or calls to the end
        _, _, done, _, info = env.step(1)
    assert sum(info["payoffs"]) == 0 and not info["illegal_action"]


class _HandNumberBot(CheckFoldAgent):
    """Calls in even hands and check-folds in odd ones: its play depends on hand numbers,
    as that of agents whose draws are seeded by the hand (the blueprint bot's) does."""

    def begin_hand(self, seat: int, config: TableConfig, hole_cards: tuple[int, ...],
                   hand_number: int) -> None:
        self.even = hand_number % 2 == 0

    def act(self, observation: Observation) -> Action:
        return Action.call() if self.even else super().act(observation)


def test_a_seeded_reset_starts_the_hand_numbers_again() -> None:
    register_agent("test-hand-number-bot", _HandNumberBot)
    try:
        env = NoLimitHoldemEnv(opponents="test-hand-number-bot", num_players=3, stacks=1000)
        first = _run(env, seed=5, episodes=6, policy_seed=2)
        assert _run(env, seed=5, episodes=6, policy_seed=2) == first
    finally:
        base._FACTORIES.pop("test-hand-number-bot", None)


class _OverBettor(CheckFoldAgent):
    def act(self, observation: Observation) -> Action:
        return Action.raise_to(10**6)


def test_an_opponents_illegal_action_names_the_opponent() -> None:
    env = NoLimitHoldemEnv(opponents=[_OverBettor(seed=0)], seat=1, stacks=1000)
    with pytest.raises(CheckraiseError, match=r"opponent _OverBettor in seat 0 chose the illegal "
                       r"action r1000000: .* must be 200\.\.1000"):
        env.reset(seed=0)


def test_the_constructor_seed_seeds_the_first_reset() -> None:
    a = NoLimitHoldemEnv(seed=4, stacks=1000)
    b = NoLimitHoldemEnv(stacks=1000)
    assert np.array_equal(a.reset()[0], b.reset(seed=4)[0])


class _Recording(CheckFoldAgent):
    """A check-fold opponent that writes down each hand's seat and payoffs."""

    hands: list[tuple[int, int, tuple[int | Fraction, ...]]]

    def __init__(self, log: list[tuple[int, int, tuple[int | Fraction, ...]]]) -> None:
        super().__init__(seed=0)
        self.hands = log
        self.seat = -1
        self.number = -1

    def begin_hand(self, seat: int, config: TableConfig, hole_cards: tuple[int, ...],
                   hand_number: int) -> None:
        self.seat, self.number = seat, hand_number

    def end_hand(self, observation: Observation, payoffs: tuple[int | Fraction, ...]) -> None:
        self.hands.append((self.number, self.seat, payoffs))


def test_rewards_add_up_to_the_learners_chips_also_over_hands_it_never_acted_in() -> None:
    """Check-fold opponents fold to the big blind: the learner has no decision there."""
    log: list[tuple[int, int, tuple[int | Fraction, ...]]] = []
    env = NoLimitHoldemEnv(opponents=[_Recording(log), _Recording(log)], num_players=3,
                           stacks=1000, hands_per_episode=4)
    rng = np.random.default_rng(3)
    total = 0.0
    for episode in range(30):
        _, info = env.reset(seed=episode) if episode == 0 else env.reset()
        done = False
        steps = 0
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, done, _, info = env.step(action)
            total += reward
            steps += 1
        assert steps >= 4
    by_hand: dict[int, tuple[set[int], tuple[int | Fraction, ...]]] = {}
    for number, seat, payoffs in log:
        by_hand.setdefault(number, (set(), payoffs))[0].add(seat)
    learner = 0
    skipped = 0
    for seats, payoffs in by_hand.values():
        (seat,) = {0, 1, 2} - seats
        learner += payoffs[seat]
        skipped += seat == 1 and payoffs[1] == 50  # both folded to its big blind
    assert skipped > 10  # the case this test is about happened
    assert total * 100 == pytest.approx(learner, abs=1e-6)


def test_an_opponent_that_always_folds_to_a_fixed_big_blind_is_one_clear_error() -> None:
    env = NoLimitHoldemEnv(opponents="checkfold", seat=1, stacks=1000)
    with pytest.raises(CheckraiseError, match="no decision in 1000 hands"):
        env.reset(seed=0)


def test_the_observation_shows_the_learners_cards_and_the_opponents_actions() -> None:
    env = NoLimitHoldemEnv(opponents="raise", seat=1, num_players=2, stacks=1000)
    obs, info = env.reset(seed=8)
    hole = env.table.state.hole_cards[1]
    assert plane_cards(obs, 0) == sorted(hole)
    # The min-raising button raised to 200 before the learner's first decision.
    assert [tuple(e) for e in decode_history(obs)] == [(0, 0, "raise", 200)]
    sl = field_slices(2, env.config.history_rows)
    assert obs[sl["to_call"]][0] == 1.0 and obs[sl["seat"]].tolist() == [0, 1]
    # Two pots after calling (200 + 2 * 400) is the whole stack: the all-in action's size.
    assert info["action_mask"].tolist() == [1, 1, 1, 1, 0, 1]


def test_illegal_actions_are_called_and_flagged_or_refused() -> None:
    lenient = NoLimitHoldemEnv(opponents="call", seat=1, stacks=1000)
    lenient.reset(seed=2)  # the button called: folding is not legal
    _, _, _, _, info = lenient.step(0)
    assert info["illegal_action"] is True
    assert [e.action for e in decode_history(lenient.table.observe(1))][:2] == ["call", "call"]
    strict = NoLimitHoldemEnv(opponents="call", seat=1, stacks=1000, illegal_action="error")
    obs, _ = strict.reset(seed=2)
    with pytest.raises(EnvActionError, match=r"illegal action 0 for seat 1.*\[1, 2, 3, 4, 5\]"):
        strict.step(0)
    assert np.array_equal(strict.table.observe(1), obs)  # nothing happened
    with pytest.raises(EnvActionError, match=r"action 9: expected an int 0\.\.5"):
        strict.step(9)


@pytest.mark.parametrize(("options", "message"), [
    (dict(num_players=1), "num_players must be an int 2..10, got 1"),
    (dict(num_players=3, stacks=(100, 200)), r"stacks must be one int or 3 ints .* \(100, 200\)"),
    (dict(big_blind=0), "big_blind must be an int >= 1, got 0"),
    (dict(rules="pokerstars"), "rules must be 'casino' or 'acpc', got 'pokerstars'"),
    (dict(bet_fractions=(0.5, 0)), r"bet_fractions must be .* got \(0.5, 0\)"),
    (dict(action_format="box"), "action_format must be 'discrete' or 'continuous', got 'box'"),
    (dict(observation_format="flat"), "observation_format must be .* got 'flat'"),
    (dict(max_history=0), "max_history must be an int >= 1, got 0"),
    (dict(illegal_action="fold"), "illegal_action must be 'call' or 'error', got 'fold'"),
    (dict(num_player=3), "unknown option 'num_player': expected "),
    (dict(render_mode="human"), "render_mode must be None or 'ansi', got 'human'"),
    (dict(stacks=2**22, num_players=3), "the stacks add up to 12582912 chips"),
])
@pytest.mark.filterwarnings("ignore:.*render_mode='human'")  # gymnasium's, before ours
def test_bad_options_give_one_clear_error(options: dict[str, Any], message: str) -> None:
    for make in (lambda: gymnasium.make(GYM_ID, **options),
                 lambda: holdem_v0.env(**options)):
        with pytest.raises(ConfigError, match=message):
            make()


@pytest.mark.parametrize(("options", "error", "message"), [
    (dict(opponents="nosuchbot"), AgentSpecError, "unknown agent 'nosuchbot'"),
    (dict(opponents="call,call", num_players=2), ConfigError,
     r"opponents 'call,call' name 2 agents: expected 1 \(for every other seat\) or 1"),
    (dict(opponents=[3]), ConfigError, "opponent 3: expected an agent spec"),
    (dict(seat=2), ConfigError, "seat must be None or an int 0..1, got 2"),
    (dict(hands_per_episode=0), ConfigError, "hands_per_episode must be an int >= 1, got 0"),
])
def test_bad_gym_options_give_one_clear_error(options: dict[str, Any], error: type[Exception],
                                              message: str) -> None:
    with pytest.raises(error, match=message):
        gymnasium.make(GYM_ID, **options)
