"""Hand histories to decisions: which hands are skipped and why, and chunks built piecewise."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from tests.shared_data import NL2_GAME, NL2_LOG_HEAD

from checkraise.analysis.opponent_data import decisions_from_hands
from checkraise.analysis.opponent_hands import SKIP_REASONS, build_chunk, skip_reason
from checkraise.errors import FormatError
from checkraise.histories.acpc_log import parse_log_file
from checkraise.histories.pokerstars import EXAMPLE, parse_text
from checkraise.histories.record import HandRecord
from checkraise.protocol.gamedef import load_gamedef


@pytest.fixture(scope="module")
def hands() -> list[HandRecord]:
    return parse_log_file(NL2_LOG_HEAD, load_gamedef(NL2_GAME))


def _unplayable(hands: list[HandRecord]) -> list[HandRecord]:
    """One hand per skip reason, in the order of SKIP_REASONS."""
    good = hands[0]
    six_max = parse_text(EXAMPLE)[0]
    limit = dataclasses.replace(good, betting="limit")
    deep = dataclasses.replace(good, seats=tuple(s._replace(stack=30000) for s in good.seats))
    hidden = dataclasses.replace(good, seats=(good.seats[0]._replace(hole_cards=()),
                                              good.seats[1]))
    return [six_max, limit, deep, hidden]


def test_each_unplayable_hand_is_named_by_its_reason(hands: list[HandRecord]) -> None:
    assert skip_reason(hands[0], None) is None and skip_reason(hands[0], 20000) is None
    assert [skip_reason(h, 20000) for h in _unplayable(hands)] == list(SKIP_REASONS)
    assert skip_reason(hands[0], 30000) == "other starting stacks"


def test_skipped_hands_are_counted_and_the_rest_kept(hands: list[HandRecord]) -> None:
    # the first usable hand sets the starting stack: the deep one comes after it
    mixed = [hands[0], *_unplayable(hands), *hands[1:]]
    players: dict[str, int] = {}
    chunk = build_chunk(mixed, players)
    assert chunk.hands == 21 and chunk.start == 20000
    assert chunk.skipped == dict.fromkeys(SKIP_REASONS, 1)
    assert list(players) == ["Alice", "Bob"]
    plain = build_chunk(hands, {})
    assert all(np.array_equal(plain.arrays[k], chunk.arrays[k]) for k in plain.arrays)
    ds, skipped = decisions_from_hands(mixed)
    assert skipped == 4 and len(ds) == len(plain.arrays["label"])
    six_max, limit, _, hidden = _unplayable(hands)  # the deep hand alone would be used
    never = [six_max, limit, hidden]
    with pytest.raises(FormatError, match="none of 3 hands"):
        decisions_from_hands(never)


def test_a_chunk_built_in_pieces_is_the_chunk_built_at_once(hands: list[HandRecord]) -> None:
    whole = build_chunk(hands, {}).arrays
    stream = iter(hands)
    players: dict[str, int] = {}
    first = build_chunk(stream, players, limit=5)
    rest = build_chunk(stream, players, first.start, limit=100)
    assert (first.hands, rest.hands) == (5, 16)
    assert np.array_equal(np.concatenate([first.arrays["label"], rest.arrays["label"]]),
                          whole["label"])
    assert np.array_equal(np.concatenate([first.arrays["hand_bots"], rest.arrays["hand_bots"]]),
                          whole["hand_bots"])
    assert rest.arrays["hand"][0] == 0 and rest.arrays["offsets"][0] == 0
    # seat 0 is the dealer's first seat, so the players swap seats from hand to hand
    assert whole["hand_bots"][:2].tolist() == [[0, 1], [1, 0]]
