"""Statistics for arena results: win rates with confidence intervals, ranks, volatility, style.

- **mbb/hand** (milli-big-blinds won per hand) is the unit of the Annual Computer
  Poker Competition; its 95% confidence interval is the normal approximation
  ``mean ± 1.96 · s / √n`` over independent units (one duplicate deal, or one
  tournament repetition), as in the ACPC's duplicate evaluation.
- **Rank metrics** (mean rank, share of first places, rank distribution), **hands
  survived**, **chips remaining** and **chip volatility**
  ``F = Σ_k (C_k − C_{k−1})²`` follow the tournament experiments of the
  hand-reading (opponent-modelling) paper this project reproduces: 2–8 player
  tables, one rebuy, ``C_k`` a player's stack after hand ``k``.
- **Action frequencies**: share of fold/check/call/raise decisions over all streets,
  and the tracker statistics VPIP, PFR and the postflop aggression factor
  ``AF = (bets + raises) / calls``, as defined once in :mod:`checkraise.stats`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import ConfigError
from checkraise.stats import Act, StatCounts, tally_hand

__all__ = [
    "Z95",
    "ActionCounts",
    "Estimate",
    "bootstrap_interval",
    "chip_volatility",
    "estimate",
    "largest_shares",
    "mbb_per_hand",
    "pool_estimates",
    "rank_summary",
    "ratio_mbb_per_hand",
    "shared_ranks",
]

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the standard normal distribution."""


def _finite_or_none(x: float) -> float | None:
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its 95% confidence interval.

    ``half_width`` is ``nan`` when fewer than two samples exist (no spread can be
    measured); it is exactly ``0.0`` when every sample is the same.
    """

    mean: float
    half_width: float
    sd: float
    n: int

    @property
    def low(self) -> float:
        """Lower end of the 95% interval."""
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        """Upper end of the 95% interval."""
        return self.mean + self.half_width

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form (``None`` where a value is not finite)."""
        return {
            "mean": _finite_or_none(self.mean),
            "ci95_low": _finite_or_none(self.low),
            "ci95_high": _finite_or_none(self.high),
            "half_width": _finite_or_none(self.half_width),
            "sd": _finite_or_none(self.sd),
            "n": self.n,
        }

    def __str__(self) -> str:
        if not math.isfinite(self.half_width):
            return f"{self.mean:.1f}"
        return f"{self.mean:.1f} ± {self.half_width:.1f}"


def estimate(samples: Sequence[float] | npt.NDArray[Any]) -> Estimate:
    """Mean and normal-approximation 95% confidence interval of ``samples``.

    Examples
    --------
    >>> e = estimate([1.0, 2.0, 3.0, 4.0])
    >>> e.mean, round(e.half_width, 4), e.n
    (2.5, 1.2652, 4)
    >>> estimate([5, 5, 5]).half_width
    0.0
    """
    x = np.asarray(samples, dtype=np.float64)
    n = int(x.size)
    if n == 0:
        raise ConfigError("estimate of no samples: expected at least one value")
    mean = float(x.mean())
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n)
    sd = float(x.std(ddof=1))
    return Estimate(mean, Z95 * sd / math.sqrt(n), sd, n)


def pool_estimates(parts: Sequence[Estimate]) -> Estimate:
    """The :func:`estimate` of all the samples of ``parts`` together, from each part's
    mean, sd and n alone.

    The pooled mean is the n-weighted mean of the parts', and the pooled sum of squared
    deviations is each part's own, ``(n - 1) · sd²``, plus ``n · (mean - pooled mean)²``
    for its distance from the pooled mean: so it is what :func:`estimate` gives on the
    samples themselves (up to rounding), for a result whose samples were not kept.

    Raises :class:`~checkraise.errors.ConfigError` for no parts or a part without a
    finite mean and sd (a sd needs two samples).

    Examples
    --------
    >>> a, b = estimate([1.0, 2.0, 3.0]), estimate([4.0, 6.0])
    >>> p = pool_estimates([a, b])
    >>> p.n, p.mean, round(p.sd, 6) == round(estimate([1.0, 2.0, 3.0, 4.0, 6.0]).sd, 6)
    (5, 3.2, True)
    """
    if not parts:
        raise ConfigError("no estimates to pool; expected one or more")
    for i, part in enumerate(parts, 1):
        if part.n < 2 or not math.isfinite(part.sd) or not math.isfinite(part.mean):
            raise ConfigError(f"part {i}, estimate {part} of {part.n} samples with sd "
                              f"{part.sd}: expected at least two samples, a finite mean and "
                              "a finite sd")
    n = sum(p.n for p in parts)
    mean = sum(p.n * p.mean for p in parts) / n
    squares = sum((p.n - 1) * p.sd**2 + p.n * (p.mean - mean) ** 2 for p in parts)
    sd = math.sqrt(squares / (n - 1))
    return Estimate(mean, Z95 * sd / math.sqrt(n), sd, n)


def bootstrap_interval(samples: Sequence[float] | npt.NDArray[Any], resamples: int = 10_000,
                       seed: int = 0) -> tuple[float, float]:
    """The 95% percentile bootstrap interval of the mean of ``samples``.

    ``resamples`` means of ``n`` samples drawn with replacement (numpy generator seeded
    with ``seed``); the interval runs from their 2.5th to their 97.5th percentile (Efron
    & Tibshirani, *An Introduction to the Bootstrap*, 1993, §13.3). Beside the normal
    interval of :func:`estimate`, a check of it where a few samples are huge (a match
    decided by its largest pots): it assumes nothing about the shape of the spread.

    Examples
    --------
    >>> bootstrap_interval([5.0, 5.0, 5.0])
    (5.0, 5.0)
    >>> low, high = bootstrap_interval(range(100), seed=1)
    >>> e = estimate(range(100))
    >>> abs(low - e.low) < 1.0 and abs(high - e.high) < 1.0
    True
    """
    x = np.asarray(samples, dtype=np.float64)
    if x.size == 0:
        raise ConfigError("bootstrap of no samples: expected at least one value")
    if seed < 0:
        raise ConfigError(f"invalid seed {seed!r}: expected 0 or more")
    if resamples < 100:
        raise ConfigError(f"invalid resamples {resamples!r}: expected 100 or more (the "
                          "percentiles of fewer are too coarse)")
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    chunk = max(1, 2_000_000 // x.size)  # resamples drawn at a time: bounded memory
    for start in range(0, resamples, chunk):
        stop = min(start + chunk, resamples)
        picks = rng.integers(0, x.size, size=(stop - start, x.size))
        means[start:stop] = x[picks].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def largest_shares(samples: Sequence[float] | npt.NDArray[Any], counts: Sequence[int],
                   ) -> list[tuple[int, float, float]]:
    """How much of the mean of ``samples`` its ``k`` largest samples (by size, either
    sign) carry, for each ``k`` in ``counts``: ``(k, share, rest)``, where ``share`` is
    their sum divided by the number of samples (their part of the mean) and ``rest`` the
    mean of the others. Ties in size go to the earlier sample.

    Examples
    --------
    >>> largest_shares([1.0, -10.0, 2.0, 3.0], [1, 2])
    [(1, -2.5, 2.0), (2, -1.75, 1.5)]
    """
    x = np.asarray(samples, dtype=np.float64)
    out: list[tuple[int, float, float]] = []
    order = np.argsort(-np.abs(x), kind="stable")
    for k in counts:
        if not 0 < k < x.size:
            raise ConfigError(f"invalid count {k!r} of largest samples: expected 1 to "
                              f"{x.size - 1} (there are {x.size})")
        top = order[:k]
        rest = np.delete(x, top)
        out.append((k, float(x[top].sum() / x.size), float(rest.mean())))
    return out


def mbb_per_hand(chips_per_unit: Sequence[float] | npt.NDArray[Any], big_blind: int) -> Estimate:
    """Win rate in milli-big-blinds per hand from chips won per independent unit.

    Each element is the chips won in one unit of play counted as one hand (one
    duplicate deal averaged over its seatings, or a whole session already divided
    by its number of hands).

    Examples
    --------
    >>> print(mbb_per_hand([100, -50, 25, 125], big_blind=100))
    500.0 ± 774.7
    """
    if big_blind <= 0:
        raise ConfigError(f"invalid big_blind {big_blind!r}: expected a positive number of chips")
    x = np.asarray(chips_per_unit, dtype=np.float64) * (1000.0 / big_blind)
    return estimate(x)


def ratio_mbb_per_hand(
    chips: Sequence[float] | npt.NDArray[Any],
    hands: Sequence[float] | npt.NDArray[Any],
    big_blind: int,
) -> Estimate:
    """Pooled win rate ``Σ chips / Σ hands`` in mbb/hand over units of unequal length.

    For tournaments, where a unit (a repetition) lasts a different number of
    hands for each player, the rate is the ratio of sums, and its 95% interval
    comes from the delta method for a ratio estimator (Cochran, *Sampling
    Techniques*, 1977, §6.4): ``se = sqrt(Σ (c_i − r·h_i)² / (n(n−1))) / mean(h)``.

    Examples
    --------
    >>> e = ratio_mbb_per_hand([-4000, 800, 400], [3, 400, 200], big_blind=40)
    >>> round(e.mean, 1)
    -116.1
    """
    if big_blind <= 0:
        raise ConfigError(f"invalid big_blind {big_blind!r}: expected a positive number of chips")
    c = np.asarray(chips, dtype=np.float64)
    h = np.asarray(hands, dtype=np.float64)
    if c.shape != h.shape or c.size == 0 or h.sum() <= 0:
        raise ConfigError(
            f"ratio estimate of {c.size} chip totals over {h.size} hand counts: expected equal, "
            "non-empty lists with some hands played"
        )
    scale = 1000.0 / big_blind
    rate = float(c.sum() / h.sum())
    n = int(c.size)
    if n < 2:
        return Estimate(rate * scale, math.nan, math.nan, n)
    resid = c - rate * h
    se = math.sqrt(float(np.dot(resid, resid)) / (n * (n - 1))) / float(h.mean())
    return Estimate(rate * scale, Z95 * se * scale, se * scale * math.sqrt(n), n)


def chip_volatility(chips: Sequence[int] | npt.NDArray[Any]) -> int:
    """Chip volatility ``F = Σ_k (C_k − C_{k−1})²`` of a stack sequence ``C_0, C_1, …``.

    Examples
    --------
    >>> chip_volatility([2000, 2040, 1980, 1980])
    5200
    """
    c = np.asarray(chips, dtype=np.int64)
    if c.size < 2:
        return 0
    d = np.diff(c)
    return int(np.dot(d, d))


def shared_ranks(keys: Sequence[Sequence[float]]) -> list[float]:
    """Ranks (1 = best) of players ordered by ``keys`` (larger is better); ties share the mean.

    Examples
    --------
    >>> shared_ranks([(600, 3000), (120, 0), (600, 3000), (600, 1000)])
    [1.5, 4.0, 1.5, 3.0]
    """
    order = sorted(range(len(keys)), key=lambda i: tuple(keys[i]), reverse=True)
    ranks = [0.0] * len(keys)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and tuple(keys[order[j + 1]]) == tuple(keys[order[i]]):
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def rank_summary(ranks: Sequence[Sequence[float]], num_players: int) -> list[dict[str, Any]]:
    """Per player: mean rank with CI, win rate and rank distribution over repetitions.

    ``ranks[r][p]`` is player ``p``'s rank in repetition ``r`` (shared ranks allowed).
    A tie for first counts as ``1/k`` of a win for each of the ``k`` tied players,
    and a shared rank is spread evenly over the positions it covers in the
    distribution, so each row of the distribution sums to the number of repetitions.

    Examples
    --------
    >>> s = rank_summary([[1, 2], [2, 1], [1, 2]], num_players=2)
    >>> s[0]["win_rate"], s[0]["rank_counts"]
    (0.6666666666666666, [2.0, 1.0])
    """
    r = np.asarray(ranks, dtype=np.float64).reshape(-1, num_players)
    counts = np.zeros((num_players, num_players))
    for row in r:
        for p, value in enumerate(row):
            # A shared rank (i + j) / 2 + 1 covers positions i..j, k = j - i + 1 of them.
            tied = int(np.count_nonzero(row == value))
            first = round(value - (tied - 1) / 2)
            counts[p, first - 1 : first - 1 + tied] += 1.0 / tied
    out: list[dict[str, Any]] = []
    for p in range(num_players):
        out.append(
            {
                "mean_rank": estimate(r[:, p]).to_json(),
                "win_rate": float(counts[p, 0] / max(len(r), 1)),
                "rank_counts": [float(c) for c in counts[p]],
            }
        )
    return out


@dataclass
class ActionCounts:
    """Counts of one player's decisions, from which the tracker statistics follow."""

    hands: int = 0
    folds: int = 0
    checks: int = 0
    calls: int = 0
    raises: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    postflop_aggressive: int = 0
    postflop_calls: int = 0

    @property
    def decisions(self) -> int:
        """Number of decisions counted."""
        return self.folds + self.checks + self.calls + self.raises

    def add(self, other: ActionCounts) -> None:
        """Add ``other``'s counts to these."""
        self.hands += other.hands
        self.folds += other.folds
        self.checks += other.checks
        self.calls += other.calls
        self.raises += other.raises
        self.vpip_hands += other.vpip_hands
        self.pfr_hands += other.pfr_hands
        self.postflop_aggressive += other.postflop_aggressive
        self.postflop_calls += other.postflop_calls

    def record_hand(self, decisions: Iterable[tuple[int, str, int]]) -> None:
        """Count one hand's decisions: ``(round, kind, call_amount_before)`` each.

        ``kind`` is ``"fold"``, ``"call"`` (a check when ``call_amount_before`` is
        0) or ``"raise"`` (a bet when ``call_amount_before`` is 0). A player that
        only checked the big blind is not counted in VPIP.

        Examples
        --------
        >>> a = ActionCounts()
        >>> a.record_hand([(0, "call", 20), (1, "raise", 0), (2, "call", 80)])
        >>> a.record_hand([(0, "call", 0), (1, "fold", 40)])
        >>> a.vpip_hands, a.pfr_hands, a.checks, a.aggression_factor
        (1, 0, 1, 1.0)
        """
        self.hands += 1
        acts = []
        for rnd, kind, to_call in decisions:
            if kind == "fold":
                self.folds += 1
                act = Act.FOLD
            elif kind == "raise":
                self.raises += 1
                act = Act.RAISE if to_call > 0 else Act.BET
            elif to_call > 0:
                self.calls += 1
                act = Act.CALL
            else:
                self.checks += 1
                act = Act.CHECK
            acts.append((0, rnd, act))
        t = tally_hand(acts, 1)[0]
        self.vpip_hands += t.vpip
        self.pfr_hands += t.pfr
        self.postflop_aggressive += t.postflop_bets + t.postflop_raises
        self.postflop_calls += t.postflop_calls

    def stat_counts(self) -> StatCounts:
        """The tracker counts (:class:`checkraise.stats.StatCounts`) these decisions give.

        The arena sees only each player's own decisions, so the counts that need the
        whole hand (3-bet chances, flops seen, showdowns) stay zero.
        """
        return StatCounts(
            hands=self.hands, vpip_hands=self.vpip_hands, pfr_hands=self.pfr_hands,
            postflop_aggressive=self.postflop_aggressive, postflop_calls=self.postflop_calls,
        )

    @property
    def aggression_factor(self) -> float | None:
        """Postflop ``(bets + raises) / calls`` (:mod:`checkraise.stats`); ``None`` if no calls."""
        return self.stat_counts().aggression_factor

    def to_json(self) -> dict[str, Any]:
        """Counts plus the percentages (``None`` where undefined)."""
        d = max(self.decisions, 1)
        h = max(self.hands, 1)
        return {
            "hands": self.hands,
            "decisions": self.decisions,
            "folds": self.folds,
            "checks": self.checks,
            "calls": self.calls,
            "raises": self.raises,
            "fold_pct": 100.0 * self.folds / d,
            "check_pct": 100.0 * self.checks / d,
            "call_pct": 100.0 * self.calls / d,
            "raise_pct": 100.0 * self.raises / d,
            "vpip_pct": 100.0 * self.vpip_hands / h,
            "pfr_pct": 100.0 * self.pfr_hands / h,
            "aggression_factor": self.aggression_factor,
            "vpip_hands": self.vpip_hands,
            "pfr_hands": self.pfr_hands,
            "postflop_aggressive": self.postflop_aggressive,
            "postflop_calls": self.postflop_calls,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ActionCounts:
        """Inverse of :meth:`to_json` (only the counts are read)."""
        return cls(
            hands=int(d["hands"]),
            folds=int(d["folds"]),
            checks=int(d["checks"]),
            calls=int(d["calls"]),
            raises=int(d["raises"]),
            vpip_hands=int(d["vpip_hands"]),
            pfr_hands=int(d["pfr_hands"]),
            # Results written before the postflop counts existed read as no postflop calls
            # (AF undefined) rather than failing to load.
            postflop_aggressive=int(d.get("postflop_aggressive", 0)),
            postflop_calls=int(d.get("postflop_calls", 0)),
        )
