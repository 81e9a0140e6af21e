"""Win/tie/lose verdicts on 10^6 random showdowns against eval7 and phevaluator.

Each showdown deals a five-card board and two two-card hands (nine distinct
cards); the verdict is the sign of the rank difference. eval7 is called through
``eval7.evaluate`` on prebuilt ``eval7.Card`` objects, phevaluator through its
documented ``evaluate_7cards`` (its card ids equal ours: ``4 * rank + suit``).
"""

from __future__ import annotations

import eval7
import numpy as np
import numpy.typing as npt
import pytest
from phevaluator import evaluate_7cards

from checkraise.cards import format_card
from checkraise.evaluator import evaluate_batch

N_SHOWDOWNS = 1_000_000


@pytest.fixture(scope="module")
def showdowns() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Two (N, 7) arrays: board + first hole pair, board + second hole pair."""
    rng = np.random.default_rng(2024)
    deals = rng.integers(0, 52, size=(3 * N_SHOWDOWNS, 9), dtype=np.uint8)
    ordered = np.sort(deals, axis=1)
    distinct = (np.diff(ordered, axis=1) != 0).all(axis=1)
    deals = deals[distinct][:N_SHOWDOWNS]
    assert len(deals) == N_SHOWDOWNS
    first = np.ascontiguousarray(deals[:, :7])
    second = np.ascontiguousarray(np.concatenate((deals[:, :5], deals[:, 7:]), axis=1))
    return first, second


def test_verdicts_equal_eval7(showdowns: tuple[npt.NDArray[np.uint8], ...]) -> None:
    first, second = showdowns
    ours = np.sign(evaluate_batch(first) - evaluate_batch(second))
    cards = [eval7.Card(format_card(c)) for c in range(52)]
    evaluate = eval7.evaluate
    theirs = np.fromiter(
        (
            evaluate([cards[c] for c in a]) - evaluate([cards[c] for c in b])
            for a, b in zip(first.tolist(), second.tolist(), strict=True)
        ),
        dtype=np.int64,
        count=len(first),
    )
    assert np.array_equal(ours, np.sign(theirs))
    # Sanity: all three verdicts actually occur.
    assert set(np.unique(ours).tolist()) == {-1, 0, 1}


def test_verdicts_equal_phevaluator(showdowns: tuple[npt.NDArray[np.uint8], ...]) -> None:
    first, second = showdowns
    ours = np.sign(evaluate_batch(first) - evaluate_batch(second))
    # phevaluator ranks run the other way: smaller is stronger.
    theirs = np.fromiter(
        (
            evaluate_7cards(*b) - evaluate_7cards(*a)
            for a, b in zip(first.tolist(), second.tolist(), strict=True)
        ),
        dtype=np.int64,
        count=len(first),
    )
    assert np.array_equal(ours, np.sign(theirs))
