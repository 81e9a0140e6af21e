"""Fast heads-up self-play of heuristic profiles over a pool of pre-valued deals.

The heuristic bot's decisions depend on its cards only through the state value ``v``
of each street (:mod:`checkraise.agents.heuristic`), and heads-up the opponent count is
always one while both players are in. So a deal can be valued once — each seat's ``v``
on each street, by the same Monte Carlo as the bot, and who wins the showdown — and then
played between any two profiles by a betting-only kernel
(:func:`checkraise.agents._heuristic_kernels.play_duplicate`) at millions of hands a
second. Every deal is played twice with the seats swapped (duplicate poker, as in the
Annual Computer Poker Competition), so the cards' luck cancels out of the comparison.

The kernel is the engine's casino no-limit rules for two equal stacks; the tests play
the real :class:`~checkraise.agents.heuristic.HeuristicAgent` through
:class:`~checkraise.engine.State` on the same deals and check every payoff.

Examples
--------
>>> from checkraise.agents.profiles import default_profile
>>> pool = DealPool.generate(200, seed=1, samples=100)
>>> res = duplicate_match(default_profile(), default_profile(), pool)
>>> res.mean, res.half_width
(0.0, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from checkraise.agents import _heuristic_kernels as K
from checkraise.agents.heuristic import DEFAULT_SAMPLES, preflop_values
from checkraise.agents.profiles import Profile
from checkraise.arena.stats import Estimate, mbb_per_hand
from checkraise.backend import Backend, Progress, resolve_backend
from checkraise.equity.core import rng_state
from checkraise.errors import ConfigError
from checkraise.tuning._blocks import block_rng, block_sizes

__all__ = ["DealPool", "duplicate_chips", "duplicate_match"]


@dataclass(frozen=True)
class DealPool:
    """Deals with each seat's value per street and the showdown winner, ready for self-play.

    Attributes
    ----------
    decks
        ``(n, 9)`` cards: seat 0's two, seat 1's two, then the five board cards.
    values
        ``(n, 2, 4)``: value of seat ``s``'s cards on street ``r`` against one random hand.
    outcome
        ``(n,)``: +1 seat 0 wins the showdown, -1 seat 1 wins, 0 split pot.
    stack, small_blind, big_blind
        The stakes every hand is played at (stacks reset each hand).
    """

    decks: npt.NDArray[np.int64]
    values: npt.NDArray[np.float64]
    outcome: npt.NDArray[np.int8]
    stack: int = 20000
    small_blind: int = 50
    big_blind: int = 100

    def __post_init__(self) -> None:
        if not 0 < self.small_blind <= self.big_blind < self.stack:
            raise ConfigError(
                f"invalid stakes stack={self.stack!r}, blinds {self.small_blind!r}/"
                f"{self.big_blind!r}: expected 0 < small blind <= big blind < stack"
            )

    @classmethod
    def generate(
        cls,
        size: int,
        seed: int,
        samples: int = DEFAULT_SAMPLES,
        stack: int = 20000,
        small_blind: int = 50,
        big_blind: int = 100,
        *,
        backend: Backend | None = None,
    ) -> DealPool:
        """Deal ``size`` random hands from ``seed`` and value them with ``samples`` deals each.

        Blocks of deals are valued as work items of ``backend`` (default: one after
        another in this process); the pool does not depend on it
        (:mod:`checkraise.tuning._blocks`).

        Examples
        --------
        >>> pool = DealPool.generate(3, seed=2, samples=50)
        >>> pool.values.shape, sorted(set(pool.decks[0].tolist())) == sorted(pool.decks[0])
        ((3, 2, 4), True)
        """
        if size < 1:
            raise ConfigError(f"invalid pool size {size!r}: expected at least 1 deal")
        if samples < 1:
            raise ConfigError(f"invalid samples {samples!r}: expected at least 1")
        blocks = [
            _DealBlock(seed, b, n, samples) for b, n in enumerate(block_sizes(size))
        ]
        parts = resolve_backend(backend, 1).map(_value_block, blocks)
        decks, values, outcome = (np.concatenate(arrays) for arrays in zip(*parts, strict=True))
        return cls(decks, values, outcome, stack, small_blind, big_blind)

    def __len__(self) -> int:
        return int(self.decks.shape[0])

    def subset(self, index: npt.NDArray[np.int64]) -> DealPool:
        """The deals at ``index`` (same stakes)."""
        return DealPool(
            self.decks[index], self.values[index], self.outcome[index],
            self.stack, self.small_blind, self.big_blind,
        )


@dataclass(frozen=True)
class _DealBlock:
    seed: int
    block: int
    size: int
    samples: int


def _value_block(
    item: _DealBlock, progress: Progress
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int8]]:
    gen = block_rng(item.seed, (7,), item.block)
    decks = np.argsort(gen.random((item.size, 52)), axis=1)[:, :9].astype(np.int64)
    pre = np.ascontiguousarray(preflop_values()[0])
    values, outcome = K.deal_values(decks, pre, item.samples, rng_state(gen))
    progress(item.size)
    return decks, values, outcome


def duplicate_chips(
    a: Profile, b: Profile, pool: DealPool, index: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.float64]:
    """Chips won by ``a`` against ``b`` on each deal, summed over both seatings.

    Examples
    --------
    >>> from checkraise.agents.profiles import default_profile
    >>> pool = DealPool.generate(50, seed=3, samples=100)
    >>> bool(duplicate_chips(default_profile(), default_profile(), pool).any())
    False
    """
    values, outcome = pool.values, pool.outcome
    if index is not None:
        values, outcome = values[index], outcome[index]
    return K.play_duplicate(
        values, outcome, np.ascontiguousarray(a.array), np.ascontiguousarray(b.array),
        pool.stack, pool.small_blind, pool.big_blind,
    )


def duplicate_match(a: Profile, b: Profile, pool: DealPool) -> Estimate:
    """``a``'s win rate against ``b`` in mbb/hand with its 95% interval over the deals.

    A deal's unit is its chips summed over the two seatings divided by two, as in
    :meth:`checkraise.arena.ring.RingResult.mbb`.
    """
    return mbb_per_hand(duplicate_chips(a, b, pool) / 2.0, pool.big_blind)
