"""Execution backends: overhead per work item, and 1 -> 2 worker scaling of a duplicate match.

Measured in one run, local processes (:class:`~checkraise.backend.LocalBackend`) against
Ray (:class:`~checkraise.backend.ray_backend.RayBackend`, a local instance with 2 CPUs
started here):

* **Overhead per work item**: ``--items`` trivial items (each returns its seed) on
  2 workers, wall time divided by the number of items: what a backend costs around the
  work (pickling, scheduling, returning the result, one progress report).
* **Scaling**: a ``--deals``-deal heads-up duplicate match (``heuristic`` against
  ``call``; two rotations = two work items of ``deals`` hands each) on 1 and 2 workers,
  wall time and the speed-up. Ray with 1 worker is the same instance with one item in
  flight. Ray's workers first play a short warm-up match, so that their imports and
  numba cache loads (which the forked local workers inherit) are not timed.

The figures compared are the 2-worker match times: the goal is Ray within 10% of the
local backend on one machine. Wall times on a shared machine: the load average is
printed before and after, and each figure is the best of ``--repeat`` runs (default 3),
interleaved over the backends so that a change of load hits all of them.

Run: ``.venv/bin/python benchmarks/bench_backend.py [--deals 20000] [--items 400]``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from checkraise.arena.ring import RingConfig, play_ring
from checkraise.backend import Backend, LocalBackend, Progress
from checkraise.backend.ray_backend import RayBackend


@dataclass(frozen=True)
class Nothing:
    seed: int


def nothing(item: Nothing, progress: Progress) -> int:
    progress(1)
    return item.seed


def best(seconds: Callable[[], float], repeat: int) -> float:
    return min(seconds() for _ in range(repeat))


def overhead(backend: Backend, items: int) -> float:
    work = [Nothing(i) for i in range(items)]

    def once() -> float:
        t = time.perf_counter()
        assert backend.map(nothing, work) == list(range(items))
        return time.perf_counter() - t

    return best(once, 3) / items


def match_seconds(
    backends: dict[tuple[str, int], Backend], config: RingConfig, repeat: int
) -> dict[tuple[str, int], float]:
    """Best wall time per backend; the runs are interleaved so that load drifts hit all."""
    times: dict[tuple[str, int], list[float]] = {key: [] for key in backends}
    results = set()
    for _ in range(repeat):
        for key, backend in backends.items():
            t = time.perf_counter()
            result = play_ring(config, seed=1, backend=backend)
            times[key].append(time.perf_counter() - t)
            results.add(json.dumps(result.to_json(), sort_keys=True))
    assert len(results) == 1, "the backends disagree on the match result"
    return {key: min(values) for key, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--items", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    config = RingConfig(("heuristic", "call"), hands=args.deals)
    print(f"load average before: {os.getloadavg()}, cores: {os.cpu_count()}")

    ray1, ray2 = RayBackend(workers=1), RayBackend(workers=2)
    t = time.perf_counter()
    ray2.map(nothing, [Nothing(0)])  # starts the local instance as the CLI does
    print(f"ray start-up (local instance, 2 CPUs): {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    play_ring(RingConfig(config.agents, hands=200), seed=2, backend=ray2)
    print(f"ray warm-up (workers import checkraise, load numba caches): "
          f"{time.perf_counter() - t:.2f} s")
    local1, local2 = LocalBackend(1), LocalBackend(2)
    play_ring(RingConfig(config.agents, hands=200), seed=2, backend=local1)  # compile here

    local_item, ray_item = overhead(local2, args.items), overhead(ray2, args.items)
    print(f"\noverhead per work item, 2 workers, {args.items} trivial items:")
    print(f"  local {1e3 * local_item:8.3f} ms   ray {1e3 * ray_item:8.3f} ms   "
          f"ray/local {ray_item / local_item:.2f}")

    print(f"\n{args.deals}-deal duplicate match, {config.agents[0]} vs {config.agents[1]} "
          f"({2 * args.deals} hands, 2 work items):")
    backends = {("local", 1): local1, ("local", 2): local2, ("ray", 1): ray1, ("ray", 2): ray2}
    times = match_seconds(backends, config, args.repeat)
    for (name, workers), seconds in times.items():
        print(f"  {name:5} {workers} worker(s): {seconds:7.2f} s  "
              f"{2 * args.deals / seconds:8.0f} hands/s")
    for name in ("local", "ray"):
        print(f"  {name:5} speed-up 1 -> 2 workers: {times[name, 1] / times[name, 2]:.2f}x")
    ratio = times["ray", 2] / times["local", 2]
    print(f"  ray / local, 2 workers: {ratio:.3f} (goal: at most 1.10)"
          f"   1 worker: {times['ray', 1] / times['local', 1]:.3f}")
    print("  results identical on every backend and worker count: yes")
    ray1.close()
    ray2.close()
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
