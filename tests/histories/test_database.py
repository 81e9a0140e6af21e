"""The SQLite hand database: Pluribus import, idempotence, atomic files, migrations, export."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from checkraise.histories import (
    SCHEMA_VERSION,
    HandRecord,
    format_hands,
    import_files,
    insert_hands,
    load_hands,
    net_results,
    open_database,
    parse_file,
    replay,
)
from checkraise.histories.database import MIGRATIONS
from tests.shared_data import PLURIBUS_SAMPLE, shared_data


def _count(db: sqlite3.Connection, table: str) -> int:
    return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def test_pluribus_folder_imports_once(tmp_path: Path, pluribus_hands: list[HandRecord]) -> None:
    files = sorted(shared_data("pluribus").glob("*.txt"))
    db = open_database(tmp_path / "h.sqlite")
    reports = import_files(db, files)
    assert all(r.ok for r in reports), [r.error for r in reports if not r.ok]
    assert sum(r.added for r in reports) == 4930
    assert _count(db, "hands") == 4930
    assert _count(db, "seats") == 6 * 4930
    assert _count(db, "actions") == sum(len(h.actions) for h in pluribus_hands)
    again = import_files(db, files)
    assert sum(r.added for r in again) == 0 and sum(r.hands for r in again) == 4930
    assert _count(db, "hands") == 4930
    # What comes back out is what went in, and it replays to the same results.
    stored = list(load_hands(db))
    assert stored == pluribus_hands
    db.close()


def test_export_round_trip_reproduces_results(tmp_path: Path) -> None:
    hands = parse_file(PLURIBUS_SAMPLE)
    db = open_database(tmp_path / "h.sqlite")
    insert_hands(db, hands)
    text = format_hands(list(load_hands(db)))
    (tmp_path / "out.txt").write_text(text)
    back = parse_file(tmp_path / "out.txt")
    assert [replay(h).payoffs() for h in back] == [replay(h).payoffs() for h in hands]
    assert [net_results(h) for h in back] == [net_results(h) for h in hands]


@pytest.mark.parametrize(
    ("old", "new", "what"),
    [
        ("MrWhite: raises 125 to 225", "MrWhite: shoves 125 to 225", "unknown action word"),
        ("Budd: calls 200", "Budd: calls 2000", "impossible amount"),
        ("Dealt to Gogo [3h 4c]", "Dealt to Gogo [3h 6s]", "dealt twice"),
    ],
)
def test_bad_file_is_rejected_whole_and_the_others_go_in(
    tmp_path: Path, old: str, new: str, what: str
) -> None:
    # The sample's first five hands make the good file, its last five (#30025-#30029,
    # where the lines to break are) the bad one.
    hands = PLURIBUS_SAMPLE.read_text().split("\n\n\n")
    good = tmp_path / "good.txt"
    good.write_text("\n\n\n".join(hands[:5]))
    text = "\n\n\n".join(hands[5:])
    assert old in text
    bad_text = text.replace(old, new, 1)
    bad = tmp_path / "bad.txt"
    bad.write_text(bad_text)
    db = open_database(tmp_path / "h.sqlite")
    good_report, bad_report = import_files(db, [good, bad])
    assert good_report.ok and good_report.added == 5
    assert not bad_report.ok and what in str(bad_report.error)
    line = bad_text.splitlines().index(new) + 1 if what != "dealt twice" else None
    assert str(bad_report.error).startswith(f"bad.txt:{line}:" if line else "bad.txt:")
    # Nothing of bad.txt, not even its good hands before the bad one, was committed.
    assert _count(db, "hands") == 5
    assert {r[0] for r in db.execute("SELECT DISTINCT source FROM hands")} == {"good.txt"}


def test_truncated_file_is_rejected(tmp_path: Path) -> None:
    text = PLURIBUS_SAMPLE.read_text()
    cut = text[: text.index("Budd: calls 200")]  # ends in the middle of hand #30027
    bad = tmp_path / "cut.txt"
    bad.write_text(cut)
    db = open_database(tmp_path / "h.sqlite")
    (report,) = import_files(db, [bad])
    assert not report.ok and "truncated" in str(report.error)
    assert str(report.error).startswith("cut.txt:")
    assert _count(db, "hands") == 0


def test_migration_from_version_1_fills_the_statistics(tmp_path: Path) -> None:
    hands = parse_file(PLURIBUS_SAMPLE)
    current = open_database(":memory:")
    insert_hands(current, hands)
    # A version-1 database holding the same hands: the columns of version 1 only.
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path, isolation_level=None)
    MIGRATIONS[0](old)
    old.execute("PRAGMA user_version = 1")
    for table in ("players", "hands", "seats", "actions"):
        columns = [r[1] for r in old.execute(f"PRAGMA table_info({table})")]
        rows = current.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
        old.executemany(f"INSERT INTO {table} VALUES ({','.join('?' * len(columns))})", rows)
    old.close()
    upgraded = open_database(path)
    assert upgraded.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    query = "SELECT * FROM seats ORDER BY hand_id, seat"
    assert upgraded.execute(query).fetchall() == current.execute(query).fetchall()
    assert upgraded.execute(query).fetchone()[12] == "SB"  # the position column was filled


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(ValueError, match="schema version"):
        open_database(path)


def test_file_database_is_a_write_ahead_log_without_a_sync_per_commit(tmp_path: Path) -> None:
    db = open_database(tmp_path / "h.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: synced at checkpoints
    db.close()
    # The mode is stored in the file: a plain connection sees it too.
    plain = sqlite3.connect(tmp_path / "h.sqlite")
    assert plain.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    plain.close()


def test_stored_flags_are_plain_integers(tmp_path: Path) -> None:
    db = open_database(":memory:")
    hands = parse_file(PLURIBUS_SAMPLE)
    insert_hands(db, hands)
    kinds = db.execute(
        "SELECT DISTINCT typeof(showed), typeof(vpip), typeof(won_at_showdown), "
        "typeof(collected), typeof(net) FROM seats").fetchall()
    assert kinds == [("integer", "integer", "integer", "text", "real")]
    assert db.execute("SELECT DISTINCT typeof(all_in), typeof(move) FROM actions").fetchall() == [
        ("integer", "text")]
    # Each hand's actions come back in order with the moves' own words.
    moves = [r[0] for r in db.execute("SELECT move FROM actions ORDER BY hand_id, idx")]
    assert moves == [a.move.value for h in hands for a in h.actions]


def test_import_pauses_the_cycle_collector_only_while_it_runs(tmp_path: Path) -> None:
    import gc

    good = tmp_path / "good.txt"
    good.write_text(PLURIBUS_SAMPLE.read_text())
    bad = tmp_path / "bad.txt"
    bad.write_text("PokerStars Hand #1: nonsense\n")
    db = open_database(tmp_path / "h.sqlite")
    assert gc.isenabled()
    reports = import_files(db, [good, bad])
    assert [r.ok for r in reports] == [True, False]
    assert gc.isenabled()  # back on, after a good and after a bad file
    gc.disable()
    try:
        import_files(db, [good])
        assert not gc.isenabled()  # left off when the caller had it off
    finally:
        gc.enable()


@pytest.mark.parametrize(
    "text",
    ["STATE:0:f:AsKd|2c2d:-50|50:A|B\n", "\n \n# comment\nSTATE:0:f:AsKd|2c2d:-50|50:A|B\n",
     "  STATE:0:f\n", "\ufeff;x\n", "\r\n\r\nSTATE:1\r\n", "\x0c\n\u2028\nSTATE:1\n", "", "\n\n",
     "PokerStars Hand #1: x\n", " \t\nPokerStars Hand #1: x\n"],
)
def test_format_told_from_the_text_as_from_the_file(tmp_path: Path, text: str) -> None:
    from checkraise.histories.importer import _format_of, detect_format

    path = tmp_path / "x.txt"
    path.write_bytes(text.encode("utf-8"))
    assert _format_of(path.read_text(encoding="utf-8-sig")) == detect_format(path)


def test_undecodable_file_is_reported_and_the_others_go_in(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(PLURIBUS_SAMPLE.read_text())
    bad = tmp_path / "bad.txt"
    bad.write_bytes(PLURIBUS_SAMPLE.read_bytes()[:5000] + b"\xff\xfe junk\n")
    db = open_database(tmp_path / "h.sqlite")
    good_report, bad_report = import_files(db, [good, bad])
    assert good_report.ok and not bad_report.ok
    assert "can't decode byte 0xff in position 5000" in str(bad_report.error)
    assert _count(db, "hands") == 10


def test_a_file_failing_while_its_rows_are_written_leaves_the_database_as_it_was(
    tmp_path: Path,
) -> None:
    hands = PLURIBUS_SAMPLE.read_text().split("\n\n\n")
    early, late = tmp_path / "early.txt", tmp_path / "late.txt"
    early.write_text("\n\n\n".join(hands[:5]))
    late.write_text("\n\n\n".join(hands[5:]))
    path = tmp_path / "h.sqlite"
    db = open_database(path)
    (first,) = import_files(db, [early])
    assert first.ok
    tables = ("players", "hands", "seats", "actions")
    before = {t: db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables}
    # The disk "fills up" at the 30th action of a file: its players, hands, seats and
    # first actions are already written inside its transaction by then.
    db.execute("CREATE TEMP TABLE n (k INTEGER)")
    db.execute("CREATE TEMP TRIGGER full BEFORE INSERT ON main.actions BEGIN "
               "INSERT INTO n VALUES (1); "
               "SELECT RAISE(ABORT, 'database or disk is full') "
               "WHERE (SELECT COUNT(*) FROM n) >= 30; END")
    failed, good = import_files(db, [late, early])
    assert not failed.ok and "database or disk is full" in str(failed.error)
    assert good.ok and good.added == 0  # the next file is still tried (all already present)
    db.close()
    again = open_database(path)  # what a later run sees on disk
    assert {t: again.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
            for t in tables} == before
    again.close()


def test_unusable_paths_raise_a_named_error_and_touch_nothing(tmp_path: Path) -> None:
    from checkraise.errors import CheckraiseError
    from checkraise.histories.database import HandDatabaseError

    assert issubclass(HandDatabaseError, CheckraiseError)
    with pytest.raises(HandDatabaseError, match=r"folder '.*no' does not exist"):
        open_database(tmp_path / "no" / "h.sqlite")
    with pytest.raises(HandDatabaseError, match="is a folder"):
        open_database(tmp_path)
    text = tmp_path / "notes.txt"
    text.write_text("hello\n" * 100)
    with pytest.raises(HandDatabaseError, match=r"notes\.txt' as a hand database: file is not"):
        open_database(text)
    assert text.read_text() == "hello\n" * 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # no -wal, no -shm
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")  # an empty file is a new database
    open_database(empty).close()
