"""What ``blueprint:adapt=true`` learns about an opponent, hand by hand.

Plays the adaptive blueprint (:mod:`checkraise.agents.portfolio`) against one opponent,
seats alternating, and prints at checkpoints its win rate so far, each arm's estimated
value (big blinds a hand) with its standard error, and the probability that it plays
each arm next. A match (``checkraise match``) gives the win rate with an interval; this
shows which arm the bot settled on and how fast.

Run: ``.venv/bin/python benchmarks/portfolio_learning.py heuristic --hands 5000
[--arms none+fold100raise100] [--seed 1] [--checkpoints 5] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

from checkraise.agents import make_agent
from checkraise.agents.blueprint import ADAPT_ARMS, BlueprintAgent
from checkraise.arena.table import play_hand
from checkraise.engine import TableConfig


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("opponent", help="the opponent's agent spec (heuristic, fold, ...)")
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--arms", default=ADAPT_ARMS, help="the portfolio, joined by +")
    parser.add_argument("--bot", default="blueprint",
                        help="the adaptive bot's spec before its adapt options")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoints", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.hands < args.checkpoints or args.checkpoints < 1:
        parser.error(f"--hands {args.hands} --checkpoints {args.checkpoints}: expected "
                     "at least one hand per checkpoint")
    sep = "," if ":" in args.bot else ":"
    bot = make_agent(f"{args.bot}{sep}adapt=true,arms={args.arms}", seed=args.seed)
    assert isinstance(bot, BlueprintAgent) and bot.portfolio is not None
    other = make_agent(args.opponent, seed=args.seed + 1)
    config = TableConfig.nolimit(2, stacks=20000, small_blind=50, big_blind=100)
    rng = np.random.default_rng([args.seed, 0x6465616C])
    won = 0.0
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    marks = {round(args.hands * (k + 1) / args.checkpoints) for k in range(args.checkpoints)}
    for i in range(args.hands):
        seats = [bot, other] if i % 2 == 0 else [other, bot]
        hand = play_hand(seats, config, rng.permutation(52).tolist(), i)
        won += float(hand.payoffs[i % 2]) / config.big_blind
        if i + 1 in marks:
            rows.append({
                "hands": i + 1, "mbb_per_hand": 1000 * won / (i + 1),
                "estimates": [float(x) for x in bot.portfolio.means],
                "errors": [float(x) for x in bot.portfolio.errors],
                "next": [float(x) for x in bot.portfolio.probabilities([args.seed, i])],
                "seconds": time.perf_counter() - started,
            })
    if args.json:
        print(json.dumps({"opponent": args.opponent, "arms": list(bot.arms), "rows": rows},
                         indent=2))
        return 0
    print(f"blueprint:adapt=true against {args.opponent}; arms: {', '.join(bot.arms)}")
    print("estimates in big blinds a hand (standard error); p = chance of playing it next")
    for r in rows:
        arms = "  ".join(
            f"{e:+.2f} ({s:.2f}) p={p:.2f}"
            for e, s, p in zip(r["estimates"], r["errors"], r["next"], strict=True)
        )
        print(f"{r['hands']:>7,} hands {r['mbb_per_hand']:+7.0f} mbb/h  {arms}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
