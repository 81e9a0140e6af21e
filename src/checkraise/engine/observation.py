"""What one seat may see of a hand: an immutable snapshot with no other seat's hidden cards.

This is the object agents receive (``act(observation) -> Action``); it holds the
seat's own hole cards, the public board, chips and actions, and only those other
hole cards that were shown at a showdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from checkraise.engine.actions import Action, ActionEvent, LegalActions
from checkraise.engine.config import TableConfig

if TYPE_CHECKING:
    from checkraise.engine.state import State

__all__ = ["Observation", "make_observation"]


@dataclass(frozen=True)
class Observation:
    """One seat's view of the hand.

    ``legal`` is set only when it is this seat's turn; ``shown`` holds another
    seat's cards only once they were shown at the showdown (``None`` otherwise,
    and always ``None`` for this seat itself, whose cards are in ``hole_cards``).
    """

    seat: int
    hole_cards: tuple[int, ...]
    board: tuple[int, ...]
    round: int
    stacks: tuple[int, ...]
    contributions: tuple[int, ...]
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    pot: int
    current_player: int | None
    legal: LegalActions | None
    history: tuple[tuple[int, int, Action], ...]
    config: TableConfig
    shown: tuple[tuple[int, ...] | None, ...]
    is_terminal: bool = False

    @property
    def to_call(self) -> int:
        """Chips this seat needs to call now (0 when not its turn)."""
        return self.legal.call_amount if self.legal is not None else 0


def make_observation(state: State, seat: int) -> Observation:
    """Build ``seat``'s :class:`Observation` of ``state``."""
    holes = state.hole_cards
    shown_mask = state.shown()
    shown = tuple(holes[i] if shown_mask[i] and i != seat else None for i in range(len(holes)))
    cur = state.current_player
    history = tuple((e.seat, e.round, e.action) for e in state._history
                    if isinstance(e, ActionEvent))
    return Observation(
        seat=seat,
        hole_cards=holes[seat],
        board=state.board,
        round=state.round,
        stacks=state.stacks,
        contributions=state.contributions,
        folded=state.folded,
        all_in=state.all_in,
        pot=state.pot,
        current_player=cur,
        legal=state.legal_actions() if cur == seat else None,
        history=history,
        config=state.config,
        shown=shown,
        is_terminal=state.is_terminal,
    )
