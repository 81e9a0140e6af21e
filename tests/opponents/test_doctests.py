"""Run the Examples sections of the hand-reading modules (pytest collects tests/ only)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "checkraise.opponents.actions",
    "checkraise.opponents.stats",
    "checkraise.opponents.model",
    "checkraise.opponents.evidence",
    "checkraise.opponents.pwin",
    "checkraise.opponents.predict",
    "checkraise.opponents.display",
    "checkraise.agents.handreading",
]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
