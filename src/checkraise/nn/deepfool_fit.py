"""Fitting the DeepFool network to target distributions, agreement, and training curves.

Shared by pretraining (targets: the rule agent's distributions) and MCCFR (targets: the
regret-matched strategies of the traversals): minibatch Adam on the KL loss
(:func:`~checkraise.nn.deepfool_net.kl_loss`), seeded (``torch.manual_seed`` and the
minibatch order from ``seed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from checkraise.errors import ConfigError
from checkraise.nn.deepfool_encoding import EncodedBatch
from checkraise.nn.deepfool_net import DeepFoolNet, kl_loss, to_tensors

__all__ = ["agreement", "evaluate", "fit", "plot_curves", "regret_loss"]


def agreement(probs: npt.NDArray[np.float64], targets: npt.NDArray[np.floating[Any]]) -> float:
    """Fraction of rows whose most likely class is the target's most likely class."""
    if len(probs) == 0:
        return float("nan")
    return float(np.mean(probs.argmax(axis=1) == targets.argmax(axis=1)))


def regret_loss(head: torch.Tensor, target: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean over rows of the squared error summed over the legal classes."""
    return (torch.where(mask, head - target, torch.zeros_like(head)) ** 2).sum(dim=1).mean()


def evaluate(net: DeepFoolNet, batch: EncodedBatch,
             targets: npt.NDArray[np.float32]) -> dict[str, float]:
    """KL loss and agreement of ``net`` (evaluation mode) on a batch.

    For a ``regret`` network the targets are regrets: ``kl`` is then the squared error
    and ``agreement`` compares the most likely class of the regret-matched strategies.
    """
    was = net.training
    net.eval()
    with torch.no_grad():
        if net.config.output == "regret":
            t = to_tensors(batch)
            loss = float(regret_loss(net.head(*t[:4]), torch.from_numpy(targets), t[4]))
            probs = net(*t).double().numpy()
            tgt = np.maximum(np.where(batch.mask, targets, -np.inf), 0) + 1e-9 * batch.mask
        else:
            lp = net.log_probs(batch)
            loss = float(kl_loss(lp, torch.from_numpy(targets)))
            probs = lp.exp().double().numpy()
            tgt = targets
    net.train(was)
    return {"kl": loss, "agreement": agreement(probs, tgt)}


def fit(net: DeepFoolNet, batch: EncodedBatch, targets: npt.NDArray[np.float32], *,
        steps: int, batch_size: int, lr: float, seed: int,
        optimizer: torch.optim.Optimizer | None = None,
        on_step: Callable[[int, float], None] | None = None) -> list[float]:
    """``steps`` minibatch Adam steps on the KL loss; the loss of each step.

    ``optimizer`` keeps Adam's moments from one call to the next (MCCFR rounds). A
    ``regret`` network is fitted to regrets (``targets``) by :func:`regret_loss`.
    """
    if steps < 0 or batch_size < 1 or lr <= 0:
        raise ConfigError(f"fit steps={steps!r}, batch_size={batch_size!r}, lr={lr!r}: "
                          "expected steps >= 0, batch_size >= 1, lr > 0")
    if len(batch) == 0 or steps == 0:
        return []
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    opt = optimizer or torch.optim.Adam(net.parameters(), lr=lr)
    tensors = to_tensors(batch)
    target = torch.from_numpy(np.asarray(targets, dtype=np.float32))
    net.train()
    losses: list[float] = []
    for step in range(steps):
        idx = torch.from_numpy(rng.integers(0, len(batch), size=min(batch_size, len(batch))))
        rows = [t[idx] for t in tensors]
        if net.config.output == "regret":
            loss = regret_loss(net.head(*rows[:4]), target[idx], rows[4])
        else:
            loss = kl_loss(torch.log_softmax(net.logits(*rows), dim=1), target[idx])
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        losses.append(float(loss.detach()))
        if on_step is not None:
            on_step(step, losses[-1])
    net.eval()
    return losses


def plot_curves(path: str | Path, title: str, series: dict[str, Sequence[float]],
                xlabel: str) -> Path:
    """A PNG with one line per named series (matplotlib, headless)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for name, ys in series.items():
        ax.plot(range(1, len(ys) + 1), list(ys), label=name)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    p = Path(path)
    fig.savefig(p, dpi=100)
    plt.close(fig)
    return p
