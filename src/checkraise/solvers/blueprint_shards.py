"""Blueprint training in shards on an execution backend (Ray or local processes).

The same external-sampling MCCFR as :class:`~checkraise.solvers.blueprint.BlueprintTrainer`,
spread over processes or machines in synchronised *rounds*. In a round each of
``workers`` work items gets the current regrets, runs its share of the round's
iterations with one thread against them plus its own changes, and returns the change
of the regrets and the strategy sums it gathered. The driver then adds every item's
strategy sums (the average strategy is the average of all the play) and the **mean**
of the items' regret changes, in item order, and does the trainer's end-of-chunk
bookkeeping: iteration count, weight and linear CFR's discount.

Why the mean and not the sum, as the trainer's threads do: every item plays regret
matching on the round's regrets plus its own changes only. With the mean, the new
regrets are the mean of the items' regrets, and the potential of regret matching
(the squared norm of the positive regrets, Blackwell's condition as in Zinkevich et
al. 2007) is convex, so it grows no faster than along one item's own run: the tables
follow a regret-matching run of ``iterations / workers`` steps with the sampling noise
of all the items averaged. The sum has no such bound, and on the tiny test game it
goes astray: two items in rounds of 25,000 iterations end 200,000 iterations at
exploitability 6.3 chips (mean: 0.33; one process: 0.31; uniform play: 66.6). The
regrets therefore hold ``iterations / workers`` iterations' worth, and so does the
trainer's ``weight`` (the regret proxy's denominator); the floor and the pruning
threshold keep their meaning of one run. The mean of values within the floor and
``int32`` stays within them.

Rounds end at multiples of ``round_iterations``, at the end of each call, at the
discount points while discounting is on (the discount applies to whole rounds) and at
``prune_from`` (pruning is on for whole rounds). A round's items are seeded from the
trainer's seed, the round's first iteration and the item's number, so a run depends on
the seed, the number of workers and the round size, never on the backend or how many
processes it has. Strategy sums do not steer the sampling, so items start theirs from
zero and do not receive them: only the regrets travel to the workers.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.backend.base import Backend, Progress
from checkraise.errors import ConfigError
from checkraise.games.holdem_game import HoldemGame
from checkraise.solvers.blueprint import BlueprintTrainer, TrainSettings, game_from_dict

__all__ = ["ShardResult", "ShardWork", "ShardedStep", "train_shard"]

INT32_MAX = 2**31 - 1

_GAMES: dict[str, HoldemGame] = {}


@dataclass(frozen=True)
class ShardWork:
    """One worker's part of a round: the game, settings, seed, iterations and regrets."""

    game: dict[str, Any]
    settings: TrainSettings
    seed: int
    start: int
    iterations: int
    regrets: npt.NDArray[np.int32]


@dataclass(frozen=True)
class ShardResult:
    """A worker's change of the regrets (``int32``, or ``int64`` where it does not fit),
    the strategy sums it gathered and the nodes its traversals met."""

    regrets: npt.NDArray[np.int32] | npt.NDArray[np.int64]
    sums: npt.NDArray[np.float32]
    nodes_met: int


def _game(params: dict[str, Any]) -> HoldemGame:
    """The game of ``params``, built once per process (the card abstraction is 5.8 MB)."""
    key = json.dumps(params, sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = game_from_dict(params)
    return game


def train_shard(work: ShardWork, progress: Progress) -> ShardResult:
    """Run ``work.iterations`` iterations on a copy of ``work.regrets`` (one thread).

    Module level, so that a backend can send it to its workers. The trainer's own
    discount is off here: the driver applies it to the merged tables at the round's end.
    """
    settings = replace(work.settings, discount_until=0)
    trainer = BlueprintTrainer(_game(work.game), seed=work.seed, threads=1, settings=settings)
    if work.regrets.shape != (trainer.num_entries,):
        raise ConfigError(
            f"regrets of {work.regrets.shape[0]} entries; the game needs {trainer.num_entries}"
        )
    trainer.regrets[:] = work.regrets
    # the round's first iteration: pruning starts at the same point as in one process
    trainer.iteration = work.start
    trainer.iterate(work.iterations)
    delta = trainer.regrets.astype(np.int64) - work.regrets
    regrets: npt.NDArray[np.int32] | npt.NDArray[np.int64] = delta
    if delta.size == 0 or (delta.min() > -(2**31) and delta.max() <= INT32_MAX):
        regrets = delta.astype(np.int32)  # half the bytes to send back, nearly always
    progress(work.iterations)
    return ShardResult(regrets, trainer.sums, trainer.nodes_met)


class ShardedStep:
    """``step(trainer, n)``: run ``n`` more iterations of ``trainer`` in rounds of shards.

    Parameters
    ----------
    backend
        Where the shards run (:class:`~checkraise.backend.ray_backend.RayBackend`, or
        :class:`~checkraise.backend.LocalBackend`).
    workers
        Work items per round; the result depends on it (not on the backend's processes).
        The regrets move by the mean of the items' changes (see the module docstring).
    round_iterations
        Iterations per round (all items together). The regrets travel to every item
        and back once a round, so a round should be long next to that transfer.

    Examples
    --------
    >>> from checkraise.backend import LocalBackend
    >>> from checkraise.games.holdem import HoldemRules
    >>> from checkraise.games.holdem_game import HoldemCards
    >>> game = HoldemGame("tiny", HoldemRules(stack=400),
    ...                   HoldemCards(buckets=(2, 2, 2, 2), recall=True, deals=100))
    >>> trainer = BlueprintTrainer(game, seed=1)
    >>> step = ShardedStep(LocalBackend(1), workers=2, round_iterations=300)
    >>> step(trainer, 1000)
    >>> trainer.iteration, trainer.weight  # the regrets hold the mean of two items
    (1000, 500.0)
    """

    def __init__(self, backend: Backend, workers: int, round_iterations: int = 200_000) -> None:
        for name, v in (("workers", workers), ("round_iterations", round_iterations)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ConfigError(f"{name}={v!r}; expected a whole number >= 1")
        self.backend = backend
        self.workers = workers
        self.round_iterations = round_iterations

    def __repr__(self) -> str:
        return (
            f"ShardedStep({self.backend!r}, workers={self.workers}, "
            f"round_iterations={self.round_iterations})"
        )

    def _round_end(self, trainer: BlueprintTrainer, end: int) -> int:
        stop = trainer._chunk_end(end, self.round_iterations)
        if trainer.iteration < trainer.settings.prune_from:
            stop = min(stop, trainer.settings.prune_from)
        return stop

    def __call__(self, trainer: BlueprintTrainer, iterations: int) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
            raise ConfigError(f"iterations={iterations!r}; expected a whole number >= 0")
        end = trainer.iteration + iterations
        while trainer.iteration < end:
            self._round(trainer, self._round_end(trainer, end))

    def _round(self, trainer: BlueprintTrainer, stop: int) -> None:
        t0 = time.perf_counter()
        start = trainer.iteration
        chunk = stop - start
        counts = [chunk // self.workers + (w < chunk % self.workers) for w in range(self.workers)]
        params = dict(trainer.game.params)
        items = [
            ShardWork(
                params,
                trainer.settings,
                int(
                    np.random.SeedSequence([trainer.seed, start, w]).generate_state(1, np.uint64)[0]
                ),
                start,
                counts[w],
                trainer.regrets,
            )
            for w in range(self.workers)
            if counts[w] > 0
        ]
        results = self.backend.map(train_shard, items)
        change = np.zeros(trainer.num_entries, dtype=np.int64)
        sums = trainer.sums.astype(np.float64)
        for r in results:
            change += r.regrets
            sums += r.sums
            trainer.nodes_met += r.nodes_met
        k = len(results)
        # the mean change, rounded half up in integers (the same on every machine)
        trainer.regrets[:] = trainer.regrets + (2 * change + k) // (2 * k)
        trainer.sums[:] = sums
        trainer._end_chunk(stop, chunk / k)
        trainer.seconds += time.perf_counter() - t0
