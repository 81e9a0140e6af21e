"""`checkraise match --stop-at`: a match stopped at a time fixed when it starts keeps
the deals it finished in every seating, exactly the match of that many deals."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from checkraise.cli import match_cmd
from checkraise.cli._options import OptionError
from checkraise.cli.main import main

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


def test_a_match_stopped_at_its_time_is_the_match_of_the_deals_it_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m"
    # read at the start (10:00), then past the stop time at every hand report
    _clock(monkeypatch, START, datetime(2026, 11, 29, 11, 0))
    assert main(["match", "random", "call", "-n", "20000", "--seed", "7", "--workers", "2",
                 "--out", str(out), "--stop-at", "10:30", "--json"]) == 0
    printed = capsys.readouterr()
    assert "stopping at 2026-11-29 10:30 if not finished" in printed.err
    data = json.loads(printed.out)
    deals = data["partial"]["deals"]
    assert data["partial"] == {"deals": deals, "planned": 20000,
                               "stopped_at": "2026-11-29T10:30"}
    assert 30 <= deals < 20000  # the first report comes at 50 hands, the pace keeps 20
    assert json.loads((out / "results.json").read_text()) == data
    assert "stopped at its --stop-at time, 2026-11-29 10:30: the first" in (
        out / "report.md").read_text()
    # the same as the match of that many deals played in full
    assert main(["match", "random", "call", "-n", str(deals), "--seed", "7", "--workers",
                 "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == data["players"]


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
