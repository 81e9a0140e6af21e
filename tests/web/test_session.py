"""Sessions without a server: checked messages, limits, isolation, hands stats on the play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from checkraise.cli.main import main
from checkraise.histories import insert_hands, open_database
from checkraise.histories.record import HandRecord
from checkraise.web.session import (
    MAX_MESSAGE_BYTES,
    MAX_TABLES_PER_SESSION,
    MessageError,
    Session,
    SessionStore,
    parse_message,
)


def _send(session: Session, **message: Any) -> list[dict[str, Any]]:
    return session.handle(json.dumps(message))


def _play_out(session: Session, table: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    view = events[-1]["steps"][-1]["view"]
    while not view["over"]:
        move = "call" if view["legal"]["call"] else "check"
        events = _send(session, type="act", table=table, action=move)
        view = events[-1]["steps"][-1]["view"]
    return view


@pytest.mark.parametrize("text,message", [
    ("x" * (MAX_MESSAGE_BYTES + 1), f"of {MAX_MESSAGE_BYTES + 1} bytes; expected at most"),
    ("{not json", "is not JSON"),
    ("[1, 2]", "is a JSON list; expected an object"),
    ('"deal"', "is a JSON str"),
    ('{"type": "peek"}', "unknown message type 'peek'"),
    ('{"table": "t1"}', "unknown message type None"),
    ('{"type": "deal", "table": 1}', "table 1; expected a table id"),
    ('{"type": "deal"}', "table None; expected a table id"),
    ('{"type": "act", "table": "t1", "action": "call", "cards": "AsAd"}',
     r"unknown fields \['cards'\]"),
])
def test_malformed_messages_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(MessageError, match=message):
        parse_message(text)


def test_a_message_of_exactly_the_limit_is_read() -> None:
    body = '{"type": "state"}'
    text = body + " " * (MAX_MESSAGE_BYTES - len(body))
    assert parse_message(text) == {"type": "state"}


def test_bad_messages_give_an_error_event_and_change_nothing() -> None:
    session = Session("token")
    events = _send(session, type="new_table", bots=["call"], seed=9)
    table = events[0]["table"]
    before = session.summary()
    for text in ["{", json.dumps({"type": "act", "table": table, "action": "raise", "to": 1}),
                 json.dumps({"type": "act", "table": table, "action": "check"}),
                 json.dumps({"type": "act", "table": table, "action": "jump"}),
                 json.dumps({"type": "act", "table": table, "action": "call", "to": 100}),
                 json.dumps({"type": "deal", "table": table}),
                 json.dumps({"type": "new_table", "bots": ["nobody"]}),
                 json.dumps({"type": "new_table", "bots": ["call"], "coach": 1})]:
        events = session.handle(text)
        assert [e["type"] for e in events] == ["error"], text
        assert session.summary() == before, text
    # The error about a table carries its view, unchanged, so a page can redraw it.
    events = _send(session, type="act", table=table, action="raise", to=1)
    assert events[0]["view"] == before["tables"][0]
    assert "the raise-to amount must be 200..10000" in events[0]["message"]


def test_a_session_has_at_most_its_tables() -> None:
    session = Session("token")
    ids = [_send(session, type="new_table", bots=["call"])[0]["table"]
           for _ in range(MAX_TABLES_PER_SESSION)]
    assert len(set(ids)) == MAX_TABLES_PER_SESSION
    events = _send(session, type="new_table", bots=["call"])
    assert events[0]["type"] == "error"
    assert f"the most allowed ({MAX_TABLES_PER_SESSION})" in events[0]["message"]
    assert _send(session, type="close_table", table=ids[0]) == [{"type": "closed",
                                                                "table": ids[0]}]
    assert _send(session, type="new_table", bots=["call"])[0]["type"] == "steps"


def test_one_session_cannot_see_or_act_at_another_sessions_table() -> None:
    store = SessionStore()
    alice, bob = store.new(), store.new()
    assert alice.token != bob.token and len(alice.token) >= 22
    table = _send(alice, type="new_table", bots=["call"], seed=1)[0]["table"]
    before = alice.summary()
    assert bob.summary() == {"type": "session", "tables": []}
    for message in [{"type": "act", "table": table, "action": "call"},
                    {"type": "deal", "table": table},
                    {"type": "close_table", "table": table}]:
        events = _send(bob, **message)
        assert events == [{"type": "error", "message": f"no table {table!r} in this session",
                           "table": table}]
    assert alice.summary() == before
    assert store.get(alice.token) is alice and store.get(bob.token) is bob
    assert store.get("guess") is None and store.get(None) is None and store.get("") is None


def test_the_store_drops_the_session_idle_longest() -> None:
    store = SessionStore(limit=2)
    first, second = store.new(), store.new()
    assert store.get(first.token) is first  # used: now the second is the idlest
    third = store.new()
    assert len(store) == 2
    assert store.get(second.token) is None
    assert store.get(first.token) is first and store.get(third.token) is third


def test_hands_stats_reads_the_hands_played(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db_path = tmp_path / "hands.sqlite"
    records: list[HandRecord] = []
    session = Session("token", records.append)
    events = _send(session, type="new_table", bots=["call", "checkfold"], seed=21)
    table = events[0]["table"]
    nets = []
    for k in range(5):
        if k:
            events = _send(session, type="deal", table=table)
        nets.append(_play_out(session, table, events)["result"]["you"])
    db = open_database(db_path)
    assert insert_hands(db, records) == 5
    db.close()
    assert main(["hands", "stats", "--db", str(db_path), "--player", "you", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)["stats"]
    assert [s["hands"] for s in stats] == [5]
    # bb/100 over the hands equals the session's own count of big blinds won.
    assert stats[0]["bb_per_100"] == pytest.approx(sum(nets) / 100 / 5 * 100)
