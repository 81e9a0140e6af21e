"""The one rule for the large shared data: present -> path; missing -> fail on CI, skip locally."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkraise.histories import parse_file, parse_log_file
from tests.shared_data import NL2_GAME, NL2_LOG_HEAD, PLURIBUS_SAMPLE, shared_data


def test_present_data_is_returned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "acpc").mkdir()
    monkeypatch.setenv("CHECKRAISE_SHARED_DATA", str(tmp_path))
    monkeypatch.setenv("CI", "true")
    assert shared_data("acpc") == tmp_path / "acpc"


@pytest.mark.parametrize("ci", ["true", "True", "1"])
def test_missing_data_fails_on_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ci: str
) -> None:
    monkeypatch.setenv("CHECKRAISE_SHARED_DATA", str(tmp_path / "nowhere"))
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match=r"shared data not found: .*nowhere"):
        shared_data("pluribus")


@pytest.mark.parametrize("ci", [None, "", "false"])
def test_missing_data_is_skipped_locally_with_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ci: str | None
) -> None:
    monkeypatch.setenv("CHECKRAISE_SHARED_DATA", str(tmp_path / "nowhere"))
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception, match="nowhere"):
        shared_data("pluribus", "pluribus_30.txt")


def test_the_shipped_fixtures_are_small_and_read() -> None:
    for path in (PLURIBUS_SAMPLE, NL2_GAME, NL2_LOG_HEAD):
        assert path.stat().st_size < 10_000, path
    assert [h.hand_id for h in parse_file(PLURIBUS_SAMPLE)] == [str(30020 + i) for i in range(10)]
    assert len(parse_log_file(NL2_LOG_HEAD)) == 21
