"""Terminal values of the spot solver against slow pairwise twins, and equities against
:func:`checkraise.equity.equity`.

``fold_values``, ``showdown_values`` (sorted sweeps with card-removal corrections) and
the walk's ``showdown_sweep`` (one pass over a merged order built per runout) must
equal the O(n^2) loops of ``tests/naive.py``, which look at every pair of hands,
skip the pairs that share a card and compare evaluator ranks; the inputs are random
ranges that overlap (the same combo in both ranges) on random boards, and boards where
most hands tie.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from checkraise.cards import COMBO_CARDS, COMBO_MASKS, format_cards, parse_cards
from checkraise.equity import equity
from checkraise.evaluator import evaluate_ints
from checkraise.solvers.spot import _kernels as K
from checkraise.solvers.spot._sweep import showdown_sweep, sweep_tables
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.solver import SpotSolver
from tests.naive import naive_fold_values, naive_showdown_values

IntArray = npt.NDArray[np.int64]


def _hands(combos: IntArray) -> list[tuple[int, int]]:
    return [(int(COMBO_CARDS[c][0]), int(COMBO_CARDS[c][1])) for c in combos]


def _case(rng: np.random.Generator, board: list[int], deck: int, n: int,
          ) -> tuple[IntArray, IntArray, npt.NDArray[np.float64]]:
    """Two sorted ranges of up to ``n`` combos drawn from ``deck`` cards off the board."""
    mask = sum(1 << c for c in board)
    cards = rng.choice([c for c in range(52) if c not in board], deck, replace=False)
    card_mask = sum(1 << int(c) for c in cards)
    pool = np.array([c for c in range(1326) if not int(COMBO_MASKS[c]) & mask
                     and int(COMBO_MASKS[c]) & ~card_mask == 0])
    size = min(n, pool.size * 2 // 3)
    mine = np.sort(rng.choice(pool, size, replace=False))
    theirs = np.sort(rng.choice(pool, size, replace=False))
    reach = rng.random(theirs.size) * (rng.random(theirs.size) < 0.8)  # some zeros
    return mine.astype(np.int64), theirs.astype(np.int64), reach


def _same(mine: IntArray, theirs: IntArray) -> IntArray:
    where = {int(c): i for i, c in enumerate(theirs)}
    return np.array([where.get(int(c), -1) for c in mine], np.int64)


BOARDS = [
    None, None, None, None, None, None,  # random
    "Ts Jh Qd Kc Ac",  # a straight on the board: every hand ties but a few
    "2c 2d 2h 2s 3c",  # quads on the board: kickers only
    "7h 8h 9h Th 2c",  # flushes and straight flushes
]


@pytest.mark.parametrize("case", range(len(BOARDS)))
def test_fold_and_showdown_values_match_the_pairwise_loop(case: int) -> None:
    rng = np.random.default_rng(1400 + case)
    text = BOARDS[case]
    board = (parse_cards(text) if text else
             [int(c) for c in rng.choice(52, 5, replace=False)])
    # A small deck makes many combos share cards, and both ranges share combos.
    mine, theirs, reach = _case(rng, board, deck=int(rng.integers(8, 20)), n=60)
    same = _same(mine, theirs)
    assert (same >= 0).any() and (same < 0).any()
    cards_t = COMBO_CARDS[mine].astype(np.int64)
    cards_o = COMBO_CARDS[theirs].astype(np.int64)

    out = np.zeros(mine.size)
    K.fold_values(-7.5, reach, cards_t, cards_o, same, out)
    expected = naive_fold_values(-7.5, reach.tolist(), _hands(mine), _hands(theirs))
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)

    tables = []
    for combos, cards in ((mine, cards_t), (theirs, cards_o)):
        order = np.zeros((1, combos.size), np.int64)
        rank = np.zeros((1, combos.size), np.int64)
        K.showdown_tables(np.array(board, np.int64), np.full((1, 2), -1, np.int64), cards,
                          order, rank)
        tables.append((order[0], rank[0]))
    rank_t = [evaluate_ints([*board, *h]) for h in _hands(mine)]
    rank_o = [evaluate_ints([*board, *h]) for h in _hands(theirs)]
    # The tables sort the hands by the evaluator's order.
    assert tables[0][1].tolist() == sorted(rank_t)
    assert [rank_t[i] for i in tables[0][0]] == sorted(rank_t)
    ties = sum(a == b for a in rank_t for b in rank_o)
    assert ties > 0 or text is None

    K.showdown_values(130.0, -40.0, 45.0, reach, cards_t, cards_o, same, *tables[0],
                      *tables[1], out)
    expected = naive_showdown_values(130.0, -40.0, 45.0, reach.tolist(), _hands(mine),
                                     _hands(theirs), rank_t, rank_o)
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-9)


def _sweep(win: float, lose: float, tie: float, reach: npt.NDArray[np.float64],
           cards_t: IntArray, cards_o: IntArray, same: IntArray,
           tables: list[tuple[IntArray, IntArray]]) -> npt.NDArray[np.float64]:
    """``showdown_sweep`` on one runout, its merged order built by ``sweep_tables``."""
    (order_t, rank_t), (order_o, rank_o) = tables
    length = cards_o.shape[0] + 2 * cards_t.shape[0]
    seq = np.zeros((1, length), np.uint16)
    card_a = np.zeros(length, np.uint8)
    card_b = np.zeros(length, np.uint8)
    sweep_tables(order_t[None], rank_t[None], order_o[None], rank_o[None], cards_t, cards_o,
                 seq, card_a, card_b)
    assert sorted(seq[0].tolist()) == list(range(length))  # every code once
    out = np.full((2, cards_t.shape[0]), np.nan)
    codes = np.zeros((2, length))
    codes[1] = np.nan  # scratch: only the first row's tail must be zero
    showdown_sweep(win, lose, tie, np.stack([reach * 0.0, reach]), 1, same, seq, 0,
                   card_a, card_b, out, codes, np.full(52, np.nan))
    return out[1]


@pytest.mark.parametrize("case", range(len(BOARDS)))
def test_the_merged_sweep_matches_the_pairwise_loop(case: int) -> None:
    rng = np.random.default_rng(2400 + case)
    text = BOARDS[case]
    board = (parse_cards(text) if text else
             [int(c) for c in rng.choice(52, 5, replace=False)])
    mine, theirs, reach = _case(rng, board, deck=int(rng.integers(8, 20)), n=60)
    if case % 2:  # the opponent's range the larger one, and the other way round
        mine, theirs = theirs, mine
        reach = rng.random(theirs.size) * (rng.random(theirs.size) < 0.8)
    same = _same(mine, theirs)
    assert (same >= 0).any() and (same < 0).any()
    cards_t = COMBO_CARDS[mine].astype(np.int64)
    cards_o = COMBO_CARDS[theirs].astype(np.int64)
    tables = []
    for cards in (cards_t, cards_o):
        order = np.zeros((1, cards.shape[0]), np.int64)
        rank = np.zeros((1, cards.shape[0]), np.int64)
        K.showdown_tables(np.array(board, np.int64), np.full((1, 2), -1, np.int64), cards,
                          order, rank)
        tables.append((order[0], rank[0]))
    rank_t = [evaluate_ints([*board, *h]) for h in _hands(mine)]
    rank_o = [evaluate_ints([*board, *h]) for h in _hands(theirs)]
    assert sum(a == b for a in rank_t for b in rank_o) > 0 or text is None
    out = _sweep(130.0, -40.0, 45.0, reach, cards_t, cards_o, same, tables)
    expected = naive_showdown_values(130.0, -40.0, 45.0, reach.tolist(), _hands(mine),
                                     _hands(theirs), rank_t, rank_o)
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-9)


def test_the_merged_sweep_matches_the_two_list_sweep_on_every_river_of_a_turn() -> None:
    """Hands holding the river card rank 0 in both; the walk zeroes their reach."""
    board = parse_cards("Qs Jh 2h 4d")
    rng = np.random.default_rng(8)
    mine, theirs, _ = _case(rng, board, deck=16, n=50)
    cards_t = COMBO_CARDS[mine].astype(np.int64)
    cards_o = COMBO_CARDS[theirs].astype(np.int64)
    same = _same(mine, theirs)
    rivers = np.array([[c, -1] for c in range(52) if c not in board], np.int64)
    tables = []
    for cards in (cards_t, cards_o):
        order = np.zeros((rivers.shape[0], cards.shape[0]), np.int64)
        rank = np.zeros((rivers.shape[0], cards.shape[0]), np.int64)
        K.showdown_tables(np.array(board, np.int64), rivers, cards, order, rank)
        tables.append((order, rank))
    for row, (river, _) in enumerate(rivers):
        reach = rng.random(theirs.size) * ((cards_o != river).all(axis=1))
        expected = np.zeros(mine.size)
        K.showdown_values(100.0, -25.0, 50.0, reach, cards_t, cards_o, same,
                          tables[0][0][row], tables[0][1][row], tables[1][0][row],
                          tables[1][1][row], expected)
        out = _sweep(100.0, -25.0, 50.0, reach, cards_t, cards_o, same,
                     [(tables[0][0][row], tables[0][1][row]),
                      (tables[1][0][row], tables[1][1][row])])
        np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-9)


def test_showdown_tables_rank_every_runout_of_a_turn() -> None:
    board = parse_cards("Qs Jh 2h 4d")
    rng = np.random.default_rng(7)
    combos, _, _ = _case(rng, board, deck=14, n=40)
    cards = COMBO_CARDS[combos].astype(np.int64)
    rivers = [c for c in range(52) if c not in board]
    order = np.zeros((len(rivers), combos.size), np.int64)
    rank = np.zeros((len(rivers), combos.size), np.int64)
    K.showdown_tables(np.array(board, np.int64),
                      np.array([[r, -1] for r in rivers], np.int64), cards, order, rank)
    for row, river in enumerate(rivers):
        # Hands holding the river card rank 0 (below every real hand).
        expected = [0 if river in h else evaluate_ints([*board, river, *h])
                    for h in _hands(combos)]
        assert rank[row].tolist() == sorted(expected)
        assert [expected[i] for i in order[row]] == sorted(expected)


@pytest.mark.parametrize(("board", "oop", "ip"), [
    ("Qs Jh 2h 4d 7c", "AhKh,QQ,76s,JTs", "JJ+,AQ:0.5,T9s,KhQh"),
    ("Qs Jh 2h 4d", "AhKh,QQ,76s,JTs", "JJ+,AQ:0.5,T9s,KhQh"),
    ("Qs Jh 2h", "AhKh,Td9d,5c5d", "AQs:0.3,JJ,Th9h"),
])
def test_report_equity_matches_exact_equity(board: str, oop: str, ip: str) -> None:
    spot = Spot.from_dict({"board": board, "pot": 10, "stack": 10,
                           "ranges": {"oop": oop, "ip": ip},
                           "sizes": {"bet": [100], "raise": [], "allin": False}})
    report = SpotSolver(spot).report("")
    assert report.combos.size >= 3
    for h, combo in enumerate(report.combos[:8]):
        hand = format_cards(COMBO_CARDS[combo].tolist(), sep="")
        exact = equity([hand, ip], board=board, method="exact")
        assert report.equity[h] == pytest.approx(float(exact.equity[0]), abs=1e-12), hand


def test_report_ev_is_nan_for_hands_holding_the_dealt_card() -> None:
    spot = Spot.from_dict({"board": "Qs Jh 2h 4d", "pot": 20, "stack": 40,
                           "ranges": {"oop": "AhKh,7c6c", "ip": "AcQc"},
                           "sizes": {"bet": [50], "raise": [], "allin": False}})
    report = SpotSolver(spot).report("x x Ah")
    dead = report.reach == 0
    assert dead.sum() == 1 and np.isnan(report.equity[dead]).all()
    assert np.isnan(report.ev[dead]).all()
