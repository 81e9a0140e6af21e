"""Differential run against PokerKit: many random casino-rules hands, 2-10 seats.

Each hand (antes in about 30% of tables, uneven stacks, all-ins and side pots
common) is played in the engine and in PokerKit side by side by
``tests/engine/pokerkit_diff.py``: at every decision the seat to act, the call
amount, the fold permission and the raise bounds must agree, and at the end our
stacks must equal an independent pot-by-pot model (``tests/engine/pot_model.py``)
and PokerKit's stacks that model's merged-ties variant. Hand ``i`` of a run with
``--seed S`` is ``random_deal((S << 32) | i)``, so any mismatch printed can be
replayed alone. The test suite runs a small sample (``tests/engine/test_pokerkit_diff.py``).

Run: ``.venv/bin/python benchmarks/pokerkit_diff.py [--hands N] [--seed S]``;
exit status 1 if any hand disagrees.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, for tests/

from tests.engine.pokerkit_diff import play, random_deal


@dataclass
class Summary:
    """Counts over one run, and the hands that disagreed."""

    hands: int = 0
    seats: Counter[int] = field(default_factory=Counter)
    all_in: int = 0
    side_pots: int = 0
    showdowns: int = 0
    antes: int = 0
    odd_chip_differences: int = 0
    mismatches: list[tuple[int, str]] = field(default_factory=list)


def hand_seed(seed: int, i: int) -> int:
    """The ``random_deal`` seed of hand ``i`` in a run with ``seed``."""
    return (seed << 32) | i


def run(hands: int, seed: int = 0, progress: int = 0) -> Summary:
    """Play ``hands`` random hands; print a progress line every ``progress`` hands (0: never)."""
    out = Summary()
    start = time.monotonic()
    for i in range(hands):
        deal = random_deal(hand_seed(seed, i))
        out.hands += 1
        out.seats[deal.config.num_players] += 1
        out.antes += deal.config.ante > 0
        try:
            o = play(deal)
        except Exception as exc:  # a disagreement, or one side refusing the other's move
            out.mismatches.append((deal.seed, f"{type(exc).__name__}: {str(exc)[:300]}"))
        else:
            out.all_in += o.all_in
            out.side_pots += o.pots >= 2
            out.showdowns += o.showdown
            out.odd_chip_differences += o.odd_chip_difference
        if progress and (i + 1) % progress == 0:
            rate = (i + 1) / max(time.monotonic() - start, 1e-9)
            print(f"{i + 1:>9,} / {hands:,} hands  {len(out.mismatches)} mismatches"
                  f"  {rate:,.0f} hands/s", flush=True)
    return out


def report(s: Summary) -> str:
    """The summary as text."""
    seats = " ".join(f"{k}:{v}" for k, v in sorted(s.seats.items()))
    lines = [
        f"hands played          {s.hands:,}",
        f"  by seats            {seats}",
        f"  with antes          {s.antes:,}",
        f"  with an all-in      {s.all_in:,}",
        f"  with a side pot     {s.side_pots:,}",
        f"  reaching showdown   {s.showdowns:,}",
        f"odd-chip differences  {s.odd_chip_differences:,}"
        "  (PokerKit merges tied side pots; both sides match the independent model)",
        f"mismatches            {len(s.mismatches):,}",
    ]
    lines += [f"  seed {seed}: {msg}" for seed, msg in s.mismatches[:20]]
    if len(s.mismatches) > 20:
        lines.append(f"  ... and {len(s.mismatches) - 20} more")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=100_000, help="hands to play (default 100000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--progress", type=int, default=10_000,
                   help="print a progress line every N hands (0: never; default 10000)")
    args = p.parse_args(argv)
    if args.hands < 1 or args.seed < 0 or args.progress < 0:
        p.error(f"need --hands >= 1, --seed >= 0, --progress >= 0; got "
                f"{args.hands}, {args.seed}, {args.progress}")
    summary = run(args.hands, args.seed, args.progress)
    print(report(summary))
    return 1 if summary.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
