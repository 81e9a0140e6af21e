"""The docstrings' Examples sections run in the suite: pytest collects src as doctests.

They used to be collected only from ``tests/`` (plus a few modules run by hand
through ``doctest.testmod``), so most examples in ``src/`` never ran.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_pytest_collects_doctests_from_src() -> None:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "src" in cfg["testpaths"]
    assert "--doctest-modules" in cfg["addopts"].split()
    # importlib mode: src/checkraise/x.py is imported as checkraise.x, the same module
    # object the tests use, not a second copy under another name.
    assert "--import-mode=importlib" in cfg["addopts"].split()
