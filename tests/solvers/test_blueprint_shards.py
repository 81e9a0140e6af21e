"""Blueprint training in shards: the merge against a naive twin, linear CFR's schedule,
the same tables on every backend, the quality of a Ray run and `--backend ray` end to end.

The game is tiny HUNL on a pool of 300 deals, small enough for the exact best response.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from checkraise.backend import Backend, LocalBackend
from checkraise.cli.main import main
from checkraise.errors import ConfigError
from checkraise.games import build_tree
from checkraise.games.holdem import HoldemRules
from checkraise.games.holdem_game import HoldemCards, HoldemGame
from checkraise.games.tree import GameTree
from checkraise.solvers import exploitability
from checkraise.solvers._mccfr_kernels import normalise_rows
from checkraise.solvers.blueprint import (
    Blueprint,
    BlueprintTrainer,
    TrainSettings,
    strategy_on_tree,
)
from checkraise.solvers.blueprint_shards import ShardedStep

ray_group = pytest.mark.xdist_group("ray")


@pytest.fixture(scope="module")
def game() -> HoldemGame:
    return HoldemGame(
        "tiny",
        HoldemRules(stack=400),
        HoldemCards(buckets=(2, 2, 2, 2), recall=True, deals=300, deal_seed=1),
    )


@pytest.fixture(scope="module")
def tree(game: HoldemGame) -> GameTree:
    return build_tree(game)


def _exploitability(game: HoldemGame, tree: GameTree, strategy: np.ndarray) -> float:
    return exploitability(tree, strategy_on_tree(game, strategy, tree))


def _twin(game: HoldemGame, seed: int, settings: TrainSettings, rounds: list[tuple[int, int]],
          workers: int) -> tuple[np.ndarray, np.ndarray, float]:
    """The sharded run written out plainly: per round, independent one-thread trainers
    (seeded from (seed, round start, worker), no discount of their own) from the round's
    regrets; the new regrets are the mean of theirs (rounded half up), the strategy sums
    add up; then linear CFR's discount at a discount point."""
    probe = BlueprintTrainer(game, settings=settings)
    regrets = np.zeros(probe.num_entries, dtype=np.int64)
    sums = np.zeros(probe.num_entries, dtype=np.float64)
    weight = 0.0
    quiet = replace(settings, discount_until=0)
    for start, stop in rounds:
        n = stop - start
        ends = []
        total_s = sums.copy()
        for w in range(workers):
            share = n // workers + (1 if w < n % workers else 0)
            s = int(np.random.SeedSequence([seed, start, w]).generate_state(1, np.uint64)[0])
            t = BlueprintTrainer(game, seed=s, settings=quiet)
            t.regrets[:] = regrets
            t.iteration = start
            t.iterate(share)
            ends.append(t.regrets.astype(np.int64))
            total_s += t.sums
        regrets = np.floor(np.mean(ends, axis=0) + 0.5).astype(np.int64)
        sums = total_s.astype(np.float32).astype(np.float64)
        weight += n / workers
        if stop <= settings.discount_until and stop % settings.discount_every == 0:
            d = (stop // settings.discount_every) / (stop // settings.discount_every + 1)
            regrets = (regrets.astype(np.int32).astype(np.float64) * d).astype(np.int32)
            sums = (sums.astype(np.float32) * np.float32(d)).astype(np.float64)
            weight *= d
    return regrets.astype(np.int32), sums.astype(np.float32), weight


def test_rounds_equal_a_naive_twin_with_linear_discounts(game: HoldemGame) -> None:
    # Rounds end at multiples of 1,500, at the discount points 1,000, 2,000 and 3,000,
    # and where pruning starts (1,200).
    settings = TrainSettings(discount_every=1_000, discount_until=3_000, prune_from=1_200,
                             prune_below=-2_000, floor=-3_000)
    trainer = BlueprintTrainer(game, seed=5, settings=settings)
    ShardedStep(LocalBackend(1), workers=3, round_iterations=1_500)(trainer, 4_000)
    rounds = [(0, 1_000), (1_000, 1_200), (1_200, 1_500), (1_500, 2_000), (2_000, 3_000),
              (3_000, 4_000)]
    regrets, sums, weight = _twin(game, 5, settings, rounds, workers=3)
    assert trainer.iteration == 4_000
    np.testing.assert_array_equal(trainer.regrets, regrets)
    np.testing.assert_array_equal(trainer.sums, sums)
    assert trainer.weight == pytest.approx(weight, rel=1e-12)
    assert np.count_nonzero(trainer.regrets) > trainer.num_entries // 2
    assert (trainer.regrets == settings.floor).any()  # the floor and pruning were at work


def test_iteration_weight_and_discounts_follow_iterate(game: HoldemGame) -> None:
    # Linear CFR by hand: 1,000 -> x1/2 = 500; +1,000 -> x2/3 = 1,000; +1,000 -> x3/4 = 1,500;
    # then no more discounts: +2,000 = 3,500. Two items: the regrets hold half of that.
    settings = TrainSettings(discount_every=1_000, discount_until=3_000)
    sharded = BlueprintTrainer(game, seed=2, settings=settings)
    step = ShardedStep(LocalBackend(1), workers=2, round_iterations=1_500)
    step(sharded, 2_500)
    step(sharded, 2_500)
    local = BlueprintTrainer(game, seed=2, settings=settings)
    local.iterate(5_000)
    assert sharded.iteration == local.iteration == 5_000
    assert sharded.weight == pytest.approx(1_750.0, rel=1e-12)
    assert local.weight == pytest.approx(3_500.0, rel=1e-12)
    assert sharded.nodes_met > 5_000 * 2 * 3  # two traversals an iteration, >= 3 nodes each
    assert sharded.seconds > 0.0


def test_bad_arguments_are_config_errors(game: HoldemGame) -> None:
    for workers in (0, -2, True, 1.5):
        with pytest.raises(ConfigError, match="workers"):
            ShardedStep(LocalBackend(1), workers)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="round_iterations=0"):
        ShardedStep(LocalBackend(1), 2, round_iterations=0)
    trainer = BlueprintTrainer(game, seed=1)
    with pytest.raises(ConfigError, match="iterations=-1"):
        ShardedStep(LocalBackend(1), 2)(trainer, -1)
    assert trainer.iteration == 0 and not trainer.regrets.any()


@ray_group
def test_ray_and_local_backends_give_the_same_tables(
    game: HoldemGame, ray_backend: Backend
) -> None:
    runs = []
    for backend in (LocalBackend(1), ray_backend):
        t = BlueprintTrainer(game, seed=3)
        ShardedStep(backend, workers=2, round_iterations=5_000)(t, 12_000)
        runs.append(t)
    local, ray = runs
    assert local.regrets.any()
    np.testing.assert_array_equal(local.regrets, ray.regrets)
    np.testing.assert_array_equal(local.sums, ray.sums)
    assert (local.iteration, local.weight, local.nodes_met) == (
        ray.iteration,
        ray.weight,
        ray.nodes_met,
    )


@ray_group
def test_ray_shards_reach_the_quality_of_the_local_trainer(
    game: HoldemGame, tree: GameTree, ray_backend: Backend
) -> None:
    # Eight rounds of two items on Ray against one process. Summing the items' regret
    # changes instead of taking their mean goes astray here (exploitability 6.3 chips).
    n = 200_000
    local = BlueprintTrainer(game, seed=1)
    local.iterate(n)
    sharded = BlueprintTrainer(game, seed=1)
    ShardedStep(ray_backend, workers=2, round_iterations=2_000)(sharded, n)
    uniform = np.ones(local.num_entries, dtype=np.float32)
    lay = local.layout
    normalise_rows(uniform, lay.dec_base, lay.dec_stride, lay.dec_actions, lay.dec_buckets)
    e_uniform = _exploitability(game, tree, uniform)
    e_local = _exploitability(game, tree, local.average_strategy())
    e_ray = _exploitability(game, tree, sharded.average_strategy())
    print(f"exploitability: uniform {e_uniform:.4f}, local {e_local:.4f}, ray {e_ray:.4f}")
    assert sharded.iteration == local.iteration == n
    # both far below the uniform strategy (66.6 chips), and the Ray run of the same order
    # as the local one
    assert e_local < e_uniform / 100
    assert e_ray < e_uniform / 100
    assert e_ray < 2 * e_local


@ray_group
def test_cli_trains_a_blueprint_on_ray(ray_backend: Backend, tmp_path: Path) -> None:
    out = tmp_path / "run"
    # The session's Ray instance is running: the command's backend joins it.
    args = ["blueprint", "train", "--preset", "tiny", "--stack", "400", "--iterations",
            "20000", "--backend", "ray", "--workers", "2", "--round", "5000", "--out", str(out),
            "--json"]
    assert main(args) == 0
    bp = Blueprint.load(out / "blueprint.npz")
    assert bp.header["iteration"] == 20_000
    trainer = BlueprintTrainer.load(out / "checkpoint.npz")
    assert trainer.iteration == 20_000 and trainer.weight == 10_000  # mean of two items
    assert trainer.regrets.any() and trainer.sums.any()
    # --round sets the rounds: the same tables as the library's shards in rounds of 5,000
    # on one local process (rounds of 100,000 would differ)
    from checkraise.backend import LocalBackend

    mine = BlueprintTrainer(trainer.game, seed=1)
    ShardedStep(LocalBackend(1), 2, round_iterations=5_000)(mine, 20_000)
    assert np.array_equal(mine.regrets, trainer.regrets)
    assert np.array_equal(mine.sums, trainer.sums)
