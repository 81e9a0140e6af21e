"""How much of a heads-up duplicate match plays alike before the river, and what it costs.

A duplicate match of ``resolve`` against its own blueprint should be 0 on every deal
over before the river, and start every river from the same betting in both seatings:
before the river both play the blueprint with the same seed. With the default draws
(``draws=stream``) they drift apart after the first river. This reads a match's hand
logs (``DIR/logs/rotation-{0,1}.log``, ACPC ``STATE`` lines; or ``.log.gz``, archived)
and prints:

- how many deals had the same betting before the river in both seatings ("in step");
- the standard deviation of the first agent's chips per deal, in step and not;
- what the 95% interval of ``--deals`` deals would be if every deal were in step, as a
  deal in step is: its mean square over the deals in step that reached the river,
  times the share of all deals that reached the river, the deals over before it
  counting 0. An estimate for planning, not a result: the match with ``draws=hand`` on
  both bots measures it.

Run: ``.venv/bin/python benchmarks/common_draws.py DIR [--deals 10000] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

from checkraise.arena.journal import JournalError, read_log


def _rows(folder: Path) -> list[list[list[str]]]:
    rows = []
    for rotation in (0, 1):
        path = folder / "logs" / f"rotation-{rotation}.log"
        try:
            text = read_log(path)  # or its archive, rotation-<r>.log.gz
        except OSError as exc:
            sys.exit(f"{path}: {exc.strerror or exc}; expected the --out folder of a heads-up "
                     "match")
        except JournalError as exc:  # an archive that is not gzip data
            sys.exit(f"{exc}; expected the --out folder of a heads-up match")
        rows.append([line.split(":") for line in text.splitlines() if line.startswith("STATE:")])
    return rows


def _big_blind(folder: Path) -> int:
    try:
        return int(json.loads((folder / "results.json").read_text())["config"]["big_blind"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        sys.exit(f"{folder}/results.json: {exc!r}; expected the results of checkraise match")


def _sd(x: np.ndarray) -> float | None:
    """The sample standard deviation, ``None`` for fewer than two deals."""
    return float(x.std(ddof=1)) if len(x) >= 2 else None


def in_step(folder: Path, deals: int) -> dict[str, float | int | None]:
    """The figures above for the match in ``folder``."""
    first_rotation, second_rotation = _rows(folder)
    n = min(len(first_rotation), len(second_rotation))
    if n < 2:
        sys.exit(f"{folder}: {n} deals in both seatings; expected at least 2")
    agent = first_rotation[0][5].split("|")[0]  # the match's first agent sits first at first
    chips = np.zeros(n)
    same = np.zeros(n, dtype=bool)
    river = np.zeros(n, dtype=bool)
    for k in range(n):
        lines = (first_rotation[k], second_rotation[k])
        for line in lines:
            names = line[5].split("|")
            chips[k] += float(line[4].split("|")[names.index(agent)])
        betting = [line[2].split("/") for line in lines]
        same[k] = betting[0][:3] == betting[1][:3]
        river[k] = any(len(b) >= 4 and b[3] != "" for b in betting)  # all-in: "r20000c///"
    scale = 1000.0 / _big_blind(folder) / 2.0  # mbb per hand: two hands a deal
    reached = chips[same & river]
    projected = math.sqrt(river.mean() * float((reached**2).mean())) if len(reached) else None
    return {
        "deals": n,
        "in_step": int(same.sum()),
        "reached_river": int(river.sum()),
        "in_step_reached_river": len(reached),
        "sd_in_step": _sd(chips[same]),
        "sd_not_in_step": _sd(chips[~same]),
        "half_width_now": 1.96 * float(chips.std(ddof=1)) / math.sqrt(deals) * scale,
        "half_width_in_step": (None if projected is None
                               else 1.96 * projected / math.sqrt(deals) * scale),
        "for_deals": deals,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the --out folder of a heads-up match")
    parser.add_argument("--deals", type=int, default=10_000,
                        help="deals of the match whose interval is projected")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.deals < 2:
        sys.exit(f"--deals {args.deals}: expected at least 2")
    r = in_step(args.folder, args.deals)
    if args.json:
        print(json.dumps(r))
        return
    print(f"{r['in_step']:,} of {r['deals']:,} deals in step before the river "
          f"({r['reached_river']:,} reached it; {r['in_step_reached_river']:,} of those in step)")
    shown = ["-" if r[k] is None else f"{r[k]:.0f}" for k in ("sd_in_step", "sd_not_in_step")]
    print(f"chips per deal, standard deviation: {shown[0]} in step, {shown[1]} not")
    print(f"95% interval of {r['for_deals']:,} deals, mbb/hand: "
          f"±{r['half_width_now']:.0f} as played, "
          + ("no deal in step reached the river" if r["half_width_in_step"] is None
             else f"±{r['half_width_in_step']:.0f} if every deal were in step (estimate)"))


if __name__ == "__main__":
    main()
