"""Decision chunks from a hand database: ``checkraise nn opponent import``.

The heads-up hands of a hand database (:mod:`checkraise.histories.database`: ACPC logs
or PokerStars files imported with ``checkraise hands import``, or the hands stored by
``nn opponent generate --db``) become a data folder of
:mod:`checkraise.analysis.opponent_data` (read by its ``load_decisions``):
``chunk_NNNNN.npz`` files of ``chunk_size`` hands each, made by the shared chunk
builder (:func:`checkraise.analysis.opponent_hands.build_chunk`), and a manifest whose
``pool`` is the players' names in order of appearance, so that ``nn opponent train``
and ``eval --test NAME`` hold players out as they hold bots out. Hands the planes
cannot hold (six-max and other sizes, limit, other starting stacks, unknown hole
cards) are skipped and counted by reason.

The folder is written under a temporary name beside ``folder`` and renamed when
whole: an error leaves nothing behind.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkraise.analysis.opponent_data import chunk_path, write_chunk, write_manifest
from checkraise.analysis.opponent_hands import SKIP_REASONS, build_chunk
from checkraise.errors import ConfigError, FormatError
from checkraise.histories.database import HandDatabaseError, load_hands, open_database
from checkraise.histories.record import HandRecord

__all__ = ["ImportReport", "check_import", "import_database"]


@dataclass(frozen=True)
class ImportReport:
    """What an import wrote: hands used and skipped (by reason), decisions, chunks, players."""

    folder: str
    database: str
    hands: int
    used: int
    skipped: dict[str, int]
    decisions: int
    chunks: int
    players: tuple[str, ...]
    stack: int

    def to_json(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {"folder": self.folder, "database": self.database, "hands": self.hands,
                "hands_used": self.used, "hands_skipped": self.skipped,
                "decisions": self.decisions, "chunks": self.chunks,
                "players": list(self.players), "stack": self.stack}


def import_database(
    database: str | Path,
    folder: str | Path,
    chunk_size: int = 2000,
    on_chunk: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """Write the decisions of ``database``'s heads-up hands into the new data folder ``folder``.

    ``on_chunk(hands_read, decisions)`` is called after each chunk. Raises
    :class:`~checkraise.errors.ConfigError` for a ``folder`` that holds anything or a
    chunk size below 1, :class:`~checkraise.histories.database.HandDatabaseError` for a
    database that does not exist or cannot be opened, and
    :class:`~checkraise.errors.FormatError` for one without usable hands.
    """
    db_path, out = Path(database), Path(folder)
    hands = check_import(db_path, out, chunk_size)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        db = open_database(db_path)
        try:
            fields = _write_folder(load_hands(db), tmp, chunk_size, on_chunk)
        finally:
            db.close()
        report = ImportReport(str(out), str(db_path), hands, *fields)
        _finish(tmp, out, report, chunk_size)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return report


def _finish(tmp: Path, out: Path, report: ImportReport, chunk_size: int) -> None:
    """Refuse an import without decisions; else write the manifest and rename ``tmp`` to ``out``."""
    if report.used == 0:
        raise FormatError(
            f"none of the {report.hands} hands of {report.database!r} is heads-up no-limit "
            f"with equal stacks and known hole cards ({_skips(report.skipped)}): expected "
            "heads-up hands")
    write_manifest(tmp, {"source": "hand database", "database": report.database,
                         "hands_per_chunk": chunk_size, "pool": list(report.players),
                         "stack": report.stack, "hands": report.used,
                         "skipped": report.skipped})
    if out.exists():
        out.rmdir()  # checked empty before the import
    tmp.rename(out)


def check_import(database: Path, folder: Path, chunk_size: int) -> int:
    """Refuse what :func:`import_database` refuses, before anything is written; the hands held.

    Examples
    --------
    >>> check_import(Path("/no/such.sqlite"), Path("/no/out"), 0)
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: chunk size 0: expected 1 hand or more
    """
    if chunk_size < 1:
        raise ConfigError(f"chunk size {chunk_size}: expected 1 hand or more")
    _check_new_folder(folder)
    if not database.exists():
        raise HandDatabaseError(f"hand database {str(database)!r} does not exist: expected a "
                                "file written by 'checkraise hands import'")
    db = open_database(database)
    try:
        hands = int(db.execute("SELECT COUNT(*) FROM hands").fetchone()[0])
    finally:
        db.close()
    if hands == 0:
        raise FormatError(f"hand database {str(database)!r} holds no hands: expected hands "
                          "imported with 'checkraise hands import'")
    return hands


def _check_new_folder(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {str(out)!r} is a file: expected a new or empty folder")
    if out.is_dir():
        held = sorted(p.name for p in out.iterdir())
        if held:
            shown = ", ".join(held[:3]) + (" ..." if len(held) > 3 else "")
            raise ConfigError(f"--out {str(out)!r} already holds {shown}: expected a new or "
                              "empty folder")


def _write_folder(
    hands: Iterable[HandRecord], tmp: Path, chunk_size: int,
    on_chunk: Callable[[int, int], None] | None,
) -> tuple[int, dict[str, int], int, int, tuple[str, ...], int]:
    """Write the chunks of ``hands`` into ``tmp``.

    Returns the fields of :class:`ImportReport` from ``used`` on: hands used, hands
    skipped by reason, decisions, chunks, players, starting stack.
    """
    stream = iter(hands)
    players: dict[str, int] = {}
    skipped: Counter[str] = Counter()
    start: int | None = None
    used = decisions = chunks = 0
    while True:
        chunk = build_chunk(stream, players, start, limit=chunk_size)
        skipped += chunk.skipped
        start = chunk.start
        if chunk.hands:
            write_chunk(chunk_path(tmp, chunks), chunk.arrays)
            chunks += 1
            used += chunk.hands
            decisions += len(chunk.arrays["label"])
        if on_chunk is not None:
            on_chunk(used + sum(skipped.values()), decisions)
        if chunk.hands < chunk_size:
            break
    return (used, {r: skipped[r] for r in SKIP_REASONS}, decisions, chunks, tuple(players),
            start or 0)


def _skips(skipped: dict[str, int]) -> str:
    return ", ".join(f"{n} {reason}" for reason, n in skipped.items() if n) or "none skipped"
