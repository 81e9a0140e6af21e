"""The shipped table of preflop match-ups against direct enumeration."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.cards import parse_cards
from checkraise.equity import equity
from checkraise.equity.pairs import BOARDS, _table, count_boards, pair_equity, pair_key
from checkraise.errors import ConfigError


def _direct(a: list[int], b: list[int]) -> float:
    return float(equity([a, b], method="exact").equity[0])


def test_the_table_agrees_with_direct_enumeration_on_random_match_ups() -> None:
    rng = np.random.default_rng(7)
    for _ in range(25):
        cards = rng.choice(52, size=4, replace=False).tolist()
        a, b = cards[:2], cards[2:]
        assert pair_equity(tuple(a), tuple(b)) == pytest.approx(_direct(a, b), abs=1e-12)


def test_the_kernel_counts_wins_and_ties_like_direct_enumeration() -> None:
    rows = np.array([[*parse_cards("AhAd"), *parse_cards("KsKc")],
                     [*parse_cards("7c2d"), *parse_cards("7d2c")],  # ties on most boards
                     [*parse_cards("Td9d"), *parse_cards("AdKd")]])
    wins, ties = count_boards(rows)
    for row, w, t in zip(rows.tolist(), wins, ties, strict=True):
        res = equity([row[:2], row[2:]], method="exact")
        assert (w, t) == (round(float(res.win[0]) * BOARDS), round(float(res.tie[0]) * BOARDS))


def test_each_entry_and_its_mirror_share_the_boards() -> None:
    keys, _ = _table()
    assert np.all(np.diff(keys) > 0)  # sorted, for the binary search
    rng = np.random.default_rng(3)
    for _ in range(200):
        cards = rng.choice(52, size=4, replace=False).tolist()
        a, b = tuple(cards[:2]), tuple(cards[2:])
        assert pair_equity(a, b) + pair_equity(b, a) == pytest.approx(1.0, abs=1e-12)


def test_suit_relabellings_share_a_key_and_shared_suits_do_not() -> None:
    a = pair_key(tuple(parse_cards("AhKh")), tuple(parse_cards("7c7d")))
    assert a == pair_key(tuple(parse_cards("AsKs")), tuple(parse_cards("7h7c")))
    assert a != pair_key(tuple(parse_cards("AsKs")), tuple(parse_cards("7s7c")))
    assert a != pair_key(tuple(parse_cards("7c7d")), tuple(parse_cards("AhKh")))


@pytest.mark.parametrize(
    ("a", "b"), [((0, 1), (1, 2)), ((0, 1), (2, 52)), ((0,), (2, 3)), ((-1, 1), (2, 3))]
)
def test_bad_hands_are_refused(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    with pytest.raises(ConfigError, match="expected two hands of two distinct cards"):
        pair_key(a, b)
