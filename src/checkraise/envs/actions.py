"""The action spaces: a discrete abstraction or a kind with a continuous raise amount.

``action_format="discrete"`` (:class:`gymnasium.spaces.Discrete` of ``k + 3``, with
``k`` bet fractions):

* ``0`` fold (legal only when facing a bet: checking is free),
* ``1`` check or call (always legal; a call for more than the stack is all-in),
* ``2 .. k + 1`` bet or raise by ``bet_fractions[i - 2]`` of the pot after calling:
  raise-to ``= highest bet + round(f * (pot + to_call))``, lifted to the minimum raise
  when it falls below it; legal when raising is allowed and that amount is below the
  all-in total (larger sizes are the all-in action's),
* ``k + 2`` all-in (legal when raising is allowed).

``action_format="continuous"`` (:class:`gymnasium.spaces.Tuple` of ``Discrete(3)`` and
``Box(0, 1, (1,))``): the kind ``0`` fold, ``1`` check/call, ``2`` raise, and ``x`` in
``[0, 1]`` placing the raise-to total in the legal range,
``min_raise_to + round(x * (max_raise_to - min_raise_to))`` (so ``x = 1`` is all-in);
``x`` is ignored unless the kind is a raise. The mask covers the kind.

The legal-action mask is an ``int8`` array, 1 for a legal choice. An action outside
the space raises :class:`EnvActionError`; an illegal one inside it is played as
check/call (flagged in the info) or raises, as ``illegal_action`` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from checkraise.engine.actions import Action, IllegalActionError, LegalActions
from checkraise.envs.config import ActionFormat, IllegalActionPolicy

if TYPE_CHECKING:
    from gymnasium import spaces

    from checkraise.engine.state import State
    from checkraise.envs.config import EnvConfig

__all__ = ["ActionAbstraction", "EnvActionError"]

_CALL = Action.call()
_FOLD = Action.fold()


class EnvActionError(IllegalActionError):
    """An action outside the action space, or an illegal one with ``illegal_action="error"``."""


class ActionAbstraction:
    """Maps environment actions to engine actions, and computes the legal-action mask.

    Examples
    --------
    >>> from checkraise.engine import State
    >>> from checkraise.envs.config import EnvConfig
    >>> cfg = EnvConfig(stacks=1000, bet_fractions=(0.5, 1))
    >>> state = State(cfg.table, seed=1)
    >>> abstraction = ActionAbstraction(cfg)
    >>> abstraction.mask(state).tolist()  # fold, call, half pot, pot, all-in
    [1, 1, 1, 1, 1]
    >>> [str(abstraction.to_engine(state, a)[0]) for a in range(5)]
    ['f', 'c', 'r200', 'r300', 'r1000']
    """

    def __init__(self, config: EnvConfig) -> None:
        self.fractions = config.bet_fractions
        self.continuous = config.action_format == ActionFormat.CONTINUOUS
        self.strict = config.illegal_action == IllegalActionPolicy.ERROR
        self.size = 3 if self.continuous else 3 + len(self.fractions)

    def space(self) -> spaces.Space[Any]:
        """The gymnasium action space."""
        from gymnasium import spaces

        if self.continuous:
            return spaces.Tuple((spaces.Discrete(3),
                                 spaces.Box(0.0, 1.0, shape=(1,), dtype=np.float32)))
        return spaces.Discrete(self.size)

    def _sizes(self, state: State, legal: LegalActions) -> list[int]:
        """The raise-to amount of each bet fraction (lifted to the minimum raise)."""
        seat = state.current_player
        assert seat is not None and legal.min_raise_to is not None
        highest = state.bets[seat] + legal.call_amount
        pot_after_call = state.pot + legal.call_amount
        return [max(legal.min_raise_to, highest + round(f * pot_after_call))
                for f in self.fractions]

    def mask(self, state: State) -> npt.NDArray[np.int8]:
        """1 for each legal action of the seat to act (all 0 once the hand is over)."""
        mask = np.zeros(self.size, dtype=np.int8)
        if state.is_terminal:
            return mask
        legal = state.legal_actions()
        mask[0] = legal.can_fold
        mask[1] = 1
        if legal.max_raise_to is None:
            return mask
        if self.continuous:
            mask[2] = 1
            return mask
        for i, size in enumerate(self._sizes(state, legal)):
            mask[2 + i] = size < legal.max_raise_to
        mask[-1] = 1
        return mask

    def _index(self, action: Any) -> tuple[int, float]:
        """(choice, raise position) of an action of the space, or :class:`EnvActionError`."""
        if self.continuous:
            try:
                kind, x = action
                k = int(kind)
                amount = float(np.asarray(x, dtype=np.float64).reshape(-1)[0])
            except (TypeError, ValueError, IndexError):
                raise EnvActionError(f"action {action!r}: expected a pair (kind 0..2, "
                                     "[x] with x in [0, 1])") from None
            if k != kind or not 0 <= k < 3 or not 0.0 <= amount <= 1.0:
                raise EnvActionError(f"action {action!r}: expected a kind 0..2 and a raise "
                                     "position x in [0, 1]")
            return k, amount
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            raise EnvActionError(f"action {action!r}: expected an int 0..{self.size - 1}")
        if not 0 <= action < self.size:
            raise EnvActionError(f"action {action!r}: expected an int 0..{self.size - 1}")
        return int(action), 0.0

    def to_engine(self, state: State, action: Any) -> tuple[Action, bool]:
        """The engine action for ``action`` at ``state`` and whether it was legal.

        An illegal action becomes check/call, or raises :class:`EnvActionError` when
        the environment was made with ``illegal_action="error"``.
        """
        choice, x = self._index(action)
        legal = state.legal_actions()
        engine: Action | None = None
        if choice == 0:
            engine = _FOLD if legal.can_fold else None
        elif choice == 1:
            engine = _CALL
        elif legal.min_raise_to is not None and legal.max_raise_to is not None:
            lo, hi = legal.min_raise_to, legal.max_raise_to
            if self.continuous:
                engine = Action.raise_to(lo + round(x * (hi - lo)))
            elif choice == self.size - 1:
                engine = Action.raise_to(hi)
            else:
                size = self._sizes(state, legal)[choice - 2]
                engine = Action.raise_to(size) if size < hi else None
        if engine is not None:
            return engine, True
        if self.strict:
            raise EnvActionError(
                f"illegal action {action!r} for seat {state.current_player}: the legal "
                f"actions are {np.flatnonzero(self.mask(state)).tolist()} (the action mask)")
        return _CALL, False
