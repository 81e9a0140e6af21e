"""Kuhn poker for 2 or 3 players.

Rules from Kuhn (1950), "A simplified two-person poker", extended to three players
as in Szafron, Gibson & Sturtevant (2013), "A parameterized family of equilibrium
profiles for three-player Kuhn poker": a deck of ``players + 1`` cards ranked
0 (lowest) upwards, one card each, ante 1. Players act in turn with ``pass`` (0) or
``bet`` (1, one chip). Once someone has bet, every other player answers once in turn:
``bet`` calls, ``pass`` folds. The highest card among the players still in wins the pot.

The encoding follows OpenSpiel's ``kuhn_poker`` so the two can be compared directly:
chance deals player 0's card, then player 1's, ...; an information-set key is the
player's card followed by the public actions as ``p``/``b`` (e.g. ``"2pb"``).
For two players the equilibrium value of player 0 is -1/18.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from checkraise.errors import CheckraiseError
from checkraise.games.base import CHANCE, TERMINAL, FloatVector, Game, State
from checkraise.games.public_tree import PublicTree, PublicTreeBuilder

__all__ = ["BET", "PASS", "KuhnPoker", "KuhnState"]

PASS = 0
BET = 1
_ACTION_CHARS = "pb"


@dataclass(frozen=True)
class KuhnState(State):
    """A Kuhn poker history: the cards dealt so far and the actions taken."""

    num_players: int
    cards: tuple[int, ...] = ()
    actions: tuple[int, ...] = ()

    def _first_bet(self) -> int:
        return self.actions.index(BET) if BET in self.actions else -1

    def current_player(self) -> int:
        n = self.num_players
        if len(self.cards) < n:
            return CHANCE
        first_bet = self._first_bet()
        if first_bet < 0:
            return TERMINAL if len(self.actions) == n else len(self.actions)
        if len(self.actions) == first_bet + n:
            return TERMINAL
        return len(self.actions) % n

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [c for c in range(self.num_players + 1) if c not in self.cards]
        return [PASS, BET]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        outcomes = self.legal_actions()
        return [(c, 1.0 / len(outcomes)) for c in outcomes]

    def information_set_key(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        if not 0 <= seat < len(self.cards):
            raise CheckraiseError(f"no information set for player {seat!r} in {self!r}")
        return str(self.cards[seat]) + "".join(_ACTION_CHARS[a] for a in self.actions)

    def information_state_tensor(self, player: int | None = None) -> FloatVector:
        """``player``'s view as float32: seat, card and the actions so far, all one-hot.

        Layout for ``n`` players (length ``n + (n + 1) + 2 (2n - 1)``, 11 for two):
        the seat one-hot (``n``), the seat's card one-hot (``n + 1``), then one slot of
        two entries (pass, bet) for each of the at most ``2n - 1`` actions of a hand,
        in the order they were taken; slots not reached yet are zero. The layout is
        OpenSpiel's ``kuhn_poker`` tensor.

        Examples
        --------
        >>> state = KuhnState(2, (2, 0), (PASS, BET))
        >>> state.information_state_tensor().astype(int).tolist()
        [1, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0]
        """
        seat = self.current_player() if player is None else player
        n = self.num_players
        if not 0 <= seat < len(self.cards):
            raise CheckraiseError(f"no information state for player {seat!r} in {self!r}")
        out = np.zeros(_tensor_size(n), dtype=np.float32)
        out[seat] = 1.0
        out[n + self.cards[seat]] = 1.0
        base = 2 * n + 1
        for slot, action in enumerate(self.actions):
            out[base + 2 * slot + action] = 1.0
        return out

    def returns(self) -> list[float]:
        n = self.num_players
        if not self.is_terminal():
            return [0.0] * n
        first_bet = self._first_bet()
        if first_bet < 0:
            contributions = [1.0] * n
            contenders = list(range(n))
        else:
            contributions = [1.0] * n
            for offset, action in enumerate(self.actions[first_bet:]):
                if action == BET:
                    contributions[(first_bet + offset) % n] = 2.0
            contenders = [p for p in range(n) if contributions[p] == 2.0]
        winner = max(contenders, key=lambda p: self.cards[p])
        pot = sum(contributions)
        return [(pot if p == winner else 0.0) - contributions[p] for p in range(n)]

    def child(self, action: int) -> KuhnState:
        self.check_action(action)
        if self.is_chance_node():
            return KuhnState(self.num_players, (*self.cards, action), self.actions)
        return KuhnState(self.num_players, self.cards, (*self.actions, action))


def _tensor_size(players: int) -> int:
    return players + (players + 1) + 2 * (2 * players - 1)


class KuhnPoker(Game):
    """Kuhn poker with ``players`` (2 or 3) players.

    Examples
    --------
    >>> game = KuhnPoker()
    >>> state = game.initial_state().child(2).child(0)
    >>> state.legal_actions(), state.information_set_key()
    ([0, 1], '2')
    >>> state.child(1).child(0).returns()
    [1.0, -1.0]
    """

    name = "kuhn"

    def __init__(self, players: int = 2) -> None:
        if players not in (2, 3):
            raise CheckraiseError(f"Kuhn poker players={players!r}; expected 2 or 3")
        self._players = players

    @property
    def num_players(self) -> int:
        return self._players

    @property
    def num_distinct_actions(self) -> int:
        return 2

    @property
    def params(self) -> Mapping[str, Any]:
        return {"players": self._players}

    @property
    def information_state_tensor_size(self) -> int:
        return _tensor_size(self._players)

    def initial_state(self) -> KuhnState:
        return KuhnState(self._players)

    def action_name(self, action: int) -> str:
        return ("pass", "bet")[action]

    def public_tree(self) -> PublicTree:
        """The two-player game as a public tree over the three private cards."""
        if self._players != 2:
            raise CheckraiseError(
                f"a public tree needs players=2; this Kuhn poker has players={self._players}"
            )
        builder = PublicTreeBuilder(
            num_hands=3,
            hand_names=["0", "1", "2"],
            hand_cards=np.array([1, 2, 4], dtype=np.int64),
            # Six equally likely deals of two distinct cards.
            chance_scale=1.0 / 6.0,
            strength=np.array([[0, 1, 2]], dtype=np.int64),
            board_cards=np.array([0], dtype=np.int64),
            board_names=[""],
        )
        self._build_public(builder, -1, (), 0)
        return builder.build(self.name, dict(self.params), self.num_distinct_actions)

    def _build_public(
        self, builder: PublicTreeBuilder, parent: int, actions: tuple[int, ...], action: int
    ) -> None:
        state = KuhnState(2, (0, 1), actions)
        history = "".join(_ACTION_CHARS[a] for a in actions)
        if state.is_terminal():
            contributions = [1.0, 1.0]
            first_bet = actions.index(BET) if BET in actions else -1
            folder = -1
            if first_bet >= 0:
                for offset, act in enumerate(actions[first_bet:]):
                    seat = (first_bet + offset) % 2
                    if act == BET:
                        contributions[seat] = 2.0
                    else:
                        folder = seat
            if folder >= 0:
                builder.add_fold(parent, action, folder, contributions)
            else:
                builder.add_showdown(parent, action, 0, contributions)
            return
        player = state.current_player()
        keys = [str(card) + history for card in range(3)]
        node = builder.add_decision(parent, action, player, [PASS, BET], keys)
        for act in (PASS, BET):
            self._build_public(builder, node, (*actions, act), act)
