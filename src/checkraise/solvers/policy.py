"""Policies as dense arrays with an information-set index.

A :class:`Policy` is one row of action probabilities per information set (illegal
actions hold zero), plus the information-set keys that name the rows, the legal
mask and the game it belongs to. It is saved as ``.npz`` holding plain arrays and a
JSON header stored as UTF-8 bytes, and loaded with ``allow_pickle=False``: a policy
file can never run code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.errors import CheckraiseError
from checkraise.games.tree import GameTree

__all__ = ["FORMAT_VERSION", "Policy", "PolicyFileError"]

FORMAT_VERSION = 1

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


class PolicyFileError(CheckraiseError):
    """A policy file that is missing, malformed or for another game."""


@dataclass(frozen=True, eq=False)
class Policy:
    """Action probabilities for every information set of a game.

    Parameters
    ----------
    keys : tuple of str
        Information-set key of each row.
    probs : float array (infosets, actions)
        Each row sums to 1 over the legal actions and is 0 elsewhere.
    legal : bool array (infosets, actions)
        Legal actions of each information set.
    game_name, game_params
        The game, as :func:`checkraise.games.load_game` names it, and its parameters.
    meta : mapping
        Free-form JSON-able facts (algorithm, iterations, ...), saved with the policy.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker, build_tree
    >>> policy = Policy.uniform(build_tree(KuhnPoker()))
    >>> policy.action_probabilities("0pb")
    {0: 0.5, 1: 0.5}
    """

    keys: tuple[str, ...]
    probs: FloatArray
    legal: BoolArray
    game_name: str
    game_params: Mapping[str, Any] = field(default_factory=dict)
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.keys)
        if self.probs.ndim != 2 or self.probs.shape[0] != n or self.legal.shape != self.probs.shape:
            raise CheckraiseError(
                f"policy arrays have shapes {self.probs.shape} and {self.legal.shape}; "
                f"expected ({n}, actions) for {n} keys"
            )
        if np.any(self.probs < -1e-12) or np.any(self.probs[~self.legal] != 0.0):
            raise CheckraiseError("policy has negative or illegal-action probabilities")
        sums = self.probs.sum(axis=1)
        bad = np.flatnonzero(np.abs(sums - 1.0) > 1e-9)
        if bad.size:
            raise CheckraiseError(
                f"policy row {self.keys[bad[0]]!r} sums to {float(sums[bad[0]])!r}; expected 1"
            )

    @property
    def index(self) -> dict[str, int]:
        """Row of each information-set key."""
        cached: dict[str, int] | None = self.__dict__.get("_index")
        if cached is None:
            cached = {k: i for i, k in enumerate(self.keys)}
            object.__setattr__(self, "_index", cached)
        return cached

    def row(self, key: str) -> FloatArray:
        """Probabilities over all actions at information set ``key``."""
        try:
            row: FloatArray = self.probs[self.index[key]]
        except KeyError:
            raise CheckraiseError(f"unknown information set {key!r}") from None
        return row

    def action_probabilities(self, key: str) -> dict[int, float]:
        """``{action: probability}`` over the legal actions at ``key``."""
        row = self.row(key)
        legal = self.legal[self.index[key]]
        return {int(a): float(row[a]) for a in np.flatnonzero(legal)}

    def on_tree(self, tree: GameTree) -> FloatArray:
        """The probabilities re-ordered to ``tree``'s information-set indices."""
        if tree.game_name != self.game_name or dict(tree.game_params) != dict(self.game_params):
            raise CheckraiseError(
                f"policy is for {self.game_name} {dict(self.game_params)}; "
                f"the tree is {tree.game_name} {dict(tree.game_params)}"
            )
        if tree.infoset_keys == self.keys:
            return self.probs
        index = self.index
        try:
            rows = [index[k] for k in tree.infoset_keys]
        except KeyError as exc:
            raise CheckraiseError(f"policy has no row for information set {exc}") from None
        return self.probs[rows]

    @classmethod
    def from_tree(
        cls, tree: GameTree, probs: FloatArray, meta: Mapping[str, Any] | None = None
    ) -> Policy:
        """A policy whose rows follow ``tree``'s information-set indices."""
        return cls(
            tree.infoset_keys,
            probs,
            tree.legal.copy(),
            tree.game_name,
            dict(tree.game_params),
            dict(meta or {}),
        )

    @classmethod
    def uniform(cls, tree: GameTree) -> Policy:
        """Every legal action equally likely."""
        legal = tree.legal.astype(np.float64)
        return cls.from_tree(tree, legal / legal.sum(axis=1, keepdims=True))

    @classmethod
    def random(cls, tree: GameTree, rng: np.random.Generator) -> Policy:
        """Independent uniform-on-the-simplex rows (Dirichlet(1)), drawn from ``rng``."""
        raw = rng.exponential(size=tree.legal.shape) * tree.legal
        return cls.from_tree(tree, raw / raw.sum(axis=1, keepdims=True))

    def save(self, path: str | Path) -> Path:
        """Write the policy to ``path`` (``.npz``); return the path written."""
        target = Path(path)
        header = {
            "format": "checkraise-policy",
            "version": FORMAT_VERSION,
            "game": self.game_name,
            "game_params": dict(self.game_params),
            "keys": list(self.keys),
            "meta": dict(self.meta),
        }
        encoded = np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8)
        with target.open("wb") as handle:
            np.savez_compressed(handle, header=encoded, probs=self.probs, legal=self.legal)
        return target

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        """Read a policy written by :meth:`save`."""
        source = Path(path)
        try:
            with np.load(source, allow_pickle=False) as data:
                header = json.loads(bytes(data["header"]).decode("utf-8"))
                probs = np.asarray(data["probs"], dtype=np.float64)
                legal = np.asarray(data["legal"], dtype=np.bool_)
        except (OSError, KeyError, ValueError) as exc:
            raise PolicyFileError(f"cannot read policy file {str(source)!r}: {exc}") from None
        if header.get("format") != "checkraise-policy" or header.get("version") != FORMAT_VERSION:
            raise PolicyFileError(
                f"{str(source)!r} is not a checkraise policy of version {FORMAT_VERSION}"
            )
        return cls(
            tuple(header["keys"]),
            probs,
            legal,
            str(header["game"]),
            dict(header["game_params"]),
            dict(header["meta"]),
        )
