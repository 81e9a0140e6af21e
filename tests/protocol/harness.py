"""Test helpers for the ACPC protocol: data paths, a replaying agent, scripted fake peers.

Every socket here has a timeout and every loop a bound, so a broken peer fails a
test instead of hanging it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from checkraise.engine import Action, Observation, TableConfig
from checkraise.protocol import (
    ClientReport,
    GameDef,
    HandTracker,
    StateLine,
    load_gamedef,
    parse_dealer_log,
    parse_matchstate,
    play,
)
from checkraise.protocol.net import LineChannel, connect, listen
from tests.shared_data import shared_root

# The reference games and dealer logs (tests/shared_data.py says where shared data lives).
DATA = shared_root() / "acpc"

# (log file, game file) of the three reference-dealer logs.
LOGS = [
    ("example_vs_example.limit.2p.log", "holdem.limit.2p.reverse_blinds.game"),
    ("example_vs_example.nolimit.2p.log", "holdem.nolimit.2p.reverse_blinds.game"),
    ("example_vs_example.nolimit.3p.log", "holdem.nolimit.3p.game"),
]
NL2 = DATA / "holdem.nolimit.2p.reverse_blinds.game"
NL3 = DATA / "holdem.nolimit.3p.game"
L2 = DATA / "holdem.limit.2p.reverse_blinds.game"

STEP_TIMEOUT = 10.0  # seconds any single network wait in a test may take


def load_log(log_name: str, game_name: str) -> tuple[GameDef, str, list[StateLine], dict[str, str]]:
    """Game, raw text, STATE lines and header fields of one reference log."""
    game = load_gamedef(DATA / game_name)
    text = (DATA / log_name).read_text()
    log = parse_dealer_log(text, game=game, source=log_name)
    m = re.match(r"# name/game/hands/seed (\S+) (\S+) (\d+) (\d+)", text)
    assert m is not None
    header = {"name": m.group(1), "game": m.group(2), "hands": m.group(3), "seed": m.group(4)}
    return game, text, list(log.states), header


class ReplayAgent:
    """Plays the actions of a reference log for whichever seat it holds in each hand."""

    def __init__(self, states: list[StateLine]) -> None:
        self.states = {s.hand_number: s for s in states}
        self.hand: StateLine | None = None

    def begin_hand(
        self, seat: int, config: TableConfig, hole_cards: tuple[int, ...], hand_number: int
    ) -> None:
        self.hand = self.states[hand_number]
        assert self.hand.hole_cards[seat] == hole_cards, "dealer dealt other cards than the log"

    def act(self, observation: Observation) -> Action:
        assert self.hand is not None and observation.legal is not None
        bet = [a for group in self.hand.betting for a in group][len(observation.history)]
        if bet.kind == "f":
            return Action.fold()
        if bet.kind == "c":
            return Action.call()
        amount = bet.size if bet.size is not None else observation.legal.min_raise_to
        assert amount is not None
        return Action.raise_to(amount)


@dataclass
class Outcome:
    """What a background peer produced: a result or the exception it died of."""

    result: Any = None
    error: BaseException | None = None
    received: list[str] = field(default_factory=list)


def in_thread(target: Callable[[Outcome], Any]) -> tuple[threading.Thread, Outcome]:
    """Run ``target(outcome)`` in a daemon thread; exceptions land in ``outcome.error``."""
    outcome = Outcome()

    def runner() -> None:
        try:
            outcome.result = target(outcome)
        except BaseException as exc:
            outcome.error = exc

    thread = threading.Thread(target=runner, daemon=True)
    thread.start()
    return thread, outcome


def client_thread(
    port: int, agent: Any, game: GameDef | None, *, read_timeout: float = STEP_TIMEOUT
) -> tuple[threading.Thread, Outcome]:
    """Our real client, playing ``agent`` against ``127.0.0.1:port`` in a thread."""

    def run(outcome: Outcome) -> ClientReport:
        channel = connect("127.0.0.1", port, timeout=STEP_TIMEOUT)
        try:
            return play(channel, agent, game, read_timeout=read_timeout)
        finally:
            channel.close()

    return in_thread(run)


# A fake client's decision for one line it received: a line to send, or one of these.
SILENT = "<silent>"  # never answer (and keep the connection open)
CLOSE = "<close>"  # drop the connection


def fake_client_thread(
    port: int,
    game: GameDef,
    decide: Callable[[str, HandTracker, int], str | None],
    *,
    version: str = "VERSION:2.0.0",
    max_lines: int = 20_000,
) -> tuple[threading.Thread, Outcome]:
    """A scripted client: ``decide(line, tracker, nth_turn)`` answers each state where it acts.

    ``None`` means "play a plain call" (the well-behaved default).
    """

    def run(outcome: Outcome) -> None:
        channel = connect("127.0.0.1", port, timeout=STEP_TIMEOUT)
        tracker = HandTracker(game)
        turns = 0
        try:
            channel.send_line(version)
            for _ in range(max_lines):
                line = channel.read_line(STEP_TIMEOUT)
                outcome.received.append(line)
                ms = parse_matchstate(line, game=game)
                state = tracker.update(ms, line)
                if state.is_terminal or state.current_player != ms.position:
                    continue
                answer = decide(line, tracker, turns)
                turns += 1
                if answer == SILENT:
                    channel.read_line(STEP_TIMEOUT)  # the dealer closes first
                    return
                if answer == CLOSE:
                    return
                channel.send_line(answer if answer is not None else line + ":c")
        finally:
            channel.close()

    return in_thread(run)


def fake_server_thread(
    script: list[str], *, expect_answers: int = 0
) -> tuple[int, threading.Thread, Outcome]:
    """A scripted server on a free port: read the version, send ``script``, then close.

    An item ``"<read>"`` waits for one line from the client (recorded in
    ``outcome.received``); ``"<hold>"`` keeps the connection open, silent, until the
    client closes it.
    """
    listener = listen("127.0.0.1", 0)
    listener.settimeout(STEP_TIMEOUT)
    port = listener.getsockname()[1]

    def run(outcome: Outcome) -> None:
        try:
            conn, _ = listener.accept()
        finally:
            listener.close()
        channel = LineChannel(conn, peer="client")
        try:
            outcome.received.append(channel.read_line(STEP_TIMEOUT))
            for item in script:
                if item == "<read>":
                    outcome.received.append(channel.read_line(STEP_TIMEOUT))
                elif item == "<hold>":
                    try:
                        channel.read_line(STEP_TIMEOUT)
                    except Exception:
                        return
                else:
                    channel.send_line(item)
        finally:
            channel.close()

    thread, outcome = in_thread(run)
    return port, thread, outcome


def run_local_match(
    game: GameDef,
    agents: list[Any],
    *,
    num_hands: int,
    seed: int,
    names: list[str],
    limits: Any = None,
    client_game: GameDef | str | None = "same",
    **dealer_kwargs: Any,
) -> tuple[str, Any, list[Outcome]]:
    """Our dealer here, our client per agent in threads; returns (log, result, clients).

    The clients know ``game`` unless ``client_game`` says otherwise (``None``: they
    infer it from the dealer's first states).
    """
    import io

    from checkraise.protocol import Dealer, TimeLimits

    log = io.StringIO()
    dealer = Dealer(
        game, num_hands=num_hands, seed=seed, names=names, log=log,
        limits=limits or TimeLimits(t_response=10_000, t_hand=60_000, start=10_000),
        **dealer_kwargs,
    )
    threads = []
    outcomes = []
    for port, agent in zip(dealer.bind(), agents, strict=True):
        thread, outcome = client_thread(
            port, agent, game if isinstance(client_game, str) else client_game
        )
        threads.append(thread)
        outcomes.append(outcome)
    try:
        result = dealer.run()
    finally:
        for thread in threads:
            thread.join(STEP_TIMEOUT)
    return log.getvalue(), result, outcomes
