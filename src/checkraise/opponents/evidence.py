"""How much one player's actions follow a cut of his range: evidence from his showdowns.

The hand-reading design of Li, Jiang, Chen and Bao ("Game in multiplayer no-limit Texas
Hold'em based on hands prediction", Chinese Journal of Computers 40(12), 2017) adapts the
default model to what each opponent is seen to do. Our adaptation
(:mod:`checkraise.opponents.model`) reads his observed rates as a deterministic cut of his
range sorted by P_win, which fits a bot that plays by thresholds but over-reads a player
who mixes (a balanced player bets some weak hands and checks some strong ones). So the
likelihood the predictor uses is a mixture with a per-player weight ``μ``::

    P(α | ψ) = (1 - μ) P_default(α | ψ) + μ P_adapted(α | ψ)

``1 - μ`` is his *noise*: how far he is from the cut. ``μ`` is estimated by Bayes' rule on
a grid from the only hands the observer may check: those he showed down. Once a hand is
over and his combo ψ* is shown, each action α of his in that hand gives the evidence
``(1 - μ) P_default(α | ψ*) + μ P_adapted(α | ψ*)`` divided by the same mixture of the
two likelihoods' means over the range predicted before the action (all computed as the
predictor had them then, :func:`~checkraise.opponents.predict.showdown_evidence`): the
step of ``P_μ(ψ* | his actions)``, the very score the predictor is judged by
(:mod:`checkraise.analysis.prediction`). The product over his shown actions times a
Beta prior (mean ``weight_mean``, ``weight_strength`` pseudo-
observations, :class:`~checkraise.opponents.model.AdaptConfig`) is the posterior of
``μ``. As the mixture is linear in ``μ``, predicting with the posterior mean of ``μ`` is
the same as averaging the predictions over the posterior.

With no evidence ``μ`` is the prior mean: small, so an unknown player is read mostly by
the default model (fitted to real players), and the cut takes over only for a player
whose shown hands it explains better.

Examples
--------
>>> e = CutEvidence()
>>> round(e.weight(0.1, 2.0), 1)  # the prior mean (up to the grid)
0.1
>>> for _ in range(8):
...     e.add(0.05, 0.9)  # each shown action: the cut gave the held combo 0.9, the model 0.05
>>> e.weight(0.1, 2.0) > 0.75
True
"""

from __future__ import annotations

from typing import Final

import numpy as np

__all__ = ["GRID", "CutEvidence"]

GRID: Final = (np.arange(40, dtype=np.float64) + 0.5) / 40
"""Values of ``μ`` the posterior is kept on (cell midpoints of [0, 1])."""

_EDGES: Final = np.linspace(0.0, 1.0, len(GRID) + 1)
_FLOOR: Final = 1e-12


class CutEvidence:
    """Log-likelihood of every ``μ`` on :data:`GRID` from one player's shown actions."""

    def __init__(self) -> None:
        self.loglik = np.zeros_like(GRID)
        self.actions = 0

    def add(self, plain: float, adapted: float, plain_mass: float = 1.0,
            adapted_mass: float = 1.0) -> None:
        """One shown action: ``P_default`` and ``P_adapted`` of it at the combo he held.

        ``plain_mass`` and ``adapted_mass`` are each likelihood's mean over his predicted
        range before the action (the chance the predictor gave the action at all): with
        them each term is the step ``P(ψ* | actions so far)`` of the predictive score,
        so a sharp cut gains only where it put the shown combo, not merely by liking it.
        """
        if not all(np.isfinite(x) for x in (plain, adapted, plain_mass, adapted_mass)):
            return
        top = np.maximum((1.0 - GRID) * plain + GRID * adapted, _FLOOR)
        bottom = np.maximum((1.0 - GRID) * plain_mass + GRID * adapted_mass, _FLOOR)
        self.loglik += np.log(top) - np.log(bottom)
        self.actions += 1

    def weight(self, mean: float, strength: float) -> float:
        """Posterior mean of ``μ`` under a Beta prior of this ``mean`` and ``strength``.

        Examples
        --------
        >>> e = CutEvidence()
        >>> e.add(0.5, 0.01)  # the cut missed his hand: the weight drops
        >>> e.weight(0.1, 2.0) < 0.1
        True
        """
        m = min(max(mean, 1e-6), 1.0 - 1e-6)
        a, b = m * strength, (1.0 - m) * strength
        # Prior mass of each cell: the Beta density's singular factors x^(a-1) and
        # (1-x)^(b-1) integrated exactly over the cell (a plain midpoint rule misses most
        # of the mass near 0 when a < 1, i.e. for a small prior mean).
        lo, hi = _EDGES[:-1], _EDGES[1:]
        left = (hi**a - lo**a) / a
        right = ((1.0 - lo) ** b - (1.0 - hi) ** b) / b
        logp = self.loglik + np.log(left) + np.log(right)
        p = np.exp(logp - logp.max())
        return float((p * GRID).sum() / p.sum())
