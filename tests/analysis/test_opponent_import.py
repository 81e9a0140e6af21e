"""A hand database's heads-up hands as decision chunks: the direct route's decisions, errors."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from tests.shared_data import NL2_GAME, NL2_LOG_HEAD

from checkraise.analysis import opponent_import
from checkraise.analysis.opponent_data import (
    GenerationConfig,
    data_command,
    decisions_from_hands,
    generate,
    load_decisions,
)
from checkraise.analysis.opponent_import import import_database
from checkraise.errors import ConfigError, FormatError
from checkraise.histories.database import (
    HandDatabaseError,
    insert_hands,
    load_hands,
    open_database,
)
from checkraise.histories.importer import import_files
from checkraise.histories.pokerstars import EXAMPLE, parse_text
from checkraise.protocol.gamedef import load_gamedef

FAST = GenerationConfig(seed=3, chunks=2, hands_per_chunk=25,
                        pool=("random:pfold=0.2,pcall=0.6,praise=0.2", "call", "raise",
                              "checkfold"), weights=(1, 1, 1, 1))
FIELDS = ("label", "mask", "round", "seat", "nprev", "hole", "board", "scalars", "first_action")


def _log_labels() -> np.ndarray:
    """The classes of the ACPC log's decisions, read by decisions_from_hands."""
    db = open_database(":memory:")
    import_files(db, [NL2_LOG_HEAD], game=load_gamedef(NL2_GAME))
    return decisions_from_hands(list(load_hands(db)))[0].label


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(database, direct folder): FAST's 50 hands, a three-handed hand, 21 ACPC log hands."""
    root = tmp_path_factory.mktemp("db")
    path = root / "h.sqlite"
    db = open_database(path)
    generate(root / "direct", FAST)
    generate(root / "through_db", FAST, db=db)
    assert insert_hands(db, parse_text(EXAMPLE)) == 1
    [report] = import_files(db, [NL2_LOG_HEAD], game=load_gamedef(NL2_GAME))
    assert report.added == 21
    db.close()
    return path, root / "direct"


def test_import_gives_the_decisions_of_the_direct_route(
    database: tuple[Path, Path], tmp_path: Path
) -> None:
    path, direct = database
    report = import_database(path, tmp_path / "imp", chunk_size=20)
    assert (report.hands, report.used, report.chunks) == (72, 71, 4)
    assert report.skipped == {"not heads-up": 1, "limit betting": 0,
                              "other starting stacks": 0, "hole cards unknown": 0}
    assert report.players[-2:] == ("Alice", "Bob") and report.stack == 20000
    assert set(report.players[:-2]) == set(FAST.player_names())
    ds, want = load_decisions(tmp_path / "imp"), load_decisions(direct)
    assert ds.names == report.players and len(ds) == report.decisions
    n = len(want)
    for k in FIELDS:
        assert np.array_equal(getattr(ds, k)[:n], getattr(want, k)), k
    assert np.array_equal(ds.actions[:want.actions.shape[0]], want.actions)
    for ids, want_ids in ((ds.bot, want.bot), (ds.opp, want.opp)):
        assert [ds.names[b] for b in ids[:n]] == [FAST.player_names()[b] for b in want_ids]
    assert np.array_equal(ds.planes(np.arange(n)), want.planes(np.arange(n)))
    # the log's hands follow, as decisions_from_hands reads them
    assert np.array_equal(ds.label[n:], _log_labels())
    assert data_command(tmp_path / "imp") == (
        f"checkraise nn opponent import --db {path} --out {tmp_path / 'imp'} --chunk-size 20")


def test_bad_inputs_are_refused_and_leave_nothing(
    database: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = database
    out = tmp_path / "out"
    with pytest.raises(HandDatabaseError, match=r"'.*nope.sqlite' does not exist"):
        import_database(tmp_path / "nope.sqlite", out)
    open_database(tmp_path / "empty.sqlite").close()
    with pytest.raises(FormatError, match="holds no hands"):
        import_database(tmp_path / "empty.sqlite", out)
    six = open_database(tmp_path / "six.sqlite")
    insert_hands(six, parse_text(EXAMPLE))
    six.close()
    with pytest.raises(FormatError, match=r"none of the 1 hands .* \(1 not heads-up\)"):
        import_database(tmp_path / "six.sqlite", out)
    with pytest.raises(ConfigError, match="chunk size 0"):
        import_database(path, out, chunk_size=0)
    assert not (tmp_path / "nope.sqlite").exists()
    assert not any(p.is_dir() for p in tmp_path.iterdir())  # no folder, not even a temporary one
    written: list[Path] = []

    def failing(chunk: Path, arrays: dict[str, np.ndarray]) -> None:
        if written:
            raise OSError("disk full")
        written.append(chunk)
        np.savez(chunk, **arrays)

    monkeypatch.setattr(opponent_import, "write_chunk", failing)
    with pytest.raises(OSError, match="disk full"):
        import_database(path, out, chunk_size=30)
    assert written and not written[0].exists() and not any(p.is_dir() for p in tmp_path.iterdir())


def test_an_out_folder_with_anything_in_it_is_refused(
    database: tuple[Path, Path], tmp_path: Path
) -> None:
    path, direct = database
    with pytest.raises(ConfigError, match=r"already holds chunk_00000.npz, chunk_00001.npz, "
                                          r"manifest.json: expected a new or empty folder"):
        import_database(path, direct)
    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigError, match="is a file"):
        import_database(path, tmp_path / "file")
    (tmp_path / "empty").mkdir()
    assert import_database(path, tmp_path / "empty", chunk_size=100).chunks == 1
    assert len(load_decisions(tmp_path / "empty")) == len(load_decisions(direct)) + len(
        _log_labels())
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT COUNT(*) FROM hands").fetchone()[0] == 72  # read, not changed
