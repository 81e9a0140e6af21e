"""Kuhn poker against OpenSpiel's kuhn_poker and the rules' known facts."""

from __future__ import annotations

import pytest

from checkraise.games import CHANCE, IllegalActionError, KuhnPoker, build_tree, load_game
from tests.games.openspiel_twin import lockstep_keys, openspiel_game


@pytest.mark.parametrize(("name", "infosets"), [("kuhn", 12), ("kuhn3", 48)])
def test_every_history_matches_openspiel(name: str, infosets: int) -> None:
    keys = lockstep_keys(load_game(name), openspiel_game(name))
    # 2 players: 3 cards x 4 decision points; 3 players: 4 cards x 12.
    assert len(keys) == infosets
    assert build_tree(load_game(name)).num_infosets == infosets


def test_kuhn_key_is_card_then_history() -> None:
    state = KuhnPoker().initial_state().child(1).child(2).child(0)
    assert state.current_player() == 1
    assert state.information_set_key() == "2p"
    assert state.information_set_key(0) == "1p"


def test_three_player_payoffs_by_hand() -> None:
    # J Q K dealt (A left in the deck); P0 bets, P1 folds, P2 calls: K wins 1 + 2 + 2.
    state = KuhnPoker(3).initial_state().child(0).child(1).child(2)
    for action in (1, 0, 1):
        state = state.child(action)
    assert state.is_terminal()
    assert state.returns() == [-2.0, -1.0, 3.0]


def test_chance_deals_distinct_cards() -> None:
    state = KuhnPoker().initial_state().child(2)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]


def test_illegal_action_names_it() -> None:
    state = KuhnPoker().initial_state()
    with pytest.raises(IllegalActionError, match="action 7"):
        state.child(7)
    with pytest.raises(ValueError, match="players=4"):
        KuhnPoker(4)
