"""Two heads-up matches on the same deals, compared deal by deal.

``checkraise match A X --seed S --out DIR_A`` and ``checkraise match B X --seed S --out
DIR_B`` deal the same cards (the seed fixes them, whoever plays), so A's and B's results
against the same opponent X can be paired: per deal, A's chips over both seatings minus
B's. The luck of the cards that both matches share cancels, and the interval of the
difference is narrower than the two matches' own intervals suggest.

The hand logs (``DIR/logs/rotation-*.log``, ACPC ``STATE`` lines) are read: line ``k``
of every rotation is deal ``k``, for as many deals as ``results.json`` counts (a match
recovered with ``checkraise match --recover`` counts those every rotation finished);
each line names its players in seat order. Refuses folders whose deals differ (another
seed or deal count) or whose opponents differ.

Each figure is also given all-in adjusted (as ``checkraise match`` reports it): a hand
whose betting ended before the river with both players in counts at its payoff
expected over the board cards still to come (:func:`checkraise.arena.allin.allin_payoffs`
on the hand replayed from its log line, on the table in ``DIR/results.json``) and luck
adjusted (:func:`checkraise.arena.luck.luck_payoffs`: the luck of every board card
dealt with both players in taken out, not only of those after the last decision).

Run: ``.venv/bin/python benchmarks/paired_matches.py DIR_A DIR_B [DIR_A2 DIR_B2 ...]
[--json]`` (further pairs, on other seeds, are pooled deal by deal; the big blind is
each match's own, from its ``results.json``).

With ``--pool DIR DIR2 ...`` the folders are one pairing (the same two agents) on
different seeds, and its deals are pooled into one figure: the mean over every deal
of every folder with its 95% interval, as dealt, all-in adjusted and luck adjusted.
``checkraise match --pool DIR --pool DIR2`` gives the same figures from the matches'
journals without replaying a hand (and for ring matches too); this script recomputes
them from the hand logs, an independent check.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

from checkraise.arena.allin import allin_payoffs
from checkraise.arena.journal import JournalError, read_log
from checkraise.arena.luck import luck_payoffs
from checkraise.arena.outfolder import OutFolderError, match_logs
from checkraise.engine import RuleSet, TableConfig
from checkraise.histories.acpc_log import record_from_state
from checkraise.histories.replay import replay
from checkraise.protocol.matchstate import parse_state_line


def read_results(folder: Path) -> dict[str, Any]:
    """The ``results.json`` of the match in ``folder``."""
    try:
        results: dict[str, Any] = json.loads((folder / "results.json").read_text())
        return results
    except (OSError, ValueError) as exc:
        sys.exit(f"{folder}/results.json: {exc!r}; expected the results of checkraise match")


def table_of(folder: Path, results: dict[str, Any] | None = None) -> tuple[TableConfig, int]:
    """The table the match in ``folder`` was played on and its deals (from its
    ``results.json``, or ``results`` when already read; a match recovered with
    ``--recover``: the deals recovered)."""
    try:
        config = (read_results(folder) if results is None else results)["config"]
        table = TableConfig.nolimit(
            2,
            int(config["stack"]),
            int(config["small_blind"]),
            int(config["big_blind"]),
            rules=RuleSet(config["rules"]),
        )
        return table, int(config["hands"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        sys.exit(f"{folder}/results.json: {exc!r}; expected the results of checkraise match")


def adjusted(fields: list[str], table: TableConfig) -> tuple[list[float], list[float]]:
    """The seats' payoffs of a ``STATE`` line all-in adjusted (expected over the board
    dealt after the last decision) and luck adjusted (:mod:`checkraise.arena.luck`);
    each is the real payoffs where there is nothing to adjust."""
    real = [float(x) for x in fields[4].split("|")]
    if "/" not in fields[2]:
        return real, real  # over before the flop: no board card was dealt
    state = replay(record_from_state(parse_state_line(":".join(fields)), table), check_payout=False)
    allin, luck = allin_payoffs(state), luck_payoffs(state)
    return (
        real if allin is None else [float(v) for v in allin],
        real if luck is None else list(luck),
    )


#: The three figures of each comparison: as dealt, all-in adjusted, luck adjusted.
KINDS = ("dealt", "allin", "luck")


def deal_chips(folder: Path, results: dict[str, Any] | None = None,
               ) -> tuple[str, str, list[str], dict[str, np.ndarray], int]:
    """``(first agent, opponent, cards per deal, {kind: first agent's chips per deal}
    for each of :data:`KINDS`, the big blind)`` (``results``: its ``results.json``, if
    already read)."""
    try:
        logs = match_logs(folder, "log", archived=True)
        texts = [read_log(p) for p in logs]  # or their archives, rotation-<r>.log.gz
    except (OutFolderError, JournalError) as exc:  # no logs; an archive not gzip data
        sys.exit(str(exc))
    table, n = table_of(folder, results)
    # a recovered match's logs may go on past the deals every rotation finished
    rows = [
        [line.split(":") for line in text.splitlines() if line.startswith("STATE:")][:n]
        for text in texts
    ]
    if any(len(r) != n for r in rows):
        sys.exit(f"{folder}: a rotation's log holds fewer than the {n} deals of results.json")
    names = rows[0][0][5].split("|")
    if len(names) != 2:
        sys.exit(f"{folder}: {len(names)} players; expected a heads-up match")
    first = names[0]  # the first agent of the match seats first in the first hand
    chips = {kind: np.zeros(n) for kind in KINDS}
    cards: list[str] = []
    for k in range(n):
        holes = sorted(r[k][3].split("/")[0].split("|")[0] for r in rows)
        cards.append(",".join(holes) + "/" + rows[0][k][3].split("/", 1)[-1])
        for r in rows:
            seat = r[k][5].split("|").index(first)
            allin, luck = adjusted(r[k], table)
            chips["dealt"][k] += float(r[k][4].split("|")[seat])
            chips["allin"][k] += allin[seat]
            chips["luck"][k] += luck[seat]
    opponent = next(p for p in names if p != first)
    return first, opponent, cards, chips, table.big_blind


def interval(v: np.ndarray, scale: float) -> dict[str, float]:
    """Mean chips per deal ``v`` as mbb/hand (``scale``) with the 95% half-width."""
    half = 1.96 * float(v.std(ddof=1)) / math.sqrt(len(v)) * scale
    return {"mbb_per_hand": float(v.mean()) * scale, "half_width": half}


def pool(folders: list[Path], as_json: bool) -> None:
    """One pairing's matches on several seeds, pooled deal by deal (``--pool``)."""
    parts: dict[str, list[np.ndarray]] = {kind: [] for kind in KINDS}
    pairings: set[tuple[str, str]] = set()
    tables: set[tuple[int, int, int, str]] = set()
    seeds: list[int] = []
    for folder in folders:
        results = read_results(folder)
        first, opponent, _, chips, big_blind = deal_chips(folder, results)
        table, _ = table_of(folder, results)
        pairings.add((first, opponent))
        tables.add((table.stacks[0], table.blinds[0], big_blind, str(table.rules.value)))
        try:
            seeds.append(int(results["seed"]))
        except (KeyError, ValueError, TypeError) as exc:
            sys.exit(f"{folder}/results.json: no seed ({exc!r}); expected the results of "
                     "checkraise match")
        for kind in KINDS:
            parts[kind].append(chips[kind])
    if len(pairings) != 1:
        sys.exit(f"the folders hold different pairings {sorted(pairings)} (first agent, "
                 "opponent); expected one, in the same order")
    if len(tables) != 1:
        sys.exit(f"the matches were played on different tables {sorted(tables)} (stack, "
                 "small blind, big blind, rules); expected one")
    if len(set(seeds)) != len(seeds):
        sys.exit(f"seeds {seeds} repeat: the same deals would count twice; expected "
                 "matches on different seeds")
    ((first, opponent),) = pairings
    scale = 1000.0 / next(iter(tables))[2] / 2.0  # mbb per hand: a deal is two hands
    figures = {kind: interval(np.concatenate(parts[kind]), scale) for kind in KINDS}
    deals = sum(len(v) for v in parts["dealt"])
    report = {"agent": first, "opponent": opponent, "deals": deals, "seeds": seeds,
              **figures["dealt"], "allin_adjusted": figures["allin"],
              "luck_adjusted": figures["luck"]}
    if as_json:
        print(json.dumps(report))
        return
    shown = [f"{figures[k]['mbb_per_hand']:+.0f} ± {figures[k]['half_width']:.0f}"
             for k in KINDS]
    print(f"{first} against {opponent}, {deals} deals on seeds {seeds}, mbb/hand (95% "
          "interval), as dealt | all-in adjusted | luck adjusted:")
    print("  " + " | ".join(shown))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "folders",
        type=Path,
        nargs="+",
        help="A B: the --out folders of agent A's and agent B's matches "
        "(more pairs A2 B2 ... on other seeds are pooled); with --pool: one pairing's "
        "folders on different seeds",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--pool", action="store_true",
                        help="the folders are one pairing on several seeds: pool its deals")
    args = parser.parse_args()
    if args.pool:
        pool(args.folders, args.json)
        return
    if len(args.folders) % 2:
        sys.exit(f"{len(args.folders)} folders; expected pairs: A B [A2 B2 ...]")
    parts: dict[str, list[np.ndarray]] = {f"{who}_{kind}": [] for who in "ab" for kind in KINDS}
    names: set[tuple[str, str, str]] = set()
    blinds: set[int] = set()
    for fa, fb in zip(args.folders[::2], args.folders[1::2], strict=True):
        name_a, opp_a, cards_a, a, bb_a = deal_chips(fa)
        name_b, opp_b, cards_b, b, bb_b = deal_chips(fb)
        blinds |= {bb_a, bb_b}
        if opp_a != opp_b:
            sys.exit(f"opponents differ: {opp_a} and {opp_b}; expected the same one")
        if len(cards_a) != len(cards_b) or any(
            x.split("/")[0] != y.split("/")[0] for x, y in zip(cards_a, cards_b, strict=True)
        ):
            sys.exit(f"{fa} and {fb} dealt different cards; expected the same --seed and -n")
        names.add((name_a, name_b, opp_a))
        for kind in KINDS:
            parts[f"a_{kind}"].append(a[kind])
            parts[f"b_{kind}"].append(b[kind])
    if len(names) != 1:
        sys.exit(f"the pairs name different agents: {sorted(names)}")
    if len(blinds) != 1:
        sys.exit(f"the matches have different big blinds {sorted(blinds)}; expected one")
    ((name_a, name_b, opp_a),) = names
    scale = 1000.0 / blinds.pop() / 2.0  # mbb per hand: a deal is two hands
    figures = {}
    for kind in KINDS:
        va, vb = np.concatenate(parts[f"a_{kind}"]), np.concatenate(parts[f"b_{kind}"])
        figures[kind] = {"a": interval(va, scale), "b": interval(vb, scale),
                         "a_minus_b": interval(va - vb, scale)}
    deals = sum(len(v) for v in parts["a_dealt"])
    report = {
        "a": name_a,
        "b": name_b,
        "opponent": opp_a,
        "deals": deals,
        **figures["dealt"],
        "allin_adjusted": figures["allin"],
        "luck_adjusted": figures["luck"],
    }
    if args.json:
        print(json.dumps(report))
        return
    print(
        f"{deals} deals against {opp_a}, mbb/hand (95% interval), as dealt | all-in adjusted "
        "| luck adjusted:"
    )
    for label, text in (
        ("a", f"A {name_a}"),
        ("b", f"B {name_b}"),
        ("a_minus_b", "A - B, deal by deal"),
    ):
        cells = [figures[kind][label] for kind in KINDS]
        shown = [f"{c['mbb_per_hand']:+.0f} ± {c['half_width']:.0f}" for c in cells]
        print(f"  {text}: " + " | ".join(shown))


if __name__ == "__main__":
    main()
