"""DeepFool's rule agent (torch-free): win probability by Monte Carlo, a Gaussian over riskiness.

The DeepFool design pretrains its policy network on a rule agent so that Monte Carlo
CFR starts from sensible play instead of uniform noise. The rule: estimate the win
probability ``w`` of the hand against the opponents still in (random hands; the exact
169-class table preflop, seeded Monte Carlo later), turn it into a strength ``s`` on a
0..1 scale, give every action a *riskiness* on the same scale (fold 0.1, check/call
0.4 plus the price of calling, then the raise sizes, all-in 0.95), and draw a Gaussian
sample ``x ~ N(s, sigma)``: the action taken is the legal one whose riskiness is nearest
to ``x``. The decision distribution is therefore the Gaussian mass of each legal
action's band (between the midpoints to its neighbours in riskiness), computed exactly
with the normal CDF by :func:`rule_distribution`.

Our reading of the details the brief leaves open (the report itself was not in the
reference corpora we could search): strength ``s = min(1, w * live / 2)``, i.e. the
win probability relative to a fair share, scaled so that a fair share heads-up or at
a full table is 0.5 (a hand as good as average is a check/call); riskiness values
:data:`RISKINESS`; ``sigma`` :data:`SIGMA`. Folding when checking is free is never
chosen (:func:`~checkraise.nn.deepfool_encoding.legal_mask`).

Examples
--------
>>> import numpy as np
>>> mask = np.array([True, True, True, True, True, True])
>>> p = rule_distribution(0.8, 0.0, mask)
>>> int(p.argmax()), round(float(p.sum()), 6)   # strong: the large raise
(4, 1.0)
>>> int(rule_distribution(0.05, 0.3, mask).argmax())  # weak and facing a bet: fold
0
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from checkraise.engine.observation import Observation
from checkraise.nn.action_classes import CHECK_CALL
from checkraise.nn.deepfool_encoding import NUM_CLASSES

__all__ = ["RISKINESS", "SIGMA", "rule_distribution", "strength", "win_probability"]

RISKINESS: tuple[float, ...] = (0.1, 0.4, 0.6, 0.7, 0.8, 0.95)
"""Riskiness of fold, check/call (plus half the price of calling), small, medium, large
raise, all-in."""
SIGMA = 0.1
"""Standard deviation of the Gaussian decision."""


def win_probability(obs: Observation, rng: np.random.Generator, samples: int = 200) -> float:
    """Win probability (ties shared) against random hands of the opponents still in."""
    from checkraise.equity import equity
    from checkraise.equity.preflop import MAX_OPPONENTS, preflop_entry

    opponents = sum(1 for s, f in enumerate(obs.folded) if s != obs.seat and not f)
    opponents = min(max(opponents, 1), MAX_OPPONENTS)
    hole = obs.hole_cards
    if not obs.board:
        return float(preflop_entry(hole[0], hole[1]).equity(opponents))
    players: list[list[int] | str] = [list(hole)] + ["random"] * opponents
    result = equity(players, board=list(obs.board), method="mc", samples=samples, seed=rng)
    return float(result.equity[0])


def strength(obs: Observation, w: float) -> float:
    """The win probability ``w`` relative to a fair share: ``min(1, w * live / 2)``."""
    live = sum(1 for f in obs.folded if not f)
    return min(1.0, w * max(live, 2) / 2.0)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def rule_distribution(s: float, price: float, mask: npt.NDArray[np.bool_],
                      sigma: float = SIGMA) -> npt.NDArray[np.float64]:
    """The rule's probability of each action class.

    Parameters
    ----------
    s : float
        Strength on the 0..1 scale (:func:`strength`).
    price : float
        ``to_call / (pot + to_call)``, which makes a call riskier.
    mask : array of bool
        Legal classes (at least one).
    sigma : float
        Standard deviation of the Gaussian sample around ``s``.
    """
    risk = list(RISKINESS)
    risk[CHECK_CALL] += 0.5 * price
    legal = sorted((risk[k], k) for k in range(NUM_CLASSES) if mask[k])
    out = np.zeros(NUM_CLASSES)
    lo = 0.0
    for i, (r, k) in enumerate(legal):
        hi = 1.0 if i == len(legal) - 1 else _phi(((r + legal[i + 1][0]) / 2 - s) / sigma)
        out[k] = max(hi - lo, 0.0)
        lo = hi
    total = out.sum()
    if total <= 0:  # all the mass fell in rounding: the nearest action
        out[min(legal, key=lambda rk: abs(rk[0] - s))[1]] = 1.0
        return out
    return np.asarray(out / total, dtype=np.float64)
