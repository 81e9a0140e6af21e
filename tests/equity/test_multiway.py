"""Multiway equity with weighted ranges and random hands, and Monte Carlo with dead cards,
against a slow, independent enumeration (:mod:`tests.equity.naive_equity`: every deal in
Python, exact fractions, hands ranked by eval7).

Monte Carlo tolerances: a sample's equity share lies in [0, 1], so its variance is at most
p (1 - p) for a player whose equity is p, and the mean of n samples is off by more than
4.5 sqrt(p (1 - p) / n) with probability below 10^-5 (normal approximation, n >= 40,000).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import eval7
import numpy as np
import pytest

from checkraise.cards import NUM_COMBOS, combo_index, format_card, parse_card, parse_cards
from checkraise.equity import equity
from checkraise.ranges import Range
from tests.equity.naive_equity import naive_equity, random_hand

Hand = tuple[int, int]
Spec = dict[Hand, Fraction] | None  # None: a random hand

_E7 = [eval7.Card(format_card(c)) for c in range(52)]


@cache
def _eval7_rank(cards: tuple[int, ...]) -> int:
    return int(eval7.evaluate([_E7[c] for c in cards]))


def _spec(text: str) -> dict[Hand, Fraction]:
    """``"AhKd:1 AcAs:1/2"`` -> {(card, card): weight}."""
    out: dict[Hand, Fraction] = {}
    for item in text.split():
        hand, _, weight = item.partition(":")
        a, b = parse_card(hand[:2]), parse_card(hand[2:])
        out[(min(a, b), max(a, b))] = Fraction(weight or "1")
    return out


def _range(spec: Spec) -> Range:
    if spec is None:
        return Range("random")
    w = np.zeros(NUM_COMBOS)
    for (a, b), weight in spec.items():
        w[combo_index(a, b)] = float(weight)
    return Range.from_array(w)


def _naive(specs: list[Spec], board: str, dead: str = "") -> list[float]:
    players = [random_hand() if s is None else s for s in specs]
    _, _, share = naive_equity(players, parse_cards(board), parse_cards(dead), _eval7_rank)
    return [float(x) for x in share]


def _tolerance(p: np.ndarray, n: int) -> np.ndarray:
    return 4.5 * np.sqrt(p * (1 - p) / n) + 1e-12


R1 = "AhKd AcAs:1/2 JcTc:1/4 8h7h:3/4"
R2 = "QhQs 9h9c:3/4 KcQc:1/2 AdQd:1/4"

MULTIWAY = [
    # Three players on the river: two weighted ranges and a random hand.
    ([_spec(R1), _spec(R2), None], "Kh9s4d2cJh", ""),
    # Four on the river: two weighted ranges, a known hand and a random hand, dead cards.
    ([_spec(R1), _spec(R2), _spec("6s5s"), None], "Kh9s4d2cJh", "3s3h"),
    # Three on the turn: a known hand, a weighted range and a random hand.
    ([_spec("AsJs"), _spec("QhQs 9h9c:3/4"), None], "Kh9s4dJh", ""),
    # Card removal decides: the random hand ties the aces only with the one ace that the
    # range leaves, so a random hand dealt from cards a range holds is off by ~0.014.
    ([_spec("AsAh AsAc AhAc:1/2"), _spec("KsKh KcKd 8h8s:1/2"), None], "Ad8c5h3s2d", ""),
]


@pytest.mark.parametrize(("specs", "board", "dead"), MULTIWAY)
def test_multiway_ranges_and_random_hands_against_naive_enumeration(
    specs: list[Spec], board: str, dead: str
) -> None:
    want = np.array(_naive(specs, board, dead))
    ranges = [_range(s) for s in specs]
    exact = equity(ranges, board=board, dead=dead or None, method="exact")
    assert exact.equity == pytest.approx(want, rel=1e-12, abs=1e-15)
    n = 100_000
    mc = equity(ranges, board=board, dead=dead or None, method="mc", samples=n, seed=7)
    assert mc.method == "mc" and mc.samples == n
    assert np.all(np.abs(mc.equity - want) <= _tolerance(want, n)), (mc.equity, want)


def test_monte_carlo_excludes_dead_cards_with_ranges_and_random_hands() -> None:
    # Dead 9d 9c 4c 4h: no random hand can make a full house or quads with the board's
    # pair of nines or four. The answer moves by far more than the tolerance.
    specs: list[Spec] = [_spec(R1), _spec("TdTh 8d8c:1/2"), None]
    board, dead = "Kh9s4d2c9h", "9d9c4c4h"
    want = np.array(_naive(specs, board, dead))
    without = np.array(_naive(specs, board))
    n = 60_000
    tol = _tolerance(want, n)
    assert np.max(np.abs(without - want) / tol) > 5
    mc = equity([_range(s) for s in specs], board=board, dead=dead, samples=n, seed=11)
    assert np.all(np.abs(mc.equity - want) <= tol), (mc.equity, want)


@pytest.mark.parametrize(
    ("players", "board", "dead"),
    [
        # The heads-up kernel: a known hand against a random one.
        (["AsAh", "random"], "KsKh2c", "KdKc2d2h"),
        # The fixed-hand kernel: two known hands and a random one.
        (["AsAh", "QdQc", "random"], "KsKh2c", "KdKc2d2h"),
        # Preflop, the heads-up kernel with both hands known: the other two tens dead
        # leave TT no set against AA.
        (["AsAh", "TcTd"], None, "ThTs"),
    ],
)
def test_monte_carlo_fast_kernels_exclude_dead_cards(
    players: list[str], board: str | None, dead: str
) -> None:
    exact = equity(players, board=board, dead=dead, method="exact")
    without = equity(players, board=board, method="exact")
    n = 200_000
    tol = _tolerance(exact.equity, n)
    assert np.max(np.abs(without.equity - exact.equity) / tol) > 5
    mc = equity(players, board=board, dead=dead, method="mc", samples=n, seed=5)
    assert mc.method == "mc" and mc.samples == n
    assert np.all(np.abs(mc.equity - exact.equity) <= tol), (mc.equity, exact.equity)


def test_known_hand_cannot_win_once_its_outs_are_dead() -> None:
    # AsAh against KsKh on Kd 2c 3c: the aces win only with an ace (Ac, Ad) or the
    # runner-runner wheel (a four and a five: 4 x 4 of the turn/river pairs). With Ac Ad
    # dead, 43 cards remain and the wheel is the only way: 16 of C(43, 2) = 903 runouts.
    players, board, dead = ["AsAh", "KsKh"], "Kd2c3c", "AcAd"
    exact = equity(players, board=board, dead=dead, method="exact")
    assert exact.samples == math.comb(43, 2)
    assert float(exact.win[0]) == pytest.approx(16 / 903, rel=1e-12)
    mc = equity(players, board=board, dead=dead, method="mc", samples=200_000, seed=4)
    p = 16 / 903
    assert abs(float(mc.win[0]) - p) <= 4.5 * math.sqrt(p * (1 - p) / 200_000)
