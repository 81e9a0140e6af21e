from __future__ import annotations

import numpy as np
import pytest

from checkraise.cards import (
    CLASS_NAMES,
    COMBO_CARDS,
    COMBO_CLASS,
    class_combos,
    combo_index,
    format_card,
    parse_card,
    parse_cards,
)


def test_card_encoding_matches_architecture() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("As") == 51
    assert parse_card("td") == 4 * 8 + 1
    assert all(parse_card(format_card(c)) == c for c in range(52))


@pytest.mark.parametrize("text", ["AsKd", "As Kd", "as kd", "As,Kd"])
def test_parse_forms(text: str) -> None:
    assert parse_cards(text) == [51, 4 * 11 + 1]


def test_parse_list_and_errors() -> None:
    assert parse_cards(["As", "Kd"]) == [51, 45]
    with pytest.raises(ValueError, match="Ax"):
        parse_cards("AsAx")
    with pytest.raises(ValueError, match="twice"):
        parse_cards("AsAs")
    with pytest.raises(ValueError, match="1s"):
        parse_card("1s")


def test_combos_are_unique_and_indexed() -> None:
    assert COMBO_CARDS.shape == (1326, 2)
    seen = {(int(a), int(b)) for a, b in COMBO_CARDS}
    assert len(seen) == 1326
    for i, (a, b) in enumerate(COMBO_CARDS):
        assert a < b
        assert combo_index(int(a), int(b)) == i == combo_index(int(b), int(a))


def test_preflop_classes() -> None:
    assert len(CLASS_NAMES) == 169
    counts = np.bincount(COMBO_CLASS, minlength=169)
    for name, n in zip(CLASS_NAMES, counts, strict=True):
        expected = 6 if len(name) == 2 else 4 if name.endswith("s") else 12
        assert n == expected, name
    assert len(class_combos("AKs")) == 4
    assert class_combos("KAo") == class_combos("AKo")
    with pytest.raises(ValueError, match="AKx"):
        class_combos("AKx")


@pytest.mark.parametrize(
    ("bad", "named"),
    [
        (lambda: parse_card("Ax"), "'Ax'"),
        (lambda: parse_cards("AsK"), "'AsK'"),
        (lambda: parse_cards([52]), "52"),
        (lambda: parse_cards("AsAs"), "As given twice"),
        (lambda: parse_cards([51, 0, 51]), "card As given twice in 'As 2c As'"),
        (lambda: format_card(60), "60"),
        (lambda: class_combos("AKx"), "'AKx'"),
    ],
)
def test_bad_cards_raise_the_projects_error(bad: object, named: str) -> None:
    # A CheckraiseError (not a bare ValueError), so the CLI can tell bad input from a bug.
    from checkraise.cards import CardError
    from checkraise.errors import CheckraiseError

    with pytest.raises(CardError, match=named) as info:
        bad()  # type: ignore[operator]
    assert isinstance(info.value, CheckraiseError)
