"""MATCHSTATE / STATE / SCORE lines: round trips over every state of the reference logs."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from checkraise.engine import State
from checkraise.protocol import (
    BetAction,
    HandTracker,
    MatchState,
    ProtocolError,
    format_matchstate,
    format_response,
    format_score_line,
    format_state_line,
    load_gamedef,
    matchstate_of,
    parse_action,
    parse_dealer_log,
    parse_matchstate,
    parse_response,
    parse_state_line,
)
from checkraise.protocol.matchstate import format_value, parse_value
from checkraise.protocol.views import engine_action
from tests.protocol.harness import DATA, LOGS, NL2, load_log

_TOKEN = re.compile(r"f|c|r\d*")


def _text_views(line: str, folded: tuple[bool, ...]) -> list[list[str]]:
    """Every MATCHSTATE of a STATE line, cut from its text alone: views[k][seat] after k actions.

    The betting prefix is the text up to the next action (so the '/' that closes a
    round stays), the board shows one group per '/', other seats' cards only in the
    final state of a showdown (``folded`` comes from the engine's replay).
    """
    _, hand, betting, cards, _, _ = line.split(":")
    starts = [m.start() for m in _TOKEN.finditer(betting)]
    holes_text, *board = cards.split("/")
    holes = holes_text.split("|")
    n = len(holes)
    showdown = sum(not f for f in folded) >= 2
    views = []
    for k in range(len(starts) + 1):
        prefix = betting[: starts[k]] if k < len(starts) else betting
        final = k == len(starts)
        rounds = prefix.count("/")
        row = []
        for seat in range(n):
            shown = [
                h if s == seat or (final and showdown and not folded[s]) else ""
                for s, h in enumerate(holes)
            ]
            board_text = "".join("/" + b for b in board[:rounds])
            row.append(f"MATCHSTATE:{seat}:{hand}:{prefix}:{'|'.join(shown)}{board_text}")
        views.append(row)
    return views


@pytest.mark.parametrize(("log_name", "game_name"), LOGS)
def test_every_state_of_the_logs_round_trips(log_name: str, game_name: str) -> None:
    game, text, states, _ = load_log(log_name, game_name)
    config = game.to_table_config()
    lines = [ln for ln in text.splitlines() if ln.startswith("STATE:")]
    trackers = [HandTracker(game, config) for _ in range(game.num_players)]
    checked = 0
    for line, hand in zip(lines, states, strict=True):
        board = tuple(c for group in hand.board for c in group)
        state = State(config, hole_cards=hand.hole_cards, board=board)
        engine_states = [state.copy()]
        for bet in hand.actions:
            state.step(engine_action(bet, state))
            engine_states.append(state.copy())
        assert state.is_terminal
        assert tuple(Fraction(v) for v in state.payoffs()) == hand.nets
        views = _text_views(line, state.folded)
        assert len(views) == len(engine_states)
        for k, (row, st) in enumerate(zip(views, engine_states, strict=True)):
            for seat, expected in enumerate(row):
                ours = matchstate_of(st, seat, hand.hand_number, game)
                assert format_matchstate(ours) == expected
                parsed = parse_matchstate(expected, game=game)
                assert parsed == ours
                assert format_matchstate(parsed) == expected
                # The engine's own serialiser must agree with the protocol's.
                assert st.acpc_matchstate(seat, hand.hand_number) == expected
                # A client following this seat accepts every state and ends on the log's net.
                tracked = trackers[seat].update(parsed, expected)
                if k == len(views) - 1:
                    assert Fraction(tracked.payoffs()[seat]) == hand.nets[seat]
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize(("log_name", "game_name"), LOGS)
def test_logs_round_trip_byte_for_byte(log_name: str, game_name: str) -> None:
    game = load_gamedef(DATA / game_name)
    text = (DATA / log_name).read_text()
    log = parse_dealer_log(text, game=game)
    assert log.score is not None
    out = [*log.comments, *(format_state_line(s) for s in log.states), format_score_line(log.score)]
    assert "\n".join(out) + "\n" == text
    # The SCORE line is the sum of each player's nets over the hands (names rotate).
    totals = dict.fromkeys(log.score.names, Fraction(0))
    for s in log.states:
        for name, net in zip(s.names, s.nets, strict=True):
            totals[name] += net
    assert tuple(totals[n] for n in log.score.names) == log.score.totals


def test_seat_rotation_in_the_logs() -> None:
    # The reference dealer moves player0Seat one on per hand: position p holds player (p + h) % n.
    for log_name, game_name in LOGS:
        _, _, states, _ = load_log(log_name, game_name)
        names = states[0].names
        n = len(names)
        for s in states:
            assert s.names == tuple(names[(p + s.hand_number) % n] for p in range(n))


def test_fractional_nets_are_exact() -> None:
    line = "STATE:35:r5320cr13691r20000cf///:4h9s|Qd2s|4c9d/2h9cQh/Ac/Ts:6845.5|-13691|6845.5:C|A|B"
    parsed = parse_state_line(line)
    assert parsed.nets == (Fraction(13691, 2), Fraction(-13691), Fraction(13691, 2))
    assert format_state_line(parsed) == line
    assert format_value(Fraction(-1, 3)) == "-0.333333"
    assert format_value(Fraction(0)) == "0"
    assert parse_value("-539391.5") == Fraction(-1078783, 2)


def test_response_format_and_parse() -> None:
    sent = "MATCHSTATE:0:30:cc/:9s8h|/8c8d5c"
    ms = parse_matchstate(sent)
    line = format_response(ms, BetAction("r", 250))
    assert line == sent + ":r250"
    back, action = parse_response(line, limit=False)
    assert back == ms and action == BetAction("r", 250)
    # The reference dealer also reads k (check) and b (bet) and upper case in responses.
    assert parse_response(sent + ":k")[1] == BetAction("c")
    assert parse_response(sent + ":B300")[1] == BetAction("r", 300)


@pytest.mark.parametrize(
    ("text", "limit"),
    [("r", False), ("r100", True), ("x", None), ("", None), ("r-5", None), ("c1", None),
     ("r 100", None), ("ff", None), ("r0100", None)],
)
def test_bad_actions_are_rejected(text: str, limit: bool | None) -> None:
    with pytest.raises(ProtocolError, match="invalid action"):
        parse_action(text, limit=limit)


@pytest.mark.parametrize(
    "line",
    [
        "",
        "garbage",
        "MATCHSTATE:0:0:cc",
        "MATCHSTATE:0:0:cc/:9s8h|/8c8d5c:extra",
        "MATCHSTATE:x:0::9s8h|",
        "MATCHSTATE:0:-1::9s8h|",
        "MATCHSTATE:0:0:cx::9s8h|",
        "MATCHSTATE:0:0::9s8|",
        "MATCHSTATE:0:0::9z8h|",
        "MATCHSTATE:0:0:cc/:9s8h|",
        "MATCHSTATE:5:0::9s8h|",
        "matchstate:0:0::9s8h|",
    ],
)
def test_malformed_matchstates_are_rejected(line: str) -> None:
    with pytest.raises(ProtocolError):
        parse_matchstate(line)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("MATCHSTATE:0:0::9s8h|7c2d|", "seats"),
        ("MATCHSTATE:0:0::9s|", "hole cards"),
        ("MATCHSTATE:0:0::|9s8h", "viewing seat"),
        ("MATCHSTATE:0:0:cc/:9s8h|/8c8d", "board cards"),
        ("MATCHSTATE:0:0:cc/:9s8h|/8c8d9s", "twice"),
        ("MATCHSTATE:0:0:r:9s8h|", "nolimit"),
        ("MATCHSTATE:0:0:cc/cc/cc/cc/:9s8h|/8c8d5c/2c/3c/4c", "rounds"),
    ],
)
def test_states_that_do_not_fit_the_game_are_rejected(line: str, why: str) -> None:
    game = load_gamedef(NL2)
    with pytest.raises(ProtocolError, match=why):
        parse_matchstate(line, game=game)


def test_first_round_board_is_split_with_the_game() -> None:
    # A game that deals a board card in round 0 (not ACPC hold'em, but expressible).
    text = NL2.read_text().replace("numBoardCards = 0 3 1 1", "numBoardCards = 1 2 1 1")
    from checkraise.protocol import parse_gamedef

    game = parse_gamedef(text)
    ms = parse_matchstate("MATCHSTATE:1:3::|AsKd2c", game=game)
    assert ms.hole_cards == ((), (51, 45)) and ms.board == ((0,),)
    assert format_matchstate(ms) == "MATCHSTATE:1:3::|AsKd2c"


def test_matchstate_dataclass_checks_itself() -> None:
    with pytest.raises(ProtocolError):
        MatchState(0, 0, ((),), ((), ()), ((), ()))
    with pytest.raises(ProtocolError):
        BetAction("c", 5)
