"""Build an :class:`~checkraise.abstraction.abstraction.Abstraction` from exact features.

Phases: features (river EHS of every class, then turn, flop and preflop features from
the street below, see :mod:`checkraise.abstraction.features`), clustering of each street,
assignment of every class, and the quality statistics that go into the header:

- per street and bucket: size (classes), EHS min / max / mean / std;
- per street: the mean within-bucket standard deviation of EHS (buckets weighted by
  size) for the built buckets and for a naive baseline that cuts EHS at equal-count
  percentiles into as many buckets, and for ``emd`` the mean EMD (in units of equity)
  from each class's histogram to its bucket's centroid.

The river always uses exact one-dimensional k-means of EHS: there is no next street, and
its buckets must be computable on the fly from a hand's exact EHS.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.abstraction._cluster_kernels import within_bucket_emd
from checkraise.abstraction.abstraction import STREETS, Abstraction
from checkraise.abstraction.clustering import (
    emd_kmeans,
    equal_count_cuts,
    kmeans_1d,
)
from checkraise.abstraction.features import (
    DEFAULT_BINS,
    PREFLOP_DEN,
    PREFLOP_DEN2,
    compute_tables,
)
from checkraise.errors import CheckraiseError

__all__ = ["BuildConfig", "Method", "build_abstraction", "parse_buckets"]

PhaseProgress = Callable[[str, int, int], None]
MAX_BUCKETS = (169, 60_000, 60_000, 1_981)


class Method(StrEnum):
    """Clustering method of the flop and turn (and preflop below 169 buckets)."""

    EHS = "ehs"
    EMD = "emd"


def parse_buckets(text: str) -> tuple[int, int, int, int]:
    """Parse ``"169,200,200,200"`` into four bucket counts, checking their ranges.

    Examples
    --------
    >>> parse_buckets("169, 50,50,20")
    (169, 50, 50, 20)
    """
    parts = [p.strip() for p in text.split(",")]
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        raise CheckraiseError(
            f"bucket list {text!r} is not four comma-separated integers, e.g. 169,200,200,200"
        ) from None
    if len(values) != 4:
        raise CheckraiseError(
            f"bucket list {text!r} has {len(values)} entries; expected 4 "
            "(preflop,flop,turn,river), e.g. 169,200,200,200"
        )
    _check_counts(values)
    return values[0], values[1], values[2], values[3]


def _check_counts(counts: tuple[int, ...]) -> None:
    for street, v, top in zip(STREETS, counts, MAX_BUCKETS, strict=True):
        if not 1 <= v <= top:
            raise CheckraiseError(f"{street} bucket count {v} out of range; expected 1..{top}")


@dataclass(frozen=True)
class BuildConfig:
    """What to build: bucket counts per street, method, seed, histogram bins, and the
    sample size and iteration cap of the EMD k-means."""

    buckets: tuple[int, int, int, int] = (169, 200, 200, 200)
    method: Method = Method.EMD
    seed: int = 1
    bins: int = DEFAULT_BINS
    sample: int = 200_000
    iterations: int = 30

    def __post_init__(self) -> None:
        # Checked here, before the feature phase spends minutes and a GB of disk.
        if self.seed < 0:
            raise CheckraiseError(f"invalid seed {self.seed}: expected 0 or more")
        if len(self.buckets) != 4:
            raise CheckraiseError(f"buckets {self.buckets} must be four counts")
        _check_counts(self.buckets)
        if self.sample < max(self.buckets[1:3]):
            raise CheckraiseError(
                f"sample {self.sample} is smaller than the flop/turn bucket counts "
                f"{self.buckets[1:3]}; expected at least {max(self.buckets[1:3])}"
            )
        if not 2 <= self.bins <= 255:
            raise CheckraiseError(f"histogram bins {self.bins} out of range; expected 2..255")
        if self.iterations < 1:
            raise CheckraiseError(f"iterations {self.iterations} must be at least 1")


def _bucket_stats(
    labels: npt.NDArray[np.integer],
    x: npt.NDArray[np.float64],
    k: int,
    weights: npt.NDArray[np.float64] | None = None,
) -> dict[str, npt.NDArray[np.float64]]:
    w = np.ones_like(x) if weights is None else weights
    size = np.bincount(labels, weights=w, minlength=k)
    s = np.bincount(labels, weights=w * x, minlength=k)
    ss = np.bincount(labels, weights=w * x * x, minlength=k)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s / size
        std = np.sqrt(np.maximum(ss / size - mean * mean, 0.0))
    lo = np.full(k, np.inf)
    hi = np.full(k, -np.inf)
    np.minimum.at(lo, labels, x)
    np.maximum.at(hi, labels, x)
    return {"size": size, "mean": mean, "std": std, "min": lo, "max": hi}


def _store_stats(
    arrays: dict[str, npt.NDArray[Any]], street: str, stats: dict[str, npt.NDArray[np.float64]]
) -> None:
    for key, value in stats.items():
        arrays[f"{street}_{key}"] = value


def _mean_std(stats: dict[str, npt.NDArray[np.float64]]) -> float:
    size = stats["size"]
    return float(np.nansum(size * stats["std"]) / size.sum())


def build_abstraction(
    config: BuildConfig,
    work: Path,
    *,
    command: str = "",
    progress: PhaseProgress | None = None,
) -> Abstraction:
    """Compute features (resuming from ``work``), cluster every street and return the
    abstraction with its statistics; ``command`` is recorded in the header."""
    method = Method(config.method)
    t0 = time.perf_counter()
    ft = compute_tables(work, config.bins, progress)
    timings: dict[str, float] = {"features": time.perf_counter() - t0}
    arrays: dict[str, npt.NDArray[Any]] = {}
    quality: dict[str, dict[str, float]] = {}

    # River: exact 1-D k-means over the 1,981 possible values, weighted by class counts.
    t1 = time.perf_counter()
    k = config.buckets[3]
    counts = np.bincount(ft.river_v, minlength=1981)
    values = np.arange(1981, dtype=np.int64)
    river = kmeans_1d(values, 1980, k, counts)
    arrays["river_thresholds"] = river.thresholds
    w = counts.astype(np.float64)
    present = counts > 0
    x = values / 1980
    stats = _bucket_stats(river.assign(values)[present], x[present], k, w[present])
    base = equal_count_cuts(values, 1980, k, counts).assign(values)
    base_stats = _bucket_stats(base[present], x[present], k, w[present])
    _store_stats(arrays, "river", stats)
    quality["river"] = {"ehs_std": _mean_std(stats), "baseline_ehs_std": _mean_std(base_stats)}
    if progress is not None:
        progress("river buckets", 1, 1)

    for s in (2, 1, 0):
        name = STREETS[s]
        k = config.buckets[s]
        nums, den = ft.ehs(s)
        x = nums / den
        if s == 0 and k == 169:
            labels = np.arange(169, dtype=np.uint16)
        elif method is Method.EHS:
            labels = kmeans_1d(nums, den, k).assign(nums).astype(np.uint16)
        else:
            hist = ft.turn_hist if s == 2 else ft.flop_hist if s == 1 else ft.preflop_hist

            def tick(phase: str, done: int, total: int, _n: str = name) -> None:
                if progress is not None:
                    progress(f"{_n} {phase}", done, total)

            res = emd_kmeans(
                hist, k, config.seed + s, sample=config.sample,
                iterations=config.iterations, progress=tick,
            )  # fmt: skip
            labels = res.labels
            arrays[f"{name}_centroids"] = res.centroids
        arrays[f"{name}_buckets"] = labels
        stats = _bucket_stats(labels, x, k)
        base = equal_count_cuts(nums, den, k).assign(nums)
        base_stats = _bucket_stats(base, x, k)
        _store_stats(arrays, name, stats)
        quality[name] = {"ehs_std": _mean_std(stats), "baseline_ehs_std": _mean_std(base_stats)}
        if s > 0:
            # EMD in units of equity: bins of width 1 / bins.
            hist = ft.turn_hist if s == 2 else ft.flop_hist
            quality[name]["emd_mean"] = within_bucket_emd(hist, labels, k) / config.bins
            quality[name]["baseline_emd_mean"] = (
                within_bucket_emd(hist, base.astype(np.uint16), k) / config.bins
            )
        if progress is not None:
            progress(f"{name} buckets", 1, 1)
    timings["clustering"] = time.perf_counter() - t1
    arrays["preflop_ehs"] = ft.preflop_s / PREFLOP_DEN
    arrays["preflop_ehs2"] = ft.preflop_s2 / PREFLOP_DEN2
    arrays["preflop_hist"] = ft.preflop_hist
    header: dict[str, Any] = {
        "buckets": dict(zip(STREETS, config.buckets, strict=True)),
        "method": method.value,
        "seed": config.seed,
        "bins": config.bins,
        "sample": config.sample,
        "iterations": config.iterations,
        "river_rule": "exact EHS numerator 2*wins+ties of 1980, cut at river_thresholds",
        "command": command,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "quality": quality,
        "seconds": timings,
    }
    return Abstraction(header, arrays)
