from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkraise.cards import (
    CLASS_NAMES,
    COMBO_CARDS,
    NUM_COMBOS,
    class_combos,
    combo_index,
    parse_cards,
)
from checkraise.ranges import Range, RangeParseError, as_range, cards_mask


def classes(*names: str) -> set[int]:
    return {c for name in names for c in class_combos(name)}


def combos(r: Range) -> set[int]:
    return {int(i) for i in r.combos()}


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("AA", ["AA"]),
        ("AKs", ["AKs"]),
        ("AKo", ["AKo"]),
        ("AK", ["AKs", "AKo"]),
        ("KA", ["AKs", "AKo"]),
        ("QQ+", ["QQ", "KK", "AA"]),
        ("22+", [r * 2 for r in "23456789TJQKA"]),
        ("A2s+", [f"A{k}s" for k in "23456789TJQK"]),
        ("KTo+", ["KTo", "KJo", "KQo"]),
        ("AT+", ["ATs", "AJs", "AQs", "AKs", "ATo", "AJo", "AQo", "AKo"]),
        ("T9s-65s", ["T9s", "98s", "87s", "76s", "65s"]),
        ("65s-T9s", ["T9s", "98s", "87s", "76s", "65s"]),
        ("J9o-75o", ["J9o", "T8o", "97o", "86o", "75o"]),
        ("A5s-A2s", ["A5s", "A4s", "A3s", "A2s"]),
        ("KQ-KJ", ["KQs", "KJs", "KQo", "KJo"]),
        ("QQ-99", ["QQ", "JJ", "TT", "99"]),
        ("99-QQ", ["QQ", "JJ", "TT", "99"]),
        ("T9s+", ["T9s"]),
    ],
)
def test_notation_forms(text: str, names: list[str]) -> None:
    assert combos(Range(text)) == classes(*names)
    assert np.all(Range(text).weights[sorted(classes(*names))] == 1.0)


def test_specific_combos_and_full_range() -> None:
    r = Range("AhKh, 2c2d")
    assert combos(r) == {combo_index(*parse_cards("AhKh")), combo_index(*parse_cards("2c2d"))}
    assert Range("kHaH") == Range("AhKh")
    for word in ("random", "any", "RANDOM", " any "):
        assert len(Range(word)) == NUM_COMBOS
    assert Range("random").percent == pytest.approx(100.0)
    assert Range("") .is_empty() and len(Range(" , ")) == 0


def test_weights_whitespace_and_overrides() -> None:
    r = Range(" QQ+ , AKs : 0.5,  T9s-98s:0.25 ")
    assert r.weights[class_combos("AKs")].tolist() == [0.5] * 4
    assert r.weights[class_combos("98s")].tolist() == [0.25] * 4
    assert r.weighted_combos == pytest.approx(18 + 2 + 2)
    assert r.percent == pytest.approx(100 * 22 / 1326)
    # Later tokens overwrite earlier ones, so a weight-0 token removes combos.
    assert Range("QQ+,KK:0") == Range("AA,QQ")
    assert Range("AK:0.5,AKs") == Range("AKs,AKo:0.5")


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("Ax", "Ax", 0),
        ("QQ+, AKx", "AKx", 5),
        ("AA,QQ-", "QQ-", 3),
        ("KK,  AhAh", "AhAh", 5),
        ("AKs:1.5", "AKs:1.5", 0),
        ("AA, KK:-0.1", "KK:-0.1", 4),
        ("AA,KK:nan", "KK:nan", 3),
        ("AKs:half", "AKs:half", 0),
        ("QQs", "QQs", 0),
        ("AKs-QJo", "AKs-QJo", 0),
        ("AK-QQ", "AK-QQ", 0),
        ("AKs-QTs", "AKs-QTs", 0),
        ("1A", "1A", 0),
    ],
)
def test_errors_quote_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(RangeParseError) as info:
        Range(text)
    assert info.value.token == token
    assert info.value.position == position
    assert text[position:].startswith(token)
    assert repr(token) in str(info.value) and f"position {position}" in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "text",
    [
        "QQ+,AKs",
        "AT+,A2s+",
        "A2s+,KTs+,T9s-54s",
        "22+,A2+,K2s+,Q9o+",
        "KQs-T9s",
        "KK-QQ,AKs:0.5,7h2c:0.25",
        "random:0.5",
        "AA,KK:0.75,AQs+:0.5",
    ],
)
def test_canonical_strings_are_fixed_points(text: str) -> None:
    assert str(Range(text)) == text


def test_printing_merges_and_shortens() -> None:
    assert str(Range("AA,KK,QQ")) == "QQ+"
    assert str(Range("AKs,AKo")) == "AK"
    assert str(Range("A2s+,ATo+")) == "AT+,A2s+"
    assert str(Range("T9s,98s,87s")) == "T9s-87s"
    assert str(Range("AcKc,AdKd,AhKh,AsKs")) == "AKs"


def test_remove_cards_mask_and_strings() -> None:
    r = Range("AA,AKs")
    after = r.remove_cards("As")
    assert len(after) == 3 + 3
    assert after == r.remove_cards(["As"]) == r.remove_cards(cards_mask("As"))
    assert after == r.remove_cards([51])
    assert r.remove_cards("AsAh").num_combos == 1 + 2
    assert r.remove_cards(None) == r
    board = parse_cards("Td9d6h")
    wide = Range("random").remove_cards(board)
    assert len(wide) == 49 * 48 // 2
    for i in wide.combos():
        assert not set(COMBO_CARDS[i].tolist()) & set(board)


def test_from_array_validation_equality_and_hash() -> None:
    w = np.zeros(NUM_COMBOS)
    w[:10] = 0.5
    r = Range.from_array(w)
    w[0] = 1.0
    assert r.weights[0] == 0.5  # copied
    with pytest.raises(ValueError):
        r.weights[0] = 1.0  # type: ignore[index]
    assert r == Range.from_array(r.weights) and hash(r) == hash(Range.from_array(r.weights))
    assert r != Range("AA")
    with pytest.raises(ValueError, match="shape"):
        Range.from_array(np.zeros(10))
    with pytest.raises(ValueError, match="outside"):
        Range.from_array(np.full(NUM_COMBOS, 1.5))
    assert Range.full().is_uniform() and not Range("AA").is_uniform()


def test_iteration_and_as_range() -> None:
    r = Range("AA:0.5")
    assert [c for c, _ in r] == class_combos("AA")
    assert all(wt == 0.5 for _, wt in r)
    assert as_range(None) == Range.full() == as_range("unknown")
    assert as_range("AsKs") == Range("AsKs") == as_range([51, 47])
    assert as_range(r) is r
    with pytest.raises(ValueError):
        as_range([1, 2, 3])


weights_st = st.sampled_from([1.0, 0.5, 0.25, 1 / 3, 0.1, 0.75, 0.999])


@settings(max_examples=150, deadline=None)
@given(
    class_weights=st.dictionaries(st.integers(0, len(CLASS_NAMES) - 1), weights_st),
    loose=st.dictionaries(
        st.integers(0, NUM_COMBOS - 1), st.floats(0.0, 1.0, allow_subnormal=False)
    ),
)
def test_round_trip_random_ranges(class_weights: dict[int, float], loose: dict[int, float]) -> None:
    w = np.zeros(NUM_COMBOS)
    for k, wt in class_weights.items():
        w[class_combos(CLASS_NAMES[k])] = wt
    for i, wt in loose.items():
        w[i] = wt
    r = Range.from_array(w)
    text = str(r)
    assert Range(text) == r, text
    assert len(r) == int(np.count_nonzero(w))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, len(CLASS_NAMES) - 1), max_size=169))
def test_round_trip_class_sets_never_longer_than_listing(ks: list[int]) -> None:
    names = sorted({CLASS_NAMES[k] for k in ks})
    r = Range(",".join(names))
    assert Range(str(r)) == r
    assert len(str(r)) <= len(",".join(names))


def test_bad_range_input_raises_the_projects_error() -> None:
    from checkraise.errors import CheckraiseError
    from checkraise.ranges import RangeError

    for bad, named in (
        (lambda: Range.from_array(np.ones(5)), r"\(5,\)"),
        (lambda: Range.from_array(np.full(1326, 2.0)), "2.0"),
        (lambda: cards_mask(1 << 60), str(1 << 60)),
        (lambda: as_range([51]), "got 1"),
        (lambda: Range("QQ+,AKx"), "AKx"),
    ):
        with pytest.raises(RangeError, match=named) as info:
            bad()
        assert isinstance(info.value, CheckraiseError)
