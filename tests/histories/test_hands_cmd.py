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


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("checkraise: error: "), err
    return err


def test_database_in_a_missing_folder_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = tmp_path / "made.txt"
    made.write_text(HANDS)
    db = tmp_path / "no" / "such" / "h.sqlite"
    assert main(["hands", "import", str(made), "--db", str(db)]) == 2
    err = _one_error_line(capsys)
    assert str(db) in err and f"folder {str(db.parent)!r} does not exist" in err
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("command", ["stats", "export", "import"])
def test_a_file_that_is_not_sqlite_is_one_clear_line_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    not_db = tmp_path / "NOT_SQLITE"
    content = b"player,hands\nA,3\n" * 200
    not_db.write_bytes(content)
    made = tmp_path / "made.txt"
    made.write_text(HANDS)
    extra = [str(made)] if command == "import" else ["--out", str(tmp_path / "o")]
    assert main(["hands", command, *extra, "--db", str(not_db)]) == 2
    err = _one_error_line(capsys)
    assert repr(str(not_db)) in err and "file is not a database" in err
    assert not_db.read_bytes() == content


def test_another_programs_sqlite_file_is_refused_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (body TEXT)")
    con.commit()
    con.close()
    before = other.read_bytes()
    made = tmp_path / "made.txt"
    made.write_text(HANDS)
    assert main(["hands", "import", str(made), "--db", str(other)]) == 2
    err = _one_error_line(capsys)
    assert "another program (tables notes)" in err and repr(str(other)) in err
    assert other.read_bytes() == before


def test_stats_of_an_unknown_player_names_him_and_the_known_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = tmp_path / "made.txt"
    made.write_text(HANDS)
    db = tmp_path / "h.sqlite"
    assert main(["hands", "import", str(made), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["hands", "stats", "--db", str(db), "--player", "Nobody"]) == 2
    err = _one_error_line(capsys)
    assert "'Nobody'" in err and all(f"'{name}'" in err for name in "ABC")
    # A near miss is listed first.
    assert main(["hands", "stats", "--db", str(db), "--player", "b"]) == 2
    assert "players are 'B'," in _one_error_line(capsys)
    # A known player with no hands at the asked position is an empty table, not an error.
    assert main(["hands", "stats", "--db", str(db), "--player", "A", "--position", "HJ",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stats"] == []


def test_import_of_pokerstars_text_loads_neither_numpy_nor_the_protocol(
    tmp_path: Path,
) -> None:
    # Start-up is a third of a whole `hands import`: PokerStars text needs the parser,
    # the engine and sqlite, not numpy (a tenth of a second) nor the ACPC reader.
    import os
    import subprocess
    import sys

    src = Path(__file__).resolve().parents[2] / "src"
    code = (
        "import sys\n"
        "from checkraise.cli.main import main\n"
        f"assert main(['hands', 'import', {str(PLURIBUS_SAMPLE)!r}, '--db', "
        f"{str(tmp_path / 'h.sqlite')!r}]) == 0\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba') "
        "or m.startswith(('checkraise.protocol', 'checkraise.histories.acpc_log')))\n"
        "assert not heavy, heavy\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(src)), timeout=120)
    assert run.returncode == 0, run.stderr
    assert "10 hands read, 10 added" in run.stdout


def test_package_names_are_the_functions_whatever_was_imported_first() -> None:
    import checkraise.histories as histories
    import checkraise.histories.acpc_log
    import checkraise.histories.replay
    from checkraise.histories import parse_log_text, replay

    assert callable(replay) and replay.__module__ == "checkraise.histories.replay"
    assert parse_log_text is checkraise.histories.acpc_log.parse_log_text
    assert set(histories.__all__) <= set(dir(histories))
    with pytest.raises(AttributeError, match="nonsense"):
        _ = histories.nonsense
