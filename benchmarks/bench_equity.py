"""Equity benchmarks: our engine against eval7 on the same spots, one core, same run.

1. Monte Carlo, one hand against a random hand preflop, 10^6 deals: ours vs
   ``eval7.py_hand_vs_range_monte_carlo`` (goal: at least 3x faster).
2. Exact AsKs vs QhQd preflop, 1,712,304 boards (goal: at most 100 ms).
3. Exact AsKs against a 20 % range on a flop (goal: at most 50 ms).
4. Six players, Algorithm 1 form (our hand against five hand distributions), 10^5 deals.

Each figure is taken after a warm-up call (numba compiles or loads its cache then) and
reported as best and median of several runs, in wall time and in this process's CPU
time (``time.process_time``): the machine may be shared, and CPU time is what a
loaded machine distorts least. Spot 1's ratio is given for both.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import eval7
import numpy as np

from checkraise.equity import equity, win_probability
from checkraise.ranges import Range

REPEATS = 9
RANGE_20 = "22+,A2s+,K9s+,QTs+,JTs,T9s,98s,A8o+,KJo+"


@dataclass(frozen=True)
class Timing:
    """Best and median seconds of the timed runs, wall clock and process CPU."""

    wall_best: float
    wall_median: float
    cpu_best: float
    cpu_median: float

    def __str__(self) -> str:
        return (
            f"wall best {1e3 * self.wall_best:7.1f} ms, median {1e3 * self.wall_median:7.1f} ms;"
            f" cpu best {1e3 * self.cpu_best:7.1f} ms, median {1e3 * self.cpu_median:7.1f} ms"
        )


def timed(fn: Callable[[], object], repeats: int = REPEATS) -> Timing:
    fn()
    wall = []
    cpu = []
    for _ in range(repeats):
        w0 = time.perf_counter()
        c0 = time.process_time()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return Timing(min(wall), statistics.median(wall), min(cpu), statistics.median(cpu))


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None).parse_args()
    # Spot 1: AhAd against a uniformly random hand, preflop, 10^6 deals, on both sides
    # (eval7 takes "any two cards" as a range of all 1,326 combos, equal weights).
    hero = [eval7.Card("Ah"), eval7.Card("Ad")]
    anyhand = eval7.HandRange("22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32")
    n = 1_000_000
    ours = timed(lambda: equity(["AhAd", "random"], method="mc", samples=n, seed=1))
    theirs = timed(lambda: eval7.py_hand_vs_range_monte_carlo(hero, anyhand, [], n))
    e_ours = float(equity(["AhAd", "random"], method="mc", samples=n, seed=1).equity[0])
    e_theirs = eval7.py_hand_vs_range_monte_carlo(hero, anyhand, [], n)
    print(f"1. MC AhAd vs random, preflop, 10^6 deals (exact 0.8520), best/median of {REPEATS}")
    print(f"   checkraise  {ours}  (equity {e_ours:.4f})")
    print(f"   eval7       {theirs}  (equity {e_theirs:.4f})")
    print(
        f"   ratio       wall best {theirs.wall_best / ours.wall_best:.2f}x,"
        f" median {theirs.wall_median / ours.wall_median:.2f}x;"
        f" cpu best {theirs.cpu_best / ours.cpu_best:.2f}x,"
        f" median {theirs.cpu_median / ours.cpu_median:.2f}x  (goal >= 3x)"
    )

    t = timed(lambda: equity(["AsKs", "QhQd"], method="exact"))
    print(f"2. exact AsKs vs QhQd preflop, 1,712,304 boards (goal <= 100 ms): {t}")

    r20 = Range(RANGE_20)
    t = timed(lambda: equity(["AsKs", r20], board="Td9d6h", method="exact"))
    print(
        f"3. exact AsKs vs a {r20.percent:.1f}% range ({len(r20)} combos) on Td9d6h"
        f" (goal <= 50 ms): {t}"
    )

    rng = np.random.default_rng(0)
    dists = rng.random((5, 1326))
    t = timed(lambda: win_probability("AsKs", dists, samples=100_000, seed=2), repeats=3)
    print(f"4. Algorithm 1, AsKs vs 5 weighted distributions, 10^5 deals: {t}")


if __name__ == "__main__":
    main()
