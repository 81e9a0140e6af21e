"""Opponent modelling for hand reading: understand actions, keep statistics, predict hands.

The design of Li, Jiang, Chen and Bao, "Game in multiplayer no-limit Texas Hold'em based
on hands prediction" (Chinese Journal of Computers 40(12), 2017):

* :mod:`~checkraise.opponents.actions` - bet-size classes and street summaries;
* :mod:`~checkraise.opponents.stats` - per-opponent, per-position statistics;
* :mod:`~checkraise.opponents.model` - the default model ``P(action | hand)`` from P_win,
  its validated JSON configuration and its adaptation to observed frequencies;
* :mod:`~checkraise.opponents.pwin` - P_win of all 1,326 combos on a board, cached;
* :mod:`~checkraise.opponents.predict` - Bayesian prediction over the 1,326 combos;
* :mod:`~checkraise.opponents.display` - top-combo tables and the 13×13 grid.

The bot that uses them is :mod:`checkraise.agents.handreading` (``handreader``). Measuring the
predictions on real hand logs and fitting the configuration to them needs the hand-history
readers, a higher layer: that lives in :mod:`checkraise.analysis`.
"""

from __future__ import annotations

from checkraise.opponents.actions import ActionClass, UnderstoodAction, summarize, understand
from checkraise.opponents.model import DFModel, Interval, ModelConfig, load_config
from checkraise.opponents.predict import Prediction, consistent, predict, predict_from_actions
from checkraise.opponents.pwin import pwin_table
from checkraise.opponents.stats import Counts, PlayerStats, Position, StatsBook, position_group

__all__ = [
    "ActionClass",
    "Counts",
    "DFModel",
    "Interval",
    "ModelConfig",
    "PlayerStats",
    "Position",
    "Prediction",
    "StatsBook",
    "UnderstoodAction",
    "consistent",
    "load_config",
    "position_group",
    "predict",
    "predict_from_actions",
    "pwin_table",
    "summarize",
    "understand",
]
