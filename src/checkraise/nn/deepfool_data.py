"""Pretraining data for DeepFool (torch-free): the rule agent's self-play at six seats.

Every seat is the rule agent of :mod:`checkraise.nn.deepfool_rules`; at each decision
we record the decision's encoding (:func:`~checkraise.nn.deepfool_encoding.encode`)
and the rule's whole distribution over the action classes (the target the network is
fitted to), then the seat plays a class drawn from it (its representative action).
Stacks are drawn per seat and hand between :data:`MIN_STACK_BB` and
:data:`MAX_STACK_BB` big blinds so that the network sees the depths a tournament
reaches. A block of hands with its own seed is one work item of the execution backend
(:class:`PretrainItem`, :func:`pretrain_item`), so the data depend on the seeds only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from checkraise.backend.base import Progress
from checkraise.engine.config import TableConfig
from checkraise.engine.observation import Observation
from checkraise.engine.state import State
from checkraise.errors import ConfigError
from checkraise.nn.action_classes import representative
from checkraise.nn.deepfool_encoding import Encoded, EncodedBatch, encode, stack_encoded
from checkraise.nn.deepfool_rules import rule_distribution, strength, win_probability

__all__ = ["BIG_BLIND", "MAX_STACK_BB", "MIN_STACK_BB", "SMALL_BLIND", "PretrainItem",
           "pretrain_item", "random_table", "rule_decision", "rule_selfplay"]

SMALL_BLIND = 20
BIG_BLIND = 40
MIN_STACK_BB = 10
MAX_STACK_BB = 150


def random_table(rng: np.random.Generator, seats: int) -> TableConfig:
    """A no-limit table with blinds 20/40 and stacks drawn uniformly in 10..150 big blinds."""
    stacks = rng.integers(MIN_STACK_BB * BIG_BLIND, MAX_STACK_BB * BIG_BLIND + 1, size=seats)
    return TableConfig.nolimit(seats, tuple(int(x) for x in stacks), SMALL_BLIND, BIG_BLIND)


def rule_decision(obs: Observation, enc: Encoded, rng: np.random.Generator,
                  samples: int) -> npt.NDArray[np.float64]:
    """The rule agent's distribution over the classes at ``obs`` (``enc`` its encoding)."""
    w = win_probability(obs, rng, samples)
    price = obs.to_call / max(obs.pot + obs.to_call, 1)
    return rule_distribution(strength(obs, w), price, enc.mask)


def rule_selfplay(seed: int, hands: int, seats: int = 6, samples: int = 200,
                  progress: Progress | None = None
                  ) -> tuple[EncodedBatch, npt.NDArray[np.float32]]:
    """Decisions and the rule's distributions from ``hands`` seeded hands of self-play."""
    if hands < 1 or not 2 <= seats <= 10 or samples < 1:
        raise ConfigError(f"rule self-play hands={hands!r}, seats={seats!r}, "
                          f"samples={samples!r}: expected hands >= 1, 2..10 seats, samples >= 1")
    rng = np.random.default_rng(seed)
    encs: list[Encoded] = []
    targets: list[npt.NDArray[np.float64]] = []
    for _ in range(hands):
        state = State(random_table(rng, seats), seed=int(rng.integers(2**31)))
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            obs = state.observation(seat)
            enc = encode(obs)
            p = rule_decision(obs, enc, rng, samples)
            encs.append(enc)
            targets.append(p)
            k = int(rng.choice(len(p), p=p))
            action = representative(obs, k)
            assert action is not None  # the mask holds only classes with one
            state.step(action)
        if progress is not None:
            progress(1)
    return stack_encoded(encs), np.asarray(targets, dtype=np.float32)


@dataclass(frozen=True)
class PretrainItem:
    """A block of rule self-play hands with its own seed (a backend work item)."""

    seed: int
    hands: int
    seats: int = 6
    samples: int = 200


def pretrain_item(item: PretrainItem, progress: Progress
                  ) -> tuple[dict[str, npt.NDArray[np.generic]], npt.NDArray[np.float32]]:
    """Run one :class:`PretrainItem`: the batch's arrays and the targets."""
    batch, targets = rule_selfplay(item.seed, item.hands, item.seats, item.samples, progress)
    return batch.arrays(), targets
