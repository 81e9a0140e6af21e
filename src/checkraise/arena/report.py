"""Reports of matches and tournaments: JSON, a Markdown page with tables, PNG charts.

Charts (matplotlib, Agg backend, no display needed):

- ``chip_trend.png`` — mean chip stack of each agent against the hand number,
  like the chip-trend figure of the hand-reading paper's tournament experiments;
- ``ranks.png`` — rank distribution of each agent (stacked share of 1st, 2nd … places);
- ``mbb.png`` — win rate in mbb/hand with its 95% confidence interval as error bars.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "match_markdown",
    "places",
    "plot_chip_trend",
    "plot_mbb",
    "plot_ranks",
    "tournament_markdown",
    "write_json",
    "write_match_report",
    "write_tournament_report",
]


def write_json(path: Path, data: Any) -> Path:
    """Write ``data`` as indented JSON (non-finite numbers must already be ``None``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    return path


def _fmt(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _ci(e: dict[str, Any], digits: int = 1) -> str:
    if e["mean"] is None:
        return "–"
    if e["half_width"] is None:
        return _fmt(e["mean"], digits)
    return f"{e['mean']:.{digits}f} ± {e['half_width']:.{digits}f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out.extend("| " + " | ".join(row) + " |" for row in rows)
    return out


def _action_rows(players: Sequence[dict[str, Any]]) -> list[list[str]]:
    rows = []
    for p in players:
        a = p["actions"]
        rows.append(
            [
                p["name"],
                _fmt(a["fold_pct"]),
                _fmt(a["check_pct"]),
                _fmt(a["call_pct"]),
                _fmt(a["raise_pct"]),
                _fmt(a["vpip_pct"]),
                _fmt(a["pfr_pct"]),
                _fmt(a["aggression_factor"], 2),
            ]
        )
    return rows


_ACTION_HEADER = ("Agent", "Fold %", "Check %", "Call %", "Raise %", "VPIP %", "PFR %", "AF")


def tournament_markdown(summary: dict[str, Any], seed: int, charts: Sequence[str] = ()) -> str:
    """The Markdown report of a tournament :func:`~checkraise.arena.tournament.summarize`."""
    cfg = summary["config"]
    players = summary["players"]
    lines = [
        "# Tournament report",
        "",
        f"{len(players)} players, {summary['repetitions']} repetitions, seed {seed}; "
        f"at most {cfg['max_hands']} hands, blinds {cfg['small_blind']}/{cfg['big_blind']}, "
        f"{cfg['starting_chips']} starting chips, rebuys {cfg['rebuys']} x {cfg['rebuy_chips']}. "
        f"Hands per tournament: {_ci(summary['hands_played'])}. Intervals are 95%.",
        "",
        "## Results",
        "",
    ]
    order = sorted(range(len(players)), key=lambda i: players[i]["mean_rank"]["mean"])
    lines += _table(
        ("Agent", "Mean rank", "Win rate", "Hands survived", "Chips left", "Volatility F",
         "mbb/hand"),
        [
            [
                players[i]["name"],
                _ci(players[i]["mean_rank"], 2),
                f"{100 * players[i]['win_rate']:.1f}%",
                _ci(players[i]["hands_survived"]),
                _ci(players[i]["chips_remaining"], 0),
                _fmt(players[i]["volatility"]["mean"], 0),
                _ci(players[i]["mbb_per_hand"]),
            ]
            for i in order
        ],
    )
    n = len(players)
    lines += ["", "## Rank distribution (share of repetitions)", ""]
    lines += _table(
        ("Agent", *(_ordinal(k + 1) for k in range(n))),
        [
            [players[i]["name"]]
            + [f"{100 * c / summary['repetitions']:.1f}%" for c in players[i]["rank_counts"]]
            for i in order
        ],
    )
    paired = summary.get("paired_ranks")
    if paired is not None:
        lines += ["", "## Paired rank differences", "",
                  "Row's rank less column's over the same tournaments (negative: the row "
                  "places ahead), with the 95% interval; an interval clear of 0 says which "
                  "of the two places ahead.", ""]
        lines += _table(
            ("Agent", *(players[j]["name"] for j in order)),
            [[players[i]["name"], *("" if paired[i][j] is None else _ci(paired[i][j], 2)
                                     for j in order)] for i in order],
        )
    lines += ["", "## Action frequencies", ""]
    lines += _table(_ACTION_HEADER, _action_rows([players[i] for i in order]))
    if charts:
        lines += ["", "## Charts", ""]
        lines += [f"![{Path(c).stem}]({c})" for c in charts]
    lines += [
        "",
        "Files: `results.json` (these figures), `results.jsonl` (one line per repetition), "
        "`logs/rep-NNNN.log` (ACPC STATE lines) and `logs/rep-NNNN.txt` (PokerStars text).",
        "",
    ]
    return "\n".join(lines)


def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def places(ranks: Sequence[float]) -> list[str]:
    """Finishing places as a card room prints them: ``1st``, ``2nd``, and ``=3rd`` for a tie.

    ``ranks`` are one tournament's ranks, where tied players share the mean of
    their places (2.5 for two players tied for 2nd and 3rd); a tie takes the
    best place it covers.

    Examples
    --------
    >>> places([1.0, 2.5, 2.5, 4.0])
    ['1st', '=2nd', '=2nd', '4th']
    """
    out = []
    for r in ranks:
        best = 1 + sum(1 for q in ranks if q < r)
        tied = sum(1 for q in ranks if q == r) > 1
        out.append(("=" if tied else "") + _ordinal(best))
    return out


def _interval(m: dict[str, Any]) -> str:
    return "–" if m["ci95_low"] is None else f"[{m['ci95_low']:.1f}, {m['ci95_high']:.1f}]"


#: The adjusted win rates a match reports: (name, results.json count, rate, what it did).
_ADJUSTED = (
    ("all-in adjusted", "allin_adjusted_hands", "mbb_per_hand_allin_adjusted",
     "hands ended their betting all-in before the river; each is counted at its expected "
     "result over the board cards still to come (same expectation, less luck)."),
    ("luck adjusted", "luck_adjusted_hands", "mbb_per_hand_luck_adjusted",
     "hands saw board cards with two or more players in; each card is charged the pot times "
     "what it changed of each player's equity (same expectation, less luck)."),
)


def _seeds(result: dict[str, Any]) -> str:
    """``seed S``, or for a pooled result each match's seed and deals."""
    if not (parts := result.get("pooled")):
        return f"seed {result['seed']}"
    return "pooled from " + ", ".join(
        f"seed {p['seed']} ({p['deals']} deals" + ("" if p["deals"] == p["planned"]
                                                  else f" of {p['planned']} planned") + ")"
        for p in parts
    )


def match_markdown(result: dict[str, Any], charts: Sequence[str] = ()) -> str:
    """The Markdown report of a match (:meth:`~checkraise.arena.ring.RingResult.to_json`)."""
    cfg = result["config"]
    lines = [
        "# Match report",
        "",
        f"{' vs '.join(cfg['agents'])}: {cfg['hands']} deals, "
        f"{result['rotations']} seating(s) each ({result['kind']}), {_seeds(result)}; "
        f"stacks {cfg['stack']}, blinds {cfg['small_blind']}/{cfg['big_blind']}, "
        f"{cfg['rules']} rules.",
        *(["", "Recovered from a match that was stopped"
           + (f" at its --stop-at time, {part['stopped_at'].replace('T', ' ')}"
              if "stopped_at" in part else "")
           + f": the first {part['deals']} of the {part['planned']} deals planned, the ones "
           "finished in every seating."]
          if (part := result.get("partial")) else []),
        "",
        "## Win rates",
        "",
    ]
    rows = [[p["name"], _fmt(p["mbb_per_hand"]["mean"]), _interval(p["mbb_per_hand"]),
             str(p["total_chips"])] for p in result["players"]]
    lines += _table(("Agent", "mbb/hand", "95% interval", "Chips won"), rows)
    for kind, count_key, rate_key, what in _ADJUSTED:
        count = result.get(count_key, 0)
        if count:
            lines += ["", f"{kind.capitalize()}: {count} of {result['hands_played']} {what}", ""]
            rows = [[p["name"], _fmt(p[rate_key]["mean"]), _interval(p[rate_key])]
                    for p in result["players"]]
            lines += _table(("Agent", f"{kind} mbb/hand", "95% interval"), rows)
    lines += ["", "## Action frequencies", ""]
    lines += _table(_ACTION_HEADER, _action_rows(result["players"]))
    if charts:
        lines += ["", "## Charts", ""] + [f"![{Path(c).stem}]({c})" for c in charts]
    lines.append("")
    return "\n".join(lines)


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_chip_trend(path: Path, names: Sequence[str], trend: Sequence[Sequence[float]]) -> Path:
    """Line chart of each agent's mean stack by hand number."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, row in zip(names, trend, strict=True):
        ax.plot(range(len(row)), row, label=name, linewidth=1.4)
    ax.set_xlabel("hand number")
    ax.set_ylabel("mean chip stack")
    ax.set_title("Chip trend (mean over repetitions)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_ranks(path: Path, names: Sequence[str], rank_counts: Sequence[Sequence[float]]) -> Path:
    """Stacked horizontal bars: share of each finishing place per agent."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(names) + 1.8))
    left = [0.0] * len(names)
    places = len(rank_counts[0]) if rank_counts else 0
    cmap = plt.get_cmap("RdYlGn_r", max(places, 2))
    for k in range(places):
        totals = [sum(c) or 1.0 for c in rank_counts]
        widths = [100 * c[k] / t for c, t in zip(rank_counts, totals, strict=True)]
        ax.barh(names, widths, left=left, color=cmap(k), label=_ordinal(k + 1))
        left = [a + b for a, b in zip(left, widths, strict=True)]
    ax.set_xlabel("% of repetitions")
    ax.set_xlim(0, 100)
    ax.invert_yaxis()
    ax.set_title("Rank distribution")
    ax.legend(ncol=min(places, 8), fontsize="small", loc="upper center",
              bbox_to_anchor=(0.5, -0.25 if len(names) < 4 else -0.12))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_mbb(path: Path, names: Sequence[str], estimates: Sequence[dict[str, Any]]) -> Path:
    """Bar chart of mbb/hand with 95% confidence bars."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    means = [e["mean"] or 0.0 for e in estimates]
    errs = [e["half_width"] if e["half_width"] is not None else 0.0 for e in estimates]
    colors = ["tab:green" if m >= 0 else "tab:red" for m in means]
    ax.bar(names, means, yerr=errs, capsize=6, color=colors, alpha=0.8)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("mbb/hand (95% CI)")
    ax.set_title("Win rate")
    ax.grid(axis="y", alpha=0.3)
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_tournament_report(summary: dict[str, Any], seed: int, out: Path) -> list[Path]:
    """Write ``results.json``, ``report.md`` and the three charts into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    names = [p["name"] for p in summary["players"]]
    charts = [
        plot_chip_trend(out / "chip_trend.png", names, summary["chip_trend"]),
        plot_ranks(out / "ranks.png", names, [p["rank_counts"] for p in summary["players"]]),
        plot_mbb(out / "mbb.png", names, [p["mbb_per_hand"] for p in summary["players"]]),
    ]
    data = dict(summary, seed=seed)
    files = [write_json(out / "results.json", data)]
    report = out / "report.md"
    report.write_text(
        tournament_markdown(summary, seed, [c.name for c in charts]), encoding="utf-8"
    )
    return [*files, report, *charts]


def write_match_report(result: dict[str, Any], out: Path) -> list[Path]:
    """Write ``results.json``, ``report.md`` and ``mbb.png`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    names = [p["name"] for p in result["players"]]
    chart = plot_mbb(out / "mbb.png", names, [p["mbb_per_hand"] for p in result["players"]])
    files = [write_json(out / "results.json", result)]
    report = out / "report.md"
    report.write_text(match_markdown(result, [chart.name]), encoding="utf-8")
    return [*files, report, chart]
