"""Which continuation strategy an opponent plays, read from a match's hand logs.

``resolve:mode=depth,leaf=model`` keeps a posterior over the four continuation
strategies (the blueprint, and the blueprint biased towards folding, calling or
raising) and updates it after every hand from the opponent's actions
(:func:`checkraise.agents.continuations.observe_hand`). This script runs the same
update over the hands of a heads-up ``checkraise match --out DIR`` (its hand
histories, replayed by the hand-history module) for the player named by ``--opponent``, and
prints the posterior after 10, 25, 50, ... hands: whether, and how soon, it finds the
strategy he plays. The hands are taken in log order, rotation by rotation.

Run: ``.venv/bin/python benchmarks/posterior_from_match.py DIR --opponent
blueprint_bias=call [--json]`` (the name as the log writes it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from checkraise.agents.blueprint import BIASES, BlueprintAgent
from checkraise.agents.continuations import ContinuationPosterior, observe_hand
from checkraise.arena.outfolder import OutFolderError, match_logs
from checkraise.histories.pokerstars import parse_file
from checkraise.histories.replay import replay

CHECKPOINTS = (10, 25, 50, 100, 200, 400, 800)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="--out folder of a heads-up match")
    parser.add_argument("--opponent", required=True, help="player name as in the logs")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    try:
        logs = match_logs(args.folder, "txt")
    except OutFolderError as exc:
        sys.exit(str(exc))
    hands = [h for path in logs for h in parse_file(path)]
    posterior = ContinuationPosterior()
    readers = (BlueprintAgent(seed=7), BlueprintAgent(seed=7))
    rows: list[dict[str, Any]] = []
    read = 0
    for number, hand in enumerate(hands, 1):
        names = [s.name for s in hand.seats]
        if args.opponent not in names:
            sys.exit(f"hand {number}: no player {args.opponent!r}; the logs name {names}")
        state = replay(hand)
        for s in range(2):
            readers[s].begin_hand(s, state.config, state.hole_cards[s], number)
        read += observe_hand(posterior, state.observation(0), readers,
                             names.index(args.opponent))
        if number in CHECKPOINTS or number == len(hands):
            rows.append({"hands": number, "actions_read": read,
                         "weights": dict(zip(BIASES, map(float, posterior.weights),
                                             strict=True))})
    if args.json:
        print(json.dumps({"opponent": args.opponent, "posterior": rows}))
        return
    print(f"posterior over the continuation strategies of {args.opponent}:")
    print("hands  " + "  ".join(f"{b:>7}" for b in BIASES))
    for row in rows:
        print(f"{row['hands']:5d}  " + "  ".join(f"{w:7.3f}" for w in row["weights"].values()))


if __name__ == "__main__":
    main()
