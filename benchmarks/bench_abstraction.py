"""Card abstraction: time and peak memory of the exact features and of a full build,
and bucket lookups per second.

Measures in one process:

* exact river EHS of all 123,156,254 river classes, then the turn and flop features
  (E[HS], E[HS^2], next-street histograms) and the preflop table, each phase timed,
  with the peak resident memory of the process after it (features go to ``--work``,
  a fresh temporary folder unless given, so nothing is reused);
* a full ``--buckets`` EMD build from those features (clustering and assignment of
  every class), and the whole build time (features + clustering);
* bucket lookups per second per street with the numba kernel ``lookup_bucket`` on
  random hands (the river computes exact EHS over the 990 opponent hands per lookup),
  through the Python method ``Abstraction.bucket``, and for the river all hands of a
  board at once (``board_river_buckets``).

Peer: eval7's exact hand-vs-range evaluation (C extension) computes the river EHS of
one hand against all hands; its per-hand time, times 123,156,254, is printed beside
our figure. The machine is shared: the load average is printed before and after.

Usage: ``python benchmarks/bench_abstraction.py [--work DIR] [--buckets 169,200,200,200]
[--lookups 200000] [--skip-build]``
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit
from checkraise.abstraction._table_kernels import board_river_buckets, lookup_bucket
from checkraise.abstraction.abstraction import Abstraction
from checkraise.abstraction.build import BuildConfig, Method, build_abstraction, parse_buckets
from checkraise.abstraction.features import compute_tables

RIVER_CLASSES = 123_156_254


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


@njit
def _lookup_all(
    cards: npt.NDArray[np.uint8],
    pre: npt.NDArray[np.uint16],
    flop: npt.NDArray[np.uint16],
    turn: npt.NDArray[np.uint16],
    cuts: npt.NDArray[np.int64],
) -> int:
    acc = 0
    for i in range(cards.shape[0]):
        acc += lookup_bucket(cards[i], pre, flop, turn, cuts)
    return acc


@njit
def _boards(
    boards: npt.NDArray[np.uint8], cuts: npt.NDArray[np.int64], out: npt.NDArray[np.int16]
) -> None:
    for i in range(boards.shape[0]):
        board_river_buckets(boards[i], cuts, out)


def random_hands(n: int, width: int, seed: int) -> npt.NDArray[np.uint8]:
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52))
    return np.ascontiguousarray(np.argpartition(keys, width, axis=1)[:, :width]).astype(np.uint8)


def bench_features(work: Path) -> None:
    marks: list[tuple[str, float, float]] = []
    t0 = time.perf_counter()
    last = {"t": t0}

    def progress(phase: str, done: int, total: int) -> None:
        if done == total:
            now = time.perf_counter()
            marks.append((phase, now - last["t"], peak_mb()))
            last["t"] = now

    compute_tables(work, progress=progress)
    print("phase              seconds   peak RSS so far (MB)")
    for phase, sec, mb in marks:
        print(f"{phase:18s} {sec:8.1f}   {mb:8.0f}")
    print(f"all features       {time.perf_counter() - t0:8.1f}")
    river = marks[0][1]
    print(f"river EHS: {RIVER_CLASSES / river / 1e6:.2f} M classes/s")


def bench_peer() -> None:
    try:
        import eval7
    except ImportError:
        print("eval7 not installed: no peer figure")
        return
    hand = [eval7.Card("As"), eval7.Card("Kd")]
    board = [eval7.Card(c) for c in ("Qh", "7c", "2s", "3d", "5h")]
    everything = eval7.HandRange("22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32")
    reps = 300
    t = time.perf_counter()
    for _ in range(reps):
        eval7.py_hand_vs_range_exact(hand, everything, board)
    per = (time.perf_counter() - t) / reps
    print(
        f"peer eval7.py_hand_vs_range_exact: {per * 1e6:.0f} us per river hand, "
        f"{per * RIVER_CLASSES / 3600:.1f} h for all river classes (one core)"
    )


def bench_lookups(ab: Abstraction, n: int) -> None:
    tables = ab.tables()
    print("street    kernel lookups/s   Python Abstraction.bucket lookups/s")
    for street, width in (("preflop", 2), ("flop", 5), ("turn", 6), ("river", 7)):
        m = n if street != "river" else max(n // 10, 1000)
        cards = random_hands(m, width, seed=width)
        _lookup_all(cards[:10], *tables)
        t = time.perf_counter()
        _lookup_all(cards, *tables)
        kernel = m / (time.perf_counter() - t)
        k = min(m, 20_000)
        rows = [(c[:2].tolist(), c[2:].tolist()) for c in cards[:k]]
        t = time.perf_counter()
        for hole, board in rows:
            ab.bucket(street, hole, board)
        py = k / (time.perf_counter() - t)
        print(f"{street:8s} {kernel:16,.0f}   {py:12,.0f}")
    boards = random_hands(2000, 5, seed=9)
    out = np.empty((52, 52), dtype=np.int16)
    _boards(boards[:2], tables[3], out)
    t = time.perf_counter()
    _boards(boards, tables[3], out)
    per = (time.perf_counter() - t) / len(boards)
    print(
        f"river, all 1,081 hands of a board at once (board_river_buckets): {per * 1e6:.0f} us "
        f"per board = {1081 / per:,.0f} hands/s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=None, help="feature folder (default: fresh)")
    ap.add_argument("--buckets", default="169,200,200,200")
    ap.add_argument("--lookups", type=int, default=200_000)
    ap.add_argument("--skip-build", action="store_true", help="only the lookup benchmark")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}, cores: {os.cpu_count()}")
    bench_peer()
    if args.skip_build:
        ab = Abstraction.load("default")
    else:
        with tempfile.TemporaryDirectory(prefix="checkraise-features-") as tmp:
            work = args.work or Path(tmp)
            t0 = time.perf_counter()
            bench_features(work)
            t1 = time.perf_counter()
            config = BuildConfig(parse_buckets(args.buckets), Method.EMD, seed=1)
            ab = build_abstraction(config, work, command="bench_abstraction.py")
            t2 = time.perf_counter()
            print(
                f"EMD build {args.buckets}: clustering {t2 - t1:.1f} s, whole build "
                f"{t2 - t0:.1f} s, peak RSS {peak_mb():.0f} MB"
            )
            for street, q in ab.header["quality"].items():
                print(f"  {street:8s} {q}")
    bench_lookups(ab, args.lookups)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
