"""Bayesian prediction: a hand-computed example over four streets, card removal, naive twin."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.cards import COMBO_CARDS, combo_index, parse_cards
from checkraise.engine import Action, TableConfig
from checkraise.opponents.actions import ActionClass as A
from checkraise.opponents.actions import UnderstoodAction, understand
from checkraise.opponents.model import AdaptConfig, DFModel, Interval, ModelConfig
from checkraise.opponents.predict import consistent, predict, update
from checkraise.opponents.pwin import pwin_table

_IVS = {
    ("preflop", A.FOLD): Interval(0.0, 0.4, 0.2, 10.0),
    ("preflop", A.CALL): Interval(0.45, 0.6, 0.5, 10.0),
    ("preflop", A.RAISE): Interval(0.6, 1.0, 0.7, 10.0),
    ("flop", A.CHECK): Interval(0.2, 0.5, 0.35, 5.0),
    ("flop", A.HALF): Interval(0.55, 1.0, 0.75, 5.0),
    ("turn", A.FOLD): Interval(0.0, 0.3, 0.15, 8.0),
    ("turn", A.CALL): Interval(0.5, 0.8, 0.6, 8.0),
    ("river", A.CHECK): Interval(0.2, 0.5, 0.35, 5.0),
    ("river", A.HALF): Interval(0.55, 1.0, 0.75, 5.0),
}


def test_two_hands_over_four_streets_by_hand() -> None:
    # Our own worked example (the paper's text was not available): two candidate hands
    # psi1, psi2 with prior 1/2 each and these P_win values and actions per street.
    model = DFModel(ModelConfig({(s, "2", c): iv for (s, c), iv in _IVS.items()},
                                AdaptConfig()))
    steps = [
        # street, action, choices, (P_win psi1, P_win psi2)
        (0, A.RAISE, (A.FOLD, A.CALL, A.RAISE), (0.8, 0.5)),
        (1, A.CHECK, (A.CHECK, A.HALF), (0.9, 0.3)),
        (2, A.CALL, (A.FOLD, A.CALL), (0.95, 0.4)),
        (3, A.HALF, (A.CHECK, A.HALF), (0.7, 0.1)),
    ]
    # Preflop raise. psi1 (p = 0.8): R_fold = 0.8/0.6 = 1.3333, R_call = 0.5/0.3 = 1.6667,
    #   R_raise = 10 (inside [0.6, 1]); P = 10/13 = 0.769231.
    #   psi2 (p = 0.5): R_fold = 0.8/0.3 = 2.6667, R_call = 10, R_raise = 0.7/0.2 = 3.5;
    #   P = 3.5/16.1667 = 0.216495. Posterior: 0.780370, 0.219630.
    # Flop check. psi1 (0.9): R_check = 0.65/0.55 = 1.181818, R_half = 5; P = 0.191176.
    #   psi2 (0.3): R_check = 5, R_half = 0.75/0.45 = 1.6667; P = 0.75.
    #   Posterior: 0.149189, 0.164722 -> 0.475258, 0.524742.
    # Turn call. psi1 (0.95): R_fold = 0.85/0.8 = 1.0625, R_call = 0.4/0.35 = 1.142857;
    #   P = 0.518219. psi2 (0.4): R_fold = 0.85/0.25 = 3.4, R_call = 0.6/0.2 = 3; P = 0.46875.
    #   Posterior: 0.246288, 0.245973 -> 0.500320, 0.499680.
    # River half-pot bet. psi1 (0.7): R_check = 0.65/0.35 = 1.857143, R_half = 5;
    #   P = 0.729167. psi2 (0.1): R_check = 0.35/0.25 = 1.4, R_half = 0.75/0.65 = 1.153846;
    #   P = 0.451807. Posterior: 0.364817, 0.225759 -> 0.617730, 0.382270.
    expected_likelihoods = [(0.769231, 0.216495), (0.191176, 0.75), (0.518219, 0.46875),
                            (0.729167, 0.451807)]
    expected_posteriors = [0.780370, 0.475258, 0.500320, 0.617730]
    w = np.array([0.5, 0.5])
    for (street, cls, choices, pw), lik, post in zip(steps, expected_likelihoods,
                                                     expected_posteriors, strict=True):
        act = UnderstoodAction(0, street, cls, choices, 2, 100, 0)
        got = model.likelihood(act, np.array(pw))
        assert got == pytest.approx(lik, abs=2e-6)
        w = update(w, got)
        assert w == pytest.approx([post, 1.0 - post], abs=2e-6)


def naive_predict(model: DFModel, acts: list[UnderstoodAction], board: list[int],
                  seat: int, known: list[int]) -> np.ndarray:
    """Combo by combo: prior, then the product of the street summaries' likelihoods."""
    from checkraise.opponents.actions import summarize

    summary = summarize(acts)
    w = np.zeros(1326)
    for i in range(1326):
        cards = {int(c) for c in COMBO_CARDS[i]}
        if cards & (set(known) | set(board)):
            continue
        weight = 1.0
        for street in range(4):
            act = summary.get((seat, street))
            if act is None:
                continue
            b = board[: (0, 3, 4, 5)[street]]
            p = pwin_table(b)[i]
            weight *= float(model.likelihood(act, np.array([p]))[0])
        w[i] = weight
    return w / w.sum()


def test_vectorised_prediction_equals_combo_by_combo_twin() -> None:
    cfg = TableConfig.nolimit(3, stacks=10_000)
    c, r = Action.call(), Action.raise_to
    hist = [(2, 0, r(250)), (0, 0, Action.fold()), (1, 0, c),
            (1, 1, c), (2, 1, r(400)), (1, 1, c),
            (1, 2, r(900)), (2, 2, c),
            (1, 3, c), (2, 3, r(2500)), (1, 3, c)]
    board = parse_cards("Kd 8s 3c 8h 2d")
    hero = parse_cards("As Ah")
    model = DFModel()
    preds = predict(cfg, hist, board, [1, 2], known=hero, model=model)
    acts = understand(cfg, hist)
    for seat in (1, 2):
        twin = naive_predict(model, acts, board, seat, hero)
        assert np.allclose(preds[seat].final, twin, atol=1e-12)
        assert preds[seat].final[combo_index(*parse_cards("AsKs"))] == 0.0  # our card
        assert preds[seat].final[combo_index(*parse_cards("8s8c"))] == 0.0  # board card
        assert [a is not None for a in preds[seat].actions] == [True] * 4
    # Each street's distribution knows only the board dealt by then.
    flop = preds[2].streets[1]
    assert flop[combo_index(*parse_cards("8h7h"))] > 0.0  # 8h comes on the turn
    assert preds[2].streets[2][combo_index(*parse_cards("8h7h"))] == 0.0


def test_raiser_range_is_stronger_than_caller_and_prior() -> None:
    cfg = TableConfig.nolimit(2, stacks=10_000)
    hist = [(0, 0, Action.raise_to(300)), (1, 0, Action.raise_to(1000)), (0, 0, Action.call())]
    preds = predict(cfg, hist, (), [0, 1])
    table = pwin_table()
    mean = {s: float((preds[s].final * table).sum()) for s in (0, 1)}
    prior_mean = float((consistent([]) * table).sum())
    assert mean[1] > prior_mean and mean[0] > prior_mean


def test_update_falls_back_to_prior_when_everything_vanishes() -> None:
    prior = np.array([0.5, 0.5])
    assert update(prior, np.array([0.0, np.nan])).tolist() == [0.5, 0.5]


def test_consistent_rejects_impossible_knowledge() -> None:
    with pytest.raises(ValueError, match="no combo"):
        consistent(range(51))
