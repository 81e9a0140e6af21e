"""`checkraise match --stop-at`: a match stopped at a time fixed when it starts keeps
the deals it finished in every seating, exactly the match of that many deals."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from checkraise.agents import base
from checkraise.agents.base import register_agent
from checkraise.agents.baselines import CallAgent
from checkraise.cli import match_cmd
from checkraise.cli._options import OptionError
from checkraise.cli.main import main
from checkraise.engine import Action, Observation

START = datetime(2026, 11, 29, 10, 0)


def _clock(monkeypatch: pytest.MonkeyPatch, *readings: datetime) -> None:
    """The command reads ``readings`` in turn from its clock, then the last one forever."""
    it = iter(readings)
    last = readings[-1]
    monkeypatch.setattr(match_cmd, "_now", lambda: next(it, last))


def test_parse_stop_at_reads_both_forms_and_refuses_the_rest() -> None:
    assert match_cmd.parse_stop_at("10:30", START) == datetime(2026, 11, 29, 10, 30)
    assert match_cmd.parse_stop_at("9:59", START) == datetime(2026, 11, 30, 9, 59)
    assert match_cmd.parse_stop_at("10:00", START) == datetime(2026, 11, 30, 10, 0)
    assert match_cmd.parse_stop_at("2026-12-01T08:15", START) == datetime(2026, 12, 1, 8, 15)
    assert match_cmd.parse_stop_at("2026-12-01 08:15", START) == datetime(2026, 12, 1, 8, 15)
    for text, message in [
        ("24:00", "invalid --stop-at '24:00': expected HH:MM or YYYY-MM-DDTHH:MM"),
        ("noon", "invalid --stop-at 'noon'"),
        ("2026-11-29T12:00+01:00", "(local time, to the minute, no time zone)"),
        ("2026-11-29T12:00:30", "invalid --stop-at"),
        ("2026-11-30", "invalid --stop-at"),
        ("2026-02-30T12:00", "invalid --stop-at"),
        ("2026-11-29T09:00", "--stop-at '2026-11-29T09:00' is past (it is 2026-11-29 10:00"),
    ]:
        with pytest.raises(OptionError) as info:
            match_cmd.parse_stop_at(text, START)
        assert message in str(info.value), text


def _journaled(out: Path) -> int:
    """The hands the seating that is furthest behind has journaled in ``out``."""
    counts = []
    for r in (0, 1):
        path = out / "logs" / f"rotation-{r}.jsonl"
        counts.append(path.read_text().count("\n") if path.exists() else 0)
    return min(counts)


def _past_once(monkeypatch: pytest.MonkeyPatch, out: Path, hands: int) -> None:
    """The clock reads 10:00 until every seating has journaled ``hands`` hands, then
    11:00: the stop time (10:30) passes at a point fixed in hands, not in seconds."""
    monkeypatch.setattr(match_cmd, "_now", lambda: datetime(2026, 11, 29, 11, 0)
                        if _journaled(out) >= hands else START)


class _Slow(CallAgent):
    """Calls, a twentieth of a second a decision: a match whose hands take time."""

    def act(self, observation: Observation) -> Action:
        time.sleep(0.05)
        return super().act(observation)


@pytest.fixture
def slow() -> Iterator[str]:
    register_agent("test-slow", _Slow)  # the workers are forked: they have it too
    try:
        yield "test-slow"
    finally:
        base._FACTORIES.pop("test-slow", None)


def test_a_match_stopped_at_its_time_is_the_match_of_the_deals_it_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m"
    _past_once(monkeypatch, out, 30)
    assert main(["match", "random", "call", "-n", "20000", "--seed", "7", "--workers", "2",
                 "--out", str(out), "--stop-at", "10:30", "--json"]) == 0
    printed = capsys.readouterr()
    assert "stopping at 2026-11-29 10:30 if not finished" in printed.err
    data = json.loads(printed.out)
    deals = data["partial"]["deals"]
    assert data["partial"] == {"deals": deals, "planned": 20000,
                               "stopped_at": "2026-11-29T10:30"}
    assert 30 <= deals < 20000
    assert json.loads((out / "results.json").read_text()) == data
    assert "stopped at its --stop-at time, 2026-11-29 10:30: the first" in (
        out / "report.md").read_text()
    # the same as the match of that many deals played in full
    assert main(["match", "random", "call", "-n", str(deals), "--seed", "7", "--workers",
                 "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == data["players"]


def test_a_match_of_slow_hands_stops_within_a_few_hands_of_its_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    slow: str,
) -> None:
    out = tmp_path / "m"
    _past_once(monkeypatch, out, 2)  # the time passes once both seatings have 2 hands
    assert main(["match", slow, "call", "-n", "20000", "--seed", "7", "--workers", "2",
                 "--out", str(out), "--stop-at", "10:30", "--json"]) == 0
    deals = json.loads(capsys.readouterr().out)["partial"]["deals"]
    # Each hand takes a tenth of a second or more; the stop comes at the next report
    # (0.2 s), not when a seating has played a batch of hands (it was 50).
    assert 2 <= deals < 30


def test_a_match_that_finishes_before_its_time_is_not_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _clock(monkeypatch, START)
    assert main(["match", "random", "call", "-n", "120", "--seed", "7", "--workers", "2",
                 "--out", str(tmp_path / "m"), "--stop-at", "10:30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "partial" not in data and data["config"]["hands"] == 120


def test_stop_at_refuses_what_it_cannot_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _clock(monkeypatch, START)
    out = tmp_path / "m"
    for args, message in [
        (["--stop-at", "10:30"], "--stop-at needs --out"),
        (["--stop-at", "10:30", "--out", str(out), "--workers", "1"],
         "--stop-at with --workers 1 (1 process(es)): the 2 seatings"),
        (["--stop-at", "10:30", "--out", str(out), "--backend", "ray"],
         "expected --backend local"),
        (["--stop-at", "25:00", "--out", str(out)], "invalid --stop-at '25:00'"),
    ]:
        assert main(["match", "random", "call", "-n", "10", *args]) == 2, args
        assert message in capsys.readouterr().err, args
    assert not out.exists()  # nothing written


def test_a_stop_before_any_deal_is_whole_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from checkraise.arena import journal

    def nothing(log_dir: Path) -> None:  # what recover says of journals with no whole deal
        raise journal.JournalError(f"{log_dir}: no deal was finished in every seating")

    _clock(monkeypatch, START, datetime(2026, 11, 29, 11, 0))
    monkeypatch.setattr(journal, "recover", nothing)
    out = tmp_path / "m"
    assert main(["match", "random", "call", "-n", "20000", "--seed", "7", "--workers", "2",
                 "--out", str(out), "--stop-at", "10:30"]) == 2
    err = capsys.readouterr().err
    assert "--stop-at 10:30 (2026-11-29 10:30) came before any deal was finished" in err
    assert "--force replaces them" in err and not (out / "results.json").exists()
