"""Algorithm 1's Monte Carlo kernel against the equity module and exact cases."""

from __future__ import annotations

import numpy as np

from checkraise.cards import COMBO_CARDS, combo_index, parse_cards
from checkraise.equity import equity
from checkraise.equity.core import rng_state
from checkraise.opponents import _kernels as K
from checkraise.ranges import Range

COMBOS = COMBO_CARDS.astype(np.int64)


def _cdf(*weights: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(np.array([np.cumsum(w) for w in weights]))


def test_against_exact_equity_with_two_ranged_opponents() -> None:
    hero = parse_cards("Ah Kh")
    board = parse_cards("Qh 7c 2d")
    w1 = Range("QQ,77,AQ").remove_cards(hero + board).weights
    w2 = Range("JhTh,9h8h,KQ").remove_cards(hero + board).weights
    exact = equity(["AhKh", Range.from_array(w1), Range.from_array(w2)], board="Qh7c2d",
                   method="exact")
    n = 40_000
    _, share, done = K.win_rate(hero[0], hero[1], np.array(board), _cdf(w1, w2), COMBOS, n,
                                rng_state(11))
    assert done == n
    se = 0.5 / np.sqrt(n)
    assert abs(share / done - float(exact.equity[0])) < 4 * se


def test_sure_win_and_sure_tie() -> None:
    board = np.array(parse_cards("As Ks Qs Js Ts"))
    w = np.zeros(1326)
    w[combo_index(*parse_cards("2c 3c"))] = 1.0
    wins, share, done = K.win_rate(parse_cards("4d")[0], parse_cards("5d")[0], board,
                                   _cdf(w), COMBOS, 200, rng_state(1))
    assert (wins, share, done) == (0.0, 100.0, 200)  # the board plays: a two-way tie


def test_impossible_deal_gives_up() -> None:
    hero = parse_cards("Ah Kh")
    w = np.zeros(1326)
    w[combo_index(*parse_cards("Ah Qd"))] = 1.0  # always collides with our ace
    _, _, done = K.win_rate(hero[0], hero[1], np.zeros(0, dtype=np.int64), _cdf(w), COMBOS,
                            10, rng_state(1))
    assert done == 0
