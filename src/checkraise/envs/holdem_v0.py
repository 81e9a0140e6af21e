"""PettingZoo AEC environment: no-limit hold'em for 2–10 players over checkraise's engine.

The rules are the engine's, exactly (:mod:`checkraise.engine`): blinds, antes, side
pots, any number of raises, the ``casino`` or ``acpc`` rule set. One episode is one
hand; agents ``player_0 .. player_{n-1}`` sit in engine seats ``0 .. n-1``, which are
positions (at 3+ seats seat 0 posts the small blind, seat 1 the big blind, seat
``n - 1`` is the button; heads-up seat 0 is the button and small blind).

Each observation is PettingZoo's ``{"observation": ..., "action_mask": ...}``, the
observation a flat vector or a dict (``observation_format``,
:mod:`checkraise.envs.encoding`), the mask over the action space
(:mod:`checkraise.envs.actions`). When the hand ends every agent gets its net result
in big blinds as reward and is terminated. ``reset(seed=s)`` deals the same cards
for the same ``s``; the next unseeded resets continue that stream.

Examples
--------
>>> from checkraise.envs import holdem_v0
>>> env = holdem_v0.env(num_players=3, stacks=1000)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     env.step(None if terminated else 1)  # everybody checks or calls
>>> sum(env.unwrapped.final_rewards.values())
0.0
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from checkraise.envs._common import Table
from checkraise.envs.config import EnvConfig, check_known_options
from checkraise.errors import ConfigError

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """The AEC environment in PettingZoo's order-enforcing wrapper (keywords: :class:`raw_env`)."""
    aec = raw_env(**kwargs)
    if not aec.table.actions.continuous:
        aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)


class raw_env(AECEnv):  # type: ignore[misc]
    """The unwrapped AEC environment.

    Parameters
    ----------
    render_mode
        ``None`` or ``"ansi"`` (:meth:`render` returns the table as text, every hole
        card shown: it is the dealer's view).
    **options
        The settings of :class:`~checkraise.envs.config.EnvConfig`: ``num_players``,
        ``stacks``, ``small_blind``, ``big_blind``, ``ante``, ``rules``,
        ``bet_fractions``, ``action_format``, ``observation_format``, ``max_history``,
        ``illegal_action``.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "checkraise_holdem_v0", "render_modes": ["ansi"],
                "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        check_known_options(options, [*EnvConfig.__dataclass_fields__])
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.config = EnvConfig(**options)
        self.table = Table(self.config)
        n = self.config.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        obs_space = spaces.Dict({
            "observation": self.table.observation_space,
            "action_mask": spaces.Box(0, 1, shape=(self.table.actions.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: self.table.action_space for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.final_rewards: dict[str, float] = {}
        self.illegal_actions = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s actions (the same object every call)."""
        return self.action_spaces[agent]

    def _agent(self, seat: int) -> str:
        return self.possible_agents[seat]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (``seed`` fixes this hand's cards and the stream after it)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deck = [int(c) for c in self._rng.permutation(52)]
        state = self.table.deal(deck)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.final_rewards = {}
        seat = state.current_player
        if seat is None:  # blinds put every seat all-in: nothing to decide
            self._finish()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self._agent(seat)

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s view: its observation and its legal-action mask."""
        seat = self.possible_agents.index(agent)
        state = self.table.state
        mask = (self.table.actions.mask(state) if state.current_player == seat
                else np.zeros(self.table.actions.size, dtype=np.int8))
        return {"observation": self.table.observe(seat), "action_mask": mask}

    def _finish(self) -> None:
        self.final_rewards = dict(zip(self.possible_agents, self.table.payoffs_bb(),
                                      strict=True))
        self.rewards = dict(self.final_rewards)
        self.terminations = dict.fromkeys(self.agents, True)

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent selected (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.table.play(action)
        self.illegal_actions += not legal
        self.infos[agent] = {} if legal else {"illegal_action": True}
        self._cumulative_rewards[agent] = 0.0
        state = self.table.state
        if state.is_terminal:
            self._finish()
        else:
            seat = state.current_player
            assert seat is not None
            self.agent_selection = self._agent(seat)
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        """The table as text with ``render_mode="ansi"``; ``None`` otherwise."""
        if self.render_mode is None:
            return None
        return self.table.render()

    def close(self) -> None:
        """Nothing to release."""
