"""One hand between agents, and the hand logs every arena writes.

:func:`play_hand` seats agents on the engine's positional seats, calls the hooks
of the agent protocol (:mod:`checkraise.agents.base`), asks each agent to act on
its own :class:`~checkraise.engine.Observation` and records what each decision
was (fold, check, call, raise and the amount that was to be called), which is
what :class:`~checkraise.arena.stats.ActionCounts` needs.

:class:`HandLog` appends each finished hand to two files: the ACPC dealer's
``STATE`` line format (``shared/ACPC.md``) and the PokerStars hand-history text
that tracking software reads, written by the engine
(:meth:`~checkraise.engine.State.acpc_state_line`) and by :mod:`checkraise.histories`
(:func:`~checkraise.histories.pokerstars.format_hand`), not here.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from types import TracebackType
from typing import IO

from checkraise.agents.base import Agent, call_begin_hand, call_end_hand
from checkraise.engine import ActionKind, IllegalActionError, State, TableConfig
from checkraise.errors import CheckraiseError, ConfigError

__all__ = ["AgentError", "HandLog", "PlayedHand", "log_names", "log_numbers", "play_hand",
           "pokerstars_text"]


class AgentError(CheckraiseError):
    """An agent returned something that is not a legal action."""


@dataclass
class PlayedHand:
    """A finished hand: the terminal engine state and each seat's decisions.

    Attributes
    ----------
    hand_number
        The session's hand counter given to :func:`play_hand`.
    state
        The terminal :class:`~checkraise.engine.State`.
    payoffs
        Net chips per engine seat.
    decisions
        Per seat, ``(round, kind, call_amount_before)`` for each decision, ``kind``
        one of ``"fold"``, ``"call"``, ``"raise"`` (a check is a call of 0).
    """

    hand_number: int
    state: State
    payoffs: tuple[int | Fraction, ...]
    decisions: list[list[tuple[int, str, int]]] = field(default_factory=list)


def play_hand(
    agents: Sequence[Agent],
    config: TableConfig,
    deck: Sequence[int],
    hand_number: int,
    names: Sequence[str] | None = None,
) -> PlayedHand:
    """Play one hand; ``agents[s]`` sits in engine seat ``s``.

    Parameters
    ----------
    agents
        One agent per seat of ``config``.
    config
        The hand's table configuration.
    deck
        Card order: hole cards of seat 0..n-1 (two each), then the board.
    hand_number
        Passed to ``begin_hand`` and kept in the result.
    names
        Agent names, used in error messages.

    Raises
    ------
    AgentError
        If an agent returns an illegal action (the message names the agent).

    Examples
    --------
    >>> from checkraise.agents import make_agent
    >>> hand = play_hand([make_agent("call"), make_agent("call")],
    ...                  TableConfig.nolimit(2), list(range(52)), 0)
    >>> sum(hand.payoffs), hand.state.is_terminal
    (0, True)
    """
    if len(agents) != config.num_players:
        raise ConfigError(
            f"{len(agents)} agents for a {config.num_players}-seat table: expected one per seat"
        )
    state = State(config, deck=list(deck))
    for seat, agent in enumerate(agents):
        call_begin_hand(agent, seat, config, tuple(state.hole_cards[seat]), hand_number)
    decisions: list[list[tuple[int, str, int]]] = [[] for _ in agents]
    while not state.is_terminal:
        actor = state.current_player
        if actor is None:
            raise RuntimeError("engine state is neither terminal nor waiting for a player")
        observation = state.observation(actor)
        legal = observation.legal
        to_call = legal.call_amount if legal is not None else 0
        action = agents[actor].act(observation)
        try:
            state.step(action)
        except IllegalActionError as exc:
            who = names[actor] if names is not None else type(agents[actor]).__name__
            raise AgentError(
                f"agent {who!r} in seat {actor} of hand {hand_number} chose an illegal action "
                f"{action}: {exc}"
            ) from exc
        kind = "fold" if action.kind is ActionKind.FOLD else (
            "raise" if action.kind is ActionKind.RAISE else "call"
        )
        decisions[actor].append((observation.round, kind, to_call))
    payoffs = tuple(state.payoffs())
    for seat, agent in enumerate(agents):
        call_end_hand(agent, state.observation(seat), payoffs)
    return PlayedHand(hand_number, state, payoffs, decisions)


class HandLog:
    """Append-only hand logs: ``<stem>.log`` (ACPC ``STATE`` lines) and ``<stem>.txt`` (PokerStars).

    Parameters
    ----------
    folder
        Where to write (created if missing). ``None`` writes nothing. The files are
        opened with the first hand written, so a session that ends before any hand
        is over leaves no empty logs behind.
    stem
        File name without extension.
    table
        Table name written in the PokerStars text.
    first
        Added to each hand's session counter in the files (see :func:`log_numbers`):
        the hand database keys hands by their number.
    """

    def __init__(self, folder: Path | None, stem: str, table: str = "checkraise",
                 first: int = 0) -> None:
        self.table = table
        self.first = first
        self._folder = folder
        self._stem = stem
        self._acpc: IO[str] | None = None
        self._stars: IO[str] | None = None

    def write(self, hand: PlayedHand, names: Sequence[str]) -> None:
        """Append ``hand``, with ``names[s]`` the player in engine seat ``s``."""
        if self._folder is None:
            return
        if self._acpc is None or self._stars is None:
            self._folder.mkdir(parents=True, exist_ok=True)
            base = self._folder / self._stem
            self._acpc = open(f"{base}.log", "w", encoding="utf-8")  # noqa: SIM115
            self._stars = open(f"{base}.txt", "w", encoding="utf-8")  # noqa: SIM115
        safe = log_names(names)
        number = self.first + hand.hand_number
        self._acpc.write(hand.state.acpc_state_line(number, safe) + "\n")
        text = pokerstars_text(replace(hand, hand_number=number), safe, self.table)
        self._stars.write(text + "\n")
        # on disk before the next hand: a killed match's logs hold every hand it finished
        self._acpc.flush()
        self._stars.flush()

    def close(self) -> None:
        """Close the files."""
        for f in (self._acpc, self._stars):
            if f is not None:
                f.close()
        self._acpc = self._stars = None
        self._folder = None  # closed for good: a later write is ignored, as before

    def __enter__(self) -> HandLog:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def pokerstars_text(hand: PlayedHand, names: Sequence[str], table: str) -> str:
    """PokerStars hand-history text of ``hand``, as :mod:`checkraise.histories` writes and reads it.

    The hand goes through the histories module's record (rebuilt from the ACPC
    ``STATE`` line, which also re-checks the payout), so the logs import with
    ``checkraise hands import`` and into tracking software.
    """
    from checkraise.histories.acpc_log import record_from_state
    from checkraise.histories.pokerstars import format_hand
    from checkraise.protocol.matchstate import parse_state_line

    line = hand.state.acpc_state_line(hand.hand_number, list(names))
    record = record_from_state(parse_state_line(line), hand.state.config)
    record = replace(record, site="pokerstars", hand_id=str(hand.hand_number + 1), table=table)
    return format_hand(record)


def log_numbers(kind: str, seed: int, labels: Sequence[str], part: int, span: int) -> int:
    """The first hand number in the logs of one part (rotation, repetition) of a session.

    Every rotation of a match and repetition of a tournament counts its hands from 0,
    and the hand database keys hands by their number, so logs numbered from 0 kept
    only one part of a session on import. Part ``part``, of at most ``span`` hands, is
    numbered from ``base + part * span``: apart from the session's other parts. The
    ``base`` is drawn from a hash of ``kind``, ``seed`` and the line-up below 2 * 10**9,
    so that two sessions of ``n1`` and ``n2`` hands share a number with probability
    about ``(n1 + n2) / (2 * 10**9)``, and the numbers stay below 4 * 10**9, as the ACPC
    dealer's (unsigned 32-bit) do. The same session played again gets the same
    numbers, so importing it twice adds nothing. A part past 2 * 10**9 hands from the
    base is refused (:class:`~checkraise.errors.ConfigError`).

    Examples
    --------
    >>> a = log_numbers("ring", 1, ["call", "raise"], 0, 1000)
    >>> b = log_numbers("ring", 1, ["call", "raise"], 1, 1000)
    >>> b - a, a == log_numbers("ring", 1, ["call", "raise"], 0, 1000), a < 2 * 10**9
    (1000, True, True)
    """
    if (part + 1) * max(1, span) > _LOG_SPAN:
        raise ConfigError(f"part {part} of {span} hands: a session's logs number at most "
                          f"{_LOG_SPAN:,} hands")
    key = "\x1f".join([kind, str(seed), *labels]).encode()
    base = int.from_bytes(hashlib.sha256(key).digest()[:8], "big") % _LOG_SPAN
    return base + part * max(1, span)


_LOG_SPAN = 2_000_000_000


def log_names(labels: Sequence[str]) -> list[str]:
    """Player names safe in ACPC ``STATE`` lines and PokerStars text (no ``:|,`` or spaces).

    Examples
    --------
    >>> log_names(["equity:raise_ratio=2,margin=0.1", "call#2"])
    ['equity_raise_ratio=2_margin=0.1', 'call#2']
    """
    return [re.sub(r"[:|,;\s]", "_", label) for label in labels]
