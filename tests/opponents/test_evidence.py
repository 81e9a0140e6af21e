"""Showdown evidence of a player's noise: the posterior of the cut's weight μ."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.engine import Action, TableConfig
from checkraise.opponents.actions import understand
from checkraise.opponents.evidence import CutEvidence
from checkraise.opponents.model import DFModel
from checkraise.opponents.predict import showdown_evidence
from checkraise.opponents.pwin import pwin_table
from checkraise.opponents.stats import Counts


def _naive_posterior_mean(pairs: list[tuple[float, float]], mean: float, k: float) -> float:
    """∫ μ Beta(μ) Π L_i(μ) dμ / ∫ Beta(μ) Π L_i(μ) dμ on a fine grid (singular ends
    handled by the substitution μ = t^(1/a) near 0 being unnecessary at this fineness
    for a, b >= 0.5)."""
    mu = (np.arange(400_000) + 0.5) / 400_000
    a, b = mean * k, (1 - mean) * k
    logp = (a - 1) * np.log(mu) + (b - 1) * np.log1p(-mu)
    for plain, adapted in pairs:
        logp += np.log((1 - mu) * plain + mu * adapted)
    p = np.exp(logp - logp.max())
    return float((p * mu).sum() / p.sum())


@pytest.mark.parametrize("pairs", [
    [],
    [(0.05, 0.9)] * 3,
    [(0.4, 0.01), (0.3, 0.6), (0.2, 0.2)],
    [(0.1, 0.5)] * 2 + [(0.5, 0.1)] * 2,
])
def test_posterior_mean_matches_a_fine_integral(pairs: list[tuple[float, float]]) -> None:
    e = CutEvidence()
    for p, q in pairs:
        e.add(p, q)
    assert e.actions == len(pairs)
    assert e.weight(0.5, 2.0) == pytest.approx(_naive_posterior_mean(pairs, 0.5, 2.0), abs=0.01)
    assert e.weight(0.3, 4.0) == pytest.approx(_naive_posterior_mean(pairs, 0.3, 4.0), abs=0.01)


def test_uninformative_evidence_keeps_the_prior() -> None:
    e = CutEvidence()
    e.add(0.3, 0.3)  # the cut and the model agree on his hand: nothing learnt
    e.add(float("nan"), 0.3)  # a combo the board rules out is not evidence
    assert e.actions == 1
    assert e.weight(0.2, 2.0) == pytest.approx(CutEvidence().weight(0.2, 2.0))


def test_a_threshold_player_earns_the_cut_and_a_random_one_does_not() -> None:
    """Both open-raise 10% of the time heads-up; one raises the top 10% by P_win, the other
    10% of hands at random. Showdowns of their raises move μ apart."""
    m = DFModel()
    cfg = TableConfig.nolimit(2, stacks=10_000)
    acts = understand(cfg, [(0, 0, Action.raise_to(300)), (1, 0, Action.call())])
    counts = Counts(situations={(0, 0, True): [900, 0, 100, 0, 0]})
    p = pwin_table()
    top = np.flatnonzero(p >= np.quantile(p, 0.9))
    rng = np.random.default_rng(7)
    weights = {}
    for name, pool in (("threshold", top), ("random", np.arange(1326))):
        ev = CutEvidence()
        for combo in rng.choice(pool, size=12, replace=False):
            pairs = showdown_evidence(acts, (), 0, int(combo), m.adaptation(counts, ev), model=m)
            assert len(pairs) == 1  # one street acted on
            ev.add(*pairs[0])
        weights[name] = m.adaptation(counts, ev).weight
    prior = m.adaptation(counts).weight
    assert weights["threshold"] > 0.6 > prior > weights["random"]
