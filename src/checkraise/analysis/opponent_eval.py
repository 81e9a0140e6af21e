"""Held-out evaluation of opponent models by opponent: train on some bots, test on bots never seen.

The decisions of a data folder (:mod:`checkraise.analysis.opponent_data`) are split by
the bot that took them: those of the ``test`` bots are the test set, every other
bot's are the training set, so a model is scored on players whose decisions it never
saw. The CNN (:mod:`checkraise.nn.opponent_cnn`) and the baselines of
:mod:`checkraise.analysis.opponent_baselines` (fitted here on the training set) are
scored on the same test decisions (a seeded sample of at most ``max_test``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.analysis.opponent_baselines import BASELINES, Score, fit_baseline, score
from checkraise.analysis.opponent_data import DecisionSet, features_of
from checkraise.errors import ConfigError

__all__ = ["DEFAULT_TEST_BOTS", "EvalReport", "check_test_bots", "evaluate", "score_models",
           "split_by_bot"]

#: Bots held out by default (their styles have relatives among the training bots).
DEFAULT_TEST_BOTS: tuple[str, ...] = (
    "heuristic:profile=multiway",
    "equity:raise_ratio=1.6,margin=0.1,bet=2.0",
    "random:pfold=0.2,pcall=0.6,praise=0.2",
    "handreader",
)


@dataclass(frozen=True)
class EvalReport:
    """Scores per model on the held-out bots (overall and per bot)."""

    train_bots: tuple[str, ...]
    test_bots: tuple[str, ...]
    train_size: int
    test_size: int
    scores: dict[str, Score]
    per_bot: dict[str, dict[str, Score]]

    def to_json(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        def s(x: Score) -> dict[str, Any]:
            return {"accuracy": x.accuracy, "log_loss": x.log_loss, "n": x.n}

        return {
            "train_bots": list(self.train_bots), "test_bots": list(self.test_bots),
            "train_size": self.train_size, "test_size": self.test_size,
            "scores": {k: s(v) for k, v in self.scores.items()},
            "per_bot": {b: {k: s(v) for k, v in m.items()} for b, m in self.per_bot.items()},
        }


def check_test_bots(ds: DecisionSet, test_bots: Sequence[str]) -> None:
    """Raise :class:`ConfigError` unless ``test_bots`` are some, not all, of the data's bots."""
    unknown = [b for b in test_bots if b not in ds.names]
    if unknown:
        raise ConfigError(f"test bots {unknown} are not in the data; expected some of "
                          f"{', '.join(ds.names)}")
    if not test_bots or len(set(test_bots)) >= len(ds.names):
        raise ConfigError(f"{len(set(test_bots))} test bots of {len(ds.names)}: expected at "
                          "least one bot on each side")


def split_by_bot(ds: DecisionSet, test_bots: Sequence[str]) -> tuple[DecisionSet, DecisionSet]:
    """``(training, test)``: the decisions of bots not in ``test_bots``, and of those in it."""
    check_test_bots(ds, test_bots)
    held = np.isin(ds.bot, [ds.names.index(b) for b in test_bots])
    return ds.subset(~held), ds.subset(held)


def evaluate(
    ds: DecisionSet,
    test_bots: Sequence[str],
    cnn: Any | None = None,
    *,
    max_test: int | None = 100_000,
    seed: int = 1,
    batch: int = 1024,
    progress: Callable[[int, int], None] | None = None,
) -> EvalReport:
    """Fit the baselines on the other bots' decisions, score them and ``cnn`` on ``test_bots``'.

    ``cnn`` is a :class:`~checkraise.nn.opponent_cnn.CnnOpponentModel` (or anything with
    ``predict_planes(planes, available)``); ``None`` scores the baselines only.
    """
    train, test = split_by_bot(ds, test_bots)
    return score_models(train, test, cnn, max_test=max_test, seed=seed, batch=batch,
                        progress=progress)


def score_models(
    train: DecisionSet,
    test: DecisionSet,
    cnn: Any | None = None,
    *,
    max_test: int | None = 100_000,
    seed: int = 1,
    batch: int = 1024,
    progress: Callable[[int, int], None] | None = None,
) -> EvalReport:
    """Fit the baselines on ``train``, score them and ``cnn`` on (a sample of) ``test``."""
    if len(train) == 0 or len(test) == 0:
        raise ConfigError(f"{len(train)} training and {len(test)} test decisions: expected both")
    f_train = features_of(train)
    f_test = features_of(test)
    idx: npt.NDArray[np.int64] = np.arange(len(test))
    if max_test is not None and len(test) > max_test:
        idx = np.sort(np.random.default_rng(seed).choice(len(test), max_test, replace=False))
    f_eval = f_test.take(idx)
    probs: dict[str, npt.NDArray[np.float64]] = {}
    for name in BASELINES:
        probs[name] = fit_baseline(name, f_train).predict(f_eval)
    if cnn is not None:
        out = np.zeros((len(idx), f_eval.available.shape[1]))
        for s in range(0, len(idx), batch):
            b = idx[s:s + batch]
            out[s:s + len(b)] = cnn.predict_planes(test.planes(b), test.available(b))
            if progress is not None:
                progress(min(s + batch, len(idx)), len(idx))
        probs["cnn"] = out
    scores = {k: score(v, f_eval.label) for k, v in probs.items()}
    bots = test.bot[idx]
    per_bot: dict[str, dict[str, Score]] = {}
    test_bots = tuple(test.names[b] for b in np.unique(test.bot))
    for bot in test_bots:
        m = bots == test.names.index(bot)
        per_bot[bot] = {k: score(v[m], f_eval.label[m]) for k, v in probs.items()}
    train_names = tuple(train.names[b] for b in np.unique(train.bot))
    return EvalReport(train_names, tuple(test_bots), len(train), len(idx), scores, per_bot)
