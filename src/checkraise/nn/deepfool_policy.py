"""The DeepFool network's forward pass in numpy (torch-free), for play and traversals.

A traversal asks the network for one decision at a time; torch's per-call overhead
(about half a millisecond on this machine) is then most of the cost, while the same
arithmetic in numpy on one row takes a fraction of it. :class:`NumpyPolicy` holds the
weights of a :class:`~checkraise.nn.deepfool_net.DeepFoolNet` (its ``state_dict`` as
arrays, as :func:`~checkraise.nn.io.load_model` returns them) and computes the same
probabilities in evaluation mode (dropout off); the tests check it against the torch
module. Worker processes of the backend and the ``deepfool`` agent then need no torch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.nn.deepfool_encoding import Encoded, EncodedBatch

__all__ = ["NumpyPolicy"]

_Array = npt.NDArray[np.float64]


class NumpyPolicy:
    """The network's probabilities from its weights, without torch.

    Parameters
    ----------
    arrays : dict
        The ``state_dict`` of a ``DeepFoolNet`` as numpy arrays.
    output : str
        The network's ``NetConfig.output``: ``policy`` (softmax) or ``regret`` (regret
        matching of the head).
    """

    def __init__(self, arrays: dict[str, npt.NDArray[Any]], output: str = "policy") -> None:
        self.output = output
        def f(name: str) -> _Array:
            return np.asarray(arrays[name], dtype=np.float64)

        self.rank_embed = f("rank_embed.weight")
        self.suit_embed = f("suit_embed.weight")
        self.layers = {
            branch: [(f(f"{branch}.{i}.weight").T.copy(), f(f"{branch}.{i}.bias"))
                     for i in idx]
            for branch, idx in (("cards", (0, 2)), ("betting", (0, 2)), ("merge", (1, 3)))
        }

    @classmethod
    def from_file(cls, path: str | Path) -> tuple[NumpyPolicy, dict[str, Any]]:
        """The policy in a file written by ``save_net``, and the file's header."""
        from checkraise.nn.deepfool_net import MODEL_KIND
        from checkraise.nn.io import load_model

        header, arrays = load_model(path, kind=MODEL_KIND)
        return cls(arrays, header.get("architecture", {}).get("output", "policy")), header

    def _mlp(self, branch: str, x: _Array, last_relu: bool) -> _Array:
        layers = self.layers[branch]
        for i, (w, b) in enumerate(layers):
            x = x @ w + b
            if last_relu or i < len(layers) - 1:
                x = np.maximum(x, 0.0)
        return np.asarray(x, dtype=np.float64)

    def batch_probs(self, batch: EncodedBatch) -> _Array:
        """Probabilities of every row (0 on illegal classes)."""
        cards = self.rank_embed[batch.ranks] + self.suit_embed[batch.suits]
        hole = cards[:, :2].sum(axis=1)
        board = cards[:, 2:].sum(axis=1)
        c = self._mlp("cards", np.concatenate([hole, board], axis=1), True)
        flat = batch.history.reshape(len(batch), -1).astype(np.float64)
        b = self._mlp("betting", np.concatenate([flat, batch.scalars], axis=1), True)
        logits = self._mlp("merge", np.concatenate([c, b], axis=1), False)
        if self.output == "regret":
            r = np.where(batch.mask, logits, -np.inf)
            pos = np.maximum(r, 0.0)
            total = pos.sum(axis=1, keepdims=True)
            best = np.eye(r.shape[1])[r.argmax(axis=1)]
            return np.asarray(np.where(total > 0, pos / np.maximum(total, 1e-12), best),
                              dtype=np.float64)
        logits = np.where(batch.mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float64)

    def probs(self, enc: Encoded) -> _Array:
        """Probabilities of one decision."""
        batch = EncodedBatch(enc.ranks[None], enc.suits[None], enc.history[None],
                             enc.scalars[None], enc.mask[None])
        return np.asarray(self.batch_probs(batch)[0], dtype=np.float64)
