"""The solver-facing game interface.

Solvers see a game only through this small API, modelled on OpenSpiel's
``pyspiel.Game`` / ``pyspiel.State`` (Lanctot et al. 2019, "OpenSpiel: a framework
for reinforcement learning in games"): an initial state, whose turn it is, the legal
actions, the chance outcomes with their probabilities, an information-set key,
the returns, and a terminal test. States are immutable: :meth:`State.child` returns
a new state, so solvers can keep any state they have seen.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError, one_of

__all__ = ["CHANCE", "TERMINAL", "FloatVector", "Game", "IllegalActionError", "NoTensorError",
           "State"]

#: A flat float32 vector, e.g. an information-state tensor.
FloatVector = npt.NDArray[np.float32]

#: ``current_player()`` of a chance node (OpenSpiel's ``kChancePlayerId``).
CHANCE = -1
#: ``current_player()`` of a terminal node (OpenSpiel's ``kTerminalPlayerId``).
TERMINAL = -4


class IllegalActionError(CheckraiseError):
    """An action that is not legal in the state it was applied to."""


class NoTensorError(CheckraiseError):
    """A game without an information-state tensor was asked for one."""


class State(ABC):
    """One history of a game: an immutable node of its game tree."""

    @abstractmethod
    def current_player(self) -> int:
        """The player to act, :data:`CHANCE` or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether chance (the dealer) acts next."""
        return self.current_player() == CHANCE

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal actions of the player to act, ascending (chance: the outcomes)."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node, probabilities summing to 1."""

    @abstractmethod
    def information_set_key(self, player: int | None = None) -> str:
        """A string equal for exactly the histories ``player`` cannot tell apart.

        ``player`` defaults to the player to act.
        """

    @abstractmethod
    def returns(self) -> list[float]:
        """Each player's total reward; zero before the end."""

    @abstractmethod
    def child(self, action: int) -> State:
        """The state after ``action``; raises :class:`IllegalActionError` if it is illegal."""

    def information_state_tensor(self, player: int | None = None) -> FloatVector:
        """What ``player`` knows here, as a flat float32 vector (for neural networks).

        Two histories give equal tensors exactly when they give equal
        :meth:`information_set_key`. ``player`` defaults to the player to act. Games
        that support it document their encoding; the default raises
        :class:`NoTensorError`.
        """
        raise NoTensorError(
            f"{type(self).__name__} has no information-state tensor; "
            "expected a game that defines one (kuhn, leduc, holdem)"
        )

    def check_action(self, action: int) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal here."""
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"action {action!r} is not legal in {self!r}; expected one of {one_of(legal)}"
            )


class Game(ABC):
    """A finite extensive-form game with chance and imperfect information."""

    #: Short registry name, e.g. ``"kuhn"`` or ``"leduc"``.
    name: str

    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of players (not counting chance)."""

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Player actions are ints ``0 .. num_distinct_actions - 1``."""

    @abstractmethod
    def initial_state(self) -> State:
        """The root of the game tree."""

    @abstractmethod
    def action_name(self, action: int) -> str:
        """A short human name for a player action."""

    @property
    def params(self) -> Mapping[str, Any]:
        """The parameters that, with :attr:`name`, rebuild this game (JSON-able)."""
        return {"players": self.num_players}

    @property
    def zero_sum(self) -> bool:
        """Whether every terminal's returns sum to zero."""
        return True

    @property
    def information_state_tensor_size(self) -> int:
        """Length of :meth:`State.information_state_tensor` (:class:`NoTensorError` if none)."""
        raise NoTensorError(
            f"{type(self).__name__} has no information-state tensor; "
            "expected a game that defines one (kuhn, leduc, holdem)"
        )

    def action_names(self) -> Sequence[str]:
        """Names of all player actions, indexed by action."""
        return [self.action_name(a) for a in range(self.num_distinct_actions)]

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"
