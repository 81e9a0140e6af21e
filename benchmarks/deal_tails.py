"""How far a match's figure rests on its largest deals, and whether its interval holds.

A duplicate match's 95% interval is the normal one over deals (``mean ± 1.96 · s /
√n``). Heads-up no-limit with deep stacks has heavy tails: in a match of two bots that
play alike most deals come out even across the seatings, and a few river all-ins of
up to 2 × 20,000 chips carry the result. This prints, for the first agent (``--player``
another) and one figure (``--kind``, luck adjusted by default):

- the deals, how many of them are not exactly 0 (in an in-step match, the deals the
  seatings played differently), and the mean with its normal interval, as the match
  reports it;
- the percentile bootstrap interval of the same mean
  (:func:`checkraise.arena.stats.bootstrap_interval`), which assumes nothing about the
  shape of the spread: where it and the normal interval agree, the normal one can be
  read as it is;
- the skewness and excess kurtosis of the deals (0 and 0 for a normal spread);
- how much of the mean the ``k`` largest deals carry, and the mean of the rest
  (:func:`checkraise.arena.stats.largest_shares`).

Run::

    .venv/bin/python benchmarks/deal_tails.py DIR [DIR ...] [--kind luck|allin|dealt]
        [--player NAME] [--top 10,50] [--resamples 10000] [--seed 0] [--json]

Each ``DIR`` is a match's ``--out`` folder, finished, cut short or archived (gzipped
logs, ``docs/results/README.md``); several are pooled deal by deal, as ``checkraise
match --pool`` does.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from checkraise.arena.journal import JournalError, pool
from checkraise.arena.ring import RingResult
from checkraise.arena.stats import bootstrap_interval, estimate, largest_shares
from checkraise.errors import CheckraiseError

_KINDS = ("luck", "allin", "dealt")


def deal_values(result: RingResult, kind: str, player: str | None) -> tuple[np.ndarray, str]:
    """Each deal's mbb/hand for ``player`` (the first agent: ``None``), and his name."""
    if player is None:
        index = 0
    elif player in result.labels:
        index = result.labels.index(player)
    else:
        raise SystemExit(f"--player {player!r}: not in the match (players "
                         f"{result.labels}); expected one of them")
    rows: Sequence[Sequence[Any]] = (result.deal_luck if kind == "luck" else
                                     result.deal_adjusted if kind == "allin" else
                                     result.deal_chips)
    if not rows:
        raise SystemExit(f"--kind {kind}: this match holds no such figure (played before it "
                         "was recorded); expected --kind dealt")
    scale = Fraction(1000, result.config.big_blind * result.config.num_rotations)
    return (np.array([float(Fraction(row[index]) * scale) for row in rows]),
            result.labels[index])


def summary(x: np.ndarray, top: list[int], resamples: int, seed: int) -> dict[str, Any]:
    """The figures printed for deals ``x`` (mbb/hand each)."""
    normal = estimate(x)
    low, high = bootstrap_interval(x, resamples, seed)
    centred = x - x.mean()
    sd = float(np.sqrt(np.mean(centred**2)))
    skew = float(np.mean(centred**3) / sd**3) if sd > 0 else math.nan
    kurtosis = float(np.mean(centred**4) / sd**4 - 3.0) if sd > 0 else math.nan
    return {
        "deals": int(x.size), "not_zero": int(np.count_nonzero(x)),
        "normal": normal.to_json(),
        "bootstrap": {"ci95_low": low, "ci95_high": high, "resamples": resamples,
                      "seed": seed},
        "skewness": skew, "excess_kurtosis": kurtosis,
        "largest": [{"deals": k, "share_of_mean": share, "mean_of_rest": rest}
                    for k, share, rest in largest_shares(x, top)],
    }


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise SystemExit(f"--top {text!r}: expected whole numbers separated by commas, "
                         "e.g. 10,50") from None
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+", help="--out folders of matches")
    parser.add_argument("--kind", choices=_KINDS, default="luck",
                        help="which figure (default luck adjusted)")
    parser.add_argument("--player", help="whose figure (default the match's first agent)")
    parser.add_argument("--top", default="10,50",
                        help="counts of largest deals to show the share of (default 10,50)")
    parser.add_argument("--resamples", type=int, default=10_000,
                        help="bootstrap resamples (default 10,000)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    top = _counts(args.top)
    try:
        result = pool([folder / "logs" for folder in args.folders])
        x, name = deal_values(result, args.kind, args.player)
        data = summary(x, top, args.resamples, args.seed)
    except (JournalError, CheckraiseError) as exc:
        sys.exit(str(exc))
    data = {"folders": [str(f) for f in args.folders], "player": name, "kind": args.kind,
            **data}
    if args.json:
        print(json.dumps(data))
        return
    n = data["normal"]
    b = data["bootstrap"]
    print(f"{name}, {args.kind} mbb/hand over {data['deals']:,} deals "
          f"({data['not_zero']:,} not 0):")
    print(f"  mean {n['mean']:+.1f}, normal 95% [{n['ci95_low']:+.1f}, {n['ci95_high']:+.1f}], "
          f"bootstrap 95% [{b['ci95_low']:+.1f}, {b['ci95_high']:+.1f}] "
          f"({b['resamples']:,} resamples, seed {b['seed']})")
    print(f"  skewness {data['skewness']:.2f}, excess kurtosis {data['excess_kurtosis']:.1f}")
    for row in data["largest"]:
        print(f"  the {row['deals']:,} largest deals carry {row['share_of_mean']:+.1f} of the "
              f"mean; the other deals average {row['mean_of_rest']:+.1f}")


if __name__ == "__main__":
    main()
