"""Leduc hold'em (two players).

Rules from Southey et al. (2005), "Bayes' bluff: opponent modelling in poker":
six cards (J, Q, K in two suits), ante 1, one private card each, a betting round,
one public card, a second betting round. Bets are 2 in the first round and 4 in
the second, with at most two raises per round; player 0 acts first in both rounds.
A player who pairs the public card wins; otherwise the higher private card wins;
equal ranks split. The equilibrium value for player 0 is about -0.0856.

The encoding follows OpenSpiel's ``leduc_poker`` so the two can be compared
directly: card ``c`` has rank ``c // 2``; chance deals player 0's card, then player
1's, then the public card; actions are fold (0), call/check (1), raise/bet (2), and
fold is legal only when facing a bet. An information-set key reads
``"Qh:crc/Ks:r"``: private card, first-round actions, public card, second-round actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from checkraise.errors import ConfigError
from checkraise.games.base import CHANCE, TERMINAL, FloatVector, Game, State
from checkraise.games.public_tree import PublicTree, PublicTreeBuilder

__all__ = ["CALL", "FOLD", "RAISE", "ROUND_SLOTS", "TENSOR_SIZE", "LeducPoker", "LeducState",
           "card_name"]

FOLD = 0
CALL = 1
RAISE = 2
_ACTION_CHARS = "fcr"
_NUM_CARDS = 6
_BET_SIZES = (2.0, 4.0)
_MAX_RAISES = 2

#: Most actions in one betting round (check, raise, raise, call).
ROUND_SLOTS = 4
#: Length of :meth:`LeducState.information_state_tensor`.
TENSOR_SIZE = 2 + 2 * _NUM_CARDS + 2 * ROUND_SLOTS * 3

_ONGOING = 0
_ROUND_OVER = 1
_FOLDED = 2


def card_name(card: int) -> str:
    """The name of Leduc card ``card`` (0..5), e.g. ``"Qh"``.

    Examples
    --------
    >>> [card_name(c) for c in range(6)]
    ['Js', 'Jh', 'Qs', 'Qh', 'Ks', 'Kh']
    """
    return "JQK"[card // 2] + "sh"[card % 2]


def _strength(card: int, board: int) -> int:
    rank = card // 2
    return rank + 3 if board >= 0 and rank == board // 2 else rank


def _play_round(
    actions: tuple[int, ...], contributions: list[float], bet: float
) -> tuple[int, int, bool, int]:
    """Apply one round's actions to ``contributions`` (in place).

    Returns (status, player to act or folder, facing a bet, raises so far).
    """
    raises = 0
    facing = False
    for i, action in enumerate(actions):
        actor = i % 2
        if action == FOLD:
            return _FOLDED, actor, facing, raises
        top = max(contributions)
        if action == CALL:
            contributions[actor] = top
            if facing or i >= 1:
                return _ROUND_OVER, -1, False, raises
        else:
            contributions[actor] = top + bet
            raises += 1
            facing = True
    return _ONGOING, len(actions) % 2, facing, raises


@dataclass(frozen=True)
class LeducState(State):
    """A Leduc history: private cards, the public card (-1 before it) and each round's actions."""

    cards: tuple[int, ...] = ()
    board: int = -1
    rounds: tuple[tuple[int, ...], ...] = ((),)

    def _status(self) -> tuple[int, int, bool, int, list[float]]:
        contributions = [1.0, 1.0]
        status, actor, facing, raises = _ONGOING, 0, False, 0
        for r, actions in enumerate(self.rounds):
            status, actor, facing, raises = _play_round(actions, contributions, _BET_SIZES[r])
        return status, actor, facing, raises, contributions

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        status, actor, _, _, _ = self._status()
        if status == _FOLDED:
            return TERMINAL
        if status == _ROUND_OVER:
            return TERMINAL if len(self.rounds) == 2 else CHANCE
        return actor

    def legal_actions(self) -> list[int]:
        if self.is_chance_node():
            return [c for c, _ in self.chance_outcomes()]
        status, _, facing, raises, _ = self._status()
        if status != _ONGOING or len(self.cards) < 2:
            return []
        actions = [FOLD] if facing else []
        actions.append(CALL)
        if raises < _MAX_RAISES:
            actions.append(RAISE)
        return actions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            return []
        remaining = [c for c in range(_NUM_CARDS) if c not in self.cards]
        return [(c, 1.0 / len(remaining)) for c in remaining]

    def information_set_key(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        if not 0 <= seat < len(self.cards):
            raise ConfigError(f"no information set for player {seat!r} in {self!r}")
        return _key(self.cards[seat], self.board, self.rounds)

    def information_state_tensor(self, player: int | None = None) -> FloatVector:
        """``player``'s view as float32: seat, private card, public card, actions.

        Layout (length 38): the seat one-hot (2), the private card one-hot (6), the
        public card one-hot (6, zero before it is dealt), then for each of the two
        rounds :data:`ROUND_SLOTS` (4) action slots of three entries (fold, call,
        raise), one-hot in the order the actions were taken; slots not reached are zero.

        Examples
        --------
        >>> state = LeducState((3, 0), 4, ((CALL, CALL), (RAISE,)))
        >>> v = state.information_state_tensor(1)
        >>> [int(i) for i in v.nonzero()[0]]
        [1, 2, 12, 15, 18, 28]
        """
        seat = self.current_player() if player is None else player
        if not 0 <= seat < len(self.cards):
            raise ConfigError(f"no information state for player {seat!r} in {self!r}")
        out = np.zeros(TENSOR_SIZE, dtype=np.float32)
        out[seat] = 1.0
        out[2 + self.cards[seat]] = 1.0
        if self.board >= 0:
            out[2 + _NUM_CARDS + self.board] = 1.0
        base = 2 + 2 * _NUM_CARDS
        for r, actions in enumerate(self.rounds):
            for slot, action in enumerate(actions):
                out[base + 3 * (r * ROUND_SLOTS + slot) + action] = 1.0
        return out

    def returns(self) -> list[float]:
        status, actor, _, _, contributions = self._status()
        if len(self.cards) < 2 or status == _ONGOING or (
            status == _ROUND_OVER and len(self.rounds) < 2
        ):
            return [0.0, 0.0]
        if status == _FOLDED:
            winner = 1 - actor
        else:
            s0 = _strength(self.cards[0], self.board)
            s1 = _strength(self.cards[1], self.board)
            if s0 == s1:
                return [0.0, 0.0]
            winner = 0 if s0 > s1 else 1
        loser = 1 - winner
        result = [0.0, 0.0]
        result[winner] = contributions[loser]
        result[loser] = -contributions[loser]
        return result

    def child(self, action: int) -> LeducState:
        self.check_action(action)
        if len(self.cards) < 2:
            return LeducState((*self.cards, action), self.board, self.rounds)
        if self.is_chance_node():
            return LeducState(self.cards, action, (*self.rounds, ()))
        *done, last = self.rounds
        return LeducState(self.cards, self.board, (*done, (*last, action)))


def _key(card: int, board: int, rounds: tuple[tuple[int, ...], ...]) -> str:
    text = card_name(card) + ":" + "".join(_ACTION_CHARS[a] for a in rounds[0])
    if len(rounds) > 1:
        text += "/" + card_name(board) + ":" + "".join(_ACTION_CHARS[a] for a in rounds[1])
    return text


class LeducPoker(Game):
    """Two-player Leduc hold'em.

    Examples
    --------
    >>> game = LeducPoker()
    >>> state = game.initial_state().child(3).child(0)
    >>> state.legal_actions(), state.information_set_key()
    ([1, 2], 'Qh:')
    >>> state.child(2).child(0).returns()
    [1.0, -1.0]
    """

    name = "leduc"

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return 3

    @property
    def params(self) -> Mapping[str, Any]:
        return {}

    @property
    def information_state_tensor_size(self) -> int:
        return TENSOR_SIZE

    def initial_state(self) -> LeducState:
        return LeducState()

    def action_name(self, action: int) -> str:
        return ("fold", "call", "raise")[action]

    def public_tree(
        self, root: LeducState | None = None, depth_limited: bool = False
    ) -> PublicTree:
        """The game as a public tree over the six private cards.

        Board index 0 is "no public card"; board ``1 + c`` is public card ``c``.
        ``root`` (a non-terminal state; its private cards are ignored) roots the tree
        at a later public state, e.g. the start of the second round: a subgame whose
        chance reach still counts the deal of the private cards and of the board, so
        its values are in the whole game's units. With ``depth_limited`` the tree
        stops at the end of the first round: the chance node of the public card
        becomes a LEAF (DeepStack's lookahead, whose values a value function gives).

        Examples
        --------
        >>> game = LeducPoker()
        >>> game.public_tree().num_nodes
        465
        >>> sub = game.public_tree(LeducState((0, 1), 4, ((1, 1), ())))
        >>> sub.num_nodes, sub.hand_names[int(sub.board[0]) - 1], sub.keys[0][3]
        (15, 'Ks', 'Qh:cc/Ks:')
        """
        board: int = -1
        rounds: tuple[tuple[int, ...], ...] = ((),)
        if root is not None:
            board, rounds = self._public_root(root)
        strength = np.array(
            [[_strength(h, b - 1) for h in range(_NUM_CARDS)] for b in range(_NUM_CARDS + 1)],
            dtype=np.int64,
        )
        # Each ordered pair of distinct cards is dealt with probability 1/6 * 1/5,
        # and then each of the other four public cards with probability 1/4.
        scale = 1.0 / 30.0 if board < 0 else 1.0 / 120.0
        builder = PublicTreeBuilder(
            num_hands=_NUM_CARDS,
            hand_names=[card_name(c) for c in range(_NUM_CARDS)],
            hand_cards=np.array([1 << c for c in range(_NUM_CARDS)], dtype=np.int64),
            chance_scale=scale,
            strength=strength,
            board_cards=np.array([0] + [1 << c for c in range(_NUM_CARDS)], dtype=np.int64),
            board_names=["", *(card_name(c) for c in range(_NUM_CARDS))],
        )
        if board >= 0 and not rounds[-1]:
            self._add_decision(builder, -1, 0, LeducState((0, 1), board, rounds), depth_limited)
        else:
            self._build_public(builder, -1, 0, board, rounds, depth_limited)
        return builder.build(self.name, dict(self.params), self.num_distinct_actions)

    @staticmethod
    def _public_root(root: LeducState) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """Check that ``root``'s public part is a non-terminal history; return it."""
        # Replay the public actions with two private cards that leave the board free.
        cards = [c for c in range(_NUM_CARDS) if c != root.board][:2]
        state = LeducState((cards[0], cards[1]))
        try:
            for r, actions in enumerate(root.rounds):
                if r == 1:
                    state = state.child(root.board)
                elif r > 1:
                    raise ConfigError(f"{len(root.rounds)} rounds; Leduc has 2")
                for action in actions:
                    state = state.child(action)
        except ValueError as exc:
            raise ConfigError(f"{root!r} is not a Leduc history: {exc}") from None
        if state.board != root.board or state.is_terminal():
            raise ConfigError(f"{root!r} is not a non-terminal Leduc history")
        return root.board, root.rounds

    def _build_public(
        self,
        builder: PublicTreeBuilder,
        parent: int,
        edge: int,
        board: int,
        rounds: tuple[tuple[int, ...], ...],
        depth_limited: bool,
    ) -> None:
        state = LeducState((0, 1), board, rounds)
        status, actor, _, _, contributions = state._status()
        if status == _FOLDED:
            builder.add_fold(parent, edge, actor, contributions)
            return
        if status == _ROUND_OVER and len(rounds) == 2:
            builder.add_showdown(parent, edge, board + 1, contributions)
            return
        if status == _ROUND_OVER and depth_limited:
            builder.add_leaf(parent, edge, contributions)
            return
        if status == _ROUND_OVER:
            node = builder.add_chance(parent, edge)
            for card in range(_NUM_CARDS):
                # Given two dealt private cards, each of the other four is equally likely.
                child = LeducState((0, 1), card, (*rounds, ()))
                self._add_decision(builder, node, card + 1, child, depth_limited, prob=0.25)
            return
        self._add_decision(builder, parent, edge, state, depth_limited)

    def _add_decision(
        self,
        builder: PublicTreeBuilder,
        parent: int,
        edge: int,
        state: LeducState,
        depth_limited: bool,
        prob: float = 1.0,
    ) -> None:
        keys = [_key(card, state.board, state.rounds) for card in range(_NUM_CARDS)]
        actions = state.legal_actions()
        node = builder.add_decision(
            parent, edge, state.current_player(), actions, keys, prob=prob, board=state.board + 1
        )
        for action in actions:
            self._build_public(
                builder, node, action, state.board, state.child(action).rounds, depth_limited
            )
