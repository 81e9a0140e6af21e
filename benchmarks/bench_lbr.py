"""LBR speed: hands per second against ``heuristic`` (and ``call``) on 1 and 2 workers.

LBR's cost is the agent's per-hand action probabilities (asked at each agent
decision and once per candidate raise at each LBR decision) plus LBR's own win
probability against the range (exact from the flop on). ``call`` has a trivial fast
path, so its rate is close to LBR's own cost; ``heuristic``'s fast path
(``checkraise.agents.probabilities``) gives the exact law of its Monte Carlo value
for every hand at once.
The peer is the arena: a plain duplicate match of the same agent against ``call``
(:func:`checkraise.arena.match.play_match`), the cost of dealing and acting alone.

Times are wall clock (the 2-worker figure needs it). Run:
``.venv/bin/python benchmarks/bench_lbr.py [--hands N] [--settings fcpa@turn,river]``.
"""

from __future__ import annotations

import argparse
import time

from checkraise.arena.match import play_match
from checkraise.lbr import LBRSettings, parse_streets, run_lbr


def lbr_rate(agent: str, hands: int, settings: LBRSettings, workers: int) -> float:
    """LBR hands per wall-clock second."""
    start = time.perf_counter()
    result = run_lbr(agent, hands, settings, seed=11, workers=workers, block=max(1, hands // 8))
    return result.hands / (time.perf_counter() - start)


def arena_rate(agent: str, hands: int) -> float:
    """Arena duplicate hands (agent vs call) per wall-clock second, one process."""
    start = time.perf_counter()
    play_match(agent, "call", hands=hands, seed=3, workers=1)
    return 2 * hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=40, help="LBR hands against heuristic")
    parser.add_argument("--settings", default="fcpa@turn,river",
                        help="actions@streets, e.g. fc@all or 56@turn,river")
    args = parser.parse_args()
    actions, _, streets = args.settings.partition("@")
    settings = LBRSettings(actions, parse_streets(streets or "turn,river"))

    run_lbr("call", 4, settings, seed=1)  # compile and load the kernels and tables
    run_lbr("heuristic", 2, settings, seed=1)
    for agent, hands in (("call", 20 * args.hands), ("heuristic", args.hands)):
        peer = arena_rate(agent, 200)
        one = lbr_rate(agent, hands, settings, 1)
        two = lbr_rate(agent, hands, settings, 2)
        print(f"LBR {settings.label} vs {agent:<9}: 1 worker {one:8.1f} hands/s, "
              f"2 workers {two:8.1f} hands/s ({two / one:.2f}x); arena {agent} vs call "
              f"{peer:8.0f} hands/s; LBR/arena {one / peer:.4f}")
    print("goal (issue 17): 10,000 hands against the blueprint in minutes, not hours")


if __name__ == "__main__":
    main()
