"""The server without a browser: the WebSocket table, sessions, the JSON API, `checkraise serve`."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from checkraise.cli.main import main
from checkraise.histories import load_hands, open_database, replay
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.grid import class_table
from checkraise.solvers.spot.io import save_solution
from checkraise.solvers.spot.solver import SpotSolver
from checkraise.web.app import UNKNOWN_SESSION, create_app
from checkraise.web.session import MAX_MESSAGE_BYTES

RIVER = {"board": "Ks 7h 2c 3d 9s", "pot": 100, "stack": 100,
         "ranges": {"oop": "AA,QQ,T8s,65s", "ip": "KK,JJ,A9s"},
         "sizes": {"bet": [50, 100], "raise": [100]}}


@pytest.fixture(scope="module")
def solutions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("solutions")
    solver = SpotSolver(Spot.from_dict(RIVER))
    solver.iterate(20)
    save_solution(solver, root / "river", exploitability_pct=solver.exploitability(),
                  command="test")
    (root / "not-a-solution").mkdir()
    return root


@pytest.fixture()
def client(tmp_path: Path, solutions: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path=tmp_path / "hands.sqlite", solutions=solutions)) as c:
        yield c


def _token(client: TestClient) -> str:
    response = client.post("/api/session")
    assert response.status_code == 200
    token = response.json()["token"]
    assert isinstance(token, str)
    return token


def _last_view(event: dict[str, Any]) -> dict[str, Any]:
    assert event["type"] == "steps", event
    view: dict[str, Any] = event["steps"][-1]["view"]
    return view


def _play_hand(ws: Any, table: str, view: dict[str, Any]) -> dict[str, Any]:
    while not view["over"]:
        ws.send_json({"type": "act", "table": table,
                      "action": "call" if view["legal"]["call"] else "check"})
        view = _last_view(ws.receive_json())
    return view


def test_a_whole_hand_over_the_websocket_is_stored_as_played(client: TestClient,
                                                           tmp_path: Path) -> None:
    token = _token(client)
    with client.websocket_connect(f"/ws?token={token}") as ws:
        assert ws.receive_json() == {"type": "session", "tables": []}
        ws.send_json({"type": "new_table", "bots": ["call", "random"], "stack_bb": 50,
                      "seed": 17})
        event = ws.receive_json()
        table = event["table"]
        view = _last_view(event)
        assert view["seed"] == 17 and [p["stack"] for p in view["players"]] != []
        # A raise first, from the page's own buttons, then check or call down.
        if view["legal"] is not None and view["legal"]["presets"]:
            ws.send_json({"type": "act", "table": table, "action": "raise",
                          "to": view["legal"]["presets"][0]["to"]})
            view = _last_view(ws.receive_json())
        view = _play_hand(ws, table, view)
    db = open_database(tmp_path / "hands.sqlite")
    [record] = list(load_hands(db))
    db.close()
    payoffs = replay(record).payoffs()
    names = [s.name for s in record.seats]
    assert payoffs[names.index("you")] == view["result"]["you"]
    assert [p["net"] for p in view["players"]] == [payoffs[names.index(p["name"])]
                                                   for p in view["players"]]
    assert record.site == "web" and all(s.stack == 5000 for s in record.seats)


def test_illegal_and_malformed_messages_are_rejected_with_the_table_unchanged(
        client: TestClient) -> None:
    with client.websocket_connect(f"/ws?token={_token(client)}") as ws:
        ws.receive_json()
        ws.send_json({"type": "new_table", "bots": ["call"], "seed": 5})
        event = ws.receive_json()
        table, view = event["table"], _last_view(event)
        ws.send_json({"type": "state"})
        before = ws.receive_json()
        for message in ["{", "[]", json.dumps({"type": "act", "table": table}),
                        json.dumps({"type": "act", "table": table, "action": "raise",
                                    "to": view["legal"]["max_to"] + 1}),
                        json.dumps({"type": "act", "table": table, "action": "check"}),
                        json.dumps({"type": "deal", "table": table}),
                        "x" * (MAX_MESSAGE_BYTES + 1)]:
            ws.send_text(message)
            error = ws.receive_json()
            assert error["type"] == "error" and error["message"], message
        ws.send_bytes(b'{"type": "act", "table": "t1", "action": "fold", "to": 3}')
        assert ws.receive_json()["type"] == "error"
        ws.send_json({"type": "state"})
        assert ws.receive_json() == before


def test_a_second_session_cannot_read_or_act_on_the_first_ones_table(
        client: TestClient) -> None:
    first, second = _token(client), _token(client)
    with client.websocket_connect(f"/ws?token={first}") as ws:
        ws.receive_json()
        ws.send_json({"type": "new_table", "bots": ["call"], "seed": 8})
        event = ws.receive_json()
        table = event["table"]
        mine = _last_view(event)["players"][0]["cards"]
        ws.send_json({"type": "state"})
        before = ws.receive_json()
    with client.websocket_connect(f"/ws?token={second}") as other:
        hello = other.receive_json()
        assert hello == {"type": "session", "tables": []}
        other.send_json({"type": "act", "table": table, "action": "call"})
        refused = other.receive_json()
        assert refused["type"] == "error" and "no table" in refused["message"]
        assert "view" not in refused
        other.send_json({"type": "close_table", "table": table})
        assert other.receive_json()["type"] == "error"
    assert all(card not in json.dumps([hello, refused]) for card in mine)
    with client.websocket_connect(f"/ws?token={first}") as ws:
        assert ws.receive_json() == before


def test_an_unknown_token_is_closed_with_its_code(client: TestClient) -> None:
    for url in ["/ws", "/ws?token=guess"]:
        with client.websocket_connect(url) as ws:
            assert ws.receive_json()["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == UNKNOWN_SESSION


def test_a_page_that_disconnects_mid_hand_finds_its_table_on_reconnecting(
        client: TestClient, tmp_path: Path) -> None:
    token = _token(client)
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.receive_json()
        ws.send_json({"type": "new_table", "bots": ["call", "call"], "seed": 3})
        event = ws.receive_json()
        table, view = event["table"], _last_view(event)
        assert not view["over"]
    # The server survived the disconnect: other sessions play on.
    with client.websocket_connect(f"/ws?token={_token(client)}") as ws:
        ws.receive_json()
        ws.send_json({"type": "new_table", "bots": ["call"]})
        assert ws.receive_json()["type"] == "steps"
    with client.websocket_connect(f"/ws?token={token}") as ws:
        hello = ws.receive_json()
        assert hello["tables"] == [view]
        final = _play_hand(ws, table, view)
    assert final["over"] and final["hand"] == 1
    db = open_database(tmp_path / "hands.sqlite")
    assert len(list(load_hands(db))) == 1
    db.close()


def test_the_replayer_api_steps_through_a_stored_hand(client: TestClient) -> None:
    with client.websocket_connect(f"/ws?token={_token(client)}") as ws:
        ws.receive_json()
        ws.send_json({"type": "new_table", "bots": ["call"], "seed": 12})
        event = ws.receive_json()
        view = _play_hand(ws, event["table"], _last_view(event))
    listed = client.get("/api/hands").json()["hands"]
    assert len(listed) == 1 and listed[0]["players"] in (["you", "call#1"], ["call#1", "you"])
    shown = client.get(f"/api/hands/{listed[0]['id']}").json()
    steps = shown["steps"]
    assert steps[0]["text"] == "blinds posted" and steps[0]["board"] == []
    # Calling bots take every hand to the river: all four streets, the board as played.
    assert [s["street"] for s in steps].count("river") >= 1
    assert steps[-1]["board"] == view["board"]
    players = {p["name"]: p for p in shown["players"]}
    assert players["you"]["cards"] == view["players"][0]["cards"]
    assert players["call#1"]["cards"] is not None  # every card is known here
    assert players["you"]["net"] == view["result"]["you"]
    assert client.get("/api/hands/99").status_code == 400
    assert "no hand with id 99" in client.get("/api/hands/99").json()["error"]
    assert client.get("/api/hands?limit=0").status_code == 400
    assert client.get("/api/hands?player=nobody").json() == {"hands": []}


def test_the_viewer_api_gives_the_solvers_numbers(client: TestClient,
                                                  solutions: Path) -> None:
    assert client.get("/api/solutions").json() == {"solutions": ["river"]}
    from checkraise.solvers.spot.io import load_solution

    solver, _ = load_solution(solutions / "river")
    for line in ["", "b50", "x b100"]:
        node = client.get("/api/solutions/node", params={"name": "river", "line": line}).json()
        report = solver.report(line)
        table = class_table(report)
        assert node["kind"] == "decision"
        assert [a["label"] for a in node["actions"]] == list(report.labels)
        np.testing.assert_allclose([a["frequency"] for a in node["actions"]],
                                   report.frequencies)
        rows = {row["class"]: row for row in table.rows()}
        assert {c["class"] for c in node["classes"]} == set(rows)
        for cell in node["classes"]:
            row = rows[cell["class"]]
            np.testing.assert_allclose(cell["strategy"], list(row["strategy"].values()),
                                       atol=1e-4)
            assert cell["ev"] == pytest.approx(row["ev"], abs=1e-3)
    end = client.get("/api/solutions/node", params={"name": "river", "line": "b50 f"}).json()
    assert end["kind"] == "end"
    bad = client.get("/api/solutions/node", params={"name": "river", "line": "b77"})
    assert bad.status_code == 400 and "no action 'b77'" in bad.json()["error"]
    for name in ["../river", "/etc", "not-a-solution", ""]:
        refused = client.get("/api/solutions/node", params={"name": name, "line": ""})
        assert refused.status_code == 400 and "expected one of: river" in refused.json()["error"]


def test_the_pages_and_their_files_are_served(client: TestClient) -> None:
    for path, marker in [("/", "table.js"), ("/replayer", "replayer.js"),
                         ("/viewer", "viewer.js"), ("/static/common.js", "cardElement")]:
        response = client.get(path)
        assert response.status_code == 200 and marker in response.text, path
    bots = client.get("/api/bots").json()
    assert "heuristic" in bots["bots"] and bots["max_seats"] == 10


def test_without_a_database_the_table_plays_and_the_replayer_says_why() -> None:
    with TestClient(create_app()) as client:
        with client.websocket_connect(f"/ws?token={_token(client)}") as ws:
            ws.receive_json()
            ws.send_json({"type": "new_table", "bots": ["call"], "seed": 1})
            event = ws.receive_json()
            _play_hand(ws, event["table"], _last_view(event))
        refused = client.get("/api/hands")
        assert refused.status_code == 400 and "--db" in refused.json()["error"]
        assert client.get("/api/solutions").json() == {"solutions": []}


def test_serve_without_the_web_extra_names_the_install_command(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any) -> Any:
        return None if name in ("starlette", "uvicorn") else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'checkraise[web]'" in err


def test_serve_warns_when_it_listens_beyond_this_machine(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    import socket

    import uvicorn

    bound: list[tuple[str, int]] = []

    def run(server: uvicorn.Server, sockets: list[socket.socket]) -> None:
        bound.append(sockets[0].getsockname()[:2])
        sockets[0].close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    root_handlers = list(logging.getLogger().handlers)
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "h.sqlite")]) == 0
    # The command leaves the process's logging as it was (uvicorn's own dictConfig would
    # shut every handler down and bind new ones to the stderr of the moment).
    assert logging.getLogger().handlers == root_handlers
    assert not logging.getLogger("uvicorn").handlers
    captured = capsys.readouterr()
    assert "warning" not in captured.err
    assert captured.out.startswith(f"serving on http://127.0.0.1:{bound[0][1]}/")
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 0
    assert "warning: listening on 0.0.0.0" in capsys.readouterr().err
    assert [host for host, _ in bound] == ["127.0.0.1", "0.0.0.0"]
    assert main(["serve", "--solutions", str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        assert main(["serve", "--port", str(busy.getsockname()[1])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "in use" in err
