"""Local best response (LBR): settings, the win probability and the one-step choice.

The algorithm is Lisý & Bowling (2017), "Equilibrium approximation quality of
current no-limit poker bots" (AAAI workshop on computer poker; arXiv:1612.07547).
LBR keeps the agent's range (a weight per hand, updated by Bayes from the agent's
probabilities each time it acts) and, at each of its own decisions on a street where
it may bet, values every candidate action against that range as if both players
then checked or called to the showdown:

- fold: ``0`` (the reference: chips already in are lost either way);
- check/call: ``wp * pot - (1 - wp) * asked``;
- a raise that adds ``a`` beyond the call:
  ``fp * pot + (1 - fp) * (wp * (pot + a) - (1 - wp) * (asked + a))``,

where ``pot`` is every chip in the middle, ``asked`` what calling costs, ``wp`` the
probability of winning (ties half) against the range over the runouts and ``fp`` the
range-weighted probability that the agent folds to that raise. LBR plays the best
(ties go to check/call, then fold, then the smaller raise). On the other streets it
checks or calls. ``wp`` is exact on the river, turn and flop (every runout), and a
seeded Monte Carlo over boards preflop (:mod:`checkraise.lbr._kernels`).

Action sets (``--actions``): ``fc`` fold/call; ``fcpa`` adds a pot-sized raise and
all-in; ``56`` is 56 raise sizes: the minimum raise, all-in, and 54 fractions of the
pot (0.05-1.00 by 0.05, 1.1-3.0 by 0.1, 3.25-6.5 by 0.25). The paper names 56 sizes
but our copy of it does not list them; these span the same ground (small bets to
large overbets) and are documented here so results can be reproduced.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from checkraise.cards import COMBO_CARDS, COMBO_MASKS
from checkraise.engine import Action, LegalActions, State
from checkraise.errors import ConfigError, one_of
from checkraise.lbr._kernels import wp_vs_range

__all__ = [
    "CALL_CHOICE",
    "FOLD_CHOICE",
    "POT_FRACTIONS_56",
    "STREET_NAMES",
    "ActionSet",
    "LBRSettings",
    "best_choice",
    "candidate_raises",
    "choose",
    "live_weights",
    "parse_streets",
    "win_probability",
]

FloatArray = npt.NDArray[np.float64]

STREET_NAMES = ("preflop", "flop", "turn", "river")

POT_FRACTIONS_56: tuple[float, ...] = (
    tuple(round(0.05 * k, 2) for k in range(1, 21))
    + tuple(round(1.0 + 0.1 * k, 1) for k in range(1, 21))
    + tuple(3.0 + 0.25 * k for k in range(1, 15))
)
"""The 54 pot fractions of the ``56`` action set (with the minimum raise and all-in)."""


class ActionSet(StrEnum):
    """LBR's candidate actions: fold/call, + pot and all-in, or 56 raise sizes."""

    FC = "fc"
    FCPA = "fcpa"
    SIZES56 = "56"


def parse_streets(text: str | Sequence[str]) -> frozenset[int]:
    """Street numbers (0 preflop .. 3 river) from ``"all"`` or names like ``"turn,river"``.

    Examples
    --------
    >>> sorted(parse_streets("turn,river")), sorted(parse_streets("all"))
    ([2, 3], [0, 1, 2, 3])
    """
    names = [t.strip().lower() for t in (text.split(",") if isinstance(text, str) else text)]
    if names == ["all"]:
        return frozenset(range(4))
    out = set()
    for name in names:
        if name not in STREET_NAMES:
            raise ConfigError(
                f"invalid street {name!r} in {text!r}: expected 'all' or {one_of(STREET_NAMES)}"
            )
        out.add(STREET_NAMES.index(name))
    if not out:
        raise ConfigError(f"no streets in {text!r}: expected 'all' or {one_of(STREET_NAMES)}")
    return frozenset(out)


@dataclass(frozen=True)
class LBRSettings:
    """What LBR may do and how it estimates preflop win probabilities.

    Parameters
    ----------
    actions : ActionSet or str
        ``fc``, ``fcpa`` or ``56``.
    streets : frozenset of int
        Streets (0 preflop .. 3 river) on which LBR chooses; elsewhere it checks/calls.
    preflop_samples : int
        Monte Carlo boards for ``wp`` before the flop.
    """

    actions: ActionSet = ActionSet.FCPA
    streets: frozenset[int] = frozenset((2, 3))
    preflop_samples: int = 1000

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "actions", ActionSet(self.actions))
        except ValueError:
            raise ConfigError(
                f"invalid LBR action set {self.actions!r}: expected "
                f"{one_of([a.value for a in ActionSet])}"
            ) from None
        if not self.streets or not set(self.streets) <= {0, 1, 2, 3}:
            raise ConfigError(f"invalid LBR streets {sorted(self.streets)!r}: expected a "
                              "non-empty subset of 0..3")
        if self.preflop_samples < 1:
            raise ConfigError(
                f"invalid preflop_samples {self.preflop_samples!r}: expected at least 1"
            )

    @property
    def label(self) -> str:
        """Short form, e.g. ``fcpa@turn,river``."""
        streets = ("all" if len(self.streets) == 4
                   else ",".join(STREET_NAMES[s] for s in sorted(self.streets)))
        return f"{self.actions.value}@{streets}"


def candidate_raises(
    actions: ActionSet, legal: LegalActions, pot: int, opponent_contribution: int
) -> list[int]:
    """Distinct legal raise-to totals of ``actions`` (ascending; empty for ``fc``).

    A pot fraction ``f`` raises to ``opponent_contribution + f * (pot + to_call)``:
    call, then add ``f`` times the pot after the call; sizes outside the legal
    range are moved to its nearest end.

    Examples
    --------
    >>> legal = LegalActions(True, False, 50, 200, 20000)
    >>> candidate_raises(ActionSet.FCPA, legal, 150, 100)
    [300, 20000]
    """
    if actions is ActionSet.FC or legal.min_raise_to is None or legal.max_raise_to is None:
        return []
    lo, hi = legal.min_raise_to, legal.max_raise_to
    after_call = pot + legal.call_amount
    if actions is ActionSet.FCPA:
        sizes = [opponent_contribution + after_call, hi]
    else:
        sizes = [lo, hi] + [opponent_contribution + round(f * after_call) for f in POT_FRACTIONS_56]
    return sorted({min(max(s, lo), hi) for s in sizes})


def win_probability(
    hole: Sequence[int], board: Sequence[int], weights: FloatArray, *, samples: int = 1000,
    rng: np.random.Generator | None = None,
) -> float:
    """``P(win) + P(tie) / 2`` of ``hole`` against ``weights`` checking to the showdown.

    Exact over every runout from the flop on; preflop ``samples`` boards drawn from
    ``rng``. Raises :class:`ConfigError` when no hand of the range fits the cards.

    Examples
    --------
    >>> from checkraise.cards import parse_cards
    >>> from checkraise.ranges import Range
    >>> w = Range("KK").weights
    >>> round(win_probability(parse_cards("AsAh"), parse_cards("2c7d9h Jc"), w), 4)
    0.9545
    """
    from checkraise.equity.core import rng_state

    b = np.zeros(5, dtype=np.int64)
    b[: len(board)] = board
    gen = rng if rng is not None else np.random.default_rng(0)
    state = rng_state(gen) if len(board) == 0 else np.zeros(4, dtype=np.uint64)
    wp = float(wp_vs_range(int(hole[0]), int(hole[1]), b, len(board),
                           np.ascontiguousarray(weights, dtype=np.float64), COMBO_CARDS,
                           int(samples), state))
    if wp < 0.0:
        raise ConfigError("the agent's range holds no hand that fits the known cards")
    return wp


def _board_mask(board: Sequence[int]) -> np.uint64:
    m = 0
    for c in board:
        m |= 1 << int(c)
    return np.uint64(m)


def live_weights(weights: FloatArray, known: Sequence[int]) -> FloatArray:
    """``weights`` with every hand that holds a card of ``known`` set to 0."""
    out: FloatArray = np.where((COMBO_MASKS & _board_mask(known)) == 0, weights, 0.0)
    return out


def choose(
    state: State,
    seat: int,
    weights: FloatArray,
    settings: LBRSettings,
    fold_probability: Callable[[int], FloatArray],
    *,
    rng: np.random.Generator,
) -> tuple[Action, float]:
    """LBR's action for ``seat`` in ``state`` and its estimated value (chips vs folding).

    ``fold_probability(raise_to) -> FloatArray`` gives, per hand, the agent's
    probability of folding after LBR raises to ``raise_to``; ``weights`` is the
    agent's (unnormalised) range.
    """
    legal = state.legal_actions()
    if state.round not in settings.streets:
        return Action.call(), float("nan")
    hole = state.hole_cards[seat]
    board = state.board
    w = live_weights(weights, (*hole, *board))
    total = float(w.sum())
    if total <= 0.0:
        raise ConfigError("the agent's range is empty at an LBR decision")
    wp = win_probability(hole, board, w, samples=settings.preflop_samples, rng=rng)
    contrib = state.contributions
    pot = sum(contrib)
    asked = legal.call_amount
    opp = contrib[1 - seat]
    raises = candidate_raises(settings.actions, legal, pot, opp)
    options = [(to - opp, float(np.dot(w, fold_probability(to))) / total) for to in raises]
    k, value = best_choice(wp, pot, asked, asked > 0 and legal.can_fold, options)
    if k == FOLD_CHOICE:
        return Action.fold(), value
    if k == CALL_CHOICE:
        return Action.call(), value
    return Action.raise_to(raises[k]), value


FOLD_CHOICE = -2
CALL_CHOICE = -1


def best_choice(
    wp: float, pot: float, asked: float, can_fold: bool,
    raises: Sequence[tuple[float, float]],
) -> tuple[int, float]:
    """LBR's rule: the best of fold, check/call and each raise, and its value.

    ``raises`` holds ``(a, fp)`` per raise: chips added beyond the call and the
    agent's fold probability. Returns ``(FOLD_CHOICE | CALL_CHOICE | index into
    raises, value)``; values are chips relative to folding now (module docstring).
    Ties go to check/call, then fold, then the earlier raise.

    Examples
    --------
    >>> best_choice(0.5, 200, 0, False, [(200, 1.0)])   # an agent that always folds
    (0, 200.0)
    >>> best_choice(0.1, 300, 100, True, [])
    (-2, 0.0)
    """
    k, best = CALL_CHOICE, wp * pot - (1.0 - wp) * asked
    if can_fold and best < 0.0:
        k, best = FOLD_CHOICE, 0.0
    for i, (a, fp) in enumerate(raises):
        value = fp * pot + (1.0 - fp) * (wp * (pot + a) - (1.0 - wp) * (asked + a))
        if value > best:
            k, best = i, value
    return k, float(best)
