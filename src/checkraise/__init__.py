"""checkraise: no-limit Texas Hold'em AI.

Cards and ranges, a 7-card evaluator, equity, a rule-exact engine, agents,
solvers and the places bots play. See ``docs/architecture.md`` for the map.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from checkraise.cards import (
    COMBO_CARDS,
    NUM_COMBOS,
    combo_index,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from checkraise.engine import (
    Action,
    ActionKind,
    Betting,
    IllegalActionError,
    LegalActions,
    Observation,
    RuleSet,
    State,
    TableConfig,
)
from checkraise.evaluator import (
    CATEGORY_NAMES,
    best_five,
    category,
    evaluate,
    evaluate_batch,
    evaluate_ints,
)
from checkraise.ranges import Range

__version__ = "0.1.0"


def __getattr__(name: str) -> ModuleType:
    # ``checkraise.equity`` is the subpackage (its function is ``checkraise.equity.equity``);
    # it is imported on first access so that ``import checkraise`` stays light (PEP 562).
    if name == "equity":
        return importlib.import_module("checkraise.equity")
    raise AttributeError(f"module 'checkraise' has no attribute {name!r}")


__all__ = [
    "CATEGORY_NAMES",
    "COMBO_CARDS",
    "NUM_COMBOS",
    "Action",
    "ActionKind",
    "Betting",
    "IllegalActionError",
    "LegalActions",
    "Observation",
    "Range",
    "RuleSet",
    "State",
    "TableConfig",
    "__version__",
    "best_five",
    "category",
    "combo_index",
    "evaluate",
    "evaluate_batch",
    "evaluate_ints",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
]
