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

Without a game definition the client takes the standard ACPC game that the first
MATCHSTATE line shows (:func:`~checkraise.protocol.standard.infer_gamedef`); a
later line that does not fit it stops the client with a message that says the
game was assumed and asks for the game file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from checkraise.agents.base import Agent, call_begin_hand, call_end_hand
from checkraise.engine import Action, State
from checkraise.protocol.errors import ConnectionClosedError, ProtocolError
from checkraise.protocol.gamedef import GameDef, parse_gamedef
from checkraise.protocol.matchstate import format_response, parse_matchstate
from checkraise.protocol.net import LineChannel, check_host, check_port, connect
from checkraise.protocol.standard import (
    STANDARD_GAMES,
    InferredGame,
    betting_shown,
    infer_gamedef,
)
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
    inferred_game: str = ""
    """The standard game assumed from the first line (empty when a game was given)."""


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


def _infer(guess: InferredGame | None, line: str, *, acted: bool) -> tuple[InferredGame, bool]:
    # Returns the game now assumed and whether it changed. Before the client has acted
    # a raise may still switch no-limit to limit; after, a contradiction is an error.
    if guess is None:
        return infer_gamedef(line), False
    shown = betting_shown(parse_matchstate(line), line)
    if shown is None:
        return guess, False
    if shown == guess.betting:
        return InferredGame(guess.game, guess.num_players, shown, certain=True), False
    if acted:
        raise ProtocolError(
            f"{line!r} shows {shown} betting, but this client assumed {guess.describe()} and "
            "has already acted: pass --game FILE, the dealer's .game file"
        )
    n = guess.num_players
    game = parse_gamedef(STANDARD_GAMES[(n, shown)], source=f"<standard {n}-player {shown} game>")
    return InferredGame(game, n, shown, certain=True), True


def play(
    channel: LineChannel,
    agent: Agent,
    game: GameDef | None,
    *,
    read_timeout: float | None = 600.0,
    on_line: Callable[[str], None] | None = None,
) -> ClientReport:
    """Play a whole match on an open connection; return when the server closes it.

    ``game`` ``None`` takes the standard game the first MATCHSTATE line shows.
    Raises :class:`ProtocolError` for a malformed or impossible server line (or an
    agent that breaks the rules, or a first line that does not tell the game) and
    :class:`ResponseTimeoutError` when the server says nothing for ``read_timeout``
    seconds.
    """
    report = ClientReport()
    channel.send_line(VERSION_LINE)
    tracker = HandTracker(game) if game is not None else None
    guess: InferredGame | None = None
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
        if tracker is None or (guess is not None and not guess.certain):
            guess, switched = _infer(guess, line, acted=report.actions > 0)
            report.inferred_game = guess.describe()
            if switched or tracker is None:
                tracker = HandTracker(guess.game)
                current_hand = None  # the agent hears of the hand again, with the right game
        try:
            ms = parse_matchstate(line, game=tracker.game)
            state = tracker.update(ms, line)
        except ProtocolError as exc:
            if guess is None:
                raise
            raise ProtocolError(
                f"{exc} (no --game was given; assumed {report.inferred_game}: pass --game "
                "FILE, the dealer's .game file)"
            ) from None
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
        limit = tracker.game.is_limit
        channel.send_line(format_response(line, bet_action(action, limit=limit)))
        report.actions += 1


def run_client(
    host: str,
    port: int,
    agent: Agent,
    game: GameDef | None,
    *,
    read_timeout: float | None = 600.0,
    connect_timeout: float = 10.0,
    on_line: Callable[[str], None] | None = None,
) -> ClientReport:
    """Connect to a dealer at ``host:port`` and :func:`play` the match.

    The host and port are checked first (:class:`MatchSetupError` for a port
    outside 1..65535 or a host that does not resolve).
    """
    check_port(port)
    check_host(host)
    channel = connect(host, port, timeout=connect_timeout, peer=f"server {host}:{port}")
    try:
        return play(channel, agent, game, read_timeout=read_timeout, on_line=on_line)
    finally:
        channel.close()
