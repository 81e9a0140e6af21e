"""How well each opponent model of the expert bot reads the opponent's hand, on a match's logs.

The expert bot tracks the opponent's range by Bayes, each of his actions weighing every
hand he could hold by the opponent model's probability of that action
(:meth:`checkraise.agents.expert.ExpertAgent.opponent_range`). Accuracy and log-loss of
the model score the action he took *with the hand he held*; what range tracking needs
is how the action's probability differs *between* hands. This script measures that
directly: for every hand of a heads-up ``checkraise match --out DIR`` that reached the
flop, it tracks the named player's range from the other seat's view through all his
actions, with each model, and scores the weight the range ends on his real hand:
bits gained over a uniform guess among the hands the board and our cards allow
(``log2(n * p)``, ``p`` his hand's share of the range), the share of hands whose real
hand was ruled out (weight 0; those count at a floor of ``1e-6 / n``), and the share of
the range's weight on hands it rates above his (ties half; 50% is no reading at all,
lower is better).

It also scores each model as a predictor of his actions on the same logs: at every
decision he made (preflop and after), the probability the model gives the action class
he took *with the hand he held*: top-1 accuracy and log-loss (nats), per street group.

Run: ``.venv/bin/python benchmarks/expert_reading.py DIR --opponent NAME
[--model FILE ...] [--json]`` (``NAME`` as the logs write it, e.g. ``expert_cnn=false``;
each ``--model`` a CNN file beside the knowledge base and the shipped CNN).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from checkraise.agents.expert import ExpertAgent
from checkraise.agents.range_tracking import track_ranges
from checkraise.arena.outfolder import OutFolderError, match_logs
from checkraise.cards import COMBO_MASKS, NUM_COMBOS, combo_index
from checkraise.histories.pokerstars import parse_file
from checkraise.histories.replay import replay
from checkraise.nn.action_classes import action_class


def score(weights: np.ndarray, actual: int, allowed: np.ndarray) -> tuple[float, bool, float]:
    """``(bits over uniform, ruled out, weight rated above)`` of ``actual`` in ``weights``."""
    n = int(allowed.sum())
    w = np.where(allowed, weights, 0.0)
    total = float(w.sum())
    p = float(w[actual]) / total if total > 0 else 1.0 / n
    out = p <= 0.0
    bits = float(np.log2(n * max(p, 1e-6 / n)))
    above = float(w[w > w[actual]].sum()) + 0.5 * float(w[w == w[actual]].sum() - w[actual])
    rated_above = above / total if total > 0 else 0.5
    return bits, out, rated_above


def predictions(reader: ExpertAgent, obs: Any, hand: np.ndarray,
                ) -> list[tuple[bool, float, bool]]:
    """``(postflop, probability of the class taken, top-1 right)`` of each decision of the
    player not seated at ``obs`` (his hand ``hand``, shape (1, 2)), by ``reader``'s model."""
    out: list[tuple[bool, float, bool]] = []

    def likelihood(o: Any, _index: int, action: Any) -> np.ndarray:
        if o.seat != obs.seat:
            probs = reader.tracker.predict(o, hand)[0]
            taken = action_class(o, action)
            out.append((o.round > 0, float(probs[taken]), int(np.argmax(probs)) == taken))
        return np.ones(NUM_COMBOS)

    track_ranges(obs, likelihood)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="--out folder of a heads-up match")
    parser.add_argument("--opponent", required=True, help="player name as in the logs")
    parser.add_argument("--model", action="append", default=[], help="a CNN file (repeatable)")
    parser.add_argument("--hands", type=int, default=0, help="at most this many hands (0: all)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    try:
        logs = match_logs(args.folder, "txt")
    except OutFolderError as exc:
        sys.exit(str(exc))
    readers: dict[str, ExpertAgent] = {
        "knowledge base (cnn=false)": ExpertAgent(seed=1, cnn=False),
        "shipped CNN": ExpertAgent(seed=1, cnn=True),
    }
    for path in args.model:
        readers[f"CNN {path}"] = ExpertAgent(seed=1, cnn=True, model=path)
        readers[f"CNN {path}, track=staged"] = ExpertAgent(seed=1, cnn=True, model=path,
                                                           track="staged")
    rows: dict[str, list[tuple[float, bool, float]]] = {name: [] for name in readers}
    decided: dict[str, list[tuple[bool, float, bool]]] = {name: [] for name in readers}
    used = 0
    for number, hand in enumerate((h for path in logs for h in parse_file(path)), 1):
        names = [s.name for s in hand.seats]
        if args.opponent not in names:
            sys.exit(f"hand {number}: no player {args.opponent!r}; the logs name {names}")
        state = replay(hand)
        him = names.index(args.opponent)
        obs = state.observation(1 - him)
        real = np.array([state.hole_cards[him]], dtype=np.int64)
        for name, reader in readers.items():
            decided[name].extend(predictions(reader, obs, real))
        if len(state.board) < 3:
            continue
        actual = combo_index(*state.hole_cards[him])
        seen = np.uint64(sum(1 << int(c) for c in (*obs.hole_cards, *obs.board)))
        allowed = (COMBO_MASKS & seen) == 0
        for name, reader in readers.items():
            rows[name].append(score(reader.opponent_range(obs), actual, allowed))
        used += 1
        if args.hands and used >= args.hands:
            break
    report: dict[str, Any] = {"opponent": args.opponent, "hands": used, "models": {}}
    for name, got in rows.items():
        bits = np.array([g[0] for g in got])
        half = 1.96 * bits.std(ddof=1) / np.sqrt(len(bits)) if len(bits) > 1 else 0.0
        report["models"][name] = {
            "bits_over_uniform": float(bits.mean()), "bits_ci95": float(half),
            "ruled_out": float(np.mean([g[1] for g in got])),
            "rated_above": float(np.mean([g[2] for g in got])),
        }
        for group, keep in (("preflop", False), ("postflop", True)):
            d = [x for x in decided[name] if x[0] == keep]
            report["models"][name][f"{group}_decisions"] = len(d)
            report["models"][name][f"{group}_accuracy"] = float(np.mean([x[2] for x in d]))
            report["models"][name][f"{group}_log_loss"] = float(
                -np.mean([np.log(max(x[1], 1e-12)) for x in d]))
    if args.json:
        print(json.dumps(report))
        return
    print(f"{used} hands of {args.opponent} that reached the flop, read from the other seat:")
    print(f"{'model':44} {'bits over uniform':>20} {'ruled out':>10} {'rated above':>12}")
    for name, m in report["models"].items():
        print(f"{name:44} {m['bits_over_uniform']:12.2f} ± {m['bits_ci95']:5.2f} "
              f"{100 * m['ruled_out']:9.1f}% {100 * m['rated_above']:11.1f}%")
    print(f"\nhis actions predicted with his real hand (top-1 accuracy, log-loss in nats), "
          f"{used} hands that reached the flop and those before them:")
    print(f"{'model':44} {'preflop':>16} {'postflop':>16}")
    for name, m in report["models"].items():
        print(f"{name:44} {100 * m['preflop_accuracy']:7.1f}% {m['preflop_log_loss']:6.3f} "
              f"{100 * m['postflop_accuracy']:7.1f}% {m['postflop_log_loss']:6.3f}")


if __name__ == "__main__":
    main()
