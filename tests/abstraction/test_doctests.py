"""Run the Examples sections of the abstraction modules (pytest collects tests/ only)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "checkraise.abstraction.abstraction",
    "checkraise.abstraction.build",
    "checkraise.abstraction.clustering",
    "checkraise.abstraction.features",
]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
