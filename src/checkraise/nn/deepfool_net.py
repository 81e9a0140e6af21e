"""The DeepFool policy network: cards and ordered history in, a distribution over legal classes out.

DeepFool (a six-max no-limit bot that combines Monte Carlo CFR with a policy network
in place of regret tables) reads three branches: the hole cards and the board, each
card embedded as a rank embedding plus a suit embedding and the embeddings summed per
group (so the order of cards within a group does not matter), and the ordered action
history with a few table numbers. Each branch goes through an MLP with ReLU; where the
card and history branches meet, dropout; then an MLP to one logit per action class
(:data:`~checkraise.nn.action_classes.ACTION_CLASSES`). The softmax runs over the legal
classes only (illegal logits are set to minus infinity), so an illegal class gets
probability exactly 0. Training minimises the KL divergence from a target distribution
(the rule agent's during pretraining, regret-matched strategies during MCCFR) to the
network's output: :func:`kl_loss`.

Torch is imported when this module is; import it only inside ``nn`` (and lazily).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from checkraise.errors import ConfigError
from checkraise.nn.deepfool_encoding import (
    ACTION_FEATURES,
    HISTORY_LEN,
    NUM_CLASSES,
    RANK_PAD,
    SCALAR_FEATURES,
    SUIT_PAD,
    EncodedBatch,
)
from checkraise.nn.io import load_into, load_model, save_model

__all__ = ["MODEL_KIND", "OUTPUTS", "DeepFoolNet", "NetConfig", "kl_loss", "load_net", "save_net",
           "to_tensors"]

MODEL_KIND = "deepfool-policy"
OUTPUTS = ("policy", "regret")


@dataclass(frozen=True)
class NetConfig:
    """Sizes of the network (all positive; ``dropout`` in [0, 1))."""

    embed: int = 16
    hidden: int = 96
    dropout: float = 0.1
    output: str = "policy"
    """``policy``: the head's outputs are logits (softmax over legal classes); ``regret``:
    they estimate each class's regret and the strategy is their regret matching."""

    def __post_init__(self) -> None:
        if self.embed < 1 or self.hidden < 1 or not 0.0 <= self.dropout < 1.0:
            raise ConfigError(
                f"network sizes embed={self.embed!r}, hidden={self.hidden!r}, "
                f"dropout={self.dropout!r}: expected positive sizes and 0 <= dropout < 1"
            )
        if self.output not in OUTPUTS:
            raise ConfigError(f"network output {self.output!r}: expected one of {OUTPUTS}")


class DeepFoolNet(nn.Module):
    """The policy network (see the module docstring)."""

    def __init__(self, config: NetConfig | None = None) -> None:
        super().__init__()
        cfg = config or NetConfig()
        self.config = cfg
        e, h = cfg.embed, cfg.hidden
        self.rank_embed = nn.Embedding(RANK_PAD + 1, e, padding_idx=RANK_PAD)
        self.suit_embed = nn.Embedding(SUIT_PAD + 1, e, padding_idx=SUIT_PAD)
        self.cards = nn.Sequential(nn.Linear(2 * e, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU())
        self.betting = nn.Sequential(
            nn.Linear(HISTORY_LEN * ACTION_FEATURES + SCALAR_FEATURES, h), nn.ReLU(),
            nn.Linear(h, h), nn.ReLU(),
        )
        self.merge = nn.Sequential(
            nn.Dropout(cfg.dropout), nn.Linear(2 * h, h), nn.ReLU(), nn.Linear(h, NUM_CLASSES),
        )

    def head(self, ranks: torch.Tensor, suits: torch.Tensor, history: torch.Tensor,
             scalars: torch.Tensor) -> torch.Tensor:
        """The last layer's outputs, one per class, before any masking."""
        cards = self.rank_embed(ranks) + self.suit_embed(suits)       # (B, 7, e)
        hole = cards[:, :2].sum(dim=1)
        board = cards[:, 2:].sum(dim=1)
        c = self.cards(torch.cat([hole, board], dim=1))
        b = self.betting(torch.cat([history.flatten(1), scalars], dim=1))
        out: torch.Tensor = self.merge(torch.cat([c, b], dim=1))
        return out

    def logits(self, ranks: torch.Tensor, suits: torch.Tensor, history: torch.Tensor,
               scalars: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Masked logits: illegal classes are ``-inf``."""
        return self.head(ranks, suits, history, scalars).masked_fill(~mask, float("-inf"))

    def forward(self, ranks: torch.Tensor, suits: torch.Tensor, history: torch.Tensor,
                scalars: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Probabilities over the classes, exactly 0 on illegal ones, rows summing to 1.

        For a ``regret`` network: regret matching of the head over the legal classes
        (all mass on the largest when none is positive, as in Deep CFR).
        """
        if self.config.output == "regret":
            r = self.head(ranks, suits, history, scalars).masked_fill(~mask, float("-inf"))
            pos = r.clamp_min(0.0)
            total = pos.sum(dim=1, keepdim=True)
            best = torch.nn.functional.one_hot(r.argmax(dim=1), r.shape[1]).to(r.dtype)
            return torch.where(total > 0, pos / total.clamp_min(1e-12), best)
        return torch.softmax(self.logits(ranks, suits, history, scalars, mask), dim=1)

    def regrets(self, batch: EncodedBatch) -> torch.Tensor:
        """The head's outputs (estimated regrets of a ``regret`` network), 0 on illegal classes."""
        t = to_tensors(batch)
        return self.head(*t[:4]).masked_fill(~t[4], 0.0)

    def log_probs(self, batch: EncodedBatch) -> torch.Tensor:
        """Log-probabilities (``-inf`` on illegal classes) of a batch."""
        return torch.log_softmax(self.logits(*to_tensors(batch)), dim=1)

    def probs(self, batch: EncodedBatch) -> npt.NDArray[np.float64]:
        """Probabilities of a batch as numpy (evaluation mode, no gradient)."""
        was = self.training
        self.eval()
        with torch.no_grad():
            p = self(*to_tensors(batch)).double().numpy()
        self.train(was)
        return np.asarray(p, dtype=np.float64)


def to_tensors(batch: EncodedBatch) -> tuple[torch.Tensor, ...]:
    """The batch's arrays as tensors, in the network's argument order."""
    return (torch.from_numpy(batch.ranks), torch.from_numpy(batch.suits),
            torch.from_numpy(batch.history), torch.from_numpy(batch.scalars),
            torch.from_numpy(batch.mask))


def kl_loss(log_probs: torch.Tensor, target: torch.Tensor,
            weight: torch.Tensor | None = None) -> torch.Tensor:
    """Mean KL divergence ``KL(target || p) = sum_a t_a (log t_a - log p_a)`` over rows.

    Classes with ``t_a = 0`` contribute nothing (also where ``log p_a`` is ``-inf``);
    a target putting mass on a class the network gives probability 0 gives ``inf``.
    ``weight`` (one per row) weighs the mean.
    """
    pos = target > 0
    safe_t = torch.where(pos, target, torch.ones_like(target))
    safe_lp = torch.where(pos, log_probs, torch.zeros_like(log_probs))
    per_row = torch.where(pos, target * (torch.log(safe_t) - safe_lp),
                          torch.zeros_like(target)).sum(dim=1)
    if weight is None:
        return per_row.mean()
    return (per_row * weight).sum() / weight.sum().clamp_min(1e-12)


def save_net(path: str | Path, net: DeepFoolNet, *, command: str,
             extra: dict[str, Any] | None = None) -> Path:
    """Write ``net`` with :func:`~checkraise.nn.io.save_model` (kind ``deepfool-policy``)."""
    return save_model(path, net.state_dict(), asdict(net.config), kind=MODEL_KIND,
                      command=command, extra=extra)


def load_net(path: str | Path) -> tuple[DeepFoolNet, dict[str, Any]]:
    """The network in ``path`` (evaluation mode) and the file's header."""
    header, arrays = load_model(path, kind=MODEL_KIND)
    arch = header.get("architecture", {})
    try:
        cfg = NetConfig(**arch)
    except TypeError as exc:
        raise ConfigError(f"{path}: architecture {arch!r} is not a DeepFool network's") from exc
    net = DeepFoolNet(cfg)
    load_into(net, arrays, path)
    net.eval()
    return net, header
