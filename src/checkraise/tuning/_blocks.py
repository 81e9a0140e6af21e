"""Deal pools valued in blocks: each block is one seeded work item of a backend.

Valuing a pool (a Monte Carlo value per seat and street for every deal) is the costly
part of tuning, and its deals are independent, so a pool is cut into blocks of
:data:`POOL_BLOCK` deals, valued wherever the backend runs them and joined in order.
Block ``b`` draws from its own stream ``SeedSequence(seed, spawn_key=key + (b,))``, so a
pool depends only on its size and seed, never on the backend or the number of workers.
Block 0 keeps the stream ``key`` that whole pools used before they were cut, so a pool of
at most :data:`POOL_BLOCK` deals (and a tuning log made with one) is unchanged.
"""

from __future__ import annotations

import numpy as np

__all__ = ["POOL_BLOCK", "block_rng", "block_sizes"]

POOL_BLOCK = 5000
"""Deals per work item (about 0.4 s of valuing at 1,000 samples heads-up)."""


def block_sizes(size: int) -> list[int]:
    """Sizes of the blocks of a pool of ``size`` deals.

    Examples
    --------
    >>> block_sizes(12_000), block_sizes(3)
    ([5000, 5000, 2000], [3])
    """
    return [min(POOL_BLOCK, size - start) for start in range(0, size, POOL_BLOCK)]


def block_rng(seed: int, key: tuple[int, ...], block: int) -> np.random.Generator:
    """The generator of block ``block`` of the pool with master ``seed`` and stream ``key``."""
    spawn_key = key if block == 0 else (*key, block)
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=spawn_key))
