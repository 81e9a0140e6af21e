"""Seeded dealing: the reference dealer's cards, checked against its own logs."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.protocol import ReferenceDeck
from checkraise.protocol.deal import init_genrand_state
from tests.protocol.harness import LOGS, load_log


@pytest.mark.parametrize("seed", [0, 5, 7, 23, 2**32 - 1])
def test_init_genrand_matches_numpy_legacy_seeding(seed: int) -> None:
    # numpy's RandomState(int) seeds MT19937 with the same init_genrand routine.
    key = np.random.RandomState(seed).get_state()[1]
    assert tuple(int(k) for k in key) == init_genrand_state(seed)


def test_first_outputs_match_numpy_legacy_generator() -> None:
    deck = ReferenceDeck(5489)
    ours = [deck.next_uint32() for _ in range(1000)]
    theirs = np.random.RandomState(5489).randint(0, 2**32, size=1000, dtype=np.uint64)
    assert ours == [int(x) for x in theirs]


@pytest.mark.parametrize(("log_name", "game_name"), LOGS)
def test_every_hand_of_the_logs_is_dealt_again_from_the_seed(
    log_name: str, game_name: str
) -> None:
    game, _, states, header = load_log(log_name, game_name)
    deck = ReferenceDeck(int(header["seed"]))
    for hand in states:
        holes, board = deck.deal(game.num_players, game.num_hole_cards, game.num_board_cards,
                                 game.deck())
        assert holes == hand.hole_cards
        shown = tuple(c for group in hand.board for c in group)
        assert board[: len(shown)] == shown


def test_bad_seed_and_too_many_cards() -> None:
    with pytest.raises(ValueError, match="seed"):
        ReferenceDeck(-1)
    with pytest.raises(ValueError, match="cannot deal"):
        ReferenceDeck(1).deal(3, 1, (2,), deck=(0, 1, 2, 3))
