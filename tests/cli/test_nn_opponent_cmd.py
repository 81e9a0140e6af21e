"""``checkraise nn opponent generate --db`` and ``import``: figures, errors, help (no torch)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from tests.cli_helpers import bad_cli, run_cli

from checkraise.analysis.opponent_data import chunk_path


def _generate(out: Path, db: Path, capsys: pytest.CaptureFixture[str],
              *extra: str) -> dict[str, object]:
    code, text, _ = run_cli(["nn", "opponent", "generate", "--out", str(out), "--chunks", "2",
                             "--hands-per-chunk", "6", "--seed", "4", "--db", str(db),
                             *extra], capsys)
    assert code == 0
    return json.loads(text) if "--json" in extra else {"text": text}


def test_generate_with_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "h.sqlite"
    figures = _generate(tmp_path / "d", db, capsys, "--json")
    assert figures["chunks_written"] == 2 and figures["hands_stored"] == 12
    assert figures["database"] == str(db)
    with sqlite3.connect(db) as con:
        actions = con.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert figures["decisions_written"] == actions
    chunk_path(tmp_path / "d", 1).unlink()
    again = _generate(tmp_path / "d", db, capsys, "--json")
    assert (again["chunks_written"], again["hands_stored"]) == (1, 0)
    text = _generate(tmp_path / "d", db, capsys)["text"]
    assert text.splitlines()[-1] == f"0 hands stored in {db}"
    # without --db the figures are as they always were
    code, out, _ = run_cli(["nn", "opponent", "generate", "--out", str(tmp_path / "e"),
                            "--chunks", "1", "--hands-per-chunk", "6", "--seed", "4", "--json"],
                           capsys)
    assert code == 0 and set(json.loads(out)) == {
        "folder", "chunks_written", "decisions_written", "seconds", "decisions_per_second"}
    with np.load(chunk_path(tmp_path / "e", 0)) as z, np.load(chunk_path(tmp_path / "d", 0)) as y:
        assert all(np.array_equal(z[k], y[k]) for k in z.files)


def test_generate_refuses_a_folder_as_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = bad_cli(["nn", "opponent", "generate", "--out", str(tmp_path / "d"), "--chunks", "1",
                    "--db", str(tmp_path)], capsys)
    assert re.search(r"hand database '.*' is a folder: expected a file", line)


def _help(path: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code, out, _ = run_cli([*path, "--help"], capsys)
    assert code == 0
    return " ".join(out.split())


def test_help_texts(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    text = _help(["nn", "opponent", "generate"], capsys)
    assert "--db <path> Hand database (SQLite, created if missing)" in text
    assert "each hand once, however often the run is resumed" in text
