"""Where test data lives: small fixtures in ``tests/data``, the large real sets beside the clone.

Unit tests read the fixtures in ``tests/data`` (a few Pluribus hands, one ACPC game
file and the head of one dealer log, copied from the shared data). Tests that need
the whole real sets ask :func:`shared_data` for them, which decides once for the
whole suite what a missing folder means:

- present: the path;
- missing on CI (the environment variable ``CI`` is ``true``; there ``shared/`` is
  always checked out beside the clone): the test FAILS, naming the path it looked at;
- missing locally: the test is skipped, and the reason names the path.

``CHECKRAISE_SHARED_DATA`` points at another copy of ``shared/data`` (e.g. from a
git worktree, whose parent folder has no ``shared/``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "data"
PLURIBUS_SAMPLE = FIXTURES / "pluribus_sample.txt"  # hands #30020-#30029 of pluribus_30.txt
NL2_GAME = FIXTURES / "holdem.nolimit.2p.reverse_blinds.game"
NL2_LOG_HEAD = FIXTURES / "example_vs_example.nolimit.2p.head.log"  # its first 21 hands


def shared_root() -> Path:
    """The shared data folder: ``$CHECKRAISE_SHARED_DATA`` or ``<clone>/../shared/data``."""
    env = os.environ.get("CHECKRAISE_SHARED_DATA")
    if env:
        return Path(env)
    return FIXTURES.parents[2] / "shared" / "data"


def on_ci() -> bool:
    """True on continuous integration, where the shared data must be present."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def shared_data(*parts: str) -> Path:
    """The path of ``parts`` under the shared data; fail on CI or skip locally if missing.

    Call it inside a test or fixture (not at import time), so that a missing folder
    is reported against the tests that need it.
    """
    path = shared_root().joinpath(*parts)
    if path.exists():
        return path
    msg = (f"shared data not found: {path} (expected the shared/ folder beside the clone,"
           " or CHECKRAISE_SHARED_DATA=/path/to/shared/data)")
    if on_ci():
        pytest.fail(msg, pytrace=False)
    pytest.skip(msg)
