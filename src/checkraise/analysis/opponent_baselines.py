"""Baselines for predicting the next action class, and the scores every opponent model is given.

Three yardsticks for the CNN opponent model, each a distribution over the six classes
of :data:`~checkraise.nn.action_classes.ACTION_CLASSES`, restricted to the classes
available at the decision and renormalised:

* ``majority`` - the class frequencies of the training decisions (its most likely
  available class is the majority class; the frequencies give it a finite log-loss);
* ``situation`` - a frequency table by situation: street x the class of the
  opponent's last action on this street (or "none") x position (first or last to act
  after the flop);
* ``markov1`` / ``markov2`` - a Markov chain over the hand's sequence of action classes
  (both players, all streets): the class given the previous one or two (a start
  symbol pads the beginning).

Every count table gets add-``alpha`` (Laplace) smoothing, so no available class has
probability 0. :func:`score` gives accuracy (the most probable class is the one
taken) and log-loss (mean ``-ln p`` of the class taken, in nats).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from checkraise.errors import ConfigError
from checkraise.nn.action_classes import ACTION_CLASSES

__all__ = ["BASELINES", "Features", "Score", "TableModel", "fit_baseline", "score"]

NUM_CLASSES = len(ACTION_CLASSES)
NONE = NUM_CLASSES  # "no earlier action" in contexts
BASELINES: tuple[str, ...] = ("majority", "situation", "markov1", "markov2")


@dataclass(frozen=True)
class Features:
    """What the baselines see of each decision (arrays of equal length)."""

    label: npt.NDArray[np.int64]
    available: npt.NDArray[np.bool_]
    street: npt.NDArray[np.int64]
    facing: npt.NDArray[np.int64]
    position: npt.NDArray[np.int64]
    prev1: npt.NDArray[np.int64]
    prev2: npt.NDArray[np.int64]

    def take(self, idx: npt.NDArray[np.int64]) -> Features:
        """The decisions ``idx``."""
        return Features(self.label[idx], self.available[idx], self.street[idx],
                        self.facing[idx], self.position[idx], self.prev1[idx], self.prev2[idx])


@dataclass(frozen=True)
class Score:
    """Accuracy and log-loss (nats) of a model on some decisions."""

    accuracy: float
    log_loss: float
    n: int


@dataclass(frozen=True)
class TableModel:
    """A smoothed count table: ``counts[context, class]`` and a context per decision."""

    name: str
    counts: npt.NDArray[np.float64]
    alpha: float

    def predict(self, feats: Features) -> npt.NDArray[np.float64]:
        """Probabilities ``(n, 6)`` over the available classes."""
        table = self.counts[_context(self.name, feats)] + self.alpha
        table = np.where(feats.available, table, 0.0)
        out: npt.NDArray[np.float64] = table / table.sum(axis=1, keepdims=True)
        return out


def _context(name: str, f: Features) -> npt.NDArray[np.int64]:
    k = NUM_CLASSES + 1
    if name == "majority":
        return np.zeros(len(f.label), np.int64)
    if name == "situation":
        return (f.street * k + f.facing) * 2 + f.position
    if name == "markov1":
        return f.prev1
    if name == "markov2":
        return f.prev2 * k + f.prev1
    raise ConfigError(f"unknown baseline {name!r}: expected one of {', '.join(BASELINES)}")


_CONTEXTS = {"majority": 1, "situation": 4 * (NUM_CLASSES + 1) * 2,
             "markov1": NUM_CLASSES + 1, "markov2": (NUM_CLASSES + 1) ** 2}


def fit_baseline(name: str, feats: Features, alpha: float = 1.0) -> TableModel:
    """Count the training decisions ``feats`` into baseline ``name``'s table.

    Examples
    --------
    >>> f = Features(np.array([1, 1, 0]), np.ones((3, 6), bool), np.zeros(3, np.int64),
    ...              np.full(3, 6), np.zeros(3, np.int64), np.full(3, 6), np.full(3, 6))
    >>> fit_baseline("majority", f).predict(f.take(np.array([0])))[0, :2].round(3).tolist()
    [0.222, 0.333]
    """
    if name not in _CONTEXTS:
        raise ConfigError(f"unknown baseline {name!r}: expected one of {', '.join(BASELINES)}")
    if alpha <= 0:
        raise ConfigError(f"smoothing alpha={alpha!r}: expected a positive number")
    counts = np.zeros((_CONTEXTS[name], NUM_CLASSES))
    np.add.at(counts, (_context(name, feats), feats.label), 1.0)
    return TableModel(name, counts, float(alpha))


def score(probs: npt.NDArray[np.float64], label: npt.NDArray[np.int64]) -> Score:
    """Accuracy and mean log-loss of ``probs`` ``(n, 6)`` against the classes taken."""
    n = len(label)
    if probs.shape != (n, NUM_CLASSES):
        raise ConfigError(f"probabilities of shape {probs.shape}: expected ({n}, {NUM_CLASSES})")
    p = probs[np.arange(n), label]
    acc = float(np.mean(np.argmax(probs, axis=1) == label)) if n else 0.0
    ll = float(-np.mean(np.log(np.maximum(p, 1e-300)))) if n else 0.0
    return Score(acc, ll, n)
