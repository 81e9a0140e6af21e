"""The ring self-play kernel against the engine: same deals, same values, same payoffs."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.agents.heuristic import HeuristicAgent
from checkraise.agents.profiles import Profile, ValueScale, default_profile, multiway_profile
from checkraise.arena.table import play_hand
from checkraise.engine import ActionKind, Observation, TableConfig
from checkraise.tuning.ringplay import RingPool, RingPoolError, ring_chips, ring_seat_chips
from checkraise.tuning.selfplay import DealPool, duplicate_chips


class PoolValueAgent(HeuristicAgent):
    """The real agent, reading its value for (street, opponents still in) from the pool."""

    def __init__(self, profile: Profile, values: np.ndarray) -> None:  # type: ignore[type-arg]
        super().__init__(seed=0, profile=profile)
        self.values = values

    def value(self, observation: Observation) -> float:
        opp = sum(1 for s, f in enumerate(observation.folded) if s != observation.seat and not f)
        return float(self.values[observation.seat, observation.round, max(opp, 1) - 1])


def random_profile(
    rng: np.random.Generator, value: ValueScale = ValueScale.WIN_MINUS_LOSE
) -> Profile:
    """Cut points anywhere, coefficients scaled so bets range from min-raises to all-ins."""
    vals: list[float] = []
    for street in range(4):
        vals += sorted(rng.uniform(-1, 1, 3).round(4).tolist())
        scale = np.array([10, 20, 20, 20, 5, 20, 20, 20]) * (street + 1)
        vals += (rng.normal(0, 1, 8) * scale).round(3).tolist()
    return Profile.from_vector(vals, value=value)


def station() -> Profile:
    """Calls any bet on every street and never raises."""
    street = [-1.0, 0.998, 0.999, 1000.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    return Profile.from_vector(street * 4)


@pytest.mark.parametrize(("seats", "stack"), [(6, 20000), (3, 1500), (4, 800)])
def test_ring_kernel_payoffs_equal_the_engines_hand_by_hand(seats: int, stack: int) -> None:
    rng = np.random.default_rng(seats * stack)
    pool = RingPool.generate(25, seats=seats, seed=4, samples=40, stack=stack)
    config = TableConfig.nolimit(seats, stacks=stack)
    kinds = {"raises": 0, "all_in": 0, "fold_win": 0, "showdown": 0, "multiway": 0}
    share = ValueScale.POT_SHARE
    for trial in range(9):
        hero = default_profile() if trial == 0 else random_profile(rng)
        # Trial 1 seats calling stations around the hero, so that pots go multiway.
        opp = station() if trial == 1 else random_profile(rng)
        # Trials 6-8 read the pot-share value in the hero's seat, the others' or both.
        if trial == 6:
            hero = multiway_profile()
        if trial == 8:
            hero = random_profile(rng, share)
        if trial in (7, 8):
            opp = random_profile(rng, share)
        chips = ring_seat_chips(hero, opp, pool)
        for d in range(len(pool)):
            deck = [int(c) for c in pool.decks[d]]
            deck += [c for c in range(52) if c not in deck]
            vals = pool.values[d]
            for s in range(seats):
                agents = [PoolValueAgent(hero if i == s else opp, vals) for i in range(seats)]
                hand = play_hand(agents, config, deck, 0)
                assert hand.payoffs[s] == chips[d, s], (trial, d, s)
                st = hand.state
                history = [a for _, _, a in st.observation(0).history]
                kinds["raises"] += sum(a.kind is ActionKind.RAISE for a in history) >= 3
                kinds["all_in"] += any(st.all_in_flags)
                live = sum(not f for f in st.folded)
                kinds["fold_win"] += live == 1
                kinds["showdown"] += live >= 2
                kinds["multiway"] += live >= 3
    # The comparison covered re-raise wars, all-ins, folds, showdowns and multiway pots.
    assert min(kinds.values()) >= 20, kinds


def test_two_seat_ring_equals_the_heads_up_kernel() -> None:
    rng = np.random.default_rng(9)
    ring = RingPool.generate(200, seats=2, seed=5, samples=40)
    hu = DealPool(ring.decks, ring.values[:, :, :, 0].copy(),
                  np.sign(ring.ranks[:, 0] - ring.ranks[:, 1]).astype(np.int8))
    for _ in range(4):
        a, b = random_profile(rng), random_profile(rng)
        assert np.array_equal(ring_chips(a, b, ring), duplicate_chips(a, b, hu))
        # Heads-up the pot-share value is v itself: the same play, chip for chip.
        a_share = Profile.from_vector(a.values, value=ValueScale.POT_SHARE)
        b_share = Profile.from_vector(b.values, value=ValueScale.POT_SHARE)
        assert np.array_equal(ring_chips(a_share, b_share, ring), duplicate_chips(a, b, hu))


def test_a_profile_against_itself_is_exactly_even() -> None:
    pool = RingPool.generate(100, seats=6, seed=2, samples=40)
    prof = random_profile(np.random.default_rng(1))
    assert not ring_chips(prof, prof, pool).any()
    assert ring_seat_chips(prof, prof, pool).any()


def test_pool_is_reproducible_for_a_seed() -> None:
    a = RingPool.generate(5, seats=6, seed=7, samples=30)
    b = RingPool.generate(5, seats=6, seed=7, samples=30)
    c = RingPool.generate(5, seats=6, seed=8, samples=30)
    assert np.array_equal(a.values, b.values) and np.array_equal(a.decks, b.decks)
    assert not np.array_equal(a.decks, c.decks)


@pytest.mark.parametrize("seats", [1, 11, True])
def test_bad_seats_are_refused(seats: int) -> None:
    with pytest.raises(RingPoolError, match="invalid seats"):
        RingPool.generate(3, seats=seats, seed=1)
