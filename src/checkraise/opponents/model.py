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

**Adaptation.** The paper moves the intervals with what a player is seen to do (his entry
rate, raises, aggression). We read each of his decisions as a cut of his hands sorted by
P_win: facing a bet the weakest fold, the next call, the strongest raise (after the flop
the bigger raises above the smaller ones); with no bet to face the weaker check and the
stronger bet. For every *situation* (street, raises already made on it, facing a bet or
not: :func:`~checkraise.opponents.stats.situation`) the observer counts each response
(:attr:`~checkraise.opponents.stats.Counts.situations`). When the player acts in that
situation again, his predicted distribution ``w`` so far places every hand at its
percentile ``u`` in the range (the ``w``-mass of the hands below it), and the cut gives
response ``k`` the band of percentiles between the rates of the weaker responses and
those plus its own: with fold, call and raise rates ``f, c, r`` the call band is
``f <= u < f + c``. The band has logistic edges ``sharpness`` wide (in percentile), and
``noise`` times the response's rate stands for decisions taken regardless of the hand::

    P_cut(α | ψ) = noise × rate_α + (1 - noise) × band_α(u(ψ))

The rates are the observed counts shrunk towards the rates the default model itself
gives on ``w`` with ``shrink`` pseudo-decisions, and the cut is mixed with the default
model by the number ``n`` of decisions seen in the situation::

    P(α | ψ) = (1 - λ) P_default(α | ψ) + λ P_cut(α | ψ),   λ = n / (n + prior_count)

Last, the whole adapted likelihood is trusted only as far as the player's shown hands
bear it out: with his weight ``μ`` (:class:`Adaptation`, estimated from his showdowns by
:mod:`~checkraise.opponents.evidence`) the model reads ``(1 - μ) P_default + μ P``.

So a player who raises every hand gets a raising band over all hands (his raise says
nothing), a calling station a call band over nearly all of them, and a bot that raises
only the top of its range a narrow band at the top. Each situation is matched on its
own, so a 4-bet is read from how often he 4-bets, not from how often he opens.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError, ConfigError, one_of
from checkraise.opponents.actions import ActionClass, UnderstoodAction
from checkraise.opponents.evidence import CutEvidence
from checkraise.opponents.stats import RESPONSES, Counts, Situation, response, situation

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


class ModelConfigError(CheckraiseError):
    """A model configuration with a missing or out-of-range value (named in the message)."""


@dataclass(frozen=True)
class Interval:
    """Perfect-match interval ``[lo, hi]``, baseline and top relative probability of an action."""

    lo: float
    hi: float
    baseline: float
    theta: float


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
    """How the cut of observed frequencies enters the model (see the module docstring)."""

    prior_count: float = 2.0
    shrink: float = 3.0
    sharpness: float = 0.01
    noise: float = 0.05
    weight_mean: float = 0.1
    weight_strength: float = 2.0


@dataclass(frozen=True)
class Adaptation:
    """One player's observed responses: situation -> counts per response (weakest first)."""

    counts: Mapping[Situation, tuple[int, ...]]
    weight: float = 1.0
    """``μ``: how much the cut is trusted over the default model
    (:mod:`~checkraise.opponents.evidence`)."""


@dataclass(frozen=True)
class ModelConfig:
    """Intervals per street, players bucket and action; adaptation settings."""

    intervals: Mapping[tuple[str, str, ActionClass], Interval]
    adapt: AdaptConfig
    description: str = ""

    def interval(self, street: int, players: int, cls: ActionClass) -> Interval:
        """The interval of ``cls`` on ``street`` (0..3) with ``players`` in the pot."""
        return self.intervals[(STREETS[street], players_bucket(players), cls)]


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
    adapt = AdaptConfig(
        prior_count=_number(a.get("prior_count", 2.0), "adapt.prior_count", 0.0, 1e9),
        shrink=_number(a.get("shrink", 3.0), "adapt.shrink", 0.0, 1e9),
        sharpness=_number(a.get("sharpness", 0.01), "adapt.sharpness", 1e-6, 1.0),
        noise=_number(a.get("noise", 0.05), "adapt.noise", 0.0, 1.0),
        weight_mean=_number(a.get("weight_mean", 0.1), "adapt.weight_mean", 0.0, 1.0),
        weight_strength=_number(a.get("weight_strength", 2.0), "adapt.weight_strength",
                                1e-3, 1e6),
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
        self,
        action: UnderstoodAction,
        pwin: FloatArray,
        adaptation: Adaptation | None = None,
        prior: FloatArray | None = None,
    ) -> FloatArray:
        """``P(action.cls | ψ)`` for every combo ψ (``nan`` where ``pwin`` is ``nan``).

        Normalises over ``action.choices`` with the intervals of ``action``'s street and
        number of players; with an ``adaptation`` and the player's distribution ``prior``
        before the action, mixes in the cut of his observed rates (module docstring).

        Examples
        --------
        >>> from checkraise.opponents.actions import FACING_POSTFLOP
        >>> a = UnderstoodAction(0, 3, ActionClass.CALL, FACING_POSTFLOP, 2, 200, 100)
        >>> p = DFModel().likelihood(a, np.array([0.1, 0.62, 0.95]))
        >>> int(np.argmax(p))
        1
        """
        plain, adapted = self.likelihood_parts(action, pwin, adaptation, prior)
        if adaptation is None or adapted is plain:
            return plain
        mu = adaptation.weight
        mixed: FloatArray = (1.0 - mu) * plain + mu * adapted
        return mixed

    def likelihood_parts(
        self,
        action: UnderstoodAction,
        pwin: FloatArray,
        adaptation: Adaptation | None = None,
        prior: FloatArray | None = None,
    ) -> tuple[FloatArray, FloatArray]:
        """The default model's ``P(action | ψ)`` and the fully adapted one (``μ = 1``).

        The second is the first itself (the same array) when nothing adapts it: no
        ``adaptation``, no ``prior`` or no decision seen in the action's situation.
        :meth:`likelihood` mixes them with the adaptation's weight ``μ``; the pair at the
        combo a player showed down is the evidence :class:`~checkraise.opponents.evidence.
        CutEvidence` weighs ``μ`` with.

        Examples
        --------
        >>> from checkraise.opponents.actions import FACING_POSTFLOP
        >>> a = UnderstoodAction(0, 3, ActionClass.CALL, FACING_POSTFLOP, 2, 200, 100)
        >>> plain, adapted = DFModel().likelihood_parts(a, np.array([0.1, 0.62, 0.95]))
        >>> plain is adapted
        True
        """
        rel = [relative(pwin, self.config.interval(action.street, action.players, cls))
               for cls in action.choices]
        if action.cls not in action.choices:
            raise ConfigError(f"action {action.cls.value!r} is not among its choices "
                             f"{one_of(c.value for c in action.choices)}")
        total = np.sum(rel, axis=0)
        result: FloatArray = rel[action.choices.index(action.cls)] / total
        if adaptation is None or prior is None:
            return result, result
        seen = adaptation.counts.get(situation(action))
        if seen is None:
            return result, result
        n = sum(seen)
        a = self.config.adapt
        # The default model's own rates on this range are the prior of the observed ones.
        weight = np.where(np.isfinite(pwin), prior, 0.0) / max(float(prior.sum()), 1e-300)
        expected = [0.0] * RESPONSES
        for cls, r in zip(action.choices, rel, strict=True):
            expected[response(cls)] += float(np.nansum(weight * r / total))
        rates = [(seen[k] + a.shrink * expected[k]) / (n + a.shrink) for k in range(RESPONSES)]
        lam = n / (n + a.prior_count) if n + a.prior_count > 0 else 1.0
        cut = self.cut_likelihood(response(action.cls), rates, pwin, prior)
        adapted: FloatArray = (1.0 - lam) * result + lam * cut
        return result, adapted

    def cut_likelihood(
        self,
        response_index: int,
        rates: Sequence[float],
        pwin: FloatArray,
        prior: FloatArray,
    ) -> FloatArray:
        """``P_cut``: the band of P_win that the rates cut from ``prior`` (module docstring).

        ``response_index`` indexes :data:`~checkraise.opponents.stats.RESPONSES` (0 fold or
        check, 1 call, 2-4 bets and raises by size); ``rates`` are the player's rates of
        the responses in this situation, weakest first (summing to 1).

        Examples
        --------
        >>> p = np.array([0.2, 0.4, 0.6, 0.8])
        >>> w = np.full(4, 0.25)
        >>> lik = DFModel().cut_likelihood(2, (0.5, 0, 0.5, 0, 0), p, w)  # bets half his hands
        >>> [round(float(x), 2) for x in lik]
        [0.03, 0.03, 0.97, 0.97]
        """
        a = self.config.adapt
        live = (prior > 0) & np.isfinite(pwin)
        order = np.argsort(pwin[live], kind="stable")
        sorted_p = pwin[live][order]
        sorted_w = prior[live][order] / prior[live].sum()
        # Each hand's place in the range: the mass below its P_win plus half its own tie
        # group's (hands of equal P_win are indistinguishable to the cut).
        values, first = np.unique(sorted_p, return_index=True)
        group = np.add.reduceat(sorted_w, first)
        place = np.cumsum(group) - 0.5 * group
        with np.errstate(invalid="ignore"):
            u = np.interp(pwin, values, place)
        start = float(sum(rates[:response_index]))
        stop = start + float(rates[response_index])
        s = a.sharpness
        with np.errstate(over="ignore", invalid="ignore"):
            band = np.ones_like(pwin)
            if start > 1e-9:
                band *= 1.0 / (1.0 + np.exp(-(u - start) / s))
            if stop < 1.0 - 1e-9:
                band *= 1.0 - 1.0 / (1.0 + np.exp(-(u - stop) / s))
        out: FloatArray = a.noise * rates[response_index] + (1.0 - a.noise) * band
        out[np.isnan(pwin)] = np.nan
        return out

    def adaptation(self, counts: Counts, evidence: CutEvidence | None = None) -> Adaptation:
        """A player's observed responses per situation and his weight ``μ``.

        ``μ`` is the posterior mean given his showdown ``evidence`` (the prior mean
        ``adapt.weight_mean`` without any: :mod:`~checkraise.opponents.evidence`).

        Examples
        --------
        >>> c = Counts(situations={(1, 1, True): [10, 80, 10, 0, 0]})
        >>> a = DFModel().adaptation(c)
        >>> a.counts[(1, 1, True)], round(a.weight, 1)  # no showdowns seen: the prior mean
        ((10, 80, 10, 0, 0), 0.1)
        """
        a = self.config.adapt
        ev = evidence if evidence is not None else CutEvidence()
        return Adaptation({k: tuple(row) for k, row in counts.situations.items() if sum(row)},
                          ev.weight(a.weight_mean, a.weight_strength))
