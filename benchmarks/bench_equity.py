"""Equity benchmarks: our engine against eval7 on the same spots, one core, same run.

1. Monte Carlo, one hand against a random hand preflop, 10^6 deals: ours vs
   ``eval7.py_hand_vs_range_monte_carlo`` (goal: at least 3x faster).
2. Exact AsKs vs QhQd preflop, 1,712,304 boards (goal: at most 100 ms).
3. Exact AsKs against a 20 % range on a flop (goal: at most 50 ms).
4. Six players, Algorithm 1 form (our hand against five hand distributions), 10^5 deals.

Each figure is the best of several runs after a warm-up call (numba compiles and caches).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import eval7
import numpy as np

from checkraise.equity import equity, win_probability
from checkraise.ranges import Range

REPEATS = 7
RANGE_20 = "22+,A2s+,K9s+,QTs+,JTs,T9s,98s,A8o+,KJo+"


def best_of(fn: Callable[[], object], repeats: int = REPEATS) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    hero = [eval7.Card("Ah"), eval7.Card("Ad")]
    anyhand = eval7.HandRange("22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32")
    n = 1_000_000
    t_ours = best_of(lambda: equity(["AhAd", "random"], method="mc", samples=n, seed=1))
    t_eval7 = best_of(lambda: eval7.py_hand_vs_range_monte_carlo(hero, anyhand, [], n))
    ours = float(equity(["AhAd", "random"], method="mc", samples=n, seed=1).equity[0])
    theirs = eval7.py_hand_vs_range_monte_carlo(hero, anyhand, [], n)
    print("1. MC AhAd vs random, 10^6 deals")
    print(f"   checkraise {1e3 * t_ours:8.1f} ms  (equity {ours:.4f})")
    print(f"   eval7      {1e3 * t_eval7:8.1f} ms  (equity {theirs:.4f})")
    print(f"   ratio      {t_eval7 / t_ours:8.2f}x  (goal >= 3x)")

    t = best_of(lambda: equity(["AsKs", "QhQd"], method="exact"))
    print(f"2. exact AsKs vs QhQd preflop, 1,712,304 boards: {1e3 * t:.1f} ms (goal <= 100 ms)")

    r20 = Range(RANGE_20)
    t = best_of(lambda: equity(["AsKs", r20], board="Td9d6h", method="exact"))
    print(
        f"3. exact AsKs vs a {r20.percent:.1f}% range ({len(r20)} combos) on Td9d6h: "
        f"{1e3 * t:.1f} ms (goal <= 50 ms)"
    )

    rng = np.random.default_rng(0)
    dists = rng.random((5, 1326))
    t = best_of(lambda: win_probability("AsKs", dists, samples=100_000, seed=2), repeats=3)
    print(f"4. Algorithm 1, AsKs vs 5 weighted distributions, 10^5 deals: {1e3 * t:.1f} ms")


if __name__ == "__main__":
    main()
