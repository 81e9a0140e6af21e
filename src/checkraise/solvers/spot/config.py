"""A postflop spot: board, pot, stacks, two ranges and the bet sizes, validated.

A :class:`Spot` is what a player types into a solver: the board (flop, turn or
river), the pot at the start of the spot, the effective stack behind, the ranges of
the player out of position (OOP, first to act) and in position (IP), and the bet
sizes each may use on each street. It is a frozen dataclass; :meth:`Spot.from_dict`
reads the TOML/JSON form and checks every field, so a bad spot fails before any tree
is built, with one error naming the value and what was expected.

The TOML form (JSON is the same structure)::

    board = "Qs Jh 2h"
    pot = 50                # chips in the pot when the spot starts
    stack = 200             # effective stack behind, in chips
    big_blind = 2           # the smallest bet (ACPC minimum-raise rules)
    allin_threshold = 0.67  # a bet leaving less than 67% of the pot behind is all-in
    raise_cap = 3           # raises per street after the first bet

    [ranges]
    oop = "22+,A2s+,K9s+,ATo+"
    ip = "QQ-22,AQs-A2s,AJo-ATo"

    [sizes]                 # every street and both players, unless overridden
    bet = [50, 100]         # % of the pot
    raise = [100]           # % of the pot after calling
    allin = true

    [sizes.river.ip]        # one street and player
    bet = [33, 75, 150]

    [sizes.turn.oop]
    donk = [25]             # OOP's lead into the previous street's last bettor

Sizes are percentages of the pot: a bet of ``x`` puts ``x% * pot`` in; a raise of
``x`` first calls, then adds ``x%`` of the pot after the call. Amounts are rounded
to whole chips and raised to the ACPC minimum (the last bet or raise on the street,
at least one big blind); an amount at or above the stack is all-in.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from checkraise.cards import NUM_COMBOS, CardError, format_cards, parse_cards
from checkraise.errors import ConfigError, FormatError, one_of
from checkraise.ranges import Range, RangeError, cards_mask

__all__ = ["STREETS", "BetSizes", "Spot", "SpotError", "load_spot"]

STREETS = ("flop", "turn", "river")
PLAYERS = ("oop", "ip")
_MAX_PERCENT = 100_000.0


class SpotError(ConfigError):
    """A spot that makes no game: bad cards, ranges, chips or sizes."""


def _sizes(value: Any, where: str) -> tuple[float, ...]:
    if isinstance(value, str):
        parts = [p for p in value.replace(" ", "").split(",") if p]
    elif isinstance(value, Sequence):
        parts = list(value)
    else:
        raise SpotError(f"{where} = {value!r}; expected a list of % of the pot, e.g. [50, 100]")
    out: list[float] = []
    for part in parts:
        if isinstance(part, bool):
            raise SpotError(f"{where} has {part!r}; expected a number (% of the pot), e.g. 50")
        try:
            size = float(part)
        except (TypeError, ValueError):
            raise SpotError(
                f"{where} has {part!r}; expected a number (% of the pot), e.g. 50"
            ) from None
        if not (math.isfinite(size) and 0.0 < size <= _MAX_PERCENT):
            raise SpotError(f"{where} has {part!r}; expected a % of the pot in (0, 100000]")
        out.append(size)
    return tuple(sorted(set(out)))


@dataclass(frozen=True)
class BetSizes:
    """One player's sizes on one street, in % of the pot.

    Parameters
    ----------
    bet : tuple of float
        Sizes of a bet when nobody has bet on the street.
    raise_ : tuple of float
        Sizes of a raise: call, then add this % of the pot.
    donk : tuple of float or None
        OOP only: sizes of a lead into the player who made the last bet or raise
        of the previous street (``None``: the ``bet`` sizes).
    allin : bool
        Whether going all-in is always among the actions.
    """

    bet: tuple[float, ...] = (50.0, 100.0)
    raise_: tuple[float, ...] = (100.0,)
    donk: tuple[float, ...] | None = None
    allin: bool = True

    def __post_init__(self) -> None:
        # Checked and put in canonical order however the sizes were made.
        object.__setattr__(self, "bet", _sizes(self.bet, "bet sizes"))
        object.__setattr__(self, "raise_", _sizes(self.raise_, "raise sizes"))
        if self.donk is not None:
            object.__setattr__(self, "donk", _sizes(self.donk, "donk sizes"))
        if not isinstance(self.allin, bool):
            raise SpotError(f"allin = {self.allin!r}; expected true or false")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str, base: BetSizes) -> BetSizes:
        """Sizes from a TOML/JSON table, starting from ``base`` for missing keys."""
        unknown = set(data) - {"bet", "raise", "donk", "allin"}
        if unknown:
            raise SpotError(
                f"unknown key {sorted(unknown)[0]!r} in {where}; expected "
                f"{one_of(('bet', 'raise', 'donk', 'allin'))}"
            )
        allin = data.get("allin", base.allin)
        if not isinstance(allin, bool):
            raise SpotError(f"{where}.allin = {allin!r}; expected true or false")
        donk = base.donk if "donk" not in data else _sizes(data["donk"], f"{where}.donk")
        return cls(
            bet=_sizes(data["bet"], f"{where}.bet") if "bet" in data else base.bet,
            raise_=_sizes(data["raise"], f"{where}.raise") if "raise" in data else base.raise_,
            donk=donk,
            allin=allin,
        )

    def to_dict(self) -> dict[str, Any]:
        """The TOML/JSON table of these sizes."""
        out: dict[str, Any] = {"bet": list(self.bet), "raise": list(self.raise_)}
        if self.donk is not None:
            out["donk"] = list(self.donk)
        out["allin"] = self.allin
        return out


def _default_sizes() -> tuple[tuple[BetSizes, BetSizes], ...]:
    return tuple((BetSizes(), BetSizes()) for _ in STREETS)


@dataclass(frozen=True)
class Spot:
    """A heads-up postflop spot (see the module docstring for the file form).

    Parameters
    ----------
    board : tuple of int
        Three, four or five distinct cards.
    pot : int
        Chips in the pot when the spot starts.
    stack : int
        Effective stack behind each player, in chips.
    oop_range, ip_range : str
        Ranges in :mod:`checkraise.ranges` notation (weights allowed).
    sizes : tuple of (BetSizes, BetSizes) per street
        ``sizes[street][player]`` for street 0 = flop, 1 = turn, 2 = river and
        player 0 = OOP, 1 = IP. Streets before the board's are ignored.
    big_blind : int
        The smallest bet; raises are at least the last bet or raise (ACPC rules).
    allin_threshold : float
        A bet or raise that, once called, would leave less than this fraction of
        the pot behind is made all-in instead (0 turns the rule off).
    raise_cap : int
        Raises allowed per street after the first bet.

    Examples
    --------
    >>> spot = Spot.from_dict({"board": "Qs Jh 2h", "pot": 50, "stack": 200,
    ...                        "ranges": {"oop": "AA,KK", "ip": "QQ"}})
    >>> spot.street, int(spot.oop_weights().sum())
    ('flop', 12)
    """

    board: tuple[int, ...]
    pot: int
    stack: int
    oop_range: str
    ip_range: str
    sizes: tuple[tuple[BetSizes, BetSizes], ...] = field(default_factory=_default_sizes)
    big_blind: int = 1
    allin_threshold: float = 0.0
    raise_cap: int = 3

    def __post_init__(self) -> None:
        self._check()

    # ------------------------------------------------------------------ checks
    def _check(self) -> None:
        board = self.board
        if len(board) not in (3, 4, 5):
            raise SpotError(
                f"board {format_cards(board) if board else '(none)'!s} has {len(board)} "
                "cards; expected 3 (flop), 4 (turn) or 5 (river)"
            )
        if len(set(board)) != len(board):
            raise SpotError(f"board {format_cards(board)} has a card twice")
        _chips(self.pot, "pot", minimum=1)
        _chips(self.stack, "stack", minimum=1)
        _chips(self.big_blind, "big_blind", minimum=1)
        if isinstance(self.raise_cap, bool) or not isinstance(self.raise_cap, int) or not (
            0 <= self.raise_cap <= 100
        ):
            raise SpotError(f"raise_cap = {self.raise_cap!r}; expected a whole number 0..100")
        t = self.allin_threshold
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not (
            math.isfinite(t) and 0.0 <= t <= 100.0
        ):
            raise SpotError(
                f"allin_threshold = {t!r}; expected a fraction of the pot >= 0, e.g. 0.67"
            )
        if len(self.sizes) != len(STREETS) or any(len(s) != 2 for s in self.sizes):
            raise SpotError("sizes must hold (OOP, IP) bet sizes for each of flop, turn, river")
        for street, (_oop, ip) in zip(STREETS, self.sizes, strict=True):
            if ip.donk is not None:
                raise SpotError(f"sizes.{street}.ip.donk: only OOP leads into the last bettor")
        for name, text in (("OOP", self.oop_range), ("IP", self.ip_range)):
            self._check_range(name, text)

    def _check_range(self, name: str, text: str) -> None:
        try:
            weights = Range(text).weights
        except RangeError as exc:
            raise SpotError(f"{name} range: {exc}") from None
        board_mask = cards_mask(self.board)
        for token in (t.strip() for t in text.split(",")):
            if not token:
                continue
            combos = Range(token).combos()
            if combos.size and not _live(combos, board_mask).any():
                raise SpotError(
                    f"{name} range token {token!r} holds only cards of the board "
                    f"{format_cards(self.board)}; remove it or change the board"
                )
        if not (weights * _live(np.arange(NUM_COMBOS), board_mask)).any():
            raise SpotError(
                f"{name} range {text!r} is empty once the board {format_cards(self.board)} "
                "is removed; expected at least one hand"
            )

    # ------------------------------------------------------------------ views
    @property
    def street(self) -> str:
        """``flop``, ``turn`` or ``river``: the street the spot starts on."""
        return STREETS[len(self.board) - 3]

    @property
    def first_street(self) -> int:
        """Index of the spot's street in :data:`STREETS`."""
        return len(self.board) - 3

    def weights(self, player: int) -> np.ndarray:
        """Player's (0 = OOP, 1 = IP) weights over the 1,326 combos, board cards removed."""
        text = self.oop_range if player == 0 else self.ip_range
        live = _live(np.arange(NUM_COMBOS), cards_mask(self.board))
        return np.where(live, Range(text).weights, 0.0)

    def oop_weights(self) -> np.ndarray:
        """OOP's weights with the board removed."""
        return self.weights(0)

    def ip_weights(self) -> np.ndarray:
        """IP's weights with the board removed."""
        return self.weights(1)

    # ------------------------------------------------------------------ file forms
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Spot:
        """A spot from its TOML/JSON table (see the module docstring)."""
        if not isinstance(data, Mapping):
            raise SpotError(f"a spot is a table of fields; got {type(data).__name__}")
        known = {"board", "pot", "stack", "ranges", "sizes", "big_blind", "allin_threshold",
                 "raise_cap"}
        unknown = set(data) - known
        if unknown:
            raise SpotError(
                f"unknown spot field {sorted(unknown)[0]!r}; expected {one_of(sorted(known))}"
            )
        for key in ("board", "pot", "stack", "ranges"):
            if key not in data:
                raise SpotError(f"the spot has no {key!r}; expected board, pot, stack, ranges")
        ranges = data["ranges"]
        if not isinstance(ranges, Mapping) or set(ranges) != {"oop", "ip"}:
            raise SpotError(
                f"ranges = {ranges!r}; expected a table with exactly 'oop' and 'ip' ranges"
            )
        for key in ("oop", "ip"):
            if not isinstance(ranges[key], str):
                raise SpotError(f"ranges.{key} = {ranges[key]!r}; expected range text")
        return cls(
            board=_board(data["board"]),
            pot=data["pot"],
            stack=data["stack"],
            oop_range=ranges["oop"],
            ip_range=ranges["ip"],
            sizes=_parse_sizes(data.get("sizes", {})),
            big_blind=data.get("big_blind", 1),
            allin_threshold=data.get("allin_threshold", 0.0),
            raise_cap=data.get("raise_cap", 3),
        )

    def to_dict(self) -> dict[str, Any]:
        """The TOML/JSON table of this spot, every street and player written out."""
        return {
            "board": format_cards(self.board),
            "pot": self.pot,
            "stack": self.stack,
            "big_blind": self.big_blind,
            "allin_threshold": self.allin_threshold,
            "raise_cap": self.raise_cap,
            "ranges": {"oop": self.oop_range, "ip": self.ip_range},
            "sizes": {
                street: {p: self.sizes[i][j].to_dict() for j, p in enumerate(PLAYERS)}
                for i, street in enumerate(STREETS)
            },
        }

    def to_json(self) -> str:
        """The JSON form."""
        return json.dumps(self.to_dict(), indent=2)

    def to_toml(self) -> str:
        """The TOML form (the same table as :meth:`to_dict`)."""
        d = self.to_dict()
        lines = [f"board = {json.dumps(d['board'])}"]
        for key in ("pot", "stack", "big_blind", "allin_threshold", "raise_cap"):
            lines.append(f"{key} = {json.dumps(d[key])}")
        lines += ["", "[ranges]", f"oop = {json.dumps(self.oop_range)}",
                  f"ip = {json.dumps(self.ip_range)}"]
        for street, players in d["sizes"].items():
            for player, table in players.items():
                lines += ["", f"[sizes.{street}.{player}]"]
                lines += [f"{k} = {json.dumps(v)}" for k, v in table.items()]
        return "\n".join(lines) + "\n"


def _live(combos: np.ndarray, board_mask: int) -> np.ndarray:
    from checkraise.cards import COMBO_MASKS

    live: np.ndarray = (COMBO_MASKS[combos] & np.uint64(board_mask)) == 0
    return live


def _chips(value: Any, name: str, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise SpotError(f"{name} = {value!r}; expected a whole number of chips >= {minimum}")


def _board(value: Any) -> tuple[int, ...]:
    if isinstance(value, (list, tuple)):
        value = " ".join(str(v) for v in value)
    if not isinstance(value, str):
        raise SpotError(f"board = {value!r}; expected cards such as 'Qs Jh 2h'")
    try:
        return tuple(parse_cards(value))
    except CardError as exc:
        raise SpotError(f"board: {exc}") from None


def _parse_sizes(data: Any) -> tuple[tuple[BetSizes, BetSizes], ...]:
    if not isinstance(data, Mapping):
        raise SpotError(f"sizes = {data!r}; expected a table")
    size_keys = {"bet", "raise", "donk", "allin"}
    unknown = set(data) - size_keys - set(STREETS)
    if unknown:
        raise SpotError(
            f"unknown key {sorted(unknown)[0]!r} in sizes; expected "
            f"{one_of(sorted(size_keys | set(STREETS)))}"
        )
    default = BetSizes.from_dict({k: v for k, v in data.items() if k in size_keys}, "sizes",
                                 BetSizes())
    out = []
    for street in STREETS:
        table = data.get(street, {})
        if not isinstance(table, Mapping):
            raise SpotError(f"sizes.{street} = {table!r}; expected a table")
        extra = set(table) - size_keys - set(PLAYERS)
        if extra:
            raise SpotError(
                f"unknown key {sorted(extra)[0]!r} in sizes.{street}; expected "
                f"{one_of(sorted(size_keys | set(PLAYERS)))}"
            )
        street_default = BetSizes.from_dict(
            {k: v for k, v in table.items() if k in size_keys}, f"sizes.{street}", default
        )
        pair = []
        for player in PLAYERS:
            ptable = table.get(player, {})
            if not isinstance(ptable, Mapping):
                raise SpotError(f"sizes.{street}.{player} = {ptable!r}; expected a table")
            pair.append(BetSizes.from_dict(ptable, f"sizes.{street}.{player}", street_default))
        if pair[1].donk is not None:
            raise SpotError(f"sizes.{street}.ip.donk: only OOP leads into the last bettor")
        out.append((pair[0], pair[1]))
    return tuple(out)


def load_spot(path: str | Path) -> Spot:
    """Read a spot from a ``.toml`` or ``.json`` file."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise FormatError(f"{path}: not a valid {path.suffix or 'TOML'} spot file: {exc}") from None
    return Spot.from_dict(data)

