"""gymnasium environment: one learner against checkraise agents, registered as
``checkraise/NoLimitHoldem-v0``.

The other seats are played by agents of the registry, named by spec strings
(:func:`checkraise.agents.base.split_agent_specs`: ``opponents="fold,heuristic"``)
or given as agent objects. One spec serves every other seat; a list gives one agent
per other seat, in the order of the seats after the learner's, so each opponent
keeps its position relative to the learner when the learner's seat changes.

An episode is ``hands_per_episode`` hands (1 by default) in which the learner has a
decision; every hand starts from the configured stacks. A hand that ends before the
learner acts (every opponent folds to its big blind) is played out on its own and
its result is added to the next reward the environment returns, so the rewards of
a run add up to the learner's net result, in big blinds. The reward of a step is 0
until the hand ends.

``reset(seed=s)`` rebuilds the opponents with seeds drawn from ``s`` and deals from
``s``, so the same seed and the same actions give the same cards and the same
opponents' play. ``info`` holds ``action_mask`` (int8, all 0 once the episode ends),
``seat`` (the learner's seat this hand), ``illegal_action`` (whether the step's
action was masked out and played as check/call) and, at the end of a hand,
``payoffs`` (every seat's net chips).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import gymnasium as gym
import numpy as np

from checkraise.agents.base import (
    Agent,
    call_begin_hand,
    call_end_hand,
    make_agent,
    split_agent_specs,
)
from checkraise.engine.actions import IllegalActionError
from checkraise.envs._common import Table
from checkraise.envs.config import EnvConfig, check_known_options
from checkraise.errors import CheckraiseError, ConfigError

__all__ = ["NoLimitHoldemEnv"]

# Hands in a row without a decision for the learner before the environment gives up
# (opponents that always fold to a learner fixed in the big blind would loop for ever).
MAX_HANDS_WITHOUT_DECISION = 1000

_OWN = ("opponents", "seat", "hands_per_episode", "seed", "render_mode")


class NoLimitHoldemEnv(gym.Env[Any, Any]):
    """No-limit hold'em for one learner; the other seats are checkraise agents.

    Parameters
    ----------
    opponents
        Agent specs (``"random"``, ``"fold,heuristic"``, a list of specs) or agent
        objects: one for every other seat, or exactly ``num_players - 1``.
    seat
        The learner's seat, or ``None`` (default) for a seat drawn at random each hand.
    hands_per_episode
        Hands in which the learner acts per episode.
    seed
        Seed of the first :meth:`reset` when that one is given none.
    render_mode
        ``None`` or ``"ansi"``.
    **options
        The settings of :class:`~checkraise.envs.config.EnvConfig` (``num_players``,
        ``stacks``, ``small_blind``, ``big_blind``, ``ante``, ``rules``,
        ``bet_fractions``, ``action_format``, ``observation_format``,
        ``max_history``, ``illegal_action``).

    Examples
    --------
    >>> env = NoLimitHoldemEnv(opponents="call", seat=1, stacks=1000, seed=3)
    >>> obs, info = env.reset()  # the opponent on the button called: no fold to check
    >>> obs.shape, info["action_mask"].tolist()
    ((664,), [0, 1, 1, 1, 1, 1])
    >>> _, reward, terminated, truncated, info = env.step(5)  # all-in, called
    >>> terminated, reward == info["payoffs"][info["seat"]] / 100
    (True, True)
    """

    # A frame rate means nothing for text, but gymnasium's checker asks for one.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  (gymnasium's field)

    def __init__(
        self,
        opponents: str | Sequence[str | Agent] = "random",
        *,
        seat: int | None = None,
        hands_per_episode: int = 1,
        seed: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        check_known_options(options, [*_OWN, *EnvConfig.__dataclass_fields__])
        self.config = EnvConfig(**options)
        n = self.config.num_players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < n):
            raise ConfigError(f"seat must be None or an int 0..{n - 1}, got {seat!r}")
        if (isinstance(hands_per_episode, bool) or not isinstance(hands_per_episode, int)
                or hands_per_episode < 1):
            raise ConfigError(f"hands_per_episode must be an int >= 1, got {hands_per_episode!r}")
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self._specs = self._opponent_list(opponents, n)
        self._fixed_seat = seat
        self.hands_per_episode = hands_per_episode
        self.render_mode = render_mode
        self.table = Table(self.config)
        self.observation_space = self.table.observation_space
        self.action_space = self.table.action_space
        self._first_seed = seed
        self._opponents: list[Agent] = []
        self.seat = 0
        self._hands = 0
        self._hand_number = 0
        self._carry = 0.0
        self._done = True

    @staticmethod
    def _opponent_list(opponents: str | Sequence[str | Agent], n: int) -> list[str | Agent]:
        if isinstance(opponents, str):
            specs: list[str | Agent] = list(split_agent_specs(opponents))
        else:
            specs = []
            for item in opponents:
                if isinstance(item, str):
                    specs.extend(split_agent_specs(item))
                elif callable(getattr(item, "act", None)):
                    specs.append(item)
                else:
                    raise ConfigError(f"opponent {item!r}: expected an agent spec or an "
                                      "object with act(observation)")
        if len(specs) == 1:
            specs *= n - 1
        if len(specs) != n - 1:
            raise ConfigError(f"opponents {opponents!r} name {len(specs)} agents: expected 1 "
                              f"(for every other seat) or {n - 1} (one per other seat)")
        for spec in specs:  # build once now, so that a bad spec fails here, not at reset
            if isinstance(spec, str):
                make_agent(spec, seed=0)
        return specs

    def _build_opponents(self) -> None:
        seeds = self.np_random.integers(0, 2**63 - 1, size=len(self._specs))
        self._opponents = [
            make_agent(spec, seed=int(s)) if isinstance(spec, str) else spec
            for spec, s in zip(self._specs, seeds, strict=True)]

    def _deal(self) -> None:
        """Deal the next hand and play it up to the learner's first decision.

        Hands the learner has no decision in are finished here; their results go into
        the carried reward.
        """
        n = self.config.num_players
        for _ in range(MAX_HANDS_WITHOUT_DECISION):
            if self._fixed_seat is None:
                self.seat = int(self.np_random.integers(n))
            else:
                self.seat = self._fixed_seat
            deck = [int(c) for c in self.np_random.permutation(52)]
            state = self.table.deal(deck)
            for seat in range(n):
                agent = self._agent_at(seat)
                if agent is not None:
                    call_begin_hand(agent, seat, state.config, state.hole_cards[seat],
                                    self._hand_number)
            self._hand_number += 1
            if self._advance():
                return
            self._carry += self._end_hand()
        raise CheckraiseError(
            f"the learner had no decision in {MAX_HANDS_WITHOUT_DECISION} hands in a row (seat "
            f"{self.seat}, opponents {self._specs!r}): do they always fold to it?")

    def _agent_at(self, seat: int) -> Agent | None:
        if seat == self.seat:
            return None
        return self._opponents[(seat - self.seat - 1) % self.config.num_players]

    def _advance(self) -> bool:
        """Let the opponents act; whether the learner is to act (else the hand is over)."""
        state = self.table.state
        while not state.is_terminal:
            actor = state.current_player
            assert actor is not None
            if actor == self.seat:
                return True
            agent = self._agent_at(actor)
            assert agent is not None
            action = agent.act(state.observation(actor))
            try:
                self.table.record(action)
            except IllegalActionError as exc:
                raise CheckraiseError(
                    f"opponent {type(agent).__name__} in seat {actor} chose the illegal action "
                    f"{action}: {exc}") from exc
        return False

    def _end_hand(self) -> float:
        """Tell the opponents the hand is over; the learner's result in big blinds."""
        state = self.table.state
        payoffs = tuple(state.payoffs())
        for seat in range(self.config.num_players):
            agent = self._agent_at(seat)
            if agent is not None:
                call_end_hand(agent, state.observation(seat), payoffs)
        return float(payoffs[self.seat]) / self.config.big_blind

    def _info(self, illegal: bool = False,
              payoffs: tuple[int | Fraction, ...] | None = None) -> dict[str, Any]:
        mask = (self.table.actions.mask(self.table.state) if not self._done
                else np.zeros(self.table.actions.size, dtype=np.int8))
        info: dict[str, Any] = {"action_mask": mask, "seat": self.seat,
                                "illegal_action": illegal}
        if payoffs is not None:
            info["payoffs"] = payoffs
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        """Start an episode; ``seed`` fixes the cards and the opponents' play."""
        first = self._np_random is None
        if seed is None and first:
            seed = self._first_seed
        super().reset(seed=seed)
        if seed is not None or first:
            self._build_opponents()
            # Agents may seed their draws by the hand number (the blueprint bot does).
            self._hand_number = 0
        self._hands = 0
        self._carry = 0.0
        self._done = False
        self._deal()
        return self.table.observe(self.seat), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents up to its next decision."""
        if self._done:
            raise gym.error.ResetNeeded("the episode is over: call reset() first")
        legal = self.table.play(action)
        reward = 0.0
        payoffs = None
        if not self._advance():
            payoffs = tuple(self.table.state.payoffs())
            seat = self.seat
            reward = self._end_hand() + self._carry
            self._carry = 0.0
            self._hands += 1
            if self._hands >= self.hands_per_episode:
                self._done = True
                return (self.table.observe(seat), reward, True, False,
                        self._info(not legal, payoffs))
            # The finished hand's view is replaced by the next hand's first decision.
            self._deal()
            reward += self._carry
            self._carry = 0.0
        return (self.table.observe(self.seat), reward, False, False,
                self._info(not legal, payoffs))

    def render(self) -> str | None:
        """The table as text with ``render_mode="ansi"``; ``None`` otherwise."""
        if self.render_mode is None:
            return None
        return self.table.render()
