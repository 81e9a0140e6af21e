"""Run the Examples sections of the tuning modules (pytest collects tests/ only)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["checkraise.tuning.ringplay", "checkraise.tuning.selfplay", "checkraise.tuning.tuner"]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
