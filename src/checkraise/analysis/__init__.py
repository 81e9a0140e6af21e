"""Measure models and agents on real hand logs.

This package sits in the layer of :mod:`checkraise.arena` and :mod:`checkraise.histories`:
it reads hand histories (which :mod:`checkraise.opponents` may not import) and scores or
fits the lower layers' models on them.

* :mod:`~checkraise.analysis.prediction` - the hand-reading predictions of
  :mod:`checkraise.opponents.predict` scored against the cards players really held
  (``checkraise predict-eval``);
* :mod:`~checkraise.analysis.fit` - the default model's intervals fitted to hands with
  known cards (``python -m checkraise.analysis.fit FILES --out model.json``);
* :mod:`~checkraise.analysis.markov` - the paper's baseline: a hidden Markov model of hand
  categories observed through bet classes (fit, forward filter, JSON);
* :mod:`~checkraise.analysis.baseline` - our reading against that baseline, both fitted on
  the same training files and scored on held-out ones
  (``checkraise predict-eval FILES --baseline markov``);
* :mod:`~checkraise.analysis.opponent_data`, :mod:`~checkraise.analysis.opponent_baselines`,
  :mod:`~checkraise.analysis.opponent_eval` - decisions of our bots for the CNN opponent
  model, three baselines, and scores on bots never trained on
  (``checkraise nn opponent generate|train|eval``);
* :mod:`~checkraise.analysis.opponent_hands`, :mod:`~checkraise.analysis.opponent_import` -
  the same decisions from hand histories through the hand database
  (``checkraise nn opponent generate --db``, ``checkraise nn opponent import``).

The model is that of Li, Jiang, Chen and Bao, "Game in multiplayer no-limit Texas Hold'em
based on hands prediction" (Chinese Journal of Computers 40(12), 2017).
"""

from __future__ import annotations

from checkraise.analysis.prediction import PREDICTORS, EvalResult, StreetScores, evaluate_hands

__all__ = ["PREDICTORS", "EvalResult", "StreetScores", "evaluate_hands"]
