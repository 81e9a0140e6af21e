"""DeepFool's MCCFR training loop: rounds of traversals on the backend, fits, checkpoints.

A round sends seeded blocks of traversals (:mod:`checkraise.nn.deepfool_mccfr`) to the
execution backend, carrying the network's current weights (none in the fast phase,
whose strategy is the rule agent), appends the labelled decisions to a window of the
most recent ``buffer`` labels, and fits the network to the window with the KL loss
for ``steps`` Adam steps. The items of a round and their seeds depend only on the seed
and the round, so a run does not depend on the number of workers or the backend.

After every round the network and the window go to one checkpoint file, written
atomically (a killed run loses at most the round in progress; ``resume`` continues
from it, with the run's own settings, to a new total of rounds, with fresh Adam
moments), a line to ``progress.jsonl``, and the curves to ``train_curves.png``.
The finished network is ``deepfool.npz``; its header holds the command that made it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from checkraise.backend.base import Backend
from checkraise.errors import ConfigError
from checkraise.nn.deepfool_encoding import NUM_CLASSES, EncodedBatch, stack_encoded
from checkraise.nn.deepfool_fit import evaluate, fit, plot_curves
from checkraise.nn.deepfool_mccfr import TraversalConfig, TraversalItem, traversal_item
from checkraise.nn.deepfool_net import OUTPUTS, DeepFoolNet, NetConfig, load_net, save_net
from checkraise.nn.deepfool_pretrain import item_seed
from checkraise.nn.io import load_into, load_model, save_model

__all__ = ["CHECKPOINT", "FINAL", "TrainConfig", "run_train"]

CHECKPOINT = "checkpoint.npz"
FINAL = "deepfool.npz"
_CKPT_KIND = "deepfool-mccfr-checkpoint"
_BUF = "buffer."
REGRET_SCALE = 10.0
"""Sampled regrets (big blinds) are divided by this before fitting (matching ignores scale)."""


@dataclass(frozen=True)
class TrainConfig:
    """MCCFR settings: rounds (the first ``fast_rounds`` on the rule agent), sizes, fitting."""

    rounds: int = 20
    fast_rounds: int = 2
    traversals: int = 400
    items: int = 4
    expand_depth: int = 2
    buffer: int = 60_000
    steps: int = 300
    batch_size: int = 256
    lr: float = 3e-4
    seed: int = 0
    seats: int = 6
    target: str = "policy"
    """``policy``: fit the policy network to the regret-matched labels (the DeepFool
    design); ``regret``: fit a regret network to the sampled regrets (divided by
    ``REGRET_SCALE``), whose regret matching is the strategy (Deep CFR's advantage
    network, which averages regrets before matching them)."""

    def __post_init__(self) -> None:
        if (self.rounds < 1 or not 0 <= self.fast_rounds <= self.rounds or self.items < 1
                or self.traversals < self.items or self.buffer < 1):
            raise ConfigError(
                f"MCCFR rounds={self.rounds!r}, fast_rounds={self.fast_rounds!r}, "
                f"traversals={self.traversals!r}, items={self.items!r}, buffer={self.buffer!r}: "
                "expected rounds >= 1, 0 <= fast_rounds <= rounds, traversals >= items >= 1, "
                "buffer >= 1"
            )
        TraversalConfig(self.seats, self.expand_depth)
        if self.target not in OUTPUTS:
            raise ConfigError(f"MCCFR target {self.target!r}: expected one of {OUTPUTS}")


def _save_checkpoint(path: Path, net: DeepFoolNet, buf: EncodedBatch,
                     labels: npt.NDArray[np.float32], done: int, cfg: TrainConfig,
                     command: str, rows: list[dict[str, Any]]) -> None:
    state: dict[str, Any] = dict(net.state_dict())
    for k, v in buf.arrays().items():
        state[_BUF + k] = v
    state[_BUF + "labels"] = labels
    save_model(path, state, asdict(net.config), kind=_CKPT_KIND, command=command,
               extra={"round": done, "train_config": asdict(cfg), "rows": rows})


def _load_checkpoint(path: Path) -> tuple[DeepFoolNet, EncodedBatch, npt.NDArray[np.float32],
                                          int, dict[str, Any], list[dict[str, Any]]]:
    header, arrays = load_model(path, kind=_CKPT_KIND)
    net = DeepFoolNet(NetConfig(**header["architecture"]))
    load_into(net, {k: v for k, v in arrays.items() if not k.startswith(_BUF)}, path)
    buf_arrays = {k[len(_BUF):]: v for k, v in arrays.items() if k.startswith(_BUF)}
    labels = np.asarray(buf_arrays.pop("labels"), dtype=np.float32)
    return (net, EncodedBatch.from_arrays(buf_arrays), labels, int(header["round"]),
            header["train_config"], list(header.get("rows", [])))


def _concat(a: EncodedBatch, b: EncodedBatch) -> EncodedBatch:
    return EncodedBatch(*(np.concatenate([getattr(a, f), getattr(b, f)])
                          for f in ("ranks", "suits", "history", "scalars", "mask")))


def run_train(cfg: TrainConfig, out: Path, backend: Backend, *, init: Path | None,
              command: str, resume: bool = False,
              on_progress: Callable[[int, int, int], None] | None = None,
              on_round: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Train into ``out`` (see the module docstring); the last round's figures.

    ``init`` is the network to start from (the pretrained one; ``None``: random
    weights). ``on_progress(round, traversals done, traversals per round)``.
    """
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)  # two cores shared by many: fair and stable
    ckpt = out / CHECKPOINT
    rows: list[dict[str, Any]] = []
    if resume:
        if not ckpt.exists():
            raise ConfigError(f"--resume: {ckpt} does not exist; expected an earlier run")
        net, buf, labels, done, saved, rows = _load_checkpoint(ckpt)
        # the run's own settings (same seeds, same items), to the total of rounds asked now
        cfg = TrainConfig(**{**saved, "rounds": cfg.rounds})
    else:
        torch.manual_seed(cfg.seed)
        net = load_net(init)[0] if init is not None else DeepFoolNet(NetConfig(output=cfg.target))
        if net.config.output != cfg.target:
            raise ConfigError(f"--init {init}: a {net.config.output!r} network; the target "
                              f"{cfg.target!r} needs a {cfg.target!r} network (or no --init)")
        buf = stack_encoded([])
        labels = np.zeros((0, NUM_CLASSES), np.float32)
        done = 0
    tcfg = TraversalConfig(cfg.seats, cfg.expand_depth)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    per_item = [cfg.traversals // cfg.items + (i < cfg.traversals % cfg.items)
                for i in range(cfg.items)]
    for rnd in range(done, cfg.rounds):
        fast = rnd < cfg.fast_rounds
        weights = None if fast else {k: v.detach().numpy().copy()
                                     for k, v in net.state_dict().items()}
        items = [TraversalItem(item_seed(cfg.seed, 10, rnd, i), n, tcfg, weights, cfg.target)
                 for i, n in enumerate(per_item)]
        started = time.perf_counter()
        count = [0]

        def progress(n: int, rnd: int = rnd, count: list[int] = count) -> None:
            count[0] += n
            if on_progress is not None:
                on_progress(rnd, count[0], cfg.traversals)

        results = backend.map(traversal_item, items, progress)
        seconds = time.perf_counter() - started
        new_b = EncodedBatch.from_arrays(results[0][0])
        for a, _, _ in results[1:]:
            new_b = _concat(new_b, EncodedBatch.from_arrays(a))
        if cfg.target == "regret":
            raw = np.concatenate([r[0]["regrets"] for r in results]) / REGRET_SCALE
        else:
            raw = np.concatenate([r[1] for r in results])
        new_l: npt.NDArray[np.float32] = raw.astype(np.float32)
        fresh = evaluate(net, new_b, new_l)
        buf, labels = _concat(buf, new_b), np.concatenate([labels, new_l])
        if len(labels) > cfg.buffer:
            keep = slice(len(labels) - cfg.buffer, None)
            buf, labels = buf.take(keep), labels[keep]
        losses = fit(net, buf, labels, steps=cfg.steps, batch_size=cfg.batch_size, lr=cfg.lr,
                     seed=item_seed(cfg.seed, 11, rnd), optimizer=opt)
        nodes = sum(r[2]["nodes"] for r in results)
        row = {"round": rnd + 1, "phase": "fast" if fast else "mccfr",
               "traversals": cfg.traversals, "labels": len(new_l), "nodes": nodes,
               "seconds": round(seconds, 2), "traversals_per_s": cfg.traversals / seconds,
               "fresh_kl": fresh["kl"], "fresh_agreement": fresh["agreement"],
               "fit_kl": float(np.mean(losses[-20:])) if losses else float("nan"),
               "buffer": len(labels)}
        rows.append(row)
        _save_checkpoint(ckpt, net, buf, labels, rnd + 1, cfg, command, rows)
        with open(out / "progress.jsonl", "a") as fh:
            fh.write(json.dumps(row) + "\n")
        plot_curves(out / "train_curves.png", "DeepFool MCCFR with the policy network",
                    {"KL of the fresh labels before fitting": [r["fresh_kl"] for r in rows],
                     "KL after fitting (buffer)": [r["fit_kl"] for r in rows]}, "round")
        if on_round is not None:
            on_round(row)
    save_net(out / FINAL, net, command=command,
             extra={"phase": "mccfr", "rounds": cfg.rounds, "train_config": asdict(cfg),
                    "last_round": rows[-1] if rows else {}})
    return rows[-1] if rows else {}
