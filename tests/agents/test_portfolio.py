"""Online implicit modelling (:mod:`checkraise.agents.portfolio`) and ``blueprint:adapt``.

The estimator is checked against exact values on a one-decision toy, where every
strategy's value is a line of arithmetic; the bot's estimates against the same
strategies played on their own, hand for hand, on fresh deals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from checkraise.agents import make_agent
from checkraise.agents.blueprint import BlueprintAgent
from checkraise.agents.portfolio import Portfolio
from checkraise.arena.table import play_hand
from checkraise.cards import COMBO_CARDS, parse_cards
from checkraise.engine import Action, ActionKind, State, TableConfig
from checkraise.errors import CheckraiseError, ConfigError


def _raw_means(p: Portfolio) -> np.ndarray:
    """The estimates without the prior's shrinkage."""
    return np.asarray(p.means) * (p.hands + p.prior_hands) / p.hands


def test_every_strategy_is_estimated_from_hands_played_by_the_others() -> None:
    # One decision: strategy j takes action 1 with probability a[j]; action 0 pays 1 and
    # action 1 pays -1 on average (plus noise), so strategy j is worth 1 - 2 a[j]. The
    # hands are played from a fixed mixture that rarely plays the third strategy.
    a = np.array([0.2, 0.5, 0.9])
    exact = 1.0 - 2.0 * a
    mix = np.array([0.6, 0.35, 0.05])
    p = Portfolio(3, prior_hands=1e-9)
    rng = np.random.default_rng(0)
    n = 40_000
    values = np.zeros((n, 3))
    for i in range(n):
        j = rng.choice(3, p=mix)
        act = rng.random() < a[j]
        payoff = (-1.0 if act else 1.0) + rng.normal(0.0, 2.0)
        logs = np.log(np.where(act, a, 1.0 - a))
        w = p.observe(logs, payoff, mix)
        assert np.all(w <= 1.0 / mix + 1e-12)  # the balance heuristic's bound
        values[i] = w * payoff
    se = values.std(axis=0) / np.sqrt(n)
    assert np.all(np.abs(_raw_means(p) - exact) < 4 * se)
    assert np.allclose(p.errors, se, rtol=0.01)
    # the advantages over strategy 0, paired hand by hand
    diffs = values - values[:, :1]
    mean, error = p.advantages
    assert np.allclose(mean, diffs.mean(axis=0), atol=1e-9)
    assert np.allclose(error, diffs.std(axis=0) / np.sqrt(n), rtol=0.01, atol=1e-6)
    assert np.all(np.abs(mean - (exact - exact[0])) < 4 * error + 1e-12)


def test_conservative_play_keeps_to_the_baseline_until_another_is_surely_better() -> None:
    p = Portfolio(3, explore=0.09, margin=2.0)
    assert p.probabilities(1) == pytest.approx([0.94, 0.03, 0.03])  # nothing known yet
    rng = np.random.default_rng(5)
    for _ in range(400):  # strategy 2 is worth 0.5 more than the baseline, 1 slightly less
        u = rng.normal(0.0, 1.0)
        p.observe(np.zeros(3), 0.0, [1 / 3, 1 / 3, 1 / 3])
        p._sum += np.array([u, u - 0.05, u + 0.5])  # paired values, for the test
        p._diff_squares += np.array([0.0, 0.05, 0.5]) ** 2
    mean, error = p.advantages
    assert mean[2] - 2 * error[2] > 0 > mean[1]
    assert p.probabilities(1) == pytest.approx([0.03, 0.03, 0.94])


def test_the_mixture_concentrates_on_the_best_strategy_and_keeps_exploring() -> None:
    p = Portfolio(3, explore=0.09)
    first = p.probabilities(1)
    assert first.sum() == pytest.approx(1.0)
    assert np.all(first > 0.2)  # nothing known yet: close to even
    for _ in range(2000):  # strategy 1 wins 1 big blind a hand, the others lose 1
        p.observe(np.log([0.5, 0.5, 0.5]), 0.0, [1 / 3, 1 / 3, 1 / 3])
        p._sum += np.array([-1.0, 1.0, -1.0])  # noiseless values, for the test
    last = p.probabilities(1)
    assert last == pytest.approx([0.03, 0.94, 0.03])
    assert np.array_equal(last, p.probabilities(1))  # the seed fixes the draws


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"size": 1}, "at least 2"), ({"size": 3, "explore": 0.0}, "explore=0.0"),
     ({"size": 3, "prior_sd": -1.0}, "prior_sd=-1.0"), ({"size": 3, "draws": 0}, "draws=0"),
     ({"size": 3, "explore": "lots"}, "explore='lots'; expected a number"),
     ({"size": 3, "margin": -1.0}, "margin=-1.0"), ({"size": 3, "baseline": 3}, "baseline=3")],
)
def test_bad_portfolios_are_refused(kwargs: dict[str, float], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        Portfolio(**kwargs)  # type: ignore[arg-type]


def test_a_hand_of_the_wrong_shape_is_refused_and_changes_nothing() -> None:
    p = Portfolio(3)
    with pytest.raises(ConfigError, match="expected 3 of each"):
        p.observe([0.0, 0.0], 1.0, [0.5, 0.5])
    assert p.hands == 0 and not p.means.any()


def _play(bot: BlueprintAgent, hands: int, seed: int) -> np.ndarray:
    """The bot's payoffs in big blinds against ``checkfold``, seats alternating."""
    config = TableConfig.nolimit(2, stacks=20000, small_blind=50, big_blind=100)
    rng = np.random.default_rng(seed)
    other = make_agent("checkfold")
    out = np.zeros(hands)
    for i in range(hands):
        seats = [bot, other] if i % 2 == 0 else [other, bot]
        hand = play_hand(seats, config, rng.permutation(52).tolist(), i)
        out[i] = float(hand.payoffs[i % 2]) / 100
    return out


def test_the_bot_estimates_each_arm_as_that_arm_plays_on_its_own(blueprint_file: Path) -> None:
    # Against a player who checks and folds to any bet, betting more earns more: the arms
    # differ, and each estimate, from hands mostly played by the others, must agree
    # with the arm playing alone on other deals.
    arms = ["none", "raise", "call"]
    bot = BlueprintAgent(file=str(blueprint_file), adapt=True, arms="+".join(arms),
                         explore=0.3, seed=4)
    _play(bot, 1500, seed=11)
    assert bot.portfolio is not None and bot.portfolio.hands == 1500
    est, err = _raw_means(bot.portfolio), np.asarray(bot.portfolio.errors)
    for j, arm in enumerate(arms):
        alone = _play(BlueprintAgent(file=str(blueprint_file), bias=arm, seed=5), 1500, seed=12)
        se = alone.std() / np.sqrt(alone.size)
        assert abs(est[j] - alone.mean()) < 4 * np.hypot(err[j], se), arm
    assert int(np.argmax(est)) == 1  # the raising arm
    p = bot.portfolio.probabilities(0)
    assert p[1] > 0.5


def test_adapt_is_reproducible_and_refuses_a_bias(blueprint_file: Path) -> None:
    spec = f"blueprint:file={blueprint_file},adapt=true,arms=none+raise/fold"
    runs = []
    for _ in range(2):
        bot = make_agent(spec, seed=9)
        assert isinstance(bot, BlueprintAgent)
        runs.append(_play(bot, 200, seed=3))
    assert np.array_equal(runs[0], runs[1])
    with pytest.raises(CheckraiseError, match="bias='call' with adapt=true"):
        make_agent(f"blueprint:file={blueprint_file},adapt=true,bias=call")
    with pytest.raises(CheckraiseError, match=r"arms='none\+call' without adapt=true"):
        make_agent(f"blueprint:file={blueprint_file},arms=none+call")
    with pytest.raises(CheckraiseError, match="adapt='maybe'; expected true or false"):
        make_agent(f"blueprint:file={blueprint_file},adapt=maybe")
    with pytest.raises(CheckraiseError, match="bias=''"):
        make_agent(f"blueprint:file={blueprint_file},adapt=true,arms=none+fold+")
    with pytest.raises(CheckraiseError, match="bias='raise/sideways'"):
        make_agent(f"blueprint:file={blueprint_file},adapt=true,arms=none+raise/sideways")


def test_adapt_action_probabilities_are_the_arms_mixture_given_its_earlier_actions(
    blueprint_file: Path,
) -> None:
    # Which arm plays a hand is hidden: an opponent faces, for each combo, the arms
    # weighted by how likely each made our earlier actions. Checked against the bot's
    # own draws over many seeds: its flop action, among the seeds whose preflop action
    # was the same, must come at the frequencies action_probabilities gives.
    config = TableConfig.nolimit(2, stacks=20000, small_blind=50, big_blind=100)
    holes = [tuple(parse_cards("Ah 7c")), tuple(parse_cards("Kd Qd"))]
    spec = dict(file=str(blueprint_file), adapt=True, arms="raise25+call25", explore=1.0)
    seen: dict[tuple[Action, Action], int] = {}
    predicted: dict[Action, tuple[Any, Any]] = {}
    naive: list[float] = []
    n = 3000
    for seed in range(n):
        bot = BlueprintAgent(**spec, seed=seed)  # type: ignore[arg-type]
        state = State(config, seed=9, hole_cards=holes)
        bot.begin_hand(0, config, holes[0], 0)
        first = bot.act(state.observation(0))
        if first.kind is not ActionKind.CHECK_CALL and first.kind is not ActionKind.RAISE:
            continue
        state.step(first)
        if state.current_player != 1 or first.amount == config.stacks[0]:
            continue
        state.step(Action.call())  # the big blind checks or calls: the flop
        state.step(Action.call())  # and checks it
        obs = state.observation(0)
        if first not in predicted:
            hap = bot.action_probabilities(obs)
            mine = int(np.flatnonzero([set(map(int, c)) == set(holes[0])
                                       for c in COMBO_CARDS])[0])
            predicted[first] = (hap.actions, hap.probs[mine])
            # the arms averaged with p alone, as if the preflop action said nothing
            mix = np.zeros(len(hap.actions))
            for arm in ("raise25", "call25"):
                fixed = BlueprintAgent(file=str(blueprint_file), bias=arm, seed=seed)
                fixed.begin_hand(0, config, holes[0], 0)
                h = fixed.action_probabilities(obs)
                assert h.actions == hap.actions
                mix += 0.5 * h.probs[mine]
            naive.append(float(np.abs(mix - hap.probs[mine]).max()))
        second = bot.act(obs)
        seen[first, second] = seen.get((first, second), 0) + 1
    assert len(predicted) == 2  # both preflop actions were seen
    for first, (actions, probs) in predicted.items():
        total = sum(c for (f, _), c in seen.items() if f == first)
        assert total > 300
        for action, p in zip(actions, probs, strict=True):
            got = seen.get((first, action), 0) / total
            assert got == pytest.approx(p, abs=4 * np.sqrt(p * (1 - p) / total) + 1e-9)
    # the preflop action matters here: ignoring it is off by far more than the
    # sampling error allowed above
    assert max(naive) > 0.1


def test_adapt_action_probabilities_are_distributions_at_every_decision(
    blueprint_file: Path,
) -> None:
    # Also for combos that no arm would have played the hand's earlier actions with
    # (they keep p); checked by the validator local best response uses.
    from checkraise.agents.probabilities import action_probabilities

    bot = BlueprintAgent(file=str(blueprint_file), adapt=True,
                         arms="none+fold100raise100+call25", seed=3)

    class Checked:
        def begin_hand(self, *args: Any) -> None:
            bot.begin_hand(*args)

        def end_hand(self, *args: Any) -> None:
            bot.end_hand(*args)

        def act(self, observation: Any) -> Action:
            hap = action_probabilities(bot, observation)
            assert hap.exact
            return bot.act(observation)

    config = TableConfig.nolimit(2, stacks=20000, small_blind=50, big_blind=100)
    # asked before any hand began: the arms mixed evenly
    first = action_probabilities(bot, State(config, seed=1).observation(0))
    assert first.exact
    rng = np.random.default_rng(2)
    other = make_agent("random", seed=4)
    for i in range(300):
        seats = [Checked(), other] if i % 2 == 0 else [other, Checked()]
        play_hand(seats, config, rng.permutation(52).tolist(), i)
    assert bot.portfolio is not None and bot.portfolio.hands == 300
