"""Fit the default model's intervals to hands with known cards.

The paper (Li, Jiang, Chen, Bao, Chinese Journal of Computers 40(12), 2017) gives the
intervals as expert values; we derive ours from hand histories that show every player's
cards (the Pluribus hands), so that they are reproducible:

* every action of a player whose cards are known becomes a sample: the street, the number
  of players in the pot, the choices he had, what he did, and the P_win of the combo he
  held on the board of the time (:func:`~checkraise.opponents.pwin.pwin_table`);
* per street the parameters of every action (baseline, interval ends, θ) maximise the
  mean log-likelihood ``ln P(action | P_win)`` of the samples under the model's own
  formula (:func:`log_likelihood`), by a coordinate search started from a fixed hand-set
  table; buckets of players with at least ``min_samples`` actions are then refitted on
  their own, the others keep the street's pooled values. Maximising this likelihood is
  what makes the Bayesian posterior over hands calibrated;
* the adaptation settings are copied from the shipped configuration (the adaptation reads
  each player's own frequencies, not pooled ones).

``python -m checkraise.analysis.fit FILES --out model.json`` writes a configuration that
:func:`~checkraise.opponents.model.load_config` reads. The shipped
``checkraise/data/handreading_model.json`` was fitted on the odd-numbered Pluribus files
in name order (the 1st, 3rd, ... of the 46: 2,667 hands, listed in its description), so
the other 23 files stay out of sample.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from checkraise.cards import combo_index
from checkraise.histories import HandRecord, read_hands, replay
from checkraise.opponents.actions import ActionClass, understand
from checkraise.opponents.model import (
    BUCKETS,
    POSTFLOP_ACTIONS,
    PREFLOP_ACTIONS,
    STREETS,
    Interval,
    load_config,
    players_bucket,
    relative,
)
from checkraise.opponents.predict import board_at
from checkraise.opponents.pwin import pwin_table
from checkraise.opponents.stats import Counts

__all__ = ["Sample", "collect_samples", "fit_config", "log_likelihood", "main"]


class Sample(NamedTuple):
    """One action of a player whose cards are known: where, what he could do, what he did."""

    street: int
    bucket: str
    choices: tuple[ActionClass, ...]
    cls: ActionClass
    pwin: float


def collect_samples(
    hands: Iterable[HandRecord],
    flop_runouts: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[Sample], Counts]:
    """Every action of a player with known cards (with his combo's P_win) and pooled counts."""
    samples: list[Sample] = []
    counts = Counts()
    for hand in hands:
        state = replay(hand, check_payout=False)
        acts = understand(state.config, state.observation(0).history)
        for seat in range(hand.num_players):
            counts.record(a for a in acts if a.seat == seat)
        for a in acts:
            cards = hand.seats[a.seat].hole_cards
            if len(cards) != 2:
                continue
            table = pwin_table(board_at(hand.board, a.street), flop_runouts)
            p = float(table[combo_index(*cards)])
            samples.append(Sample(a.street, players_bucket(a.players), a.choices, a.cls, p))
        if progress is not None:
            progress(1)
    return samples, counts


Params = dict[ActionClass, Interval]

_START: dict[ActionClass, tuple[float, float, float]] = {
    # Hand-set starting point of the search: (lo, hi, baseline) on the P_win scale.
    ActionClass.FOLD: (0.0, 0.42, 0.3),
    ActionClass.CHECK: (0.3, 0.6, 0.46),
    ActionClass.CALL: (0.57, 0.68, 0.61),
    ActionClass.RAISE: (0.55, 0.72, 0.62),
    ActionClass.THREE_BET: (0.62, 0.82, 0.7),
    ActionClass.FOUR_BET: (0.72, 1.0, 0.8),
    ActionClass.HALF: (0.62, 0.8, 0.7),
    ActionClass.THREE_QUARTER: (0.68, 0.86, 0.76),
    ActionClass.POT: (0.75, 1.0, 0.85),
}
_START_THETA = 20.0


def log_likelihood(samples: Sequence[Sample], params: Params) -> float:
    """Mean ``ln P(action | P_win)`` of ``samples`` under the model with ``params``.

    Examples
    --------
    >>> iv = {ActionClass.FOLD: Interval(0.0, 0.4, 0.2, 10.0),
    ...       ActionClass.CALL: Interval(0.5, 0.8, 0.6, 10.0)}
    >>> s = Sample(3, "2", (ActionClass.FOLD, ActionClass.CALL), ActionClass.CALL, 0.7)
    >>> round(log_likelihood([s], iv), 4)  # R_fold = 0.8 / 0.5 = 1.6, R_call = 10
    -0.1484
    """
    return _ll(_group(samples), params)


_Groups = list[tuple[tuple[ActionClass, ...], npt.NDArray[np.float64], npt.NDArray[np.int64]]]


def _group(samples: Sequence[Sample]) -> _Groups:
    by_choice: dict[tuple[ActionClass, ...], list[Sample]] = defaultdict(list)
    for smp in samples:
        by_choice[smp.choices].append(smp)
    return [
        (choices, np.array([g.pwin for g in group]),
         np.array([choices.index(g.cls) for g in group], dtype=np.int64))
        for choices, group in by_choice.items()
    ]


def _ll(groups: _Groups, params: Params) -> float:
    total = 0.0
    n = 0
    for choices, p, which in groups:
        rel = np.stack([relative(p, params[c]) for c in choices])
        mine = rel[which, np.arange(len(p))]
        total += float(np.log(mine / rel.sum(axis=0)).sum())
        n += len(p)
    return total / max(n, 1)


def _fit_params(samples: Sequence[Sample], start: Params, sweeps: int = 4) -> Params:
    # Coordinate search on (baseline, lower width, upper width, log theta) of each action:
    # each coordinate tries a few steps around its value and keeps the best, with shrinking
    # steps. Cheap (a few thousand evaluations) and needs no optimiser dependency.
    params = dict(start)
    groups = _group(samples)
    best = _ll(groups, params)
    for sweep in range(sweeps):
        step = 0.08 / (2 ** sweep)
        for cls in list(params):
            for coord in range(4):
                for direction in (-1.0, 1.0, -2.0, 2.0):
                    iv = params[cls]
                    b, wl, wh, lt = iv.baseline, iv.baseline - iv.lo, iv.hi - iv.baseline, \
                        np.log(iv.theta)
                    d = direction * step
                    if coord == 0:
                        b += d
                    elif coord == 1:
                        wl += d
                    elif coord == 2:
                        wh += d
                    else:
                        lt += 5 * d
                    b = min(max(b, 0.0), 1.0)
                    lo = min(max(b - max(wl, 0.0), 0.0), b)
                    hi = max(min(b + max(wh, 0.0), 1.0), b)
                    if hi - lo < 0.01:
                        continue
                    trial = dict(params)
                    trial[cls] = Interval(lo, hi, b, float(np.exp(min(max(lt, 0.0), 6.0))))
                    value = _ll(groups, trial)
                    if value > best + 1e-9:
                        best, params = value, trial
    return params


def _to_json(params: Params, n: int) -> dict[str, Any]:
    return {
        cls.value: {
            "interval": [round(iv.lo, 3), round(iv.hi, 3)],
            "baseline": round(iv.baseline, 3),
            "theta": round(iv.theta, 2),
        }
        for cls, iv in params.items()
    } | {"n": n}


def fit_config(
    samples: Sequence[Sample],
    *,
    min_samples: int = 400,
    description: str = "",
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """A configuration mapping (the shipped JSON's layout) fitted to ``samples``.

    Per street the parameters are first fitted to all buckets pooled, starting from a fixed
    hand-set table (the paper's call interval [0.57, 0.68] with baseline 0.61 and
    neighbours around it); each bucket with at least ``min_samples`` actions is then refitted
    from the pooled values, the others keep them.
    """
    base = load_config()
    streets: dict[str, Any] = {}
    for si, street in enumerate(STREETS):
        actions = PREFLOP_ACTIONS if si == 0 else POSTFLOP_ACTIONS
        mine = [smp for smp in samples if smp.street == si]
        start = {cls: Interval(*_START[cls], _START_THETA) for cls in actions}
        pooled = _fit_params(mine, start) if mine else start
        streets[street] = {}
        for bucket in BUCKETS:
            own = [smp for smp in mine if smp.bucket == bucket]
            params = _fit_params(own, pooled, sweeps=2) if len(own) >= min_samples else pooled
            streets[street][bucket] = _to_json(params, len(own))
            if progress is not None:
                progress(1)

    adapt = base.adapt
    return {
        "description": description,
        "adapt": {"prior_count": adapt.prior_count, "shrink": adapt.shrink,
                  "sharpness": adapt.sharpness, "noise": adapt.noise,
                  "weight_mean": adapt.weight_mean, "weight_strength": adapt.weight_strength},
        "streets": streets,
    }


def main(argv: list[str] | None = None) -> None:
    """Fit a configuration to hand-history files and write it as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--flop-runouts", type=int, default=None)
    args = parser.parse_args(argv)
    hands = [h for f in args.files for h in read_hands(f)]
    samples, _ = collect_samples(hands, args.flop_runouts)
    names = ", ".join(sorted(f.name for f in args.files))
    desc = (f"Fitted by checkraise.analysis.fit on {len(hands)} hands ({names}): maximum "
            "likelihood of each action given the P_win of the combo really held.")
    cfg = fit_config(samples, description=desc)
    args.out.write_text(json.dumps(cfg, indent=1) + "\n")
    print(f"wrote {args.out} from {len(hands)} hands")


if __name__ == "__main__":
    main()
