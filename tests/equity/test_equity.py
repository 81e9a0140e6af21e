from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from checkraise.cards import COMBO_CARDS, NUM_COMBOS, parse_cards
from checkraise.equity import equity, win_probability
from checkraise.equity.core import EquityError
from checkraise.errors import CheckraiseError
from checkraise.ranges import Range
from tests.equity.naive_equity import naive_equity


def test_aks_vs_qq_exact_published() -> None:
    # AsKs vs QhQd preflop, 1,712,304 boards: 46.214 % with ties shared (PokerStove/Equilab).
    r = equity(["AsKs", "QhQd"])
    assert r.method == "exact" and r.samples == 1_712_304
    assert float(r.equity[0]) == pytest.approx(0.46214, abs=1e-5)
    assert float(r.equity[0] + r.equity[1]) == pytest.approx(1.0, abs=1e-12)


def test_72s_vs_ako_exact_counts_published() -> None:
    # cardfight.com/72s_AKo.html (exhaustive): over all 4 x 12 suit combinations and
    # 1,712,304 boards each, 72s wins 29,706,444 and AKo 52,078,896 times.
    r = equity(["72s", "AKo"], method="exact")
    deals = 48 * 1_712_304
    assert float(r.win[0]) == pytest.approx(29_706_444 / deals, rel=1e-12)
    assert float(r.win[1]) == pytest.approx(52_078_896 / deals, rel=1e-12)
    assert round(100 * float(r.equity[0]), 2) == 36.39


def test_three_way_flop_published() -> None:
    # PokerStove exact output quoted in suckout.blogspot.com, "Know thy Equity" (2006).
    r = equity(["KdQd", "JcTc", "5h5s"], board="Kc Qh 5c")
    assert r.method == "exact"
    assert [round(100 * float(e), 4) for e in r.equity] == [17.2757, 44.1860, 38.5382]


@pytest.mark.parametrize(
    ("hand", "published"),
    [
        # Exhaustive heads-up values, ties counted 1/2: jazbo.com/poker/huholdem.html lists
        # AA 0.8520371; 72o 0.3458 is PokerStove's 34.58 %.
        ("AhAd", 0.8520371),
        ("7c2d", 0.3458),
    ],
)
def test_hand_vs_random_preflop(hand: str, published: float) -> None:
    # Monte Carlo with 10^7 deals: standard error 1.1e-4 (AA) and 1.5e-4 (72o); AA must be
    # within 0.0005 (4 sigma), 72o within 4 sigma plus the rounding of the published value.
    r = equity([hand, "random"], samples=10_000_000, seed=11)
    se = float(r.stderr[0])
    assert r.method == "mc" and se < 0.00015
    assert abs(float(r.equity[0]) - published) < min(0.0005, 4 * se) + 0.00005


def _fractions(spec: dict[tuple[int, int], float]) -> dict[tuple[int, int], Fraction]:
    return {h: Fraction(w) for h, w in spec.items()}


def _random_case(
    rng: np.random.Generator, n: int, n_board: int, max_combos: int
) -> tuple[list[dict[tuple[int, int], float]], list[int]]:
    cards = rng.permutation(52)
    board = [int(c) for c in cards[:n_board]]
    pool = [int(c) for c in cards[n_board : n_board + 2 * n + 4]]
    players = []
    for _ in range(n):
        spec: dict[tuple[int, int], float] = {}
        for _ in range(int(rng.integers(1, max_combos + 1))):
            a, b = rng.choice(pool, size=2, replace=False)
            spec[(int(min(a, b)), int(max(a, b)))] = float(rng.choice([1.0, 0.5, 0.25, 0.75]))
        players.append(spec)
    return players, board


def _as_range(spec: dict[tuple[int, int], float]) -> Range:
    w = np.zeros(NUM_COMBOS)
    for (a, b), wt in spec.items():
        w[b * (b - 1) // 2 + a] = wt
    return Range.from_array(w)


def test_fast_exact_equals_brute_force() -> None:
    rng = np.random.default_rng(5)
    checked = 0
    while checked < 14:
        n = 2 + checked % 2
        players, board = _random_case(rng, n, 4 + checked % 3 // 2, 3)
        try:
            want = naive_equity([_fractions(p) for p in players], board)
        except ZeroDivisionError:
            continue  # every deal collides
        got = equity([_as_range(p) for p in players], board=board, method="exact")
        for p in range(n):
            assert float(got.win[p]) == pytest.approx(float(want[0][p]), rel=1e-12, abs=1e-15)
            assert float(got.tie[p]) == pytest.approx(float(want[1][p]), rel=1e-12, abs=1e-15)
            assert float(got.equity[p]) == pytest.approx(float(want[2][p]), rel=1e-12, abs=1e-15)
        checked += 1


def test_heads_up_sweep_equals_brute_force_on_wide_ranges() -> None:
    # Wide heads-up ranges take the sorted-sweep path (more than 512 pairs per board).
    rng = np.random.default_rng(9)
    board = [int(c) for c in rng.choice(52, size=5, replace=False)]
    specs = []
    for _ in range(2):
        ids = rng.choice(NUM_COMBOS, size=40, replace=False)
        specs.append({
            (int(COMBO_CARDS[i][0]), int(COMBO_CARDS[i][1])): float(rng.choice([1.0, 0.5, 0.25]))
            for i in ids
        })
    specs = [{h: w for h, w in s.items() if not set(h) & set(board)} for s in specs]
    want = naive_equity([_fractions(s) for s in specs], board)
    got = equity([_as_range(s) for s in specs], board=board, method="exact")
    for p in range(2):
        assert float(got.equity[p]) == pytest.approx(float(want[2][p]), rel=1e-12)
        assert float(got.tie[p]) == pytest.approx(float(want[1][p]), rel=1e-12, abs=1e-15)


def test_exact_and_monte_carlo_agree_on_200_spots() -> None:
    rng = np.random.default_rng(2024)
    done = 0
    worst = 0.0
    while done < 200:
        n = int(rng.integers(2, 7))
        n_board = int(rng.choice([3, 4, 5])) if n == 2 else int(rng.choice([4, 5]))
        players, board = _random_case(rng, n, n_board, 4 if n <= 3 else 2)
        ranges = [_as_range(p) for p in players]
        if rng.random() < 0.3:
            ranges[-1] = Range("random") if n == 2 else ranges[-1]
        try:
            exact = equity(ranges, board=board, method="exact")
        except ValueError:
            continue  # no compatible deal
        mc = equity(ranges, board=board, method="mc", samples=4000, seed=done)
        assert mc.samples == 4000
        p = exact.equity
        se_true = np.sqrt(p * (1 - p) / mc.samples)
        tol = 4 * np.maximum(mc.stderr, se_true) + 1e-12
        assert np.all(np.abs(mc.equity - exact.equity) <= tol), (players, board)
        worst = max(worst, float(np.max(np.abs(mc.equity - exact.equity) / np.maximum(tol, 1e-12))))
        done += 1
    assert worst > 0.1  # the comparisons were not vacuous


def test_monte_carlo_is_seeded_and_stops_at_target_se() -> None:
    a = equity(["AsKs", "QQ+,AKs"], samples=20_000, seed=3)
    b = equity(["AsKs", "QQ+,AKs"], samples=20_000, seed=3)
    assert np.array_equal(a.equity, b.equity) and a.method == "mc"
    r = equity(["AsKs", "random", "random"], target_se=0.004, seed=1)
    assert r.samples < 200_000 and float(r.stderr.max()) <= 0.004
    assert float(r.equity.sum()) == pytest.approx(1.0)


def test_win_probability_algorithm_1_form() -> None:
    # Against two opponents known to hold QQ and KK exactly, the deal is fixed but for the
    # board, so Monte Carlo must agree with exact enumeration.
    dists = np.zeros((2, NUM_COMBOS))
    dists[0, Range("QhQd").combos()] = 0.3
    dists[1, Range("KhKd").combos()] = 0.7
    p = win_probability("AsKs", dists, samples=50_000, seed=7)
    exact = equity(["AsKs", "QhQd", "KhKd"])
    assert abs(p.win - float(exact.win[0])) < 4 * p.stderr + 1e-3
    assert p.value == pytest.approx(p.win - p.lose)
    with pytest.raises(ValueError, match="1326"):
        win_probability("AsKs", [np.ones(10)])


@pytest.mark.parametrize(
    ("players", "board", "dead", "match"),
    [
        (["AsKs", "AsQd"], None, None, "As"),
        (["AhAd", "KK"], "Ah2c3d", None, "player 1"),
        (["AhAd", "KK"], None, "KsKhKdKc", "player 2"),
        (["AA"] * 11, None, None, "2 to 10"),
        (["AA"], None, None, "2 to 10"),
        (["AA", "KK"], "2c3c4c5c6c7c", None, "0, 3, 4 or 5 cards"),
        (["AA", "KK"], "2d3c", None, "invalid board '2d 3c'"),
        (["AA", "KK"], "2d", None, "got 1"),
        (["AA", "KK"], "2c3c4c", "2c", "both on the board and dead"),
        (["AA", "AA", "AA"], None, None, "collide"),
        (["AsAh", "Q"], None, None, "'Q'"),
    ],
)
def test_bad_input(players: list[str], board: str | None, dead: str | None, match: str) -> None:
    with pytest.raises(CheckraiseError, match=match):
        equity(players, board=board, dead=dead, samples=1000 if len(players) == 3 else None)


def test_unknown_method_lists_the_valid_ones() -> None:
    with pytest.raises(EquityError, match=r"unknown method 'fast': expected exact, mc or auto$"):
        equity(["AA", "KK"], method="fast")


def test_dead_cards_and_method_choice() -> None:
    r = equity(["AsAh", "KsKh"], dead="AdAc", board="2c7d9h")
    assert r.method == "exact" and r.samples == math.comb(52 - 4 - 3 - 2, 2)
    assert equity(["QQ+,AKs", "random"]).method == "mc"
    assert equity(["QQ+,AKs", "random"], board="Td9d6h").method == "exact"
    assert parse_cards("As") == [51]
