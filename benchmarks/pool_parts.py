"""One pairing's parts pooled from their figures, for parts whose deals were not kept.

``checkraise match --pool DIR --pool DIR2`` pools a pairing played in parts deal by
deal, from the parts' journals. A part whose folder was lost (a machine reset) leaves
only its figures: its deals, its mean in mbb/hand and the 95% half width. For a mean
over deals with ``± 1.96 · s / √n`` those are enough
(:func:`checkraise.arena.stats.pool_estimates`): this pools such parts with folders of
parts still on disk, for the first agent of the match (``--player`` another), on the
luck-adjusted figure (``--kind`` another).

Run::

    .venv/bin/python benchmarks/pool_parts.py --figures 4762 322 194 DIR [DIR ...] [--json]

Each ``DIR`` is a match's ``--out`` folder (its ``results.json``: a match that ran to
its end, or ``checkraise match --recover``'s result of a cut one). A figure rounded to
whole mbb/hand moves the pooled mean by at most half its share of the deals.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from checkraise.arena.journal import POOLED_SAME, config_differences
from checkraise.arena.stats import Z95, Estimate, pool_estimates

_KINDS = {"dealt": "mbb_per_hand", "allin": "mbb_per_hand_allin_adjusted",
          "luck": "mbb_per_hand_luck_adjusted"}


def folder_part(folder: Path, kind: str, player: str | None) -> tuple[Estimate, dict[str, Any]]:
    """The figure ``kind`` of ``player`` (the first agent: ``None``) in ``folder``'s
    results, and what the match was (its config, seed and deals)."""
    path = folder / "results.json"
    try:
        results = json.loads(path.read_text(encoding="utf-8"))
        rows = {p["name"]: p for p in results["players"]}
        config = {key: results["config"][key] for key in POOLED_SAME}
        # a pooled match (checkraise match --pool --out) lists the seeds of its parts
        seeds = ([int(results["seed"])] if results["seed"] is not None
                 else [int(part["seed"]) for part in results["pooled"]])
    except OSError as exc:
        sys.exit(f"{path}: {exc.strerror}; expected the --out folder of a checkraise match")
    except (ValueError, KeyError, TypeError) as exc:
        sys.exit(f"{path}: {exc!r}; expected the results of checkraise match")
    if player is not None and player not in rows:
        sys.exit(f"--player {player!r}: not in {path} (players {list(rows)}); expected one "
                 "of them")
    row = rows[player] if player is not None else results["players"][0]
    try:
        figure = row[_KINDS[kind]]
        n = int(figure["n"])
        if figure["sd"] is None:
            sys.exit(f"{path}: {row['name']}'s {kind} figure is over {n} deal(s), with no "
                     "spread; expected a part of at least 2 deals")
        part = Estimate(float(figure["mean"]), float(figure["half_width"]),
                        float(figure["sd"]), n)
    except (KeyError, TypeError, ValueError) as exc:
        sys.exit(f"{path}: no {kind} figure for {row.get('name')} ({exc!r}); expected the "
                 "results of checkraise match")
    about = {"folder": str(folder), "config": config, "agents": config["agents"],
             "seeds": seeds, "deals": part.n, "player": row["name"]}
    return part, about


def figures_part(deals: str, mean: str, half_width: str) -> Estimate:
    """A part given by its deals, mean and 95% half width (``--figures``)."""
    try:
        n, m, h = int(deals), float(mean), float(half_width)
    except ValueError:
        sys.exit(f"--figures {deals} {mean} {half_width}: expected DEALS (a whole number) "
                 "MEAN HALF_WIDTH (mbb/hand)")
    if n < 2 or not 0 < h < math.inf or not math.isfinite(m):
        sys.exit(f"--figures {deals} {mean} {half_width}: expected at least 2 deals, a "
                 "finite mean and a finite half width above 0")
    sd = h * math.sqrt(n) / Z95
    return Estimate(m, h, sd, n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="*", help="--out folders of the parts")
    parser.add_argument("--figures", nargs=3, action="append", default=[],
                        metavar=("DEALS", "MEAN", "HALF_WIDTH"),
                        help="a part known only by its figures (mbb/hand); repeatable")
    parser.add_argument("--kind", choices=sorted(_KINDS), default="luck",
                        help="which figure of the folders (default luck adjusted)")
    parser.add_argument("--player", help="whose figure (default the match's first agent)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if len(args.folders) + len(args.figures) < 1:
        sys.exit("no parts: expected match folders and/or --figures DEALS MEAN HALF_WIDTH")
    parts: list[Estimate] = [figures_part(*f) for f in args.figures]
    about: list[dict[str, Any]] = [{"figures": f} for f in args.figures]
    for folder in args.folders:
        part, info = folder_part(folder, args.kind, args.player)
        parts.append(part)
        about.append(info)
    seeds = [seed for a in about for seed in a.get("seeds", [])]
    if len(set(seeds)) != len(seeds):
        sys.exit(f"seeds {seeds}: a seed repeats; expected each part on its own seed")
    folders = [a for a in about if "config" in a]
    for a in folders[1:]:
        first = folders[0]
        shown = config_differences(a["config"], first["config"], first["folder"])
        if shown:
            sys.exit(f"{a['folder']}: {shown}; expected the parts of one pairing "
                     "(matches that differ only in seed and deals)")
    pooled = pool_estimates(parts)
    if args.json:
        print(json.dumps({"kind": args.kind, "parts": [
            {**a, **p.to_json()} for a, p in zip(about, parts, strict=True)],
            "pooled": pooled.to_json()}))
        return
    for a, p in zip(about, parts, strict=True):
        where = (f"figures {' '.join(a['figures'])}" if "figures" in a
                 else f"{a['folder']} (seed {', '.join(map(str, a['seeds']))}, {a['player']})")
        print(f"{p.n:>7,} deals  {p.mean:+9.1f} ± {p.half_width:6.1f}  {where}")
    print(f"{pooled.n:>7,} deals  {pooled.mean:+9.1f} ± {pooled.half_width:6.1f}  pooled "
          f"({args.kind}; 95% [{pooled.low:+.1f}, {pooled.high:+.1f}] mbb/hand)")


if __name__ == "__main__":
    main()
