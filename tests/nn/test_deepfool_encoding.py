"""DeepFool's encoding on hand-built observations: cards, the ordered history, mask, scalars."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.engine import Action, State, TableConfig
from checkraise.errors import CheckraiseError
from checkraise.nn.action_classes import FOLD, MEDIUM, representative
from checkraise.nn.deepfool_encoding import (
    ACTION_FEATURES,
    HISTORY_LEN,
    MAX_SEATS,
    RANK_PAD,
    SUIT_PAD,
    encode,
    legal_mask,
    stack_encoded,
)

_CLASS0 = 1 + MAX_SEATS + 4  # first class column of a history row


def _three_handed() -> State:
    # blinds 10/20, stacks 1,000; the button (seat 2) raises to 60, the small blind folds;
    # the big blind (seat 1) holds 2c 3d and faces 40 more with 90 in the pot.
    s = State(TableConfig.nolimit(3, 1000, 10, 20),
              hole_cards=[(48, 51), (0, 5), (20, 21)], board=(12, 17, 30, 40, 44))
    s.step(Action.raise_to(60))
    s.step(Action.fold())
    return s


def test_cards_history_mask_and_scalars_by_hand() -> None:
    s = _three_handed()
    obs = s.observation(1)
    e = encode(obs)
    assert e.ranks.tolist() == [0, 1] + [RANK_PAD] * 5
    assert e.suits.tolist() == [0, 1] + [SUIT_PAD] * 5
    assert e.history.shape == (HISTORY_LEN, ACTION_FEATURES)
    raise_row, fold_row = e.history[0], e.history[1]
    # the raise: seat 2 is one seat after the observer; 40 above the call of 20 into a
    # pot of 50 after calling = 0.8 of it, a medium raise; 60 chips put into a pot of 30
    assert raise_row[0] == 1 and np.flatnonzero(raise_row[1:1 + MAX_SEATS]).tolist() == [1]
    assert raise_row[1 + MAX_SEATS] == 1  # preflop
    assert np.flatnonzero(raise_row[_CLASS0:_CLASS0 + 6]).tolist() == [MEDIUM]
    assert raise_row[-1] == pytest.approx(2.0)
    # the fold: seat 0 is two seats after the observer, puts nothing in
    assert np.flatnonzero(fold_row[1:1 + MAX_SEATS]).tolist() == [2]
    assert np.flatnonzero(fold_row[_CLASS0:_CLASS0 + 6]).tolist() == [FOLD]
    assert fold_row[-1] == 0.0
    assert not e.history[2:].any()
    assert e.mask.tolist() == [True] * 6
    assert e.scalars[0] == pytest.approx(90 / 2000)
    assert e.scalars[1] == pytest.approx(40 / 130)
    assert e.scalars[2] == pytest.approx(obs.stacks[1] / 2000) and obs.stacks[1] == 980
    assert e.scalars[3] == pytest.approx(2 / 3)
    assert e.scalars[8:].tolist() == [1, 0, 0, 0]


def test_board_cards_and_streets() -> None:
    s = _three_handed()
    s.step(Action.call())  # the flop: 5c 6d 9h
    e = encode(s.observation(s.current_player))
    assert e.ranks[2:5].tolist() == [3, 4, 7] and e.ranks[5:].tolist() == [RANK_PAD] * 2
    assert e.suits[2:5].tolist() == [0, 1, 2]
    assert e.scalars[8:].tolist() == [0, 1, 0, 0]
    # nothing to call on the flop: folding for free is not offered
    assert not e.mask[FOLD] and e.mask[1]


def test_mask_is_the_classes_with_a_representative() -> None:
    rng = np.random.default_rng(5)
    seen = 0
    for hand in range(30):
        s = State(TableConfig.nolimit(6, int(rng.integers(100, 3000)), 20, 40), seed=hand)
        while not s.is_terminal:
            obs = s.observation(s.current_player)
            m = legal_mask(obs)
            for k in range(6):
                has = representative(obs, k) is not None and not (k == FOLD and obs.to_call == 0)
                assert m[k] == has
            k = int(rng.choice(np.flatnonzero(m)))
            action = representative(obs, k)
            assert action is not None
            s.step(action)
            seen += 1
    assert seen > 100


def test_long_histories_keep_the_most_recent_actions() -> None:
    s = State(TableConfig.nolimit(2, 100_000, 1, 2), seed=1)
    amount = 2
    for _ in range(HISTORY_LEN + 5):
        amount *= 2
        s.step(Action.raise_to(amount)) if amount < 90_000 else s.step(Action.call())
        if s.is_terminal or s.round > 0:
            break
    e = encode(s.observation(s.current_player))
    assert e.history[:, 0].sum() == min(len(s.observation(0).history), HISTORY_LEN)


def test_not_to_act_and_empty_batch() -> None:
    s = _three_handed()
    with pytest.raises(CheckraiseError, match="not to act"):
        encode(s.observation(0))
    assert len(stack_encoded([])) == 0
