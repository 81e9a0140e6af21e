"""Scripted fake server against our client, scripted fake clients against our dealer."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from checkraise.agents import make_agent
from checkraise.protocol import (
    Correction,
    Dealer,
    GameDef,
    HandTracker,
    MatchAbortedError,
    ProtocolError,
    ResponseTimeoutError,
    TimeLimits,
    load_gamedef,
    parse_dealer_log,
    play,
)
from checkraise.protocol.net import connect
from tests.protocol.harness import (
    CLOSE,
    SILENT,
    STEP_TIMEOUT,
    client_thread,
    fake_client_thread,
    fake_server_thread,
)
from tests.shared_data import NL2_GAME

GAME = load_gamedef(NL2_GAME)

# One heads-up no-limit hand seen from position 0 (the big blind in this reverse-blinds
# game; position 1 acts first preflop, position 0 first after the flop); AA beats 98.
HAND0 = [
    "MATCHSTATE:0:0::9s8h|",
    "MATCHSTATE:0:0:c:9s8h|",
    "<read>",
    "MATCHSTATE:0:0:cc/:9s8h|/Kc8d5c",
    "<read>",
    "MATCHSTATE:0:0:cc/c:9s8h|/Kc8d5c",
    "MATCHSTATE:0:0:cc/cc/:9s8h|/Kc8d5c/2s",
    "<read>",
    "MATCHSTATE:0:0:cc/cc/c:9s8h|/Kc8d5c/2s",
    "MATCHSTATE:0:0:cc/cc/cc/:9s8h|/Kc8d5c/2s/3s",
    "<read>",
    "MATCHSTATE:0:0:cc/cc/cc/c:9s8h|/Kc8d5c/2s/3s",
    "MATCHSTATE:0:0:cc/cc/cc/cc:9s8h|AhAd/Kc8d5c/2s/3s",
]


def _client_against(  # type: ignore[no-untyped-def]
    script: list[str], *, read_timeout: float = STEP_TIMEOUT, game: GameDef | None = GAME,
    agent: str = "call",
):
    port, server, outcome = fake_server_thread(script)
    channel = connect("127.0.0.1", port, timeout=STEP_TIMEOUT)
    try:
        report = play(channel, make_agent(agent), game, read_timeout=read_timeout)
    finally:
        channel.close()
        server.join(STEP_TIMEOUT)
    return report, outcome


# -- fake server, our client -----------------------------------------------------------


def test_client_plays_a_scripted_hand_skips_comments_and_ends_on_close() -> None:
    script = ["# a comment", ";another", *HAND0, "MATCHSTATE:1:1::|Kc2d", "<read>"]
    report, server = _client_against(script)
    assert server.error is None
    assert server.received == [
        "VERSION:2.0.0",
        "MATCHSTATE:0:0:c:9s8h|:c",
        "MATCHSTATE:0:0:cc/:9s8h|/Kc8d5c:c",
        "MATCHSTATE:0:0:cc/cc/:9s8h|/Kc8d5c/2s:c",
        "MATCHSTATE:0:0:cc/cc/cc/:9s8h|/Kc8d5c/2s/3s:c",
        "MATCHSTATE:1:1::|Kc2d:c",
    ]
    # The connection dropped in the middle of hand 1: a clean end after one finished hand.
    assert report.hands == 1 and report.total == -100 and "closed" in report.ended


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ("hello there", "invalid MATCHSTATE line 'hello there'"),
        ("MATCHSTATE:0:0:cc/f:9s8h|/Kc8d5c", "illegal"),  # fold when checking is free
        ("MATCHSTATE:0:0:cc:9s8h|", "round boundaries"),  # 'cc' closes the round: 'cc/'
        ("MATCHSTATE:0:0:c:9s8h|", "same state|does not extend"),
        ("MATCHSTATE:0:0::9s8h|", "does not extend"),
        ("MATCHSTATE:0:0:c:Ts8h|", "hole cards changed"),
        ("MATCHSTATE:0:1::9s8h|", "before hand 0 ended"),
        ("MATCHSTATE:0:0:c:9s8h|:r300", "invalid MATCHSTATE"),
        ("MATCHSTATE:0:0:c:9s8h|Ah", "hole cards"),
        ("\x00\x01", "invalid MATCHSTATE"),
    ],
)
def test_client_stops_on_malformed_or_impossible_lines(bad_line: str, message: str) -> None:
    script = [HAND0[0], HAND0[1], "<read>", bad_line, "<hold>"]
    with pytest.raises(ProtocolError, match=message) as info:
        _client_against(script)
    assert not isinstance(info.value, ResponseTimeoutError)


def test_client_stops_on_a_raise_below_the_minimum() -> None:
    # The small blind raises to 150; the minimum raise-to is twice the big blind, 200.
    with pytest.raises(ProtocolError, match=r"illegal.*must be 200\.\.20000"):
        _client_against([HAND0[0], "MATCHSTATE:0:0:r150:9s8h|", "<hold>"])


def test_client_stops_when_a_finished_hand_goes_on_or_hands_go_back() -> None:
    with pytest.raises(ProtocolError, match="already ended"):
        _client_against([*HAND0, "MATCHSTATE:0:0:cc/cc/cc/ccr300:9s8h|/Kc8d5c/2s/3s", "<hold>"])
    new_hand = ["MATCHSTATE:0:5::9s8h|", "MATCHSTATE:0:5:f:9s8h|"]
    report, _ = _client_against([*HAND0, *new_hand])
    assert report.nets == [-100, 50]
    with pytest.raises(ProtocolError, match="goes back from 5 to 3"):
        _client_against([*HAND0, *new_hand, "MATCHSTATE:0:3::9s8h|", "<hold>"])


def test_client_gives_up_on_a_silent_server() -> None:
    # The client's own read timeout (0.3 s) stops it, not the connection's STEP_TIMEOUT.
    with pytest.raises(ResponseTimeoutError, match=r"sent no complete line within 0\.3 s"):
        _client_against([HAND0[0], "<hold>"], read_timeout=0.3)


# -- a client without a game file: the standard game its first states show -------------
# 3-player games seat the small blind at position 0 and the big blind at position 1
# (no-limit blinds 50/100, limit 5/10); position 2 acts first before the flop.


def test_client_without_game_assumes_no_limit_until_a_raise_shows() -> None:
    # Position 2 must act before anyone raised: no-limit is assumed (and said so).
    report, server = _client_against(
        ["MATCHSTATE:2:0::||Ah9h", "<read>", "MATCHSTATE:2:0:f:||Ah9h",
         "MATCHSTATE:2:0:ff:||Ah9h"], game=None, agent="checkfold",
    )
    assert server.received == ["VERSION:2.0.0", "MATCHSTATE:2:0::||Ah9h:f"]
    assert report.hands == 1 and report.total == 0
    assert report.inferred_game == (
        "3-player no-limit hold'em (stacks 20000, blinds 50/100; no raise seen yet, "
        "no-limit assumed)"
    )


def test_client_without_game_switches_to_limit_when_a_bare_raise_shows_first() -> None:
    # Position 0 (small blind 5) sees position 2 raise with a bare 'r' before it acts.
    report, server = _client_against(
        ["MATCHSTATE:0:0::AhKd||", "MATCHSTATE:0:0:r:AhKd||", "<read>",
         "MATCHSTATE:0:0:rf:AhKd||", "MATCHSTATE:0:0:rff:AhKd||"], game=None,
        agent="checkfold",
    )
    assert server.received == ["VERSION:2.0.0", "MATCHSTATE:0:0:r:AhKd||:f"]
    assert report.total == -5 and report.inferred_game == "3-player limit hold'em (blinds 5/10)"


def test_client_without_game_stops_with_pass_game_when_the_guess_was_wrong() -> None:
    # It called as if no-limit; then a bare (limit) raise shows: it cannot take that back.
    with pytest.raises(ProtocolError, match=r"shows limit betting.*pass --game FILE"):
        _client_against(
            ["MATCHSTATE:2:0::||Ah9h", "<read>", "MATCHSTATE:2:0:c:||Ah9h",
             "MATCHSTATE:2:0:cr:||Ah9h", "<hold>"], game=None,
        )


@pytest.mark.parametrize(
    ("first", "message"),
    [
        ("MATCHSTATE:0:0::AhKd|||", "4 seats, and the standard ACPC games seat 2 or 3"),
        ("MATCHSTATE:0:0::Ah||", r"1 hole cards, and the standard ACPC games are hold.em \(2\)"),
    ],
)
def test_client_without_game_asks_for_the_game_file_when_nothing_fits(
    first: str, message: str
) -> None:
    with pytest.raises(ProtocolError, match=rf"{message}; pass --game FILE"):
        _client_against([first, "<hold>"], game=None)


# -- fake clients, our dealer ----------------------------------------------------------


def _dealer_against_fake(
    tmp_path: Path,
    decide,  # type: ignore[no-untyped-def]
    *,
    limits: TimeLimits | None = None,
    version: str = "VERSION:2.0.0",
    hands: int = 6,
    lenient: bool = False,
    corrections: list[Correction] | None = None,
) -> tuple[MatchAbortedError | None, str, list[str]]:
    """Seat 0 is the scripted fake, seat 1 our client with the call agent."""
    log_path = tmp_path / "match.log"
    with log_path.open("w") as log:
        dealer = Dealer(
            GAME, num_hands=hands, seed=3, names=["Fake", "Caller"], log=log,
            limits=limits or TimeLimits(t_response=5_000, t_hand=20_000, start=5_000),
            lenient=lenient,
            on_correction=corrections.append if corrections is not None else None,
        )
        ports = dealer.bind()
        fake, fake_outcome = fake_client_thread(ports[0], GAME, decide, version=version)
        real, real_outcome = client_thread(ports[1], make_agent("call"), GAME)
        error = None
        try:
            dealer.run()
        except MatchAbortedError as exc:
            error = exc
        fake.join(STEP_TIMEOUT)
        real.join(STEP_TIMEOUT)
    assert real_outcome.error is None, real_outcome.error  # our client always ends cleanly
    return error, log_path.read_text(), fake_outcome.received


def _at_hand(number: int, answer):  # type: ignore[no-untyped-def]
    def decide(line: str, tracker: HandTracker, turn: int) -> str | None:
        assert tracker.hand is not None
        if tracker.hand.number == number:
            return answer(line, tracker) if callable(answer) else answer
        return None

    return decide


def _check_abort(error: MatchAbortedError | None, log: str, message: str, hands_done: int) -> None:
    assert error is not None, "the match should have been aborted"
    assert error.seat == 0 and "seat 0 (Fake)" in str(error)
    assert error.line is not None and error.line in str(error)
    assert message in str(error)
    parsed = parse_dealer_log(log)
    assert parsed.score is None and len(parsed.states) == hands_done
    assert log.startswith("# name/game/hands/seed match game 6 3\n")


def test_dealer_stops_on_a_raise_below_the_minimum(tmp_path: Path) -> None:
    def low_raise(line: str, tracker: HandTracker) -> str:
        legal = tracker.state.legal_actions()  # type: ignore[union-attr]
        return f"{line}:r{legal.min_raise_to - 1}"

    error, log, _ = _dealer_against_fake(tmp_path, _at_hand(2, low_raise))
    _check_abort(error, log, "illegal action", 2)
    assert "raise-to amount must be" in str(error)


def test_dealer_stops_on_a_fold_when_checking_is_free(tmp_path: Path) -> None:
    def fold_if_free(line: str, tracker: HandTracker) -> str:
        free = tracker.state.legal_actions().can_check  # type: ignore[union-attr]
        return f"{line}:f" if free else f"{line}:c"

    error, log, _ = _dealer_against_fake(tmp_path, _at_hand(3, fold_if_free))
    _check_abort(error, log, "fold when checking is free", 3)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("hello", "malformed action"),
        (lambda line, t: line + ":x", "malformed action"),
        (lambda line, t: line + ":r", "malformed action"),  # no-limit raise without a total
        (lambda line, t: line.replace(":1:", ":0:", 1) + ":c", "not sent"),
        (lambda line, t: line + ":c:c", "malformed"),
    ],
)
def test_dealer_stops_on_garbage(tmp_path: Path, answer: object, message: str) -> None:
    error, log, _ = _dealer_against_fake(tmp_path, _at_hand(1, answer))
    _check_abort(error, log, message, 1)


def test_dealer_ignores_comment_lines_from_clients(tmp_path: Path) -> None:
    def chatty(line: str, tracker: HandTracker, turn: int) -> str:
        return f"# thinking about {line}\r\n;still thinking\r\n{line}:c"

    error, log, received = _dealer_against_fake(tmp_path, chatty)
    assert error is None
    parsed = parse_dealer_log(log)
    assert parsed.score is not None and len(parsed.states) == 6
    assert received[-1].startswith("MATCHSTATE:")


def test_dealer_stops_a_client_that_never_answers(tmp_path: Path) -> None:
    limits = TimeLimits(t_response=300, t_hand=20_000, start=5_000)
    error, log, _ = _dealer_against_fake(tmp_path, _at_hand(2, SILENT), limits=limits)
    # The per-action limit (300 ms) is what stopped it, not the hand's or the match's.
    _check_abort(error, log, "no action within its time limit (0.300 s left)", 2)


def test_dealer_enforces_the_per_hand_limit(tmp_path: Path) -> None:
    def slow(line: str, tracker: HandTracker, turn: int) -> str:
        time.sleep(0.15)
        return f"{line}:c"

    limits = TimeLimits(t_response=5_000, t_hand=250, start=5_000)
    error, _, _ = _dealer_against_fake(tmp_path, slow, limits=limits)
    assert error is not None and "time limit" in str(error) and error.seat == 0


def test_dealer_stops_when_a_client_drops_mid_hand(tmp_path: Path) -> None:
    error, log, _ = _dealer_against_fake(tmp_path, _at_hand(4, CLOSE))
    _check_abort(error, log, "disconnected", 4)


def test_dealer_rejects_a_bad_version_line(tmp_path: Path) -> None:
    error, log, _ = _dealer_against_fake(tmp_path, _at_hand(0, None), version="HELLO 2.0")
    _check_abort(error, log, "VERSION", 0)


def test_dealer_stops_when_a_seat_never_connects() -> None:
    dealer = Dealer(GAME, num_hands=1, seed=1, names=["A", "B"],
                    limits=TimeLimits(start=200))
    ports = dealer.bind()
    real, _ = client_thread(ports[1], make_agent("call"), GAME)
    with pytest.raises(MatchAbortedError, match=r"seat 0 \(A\): did not connect"):
        dealer.run()
    real.join(STEP_TIMEOUT)


# -- the lenient dealer (the reference dealer's forgiving rules) --------------------------
# In hand 2 the fake (seat 0) is position 0, the big blind of this reverse-blinds game:
# the small blind (our caller) limps, and the fake acts facing no bet with 100 in. By the
# ACPC rule the smallest raise is to 100 + max(big blind, 0) = 200 and the largest is
# all-in, 20,000; a fold is not allowed (checking is free).


def _hand_line(log: str, hand: int) -> str:
    return next(line for line in log.splitlines() if line.startswith(f"STATE:{hand}:"))


def _first_turn_of_hand_2(answer, seen: list[str]):  # type: ignore[no-untyped-def]
    """The fake answers its first turn of hand 2 with ``answer(line)``, else calls."""

    def decide(line: str, tracker: HandTracker, turn: int) -> str | None:
        assert tracker.hand is not None
        if tracker.hand.number == 2 and not seen:
            seen.append(line)
            return answer(line)  # type: ignore[no-any-return]
        return None

    return decide


@pytest.mark.parametrize(
    ("answer", "reason", "played", "betting"),
    [
        (lambda line: line + ":r199", "below the minimum 200", "r200", "cr200c/"),
        (lambda line: line + ":r99999", "above the maximum 20000", "r20000", "cr20000c/"),
        (lambda line: line + ":f", "fold when checking is free", "c", "cc/"),
        (lambda line: line + ":x", "unreadable action", "c", "cc/"),
        (lambda line: line + ":r", "unreadable action", "c", "cc/"),
        (lambda line: line + ":c:r300", "unreadable action", "c", "cc/"),
    ],
)
def test_lenient_dealer_turns_a_bad_action_into_a_legal_one(
    tmp_path: Path, answer: object, reason: str, played: str, betting: str
) -> None:
    notes: list[Correction] = []
    seen: list[str] = []
    decide = _first_turn_of_hand_2(answer, seen)
    error, log, _ = _dealer_against_fake(tmp_path, decide, lenient=True, corrections=notes)
    assert error is None
    parsed = parse_dealer_log(log)
    assert parsed.score is not None and len(parsed.states) == 6  # the match played on
    assert _hand_line(log, 2).startswith(f"STATE:2:{betting}")
    assert len(notes) == 1
    note = notes[0]
    assert (note.hand, note.seat, note.name, note.played) == (2, 0, "Fake", played)
    assert reason in note.reason and note.line.startswith(seen[0])
    # The log says so, with the seat and the line, just before that hand's STATE line.
    lines = log.splitlines()
    at = lines.index(_hand_line(log, 2))
    assert lines[at - 1] == f"# lenient: {note.describe()}"
    assert "seat 0 (Fake)" in lines[at - 1] and repr(note.line) in lines[at - 1]


@pytest.mark.parametrize(
    ("junk", "reason"),
    [
        (lambda line: "hello", "not an answer to a MATCHSTATE"),
        (lambda line: line.replace(":2:", ":1:", 1) + ":c", "state that was not sent"),
    ],
)
def test_lenient_dealer_ignores_lines_that_answer_nothing_and_waits(
    tmp_path: Path, junk: object, reason: str
) -> None:
    notes: list[Correction] = []

    def raise_after_junk(line: str) -> str:
        return f"{junk(line)}\r\n{line}:r300"  # type: ignore[operator]

    decide = _first_turn_of_hand_2(raise_after_junk, [])
    error, log, _ = _dealer_against_fake(tmp_path, decide, lenient=True, corrections=notes)
    assert error is None and parse_dealer_log(log).score is not None
    assert [(n.hand, n.seat, n.played) for n in notes] == [(2, 0, None)]
    assert reason in notes[0].reason
    assert _hand_line(log, 2).startswith("STATE:2:cr300c/")  # the real answer was played


def test_lenient_dealer_changes_nothing_for_well_behaved_clients(tmp_path: Path) -> None:
    strict = _dealer_against_fake(tmp_path, lambda line, t, turn: None)
    lenient = _dealer_against_fake(tmp_path, lambda line, t, turn: None, lenient=True)
    assert strict[0] is None and lenient[0] is None
    assert strict[1] == lenient[1] and "lenient" not in lenient[1]


def test_lenient_dealer_still_stops_a_client_that_never_answers(tmp_path: Path) -> None:
    limits = TimeLimits(t_response=300, t_hand=20_000, start=5_000)
    error, log, _ = _dealer_against_fake(
        tmp_path, _at_hand(2, SILENT), limits=limits, lenient=True
    )
    _check_abort(error, log, "time limit", 2)
