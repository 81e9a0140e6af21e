"""What an agent would do with every hand it could hold: action probabilities for range tracking.

At a decision, :func:`action_probabilities` gives the probability of each action for each
of the 1,326 two-card combos (the order of :data:`checkraise.cards.COMBO_CARDS`), as
local best response (Lisý & Bowling 2017), range tracking in subgame solving and the
coach need it: Bayes' rule (:func:`update_range`) turns the probabilities of the action
taken into the agent's range after it.

Two ways to get them:

* **The agent's fast path.** An agent may define the optional protocol method
  ``action_probabilities(observation) -> HandActionProbabilities | None`` (see
  :mod:`checkraise.agents.base`); it is used when present. ``None`` means "not here":
  the generic fallback below answers instead. The baselines ``call``, ``raise``,
  ``allin`` and ``checkfold`` (one action whatever the hand) and the ``heuristic`` bot
  (exact, including its Monte Carlo noise) have one.
* **The generic fallback**, :func:`hand_by_hand_probabilities`: for each live combo, a
  fresh copy of the agent as it stands (so every copy starts from the same random
  state) gets the observation with that combo as its hole cards and acts once (a
  deterministic agent's single copy acts for every hand). When
  ``begin_hand_args`` is given, the copy first gets ``begin_hand`` with that combo.
  This is exact for a *deterministic* agent (class attribute ``deterministic = True``:
  its action is a function of the observation and of what ``begin_hand`` received).
  For a stochastic agent each row holds one sampled action (a 0/1 row), the result is
  marked ``exact=False`` and its ``note`` says so.

Limits of the fallback: a copy holds whatever the agent remembers of the hand so far,
learnt with its *real* cards. Re-calling ``begin_hand`` resets what a well-behaved agent
keeps per hand, but then the copy has not seen the hand's earlier decisions: an agent
whose choice depends on its own earlier random draws in the hand (the heuristic bot
reuses one Monte Carlo value per street) is queried as if deciding afresh, which gives
the marginal probability of the action, not its probability given the earlier actions.
The heuristic bot's fast path conditions on its earlier actions of the street; agents
with such memory need a fast path of their own for exact range tracking.

Sampled rows and range tracking: ask for the probabilities *before* the agent acts. Each
copy then starts from the random state the agent itself is about to use, so the row of
the hand it really holds is the action it will take (with ``begin_hand_args``, as long
as ``begin_hand`` draws no random number), and :func:`update_range` never meets an action
that no hand takes.

Examples
--------
>>> from checkraise.agents import make_agent
>>> from checkraise.engine import State, TableConfig
>>> state = State(TableConfig.nolimit(2), seed=1)
>>> hap = action_probabilities(make_agent("call"), state.observation(0))
>>> [str(a) for a in hap.actions], hap.probs.shape, hap.exact
(['c'], (1326, 1), True)
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from checkraise.cards import COMBO_CARDS, COMBO_MASKS, NUM_COMBOS
from checkraise.engine import Action, ActionKind
from checkraise.errors import CheckraiseError
from checkraise.ranges import Range, RangeError

if TYPE_CHECKING:
    from checkraise.agents.base import Agent
    from checkraise.engine import LegalActions, Observation, TableConfig

__all__ = [
    "ActionProbabilityError",
    "BeginHandArgs",
    "HandActionProbabilities",
    "act_with_hand",
    "action_order",
    "action_probabilities",
    "constant_action_probabilities",
    "dead_cards_mask",
    "from_choices",
    "hand_by_hand_probabilities",
    "live_combos",
    "update_range",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

BeginHandArgs = tuple[int, "TableConfig", tuple[int, ...], int]
"""The arguments ``(seat, config, hole_cards, hand_number)`` the agent's ``begin_hand``
got for this hand; the fallback passes them again with ``hole_cards`` replaced."""

_ROW_TOLERANCE = 1e-9


class ActionProbabilityError(CheckraiseError):
    """Action probabilities were asked of an agent that cannot give them, or are malformed."""


@dataclass(frozen=True)
class HandActionProbabilities:
    """The probability of each action, for every hand the agent could hold.

    Attributes
    ----------
    actions : tuple of Action
        The distinct concrete actions (legal in the observation); the ones built here
        are ordered fold, check/call, then raises by amount (:func:`action_order`).
    probs : ndarray of float64, shape (1326, len(actions))
        Row ``i`` is the action distribution with combo ``i``
        (:data:`checkraise.cards.COMBO_CARDS` order); rows of combos that clash with
        the board or other dead cards of the observation are all zero, the other rows
        sum to 1. Read-only.
    exact : bool
        False when the rows are samples (a stochastic agent queried hand by hand).
    note : str
        How the probabilities were obtained, when that matters to a reader.
    """

    actions: tuple[Action, ...]
    probs: FloatArray
    exact: bool
    note: str = ""

    def __post_init__(self) -> None:
        probs = np.array(self.probs, dtype=np.float64)
        if probs.shape != (NUM_COMBOS, len(self.actions)):
            raise ActionProbabilityError(
                f"action probabilities of shape {probs.shape}: expected "
                f"({NUM_COMBOS}, {len(self.actions)}), one column per action"
            )
        if len(set(self.actions)) != len(self.actions):
            raise ActionProbabilityError(
                f"actions {[str(a) for a in self.actions]} repeat an action: expected distinct"
            )
        probs.setflags(write=False)
        object.__setattr__(self, "probs", probs)

    def column(self, action: Action) -> FloatArray:
        """The probability of ``action`` (matched by kind and amount) for every combo.

        Raises :class:`ActionProbabilityError` when ``action`` is not among ``actions``.
        """
        try:
            k = self.actions.index(action)
        except ValueError:
            raise ActionProbabilityError(
                f"action {action} is not among the agent's actions "
                f"{[str(a) for a in self.actions]}"
            ) from None
        out: FloatArray = self.probs[:, k]
        return out


def action_order(action: Action) -> tuple[int, int]:
    """Sort key of actions: fold, check/call, then raises by amount."""
    rank = {ActionKind.FOLD: 0, ActionKind.CHECK_CALL: 1, ActionKind.RAISE: 2}[action.kind]
    return rank, action.amount


def dead_cards_mask(observation: Observation) -> int:
    """Card mask (``1 << card``) of the board and of other seats' shown cards."""
    mask = 0
    for c in observation.board:
        mask |= 1 << int(c)
    for seat, cards in enumerate(observation.shown):
        if cards is not None and seat != observation.seat:
            for c in cards:
                mask |= 1 << int(c)
    return mask


def live_combos(observation: Observation) -> BoolArray:
    """Which of the 1,326 combos the seat could hold (no card of :func:`dead_cards_mask`).

    Examples
    --------
    >>> from checkraise.engine import State, TableConfig
    >>> state = State(TableConfig.nolimit(2), seed=1, board=[0, 1, 2, 3, 4])
    >>> state.check_call(); state.check_call()
    Action(kind=<ActionKind.CHECK_CALL: 'call'>, amount=0)
    Action(kind=<ActionKind.CHECK_CALL: 'call'>, amount=0)
    >>> len(state.board), int(live_combos(state.observation(1)).sum())   # 49 choose 2
    (3, 1176)
    """
    dead = np.uint64(dead_cards_mask(observation))
    out: BoolArray = (COMBO_MASKS & dead) == 0
    return out


def _legal(observation: Observation) -> LegalActions:
    if observation.legal is None:
        raise ActionProbabilityError(
            f"action probabilities asked for seat {observation.seat}, but it is not that "
            "seat's turn: expected an observation with legal actions"
        )
    return observation.legal


def _check_legal(action: object, legal: LegalActions, who: str) -> Action:
    if not isinstance(action, Action):
        raise ActionProbabilityError(f"{who} returned {action!r}: expected an engine Action")
    ok = (
        action.kind is ActionKind.CHECK_CALL
        or (action.kind is ActionKind.FOLD and legal.can_fold)
        or (
            action.kind is ActionKind.RAISE
            and legal.min_raise_to is not None
            and legal.max_raise_to is not None
            and legal.min_raise_to <= action.amount <= legal.max_raise_to
        )
    )
    if not ok:
        raise ActionProbabilityError(f"{who} returned the illegal action {action} in {legal}")
    return action


def constant_action_probabilities(
    observation: Observation, action: Action, note: str = ""
) -> HandActionProbabilities:
    """Every live hand takes ``action``: the fast path of agents that ignore their cards."""
    legal = _legal(observation)
    _check_legal(action, legal, "constant action")
    probs = live_combos(observation).astype(np.float64)[:, None]
    return HandActionProbabilities((action,), probs, exact=True, note=note)


def from_choices(
    choices: Sequence[Action | None], *, exact: bool, note: str = ""
) -> HandActionProbabilities:
    """0/1 probabilities from one action per combo (``None`` for a dead combo)."""
    if len(choices) != NUM_COMBOS:
        raise ActionProbabilityError(
            f"{len(choices)} choices: expected one per combo ({NUM_COMBOS})"
        )
    actions = tuple(sorted({a for a in choices if a is not None}, key=action_order))
    index = {a: k for k, a in enumerate(actions)}
    probs = np.zeros((NUM_COMBOS, len(actions)))
    for i, a in enumerate(choices):
        if a is not None:
            probs[i, index[a]] = 1.0
    return HandActionProbabilities(actions, probs, exact=exact, note=note)


def _hole(combo: int) -> tuple[int, int]:
    return int(COMBO_CARDS[combo, 0]), int(COMBO_CARDS[combo, 1])


def act_with_hand(
    agent: Agent,
    observation: Observation,
    combo: int,
    begin_hand_args: BeginHandArgs | None = None,
    *,
    copied: Agent | None = None,
) -> Action:
    """What a copy of ``agent`` does with combo ``combo`` as its hole cards (the fallback's step).

    The copy starts from the agent's current state, random state included; with
    ``begin_hand_args`` it gets ``begin_hand`` with the substituted hand first.
    ``copied``: act on this copy instead of a new one (for deterministic agents).
    """
    clone = copy.deepcopy(agent) if copied is None else copied
    hole = _hole(combo)
    if begin_hand_args is not None:
        seat, config, _, hand_number = begin_hand_args
        hook = getattr(clone, "begin_hand", None)
        if hook is not None:
            hook(seat, config, hole, hand_number)
    action = clone.act(dataclasses.replace(observation, hole_cards=hole))
    return _check_legal(action, _legal(observation), type(agent).__name__)


def hand_by_hand_probabilities(
    agent: Agent,
    observation: Observation,
    *,
    begin_hand_args: BeginHandArgs | None = None,
) -> HandActionProbabilities:
    """The generic fallback: one ``act`` per live combo on a fresh copy of ``agent``.

    Exact when the agent's class sets ``deterministic = True``; otherwise each row is
    one sampled action and the result says so (``exact=False`` and ``note``). See the
    module docstring for what the copies do and do not remember.

    Examples
    --------
    >>> from checkraise.agents import make_agent
    >>> from checkraise.engine import State, TableConfig
    >>> obs = State(TableConfig.nolimit(2), seed=1).observation(0)
    >>> hap = hand_by_hand_probabilities(make_agent("random", seed=3), obs)
    >>> hap.exact, hap.note.startswith("RandomAgent is stochastic")
    (False, True)
    """
    _refuse_interactive(agent)
    live = live_combos(observation)
    choices: list[Action | None] = [None] * NUM_COMBOS
    deterministic = bool(getattr(agent, "deterministic", False))
    # A deterministic agent's choice does not depend on what it did before: one copy
    # serves every hand (copying is most of the cost of this loop).
    shared = copy.deepcopy(agent) if deterministic else None
    for combo in np.flatnonzero(live):
        choices[combo] = act_with_hand(
            agent, observation, int(combo), begin_hand_args, copied=shared
        )
    if deterministic:
        return from_choices(choices, exact=True, note="deterministic agent queried hand by hand")
    return from_choices(
        choices,
        exact=False,
        note=(
            f"{type(agent).__name__} is stochastic and has no fast path here: one sampled "
            "action per hand (0/1 rows), each from a copy of the agent at its current "
            "random state"
        ),
    )


def _refuse_interactive(agent: Agent) -> None:
    if bool(getattr(agent, "interactive", False)):
        raise ActionProbabilityError(
            f"agent {type(agent).__name__} asks a person: its action probabilities cannot "
            "be queried hand by hand"
        )


def action_probabilities(
    agent: Agent,
    observation: Observation,
    *,
    begin_hand_args: BeginHandArgs | None = None,
) -> HandActionProbabilities:
    """The probability of each action for every hand ``agent`` could hold in ``observation``.

    Uses the agent's own ``action_probabilities(observation)`` when it has one and it
    answers (not ``None``), otherwise :func:`hand_by_hand_probabilities`.

    Parameters
    ----------
    agent
        Any agent (the protocol of :mod:`checkraise.agents.base`).
    observation
        The agent's observation at its decision (``observation.legal`` set). Its hole
        cards are ignored: every combo is tried.
    begin_hand_args
        ``(seat, config, hole_cards, hand_number)`` as the agent's ``begin_hand`` got
        them this hand; the fallback re-calls ``begin_hand`` with each combo. ``None``:
        the copies keep what the agent learnt at ``begin_hand``.

    Returns
    -------
    HandActionProbabilities

    Examples
    --------
    >>> from checkraise.agents import make_agent
    >>> from checkraise.engine import State, TableConfig
    >>> state = State(TableConfig.nolimit(2), seed=1)
    >>> state.raise_to(300)
    Action(kind=<ActionKind.RAISE: 'raise'>, amount=300)
    >>> hap = action_probabilities(make_agent("checkfold"), state.observation(1))
    >>> [str(a) for a in hap.actions], float(hap.probs.sum())
    (['f'], 1326.0)
    """
    _legal(observation)
    _refuse_interactive(agent)
    method = getattr(agent, "action_probabilities", None)
    if method is not None:
        hap = method(observation)
        if hap is not None:
            _validate(hap, observation, type(agent).__name__)
            return hap  # type: ignore[no-any-return]
    return hand_by_hand_probabilities(agent, observation, begin_hand_args=begin_hand_args)


def _validate(hap: Any, observation: Observation, who: str) -> None:
    if not isinstance(hap, HandActionProbabilities):
        raise ActionProbabilityError(
            f"{who}.action_probabilities returned {type(hap).__name__}: expected "
            "HandActionProbabilities or None"
        )
    legal = _legal(observation)
    for a in hap.actions:
        _check_legal(a, legal, f"{who}.action_probabilities")
    live = live_combos(observation)
    sums = hap.probs.sum(axis=1)
    if (
        np.any(hap.probs < 0.0)
        or np.any(hap.probs[~live] != 0.0)
        or np.any(np.abs(sums[live] - 1.0) > _ROW_TOLERANCE)
    ):
        raise ActionProbabilityError(
            f"{who}.action_probabilities gave rows that are not distributions: expected "
            "non-negative rows summing to 1 for live hands and zero rows for dead hands"
        )


def update_range(
    weights: Range | Iterable[float] | FloatArray,
    hap: HandActionProbabilities,
    taken: Action,
) -> FloatArray:
    """Bayes' rule: the weights times the probability of ``taken`` with each combo.

    The result is not renormalised, so weights that were reach probabilities stay
    reach probabilities (the probability that the agent holds the combo *and* acted so,
    up to the common factor of the other players' actions); a result of all zeros
    says no hand of the range takes ``taken``. ``taken`` is matched to ``hap.actions``
    by kind and amount; an action the agent gives no probability at all raises
    :class:`ActionProbabilityError`.

    Examples
    --------
    >>> import numpy as np
    >>> from checkraise.engine import Action
    >>> probs = np.zeros((1326, 2)); probs[:, 0] = 0.25; probs[:, 1] = 0.75
    >>> hap = HandActionProbabilities((Action.fold(), Action.call()), probs, exact=True)
    >>> float(update_range(np.ones(1326), hap, Action.call())[0])
    0.75
    """
    w = np.array(weights.weights if isinstance(weights, Range) else weights, dtype=np.float64)
    if w.shape != (NUM_COMBOS,) or not np.all(np.isfinite(w)) or np.any(w < 0.0):
        raise RangeError(
            f"range weights of shape {w.shape}: expected {NUM_COMBOS} finite "
            "non-negative weights"
        )
    out: FloatArray = w * hap.column(taken)
    return out
