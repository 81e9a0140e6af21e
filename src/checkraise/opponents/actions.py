"""Action understanding: a bet's size class, the choices a player had, a street's summary.

The hand-reading design (Li, Jiang, Chen, Bao, "Game in multiplayer no-limit Texas
Hold'em based on hands prediction", Chinese Journal of Computers 40(12), 2017) reads an
opponent's actions in classes rather than in chips:

* after the flop a bet or raise is classed by its size against the pot: the chips added
  beyond a call, over the pot after that call, below 0.6 is **half pot**, 0.6 to 1.0
  **three-quarter pot**, above 1.0 **pot** (pot-sized and overbets);
* before the flop by the number of raises before it: the first raise is a **raise** (the
  open, a "bet" over the blinds), then the **3-bet**, then **4-bet** and above;
* each street is summarised by the player's most aggressive action on it (fold < check <
  call < raise classes by size), so a check-raise counts as a raise.

Every action also records the choices the player had (:attr:`UnderstoodAction.choices`):
facing a bet fold, call or a raise; otherwise check or a bet. Preflop the only raise
class on offer is the one the raise count gives. The default model normalises over them.

Examples
--------
>>> from checkraise.engine import Action, TableConfig
>>> cfg = TableConfig.nolimit(3, stacks=10_000)
>>> hist = [(2, 0, Action.raise_to(300)), (0, 0, Action.fold()), (1, 0, Action.raise_to(900)),
...         (2, 0, Action.call())]
>>> [(a.seat, a.cls.value) for a in understand(cfg, hist)]
[(2, 'raise'), (0, 'fold'), (1, 'three_bet'), (2, 'call')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from checkraise.engine import Action, ActionKind, TableConfig
from checkraise.errors import FormatError

__all__ = [
    "FACING_POSTFLOP",
    "HALF_POT_BELOW",
    "OPEN_POSTFLOP",
    "POT_ABOVE",
    "PREFLOP_RAISES",
    "ActionClass",
    "UnderstoodAction",
    "aggression",
    "postflop_size_class",
    "summarize",
    "understand",
]

HALF_POT_BELOW: Final = 0.6
"""Bets below this fraction of the pot are half-pot bets."""
POT_ABOVE: Final = 1.0
"""Bets above this fraction of the pot are pot bets (pot-sized or overbets)."""


class ActionClass(StrEnum):
    """What an action means to the model."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    HALF = "half"
    THREE_QUARTER = "three_quarter"
    POT = "pot"
    RAISE = "raise"
    THREE_BET = "three_bet"
    FOUR_BET = "four_bet"


_AGGRESSION: Final = {
    ActionClass.FOLD: 0,
    ActionClass.CHECK: 1,
    ActionClass.CALL: 2,
    ActionClass.HALF: 3,
    ActionClass.RAISE: 3,
    ActionClass.THREE_QUARTER: 4,
    ActionClass.THREE_BET: 4,
    ActionClass.POT: 5,
    ActionClass.FOUR_BET: 5,
}

FACING_POSTFLOP: Final = (
    ActionClass.FOLD, ActionClass.CALL, ActionClass.HALF, ActionClass.THREE_QUARTER,
    ActionClass.POT,
)
OPEN_POSTFLOP: Final = (
    ActionClass.CHECK, ActionClass.HALF, ActionClass.THREE_QUARTER, ActionClass.POT,
)
PREFLOP_RAISES: Final = (ActionClass.RAISE, ActionClass.THREE_BET, ActionClass.FOUR_BET)
"""The preflop raise class by the number of raises before it (0, 1, 2 or more)."""


def aggression(cls: ActionClass) -> int:
    """Order of aggressiveness: fold 0, check 1, call 2, raise classes 3-5 by size.

    Examples
    --------
    >>> aggression(ActionClass.CHECK) < aggression(ActionClass.HALF)
    True
    """
    return _AGGRESSION[cls]


def postflop_size_class(added: float, pot_after_call: float) -> ActionClass:
    """Class of a bet or raise adding ``added`` chips beyond a call to ``pot_after_call``.

    Examples
    --------
    >>> [postflop_size_class(x, 100).value for x in (50, 59, 60, 100, 101)]
    ['half', 'half', 'three_quarter', 'three_quarter', 'pot']
    """
    if pot_after_call <= 0:
        return ActionClass.POT
    fraction = added / pot_after_call
    if fraction < HALF_POT_BELOW:
        return ActionClass.HALF
    if fraction <= POT_ABOVE:
        return ActionClass.THREE_QUARTER
    return ActionClass.POT


@dataclass(frozen=True)
class UnderstoodAction:
    """One action read by the model.

    Attributes
    ----------
    seat, street
        Engine seat of the actor, 0 preflop .. 3 river.
    cls
        The action's class.
    choices
        The classes the player could have chosen (``cls`` among them).
    players
        Players still in the hand (not folded, the actor included) when he acted.
    pot
        Chips in the pot before the action (antes included).
    to_call
        Chips he had to add to call.
    fraction
        For bets and raises, the chips added beyond a call over the pot after calling.
    index
        Position of the action in the hand's history.
    raises
        Bets and raises made before it on its street (the blinds not counted): preflop 0
        is the open (or limp), 1 the 3-bet decision, 2 the 4-bet one; after the flop 0
        is the first bet, 1 facing a bet, 2 facing a raise.
    """

    seat: int
    street: int
    cls: ActionClass
    choices: tuple[ActionClass, ...]
    players: int
    pot: int
    to_call: int
    fraction: float = 0.0
    index: int = 0
    raises: int = 0

    @property
    def facing(self) -> bool:
        """Whether he faced a bet (had chips to call)."""
        return self.to_call > 0


def understand(
    config: TableConfig, history: Iterable[tuple[int, int, Action]]
) -> list[UnderstoodAction]:
    """Classify every action of a hand's public history (engine ``(seat, round, action)``).

    Raise amounts are engine totals for the hand (ACPC convention); blinds and antes come
    from ``config``.
    """
    n = config.num_players
    contrib = list(config.blinds)
    stacks = list(config.stacks)
    dead = config.ante * n
    folded = [False] * n
    level = max(contrib)
    street = 0
    raises = 0
    out: list[UnderstoodAction] = []
    for index, (seat, rnd, action) in enumerate(history):
        if not 0 <= seat < n or not 0 <= rnd <= 3:
            raise FormatError(f"history entry {index} has seat {seat} and round {rnd}: expected "
                             f"a seat 0..{n - 1} and a round 0..3")
        if rnd != street:
            street = rnd
            raises = 0
        pot = sum(contrib) + dead
        raised_before = raises
        owed = max(0, min(level, stacks[seat]) - contrib[seat])
        players = n - sum(folded)
        if street == 0:
            raise_cls = PREFLOP_RAISES[min(raises, 2)]
            choices: tuple[ActionClass, ...] = (
                (ActionClass.FOLD, ActionClass.CALL, raise_cls) if owed > 0
                else (ActionClass.CHECK, raise_cls)
            )
        else:
            choices = FACING_POSTFLOP if owed > 0 else OPEN_POSTFLOP
        fraction = 0.0
        if action.kind is ActionKind.FOLD:
            # Folding with nothing to call gives up the hand but reads as a check.
            cls = ActionClass.FOLD if owed > 0 else ActionClass.CHECK
            folded[seat] = True
        elif action.kind is ActionKind.CHECK_CALL:
            cls = ActionClass.CALL if owed > 0 else ActionClass.CHECK
            contrib[seat] += owed
        else:
            added = action.amount - max(level, contrib[seat])
            fraction = added / (pot + owed) if pot + owed > 0 else 0.0
            if street == 0:
                cls = PREFLOP_RAISES[min(raises, 2)]
            else:
                cls = postflop_size_class(added, pot + owed)
            raises += 1
            contrib[seat] = action.amount
            level = max(level, action.amount)
        out.append(UnderstoodAction(seat, street, cls, choices, players, pot, owed, fraction,
                                    index, raised_before))
    return out


def summarize(actions: Sequence[UnderstoodAction]) -> dict[tuple[int, int], UnderstoodAction]:
    """Each (seat, street)'s most aggressive action (the first of equals).

    Examples
    --------
    >>> from checkraise.engine import TableConfig
    >>> cfg = TableConfig.nolimit(2, stacks=10_000)
    >>> hist = [(0, 0, Action.call()), (1, 0, Action.call()), (1, 1, Action.call()),
    ...         (0, 1, Action.raise_to(150)), (1, 1, Action.raise_to(600)), (0, 1, Action.fold())]
    >>> s = summarize(understand(cfg, hist))
    >>> s[(1, 1)].cls.value, s[(0, 1)].cls.value
    ('pot', 'half')
    """
    best: dict[tuple[int, int], UnderstoodAction] = {}
    for a in actions:
        key = (a.seat, a.street)
        if key not in best or aggression(a.cls) > aggression(best[key].cls):
            best[key] = a
    return best
