"""TEMPORARY stand-in for ``checkraise.agents.probabilities`` (branch ``agentprobs``).

The coordinator deletes this file at merge and points :mod:`checkraise.lbr` at the
real module; nothing outside ``lbr/`` may import it. It implements the agreed
interface only as far as LBR's tests need: a fast path for the deterministic
baselines (``call``, ``raise``, ``allin``, ``checkfold``) and, for any other agent,
the slow generic path: a copy of the agent is asked through ``act`` once per live
hand with that hand substituted (its random state reset by the copy).
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.agents.base import call_begin_hand
from checkraise.agents.baselines import AllInAgent, CallAgent, CheckFoldAgent, MinRaiseAgent
from checkraise.cards import COMBO_CARDS, COMBO_MASKS, NUM_COMBOS
from checkraise.engine import Action, Observation
from checkraise.errors import CheckraiseError

__all__ = ["HandActionProbabilities", "action_probabilities", "update_range"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class HandActionProbabilities:
    """``probs[combo, j]``: probability that the agent holding ``combo`` plays ``actions[j]``."""

    actions: tuple[Action, ...]
    probs: FloatArray
    exact: bool
    note: str = ""


def _dead_mask(observation: Observation) -> int:
    mask = 0
    for c in observation.board:
        mask |= 1 << c
    for seat, shown in enumerate(observation.shown):
        if shown is not None and seat != observation.seat:
            for c in shown:
                mask |= 1 << c
    return mask


def _live(observation: Observation) -> npt.NDArray[np.bool_]:
    dead = np.uint64(_dead_mask(observation))
    live: npt.NDArray[np.bool_] = (COMBO_MASKS & dead) == 0
    return live


def _same_for_all(observation: Observation, action: Action) -> HandActionProbabilities:
    probs = np.zeros((NUM_COMBOS, 1))
    probs[_live(observation), 0] = 1.0
    return HandActionProbabilities((action,), probs, True)


def action_probabilities(
    agent: Any, observation: Observation, *, begin_hand_args: Sequence[Any] | None = None
) -> HandActionProbabilities:
    """Probability of each legal action for every hand the agent could hold in ``observation``."""
    legal = observation.legal
    if legal is None:
        raise CheckraiseError(f"seat {observation.seat} is not to act in this observation")
    if type(agent) is CallAgent:
        return _same_for_all(observation, Action.call())
    if type(agent) is CheckFoldAgent:
        fold = legal.call_amount > 0 and legal.can_fold
        return _same_for_all(observation, Action.fold() if fold else Action.call())
    if type(agent) is MinRaiseAgent:
        act = Action.call() if legal.min_raise_to is None else Action.raise_to(legal.min_raise_to)
        return _same_for_all(observation, act)
    if type(agent) is AllInAgent:
        act = Action.call() if legal.max_raise_to is None else Action.raise_to(legal.max_raise_to)
        return _same_for_all(observation, act)
    return _hand_by_hand(agent, observation, begin_hand_args)


def _hand_by_hand(
    agent: Any, observation: Observation, begin_hand_args: Sequence[Any] | None
) -> HandActionProbabilities:
    live = np.flatnonzero(_live(observation))
    actions: list[Action] = []
    index: dict[Action, int] = {}
    chosen = np.empty(live.size, dtype=np.int64)
    # One snapshot, restored per hand: pickling once is far cheaper than deep copies.
    try:
        blob: bytes | None = pickle.dumps(agent)
    except (pickle.PicklingError, TypeError, AttributeError):
        blob = None
    for k, combo in enumerate(live):
        hole = (int(COMBO_CARDS[combo, 0]), int(COMBO_CARDS[combo, 1]))
        twin = pickle.loads(blob) if blob is not None else copy.deepcopy(agent)
        if begin_hand_args is not None:
            seat, config, _, number = begin_hand_args
            call_begin_hand(twin, seat, config, hole, number)
        act = twin.act(dataclasses.replace(observation, hole_cards=hole))
        j = index.get(act)
        if j is None:
            j = index[act] = len(actions)
            actions.append(act)
        chosen[k] = j
    probs = np.zeros((NUM_COMBOS, len(actions)))
    probs[live, chosen] = 1.0
    return HandActionProbabilities(
        tuple(actions), probs, False, "queried hand by hand through act (one draw per hand)"
    )


def update_range(weights: FloatArray, hap: HandActionProbabilities, taken: Action) -> FloatArray:
    """Bayes: ``weights * P(taken | hand)``; an action given no probability at all is an error."""
    try:
        j = hap.actions.index(taken)
    except ValueError:
        raise CheckraiseError(f"action {taken} has no probability for any hand") from None
    out: FloatArray = weights * hap.probs[:, j]
    return out
