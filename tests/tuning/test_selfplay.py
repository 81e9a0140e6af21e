"""The self-play kernel against the engine: same deals, same values, same payoffs."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.agents.heuristic import HeuristicAgent
from checkraise.agents.profiles import Profile, default_profile
from checkraise.arena.table import play_hand
from checkraise.engine import ActionKind, Observation, TableConfig
from checkraise.tuning.selfplay import DealPool, duplicate_chips, duplicate_match


class PoolValueAgent(HeuristicAgent):
    """The real agent, reading each street's value from the pool instead of sampling."""

    def __init__(self, profile: Profile, values: np.ndarray) -> None:  # type: ignore[type-arg]
        super().__init__(seed=0, profile=profile)
        self.values = values

    def value(self, observation: Observation) -> float:
        return float(self.values[observation.seat, observation.round])


def random_profile(rng: np.random.Generator) -> Profile:
    """Cut points anywhere, coefficients scaled so bets range from min-raises to all-ins."""
    vals: list[float] = []
    for street in range(4):
        vals += sorted(rng.uniform(-1, 1, 3).round(4).tolist())
        scale = np.array([10, 20, 20, 20, 5, 20, 20, 20]) * (street + 1)
        vals += (rng.normal(0, 1, 8) * scale).round(3).tolist()
    return Profile.from_vector(vals)


@pytest.mark.parametrize("stack", [20000, 1500])
def test_kernel_payoffs_equal_the_engines_hand_by_hand(stack: int) -> None:
    rng = np.random.default_rng(stack)
    pool = DealPool.generate(120, seed=4, samples=50, stack=stack)
    config = TableConfig.nolimit(2, stacks=stack)
    kinds = {"raises": 0, "all_in": 0, "fold": 0, "showdown": 0}
    for trial in range(6):
        a = default_profile() if trial == 0 else random_profile(rng)
        b = random_profile(rng)
        chips = duplicate_chips(a, b, pool)
        for d in range(len(pool)):
            deck = [int(c) for c in pool.decks[d]]
            deck += [c for c in range(52) if c not in deck]
            vals = pool.values[d]
            first = play_hand([PoolValueAgent(a, vals), PoolValueAgent(b, vals)], config, deck, 0)
            second = play_hand([PoolValueAgent(b, vals), PoolValueAgent(a, vals)], config, deck, 0)
            assert first.payoffs[0] + second.payoffs[1] == chips[d], (trial, d)
            for hand in (first, second):
                actions = [a for s, r, a in hand.state.observation(0).history]
                kinds["raises"] += sum(a.kind is ActionKind.RAISE for a in actions) >= 3
                kinds["all_in"] += any(hand.state.all_in_flags)
                kinds["fold"] += any(hand.state.folded)
                kinds["showdown"] += not any(hand.state.folded)
    # The comparison covered re-raise wars, all-ins, folds and showdowns.
    assert min(kinds.values()) >= 20, kinds


def test_a_profile_against_itself_is_exactly_even_and_the_match_is_antisymmetric() -> None:
    pool = DealPool.generate(300, seed=2, samples=100)
    prof = default_profile()
    other = random_profile(np.random.default_rng(1))
    assert duplicate_match(prof, prof, pool).mean == 0.0
    ab = duplicate_chips(prof, other, pool)
    assert np.array_equal(ab, -duplicate_chips(other, prof, pool))


def test_pool_values_are_the_bots_values() -> None:
    """Preflop from the table, later streets near the exact value against one hand."""
    from checkraise.agents.heuristic import preflop_value
    from checkraise.equity.strength import win_minus_lose

    pool = DealPool.generate(4, seed=9, samples=20_000)
    for d in range(4):
        deck = pool.decks[d].tolist()
        for seat in range(2):
            hole = deck[2 * seat : 2 * seat + 2]
            assert pool.values[d, seat, 0] == preflop_value(hole)
            exact = win_minus_lose(hole, deck[4:8])
            assert abs(pool.values[d, seat, 2] - exact) < 4 / np.sqrt(20_000)


def test_pool_is_reproducible_from_its_seed() -> None:
    a, b = DealPool.generate(20, seed=3, samples=30), DealPool.generate(20, seed=3, samples=30)
    assert np.array_equal(a.decks, b.decks) and np.array_equal(a.values, b.values)
    assert not np.array_equal(a.decks, DealPool.generate(20, seed=4, samples=30).decks)
    with pytest.raises(ValueError, match="stakes"):
        DealPool.generate(5, seed=1, samples=10, stack=100, big_blind=100)
