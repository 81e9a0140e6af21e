"""The hand database: one SQLite file (standard library ``sqlite3``), versioned schema.

Tables (schema version 2):

``players(id, name)``
    One row per screen name.
``hands(id, site, site_hand_id, ...)``
    One row per hand, unique on ``(site, site_hand_id)`` so that importing the same
    file twice adds nothing; stakes, button, board, pot, game rules, source file.
``seats(hand_id, seat, player_id, ...)``
    One row per player in a hand, in engine seat order: stack, blind, ante, hole
    cards where known, shown or not, chips collected (exact, as a fraction) and net.
``actions(hand_id, idx, street, seat, move, amount, to_amount, all_in)``
    Every voluntary action in order.
Version 2 adds to ``seats`` the per-seat counts of :mod:`checkraise.histories.stats`
(``position, vpip, pfr, three_bet_chance, ...``, ``net_bb``) and an index on
``(player_id, position)``, so that per-player statistics are one indexed aggregate;
it fills them for the hands already stored.

Storage: the file is kept in SQLite's write-ahead-log mode with ``synchronous = NORMAL``
(set by :func:`open_database`): each file's import is one transaction, atomic (a
failing file, a crash or a power cut leaves the database as it was before that
file), and a commit costs no disk sync; the log is synced at checkpoints. A power
cut (not a crash of the program) may lose the last files committed before it; they
are then simply imported again. Inserts bind only exact ints, floats and strings
(``sqlite3`` adapts anything else, bools included, far more slowly).

A path that cannot hold a hand database (no such folder, a folder, a file that is
not SQLite or is another program's SQLite database) raises :class:`HandDatabaseError`
naming the path and the reason; such a file is left untouched.

The version lives in ``PRAGMA user_version``; :func:`open_database` applies the
missing migrations in order, each in its own transaction. A migration is a Python
function, so that a new derived table can be filled from the hands already stored
(version 2 does that).

Examples
--------
>>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
>>> db = open_database(":memory:")
>>> insert_hands(db, parse_text(EXAMPLE))
1
>>> insert_hands(db, parse_text(EXAMPLE))
0
>>> [h.hand_id for h in load_hands(db)]
['1']
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Final

from checkraise.cards import format_card, parse_cards
from checkraise.errors import CheckraiseError
from checkraise.histories.record import ZERO, HandAction, HandRecord, Move, PlayerSeat
from checkraise.histories.stats import seat_columns

__all__ = [
    "SCHEMA_VERSION",
    "HandDatabaseError",
    "existing_keys",
    "insert_hands",
    "load_hands",
    "open_database",
    "player_names",
]


class HandDatabaseError(CheckraiseError):
    """A path that cannot be opened as a hand database; the message names it and why."""


_V1: Final = """
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE hands (
    id INTEGER PRIMARY KEY,
    site TEXT NOT NULL,
    site_hand_id TEXT NOT NULL,
    table_name TEXT NOT NULL,
    started TEXT NOT NULL,
    small_blind INTEGER NOT NULL,
    big_blind INTEGER NOT NULL,
    ante INTEGER NOT NULL,
    max_seats INTEGER NOT NULL,
    button INTEGER NOT NULL,
    num_players INTEGER NOT NULL,
    board TEXT NOT NULL,
    total_pot TEXT NOT NULL,
    rake TEXT NOT NULL,
    betting TEXT NOT NULL,
    first_player TEXT NOT NULL,
    raise_sizes TEXT NOT NULL,
    max_raises TEXT NOT NULL,
    rules TEXT NOT NULL,
    unit INTEGER NOT NULL,
    currency TEXT NOT NULL,
    source TEXT NOT NULL,
    line INTEGER NOT NULL,
    UNIQUE (site, site_hand_id)
);
CREATE TABLE seats (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    seat INTEGER NOT NULL,
    table_seat INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    stack INTEGER NOT NULL,
    blind INTEGER NOT NULL,
    ante INTEGER NOT NULL,
    hole_cards TEXT,
    showed INTEGER NOT NULL,
    collected TEXT NOT NULL,
    uncalled INTEGER NOT NULL,
    net REAL NOT NULL,
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;
CREATE TABLE actions (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    idx INTEGER NOT NULL,
    street INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    amount INTEGER NOT NULL,
    to_amount INTEGER NOT NULL,
    all_in INTEGER NOT NULL,
    PRIMARY KEY (hand_id, idx)
) WITHOUT ROWID;
"""

_STAT_COLUMNS: Final = (
    ("position", "TEXT NOT NULL DEFAULT ''"),
    ("vpip", "INTEGER NOT NULL DEFAULT 0"),
    ("pfr", "INTEGER NOT NULL DEFAULT 0"),
    ("three_bet_chance", "INTEGER NOT NULL DEFAULT 0"),
    ("three_bet", "INTEGER NOT NULL DEFAULT 0"),
    ("saw_flop", "INTEGER NOT NULL DEFAULT 0"),
    ("showdown", "INTEGER NOT NULL DEFAULT 0"),
    ("won_at_showdown", "INTEGER NOT NULL DEFAULT 0"),
    ("postflop_bets", "INTEGER NOT NULL DEFAULT 0"),
    ("postflop_raises", "INTEGER NOT NULL DEFAULT 0"),
    ("postflop_calls", "INTEGER NOT NULL DEFAULT 0"),
    ("net_bb", "REAL NOT NULL DEFAULT 0"),
)
_V2: Final = "".join(
    f"ALTER TABLE seats ADD COLUMN {name} {kind};" for name, kind in _STAT_COLUMNS
) + "CREATE INDEX seats_by_position ON seats (player_id, position);"

def _run_script(db: sqlite3.Connection, script: str) -> None:
    # executescript() would commit the open transaction; run statement by statement.
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _migrate_1(db: sqlite3.Connection) -> None:
    _run_script(db, _V1)


def _migrate_2(db: sqlite3.Connection) -> None:
    _run_script(db, _V2)
    # Hands stored under version 1 get their statistics now.
    names = ", ".join(f"{name} = ?" for name, _ in _STAT_COLUMNS)
    update = f"UPDATE seats SET {names} WHERE hand_id = ? AND seat = ?"
    ids = [row[0] for row in db.execute("SELECT id FROM hands ORDER BY id")]
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        rows = []
        for hand_id, hand in zip(chunk, load_hands(db, hand_ids=chunk), strict=True):
            for seat, values in enumerate(_stat_values(hand)):
                rows.append((*values, hand_id, seat))
        db.executemany(update, rows)


MIGRATIONS: Final[tuple[Callable[[sqlite3.Connection], None], ...]] = (_migrate_1, _migrate_2)
SCHEMA_VERSION: Final = len(MIGRATIONS)

_CARD_TEXT: Final = tuple(format_card(c) for c in range(52))
# Hole cards as stored, indexed by 52 * first + second: one lookup per seat row.
_PAIR_TEXT: Final = tuple(f"{a} {b}" for a in _CARD_TEXT for b in _CARD_TEXT)


def _cards_text(cards: tuple[int, ...]) -> str:
    return " ".join([_CARD_TEXT[c] for c in cards])


_HAND_INSERT: Final = (
    "INSERT INTO hands VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
_SEAT_INSERT: Final = f"INSERT INTO seats VALUES ({','.join('?' * (12 + len(_STAT_COLUMNS)))})"
_ACTION_INSERT: Final = "INSERT INTO actions VALUES (?,?,?,?,?,?,?,?)"


def open_database(path: str | Path) -> sqlite3.Connection:
    """Open (creating if needed) a hand database and bring its schema up to date.

    Raises :class:`HandDatabaseError` for a path in a folder that does not exist, a
    folder, a file that is not an SQLite database, an SQLite database of another
    program (tables but no checkraise schema version) and a database written by a
    newer checkraise; the file is not changed.

    Examples
    --------
    >>> db = open_database(":memory:")
    >>> db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    True
    >>> open_database("/no/such/h.sqlite")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    checkraise.histories.database.HandDatabaseError: ... folder '/no/such' does not exist
    """
    name = str(path)
    if name != ":memory:":
        where = Path(path)
        if where.is_dir():
            raise HandDatabaseError(f"hand database {name!r} is a folder: expected a file")
        if not where.exists() and not where.parent.is_dir():
            raise HandDatabaseError(f"cannot create hand database {name!r}: folder "
                                    f"{str(where.parent)!r} does not exist")
    try:
        db = sqlite3.connect(name, isolation_level=None)
    except sqlite3.Error as exc:
        raise HandDatabaseError(f"cannot open hand database {name!r}: {exc}") from exc
    try:
        _prepare(db, name)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise HandDatabaseError(f"cannot use {name!r} as a hand database: {exc}") from exc
    except BaseException:
        db.close()
        raise
    return db


def _prepare(db: sqlite3.Connection, name: str) -> None:
    """Check that ``db`` is ours (or empty), set the journal, run missing migrations."""
    db.execute("PRAGMA foreign_keys = ON")
    # The first read of the file: "file is not a database" surfaces here.
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise HandDatabaseError(
            f"hand database {name!r} has schema version {version}; this checkraise "
            f"reads versions up to {SCHEMA_VERSION}"
        )
    if version == 0:
        tables = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 4")]
        if tables:
            raise HandDatabaseError(
                f"{name!r} is an SQLite database of another program (tables "
                f"{', '.join(tables)}), not a checkraise hand database: expected a new file "
                "or one written by 'checkraise hands import'"
            )
    # Write-ahead log: a commit appends the new pages to the log, where the default
    # rollback journal rewrites and syncs journal and database several times. With
    # synchronous = NORMAL a commit does not wait for the disk (the log is synced at
    # checkpoints): a transaction stays atomic, and only a power cut, not a crash of
    # the program, may lose the last commits (see the module docstring).
    # A ":memory:" database keeps its own journal; a read-only one keeps the one it has.
    with contextlib.suppress(sqlite3.OperationalError):
        db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    for number in range(version + 1, SCHEMA_VERSION + 1):
        db.execute("BEGIN")
        try:
            MIGRATIONS[number - 1](db)
            db.execute(f"PRAGMA user_version = {number}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise


def player_names(db: sqlite3.Connection, limit: int | None = None) -> list[str]:
    """Names of the players with hands in ``db``, most hands first (ties by name).

    Examples
    --------
    >>> from checkraise.histories.pokerstars import EXAMPLE, parse_text
    >>> db = open_database(":memory:")
    >>> _ = insert_hands(db, parse_text(EXAMPLE))
    >>> player_names(db, limit=2)
    ['A', 'B']
    """
    rows = db.execute(
        "SELECT p.name FROM players p JOIN seats s ON s.player_id = p.id "
        "GROUP BY p.id ORDER BY COUNT(*) DESC, p.name LIMIT ?",
        (-1 if limit is None else limit,),
    )
    return [r[0] for r in rows]


def existing_keys(db: sqlite3.Connection, hands: Sequence[HandRecord]) -> set[tuple[str, str]]:
    """The ``(site, hand_id)`` keys among ``hands`` that the database already holds."""
    found: set[tuple[str, str]] = set()
    by_site: dict[str, list[str]] = {}
    for h in hands:
        by_site.setdefault(h.site, []).append(h.hand_id)
    for site, ids in by_site.items():
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = db.execute(
                f"SELECT site_hand_id FROM hands WHERE site = ? AND site_hand_id IN ({marks})",
                (site, *chunk),
            )
            found.update((site, r[0]) for r in rows)
    return found


def _player_ids(db: sqlite3.Connection, names: Iterable[str]) -> dict[str, int]:
    wanted = set(names)
    ids: dict[str, int] = {}
    pending = list(wanted)
    for start in range(0, len(pending), 500):
        chunk = pending[start : start + 500]
        marks = ",".join("?" * len(chunk))
        ids.update(db.execute(f"SELECT name, id FROM players WHERE name IN ({marks})", chunk))
    missing = sorted(wanted - ids.keys())
    if missing:
        db.executemany("INSERT INTO players (name) VALUES (?)", [(m,) for m in missing])
        return _player_ids(db, wanted)
    return ids


@lru_cache(maxsize=1024)
def _ints(values: tuple[int, ...]) -> str:
    # Few distinct tuples (first players, limit sizes): each is written out once.
    return " ".join(map(str, values))


def _stat_values(hand: HandRecord) -> list[tuple[object, ...]]:
    """Each seat's statistic columns (in ``_STAT_COLUMNS`` order)."""
    return [c[1:] for c in seat_columns(hand)]


def insert_hands(db: sqlite3.Connection, hands: Sequence[HandRecord]) -> int:
    """Insert the hands not yet stored, in one transaction; return how many were added.

    Hands already present (same site and hand number) are skipped, so importing a
    file twice adds nothing. On any error nothing is written; what the database
    refuses (disk full, locked, read-only) raises :class:`HandDatabaseError`.
    """
    db.execute("BEGIN")
    try:
        added = _insert(db, hands)
        db.execute("COMMIT")
    except BaseException as exc:
        # SQLite may have rolled back already (some I/O errors end the transaction).
        if db.in_transaction:
            db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise HandDatabaseError(f"the hand database refused the hands: {exc}") from exc
        raise
    return added


def _insert(db: sqlite3.Connection, hands: Sequence[HandRecord]) -> int:
    present = existing_keys(db, hands)
    fresh: list[HandRecord] = []
    seen: set[tuple[str, str]] = set()
    for h in hands:
        if h.key not in present and h.key not in seen:
            seen.add(h.key)
            fresh.append(h)
    if not fresh:
        return 0
    players = _player_ids(db, (s.name for h in fresh for s in h.seats))
    next_id = int(db.execute("SELECT COALESCE(MAX(id), 0) FROM hands").fetchone()[0]) + 1
    hand_rows: list[tuple[object, ...]] = []
    seat_rows: list[tuple[object, ...]] = []
    action_rows: list[tuple[object, ...]] = []
    pair_text = _PAIR_TEXT
    # Every value bound is an exact int, float or str: sqlite3 binds those directly, while
    # a bool or an enum member goes through its adapter lookup first (several times slower).
    # A whole amount goes into a TEXT column as an int: SQLite stores its decimal text.
    for hid, h in enumerate(fresh, next_id):
        pot, rake = h.total_pot, h.rake
        hand_rows.append(
            (hid, h.site, h.hand_id, h.table, h.started, h.small_blind, h.big_blind, h.ante,
             h.max_seats, h.button, len(h.seats), _cards_text(h.board),
             pot.numerator if pot.denominator == 1 else str(pot),
             rake.numerator if rake.denominator == 1 else str(rake), h.betting,
             _ints(h.first_player), _ints(h.raise_sizes), _ints(h.max_raises), h.rules, h.unit,
             h.currency, h.source, h.line)
        )
        for k, ((name, table_seat, stack, blind, ante, hole, showed, collected, uncalled),
                columns) in enumerate(zip(h.seats, seat_columns(h), strict=True)):
            seat_rows.append(
                (hid, k, table_seat, players[name], stack, blind, ante,
                 pair_text[52 * hole[0] + hole[1]] if len(hole) == 2
                 else (_cards_text(hole) if hole else None),
                 1 if showed else 0,
                 0 if collected is ZERO  # the reader's shared zero: most seats
                 else collected.numerator if collected.denominator == 1 else str(collected),
                 uncalled, *columns)
            )
        action_rows += [
            (hid, i, street, seat, str(move), amount, to, 1 if all_in else 0)
            for i, (seat, street, move, amount, to, all_in) in enumerate(h.actions)
        ]
    db.executemany(_HAND_INSERT, hand_rows)
    db.executemany(_SEAT_INSERT, seat_rows)
    db.executemany(_ACTION_INSERT, action_rows)
    return len(fresh)


def _tuple(text: str) -> tuple[int, ...]:
    return tuple(int(t) for t in text.split())


def load_hands(
    db: sqlite3.Connection, *, hand_ids: Sequence[int] | None = None
) -> Iterator[HandRecord]:
    """Rebuild stored hands as :class:`HandRecord` objects, in import order.

    ``hand_ids`` (database ids) restricts the selection.
    """
    if hand_ids is None:
        hand_ids = [row[0] for row in db.execute("SELECT id FROM hands ORDER BY id")]
    for start in range(0, len(hand_ids), 1000):
        yield from _load_chunk(db, sorted(hand_ids[start : start + 1000]))


def _load_chunk(db: sqlite3.Connection, hand_ids: Sequence[int]) -> Iterator[HandRecord]:
    marks = ",".join("?" * len(hand_ids))
    hands = db.execute(f"SELECT * FROM hands WHERE id IN ({marks}) ORDER BY id",
                       tuple(hand_ids)).fetchall()
    if not hands:
        return
    first, last = hands[0][0], hands[-1][0]
    seats: dict[int, list[PlayerSeat]] = {}
    for row in db.execute(
        "SELECT s.hand_id, p.name, s.table_seat, s.stack, s.blind, s.ante, s.hole_cards, "
        "s.showed, s.collected, s.uncalled FROM seats s JOIN players p ON p.id = s.player_id "
        "WHERE s.hand_id BETWEEN ? AND ? ORDER BY s.hand_id, s.seat",
        (first, last),
    ):
        seats.setdefault(row[0], []).append(
            PlayerSeat(
                name=row[1], table_seat=row[2], stack=row[3], blind=row[4], ante=row[5],
                hole_cards=tuple(parse_cards(row[6])) if row[6] else (), showed=bool(row[7]),
                collected=Fraction(row[8]), uncalled=row[9],
            )
        )
    actions: dict[int, list[HandAction]] = {}
    for row in db.execute(
        "SELECT hand_id, street, seat, move, amount, to_amount, all_in FROM actions "
        "WHERE hand_id BETWEEN ? AND ? ORDER BY hand_id, idx",
        (first, last),
    ):
        actions.setdefault(row[0], []).append(
            HandAction(row[2], row[1], Move(row[3]), row[4], row[5], bool(row[6]))
        )
    for r in hands:
        yield HandRecord(
            site=r[1], hand_id=r[2], table=r[3], started=r[4], small_blind=r[5],
            big_blind=r[6], ante=r[7], max_seats=r[8], button=r[9],
            seats=tuple(seats.get(r[0], ())), actions=tuple(actions.get(r[0], ())),
            board=tuple(parse_cards(r[11])), total_pot=Fraction(r[12]), rake=Fraction(r[13]),
            betting=r[14], first_player=_tuple(r[15]), raise_sizes=_tuple(r[16]),
            max_raises=_tuple(r[17]), rules=r[18], unit=r[19], currency=r[20], source=r[21],
            line=r[22],
        )
