"""Pieces both environments share: a hand in progress, its spaces and its text view."""

from __future__ import annotations

from typing import Any

import numpy as np

from checkraise.cards import format_cards
from checkraise.engine.actions import Action
from checkraise.engine.state import State
from checkraise.envs.actions import ActionAbstraction
from checkraise.envs.config import EnvConfig, ObservationFormat, history_bound
from checkraise.envs.encoding import HandRecorder, ObservationLayout

__all__ = ["Table"]


class Table:
    """One environment's fixed parts (config, layout, abstraction, spaces) and its hand."""

    def __init__(self, config: EnvConfig) -> None:
        from gymnasium import spaces

        self.config = config
        self.layout = ObservationLayout.of(config)
        self.actions = ActionAbstraction(config)
        self.bound = history_bound(config.table)
        self.bb = config.big_blind
        total = sum(config.table.stacks)
        bounds = self.layout.bounds(total, self.bound)
        self.dict_form = config.observation_format == ObservationFormat.DICT
        self.observation_space: spaces.Space[Any]
        if self.dict_form:
            self.observation_space = spaces.Dict({
                name: spaces.Box(low, high, dtype=np.float32)
                for name, (low, high) in bounds.items()})
        else:
            low = np.concatenate([b[0].reshape(-1) for b in bounds.values()])
            high = np.concatenate([b[1].reshape(-1) for b in bounds.values()])
            self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = self.actions.space()
        self.recorder: HandRecorder | None = None

    def deal(self, deck: list[int]) -> State:
        """Start a hand with ``deck`` (hole cards seat by seat, then the board)."""
        state = State(self.config.table, deck=deck)
        self.recorder = HandRecorder(self.layout, state, self.bound)
        return state

    @property
    def state(self) -> State:
        """The hand being played."""
        assert self.recorder is not None, "no hand dealt yet: call reset()"
        return self.recorder.state

    def observe(self, seat: int) -> Any:
        """``seat``'s observation in the environment's form."""
        assert self.recorder is not None, "no hand dealt yet: call reset()"
        vector = self.recorder.encode(seat)
        return self.layout.to_dict(vector) if self.dict_form else vector

    def play(self, action: Any) -> bool:
        """Play an environment action for the seat to act; whether it was legal."""
        assert self.recorder is not None
        engine, legal = self.actions.to_engine(self.state, action)
        self.recorder.step(engine)
        return legal

    def record(self, action: Action) -> None:
        """Play an engine action (an agent's, legal) for the seat to act."""
        assert self.recorder is not None
        self.recorder.step(action)

    def payoffs_bb(self) -> list[float]:
        """Each seat's net result of the finished hand in big blinds."""
        return [float(p) / self.bb for p in self.state.payoffs()]

    def render(self) -> str:
        """The table as text: board, pot, each seat, the betting so far."""
        state = self.state
        lines = [f"street {state.round}  board [{format_cards(state.board)}]  pot {state.pot}"
                 f"  betting {state.acpc_betting() or '-'}"]
        holes = state.hole_cards
        for seat in range(self.config.num_players):
            flags = " folded" if state.folded[seat] else (
                " all-in" if state.all_in_flags[seat] else "")
            mark = "*" if state.current_player == seat else " "
            lines.append(f"{mark} seat {seat} [{format_cards(holes[seat])}] stack "
                         f"{state.stacks[seat]} in {state.contributions[seat]}{flags}")
        if state.is_terminal:
            lines.append("payoffs " + " ".join(str(p) for p in state.payoffs()))
        return "\n".join(lines) + "\n"
