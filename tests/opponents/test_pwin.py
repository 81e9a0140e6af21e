"""P_win of all 1,326 combos: against a naive enumeration and the equity module."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.cards import COMBO_CARDS, COMBO_MASKS, combo_index, parse_cards
from checkraise.equity import hand_strength
from checkraise.equity.preflop import preflop_equity
from checkraise.opponents.pwin import pwin_table
from tests.opponents.naive_opponents import naive_pwin


@pytest.mark.parametrize("board", ["Ah Kh Qh Jh 2c", "9c 9d 4s 4h 2c", "2c 3d 7h 8s Jd"])
def test_river_matches_naive_enumeration(board: str) -> None:
    cards = parse_cards(board)
    table = pwin_table(cards)
    rng = np.random.default_rng(5)
    live = [i for i in range(1326) if not int(COMBO_MASKS[i]) & sum(1 << c for c in cards)]
    for i in rng.choice(live, 6, replace=False):
        hand = (int(COMBO_CARDS[i][0]), int(COMBO_CARDS[i][1]))
        assert table[i] == pytest.approx(naive_pwin(hand, cards), abs=1e-12)


def test_dead_combos_are_nan_and_live_ones_in_range() -> None:
    cards = parse_cards("Ah 7d 2c 9s")
    table = pwin_table(cards)
    dead = (COMBO_MASKS & sum(1 << c for c in cards)) != 0
    assert np.isnan(table[dead]).all()
    assert ((table[~dead] >= 0) & (table[~dead] <= 1)).all()
    # Symmetry: the mean over all live combos of equity against a random hand is 1/2.
    assert float(table[~dead].mean()) == pytest.approx(0.5, abs=1e-12)


@pytest.mark.parametrize("hand,board", [("3c4c", "Ah7d2c9s"), ("KsQs", "Ah7d2c"),
                                         ("7c7h", "Ah7d2c")])
def test_turn_and_flop_match_equity_hand_strength(hand: str, board: str) -> None:
    table = pwin_table(parse_cards(board))
    expected = hand_strength(hand, board).equity
    assert table[combo_index(*parse_cards(hand))] == pytest.approx(expected, abs=1e-9)


def test_sampled_flop_is_close_to_exact() -> None:
    exact = pwin_table("Ah 7d 2c")
    sampled = pwin_table("Ah 7d 2c", flop_runouts=300)
    live = ~np.isnan(exact)
    assert float(np.abs(exact[live] - sampled[live]).mean()) < 0.02


def test_preflop_reads_the_class_table() -> None:
    table = pwin_table()
    assert table[combo_index(*parse_cards("AsAh"))] == pytest.approx(preflop_equity("AA"))
    assert table[combo_index(*parse_cards("7c2d"))] == pytest.approx(preflop_equity("72o"))


def test_bad_board_is_rejected() -> None:
    with pytest.raises(ValueError, match="0, 3, 4 or 5"):
        pwin_table("Ah Kh")
