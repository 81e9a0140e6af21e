"""The matches kept in the repository (``docs/results``, see its README): each archive's
gzipped journals recover to the result its ``results.json`` reports, figure for figure,
so what the README quotes from them can be rebuilt from the hands themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkraise.arena.journal import RECOVERED_SAME, recover

RESULTS = Path(__file__).resolve().parents[2] / "docs" / "results"
ARCHIVES = sorted(p.parent.parent for p in RESULTS.glob("*/*/logs/match.json"))


def test_the_archives_are_there() -> None:
    assert ARCHIVES, f"no archived match under {RESULTS}"


@pytest.mark.parametrize("archive", ARCHIVES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_archive_recovers_to_its_results(archive: Path) -> None:
    reported = json.loads((archive / "results.json").read_text(encoding="utf-8"))
    result, planned = recover(archive / "logs")
    rebuilt = result.to_json()
    assert planned == json.loads((archive / "logs" / "match.json").read_text())["config"]["hands"]
    for key in RECOVERED_SAME:
        assert rebuilt[key] == reported[key], key
    assert not list((archive / "logs").glob("*.jsonl")), "an archive keeps its journals gzipped"
