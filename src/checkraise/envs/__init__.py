"""Reinforcement-learning environments over the engine (the optional extra ``envs``).

* ``from checkraise.envs import holdem_v0; holdem_v0.env(num_players=6)`` — the
  PettingZoo AEC environment, every seat an agent of the caller
  (:mod:`checkraise.envs.holdem_v0`);
* ``gymnasium.make("checkraise/NoLimitHoldem-v0", opponents="fold,heuristic")`` —
  one learner against checkraise agents (:class:`~checkraise.envs.gym_env.NoLimitHoldemEnv`),
  registered when this package is imported.

Both observe the hand as card planes, chips, position and the full ordered action
history (:mod:`checkraise.envs.encoding`, read back by :func:`decode_history`), act
through a discrete abstraction or a kind with a continuous raise amount, with a
legal-action mask (:mod:`checkraise.envs.actions`), and reward in big blinds.
``docs/envs.md`` describes the observation vector and the action spaces.

gymnasium and pettingzoo are imported by this package only; without them importing
it raises one error naming the extra to install.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from checkraise._lazy import lazy_names
from checkraise.errors import CheckraiseError

if TYPE_CHECKING:
    from checkraise.envs.actions import ActionAbstraction, EnvActionError
    from checkraise.envs.config import EnvConfig
    from checkraise.envs.encoding import HistoryEntry, ObservationLayout, decode_history
    from checkraise.envs.gym_env import NoLimitHoldemEnv

__all__ = [
    "GYM_ID",
    "ActionAbstraction",
    "EnvActionError",
    "EnvConfig",
    "HistoryEntry",
    "NoLimitHoldemEnv",
    "ObservationLayout",
    "decode_history",
]

GYM_ID = "checkraise/NoLimitHoldem-v0"
"""The gymnasium id of :class:`~checkraise.envs.gym_env.NoLimitHoldemEnv`."""


def _require(module: str) -> None:
    try:
        importlib.import_module(module)
    except ImportError as exc:
        raise CheckraiseError(
            f"checkraise.envs needs {module}, which is not installed; install the extra: "
            "pip install 'checkraise[envs]'") from exc


_require("gymnasium")
_require("pettingzoo")

import gymnasium  # noqa: E402  (after the check that gives the clear error)

if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="checkraise.envs.gym_env:NoLimitHoldemEnv")

__getattr__, __dir__ = lazy_names(__name__, {
    "ActionAbstraction": "checkraise.envs.actions",
    "EnvActionError": "checkraise.envs.actions",
    "EnvConfig": "checkraise.envs.config",
    "HistoryEntry": "checkraise.envs.encoding",
    "ObservationLayout": "checkraise.envs.encoding",
    "decode_history": "checkraise.envs.encoding",
    "NoLimitHoldemEnv": "checkraise.envs.gym_env",
})
