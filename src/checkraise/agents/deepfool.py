"""The ``deepfool`` agent: the DeepFool policy network playing six-max no-limit hold'em.

At its turn the agent encodes the observation
(:func:`checkraise.nn.deepfool_encoding.encode`), asks the network for a distribution
over the six action classes (legal ones only), draws a class with its seeded generator
and plays that class's representative action
(:func:`checkraise.nn.action_classes.representative`). The network runs in numpy
(:class:`checkraise.nn.deepfool_policy.NumpyPolicy`), so playing needs no torch.

Options: ``file`` (a network written by ``checkraise nn deepfool pretrain|train``, or
a shipped one by name: ``default``, ``data/deepfool.npz``, MCCFR with a regret network
after the fast phase on the rule agent, the strongest of the three; ``pretrained``,
``data/deepfool_pretrained.npz``, the network fitted to the rule agent only; ``labels``,
``data/deepfool_labels.npz``, the pretrained network after MCCFR with regret-matched
labels, the DeepFool design as written), ``greedy`` (play the most likely class instead
of sampling), ``seed``.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from checkraise.agents.base import AgentSpecError, BaseAgent

if TYPE_CHECKING:
    from checkraise.engine import Action, Observation

__all__ = ["DeepFoolAgent", "shipped_network"]

SHIPPED = {"default": "deepfool.npz", "pretrained": "deepfool_pretrained.npz",
           "labels": "deepfool_labels.npz"}
_CACHE: dict[str, Any] = {}


def shipped_network(name: str = "default") -> Path:
    """The path of a shipped network: ``default``, ``pretrained`` or ``labels``."""
    return Path(str(resources.files("checkraise") / "data" / SHIPPED[name]))


class DeepFoolAgent(BaseAgent):
    """Plays the DeepFool network's distribution (see the module docstring).

    Parameters
    ----------
    seed : int or None
        Seed of the class draws.
    file : str
        ``default``, ``pretrained``, ``labels`` or the path of a network file.
    greedy : bool
        Play the most likely class.
    """

    def __init__(self, *, seed: int | None = None, file: str = "default",
                 greedy: bool = False) -> None:
        super().__init__(seed=seed)
        path = shipped_network(file) if file in SHIPPED else Path(file)
        if not path.is_file():
            raise AgentSpecError(f"deepfool file={file!r}: no such network file; expected "
                                 f"{' or '.join(SHIPPED)} or the path of a .npz network")
        key = str(path.resolve())
        if key not in _CACHE:  # one load per process: tournaments seat it again every rep
            from checkraise.nn.deepfool_policy import NumpyPolicy

            _CACHE[key] = NumpyPolicy.from_file(path)[0]
        self.policy = _CACHE[key]
        self.greedy = bool(greedy)
        self.file = str(path)
        self.deterministic = self.greedy

    def distribution(self, observation: Observation) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The network's probability of each action class at ``observation``."""
        from checkraise.nn.deepfool_encoding import encode

        return np.asarray(self.policy.probs(encode(observation)), dtype=np.float64)

    def act(self, observation: Observation) -> Action:
        """Draw a class from the network's distribution; play its representative action."""
        from checkraise.nn.action_classes import representative

        p = self.distribution(observation)
        k = int(p.argmax()) if self.greedy else int(self.rng.choice(len(p), p=p / p.sum()))
        action = representative(observation, k)
        if action is None:  # cannot happen for a masked class; be safe rather than illegal
            from checkraise.engine import Action as _Action

            return _Action.call()
        return action
