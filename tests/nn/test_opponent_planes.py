"""The opponent model's planes round-trip to the hand: cards, actions (class, chips), scalars."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkraise.agents.baselines import MinRaiseAgent, RandomAgent
from checkraise.engine import Action, ActionKind, State, TableConfig
from checkraise.nn.action_classes import action_class
from checkraise.nn.opponent_planes import (
    PLANES,
    SLOTS,
    PlaneError,
    action_table,
    decode,
    encode,
    encode_batch,
    encode_many,
    encode_parts,
    scalars_of,
)

CFG = TableConfig.nolimit(2, 20000, 50, 100)


def _play(seed: int, stop: int) -> tuple[State, list[tuple[int, int, int, int]]]:
    """A hand of two random bots up to decision ``stop`` (or its end), and the truth.

    The truth is (round, seat, class, chips put in) of every action, read off the real
    state as it is played (not replayed as the encoder does).
    """
    rng = np.random.default_rng(seed)
    bots = [RandomAgent(seed=seed, pfold=0.05, pcall=0.5, praise=0.45),
            RandomAgent(seed=seed + 1, pfold=0.1, pcall=0.6, praise=0.3)]
    state = State(CFG, deck=[int(c) for c in rng.permutation(52)])
    truth: list[tuple[int, int, int, int]] = []
    while not state.is_terminal and len(truth) < stop:
        seat = state.current_player
        assert seat is not None
        obs = state.observation(seat)
        action = bots[seat].act(obs)
        before = state.contributions[seat]
        rnd = state.round
        cls = action_class(obs, action)
        state.step(action)
        truth.append((rnd, seat, cls, state.contributions[seat] - before))
    return state, truth


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), stop=st.integers(0, 30))
def test_planes_round_trip_to_the_hand(seed: int, stop: int) -> None:
    state, truth = _play(seed, stop)
    if state.is_terminal:
        return  # the hand ended before decision `stop`: nothing to encode there
    seat = state.current_player
    assert seat is not None
    obs = state.observation(seat)
    d = decode(encode(obs, obs.hole_cards), CFG.stacks[seat])
    assert d.hole == tuple(sorted(obs.hole_cards))
    board = obs.board
    assert d.board == tuple(sorted(board[:3]) + sorted(board[3:4]) + sorted(board[4:5]))
    want = [(r, s == seat, c, chips) for r, s, c, chips in truth]
    kept = [a for rnd in range(4) for a in [w for w in want if w[0] == rnd][-SLOTS:]]
    assert list(d.actions) == kept
    pot = sum(state.contributions)
    to_call = obs.legal.call_amount if obs.legal else 0
    assert d.scalars == pytest.approx((
        pot / 40000, obs.stacks[seat] / 20000, obs.stacks[1 - seat] / 20000,
        to_call / (pot + to_call), 1.0 if seat == 0 else 0.0), abs=1e-6)


def test_long_streets_keep_their_last_twenty_actions() -> None:
    # Two min-raisers: 100 chips a raise, about 200 raises before the flop.
    bots = [MinRaiseAgent(), MinRaiseAgent()]
    state = State(CFG, deck=list(range(52)))
    for _ in range(45):
        seat = state.current_player
        assert seat is not None
        state.step(bots[seat].act(state.observation(seat)))
    seat = state.current_player
    assert seat is not None
    obs = state.observation(seat)
    d = decode(encode(obs, obs.hole_cards), 20000)
    assert len(d.actions) == SLOTS
    # action i (0-based) raised to 200 + 100 i, putting in 200 + 100 i - (100 + 100 (i - 1))
    # = 200 chips (the first raise, from the small blind of 50: 150)
    assert all(a[3] == 200 and a[2] == 2 for a in d.actions)
    assert [a[1] for a in d.actions] == [(45 - SLOTS + i) % 2 == seat for i in range(SLOTS)]


def test_encode_many_puts_each_hand_in_the_hole_plane_only() -> None:
    state, _ = _play(5, 3)
    seat = state.current_player
    assert seat is not None
    obs = state.observation(seat)
    holes = np.array([[0, 1], [50, 51], [12, 30]])
    many = encode_many(obs, holes)
    assert many.shape == (3, PLANES, 20, 20)
    for row, hole in zip(many, holes, strict=True):
        assert np.array_equal(row[1:], many[0][1:])
        assert decode(row, 20000).hole == tuple(hole)


def test_batch_encoder_equals_the_one_by_one_encoder() -> None:
    parts = []
    for seed in range(30):
        state, _ = _play(seed, seed % 12)
        if state.is_terminal:
            continue
        seat = state.current_player
        assert seat is not None
        obs = state.observation(seat)
        parts.append((obs.hole_cards, tuple(obs.board) + (255,) * (5 - len(obs.board)),
                      action_table(obs), seat, scalars_of(obs)))
    one = np.stack([encode_parts(h, b, a, s, 20000, sc) for h, b, a, s, sc in parts])
    rows = np.concatenate([p[2] for p in parts])
    owner = np.repeat(np.arange(len(parts)), [len(p[2]) for p in parts])
    many = encode_batch(np.array([p[0] for p in parts]), np.array([p[1] for p in parts]), rows,
                        owner, np.array([p[3] for p in parts]), np.full(len(parts), 20000),
                        np.array([p[4] for p in parts]))
    assert np.array_equal(one, many)


def test_bad_input_is_named() -> None:
    state = State(CFG, deck=list(range(52)))
    obs = state.observation(0)
    with pytest.raises(PlaneError, match=r"hole cards \[\[52, 1\]\]"):
        encode(obs, (52, 1))
    with pytest.raises(PlaneError, match=r"expected \(k, 2\)"):
        encode_many(obs, np.zeros((3, 3), int))
    with pytest.raises(PlaneError, match="not to act"):
        encode(state.observation(1), (0, 1))
    state.step(Action(ActionKind.CHECK_CALL))
    with pytest.raises(PlaneError, match="planes of shape"):
        decode(np.zeros((3, 20, 20), np.float32), 20000)
