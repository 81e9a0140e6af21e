"""Copy one of our policies into an OpenSpiel ``TabularPolicy`` of the twin game."""

from __future__ import annotations

from functools import cache
from typing import Any

from open_spiel.python import policy as openspiel_policy

from checkraise.games import load_game
from checkraise.solvers import Policy
from tests.games.openspiel_twin import lockstep_keys, openspiel_game


@cache
def _keys(name: str) -> dict[str, str]:
    return lockstep_keys(load_game(name), openspiel_game(name))


def to_openspiel(name: str, policy: Policy) -> tuple[Any, Any]:
    """(OpenSpiel game, TabularPolicy equal to ``policy``) for our game ``name``."""
    game = openspiel_game(name)
    keys = _keys(name)
    tabular = openspiel_policy.TabularPolicy(game)
    for ours, theirs in keys.items():
        tabular.action_probability_array[tabular.state_lookup[theirs]] = policy.row(ours)
    return game, tabular


def from_openspiel(name: str, theirs: Any, like: Policy) -> Policy:
    """Our policy (rows ordered like ``like``) read from an OpenSpiel C++ policy."""
    keys = _keys(name)
    probs = like.probs.copy()
    for row, key in enumerate(like.keys):
        table = dict(theirs.get_state_policy(keys[key]))
        probs[row] = [table.get(a, 0.0) for a in range(probs.shape[1])]
    return Policy(like.keys, probs, like.legal, like.game_name, like.game_params)
