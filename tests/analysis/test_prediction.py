"""Prediction quality on real hands: better than the uniform prior on every street."""

from __future__ import annotations

import pytest
from tests.shared_data import shared_data

from checkraise.analysis.prediction import evaluate_hands
from checkraise.histories import parse_file

# The 46th file in name order: the shipped model was fitted on the 1st, 3rd, ... 45th.
HELD_OUT = "pluribus_99.txt"


def test_model_beats_uniform_on_held_out_pluribus_hands() -> None:
    hands = parse_file(shared_data("pluribus", HELD_OUT))[:80]
    result = evaluate_hands(hands)
    assert result.hands == 80
    for street in ("flop", "turn", "river"):
        uniform = result.scores[street]["uniform"].means()
        model = result.scores[street]["model"].means()
        assert model["n"] == uniform["n"] >= 8
        assert uniform["percentile"] == pytest.approx(0.5)
        assert model["loglik"] > uniform["loglik"]
        assert model["percentile"] > 0.55


def test_scores_by_hand() -> None:
    import numpy as np

    from checkraise.analysis.prediction import StreetScores

    s = StreetScores()
    dist = np.zeros(1326)
    dist[[0, 1, 2, 3]] = [0.4, 0.3, 0.2, 0.1]
    cats = np.full(1326, -1)
    cats[[0, 1, 2, 3]] = [1, 0, 0, 2]  # category mass: pair 0.4, high card 0.5, two pair 0.1
    s.add(dist, 1, cats)  # true combo 1: p = 0.3, beats 2 of the 3 others; high card is top
    m = s.means()
    assert m["loglik"] == pytest.approx(np.log(0.3))
    assert m["percentile"] == pytest.approx(2 / 3)
    assert (m["top1"], m["top2"], m["top3"]) == (1.0, 1.0, 1.0)
    s.add(dist, 3, cats)  # two pair: third most likely category
    m = s.means()
    assert (m["top1"], m["top2"], m["top3"]) == (0.5, 0.5, 1.0)


def test_adaptation_is_calibrated_on_held_out_pluribus_hands() -> None:
    """Pluribus and the pros mix their actions: reading them by a cut of their range
    must not make the prediction worse than the default model (nor than uniform)."""
    result = evaluate_hands(parse_file(shared_data("pluribus", HELD_OUT)), flop_runouts=100)
    for street in ("flop", "turn", "river"):
        scores = {k: v.means() for k, v in result.scores[street].items()}
        assert scores["adapted"]["n"] == scores["model"]["n"] >= 40
        assert scores["adapted"]["loglik"] > scores["model"]["loglik"] - 0.05
        assert scores["adapted"]["loglik"] > scores["uniform"]["loglik"] + 0.2
