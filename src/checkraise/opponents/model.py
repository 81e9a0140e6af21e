"""The default opponent model (DFModel): P(action | hand) from the hand's win probability.

From Li, Jiang, Chen, Bao, "Game in multiplayer no-limit Texas Hold'em based on hands
prediction", Chinese Journal of Computers 40(12), 2017. For an action class α
(:class:`~checkraise.opponents.actions.ActionClass`) the configuration gives a
*perfect-match interval* ``[lo, hi]``, a *baseline* ``b`` inside it and a top relative
probability ``θ``. A hand ψ whose win probability p = P_win(ψ) (against one random hand
on the current board, :func:`~checkraise.opponents.pwin.pwin_table`) lies in the interval
gets the relative probability ``R_α(ψ) = θ``; outside it

* ``R_α(ψ) = b / (b - p)`` when p is below the baseline,
* ``R_α(ψ) = (1 - b) / (p - b)`` when p is above it,

capped at θ (both fall to 1 at p = 0 and p = 1 and rise towards the interval). The
values of all the actions the player could choose are normalised::

    P(α | ψ) = R_α(ψ) / Σ_{α' ∈ choices} R_α'(ψ)

Intervals and baselines depend on the street and on the number of players in the pot
(2, 3, 4 or more); they live in a JSON configuration shipped as package data
(``checkraise/data/handreading_model.json``, fitted by :mod:`checkraise.analysis.fit`);
:func:`load_config` validates it and any other.

**Adaptation.** Against the shipped reference frequencies the intervals move with what a
player is seen to do. Read a decision as a cut of the hands sorted by strength: facing a
bet the weakest fold, the middle calls, the strongest raise; with no bet to face the
weaker check and the stronger bet. If he folds more often than the reference, the
fold/call boundary moves up by ``gain × (his fold rate − reference)`` (his calls and
raises show stronger hands); if he raises less often, the call/raise boundary moves up
by ``gain × (reference raise rate − his)``. So an opponent who calls too often (folds
less) gets his call interval lowered, one who folds often gets it raised. The observed
rates are shrunk towards the reference with ``prior_count`` pseudo-decisions, and a shift
is at most ``max_shift``. ``gain`` converts a change of frequency into a change of P_win
(the spread of P_win over the hands played).

Examples
--------
>>> import numpy as np
>>> m = DFModel()
>>> iv = Interval(0.57, 0.68, 0.61, 20.0)
>>> np.round(relative(np.array([0.0, 0.5, 0.6, 0.8, 1.0]), iv), 3).tolist()
[1.0, 5.545, 20.0, 2.053, 1.0]
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError
from checkraise.opponents.actions import ActionClass, UnderstoodAction
from checkraise.opponents.stats import Counts

__all__ = [
    "POSTFLOP_ACTIONS",
    "PREFLOP_ACTIONS",
    "STREETS",
    "AdaptConfig",
    "Adaptation",
    "DFModel",
    "Interval",
    "ModelConfig",
    "ModelConfigError",
    "load_config",
    "players_bucket",
    "relative",
]

FloatArray = npt.NDArray[np.float64]
STREETS: Final = ("preflop", "flop", "turn", "river")
BUCKETS: Final = ("2", "3", "4")
PREFLOP_ACTIONS: Final = (
    ActionClass.FOLD, ActionClass.CHECK, ActionClass.CALL, ActionClass.RAISE,
    ActionClass.THREE_BET, ActionClass.FOUR_BET,
)
POSTFLOP_ACTIONS: Final = (
    ActionClass.FOLD, ActionClass.CHECK, ActionClass.CALL, ActionClass.HALF,
    ActionClass.THREE_QUARTER, ActionClass.POT,
)
DEFAULT_FILE: Final = "handreading_model.json"
_RAISES: Final = frozenset(
    {ActionClass.HALF, ActionClass.THREE_QUARTER, ActionClass.POT, ActionClass.RAISE,
     ActionClass.THREE_BET, ActionClass.FOUR_BET}
)


class ModelConfigError(CheckraiseError):
    """A model configuration with a missing or out-of-range value (named in the message)."""


@dataclass(frozen=True)
class Interval:
    """Perfect-match interval ``[lo, hi]``, baseline and top relative probability of an action."""

    lo: float
    hi: float
    baseline: float
    theta: float

    def shifted(self, d_lo: float, d_hi: float) -> Interval:
        """The interval with its ends moved (kept inside [0, 1], baseline kept inside)."""
        if d_lo == 0.0 and d_hi == 0.0:
            return self
        lo = min(max(self.lo + d_lo, 0.0), 1.0)
        hi = min(max(self.hi + d_hi, lo), 1.0)
        b = min(max(self.baseline + 0.5 * (d_lo + d_hi), lo), hi)
        return Interval(lo, hi, b, self.theta)


def relative(pwin: FloatArray, iv: Interval) -> FloatArray:
    """Relative probability ``R_α`` of hands with win probabilities ``pwin`` (module docstring).

    Examples
    --------
    >>> relative(np.array([0.2]), Interval(0.5, 0.7, 0.6, 10.0)).tolist()  # 0.6 / (0.6 - 0.2)
    [1.5]
    """
    p = np.asarray(pwin, dtype=np.float64)
    b = iv.baseline
    with np.errstate(divide="ignore", invalid="ignore"):
        below = b / (b - p)
        above = (1.0 - b) / (p - b)
    out = np.where(p < b, below, above)
    out = np.minimum(out, iv.theta)
    out = np.where((p >= iv.lo) & (p <= iv.hi), iv.theta, out)
    result: FloatArray = np.where(np.isnan(p), np.nan, out)
    return result


def players_bucket(players: int) -> str:
    """Configuration key for the number of players in the pot: ``"2"``, ``"3"`` or ``"4"`` (4+)."""
    return str(min(max(players, 2), 4))


@dataclass(frozen=True)
class AdaptConfig:
    """How intervals follow observed frequencies (see the module docstring)."""

    gain: float = 0.5
    prior_count: float = 20.0
    max_shift: float = 0.15
    reference: Mapping[str, Mapping[str, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class ModelConfig:
    """Intervals per street, players bucket and action; adaptation settings."""

    intervals: Mapping[tuple[str, str, ActionClass], Interval]
    adapt: AdaptConfig
    description: str = ""

    def interval(self, street: int, players: int, cls: ActionClass) -> Interval:
        """The interval of ``cls`` on ``street`` (0..3) with ``players`` in the pot."""
        return self.intervals[(STREETS[street], players_bucket(players), cls)]


_SITUATIONS: Final = {
    "preflop_facing": ("fold", "call", "raise"),
    "preflop_open": ("check", "raise"),
    "postflop_facing": ("fold", "call", "raise"),
    "postflop_open": ("check", "raise"),
}


def _number(value: Any, where: str, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise ModelConfigError(f"model config {where} = {value!r}: expected a number in "
                               f"[{lo:g}, {hi:g}]")
    return float(value)


def _parse(data: Any, source: str) -> ModelConfig:
    if not isinstance(data, dict) or "streets" not in data:
        raise ModelConfigError(f"{source}: expected a JSON object with 'streets' and 'adapt'")
    theta_default = _number(data.get("theta", 20.0), "theta", 1.0, 1e6)
    intervals: dict[tuple[str, str, ActionClass], Interval] = {}
    streets = data["streets"]
    for street in STREETS:
        actions = PREFLOP_ACTIONS if street == "preflop" else POSTFLOP_ACTIONS
        for bucket in BUCKETS:
            table = streets.get(street, {}).get(bucket) if isinstance(streets, dict) else None
            if not isinstance(table, dict):
                raise ModelConfigError(f"{source}: streets.{street}.{bucket} is missing")
            for cls in actions:
                where = f"streets.{street}.{bucket}.{cls.value}"
                entry = table.get(cls.value)
                if not isinstance(entry, dict) or "interval" not in entry:
                    raise ModelConfigError(f"{source}: {where} needs 'interval' and 'baseline'")
                iv = entry["interval"]
                if not isinstance(iv, list) or len(iv) != 2:
                    raise ModelConfigError(f"{source}: {where}.interval = {iv!r}: expected "
                                           "[lo, hi]")
                lo = _number(iv[0], f"{where}.interval[0]", 0.0, 1.0)
                hi = _number(iv[1], f"{where}.interval[1]", lo, 1.0)
                b = _number(entry.get("baseline"), f"{where}.baseline", lo, hi)
                theta = _number(entry.get("theta", theta_default), f"{where}.theta", 1.0, 1e6)
                if hi <= lo:
                    raise ModelConfigError(f"{source}: {where}.interval = {iv!r}: expected lo < hi")
                intervals[(street, bucket, cls)] = Interval(lo, hi, b, theta)
    a = data.get("adapt", {})
    if not isinstance(a, dict):
        raise ModelConfigError(f"{source}: adapt = {a!r}: expected an object")
    reference: dict[str, dict[str, float]] = {}
    ref = a.get("reference", {})
    for situation, names in _SITUATIONS.items():
        row = ref.get(situation) if isinstance(ref, dict) else None
        if not isinstance(row, dict):
            raise ModelConfigError(f"{source}: adapt.reference.{situation} is missing")
        reference[situation] = {
            k: _number(row.get(k), f"adapt.reference.{situation}.{k}", 0.0, 1.0) for k in names
        }
        if abs(sum(reference[situation].values()) - 1.0) > 1e-3:
            raise ModelConfigError(f"{source}: adapt.reference.{situation} = {row!r}: expected "
                                   "frequencies that sum to 1")
    adapt = AdaptConfig(
        gain=_number(a.get("gain", 0.5), "adapt.gain", 0.0, 2.0),
        prior_count=_number(a.get("prior_count", 20.0), "adapt.prior_count", 0.0, 1e9),
        max_shift=_number(a.get("max_shift", 0.15), "adapt.max_shift", 0.0, 1.0),
        reference=reference,
    )
    return ModelConfig(intervals, adapt, str(data.get("description", "")))


def load_config(source: str | Path | Mapping[str, Any] | None = None) -> ModelConfig:
    """Load and validate a model configuration (a path, a parsed mapping, or the default).

    Examples
    --------
    >>> cfg = load_config()
    >>> iv = cfg.interval(3, 2, ActionClass.CALL)
    >>> iv.lo <= iv.baseline <= iv.hi
    True
    """
    if source is None:
        text = resources.files("checkraise").joinpath("data", DEFAULT_FILE).read_text()
        return _parse(json.loads(text), DEFAULT_FILE)
    if isinstance(source, Mapping):
        return _parse(dict(source), "<config>")
    path = Path(source)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ModelConfigError(f"{path}: not valid JSON: {exc}") from None
    return _parse(data, str(path))


Adaptation = Mapping[tuple[bool, bool, ActionClass], tuple[float, float]]
"""(preflop?, facing a bet?, action) -> (shift of lo, shift of hi)."""


class DFModel:
    """The default model: ``P(α | ψ)`` for all 1,326 combos at once, with adaptation.

    Parameters
    ----------
    config
        A :class:`ModelConfig`, a path or mapping for :func:`load_config`, or ``None`` for
        the shipped default.
    """

    def __init__(self, config: ModelConfig | str | Path | Mapping[str, Any] | None = None):
        self.config = config if isinstance(config, ModelConfig) else load_config(config)

    def likelihood(
        self, action: UnderstoodAction, pwin: FloatArray, adaptation: Adaptation | None = None
    ) -> FloatArray:
        """``P(action.cls | ψ)`` for every combo ψ (``nan`` where ``pwin`` is ``nan``).

        Normalises over ``action.choices`` with the intervals of ``action``'s street and
        number of players, moved by ``adaptation``.

        Examples
        --------
        >>> from checkraise.opponents.actions import FACING_POSTFLOP
        >>> a = UnderstoodAction(0, 3, ActionClass.CALL, FACING_POSTFLOP, 2, 200, 100)
        >>> p = DFModel().likelihood(a, np.array([0.1, 0.62, 0.95]))
        >>> int(np.argmax(p))
        1
        """
        total = np.zeros_like(pwin)
        mine = None
        for cls in action.choices:
            r = relative(pwin, self.interval(action, cls, adaptation))
            total += r
            if cls is action.cls:
                mine = r
        if mine is None:
            raise ValueError(f"action {action.cls.value!r} is not among its choices "
                             f"{[c.value for c in action.choices]}")
        result: FloatArray = mine / total
        return result

    def interval(
        self, action: UnderstoodAction, cls: ActionClass, adaptation: Adaptation | None = None
    ) -> Interval:
        """The (adapted) interval of ``cls`` in ``action``'s situation."""
        iv = self.config.interval(action.street, action.players, cls)
        if adaptation:
            d = adaptation.get((action.street == 0, action.facing, cls))
            if d is not None:
                iv = iv.shifted(*d)
        return iv

    def adaptation(
        self, counts: Counts
    ) -> dict[tuple[bool, bool, ActionClass], tuple[float, float]]:
        """Interval shifts for a player with these counts (module docstring).

        Examples
        --------
        >>> c = Counts(post_facing=100, post_fold_facing=10, post_call_facing=80,
        ...            post_raise_facing=10)
        >>> d = DFModel().adaptation(c)
        >>> d[(False, True, ActionClass.CALL)][0] < 0  # a calling station: lower call interval
        True
        """
        a = self.config.adapt
        out: dict[tuple[bool, bool, ActionClass], tuple[float, float]] = {}

        def rate(key: str, situation: str, count: int, n: int) -> float:
            ref = a.reference[situation][key]
            return (count + a.prior_count * ref) / (n + a.prior_count) if n + a.prior_count else ref

        def clip(x: float) -> float:
            return max(-a.max_shift, min(a.max_shift, a.gain * x))

        for pre in (True, False):
            sit = "preflop" if pre else "postflop"
            if pre:
                n, fold, raised = counts.pre_facing, counts.pre_fold, counts.pre_raise
                n_open, check = counts.pre_open, counts.pre_check
            else:
                n, fold, raised = (counts.post_facing, counts.post_fold_facing,
                                   counts.post_raise_facing)
                n_open, check = counts.post_open, counts.post_check
            ref = a.reference[f"{sit}_facing"]
            d1 = clip(rate("fold", f"{sit}_facing", fold, n) - ref["fold"])
            d2 = clip(ref["raise"] - rate("raise", f"{sit}_facing", raised, n))
            out[(pre, True, ActionClass.FOLD)] = (d1, d1)
            out[(pre, True, ActionClass.CALL)] = (d1, d2)
            d3 = clip(rate("check", f"{sit}_open", check, n_open)
                      - a.reference[f"{sit}_open"]["check"])
            out[(pre, False, ActionClass.CHECK)] = (d3, d3)
            for cls in _RAISES:
                out[(pre, True, cls)] = (d2, d2)
                out[(pre, False, cls)] = (d3, d3)
        return out
