"""Expert bot speed: decision time per street (median, max) and the transposition table's hit rate.

The decision points are those of heads-up hands between two heuristic bots (every
street, seeded). ``ExpertAgent.act`` decides at each (a fresh agent for each hand's
observations, as in a match); preflop is a table lookup, after the flop the staged
search runs until its budget (``--seconds``) and plays the deepest search it finished.
The peer is the ``heuristic`` bot's ``act`` on the same observations (a Monte Carlo
win rate and a lookup), the decision time a match against it pays on the other side.

Times are wall-clock (the search's budget is wall-clock); one torch-free process.
Run: ``.venv/bin/python benchmarks/bench_expert.py [--hands N] [--seconds S]
[--cnn true|false] [--model FILE]`` (the opponent model: the CNN, the default, needs
torch; the searches of the two models reach different depths in the same budget).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from checkraise.agents.expert import ExpertAgent
from checkraise.agents.heuristic import HeuristicAgent
from checkraise.engine import Observation, State, TableConfig

STREETS = ("preflop", "flop", "turn", "river")


def observations(hands: int, seed: int) -> list[list[Observation]]:
    """The decision points of each of ``hands`` heuristic-vs-heuristic hands."""
    rng = np.random.default_rng(seed)
    config = TableConfig.nolimit(2)
    bots = [HeuristicAgent(seed=1, samples=200), HeuristicAgent(seed=2, samples=200)]
    out: list[list[Observation]] = []
    for _ in range(hands):
        state = State(config, deck=[int(c) for c in rng.permutation(52)])
        hand: list[Observation] = []
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            obs = state.observation(seat)
            hand.append(obs)
            state.step(bots[seat].act(obs))
        out.append(hand)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cnn", choices=("true", "false"), default="true",
                        help="opponent model: the CNN or the knowledge base")
    parser.add_argument("--model", default="default", help="the CNN's file (with --cnn true)")
    args = parser.parse_args()
    hands = observations(args.hands, args.seed)
    expert = ExpertAgent(seed=args.seed, seconds=args.seconds, cnn=args.cnn == "true",
                         model=args.model)
    peer_times: dict[str, list[float]] = {s: [] for s in STREETS}
    for hand in hands:
        for obs in hand:
            expert.act(obs)
            peer = HeuristicAgent(seed=3)
            start = time.perf_counter()
            peer.act(obs)
            peer_times[STREETS[obs.round]].append(time.perf_counter() - start)
    depths: dict[str, list[int]] = {s: [] for s in STREETS}
    for d in expert.decisions:
        depths[d["street"]].append(d["depth"])
    stats = expert.stats
    print(f"expert bot, cnn={args.cnn}, seconds={args.seconds}, {args.hands} hands, "
          f"{stats['decisions']} decisions")
    print(f"{'street':8} {'n':>5} {'median ms':>10} {'max ms':>8} {'depth':>6} "
          f"{'heuristic ms':>13} {'ratio':>7}")
    for street in STREETS:
        if street not in stats:
            continue
        s = stats[street]
        peer_ms = statistics.median(peer_times[street]) * 1e3
        mean_depth = float(np.mean(depths[street])) if depths[street] else 0.0
        print(f"{street:8} {s['n']:5d} {s['median'] * 1e3:10.1f} {s['max'] * 1e3:8.1f} "
              f"{mean_depth:6.2f} {peer_ms:13.2f} {s['median'] * 1e3 / peer_ms:7.1f}")
    lookups = sum(d["lookups"] for d in expert.decisions)
    hits = sum(d["hits"] for d in expert.decisions)
    print(f"transposition table: {hits} hits of {lookups} lookups, "
          f"hit rate {stats['tt_hit_rate']:.1%}")


if __name__ == "__main__":
    main()
