"""Shared fixtures: the real Pluribus and ACPC data beside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkraise.histories import HandRecord, parse_file
from tests.shared_data import shared_data


def pluribus_files() -> list[Path]:
    folder = shared_data("pluribus")
    files = sorted(folder.glob("*.txt"))
    if not files:
        pytest.fail(f"no Pluribus hands (*.txt) in {folder}", pytrace=False)
    return files


@pytest.fixture(scope="session")
def pluribus_hands() -> list[HandRecord]:
    """Every Pluribus hand, parsed once for the session."""
    return [h for f in pluribus_files() for h in parse_file(f)]
