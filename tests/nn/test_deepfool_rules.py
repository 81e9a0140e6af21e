"""The rule agent's decision distribution against its definition, sampled (a slow twin)."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.nn.deepfool_rules import RISKINESS, SIGMA, rule_distribution


def _sampled(s: float, price: float, mask: np.ndarray, n: int, seed: int) -> np.ndarray:
    # the definition: draw x ~ N(s, sigma); play the legal class whose riskiness is nearest
    risk = np.array(RISKINESS)
    risk[1] += 0.5 * price
    legal = np.flatnonzero(mask)
    x = np.random.default_rng(seed).normal(s, SIGMA, size=n)
    nearest = legal[np.abs(x[:, None] - risk[legal][None, :]).argmin(axis=1)]
    return np.bincount(nearest, minlength=6) / n


@pytest.mark.parametrize(("s", "price", "mask"), [
    (0.5, 0.0, [False, True, True, True, True, True]),
    (0.2, 0.3, [True, True, True, True, True, True]),
    (0.75, 0.1, [True, True, False, True, False, True]),
    (0.97, 0.0, [True, True, False, False, False, False]),
])
def test_distribution_is_the_gaussian_mass_of_each_band(s: float, price: float,
                                                        mask: list[bool]) -> None:
    m = np.array(mask)
    p = rule_distribution(s, price, m)
    assert p.sum() == pytest.approx(1.0) and (p[~m] == 0).all()
    assert np.abs(p - _sampled(s, price, m, 400_000, 1)).max() < 0.004


def test_strength_moves_the_mass_towards_riskier_actions() -> None:
    m = np.ones(6, dtype=bool)
    weak, strong = rule_distribution(0.1, 0.2, m), rule_distribution(0.9, 0.2, m)
    assert weak.argmax() == 0 and strong[2:].sum() > 0.9 and weak[2:].sum() < 0.01
