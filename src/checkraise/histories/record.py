"""One hand as it was played, independent of the text format it came from.

A :class:`HandRecord` is what every reader produces (PokerStars text, ACPC dealer
logs, the hand database) and what every writer and the engine replay consume. Seats
are listed in *engine order* (see :mod:`checkraise.engine`): in ring games seat 0 is
the small blind, seat 1 the big blind and the last seat the button; heads-up, seat
0 is the button and posts the small blind. ACPC logs keep the dealer's own seat
order, whose blinds and first actors are given by ``blinds`` and ``first_player``.

Amounts are integer chips (cents for real-money PokerStars games, see ``unit``);
only the amounts collected from pots may be fractional, because the ACPC dealer and
the Pluribus converter split odd chips evenly.

Examples
--------
>>> seat = PlayerSeat(name="A", table_seat=1, stack=100)
>>> seat.hole_cards
()
>>> Move("raise") is Move.RAISE
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Final, NamedTuple

from checkraise.errors import CheckraiseError

__all__ = [
    "STREET_NAMES",
    "ZERO",
    "HandAction",
    "HandHistoryError",
    "HandRecord",
    "Move",
    "PlayerSeat",
]

STREET_NAMES = ("preflop", "flop", "turn", "river")
ZERO: Final = Fraction(0)


class HandHistoryError(CheckraiseError):
    """A hand history that cannot be read or does not replay.

    The message starts with ``file:line:`` so that the bad place can be found.

    Parameters
    ----------
    message
        What is wrong and what was expected.
    source
        File name (or ``"<text>"``).
    line
        1-based line number, 0 when unknown.
    """

    def __init__(self, message: str, source: str = "<text>", line: int = 0) -> None:
        self.source = source
        self.line = line
        self.reason = message
        super().__init__(f"{source}:{line}: {message}")


class Move(StrEnum):
    """What a player did, in the words of a hand history."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


class HandAction(NamedTuple):
    """One voluntary action (a named tuple: immutable and cheap to build by the thousand).

    Attributes
    ----------
    seat
        Engine seat of the actor.
    street
        0 preflop, 1 flop, 2 turn, 3 river.
    move
        The action.
    amount
        Chips this action added to the pot (0 for fold and check).
    to
        The actor's total for this street after the action (blinds count preflop,
        antes never), i.e. PokerStars' ``raises X to Y`` figure ``Y``.
    all_in
        Whether the action put the actor all-in.
    """

    seat: int
    street: int
    move: Move
    amount: int = 0
    to: int = 0
    all_in: bool = False


class PlayerSeat(NamedTuple):
    """A player in one hand (a named tuple, like :class:`HandAction`).

    Attributes
    ----------
    name
        Screen name.
    table_seat
        Seat number printed by the site (1-based); for ACPC logs the dealer's seat + 1.
    stack
        Chips at the start of the hand, before antes and blinds.
    blind
        Blind posted (0 when none).
    ante
        Ante posted.
    hole_cards
        Known hole cards (dealt, shown or mucked face up); ``()`` when unknown.
    showed
        Whether the cards were shown at showdown.
    collected
        Chips collected from pots (after rake).
    uncalled
        Chips of an uncalled bet returned to this player.
    """

    name: str
    table_seat: int
    stack: int
    blind: int = 0
    ante: int = 0
    hole_cards: tuple[int, ...] = ()
    showed: bool = False
    collected: Fraction = ZERO
    uncalled: int = 0


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A complete hand: who sat where, what was dealt, done and collected.

    Attributes
    ----------
    site
        ``"pokerstars"`` or ``"acpc"``.
    hand_id
        The site's hand number; with ``site`` it identifies the hand in a database.
    table
        Table name (the match name for ACPC logs).
    started
        Date and time text as printed (empty when the format has none).
    small_blind, big_blind, ante
        Nominal stakes in chips.
    max_seats
        Seats at the table (``6`` for a 6-max table).
    button
        Table seat number of the button.
    seats
        Players in engine seat order.
    actions
        Voluntary actions in order.
    board
        Community cards dealt, up to five.
    total_pot, rake
        As printed in the summary (the sum of collections plus rake).
    betting
        ``"nolimit"`` or ``"limit"``.
    first_player
        Engine seat that acts first in each round.
    raise_sizes, max_raises
        Limit games only.
    rules
        ``"casino"`` or ``"acpc"`` (odd chips split in fractions).
    unit
        Chips per currency unit: 1 for play chips, 100 when amounts are in cents.
    currency
        Currency symbol printed before amounts (``""`` for chips).
    source, line
        File and first line the hand was read from.
    action_lines
        Source line of each action (empty when the hand did not come from a file).
    """

    site: str
    hand_id: str
    table: str
    started: str
    small_blind: int
    big_blind: int
    ante: int
    max_seats: int
    button: int
    seats: tuple[PlayerSeat, ...]
    actions: tuple[HandAction, ...]
    board: tuple[int, ...]
    total_pot: Fraction
    rake: Fraction = Fraction(0)
    betting: str = "nolimit"
    first_player: tuple[int, ...] = ()
    raise_sizes: tuple[int, ...] = ()
    max_raises: tuple[int, ...] = ()
    rules: str = "casino"
    unit: int = 1
    currency: str = ""
    source: str = field(default="<text>", compare=False)
    line: int = field(default=0, compare=False)
    action_lines: tuple[int, ...] = field(default=(), compare=False)

    @property
    def num_players(self) -> int:
        """Players dealt in."""
        return len(self.seats)

    @property
    def key(self) -> tuple[str, str]:
        """``(site, hand_id)``: what makes the hand unique in a database."""
        return self.site, self.hand_id
