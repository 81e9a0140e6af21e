"""Information-state tensors of Kuhn, Leduc and abstract hold'em.

Known vectors on hand-built states, and the defining property on every information
set of the small games: two decision histories give equal tensors exactly when they
give equal information-set keys.
"""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.games import KuhnPoker, LeducPoker
from checkraise.games.base import Game, NoTensorError, State
from checkraise.games.holdem import HoldemRules
from checkraise.games.holdem_game import HoldemCards, HoldemGame
from checkraise.games.kuhn import BET, PASS, KuhnState
from checkraise.games.leduc import CALL, FOLD, RAISE, LeducState


def _decision_views(game: Game) -> list[tuple[str, bytes]]:
    """(key, tensor bytes) at every decision history, for the player to act."""
    views: list[tuple[str, bytes]] = []

    def walk(state: State) -> None:
        if state.is_terminal():
            return
        if not state.is_chance_node():
            tensor = state.information_state_tensor()
            assert tensor.dtype == np.float32
            assert tensor.shape == (game.information_state_tensor_size,)
            views.append((state.information_set_key(), tensor.tobytes()))
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.initial_state())
    return views


def _assert_bijection(views: list[tuple[str, bytes]]) -> int:
    by_key: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    for key, tensor in views:
        assert by_key.setdefault(key, tensor) == tensor, key
        assert by_tensor.setdefault(tensor, key) == key, key
    return len(by_key)


@pytest.mark.parametrize(("players", "infosets"), [(2, 12), (3, 48)])
def test_kuhn_tensor_equal_iff_key_equal(players: int, infosets: int) -> None:
    assert _assert_bijection(_decision_views(KuhnPoker(players))) == infosets


def test_leduc_tensor_equal_iff_key_equal() -> None:
    assert _assert_bijection(_decision_views(LeducPoker())) == 936


def test_kuhn_known_vectors() -> None:
    # Player 1 holds the king (2) facing player 0's bet.
    state = KuhnState(2, (0, 2), (BET,))
    expected = np.zeros(11, dtype=np.float32)
    expected[[1, 2 + 2, 5 + 1]] = 1.0  # seat 1, card 2, slot 0 = bet
    assert np.array_equal(state.information_state_tensor(), expected)
    # The same history from player 0's side: his card 0, his seat.
    expected0 = np.zeros(11, dtype=np.float32)
    expected0[[0, 2 + 0, 5 + 1]] = 1.0
    assert np.array_equal(state.information_state_tensor(0), expected0)
    three = KuhnState(3, (3, 1, 0), (PASS, PASS, BET, PASS))
    v = three.information_state_tensor()
    assert v.shape == (3 + 4 + 10,)
    assert [int(i) for i in np.flatnonzero(v)] == [1, 3 + 1, 7 + 0, 9 + 0, 11 + 1, 13 + 0]


def test_leduc_known_vectors() -> None:
    state = LeducState((5, 2), 0, ((RAISE, RAISE, CALL), (CALL, RAISE, FOLD)))
    v = state.information_state_tensor(0)
    # seat 0; Kh = card 5; public Js = card 0; round 0: r r c; round 1: c r f.
    ones = [0, 2 + 5, 8 + 0, 14 + 2, 17 + 2, 20 + 1, 26 + 1, 29 + 2, 32 + 0]
    assert [int(i) for i in np.flatnonzero(v)] == ones
    first = LeducState((1, 4)).information_state_tensor()
    assert [int(i) for i in np.flatnonzero(first)] == [0, 2 + 1]


def _tiny_holdem(recall: bool) -> HoldemGame:
    return HoldemGame(
        "tiny",
        HoldemRules(stack=400),
        HoldemCards(buckets=(2, 2, 2, 2), recall=recall, deals=60, deal_seed=3),
    )


@pytest.mark.parametrize("recall", [True, False])
def test_holdem_tensor_equal_iff_key_equal(recall: bool) -> None:
    views = _decision_views(_tiny_holdem(recall))
    assert _assert_bijection(views) > 20


def test_holdem_known_vector() -> None:
    game = _tiny_holdem(True)
    state = game.initial_state()
    outcome = state.chance_outcomes()[0][0]
    state = state.child(outcome)  # preflop buckets dealt
    b0 = state.buckets[0][0]
    state = state.child(1)  # the small blind's second child (a call)
    v = state.information_state_tensor(0)
    _, offset, _ = game.tensor_layout
    expected = {0, 2 + b0, int(offset[0]) + 1}
    assert set(int(i) for i in np.flatnonzero(v)) == expected


def test_game_without_tensor_raises() -> None:
    class Bare(State):
        def current_player(self) -> int:
            return 0

        def legal_actions(self) -> list[int]:
            return [0]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return []

        def information_set_key(self, player: int | None = None) -> str:
            return ""

        def returns(self) -> list[float]:
            return [0.0]

        def child(self, action: int) -> State:
            return self

    with pytest.raises(NoTensorError, match="Bare has no information-state tensor"):
        Bare().information_state_tensor()


def test_bad_player_raises() -> None:
    with pytest.raises(ValueError, match="player 5"):
        LeducState((1, 4)).information_state_tensor(5)
    with pytest.raises(ValueError, match="player 2"):
        KuhnState(2, (1, 0)).information_state_tensor(2)
