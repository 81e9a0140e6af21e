"""Leduc hold'em against OpenSpiel's leduc_poker and the rules' known facts."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.errors import ConfigError
from checkraise.games import LeducPoker, PublicTree, build_tree, load_game
from checkraise.games.leduc import CALL, FOLD, RAISE, LeducState, card_name
from checkraise.games.public_tree import DECISION, SHOWDOWN
from checkraise.games.public_tree import FOLD as FOLD_NODE
from tests.games.openspiel_twin import lockstep_keys, openspiel_game


def test_every_history_matches_openspiel() -> None:
    keys = lockstep_keys(load_game("leduc"), openspiel_game("leduc"))
    # Published size: 936 information sets (6 cards x 6 first-round points +
    # 30 card/board pairs x 5 ways into round two x 6 second-round points).
    assert len(keys) == 936


def test_bets_raises_and_pot() -> None:
    state = LeducPoker().initial_state().child(0).child(5)
    assert state.legal_actions() == [CALL, RAISE]
    # Two raises cap the round: the third player decision offers only fold/call.
    state = state.child(RAISE).child(RAISE)
    assert state.legal_actions() == [FOLD, CALL]
    state = state.child(CALL)
    assert state.is_chance_node()
    assert [c for c, _ in state.chance_outcomes()] == [1, 2, 3, 4]
    # Board pairs nobody: the king (card 5) beats the jack. Round-two bet is 4.
    state = state.child(2).child(RAISE).child(CALL)
    assert state.returns() == [-9.0, 9.0]
    assert state.information_set_key(0) == "Js:rrc/Qs:rc"


def test_pair_on_board_beats_higher_card() -> None:
    state = LeducPoker().initial_state().child(0).child(5).child(CALL).child(CALL)
    state = state.child(1).child(CALL).child(CALL)
    assert state.returns() == [1.0, -1.0]


def test_public_tree_covers_the_same_information_sets() -> None:
    game = LeducPoker()
    public = game.public_tree()
    tree = build_tree(game)
    keys = {k for node in public.decision_nodes for k in public.keys[node] if k is not None}
    assert keys == set(tree.infoset_keys)
    # 6 + 5 * 6 * 6 decision nodes, 4 + 5 * 6 * 4 folds, 5 * 6 * 5 showdowns.
    assert int(np.sum(public.kind == DECISION)) == 186
    assert int(np.sum(public.kind == FOLD_NODE)) == 124
    assert int(np.sum(public.kind == SHOWDOWN)) == 150
    # Each compatible (hand, hand, board) triple is a chance path of probability 1/120.
    leaves = np.flatnonzero(public.kind == SHOWDOWN)
    assert np.allclose(public.chance_reach[leaves], 1.0 / 120.0)


def test_public_tree_payoffs_match_histories() -> None:
    # Every terminal history's returns, recomputed from the public tree's description.
    game = LeducPoker()
    public = game.public_tree()

    def check(node: int, state: LeducState, cards: tuple[int, int]) -> None:
        kind = public.kind[node]
        if kind in (FOLD_NODE, SHOWDOWN):
            c0, c1 = public.contributions[node]
            if kind == FOLD_NODE:
                folder = public.player[node]
                expected = [-c0, c0] if folder == 0 else [c1, -c1]
            else:
                s = public.strength[public.board[node], list(cards)]
                expected = [0.0, 0.0] if s[0] == s[1] else ([c1, -c1] if s[0] > s[1] else [-c0, c0])
            assert state.returns() == expected
            return
        for child in public.children(node):
            edge = int(public.edge[child])
            if kind == DECISION:
                check(child, state.child(edge), cards)
            elif edge - 1 not in cards:
                check(child, state.child(edge - 1), cards)

    for cards in [(0, 1), (0, 2), (5, 3)]:
        start = game.initial_state().child(cards[0]).child(cards[1])
        assert isinstance(start, LeducState)
        check(0, start, cards)


@pytest.mark.parametrize("card", [-1, 6])
def test_bad_deal_is_rejected(card: int) -> None:
    with pytest.raises(ValueError, match=f"action {card}"):
        LeducPoker().initial_state().child(card)


def _branch(tree: PublicTree, node: int) -> list[int]:
    """``node`` and its descendants, breadth-first."""
    order, queue = [], [node]
    while queue:
        current = queue.pop(0)
        order.append(current)
        queue.extend(tree.children(current))
    return order


@pytest.mark.parametrize(("first_round", "board"), [((1, 1), 4), ((1, 2, 2, 1), 0), ((2, 1), 3)])
def test_public_subtree_is_the_whole_trees_branch(first_round: tuple[int, ...], board: int) -> None:
    game = LeducPoker()
    whole = game.public_tree()
    sub = game.public_tree(LeducState((0, 1), board, (first_round, ())))
    # The branch of the whole tree that starts the second round after that line and board.
    line = "".join("fcr"[a] for a in first_round)
    start = next(
        int(n) for n in whole.decision_nodes
        if whole.board[n] == board + 1 and any(
            k is not None and k.endswith(f":{line}/{card_name(board)}:") for k in whole.keys[n]
        )
    )
    nodes = _branch(whole, start)
    assert len(nodes) == sub.num_nodes
    assert whole.kind[nodes].tolist() == sub.kind.tolist()
    assert whole.player[nodes].tolist() == sub.player.tolist()
    assert whole.board[nodes].tolist() == sub.board.tolist()
    assert [whole.keys[n] for n in nodes] == list(sub.keys)
    assert np.array_equal(whole.contributions[nodes], sub.contributions)
    # Same chance units as the whole game: 1/30 for the private cards times 1/4 for the board.
    assert np.allclose(whole.chance_reach[nodes], sub.chance_reach)
    assert np.allclose(sub.chance_reach, 1.0 / 120.0)


@pytest.mark.parametrize(
    ("root", "message"),
    [
        (LeducState((0, 1), 2, ((1, 2, 0), ())), "not a Leduc history"),
        (LeducState((0, 1), 2, ((1, 1), (2, 1))), "non-terminal"),
        (LeducState((0, 1), -1, ((2, 2, 2),)), "not a Leduc history"),
        (LeducState((0, 1), 3, ((1, 1), (), ())), "3 rounds"),
    ],
)
def test_public_subtree_refuses_other_roots(root: LeducState, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        LeducPoker().public_tree(root)
