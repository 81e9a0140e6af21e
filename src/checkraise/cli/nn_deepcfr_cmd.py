"""``checkraise nn deepcfr``: Deep CFR on Kuhn or Leduc poker (needs torch)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer

from checkraise.cli._options import check_seed
from checkraise.cli.nn_cmd import nn_app
from checkraise.errors import ConfigError, one_of

__all__ = ["deepcfr_command"]

# The games Deep CFR lists as a tree (written out so that --help imports nothing).
DEEPCFR_GAMES = ("kuhn", "kuhn3", "leduc")


@nn_app.command("deepcfr")
def deepcfr_command(
    game_name: str = typer.Argument(..., help=f"Game: {', '.join(DEEPCFR_GAMES)}."),
    iterations: int = typer.Option(100, "--iterations", "-n", help="Deep CFR iterations."),
    traversals: int = typer.Option(
        1500, "--traversals", help="External-sampling traversals per player and iteration."
    ),
    advantage_steps: int = typer.Option(
        375, "--advantage-steps", help="Adam steps per advantage network and iteration."
    ),
    policy_steps: int = typer.Option(2500, "--policy-steps", help="Adam steps of the policy net."),
    batch: int = typer.Option(256, "--batch", help="Batch size of both nets (0: whole buffer)."),
    memory: int = typer.Option(100_000, "--memory", help="Slots of each reservoir buffer."),
    learning_rate: float = typer.Option(1e-3, "--learning-rate", help="Adam's learning rate."),
    seed: int = typer.Option(0, "--seed", callback=check_seed, help="Seed of the whole run."),
    out: Path | None = typer.Option(
        None, "--out", help="Folder for checkpoints, the networks and the policy."
    ),
    resume: bool = typer.Option(False, "--resume", help="Go on from the checkpoint in --out."),
    checkpoint_every: int = typer.Option(
        10, "--checkpoint-every", help="Iterations between checkpoints (with --out)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Train Deep CFR; report the policy network's exploitability and the seconds taken.

    Exploitability is in chips per hand (NashConv / players), computed exactly by
    best response on the whole game; seconds count training only.
    """
    # Imported here, not at the top: `checkraise --help` need not load torch or rich.
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from checkraise.cli._progress import progress_bar
    from checkraise.nn.deep_cfr import CHECKPOINT, DeepCFRConfig, DeepCFRSolver
    from checkraise.nn.io import require_torch

    torch = require_torch()
    name = game_name.strip().lower()
    if name not in DEEPCFR_GAMES:
        raise ConfigError(f"unknown game {game_name!r}; expected one of {one_of(DEEPCFR_GAMES)}")
    config = DeepCFRConfig(
        iterations=iterations, traversals=traversals, advantage_steps=advantage_steps,
        policy_steps=policy_steps, advantage_batch=batch, policy_batch=batch, memory=memory,
        learning_rate=learning_rate, seed=seed if seed is not None else 0,
    )
    if isinstance(checkpoint_every, bool) or checkpoint_every < 1:
        raise ConfigError(f"--checkpoint-every {checkpoint_every}; expected 1 or more")
    if resume and out is None:
        raise ConfigError("--resume needs --out, the folder that holds the checkpoint")
    if out is not None and out.exists() and not out.is_dir():
        raise ConfigError(f"--out {str(out)!r} is a file; expected a folder")
    has_checkpoint = out is not None and (out / CHECKPOINT).exists()
    if resume and not has_checkpoint:
        raise ConfigError(f"--resume: no {CHECKPOINT} in {str(out)!r}; expected an earlier run")
    if has_checkpoint and not resume:
        raise ConfigError(
            f"{str(out)!r} holds an earlier run's {CHECKPOINT}; pass --resume to go on "
            "with it, or choose another folder"
        )
    torch.set_num_threads(1)
    from checkraise.games import load_game

    game = load_game(name)
    start = time.perf_counter()
    if resume:
        assert out is not None
        solver = DeepCFRSolver.load(out, iterations)
        saved = solver.config.to_dict()
        for key, value in config.to_dict().items():
            if key not in ("iterations", "seed") and saved[key] != value:
                raise ConfigError(
                    f"--resume: the checkpoint has {key}={saved[key]!r}, the command "
                    f"{key}={value!r}; expected the same settings"
                )
        if solver.game.name != game.name or dict(solver.game.params) != dict(game.params):
            raise ConfigError(f"--resume: the checkpoint is for {solver.game.name}, not {name}")
    else:
        solver = DeepCFRSolver(game, config)
    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with progress_bar(*columns, label="deep cfr", unit="iterations", console=console,
                      transient=as_json) as bar:
        task = bar.add_task(f"deep cfr {name}", total=iterations, completed=solver.iteration)
        solver.run(
            iterations,
            on_iteration=lambda done: bar.update(task, completed=done),
            checkpoint=out,
            checkpoint_every=checkpoint_every,
        )
    seconds = time.perf_counter() - start
    from checkraise.solvers.best_response import expected_values, nash_conv

    policy = solver.policy()
    conv = nash_conv(solver.tree, policy)
    result: dict[str, Any] = {
        "game": name,
        "iterations": solver.iteration,
        "traversals": traversals,
        "exploitability": conv / game.num_players,
        "nash_conv": conv,
        "values": expected_values(solver.tree, policy).tolist(),
        "seconds": seconds,
        "policy_loss": solver.policy_loss,
        "config": solver.config.to_dict(),
    }
    if out is not None:
        result["policy"] = str(policy.save(out / "policy_table.npz"))
        result["policy_network"] = str(out / "policy.npz")
        (out / "result.json").write_text(json.dumps(result, indent=2))
    if as_json:
        print(json.dumps(result))
        return
    print(
        f"deep cfr {name}: iterations {solver.iteration}  traversals {traversals}  "
        f"exploitability {result['exploitability']:.4f}  nash_conv {conv:.4f}  "
        f"seconds {seconds:.1f}"
    )
    if out is not None:
        print(f"wrote {out / 'policy.npz'}, {out / 'policy_table.npz'}, {out / 'result.json'}")
