"""Browser sessions, the tables each owns, and the checked messages that drive them.

A session is a random token (:func:`secrets.token_urlsafe`, 128 bits) handed to
the page once; the page sends it back in the WebSocket's URL. It travels in the
URL rather than in a cookie because browsers send cookies on cross-site WebSocket
handshakes too, and a token that only our page knows cannot be replayed by
another site's page. Tables live in their session, keyed by ids that mean
nothing outside it, so no session can see another's hole cards or act in its
seat: an unknown table id is simply an error.

Every client message is one JSON object of at most :data:`MAX_MESSAGE_BYTES`
bytes, checked field by field before anything happens (:func:`parse_message`);
a malformed or illegal message gets an ``error`` event and changes nothing.
Limits: :data:`MAX_TABLES_PER_SESSION` tables per session and
:data:`MAX_SESSIONS` sessions in all (the one idle longest goes first). A session
outlives its WebSocket: a page that reconnects with its token finds its tables as
they were, mid-hand included.

Messages (``type`` and fields):

``new_table`` — ``bots`` (list of names), ``stack_bb`` or ``stacks_bb``, ``seed`` (optional),
    ``coach`` (true for the hand-reading coach's advice at your turn)
``deal`` — ``table``: start the next hand
``act`` — ``table``, ``action`` (``fold``/``check``/``call``/``raise``), ``to`` for a raise
    (the hand total, as the engine counts raises)
``close_table`` — ``table``
``state`` — every table of the session as it stands (sent after reconnecting)

Events sent back: ``session`` (the tables), ``steps`` (a table's changes in order,
each with its log and view), ``closed`` and ``error`` (``message``, and the
``table``'s unchanged view when there is one).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from checkraise.errors import CheckraiseError
from checkraise.web.table import TableError, TableSettings, WebTable

if TYPE_CHECKING:
    from checkraise.histories.record import HandRecord

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_SESSIONS",
    "MAX_TABLES_PER_SESSION",
    "MessageError",
    "Session",
    "SessionStore",
    "parse_message",
]

MAX_MESSAGE_BYTES: Final = 4096
MAX_TABLES_PER_SESSION: Final = 4
MAX_SESSIONS: Final = 1000
MESSAGE_TYPES: Final = ("new_table", "deal", "act", "close_table", "state")
_FIELDS: Final = {
    "new_table": {"type", "bots", "stack_bb", "stacks_bb", "seed", "coach"},
    "deal": {"type", "table"},
    "act": {"type", "table", "action", "to"},
    "close_table": {"type", "table"},
    "state": {"type"},
}


class MessageError(CheckraiseError):
    """A client message that is not one of the messages the server understands."""


def parse_message(text: str | bytes) -> dict[str, Any]:
    """The message in ``text``, checked for size, form, type and field names.

    Examples
    --------
    >>> parse_message('{"type": "deal", "table": "t1"}')
    {'type': 'deal', 'table': 't1'}
    >>> parse_message('{"type": "peek"}')
    Traceback (most recent call last):
    ...
    checkraise.web.session.MessageError: unknown message type 'peek'; expected one of \
new_table, deal, act, close_table, state
    """
    size = len(text.encode("utf-8") if isinstance(text, str) else text)
    if size > MAX_MESSAGE_BYTES:
        raise MessageError(f"message of {size} bytes; expected at most {MAX_MESSAGE_BYTES}")
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MessageError(f"message is not JSON ({exc}); expected one JSON object") from None
    if not isinstance(message, dict):
        raise MessageError(f"message is a JSON {type(message).__name__}; expected an object")
    kind = message.get("type")
    if kind not in MESSAGE_TYPES:
        raise MessageError(f"unknown message type {kind!r}; expected one of "
                           f"{', '.join(MESSAGE_TYPES)}")
    extra = sorted(set(message) - _FIELDS[kind])
    if extra:
        raise MessageError(f"{kind} message with unknown fields {extra}; expected only "
                           f"{sorted(_FIELDS[kind])}")
    if "table" in _FIELDS[kind] and not isinstance(message.get("table"), str):
        raise MessageError(f"{kind} message with table {message.get('table')!r}; expected a "
                           "table id")
    return message


class Session:
    """One browser session: its token and its tables.

    Parameters
    ----------
    token
        The session's secret.
    on_hand
        Called with every finished hand of its tables (to store it).
    """

    def __init__(self, token: str, on_hand: Callable[[HandRecord], None] | None = None) -> None:
        self.token = token
        self.tables: dict[str, WebTable] = {}
        self.last_seen = time.monotonic()
        # A page's messages are handled one at a time, off the server's event loop (bots
        # may think for a while); the lock keeps two sockets of one session in order.
        self.lock = threading.Lock()
        self._on_hand = on_hand
        self._next = 1

    def handle(self, text: str | bytes) -> list[dict[str, Any]]:
        """Carry out one client message; return the events to send back."""
        self.last_seen = time.monotonic()
        try:
            message = parse_message(text)
        except MessageError as exc:
            return [{"type": "error", "message": str(exc)}]
        table = self.tables.get(message["table"]) if "table" in message else None
        if "table" in message and table is None:
            return [{"type": "error", "message": f"no table {message['table']!r} in this "
                     "session", "table": message["table"]}]
        try:
            return self._dispatch(message, table)
        except (TableError, CheckraiseError) as exc:
            event: dict[str, Any] = {"type": "error", "message": str(exc)}
            if table is not None:
                event["table"] = table.table_id
                event["view"] = table.view()
            return [event]

    def _dispatch(self, message: dict[str, Any], table: WebTable | None) -> list[dict[str, Any]]:
        kind = message["type"]
        if kind == "state":
            return [self.summary()]
        if kind == "new_table":
            if len(self.tables) >= MAX_TABLES_PER_SESSION:
                raise TableError(f"this session has {len(self.tables)} tables, the most "
                                 f"allowed ({MAX_TABLES_PER_SESSION}): close one first")
            settings = TableSettings.from_dict(message)
            table_id = f"t{self._next}"
            new = WebTable(table_id, settings, self._on_hand,
                           hand_prefix=f"{secrets.token_hex(6)}.{table_id}")
            self._next += 1
            self.tables[table_id] = new
            return [{"type": "steps", "table": table_id, "steps": new.deal()}]
        assert table is not None
        if kind == "deal":
            return [{"type": "steps", "table": table.table_id, "steps": table.deal()}]
        if kind == "act":
            action = message.get("action")
            if action not in ("fold", "check", "call", "raise"):
                raise TableError(f"action {action!r}; expected fold, check, call or raise")
            if action != "raise" and "to" in message:
                raise TableError(f"{action} with an amount 'to'; only a raise takes one")
            steps = table.act(action, message.get("to"))
            return [{"type": "steps", "table": table.table_id, "steps": steps}]
        del self.tables[table.table_id]  # close_table
        return [{"type": "closed", "table": table.table_id}]

    def summary(self) -> dict[str, Any]:
        """The ``session`` event: every table's current view."""
        return {"type": "session", "tables": [t.view() for t in self.tables.values()]}


class SessionStore:
    """The server's sessions by token, at most ``limit`` (the longest idle is dropped).

    Examples
    --------
    >>> store = SessionStore(limit=1)
    >>> first = store.new()
    >>> second = store.new()
    >>> store.get(first.token) is None, store.get(second.token) is second
    (True, True)
    """

    def __init__(self, on_hand: Callable[[HandRecord], None] | None = None,
                 limit: int = MAX_SESSIONS) -> None:
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._on_hand = on_hand
        self._limit = limit
        self._lock = threading.Lock()

    def new(self) -> Session:
        """A new session with a fresh token."""
        with self._lock:
            while len(self._sessions) >= self._limit:
                self._sessions.popitem(last=False)
            session = Session(secrets.token_urlsafe(16), self._on_hand)
            self._sessions[session.token] = session
            return session

    def get(self, token: str | None) -> Session | None:
        """The session of ``token`` (compared in constant time), or ``None``."""
        if not token:
            return None
        with self._lock:
            for key, session in self._sessions.items():
                if secrets.compare_digest(key.encode(), token.encode()):
                    self._sessions.move_to_end(key)
                    return session
        return None

    def __len__(self) -> int:
        return len(self._sessions)
