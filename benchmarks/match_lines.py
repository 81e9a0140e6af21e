"""Where an agent wins and loses its chips in a heads-up match, by preflop line.

Reads the hand logs of ``checkraise match ... --out DIR`` (ACPC ``STATE`` lines) and
groups one agent's results by its position and the preflop betting (raise-to amounts
in big blinds, ``c`` calls and checks, ``f`` folds; ``+`` when the hand went on to the
flop). Each line's share of the win rate is its chips over *all* hands, in mbb/hand,
so the shares add up to the match's win rate. A leak shows as a frequent line with a
large negative share: for example a blueprint that folds too often to a re-raise its
abstraction reads as bigger than it was.

With ``--raises`` it shows instead how the agent answers the opponent's raises after
the flop, by street and size (the raise beyond the call as a fraction of the pot after
calling, to the nearest quarter): how often it folds, calls or re-raises, against the
most it may fold before any bluff of that size profits at once (``x / (1 + x)``, the
complement of the minimum defence frequency), and for the hands it folded their equity
against the raiser's real hand (exact, over the board still to come) and the share that
had more equity than the call needed. An abstraction that lacks the size reads it as a
bigger one and folds far beyond that mark, hands that were ahead among them. ``--bets``
does the same for the opponent's bets (the first bet of a street after the flop; size:
the bet over the pot).

Run: ``.venv/bin/python benchmarks/match_lines.py DIR --agent blueprint [--top 12]
[--raises | --bets] [--json]`` (heads-up; the blinds from the match's ``results.json``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paired_matches import table_of

from checkraise.arena.journal import JournalError, read_log
from checkraise.arena.outfolder import OutFolderError, match_logs
from checkraise.equity import equity

_ACTION = re.compile(r"r\d+|c|f")


@dataclass
class Answers:
    """How an agent answered raises of one street and size (see :func:`raise_answers`)."""

    counts: dict[str, int] = field(default_factory=lambda: {"f": 0, "c": 0, "r": 0})
    fold_equity: list[float] = field(default_factory=list)
    fold_needed: list[float] = field(default_factory=list)
    #: per fold, what calling instead would have won at showdown, in chips: the equity
    #: times the pot after calling, less the call (exact on the river, where the call
    #: ends the betting; a check-down estimate before it)
    fold_call_value: list[float] = field(default_factory=list)


def preflop_line(betting: str, big_blind: int) -> str:
    """``"r250r500c/cc/..."`` -> ``"2.5 5 c +"`` (raise-to amounts in big blinds).

    >>> preflop_line("r250r500c/r300f", 100), preflop_line("r200f", 100)
    ('2.5 5 c +', '2 f')
    """
    pre = betting.partition("/")[0]
    words = []
    for act in _ACTION.findall(pre):
        words.append(f"{int(act[1:]) / big_blind:g}" if act[0] == "r" else act)
    return " ".join(words) + (" +" if "/" in betting else "")


def hands_of(folder: Path, agent: str) -> Iterator[tuple[list[str], int]]:
    """Each ``STATE`` line of the match in ``folder`` split at ``:``, with ``agent``'s seat:
    in each rotation's log the deals ``results.json`` counts (a match stopped or
    recovered counts those every rotation finished; a log may go on past them)."""
    try:
        logs = match_logs(folder, "log", archived=True)
    except OutFolderError as exc:
        sys.exit(str(exc))
    _, deals = table_of(folder)
    for path in logs:
        try:
            lines = read_log(path).splitlines()  # or its archive, rotation-<r>.log.gz
        except JournalError as exc:  # an archive that is not gzip data
            sys.exit(str(exc))
        states = [text for text in lines if text.startswith("STATE:")]
        if len(states) < deals:
            sys.exit(f"{path}: {len(states)} hands; expected at least the {deals} deals "
                     "of results.json")
        for text in states[:deals]:
            fields = text.split(":")
            players = fields[5].split("|")
            if agent not in players:
                sys.exit(f"{path}: no player {agent!r} (players: {', '.join(players)})")
            yield fields, players.index(agent)


def lines_of(folder: Path, agent: str, big_blind: int) -> tuple[int, dict[str, list[float]]]:
    """``(hands, {"SB 2.5 5 f": [chips, hands], ...})`` for ``agent`` in ``folder``."""
    table: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    hands = 0
    for fields, seat in hands_of(folder, agent):
        chips = float(fields[4].split("|")[seat])
        # heads-up ACPC order: the first seat listed is the small blind (the button)
        key = ("SB " if seat == 0 else "BB ") + preflop_line(fields[2], big_blind)
        table[key][0] += chips
        table[key][1] += 1
        hands += 1
    return hands, table


def raise_answers(
    folder: Path, agent: str, blinds: tuple[int, ...], bets: bool = False
) -> tuple[int, dict[tuple[int, float], Answers]]:
    """The agent's first answer to each postflop raise by the opponent over a bet (with
    ``bets``: to each bet, where nothing was bet before on the street), by ``(street,
    size)`` (street 1 = flop); each fold also with the folded hand's equity against the
    raiser's real hand (the logs show both) and the equity the call needed. ``blinds``:
    the seats' blinds in the logs' seat order (small blind first). Returns the number of
    hands read with the table."""
    table: dict[tuple[int, float], Answers] = defaultdict(Answers)
    hands = 0
    for fields, me in hands_of(folder, agent):
        hands += 1
        cards = fields[3].split("/")
        holes = cards[0].split("|")
        committed = list(blinds)
        for street, betting in enumerate(fields[2].split("/")):
            actor = 0 if street == 0 else 1  # heads-up ACPC: the big blind acts first postflop
            facing: tuple[tuple[int, float], float] | None = None  # (street, size), needed
            for act in _ACTION.findall(betting):
                if facing is not None and actor == me:
                    answers = table[facing[0]]
                    answers.counts[act[0]] += 1
                    if act == "f":
                        board = "".join(cards[1 : street + 1])
                        mine = equity([holes[me], holes[1 - me]], board=board, method="exact")
                        answers.fold_equity.append(mine.equity[0])
                        answers.fold_needed.append(facing[1])
                        to = max(committed)
                        answers.fold_call_value.append(
                            mine.equity[0] * 2 * to - (to - committed[me])
                        )
                facing = None
                if act[0] == "r":
                    to, high = int(act[1:]), max(committed)
                    over_a_bet = committed[0] != committed[1]
                    if street > 0 and actor != me and over_a_bet != bets:
                        size = round(4 * (to - high) / (2 * high)) / 4
                        facing = ((street, size), (to - committed[me]) / (2 * to))  # call / pot
                    committed[actor] = to
                elif act == "c":
                    committed[actor] = max(committed)
                actor = 1 - actor
    return hands, table


def show_raises(
    folder: Path, agent: str, blinds: tuple[int, ...], as_json: bool, bets: bool = False
) -> None:
    """Print :func:`raise_answers` as a table (or JSON)."""
    hands, table = raise_answers(folder, agent, blinds, bets)
    big_blind = max(blinds)
    rows: list[dict[str, Any]] = []
    for (street, size), a in sorted(table.items()):
        n = a.counts
        total = n["f"] + n["c"] + n["r"]
        folds = len(a.fold_equity)
        ahead = sum(e > need for e, need in zip(a.fold_equity, a.fold_needed, strict=True))
        rows.append(
            {
                "street": ("flop", "turn", "river")[street - 1],
                "size": size,
                "answers": total,
                "fold": n["f"],
                "call": n["c"],
                "raise": n["r"],
                "fold_pct": 100 * n["f"] / total,
                "fold_at_most_pct": 100 * size / (1 + size),
                "folded_equity": sum(a.fold_equity) / folds if folds else None,
                "folded_above_odds_pct": 100 * ahead / folds if folds else None,
                "calling_folds_mbb": 1000 * sum(a.fold_call_value) / big_blind / hands,
            }
        )
    if as_json:
        print(json.dumps({"agent": agent, "bets" if bets else "raises": rows}))
        return
    what = ("bets after the flop (size: bet / pot" if bets else
            "raises after the flop (size: raise beyond the call / pot after calling")
    print(
        f"{agent}: answers to the opponent's {what}; folded: the equity of the hands it "
        "folded against the bettor's real hands, how many of them had more than the "
        "call needed, and what calling them instead would have won at showdown, in "
        "mbb per hand of the match: exact on the river, a check-down estimate before it)"
    )
    print(
        f"{'street':6s} {'size':>5s} {'answers':>8s} {'fold':>6s} {'call':>6s} {'raise':>6s} "
        f"{'fold %':>7s} {'at most':>8s} {'folded: equity':>15s} {'above odds':>11s} "
        f"{'calling them':>13s}"
    )
    for r in rows:
        if r["answers"] >= 20:
            folded = (
                f"{r['folded_equity']:15.2f} {r['folded_above_odds_pct']:10.1f}% "
                f"{r['calling_folds_mbb']:+13.1f}"
                if r["fold"]
                else f"{'':15s} {'':11s}"
            )
            print(
                f"{r['street']:6s} {r['size']:5.2f} {r['answers']:8,d} {r['fold']:6,d} "
                f"{r['call']:6,d} {r['raise']:6,d} {r['fold_pct']:6.1f}% "
                f"{r['fold_at_most_pct']:7.1f}% {folded}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--agent", required=True, help="the agent's name in the logs")
    parser.add_argument("--top", type=int, default=12, help="lines shown at each end")
    parser.add_argument(
        "--raises", action="store_true", help="the agent's answers to raises after the flop instead"
    )
    parser.add_argument(
        "--bets", action="store_true", help="the agent's answers to bets after the flop instead"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.raises and args.bets:
        sys.exit("--raises and --bets: expected one of them")
    if args.top < 1:
        sys.exit(f"--top {args.top}: expected a whole number of at least 1")
    table, _ = table_of(args.folder)  # the blinds the match was played with
    bb = table.big_blind
    if args.raises or args.bets:
        show_raises(args.folder, args.agent, table.blinds, args.json, args.bets)
        return
    hands, lines = lines_of(args.folder, args.agent, bb)
    if hands == 0:
        sys.exit(f"{args.folder}: the logs hold no hands")
    rows: list[dict[str, Any]] = sorted(
        (
            {
                "line": k,
                "hands": int(n),
                "share_mbb": 1000 * c / bb / hands,
                "per_hand_bb": c / bb / n,
            }
            for k, (c, n) in lines.items()
        ),
        key=lambda r: r["share_mbb"],
    )
    total = sum(r["share_mbb"] for r in rows)
    if args.json:
        print(
            json.dumps({"agent": args.agent, "hands": hands, "mbb_per_hand": total, "lines": rows})
        )
        return
    print(
        f"{args.agent}: {hands:,} hands, {total:+.1f} mbb/hand; preflop lines (raise-to in "
        "big blinds, + = saw the flop)"
    )
    shown = [*rows[: args.top], None, *rows[-args.top :]] if len(rows) > 2 * args.top else rows
    print(f"{'line':34s} {'hands':>7s} {'share mbb/h':>12s} {'bb/hand':>9s}")
    for r in shown:
        if r is None:
            print("...")
            continue
        print(f"{r['line']:34s} {r['hands']:7,d} {r['share_mbb']:+12.1f} {r['per_hand_bb']:+9.2f}")


if __name__ == "__main__":
    main()
