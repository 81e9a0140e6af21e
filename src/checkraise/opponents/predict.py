"""Bayesian prediction of each opponent's hand from his actions, over all 1,326 combos.

The prediction of Li, Jiang, Chen, Bao, "Game in multiplayer no-limit Texas Hold'em based
on hands prediction" (Chinese Journal of Computers 40(12), 2017, equations 12-17 there;
we do not have the paper's text, so the numbering below is ours):

1. the prior is uniform over the combos consistent with the cards the observer knows
   (his own hole cards and the board): ``P_0(ψ) = 1 / |Ψ|`` for ψ ∈ Ψ, 0 otherwise;
2. each street ``s`` the player's action is summarised by his most aggressive one,
   ``α_s`` (:func:`~checkraise.opponents.actions.summarize`);
3. the likelihood of that action is the default model's ``P(α_s | ψ)``
   (:class:`~checkraise.opponents.model.DFModel`), computed from each combo's P_win on
   the board of street ``s`` (:func:`~checkraise.opponents.pwin.pwin_table`, once per
   board, cached);
4. Bayes' rule: ``P_s(ψ) ∝ P_{s-1}(ψ) P(α_s | ψ)``, zero on combos that hit the cards
   known by then, renormalised to sum to 1.

Every step is a product of length-1,326 vectors. The actions of a street still in
progress are summarised as far as they go, so the bot can predict mid-street.

Examples
--------
>>> from checkraise.engine import Action, TableConfig
>>> cfg = TableConfig.nolimit(2, stacks=10_000)
>>> hist = [(0, 0, Action.raise_to(300)), (1, 0, Action.raise_to(1000)), (0, 0, Action.call())]
>>> pred = predict(cfg, hist, board=(), seats=[1])
>>> from checkraise.cards import parse_cards, combo_index
>>> aa, s72 = combo_index(*parse_cards("AsAh")), combo_index(*parse_cards("7c2d"))
>>> bool(pred[1].final[aa] > 5 * pred[1].final[s72])
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from checkraise.cards import COMBO_MASKS, CardError
from checkraise.engine import Action, TableConfig
from checkraise.opponents.actions import UnderstoodAction, summarize, understand
from checkraise.opponents.model import Adaptation, DFModel
from checkraise.opponents.pwin import pwin_table

__all__ = [
    "Prediction",
    "board_at",
    "consistent",
    "predict",
    "predict_from_actions",
    "showdown_evidence",
    "update",
]

FloatArray = npt.NDArray[np.float64]
_MASKS = np.asarray(COMBO_MASKS, dtype=np.int64)
_STREET_CARDS = (0, 3, 4, 5)


def board_at(board: Sequence[int], street: int) -> tuple[int, ...]:
    """The part of ``board`` dealt by ``street`` (0 preflop .. 3 river).

    Examples
    --------
    >>> board_at((1, 2, 3, 4, 5), 2)
    (1, 2, 3, 4)
    """
    return tuple(board[: _STREET_CARDS[street]])


def consistent(known: Iterable[int]) -> FloatArray:
    """The prior: uniform over the combos that avoid every ``known`` card (sums to 1).

    Examples
    --------
    >>> int(np.count_nonzero(consistent([0, 1, 2, 3, 4])))  # C(47, 2)
    1081
    """
    mask = 0
    for c in known:
        mask |= 1 << int(c)
    w = ((_MASKS & mask) == 0).astype(np.float64)
    total = w.sum()
    if total == 0:
        raise CardError("no combo avoids the known cards")
    result: FloatArray = w / total
    return result


def update(prior: FloatArray, likelihood: FloatArray) -> FloatArray:
    """One Bayes step: ``prior × likelihood`` renormalised (``nan`` likelihoods count as 0).

    Falls back to the prior when the product vanishes everywhere (an action the model
    gives no hand a chance of, which cannot happen with θ and the floor of 1).

    Examples
    --------
    >>> update(np.array([0.5, 0.5, 0.0]), np.array([0.25, 0.75, 0.9])).tolist()
    [0.25, 0.75, 0.0]
    """
    post = prior * np.nan_to_num(likelihood, nan=0.0)
    total = post.sum()
    if not total > 0:
        return prior
    result: FloatArray = post / total
    return result


@dataclass(frozen=True)
class Prediction:
    """One player's predicted distribution after each street he reached.

    ``streets[s]`` is the distribution after his actions of street ``s`` (the prior
    conditioned on the board of that street when he did not act on it); ``actions[s]``
    the summary action used (``None`` when he did not act).
    """

    seat: int
    streets: tuple[FloatArray, ...]
    actions: tuple[UnderstoodAction | None, ...]

    @property
    def final(self) -> FloatArray:
        """The latest distribution."""
        return self.streets[-1]


def predict_from_actions(
    actions: Sequence[UnderstoodAction],
    board: Sequence[int],
    seats: Iterable[int],
    *,
    known: Iterable[int] = (),
    model: DFModel | None = None,
    adaptations: Mapping[int, Adaptation] | None = None,
    flop_runouts: int | None = None,
    last_street: int | None = None,
) -> dict[int, Prediction]:
    """Predict ``seats``' hands from already understood actions (see :func:`predict`)."""
    model = model or DFModel()
    summary = summarize(actions)
    dealt = len(board)
    top = max((a.street for a in actions), default=0)
    if last_street is None:
        last_street = top
    known = tuple(known)
    out: dict[int, Prediction] = {}
    pwins: dict[int, FloatArray] = {}
    for seat in seats:
        dists: list[FloatArray] = []
        used: list[UnderstoodAction | None] = []
        w = consistent(known)
        adapt = adaptations.get(seat) if adaptations else None
        for s in range(last_street + 1):
            if _STREET_CARDS[s] > dealt:
                raise CardError(f"street {s} needs {_STREET_CARDS[s]} board cards, "
                                 f"{dealt} given")
            street_board = board_at(board, s)
            w = update(w, consistent(street_board))
            act = summary.get((seat, s))
            if act is not None:
                if s not in pwins:
                    pwins[s] = pwin_table(street_board, flop_runouts)
                w = update(w, model.likelihood(act, pwins[s], adapt, prior=w))
            dists.append(w)
            used.append(act)
        out[seat] = Prediction(seat, tuple(dists), tuple(used))
    return out


def predict(
    config: TableConfig,
    history: Sequence[tuple[int, int, Action]],
    board: Sequence[int],
    seats: Iterable[int] | None = None,
    *,
    known: Iterable[int] = (),
    model: DFModel | None = None,
    adaptations: Mapping[int, Adaptation] | None = None,
    flop_runouts: int | None = None,
) -> dict[int, Prediction]:
    """Predict the hands of ``seats`` (default: all) from a hand's public history.

    Parameters
    ----------
    config, history
        The table and the engine history ``(seat, round, action)`` so far.
    board
        Board cards dealt so far.
    known
        Cards the observer holds besides the board (his own hole cards).
    model
        The default model (shipped configuration when ``None``).
    adaptations
        Per-seat observed rates from :meth:`DFModel.adaptation`.
    flop_runouts
        Passed to :func:`~checkraise.opponents.pwin.pwin_table`.
    """
    if seats is None:
        seats = range(config.num_players)
    actions = understand(config, history)
    street = max([a.street for a in actions] + [len([c for c in _STREET_CARDS[1:]
                                                      if c <= len(board)])])
    return predict_from_actions(
        actions, tuple(board), seats, known=tuple(known), model=model,
        adaptations=adaptations, flop_runouts=flop_runouts, last_street=street,
    )



def showdown_evidence(
    actions: Sequence[UnderstoodAction],
    board: Sequence[int],
    seat: int,
    combo: int,
    adaptation: Adaptation | None,
    *,
    known: Iterable[int] = (),
    model: DFModel | None = None,
    flop_runouts: int | None = None,
) -> list[tuple[float, float, float, float]]:
    """``P_default``, ``P_adapted`` of each of ``seat``'s street actions at the shown ``combo``.

    Each street he acted on gives the two likelihoods at ``combo`` and their means over
    his range predicted before the action.
    Replays the prediction of his hand as the observer made it during the hand (the same
    ``adaptation``, the same ``known`` cards); call it only once the hand is over and his
    cards were shown. The tuples feed :meth:`~checkraise.opponents.evidence.CutEvidence.add`.

    Examples
    --------
    >>> from checkraise.engine import Action, TableConfig
    >>> from checkraise.cards import parse_cards, combo_index
    >>> cfg = TableConfig.nolimit(2, stacks=10_000)
    >>> acts = understand(cfg, [(0, 0, Action.raise_to(300)), (1, 0, Action.call())])
    >>> aa = combo_index(*parse_cards("AsAh"))
    >>> [(p == q, p > zp) for p, q, zp, _ in showdown_evidence(acts, (), 0, aa, None)]
    [(True, True)]
    """
    model = model or DFModel()
    summary = summarize(actions)
    w = consistent(known)
    out: list[tuple[float, float, float, float]] = []
    for s in range(4):
        if _STREET_CARDS[s] > len(board):
            break
        street_board = board_at(board, s)
        w = update(w, consistent(street_board))
        act = summary.get((seat, s))
        if act is None:
            continue
        pwin = pwin_table(street_board, flop_runouts)
        plain, adapted = model.likelihood_parts(act, pwin, adaptation, prior=w)
        mass = max(float(w.sum()), 1e-300)
        out.append((float(plain[combo]), float(adapted[combo]),
                    float(np.nansum(w * plain)) / mass, float(np.nansum(w * adapted)) / mass))
        mu = adaptation.weight if adaptation is not None else 0.0
        w = update(w, (1.0 - mu) * plain + mu * adapted)
    return out
