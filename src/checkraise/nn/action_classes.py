"""The classes of a decision that opponent models predict (torch-free).

An opponent model (the expert bot's CNN, its knowledge-base fallback, the baselines
they are measured against) predicts the next action of a player as one of six
classes: fold, check or call, a raise of small, medium or large size relative to the
pot, and all-in. The size of a bet or raise is its increment above the call, as a
fraction of the pot after the call (``pot + to_call``):

* ``raise-small``: at most ``SMALL_MAX`` (0.6) of that pot;
* ``raise-medium``: above that, at most ``LARGE_MIN`` (1.2);
* ``raise-large``: above ``LARGE_MIN``, not all-in;
* ``all-in``: a raise to the seat's whole stack, whatever its size.

:func:`representative` goes the other way, to one concrete legal action per class,
for searches that expand an opponent's classes.

Examples
--------
>>> from checkraise.engine import Action, State, TableConfig
>>> s = State(TableConfig.nolimit(2, 200, 1, 2), hole_cards=[(0, 1), (2, 3)])
>>> obs = s.observation(s.current_player)
>>> [ACTION_CLASSES[action_class(obs, a)] for a in (Action.fold(), Action.call(),
...  Action.raise_to(4), Action.raise_to(6), Action.raise_to(40), Action.raise_to(200))]
['fold', 'check/call', 'raise-small', 'raise-medium', 'raise-large', 'all-in']
>>> [str(representative(obs, k)) for k in range(len(ACTION_CLASSES))]
['f', 'c', 'r4', 'r6', 'r10', 'r200']
"""

from __future__ import annotations

from checkraise.engine.actions import Action, ActionKind
from checkraise.engine.observation import Observation
from checkraise.errors import CheckraiseError

__all__ = ["ACTION_CLASSES", "LARGE_MIN", "SMALL_MAX", "action_class", "representative"]

ACTION_CLASSES: tuple[str, ...] = (
    "fold", "check/call", "raise-small", "raise-medium", "raise-large", "all-in",
)
FOLD, CHECK_CALL, SMALL, MEDIUM, LARGE, ALL_IN = range(6)
SMALL_MAX = 0.6
LARGE_MIN = 1.2
#: The pot fraction (increment over the pot after calling) that stands for each raise class.
_REPRESENTATIVE = {SMALL: 0.5, MEDIUM: 1.0, LARGE: 2.0}


def _acting(obs: Observation) -> tuple[int, int]:
    """(chips the seat has in, pot after it calls) at ``obs``, its own turn."""
    if obs.legal is None:
        raise CheckraiseError(f"seat {obs.seat} is not to act in this observation; "
                              "expected the observation of the seat to act")
    to_call = obs.legal.call_amount
    return obs.contributions[obs.seat], obs.pot + to_call


def action_class(obs: Observation, action: Action) -> int:
    """The class (index into :data:`ACTION_CLASSES`) of ``action`` taken at ``obs``."""
    if action.kind is ActionKind.FOLD:
        return FOLD
    if action.kind is ActionKind.CHECK_CALL:
        return CHECK_CALL
    put_in, pot_after_call = _acting(obs)
    assert obs.legal is not None  # _acting checked it
    if obs.legal.max_raise_to is not None and action.amount >= obs.legal.max_raise_to:
        return ALL_IN
    if action.amount >= put_in + obs.stacks[obs.seat]:
        return ALL_IN
    increment = action.amount - put_in - obs.to_call
    fraction = increment / max(pot_after_call, 1)
    if fraction <= SMALL_MAX:
        return SMALL
    return MEDIUM if fraction <= LARGE_MIN else LARGE


def representative(obs: Observation, k: int) -> Action | None:
    """One legal action of class ``k`` at ``obs``, or ``None`` when the class has none.

    Raises are sized at half, one and two pots (after calling), clamped to the legal
    range; when that lands in another class, the legal size of class ``k`` nearest to
    it (``None`` when the class has no legal size).
    """
    if not 0 <= k < len(ACTION_CLASSES):
        raise CheckraiseError(f"action class {k}; expected 0..{len(ACTION_CLASSES) - 1}")
    put_in, pot_after_call = _acting(obs)
    legal = obs.legal
    assert legal is not None
    if k == FOLD:
        return Action.fold() if legal.can_fold else None
    if k == CHECK_CALL:
        return Action.call()
    if legal.min_raise_to is None or legal.max_raise_to is None:
        return None
    if k == ALL_IN:
        return Action.raise_to(legal.max_raise_to)
    lo, hi = legal.min_raise_to, legal.max_raise_to
    base = put_in + legal.call_amount
    target = base + round(_REPRESENTATIVE[k] * pot_after_call)
    # When the clamped size lands in another class (a short stack makes every raise but
    # the all-in small, say), the class may still hold other legal sizes: try the legal
    # bounds and the amounts either side of the class boundaries, nearest the target first.
    edges = [base + int(f * pot_after_call) + d for f in (SMALL_MAX, LARGE_MIN) for d in (0, 1)]
    candidates = sorted({min(max(a, lo), hi) for a in (target, lo, hi - 1, *edges)},
                        key=lambda a: (abs(a - target), a))
    for amount in candidates:
        action = Action.raise_to(amount)
        if action_class(obs, action) == k:
            return action
    return None
