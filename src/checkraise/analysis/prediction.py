"""Prediction quality on real hands: score predicted ranges against the cards really held.

The predictions are those of the hand-reading design of Li, Jiang, Chen and Bao, "Game in
multiplayer no-limit Texas Hold'em based on hands prediction" (Chinese Journal of
Computers 40(12), 2017), made by :func:`checkraise.opponents.predict.predict_from_actions`.

For every player who acted on the flop or later in a hand whose hole cards are all known
(the Pluribus hands show every player's cards), the predictor sees only the public
actions and the board; after each street he acted on (and after preflop) his predicted
distribution is scored against the combo he held:

* **log-likelihood** ``ln P(true combo)`` (mean over the scored players; higher is better);
* **percentile rank**: the share of the other possible combos that got a lower
  probability than the true one, ties counted half (uniform: exactly 0.5);
* **top-Z category accuracy** (Z = 1, 2, 3): the predicted distribution is pushed to
  hand categories (high card, pair, two pair, ...) of each combo with the *final* board of
  the hand; a hit is when the true hand's category is among the Z most probable.
  Combos that collide with board cards dealt later are dropped for this score only (for
  the prediction and the uniform prior alike).

The baseline is the **uniform prior** of an observer who knows only the board: uniform
over the combos that avoid the board cards dealt by that street (other players' hole
cards are not known to him, even folded ones). Three predictors are scored: ``uniform``,
``model`` (the default model, :class:`~checkraise.opponents.model.DFModel`) and
``adapted`` (the same reading each player's actions through his own observed frequencies
per situation, :meth:`~checkraise.opponents.model.DFModel.adaptation`, gathered online from
the hands before, by name, in file order, and trusted as far as the cards he showed down
in those hands bear it out: :mod:`~checkraise.opponents.evidence`; the cards of a hand
enter that evidence only after the hand is scored, and only for the players the engine
shows at its showdown).

Given a Markov baseline (:mod:`~checkraise.analysis.markov`), every scored street is
also scored the way the paper's Figure 7 does: top-Z accuracy over the paper's hand
categories *of that street's board* (:mod:`~checkraise.opponents.categories`; 4 preflop,
11 after), for the uniform prior, the Markov model's forward posterior, the model and the
adapted model (:attr:`EvalResult.categories`, predictors :data:`CATEGORY_PREDICTORS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from checkraise.analysis.markov import OBSERVATIONS, PAPER_STATES, MarkovModel
from checkraise.cards import COMBO_CARDS, combo_index
from checkraise.errors import ConfigError
from checkraise.histories import HandRecord, replay
from checkraise.opponents import _kernels as K
from checkraise.opponents.actions import UnderstoodAction, summarize, understand
from checkraise.opponents.categories import category_table, num_categories
from checkraise.opponents.evidence import CutEvidence
from checkraise.opponents.model import Adaptation, DFModel
from checkraise.opponents.predict import (
    board_at,
    consistent,
    predict_from_actions,
    showdown_evidence,
)
from checkraise.opponents.stats import StatsBook

__all__ = [
    "CATEGORY_PREDICTORS",
    "PREDICTORS",
    "EvalResult",
    "StreetScores",
    "TopZ",
    "evaluate_hands",
]

FloatArray = npt.NDArray[np.float64]
PREDICTORS = ("uniform", "model", "adapted")
CATEGORY_PREDICTORS = ("uniform", "markov", "model", "adapted")
STREET_LABELS = ("preflop", "flop", "turn", "river")
_COMBOS = COMBO_CARDS.astype(np.int64)


@dataclass
class StreetScores:
    """Sums of the scores of one predictor on one street."""

    n: int = 0
    loglik: float = 0.0
    percentile: float = 0.0
    top: list[int] = field(default_factory=lambda: [0, 0, 0])

    def add(self, dist: FloatArray, true: int, cats: npt.NDArray[np.int64]) -> None:
        """Score ``dist`` (sums to 1) for the true combo index ``true``."""
        p = float(dist[true])
        self.n += 1
        self.loglik += float(np.log(p)) if p > 0 else -np.inf
        possible = dist > 0
        others = int(possible.sum()) - 1
        if others > 0:
            lower = int(np.count_nonzero(dist[possible] < p))
            equal = int(np.count_nonzero(dist[possible] == p)) - 1
            self.percentile += (lower + 0.5 * equal) / others
        else:
            self.percentile += 0.5
        pos = _place(_by_category(dist, cats, 9), int(cats[true]))
        for z in range(3):
            self.top[z] += pos <= z

    def means(self) -> dict[str, float]:
        """Mean log-likelihood, percentile and top-1/2/3 accuracies."""
        n = max(self.n, 1)
        return {
            "n": self.n,
            "loglik": self.loglik / n,
            "percentile": self.percentile / n,
            "top1": self.top[0] / n,
            "top2": self.top[1] / n,
            "top3": self.top[2] / n,
        }


def _by_category(dist: FloatArray, cats: npt.NDArray[np.int64], k: int) -> FloatArray:
    """The mass of ``dist`` on each of ``k`` categories (``cats`` -1: a dead combo)."""
    live = cats >= 0
    out: FloatArray = np.bincount(cats[live], weights=dist[live], minlength=k).astype(np.float64)
    return out


def _place(by_cat: FloatArray, true: int) -> int:
    """0-based place of category ``true`` when sorted by mass (equal masses: lower index first)."""
    order = np.argsort(-by_cat, kind="stable")
    return int(np.flatnonzero(order == true)[0])


@dataclass
class TopZ:
    """Top-1/2/3 hits of one predictor on one street, over hand categories."""

    n: int = 0
    top: list[int] = field(default_factory=lambda: [0, 0, 0])

    def add(self, by_cat: FloatArray, true: int) -> None:
        """Score the category distribution ``by_cat`` for the true category ``true``.

        Examples
        --------
        >>> t = TopZ()
        >>> t.add(np.array([0.1, 0.6, 0.3]), 2)
        >>> t.means()
        {'n': 1, 'top1': 0.0, 'top2': 1.0, 'top3': 1.0}
        """
        pos = _place(by_cat, true)
        self.n += 1
        for z in range(3):
            self.top[z] += pos <= z

    def merge(self, other: TopZ) -> None:
        """Add ``other``'s counts (pooling folds)."""
        self.n += other.n
        self.top = [a + b for a, b in zip(self.top, other.top, strict=True)]

    def means(self) -> dict[str, float]:
        """The number scored and the top-1/2/3 accuracies."""
        n = max(self.n, 1)
        return {"n": self.n, "top1": self.top[0] / n, "top2": self.top[1] / n,
                "top3": self.top[2] / n}


@dataclass
class EvalResult:
    """Scores per street and predictor; ``hands`` read and ``players`` scored.

    ``categories`` (with a Markov baseline only): top-Z over the paper's categories of each
    street's board, per street and :data:`CATEGORY_PREDICTORS`.
    """

    scores: dict[str, dict[str, StreetScores]]
    hands: int = 0
    players: int = 0
    categories: dict[str, dict[str, TopZ]] | None = None

    def table(self) -> list[dict[str, float | str]]:
        """One row per (street, predictor) with the mean scores."""
        rows: list[dict[str, float | str]] = []
        for street in STREET_LABELS:
            for name in PREDICTORS:
                rows.append({"street": street, "predictor": name,
                             **self.scores[street][name].means()})
        return rows


def evaluate_hands(
    hands: Iterable[HandRecord],
    *,
    model: DFModel | None = None,
    flop_runouts: int | None = None,
    progress: Callable[[int], None] | None = None,
    markov: MarkovModel | None = None,
) -> EvalResult:
    """Score the predictors on ``hands`` (module docstring); ``progress(1)`` after each hand.

    With a ``markov`` model (the paper's shape: 4 streets, 4/11/11/11 categories, the nine
    action classes) the category scores of :attr:`EvalResult.categories` are kept too.

    Examples
    --------
    >>> from checkraise.histories import EXAMPLE, parse_text
    >>> r = evaluate_hands(parse_text(EXAMPLE))
    >>> r.hands
    1
    """
    model = model or DFModel()
    result = EvalResult({s: {p: StreetScores() for p in PREDICTORS} for s in STREET_LABELS})
    if markov is not None:
        if markov.states != PAPER_STATES or markov.symbols != len(OBSERVATIONS):
            raise ConfigError(f"Markov model with states {markov.states} and {markov.symbols} "
                              f"symbols: expected the paper's {PAPER_STATES} and "
                              f"{len(OBSERVATIONS)}")
        result.categories = {s: {p: TopZ() for p in CATEGORY_PREDICTORS} for s in STREET_LABELS}
    book = StatsBook()
    evidence: dict[str, CutEvidence] = {}
    for hand in hands:
        result.hands += 1
        state = replay(hand, check_payout=False)
        config = state.config
        history = state.observation(0).history
        acts = understand(config, history)
        names = {seat: p.name for seat, p in enumerate(hand.seats)}
        scored = sorted({a.seat for a in acts if a.street >= 1
                         and len(hand.seats[a.seat].hole_cards) == 2})
        shown = [s for s, f in enumerate(state.shown())
                 if f and len(hand.seats[s].hole_cards) == 2]
        adaptations = {s: model.adaptation(book[names[s]].total(), evidence.get(names[s]))
                       for s in set(scored) | set(shown)}
        if scored:
            _score_hand(result, hand, acts, scored, model, adaptations, flop_runouts, markov)
        # Only now, with the hand over, may the observer read the cards shown down.
        for s in shown:
            ev = evidence.setdefault(names[s], CutEvidence())
            for parts in showdown_evidence(
                    acts, tuple(hand.board), s, combo_index(*hand.seats[s].hole_cards),
                    adaptations[s], model=model, flop_runouts=flop_runouts):
                ev.add(*parts)
        book.update(config, history, names, acts)
        if progress is not None:
            progress(1)
    return result


def _score_hand(
    result: EvalResult,
    hand: HandRecord,
    acts: list[UnderstoodAction],
    scored: list[int],
    model: DFModel,
    adaptations: dict[int, Adaptation],
    flop_runouts: int | None,
    markov: MarkovModel | None = None,
) -> None:
    board = tuple(hand.board)
    cats = K.categories(_COMBOS, np.array(board, dtype=np.int64))
    plain = predict_from_actions(acts, board, scored, model=model, flop_runouts=flop_runouts,
                                 last_street=3 if len(board) == 5 else len(board) - 2)
    adapted = predict_from_actions(acts, board, scored, model=model, adaptations=adaptations,
                                   flop_runouts=flop_runouts,
                                   last_street=3 if len(board) == 5 else len(board) - 2)
    summary = summarize(acts)
    for seat in scored:
        result.players += 1
        c0, c1 = hand.seats[seat].hole_cards
        true = combo_index(c0, c1)
        acted = {a.street for a in acts if a.seat == seat}
        for street in range(len(plain[seat].streets)):
            if street not in acted:
                continue
            row = result.scores[STREET_LABELS[street]]
            row["uniform"].add(consistent(board_at(board, street)), true, cats)
            row["model"].add(plain[seat].streets[street], true, cats)
            row["adapted"].add(adapted[seat].streets[street], true, cats)
        if markov is not None and result.categories is not None:
            streets = len(plain[seat].streets)
            observed = [summary.get((seat, s)) for s in range(streets)]
            posterior = markov.filter([OBSERVATIONS.index(a.cls) if a is not None else None
                                       for a in observed])
            for street in sorted(acted):
                street_board = board_at(board, street)
                table = category_table(street_board)
                k = num_categories(street)
                dists = {
                    "uniform": _by_category(consistent(street_board), table, k),
                    "markov": posterior[street],
                    "model": _by_category(plain[seat].streets[street], table, k),
                    "adapted": _by_category(adapted[seat].streets[street], table, k),
                }
                for name, by_cat in dists.items():
                    result.categories[STREET_LABELS[street]][name].add(by_cat, int(table[true]))
