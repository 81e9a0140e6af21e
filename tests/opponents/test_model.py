"""The default model: R_α on hand-computed points, normalisation, configuration, adaptation."""

from __future__ import annotations

import json

import numpy as np
import pytest

from checkraise.opponents.actions import FACING_POSTFLOP, ActionClass, UnderstoodAction
from checkraise.opponents.model import (
    DFModel,
    Interval,
    ModelConfigError,
    load_config,
    players_bucket,
    relative,
)
from checkraise.opponents.stats import Counts

CALL = Interval(0.57, 0.68, 0.61, 20.0)  # the example call interval and baseline


@pytest.mark.parametrize(
    "p,expected",
    [
        (0.0, 1.0),  # 0.61 / 0.61
        (0.31, 0.61 / 0.30),  # 2.0333: below the baseline, b / (b - p)
        (0.56, 0.61 / 0.05),  # 12.2, just under the interval
        (0.57, 20.0), (0.61, 20.0), (0.68, 20.0),  # inside: theta
        (0.69, 0.39 / 0.08),  # 4.875, just over the interval: (1 - b) / (p - b)
        (0.9, 0.39 / 0.29),  # 1.3448
        (1.0, 1.0),
    ],
)
def test_relative_probability_by_hand(p: float, expected: float) -> None:
    assert relative(np.array([p]), CALL)[0] == pytest.approx(expected)


def test_relative_is_capped_at_theta_and_propagates_nan() -> None:
    iv = Interval(0.5, 0.7, 0.6, 4.0)
    # 0.6 / (0.6 - 0.48) = 5 > theta: capped at 4.
    out = relative(np.array([0.48, np.nan]), iv)
    assert out[0] == 4.0 and np.isnan(out[1])


def test_likelihood_normalises_over_the_choices() -> None:
    m = DFModel()
    a = UnderstoodAction(0, 2, ActionClass.CALL, FACING_POSTFLOP, 2, 300, 100)
    p = np.linspace(0.0, 1.0, 41)
    total = sum(m.likelihood(UnderstoodAction(0, 2, c, FACING_POSTFLOP, 2, 300, 100), p)
                for c in FACING_POSTFLOP)
    assert np.allclose(total, 1.0)
    with pytest.raises(ValueError, match="not among its choices"):
        m.likelihood(UnderstoodAction(0, 2, ActionClass.CHECK, FACING_POSTFLOP, 2, 300, 100), p)
    assert m.likelihood(a, p).min() > 0.0


def test_players_bucket() -> None:
    assert [players_bucket(n) for n in (1, 2, 3, 4, 9)] == ["2", "2", "3", "4", "4"]


def test_default_config_is_complete_and_valid() -> None:
    cfg = load_config()
    for street in range(4):
        for players in (2, 3, 4):
            for cls in ActionClass:
                if (street == 0) == (cls in (ActionClass.HALF, ActionClass.THREE_QUARTER,
                                             ActionClass.POT)):
                    continue
                iv = cfg.interval(street, players, cls)
                assert 0.0 <= iv.lo <= iv.baseline <= iv.hi <= 1.0 and iv.theta >= 1.0


def _raw() -> dict:  # type: ignore[type-arg]
    from importlib import resources

    text = resources.files("checkraise").joinpath("data", "handreading_model.json").read_text()
    return json.loads(text)  # type: ignore[no-any-return]


def test_config_validation_names_the_bad_value(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = _raw()
    bad["streets"]["flop"]["2"]["call"]["baseline"] = 1.5
    with pytest.raises(ModelConfigError, match=r"streets\.flop\.2\.call\.baseline = 1\.5"):
        load_config(bad)
    bad = _raw()
    del bad["streets"]["river"]["3"]
    with pytest.raises(ModelConfigError, match=r"streets\.river\.3 is missing"):
        load_config(bad)
    bad = _raw()
    bad["adapt"]["reference"]["postflop_open"] = {"check": 0.5, "raise": 0.7}
    with pytest.raises(ModelConfigError, match="sum to 1"):
        load_config(bad)
    path = tmp_path / "m.json"
    path.write_text("{not json")
    with pytest.raises(ModelConfigError, match="not valid JSON"):
        load_config(path)


def test_adaptation_moves_intervals_with_observed_frequencies() -> None:
    m = DFModel()
    ref = m.config.adapt.reference["postflop_facing"]
    assert m.adaptation(Counts()) == {k: (0.0, 0.0) for k in m.adaptation(Counts())}
    station = Counts(post_facing=200, post_fold_facing=10, post_call_facing=180,
                     post_raise_facing=10)
    nit = Counts(post_facing=200, post_fold_facing=190, post_call_facing=8, post_raise_facing=2)
    key = (False, True, ActionClass.CALL)
    lo_station, _ = m.adaptation(station)[key]
    lo_nit, hi_nit = m.adaptation(nit)[key]
    assert lo_station < 0 < lo_nit  # calls too often: lower; folds often: higher
    a = m.config.adapt
    # Hand-computed: shrunk fold rate (190 + 20 ref) / 220, times the gain, capped.
    expected = min(a.max_shift, a.gain * ((190 + a.prior_count * ref["fold"])
                                          / (200 + a.prior_count) - ref["fold"]))
    assert lo_nit == pytest.approx(expected)
    assert hi_nit > 0  # he also raises less than the reference
    action = UnderstoodAction(0, 1, ActionClass.CALL, FACING_POSTFLOP, 2, 300, 100)
    base = m.interval(action, ActionClass.CALL)
    moved = m.interval(action, ActionClass.CALL, m.adaptation(station))
    assert moved.lo < base.lo


def test_shifted_interval_stays_valid() -> None:
    iv = Interval(0.9, 0.95, 0.92, 5.0).shifted(0.2, 0.2)
    assert 0.0 <= iv.lo <= iv.baseline <= iv.hi <= 1.0
