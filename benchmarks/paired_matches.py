"""Two heads-up matches on the same deals, compared deal by deal.

``checkraise match A X --seed S --out DIR_A`` and ``checkraise match B X --seed S --out
DIR_B`` deal the same cards (the seed fixes them, whoever plays), so A's and B's results
against the same opponent X can be paired: per deal, A's chips over both seatings minus
B's. The luck of the cards that both matches share cancels, and the interval of the
difference is narrower than the two matches' own intervals suggest.

The hand logs (``DIR/logs/rotation-*.log``, ACPC ``STATE`` lines) are read: line ``k``
of every rotation is deal ``k``; each line names its players in seat order. Refuses
folders whose deals differ (another seed or deal count) or whose opponents differ.

Run: ``.venv/bin/python benchmarks/paired_matches.py DIR_A DIR_B [DIR_A2 DIR_B2 ...]
[--bb 100] [--json]`` (further pairs, on other seeds, are pooled deal by deal).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

from checkraise.arena.outfolder import OutFolderError, match_logs


def deal_chips(folder: Path) -> tuple[str, str, list[str], np.ndarray]:
    """``(first agent, opponent, cards per deal, first agent's chips per deal)``."""
    try:
        logs = match_logs(folder, "log")
    except OutFolderError as exc:
        sys.exit(str(exc))
    rows = [[line.split(":") for line in p.read_text().splitlines()
             if line.startswith("STATE:")] for p in logs]
    n = len(rows[0])
    if any(len(r) != n for r in rows):
        sys.exit(f"{folder}: rotations of different lengths")
    names = rows[0][0][5].split("|")
    if len(names) != 2:
        sys.exit(f"{folder}: {len(names)} players; expected a heads-up match")
    first = names[0]  # the first agent of the match seats first in the first hand
    chips = np.zeros(n)
    cards: list[str] = []
    for k in range(n):
        holes = sorted(r[k][3].split("/")[0].split("|")[0] for r in rows)
        cards.append(",".join(holes) + "/" + rows[0][k][3].split("/", 1)[-1])
        for r in rows:
            players = r[k][5].split("|")
            payoffs = [float(x) for x in r[k][4].split("|")]
            chips[k] += payoffs[players.index(first)]
    opponent = next(p for p in names if p != first)
    return first, opponent, cards, chips


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+",
                        help="A B: the --out folders of agent A's and agent B's matches "
                             "(more pairs A2 B2 ... on other seeds are pooled)")
    parser.add_argument("--bb", type=float, default=100.0, help="big blind in chips")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if len(args.folders) % 2:
        sys.exit(f"{len(args.folders)} folders; expected pairs: A B [A2 B2 ...]")
    parts_a, parts_b = [], []
    names: set[tuple[str, str, str]] = set()
    for fa, fb in zip(args.folders[::2], args.folders[1::2], strict=True):
        name_a, opp_a, cards_a, a = deal_chips(fa)
        name_b, opp_b, cards_b, b = deal_chips(fb)
        if opp_a != opp_b:
            sys.exit(f"opponents differ: {opp_a} and {opp_b}; expected the same one")
        if len(a) != len(b) or any(x.split("/")[0] != y.split("/")[0]
                                   for x, y in zip(cards_a, cards_b, strict=True)):
            sys.exit(f"{fa} and {fb} dealt different cards; expected the same --seed and -n")
        names.add((name_a, name_b, opp_a))
        parts_a.append(a)
        parts_b.append(b)
    if len(names) != 1:
        sys.exit(f"the pairs name different agents: {sorted(names)}")
    (name_a, name_b, opp_a), = names
    a, b = np.concatenate(parts_a), np.concatenate(parts_b)
    scale = 1000.0 / args.bb / 2.0  # mbb per hand: a deal is two hands
    out = {}
    for label, v in (("a", a), ("b", b), ("a_minus_b", a - b)):
        mean = float(v.mean()) * scale
        half = 1.96 * float(v.std(ddof=1)) / math.sqrt(len(v)) * scale
        out[label] = {"mbb_per_hand": mean, "half_width": half}
    report = {"a": name_a, "b": name_b, "opponent": opp_a, "deals": len(a), **out}
    if args.json:
        print(json.dumps(report))
        return
    print(f"{len(a)} deals against {opp_a}, mbb/hand (95% interval):")
    print(f"  A {name_a}: {out['a']['mbb_per_hand']:+.0f} ± {out['a']['half_width']:.0f}")
    print(f"  B {name_b}: {out['b']['mbb_per_hand']:+.0f} ± {out['b']['half_width']:.0f}")
    print(f"  A - B, deal by deal: {out['a_minus_b']['mbb_per_hand']:+.0f} ± "
          f"{out['a_minus_b']['half_width']:.0f}")


if __name__ == "__main__":
    main()
