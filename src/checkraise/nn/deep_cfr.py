"""Deep CFR (Brown, Lerer, Gross & Sandholm 2019, "Deep Counterfactual Regret Minimization").

Each iteration ``t`` and each player ``p``: run ``traversals`` external-sampling
traversals with ``p`` as traverser, offering the sampled regrets at ``p``'s
information sets to ``p``'s advantage reservoir and the other player's strategy to
the strategy reservoir (:mod:`checkraise.nn._deep_cfr_kernels`); then train ``p``'s
advantage network from scratch (fresh weights, fresh Adam) on his reservoir, each
sample's squared error weighted by its iteration (linear CFR). Strategies are
regret matching on the predicted advantages of the legal actions
(:func:`~checkraise.nn.deep_cfr_nets.regret_matching`). After the last iteration a
policy network is trained on the strategy reservoir; it is the algorithm's output.

Speed without changing the algorithm: the game is listed once as a tree
(:func:`checkraise.games.build_tree`; Kuhn and Leduc), the information-state
tensors of all information sets are built once, and during one player's
traversals the networks are fixed, so they are evaluated on every information set
in one forward pass and the numba traversal reads strategies from that table. The
reservoirs store the information set's row, and training gathers tensors from the
table. Hyper-parameters default to the settings of OpenSpiel's PyTorch Deep CFR
example (``open_spiel/python/examples/deep_cfr_pytorch.py``) at 1,500 traversals.

A run can write checkpoints (:meth:`DeepCFRSolver.save`): reservoirs, random states
and the advantage networks, each file replaced atomically, and be resumed
(:meth:`DeepCFRSolver.load`) with the same result as an uninterrupted run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from checkraise.errors import ConfigError
from checkraise.games import Game, build_tree, load_game
from checkraise.games.base import State
from checkraise.games.tree import GameTree
from checkraise.nn._deep_cfr_kernels import run_traversals
from checkraise.nn.deep_cfr_nets import MLP, masked_softmax, regret_matching, train_network
from checkraise.nn.io import ModelFileError, load_into, load_model, save_model
from checkraise.nn.reservoir import Reservoir
from checkraise.solvers.policy import Policy

__all__ = ["CHECKPOINT", "DeepCFRConfig", "DeepCFRSolver", "info_tensor_table"]

#: The checkpoint's main file in an output folder (buffers, random states, header).
CHECKPOINT = "checkpoint.npz"
_HEADER = "__header__"
_KIND_ADV = "deep-cfr-advantage"
_KIND_POLICY = "deep-cfr-policy"


def _whole(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(f"{name}={value!r}; expected a whole number >= {low}")
    return value


@dataclass(frozen=True)
class DeepCFRConfig:
    """Hyper-parameters of a Deep CFR run (defaults: OpenSpiel's example, 1,500 traversals).

    ``advantage_batch`` / ``policy_batch`` of 0 train on the whole reservoir each step.
    """

    iterations: int = 100
    traversals: int = 1500
    advantage_layers: tuple[int, ...] = (64,)
    policy_layers: tuple[int, ...] = (64,)
    learning_rate: float = 1e-3
    advantage_batch: int = 256
    policy_batch: int = 256
    advantage_steps: int = 375
    policy_steps: int = 2500
    memory: int = 100_000
    seed: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        _whole("iterations", self.iterations, 1)
        _whole("traversals", self.traversals, 1)
        _whole("advantage_batch", self.advantage_batch, 0)
        _whole("policy_batch", self.policy_batch, 0)
        _whole("advantage_steps", self.advantage_steps, 0)
        _whole("policy_steps", self.policy_steps, 0)
        _whole("memory", self.memory, 1)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ConfigError(f"seed={self.seed!r}; expected a whole number >= 0")
        for name in ("advantage_layers", "policy_layers"):
            layers = getattr(self, name)
            if not isinstance(layers, tuple) or any(
                isinstance(w, bool) or not isinstance(w, int) or w < 1 for w in layers
            ):
                raise ConfigError(f"{name}={layers!r}; expected a tuple of widths >= 1")
        rate = self.learning_rate
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 < rate < 1:
            raise ConfigError(f"learning_rate={rate!r}; expected a number in (0, 1)")

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("extra")
        out["advantage_layers"] = list(self.advantage_layers)
        out["policy_layers"] = list(self.policy_layers)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DeepCFRConfig:
        values = dict(data)
        values["advantage_layers"] = tuple(values["advantage_layers"])
        values["policy_layers"] = tuple(values["policy_layers"])
        return cls(**values)


def info_tensor_table(game: Game, tree: GameTree) -> npt.NDArray[np.float32]:
    """The information-state tensor of each of ``tree``'s information sets, by index."""
    table = np.zeros((tree.num_infosets, game.information_state_tensor_size), dtype=np.float32)
    seen = np.zeros(tree.num_infosets, dtype=np.bool_)

    def walk(state: State) -> None:
        if state.is_terminal():
            return
        if not state.is_chance_node():
            i = tree.infoset_index[state.information_set_key()]
            if not seen[i]:
                table[i] = state.information_state_tensor()
                seen[i] = True
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.initial_state())
    return table


def _max_depth(tree: GameTree) -> int:
    depth = np.zeros(tree.num_nodes, dtype=np.int64)
    for n in range(1, tree.num_nodes):  # breadth-first: parents come first
        depth[n] = depth[tree.parent[n]] + 1
    return int(depth.max())


class DeepCFRSolver:
    """Deep CFR on a game small enough to list as a tree (Kuhn, Leduc).

    Examples
    --------
    >>> from checkraise.games import KuhnPoker
    >>> config = DeepCFRConfig(iterations=2, traversals=20, advantage_steps=5,
    ...                        policy_steps=5, advantage_batch=0, policy_batch=0, seed=3)
    >>> solver = DeepCFRSolver(KuhnPoker(), config)
    >>> solver.run()
    >>> policy = solver.policy()
    >>> len(policy.keys), solver.iteration
    (12, 2)
    """

    def __init__(self, game: Game, config: DeepCFRConfig) -> None:
        torch.manual_seed(config.seed)
        self.game = game
        self.config = config
        self.tree = build_tree(game)
        self.tensors = torch.from_numpy(info_tensor_table(game, self.tree))
        self.legal = torch.from_numpy(self.tree.legal.copy())
        self.max_depth = _max_depth(self.tree)
        seeds = np.random.SeedSequence(config.seed)
        self.rng = np.random.default_rng(seeds.spawn(1)[0])
        self.walk_rng: npt.NDArray[np.uint64] = np.asarray(
            seeds.generate_state(1, np.uint64), dtype=np.uint64
        )
        players = game.num_players
        actions = game.num_distinct_actions
        self.advantage = [Reservoir(config.memory, actions) for _ in range(players)]
        self.strategy_buffer = Reservoir(config.memory, actions)
        self.nets = [self._fresh(config.advantage_layers) for _ in range(players)]
        self.iteration = 0  # iterations finished
        self.losses: list[list[float | None]] = [[] for _ in range(players)]
        self.policy_net: MLP | None = None
        self.policy_loss: float | None = None
        self.strategy = np.zeros(self.tree.legal.shape, dtype=np.float64)
        for p in range(players):
            self._refresh(p)

    def _fresh(self, hidden: tuple[int, ...]) -> MLP:
        return MLP(self.game.information_state_tensor_size, hidden,
                   self.game.num_distinct_actions)

    def _refresh(self, player: int) -> None:
        """Player ``player``'s strategy at each of his information sets, from his network."""
        rows = np.flatnonzero(self.tree.infoset_player == player)
        with torch.inference_mode():
            adv = self.nets[player](self.tensors[rows]).numpy().astype(np.float64)
        self.strategy[rows] = regret_matching(adv, self.tree.legal[rows])

    def run(
        self,
        iterations: int | None = None,
        on_iteration: Callable[[int], None] | None = None,
        checkpoint: Path | None = None,
        checkpoint_every: int = 10,
    ) -> None:
        """Iterate up to ``iterations`` (default: the config's) done, then train the policy net.

        ``on_iteration(done)`` is called after each iteration; with ``checkpoint`` a
        folder, :meth:`save` runs every ``checkpoint_every`` iterations and at the end.
        """
        target = self.config.iterations if iterations is None else iterations
        tree = self.tree
        while self.iteration < target:
            t = self.iteration + 1
            for p in range(self.game.num_players):
                adv = self.advantage[p]
                strat = self.strategy_buffer
                run_traversals(
                    self.config.traversals, p, t, tree.kind, tree.player, tree.infoset,
                    tree.child_start, tree.child_count, tree.action, tree.prob, tree.returns,
                    self.strategy, self.max_depth, self.walk_rng,
                    adv.info, adv.target, adv.iteration, adv.count,
                    strat.info, strat.target, strat.iteration, strat.count,
                )
                self.nets[p] = self._fresh(self.config.advantage_layers)
                loss = train_network(
                    self.nets[p], adv, self.tensors, self.legal,
                    steps=self.config.advantage_steps, batch=self.config.advantage_batch,
                    learning_rate=self.config.learning_rate, rng=self.rng, policy=False,
                )
                self.losses[p].append(loss)
                self._refresh(p)
            self.iteration = t
            if on_iteration is not None:
                on_iteration(t)
            if checkpoint is not None and (t % checkpoint_every == 0 or t == target):
                self.save(checkpoint)
        self.train_policy()
        if checkpoint is not None:
            # The checkpoint keeps the random states from before the policy network, so
            # that a run resumed from it equals one that never stopped.
            self._save_policy(checkpoint)

    def train_policy(self) -> None:
        """Train the policy network from scratch on the strategy reservoir."""
        self.policy_net = self._fresh(self.config.policy_layers)
        self.policy_loss = train_network(
            self.policy_net, self.strategy_buffer, self.tensors, self.legal,
            steps=self.config.policy_steps, batch=self.config.policy_batch,
            learning_rate=self.config.learning_rate, rng=self.rng, policy=True,
        )

    def policy(self) -> Policy:
        """The policy network's strategy at every information set, as a :class:`Policy`."""
        if self.policy_net is None:
            raise ConfigError("no policy network yet; expected run() or train_policy() first")
        with torch.inference_mode():
            probs = masked_softmax(self.policy_net(self.tensors), self.legal).numpy()
        probs = probs.astype(np.float64) * self.tree.legal
        probs /= probs.sum(axis=1, keepdims=True)
        meta = {"algorithm": "deep-cfr", "iterations": self.iteration, **self.config.to_dict()}
        return Policy.from_tree(self.tree, probs, meta)

    def average_strategy_table(self) -> npt.NDArray[np.float64]:
        """The current (regret-matching) strategy table, one row per information set."""
        return self.strategy.copy()

    # -- checkpoints -----------------------------------------------------------------

    def save(self, folder: Path) -> None:
        """Write the run's state to ``folder``: networks first, the checkpoint file last."""
        folder.mkdir(parents=True, exist_ok=True)
        extra = {"iteration": self.iteration, "game": self.game.name}
        for p, net in enumerate(self.nets):
            save_model(folder / f"advantage_{p}.npz", net.state_dict(), net.architecture,
                       kind=_KIND_ADV, extra=extra)
        header = {
            "format": "checkraise-deep-cfr-checkpoint",
            "version": 1,
            "game": self.game.name,
            "game_params": dict(self.game.params),
            "config": self.config.to_dict(),
            "iteration": self.iteration,
            "losses": self.losses,
            "rng": self.rng.bit_generator.state,
        }
        arrays: dict[str, Any] = {
            "walk_rng": self.walk_rng,
            "torch_rng": torch.get_rng_state().numpy(),
        }
        for p, buf in enumerate(self.advantage):
            arrays.update({f"adv{p}_{k}": v for k, v in buf.arrays().items()})
        arrays.update({f"strat_{k}": v for k, v in self.strategy_buffer.arrays().items()})
        arrays[_HEADER] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
        tmp = folder / (CHECKPOINT + ".tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)
        os.replace(tmp, folder / CHECKPOINT)

    def _save_policy(self, folder: Path) -> None:
        """Write the policy network to ``folder / "policy.npz"`` (architecture in the header)."""
        assert self.policy_net is not None
        folder.mkdir(parents=True, exist_ok=True)
        save_model(
            folder / "policy.npz", self.policy_net.state_dict(), self.policy_net.architecture,
            kind=_KIND_POLICY,
            extra={"iteration": self.iteration, "game": self.game.name,
                   "game_params": dict(self.game.params), "config": self.config.to_dict(),
                   "tensor_size": self.game.information_state_tensor_size,
                   "output": "masked softmax over the legal actions"},
        )

    @classmethod
    def load(cls, folder: Path, iterations: int | None = None) -> DeepCFRSolver:
        """The run saved in ``folder``, ready to go on (``iterations``: a new target)."""
        path = folder / CHECKPOINT
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
            header = json.loads(arrays.pop(_HEADER).tobytes().decode())
        except FileNotFoundError:
            raise
        except Exception as exc:
            raise ModelFileError(f"{path}: not a Deep CFR checkpoint ({exc})") from exc
        if header.get("format") != "checkraise-deep-cfr-checkpoint":
            raise ModelFileError(f"{path}: format {header.get('format')!r}; expected a "
                                 "Deep CFR checkpoint")
        config_data = dict(header["config"])
        if iterations is not None:
            config_data["iterations"] = iterations
        config = DeepCFRConfig.from_dict(config_data)
        solver = cls(load_game(header["game"]), config)
        solver.iteration = int(header["iteration"])
        solver.losses = [list(x) for x in header["losses"]]
        solver.rng.bit_generator.state = header["rng"]
        solver.walk_rng[:] = arrays["walk_rng"]
        for p in range(solver.game.num_players):
            solver.advantage[p] = Reservoir.from_arrays(
                {k[len(f"adv{p}_"):]: v for k, v in arrays.items() if k.startswith(f"adv{p}_")})
            head, weights = load_model(folder / f"advantage_{p}.npz", kind=_KIND_ADV)
            if head.get("iteration") != solver.iteration:
                raise ModelFileError(
                    f"{folder / f'advantage_{p}.npz'}: iteration {head.get('iteration')!r}; "
                    f"the checkpoint is at {solver.iteration}"
                )
            load_into(solver.nets[p], weights, folder / f"advantage_{p}.npz")
            solver._refresh(p)
        solver.strategy_buffer = Reservoir.from_arrays(
            {k[len("strat_"):]: v for k, v in arrays.items() if k.startswith("strat_")})
        torch.set_rng_state(torch.from_numpy(arrays["torch_rng"].copy()))
        return solver
