"""The engine's plain-Python showdown ranking orders hands exactly as the evaluator does."""

from __future__ import annotations

import os
import subprocess
import sys
from itertools import combinations, combinations_with_replacement, pairwise
from pathlib import Path

import numpy as np

from checkraise.engine._rank import rank_key
from checkraise.evaluator import NUM_RANKS, evaluate_ints

ROOT = Path(__file__).resolve().parents[2]


def _same_order(hands: list[tuple[int, ...]]) -> None:
    """Equal evaluator ranks <-> equal keys, and a higher rank <-> a higher key."""
    by_rank: dict[int, set[int]] = {}
    for hand in hands:
        by_rank.setdefault(evaluate_ints(hand), set()).add(rank_key(hand))
    assert all(len(keys) == 1 for keys in by_rank.values())
    keys = [next(iter(by_rank[r])) for r in sorted(by_rank)]
    assert all(a < b for a, b in pairwise(keys))


def test_every_five_card_class_in_the_evaluators_order() -> None:
    hands: list[tuple[int, ...]] = []
    # Flushes: every set of five ranks in one suit (straight flushes included).
    hands += [tuple(4 * r for r in ranks) for ranks in combinations(range(13), 5)]
    # Everything else: every multiset of five ranks (at most four of a rank), suited so
    # that no five share a suit (each rank's copies take suits 0, 1, 2, ...; a fifth
    # distinct rank moves to suit 1).
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        seen: dict[int, int] = {}
        cards = []
        for r in ranks:
            cards.append(4 * r + seen.get(r, 0))
            seen[r] = seen.get(r, 0) + 1
        if len({c & 3 for c in cards}) == 1:
            cards[-1] += 1
        hands.append(tuple(cards))
    assert len({evaluate_ints(h) for h in hands}) == NUM_RANKS == len(hands)
    _same_order(hands)


def test_random_six_and_seven_card_hands_in_the_evaluators_order() -> None:
    rng = np.random.default_rng(20251124)
    hands = [tuple(int(c) for c in rng.permutation(52)[:n]) for n in (6, 7) for _ in range(15_000)]
    # Hands rich in flushes, straights and pairs: cards drawn from few ranks or one suit.
    for _ in range(5_000):
        deck = [c for c in range(52) if c >> 2 in rng.choice(13, 6, replace=False)]
        hands.append(tuple(int(c) for c in rng.choice(deck, 7, replace=False)))
        suited = [c for c in range(52) if c & 3 == 0 or c >> 2 > 8]
        hands.append(tuple(int(c) for c in rng.choice(suited, 7, replace=False)))
    _same_order(hands)


def test_replaying_a_showdown_loads_no_numba() -> None:
    code = (
        "import sys\n"
        "from checkraise.histories import EXAMPLE, parse_file, replay\n"
        "hands = parse_file(sys.argv[1])\n"
        "assert sum(len(h.board) == 5 for h in hands) > 10\n"
        "for h in hands:\n"
        "    replay(h)\n"
        "print('numba' in sys.modules, 'checkraise.evaluator' in sys.modules)\n"
    )
    data = ROOT / ".." / "shared" / "data" / "pluribus" / "pluribus_30.txt"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    run = subprocess.run([sys.executable, "-c", code, str(data)], capture_output=True,
                         text=True, env=env, timeout=120, check=True)
    assert run.stdout.split() == ["False", "False"]
