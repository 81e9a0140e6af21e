"""Walk one of our games and its OpenSpiel twin in lockstep.

Our Kuhn and Leduc use OpenSpiel's chance-outcome and action numbering, so the
same action sequence names the same history in both. The walk asserts that every
history agrees (player to act, legal actions, chance probabilities, returns) and
that information sets partition the histories identically, and returns the map
from our information-set keys to OpenSpiel's ``information_state_string``.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from checkraise.games import Game, State


def lockstep_keys(ours: Game, theirs: Any) -> dict[str, str]:
    """Our info-set key -> OpenSpiel's information-state string (asserting a bijection)."""
    forward: dict[str, str] = {}
    backward: dict[str, str] = {}

    def walk(mine: State, other: Any) -> None:
        assert mine.is_terminal() == other.is_terminal()
        if mine.is_terminal():
            assert mine.returns() == list(other.returns())
            return
        assert mine.is_chance_node() == other.is_chance_node()
        if mine.is_chance_node():
            expected = [(a, p) for a, p in other.chance_outcomes()]
            got = mine.chance_outcomes()
            assert [a for a, _ in got] == [a for a, _ in expected]
            assert all(abs(p - q) < 1e-15 for (_, p), (_, q) in zip(got, expected, strict=True))
            actions = [a for a, _ in got]
        else:
            assert mine.current_player() == other.current_player()
            actions = mine.legal_actions()
            assert actions == list(other.legal_actions())
            key = mine.information_set_key()
            name = other.information_state_string()
            assert forward.setdefault(key, name) == name
            assert backward.setdefault(name, key) == key
        for action in actions:
            walk(mine.child(action), other.child(action))

    walk(ours.initial_state(), theirs.new_initial_state())
    return forward


def openspiel_game(name: str) -> Any:
    """The OpenSpiel twin of our game ``name``."""
    return pyspiel.load_game(
        {"kuhn": "kuhn_poker", "kuhn3": "kuhn_poker(players=3)", "leduc": "leduc_poker"}[name]
    )
