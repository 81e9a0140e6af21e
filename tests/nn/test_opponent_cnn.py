"""The CNN opponent model: distributions over available classes only, files, resumed training."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from checkraise.agents.baselines import RandomAgent
from checkraise.engine import Action, State, TableConfig
from checkraise.errors import ConfigError
from checkraise.nn.action_classes import representative
from checkraise.nn.opponent_cnn import (
    CnnConfig,
    CnnOpponentModel,
    TrainConfig,
    build_network,
    train,
)
from checkraise.nn.opponent_planes import PLANES

torch = pytest.importorskip("torch")
CFG = TableConfig.nolimit(2, 20000, 50, 100)
HOLES = np.array([[48, 49], [0, 5], [20, 33]])


def _tiny(seed: int = 0) -> CnnOpponentModel:
    torch.manual_seed(seed)
    return CnnOpponentModel(build_network(CnnConfig(4, 4, 0.0)), CnnConfig(4, 4, 0.0))


def _observations(n: int) -> list:
    """Decision points of random hands, facing all-ins included."""
    out = []
    for seed in range(n):
        bots = [RandomAgent(seed=seed), RandomAgent(seed=seed + 100)]
        state = State(CFG, seed=seed)
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            obs = state.observation(seat)
            out.append(obs)
            state.step(bots[seat].act(obs))
    return out


def _check_legal_only(model: CnnOpponentModel) -> None:
    for obs in _observations(5):
        p = model.predict(obs, HOLES)
        assert p.shape == (3, 6) and p.dtype == np.float64
        avail = np.array([representative(obs, k) is not None for k in range(6)])
        assert np.all(p[:, ~avail] == 0.0)
        assert np.all(p[:, avail] > 0.0)
        assert np.allclose(p.sum(axis=1), 1.0)


def test_predictions_cover_the_available_classes_only() -> None:
    _check_legal_only(_tiny())
    # facing an all-in: fold or call, nothing else
    s = State(CFG, deck=list(range(52)))
    s.step(Action.raise_to(20000))
    p = _tiny().predict(s.observation(1), HOLES)
    assert np.all(p[:, 2:] == 0) and np.allclose(p[:, :2].sum(axis=1), 1)


def test_saved_network_predicts_the_same(tmp_path: Path) -> None:
    model = _tiny(3)
    model.save(tmp_path / "m.npz", command="test")
    back = CnnOpponentModel.load(tmp_path / "m.npz")
    obs = _observations(1)[0]
    assert back.cfg == model.cfg
    assert np.array_equal(back.predict(obs, HOLES), model.predict(obs, HOLES))


class _Toy:
    """Random planes whose class is readable from one cell (a learnable toy)."""

    def __init__(self, n: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.x = rng.random((n, PLANES, 20, 20), dtype=np.float32)
        self.label = (self.x[:, 0, 10, 10] * 3).astype(np.int8)
        self.avail = np.ones((n, 6), bool)

    def __len__(self) -> int:
        return len(self.label)

    def planes(self, idx: np.ndarray) -> np.ndarray:
        return self.x[np.asarray(idx)]

    def available(self, idx: np.ndarray) -> np.ndarray:
        return self.avail[np.asarray(idx)]


def test_training_resumes_to_the_uninterrupted_network(tmp_path: Path) -> None:
    data, held = _Toy(96, 1), _Toy(32, 2)
    cfg = CnnConfig(4, 4, 0.2)
    whole, res = train(data, held, tmp_path / "a.npz", cfg, TrainConfig(epochs=2, batch_size=32))
    assert len(res.train_loss) == 2 and (tmp_path / "a.png").exists()
    train(data, held, tmp_path / "b.npz", cfg, TrainConfig(epochs=1, batch_size=32))
    resumed, res_b = train(data, held, tmp_path / "b.npz", cfg,
                           TrainConfig(epochs=2, batch_size=32))
    assert res_b.train_loss == res.train_loss
    for (k, v), w in zip(whole.net.state_dict().items(), resumed.net.state_dict().values(),
                         strict=True):
        assert torch.equal(v, w), k
    with pytest.raises(ConfigError, match="other settings"):
        train(data, held, tmp_path / "b.npz", cfg, TrainConfig(epochs=3, batch_size=16))



def test_shipped_network_loads_and_predicts_legal_distributions() -> None:
    model = CnnOpponentModel.load()
    assert "checkraise nn opponent train" in model.header["command"]
    assert "checkraise nn opponent generate" in model.header["data_command"]
    _check_legal_only(model)
