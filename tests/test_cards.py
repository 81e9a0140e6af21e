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


def _fresh(code: str) -> None:
    """Run ``code`` in a new interpreter (this one has numpy loaded already)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    src = Path(__file__).resolve().parents[1] / "src"
    env = dict(os.environ, PYTHONPATH=str(src))
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)


def test_cards_without_the_tables_do_not_import_numpy() -> None:
    # The combo tables are built on first use; parsing and printing cards (all that the
    # engine and the hand-history import need) must not pay numpy's start-up.
    _fresh(
        "import sys\n"
        "import checkraise.cards as c\n"
        "assert c.parse_cards('As kd') == [51, 45] and c.format_cards([51, 45]) == 'As Kd'\n"
        "assert c.combo_index(51, 50) == 1325 and c.card_mask([0, 3]) == 9\n"
        "assert 'numpy' not in sys.modules, 'numpy imported by checkraise.cards'\n"
        "assert c.COMBO_CARDS[1325].tolist() == [50, 51]\n"
        "assert 'numpy' in sys.modules and 'COMBO_MASKS' in vars(c)\n"
    )


def test_tables_match_a_naive_enumeration() -> None:
    import checkraise.cards as cards

    pairs = [(lo, hi) for hi in range(52) for lo in range(hi)]
    assert COMBO_CARDS.tolist() == [list(p) for p in pairs]
    assert cards.COMBO_MASKS.tolist() == [(1 << lo) | (1 << hi) for lo, hi in pairs]
    assert not COMBO_CARDS.flags.writeable and not cards.COMBO_MASKS.flags.writeable
    assert not COMBO_CLASS.flags.writeable
    for i, (lo, hi) in enumerate(pairs):
        ranks = sorted(("23456789TJQKA"[lo >> 2], "23456789TJQKA"[hi >> 2]),
                       key="23456789TJQKA".index, reverse=True)
        name = ranks[0] + ranks[1]
        if ranks[0] != ranks[1]:
            name += "s" if lo % 4 == hi % 4 else "o"
        assert CLASS_NAMES[COMBO_CLASS[i]] == name
    assert set(dir(cards)) >= {"COMBO_CARDS", "COMBO_MASKS", "CLASS_NAMES", "COMBO_CLASS"}
    with pytest.raises(AttributeError, match="COMBO_NOTHING"):
        _ = cards.COMBO_NOTHING


def test_numpy_integers_are_cards_and_numpy_bools_are_not() -> None:
    assert parse_cards([np.int64(51), np.uint8(0), 7]) == [51, 0, 7]
    with pytest.raises(ValueError, match="True"):
        parse_cards([np.True_])
