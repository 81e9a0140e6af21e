"""Fast ring-game self-play of heuristic profiles (3 to 10 seats) over pre-valued deals.

The heads-up pool of :mod:`checkraise.tuning.selfplay` values each seat's cards once
per street, as the bot's decisions depend on its cards only through the value ``v``.
At a ring table ``v`` also depends on how many opponents are still in (the bot values
its hand against that many random hands), so a ring deal stores each seat's value on
each street against 1 .. ``seats - 1`` hands, plus every seat's showdown rank. The
betting kernel (:func:`checkraise.agents._heuristic_kernels.play_ring`) then plays a
*hero* profile in one seat against copies of another profile in all the others.

Duplicate at a ring table: each deal is played once with the hero in every seat, the
same cards in the same seats each time, so the hero holds every seat's cards once and
the luck of the cards largely cancels out (the rotation of
:mod:`checkraise.arena.ring`, from one player's point of view). A deal's unit is the
hero's chips summed over the seatings divided by their number.

The kernel follows the engine's casino no-limit rules for equal stacks; the tests
play the real :class:`~checkraise.agents.heuristic.HeuristicAgent` through
:class:`~checkraise.engine.State` on the same deals and check every payoff.

Examples
--------
>>> from checkraise.agents.profiles import default_profile
>>> pool = RingPool.generate(40, seats=6, seed=1, samples=50)
>>> ring_match(default_profile(), default_profile(), pool).mean
0.0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from checkraise.agents import _heuristic_kernels as K
from checkraise.agents.heuristic import DEFAULT_SAMPLES, MAX_OPPONENTS, preflop_values
from checkraise.agents.profiles import Profile
from checkraise.arena.stats import Estimate, mbb_per_hand
from checkraise.backend import Backend, Progress, resolve_backend
from checkraise.equity.core import rng_state
from checkraise.errors import CheckraiseError
from checkraise.tuning._blocks import block_rng, block_sizes

__all__ = ["RingPool", "RingPoolError", "ring_chips", "ring_match", "ring_seat_chips"]


class RingPoolError(CheckraiseError):
    """Bad ring-pool settings (seats, size, samples or stakes)."""


@dataclass(frozen=True)
class RingPool:
    """Ring deals with each seat's value per street and opponent count, and its rank.

    Attributes
    ----------
    decks
        ``(n, 2 * seats + 5)`` cards: each seat's two (seat 0 first), then the board.
    values
        ``(n, seats, 4, seats - 1)``: value of seat ``s``'s cards on street ``r``
        against ``k`` random hands at ``[d, s, r, k - 1]``.
    ranks
        ``(n, seats)``: each seat's showdown rank (higher wins).
    stack, small_blind, big_blind
        The stakes every hand is played at (equal stacks, reset each hand).
    """

    decks: npt.NDArray[np.int64]
    values: npt.NDArray[np.float64]
    ranks: npt.NDArray[np.int64]
    stack: int = 20000
    small_blind: int = 50
    big_blind: int = 100

    def __post_init__(self) -> None:
        if not 0 < self.small_blind <= self.big_blind < self.stack:
            raise RingPoolError(
                f"invalid stakes stack={self.stack!r}, blinds {self.small_blind!r}/"
                f"{self.big_blind!r}: expected 0 < small blind <= big blind < stack"
            )

    @property
    def seats(self) -> int:
        """Players at the table."""
        return int(self.ranks.shape[1])

    @classmethod
    def generate(
        cls,
        size: int,
        seats: int,
        seed: int,
        samples: int = DEFAULT_SAMPLES,
        stack: int = 20000,
        small_blind: int = 50,
        big_blind: int = 100,
        *,
        backend: Backend | None = None,
    ) -> RingPool:
        """Deal ``size`` random ``seats``-handed deals from ``seed`` and value them.

        Blocks of deals are valued as work items of ``backend`` (default: one after
        another in this process); the pool does not depend on it
        (:mod:`checkraise.tuning._blocks`).

        Examples
        --------
        >>> pool = RingPool.generate(2, seats=3, seed=2, samples=50)
        >>> pool.values.shape, pool.ranks.shape
        ((2, 3, 4, 2), (2, 3))
        >>> RingPool.generate(2, seats=11, seed=2)
        Traceback (most recent call last):
        ...
        checkraise.tuning.ringplay.RingPoolError: invalid seats 11: expected 2..10 players
        """
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 10:
            raise RingPoolError(f"invalid seats {seats!r}: expected 2..10 players")
        if size < 1:
            raise RingPoolError(f"invalid pool size {size!r}: expected at least 1 deal")
        if samples < 1:
            raise RingPoolError(f"invalid samples {samples!r}: expected at least 1")
        if seats - 1 > MAX_OPPONENTS:  # pragma: no cover - 10 seats is 9 opponents
            raise RingPoolError(f"invalid seats {seats!r}: at most {MAX_OPPONENTS + 1}")
        blocks = [
            _RingBlock(seed, b, n, seats, samples) for b, n in enumerate(block_sizes(size))
        ]
        parts = resolve_backend(backend, 1).map(_value_block, blocks)
        decks, values, ranks = (np.concatenate(arrays) for arrays in zip(*parts, strict=True))
        return cls(decks, values, ranks, stack, small_blind, big_blind)

    def __len__(self) -> int:
        return int(self.decks.shape[0])


@dataclass(frozen=True)
class _RingBlock:
    seed: int
    block: int
    size: int
    seats: int
    samples: int


def _value_block(
    item: _RingBlock, progress: Progress
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    gen = block_rng(item.seed, (11, item.seats), item.block)
    width = 2 * item.seats + 5
    decks = np.argsort(gen.random((item.size, 52)), axis=1)[:, :width].astype(np.int64)
    pre = np.ascontiguousarray(preflop_values())
    values, ranks = K.ring_deal_values(decks, pre, item.seats, item.samples, rng_state(gen))
    progress(item.size)
    return decks, values, ranks


def ring_seat_chips(
    a: Profile, b: Profile, pool: RingPool, index: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.int64]:
    """``out[d, s]``: chips won by ``a`` in seat ``s`` of deal ``d``, every other seat ``b``."""
    values, ranks = pool.values, pool.ranks
    if index is not None:
        values, ranks = values[index], ranks[index]
    return K.play_ring(
        np.ascontiguousarray(values), np.ascontiguousarray(ranks),
        np.ascontiguousarray(a.array), np.ascontiguousarray(b.array),
        a.pot_share, b.pot_share, pool.stack, pool.small_blind, pool.big_blind,
    )


def ring_chips(
    a: Profile, b: Profile, pool: RingPool, index: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.float64]:
    """Chips won by ``a`` against ``seats - 1`` copies of ``b`` per deal, summed over seats.

    Examples
    --------
    >>> from checkraise.agents.profiles import default_profile
    >>> pool = RingPool.generate(30, seats=4, seed=3, samples=50)
    >>> bool(ring_chips(default_profile(), default_profile(), pool).any())
    False
    """
    chips: npt.NDArray[np.float64] = ring_seat_chips(a, b, pool, index).sum(axis=1).astype(
        np.float64
    )
    return chips


def ring_match(a: Profile, b: Profile, pool: RingPool) -> Estimate:
    """``a``'s win rate against copies of ``b`` in mbb/hand with its 95% interval over deals."""
    return mbb_per_hand(ring_chips(a, b, pool) / pool.seats, pool.big_blind)
