"""An ACPC dealer: seats clients on TCP ports, deals from a seed, judges with the engine, logs.

It follows the reference dealer (``dealer.c`` of ``project_acpc_server``,
University of Alberta CPRG, 2011) where that is observable:

- one listening port per seat, printed on one line in seat order;
- cards from :class:`~checkraise.protocol.deal.ReferenceDeck`, so a seed deals the
  reference dealer's cards;
- seats rotate: in hand ``h`` the client of match seat ``s`` plays position
  ``(s - h) mod n`` (``player0Seat`` advances by one each hand);
- every state goes to every seat, the final state of each hand included;
- the log has the reference header, one ``STATE`` line per hand (values and names
  in position order) and a ``SCORE`` line (totals and names in seat order);
- time limits per action (``t_response``), per hand (``t_hand``) and on average per
  hand over the match (``t_per_hand``), in milliseconds.

Where the reference dealer forgives, this one by default stops the match with a
:class:`MatchAbortedError` that names the seat and the offending line; the log
written so far is kept. With ``lenient=True`` it forgives as the reference does
(``readPlayerResponse`` and ``isValidAction(..., tryFixing=1)`` in ``dealer.c`` /
``game.c``):

- a line whose state part is not a MATCHSTATE, or that answers a state this seat
  was not sent, is ignored and the dealer keeps waiting (within the time limits);
- an answer to the right state with an unreadable action is played as a call;
- a no-limit raise below the minimum becomes the minimum raise, one above the
  stack becomes all-in (the nearest legal raise);
- any other illegal action (a fold when checking is free, a raise when no raise
  is allowed) is played as a call (a check when nothing is owed).

Every such fix is kept in :attr:`MatchResult.corrections`, written to the log as a
``# lenient:`` comment line before that hand's STATE line, and passed to
``on_correction``. Timeouts, disconnections and bad version lines still abort.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TextIO

from checkraise.engine import State, TableConfig
from checkraise.protocol.deal import ReferenceDeck
from checkraise.protocol.errors import (
    ConnectionClosedError,
    MatchAbortedError,
    MatchSetupError,
    ProtocolError,
    ResponseTimeoutError,
)
from checkraise.protocol.gamedef import GameDef
from checkraise.protocol.log import format_log_header
from checkraise.protocol.matchstate import (
    BetAction,
    MatchState,
    ScoreLine,
    StateLine,
    format_matchstate,
    format_score_line,
    format_state_line,
    parse_action,
    parse_matchstate,
    parse_response,
)
from checkraise.protocol.net import LineChannel, check_host, check_port, listen
from checkraise.protocol.views import betting_of, engine_action, matchstate_of

__all__ = ["Correction", "Dealer", "MatchResult", "TimeLimits", "check_player_name"]

_VERSION_RE = re.compile(r"VERSION:(\d+)\.(\d+)\.(\d+)")


def check_player_name(name: str) -> str:
    """``name`` if it can stand in a log's name list, else raise :class:`MatchSetupError`.

    Examples
    --------
    >>> check_player_name("Alice")
    'Alice'
    """
    if not name or any(ch in name for ch in ":|\r\n") or name != name.strip():
        raise MatchSetupError(
            f"invalid player name {name!r}: expected no ':', '|' or spaces at the ends"
        )
    return name


@dataclass(frozen=True)
class TimeLimits:
    """Dealer time limits in milliseconds (the reference dealer's names and meanings)."""

    t_response: int = 60_000
    t_hand: int = 600_000
    t_per_hand: int = 7_000
    start: int = 60_000

    def __post_init__(self) -> None:
        for name in ("t_response", "t_hand", "t_per_hand", "start"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise MatchSetupError(f"invalid time limit {name} {value!r}: expected >= 1 ms")


@dataclass(frozen=True)
class Correction:
    """An answer the lenient dealer ignored or replaced: where, what came, what was played.

    ``played`` is the action played instead (``"c"``, ``"r250"``, ...) or ``None``
    when the line was ignored and the dealer waited for another.
    """

    hand: int
    seat: int
    name: str
    line: str
    reason: str
    played: str | None

    def describe(self) -> str:
        """One line: hand, seat, what was wrong and what the dealer did, then the line."""
        done = f"played {self.played}" if self.played is not None else "ignored"
        return (
            f"hand {self.hand} seat {self.seat} ({self.name}): {self.reason}; {done}; "
            f"line {self.line!r}"
        )


@dataclass
class MatchResult:
    """Outcome of a match: totals per match seat (seat order), the STATE lines, the SCORE line."""

    names: tuple[str, ...]
    totals: list[Fraction]
    hands: int = 0
    state_lines: list[str] = field(default_factory=list)
    score_line: str = ""
    corrections: list[Correction] = field(default_factory=list)


class Dealer:
    """Deal ``num_hands`` hands of ``game`` to the clients that connect to its ports.

    Call :meth:`bind` (ports are known from then on), start the clients, then
    :meth:`run`. ``log`` receives the reference-format log as it is written;
    ``on_hand`` is called with each finished hand's number.
    """

    def __init__(
        self,
        game: GameDef,
        *,
        num_hands: int,
        seed: int,
        names: Sequence[str],
        match_name: str = "match",
        game_name: str = "game",
        host: str = "127.0.0.1",
        ports: Sequence[int] | None = None,
        limits: TimeLimits | None = None,
        log: TextIO | None = None,
        on_hand: Callable[[int], None] | None = None,
        lenient: bool = False,
        on_correction: Callable[[Correction], None] | None = None,
    ) -> None:
        if isinstance(num_hands, bool) or not isinstance(num_hands, int) or num_hands < 1:
            raise MatchSetupError(f"invalid number of hands {num_hands!r}: expected at least 1")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
            raise MatchSetupError(
                f"invalid seed {seed!r}: expected 0..{2**32 - 1} (the reference dealer reads %u)"
            )
        if len(names) != game.num_players:
            raise MatchSetupError(
                f"the game seats {game.num_players} players, got {len(names)} names: {list(names)}"
            )
        for name in names:
            check_player_name(name)
        if ports is not None:
            if len(ports) != game.num_players:
                raise MatchSetupError(f"need {game.num_players} ports, got {list(ports)}")
            for port in ports:
                check_port(port, any_free=True)
        check_host(host)
        self.game = game
        self.config: TableConfig = game.to_table_config()
        self.num_hands = num_hands
        self.seed = seed
        self.names = tuple(names)
        self.match_name = match_name
        self.game_name = game_name
        self.host = host
        self.limits = limits or TimeLimits()
        self.log = log
        self.on_hand = on_hand
        self.lenient = lenient
        self.on_correction = on_correction
        self._wanted_ports = list(ports) if ports is not None else [0] * game.num_players
        self._listeners: list[socket.socket] = []
        self._channels: list[LineChannel] = []
        self._deck = ReferenceDeck(seed)
        n = game.num_players
        self._used_hand = [0.0] * n
        self._used_match = [0.0] * n

    # -- setup ---------------------------------------------------------------------------

    def bind(self) -> list[int]:
        """Open one listening socket per seat; return the ports in seat order."""
        if not self._listeners:
            for port in self._wanted_ports:
                self._listeners.append(listen(self.host, port))
        return [s.getsockname()[1] for s in self._listeners]

    def _abort(self, seat: int, message: str, line: str | None = None) -> MatchAbortedError:
        shown = f" in line {line!r}" if line is not None else ""
        return MatchAbortedError(
            f"match aborted: seat {seat} ({self.names[seat]}): {message}{shown}",
            seat=seat,
            line=line,
        )

    def _accept_all(self) -> None:
        deadline = time.monotonic() + self.limits.start / 1000
        for seat, listener in enumerate(self._listeners):
            listener.settimeout(max(0.001, deadline - time.monotonic()))
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                raise self._abort(seat, "did not connect in time") from None
            finally:
                listener.close()
            self._channels.append(LineChannel(conn, peer=f"seat {seat}"))
        for seat, channel in enumerate(self._channels):
            try:
                line = channel.read_line(max(0.001, deadline - time.monotonic()))
            except ProtocolError as exc:
                raise self._abort(seat, f"no version line: {exc}") from None
            m = _VERSION_RE.match(line)
            if m is None or int(m.group(1)) != 2:
                raise self._abort(seat, "expected VERSION:2.x.y as the first line", line)

    def _write_log(self, text: str) -> None:
        if self.log is not None:
            self.log.write(text)
            self.log.flush()

    # -- play ----------------------------------------------------------------------------

    def run(self) -> MatchResult:
        """Play the match; raises :class:`MatchAbortedError` when a seat breaks the rules."""
        self.bind()
        t_hand_per_match = self.limits.t_per_hand * self.num_hands
        self._write_log(
            format_log_header(
                self.match_name, self.game_name, self.num_hands, self.seed,
                self.limits.t_response, self.limits.t_hand, self.limits.t_per_hand,
            )
        )
        self._match_budget = t_hand_per_match / 1000
        result = MatchResult(self.names, [Fraction(0)] * self.game.num_players)
        try:
            self._accept_all()
            for hand in range(self.num_hands):
                self._play_hand(hand, result)
                result.hands += 1
                if self.on_hand is not None:
                    self.on_hand(hand)
            score = ScoreLine(tuple(result.totals), self.names)
            result.score_line = format_score_line(score)
            self._write_log(result.score_line + "\n")
        finally:
            self.close()
        return result

    def close(self) -> None:
        """Close every socket (clients then see the end of the match)."""
        for channel in self._channels:
            channel.close()
        for listener in self._listeners:
            listener.close()
        self._channels = []

    def _play_hand(self, hand: int, result: MatchResult) -> None:
        game, n = self.game, self.game.num_players
        holes, board = self._deck.deal(n, game.num_hole_cards, game.num_board_cards, game.deck())
        state = State(self.config, hole_cards=holes, board=board)
        self._used_hand = [0.0] * n
        while not state.is_terminal:
            position = state.current_player
            assert position is not None
            sent = self._send_all(state, hand)
            seat = (position + hand) % n
            self._take_action(state, seat, *sent[seat], hand=hand, result=result)
        values = [Fraction(v) for v in state.payoffs()]
        names = tuple(self.names[(p + hand) % n] for p in range(n))
        full = StateLine(
            hand,
            betting_of(state, limit=game.is_limit),
            tuple(tuple(h) for h in state.hole_cards),
            matchstate_of(state, 0, hand, game).board,
            tuple(values),
            names,
        )
        line = format_state_line(full)
        result.state_lines.append(line)
        self._write_log(line + "\n")
        for p in range(n):
            result.totals[(p + hand) % n] += values[p]
        self._send_all(state, hand)

    def _send_all(self, state: State, hand: int) -> list[tuple[str, MatchState]]:
        n = self.game.num_players
        sent = []
        for seat, channel in enumerate(self._channels):
            view = matchstate_of(state, (seat - hand) % n, hand, self.game)
            line = format_matchstate(view)
            try:
                channel.send_line(line, timeout=self.limits.t_response / 1000)
            except ProtocolError as exc:
                raise self._abort(seat, f"could not be sent a state: {exc}", line) from None
            sent.append((line, view))
        return sent

    def _take_action(
        self, state: State, seat: int, sent: str, view: MatchState, *, hand: int,
        result: MatchResult,
    ) -> None:
        channel = self._channels[seat]
        start = time.monotonic()
        while True:
            budget = min(
                self.limits.t_response / 1000,
                self.limits.t_hand / 1000 - self._used_hand[seat],
                self._match_budget - self._used_match[seat],
            )
            waited = time.monotonic() - start
            try:
                line = channel.read_line(max(0.0, budget - waited))
            except ResponseTimeoutError:
                raise self._abort(
                    seat, f"no action within its time limit ({budget:.3f} s left)", sent
                ) from None
            except ConnectionClosedError as exc:
                raise self._abort(seat, f"disconnected while to act ({exc})", sent) from None
            except ProtocolError as exc:
                raise self._abort(seat, str(exc), sent) from None
            if line.startswith(("#", ";")):
                continue
            if not self.lenient:
                break
            bet = self._lenient_action(state, seat, view, line, hand, result)
            if bet is not None:
                self._charge(seat, start)
                state.step(engine_action(bet, state))
                return
        self._charge(seat, start)
        try:
            answered, bet = parse_response(line, limit=self.game.is_limit)
        except ProtocolError as exc:
            raise self._abort(seat, f"malformed action: {exc}", line) from None
        if _key(answered) != _key(view):
            raise self._abort(seat, f"answer to a state that was not sent (sent {sent!r})", line)
        legal = state.legal_actions()
        if bet.kind == "f" and legal.can_check:
            raise self._abort(seat, "illegal action: fold when checking is free", line)
        try:
            state.step(engine_action(bet, state))
        except ValueError as exc:
            raise self._abort(seat, f"illegal action {bet}: {exc}", line) from None

    def _charge(self, seat: int, start: float) -> None:
        used = time.monotonic() - start
        self._used_hand[seat] += used
        self._used_match[seat] += used

    def _lenient_action(
        self, state: State, seat: int, view: MatchState, line: str, hand: int,
        result: MatchResult,
    ) -> BetAction | None:
        """The legal action to play for ``line``, or ``None`` to ignore it (see the module doc)."""

        def fix(reason: str, played: BetAction | None) -> BetAction | None:
            note = Correction(hand, seat, self.names[seat], line, reason,
                              None if played is None else str(played))
            result.corrections.append(note)
            self._write_log(f"# lenient: {note.describe()}\n")
            if self.on_correction is not None:
                self.on_correction(note)
            return played

        # A MATCHSTATE has exactly five ':'-separated fields; the action is the rest.
        fields = line.split(":")
        try:
            answered = parse_matchstate(":".join(fields[:5]))
        except ProtocolError:
            return fix("not an answer to a MATCHSTATE", None)
        if _key(answered) != _key(view):
            return fix("answer to a state that was not sent", None)
        call = BetAction("c")
        try:
            if len(fields) != 6:
                raise ProtocolError(f"expected one action after the state, got {fields[5:]!r}")
            bet = parse_action(fields[5], lenient=True)
            if bet.kind == "r" and bet.size is None and not self.game.is_limit:
                raise ProtocolError("a no-limit raise needs its total")
        except ProtocolError:
            return fix("unreadable action", call)
        if self.game.is_limit and bet.size is not None:
            bet = BetAction("r")  # a limit raise has one size; the reference ignores the number
        legal = state.legal_actions()
        if bet.kind == "f" and legal.can_check:
            return fix("fold when checking is free", call)
        if bet.kind == "r":
            if legal.min_raise_to is None or legal.max_raise_to is None:
                return fix("raise when no raise is allowed", call)
            if bet.size is not None and bet.size < legal.min_raise_to:
                return fix(f"raise to {bet.size} below the minimum {legal.min_raise_to}",
                           BetAction("r", legal.min_raise_to))
            if bet.size is not None and bet.size > legal.max_raise_to:
                return fix(f"raise to {bet.size} above the maximum {legal.max_raise_to}",
                           BetAction("r", legal.max_raise_to))
        try:
            state.copy().step(engine_action(bet, state))
        except ValueError as exc:
            return fix(f"illegal action {bet}: {exc}", call)
        return bet


def _key(ms: MatchState) -> tuple[object, ...]:
    # What identifies the state a response answers (the reference's matchStatesEqual).
    return (ms.position, ms.hand_number, ms.betting, ms.board, ms.own_cards)
