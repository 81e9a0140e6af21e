"""Shared fixtures: the real Pluribus and ACPC data beside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkraise.histories import HandRecord, parse_file
from tests.histories.paths import PLURIBUS


def pluribus_files() -> list[Path]:
    files = sorted(PLURIBUS.glob("*.txt"))
    if not files:
        pytest.skip(f"Pluribus data not found under {PLURIBUS}")
    return files


@pytest.fixture(scope="session")
def pluribus_hands() -> list[HandRecord]:
    """Every Pluribus hand, parsed once for the session."""
    return [h for f in pluribus_files() for h in parse_file(f)]
