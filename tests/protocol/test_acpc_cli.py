"""``checkraise acpc client|dealer|match`` as separate processes on loopback."""

from __future__ import annotations

import json
import select
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from checkraise.agents import make_agent
from checkraise.protocol import load_gamedef, parse_dealer_log
from tests.protocol.harness import NL2, STEP_TIMEOUT, client_thread, fake_server_thread

CLI = [sys.executable, "-m", "checkraise.cli.main", "acpc"]


def test_match_command_plays_a_duplicate_match(tmp_path: Path) -> None:
    out = subprocess.run(
        [*CLI, "match", str(NL2), "--hands", "15", "--agents", "random", "call", "--seed", "5",
         "--duplicate", "--out", str(tmp_path), "--json", "--quiet"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["players"] == ["random", "call"] and summary["hands"] == 30
    first = parse_dealer_log((tmp_path / "match.log").read_text())
    second = parse_dealer_log((tmp_path / "match.swap.log").read_text())
    assert len(first.states) == len(second.states) == 15
    for a, b in zip(first.states, second.states, strict=True):
        # Same cards (the board as far as each hand went), players in the other seats.
        assert a.hole_cards == b.hole_cards and a.names == b.names[::-1]
        board_a, board_b = (tuple(c for g in s.board for c in g) for s in (a, b))
        shown = min(len(board_a), len(board_b))
        assert board_a[:shown] == board_b[:shown]
    assert first.score is not None and second.score is not None
    assert first.score.names == ("random", "call") and second.score.names == ("call", "random")
    totals = [
        first.score.totals[first.score.names.index(p)] + second.score.totals[
            second.score.names.index(p)]
        for p in summary["players"]
    ]
    assert [Fraction(t) for t in summary["totals"]] == totals


def test_dealer_command_prints_ports_then_score_and_writes_the_log(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*CLI, "dealer", str(NL2), "--hands", "40", "--seed", "12", "--players", "Ann", "Bob",
         "--out", str(tmp_path), "--name", "m1", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "the dealer printed no ports"
        assert proc.stdout is not None
        ports = [int(p) for p in proc.stdout.readline().split()]
        assert len(ports) == 2
        game = load_gamedef(NL2)
        clients = [client_thread(p, make_agent("random", seed=i), game) for i, p in
                   enumerate(ports)]
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    for thread, outcome in clients:
        thread.join(STEP_TIMEOUT)
        assert outcome.error is None
    assert proc.returncode == 0, stderr
    score = stdout.strip().splitlines()[-1]
    log = (tmp_path / "m1.log").read_text()
    assert log.startswith(f"# name/game/hands/seed m1 {NL2} 40 12\n")
    assert log.endswith(score + "\n") and score.startswith("SCORE:") and score.endswith(":Ann|Bob")
    totals = [outcome.result.total for _, outcome in clients]
    parsed = parse_dealer_log(log)
    assert parsed.score is not None and list(parsed.score.totals) == totals


def test_client_command_exits_with_a_clear_error_on_garbage() -> None:
    port, server, _ = fake_server_thread(["MATCHSTATE:0:0::9s8h|", "!!garbage!!", "<hold>"])
    out = subprocess.run(
        [*CLI, "client", "127.0.0.1", str(port), "--agent", "call", "--game", str(NL2),
         "--timeout", "20"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    server.join(STEP_TIMEOUT)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "checkraise: error: invalid MATCHSTATE line '!!garbage!!': expected "
        "MATCHSTATE:<position>:<hand>:<betting>:<cards>"
    ]


def test_client_command_ends_cleanly_when_the_server_closes() -> None:
    port, server, outcome = fake_server_thread(
        ["MATCHSTATE:1:0::|Kc2d", "<read>", "MATCHSTATE:1:0:f:|Kc2d"]
    )
    out = subprocess.run(
        [*CLI, "client", "127.0.0.1", str(port), "--agent", "checkfold", "--json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    server.join(STEP_TIMEOUT)
    assert out.returncode == 0, out.stderr
    assert outcome.received == ["VERSION:2.0.0", "MATCHSTATE:1:0::|Kc2d:f"]
    assert json.loads(out.stdout) == {"hands": 1, "total": "-50", "actions": 1,
                                      "ended": f"server 127.0.0.1:{port} closed the connection"}
