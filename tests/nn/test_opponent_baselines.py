"""Baselines on tiny hand-built data: accuracies and log-losses computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from checkraise.analysis.opponent_baselines import Features, fit_baseline, score
from checkraise.errors import ConfigError

ALL = np.ones(6, bool)
FIRST3 = np.array([True, True, True, False, False, False])


def _f(label: list[int], prev1: list[int], prev2: list[int] | None = None,
       street: list[int] | None = None, facing: list[int] | None = None,
       position: list[int] | None = None, avail: list[np.ndarray] | None = None) -> Features:
    n = len(label)

    def arr(x: list[int] | None, fill: int) -> np.ndarray:
        return np.array(x if x is not None else [fill] * n, dtype=np.int64)

    return Features(np.array(label), np.array(avail if avail else [ALL] * n), arr(street, 0),
                    arr(facing, 6), arr(position, 0), arr(prev1, 6), arr(prev2, 6))


def test_markov1_counts_smoothed_and_masked() -> None:
    train = _f([1, 1, 2, 0], prev1=[6, 1, 1, 1])
    # after class 1: counts fold 1, call 1, small 1 (+1 each); after the start: call 1 (+1)
    test = _f([2, 1], prev1=[1, 6], avail=[FIRST3, ALL])
    p = fit_baseline("markov1", train).predict(test)
    assert p[0].tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0, 0, 0])
    assert p[1].tolist() == pytest.approx([1 / 7, 2 / 7, 1 / 7, 1 / 7, 1 / 7, 1 / 7])
    s = score(p, test.label)
    # row 0: a three-way tie goes to the first class (fold), not the small raise taken
    assert s.accuracy == 0.5
    assert s.log_loss == pytest.approx((math.log(3) + math.log(7 / 2)) / 2)


def test_markov2_uses_the_two_previous_classes() -> None:
    train = _f([5, 5, 0], prev1=[2, 2, 2], prev2=[1, 1, 3])
    test = _f([5, 0], prev1=[2, 2], prev2=[1, 4])
    p = fit_baseline("markov2", train).predict(test)
    assert p[0, 5] == pytest.approx(3 / 8)  # (1, 2) seen twice, all-in both times
    assert p[1].tolist() == pytest.approx([1 / 6] * 6)  # (4, 2) never seen
    s = score(p, test.label)
    assert s.accuracy == 1.0  # the six-way tie of row 1 goes to fold, the class taken
    assert s.log_loss == pytest.approx((math.log(8 / 3) + math.log(6)) / 2)


def test_situation_table_and_majority() -> None:
    train = _f([0, 0, 1, 3], prev1=[6] * 4, street=[1, 1, 1, 2], facing=[4, 4, 4, 6],
               position=[0, 0, 1, 0])
    test = _f([0, 1], prev1=[6, 6], street=[1, 2], facing=[4, 6], position=[0, 0])
    p = fit_baseline("situation", train).predict(test)
    assert p[0, 0] == pytest.approx(3 / 8)
    assert p[1, 3] == pytest.approx(2 / 7)
    s = score(p, test.label)
    assert s.accuracy == 0.5
    assert s.log_loss == pytest.approx((math.log(8 / 3) + math.log(7)) / 2)
    m = fit_baseline("majority", train).predict(test)
    assert m[0].tolist() == pytest.approx([3 / 10, 2 / 10, 1 / 10, 2 / 10, 1 / 10, 1 / 10])
    assert score(m, test.label).accuracy == 0.5


def test_bad_input_is_named() -> None:
    with pytest.raises(ConfigError, match="unknown baseline 'hmm'"):
        fit_baseline("hmm", _f([0], [6]))
    with pytest.raises(ConfigError, match="alpha=0"):
        fit_baseline("markov1", _f([0], [6]), alpha=0)
    with pytest.raises(ConfigError, match=r"expected \(1, 6\)"):
        score(np.ones((1, 5)), np.array([0]))
