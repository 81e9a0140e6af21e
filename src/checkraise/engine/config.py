"""Table configuration for one hand: seats, stacks, blinds, antes, betting and rule set.

The fields follow the ACPC game-definition format (``blind``, ``firstPlayer``,
``stack``, ``raiseSize``, ``maxRaises``, ``numBoardCards`` ...; see the ACPC
protocol 2.0.0 description in ``shared/ACPC.md``) so that a game file maps onto a
:class:`TableConfig` field by field; seat 0 of a game file is engine seat 0.

Two rule sets differ only in what happens after an incomplete all-in raise and
in how odd chips of a split pot are handed out:

``casino``
    The rule of card rooms and online sites (PokerStars, TDA rules; it is also
    what PokerKit implements). A raise smaller than the last full raise (an
    all-in for less) does not reopen the betting to players who already acted
    since that full raise, unless several such all-ins together add up to a full
    raise. The minimum raise is by max(big blind, last full raise this round).
    Odd chips of a split pot go to the first winner left of the button. Results
    are ints.
``acpc``
    Exactly the reference ACPC dealer: any player facing a bet may re-raise
    while two or more players can still act, the minimum raise-to is
    ``max over raises this round of (2 * raise_to - previous bet)`` (starting at
    ``previous bet + big blind``), and tied pots are split in exact fractions, so
    a seat's net can be a :class:`fractions.Fraction`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from checkraise.errors import ConfigError, FormatError

__all__ = ["Betting", "RuleSet", "TableConfig"]

MAX_SEATS = 10


class RuleSet(StrEnum):
    """Which rule book settles incomplete raises and odd chips (see the module docstring)."""

    CASINO = "casino"
    ACPC = "acpc"


class Betting(StrEnum):
    """No-limit (raise to any amount up to all-in) or fixed-limit betting."""

    NOLIMIT = "nolimit"
    LIMIT = "limit"


def _ints(name: str, values: Sequence[int], length: int, *, minimum: int = 0) -> tuple[int, ...]:
    out = tuple(values)
    if len(out) != length:
        raise ConfigError(f"{name} must have {length} entries, got {len(out)}: {out!r}")
    for v in out:
        if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
            raise ConfigError(f"{name} entries must be ints >= {minimum}, got {out!r}")
    return out


@dataclass(frozen=True)
class TableConfig:
    """Everything that is fixed for one hand.

    Parameters
    ----------
    num_players
        2..10 seats. Seat order is positional for one hand; arenas rotate players
        over seats between hands.
    stacks
        Chips each seat has at the start of the hand (before blinds and antes).
    blinds
        Chips each seat posts as a blind before the deal (0 for no blind).
    first_player
        Per betting round, the 0-based seat that acts first (skipping seats that
        folded or are all-in).
    ante
        Chips every seat posts as dead money before the blinds.
    betting, rules
        :class:`Betting` and :class:`RuleSet`.
    raise_sizes, max_raises
        Limit betting: the fixed raise per round and the cap on raises per round.
        ``max_raises`` may also cap no-limit rounds; empty means no cap.
    num_rounds, board_cards, hole_cards
        Betting rounds, new board cards per round, hole cards per seat.

    Examples
    --------
    >>> cfg = TableConfig.nolimit(3, stacks=1000, small_blind=5, big_blind=10)
    >>> cfg.blinds, cfg.first_player, cfg.button
    ((5, 10, 0), (2, 0, 0, 0), 2)
    >>> TableConfig.nolimit(2).blinds
    (50, 100)
    """

    num_players: int
    stacks: tuple[int, ...]
    blinds: tuple[int, ...]
    first_player: tuple[int, ...]
    ante: int = 0
    betting: Betting = Betting.NOLIMIT
    rules: RuleSet = RuleSet.CASINO
    raise_sizes: tuple[int, ...] = ()
    max_raises: tuple[int, ...] = ()
    num_rounds: int = 4
    board_cards: tuple[int, ...] = (0, 3, 1, 1)
    hole_cards: int = 2

    def __post_init__(self) -> None:
        n = self.num_players
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= MAX_SEATS:
            raise ConfigError(f"num_players must be an int 2..{MAX_SEATS}, got {n!r}")
        r = self.num_rounds
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= 8:
            raise ConfigError(f"num_rounds must be an int 1..8, got {r!r}")
        # Coerce sequences to tuples so that lists given by callers compare and hash.
        set_ = object.__setattr__
        set_(self, "stacks", _ints("stacks", self.stacks, n, minimum=1))
        set_(self, "blinds", _ints("blinds", self.blinds, n))
        set_(self, "first_player", _ints("first_player", self.first_player, r))
        set_(self, "board_cards", _ints("board_cards", self.board_cards, r))
        set_(self, "betting", Betting(self.betting))
        set_(self, "rules", RuleSet(self.rules))
        if any(p >= n for p in self.first_player):
            raise ConfigError(f"first_player entries must be seats 0..{n - 1}, got "
                             f"{self.first_player!r}")
        if isinstance(self.ante, bool) or not isinstance(self.ante, int) or self.ante < 0:
            raise ConfigError(f"ante must be an int >= 0, got {self.ante!r}")
        h = self.hole_cards
        if isinstance(h, bool) or not isinstance(h, int) or not 0 <= h <= 4:
            raise ConfigError(f"hole_cards must be an int 0..4, got {h!r}")
        if n * h + sum(self.board_cards) > 52:
            raise ConfigError(f"{n} seats x {h} hole cards + {sum(self.board_cards)} board cards "
                             "need more than 52 cards")
        if self.betting is Betting.LIMIT or self.raise_sizes:
            set_(self, "raise_sizes", _ints("raise_sizes", self.raise_sizes, r, minimum=1))
        if self.max_raises:
            set_(self, "max_raises", _ints("max_raises", self.max_raises, r))

    @classmethod
    def nolimit(
        cls,
        num_players: int,
        stacks: int | Sequence[int] = 20000,
        small_blind: int = 50,
        big_blind: int = 100,
        ante: int = 0,
        rules: RuleSet | str = RuleSet.CASINO,
    ) -> TableConfig:
        """No-limit hold'em with the usual seat layout.

        Ring (3+ seats): seat 0 small blind, seat 1 big blind, seat n-1 button;
        seat ``2 % n`` acts first preflop and seat 0 after the flop. Heads-up:
        seat 0 is the button and small blind and acts first preflop, seat 1 (big
        blind) acts first after the flop.

        Examples
        --------
        >>> TableConfig.nolimit(2, stacks=(500, 900)).first_player
        (0, 1, 1, 1)
        """
        n = num_players
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= MAX_SEATS:
            raise ConfigError(f"num_players must be an int 2..{MAX_SEATS}, got {n!r}")
        if not 0 <= small_blind <= big_blind or big_blind < 1:
            raise ConfigError(f"blinds must satisfy 0 <= small_blind <= big_blind, big_blind >= 1;"
                             f" got small_blind={small_blind!r} big_blind={big_blind!r}")
        stack_t = (stacks,) * n if isinstance(stacks, int) else tuple(stacks)
        if n == 2:
            blinds: tuple[int, ...] = (small_blind, big_blind)
            first: tuple[int, ...] = (0, 1, 1, 1)
        else:
            blinds = (small_blind, big_blind) + (0,) * (n - 2)
            first = (2 % n, 0, 0, 0)
        return cls(num_players=n, stacks=stack_t, blinds=blinds, first_player=first, ante=ante,
                   betting=Betting.NOLIMIT, rules=RuleSet(rules))

    @classmethod
    def limit(
        cls,
        num_players: int,
        small_blind: int = 5,
        big_blind: int = 10,
        raise_sizes: tuple[int, ...] = (10, 10, 20, 20),
        max_raises: tuple[int, ...] = (3, 4, 4, 4),
        stacks: int | Sequence[int] = 2**31 - 1,
        rules: RuleSet | str = RuleSet.CASINO,
    ) -> TableConfig:
        """Fixed-limit hold'em with the same seat layout as :meth:`nolimit`.

        Examples
        --------
        >>> TableConfig.limit(2).raise_sizes
        (10, 10, 20, 20)
        """
        base = cls.nolimit(num_players, stacks, small_blind, big_blind, 0, rules)
        return cls(num_players=base.num_players, stacks=base.stacks, blinds=base.blinds,
                   first_player=base.first_player, betting=Betting.LIMIT, rules=base.rules,
                   raise_sizes=raise_sizes, max_raises=max_raises)

    @property
    def button(self) -> int:
        """Seat of the button: the seat just before the first to act after the flop."""
        n = self.num_players
        seat = self.first_player[1] if self.num_rounds > 1 else self.first_player[0]
        return (seat - 1) % n

    @property
    def big_blind(self) -> int:
        """The largest blind (the minimum bet in no-limit), at least 1."""
        return max(1, *self.blinds)

    def replace(self, **changes: Any) -> TableConfig:
        """A copy with some fields changed (validated again).

        Examples
        --------
        >>> TableConfig.nolimit(2).replace(rules="acpc").rules
        <RuleSet.ACPC: 'acpc'>
        """
        fields = {k: getattr(self, k) for k in self.__dataclass_fields__}
        fields.update(changes)
        return TableConfig(**fields)

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form (lists and strings)."""
        return {
            "num_players": self.num_players,
            "stacks": list(self.stacks),
            "blinds": list(self.blinds),
            "first_player": list(self.first_player),
            "ante": self.ante,
            "betting": str(self.betting),
            "rules": str(self.rules),
            "raise_sizes": list(self.raise_sizes),
            "max_raises": list(self.max_raises),
            "num_rounds": self.num_rounds,
            "board_cards": list(self.board_cards),
            "hole_cards": self.hole_cards,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TableConfig:
        """Inverse of :meth:`to_json`."""
        try:
            return cls(
                num_players=d["num_players"],
                stacks=tuple(d["stacks"]),
                blinds=tuple(d["blinds"]),
                first_player=tuple(d["first_player"]),
                ante=d.get("ante", 0),
                betting=Betting(d.get("betting", "nolimit")),
                rules=RuleSet(d.get("rules", "casino")),
                raise_sizes=tuple(d.get("raise_sizes", ())),
                max_raises=tuple(d.get("max_raises", ())),
                num_rounds=d.get("num_rounds", 4),
                board_cards=tuple(d.get("board_cards", (0, 3, 1, 1))),
                hole_cards=d.get("hole_cards", 2),
            )
        except KeyError as exc:
            raise FormatError(f"table config JSON lacks the field {exc.args[0]!r}") from None
