"""Two heads-up matches on the same deals, compared deal by deal.

``checkraise match A X --seed S --out DIR_A`` and ``checkraise match B X --seed S --out
DIR_B`` deal the same cards (the seed fixes them, whoever plays), so A's and B's results
against the same opponent X can be paired: per deal, A's chips over both seatings minus
B's. The luck of the cards that both matches share cancels, and the interval of the
difference is narrower than the two matches' own intervals suggest.

The hand logs (``DIR/logs/rotation-*.log``, ACPC ``STATE`` lines) are read: line ``k``
of every rotation is deal ``k``; each line names its players in seat order. Refuses
folders whose deals differ (another seed or deal count) or whose opponents differ.

Each figure is also given all-in adjusted (as ``checkraise match`` reports it): a hand
whose betting ended before the river with both players in counts at its payoff
expected over the board cards still to come (:func:`checkraise.arena.allin.allin_payoffs`
on the hand replayed from its log line, on the table in ``DIR/results.json``).

Run: ``.venv/bin/python benchmarks/paired_matches.py DIR_A DIR_B [DIR_A2 DIR_B2 ...]
[--json]`` (further pairs, on other seeds, are pooled deal by deal; the big blind is
each match's own, from its ``results.json``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

from checkraise.arena.allin import allin_payoffs
from checkraise.arena.outfolder import OutFolderError, match_logs
from checkraise.engine import RuleSet, TableConfig
from checkraise.histories.acpc_log import record_from_state
from checkraise.histories.replay import replay
from checkraise.protocol.matchstate import parse_state_line


def table_of(folder: Path) -> TableConfig:
    """The table the match in ``folder`` was played on (from its ``results.json``)."""
    try:
        config = json.loads((folder / "results.json").read_text())["config"]
        return TableConfig.nolimit(
            2,
            int(config["stack"]),
            int(config["small_blind"]),
            int(config["big_blind"]),
            rules=RuleSet(config["rules"]),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        sys.exit(f"{folder}/results.json: {exc!r}; expected the results of checkraise match")


def allin_adjusted(fields: list[str], table: TableConfig) -> list[float] | None:
    """The seats' payoffs of a ``STATE`` line expected over the board still to come, or
    ``None`` when no one was all-in before the river (the real payoffs stand)."""
    betting = fields[2].rstrip("/")  # an all-in's log pads the rounds not bet with "/"
    if betting.endswith("f") or betting.count("/") >= 3:
        return None  # a fold ended it, or the last decision was on the river
    state = replay(record_from_state(parse_state_line(":".join(fields)), table), check_payout=False)
    expected = allin_payoffs(state)
    return None if expected is None else [float(v) for v in expected]


def deal_chips(folder: Path) -> tuple[str, str, list[str], np.ndarray, np.ndarray, int]:
    """``(first agent, opponent, cards per deal, first agent's chips per deal, the same
    all-in adjusted, the big blind)``."""
    try:
        logs = match_logs(folder, "log")
    except OutFolderError as exc:
        sys.exit(str(exc))
    table = table_of(folder)
    rows = [
        [line.split(":") for line in p.read_text().splitlines() if line.startswith("STATE:")]
        for p in logs
    ]
    n = len(rows[0])
    if any(len(r) != n for r in rows):
        sys.exit(f"{folder}: rotations of different lengths")
    names = rows[0][0][5].split("|")
    if len(names) != 2:
        sys.exit(f"{folder}: {len(names)} players; expected a heads-up match")
    first = names[0]  # the first agent of the match seats first in the first hand
    chips = np.zeros(n)
    adjusted = np.zeros(n)
    cards: list[str] = []
    for k in range(n):
        holes = sorted(r[k][3].split("/")[0].split("|")[0] for r in rows)
        cards.append(",".join(holes) + "/" + rows[0][k][3].split("/", 1)[-1])
        for r in rows:
            players = r[k][5].split("|")
            payoffs = [float(x) for x in r[k][4].split("|")]
            chips[k] += payoffs[players.index(first)]
            expected = allin_adjusted(r[k], table)
            adjusted[k] += (payoffs if expected is None else expected)[players.index(first)]
    opponent = next(p for p in names if p != first)
    return first, opponent, cards, chips, adjusted, table.big_blind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "folders",
        type=Path,
        nargs="+",
        help="A B: the --out folders of agent A's and agent B's matches "
        "(more pairs A2 B2 ... on other seeds are pooled)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if len(args.folders) % 2:
        sys.exit(f"{len(args.folders)} folders; expected pairs: A B [A2 B2 ...]")
    parts: dict[str, list[np.ndarray]] = {"a": [], "b": [], "a_adj": [], "b_adj": []}
    names: set[tuple[str, str, str]] = set()
    blinds: set[int] = set()
    for fa, fb in zip(args.folders[::2], args.folders[1::2], strict=True):
        name_a, opp_a, cards_a, a, a_adj, bb_a = deal_chips(fa)
        name_b, opp_b, cards_b, b, b_adj, bb_b = deal_chips(fb)
        blinds |= {bb_a, bb_b}
        if opp_a != opp_b:
            sys.exit(f"opponents differ: {opp_a} and {opp_b}; expected the same one")
        if len(a) != len(b) or any(
            x.split("/")[0] != y.split("/")[0] for x, y in zip(cards_a, cards_b, strict=True)
        ):
            sys.exit(f"{fa} and {fb} dealt different cards; expected the same --seed and -n")
        names.add((name_a, name_b, opp_a))
        for key, v in (("a", a), ("b", b), ("a_adj", a_adj), ("b_adj", b_adj)):
            parts[key].append(v)
    if len(names) != 1:
        sys.exit(f"the pairs name different agents: {sorted(names)}")
    if len(blinds) != 1:
        sys.exit(f"the matches have different big blinds {sorted(blinds)}; expected one")
    ((name_a, name_b, opp_a),) = names
    a, b, a_adj, b_adj = (np.concatenate(parts[k]) for k in ("a", "b", "a_adj", "b_adj"))
    scale = 1000.0 / blinds.pop() / 2.0  # mbb per hand: a deal is two hands

    def interval(v: np.ndarray) -> dict[str, float]:
        half = 1.96 * float(v.std(ddof=1)) / math.sqrt(len(v)) * scale
        return {"mbb_per_hand": float(v.mean()) * scale, "half_width": half}

    out = {label: interval(v) for label, v in (("a", a), ("b", b), ("a_minus_b", a - b))}
    adjusted = {
        label: interval(v)
        for label, v in (("a", a_adj), ("b", b_adj), ("a_minus_b", a_adj - b_adj))
    }
    report = {
        "a": name_a,
        "b": name_b,
        "opponent": opp_a,
        "deals": len(a),
        **out,
        "allin_adjusted": adjusted,
    }
    if args.json:
        print(json.dumps(report))
        return
    print(f"{len(a)} deals against {opp_a}, mbb/hand (95% interval), as dealt | all-in adjusted:")
    for label, text in (
        ("a", f"A {name_a}"),
        ("b", f"B {name_b}"),
        ("a_minus_b", "A - B, deal by deal"),
    ):
        raw, adj = out[label], adjusted[label]
        print(
            f"  {text}: {raw['mbb_per_hand']:+.0f} ± {raw['half_width']:.0f} | "
            f"{adj['mbb_per_hand']:+.0f} ± {adj['half_width']:.0f}"
        )


if __name__ == "__main__":
    main()
