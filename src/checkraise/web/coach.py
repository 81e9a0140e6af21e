"""The coach panel: your equity against each opponent's range as our hand reading predicts it.

The coach is the hand-reading bot (:class:`~checkraise.agents.handreading.HandReadingAgent`)
sitting in the person's seat without ever acting: it sees the person's observation
only, learns the opponents' habits from the hands it is shown (``begin_hand`` /
``end_hand`` like any agent) and, at the person's turn, predicts every opponent's
1,326 combos from his actions (:mod:`checkraise.opponents.predict`, adapted to his
observed frequencies). For each opponent still in the hand it gives the person's
heads-up equity against that range (:func:`checkraise.equity.equity`: exact from the
turn on, seeded Monte Carlo before) and the classes the range holds most; and the
bot's own Algorithm 1 win rate against all of them at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from checkraise.cards import CLASS_NAMES, COMBO_CLASS

if TYPE_CHECKING:
    from fractions import Fraction

    from checkraise.engine import Observation, TableConfig

__all__ = ["Coach"]

MC_SAMPLES: Final = 20_000
TOP_CLASSES: Final = 5


class Coach:
    """Hand-reading advice for one seat; see the module docstring.

    Parameters
    ----------
    seed
        Seeds the reader's and the equity's Monte Carlo.
    samples
        Monte Carlo deals per opponent before the turn.
    """

    def __init__(self, seed: int, samples: int = MC_SAMPLES) -> None:
        from checkraise.agents.handreading import HandReadingAgent

        self.reader = HandReadingAgent(seed=seed)
        self.seed = seed
        self.samples = samples
        self.last_ranges: dict[int, npt.NDArray[np.float64]] = {}

    def begin_hand(self, seat: int, config: TableConfig, hole_cards: tuple[int, ...],
                   hand_number: int) -> None:
        """A new hand for the person's seat (the agent protocol's hook)."""
        self.reader.begin_hand(seat, config, hole_cards, hand_number)

    def end_hand(self, observation: Observation, payoffs: tuple[int | Fraction, ...]) -> None:
        """The hand is over: the reader counts it in each opponent's statistics."""
        self.reader.end_hand(observation, payoffs)

    def advice(self, observation: Observation, names: dict[int, str]) -> dict[str, Any]:
        """Equity against each opponent in the hand, ``names`` mapping engine seats to names."""
        from checkraise.equity import equity
        from checkraise.opponents.predict import consistent
        from checkraise.ranges import Range

        hole = tuple(int(c) for c in observation.hole_cards)
        board = [int(c) for c in observation.board]
        win_rate = self.reader.win_rate(observation)
        out = []
        self.last_ranges = {}
        for seat, predicted in sorted(self.reader.last_prediction.items()):
            weights = predicted if predicted.sum() > 0 else consistent(hole + tuple(board))
            weights = weights / weights.max()
            self.last_ranges[seat] = weights
            exact = len(board) >= 4
            result = equity([hole, Range.from_array(weights)], board=board,
                            method="exact" if exact else "mc",
                            samples=None if exact else self.samples,
                            seed=None if exact else self.seed + len(observation.history))
            by_class = np.bincount(np.asarray(COMBO_CLASS), weights, minlength=len(CLASS_NAMES))
            share = by_class / by_class.sum()
            top = np.argsort(-share, kind="stable")[:TOP_CLASSES]
            out.append({
                "name": names[seat],
                "equity": round(float(result.equity[0]), 4),
                "top": [{"class": CLASS_NAMES[k], "share": round(float(share[k]), 4)}
                        for k in top if share[k] > 0],
            })
        return {"win_rate": round(float(win_rate), 4), "opponents": out}
