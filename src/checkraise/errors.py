"""Exceptions shared across checkraise.

Every error caused by bad input is a ``ValueError`` subclass, so callers can
catch one type; the CLI turns them into one line on stderr and exit status 2.
"""

from __future__ import annotations

__all__ = ["CheckraiseError"]


class CheckraiseError(ValueError):
    """Base class for checkraise's input and rule errors."""
