"""Decision points from real engine hands, for the action-probability tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from checkraise.agents.base import Agent, BaseAgent
from checkraise.agents.baselines import RandomAgent
from checkraise.engine import Action, Observation, State, TableConfig


@dataclass
class Decision:
    """One decision of ``seat``: its observation, and its earlier (observation, action)
    pairs on the same street, as the seat saw and played them."""

    obs: Observation
    begin: tuple[int, TableConfig, tuple[int, ...], int]
    earlier: list[tuple[Observation, Action]] = field(default_factory=list)


class SmallBettor(BaseAgent):
    """Calls, or (two times in five) bets or raises the minimum: long hands, small bets."""

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        assert legal is not None
        if legal.min_raise_to is not None and self.rng.random() < 0.4:
            return Action.raise_to(legal.min_raise_to)
        return Action.call()


def _random_opponent(seed: int) -> Agent:
    return RandomAgent(seed=seed, pfold=0.1, pcall=0.65, praise=0.25)


def decisions(
    seed: int,
    hands: int,
    seats: int = 2,
    player: Agent | None = None,
    stacks: int = 20000,
    opponent: Callable[[int], Agent] = _random_opponent,
) -> list[Decision]:
    """Every decision of the hands, or only those of ``player`` (which sits in seat
    ``hand % seats``) when it is given; ``opponent(seed)`` builds the other seats' agents
    (by default random agents that raise less than the ACPC example player, so hands
    reach the river)."""
    config = TableConfig.nolimit(seats, stacks)
    out: list[Decision] = []
    for h in range(hands):
        state = State(config, seed=seed * 10_000 + h)
        hero = h % seats
        agents = [opponent(seed * 10_000 + h * 10 + s) for s in range(seats)]
        if player is not None:
            agents[hero] = player
            begin = getattr(player, "begin_hand", None)
            if begin is not None:
                begin(hero, config, state.hole_cards[hero], h)
        street: dict[int, list[tuple[Observation, Action]]] = {}
        rnd = 0
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            if state.round != rnd:
                street = {}
                rnd = state.round
            obs = state.observation(seat)
            action = agents[seat].act(obs)
            if player is None or seat == hero:
                out.append(
                    Decision(obs, (seat, config, obs.hole_cards, h), list(street.get(seat, [])))
                )
            street.setdefault(seat, []).append((obs, action))
            state.step(action)
    return out
