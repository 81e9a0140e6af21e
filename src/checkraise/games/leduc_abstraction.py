"""Leduc hold'em seen through a card abstraction: the blueprint's game in the
subgame-solving experiment.

Libratus's experiment (Brown & Sandholm 2017, "Safe and nested subgame solving for
imperfect-information games"; Brown & Sandholm 2018, Science, Table 1) needs a
blueprint that cannot tell some hands apart. :class:`AbstractLeduc` is Leduc with
exactly the same histories, chance and payoffs, whose information-set keys are
the real keys mapped by :func:`abstract_key`: histories the abstraction cannot
tell apart share one key, so a solver of this game finds a strategy that plays
them alike. Every abstraction drops the suits (Leduc's suits are symmetric, so
that alone loses nothing) and keeps perfect recall: a second-round key always
determines the first-round key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from checkraise.errors import ConfigError, FormatError, one_of
from checkraise.games.base import Game, State
from checkraise.games.leduc import LeducPoker, LeducState

__all__ = ["AbstractLeduc", "AbstractLeducState", "LeducAbstraction", "abstract_key"]

_RANKS = "JQK"


class LeducAbstraction(StrEnum):
    """What the blueprint sees of the cards.

    - ``none``: the ranks (lossless; a blueprint of it is an equilibrium of Leduc).
    - ``jq``: J and Q are one bucket in both rounds; in the second round the board's
      rank and whether the private card pairs it are seen. Lossy only before the
      board and on a K board.
    - ``jq-round1``: J and Q are one bucket in the first round only; the second round
      sees the ranks (finer than ``jq``).
    - ``jq-paired``: J and Q are one bucket in both rounds, and the second round
      sees only whether the private card pairs the board, not the board (coarser).
    """

    NONE = "none"
    JQ = "jq"
    JQ_ROUND1 = "jq-round1"
    JQ_PAIRED = "jq-paired"

    @classmethod
    def parse(cls, name: str | LeducAbstraction) -> LeducAbstraction:
        """The abstraction called ``name``; raises :class:`ConfigError` for others.

        Examples
        --------
        >>> LeducAbstraction.parse(" JQ ")
        <LeducAbstraction.JQ: 'jq'>
        """
        text = str(name).strip().lower()
        try:
            return cls(text)
        except ValueError:
            choices = one_of(m.value for m in cls)
            raise ConfigError(
                f"unknown Leduc abstraction {name!r}; expected one of {choices}"
            ) from None


def _bucket(rank: str, merged: bool) -> str:
    return "JQ" if merged and rank in "JQ" else rank


def abstract_key(abstraction: LeducAbstraction, key: str) -> str:
    """The abstract information-set key of the real Leduc key ``key``.

    Examples
    --------
    >>> abstract_key(LeducAbstraction.JQ, "Qh:crc/Ks:r")
    'JQ:crc/K:r'
    >>> abstract_key(LeducAbstraction.JQ, "Qh:crc/Qs:r")
    'JQ:crc/Q=:r'
    >>> abstract_key(LeducAbstraction.JQ_PAIRED, "Js:c/Qs:")
    'JQ:c/-:'
    >>> abstract_key(LeducAbstraction.NONE, "Kh:r")
    'K:r'
    """
    first, _, second = key.partition("/")
    card, sep, line = first.partition(":")
    if len(card) != 2 or not sep or card[0] not in _RANKS:
        raise FormatError(f"{key!r} is not a Leduc information-set key like 'Qh:crc/Ks:r'")
    rank = card[0]
    merged = abstraction is not LeducAbstraction.NONE
    text = f"{_bucket(rank, merged)}:{line}"
    if not second:
        return text
    board, sep, line2 = second.partition(":")
    if len(board) != 2 or not sep or board[0] not in _RANKS:
        raise FormatError(f"{key!r} is not a Leduc information-set key like 'Qh:crc/Ks:r'")
    paired = "=" if board[0] == rank else ""
    if abstraction is LeducAbstraction.JQ:
        seen = board[0] + paired
    elif abstraction is LeducAbstraction.JQ_PAIRED:
        seen = paired or "-"
    else:  # the ranks: the private rank replaces the first-round bucket
        text = f"{rank}:{line}"
        seen = board[0]
    return f"{text}/{seen}:{line2}"


@dataclass(frozen=True)
class AbstractLeducState(State):
    """A Leduc history whose information-set keys are abstract."""

    inner: LeducState
    abstraction: LeducAbstraction

    def current_player(self) -> int:
        return self.inner.current_player()

    def legal_actions(self) -> list[int]:
        return self.inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def information_set_key(self, player: int | None = None) -> str:
        return abstract_key(self.abstraction, self.inner.information_set_key(player))

    def returns(self) -> list[float]:
        return self.inner.returns()

    def child(self, action: int) -> AbstractLeducState:
        return AbstractLeducState(self.inner.child(action), self.abstraction)


class AbstractLeduc(Game):
    """Leduc hold'em under a card abstraction (same tree, coarser information sets).

    Examples
    --------
    >>> from checkraise.games import build_tree
    >>> [build_tree(AbstractLeduc(a)).num_infosets for a in ("none", "jq", "jq-paired")]
    [288, 252, 132]
    """

    name = "leduc-abstract"

    def __init__(self, abstraction: str | LeducAbstraction = LeducAbstraction.JQ) -> None:
        self.abstraction = LeducAbstraction.parse(abstraction)
        self._real = LeducPoker()

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return self._real.num_distinct_actions

    @property
    def params(self) -> Mapping[str, Any]:
        return {"abstraction": self.abstraction.value}

    def initial_state(self) -> AbstractLeducState:
        return AbstractLeducState(self._real.initial_state(), self.abstraction)

    def action_name(self, action: int) -> str:
        return self._real.action_name(action)
