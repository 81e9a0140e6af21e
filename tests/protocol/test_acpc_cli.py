"""``checkraise acpc client|dealer|match`` as separate processes on loopback."""

from __future__ import annotations

import json
import re
import select
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from checkraise.agents import make_agent
from checkraise.cli.main import main
from checkraise.protocol import (
    HandTracker,
    format_score_line,
    load_gamedef,
    parse_dealer_log,
    run_match,
)
from tests.protocol.harness import (
    NL2,
    STEP_TIMEOUT,
    client_thread,
    fake_client_thread,
    fake_server_thread,
)

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
    assert json.loads(out.stdout) == {
        "hands": 1, "total": "-50", "actions": 1,
        "ended": f"server 127.0.0.1:{port} closed the connection",
        "inferred_game": "2-player no-limit hold'em (stacks 20000, blinds 50/100; no raise seen "
        "yet, no-limit assumed)",
    }


def test_client_command_infers_a_three_player_game_without_game_file() -> None:
    # Position 1 is the big blind (blinds 50 100 0); position 2 calls, position 0 raises
    # to 1649: a sized raise, so no-limit. The client folds (checkfold), then the last
    # player folds too, and the hand is over: -100 for the big blind.
    port, server, outcome = fake_server_thread([
        "MATCHSTATE:1:0::|5d6h|", "MATCHSTATE:1:0:c:|5d6h|", "MATCHSTATE:1:0:cr1649:|5d6h|",
        "<read>", "MATCHSTATE:1:0:cr1649f:|5d6h|", "MATCHSTATE:1:0:cr1649ff:|5d6h|",
    ])
    out = subprocess.run(
        [*CLI, "client", "127.0.0.1", str(port), "--agent", "checkfold", "--json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    server.join(STEP_TIMEOUT)
    assert out.returncode == 0, out.stderr
    assert outcome.received == ["VERSION:2.0.0", "MATCHSTATE:1:0:cr1649:|5d6h|:f"]
    assert json.loads(out.stdout) == {
        "hands": 1, "total": "-100", "actions": 1,
        "ended": f"server 127.0.0.1:{port} closed the connection",
        "inferred_game": "3-player no-limit hold'em (stacks 20000, blinds 50/100)",
    }


# -- nothing is opened, written or printed before every option is checked ----------------

EARLIER = "# name/game/hands/seed match x.game 5 1\nSTATE:0:f:3hQh|4h3c:50|-50:B|A\n"


def _dealer(out: Path, *extra: str) -> list[str]:
    return ["acpc", "dealer", str(NL2), "--hands", "5", "--seed", "1", "--players", "A", "B",
            "--out", str(out), "--quiet", *extra]


def _match(out: Path, *extra: str, agents: tuple[str, ...] = ("call", "call")) -> list[str]:
    return ["acpc", "match", str(NL2), "--hands", "5", "--agents", *agents, "--out",
            str(out), "--quiet", *extra]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (lambda o: [*_dealer(o), "--seed", "-1"], "invalid seed -1: expected 0..4294967295"),
        (lambda o: [*_dealer(o), "--seed", "4294967296"], "invalid seed 4294967296"),
        (lambda o: [*_dealer(o), "--hands", "0"], "invalid number of hands 0"),
        (lambda o: [*_dealer(o), "--hands", "-3"], "invalid number of hands -3"),
        (lambda o: [*_dealer(o), "--port", "99999", "--port", "0"], "invalid port 99999"),
        (lambda o: [*_dealer(o), "--port", "5000"], "need 2 ports, got [5000]"),
        (lambda o: [*_dealer(o), "--players", "C"], "the game seats 2 players, got 3 names"),
        (lambda o: [*_dealer(o), "--name", "a b"], "invalid match name 'a b'"),
        (lambda o: [*_dealer(o), "--t-response", "0"], "invalid time limit t_response 0"),
        (lambda o: [*_dealer(o), "--host", "no such host"], "invalid host 'no such host'"),
        (lambda o: _dealer(o), "already exists"),
        (lambda o: [*_match(o), "--hands", "-1"], "invalid number of hands -1"),
        (lambda o: [*_match(o), "--seed", "-2"], "invalid seed -2"),
        (lambda o: [*_match(o), "--duplicate", "--swap"], "drop --swap"),
        (lambda o: [*_match(o), "--agents", "call"], "the game seats 2 players, got 3 agents"),
        (lambda o: _match(o, agents=("call", "nosuchbot")), "unknown agent 'nosuchbot'"),
        (lambda o: _match(o, agents=("human", "call")), "the human seat plays only in"),
        (lambda o: _match(o), "already exists"),
        (lambda o: [*_match(o), "--duplicate"], "already exists"),
    ],
)
def test_bad_options_are_refused_before_any_file_is_touched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: object, fragment: str
) -> None:
    out = tmp_path / "acpc-out"
    out.mkdir()
    (out / "match.log").write_text(EARLIER)  # an earlier match's log, which must survive
    assert main(argv(out)) == 2  # type: ignore[operator]
    captured = capsys.readouterr()
    assert fragment in captured.err and captured.err.count("\n") == 1, captured.err
    assert captured.out == ""  # no ports line, no progress
    assert sorted(p.name for p in out.iterdir()) == ["match.log"]
    assert (out / "match.log").read_text() == EARLIER


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["127.0.0.1", "99999"], "invalid port 99999: expected 1..65535"),
        (["127.0.0.1", "0"], "invalid port 0: expected 1..65535"),
        (["no such host", "5000"], "invalid host 'no such host'"),
        (["127.0.0.1", "5000", "--timeout", "0"], "invalid --timeout 0.0"),
        (["127.0.0.1", "5000", "--seed", "-1"], "invalid --seed -1"),
    ],
)
def test_client_checks_host_port_and_timeout_first(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    assert main(["acpc", "client", *args]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1, err


def test_match_keeps_an_earlier_log_unless_forced_and_says_where_logs_go(tmp_path: Path) -> None:
    tmp_path = tmp_path / ("a-long-folder-name-" * 5)  # the path must not be wrapped
    tmp_path.mkdir()
    (tmp_path / "match.log").write_text(EARLIER)
    argv = [*CLI, "match", str(NL2), "--hands", "3", "--agents", "call", "call",
            "--out", str(tmp_path), "--quiet"]
    refused = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    assert refused.returncode == 2 and "--force" in refused.stderr
    assert (tmp_path / "match.log").read_text() == EARLIER
    forced = subprocess.run([*argv, "--force"], capture_output=True, text=True, timeout=120,
                            check=False)
    assert forced.returncode == 0, forced.stderr
    assert f"log: {tmp_path / 'match.log'}" in forced.stderr.splitlines()
    log = parse_dealer_log((tmp_path / "match.log").read_text())
    assert len(log.states) == 3 and log.score is not None
    assert forced.stdout.strip() == format_score_line(log.score)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"seed": -1}, "invalid seed -1"),
        ({"num_hands": 0}, "invalid number of hands 0"),
        ({"agents": ["call", "nosuchbot"]}, "unknown agent 'nosuchbot'"),
        ({"names": ["A", "B|C"]}, "invalid player name 'B|C'"),
        ({}, "already exists"),
    ],
)
def test_run_match_checks_everything_before_it_opens_the_log(
    tmp_path: Path, kwargs: dict[str, object], fragment: str
) -> None:
    log_path = tmp_path / "match.log"
    log_path.write_text(EARLIER)
    args: dict[str, object] = {"num_hands": 5, "agents": ["call", "call"], "seed": 1,
                               "log_path": log_path, **kwargs}
    with pytest.raises(ValueError, match=re.escape(fragment)):
        run_match(NL2, **args)  # type: ignore[arg-type]
    assert log_path.read_text() == EARLIER
    assert [p.name for p in tmp_path.iterdir()] == ["match.log"]


def test_lenient_dealer_command_plays_on_and_reports_each_fix(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*CLI, "dealer", str(NL2), "--hands", "6", "--seed", "3", "--players", "Fake", "Caller",
         "--out", str(tmp_path), "--quiet", "--lenient", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    game = load_gamedef(NL2)
    bad: list[str] = []

    def decide(line: str, tracker: HandTracker, turn: int) -> str | None:
        # The fake's first turn in hand 2 (the big blind, after a limp): raise to 199 < 200.
        assert tracker.hand is not None
        if tracker.hand.number == 2 and not bad:
            bad.append(f"{line}:r199")
            return bad[0]
        return None

    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready and proc.stdout is not None, "the dealer printed no ports"
        ports = [int(p) for p in proc.stdout.readline().split()]
        fake, _ = fake_client_thread(ports[0], game, decide)
        real, real_outcome = client_thread(ports[1], make_agent("call"), game)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    fake.join(STEP_TIMEOUT)
    real.join(STEP_TIMEOUT)
    assert proc.returncode == 0, stderr
    assert real_outcome.error is None  # (the fake just runs into the closed connection)
    summary = json.loads(stdout)
    assert summary["corrections"] == 1 and summary["log"] == str(tmp_path / "match.log")
    note = (f"hand 2 seat 0 (Fake): raise to 199 below the minimum 200; played r200; "
            f"line {bad[0]!r}")
    assert stderr.splitlines() == [f"lenient: {note}", f"log: {tmp_path / 'match.log'}"]
    log = (tmp_path / "match.log").read_text()
    assert f"# lenient: {note}\nSTATE:2:cr200c/" in log
    assert parse_dealer_log(log).score is not None
