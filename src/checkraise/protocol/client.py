"""An ACPC client that plays any agent: connect, say the version, answer when it must act.

Protocol 2.0.0 as the reference ``example_player`` speaks it (``project_acpc_server``,
University of Alberta CPRG, 2011): the first line is ``VERSION:2.0.0``; the server
sends every state of every hand to every seat; the client answers the states in
which it acts with ``<state>:<action>``. Lines starting with ``#`` or ``;`` are
comments.

Every server line is parsed and checked by a :class:`~checkraise.protocol.views.HandTracker`
that keeps an engine state in step, so a malformed or impossible message stops the
client with a :class:`ProtocolError` naming the line, a silent server stops it
after ``read_timeout`` seconds, and a closed connection ends it cleanly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from checkraise.agents.base import Agent, call_begin_hand, call_end_hand
from checkraise.engine import Action, State
from checkraise.protocol.errors import ConnectionClosedError, ProtocolError
from checkraise.protocol.gamedef import GameDef
from checkraise.protocol.matchstate import format_response, parse_matchstate
from checkraise.protocol.net import LineChannel, connect
from checkraise.protocol.views import HandTracker, bet_action

__all__ = ["VERSION_LINE", "ClientReport", "play", "run_client"]

VERSION_LINE = "VERSION:2.0.0"


@dataclass
class ClientReport:
    """What a client saw: hands finished, its net in chips, how the match ended."""

    hands: int = 0
    total: Fraction = Fraction(0)
    actions: int = 0
    ended: str = ""
    nets: list[Fraction] = field(default_factory=list)


def _choose(agent: Agent, state: State, position: int, line: str) -> Action:
    observation = state.observation(position)
    action = agent.act(observation)
    if not isinstance(action, Action):
        raise ProtocolError(f"agent {type(agent).__name__} returned {action!r}, not an Action")
    try:
        state.copy().step(action)
    except ValueError as exc:
        raise ProtocolError(
            f"agent {type(agent).__name__} chose an illegal action {action} at {line!r}: {exc}"
        ) from None
    return action


def play(
    channel: LineChannel,
    agent: Agent,
    game: GameDef,
    *,
    read_timeout: float | None = 600.0,
    on_line: Callable[[str], None] | None = None,
) -> ClientReport:
    """Play a whole match on an open connection; return when the server closes it.

    Raises :class:`ProtocolError` for a malformed or impossible server line (or an
    agent that breaks the rules) and :class:`ResponseTimeoutError` when the server
    says nothing for ``read_timeout`` seconds.
    """
    tracker = HandTracker(game)
    report = ClientReport()
    channel.send_line(VERSION_LINE)
    current_hand: int | None = None
    while True:
        try:
            line = channel.read_line(read_timeout)
        except ConnectionClosedError as exc:
            report.ended = str(exc)
            return report
        if on_line is not None:
            on_line(line)
        if line.startswith(("#", ";")):
            continue
        ms = parse_matchstate(line, game=game)
        state = tracker.update(ms, line)
        if ms.hand_number != current_hand:
            current_hand = ms.hand_number
            call_begin_hand(agent, ms.position, state.config, ms.own_cards, ms.hand_number)
        if state.is_terminal:
            payoffs = state.payoffs()
            net = Fraction(payoffs[ms.position])
            report.hands += 1
            report.total += net
            report.nets.append(net)
            call_end_hand(agent, state.observation(ms.position), payoffs)
            continue
        if state.current_player != ms.position:
            continue
        action = _choose(agent, state, ms.position, line)
        channel.send_line(format_response(line, bet_action(action, limit=game.is_limit)))
        report.actions += 1


def run_client(
    host: str,
    port: int,
    agent: Agent,
    game: GameDef,
    *,
    read_timeout: float | None = 600.0,
    connect_timeout: float = 10.0,
    on_line: Callable[[str], None] | None = None,
) -> ClientReport:
    """Connect to a dealer at ``host:port`` and :func:`play` the match."""
    channel = connect(host, port, timeout=connect_timeout, peer=f"server {host}:{port}")
    try:
        return play(channel, agent, game, read_timeout=read_timeout, on_line=on_line)
    finally:
        channel.close()
