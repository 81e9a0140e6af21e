"""Run the Examples sections of the engine modules (pytest collects doctests in tests/ only)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "checkraise.engine",
    "checkraise.engine.actions",
    "checkraise.engine.config",
    "checkraise.engine.showdown",
    "checkraise.engine.state",
    "checkraise.engine._setup",
    "checkraise.engine._serialise",
]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
