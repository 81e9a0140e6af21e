"""checkraise: no-limit Texas Hold'em AI.

Cards and ranges, a 7-card evaluator, equity, a rule-exact engine, agents,
solvers and the places bots play. See ``docs/architecture.md`` for the map.

The public names below are imported on first use (PEP 562): ``import checkraise``
and the command line's ``--help`` stay light, and only code that evaluates hands
pays for numba and the evaluator's tables.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from checkraise._lazy import lazy_names

if TYPE_CHECKING:
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

# Public name -> the module that defines it.
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        ("COMBO_CARDS", "NUM_COMBOS", "combo_index", "format_card", "format_cards",
         "parse_card", "parse_cards"),
        "checkraise.cards",
    ),
    **dict.fromkeys(
        ("Action", "ActionKind", "Betting", "IllegalActionError", "LegalActions",
         "Observation", "RuleSet", "State", "TableConfig"),
        "checkraise.engine",
    ),
    **dict.fromkeys(
        ("CATEGORY_NAMES", "best_five", "category", "evaluate", "evaluate_batch",
         "evaluate_ints"),
        "checkraise.evaluator",
    ),
    "Range": "checkraise.ranges",
}


_lazy_getattr, __dir__ = lazy_names(__name__, _LAZY)


def __getattr__(name: str) -> object:
    # ``checkraise.equity`` is the subpackage (its function is ``checkraise.equity.equity``).
    if name == "equity":
        return importlib.import_module("checkraise.equity")
    return _lazy_getattr(name)


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
