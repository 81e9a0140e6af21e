"""``checkraise hands import|stats|export`` end to end on small inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkraise.cli.main import main
from tests.histories.test_stats import HANDS
from tests.shared_data import PLURIBUS_SAMPLE


def test_import_stats_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made = tmp_path / "made.txt"
    made.write_text(HANDS)
    db = tmp_path / "h.sqlite"
    assert main(["hands", "import", str(made), str(PLURIBUS_SAMPLE), "--db",
                 str(db),
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [f["added"] for f in report["files"]] == [4, 10]
    assert main(["hands", "import", str(made), "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["files"][0]["added"] == 0

    out = tmp_path / "out"
    assert main(["hands", "stats", "--db", str(db), "--player", "B", "--json",
                 "--out", str(out)]) == 0
    (line,) = json.loads(capsys.readouterr().out)["stats"]
    assert (line["hands"], line["vpip"], line["pfr"], line["bb_per_100"]) == (
        4, 50.0, 25.0, -950.0)
    assert (out / "winnings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["hands", "stats", "--db", str(db), "--position", "BTN"]) == 0
    assert "Pluribus" in capsys.readouterr().out

    for fmt in ("pokerstars", "acpc"):
        assert main(["hands", "export", "--db", str(db), "--format", fmt, "--out",
                     str(tmp_path / fmt), "--json"]) == 0
        files = json.loads(capsys.readouterr().out)["files"]
        again = tmp_path / f"again-{fmt}.sqlite"
        assert main(["hands", "import", *files, "--db", str(again), "--json"]) == 0
        assert sum(f["added"] for f in json.loads(capsys.readouterr().out)["files"]) == 14


def test_bad_file_gives_exit_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(HANDS.replace("C: calls 12", "C: smiles 12"))
    assert main(["hands", "import", str(bad), "--db", str(tmp_path / "h.sqlite")]) == 2
    assert "bad.txt:12: unknown action word 'smiles'" in capsys.readouterr().err
