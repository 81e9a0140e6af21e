"""Baseline agents: the yardsticks every bot should beat.

- ``random`` — the behaviour of the ACPC's ``example_player`` (the reference
  random player shipped with the competition's dealer): fold, call or raise with
  fixed probabilities (6% / 47% / 47% by default, renormalised over the legal
  ones; folding is legal only when facing a bet), raise size uniform over the
  legal range. ``random:pfold=1,pcall=1,praise=1`` is a uniformly random legal
  action kind.
- ``call`` — always check or call (the "calling station").
- ``raise`` — always raise the minimum, call when raising is not allowed.
- ``allin`` — always raise all-in, call when raising is not allowed.
- ``checkfold`` — check when free, otherwise fold.
- ``equity`` — a simple equity-threshold player: it estimates its win
  probability against as many uniformly random hands as there are opponents
  still in the hand (Monte Carlo, :func:`checkraise.equity.equity`), bets
  about the pot when that equity is well above its fair share, calls when it
  beats the pot odds, and otherwise checks or folds. This is the classic
  "pot-odds" rule-based player of the poker-AI literature (e.g. Billings et
  al., *The challenge of poker*, 2002), without opponent modelling.

Examples
--------
>>> from checkraise.engine import State, TableConfig
>>> state = State(TableConfig.nolimit(2), seed=1)
>>> str(MinRaiseAgent().act(state.observation(state.current_player)))
'r200'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from checkraise.agents.base import AgentSpecError, BaseAgent
from checkraise.agents.probabilities import (
    HandActionProbabilities,
    constant_action_probabilities,
)
from checkraise.engine import Action
from checkraise.errors import ConfigError

if TYPE_CHECKING:
    from checkraise.engine import LegalActions, Observation

__all__ = [
    "AllInAgent",
    "CallAgent",
    "CheckFoldAgent",
    "EquityAgent",
    "MinRaiseAgent",
    "RandomAgent",
]


def _legal(observation: Observation) -> LegalActions:
    legal = observation.legal
    if legal is None:
        raise ConfigError(
            f"agent asked to act for seat {observation.seat} but it is not that seat's turn"
        )
    return legal


class RandomAgent(BaseAgent):
    """The ACPC example player: random action kind, uniform raise size.

    Parameters
    ----------
    seed : int or None
        Seed of the generator.
    pfold, pcall, praise : float
        Relative weights of fold, check/call and raise; renormalised over the
        legal ones.
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        pfold: float = 0.06,
        pcall: float = 0.47,
        praise: float = 0.47,
    ) -> None:
        super().__init__(seed=seed)
        weights = (float(pfold), float(pcall), float(praise))
        if min(weights) < 0 or weights[1] + weights[2] <= 0:
            raise AgentSpecError(
                f"invalid random-agent weights {weights!r}: expected non-negative weights "
                "with pcall + praise > 0"
            )
        self.weights = weights

    def act(self, observation: Observation) -> Action:
        """Draw an action kind, then a raise size uniformly in the legal range."""
        legal = _legal(observation)
        can_fold = legal.can_fold and legal.call_amount > 0
        can_raise = legal.min_raise_to is not None and legal.max_raise_to is not None
        w = np.array(
            [
                self.weights[0] if can_fold else 0.0,
                self.weights[1],
                self.weights[2] if can_raise else 0.0,
            ]
        )
        if w.sum() <= 0:
            return Action.call()
        choice = int(self.rng.choice(3, p=w / w.sum()))
        if choice == 0:
            return Action.fold()
        if choice == 1:
            return Action.call()
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        return Action.raise_to(int(self.rng.integers(legal.min_raise_to, legal.max_raise_to + 1)))


class CallAgent(BaseAgent):
    """Always check or call."""

    deterministic = True

    def act(self, observation: Observation) -> Action:
        """Check or call."""
        _legal(observation)
        return Action.call()

    def action_probabilities(self, observation: Observation) -> HandActionProbabilities:
        """Every hand checks or calls."""
        return constant_action_probabilities(observation, self.act(observation))


class MinRaiseAgent(BaseAgent):
    """Always raise the minimum; call when raising is not allowed."""

    deterministic = True

    def act(self, observation: Observation) -> Action:
        """Raise to the minimum legal total, else call."""
        legal = _legal(observation)
        if legal.min_raise_to is None:
            return Action.call()
        return Action.raise_to(legal.min_raise_to)

    def action_probabilities(self, observation: Observation) -> HandActionProbabilities:
        """Every hand takes the same action (:meth:`act` ignores the cards)."""
        return constant_action_probabilities(observation, self.act(observation))


class AllInAgent(BaseAgent):
    """Always move all-in; call when raising is not allowed."""

    deterministic = True

    def act(self, observation: Observation) -> Action:
        """Raise to the maximum legal total, else call."""
        legal = _legal(observation)
        if legal.max_raise_to is None:
            return Action.call()
        return Action.raise_to(legal.max_raise_to)

    def action_probabilities(self, observation: Observation) -> HandActionProbabilities:
        """Every hand takes the same action (:meth:`act` ignores the cards)."""
        return constant_action_probabilities(observation, self.act(observation))


class CheckFoldAgent(BaseAgent):
    """Check when free, fold to any bet: an "always fold" player that takes free cards."""

    deterministic = True

    def act(self, observation: Observation) -> Action:
        """Check if nothing is to be called, else fold."""
        legal = _legal(observation)
        if legal.call_amount > 0 and legal.can_fold:
            return Action.fold()
        return Action.call()

    def action_probabilities(self, observation: Observation) -> HandActionProbabilities:
        """Every hand takes the same action (:meth:`act` ignores the cards)."""
        return constant_action_probabilities(observation, self.act(observation))


class EquityAgent(BaseAgent):
    """Bet for value when equity is high, call on pot odds, else check or fold.

    Parameters
    ----------
    seed : int or None
        Seed of the Monte Carlo sampling.
    raise_ratio : float
        Raise when equity ≥ ``raise_ratio`` × the fair share ``1 / players in the hand``.
    margin : float
        Call when equity ≥ pot odds + ``margin``.
    bet : float
        Raise size as a fraction of the pot after calling (clamped to the legal range).
    samples : int
        Monte Carlo samples per postflop decision (the preflop table is exact).
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        raise_ratio: float = 1.3,
        margin: float = 0.0,
        bet: float = 1.0,
        samples: int = 300,
    ) -> None:
        super().__init__(seed=seed)
        if raise_ratio <= 0 or bet <= 0 or samples < 1:
            raise AgentSpecError(
                f"invalid equity-agent options raise_ratio={raise_ratio!r}, bet={bet!r}, "
                f"samples={samples!r}: expected positive values"
            )
        self.raise_ratio = float(raise_ratio)
        self.margin = float(margin)
        self.bet = float(bet)
        self.samples = int(samples)

    def equity(self, observation: Observation) -> float:
        """Win probability (ties shared) against random hands of the opponents still in.

        Preflop it is read from the 169-class table; later it is a Monte Carlo
        estimate with ``samples`` deals drawn with this agent's generator.
        """
        from checkraise.equity import equity
        from checkraise.equity.preflop import MAX_OPPONENTS, preflop_entry

        opponents = sum(
            1 for s, folded in enumerate(observation.folded) if s != observation.seat and not folded
        )
        opponents = min(max(opponents, 1), MAX_OPPONENTS)
        hole = observation.hole_cards
        if not observation.board:
            return float(preflop_entry(hole[0], hole[1]).equity(opponents))
        players: list[list[int] | str] = [list(hole)] + ["random"] * opponents
        result = equity(
            players, board=list(observation.board), method="mc", samples=self.samples,
            seed=self.rng,
        )
        return float(result.equity[0])

    def act(self, observation: Observation) -> Action:
        """Raise, call, check or fold by comparing equity with thresholds."""
        legal = _legal(observation)
        players = sum(1 for f in observation.folded if not f)
        eq = self.equity(observation)
        to_call = legal.call_amount
        if (
            legal.min_raise_to is not None
            and legal.max_raise_to is not None
            and eq >= self.raise_ratio / max(players, 2)
        ):
            mine = observation.contributions[observation.seat]
            pot_after_call = observation.pot + to_call
            target = mine + to_call + round(self.bet * pot_after_call)
            return Action.raise_to(min(max(target, legal.min_raise_to), legal.max_raise_to))
        if to_call == 0 or not legal.can_fold:
            return Action.call()
        if eq >= to_call / (observation.pot + to_call) + self.margin:
            return Action.call()
        return Action.fold()
