"""Deep CFR on games too large to list as a tree (abstract hold'em on the full deck).

The same algorithm as :mod:`checkraise.nn.deep_cfr` (Brown et al. 2019), walked
through the :class:`~checkraise.games.base.Game` interface in Python: information
sets get a row of a growing tensor table the first time a traversal meets them, and
each player's strategy at a row is computed by his network the first time it is
needed after the network changed (a cache emptied when the network is retrained:
the network is fixed in between, so this is exactly a per-node evaluation). The
reservoirs and the training are shared with the tree-listed solver.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from checkraise.errors import ConfigError
from checkraise.games.base import Game, State
from checkraise.nn.deep_cfr import DeepCFRConfig
from checkraise.nn.deep_cfr_nets import MLP, masked_softmax, regret_matching, train_network
from checkraise.nn.reservoir import Reservoir

__all__ = ["SampledDeepCFR"]


class SampledDeepCFR:
    """Deep CFR through the game interface, tensors and strategies filled lazily.

    Examples
    --------
    >>> from checkraise.games import KuhnPoker
    >>> config = DeepCFRConfig(iterations=2, traversals=10, advantage_steps=2,
    ...                        policy_steps=2, advantage_batch=0, policy_batch=0, seed=1)
    >>> solver = SampledDeepCFR(KuhnPoker(), config)
    >>> solver.run()
    >>> solver.num_rows
    12
    """

    def __init__(self, game: Game, config: DeepCFRConfig) -> None:
        torch.manual_seed(config.seed)
        self.game = game
        self.config = config
        seeds = np.random.SeedSequence(config.seed)
        self.rng = np.random.default_rng(seeds.spawn(1)[0])
        self.walk_rng: npt.NDArray[np.uint64] = np.asarray(
            seeds.generate_state(1, np.uint64), dtype=np.uint64
        )
        actions = game.num_distinct_actions
        size = game.information_state_tensor_size
        self.rows: dict[str, int] = {}
        self._tensors = np.zeros((64, size), dtype=np.float32)
        self._legal = np.zeros((64, actions), dtype=np.bool_)
        self.advantage = [Reservoir(config.memory, actions) for _ in range(game.num_players)]
        self.strategy_buffer = Reservoir(config.memory, actions)
        self.nets = [MLP(size, config.advantage_layers, actions)
                     for _ in range(game.num_players)]
        self._cache: list[dict[int, npt.NDArray[np.float64]]] = [
            {} for _ in range(game.num_players)
        ]
        self.iteration = 0
        self.policy_net: MLP | None = None

    @property
    def num_rows(self) -> int:
        """Information sets met so far."""
        return len(self.rows)

    def _row(self, state: State, player: int) -> int:
        key = state.information_set_key(player)
        row = self.rows.get(key)
        if row is None:
            row = len(self.rows)
            if row == self._tensors.shape[0]:  # grow by doubling
                self._tensors = np.concatenate([self._tensors, np.zeros_like(self._tensors)])
                self._legal = np.concatenate([self._legal, np.zeros_like(self._legal)])
            self._tensors[row] = state.information_state_tensor(player)
            self._legal[row, state.legal_actions()] = True
            self.rows[key] = row
        return row

    def _strategy(self, row: int, player: int) -> npt.NDArray[np.float64]:
        cached = self._cache[player].get(row)
        if cached is None:
            with torch.inference_mode():
                adv = self.nets[player](torch.from_numpy(self._tensors[row : row + 1]))
            cached = regret_matching(adv.numpy().astype(np.float64), self._legal[row : row + 1])[0]
            self._cache[player][row] = cached
        return cached

    def _traverse(self, state: State, traverser: int, t: int) -> float:
        if state.is_terminal():
            return state.returns()[traverser]
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes])
            pick = int(self.rng.choice(len(outcomes), p=probs / probs.sum()))
            return self._traverse(state.child(outcomes[pick][0]), traverser, t)
        player = state.current_player()
        row = self._row(state, player)
        strategy = self._strategy(row, player)
        legal = state.legal_actions()
        if player != traverser:
            self.strategy_buffer.offer(row, strategy.astype(np.float32), t, self.walk_rng)
            weights = strategy[legal]
            action = legal[int(self.rng.choice(len(legal), p=weights / weights.sum()))]
            return self._traverse(state.child(action), traverser, t)
        values = np.array([self._traverse(state.child(a), traverser, t) for a in legal])
        value = float(np.dot(strategy[legal], values))
        regrets = np.zeros(self.game.num_distinct_actions, dtype=np.float32)
        regrets[legal] = values - value
        self.advantage[traverser].offer(row, regrets, t, self.walk_rng)
        return value

    def _train(self, net: MLP, buffer: Reservoir, steps: int, batch: int, policy: bool) -> Any:
        n = self.num_rows
        return train_network(
            net, buffer, torch.from_numpy(self._tensors[:n]), torch.from_numpy(self._legal[:n]),
            steps=steps, batch=batch, learning_rate=self.config.learning_rate, rng=self.rng,
            policy=policy,
        )

    def run(self, iterations: int | None = None) -> None:
        """Iterate up to ``iterations`` (default: the config's) done, then train the policy net."""
        target = self.config.iterations if iterations is None else iterations
        size = self.game.information_state_tensor_size
        actions = self.game.num_distinct_actions
        while self.iteration < target:
            t = self.iteration + 1
            for p in range(self.game.num_players):
                for _ in range(self.config.traversals):
                    self._traverse(self.game.initial_state(), p, t)
                self.nets[p] = MLP(size, self.config.advantage_layers, actions)
                self._train(self.nets[p], self.advantage[p], self.config.advantage_steps,
                            self.config.advantage_batch, policy=False)
                self._cache[p].clear()
            self.iteration = t
        self.policy_net = MLP(size, self.config.policy_layers, actions)
        self._train(self.policy_net, self.strategy_buffer, self.config.policy_steps,
                    self.config.policy_batch, policy=True)

    def action_probabilities(self, state: State) -> dict[int, float]:
        """The policy network's probabilities of the legal actions at ``state``."""
        if self.policy_net is None:
            raise ConfigError("no policy network yet; expected run() first")
        tensor = torch.from_numpy(state.information_state_tensor()[None, :])
        legal = state.legal_actions()
        mask = torch.zeros((1, self.game.num_distinct_actions), dtype=torch.bool)
        mask[0, legal] = True
        with torch.inference_mode():
            probs = masked_softmax(self.policy_net(tensor), mask)[0].numpy()
        return {a: float(probs[a]) for a in legal}
