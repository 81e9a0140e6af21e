"""Import hand-history files into the hand database, one transaction per file.

Each file is read completely (PokerStars text or an ACPC dealer log, told apart
by their first line), every hand is replayed through the engine and checked
against the amounts the file says were collected, and only then are the hands
inserted, in one transaction. A file with any bad hand is reported (file, line,
reason) and leaves the database as it was; the other files still go in. Hands
already in the database are skipped, so importing twice adds nothing.

Examples
--------
>>> import tempfile, os
>>> from checkraise.histories.database import open_database
>>> from checkraise.histories.pokerstars import EXAMPLE
>>> with tempfile.TemporaryDirectory() as d:
...     p = os.path.join(d, "h.txt")
...     _ = open(p, "w").write(EXAMPLE)
...     db = open_database(":memory:")
...     [r.added for r in import_files(db, [p, p])]
[1, 0]
"""

from __future__ import annotations

import gc
import re
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from checkraise.histories import pokerstars
from checkraise.histories.database import insert_hands
from checkraise.histories.record import HandRecord
from checkraise.histories.replay import replay

if TYPE_CHECKING:
    from checkraise.protocol.gamedef import GameDef

__all__ = ["FileReport", "detect_format", "import_files", "read_hands"]

_NOT_BLANK = re.compile(r"\S")  # \s is what str.strip() removes


@dataclass(frozen=True)
class FileReport:
    """What happened to one file: hands read and added, or the error that rejected it."""

    path: str
    hands: int
    added: int
    error: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the file went in."""
        return self.error is None


def detect_format(path: str | Path) -> str:
    """``"acpc"`` for a dealer log, ``"pokerstars"`` for PokerStars text.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "x.log")
    ...     _ = open(p, "w").write("STATE:0:f:AsKd|2c2d:-50|50:A|B\\n")
    ...     detect_format(p)
    'acpc'
    """
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            if line.strip():
                return "acpc" if line.startswith(("#", ";", "STATE:")) else "pokerstars"
    return "pokerstars"


def _format_of(text: str) -> str:
    """:func:`detect_format` of a file's whole text (newlines already ``\\n``)."""
    found = _NOT_BLANK.search(text)  # the first character that is not blank
    if found is None:
        return "pokerstars"
    line = text.rfind("\n", 0, found.start()) + 1  # its line, leading blanks included
    return "acpc" if text.startswith(("#", ";", "STATE:"), line) else "pokerstars"


def read_hands(path: str | Path, *, game: GameDef | None = None) -> list[HandRecord]:
    """Read, replay and check every hand of one file.

    Raises :class:`~checkraise.histories.record.HandHistoryError` (file and line) at
    the first bad hand.

    Examples
    --------
    >>> import tempfile, os
    >>> from checkraise.histories.pokerstars import EXAMPLE
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "h.txt")
    ...     _ = open(p, "w").write(EXAMPLE)
    ...     len(read_hands(p))
    1
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # read once: to tell the format and parse
        acpc = _format_of(text) == "acpc"
    except UnicodeDecodeError:
        # Let each reader meet the bad bytes itself, so the error reads as it always has.
        text = None
        acpc = detect_format(path) == "acpc"
    if acpc:
        # Imported here: the log reader brings the protocol package (and numpy with it),
        # which an import of PokerStars text does not need.
        from checkraise.histories import acpc_log

        return acpc_log.parse_log_file(path, game)
    hands = (pokerstars.parse_file(path) if text is None
             else pokerstars.parse_text(text, source=path.name))
    for hand in hands:
        replay(hand)
    return hands


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while one file is read and stored.

    A file makes tens of thousands of small tuples, and each batch of new objects
    triggers a collection that walks them all: about a tenth of the import time. Hand
    records hold no reference cycles, so reference counting alone frees them; the
    collector runs again (if it was on) as soon as the file is done.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def import_files(
    db: sqlite3.Connection,
    paths: Sequence[str | Path],
    *,
    game: GameDef | None = None,
    on_file: Callable[[FileReport], None] | None = None,
) -> list[FileReport]:
    """Import each file in its own transaction; return one report per file.

    ``on_file`` is called after each file (for progress bars).
    """
    reports = []
    for path in paths:
        try:
            with _no_cycle_collection():
                hands = read_hands(path, game=game)
                added = insert_hands(db, hands)
            report = FileReport(str(path), len(hands), added)
        except (ValueError, OSError, UnicodeDecodeError) as exc:
            report = FileReport(str(path), 0, 0, str(exc))
        reports.append(report)
        if on_file is not None:
            on_file(report)
    return reports
