"""The action history round-trips: decode_history(encoding) is the hand's actions, exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkraise.engine import Action, State, TableConfig
from checkraise.envs import ObservationLayout, decode_history
from checkraise.envs.config import history_bound
from checkraise.envs.encoding import HandRecorder
from checkraise.errors import FormatError
from tests.envs.helpers import field_slices


@st.composite
def played_hands(draw: st.DrawFn) -> tuple[HandRecorder, list[tuple[int, int, str, int]]]:
    """A hand of any legal actions (any raise size) and its history as written down here."""
    n = draw(st.integers(2, 10))
    bb = draw(st.sampled_from([2, 10, 100, 3]))
    stacks = draw(st.lists(st.integers(1, 60 * bb), min_size=n, max_size=n))
    config = TableConfig.nolimit(n, stacks, bb // 2, bb, draw(st.integers(0, bb // 2)),
                                 draw(st.sampled_from(["casino", "acpc"])))
    state = State(config, seed=draw(st.integers(0, 2**32)))
    bound = history_bound(config)
    recorder = HandRecorder(ObservationLayout(n, bound, bb), state, bound)
    expected: list[tuple[int, int, str, int]] = []
    while not state.is_terminal:
        seat, street = state.current_player, state.round
        assert seat is not None
        legal = state.legal_actions()
        kinds = ["call"] + ["fold"] * legal.can_fold + ["raise"] * legal.can_raise
        kind = draw(st.sampled_from(kinds))
        if kind == "raise":
            assert legal.min_raise_to is not None and legal.max_raise_to is not None
            amount = draw(st.integers(legal.min_raise_to, legal.max_raise_to))
            action = Action.raise_to(amount)
        elif kind == "call":
            amount, action = legal.call_amount, Action.call()
        else:
            amount, action = 0, Action.fold()
        recorder.step(action)
        expected.append((seat, street, kind, amount))
    return recorder, expected


@settings(max_examples=150, deadline=None)
@given(played_hands(), st.integers(0, 9))
def test_history_round_trips_in_every_form(
    hand: tuple[HandRecorder, list[tuple[int, int, str, int]]], viewer: int
) -> None:
    recorder, expected = hand
    layout = recorder.layout
    seat = viewer % layout.num_players
    vector = recorder.encode(seat)
    assert [tuple(e) for e in decode_history(vector)] == expected
    as_dict = layout.to_dict(vector)
    assert [tuple(e) for e in decode_history(as_dict)] == expected
    assert [tuple(e) for e in decode_history({"observation": vector, "action_mask": [1]})
            ] == expected
    assert np.array_equal(layout.to_vector(as_dict), vector)
    # The documented layout: the history field sits where docs/envs.md says.
    sl = field_slices(layout.num_players, layout.history_rows)
    assert vector[sl["history_length"]][0] == len(expected)
    assert vector.size == sl["history"].stop


def test_a_short_history_keeps_the_most_recent_actions() -> None:
    state = State(TableConfig.nolimit(3, stacks=1000), seed=4)
    recorder = HandRecorder(ObservationLayout(3, 2, 100), state, history_bound(state.config))
    # Seat 2 opens to 300, the small blind calls, the big blind raises to 900, seat 2
    # folds and the small blind calls 600 more.
    for text in ("r300", "c", "r900", "f", "c"):
        recorder.step(Action.parse(text))
    vector = recorder.encode(0)
    assert [tuple(e) for e in decode_history(vector)] == [(2, 0, "fold", 0), (0, 0, "call", 600)]
    assert vector[field_slices(3, 2)["history_length"]][0] == 5


def test_vectors_of_another_layout_are_refused() -> None:
    state = State(TableConfig.nolimit(2, stacks=1000), seed=4)
    vector = HandRecorder(ObservationLayout(2, 36, 100), state, 36).encode(0)
    with pytest.raises(FormatError,
                       match=r"vector of 663 numbers, but its layout \[2, 100, 36\] needs 664"):
        decode_history(vector[:-1])
    with pytest.raises(FormatError, match=r"observation layout \[12.0, 100.0, 36.0\]"):
        decode_history(np.concatenate([[12.0], vector[1:]]))
    with pytest.raises(FormatError, match="without the fields"):
        decode_history({"cards": vector[3:211]})


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 10), st.lists(st.integers(1, 3000), min_size=10, max_size=10),
       st.sampled_from(["casino", "acpc"]), st.integers(0, 2**32), st.floats(0.0, 0.3),
       st.floats(0.0, 0.9))
def test_no_hand_outgrows_the_history_bound(n: int, stacks: list[int], rules: str, seed: int,
                                            shove: float, call: float) -> None:
    """Raising wars, the longest hands there are: seats min-raise while they can, or call
    (so that most seats act between two raises), now and then all-in (which makes the
    short all-ins the bound counts)."""
    config = TableConfig.nolimit(n, stacks[:n], 5, 10, 0, rules)
    state = State(config, seed=seed)
    rng = np.random.default_rng(seed)
    count = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        if (legal.min_raise_to is not None and legal.max_raise_to is not None
                and rng.random() >= call):
            amount = legal.max_raise_to if rng.random() < shove else legal.min_raise_to
            state.step(Action.raise_to(amount))
        else:
            state.step(Action.call())
        count += 1
    assert count <= history_bound(config)
