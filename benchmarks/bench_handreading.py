"""Decision time of the hand-reading bot (``fold``) with N = 500 deals and 1-7 opponents.

For each number of opponents k, ``--decisions`` game states are made by dealing a k+1
player table and letting everyone call to a random street (preflop to river), with a
raise by a random opponent on the way so that the prediction has actions to read. Each
state is timed twice:

* **ours**: the whole ``HandReadingAgent.act`` (understand the history, predict every
  opponent's 1,326-combo distribution, Algorithm 1 Monte Carlo with N = 500, Algorithm 2,
  and heads-up below the raise thresholds the fold-equity rule: each opponent's folding
  chance and two more Monte Carlo runs against the ranges that would go on);
* **peer**: :func:`checkraise.equity.win_probability` on the same predicted distributions
  with the same N, the general-purpose weighted Monte Carlo of the equity module (it
  does only step 2 of ours);

and the paper's figure (about 10 ms per decision in Java, Li et al. 2017) is printed for
reference. Times are CPU time of this process, medians over the states; the first
decision on each new flop includes building that flop's P_win table (150 runouts).
Run: ``.venv/bin/python benchmarks/bench_handreading.py [--decisions D]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from checkraise.agents.handreading import HandReadingAgent
from checkraise.engine import Action, Observation, State, TableConfig
from checkraise.equity import win_probability

PAPER_MS = 10.0


def make_states(k: int, count: int, seed: int) -> list[tuple[State, int]]:
    """Game states where seat 0 (the bot) is to act with k opponents in the hand."""
    rng = np.random.default_rng(seed)
    out: list[tuple[State, int]] = []
    cfg = TableConfig.nolimit(k + 1, stacks=20_000)
    while len(out) < count:
        state = State(cfg, seed=int(rng.integers(2**31)))
        target = int(rng.integers(0, 4))
        raiser = int(rng.integers(1, k + 1))
        raised = False
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            if seat == 0 and state.round == target:
                out.append((state, target))
                break
            legal = state.legal_actions()
            if seat == raiser and not raised and legal.min_raise_to is not None:
                state.step(Action.raise_to(legal.min_raise_to))
                raised = True
            else:
                state.step(Action.call())
    return out


def time_ours(bot: HandReadingAgent, obs: Observation) -> float:
    start = time.process_time()
    bot.act(obs)
    return time.process_time() - start


def time_peer(bot: HandReadingAgent, obs: Observation, seed: int) -> float:
    dists = list(bot.last_prediction.values())
    start = time.process_time()
    win_probability(list(obs.hole_cards), dists, board=list(obs.board), samples=500, seed=seed)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warm = make_states(2, 4, 0)
    bot = HandReadingAgent(seed=0, samples=500)
    for state, _ in warm:  # compile the kernels and load the tables
        obs = state.observation(0)
        bot.begin_hand(0, state.config, obs.hole_cards, 0)
        bot.act(obs)
        time_peer(bot, obs, 0)
    print(f"{'opp':>3s} {'ours median ms':>15s} {'ours p90 ms':>12s} {'peer median ms':>15s} "
          f"{'peer/ours':>10s} {'paper ms':>9s}")
    all_ours: list[float] = []
    for k in range(1, 8):
        states = make_states(k, args.decisions, args.seed + k)
        ours: list[float] = []
        peer: list[float] = []
        bot = HandReadingAgent(seed=k, samples=500)
        for i, (state, _) in enumerate(states):
            obs = state.observation(0)
            bot.begin_hand(0, state.config, obs.hole_cards, i)
            ours.append(time_ours(bot, obs))
            peer.append(time_peer(bot, obs, i))
        m_ours = 1000 * float(np.median(ours))
        m_peer = 1000 * float(np.median(peer))
        all_ours.extend(ours)
        print(f"{k:3d} {m_ours:15.3f} {1000 * float(np.quantile(ours, 0.9)):12.3f} "
              f"{m_peer:15.3f} {m_peer / m_ours:10.2f} {PAPER_MS:9.1f}")
    print(f"all: ours median {1000 * float(np.median(all_ours)):.3f} ms per decision "
          f"(goal <= {PAPER_MS:g} ms)")


if __name__ == "__main__":
    main()
