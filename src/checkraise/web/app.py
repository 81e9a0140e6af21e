"""The Starlette application of ``checkraise serve``: pages, a JSON API and the table's WebSocket.

Routes:

``GET /``, ``/replayer``, ``/viewer``
    The three pages (``static/*.html``; their scripts and styles under ``/static``).
``POST /api/session``
    A new session: ``{"token": ...}`` (:mod:`checkraise.web.session`).
``WS /ws?token=...``
    The table's messages and events, one JSON object each way.
``GET /api/bots``
    The bots a table may seat and the stack limits.
``GET /api/hands?limit=N&player=NAME``, ``GET /api/hands/{id}``
    Stored hands and one hand action by action (:mod:`checkraise.web.replayer`).
``GET /api/solutions``, ``GET /api/solutions/node?name=...&line=...``
    The solved spots under ``--solutions`` and a node of one (:mod:`checkraise.web.viewer`).

Bad requests get status 400 with ``{"error": message}``. The session logic runs
off the event loop (a bot may think for a second), one message of a session at a
time; finished hands are written to the hand database by one writer at a time.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from checkraise.errors import CheckraiseError
from checkraise.web.session import MAX_MESSAGE_BYTES, SessionStore
from checkraise.web.table import BIG_BLIND, MAX_STACK_BB, MIN_STACK_BB, WEB_BOTS
from checkraise.web.viewer import SolutionLibrary

if TYPE_CHECKING:
    from checkraise.histories.record import HandRecord

__all__ = ["STATIC", "create_app"]

STATIC: Final = Path(__file__).resolve().parent / "static"
# WebSocket close code for an unknown session (4000-4999 are the application's own).
UNKNOWN_SESSION: Final = 4401


class _HandWriter:
    """Stores finished hands in the database at ``path`` (one writer at a time)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        if path is not None:
            from checkraise.histories.database import open_database

            open_database(path).close()  # a bad path fails now, not after the first hand

    def __call__(self, record: HandRecord) -> None:
        if self.path is None:
            return
        from checkraise.histories.database import insert_hands, open_database

        with self._lock:
            db = open_database(self.path)
            try:
                insert_hands(db, [record])
            finally:
                db.close()

    def read(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        from checkraise.histories.database import open_database

        if self.path is None:
            raise CheckraiseError("no hand database: start the server with --db hands.sqlite")
        db = open_database(self.path)
        try:
            return fn(db)
        finally:
            db.close()


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        del request
        return FileResponse(STATIC / name, media_type="text/html")

    return page


def _bad(exc: Exception) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=400)


def create_app(
    db_path: Path | str | None = None,
    solutions: Path | str | None = None,
    max_sessions: int | None = None,
) -> Starlette:
    """The web application.

    Parameters
    ----------
    db_path
        The hand database finished hands go into (and the replayer reads); ``None``
        keeps no hands.
    solutions
        A folder of solved spots for the viewer (``None``: the viewer has none).
    max_sessions
        Sessions kept at once (default :data:`checkraise.web.session.MAX_SESSIONS`).
    """
    from checkraise.web.replayer import hand_steps, list_hands

    writer = _HandWriter(Path(db_path) if db_path is not None else None)
    store = SessionStore(writer) if max_sessions is None else SessionStore(writer, max_sessions)
    library = SolutionLibrary(Path(solutions) if solutions is not None else None)

    async def new_session(request: Request) -> Response:
        del request
        return JSONResponse({"token": store.new().token})

    async def bots(request: Request) -> Response:
        del request
        return JSONResponse({"bots": list(WEB_BOTS), "heads_up_only": ["blueprint"],
                             "big_blind": BIG_BLIND, "min_stack_bb": MIN_STACK_BB,
                             "max_stack_bb": MAX_STACK_BB, "max_seats": 10})

    async def hands(request: Request) -> Response:
        try:
            limit = int(request.query_params.get("limit", "100"))
            player = request.query_params.get("player") or None
            found = await run_in_threadpool(writer.read, lambda db: list_hands(db, limit, player))
        except (CheckraiseError, ValueError) as exc:
            return _bad(exc)
        return JSONResponse({"hands": found})

    async def hand(request: Request) -> Response:
        try:
            hid = int(request.path_params["hand_id"])
            shown = await run_in_threadpool(writer.read, lambda db: hand_steps(db, hid))
        except (CheckraiseError, ValueError) as exc:
            return _bad(exc)
        return JSONResponse(shown)

    async def solution_names(request: Request) -> Response:
        del request
        return JSONResponse({"solutions": await run_in_threadpool(library.names)})

    async def solution_node(request: Request) -> Response:
        name = request.query_params.get("name", "")
        line = request.query_params.get("line", "")
        try:
            node = await run_in_threadpool(library.node, name, line)
        except CheckraiseError as exc:
            return _bad(exc)
        return JSONResponse(node)

    async def table_socket(websocket: WebSocket) -> None:
        session = store.get(websocket.query_params.get("token"))
        await websocket.accept()
        if session is None:
            await websocket.send_json({"type": "error", "message": "unknown session: ask "
                                       "POST /api/session for a token"})
            await websocket.close(code=UNKNOWN_SESSION)
            return
        await websocket.send_json(session.summary())
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""

                def handle(text: str | bytes = data) -> list[dict[str, Any]]:
                    with session.lock:
                        return session.handle(text)

                for event in await run_in_threadpool(handle):
                    await websocket.send_json(event)
        except WebSocketDisconnect:
            return  # the session and its tables stay for a reconnect

    routes = [
        Route("/", _page("table.html")),
        Route("/replayer", _page("replayer.html")),
        Route("/viewer", _page("viewer.html")),
        Route("/api/session", new_session, methods=["POST"]),
        Route("/api/bots", bots),
        Route("/api/hands", hands),
        Route("/api/hands/{hand_id}", hand),
        Route("/api/solutions", solution_names),
        Route("/api/solutions/node", solution_node),
        WebSocketRoute("/ws", table_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.sessions = store
    app.state.max_message_bytes = MAX_MESSAGE_BYTES
    return app
