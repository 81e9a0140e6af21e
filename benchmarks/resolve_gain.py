"""What river re-solving gains against the blueprint, in expectation over the hands.

``resolve`` plays its blueprint until the river, so against the ``blueprint`` bot a
match differs from blueprint self-play only in the river subgames. This script takes
the river starts of seeded blueprint self-play deals and, for each seat in turn as the
re-solving player, computes exactly (over both ranges, every hand pair) his expected
chips in the subgame when he plays the re-solved strategy of each variant and when he
plays the blueprint, the opponent playing the blueprint bot in both (its real actions
mapped onto the subgame's tree as in the safe gadget). The difference is the variant's
gain at that spot; averaged over deals (0 for deals that end before the river) and the
two seats, it is the gain per hand in mbb (a chip is 10 mbb at blinds 50/100). Far less
noisy than a duplicate match of the same length, which it complements, not replaces.

Each deal's figures go to ``--out`` (JSON lines) as they are made; a rerun skips the
deals already there, so a killed run loses one deal at most.

Run: ``.venv/bin/python benchmarks/resolve_gain.py --deals 200 --seed 170001
--out runs/gain.jsonl [--variants unsafe,safe/cbv/resolve,...]``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from checkraise.agents.resolve import ResolveAgent
from checkraise.agents.subgame import (
    Subgame,
    blueprint_river,
    blueprint_rows_for,
    locked_solver,
)
from checkraise.engine import TableConfig

CONFIG = TableConfig.nolimit(2, stacks=20000)
VARIANTS = ("unsafe", "safe/cbv/resolve", "safe/cbv/maxmargin", "safe/blueprint/resolve")


def expected_chips(sub: Subgame, ranges: Any, me: int, readers: Any, ours: bool) -> float:
    """``me``'s expected chips in the subgame: his re-solved strategy (``ours``) or the
    blueprint's, against the blueprint bot."""
    start = sub.start
    mine = 0 if me == start.oop_seat else 1
    blueprint = blueprint_rows_for(start, readers, (0, 1))

    def rows_for(tree: Any, node: int, line: list[str], actor: int, state: Any) -> Any:
        if actor == mine and ours:
            _, rows = sub.strategy(line)
            rows[rows.sum(axis=1) == 0, 0] = 1.0
            return rows
        return blueprint(tree, node, line, actor, state)

    reach = (ranges[start.oop_seat], ranges[1 - start.oop_seat])
    return locked_solver(sub.solver.spot, reach, start, rows_for).expected_values()[mine]


def deal_gains(deal: int, variants: list[str], iterations: int) -> dict[str, Any]:
    """The gain of each variant at this deal's river, per seat (empty: no river)."""
    found = blueprint_river(deal, CONFIG)
    row: dict[str, Any] = {"deal": deal, "river": found is not None}
    if found is None:
        return row
    obs, holes = found
    for me in (0, 1):
        bot = ResolveAgent(seed=deal)
        bot.begin_hand(me, CONFIG, holes[me], deal)
        ranges = bot.ranges(obs)
        base = None
        for variant in variants:
            mode, _, rest = variant.partition("/")
            bound, _, gadget = rest.partition("/")
            gadget, _, warm = gadget.partition("+warm")
            sub = Subgame.solve(obs, ranges, me, mode, bot.readers, bound=bound or "cbv",
                                     gadget=gadget or "resolve", accuracy=0.5,
                                     warm=int(warm) if warm else 0,
                                     max_iterations=iterations, max_seconds=1e9)
            if base is None:
                base = expected_chips(sub, ranges, me, bot.readers, ours=False)
                row["pot"] = sub.start.pot
            row[f"{variant}@{me}"] = expected_chips(sub, ranges, me, bot.readers, True) - base
    return row


def summary(rows: list[dict[str, Any]], variants: list[str]) -> list[str]:
    """mbb per hand (mean over deals of the two seats' mean gain) with a 95% interval."""
    out = []
    for variant in variants:
        per_deal = np.array([
            (r[f"{variant}@0"] + r[f"{variant}@1"]) / 2.0 if r["river"] else 0.0
            for r in rows if not r["river"] or f"{variant}@0" in r
        ])
        if per_deal.size < 2:
            continue
        mbb = 10.0 * per_deal
        half = 1.96 * mbb.std(ddof=1) / np.sqrt(mbb.size)
        out.append(f"{variant:<24} {mbb.mean():+8.1f} ± {half:6.1f} mbb/hand over "
                   f"{mbb.size} deals ({sum(r['river'] for r in rows)} reached the river)")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=170001, help="first deal")
    parser.add_argument("--iterations", type=int, default=500, help="per re-solve")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help="mode[/bound[/gadget]], comma-separated")
    parser.add_argument("--out", type=Path, default=Path("resolve_gain.jsonl"))
    args = parser.parse_args()
    variants = args.variants.split(",")
    done: dict[int, dict[str, Any]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[int(row["deal"])] = row
    with args.out.open("a") as log:
        for deal in range(args.seed, args.seed + args.deals):
            if deal in done:
                continue
            row = deal_gains(deal, variants, args.iterations)
            done[deal] = row
            log.write(json.dumps(row) + "\n")
            log.flush()
            rows = [done[d] for d in sorted(done) if args.seed <= d < args.seed + args.deals]
            print(f"deal {deal}: " + "; ".join(summary(rows, variants)), flush=True)
    rows = [done[d] for d in sorted(done) if args.seed <= d < args.seed + args.deals]
    print("\n".join(summary(rows, variants)))


if __name__ == "__main__":
    main()
