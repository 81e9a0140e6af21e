"""The ``draws`` option of the bots that draw at random (``blueprint``, ``resolve``,
``heuristic``): ``stream`` takes every draw of a session from one generator, one after
another; ``hand`` makes each draw depend only on the bot's seed, the hand number, the
decision's place in the hand and what the draw is for, so that the two seatings of a
duplicate deal draw alike for as long as their hands go alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from checkraise.errors import ConfigError

__all__ = ["DRAWS", "fresh_seed", "hand_uniform", "pick"]

#: The values of the ``draws`` option (``blueprint``, ``resolve``, ``heuristic``).
DRAWS = ("stream", "hand")


def fresh_seed(seed: int | None) -> int:
    """``seed``, or for ``None`` a seed from fresh entropy: a bot without a seed then
    draws differently in every run with ``draws=hand`` too (the blueprint bot's
    translation draws and portfolio probabilities use ``seed or 0``, as they always
    have)."""
    if seed is not None:
        return seed
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))


def hand_uniform(seed: int, hand: int, index: int, tag: int) -> float:
    """A uniform number in [0, 1) that depends only on its arguments: the bot's seed, the
    hand number, the decision's place in the hand and what the number is for (``tag``).

    >>> hand_uniform(7, 3, 12, 1) == hand_uniform(7, 3, 12, 1) != hand_uniform(7, 4, 12, 1)
    True
    """
    seq = np.random.SeedSequence([seed, hand, index, tag])
    return float(seq.generate_state(1, np.uint64)[0] >> np.uint64(11)) / 2.0**53


def pick(p: Any, u: float) -> int:
    """The index ``k`` that a uniform ``u`` selects from the weights ``p`` (each ``k``
    with probability ``p[k] / sum(p)``; a zero weight is never picked).

    >>> [pick([0.25, 0.0, 0.75], u) for u in (0.0, 0.2499, 0.25, 0.9999)]
    [0, 0, 2, 2]
    """
    weights = np.asarray(p, dtype=np.float64)
    if weights.ndim != 1 or not np.all(np.isfinite(weights)) or np.any(weights < 0) \
            or not weights.sum() > 0:
        raise ConfigError(f"action probabilities {weights.tolist()}; expected finite "
                          "weights >= 0 with a positive sum")
    cum = np.cumsum(weights)
    k = int(np.searchsorted(cum, u * cum[-1], side="right"))
    if k < len(weights) and weights[k] > 0:
        return k
    return int(np.flatnonzero(weights > 0)[-1])  # u * total rounded up to the total
