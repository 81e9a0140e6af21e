"""The rules of hold'em for one hand, exactly: blinds, antes, stacks, raises, side pots, undo.

See :mod:`checkraise.engine.config` for the two rule sets (``casino`` and
``acpc``) and :class:`State` for the state machine. Betting follows the
reference ACPC dealer (protocol 2.0.0); the casino rule set treats incomplete
all-in raises as card rooms (and PokerKit) do.

Examples
--------
>>> from checkraise.engine import State, TableConfig, Action
>>> s = State(TableConfig.nolimit(2, stacks=1000), seed=7)
>>> s.step(Action.call()); s.step(Action.call())
>>> s.round, len(s.board)
(1, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from checkraise._lazy import lazy_names

if TYPE_CHECKING:
    from checkraise.engine.actions import (
        Action,
        ActionEvent,
        ActionKind,
        DealEvent,
        Event,
        IllegalActionError,
        LegalActions,
    )
    from checkraise.engine.config import Betting, RuleSet, TableConfig
    from checkraise.engine.observation import Observation
    from checkraise.engine.showdown import Pot, pots
    from checkraise.engine.state import State

# Public name -> its module, imported on first use (PEP 562): the CLI reads RuleSet from
# engine.config for its --help without loading the state machine and numpy.
_LAZY: dict[str, str] = {
    **dict.fromkeys(("Action", "ActionEvent", "ActionKind", "DealEvent", "Event",
                     "IllegalActionError", "LegalActions"), "checkraise.engine.actions"),
    **dict.fromkeys(("Betting", "RuleSet", "TableConfig"), "checkraise.engine.config"),
    "Observation": "checkraise.engine.observation",
    "Pot": "checkraise.engine.showdown",
    "pots": "checkraise.engine.showdown",
    "State": "checkraise.engine.state",
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY)


__all__ = [
    "Action",
    "ActionEvent",
    "ActionKind",
    "Betting",
    "DealEvent",
    "Event",
    "IllegalActionError",
    "LegalActions",
    "Observation",
    "Pot",
    "RuleSet",
    "State",
    "TableConfig",
    "pots",
]
