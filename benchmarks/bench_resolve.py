"""Decision time of the ``resolve`` bot per mode, on river decisions of real play.

The river decisions come from the shipped blueprint playing itself on seeded deals;
at each, ``resolve`` (each mode) decides from scratch: it tracks both ranges, builds
the river subgame, (``safe``) computes the opponent's best-response values against the
blueprint, and solves to the accuracy or the time budget. Beside it, the blueprint
bot's own decision at the same spots: what re-solving costs on top of it. The
issue's budget is 5 s per decision on 2 cores; the distribution is printed (median,
90th percentile, max) with the iterations and the exploitability reached (% of pot).

Run: ``.venv/bin/python benchmarks/bench_resolve.py [--decisions 20] [--seconds 5]
[--json]``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from checkraise.agents.blueprint import BlueprintAgent
from checkraise.agents.resolve import ResolveAgent
from checkraise.agents.subgame import blueprint_river
from checkraise.engine import Observation, TableConfig

CONFIG = TableConfig.nolimit(2, stacks=20000)


def river_spots(count: int, seed: int) -> list[tuple[int, Observation, tuple[int, ...]]]:
    """``count`` first river decisions of blueprint self-play: (deal seed, view, cards)."""
    out = []
    deal = seed
    while len(out) < count:
        found = blueprint_river(deal, CONFIG)
        if found is not None:
            obs, holes = found
            out.append((deal, obs, holes[obs.seat]))
        deal += 1
    return out


def time_mode(mode: str, spots: list[Any], seconds: float) -> dict[str, Any]:
    """Seconds, iterations and exploitability of one decision per spot."""
    times, iters, expl = [], [], []
    for deal, obs, hole in spots:
        if mode == "blueprint":
            bot: Any = BlueprintAgent(seed=deal)
        else:
            bot = ResolveAgent(mode=mode, seconds=seconds, seed=deal)
        bot.begin_hand(obs.seat, CONFIG, hole, deal)
        started = time.perf_counter()
        bot.act(obs)
        times.append(time.perf_counter() - started)
        if mode != "blueprint":
            iters.append(bot.decisions[-1]["iterations"])
            expl.append(bot.decisions[-1]["exploitability"])
    t = np.array(times)
    row: dict[str, Any] = {"mode": mode, "decisions": len(times),
                           "median_s": float(np.median(t)), "p90_s": float(np.quantile(t, 0.9)),
                           "max_s": float(t.max()), "mean_s": float(t.mean())}
    if iters:
        row["median_iterations"] = float(np.median(iters))
        row["median_exploitability_pct"] = float(np.median(expl))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--decisions", type=int, default=20, help="river decisions per mode")
    parser.add_argument("--seconds", type=float, default=5.0, help="budget per re-solve")
    parser.add_argument("--seed", type=int, default=1000, help="first deal seed")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    spots = river_spots(args.decisions, args.seed)
    time_mode("unsafe", spots[:1], args.seconds)  # compile the kernels, load the blueprint
    rows = [time_mode(mode, spots, args.seconds) for mode in ("blueprint", "unsafe", "safe")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    base = rows[0]["mean_s"]
    for row in rows:
        extra = ""
        if "median_iterations" in row:
            extra = (f"  iterations {row['median_iterations']:.0f}, exploitability "
                     f"{row['median_exploitability_pct']:.2f}% of the pot (medians)")
        print(f"{row['mode']:<9} {row['decisions']} river decisions: median "
              f"{row['median_s']:.4f} s, p90 {row['p90_s']:.4f} s, max {row['max_s']:.4f} s, "
              f"mean {row['mean_s'] / base:,.0f}x the blueprint's{extra}")
    print(f"budget (issue 16): <= {args.seconds:g} s per decision on 2 cores")


if __name__ == "__main__":
    main()
