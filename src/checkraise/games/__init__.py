"""Games for the solvers: the OpenSpiel-style interface, Kuhn and Leduc poker.

See :mod:`checkraise.games.base` for the interface, :mod:`checkraise.games.tree`
for the flattened history tree the tabular solvers use, and
:mod:`checkraise.games.public_tree` for the public-tree form the vectorised
solver uses.
"""

from __future__ import annotations

from checkraise.errors import CheckraiseError, one_of
from checkraise.games.base import CHANCE, TERMINAL, Game, IllegalActionError, State
from checkraise.games.kuhn import KuhnPoker
from checkraise.games.leduc import LeducPoker
from checkraise.games.public_tree import PublicTree, PublicTreeBuilder
from checkraise.games.tree import GameTree, build_tree

__all__ = [
    "CHANCE",
    "GAME_NAMES",
    "TERMINAL",
    "Game",
    "GameTree",
    "IllegalActionError",
    "KuhnPoker",
    "LeducPoker",
    "PublicTree",
    "PublicTreeBuilder",
    "State",
    "build_tree",
    "load_game",
]

#: Names accepted by :func:`load_game`.
GAME_NAMES = ("kuhn", "kuhn3", "leduc")


def load_game(name: str) -> Game:
    """The game called ``name``: ``kuhn`` (2 players), ``kuhn3`` or ``leduc``.

    Examples
    --------
    >>> load_game("kuhn3").num_players
    3
    """
    key = name.strip().lower()
    if key == "kuhn":
        return KuhnPoker(2)
    if key == "kuhn3":
        return KuhnPoker(3)
    if key == "leduc":
        return LeducPoker()
    raise CheckraiseError(f"unknown game {name!r}; expected one of {one_of(GAME_NAMES)}")
