"""Range tracking: both players' ranges over the 1,326 combos through one hand, by Bayes.

A range here is what the *other* player can know: a weight per combo that starts at 1
for every hand the board leaves possible and, at every action, is multiplied by the
probability that the actor takes that action with that hand (Bayes' rule with the
actor's strategy as the likelihood; the weights stay unnormalised reach
probabilities, as the spot solver takes them). Which strategy gives the likelihood is
the caller's: the blueprint on the streets it plays, the last re-solved subgame on the
streets that were re-solved (the ``resolve`` bot), or any agent through
:func:`checkraise.agents.probabilities.action_probabilities`.

:func:`track_ranges` replays the public history of an observation on an engine state
with stand-in hole cards (only public information is read from it), so the likelihood
is asked at exactly the observation each actor had when he acted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from checkraise.cards import COMBO_MASKS, NUM_COMBOS
from checkraise.errors import ConfigError

if TYPE_CHECKING:
    from checkraise.engine import Action, Observation

__all__ = ["Likelihood", "board_live", "track_ranges"]

FloatArray = npt.NDArray[np.float64]

Likelihood = Callable[["Observation", int, "Action"], npt.ArrayLike]
"""``(observation of the actor before acting, history index, action taken) -> the
probability of that action for each of the 1,326 combos``."""


def board_live(board: tuple[int, ...] | list[int]) -> npt.NDArray[np.bool_]:
    """Which of the 1,326 combos hold no card of ``board``."""
    mask = np.uint64(sum(1 << int(c) for c in board))
    live: npt.NDArray[np.bool_] = (COMBO_MASKS & mask) == 0
    return live


def track_ranges(
    observation: Observation,
    likelihood: Likelihood,
    upto: int | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Both seats' ranges after the first ``upto`` public actions (default: all).

    Parameters
    ----------
    observation : Observation
        Any seat's view of a heads-up hand; its public history and board are replayed.
    likelihood : callable
        ``likelihood(obs, index, action)``: for the actor at history ``index``
        (``obs`` is his observation just before he acted), the probability of
        ``action`` with each combo.
    upto : int or None
        Stop before the history action of this index.

    Returns
    -------
    (weights of seat 0, weights of seat 1), each over the 1,326 combos, with the
    combos that hold a board card dealt before the cut at 0. An action that no hand
    of the actor's range takes (all weights would be 0) leaves his range as it was:
    the strategy does not explain it, and a range of nothing explains nothing.
    """
    from checkraise.engine import State

    config = observation.config
    if config.num_players != 2:
        raise ConfigError(
            f"range tracking is heads-up; this table has {config.num_players} seats"
        )
    history = observation.history if upto is None else observation.history[:upto]
    state = State(config, hole_cards=[None, None], board=observation.board, seed=0)
    weights = [np.ones(NUM_COMBOS), np.ones(NUM_COMBOS)]
    for index, (seat, _rnd, action) in enumerate(history):
        obs = state.observation(seat)
        live = board_live(obs.board)
        probs = np.asarray(likelihood(obs, index, action), np.float64)
        if probs.shape != (NUM_COMBOS,):
            raise ConfigError(
                f"likelihood of shape {probs.shape} at action {index}; expected 1,326 values"
            )
        updated = weights[seat] * np.where(live, probs, 0.0)
        if updated.sum() > 0.0:
            weights[seat] = updated
        state.step(action)
    live = board_live(state.board)
    return weights[0] * live, weights[1] * live
