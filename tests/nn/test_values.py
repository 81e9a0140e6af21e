"""The Leduc value network: exact zero-sum outputs, its data solved right, resumable."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from checkraise.errors import CheckraiseError, ConfigError
from checkraise.nn.io import ModelFileError, save_model
from checkraise.nn.values import (
    TrainSettings,
    ValueFunction,
    build_network,
    canonical_suits,
    ensemble,
    train,
    zero_sum_correct,
)
from checkraise.nn.values_data import (
    INPUT_SIZE,
    NUM_CARDS,
    OUTPUT_SIZE,
    DataSettings,
    encode,
    generate,
    load_data,
    random_range,
    solve_situation,
)


def _random_inputs(rng: np.random.Generator, n: int, normalised: bool) -> np.ndarray:
    rows = []
    for _ in range(n):
        board = int(rng.integers(NUM_CARDS))
        ranges = rng.random((2, NUM_CARDS)) * (np.arange(NUM_CARDS) != board)
        if normalised:
            ranges /= ranges.sum(axis=1, keepdims=True)
        rows.append(encode(board, float(rng.choice([2, 6, 10])), ranges))
    return np.array(rows)


def _weighted_sum(values: np.ndarray, inputs: np.ndarray) -> np.ndarray:
    ranges = inputs[:, NUM_CARDS + 1 :]
    return (values * ranges).sum(axis=1)


@pytest.mark.parametrize("normalised", [True, False])
def test_zero_sum_correction_is_exact_on_random_inputs(normalised: bool) -> None:
    rng = np.random.default_rng(3)
    inputs = _random_inputs(rng, 500, normalised)
    raw = rng.normal(scale=3.0, size=(500, OUTPUT_SIZE))
    assert np.abs(_weighted_sum(raw, inputs)).min() > 1e-3  # the raw values are not zero-sum
    corrected = zero_sum_correct(raw, inputs)
    assert np.abs(_weighted_sum(corrected, inputs)).max() < 1e-12
    # One shift for both players, the same for every card, except impossible cards -> 0.
    boards = inputs[:, :NUM_CARDS].argmax(axis=1)
    shift = raw - corrected
    for i in range(20):
        live = np.tile(np.arange(NUM_CARDS) != boards[i], 2)
        assert np.allclose(shift[i, live], shift[i, live][0])
        assert np.all(corrected[i, ~live] == 0.0)
    # DeepStack's e / 2 when the ranges sum to 1.
    if normalised:
        live_card = (boards + 1) % NUM_CARDS
        assert np.allclose(shift[np.arange(500), live_card], _weighted_sum(raw, inputs) / 2.0)


def test_the_network_and_its_numpy_twin_are_zero_sum(tmp_path: Path) -> None:
    torch.manual_seed(0)
    net = build_network((16, 16)).double()
    rng = np.random.default_rng(4)
    inputs = _random_inputs(rng, 200, True)
    with torch.no_grad():
        out = net(torch.from_numpy(inputs)).numpy()
    assert np.abs(_weighted_sum(out, inputs)).max() < 1e-12
    path = save_model(tmp_path / "v.npz", net.state_dict(),
                      {"input": INPUT_SIZE, "hidden": [16, 16], "output": OUTPUT_SIZE},
                      kind="leduc-cfv")
    twin = ValueFunction(path)(inputs)
    assert np.allclose(twin, out, atol=1e-12)
    assert np.abs(_weighted_sum(twin, inputs)).max() < 1e-12


def test_a_situation_with_known_cards_has_its_known_value() -> None:
    # Board Ks; player 0 holds Kh (trips), player 1 holds Js, and both know it: player
    # 1 never puts in another chip, so player 0 wins exactly player 1's ante + first
    # round: half the pot, +1/2 and -1/2 in pot units, whatever the pot.
    for pot in (2, 6, 10):
        ranges = np.zeros((2, NUM_CARDS))
        ranges[0, 5] = 1.0
        ranges[1, 0] = 1.0
        values = solve_situation(4, pot, ranges, 300)
        # Best-response values against a 300-iteration average: within 1e-3.
        assert values[0, 5] == pytest.approx(0.5, abs=1e-3)
        assert values[1, 0] == pytest.approx(-0.5, abs=1e-3)
        assert values[0, 4] == 0.0 and values[1, 4] == 0.0


def test_solved_targets_are_nearly_zero_sum() -> None:
    # Best-response values of a near-equilibrium: r0.v0 + r1.v1 is twice the solve's
    # exploitability in pot units, >= 0 and small.
    rng = np.random.default_rng(5)
    for _ in range(5):
        board = int(rng.integers(NUM_CARDS))
        ranges = np.stack([random_range(board, rng), random_range(board, rng)])
        values = solve_situation(board, 6, ranges, 1000)
        total = float((ranges * values).sum())
        assert -1e-9 <= total < 2e-3


def test_random_ranges_follow_the_recursive_split() -> None:
    rng = np.random.default_rng(6)
    draws = np.array([random_range(2, rng) for _ in range(4000)])
    assert np.all(draws[:, 2] == 0.0)
    assert np.allclose(draws.sum(axis=1), 1.0)
    # Five cards sorted by strength on Qs: Js Jh Ks Kh Qh. The weaker two share a
    # uniform fraction of the mass (mean 1/2); Qh, the strongest, gets the last share
    # of three nested splits (mean 1/8).
    assert draws[:, [0, 1]].sum(axis=1).mean() == pytest.approx(0.5, abs=0.02)
    assert draws[:, 3].mean() == pytest.approx(1 / 8, abs=0.01)


def _arrays(folder: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for path in sorted(folder.glob("chunk_*.npz")):
        with np.load(path) as z:
            out.append((z["inputs"], z["targets"]))
    return out


def test_generation_is_deterministic_and_resumes_after_a_kill(tmp_path: Path) -> None:
    settings = DataSettings(situations=7, iterations=50, seed=11, chunk_size=2)
    whole = tmp_path / "whole"
    generate(whole, settings)
    killed = tmp_path / "killed"
    generate(killed, settings, stop_after=2)
    assert len(list(killed.glob("chunk_*.npz"))) == 2
    assert not list(killed.glob("*.tmp"))
    generate(killed, settings)
    a, b = _arrays(whole), _arrays(killed)
    assert len(a) == len(b) == 4 and a[-1][0].shape == (1, INPUT_SIZE)
    for (xa, ya), (xb, yb) in zip(a, b, strict=True):
        assert np.array_equal(xa, xb) and np.array_equal(ya, yb)
    other = tmp_path / "other"
    generate(other, DataSettings(situations=7, iterations=50, seed=12, chunk_size=2))
    assert not np.array_equal(_arrays(other)[0][0], a[0][0])
    # Growing the folder keeps the chunks made so far and adds the same as a fresh run.
    generate(killed, DataSettings(situations=9, iterations=50, seed=11, chunk_size=2))
    grown = _arrays(killed)
    fresh = tmp_path / "fresh"
    generate(fresh, DataSettings(situations=9, iterations=50, seed=11, chunk_size=2))
    assert all(np.array_equal(g[0], f[0]) for g, f in zip(grown, _arrays(fresh), strict=True))
    x, y, found = load_data(killed)
    assert x.shape == (9, INPUT_SIZE) and y.shape == (9, OUTPUT_SIZE) and found.situations == 9


def test_bad_data_requests_are_refused(tmp_path: Path) -> None:
    generate(tmp_path / "d", DataSettings(situations=2, iterations=10, seed=0, chunk_size=2))
    with pytest.raises(ConfigError, match="iterations"):
        generate(tmp_path / "d", DataSettings(situations=2, iterations=20, seed=0, chunk_size=2))
    with pytest.raises(ConfigError, match="situations=0"):
        DataSettings(situations=0, iterations=10, seed=0)
    with pytest.raises(ConfigError, match="does not exist"):
        load_data(tmp_path / "missing")
    with pytest.raises(CheckraiseError, match="manifest"):
        load_data(tmp_path)


def test_training_learns_and_saves_a_loadable_model(tmp_path: Path) -> None:
    generate(tmp_path / "d", DataSettings(situations=60, iterations=100, seed=1, chunk_size=30))
    x, y, _ = load_data(tmp_path / "d")
    result = train(x, y, TrainSettings(hidden=(32,), epochs=20, batch_size=8, seed=2,
                                       learning_rate=3e-3), tmp_path / "m.npz")
    assert result.train_loss[-1] < 0.6 * result.train_loss[0]
    assert len(result.valid_loss) == 20 and result.valid_size == 6
    model = ValueFunction(tmp_path / "m.npz")
    assert model.header["kind"] == "leduc-cfv"
    assert np.abs(_weighted_sum(model(x), x)).max() < 1e-9
    save_model(tmp_path / "other.npz", {}, {}, kind="deep-cfr-policy")
    with pytest.raises(ModelFileError, match="leduc-cfv"):
        ValueFunction(tmp_path / "other.npz")


def test_a_suit_symmetric_network_is_suit_equivariant(tmp_path: Path) -> None:
    # With canonical suits, swapping the suits of a situation swaps its values alike.
    torch.manual_seed(1)
    net = build_network((8,)).double()
    path = save_model(tmp_path / "v.npz", net.state_dict(),
                      {"input": INPUT_SIZE, "hidden": [8], "output": OUTPUT_SIZE,
                       "canonical_suits": True}, kind="leduc-cfv")
    model = ValueFunction(path)
    inputs = _random_inputs(np.random.default_rng(7), 50, True)
    swap = np.array([1, 0, 3, 2, 5, 4])
    mirrored = inputs.copy()
    for start in (0, NUM_CARDS + 1, 2 * NUM_CARDS + 1):
        mirrored[:, start : start + NUM_CARDS] = inputs[:, start + swap]
    values, mirror_values = model(inputs), model(mirrored)
    assert np.allclose(mirror_values[:, np.concatenate([swap, swap + NUM_CARDS])], values,
                       atol=1e-12)
    assert np.abs(_weighted_sum(values, inputs)).max() < 1e-12
    x, y, swapped = canonical_suits(inputs, values)
    assert np.all(x[:, :NUM_CARDS].argmax(axis=1) % 2 == 0) and swapped.any()
    assert y is not None and np.array_equal(y[~swapped], values[~swapped])


def test_an_ensemble_is_the_mean_of_its_members(tmp_path: Path) -> None:
    paths = []
    for seed, hidden in ((0, [8]), (1, [4, 4])):
        torch.manual_seed(seed)
        net = build_network(tuple(hidden)).double()
        paths.append(save_model(tmp_path / f"n{seed}.npz", net.state_dict(),
                                {"input": INPUT_SIZE, "hidden": hidden, "output": OUTPUT_SIZE,
                                 "canonical_suits": seed == 1}, kind="leduc-cfv",
                                command=f"train {seed}"))
    both = ValueFunction(ensemble(paths, tmp_path / "both.npz"))
    inputs = _random_inputs(np.random.default_rng(9), 40, True)
    expected = (ValueFunction(paths[0])(inputs) + ValueFunction(paths[1])(inputs)) / 2.0
    assert np.allclose(both(inputs), expected, atol=1e-12)
    assert np.abs(_weighted_sum(both(inputs), inputs)).max() < 1e-12
    assert [m["command"] for m in both.header["members"]] == ["train 0", "train 1"]
    with pytest.raises(ConfigError, match="at least 2"):
        ensemble(paths[:1], tmp_path / "one.npz")
