"""DeepStack's counterfactual value network for Leduc's second round.

Moravcik et al. (2017), "DeepStack: expert-level artificial intelligence in heads-up
no-limit poker", Science 356(6337) and its supplement: a network maps a public
state and both players' ranges to both players' counterfactual values, and an
outer layer makes the two players' values zero-sum.

Here the public state is the start of Leduc's second round. Input (19 numbers):
the board card one-hot (6), the pot divided by 10 (the largest pot the first round
can leave), and each player's range over the six private cards (6 + 6, each summing
to 1, the board card 0). Output: each player's pot-normalised counterfactual value
of each private card (2 x 6; :mod:`checkraise.nn.values_data` defines the units).

**Zero-sum correction.** With ranges ``r_0, r_1`` and exact values ``v_0, v_1`` the
counterfactual values satisfy ``r_0 . v_0 + r_1 . v_1 = 0``: both sides are
``sum_{h, o compatible} r_0(h) r_1(o) u(h, o)`` with the payoffs ``u`` of the two
players opposite. The network's raw outputs ``w`` break this by the error
``e = r_0 . w_0 + r_1 . w_1``; the correction subtracts the same constant from every
value of both players,

    v_p(h) = w_p(h) - e / (|r_0| + |r_1|),   |r_p| = sum_h r_p(h),

after which ``r_0 . v_0 + r_1 . v_1 = e - e (|r_0| + |r_1|) / (|r_0| + |r_1|) = 0``.
With ranges summing to 1 the shift is ``e / 2``, DeepStack's. Cards the board makes
impossible are then set to 0 (they carry no weight, so the sum stays 0). The loss is
the Huber loss of the corrected values, trained with Adam.

**Suit symmetry.** Swapping the two suits maps a situation to an equivalent one
with the values swapped alike, so the network only ever sees boards of the first
suit (:func:`canonical_suits` swaps the suits of the others, in training and in play,
and the values back): half the situations to learn, for free.

The trained network is saved with :func:`checkraise.nn.io.save_model` (kind
``"leduc-cfv"``); :class:`ValueFunction` evaluates it in numpy (no torch needed to
play), with the same correction.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise._numba import njit
from checkraise.errors import ConfigError
from checkraise.nn.io import ModelFileError, load_model, require_torch, save_model
from checkraise.nn.values_data import INPUT_SIZE, NUM_CARDS, OUTPUT_SIZE

__all__ = [
    "MODEL_KIND",
    "TrainResult",
    "TrainSettings",
    "ValueFunction",
    "build_network",
    "canonical_suits",
    "default_model",
    "ensemble",
    "fit_epochs",
    "prelu_mlp",
    "read_layers",
    "run_layers",
    "train",
    "zero_sum_correct",
]

FloatArray = npt.NDArray[np.float64]
MODEL_KIND = "leduc-cfv"
_RANGES = slice(NUM_CARDS + 1, INPUT_SIZE)


def zero_sum_correct(raw: FloatArray, inputs: FloatArray) -> FloatArray:
    """The zero-sum correction of raw outputs (n, 12) for inputs (n, 19), in numpy.

    Examples
    --------
    >>> from checkraise.nn.values_data import encode
    >>> r = np.array([[0, .5, .5, 0, 0, 0], [0, 0, 0, .5, .5, 0]])
    >>> x = encode(5, 6, r)[None, :]
    >>> v = zero_sum_correct(np.ones((1, 12)), x)
    >>> float((v.reshape(2, 6) * r).sum()), float(v[0, 5])
    (0.0, 0.0)
    """
    ranges = inputs[:, _RANGES]
    error = (ranges * raw).sum(axis=1, keepdims=True)
    mass = ranges.sum(axis=1, keepdims=True)
    shifted = raw - error / np.where(mass > 0.0, mass, 1.0)
    possible = 1.0 - np.tile(inputs[:, :NUM_CARDS], 2)
    corrected: FloatArray = shifted * possible
    return corrected


_SWAP = np.array([1, 0, 3, 2, 5, 4])


def canonical_suits(
    inputs: FloatArray, values: FloatArray | None = None
) -> tuple[FloatArray, FloatArray | None, npt.NDArray[np.bool_]]:
    """Inputs (and values) with the suits swapped where the board is of the second suit.

    Returns the new inputs, the new values (``None`` if none given) and which rows
    were swapped; applying it again to the results undoes it.

    Examples
    --------
    >>> from checkraise.nn.values_data import encode
    >>> x = encode(3, 2, np.array([[.5, .5, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]]))[None, :]
    >>> y, _, swapped = canonical_suits(x)
    >>> int(y[0, :6].argmax()), y[0, 7:].tolist(), bool(swapped[0])
    (2, [0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], True)
    """
    swapped = inputs[:, :NUM_CARDS].argmax(axis=1) % 2 == 1
    x = inputs.copy()
    for start in (0, NUM_CARDS + 1, 2 * NUM_CARDS + 1):
        block = x[swapped, start : start + NUM_CARDS]
        x[swapped, start : start + NUM_CARDS] = block[:, _SWAP]
    v = None
    if values is not None:
        v = values.copy()
        for start in (0, NUM_CARDS):
            block = v[swapped, start : start + NUM_CARDS]
            v[swapped, start : start + NUM_CARDS] = block[:, _SWAP]
    return x, v, swapped


def prelu_mlp(inputs: int, hidden: Sequence[int], outputs: int) -> Any:
    """``torch.nn.Sequential`` of linear layers of widths ``hidden`` with PReLU between
    them: the body of both value networks (:func:`read_layers` reads it back)."""
    torch = require_torch()
    layers: list[Any] = []
    width = inputs
    for size in hidden:
        layers += [torch.nn.Linear(width, size), torch.nn.PReLU(size)]
        width = size
    layers.append(torch.nn.Linear(width, outputs))
    return torch.nn.Sequential(*layers)


def fit_epochs(settings: TrainSettings, net: Any, training: npt.NDArray[np.int64],
               valid: npt.NDArray[np.int64], rng: np.random.Generator,
               loss_of: Callable[[Any], Any],
               progress: Callable[[int, int, float, float], None] | None = None,
               ) -> tuple[list[float], list[float]]:
    """Train ``net`` by Adam (step size halved every ``epochs // 4`` epochs) on batches of
    ``training`` drawn by ``rng``; the losses per epoch on the training part (mean over
    the examples) and on ``valid``. ``loss_of(indices)`` is a batch's loss, a tensor;
    ``progress(epoch, epochs, train_loss, valid_loss)`` is called after each epoch. Both
    value networks train this way."""
    torch = require_torch()
    optimiser = torch.optim.Adam(net.parameters(), lr=settings.learning_rate)
    scheduler = torch.optim.lr_scheduler.StepLR(optimiser, step_size=max(1, settings.epochs // 4),
                                                gamma=0.5)
    train_curve: list[float] = []
    valid_curve: list[float] = []
    vidx = torch.from_numpy(valid)
    for epoch in range(settings.epochs):
        net.train()
        batches = rng.permutation(training)
        total = 0.0
        for i in range(0, batches.size, settings.batch_size):
            idx = torch.from_numpy(batches[i : i + settings.batch_size])
            optimiser.zero_grad()
            loss = loss_of(idx)
            loss.backward()
            optimiser.step()
            total += loss.item() * int(idx.shape[0])
        scheduler.step()
        net.eval()
        with torch.no_grad():
            valid_loss = float(loss_of(vidx))
        train_curve.append(total / training.size)
        valid_curve.append(valid_loss)
        if progress is not None:
            progress(epoch + 1, settings.epochs, train_curve[-1], valid_loss)
    return train_curve, valid_curve


def build_network(hidden: Sequence[int]) -> Any:
    """The value network (a ``torch.nn.Module``): an MLP with PReLU, then the correction."""
    torch = require_torch()

    class ValueNetwork(torch.nn.Module):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.mlp = prelu_mlp(INPUT_SIZE, hidden, OUTPUT_SIZE)

        def forward(self, x: Any) -> Any:
            raw = self.mlp(x)
            ranges = x[:, _RANGES]
            error = (ranges * raw).sum(dim=1, keepdim=True)
            mass = ranges.sum(dim=1, keepdim=True).clamp_min(1e-12)
            possible = 1.0 - x[:, :NUM_CARDS].repeat(1, 2)
            return (raw - error / mass) * possible

    return ValueNetwork()


@dataclass(frozen=True)
class TrainSettings:
    """How a value network is trained.

    Parameters
    ----------
    hidden : tuple of int
        Hidden layer widths.
    epochs, batch_size : int
        Passes over the training part, examples per Adam step.
    learning_rate : float
        Adam's step size (halved every ``epochs // 4`` epochs).
    validation : float
        Share of the situations held out (a seeded permutation).
    seed : int
        Seeds the split, the initial weights and the batch order.
    threads : int
        torch's intra-op threads (1: small batches gain nothing from more, and the
        machine is shared).
    """

    hidden: tuple[int, ...] = (128, 128, 128)
    epochs: int = 60
    batch_size: int = 256
    learning_rate: float = 1e-3
    validation: float = 0.1
    seed: int = 0
    threads: int = 1

    def __post_init__(self) -> None:
        for name in ("epochs", "batch_size", "threads"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name}={value!r}; expected a whole number >= 1")
        if not self.hidden or any(int(h) < 1 for h in self.hidden):
            raise ConfigError(f"hidden={self.hidden!r}; expected widths >= 1")
        if not 0.0 < self.validation < 1.0:
            raise ConfigError(f"validation={self.validation!r}; expected a share in (0, 1)")
        if not self.learning_rate > 0.0:
            raise ConfigError(f"learning_rate={self.learning_rate!r}; expected > 0")

    def start(self, n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                     np.random.Generator]:
        """Seed torch and set its threads; ``(valid, training, rng)``: a seeded split of
        ``n`` examples (refused below 2) and the generator, which then draws the batches."""
        torch = require_torch()
        valid_size = max(1, round(n * self.validation))
        if n - valid_size < 1:
            raise ConfigError(f"{n} situations; expected at least 2 (one to train, one to "
                              "validate)")
        torch.set_num_threads(self.threads)
        torch.manual_seed(self.seed)
        rng = np.random.default_rng(self.seed)
        order = rng.permutation(n)
        return order[:valid_size], order[valid_size:], rng


@dataclass(frozen=True)
class TrainResult:
    """Losses per epoch (Huber, pot-normalised units) and the wall time."""

    train_loss: tuple[float, ...]
    valid_loss: tuple[float, ...]
    seconds: float
    train_size: int
    valid_size: int
    extra: dict[str, Any] = field(default_factory=dict)


def train(
    inputs: FloatArray,
    targets: FloatArray,
    settings: TrainSettings,
    out: str | Path,
    command: str = "",
    progress: Callable[[int, int, float, float], None] | None = None,
    data_info: dict[str, Any] | None = None,
) -> TrainResult:
    """Train a value network on ``(inputs, targets)`` and save it to ``out``.

    ``progress(epoch, epochs, train_loss, valid_loss)`` is called after each epoch.
    """
    torch = require_torch()
    valid, training, rng = settings.start(inputs.shape[0])
    valid_size = int(valid.size)
    inputs, canonical_targets, _ = canonical_suits(inputs, targets)
    assert canonical_targets is not None
    targets = canonical_targets
    x = torch.from_numpy(inputs.astype(np.float32))
    y = torch.from_numpy(targets.astype(np.float32))
    net = build_network(settings.hidden)
    loss_fn = torch.nn.HuberLoss(delta=1.0)
    start = time.perf_counter()
    train_curve, valid_curve = fit_epochs(settings, net, training, valid, rng,
                                          lambda idx: loss_fn(net(x[idx]), y[idx]), progress)
    seconds = time.perf_counter() - start
    result = TrainResult(tuple(train_curve), tuple(valid_curve), seconds, int(training.size),
                         valid_size)
    save_model(
        out, net.state_dict(),
        {"input": INPUT_SIZE, "hidden": list(settings.hidden), "output": OUTPUT_SIZE,
         "activation": "prelu", "zero_sum": True, "canonical_suits": True},
        kind=MODEL_KIND, command=command,
        extra={"training": {"epochs": settings.epochs, "batch_size": settings.batch_size,
                            "learning_rate": settings.learning_rate, "seed": settings.seed,
                            "train_size": result.train_size, "valid_size": valid_size,
                            "train_loss": train_curve[-1], "valid_loss": valid_curve[-1],
                            "seconds": seconds},
               "data": data_info or {}},
    )
    return result


def default_model() -> Path:
    """The packaged Leduc value network (``checkraise/data/leduc_values.npz``)."""
    from importlib.resources import files

    return Path(str(files("checkraise") / "data" / "leduc_values.npz"))


Layers = list[tuple[FloatArray, FloatArray, FloatArray | None]]


def _member(path: str | Path, arch: Any, arrays: dict[str, Any], prefix: str) -> Layers:
    """One network's layers (weight, bias, PReLU slopes) from its arrays."""
    hidden = arch.get("hidden") if isinstance(arch, dict) else None
    if (not isinstance(hidden, list) or arch.get("input") != INPUT_SIZE
            or arch.get("output") != OUTPUT_SIZE):
        raise ModelFileError(f"{path}: architecture {arch!r}; expected a Leduc value "
                             f"network with {INPUT_SIZE} inputs and {OUTPUT_SIZE} outputs")
    return read_layers(path, arch, arrays, len(hidden), prefix)


def read_layers(path: str | Path, arch: Any, arrays: dict[str, Any], hidden: int,
                prefix: str = "") -> Layers:
    """The float64 (weight, bias, PReLU slopes) of a saved :func:`prelu_mlp` with
    ``hidden`` hidden layers, its arrays named ``{prefix}mlp.{k}.*``."""
    layers: Layers = []
    try:
        for i in range(hidden + 1):
            w = arrays[f"{prefix}mlp.{2 * i}.weight"].astype(np.float64)
            b = arrays[f"{prefix}mlp.{2 * i}.bias"].astype(np.float64)
            slope = (arrays[f"{prefix}mlp.{2 * i + 1}.weight"].astype(np.float64)
                     if i < hidden else None)
            layers.append((w, b, slope))
    except KeyError as exc:
        raise ModelFileError(f"{path}: weight {exc} missing for {arch!r}") from None
    return layers


@njit
def _bias_prelu(h: np.ndarray, bias: np.ndarray, slope: np.ndarray, prelu: bool) -> None:
    """``h += bias``, then with ``prelu`` PReLU in place: ``slope * h`` where ``h <= 0``.
    One pass over ``h`` instead of numpy's three (a sum, a mask and a masked product);
    the same two operations per number, so the same bits."""
    rows, cols = h.shape
    for i in range(rows):
        for j in range(cols):
            v = h[i, j] + bias[j]
            if prelu and v <= 0.0:
                v = v * slope[j]
            h[i, j] = v


def run_layers(layers: Layers, x: FloatArray) -> FloatArray:
    """The raw outputs of :func:`read_layers`' layers on inputs ``x`` (numpy)."""
    h = np.asarray(x, dtype=np.float64)
    for w, b, slope in layers:
        h = np.ascontiguousarray(h @ w.T)
        _bias_prelu(h, b, b if slope is None else slope, slope is not None)
    return h


def ensemble(paths: Sequence[str | Path], out: str | Path, command: str = "") -> Path:
    """Write the networks of ``paths`` as one file whose values are their mean.

    The mean of zero-sum corrected values is zero-sum (the correction is linear and
    the ranges are the same), and averaging independently trained networks cancels
    part of their errors.
    """
    if len(paths) < 2:
        raise ConfigError(f"{len(paths)} model(s); an ensemble needs at least 2")
    state: dict[str, Any] = {}
    members: list[dict[str, Any]] = []
    for i, path in enumerate(paths):
        header, arrays = load_model(path, MODEL_KIND)
        arch = header.get("architecture", {})
        if "members" in arch:
            raise ConfigError(f"{path} is an ensemble already; give its members")
        _member(path, arch, arrays, "")
        state.update({f"m{i}.{name}": value for name, value in arrays.items()})
        members.append({"architecture": arch, "command": header.get("command", ""),
                        "training": header.get("training", {}), "data": header.get("data", {})})
    return save_model(out, state, {"input": INPUT_SIZE, "output": OUTPUT_SIZE,
                                   "members": [m["architecture"] for m in members]},
                      kind=MODEL_KIND, command=command, extra={"members": members})


class ValueFunction:
    """A saved value network (or an ensemble: their mean) evaluated in numpy (float64),
    with the zero-sum correction.

    Parameters
    ----------
    path : str or Path
        A file written by :func:`train` or :func:`ensemble` (kind ``"leduc-cfv"``).
    """

    def __init__(self, path: str | Path) -> None:
        header, arrays = load_model(path, MODEL_KIND)
        self.header = header
        arch = header.get("architecture", {})
        members = arch.get("members") if isinstance(arch, dict) else None
        parts = ([(a, f"m{i}.") for i, a in enumerate(members)] if isinstance(members, list)
                 else [(arch, "")])
        self.members: list[tuple[Layers, bool]] = [
            (_member(path, a, arrays, prefix), bool(a.get("canonical_suits", False)))
            for a, prefix in parts
        ]
        self.path = Path(path)

    def __call__(self, inputs: FloatArray) -> FloatArray:
        """Corrected values (n, 12) of inputs (n, 19)."""
        x = np.asarray(inputs, dtype=np.float64)
        total = np.zeros((x.shape[0], OUTPUT_SIZE))
        for layers, canonical in self.members:
            total += _forward(layers, canonical, x)
        mean: FloatArray = total / len(self.members)
        return mean


def _forward(layers: Layers, canonical: bool, inputs: FloatArray) -> FloatArray:
    x = inputs
    swapped = np.zeros(x.shape[0], dtype=np.bool_)
    if canonical:
        x, _, swapped = canonical_suits(x)
    values = zero_sum_correct(run_layers(layers, x), x)
    # Back to the caller's suits: the swap is its own inverse.
    for start in (0, NUM_CARDS):
        block = values[swapped, start : start + NUM_CARDS]
        values[swapped, start : start + NUM_CARDS] = block[:, _SWAP]
    return values
