"""The CNN opponent model: the next action class of the seat to act, from its decision's planes.

After the expert no-limit bot's opponent model (a convolutional network over cards
and betting drawn as 20 x 20 planes, :mod:`checkraise.nn.opponent_planes`): two 5 x 5
convolutions (ReLU, each followed by 2 x 2 max pooling: 20 -> 10 -> 5), dropout, and
one linear layer to the six classes of :data:`~checkraise.nn.action_classes.ACTION_CLASSES`.
Classes unavailable at the decision (those whose
:func:`~checkraise.nn.action_classes.representative` is ``None``) get logit -inf before
the softmax, in training and in prediction, so the network never spends mass on them.

:func:`train` fits it by Adam on cross-entropy, with a seed, one checkpoint per epoch
(resumed bit for bit: each epoch's shuffle and dropout draw from ``(seed, epoch)``),
and loss curves (train and held-out) as a PNG. :class:`CnnOpponentModel` is what the
expert bot uses; ``CnnOpponentModel.load()`` reads the network shipped as
``checkraise/data/opponent_cnn.npz`` (learned from six other bots), and
``CnnOpponentModel.load("expert")`` the one learned from ``expert:cnn=false``'s own hands
(``checkraise/data/opponent_cnn_expert.npz``; :data:`SHIPPED_FILES`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from checkraise.engine.observation import Observation
from checkraise.errors import ConfigError
from checkraise.nn.action_classes import ACTION_CLASSES, representative
from checkraise.nn.io import ModelFileError, load_into, load_model, require_torch, save_model
from checkraise.nn.opponent_planes import PLANES, SIZE, encode_many

__all__ = [
    "DEFAULT_FILE", "KIND", "SHIPPED_FILES", "CnnConfig", "CnnOpponentModel", "PlaneSource",
    "TrainConfig", "TrainResult", "available_mask", "build_network", "masked_log_softmax", "train",
]

KIND = "opponent-cnn"
DEFAULT_FILE = "opponent_cnn.npz"
SHIPPED_FILES = {"expert": "opponent_cnn_expert.npz"}
"""Networks shipped beside the default, by the name ``load`` takes for them: ``expert``,
learned from 57,043 decisions of ``expert:cnn=false`` (README, the expert bot)."""
NUM_CLASSES = len(ACTION_CLASSES)


@dataclass(frozen=True)
class CnnConfig:
    """The architecture (stored in the model file's header)."""

    channels1: int = 16
    channels2: int = 32
    dropout: float = 0.3

    def __post_init__(self) -> None:
        if self.channels1 < 1 or self.channels2 < 1 or not 0.0 <= self.dropout < 1.0:
            raise ConfigError(f"architecture {self}: expected positive channel counts and "
                              "dropout in [0, 1)")


@dataclass(frozen=True)
class TrainConfig:
    """How :func:`train` runs."""

    epochs: int = 3
    batch_size: int = 256
    lr: float = 2e-3
    seed: int = 1
    max_train: int | None = None
    max_held: int | None = 20000

    def __post_init__(self) -> None:
        if self.epochs < 1 or self.batch_size < 1 or self.lr <= 0:
            raise ConfigError(f"training settings {self}: expected positive epochs, batch size "
                              "and learning rate")


class PlaneSource(Protocol):
    """Decisions a network trains on (:class:`checkraise.analysis.opponent_data.DecisionSet`)."""

    label: npt.NDArray[np.int8]

    def __len__(self) -> int: ...

    def planes(self, idx: Sequence[int] | npt.NDArray[np.int64]) -> npt.NDArray[np.float32]: ...

    def available(self, idx: Sequence[int] | npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]: ...


def build_network(cfg: CnnConfig) -> Any:
    """The ``torch.nn.Module`` for ``cfg``: conv-pool-conv-pool-dropout-linear (logits)."""
    torch = require_torch()
    nn = torch.nn
    flat = cfg.channels2 * (SIZE // 4) * (SIZE // 4)
    return nn.Sequential(
        nn.Conv2d(PLANES, cfg.channels1, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(cfg.channels1, cfg.channels2, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(cfg.dropout), nn.Linear(flat, NUM_CLASSES),
    )


def masked_log_softmax(logits: Any, available: Any) -> Any:
    """Log-probabilities over the available classes only (-inf elsewhere)."""
    torch = require_torch()
    return torch.log_softmax(logits.masked_fill(~available, float("-inf")), dim=1)


def available_mask(obs: Observation) -> npt.NDArray[np.bool_]:
    """Which of the six classes have a legal representative at ``obs``."""
    return np.array([representative(obs, k) is not None for k in range(NUM_CLASSES)])


class CnnOpponentModel:
    """The trained network behind the opponent-model protocol of the expert bot.

    Examples
    --------
    >>> from checkraise.engine import State, TableConfig
    >>> s = State(TableConfig.nolimit(2, 20000, 50, 100), seed=3)
    >>> obs = s.observation(s.current_player)
    >>> p = CnnOpponentModel.load().predict(obs, np.array([[48, 49], [0, 5]]))
    >>> p.shape, bool(np.allclose(p.sum(axis=1), 1.0)), float(p[:, 0].min()) > 0
    ((2, 6), True, True)
    """

    def __init__(self, net: Any, cfg: CnnConfig, header: dict[str, Any] | None = None) -> None:
        self.net = net
        self.cfg = cfg
        self.header = header or {}
        net.eval()

    @classmethod
    def load(cls, path: str | Path | None = None) -> CnnOpponentModel:
        """The model in ``path``, the shipped one for ``None``, or a shipped one by its
        name in :data:`SHIPPED_FILES`."""
        name = DEFAULT_FILE if path is None else SHIPPED_FILES.get(str(path))
        p = Path(str(resources.files("checkraise.data").joinpath(name))) \
            if name is not None else Path(str(path))
        if not p.is_file():
            raise ModelFileError(f"opponent model {str(p)!r} does not exist; expected a file "
                                 "written by 'checkraise nn opponent train'")
        header, arrays = load_model(p, kind=KIND)
        cfg = CnnConfig(**header["architecture"])
        net = build_network(cfg)
        load_into(net, arrays, p)
        return cls(net, cfg, header)

    def save(self, path: str | Path, command: str = "",
             extra: dict[str, Any] | None = None) -> Path:
        """Write the network (architecture in the header)."""
        return save_model(path, self.net.state_dict(), asdict(self.cfg), kind=KIND,
                          command=command, extra=extra)

    def predict_planes(self, planes: npt.NDArray[np.float32],
                       available: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
        """Class probabilities ``(k, 6)`` for planes ``(k, C, 20, 20)`` and masks ``(k, 6)``."""
        torch = require_torch()
        with torch.no_grad():
            logp = masked_log_softmax(self.net(torch.from_numpy(np.ascontiguousarray(planes))),
                                      torch.from_numpy(np.ascontiguousarray(available)))
        probs: npt.NDArray[np.float64] = logp.exp().double().numpy()
        probs[~available] = 0.0
        out: npt.NDArray[np.float64] = probs / probs.sum(axis=1, keepdims=True)
        return out

    def predict(self, obs: Observation, holes: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """For each hypothesised hand (rows of ``holes``), the six class probabilities.

        Classes with no legal representative at ``obs`` get 0; rows sum to 1.
        """
        planes = encode_many(obs, holes)
        mask = np.repeat(available_mask(obs)[None], len(planes), axis=0)
        return self.predict_planes(planes, mask)


@dataclass(frozen=True)
class TrainResult:
    """Figures of a training run, per epoch."""

    train_loss: tuple[float, ...]
    held_loss: tuple[float, ...]
    held_accuracy: tuple[float, ...]
    seconds: float


def _batches(n: int, size: int, rng: np.random.Generator | None) -> list[npt.NDArray[np.int64]]:
    order = rng.permutation(n) if rng is not None else np.arange(n)
    return [order[i:i + size] for i in range(0, n, size)]


def _evaluate(net: Any, data: PlaneSource, idx: npt.NDArray[np.int64],
              batch: int) -> tuple[float, float]:
    torch = require_torch()
    net.eval()
    loss = 0.0
    right = 0
    with torch.no_grad():
        for b in [idx[i:i + batch] for i in range(0, len(idx), batch)]:
            logp = masked_log_softmax(net(torch.from_numpy(data.planes(b))),
                                      torch.from_numpy(data.available(b)))
            y = torch.from_numpy(data.label[b].astype(np.int64))
            loss += float(-logp.gather(1, y[:, None]).sum())
            right += int((logp.argmax(1) == y).sum())
    return loss / max(len(idx), 1), right / max(len(idx), 1)


def _ckpt_state(net: Any, opt: Any) -> dict[str, Any]:
    state = {f"net.{k}": v for k, v in net.state_dict().items()}
    for i, p in enumerate(net.parameters()):
        st = opt.state.get(p, {})
        for key in ("exp_avg", "exp_avg_sq", "step"):
            if key in st:
                state[f"opt.{i}.{key}"] = st[key].detach().cpu().numpy().reshape(
                    st[key].shape)
    return state


def _restore(net: Any, opt: Any, arrays: dict[str, npt.NDArray[Any]], path: Path) -> None:
    torch = require_torch()
    load_into(net, {k[4:]: v for k, v in arrays.items() if k.startswith("net.")}, path)
    for i, p in enumerate(net.parameters()):
        keys = {key: arrays.get(f"opt.{i}.{key}") for key in ("exp_avg", "exp_avg_sq", "step")}
        if all(v is not None for v in keys.values()):
            opt.state[p] = {k: torch.from_numpy(np.array(v)) for k, v in keys.items()}


def train(
    data: PlaneSource,
    held: PlaneSource,
    out: str | Path,
    cfg: CnnConfig = CnnConfig(),
    tcfg: TrainConfig = TrainConfig(),
    *,
    command: str = "",
    extra: dict[str, Any] | None = None,
    progress: Callable[[int, int, float], None] | None = None,
) -> tuple[CnnOpponentModel, TrainResult]:
    """Train a network on ``data``, scoring ``held`` after each epoch; write ``out`` and its PNG.

    A checkpoint ``<out stem>.ckpt.npz`` is written after every epoch; a later call
    with the same settings (the number of epochs aside) resumes from it and gives the
    same network as an uninterrupted run. ``progress(batch, batches, loss)`` is called
    after each training batch.
    """
    torch = require_torch()
    out_p = Path(out)
    ckpt = out_p.with_name(out_p.stem + ".ckpt.npz")
    torch.manual_seed(tcfg.seed)
    net = build_network(cfg)
    opt = torch.optim.Adam(net.parameters(), lr=tcfg.lr)
    n = len(data) if tcfg.max_train is None else min(len(data), tcfg.max_train)
    sub = np.random.default_rng([tcfg.seed, 1 << 20])
    train_idx = np.sort(sub.choice(len(data), size=n, replace=False)) \
        if n < len(data) else np.arange(len(data))
    nh = len(held) if tcfg.max_held is None else min(len(held), tcfg.max_held)
    held_idx = np.sort(sub.choice(len(held), size=nh, replace=False)) \
        if nh < len(held) else np.arange(len(held))
    # the epoch count is left out: a finished run may be extended by asking for more
    training = {k: v for k, v in asdict(tcfg).items() if k != "epochs"}
    settings = {"architecture": asdict(cfg), "training": training, "train_size": n,
                "held_size": nh}
    curves: dict[str, list[float]] = {"train_loss": [], "held_loss": [], "held_accuracy": []}
    start_epoch = 0
    spent = 0.0
    if ckpt.exists():
        header, arrays = load_model(ckpt, kind=KIND + "-checkpoint")
        if header.get("settings") != json.loads(json.dumps(settings)):
            raise ConfigError(f"{ckpt} is a checkpoint of other settings; expected the same "
                              "settings to resume, or delete it")
        _restore(net, opt, arrays, ckpt)
        curves = header["curves"]
        start_epoch = int(header["epoch"])
        spent = float(header["seconds"])
    t0 = time.perf_counter()
    for epoch in range(start_epoch, tcfg.epochs):
        torch.manual_seed(tcfg.seed * 1000 + epoch)
        net.train()
        total = 0.0
        batches = _batches(n, tcfg.batch_size, np.random.default_rng([tcfg.seed, epoch]))
        for bi, b in enumerate(batches):
            ids = train_idx[b]
            x = torch.from_numpy(data.planes(ids))
            mask = torch.from_numpy(data.available(ids))
            y = torch.from_numpy(data.label[ids].astype(np.int64))
            logp = masked_log_softmax(net(x), mask)
            loss = -logp.gather(1, y[:, None]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            value = loss.item()
            total += value * len(ids)
            if progress is not None:
                progress(bi + 1, len(batches), value)
        hl, ha = _evaluate(net, held, held_idx, 1024)
        curves["train_loss"].append(total / max(n, 1))
        curves["held_loss"].append(hl)
        curves["held_accuracy"].append(ha)
        elapsed = spent + time.perf_counter() - t0
        save_model(ckpt, _ckpt_state(net, opt), asdict(cfg), kind=KIND + "-checkpoint",
                   extra={"settings": settings, "curves": curves, "epoch": epoch + 1,
                          "seconds": elapsed})
    seconds = spent + time.perf_counter() - t0
    net.eval()
    model = CnnOpponentModel(net, cfg)
    info = {"settings": settings, "curves": curves, "train_seconds": round(seconds, 1),
            **(extra or {})}
    model.save(out_p, command=command, extra=info)
    model.header = load_model(out_p, kind=KIND)[0]
    _plot(curves, out_p.with_suffix(".png"))
    result = TrainResult(tuple(curves["train_loss"]), tuple(curves["held_loss"]),
                         tuple(curves["held_accuracy"]), seconds)
    return model, result


def _plot(curves: dict[str, list[float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(5, 3.2))
    epochs = np.arange(1, len(curves["train_loss"]) + 1)
    ax.plot(epochs, curves["train_loss"], "o-", label="train")
    ax.plot(epochs, curves["held_loss"], "s-", label="held-out (unseen bots)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("epoch")
    ax.set_ylabel("log-loss (nats)")
    ax.set_title("CNN opponent model")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
