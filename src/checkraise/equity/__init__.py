"""Win, tie and equity probabilities; hand strength, potential, outs and pot odds.

* :func:`equity` - 2-10 players with hands or weighted ranges, exact or Monte Carlo
  (:mod:`checkraise.equity.core`).
* :func:`win_probability` - our hand against q predicted hand distributions (Algorithm 1
  of the hand-reading bot).
* :mod:`checkraise.equity.strength` - v = W - L, Billings' HS/PPot/NPot/EHS, E[HS],
  E[HS²], final-equity histograms, outs, pot odds.
* :mod:`checkraise.equity.preflop` - the shipped exact 169-class heads-up table.
"""

from __future__ import annotations

from checkraise.equity.core import (
    EquityError,
    EquityResult,
    ExactCost,
    LowAcceptanceError,
    Method,
    WinProbability,
    equity,
    exact_cost,
    win_probability,
)
from checkraise.equity.preflop import PreflopEntry, preflop_equity, preflop_table
from checkraise.equity.strength import (
    HandStrength,
    billings_ehs,
    equity_histogram,
    final_equities,
    hand_strength,
    outs,
    pot_odds,
    probability_to_hit,
    required_equity,
    win_minus_lose,
)

__all__ = [
    "EquityError",
    "EquityResult",
    "ExactCost",
    "HandStrength",
    "LowAcceptanceError",
    "Method",
    "PreflopEntry",
    "WinProbability",
    "billings_ehs",
    "equity",
    "equity_histogram",
    "exact_cost",
    "final_equities",
    "hand_strength",
    "outs",
    "pot_odds",
    "preflop_equity",
    "preflop_table",
    "probability_to_hit",
    "required_equity",
    "win_minus_lose",
    "win_probability",
]
