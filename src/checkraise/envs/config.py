"""The settings shared by both environments: table, action abstraction, observation form.

Every environment keyword that is not specific to one of them lives in
:class:`EnvConfig`, so that the gymnasium and the PettingZoo environment validate
them once, the same way, and raise one :class:`~checkraise.errors.ConfigError`
naming the bad value and what was expected.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from checkraise.engine.config import RuleSet, TableConfig
from checkraise.errors import ConfigError, one_of

__all__ = [
    "ActionFormat",
    "EnvConfig",
    "IllegalActionPolicy",
    "ObservationFormat",
    "check_known_options",
    "history_bound",
]

# Chip amounts are float32 in observations; below this total every chip count, and every
# chip count divided by the big blind and multiplied back, is exact after rounding.
MAX_TOTAL_CHIPS = 2**23


class ActionFormat(StrEnum):
    """``discrete``: one index per abstract action; ``continuous``: a kind and a raise amount."""

    DISCRETE = "discrete"
    CONTINUOUS = "continuous"


class ObservationFormat(StrEnum):
    """``vector``: one flat float32 array; ``dict``: the same numbers as named, shaped arrays."""

    VECTOR = "vector"
    DICT = "dict"


class IllegalActionPolicy(StrEnum):
    """What an illegal (masked-out) action does: play as check/call, or raise an error."""

    CALL = "call"
    ERROR = "error"


def _choice(enum: type[StrEnum], name: str, value: object) -> Any:
    if isinstance(value, str) and value in enum.__members__.values():
        return enum(value)
    raise ConfigError(f"{name} must be {one_of(repr(str(m)) for m in enum)}, got {value!r}")


def _int(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{name} must be an int >= {minimum}, got {value!r}")
    return value


def history_bound(config: TableConfig) -> int:
    """An upper bound on the number of actions in one hand of ``config``.

    Every raise lifts the highest bet of the hand by at least the big blind, except
    an all-in for less than a full raise (one per seat at most) and, under the ACPC
    rules, the raise that completes such an all-in (one per all-in), so a hand holds
    at most ``R = max_stack // big_blind + 2 n`` raises. Between two raises, and in
    each betting round before its first raise, every seat acts at most once, so at
    most ``n (R + rounds)`` actions are taken in all.

    Examples
    --------
    >>> history_bound(TableConfig.nolimit(2, stacks=1000, small_blind=50, big_blind=100))
    36
    """
    n = config.num_players
    raises = max(config.stacks) // config.big_blind + 2 * n
    return n * (raises + config.num_rounds)


@dataclass(frozen=True)
class EnvConfig:
    """Table, action and observation settings of an environment (validated).

    Parameters
    ----------
    num_players
        Seats, 2..10. Seats are positional (engine convention): at 3+ seats seat 0
        posts the small blind, seat 1 the big blind, seat ``n - 1`` is the button;
        heads-up seat 0 is the button and small blind.
    stacks
        Chips of each seat at the start of every hand (one int for all, or one per seat).
    small_blind, big_blind, ante
        Forced bets in chips. Rewards and every chip amount of the observation are in
        big blinds.
    rules
        ``"casino"`` or ``"acpc"`` (:class:`~checkraise.engine.RuleSet`).
    bet_fractions
        The discrete abstraction's bet and raise sizes, as fractions of the pot after
        calling (see :mod:`checkraise.envs.actions`).
    action_format, observation_format
        See :class:`ActionFormat` and :class:`ObservationFormat`.
    max_history
        Rows of the action history in the observation. ``None`` (default) takes
        :func:`history_bound`, so the whole history of every hand fits; a smaller
        value keeps the most recent actions only.
    illegal_action
        ``"call"`` (default): a masked-out action is played as check/call, as the ACPC
        reference dealer treats an invalid action, and flagged in the info;
        ``"error"``: it raises :class:`~checkraise.envs.actions.EnvActionError`.

    Examples
    --------
    >>> cfg = EnvConfig(num_players=3, stacks=2000, bet_fractions=(0.5, 1))
    >>> cfg.table.stacks, cfg.bet_fractions, cfg.history_rows
    ((2000, 2000, 2000), (0.5, 1.0), 90)
    >>> EnvConfig(bet_fractions=(0.5, -1))
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: bet_fractions must be finite numbers > 0 without \
repeats, got (0.5, -1)
    """

    num_players: int = 2
    stacks: int | tuple[int, ...] = 10000
    small_blind: int = 50
    big_blind: int = 100
    ante: int = 0
    rules: str = "casino"
    bet_fractions: tuple[float, ...] = (0.5, 1.0, 2.0)
    action_format: str = "discrete"
    observation_format: str = "vector"
    max_history: int | None = None
    illegal_action: str = "call"

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        n = self.num_players
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 10:
            raise ConfigError(f"num_players must be an int 2..10, got {n!r}")
        stacks = self.stacks
        if isinstance(stacks, Sequence) and not isinstance(stacks, str):
            stacks = tuple(stacks)
            if len(stacks) != n:
                raise ConfigError(
                    f"stacks must be one int or {n} ints (one per seat), got {self.stacks!r}")
            for s in stacks:
                _int("stacks", s, 1)
        else:
            stacks = _int("stacks", stacks, 1)
        set_(self, "stacks", stacks)
        _int("small_blind", self.small_blind, 0)
        _int("big_blind", self.big_blind, 1)
        _int("ante", self.ante, 0)
        set_(self, "rules", _choice(RuleSet, "rules", self.rules))
        fractions = self.bet_fractions
        if isinstance(fractions, int | float):
            fractions = (fractions,)
        try:
            values = tuple(float(f) for f in fractions)
        except (TypeError, ValueError):
            values = ()
        if (not values or any(isinstance(f, bool) for f in fractions)
                or any(not math.isfinite(f) or f <= 0 for f in values)
                or len(set(values)) != len(values)):
            raise ConfigError("bet_fractions must be finite numbers > 0 without repeats, got "
                              f"{self.bet_fractions!r}")
        set_(self, "bet_fractions", values)
        set_(self, "action_format", _choice(ActionFormat, "action_format", self.action_format))
        set_(self, "observation_format",
             _choice(ObservationFormat, "observation_format", self.observation_format))
        set_(self, "illegal_action",
             _choice(IllegalActionPolicy, "illegal_action", self.illegal_action))
        table = TableConfig.nolimit(n, stacks, self.small_blind, self.big_blind, self.ante,
                                    self.rules)
        if sum(table.stacks) > MAX_TOTAL_CHIPS:
            raise ConfigError(f"the stacks add up to {sum(table.stacks)} chips; expected at "
                              f"most {MAX_TOTAL_CHIPS} (chip counts are float32 observations)")
        set_(self, "_table", table)
        if self.max_history is not None:
            _int("max_history", self.max_history, 1)

    @property
    def table(self) -> TableConfig:
        """The engine's :class:`~checkraise.engine.TableConfig` of every hand."""
        table: TableConfig = self.__dict__["_table"]
        return table

    @property
    def history_rows(self) -> int:
        """Rows of the observed action history (``max_history`` or the bound)."""
        if self.max_history is not None:
            return self.max_history
        return history_bound(self.table)

    @property
    def num_actions(self) -> int:
        """Size of the discrete abstraction: fold, check/call, each fraction, all-in."""
        return 3 + len(self.bet_fractions)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> EnvConfig:
        """Build from keyword options, refusing unknown names with one clear error."""
        check_known_options(options, cls.__dataclass_fields__)
        return cls(**options)


def check_known_options(options: Mapping[str, Any], known: Sequence[str] | Mapping[str, Any]
                        ) -> None:
    """Raise :class:`ConfigError` naming the first option of ``options`` not in ``known``.

    Examples
    --------
    >>> check_known_options({"num_player": 3}, ["num_players", "seed"])
    Traceback (most recent call last):
    ...
    checkraise.errors.ConfigError: unknown option 'num_player': expected num_players or seed
    """
    for name in options:
        if name not in known:
            raise ConfigError(f"unknown option {name!r}: expected {one_of(sorted(known))}")
