"""Online implicit modelling: pick, hand by hand, the best of a portfolio of strategies.

Bard, Johanson, Burch & Bowling (2013), "Online implicit agent modelling" (AAMAS): rather
than model the opponent, keep a few strategies and learn online which of them earns most
against him. Because every strategy in the portfolio says how likely it was to take each
of the actions we really took, one hand played by any of them is evidence about all of
them, by importance sampling: the hand's payoff, weighted by how much likelier the hand's
own actions were under strategy ``j`` than under the mixture that chose them,

.. math:: \\hat v_j = u \\, \\frac{\\prod_t \\pi_j(a_t)}{\\sum_k p_k \\prod_t \\pi_k(a_t)},

is an unbiased estimate of strategy ``j``'s value against this opponent (his actions and
the cards do not depend on which strategy we play, so their probabilities cancel). The
mixture in the denominator (the "balance heuristic") keeps every weight at most
``1 / p_j``.

Each hand, the strategy is drawn from ``p = (1 - explore) q + explore / K``, where ``q``
is the probability that each strategy's value is the largest when each is drawn from a
normal distribution around its estimate with its standard error (Thompson sampling,
computed from a fixed number of seeded draws so that ``p`` is known exactly, as the
weights need). Before any hand the estimates are shrunk towards zero by ``prior_hands``
pseudo-hands with spread ``prior_sd`` big blinds. With ``margin`` above zero the choice is
conservative: a strategy other than the safe ``baseline`` takes part in ``q`` only once
its advantage over the baseline, estimated on the same hands, is ``margin`` standard
errors clear of zero.

The opponent is assumed to play the same way in every hand; one that adapts to us is
outside the model (the estimates stay unbiased for the hands already seen, not for the
ones to come).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from checkraise.errors import ConfigError

__all__ = ["Portfolio"]


class Portfolio:
    """Importance-sampled value estimates of ``K`` strategies and the choice among them.

    Parameters
    ----------
    size : int
        Number of strategies ``K`` (at least 2).
    explore : float
        Share of hands spread evenly over all strategies, ``0 < explore <= 1``; it bounds
        every importance weight by ``K / explore``.
    prior_hands : float
        Pseudo-hands of value 0 that every estimate starts with.
    prior_sd : float
        Their spread, in the payoffs' unit (big blinds for the blueprint bot).
    draws : int
        Normal draws per hand that give the Thompson probabilities ``q``.
    margin : float
        0 (the default): Thompson sampling over all strategies. Above 0, conservative:
        strategy ``baseline`` is the safe one, and another takes part in ``q`` only once
        its estimated advantage over it, hand by hand (the same hands estimate both),
        is more than ``margin`` standard errors above zero.
    baseline : int
        The safe strategy of ``margin``.
    """

    def __init__(self, size: int, *, explore: float = 0.05, prior_hands: float = 20.0,
                 prior_sd: float = 10.0, draws: int = 512, margin: float = 0.0,
                 baseline: int = 0) -> None:
        for name, value in (("explore", explore), ("prior_hands", prior_hands),
                            ("prior_sd", prior_sd), ("draws", draws), ("margin", margin)):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(f"{name}={value!r}; expected a number")
        if int(size) < 2:
            raise ConfigError(f"a portfolio of {size!r} strategies; expected at least 2")
        if not 0.0 < explore <= 1.0:
            raise ConfigError(f"explore={explore!r}; expected 0 < explore <= 1")
        if prior_hands <= 0.0 or prior_sd <= 0.0:
            raise ConfigError(
                f"prior_hands={prior_hands!r}, prior_sd={prior_sd!r}; expected both > 0"
            )
        if int(draws) < 1:
            raise ConfigError(f"draws={draws!r}; expected at least 1")
        if margin < 0.0:
            raise ConfigError(f"margin={margin!r}; expected 0 or more")
        if isinstance(baseline, bool) or not isinstance(baseline, int) \
                or not 0 <= baseline < int(size):
            raise ConfigError(f"baseline={baseline!r}; expected a strategy from 0 to "
                              f"{int(size) - 1}")
        self.size = int(size)
        self.explore = float(explore)
        self.prior_hands = float(prior_hands)
        self.prior_sd = float(prior_sd)
        self.draws = int(draws)
        self.margin = float(margin)
        self.baseline = int(baseline)
        self.hands = 0
        self._sum = np.zeros(self.size)  # sum of weighted payoffs
        self._squares = np.zeros(self.size)  # sum of their squares
        self._diff_squares = np.zeros(self.size)  # of each one's excess over the baseline's

    @property
    def means(self) -> Any:
        """Each strategy's estimated value per hand (shrunk towards 0 by the prior)."""
        return self._sum / (self.hands + self.prior_hands)

    @property
    def errors(self) -> Any:
        """The standard error of each estimate."""
        n = self.hands + self.prior_hands
        second = (self._squares + self.prior_hands * self.prior_sd**2) / n
        return np.sqrt(np.maximum(second - self.means**2, 0.0) / n)

    @property
    def advantages(self) -> tuple[Any, Any]:
        """Each strategy's estimated advantage over the baseline and its standard error,
        from the same hands (paired)."""
        n = self.hands + self.prior_hands
        mean = (self._sum - self._sum[self.baseline]) / n
        second = (self._diff_squares + 2.0 * self.prior_hands * self.prior_sd**2) / n
        return mean, np.sqrt(np.maximum(second - mean**2, 0.0) / n)

    def probabilities(self, seed: Sequence[int] | int) -> Any:
        """The mixture ``p`` to draw the next hand's strategy from (``seed`` fixes the
        Thompson draws, so the same state and seed give the same ``p``)."""
        rng = np.random.default_rng(seed)
        samples = self.means + self.errors * rng.standard_normal((self.draws, self.size))
        if self.margin > 0.0:
            mean, error = self.advantages
            allowed = mean - self.margin * error > 0.0
            allowed[self.baseline] = True
            samples[:, ~allowed] = -np.inf
        q = np.bincount(np.argmax(samples, axis=1), minlength=self.size) / self.draws
        return (1.0 - self.explore) * q + self.explore / self.size

    def observe(self, log_likelihoods: Sequence[float] | Any, payoff: float,
                p: Sequence[float] | Any) -> Any:
        """Take in one hand: ``log_likelihoods[j]`` is the log-probability of our actions in
        it under strategy ``j``, ``payoff`` what we won, ``p`` the mixture it was played
        from. Returns the importance weights."""
        logs = np.asarray(log_likelihoods, dtype=np.float64)
        mix = np.asarray(p, dtype=np.float64)
        if logs.shape != (self.size,) or mix.shape != (self.size,):
            raise ConfigError(
                f"a hand with {logs.shape} log-likelihoods and {mix.shape} probabilities; "
                f"expected {self.size} of each"
            )
        top = float(np.max(logs))
        likes = np.exp(logs - top)
        weights = likes / float(mix @ likes)
        values = weights * float(payoff)
        self._diff_squares += (values - values[self.baseline]) ** 2
        self._sum += values
        self._squares += values**2
        self.hands += 1
        return weights
