"""Exact hand-strength features against slow twins that enumerate every opponent and runout."""

from __future__ import annotations

import csv
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from checkraise.abstraction._ehs_kernels import (
    FLOP_DEN,
    RIVER_DEN,
    TURN_DEN,
    canonical_boards,
    river_board_values,
)
from checkraise.abstraction._iso_kernels import index_cards, unindex_cards
from checkraise.abstraction._table_kernels import fill_flop, fill_river, fill_turn
from checkraise.abstraction.features import (
    FLOP_DEN2,
    TURN_DEN2,
    hand_features,
    river_ehs,
)
from checkraise.cards import parse_cards
from checkraise.errors import CheckraiseError
from tests.naive import SUIT_PERMUTATIONS, naive_next_street, naive_river_ehs

BINS = 8
RIVER_SIZE, TURN_SIZE = 123_156_254, 13_960_050


def _deal(rng: np.random.Generator, n_board: int) -> tuple[list[int], list[int]]:
    cards = [int(c) for c in rng.choice(52, 2 + n_board, replace=False)]
    return cards[:2], cards[2:]


def test_known_river_values() -> None:
    # Quads of aces with the case ace: nothing beats it on this board.
    assert river_ehs(parse_cards("As Ah"), parse_cards("Ad Ac 2c 7d 9h")) == 1.0
    # Royal flush on the board: every hand ties.
    assert river_ehs(parse_cards("2c 3d"), parse_cards("As Ks Qs Js Ts")) == 0.5


def test_canonical_board_counts() -> None:
    # Boards up to suit permutation: 1,755 flops, 16,432 turns, 134,459 rivers (Waugh 2013
    # lists the same figures as the one-round isomorphism classes of 3, 4 and 5 cards).
    assert [len(canonical_boards(k)) for k in (3, 4, 5)] == [1_755, 16_432, 134_459]


def test_canonical_flops_cover_each_board_once() -> None:
    reps = {tuple(int(c) for c in b) for b in canonical_boards(3)}
    seen: dict[frozenset[int], tuple[int, ...]] = {}
    for rep in reps:
        for perm in SUIT_PERMUTATIONS:
            image = frozenset(4 * (c >> 2) + perm[c & 3] for c in rep)
            assert seen.setdefault(image, rep) == rep
    assert len(seen) == comb(52, 3)


def test_river_board_sweep_matches_naive() -> None:
    rng = np.random.default_rng(11)
    h0 = np.empty(1081, dtype=np.uint8)
    h1 = np.empty(1081, dtype=np.uint8)
    vals = np.empty(1081, dtype=np.uint16)
    for _ in range(3):
        board = np.sort(rng.choice(52, 5, replace=False)).astype(np.uint8)
        assert river_board_values(board, h0, h1, vals) == 1081
        live = [c for c in range(52) if c not in board]
        assert sorted(zip(h0.tolist(), h1.tolist(), strict=True)) == sorted(combinations(live, 2))
        for p in rng.choice(1081, 25, replace=False):
            want = naive_river_ehs([int(h0[p]), int(h1[p])], board.tolist())
            assert Fraction(int(vals[p]), RIVER_DEN) == want


def test_river_ehs_matches_naive() -> None:
    rng = np.random.default_rng(12)
    for _ in range(30):
        hole, board = _deal(rng, 5)
        assert river_ehs(hole, board) == float(naive_river_ehs(hole, board))


def test_turn_features_match_naive() -> None:
    rng = np.random.default_rng(13)
    for _ in range(3):
        hole, board = _deal(rng, 4)
        ehs, ehs2, hist = naive_next_street(hole, board, BINS)
        got = hand_features(hole, board, BINS)
        assert got["ehs"] == float(ehs)
        assert got["ehs2"] == float(ehs2)
        assert got["hist"] == hist


@pytest.mark.slow
def test_flop_features_match_naive() -> None:
    rng = np.random.default_rng(14)
    hole, board = _deal(rng, 3)
    ehs, ehs2, hist = naive_next_street(hole, board, BINS)
    got = hand_features(hole, board, BINS)
    assert got["ehs"] == pytest.approx(float(ehs), abs=1e-15)
    assert got["ehs2"] == pytest.approx(float(ehs2), abs=1e-15)
    assert got["hist"] == hist


def test_fill_river_writes_exact_values_at_class_index() -> None:
    boards = canonical_boards(5)
    rng = np.random.default_rng(15)
    pick = int(rng.integers(len(boards) - 4))
    river = np.zeros(RIVER_SIZE, dtype=np.uint16)  # untouched pages cost no memory
    fill_river(boards, pick, pick + 3, river)
    for b in boards[pick : pick + 3]:
        board = b.tolist()
        live = [c for c in range(52) if c not in board]
        for i in rng.choice(len(live), 8, replace=False):
            hole = sorted([live[i], live[(i + 7) % len(live)]])
            # any suit image of the hand reads the same entry
            perm = SUIT_PERMUTATIONS[int(rng.integers(24))]
            image = [4 * (c >> 2) + perm[c & 3] for c in [*hole, *board]]
            idx = index_cards(3, np.array(image, dtype=np.uint8))
            assert Fraction(int(river[idx]), RIVER_DEN) == naive_river_ehs(hole, board)


def test_fill_turn_from_river_table_matches_naive() -> None:
    rng = np.random.default_rng(16)
    river = np.zeros(RIVER_SIZE, dtype=np.uint16)
    s = np.zeros(TURN_SIZE, dtype=np.uint32)
    s2 = np.zeros(TURN_SIZE, dtype=np.uint32)
    hist = np.zeros((TURN_SIZE, BINS), dtype=np.uint8)
    for t in rng.choice(TURN_SIZE, 2, replace=False):
        cards = np.empty(6, dtype=np.uint8)
        unindex_cards(2, int(t), cards)
        hole, board = cards[:2].tolist(), cards[2:].tolist()
        # the river table holds naive values at exactly the entries this class reads
        for r in range(52):
            if r in cards:
                continue
            v = naive_river_ehs(hole, [*board, r]) * RIVER_DEN
            river[index_cards(3, np.array([*hole, *board, r], dtype=np.uint8))] = int(v)
        fill_turn(river, int(t), int(t) + 1, s, s2, hist)
        ehs, ehs2, want_hist = naive_next_street(hole, board, BINS)
        assert Fraction(int(s[t]), TURN_DEN) == ehs
        assert Fraction(int(s2[t]), TURN_DEN2) == ehs2
        assert hist[t].tolist() == want_hist


@pytest.mark.slow
def test_fill_flop_from_turn_table_matches_naive() -> None:
    rng = np.random.default_rng(17)
    flop_size = 1_286_792
    turn_s = np.zeros(TURN_SIZE, dtype=np.uint32)
    turn_s2 = np.zeros(TURN_SIZE, dtype=np.uint32)
    s = np.zeros(flop_size, dtype=np.uint32)
    s2 = np.zeros(flop_size, dtype=np.uint64)
    hist = np.zeros((flop_size, BINS), dtype=np.uint8)
    f = int(rng.integers(flop_size))
    cards = np.empty(5, dtype=np.uint8)
    unindex_cards(1, f, cards)
    hole, board = cards[:2].tolist(), cards[2:].tolist()
    # naive_next_street on the flop is the mean of its turn results; taken apart here so
    # that the turn table can be filled from the same naive values
    want_hist = [0] * BINS
    ehs_sum = ehs2_sum = Fraction(0)
    for t in range(52):
        if t in cards:
            continue
        ehs, ehs2, _ = naive_next_street(hole, [*board, t], 2)
        idx = index_cards(2, np.array([*hole, *board, t], dtype=np.uint8))
        turn_s[idx] = int(ehs * TURN_DEN)
        turn_s2[idx] = int(ehs2 * TURN_DEN2)
        want_hist[min(int(ehs * BINS), BINS - 1)] += 1
        ehs_sum += ehs
        ehs2_sum += ehs2
    fill_flop(turn_s, turn_s2, f, f + 1, s, s2, hist)
    assert Fraction(int(s[f]), FLOP_DEN) == ehs_sum / 47
    assert Fraction(int(s2[f]), FLOP_DEN2) == ehs2_sum / 47
    assert hist[f].tolist() == want_hist


def test_default_preflop_ehs_equals_exact_preflop_table() -> None:
    # End to end: river sweep -> turn -> flop -> preflop sums must reproduce the exact
    # all-board equities against one random hand that the equity module computed
    # independently (data/preflop_equity.csv, 6 decimals).
    from importlib import resources

    from checkraise.abstraction import hand_from_index
    from checkraise.abstraction.abstraction import Abstraction
    from checkraise.cards import _class_name

    text = resources.files("checkraise.data").joinpath("preflop_equity.csv").read_text()
    rows = {r[0]: float(r[4]) for r in csv.reader(ln for ln in text.splitlines() if ln[:1] != "#")
            if r[0] != "hand"}  # fmt: skip
    ehs = Abstraction.load("default").arrays["preflop_ehs"]
    for i in range(169):
        (a, b), _ = hand_from_index(0, i)
        assert ehs[i] == pytest.approx(rows[_class_name(a, b)], abs=6e-7)


def test_bad_hands_raise() -> None:
    with pytest.raises(CheckraiseError, match="distinct"):
        river_ehs([1, 1], [2, 3, 4, 5, 6])
    with pytest.raises(CheckraiseError, match="0, 3, 4 or 5"):
        hand_features([1, 2], [3, 4])
