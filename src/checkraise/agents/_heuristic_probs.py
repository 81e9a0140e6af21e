"""The exact action distribution of the heuristic bot, for every hand at once.

After the flop the bot acts on a Monte Carlo value ``v = (W - L) / n``: each of its
``n`` deals is an independent uniform (runout, opponent hand) pair, won, tied or lost
with the exact probabilities ``pw``, ``pt``, ``pl`` of the hand against one random hand
(:func:`checkraise.agents._probability_kernels.wins_ties_vs_random`). So
``S = W - L`` has the trinomial law whose generating function is
``(pl + pt x + pw x^2)^n`` (the coefficient of ``x^(n + s)`` is ``P(S = s)``), which
:func:`score_law_sums` evaluates for all hands at once with the FFT, and the policy
is a function of ``v`` alone: mapping each of the ``2n + 1`` values to its action gives
the action probabilities.

The bot keeps its value for the rest of the street (:meth:`HeuristicAgent.value` caches
it), so its actions on one street are correlated. Given what it did earlier on the
street (:func:`earlier_street_decisions` replays them from the observation's history),
the value is restricted to the grid points that would have acted so, which gives the
probability of each action *given* the earlier ones, the quantity Bayes' rule needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from checkraise.agents.probabilities import ActionProbabilityError
from checkraise.engine import Action, State

if TYPE_CHECKING:
    from checkraise.engine import LegalActions, Observation

__all__ = ["FFT_NOISE", "earlier_street_decisions", "score_law_sums"]

FloatArray = npt.NDArray[np.float64]

FFT_NOISE = 1e-12
"""Probabilities below this are FFT rounding noise (its absolute error is ~1e-15): dropped."""

_CHUNK = 1 << 22  # complex numbers per FFT block: bounds memory for large sample counts


def _poly_power(base: npt.NDArray[np.complex128], n: int) -> npt.NDArray[np.complex128]:
    # Square-and-multiply: log2(n) products keep the rounding error far below exp(n log z).
    out = np.ones_like(base)
    sq = base.copy()
    while n:
        if n & 1:
            out *= sq
        n >>= 1
        if n:
            sq *= sq
    return out


def _grouping(labels: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], ...]:
    # Runs of equal labels (-1 dropped), ordered by label: their starts and ends on the
    # grid, where each label's block of runs begins among them, and the block's label.
    bounds = np.flatnonzero(np.r_[True, labels[1:] != labels[:-1], True])
    starts, ends = bounds[:-1], bounds[1:]
    keep = labels[starts] >= 0
    starts, ends = starts[keep], ends[keep]
    order = np.argsort(labels[starts], kind="stable")
    starts, ends = starts[order], ends[order]
    run_labels = labels[starts]
    blocks = np.flatnonzero(np.r_[True, run_labels[1:] != run_labels[:-1]])
    return starts, ends, blocks, run_labels[blocks]


def score_law_sums(
    pw: FloatArray,
    pt: FloatArray,
    n: int,
    labelings: list[tuple[npt.NDArray[np.int64], int]],
) -> list[FloatArray]:
    """Per labeling, ``out[h, c] = P(label(W - L) = c)`` for hand ``h`` over ``n`` deals.

    ``pw[h]``, ``pt[h]`` are the per-deal win and tie probabilities (loss the rest);
    each labeling ``(labels, width)`` gives the ``2n + 1`` values ``s = -n..n`` of
    ``W - L`` a column in ``0..width-1`` (``-1``: none). The law itself is never held
    for all hands at once.
    """
    size = 1
    while size < 2 * n + 1:
        size <<= 1
    rows = pw.shape[0]
    outs = [np.zeros((rows, width)) for _, width in labelings]
    # The policy is piecewise constant in v: a cumulative sum of the law gives each run
    # of equal labels as a difference, and runs are summed by label.
    groupings = [_grouping(labels) for labels, _ in labelings]
    step = max(1, _CHUNK // size)
    for lo in range(0, rows, step):
        hi = min(rows, lo + step)
        coef = np.zeros((hi - lo, size))
        coef[:, 0] = np.clip(1.0 - pw[lo:hi] - pt[lo:hi], 0.0, 1.0)
        coef[:, 1] = pt[lo:hi]
        coef[:, 2] = pw[lo:hi]
        law = np.fft.irfft(_poly_power(np.fft.rfft(coef, axis=1), n), n=size, axis=1)
        law = law[:, : 2 * n + 1]
        law[law < FFT_NOISE] = 0.0
        law /= law.sum(axis=1, keepdims=True)
        cum = np.zeros((hi - lo, 2 * n + 2))
        np.cumsum(law, axis=1, out=cum[:, 1:])
        for out, (starts, ends, blocks, block_labels) in zip(outs, groupings, strict=True):
            if len(starts) == 0:
                continue
            runs = cum[:, ends] - cum[:, starts]
            out[lo:hi, block_labels] = np.add.reduceat(runs, blocks, axis=1)
    return outs


def earlier_street_decisions(
    observation: Observation, opponents: int, max_opponents: int
) -> list[tuple[LegalActions, int, Action]]:
    """The seat's earlier decisions on this street at which it faced ``opponents`` opponents.

    Each is ``(legal actions, own bet so far without the ante, action taken)``, found by
    replaying ``observation.history`` through the engine (the cards do not change what
    is legal). Opponent counts are clamped to ``1..max_opponents`` as the bot does.
    """
    config = observation.config
    state = State(config, seed=0)
    seat = observation.seat
    out: list[tuple[LegalActions, int, Action]] = []
    for who, rnd, action in observation.history:
        if who == seat and rnd == observation.round:
            folded = state.folded
            opp = sum(1 for s, f in enumerate(folded) if s != seat and not f)
            if min(max(opp, 1), max_opponents) == opponents:
                bet = max(state.contributions[seat] - config.ante, 0)
                out.append((state.legal_actions(), bet, action))
        state.step(action)
    if state.contributions != observation.contributions or state.current_player != seat:
        raise ActionProbabilityError(
            f"the history of seat {seat}'s observation replays to contributions "
            f"{state.contributions}: expected {observation.contributions} with seat {seat} "
            "to act"
        )
    return out
