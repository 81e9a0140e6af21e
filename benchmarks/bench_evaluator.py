"""Seven-card evaluation speed: checkraise against eval7 and phevaluator, one core.

Measures in one process, pinned to one CPU:

* ``evaluate_batch`` (the public, input-checking API) on 10^7 random 7-card hands,
  and the unchecked ``rank_batch`` kernel on the same array;
* the enumeration kernel over all 133,784,560 seven-card hands;
* eval7 (``eval7.evaluate`` on prebuilt ``Card`` objects) and phevaluator
  (``evaluate_7cards``) through their Python APIs on a subset of the same hands,
  extrapolated to a rate.

Each figure is the best of ``--repeat`` runs (the median is printed too), from
the wall clock; on a shared machine the rate per CPU-second of this process (the
time it actually ran) is printed beside it. Compare figures from the same run.

Usage: ``python benchmarks/bench_evaluator.py [--hands 10000000] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import eval7
import numpy as np
import numpy.typing as npt
from phevaluator import evaluate_7cards

from checkraise.cards import format_card
from checkraise.evaluator import evaluate_batch
from checkraise.evaluator._kernels import enumerate7_histogram, rank_batch


def random_hands(n: int, seed: int) -> npt.NDArray[np.uint8]:
    """``n`` uniformly random 7-card hands (rejection sampling of distinct cards)."""
    rng = np.random.default_rng(seed)
    parts: list[npt.NDArray[np.uint8]] = []
    have = 0
    while have < n:
        draw = rng.integers(0, 52, size=(min(n, 2_000_000) * 2, 7), dtype=np.uint8)
        ok = (np.diff(np.sort(draw, axis=1), axis=1) != 0).all(axis=1)
        parts.append(draw[ok])
        have += int(ok.sum())
    return np.ascontiguousarray(np.concatenate(parts)[:n])


def timed(fn: Callable[[], object], repeat: int) -> list[tuple[float, float]]:
    """(wall seconds, CPU seconds of this process) of each of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def report(name: str, count: int, times: list[tuple[float, float]]) -> tuple[float, float]:
    """Print wall-clock rates (best, median) and the CPU-time rate; return (best wall, CPU)."""
    walls = [w for w, _ in times]
    best = count / min(walls)
    typical = count / statistics.median(walls)
    on_cpu = count / min(c for _, c in times)
    print(
        f"{name:<44} best {best / 1e6:8.2f} M/s  median {typical / 1e6:8.2f} M/s"
        f"  (per CPU-second {on_cpu / 1e6:8.2f} M/s)"
    )
    return best, on_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--peer-hands", type=int, default=300_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: first)")
    args = parser.parse_args()

    if hasattr(os, "sched_setaffinity"):
        cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        print(f"pinned to CPU {cpu}")

    hands = random_hands(args.hands, args.seed)
    out = np.empty(len(hands), dtype=np.int32)
    evaluate_batch(hands[:10])  # compile or load from numba's cache
    rank_batch(hands[:10], out[:10])

    ours, ours_cpu = report(
        f"checkraise evaluate_batch ({len(hands):,} random)",
        len(hands),
        timed(lambda: evaluate_batch(hands), args.repeat),
    )
    raw, raw_cpu = report(
        "checkraise rank_batch kernel, unchecked",
        len(hands),
        timed(lambda: rank_batch(hands, out), args.repeat),
    )

    enumerate7_histogram()  # first call compiles or loads
    enum_times = timed(enumerate7_histogram, args.repeat)
    walls = [w for w, _ in enum_times]
    print(
        f"{'checkraise enumeration, all 133,784,560':<44} best {min(walls):8.3f} s    "
        f"median {statistics.median(walls):8.3f} s    "
        f"(CPU {min(c for _, c in enum_times):.3f} s)"
    )

    subset = hands[: args.peer_hands].tolist()
    cards7 = [eval7.Card(format_card(c)) for c in range(52)]
    e7 = eval7.evaluate

    def run_eval7() -> None:
        for h in subset:
            e7([cards7[c] for c in h])

    def run_phevaluator() -> None:
        for h in subset:
            evaluate_7cards(*h)

    peer7, peer7_cpu = report(
        f"eval7.evaluate ({len(subset):,} of the same)", len(subset), timed(run_eval7, 1)
    )
    peerph, peerph_cpu = report(
        f"phevaluator.evaluate_7cards ({len(subset):,})",
        len(subset),
        timed(run_phevaluator, 1),
    )
    for name, wall, cpu in (
        ("evaluate_batch / eval7      ", ours / peer7, ours_cpu / peer7_cpu),
        ("evaluate_batch / phevaluator", ours / peerph, ours_cpu / peerph_cpu),
        ("rank_batch / eval7          ", raw / peer7, raw_cpu / peer7_cpu),
    ):
        print(f"ratio {name}  wall {wall:7.1f}x   per CPU-second {cpu:7.1f}x")
    print("(goal: evaluate_batch >= 50x eval7)")
    print(
        f"goal >= 100 M/s random 7-card via evaluate_batch: wall {ours / 1e6:.0f} M/s, "
        f"per CPU-second {ours_cpu / 1e6:.0f} M/s (on a shared machine the latter is the "
        "one-core figure)"
    )


if __name__ == "__main__":
    main()
