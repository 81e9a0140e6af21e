"""Heuristic bot speed: median time per decision, and heads-up self-play hands per second.

* **Per decision**: ``HeuristicAgent.act`` with the default sample count on the
  observations of real heads-up hands (every street), against the ``equity`` baseline
  (:class:`~checkraise.agents.baselines.EquityAgent`, the same kind of Monte Carlo
  decision through :func:`checkraise.equity.equity`) on the same observations. The
  goal is at most 5 ms a decision (the original C++ program played about 5 ms a hand).
* **Self-play**: heads-up duplicate hands per second of ``heuristic`` against itself in
  the arena (:func:`checkraise.arena.match.play_match`, one process) and in the tuner's
  self-play kernel (:mod:`checkraise.tuning.selfplay`, values computed up front), with
  the ``equity`` baseline's arena self-play as the peer.

Times are CPU time of this process (one core), so that other load on the machine does
not distort them. Run: ``.venv/bin/python benchmarks/bench_heuristic.py [--hands N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from checkraise.agents.base import Agent
from checkraise.agents.baselines import EquityAgent
from checkraise.agents.heuristic import DEFAULT_SAMPLES, HeuristicAgent
from checkraise.agents.profiles import default_profile
from checkraise.arena.match import play_match
from checkraise.engine import Observation, State, TableConfig
from checkraise.tuning.selfplay import DealPool, duplicate_chips


def observations(hands: int, seed: int) -> list[Observation]:
    """Decision points of heads-up hands played by two heuristic bots (all streets)."""
    rng = np.random.default_rng(seed)
    config = TableConfig.nolimit(2)
    bots = [HeuristicAgent(seed=1, samples=200), HeuristicAgent(seed=2, samples=200)]
    out: list[Observation] = []
    for _ in range(hands):
        state = State(config, deck=[int(c) for c in rng.permutation(52)])
        for bot in bots:
            bot.begin_hand(0, config, (), 0)
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            obs = state.observation(seat)
            out.append(obs)
            state.step(bots[seat].act(obs))
    return out


def per_decision(make: Callable[[], Agent], obs: list[Observation]) -> float:
    """Median CPU seconds of one ``act`` (a fresh agent each time, so no value is cached)."""
    times = []
    for o in obs:
        agent = make()
        start = time.process_time_ns()
        agent.act(o)
        times.append((time.process_time_ns() - start) / 1e9)
    return statistics.median(times)


def arena_rate(spec: str, hands: int) -> float:
    """Heads-up duplicate hands per CPU second in the arena (one process)."""
    start = time.process_time()
    play_match(spec, spec, hands=hands, seed=3, workers=1)
    return 2 * hands / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=400, help="hands per measurement")
    args = parser.parse_args()

    # Warm up the compiled kernels and tables.
    warm = observations(5, seed=0)
    per_decision(lambda: HeuristicAgent(seed=0), warm)
    per_decision(lambda: EquityAgent(seed=0), warm)
    play_match("heuristic", "heuristic", hands=5, seed=1, workers=1)

    obs = observations(args.hands // 2, seed=7)
    postflop = [o for o in obs if o.board]
    ours = per_decision(lambda: HeuristicAgent(seed=0), obs)
    ours_post = per_decision(lambda: HeuristicAgent(seed=0), postflop)
    peer = per_decision(lambda: EquityAgent(seed=0), obs)
    peer_post = per_decision(lambda: EquityAgent(seed=0), postflop)
    print(f"decisions: {len(obs)} ({len(postflop)} postflop); heuristic samples = "
          f"{DEFAULT_SAMPLES}, equity baseline samples = 300")
    print(f"median per decision, all streets: heuristic {ours * 1e3:.3f} ms, "
          f"equity baseline {peer * 1e3:.3f} ms, ratio {peer / ours:.1f}x")
    print(f"median per decision, postflop:    heuristic {ours_post * 1e3:.3f} ms, "
          f"equity baseline {peer_post * 1e3:.3f} ms, ratio {peer_post / ours_post:.1f}x")
    print("goal: <= 5 ms per decision (the original C++ bot: about 5 ms per hand)")

    h_rate = arena_rate("heuristic", args.hands)
    e_rate = arena_rate("equity", args.hands)
    print(f"arena heads-up self-play: heuristic {h_rate:.0f} hands/s, "
          f"equity baseline {e_rate:.0f} hands/s, ratio {h_rate / e_rate:.1f}x")

    start = time.process_time()
    pool = DealPool.generate(20_000, seed=5, samples=DEFAULT_SAMPLES)
    valued = time.process_time() - start
    prof = default_profile()
    duplicate_chips(prof, prof, pool)
    start = time.process_time()
    for _ in range(10):
        duplicate_chips(prof, prof, pool)
    played = time.process_time() - start
    print(f"tuner self-play kernel: {10 * 2 * len(pool) / played:.0f} hands/s "
          f"(after valuing {len(pool)} deals at {len(pool) / valued:.0f} deals/s), "
          f"{10 * 2 * len(pool) / played / h_rate:.0f}x the arena")


if __name__ == "__main__":
    main()
