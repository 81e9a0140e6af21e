"""The default model: R_α on hand-computed points, normalisation, configuration, the cut."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from checkraise.cards import combo_index, parse_cards
from checkraise.opponents.actions import FACING_POSTFLOP, ActionClass, UnderstoodAction
from checkraise.opponents.model import (
    AdaptConfig,
    DFModel,
    Interval,
    ModelConfig,
    ModelConfigError,
    load_config,
    players_bucket,
    relative,
)
from checkraise.opponents.predict import consistent
from checkraise.opponents.pwin import pwin_table
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
    bad["adapt"]["noise"] = 2
    with pytest.raises(ModelConfigError, match=r"adapt\.noise = 2"):
        load_config(bad)
    path = tmp_path / "m.json"
    path.write_text("{not json")
    with pytest.raises(ModelConfigError, match="not valid JSON"):
        load_config(path)


def _naive_band_mass(pwin: np.ndarray, prior: np.ndarray, lik: np.ndarray) -> float:
    """Share of the prior's mass that the likelihood keeps (sum of prior x likelihood)."""
    return float(np.nansum(prior * lik))


def test_cut_puts_the_band_at_the_quantiles_of_the_range() -> None:
    # A hand-made range: 200 hands with distinct P_win, uniform weights. Rates fold 20%,
    # call 30%, raise (half pot) 50%: the call band is the 21st to 50th percentile hands.
    sharp = AdaptConfig(prior_count=0.0, shrink=0.0, sharpness=1e-4, noise=0.0)
    m = DFModel(ModelConfig(load_config().intervals, sharp))
    p = np.linspace(0.1, 0.9, 200)
    w = np.full(200, 1 / 200)
    rates = (0.2, 0.3, 0.5, 0.0, 0.0)
    fold, call, raise_ = (m.cut_likelihood(k, rates, p, w) for k in (0, 1, 2))
    order = np.argsort(p)
    assert np.array_equal(fold[order] > 0.5, np.arange(200) < 40)
    assert np.array_equal(call[order] > 0.5, (np.arange(200) >= 40) & (np.arange(200) < 100))
    assert np.array_equal(raise_[order] > 0.5, np.arange(200) >= 100)
    for lik, rate in zip((fold, call, raise_), rates, strict=False):
        assert _naive_band_mass(p, w, lik) == pytest.approx(rate, abs=1e-6)
    # Weights move the quantiles: all the mass on the 100 strongest hands puts the fold
    # band at their bottom fifth.
    w2 = np.where(np.arange(200) >= 100, 1 / 100, 0.0)
    fold2 = m.cut_likelihood(0, rates, p, w2)
    assert np.array_equal(fold2[100:] > 0.5, np.arange(100, 200) < 120)


def test_adaptation_reads_what_a_player_does_in_each_situation() -> None:
    m = DFModel()
    p = pwin_table()
    prior = consistent([])
    opens = UnderstoodAction(0, 0, ActionClass.RAISE, (ActionClass.FOLD, ActionClass.CALL,
                                                       ActionClass.RAISE), 2, 150, 50)
    # A maniac who raised all 300 times: his raise says nothing about his hand.
    # (Weight 1: read by the cut alone, as for a player whose showdowns bore it out.)
    maniac = replace(m.adaptation(Counts(situations={(0, 0, True): [0, 0, 300, 0, 0]})),
                     weight=1.0)
    lik = m.likelihood(opens, p, maniac, prior)
    # (The prior rates of the default model keep a sliver of folds: the weakest 1% or so.)
    assert float(prior[lik < 0.95 * np.nanmax(lik)].sum()) < 0.05
    # A rock who raised 5% of 300 times: only the top of the range.
    rock = replace(m.adaptation(Counts(situations={(0, 0, True): [270, 15, 15, 0, 0]})),
                   weight=1.0)
    lik = m.likelihood(opens, p, rock, prior)
    aa, kk, s72 = (combo_index(*parse_cards(h)) for h in ("AsAh", "KsKh", "7c2d"))
    assert lik[aa] > 0.8 and lik[kk] > 0.8 and lik[s72] < 0.02
    assert _naive_band_mass(p, prior, lik) == pytest.approx(0.05, abs=0.01)
    # Without observations in the situation (here: the 3-bet one) the default model reads.
    assert np.allclose(m.likelihood(opens, p, m.adaptation(Counts(situations={
        (0, 1, True): [1, 2, 3, 0, 0]})), prior), m.likelihood(opens, p))


def test_situation_counts_by_street_raises_and_size() -> None:
    from checkraise.engine import Action, TableConfig
    from checkraise.opponents.actions import understand

    cfg = TableConfig.nolimit(2, stacks=10_000)
    hist = [(0, 0, Action.raise_to(300)), (1, 0, Action.raise_to(900)), (0, 0, Action.call()),
            (1, 1, Action.raise_to(2900)), (0, 1, Action.raise_to(8000)),
            (1, 1, Action.call()), (1, 2, Action.call()), (0, 2, Action.raise_to(9000)),
            (1, 2, Action.fold())]
    c0, c1 = Counts(), Counts()
    acts = understand(cfg, hist)
    c0.record(a for a in acts if a.seat == 0)
    c1.record(a for a in acts if a.seat == 1)
    # Flop: seat 1 bets 2,000 into 1,800 (pot class, response 4); seat 0 raises 5,100 beyond
    # the call into 5,800 (three-quarter, 3). Turn: seat 0 bets 1,000 into 16,000 (half, 2).
    assert c0.situations == {(0, 0, True): [0, 0, 1, 0, 0], (0, 2, True): [0, 1, 0, 0, 0],
                             (1, 1, True): [0, 0, 0, 1, 0], (2, 0, False): [0, 0, 1, 0, 0]}
    assert c1.situations == {(0, 1, True): [0, 0, 1, 0, 0], (1, 0, False): [0, 0, 0, 0, 1],
                             (1, 2, True): [0, 1, 0, 0, 0], (2, 0, False): [1, 0, 0, 0, 0],
                             (2, 1, True): [1, 0, 0, 0, 0]}
