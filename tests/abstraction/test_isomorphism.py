"""The suit-isomorphism indexer against published class counts and a naive canonical form."""

from __future__ import annotations

import doctest
import itertools

import numba
import numpy as np
import numpy.typing as npt
import pytest

from checkraise.abstraction import (
    BOARD_CARDS,
    HandIndexError,
    IndexRangeError,
    StreetError,
    hand_from_index,
    hand_index,
    index_batch,
    index_size,
    isomorphism,
    unindex_batch,
)
from checkraise.abstraction._iso_kernels import index_cards, unindex_cards
from checkraise.abstraction.isomorphism import class_size, class_size_batch
from checkraise.cards import COMBO_CARDS, COMBO_CLASS, parse_cards
from tests.naive import naive_iso_canon, naive_iso_orbit_size

U8 = npt.NDArray[np.uint8]
# Published numbers of suit-isomorphism classes (hole cards and board each a set).
PUBLISHED = {0: 169, 1: 1_286_792, 2: 13_960_050, 3: 123_156_254}


def random_deals(street: int, n: int, seed: int) -> U8:
    """``n`` uniformly random deals (hole cards then board) of ``street``."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52))
    return np.argsort(keys, axis=1)[:, : 2 + BOARD_CARDS[street]].astype(np.uint8)


def permute_suits(deals: U8, perms: npt.NDArray[np.int64]) -> U8:
    """Each row's suits relabelled by its own permutation (row of ``perms``)."""
    suits = deals & 3
    new_suits = np.take_along_axis(perms, suits.astype(np.int64), axis=1)
    return ((deals & ~np.uint8(3)) | new_suits.astype(np.uint8)).astype(np.uint8)


def test_index_sizes_are_the_published_counts() -> None:
    assert {s: index_size(s) for s in range(4)} == PUBLISHED


def test_preflop_groups_the_1326_combos_into_the_169_classes() -> None:
    indices = index_batch(0, COMBO_CARDS)
    assert sorted(set(indices.tolist())) == list(range(169))
    # The project's class table (pairs, suited, offsuit by rank) is the oracle.
    index_of_class: dict[int, set[int]] = {}
    for cls, idx in zip(COMBO_CLASS.tolist(), indices.tolist(), strict=True):
        index_of_class.setdefault(cls, set()).add(idx)
    assert all(len(v) == 1 for v in index_of_class.values())
    assert len({next(iter(v)) for v in index_of_class.values()}) == 169


@numba.njit(cache=False)
def _flop_census(
    perm_a: npt.NDArray[np.int64], perm_b: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int32], int, int]:
    """Class hits over every flop deal, and deals whose index changes under perm_a or perm_b."""
    size = 1_286_792
    hits = np.zeros(size, dtype=np.int32)
    cards = np.empty(5, dtype=np.uint8)
    pa = np.empty(5, dtype=np.uint8)
    pb = np.empty(5, dtype=np.uint8)
    changed = 0
    out_of_range = 0
    for h1 in range(52):
        for h0 in range(h1):
            hole = (1 << h0) | (1 << h1)
            for b2 in range(52):
                for b1 in range(b2):
                    for b0 in range(b1):
                        if hole & ((1 << b0) | (1 << b1) | (1 << b2)):
                            continue
                        cards[0] = h0
                        cards[1] = h1
                        cards[2] = b0
                        cards[3] = b1
                        cards[4] = b2
                        for i in range(5):
                            c = cards[i]
                            pa[i] = (c & 252) | perm_a[c & 3]
                            pb[i] = (c & 252) | perm_b[c & 3]
                        idx = index_cards(1, cards)
                        if idx < 0 or idx >= size:
                            out_of_range += 1
                            continue
                        hits[idx] += 1
                        if index_cards(1, pa) != idx or index_cards(1, pb) != idx:
                            changed += 1
    return hits, changed, out_of_range


@pytest.mark.slow
def test_every_flop_deal_is_indexed_and_the_classes_are_the_suit_orbits() -> None:
    # A transposition and a 4-cycle generate all 24 suit permutations: invariance under
    # both on every deal is invariance under all; with exactly as many distinct indices
    # as the published number of orbits, index classes and suit orbits coincide.
    hits, changed, out_of_range = _flop_census(
        np.array([1, 0, 2, 3], dtype=np.int64), np.array([1, 2, 3, 0], dtype=np.int64)
    )
    assert out_of_range == 0
    assert changed == 0
    assert int(hits.sum()) == 1326 * 19600
    assert int(np.count_nonzero(hits)) == PUBLISHED[1]
    # Each class is hit once per distinct deal in its orbit (naive count on a sample),
    # which is what class_size computes, for every class.
    rng = np.random.default_rng(13)
    for idx in rng.integers(0, PUBLISHED[1], 300).tolist():
        hole, board = hand_from_index(1, idx)
        assert hits[idx] == naive_iso_orbit_size((*hole, *board)), idx
    np.testing.assert_array_equal(class_size_batch(1, np.arange(PUBLISHED[1])), hits)


@pytest.mark.parametrize("street", [0, 1])
def test_index_unindex_round_trip_exhaustive(street: int) -> None:
    indices = np.arange(index_size(street), dtype=np.int64)
    deals = unindex_batch(street, indices)
    np.testing.assert_array_equal(index_batch(street, deals), indices)
    # Canonical deals are valid: distinct cards, hole cards and board each ascending.
    assert (np.diff(np.sort(deals, axis=1), axis=1) > 0).all()
    assert (deals[:, 0] < deals[:, 1]).all()
    if street:
        assert (np.diff(deals[:, 2:], axis=1) > 0).all()


def test_index_unindex_round_trip_on_the_river() -> None:
    rng = np.random.default_rng(5)
    indices = np.concatenate(
        [
            np.arange(2000),
            np.arange(PUBLISHED[3] - 2000, PUBLISHED[3]),
            rng.integers(0, PUBLISHED[3], 1_000_000),
        ]
    )
    deals = unindex_batch(3, indices)
    np.testing.assert_array_equal(index_batch(3, deals), indices)
    assert (np.diff(np.sort(deals, axis=1), axis=1) > 0).all()


@pytest.mark.parametrize("street", [0, 1, 2, 3])
def test_cards_to_index_to_cards_gives_an_isomorphic_deal(street: int) -> None:
    deals = random_deals(street, 2000, seed=100 + street)
    canon = unindex_batch(street, index_batch(street, deals))
    for deal, back in zip(deals.tolist(), canon.tolist(), strict=True):
        assert naive_iso_canon(deal) == naive_iso_canon(back)


@pytest.mark.parametrize("street", [0, 1, 2, 3])
def test_suit_permutations_and_card_order_keep_the_index(street: int) -> None:
    n = 200_000
    deals = random_deals(street, n, seed=street)
    rng = np.random.default_rng(50 + street)
    perms = np.argsort(rng.random((n, 4)), axis=1)
    moved = permute_suits(deals, perms)
    # Shuffle within the hole cards and within the board: each is a set.
    hole = moved[:, :2][np.arange(n)[:, None], np.argsort(rng.random((n, 2)), axis=1)]
    width = BOARD_CARDS[street]
    board = moved[:, 2:][np.arange(n)[:, None], np.argsort(rng.random((n, width)), axis=1)]
    shuffled = np.ascontiguousarray(np.concatenate([hole, board], axis=1))
    np.testing.assert_array_equal(index_batch(street, deals), index_batch(street, shuffled))


def _near(deal: list[int], rng: np.random.Generator) -> list[int]:
    """A deal close to ``deal``: suits relabelled, then often one small change."""
    perm = rng.permutation(4)
    out = [4 * (c >> 2) + int(perm[c & 3]) for c in deal]
    kind = rng.integers(0, 4)
    i = int(rng.integers(0, len(out)))
    if kind == 1:  # one card to another suit of the same rank
        for s in rng.permutation(4).tolist():
            card = 4 * (out[i] >> 2) + s
            if card not in out:
                out[i] = card
                break
    elif kind == 2 and len(out) > 2:  # a hole card and a board card trade places
        j = int(rng.integers(2, len(out)))
        k = int(rng.integers(0, 2))
        out[j], out[k] = out[k], out[j]
    elif kind == 3:  # one card one rank up or down, same suit
        card = out[i] + 4 * int(rng.choice([-1, 1]))
        if 0 <= card < 52 and card not in out:
            out[i] = card
    return out


@pytest.mark.parametrize("street", [0, 1, 2, 3])
def test_same_index_exactly_when_the_naive_canonical_forms_agree(street: int) -> None:
    rng = np.random.default_rng(700 + street)
    deals = random_deals(street, 3000, seed=900 + street).tolist()
    pairs = [(d, _near(d, rng)) for d in deals]
    # Some pairs of unrelated random deals, too (mostly different classes).
    pairs += list(itertools.pairwise(deals[:500]))
    left = index_batch(street, np.array([a for a, _ in pairs], dtype=np.uint8))
    right = index_batch(street, np.array([b for _, b in pairs], dtype=np.uint8))
    same = 0
    for (a, b), ia, ib in zip(pairs, left.tolist(), right.tolist(), strict=True):
        iso = naive_iso_canon(a) == naive_iso_canon(b)
        assert (ia == ib) == iso, (a, b)
        same += iso
    assert 500 < same < len(pairs) - 500  # both outcomes well represented


@pytest.mark.parametrize("street", [0, 1, 2, 3])
def test_class_size_is_the_naive_orbit_size(street: int) -> None:
    rng = np.random.default_rng(40 + street)
    indices = rng.integers(0, PUBLISHED[street], 3000)
    sizes = class_size_batch(street, indices)
    for idx, size, deal in zip(
        indices.tolist(), sizes.tolist(), unindex_batch(street, indices).tolist(), strict=True
    ):
        assert size == naive_iso_orbit_size(deal) == class_size(street, idx)
    assert set(sizes.tolist()) <= {1, 2, 3, 4, 6, 8, 12, 24}  # divisors of 24


def test_preflop_and_turn_class_sizes_add_up_to_every_deal() -> None:
    assert int(class_size_batch(0, np.arange(169)).sum()) == 1326
    assert int(class_size_batch(2, np.arange(PUBLISHED[2])).sum()) == 1326 * 230_300


def test_scalar_api_agrees_with_the_batch_api_and_accepts_text() -> None:
    assert hand_index(1, "AsKs", "Qs7h2d") == hand_index(1, "AhKh", "Qh7c2s")
    assert hand_index(1, "AsKs", "Qs7h2d") != hand_index(1, "AsKs", "Qh7s2d")
    deal = parse_cards("Td9d 8d2c2h Jc 5s")
    assert hand_index(3, deal[:2], deal[2:]) == int(index_batch(3, np.array([deal]))[0])
    hole, board = hand_from_index(3, hand_index(3, deal[:2], deal[2:]))
    assert naive_iso_canon([*hole, *board]) == naive_iso_canon(deal)


@numba.njit(cache=False)
def _round_trip_in_numba(street: int, indices: npt.NDArray[np.int64]) -> int:
    out = np.empty(7, dtype=np.uint8)
    wrong = 0
    for i in range(indices.shape[0]):
        unindex_cards(street, indices[i], out)
        if index_cards(street, out) != indices[i]:
            wrong += 1
    return wrong


def test_kernels_are_callable_from_other_numba_code() -> None:
    rng = np.random.default_rng(3)
    for street in range(4):
        assert _round_trip_in_numba(street, rng.integers(0, PUBLISHED[street], 10_000)) == 0


def test_index_unindex_round_trip_on_every_seventh_turn_class() -> None:
    indices = np.concatenate(
        [np.arange(0, PUBLISHED[2], 7), np.arange(PUBLISHED[2] - 50, PUBLISHED[2])]
    )
    assert _round_trip_in_numba(2, indices) == 0


@pytest.mark.parametrize(
    ("call", "error", "named"),
    [
        (lambda: index_size(4), StreetError, "4"),
        (lambda: index_size(True), StreetError, "True"),
        (lambda: hand_index("flop", "AsKs", "2c3c4c"), StreetError, "'flop'"),  # type: ignore[arg-type]
        (lambda: hand_index(0, "AsXs"), HandIndexError, "AsXs"),
        (lambda: hand_index(0, "AsKsQs"), HandIndexError, "AsKsQs"),
        (lambda: hand_index(1, "AsKs", "2c3c"), HandIndexError, "2c3c"),
        (lambda: hand_index(1, "AsKs", "2c3cAs"), HandIndexError, "As"),
        (lambda: hand_index(0, [51, 52]), HandIndexError, "52"),
        (lambda: hand_from_index(1, 1_286_792), IndexRangeError, "1286792"),
        (lambda: hand_from_index(1, -1), IndexRangeError, "-1"),
        (lambda: index_batch(1, np.zeros((3, 4), np.uint8)), HandIndexError, "(3, 4)"),
        (lambda: index_batch(0, np.array([[1, 2], [3, 60]])), HandIndexError, "row 1"),
        (lambda: index_batch(1, np.array([[1, 2, 3, 4, 1]])), HandIndexError, "row 0"),
        (lambda: index_batch(0, np.array([[1, 2], [3, 200]], np.uint8)), HandIndexError, "row 1"),
        (lambda: index_batch(0, np.array([[1, 2], [7, 7]], np.uint8)), HandIndexError, "[7, 7]"),
        (lambda: index_batch(0, np.array([[1.0, 2.0]])), HandIndexError, "float64"),
        (lambda: unindex_batch(0, [5, 169]), IndexRangeError, "169"),
        (lambda: unindex_batch(2, [[1]]), IndexRangeError, "(1, 1)"),
        (lambda: class_size(3, 123_156_254), IndexRangeError, "123156254"),
        (lambda: class_size_batch(5, [0]), StreetError, "5"),
    ],
)
def test_bad_input_raises_a_specific_error_naming_the_value(
    call: object, error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=None) as info:
        call()  # type: ignore[operator]
    assert named in str(info.value)


def test_empty_batches() -> None:
    assert index_batch(2, np.zeros((0, 6), np.uint8)).shape == (0,)
    assert unindex_batch(3, np.zeros(0, np.int64)).shape == (0, 7)


def test_module_examples() -> None:
    result = doctest.testmod(isomorphism, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
