"""Deep CFR's networks, regret matching on their outputs, and their training step.

The network is the one OpenSpiel's PyTorch Deep CFR uses, so the two compare at equal
size: hidden ``Linear`` + ReLU layers, a ``LayerNorm``, a final ``Linear``. The
advantage network's outputs are read only on legal actions; the policy network's
outputs go through a softmax over the legal actions only, so an illegal action gets
probability exactly zero.

Training follows Brown et al. (2019): each step draws a batch without replacement
from the reservoir and minimises the mean squared error weighted by each sample's
iteration ``t`` (linear CFR), over the legal actions of each sample.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from checkraise.nn.reservoir import Reservoir

__all__ = ["MLP", "masked_softmax", "regret_matching", "train_network", "weighted_loss"]

F64 = npt.NDArray[np.float64]


class MLP(nn.Module):
    """``Linear``/ReLU layers of ``hidden`` widths, a ``LayerNorm``, a ``Linear`` to ``outputs``."""

    def __init__(self, inputs: int, hidden: Sequence[int], outputs: int) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = inputs
        for size in hidden:
            layers += [nn.Linear(width, size), nn.ReLU()]
            width = size
        layers += [nn.LayerNorm(width), nn.Linear(width, outputs)]
        self.model = nn.Sequential(*layers)
        self.architecture = {"inputs": inputs, "hidden": list(hidden), "outputs": outputs}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.model(x)
        return out


def masked_softmax(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Softmax over the legal actions of each row (``legal``: bool); illegal ones get 0."""
    masked = logits.masked_fill(~legal, float("-inf"))
    return torch.softmax(masked, dim=-1)


def regret_matching(advantages: F64, legal: npt.NDArray[np.bool_]) -> F64:
    """Each row's strategy from predicted advantages (Brown et al. 2019, section 4).

    The positive advantages of the legal actions, normalised; where none is positive,
    all weight on the legal action of highest advantage (the paper's choice, rather
    than uniform). Illegal actions get 0.

    Examples
    --------
    >>> adv = np.array([[1.0, 3.0, -2.0], [-1.0, -0.5, -3.0]])
    >>> legal = np.array([[True, True, True], [True, True, True]])
    >>> regret_matching(adv, legal).tolist()
    [[0.25, 0.75, 0.0], [0.0, 1.0, 0.0]]
    """
    adv = np.asarray(advantages, dtype=np.float64)
    positive = np.where(legal, np.maximum(adv, 0.0), 0.0)
    total = positive.sum(axis=1, keepdims=True)
    out: F64 = np.zeros_like(positive)
    np.divide(positive, total, out=out, where=total > 0.0)
    none = total[:, 0] <= 0.0
    if np.any(none):
        best = np.argmax(np.where(legal[none], adv[none], -np.inf), axis=1)
        rows = np.flatnonzero(none)
        out[rows] = 0.0
        out[rows, best] = 1.0
    return out


def weighted_loss(
    out: torch.Tensor, target: torch.Tensor, weight: torch.Tensor, legal: torch.Tensor
) -> torch.Tensor:
    """Mean over samples and actions of ``weight * (out - target)^2`` on legal actions.

    ``weight`` is each sample's iteration ``t`` (linear CFR). The mean counts every
    action slot, as OpenSpiel's MSE of ``sqrt(t)``-scaled outputs and targets does, so
    a learning rate means the same in both; illegal actions add zero.
    """
    err = torch.where(legal, out - target, 0.0)
    return (weight[:, None] * err * err).sum() / float(err.numel())


def train_network(
    net: MLP,
    reservoir: Reservoir,
    tensors: torch.Tensor,
    legal: torch.Tensor,
    *,
    steps: int,
    batch: int,
    learning_rate: float,
    rng: np.random.Generator,
    policy: bool,
) -> float | None:
    """Fit ``net`` to ``reservoir`` for ``steps`` Adam steps; the last loss (None: too few).

    ``tensors[i]`` and ``legal[i]`` are information set ``i``'s tensor and legal mask;
    the reservoir's samples name their information set by that row. ``batch`` 0
    trains on the whole buffer each step. With ``policy`` the outputs go through
    :func:`masked_softmax` (the policy network), else they are advantages.
    """
    size = len(reservoir)
    if size == 0 or (batch and batch > size):
        return None  # as OpenSpiel: no training until the buffer holds a batch
    info = torch.from_numpy(reservoir.info[:size].astype(np.int64))
    target = torch.from_numpy(reservoir.target[:size])
    weight = torch.from_numpy(reservoir.iteration[:size])
    # fused: one kernel per step for all parameters (the same Adam update, less overhead)
    optimiser = torch.optim.Adam(net.parameters(), lr=learning_rate, fused=True)
    loss: Any = None
    for _ in range(steps):
        if batch:
            pick = torch.from_numpy(rng.choice(size, size=batch, replace=False))
            rows = info[pick]
            y = target[pick]
            w = weight[pick]
        else:
            rows, y, w = info, target, weight
        mask = legal[rows]
        out = net(tensors[rows])
        if policy:
            out = masked_softmax(out, mask)
        loss = weighted_loss(out, y, w, mask)
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()
    return None if loss is None else float(loss.detach())
