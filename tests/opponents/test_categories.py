"""The paper's hand categories on hand-built boards, and the kernel against the scalar rule."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.cards import COMBO_CARDS, CardError, parse_cards
from checkraise.opponents.categories import (
    POSTFLOP_CATEGORIES,
    PREFLOP_CATEGORIES,
    category_table,
    hand_category,
)


def _name(hole: str, board: str) -> str:
    names = POSTFLOP_CATEGORIES if board else PREFLOP_CATEGORIES
    return names[hand_category(parse_cards(hole), parse_cards(board) if board else ())]


@pytest.mark.parametrize(("hole", "expected"), [
    ("7c 2d", "small high card"),
    ("Ts 9s", "small high card"),  # the nine is below the ten
    ("As Kd", "big high card"),
    ("Js Tc", "big high card"),
    ("2c 2d", "small pair"),
    ("9c 9d", "small pair"),
    ("Tc Td", "big pair"),
    ("Ac Ad", "big pair"),
])
def test_preflop_categories(hole: str, expected: str) -> None:
    assert _name(hole, "") == expected


@pytest.mark.parametrize(("hole", "board", "expected"), [
    ("Ac 9d", "2h 5s Jc", "high card"),
    ("As 9d", "Ah 5s Jc", "pair"),
    ("As 5d", "Ah 5s Jc", "two pair"),
    ("5c 5d", "Ah 5s Jc", "three of a kind"),
    ("Ah 2c", "3d 4s 5h", "straight"),  # the wheel
    ("Ah 2h", "3h 8h Kh", "flush"),
    ("5c 5d", "5s Jc Jd", "full house"),
    ("5c 5d", "5s 5h Jd", "four of a kind"),
    ("Ah 2h", "3h 4h 5h", "straight flush"),  # the steel wheel
    ("9h 8h", "Th 7c 2h", "flush draw"),  # also open-ended: the flush draw comes first
    ("Ah 2c", "Th 7h 3h Kc", "flush draw"),  # one hole card of the suit, on the turn
    ("9c 8d", "Th 7c 2h", "straight draw"),  # open-ended: a six or a jack
    ("9c 7d", "Jh 5c 8s", "straight draw"),  # double gutshot: a six or a ten
    ("Kc Qd", "Jh Ts 2c 4d", "straight draw"),  # an ace or a nine, on the turn
])
def test_every_postflop_category(hole: str, board: str, expected: str) -> None:
    assert _name(hole, board) == expected


@pytest.mark.parametrize(("hole", "board", "expected"), [
    # Board pairs: the board's pair is everybody's.
    ("Ac Kd", "8h 8s 3c", "pair"),
    ("Ac 8d", "8h 8s 3c", "three of a kind"),
    ("3d 3h", "8h 8s 3c", "full house"),
    ("Ah Kh", "8h 8s 3h", "pair"),  # four hearts, but a made pair is not refined to a draw
    ("Ac Kd", "8h 8s 3c 3d", "two pair"),
    # Wheels: the ace plays low.
    ("5c 9d", "Ah 2s 3c 4d", "straight"),
    ("Ac 2d", "3h 4s 9c", "high card"),  # A-2-3-4 is one-ended: only a five makes it
    ("Ac Kd", "Qh Js 2c", "high card"),  # A-K-Q-J is one-ended too: only a ten
    ("6c 7d", "Ah 2s 3c 4d", "high card"),  # only a five (two straights, one rank): a gutshot
    # A straight or a draw that the board makes alone is nobody's draw.
    ("Ac Kd", "5h 6s 7c 8d", "high card"),
    ("Ac Kd", "5h 6s 7c 8d 9h", "straight"),
    # Four of a suit on the board but none in the hand; the river has no draws.
    ("Ac 2d", "Th 7h 3h Kh", "high card"),
    ("9h 8h", "Th 7c 2h Kc 3d", "high card"),
    ("9c 8d", "Jh 7c 2s", "high card"),  # a lone gutshot (the ten)
])
def test_edge_cases(hole: str, board: str, expected: str) -> None:
    assert _name(hole, board) == expected


def test_preflop_table_counts() -> None:
    # 78 pairs (30 of them TT+), 10 unpaired rank pairs of big cards x 16 suit pairs.
    assert np.bincount(category_table(())).tolist() == [1326 - 78 - 160, 160, 48, 30]


@pytest.mark.parametrize("size", [3, 4, 5])
def test_kernel_equals_the_scalar_rule_on_random_boards(size: int) -> None:
    rng = np.random.default_rng(24 + size)
    for _ in range(12):
        board = [int(c) for c in rng.choice(52, size, replace=False)]
        table = category_table(board)
        for i, (a, b) in enumerate(COMBO_CARDS.tolist()):
            expected = -1 if a in board or b in board else hand_category((a, b), board)
            assert table[i] == expected, (a, b, board)


def test_draw_boards_use_both_draw_classes() -> None:
    # A suited connected flop has flush and straight draws among the high-card hands.
    table = category_table(parse_cards("9h 8h 2c"))
    counts = np.bincount(table[table >= 0], minlength=11)
    assert counts[9] > 0 and counts[10] > 0 and counts[0] > 0


@pytest.mark.parametrize(("hole", "board"), [
    ("As", "2c 3d 4h"), ("As Kd", "2c 3d"), ("As Kd", "As 3d 4h"),
])
def test_bad_hands_are_refused(hole: str, board: str) -> None:
    with pytest.raises(CardError, match="expected two hole cards"):
        hand_category(parse_cards(hole), parse_cards(board))


def test_bad_board_is_refused() -> None:
    with pytest.raises(CardError, match="expected 0, 3, 4 or 5 distinct cards"):
        category_table([1, 2])
