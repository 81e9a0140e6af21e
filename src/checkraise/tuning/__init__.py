"""Tuning bots by self-play: fast heads-up duplicate matches of heuristic profiles and the tuner.

- :mod:`~checkraise.tuning.selfplay` — a pool of pre-valued deals and a numba betting
  kernel that plays two profiles over it in duplicate;
- :mod:`~checkraise.tuning.ringplay` — the same for ring games of 3 to 10 seats: one
  profile in each seat in turn against copies of another;
- :mod:`~checkraise.tuning.tuner` — coordinate-wise simulated annealing with trimmed-mean
  duplicate comparisons and iterated best response (``checkraise tune``).
"""

from __future__ import annotations

from checkraise.tuning.ringplay import RingPool, ring_chips, ring_match
from checkraise.tuning.selfplay import DealPool, duplicate_chips, duplicate_match
from checkraise.tuning.tuner import TuneConfig, TuneError, TuneResult, trimmed_mean, tune

__all__ = [
    "DealPool",
    "RingPool",
    "TuneConfig",
    "TuneError",
    "TuneResult",
    "duplicate_chips",
    "duplicate_match",
    "ring_chips",
    "ring_match",
    "trimmed_mean",
    "tune",
]
