"""Pretraining the DeepFool network on the rule agent's self-play (generate, fit, measure).

The rule agent's decisions (:mod:`checkraise.nn.deepfool_data`) are generated in seeded
blocks of hands on the execution backend; a separate set of hands with seeds of their
own is held out. The network (:mod:`checkraise.nn.deepfool_net`) is fitted to the
training decisions' distributions with the KL loss, and its agreement with the rule
(same most likely class) and KL on the held-out decisions are reported along the way
and written, with the network and the curves, to the output folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from checkraise.backend.base import Backend
from checkraise.errors import ConfigError
from checkraise.nn.deepfool_data import PretrainItem, pretrain_item
from checkraise.nn.deepfool_encoding import EncodedBatch
from checkraise.nn.deepfool_fit import evaluate, fit, plot_curves
from checkraise.nn.deepfool_net import DeepFoolNet, NetConfig, save_net

__all__ = ["PRETRAINED_NAME", "PretrainConfig", "generate", "item_seed", "run_pretrain"]

PRETRAINED_NAME = "pretrained.npz"
_BLOCK = 50  # hands per work item


def item_seed(seed: int, *key: int) -> int:
    """A 32-bit seed derived from ``seed`` and ``key`` (independent streams per key)."""
    return int(np.random.SeedSequence([seed, *key]).generate_state(1)[0])


@dataclass(frozen=True)
class PretrainConfig:
    """Pretraining settings (hands of self-play, held-out hands, fitting, network sizes)."""

    hands: int = 2000
    heldout_hands: int = 200
    steps: int = 3000
    batch_size: int = 256
    lr: float = 1e-3
    seed: int = 0
    samples: int = 200
    seats: int = 6
    embed: int = 16
    hidden: int = 96
    dropout: float = 0.1

    def __post_init__(self) -> None:
        if self.hands < 1 or self.heldout_hands < 1 or self.steps < 1:
            raise ConfigError(f"pretraining hands={self.hands!r}, heldout_hands="
                              f"{self.heldout_hands!r}, steps={self.steps!r}: expected >= 1")
        NetConfig(self.embed, self.hidden, self.dropout)


def generate(backend: Backend, seed: int, hands: int, tag: int, seats: int, samples: int,
             on_progress: Callable[[int], None] | None = None
             ) -> tuple[EncodedBatch, npt.NDArray[np.float32]]:
    """Rule self-play of ``hands`` hands in blocks on ``backend`` (``tag`` separates sets)."""
    items = []
    left, i = hands, 0
    while left > 0:
        n = min(_BLOCK, left)
        items.append(PretrainItem(item_seed(seed, tag, i), n, seats, samples))
        left -= n
        i += 1
    results = backend.map(pretrain_item, items, on_progress)
    arrays = [EncodedBatch.from_arrays(a) for a, _ in results]
    batch = EncodedBatch(*(np.concatenate([getattr(b, f) for b in arrays])
                           for f in ("ranks", "suits", "history", "scalars", "mask")))
    return batch, np.concatenate([t for _, t in results]).astype(np.float32)


def run_pretrain(cfg: PretrainConfig, out: Path, backend: Backend, *, command: str,
                 on_progress: Callable[[str, int, int], None] | None = None
                 ) -> dict[str, Any]:
    """Generate, fit, save ``out/pretrained.npz``, curves and ``summary.json``."""
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)  # two cores shared by many: fair and stable
    torch.manual_seed(cfg.seed)

    def phase(name: str, total: int) -> Callable[[int], None]:
        done = [0]

        def step(n: int) -> None:
            done[0] += n
            if on_progress is not None:
                on_progress(name, done[0], total)
        return step

    train_b, train_t = generate(backend, cfg.seed, cfg.hands, 0, cfg.seats, cfg.samples,
                                phase("self-play", cfg.hands + cfg.heldout_hands))
    held_b, held_t = generate(backend, cfg.seed, cfg.heldout_hands, 1, cfg.seats, cfg.samples,
                              phase("held-out", cfg.heldout_hands))
    net = DeepFoolNet(NetConfig(cfg.embed, cfg.hidden, cfg.dropout))
    curve: list[dict[str, float]] = []
    every = max(cfg.steps // 30, 1)
    losses: list[float] = []
    report = phase("fit", cfg.steps)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    for start in range(0, cfg.steps, every):
        n = min(every, cfg.steps - start)
        losses += fit(net, train_b, train_t, steps=n, batch_size=cfg.batch_size, lr=cfg.lr,
                      seed=item_seed(cfg.seed, 2, start), optimizer=opt)
        held = evaluate(net, held_b, held_t)
        curve.append({"step": start + n, "train_kl": float(np.mean(losses[-n:])),
                      "heldout_kl": held["kl"], "heldout_agreement": held["agreement"]})
        report(n)
    final = evaluate(net, held_b, held_t)
    majority = float(np.mean(held_t.argmax(1) == np.bincount(train_t.argmax(1)).argmax()))
    summary = {
        "config": asdict(cfg), "train_decisions": len(train_b),
        "heldout_decisions": len(held_b), "heldout_kl": final["kl"],
        "heldout_agreement": final["agreement"], "majority_baseline": majority,
        "curve": curve, "command": command,
    }
    save_net(out / PRETRAINED_NAME, net, command=command,
             extra={"phase": "pretrained", "heldout_agreement": final["agreement"],
                    "heldout_kl": final["kl"], "seed": cfg.seed})
    plot_curves(out / "pretrain_curves.png", "DeepFool pretraining on the rule agent",
                {"train KL": [c["train_kl"] for c in curve],
                 "held-out KL": [c["heldout_kl"] for c in curve],
                 "held-out agreement": [c["heldout_agreement"] for c in curve]},
                f"fit checkpoint (x{every} steps)")
    (out / "pretrain_summary.json").write_text(json.dumps(summary, indent=2))
    return summary
