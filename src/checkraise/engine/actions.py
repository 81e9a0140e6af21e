"""Actions, the legal-action summary, the illegal-action error and the history records.

Amounts follow the ACPC convention (protocol 2.0.0, ``shared/ACPC.md``): a raise
names the total a seat has put in over the whole hand after raising (antes not
counted, they are dead money), not the increment.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from checkraise.errors import CheckraiseError, FormatError

__all__ = [
    "Action",
    "ActionEvent",
    "ActionKind",
    "DealEvent",
    "Event",
    "IllegalActionError",
    "LegalActions",
]


class ActionKind(StrEnum):
    """Fold, check-or-call, or bet-or-raise."""

    FOLD = "fold"
    CHECK_CALL = "call"
    RAISE = "raise"


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``amount`` is the raise-to total (RAISE only, 0 otherwise).

    Examples
    --------
    >>> str(Action.raise_to(250)), str(Action.call()), str(Action.fold())
    ('r250', 'c', 'f')
    >>> Action.parse("r300") == Action.raise_to(300)
    True
    """

    kind: ActionKind
    amount: int = 0

    @staticmethod
    def fold() -> Action:
        """The fold action."""
        return _FOLD

    @staticmethod
    def call() -> Action:
        """The check-or-call action."""
        return _CALL

    @staticmethod
    def raise_to(amount: int) -> Action:
        """Bet or raise so that this seat's total for the hand becomes ``amount``."""
        return Action(ActionKind.RAISE, amount)

    @staticmethod
    def parse(text: str) -> Action:
        """Parse ACPC action text: ``f``, ``c``, ``r<N>`` (``r`` alone in limit games)."""
        if text == "f":
            return _FOLD
        if text == "c":
            return _CALL
        if text[:1] == "r" and (text[1:].isdigit() or text == "r"):
            return Action(ActionKind.RAISE, int(text[1:]) if len(text) > 1 else 0)
        raise FormatError(f"invalid action {text!r}: expected 'f', 'c', 'r' or 'r<amount>'")

    def __str__(self) -> str:
        if self.kind is ActionKind.RAISE:
            return f"r{self.amount}"
        return "f" if self.kind is ActionKind.FOLD else "c"


_FOLD = Action(ActionKind.FOLD)
_CALL = Action(ActionKind.CHECK_CALL)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the seat to act may do now.

    ``min_raise_to``/``max_raise_to`` are totals for the hand (ACPC convention);
    both are ``None`` when raising is not allowed. In limit games they are equal.
    """

    can_fold: bool
    can_check: bool
    call_amount: int
    min_raise_to: int | None
    max_raise_to: int | None

    @property
    def can_raise(self) -> bool:
        """Whether any raise is allowed."""
        return self.min_raise_to is not None


class IllegalActionError(CheckraiseError):
    """An action that the rules do not allow now; the state was left unchanged."""

    def __init__(self, message: str, action: Action | None = None) -> None:
        super().__init__(message)
        self.action = action


class ActionEvent(NamedTuple):
    """A seat acted in a betting round (``round`` 0 = preflop)."""

    seat: int
    round: int
    action: Action


class DealEvent(NamedTuple):
    """Board cards dealt at the start of ``round``."""

    round: int
    cards: tuple[int, ...]


Event = ActionEvent | DealEvent
