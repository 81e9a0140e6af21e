"""Profiles of the win-rate heuristic bot: 44 parameters, read from JSON or TOML and validated.

A profile holds, for each street ``r`` (preflop, flop, turn, river), three cut points
``x < y < z`` on the state value ``v = P(win) - P(lose)`` and the coefficients of two
cubics ``p(v) = p0 + p1 v + p2 v^2 + p3 v^3`` (the most the bot will pay) and
``q(v) = q0 + q1 v + q2 v^2 + q3 v^3`` (the amount it wants to bet to): 4 x (3 + 4 + 4)
= 44 numbers. The design is the polynomial-threshold bot of the computer poker
competitions (see :mod:`checkraise.agents.heuristic` for how the modes act).

Units
-----
``p`` and ``q`` are in **big blinds** and count the **total contribution for the hand**
(the raise-to convention of the ACPC protocol and of :class:`~checkraise.engine.Action`):
``q(v) = 6`` on the flop means "bet so that I have 6 big blinds in the pot in all", and
``p(v) = 20`` means "call as long as calling leaves me with at most 20 big blinds in the
pot". In chips both are multiplied by the table's big blind, so one profile plays any
blind level; raise targets are rounded to whole chips and clamped into the legal range,
so a target beyond the stack is an all-in and a profile tuned for 200-big-blind stacks
plays shorter stacks by going all-in earlier. Antes are not counted in the totals.

File format (JSON; TOML with the same tables also loads)::

    {"name": "default",
     "preflop": {"x": -0.2, "y": 0.1, "z": 0.45,
                 "p": [p0, p1, p2, p3], "q": [q0, q1, q2, q3]},
     "flop": {...}, "turn": {...}, "river": {...}}

An optional ``"value": "pot-share"`` makes the cut points and cubics read the pot share
of ``v`` instead of ``v`` itself (:class:`ValueScale`; the same number heads-up).

Shipped profiles
----------------
``default`` (``default.json``, also called ``headsup``) is tuned for two players;
``multiway`` (``multiway.json``) was tuned by ring-game self-play at six seats (its
``comment`` holds the command that reproduces it) and reads the pot share.
:func:`profile_for_seats` picks
one by table size: the heads-up profile at 2 seats, the multi-way one at 3 or more.

Cut points must satisfy ``-1 <= x < y < z <= 1``; coefficients must be finite with
absolute value at most :data:`COEFFICIENT_LIMIT`. Anything missing, unknown or out of
range raises :class:`ProfileError` naming the parameter and what was expected.

Examples
--------
>>> prof = default_profile()
>>> len(prof.values), prof.names[14]
(44, 'flop.p0')
>>> prof.mode("river", 0.99).value
'bet to the end'
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError, one_of

__all__ = [
    "COEFFICIENT_LIMIT",
    "PARAMETER_NAMES",
    "STREETS",
    "Mode",
    "Profile",
    "ProfileError",
    "ValueScale",
    "default_profile",
    "load_profile",
    "multiway_profile",
    "profile_for_seats",
]

STREETS = ("preflop", "flop", "turn", "river")
_FIELDS = ("x", "y", "z", "p0", "p1", "p2", "p3", "q0", "q1", "q2", "q3")
PARAMETER_NAMES: tuple[str, ...] = tuple(f"{s}.{f}" for s in STREETS for f in _FIELDS)
"""The 44 parameter names in vector order: ``preflop.x`` .. ``river.q3``."""

COEFFICIENT_LIMIT = 1000.0
"""Largest absolute value of a cubic coefficient (big blinds)."""

DEFAULT_FILE = "default.json"
MULTIWAY_FILE = "multiway.json"
SHIPPED = {"default": DEFAULT_FILE, "headsup": DEFAULT_FILE, "multiway": MULTIWAY_FILE}
"""Names of the shipped profiles and their files (``headsup`` is ``default``)."""


class ProfileError(CheckraiseError):
    """A profile is missing a parameter, has an unknown one, or one out of range."""


class Mode(StrEnum):
    """The four modes a value ``v`` falls into on a street."""

    GIVE_UP = "give up"
    WAIT = "wait and see"
    RAISE = "raise"
    BET_TO_END = "bet to the end"


_MODES = (Mode.GIVE_UP, Mode.WAIT, Mode.RAISE, Mode.BET_TO_END)


class ValueScale(StrEnum):
    """Which number the cut points and cubics of a profile read (the key ``value``).

    ``win-minus-lose`` (the default) is the state value ``v = P(win) - P(lose)`` against
    the opponents still in. ``pot-share`` is ``(k + 1) (1 + v) / 2 - 1`` against ``k``
    of them, capped at 1: the return per chip of calling down in a pot that all ``k + 1``
    players have paid into equally
    (:func:`checkraise.agents._heuristic_kernels.pot_share_value`).
    Heads-up both are ``v``; against five random hands even aces have ``v < 0`` while
    their pot share is above 1, so a ``win-minus-lose`` profile folds almost everything
    to a loose ring table that a ``pot-share`` one plays for value.
    """

    WIN_MINUS_LOSE = "win-minus-lose"
    POT_SHARE = "pot-share"


def _street_index(street: int | str) -> int:
    if isinstance(street, str):
        if street not in STREETS:
            raise ProfileError(f"unknown street {street!r}: expected one of {one_of(STREETS)}")
        return STREETS.index(street)
    if not 0 <= street < 4:
        raise ProfileError(f"invalid street {street!r}: expected 0..3 (preflop..river)")
    return int(street)


@dataclass(frozen=True)
class Profile:
    """The 44 parameters of the heuristic bot (see the module docstring).

    Use :meth:`from_dict`, :func:`load_profile` or :meth:`from_vector` to build one;
    they validate. ``values`` follows :data:`PARAMETER_NAMES`.
    """

    values: tuple[float, ...]
    name: str = ""
    value: ValueScale = ValueScale.WIN_MINUS_LOSE
    array: npt.NDArray[np.float64] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = tuple(float(v) for v in self.values)
        if len(values) != len(PARAMETER_NAMES):
            raise ProfileError(
                f"profile {self.name!r} has {len(values)} parameters: expected "
                f"{len(PARAMETER_NAMES)} ({PARAMETER_NAMES[0]} .. {PARAMETER_NAMES[-1]})"
            )
        _validate(values, f"profile {self.name!r}" if self.name else "profile")
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "value", _value_scale(self.value, self.name or "profile"))
        arr = np.array(values, dtype=np.float64).reshape(4, len(_FIELDS))
        arr.flags.writeable = False
        object.__setattr__(self, "array", arr)

    @property
    def names(self) -> tuple[str, ...]:
        """Parameter names, in the order of :attr:`values`."""
        return PARAMETER_NAMES

    # ------------------------------------------------------------------ building

    @property
    def pot_share(self) -> bool:
        """Whether the profile reads the ``pot-share`` value (see :class:`ValueScale`)."""
        return self.value is ValueScale.POT_SHARE

    @classmethod
    def from_vector(
        cls, values: Sequence[float], name: str = "",
        value: ValueScale | str = ValueScale.WIN_MINUS_LOSE,
    ) -> Profile:
        """A profile from 44 numbers in :data:`PARAMETER_NAMES` order (validated)."""
        return cls(tuple(float(v) for v in values), name, _value_scale(value, name or "profile"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "profile") -> Profile:
        """A profile from the nested form of the module docstring (validated).

        Examples
        --------
        >>> d = default_profile().to_dict()
        >>> del d["turn"]["q"]
        >>> Profile.from_dict(d, "mine.json")
        Traceback (most recent call last):
        ...
        checkraise.agents.profiles.ProfileError: mine.json: missing parameter 'turn.q' \
(expected a list of 4 cubic coefficients q0..q3, in big blinds)
        """
        if not isinstance(data, Mapping):
            raise ProfileError(f"{source}: expected a table of streets, got {type(data).__name__}")
        unknown = sorted(set(data) - set(STREETS) - {"name", "comment", "value"})
        if unknown:
            raise ProfileError(
                f"{source}: unknown key {unknown[0]!r} (expected name, comment, value and the "
                f"streets {', '.join(STREETS)})"
            )
        values: list[float] = []
        for street in STREETS:
            table = data.get(street)
            if table is None:
                raise ProfileError(
                    f"{source}: missing street {street!r} (expected a table with x, y, z, p, q)"
                )
            if not isinstance(table, Mapping):
                raise ProfileError(f"{source}: {street!r} must be a table with x, y, z, p, q")
            extra = sorted(set(table) - {"x", "y", "z", "p", "q"})
            if extra:
                raise ProfileError(
                    f"{source}: unknown parameter '{street}.{extra[0]}' (expected x, y, z, p, q)"
                )
            for cut in ("x", "y", "z"):
                if cut not in table:
                    raise ProfileError(
                        f"{source}: missing parameter '{street}.{cut}' (expected a cut point "
                        "in [-1, 1] with x < y < z)"
                    )
                values.append(_number(table[cut], f"{street}.{cut}", source))
            for poly in ("p", "q"):
                coefs = table.get(poly)
                if coefs is None:
                    raise ProfileError(
                        f"{source}: missing parameter '{street}.{poly}' (expected a list of 4 "
                        f"cubic coefficients {poly}0..{poly}3, in big blinds)"
                    )
                if isinstance(coefs, (str, bytes)) or not isinstance(coefs, Sequence) or len(
                    coefs
                ) != 4:
                    raise ProfileError(
                        f"{source}: '{street}.{poly}' = {coefs!r}: expected a list of 4 cubic "
                        f"coefficients {poly}0..{poly}3, in big blinds"
                    )
                values.extend(
                    _number(c, f"{street}.{poly}{i}", source) for i, c in enumerate(coefs)
                )
        _validate(values, source)
        scale = _value_scale(data.get("value", ValueScale.WIN_MINUS_LOSE), source)
        return cls(tuple(values), str(data.get("name", "")), scale)

    def to_dict(self) -> dict[str, Any]:
        """The nested form (what :meth:`save` writes)."""
        out: dict[str, Any] = {"name": self.name}
        if self.pot_share:
            # Only written when it differs, so win-minus-lose files stay as they were.
            out["value"] = str(self.value)
        for r, street in enumerate(STREETS):
            row = self.values[11 * r : 11 * (r + 1)]
            out[street] = {
                "x": row[0], "y": row[1], "z": row[2], "p": list(row[3:7]), "q": list(row[7:11]),
            }
        return out

    def save(self, path: str | Path) -> Path:
        """Write the profile as JSON to ``path`` (parents created); return the path."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")
        return p

    def replace(self, index: int, value: float) -> Profile:
        """A copy with parameter ``index`` set to ``value`` (validated)."""
        vals = list(self.values)
        vals[index] = float(value)
        return Profile(tuple(vals), self.name, self.value)

    def renamed(self, name: str) -> Profile:
        """The same parameters under another name."""
        return Profile(self.values, name, self.value)

    # ------------------------------------------------------------------ reading

    def street(self, street: int | str) -> npt.NDArray[np.float64]:
        """The 11 parameters of one street: ``x, y, z, p0..p3, q0..q3``."""
        row: npt.NDArray[np.float64] = self.array[_street_index(street)]
        return row

    def mode(self, street: int | str, v: float) -> Mode:
        """Which of the four modes ``v`` falls into on ``street``.

        Examples
        --------
        >>> prof = default_profile()
        >>> x = prof.street("flop")[0]
        >>> prof.mode("flop", x - 0.01), prof.mode("flop", x)
        (<Mode.GIVE_UP: 'give up'>, <Mode.WAIT: 'wait and see'>)
        """
        x, y, z = self.street(street)[:3]
        return _MODES[0 if v < x else 1 if v < y else 2 if v < z else 3]

    def pay_limit(self, street: int | str, v: float) -> float:
        """``p(v)``: the most total contribution (big blinds) the bot will call to."""
        c = self.street(street)[3:7]
        return float(c[0] + c[1] * v + c[2] * v * v + c[3] * v**3)

    def bet_target(self, street: int | str, v: float) -> float:
        """``q(v)``: the total contribution (big blinds) the bot wants to bet or raise to."""
        c = self.street(street)[7:11]
        return float(c[0] + c[1] * v + c[2] * v * v + c[3] * v**3)


def _value_scale(value: Any, source: str) -> ValueScale:
    if isinstance(value, ValueScale):
        return value
    names = tuple(str(v) for v in ValueScale)
    if not isinstance(value, str) or value not in names:
        raise ProfileError(
            f"{source}: 'value' = {value!r}: expected one of {one_of(names)}"
        )
    return ValueScale(value)


def _number(value: Any, name: str, source: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ProfileError(f"{source}: '{name}' = {value!r}: expected a number")
    return float(value)


def _validate(values: Sequence[float], where: str) -> None:
    for i, v in enumerate(values):
        pname = PARAMETER_NAMES[i]
        field_name = pname.split(".")[1]
        if not math.isfinite(v):
            raise ProfileError(f"{where}: '{pname}' = {v!r}: expected a finite number")
        if field_name in ("x", "y", "z"):
            if not -1.0 <= v <= 1.0:
                raise ProfileError(
                    f"{where}: '{pname}' = {v!r} is out of range: expected a cut "
                    "point in [-1, 1]"
                )
        elif abs(v) > COEFFICIENT_LIMIT:
            raise ProfileError(
                f"{where}: '{pname}' = {v!r} is out of range: expected a coefficient "
                f"with |value| <= {COEFFICIENT_LIMIT:g} big blinds"
            )
    for r, street in enumerate(STREETS):
        x, y, z = values[11 * r : 11 * r + 3]
        if not x < y < z:
            raise ProfileError(
                f"{where}: cut points of the {street} are x={x!r}, y={y!r}, z={z!r}: "
                "expected x < y < z"
            )


def load_profile(source: str | Path | Profile | None = None) -> Profile:
    """Read a profile from a JSON or TOML file or a shipped name; ``None`` is ``"default"``.

    The shipped names are ``default`` (alias ``headsup``) and ``multiway`` (see the
    module docstring).

    Raises
    ------
    ProfileError
        If the file is missing, unreadable, or a parameter is missing or out of range.

    Examples
    --------
    >>> load_profile("default").name
    'default'
    >>> load_profile("no/such/profile.json")
    Traceback (most recent call last):
    ...
    checkraise.agents.profiles.ProfileError: cannot read profile no/such/profile.json: \
no such file (expected a JSON or TOML profile, or one of the shipped 'default', 'headsup', \
'multiway')
    """
    if isinstance(source, Profile):
        return source
    if source is None or str(source) in SHIPPED:
        name = SHIPPED[str(source or "default")]
        text = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
        return Profile.from_dict(json.loads(text), name)
    path = Path(source)
    if not path.is_file():
        raise ProfileError(
            f"cannot read profile {source}: no such file (expected a JSON or TOML profile, "
            f"or one of the shipped {', '.join(repr(k) for k in SHIPPED)})"
        )
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ProfileError(f"cannot parse profile {source}: {exc}") from None
    return Profile.from_dict(data, str(source))


def default_profile() -> Profile:
    """The shipped default profile (``default.json`` in this package), tuned heads-up."""
    return load_profile(None)


def multiway_profile() -> Profile:
    """The shipped multi-way profile (``multiway.json``), tuned at six seats."""
    return load_profile("multiway")


def profile_for_seats(seats: int) -> Profile:
    """The shipped profile for a table of ``seats`` players: heads-up at 2, multi-way above.

    Examples
    --------
    >>> profile_for_seats(2).name, profile_for_seats(6).name
    ('default', 'multiway')
    """
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 2:
        raise ProfileError(f"invalid table size {seats!r}: expected at least 2 players")
    return default_profile() if seats == 2 else multiway_profile()
