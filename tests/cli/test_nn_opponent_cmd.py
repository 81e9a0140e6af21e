"""``checkraise nn opponent generate --db`` and ``import``: figures, errors, help (no torch)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from tests.cli_helpers import bad_cli, run_cli
from tests.shared_data import NL2_GAME, NL2_LOG_HEAD

from checkraise.analysis.opponent_data import GenerationConfig, chunk_path, load_decisions
from checkraise.histories.database import open_database


def _generate(out: Path, db: Path, capsys: pytest.CaptureFixture[str],
              *extra: str) -> dict[str, object]:
    code, text, _ = run_cli(["nn", "opponent", "generate", "--out", str(out), "--chunks", "2",
                             "--hands-per-chunk", "20", "--seed", "5", "--db", str(db),
                             *extra], capsys)
    assert code == 0
    return json.loads(text) if "--json" in extra else {"text": text}


def test_generate_with_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "h.sqlite"
    figures = _generate(tmp_path / "d", db, capsys, "--json")
    assert figures["chunks_written"] == 2 and figures["hands_stored"] == 40
    assert figures["database"] == str(db)
    with sqlite3.connect(db) as con:
        actions = con.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert figures["decisions_written"] == actions
    chunk_path(tmp_path / "d", 1).unlink()
    again = _generate(tmp_path / "d", db, capsys, "--json")
    assert (again["chunks_written"], again["hands_stored"]) == (1, 0)
    text = _generate(tmp_path / "d", db, capsys)["text"]
    assert text.splitlines()[-1] == f"0 hands stored in {db}"
    # without --db the figures are as they always were, and so are the chunks
    code, out, _ = run_cli(["nn", "opponent", "generate", "--out", str(tmp_path / "e"),
                            "--chunks", "2", "--hands-per-chunk", "20", "--seed", "5", "--json"],
                           capsys)
    assert code == 0 and set(json.loads(out)) == {
        "folder", "chunks_written", "decisions_written", "seconds", "decisions_per_second"}
    for i in range(2):
        with np.load(chunk_path(tmp_path / "e", i)) as z, \
                np.load(chunk_path(tmp_path / "d", i)) as y:
            assert z.files == y.files
            assert all(z[k].dtype == y[k].dtype and np.array_equal(z[k], y[k]) for k in z.files)
    with sqlite3.connect(db) as con:
        players = {r[0] for r in con.execute("SELECT name FROM players")}
    assert players == set(GenerationConfig().player_names())  # the whole shipped pool


def test_generate_refuses_a_folder_as_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = bad_cli(["nn", "opponent", "generate", "--out", str(tmp_path / "d"), "--chunks", "1",
                    "--db", str(tmp_path)], capsys)
    assert re.search(r"hand database '.*' is a folder: expected a file", line)


def test_import_then_hold_players_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.sqlite"
    _generate(tmp_path / "d", db, capsys, "--json")
    code, _, err = run_cli(["hands", "import", str(NL2_LOG_HEAD), "--db", str(db), "--game",
                            str(NL2_GAME), "--json"], capsys)
    assert code == 0, err
    code, out, _ = run_cli(["nn", "opponent", "import", "--db", str(db), "--out",
                            str(tmp_path / "imp"), "--chunk-size", "5", "--json"], capsys)
    assert code == 0
    figures = json.loads(out)
    assert (figures["hands"], figures["hands_used"], figures["chunks"]) == (61, 61, 13)
    assert sum(figures["hands_skipped"].values()) == 0
    assert figures["players"][-2:] == ["Alice", "Bob"]
    assert figures["decisions"] == len(load_decisions(tmp_path / "imp"))
    # names with '=' (bot specs made player names) are taken as the data's names
    odd = next(p for p in figures["players"] if "=" in p)
    code, out, err = run_cli(["nn", "opponent", "eval", "--data", str(tmp_path / "imp"),
                              "--no-cnn", "--test", f"Alice,{odd}", "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert sorted(report["test_bots"]) == sorted(["Alice", odd])
    ds = load_decisions(tmp_path / "imp")
    held = np.isin(ds.bot, [ds.names.index("Alice"), ds.names.index(odd)])
    assert report["test_size"] == int(held.sum())
    assert report["per_bot"]["Alice"]["majority"]["n"] == int(
        (ds.bot == ds.names.index("Alice")).sum())
    code, out, _ = run_cli(["nn", "opponent", "import", "--db", str(db), "--out",
                            str(tmp_path / "imp2")], capsys)
    assert code == 0
    assert out.strip().endswith(f"in 1 chunks into {tmp_path / 'imp2'}; skipped: none")


def test_import_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def fails(db: Path, out: Path, *extra: str) -> str:
        return bad_cli(["nn", "opponent", "import", "--db", str(db), "--out", str(out),
                        *extra], capsys)

    assert "does not exist: expected a file written by 'checkraise hands import'" in fails(
        tmp_path / "none.sqlite", tmp_path / "o")
    open_database(tmp_path / "empty.sqlite").close()
    assert "holds no hands" in fails(tmp_path / "empty.sqlite", tmp_path / "o")
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "notes.txt").write_text("mine")
    assert "already holds notes.txt: expected a new or empty folder" in fails(
        tmp_path / "empty.sqlite", tmp_path / "o")
    assert "chunk size 0: expected 1 hand or more" in fails(
        tmp_path / "empty.sqlite", tmp_path / "p", "--chunk-size", "0")
    assert (tmp_path / "o" / "notes.txt").read_text() == "mine"
    assert not (tmp_path / "p").exists()


def _help(path: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code, out, _ = run_cli([*path, "--help"], capsys)
    assert code == 0
    return " ".join(out.split())


def test_help_texts(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    text = _help(["nn", "opponent", "generate"], capsys)
    assert "--db <path> Hand database (SQLite, created if missing)" in text
    assert "each hand once, however often the run is resumed" in text
    text = _help(["nn", "opponent", "import"], capsys)
    assert "Turn a hand database's heads-up hands into decision chunks, one bot per player." \
        in text
    assert "--out <path> Data folder to write (new or empty). [required]" in text
    assert "--chunk-size <int> Hands per chunk. [default: 2000]" in text
    assert "are skipped and counted" in text
    text = _help(["nn", "opponent"], capsys)
    assert "import Turn a hand database's heads-up hands" in text
    assert "player names" in _help(["nn", "opponent", "eval"], capsys)
