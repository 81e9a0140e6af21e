"""Tuning pools valued in blocks of work items: the same deals and values on every
backend and worker count, and a larger pool starts with the deals of a smaller one."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.backend import Backend, LocalBackend
from checkraise.tuning import DealPool, RingPool

pytestmark = pytest.mark.xdist_group("ray")


def test_deal_and_ring_pools_do_not_depend_on_the_backend(ray_backend: Backend) -> None:
    backends = [LocalBackend(1), LocalBackend(2), ray_backend]
    heads_up = [DealPool.generate(11_000, seed=4, samples=5, backend=b) for b in backends]
    ring = [RingPool.generate(5_500, seats=4, seed=4, samples=5, backend=b) for b in backends]
    for pool in heads_up[1:]:
        for name in ("decks", "values", "outcome"):
            assert np.array_equal(getattr(pool, name), getattr(heads_up[0], name))
    for pool in ring[1:]:
        for name in ("decks", "values", "ranks"):
            assert np.array_equal(getattr(pool, name), getattr(ring[0], name))
    assert len(heads_up[0]) == 11_000 and len(ring[0]) == 5_500
    # Every block draws its own deals: no block repeats the first one's.
    decks = heads_up[0].decks
    assert not np.array_equal(decks[:1000], decks[5000:6000])


def test_a_larger_pool_begins_with_the_deals_of_one_block() -> None:
    one = DealPool.generate(5_000, seed=9, samples=5)
    more = DealPool.generate(5_300, seed=9, samples=5)
    for name in ("decks", "values", "outcome"):
        assert np.array_equal(getattr(more, name)[:5_000], getattr(one, name))
