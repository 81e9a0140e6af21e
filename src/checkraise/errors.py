"""Exceptions shared across checkraise.

Every error caused by bad input is a ``ValueError`` subclass, so callers can
catch one type; the CLI turns them into one line on stderr and exit status 2.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CheckraiseError", "ConfigError", "FormatError", "one_of"]


class CheckraiseError(ValueError):
    """Base class for checkraise's input and rule errors."""


class ConfigError(CheckraiseError):
    """A setting, option or argument outside the values it may take."""


class FormatError(CheckraiseError):
    """Text or a file that is not in the form expected (JSON fields, action strings ...)."""


def one_of(names: Iterable[object]) -> str:
    """Valid choices as an error message lists them: ``"a, b or c"``.

    Examples
    --------
    >>> one_of(("cfr", "cfr+", "dcfr"))
    'cfr, cfr+ or dcfr'
    >>> one_of(["exact"]), one_of([])
    ('exact', 'nothing')
    """
    items = [str(n) for n in names]
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} or {items[-1]}"
