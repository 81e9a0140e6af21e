"""Suit-isomorphism indexer speed per street: indices/s and unindices/s, one core.

Measures in one process:

* the numba batch kernels (``index_batch_kernel`` / ``unindex_batch_kernel``,
  unchecked; per call the cost of the scalar kernels ``index_cards`` /
  ``unindex_cards`` that other kernels use) on ``--n`` random deals / indices;
* the public, checking ``index_batch`` / ``unindex_batch`` on the same arrays.

Each figure is the best of ``--repeat`` runs, from the wall clock, with the rate
per CPU-second of this process beside it (the machine is shared). No peer is
measured: no Python package offering a hand indexer is a dependency.

Usage: ``python benchmarks/bench_isomorphism.py [--n 2000000] [--repeat 3] [--all-river]``
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from functools import partial

import numpy as np
import numpy.typing as npt

from checkraise.abstraction import BOARD_CARDS, STREETS, index_batch, index_size, unindex_batch
from checkraise.abstraction._iso_kernels import (
    class_size_batch_kernel,
    index_batch_kernel,
    unindex_batch_kernel,
)


def random_deals(street: int, n: int, seed: int) -> npt.NDArray[np.uint8]:
    """``n`` uniformly random deals of ``street`` (hole cards then board)."""
    rng = np.random.default_rng(seed)
    width = 2 + BOARD_CARDS[street]
    out = np.empty((n, width), dtype=np.uint8)
    step = 500_000
    for start in range(0, n, step):
        stop = min(n, start + step)
        keys = rng.random((stop - start, 52))
        out[start:stop] = np.argpartition(keys, width, axis=1)[:, :width]
    return out


def best(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(best wall seconds, CPU seconds of that run) over ``repeat`` calls."""
    runs = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--all-river",
        action="store_true",
        help="also round-trip all 123,156,254 river classes and add up their sizes",
    )
    args = parser.parse_args()
    n = args.n
    print(f"{n:,} random deals / indices per street, best of {args.repeat}")
    header = (
        f"{'street':8} {'what':24} {'ns/op':>7} {'CPU ns/op':>9} {'ops/s':>12} {'ops/CPU-s':>12}"
    )
    print(header)
    print("-" * len(header))
    for street, name in enumerate(STREETS):
        deals = random_deals(street, n, seed=street)
        indices = np.random.default_rng(10 + street).integers(0, index_size(street), n)
        out = np.empty_like(deals)
        index_batch_kernel(street, deals[:10])  # compile or load outside the timing
        unindex_batch_kernel(street, indices[:10], out[:10])
        cases: list[tuple[str, Callable[[], object]]] = [
            ("index (kernel)", partial(index_batch_kernel, street, deals)),
            ("unindex (kernel)", partial(unindex_batch_kernel, street, indices, out)),
            ("index_batch (checked)", partial(index_batch, street, deals)),
            ("unindex_batch (checked)", partial(unindex_batch, street, indices)),
        ]
        for what, fn in cases:
            wall, cpu = best(fn, args.repeat)
            print(
                f"{name:8} {what:24} {wall / n * 1e9:7.1f} {cpu / n * 1e9:9.1f} "
                f"{n / wall:12,.0f} {n / max(cpu, 1e-9):12,.0f}"
            )
    if args.all_river:
        all_river()


def all_river() -> None:
    """Unindex then re-index every river class in chunks (what a full feature pass costs)."""
    size = index_size(3)
    chunk = 8_000_000
    out = np.empty((chunk, 7), dtype=np.uint8)
    wall, cpu = time.perf_counter(), time.process_time()
    for start in range(0, size, chunk):
        idx = np.arange(start, min(size, start + chunk), dtype=np.int64)
        unindex_batch_kernel(3, idx, out[: idx.size])
        if not np.array_equal(index_batch_kernel(3, out[: idx.size]), idx):
            raise SystemExit(f"round trip failed in chunk starting at {start}")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"\nall {size:,} river classes unindexed and re-indexed: {wall:.1f} s wall, "
        f"{cpu:.1f} s CPU ({cpu / size * 1e9:.0f} CPU ns per class for both)"
    )
    # The class sizes must add up to every river deal: 1,326 hole pairs * C(50, 5) boards.
    sizes = np.empty(chunk, dtype=np.int64)
    total = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for start in range(0, size, chunk):
        idx = np.arange(start, min(size, start + chunk), dtype=np.int64)
        class_size_batch_kernel(3, idx, sizes[: idx.size])
        total += int(sizes[: idx.size].sum())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    expected = 1326 * math.comb(50, 5)
    print(
        f"river class sizes add up to {total:,} (expected {expected:,}: "
        f"{'ok' if total == expected else 'WRONG'}), {wall:.1f} s wall, {cpu:.1f} s CPU"
    )
    if total != expected:
        raise SystemExit("river class sizes do not add up")


if __name__ == "__main__":
    main()
