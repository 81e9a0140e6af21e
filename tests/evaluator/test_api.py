"""The public evaluator API: input forms, errors, categories, best five."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from tests.naive import naive_rank, naive_rank5

from checkraise.cards import format_cards, parse_cards
from checkraise.evaluator import (
    CATEGORY_NAMES,
    best_five,
    categories,
    category,
    evaluate,
    evaluate_batch,
    evaluate_ints,
)


def test_input_forms_agree() -> None:
    text = "As Kd 7h 7c 2s 9d Td"
    ints = parse_cards(text)
    expected = evaluate(ints)
    assert evaluate(text) == evaluate(text.replace(" ", "")) == expected
    assert evaluate(text.split()) == evaluate(tuple(ints)) == expected
    assert evaluate(np.array(ints, dtype=np.uint8)) == expected
    assert evaluate_ints(np.array(ints, dtype=np.int64)) == expected
    assert evaluate_batch(np.array([ints])).tolist() == [expected]


@pytest.mark.parametrize(
    ("cards", "named"),
    [
        ("As Kd 7h 7c 2x", "2x"),
        ("As Kd 7h 7c", "4"),
        ("As Kd 7h 7c 2s 3s 4s 5s", "8"),
        ("As Kd 7h 7c As", "As"),
        ([51, 47, 43, 39, 52], "52"),
        ([51, 47, 43, 39, -1], "-1"),
        ([51, 47, 43, 39, 39], "39"),
        ((51, 47, 43, 39, 1.5), "1.5"),
    ],
)
def test_bad_input_names_the_value(cards: object, named: str) -> None:
    with pytest.raises(ValueError, match=named.replace(".", r"\.")):
        evaluate(cards)  # type: ignore[arg-type]


def test_batch_bad_input() -> None:
    good = [51, 47, 43, 39, 35, 0, 1]
    with pytest.raises(ValueError, match="row 1"):
        evaluate_batch(np.array([good, [0, 1, 2, 3, 4, 5, 60]], dtype=np.uint8))
    with pytest.raises(ValueError, match="row 2"):
        evaluate_batch(np.array([good, good, [0, 1, 2, 3, 4, 5, 5]], dtype=np.uint8))
    with pytest.raises(ValueError, match="row 0"):
        evaluate_batch(np.array([[0, 1, 2, 3, -4]]))
    with pytest.raises(ValueError, match="row 1"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 255]], dtype=np.uint8))
    with pytest.raises(ValueError, match="row 1"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4, 9], [9, 1, 2, 3, 4, 9]], dtype=np.uint8))
    with pytest.raises(ValueError, match="shape"):
        evaluate_batch(np.zeros((3, 4), dtype=np.uint8))
    with pytest.raises(ValueError, match="dtype"):
        evaluate_batch(np.zeros((3, 5), dtype=np.float64))
    assert evaluate_batch(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)
    # A non-contiguous view (hole cards column-sliced) is accepted.
    hands = np.array([[*good, 2, 3]], dtype=np.uint8)[:, 2:]
    assert evaluate_batch(hands).tolist() == [evaluate(hands[0].tolist())]


def test_known_hands() -> None:
    assert evaluate("As Ks Qs Js Ts") == 7462
    assert evaluate("7c 5d 4h 3s 2c") == 1
    assert evaluate("5s 4s 3s 2s As") == 7453  # the steel wheel is the lowest straight flush
    assert evaluate("Ac Ad Ah As Kc Qd 2h") == evaluate("Ac Ad Ah As Kd")
    # Ties across hand sizes: the sixth and seventh card don't play.
    assert evaluate("Ah Kh Qd Jc 9s") == evaluate("Ah Kh Qd Jc 9s 2c 3d")
    assert CATEGORY_NAMES[category(evaluate("Ah Ad Kc Kd Qh Qd 2c"))] == "two pair"


def test_category_and_categories() -> None:
    ranks = np.arange(1, 7463)
    cats = categories(ranks)
    assert cats.tolist() == [category(int(r)) for r in ranks]
    assert np.bincount(cats).tolist() == [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]
    for bad in (0, 7463):
        with pytest.raises(ValueError, match=str(bad)):
            category(bad)
        with pytest.raises(ValueError, match=str(bad)):
            categories([5, bad])


def test_best_five_reaches_the_rank() -> None:
    rng = np.random.default_rng(3)
    for _ in range(300):
        hand = rng.permutation(52)[: int(rng.integers(5, 8))].tolist()
        five = best_five(hand)
        assert len(five) == 5 and set(five) <= set(hand)
        assert naive_rank5(list(five)) == naive_rank(hand)
        assert evaluate(list(five)) == evaluate(hand)


def test_best_five_orders_groups_first() -> None:
    assert format_cards(best_five("2c Kd 7s Kc 7h 7c 3s")) == "7s 7h 7c Kd Kc"
    assert format_cards(best_five("Ah 2c 3d 4s 5h Kd Qc")) == "Ah 5h 4s 3d 2c"


def test_every_five_of_seven_is_no_better() -> None:
    hand = parse_cards("Ah Kh Qh Jh 9h 9c 9d")
    best = evaluate(hand)
    assert max(evaluate(list(f)) for f in combinations(hand, 5)) == best
