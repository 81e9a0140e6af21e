"""Decision time of the ``resolve`` bot per mode, on river and turn decisions of real play.

The decisions come from the shipped blueprint playing itself on seeded deals: the
first river decision of each (for ``unsafe`` and ``safe``, which re-solve the river)
and the first turn decision (for ``mode=depth`` with each leaf evaluator:
``network``, the river value network; ``safe`` and ``model``, the four continuation
strategies), and the first flop decision (``depth/flop``: ``flop=network``, the flop
re-solved depth-limited with a turn network, ``--turn-values FILE``, at its leaves). At
each, ``resolve`` decides from scratch: it tracks both ranges, builds
the subgame, (``safe``) computes the opponent's best-response values against the
blueprint, and solves to the accuracy or the time budget. Beside it, the blueprint
bot's own decision at the same spots: what re-solving costs on top of it. The issue's
budget is 5 s per decision on 2 cores; the distribution is printed (median, 90th
percentile, max) with the iterations and the exploitability reached (% of pot).

Run: ``.venv/bin/python benchmarks/bench_resolve.py [--decisions 20] [--seconds 5]
[--values default] [--turn-values FILE] [--iterations N] [--json]``. With ``--iterations``
and ``--seconds`` above what they take, every re-solve does the same work whatever else
runs on the machine; the CPU time of this process is printed beside the wall time, and
two versions of the code compare by running the script with each on ``PYTHONPATH``.
Each ``resolve`` row also prints the sha256 of its re-solves' regrets and cumulative
strategies: with ``--iterations``, the same digest from two versions means they solved
every spot alike to the bit.
"""

from __future__ import annotations

import os

# As the checkraise command does: numpy's BLAS thread pool only waits for cores here.
for _name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from checkraise.agents.blueprint import BlueprintAgent  # noqa: E402
from checkraise.agents.resolve import ResolveAgent  # noqa: E402
from checkraise.engine import Observation, State, TableConfig  # noqa: E402

CONFIG = TableConfig.nolimit(2, stacks=20000)

#: (label, street, ResolveAgent options; None: the blueprint bot itself)
MODES: tuple[tuple[str, int, dict[str, Any] | None], ...] = (
    ("blueprint", 3, None),
    ("unsafe", 3, {"mode": "unsafe"}),
    ("safe", 3, {"mode": "safe"}),
    ("blueprint", 2, None),
    ("depth/network", 2, {"mode": "depth", "leaf": "network"}),
    ("depth/safe", 2, {"mode": "depth", "leaf": "safe"}),
    ("depth/model", 2, {"mode": "depth", "leaf": "model"}),
    ("blueprint", 1, None),
    ("depth/flop", 1, {"mode": "depth", "flop": "network"}),
)
_STREETS = {1: "flop", 2: "turn", 3: "river"}


def first_decisions(street: int, count: int, seed: int,
                    ) -> list[tuple[int, Observation, tuple[int, ...]]]:
    """``count`` first decisions on ``street`` of blueprint self-play: (deal, view, cards)."""
    out: list[tuple[int, Observation, tuple[int, ...]]] = []
    deal = seed
    while len(out) < count:
        bots = [BlueprintAgent(seed=deal), BlueprintAgent(seed=deal + 1)]
        state = State(CONFIG, seed=deal)
        for s in range(2):
            bots[s].begin_hand(s, CONFIG, state.hole_cards[s], deal)
        while not state.is_terminal and state.round < street:
            p = state.current_player
            assert p is not None
            state.step(bots[p].act(state.observation(p)))
        if not state.is_terminal and state.current_player is not None:
            p = state.current_player
            out.append((deal, state.observation(p), state.hole_cards[p]))
        deal += 1
    return out


def time_mode(label: str, options: dict[str, Any] | None, spots: list[Any], seconds: float,
              values: str, turn_values: str = "turn", iterations: int | None = None,
              ) -> dict[str, Any]:
    """Seconds (wall and this process's CPU), iterations and exploitability of one
    decision per spot; with ``iterations``, every re-solve runs exactly that many. For
    ``resolve``, ``digest``: the sha256 of every re-solve's regrets and cumulative
    strategies, in order (two versions of the code that solve alike to the bit agree)."""
    times, cpu, iters, expl = [], [], [], []
    digest = hashlib.sha256()
    for deal, obs, hole in spots:
        if options is None:
            bot: Any = BlueprintAgent(seed=deal)
        else:
            extra: dict[str, Any] = (
                {"values": values} if options.get("leaf", "network") == "network" else {})
            if options.get("flop") == "network":
                extra["turn_values"] = turn_values
            if iterations is not None:
                extra["iterations"] = iterations
            bot = ResolveAgent(**options, **extra, seconds=seconds, seed=deal)
        bot.begin_hand(obs.seat, CONFIG, hole, deal)
        started, started_cpu = time.perf_counter(), time.process_time()
        bot.act(obs)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        if options is not None:
            solver = bot.subgame(obs).solver
            for array in (*solver.regret, *solver.cum):
                digest.update(np.ascontiguousarray(array).tobytes())
            iters.append(bot.decisions[-1]["iterations"])
            expl.append(bot.decisions[-1]["exploitability"])
    t = np.array(times)
    row: dict[str, Any] = {"mode": label, "street": _STREETS[spots[0][1].round],
                           "decisions": len(times),
                           "median_s": float(np.median(t)), "p90_s": float(np.quantile(t, 0.9)),
                           "max_s": float(t.max()), "mean_s": float(t.mean()),
                           "mean_cpu_s": float(np.mean(cpu))}
    if iters:
        row["median_iterations"] = float(np.median(iters))
        row["median_exploitability_pct"] = float(np.median(expl))
        row["digest"] = digest.hexdigest()
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--decisions", type=int, default=20, help="decisions per mode")
    parser.add_argument("--seconds", type=float, default=5.0, help="budget per re-solve")
    parser.add_argument("--seed", type=int, default=1000, help="first deal seed")
    parser.add_argument("--values", default="default", help="river network of depth/network")
    parser.add_argument("--turn-values", default="turn", help="turn network of depth/flop")
    parser.add_argument("--modes", default=",".join(dict.fromkeys(m for m, _, _ in MODES)),
                        help="comma-separated modes to time")
    parser.add_argument("--iterations", type=int, default=None,
                        help="run every re-solve exactly this many iterations (as the "
                             "pairings do, with a budget they never reach) instead of "
                             "stopping on accuracy or time")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.iterations is not None and args.iterations < 1:
        parser.error(f"--iterations {args.iterations}: expected a positive count")
    wanted = set(args.modes.split(","))
    streets = {street for label, street, _ in MODES if label in wanted}
    spots = {street: first_decisions(street, args.decisions, args.seed) for street in streets}
    rows = []
    for label, street, options in MODES:
        if label not in wanted:
            continue
        # the first decision compiles kernels and loads files: not timed
        time_mode(label, options, spots[street][:1], args.seconds, args.values,
                  args.turn_values, args.iterations)
        rows.append(time_mode(label, options, spots[street], args.seconds, args.values,
                              args.turn_values, args.iterations))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    base = {r["street"]: r["mean_s"] for r in rows if r["mode"] == "blueprint"}
    for row in rows:
        extra = ""
        if "median_iterations" in row:
            extra = (f"  iterations {row['median_iterations']:.0f}, exploitability "
                     f"{row['median_exploitability_pct']:.2f}% of the pot (medians), "
                     f"solves' sha256 {row['digest'][:16]}")
        times = (f" mean {row['mean_s'] / base[row['street']]:,.0f}x the blueprint's"
                 if row["street"] in base else "")
        print(f"{row['mode']:<14} {row['decisions']} {row['street']} decisions: median "
              f"{row['median_s']:.4f} s, p90 {row['p90_s']:.4f} s, max {row['max_s']:.4f} s,"
              f" CPU mean {row['mean_cpu_s']:.4f} s,{times}{extra}")
    print(f"budget (issue 16): <= {args.seconds:g} s per decision on 2 cores")


if __name__ == "__main__":
    main()
