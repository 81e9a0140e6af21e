"""Issue 16's pairings as they stand: each one's parts pooled, in a table and a chart.

``docs/results/issue16/pairings.toml`` lists the pre-registered 10,000-deal pairings of
the ``resolve`` bot and where each one's parts are: match folders kept next to it, or
the figures of parts whose folders were lost. This pools each pairing's parts the way
``benchmarks/pool_parts.py`` does (luck adjusted mbb/hand for ``resolve``, 95%
interval), says how many of its deals are done and, where the issue sets a goal for it,
whether the interval lies above it (met), below it (missed) or across it (undecided;
a pairing not yet complete is interim whatever its interval).

Run::

    .venv/bin/python benchmarks/issue16_pairings.py \\
        [--chart docs/results/issue16/pairings.png] [--json]

``--file`` reads another list of the same form (its ``archive`` folders are relative to
it).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tomllib
from pathlib import Path
from typing import Any, NoReturn

from pool_parts import figures_part, folder_part

from checkraise.arena.journal import config_differences
from checkraise.arena.stats import Estimate, pool_estimates

DEFAULT = Path(__file__).resolve().parents[1] / "docs" / "results" / "issue16" / "pairings.toml"


def _fail(where: str, message: str) -> NoReturn:
    sys.exit(f"{where}: {message}")


#: A continuation is the seed plus 100, 200, ... (docs/preregistered/issue16_pairings.md);
#: nine of them at most, so that one pairing's seeds never reach another's.
CONTINUATIONS = 9


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value)


def _check_part(where: str, j: int, part: object) -> None:
    """One part of a pairing: ``{archive = "FOLDER"}`` or its figures, with a source."""
    expected = ('expected {archive = "FOLDER"} or {deals = N, mean = M, half_width = H, '
                'source = "..."}')
    if not isinstance(part, dict) or (("archive" in part) == ("deals" in part)):
        _fail(where, f"part {j} = {part!r}; {expected}")
    if "archive" in part:
        if not isinstance(part["archive"], str) or set(part) != {"archive"}:
            _fail(where, f"part {j} = {part!r}; {expected}")
        return
    if set(part) != {"deals", "mean", "half_width", "source"}:
        _fail(where, f"part {j} = {part!r}; expected deals, mean, half_width and source")
    deals, mean, half = part["deals"], part["mean"], part["half_width"]
    if not (isinstance(deals, int) and not isinstance(deals, bool) and deals >= 2
            and _number(mean) and _number(half) and half > 0
            and isinstance(part["source"], str)):
        _fail(where, f"part {j} = {part!r}; expected at least 2 deals, a finite mean and "
              "half width above 0 (mbb/hand) and a source (text)")


def load(path: Path) -> list[dict[str, Any]]:
    """The pairings of ``path``, checked: each has ``resolve``, ``opponent``, ``seeds``
    (whole numbers), ``planned`` (deals, above 0), ``parts`` (a part is ``archive`` or
    ``deals``/``mean``/``half_width`` with ``source``) and may have a ``goal`` (mbb/hand)
    and a ``note``."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        sys.exit(f"{path}: {exc.strerror}; expected the list of issue 16's pairings (TOML)")
    except tomllib.TOMLDecodeError as exc:
        sys.exit(f"{path}: {exc}; expected TOML")
    pairings = data.get("pairing")
    if not isinstance(pairings, list) or not pairings \
            or not all(isinstance(p, dict) for p in pairings):
        sys.exit(f"{path}: no [[pairing]] tables; expected one per pairing")
    for i, p in enumerate(pairings, 1):
        where = f"{path}, pairing {i}"
        for key, kind in (("resolve", str), ("opponent", str), ("seeds", list),
                          ("planned", int), ("parts", list)):
            if not isinstance(p.get(key), kind):
                _fail(where, f"{key} = {p.get(key)!r}; expected a {kind.__name__}")
        if not p["seeds"] or not all(isinstance(x, int) and not isinstance(x, bool)
                                     for x in p["seeds"]):
            _fail(where, f"seeds = {p['seeds']!r}; expected whole numbers")
        if p["planned"] < 1:
            _fail(where, f"planned = {p['planned']!r}; expected deals, 1 or more")
        if "goal" in p and not _number(p["goal"]):
            _fail(where, f"goal = {p['goal']!r}; expected a number (mbb/hand)")
        for j, part in enumerate(p["parts"], 1):
            _check_part(where, j, part)
    return pairings


def _archive_seeds_fit(seeds: list[int], archive_seeds: list[int]) -> bool:
    """Whether each of an archive's seeds is one of the pairing's seeds or a continuation
    of one (the seed plus 100, 200, ... up to :data:`CONTINUATIONS` times 100)."""
    return all(any(0 <= s - base <= 100 * CONTINUATIONS and (s - base) % 100 == 0
                   for base in seeds) for s in archive_seeds)


def pooled(pairing: dict[str, Any], root: Path) -> dict[str, Any]:
    """One pairing's parts pooled: deals done, the luck-adjusted estimate (``None`` before
    any part) and, where it has a ``goal``, the verdict."""
    where = f"{pairing['resolve']} against {pairing['opponent']}"
    parts: list[Estimate] = []
    sources: list[str] = []
    config: tuple[dict[str, Any], str] | None = None
    seen: list[int] = []
    for part in pairing["parts"]:
        if "archive" in part:
            folder = root / part["archive"]
            estimate, about = folder_part(folder, "luck", None)
            if not _archive_seeds_fit(pairing["seeds"], about["seeds"]):
                _fail(where, f"{folder} was played on seed(s) {about['seeds']}; expected "
                      f"{pairing['seeds']} or their continuations (plus 100, 200, ... "
                      f"{100 * CONTINUATIONS})")
            repeated = sorted(set(about["seeds"]) & set(seen))
            if repeated:
                _fail(where, f"{folder}: seed(s) {repeated} already in a part before it; "
                      "expected each part on its own seed")
            seen.extend(about["seeds"])
            if config is None:
                config = (about["config"], str(folder))
            else:
                shown = config_differences(about["config"], *config)
                if shown:
                    _fail(where, f"{folder}: {shown}; expected the parts of one pairing")
            sources.append(part["archive"])
        else:
            estimate = figures_part(str(part["deals"]), str(part["mean"]),
                                    str(part["half_width"]))
            sources.append(part["source"])
        parts.append(estimate)
    deals = sum(p.n for p in parts)
    if deals > pairing["planned"]:
        _fail(where, f"its parts hold {deals} deals; expected at most the {pairing['planned']} "
              "planned")
    together = pool_estimates(parts) if parts else None
    verdict = None
    if together is not None and "goal" in pairing:
        goal = float(pairing["goal"])
        low, high = together.mean - together.half_width, together.mean + together.half_width
        if deals < pairing["planned"]:
            verdict = "interim"
        else:
            verdict = "met" if low > goal else "missed" if high < goal else "undecided"
    return {"resolve": pairing["resolve"], "opponent": pairing["opponent"],
            "seeds": pairing["seeds"], "planned": pairing["planned"], "deals": deals,
            "parts": sources, "luck_adjusted": together.to_json() if together else None,
            "goal": pairing.get("goal"), "verdict": verdict, "note": pairing.get("note")}


def _label(row: dict[str, Any]) -> str:
    return f"{row['resolve']} vs {row['opponent']}"


def table(rows: list[dict[str, Any]]) -> str:
    """The pairings as a plain-text table."""
    lines = [f"{'pairing':<52} {'deals':>15}  {'luck adjusted, mbb/hand':<26} verdict"]
    for row in rows:
        done = f"{row['deals']:,}/{row['planned']:,}"
        est = row["luck_adjusted"]
        figure = (f"{est['mean']:+7.1f} ± {est['half_width']:6.1f}" if est else "not started")
        verdict = (f"{row['verdict']} (goal {row['goal']:+,})" if row["verdict"]
                   else "" if row["deals"] == row["planned"] or not est else "interim")
        lines.append(f"{_label(row):<52} {done:>15}  {figure:<26} {verdict}")
    return "\n".join(lines)


def chart(rows: list[dict[str, Any]], path: Path) -> None:
    """Each pairing's pooled interval on one axis: filled when complete, hollow while
    interim, goals as red ticks, the pairings not started named."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = list(reversed(rows))
    fig, ax = plt.subplots(figsize=(8.5, 0.45 * len(shown) + 1.4))
    for y, row in enumerate(shown):
        est = row["luck_adjusted"]
        if est is None:
            ax.text(0, y, "  not started", va="center", fontsize=8, color="tab:gray")
            continue
        complete = row["deals"] == row["planned"]
        ax.errorbar(est["mean"], y, xerr=est["half_width"], fmt="o", capsize=4,
                    color="tab:blue" if complete else "tab:gray",
                    markerfacecolor="tab:blue" if complete else "white")
        if row["goal"] is not None:
            ax.plot([row["goal"]] * 2, [y - 0.35, y + 0.35], color="tab:red", lw=3,
                    zorder=3)
    ax.axvline(0, color="black", lw=0.8, zorder=1)
    ax.set_ylim(-0.6, len(shown) - 0.4)
    labels = [f"{_label(r)}  ({r['deals']:,}"
              + ("" if r["deals"] == r["planned"] else f" of {r['planned']:,}") + ")"
              for r in shown]
    ax.set_yticks(range(len(shown)), labels, fontsize=8)
    ax.set_xlabel("resolve's win rate, luck adjusted, mbb/hand (95% interval)")
    ax.set_title("Issue 16 pairings: filled complete, hollow interim, red the issue's goal",
                 fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=DEFAULT,
                        help="the list of pairings (default docs/results/issue16/pairings.toml)")
    parser.add_argument("--chart", type=Path, help="write the chart (PNG) here")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.chart is not None and args.chart.suffix.lower() != ".png":
        sys.exit(f"--chart {args.chart}: expected a .png file name")
    rows = [pooled(p, args.file.parent) for p in load(args.file)]
    if args.chart is not None:
        args.chart.parent.mkdir(parents=True, exist_ok=True)
        chart(rows, args.chart)
    if args.json:
        print(json.dumps({"pairings": rows}))
        return
    print(table(rows))
    if args.chart is not None:
        print(f"chart: {args.chart}")


if __name__ == "__main__":
    main()
