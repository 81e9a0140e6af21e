"""Public names of a package imported on first use (PEP 562).

A package lists ``name -> module`` and gets the module-level ``__getattr__`` and
``__dir__`` that import the module when the name is first read, then bind it in the
package, so that later look-ups cost nothing. The CLI's ``--help`` and programs that
use one corner of a package then load only what they touch.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping

__all__ = ["lazy_names"]


def lazy_names(
    package: str, names: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` serving ``names`` (name -> module).

    Examples
    --------
    >>> getattr_, dir_ = lazy_names("checkraise", {"one_of": "checkraise.errors"})
    >>> getattr_("one_of")(["a", "b"])
    'a or b'
    >>> getattr_("nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'checkraise' has no attribute 'nothing'
    """

    def __getattr__(name: str) -> object:
        if name in names:
            value = getattr(importlib.import_module(names[name]), name)
            vars(sys.modules[package])[name] = value  # later look-ups skip this function
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return __getattr__, __dir__
